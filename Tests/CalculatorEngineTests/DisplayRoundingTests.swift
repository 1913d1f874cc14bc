import CalcDecimal
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
