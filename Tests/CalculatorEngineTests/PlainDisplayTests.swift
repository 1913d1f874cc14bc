import CalcDecimal
import CalculatorEngine
import Testing

/// SPEC §3, plain output: ``DisplayFormat/plain`` shows the same value with no grouping, `.` as
/// the decimal point, and up to 34 significant digits; scientific notation and errors as usual.
@Suite struct PlainDisplayTests {
  static let rows: [DisplayCase] = [
    // Entries: as typed, without grouping.
    DisplayCase(keys: "", expected: "0", origin: "§3 plain start"),
    DisplayCase(keys: "1234.50", expected: "1234.50", origin: "§3 plain entry"),
    DisplayCase(keys: ".", expected: "0.", origin: "§3 plain entry"),
    DisplayCase(keys: "0.~", expected: "-0.", origin: "§3 plain entry"),
    DisplayCase(keys: "1234567.25~", expected: "-1234567.25", origin: "§3 plain entry"),
    DisplayCase(keys: "9999999999999999", expected: "9999999999999999", origin: "§2.13 limit"),
    // Results: every significant digit, trailing zeros dropped, never -0.
    DisplayCase(keys: "1000+234=", expected: "1234", origin: "§3 plain example"),
    DisplayCase(
      keys: "2/3=", expected: "0.6666666666666666666666666666666667", origin: "§3 plain example"),
    DisplayCase(keys: "1/3=", expected: "0.3333333333333333333333333333333333", origin: "§3 plain"),
    DisplayCase(
      keys: "2/3/1000=", expected: "0.0006666666666666666666666666666666667",
      origin: "§3 plain: 34 significant digits, not 34 fraction digits"),
    DisplayCase(
      keys: "99999999999*99999999999=", expected: "9999999999800000000001",
      origin: "§2.15 exact product"),
    DisplayCase(keys: "0.1+0.2=", expected: "0.3", origin: "§2.15"),
    DisplayCase(keys: "7.555*3=", expected: "22.665", origin: "§3 computed"),
    DisplayCase(keys: "1.5*2=", expected: "3", origin: "§3 trailing zeros dropped"),
    DisplayCase(keys: "1.50+", expected: "1.5", origin: "left operand is computed"),
    DisplayCase(keys: "2~*3=", expected: "-6", origin: "§3 plain negative"),
    DisplayCase(keys: "5-5=", expected: "0", origin: "§3 never -0"),
    DisplayCase(keys: "5~+5=", expected: "0", origin: "§3 never -0"),
    DisplayCase(keys: "10%", expected: "0.1", origin: "§2.8"),
    DisplayCase(keys: "1/100000000=", expected: "0.00000001", origin: "§3 10^-8 is not scientific"),
    DisplayCase(
      keys: "1000000000000000*1000000000000000*1000=",
      expected: "1000000000000000000000000000000000", origin: "§3 10^33 is not scientific"),
    // Scientific notation: from the same magnitudes, with every significant digit.
    DisplayCase(
      keys: "1/3/1000000000=", expected: "3.333333333333333333333333333333333E-10",
      origin: "§3 plain scientific"),
    DisplayCase(
      keys: "2~/3/1000000000=", expected: "-6.666666666666666666666666666666667E-10",
      origin: "§3 plain scientific"),
    DisplayCase(keys: "1/1000000000=", expected: "1E-9", origin: "§3 plain scientific"),
    DisplayCase(
      keys: "1000000000000000*1000000000000000*10000=", expected: "1E34",
      origin: "§3 plain scientific from 10^34"),
    DisplayCase(
      keys: "1234567890123456*1000000000000000*1000000=", expected: "1.234567890123456E36",
      origin: "§3 plain scientific"),
    // Errors: the same texts.
    DisplayCase(keys: "1/0=", expected: "Cannot divide by zero", origin: "§2.14"),
    DisplayCase(keys: "0/0=", expected: "Result is undefined", origin: "§2.14"),
    DisplayCase(keys: "10000000000*=========", expected: "Overflow", origin: "§2.14"),
  ]

  @Test(arguments: rows) func plainDisplay(_ row: DisplayCase) throws {
    #expect(try display(row.keys, format: .plain) == row.expected)
  }

  /// The plain format ignores the locale's symbols: scripts get the same text everywhere.
  @Test func plainIsTheSameWhateverTheLocale() throws {
    let german = try display("1234.5*1000=", format: DisplayFormat(localeIdentifier: "de_DE"))
    #expect(german == "1.234.500")
    #expect(try display("1234.5*1000=", format: .plain) == "1234500")
  }

  /// Up to 34 significant digits is exactly the value: every computed value renders back to
  /// itself, which the pocket display (8 fraction digits) does not promise.
  @Test func plainIsTheExactValue() {
    let values = [
      Decimal34(coefficient: 1_234_567_890_123_456_789_012_345_678_901_234, exponent: -40),
      Decimal34(coefficient: 5, exponent: -9, isNegative: true),
      Decimal34(coefficient: 1, exponent: 33),
    ]
    #expect(
      values.map { DisplayFormat.plain.text(for: $0) } == [
        "0.0000001234567890123456789012345678901234", "-5E-9",
        "1000000000000000000000000000000000",
      ])
  }
}
