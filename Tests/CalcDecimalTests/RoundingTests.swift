import CalcDecimal
import Testing

/// The decimal's public rounding (half to even, SPEC §2.15 and §3) and its digit tables: what
/// `DisplayFormat` shortens a computed value with.
///
/// Expected coefficients and exponents were worked out by hand.
@Suite struct RoundingTests {
  typealias D = Decimal34

  /// `coefficient × 10^exponent`, negative when asked.
  static func d(_ coefficient: UInt128, _ exponent: Int = 0, negative: Bool = false) -> D {
    D(coefficient: coefficient, exponent: exponent, isNegative: negative)
  }

  /// The parts of a value, to check that rounding keeps the digits it rounded to.
  static func parts(_ value: D) -> (UInt128, Int32, Bool) {
    (value.coefficient, value.exponent, value.isNegative)
  }

  // MARK: - Fraction digits

  @Test func fractionDigitsRoundHalfToEven() {
    // 2/3 to 8 places: …6666|66…7 rounds up.
    let twoThirds = Self.d(6_666_666_666_666_666_666_666_666_666_666_667, -34)
    #expect(Self.parts(twoThirds.rounded(toFractionDigits: 8)) == (66_666_667, -8, false))
    // Ties: 0.125 keeps the even 2, 0.135 takes the odd 3 up; a tail above half rounds up.
    #expect(Self.parts(Self.d(125, -3).rounded(toFractionDigits: 2)) == (12, -2, false))
    #expect(Self.parts(Self.d(135, -3).rounded(toFractionDigits: 2)) == (14, -2, false))
    #expect(Self.parts(Self.d(1_250_000_001, -10).rounded(toFractionDigits: 2)) == (13, -2, false))
    #expect(Self.parts(Self.d(25, -1).rounded(toFractionDigits: 0)) == (2, 0, false))
    #expect(Self.parts(Self.d(35, -1).rounded(toFractionDigits: 0)) == (4, 0, false))
    #expect(
      Self.parts(Self.d(35, -1, negative: true).rounded(toFractionDigits: 0)) == (4, 0, true))
  }

  @Test func fractionDigitsCarryAndKeepTrailingZeros() {
    // 0.999 to 2 places is 1.00: the coefficient carries into a new digit.
    #expect(Self.parts(Self.d(999, -3).rounded(toFractionDigits: 2)) == (100, -2, false))
    #expect(Self.d(999, -3).rounded(toFractionDigits: 2) == Self.d(1))
  }

  @Test func fractionDigitsLeaveShorterValuesAlone() {
    #expect(Self.parts(Self.d(15, -1).rounded(toFractionDigits: 8)) == (15, -1, false))
    #expect(Self.parts(Self.d(15, 2).rounded(toFractionDigits: 0)) == (15, 2, false))
    #expect(
      Self.parts(Self.d(12_345_678, -8).rounded(toFractionDigits: 8)) == (12_345_678, -8, false))
    #expect(D.zero.rounded(toFractionDigits: 3).isZero)
  }

  @Test func fractionDigitsRoundSmallValuesToZeroNeverNegative() {
    let below = Self.d(4, -3, negative: true).rounded(toFractionDigits: 2)
    #expect(below.isZero && !below.isNegative)
    // 0.005 is a tie between 0.00 and 0.01: the even 0 stays.
    #expect(Self.d(5, -3).rounded(toFractionDigits: 2).isZero)
    #expect(Self.parts(Self.d(51, -4).rounded(toFractionDigits: 2)) == (1, -2, false))
    #expect(Self.parts(Self.d(6, -3, negative: true).rounded(toFractionDigits: 2)) == (1, -2, true))
    // Far more places dropped than the value has digits.
    let tiny = Self.d(9_999_999_999_999_999_999_999_999_999_999_999, -100)
    #expect(tiny.rounded(toFractionDigits: 8).isZero)
    #expect(Self.d(1, Int(Int32.min)).rounded(toFractionDigits: 0).isZero)
  }

  // MARK: - Significant digits

  @Test func significantDigitsRoundHalfToEven() {
    #expect(Self.parts(Self.d(123_456).rounded(toSignificantDigits: 3)) == (123, 3, false))
    #expect(Self.parts(Self.d(12_345).rounded(toSignificantDigits: 4)) == (1234, 1, false))
    #expect(Self.parts(Self.d(12_355).rounded(toSignificantDigits: 4)) == (1236, 1, false))
    // -2.675 to 3 digits: a tie, the odd 7 goes up.
    let negative = Self.d(2675, -3, negative: true).rounded(toSignificantDigits: 3)
    #expect(Self.parts(negative) == (268, -2, true))
    // 1/3 to 9 digits, as a scientific display's mantissa.
    let third = Self.d(3_333_333_333_333_333_333_333_333_333_333_333, -43)
    #expect(Self.parts(third.rounded(toSignificantDigits: 9)) == (333_333_333, -18, false))
  }

  @Test func significantDigitsCarryIntoTheNextPlace() {
    // 9.96 to 2 digits is 10.: still 2 digits, one place up.
    #expect(Self.parts(Self.d(996, -2).rounded(toSignificantDigits: 2)) == (10, 0, false))
    let nines = Self.d(999_999_999_5, -19).rounded(toSignificantDigits: 9)
    #expect(Self.parts(nines) == (100_000_000, -17, false))
  }

  @Test func significantDigitsLeaveShorterValuesAlone() {
    #expect(Self.parts(Self.d(15, -1).rounded(toSignificantDigits: 9)) == (15, -1, false))
    #expect(Self.parts(Self.d(15, 2).rounded(toSignificantDigits: 2)) == (15, 2, false))
    // The digits counted are the coefficient's: 1500 made as 1500 × 10^0 has four.
    #expect(Self.parts(Self.d(1500).rounded(toSignificantDigits: 2)) == (15, 2, false))
    let full = Self.d(1_234_567_890_123_456_789_012_345_678_901_234, -40)
    #expect(Self.parts(full.rounded(toSignificantDigits: 34)) == Self.parts(full))
    #expect(Self.parts(full.rounded(toSignificantDigits: 100)) == Self.parts(full))
    #expect(D.zero.rounded(toSignificantDigits: 1).isZero)
  }

  @Test func significantDigitsAtTheTopOfTheExponentRange() {
    // 99,999 × 10^Int32.max to 2 digits is 10^(Int32.max + 5): zeros padded back in range.
    let top = Int(Int32.max)
    let rounded = Self.d(99_999, top).rounded(toSignificantDigits: 2)
    #expect(Self.parts(rounded) == (100_000, Int32.max, false))
  }

  // MARK: - Digits

  @Test func digitCounts() {
    #expect(D.digitCount(0) == 1)
    #expect(D.digitCount(9) == 1)
    #expect(D.digitCount(10) == 2)
    #expect(D.digitCount(UInt128.max) == 39)
    var power: UInt128 = 1
    for digits in 1...38 {
      power *= 10
      #expect(D.digitCount(power - 1) == digits, "10^\(digits) − 1")
      #expect(D.digitCount(power) == digits + 1, "10^\(digits)")
    }
  }

  @Test func powersOfTen() {
    #expect(D.powersOfTen.count == 39)
    var power: UInt128 = 1
    for exponent in D.powersOfTen.indices {
      #expect(D.powersOfTen[exponent] == power, "10^\(exponent)")
      if exponent < 38 { power *= 10 }
    }
  }
}
