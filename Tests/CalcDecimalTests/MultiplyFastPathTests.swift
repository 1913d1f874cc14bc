import CalcDecimal
import Testing

/// `a × b` keeps the same coefficient and exponent (not only the same value) whether the
/// operands' coefficients fit 64 bits (one 128-bit product, the fast path every typed number
/// takes) or not (the general 256-bit product): the display shows the coefficient's digits.
@Suite struct MultiplyFastPathTests {
  typealias D = Decimal34

  static func d(_ coefficient: UInt128, _ exponent: Int = 0, negative: Bool = false) -> D {
    D(coefficient: coefficient, exponent: exponent, isNegative: negative)
  }

  static let top = Int(Int32.max)
  static let bottom = Int(Int32.min)

  struct Case: Sendable, CustomTestStringConvertible {
    let a: D
    let b: D
    let coefficient: UInt128
    let exponent: Int
    let negative: Bool
    let note: String
    var testDescription: String { note }
  }

  static let cases: [Case] = [
    Case(
      a: d(12345, -2), b: d(67, -1), coefficient: 827115, exponent: -3, negative: false,
      note: "123.45 × 6.7"),
    Case(
      a: d(12345, -2, negative: true), b: d(67, -1), coefficient: 827115, exponent: -3,
      negative: true, note: "a negative operand"),
    Case(
      a: d(UInt128(UInt64.max)), b: d(UInt128(UInt64.max)),
      coefficient: 3_402_823_669_209_384_634_264_811_192_843_491, exponent: 5, negative: false,
      note: "(2^64−1)²: 39 digits, rounded down to 34"),
    Case(
      a: d(100_000_000_000_000_001), b: d(100_000_000_000_000_001),
      coefficient: 1_000_000_000_000_000_020_000_000_000_000_000, exponent: 1, negative: false,
      note: "(10^17+1)²: 35 digits, the last 1 dropped"),
    Case(
      a: d(10_000_000_000_000_000_000), b: d(30), coefficient: 300_000_000_000_000_000_000,
      exponent: 0, negative: false, note: "10^19 × 30: trailing zeros kept, fast path"),
    Case(
      a: d(100_000_000_000_000_000_000), b: d(3), coefficient: 300_000_000_000_000_000_000,
      exponent: 0, negative: false, note: "10^20 × 3: the same, general path"),
    Case(
      a: d(5, top), b: d(3, 1), coefficient: 150, exponent: top, negative: false,
      note: "above the exponent range: padded"),
    Case(
      a: d(1, bottom), b: d(2, 0, negative: true), coefficient: 2, exponent: bottom,
      negative: true, note: "at the bottom of the range"),
    Case(
      a: d(1, bottom), b: d(1, -1, negative: true), coefficient: 0, exponent: bottom,
      negative: false, note: "below the range: rounded to zero, never negative"),
  ]

  @Test(arguments: cases) func productKeepsItsCoefficientAndExponent(_ row: Case) {
    let product = row.a * row.b
    #expect(product.coefficient == row.coefficient)
    #expect(Int(product.exponent) == row.exponent)
    #expect(product.isNegative == row.negative)
    let swapped = row.b * row.a
    #expect(swapped.coefficient == row.coefficient && swapped.exponent == product.exponent)
  }
}
