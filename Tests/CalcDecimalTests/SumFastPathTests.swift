import CalcDecimal
import CalcTestSupport
import Testing

/// `a + b` of operands with one exponent and coefficients below 2^64 (the fast path of two typed
/// numbers with as many decimals) gives the general path's coefficient and exponent, not only
/// its value: the display shows the coefficient's digits.
@Suite struct SumFastPathTests {
  typealias D = Decimal34

  static func d(_ coefficient: UInt128, _ exponent: Int = 0, negative: Bool = false) -> D {
    D(coefficient: coefficient, exponent: exponent, isNegative: negative)
  }

  static let p10 = Decimal34.powersOfTen
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

  /// Worked out by hand from the general path: both operands padded to 34 digits, the sum kept
  /// at the smaller padded exponent, or rounded to 34 digits when longer there.
  static let cases: [Case] = [
    Case(
      a: d(15, -1), b: d(25, -1), coefficient: 4 * p10[33], exponent: -33, negative: false,
      note: "1.5 + 2.5: padded to 34 digits"),
    Case(
      a: d(55, -1), b: d(54, -1, negative: true), coefficient: p10[32], exponent: -33,
      negative: false, note: "5.5 − 5.4: kept at the padded exponent"),
    Case(
      a: d(100), b: d(1, negative: true), coefficient: 99 * p10[32], exponent: -32,
      negative: false, note: "100 − 1: 35 digits at the padded exponent, rounded to 34"),
    Case(
      a: d(1, negative: true), b: d(100), coefficient: 99 * p10[32], exponent: -32,
      negative: false, note: "−1 + 100: the larger's sign"),
    Case(
      a: d(3, -2), b: d(7, -2, negative: true), coefficient: 4 * p10[33], exponent: -35,
      negative: true, note: "0.03 − 0.07"),
    Case(
      a: d(42, 3), b: d(42, 3, negative: true), coefficient: 0, exponent: 0, negative: false,
      note: "x − x is zero, never negative"),
    Case(
      a: d(1, bottom), b: d(1, bottom), coefficient: 2, exponent: bottom, negative: false,
      note: "at the bottom of the range the padding is rounded away"),
  ]

  @Test(arguments: cases) func sumKeepsTheGeneralPathsCoefficient(_ row: Case) {
    let sum = row.a + row.b
    #expect(sum.coefficient == row.coefficient)
    #expect(Int(sum.exponent) == row.exponent)
    #expect(sum.isNegative == row.negative)
  }

  /// The general path depends on the operands' values only: `a` written with one more trailing
  /// zero (another exponent, so not the fast path) must give the same coefficient and exponent.
  @Test func randomSumsAgreeWithTheGeneralPath() {
    var random = SplitMix64(state: 0x5A_F00D)
    var checked = 0
    for _ in 0..<2_000 {
      let exponent = random.int(-40...40)
      let x = UInt128(random.next() >> UInt64(random.below(64)))
      let y = random.chance(10) ? x : UInt128(random.next() >> UInt64(random.below(64)))
      guard x != 0, y != 0 else { continue }
      let a = Self.d(x, exponent, negative: random.chance(50))
      let b = Self.d(y, exponent, negative: random.chance(50))
      let written = Self.d(x * 10, exponent - 1, negative: a.isNegative)
      for (fast, general) in [(a + b, written + b), (b + a, b + written), (a - b, written - b)] {
        #expect(
          fast.coefficient == general.coefficient && fast.exponent == general.exponent
            && fast.isNegative == general.isNegative,
          "\(x)E\(exponent) and \(y)E\(exponent)")
        checked += 1
      }
    }
    #expect(checked > 5_000)
  }
}
