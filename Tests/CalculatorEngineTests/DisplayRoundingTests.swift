import CalcDecimal
import CalcTestSupport
import CalculatorEngine
import Testing

/// SPEC §3: a computed value is shortened by the decimal's one half-even rounding, to 8 fraction
/// digits in positional notation and to 9 significant digits (34 in the plain format) in a
/// scientific mantissa, wherever in the exponent range the value lies. Expected texts worked
/// out by hand.
@Suite struct DisplayRoundingTests {
  struct Row: CustomTestStringConvertible, Sendable {
    let coefficient: UInt128
    let exponent: Int
    let display: String
    let plain: String
    var testDescription: String { "\(coefficient)E\(exponent) → \(display), \(plain)" }
  }

  static let rows: [Row] = [
    // Ties go to the even neighbour; anything above half goes up.
    Row(coefficient: 125, exponent: -9, display: "0.00000012", plain: "0.000000125"),
    Row(coefficient: 135, exponent: -9, display: "0.00000014", plain: "0.000000135"),
    Row(coefficient: 1_251, exponent: -10, display: "0.00000013", plain: "0.0000001251"),
    // A carry through every fraction digit.
    Row(coefficient: 19_999_999_995, exponent: -10, display: "2", plain: "1.9999999995"),
    // A carry in a scientific mantissa moves the leading digit.
    Row(coefficient: 9_999_999_999, exponent: -18, display: "1E-8", plain: "9.999999999E-9"),
    Row(
      coefficient: 1_234_567_895, exponent: -20, display: "1.2345679E-11", plain: "1.234567895E-11"),
    // At the edges of the exponent range, the digits round like anywhere else.
    Row(
      coefficient: 9_999_999_999_999_999_999_999_999_999_999_999, exponent: Int(Int32.max),
      display: "1E2147483681", plain: "9.999999999999999999999999999999999E2147483680"),
    Row(
      coefficient: 1_234_567_895, exponent: Int(Int32.min),
      display: "1.2345679E-2147483639", plain: "1.234567895E-2147483639"),
  ]

  @Test(arguments: rows) func rounding(_ row: Row) {
    let value = Decimal34(coefficient: row.coefficient, exponent: row.exponent)
    #expect(DisplayFormat.posix.text(for: value) == row.display)
    #expect(DisplayFormat.plain.text(for: value) == row.plain)
    #expect(DisplayFormat.posix.text(for: -value) == "-" + row.display)
  }
}

/// The display's fast path for short values (at most 8 fraction digits, a coefficient below
/// 2^64) against a formatter written here from the rules of SPEC §3: digits, grouping by three,
/// trailing fraction zeros dropped.
@Suite struct ShortValueDisplayTests {
  /// `coefficient` × 10^-`fraction` as SPEC §3 writes it in en_US (grouped) or ungrouped.
  static func expected(_ coefficient: UInt64, fraction: Int, negative: Bool, grouped: Bool)
    -> String
  {
    var digits = String(coefficient)
    if digits.count <= fraction {
      digits = String(repeating: "0", count: fraction - digits.count + 1) + digits
    }
    var integer = String(digits.dropLast(fraction))
    var part = String(digits.suffix(fraction))
    while part.last == "0" { part.removeLast() }
    if grouped {
      var groups: [String] = []
      while integer.count > 3 {
        groups.insert(String(integer.suffix(3)), at: 0)
        integer.removeLast(3)
      }
      integer = ([integer] + groups).joined(separator: ",")
    }
    return (negative ? "-" : "") + integer + (part.isEmpty ? "" : "." + part)
  }

  @Test func shortValuesAreWrittenAsTheRulesSay() {
    var random = SplitMix64(state: 0xD15_9A7)
    let formats = [
      (DisplayFormat(localeIdentifier: "en_US"), true),
      (DisplayFormat(localeIdentifier: "en_US").ungrouped, false),
    ]
    for _ in 0..<TestSize.count(short: 20_000, long: 400_000) {
      let digits = random.int(1...19)
      var coefficient = random.next() % (digits == 19 ? UInt64.max : UInt64(pow10(digits)))
      if coefficient == 0 { coefficient = 1 }
      let fraction = random.int(0...8)
      let negative = random.chance(30)
      let value = Decimal34(
        coefficient: UInt128(coefficient), exponent: -fraction, isNegative: negative)
      for (format, grouped) in formats {
        #expect(
          format.text(for: value)
            == Self.expected(coefficient, fraction: fraction, negative: negative, grouped: grouped),
          "\(coefficient)e-\(fraction)")
      }
    }
  }

  private func pow10(_ n: Int) -> UInt64 { (0..<n).reduce(1) { value, _ in value * 10 } }
}
