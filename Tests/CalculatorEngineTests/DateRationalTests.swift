import CalcDecimal
import CalcTestSupport
import Testing

@testable import CalculatorEngine

/// Date mode's exact arithmetic (`DateRational`, the seam that CalcDecimal's exact type can
/// replace): its integers against `UInt128`, and its rounding, limits and decimals.
@Suite struct DateRationalTests {
  static func natural(_ value: UInt128) -> DateNatural { DateNatural(value) }

  @Test func integersMatchUInt128() {
    let seed = UInt64.random(in: 0...UInt64.max)
    var random = SplitMix64(state: seed)
    for _ in 0..<TestSize.count(short: 500, long: 50_000) {
      // Widths from 1 to 64 bits each, so that products fit 128 bits.
      let a = random.next() >> UInt64(random.below(64))
      let b = max(1, random.next() >> UInt64(random.below(64)))
      let (x, y) = (UInt128(a), UInt128(b))
      #expect((Self.natural(x) * Self.natural(y)).uint128 == x * y, "seed \(seed)")
      #expect((Self.natural(x) + Self.natural(y)).uint128 == x + y)
      if x >= y { #expect((Self.natural(x) - Self.natural(y)).uint128 == x - y) }
      let big = x * y + UInt128(random.next() % b)
      let (quotient, remainder) = Self.natural(big).quotientAndRemainder(
        dividingBy: Self.natural(y))
      #expect(quotient.uint128 == big / y, "seed \(seed): \(big) / \(y)")
      #expect(remainder.uint128 == big % y)
      #expect(Self.natural(big).decimalText == String(big))
      #expect(Self.natural(big).decimalDigitCount == String(big).count)
      #expect(DateNatural.gcd(Self.natural(x), Self.natural(y)).uint128 == Self.gcd(x, y))
      #expect(
        DateNatural.gcd(Self.natural(big), Self.natural(x * 3)).uint128 == Self.gcd(big, x * 3))
      let shift = random.below(60)
      #expect(Self.natural(x).shiftedLeft(shift).shiftedRight(shift).uint128 == x)
    }
  }

  static func gcd(_ a: UInt128, _ b: UInt128) -> UInt128 {
    var (a, b) = (a, b)
    while b != 0 { (a, b) = (b, a % b) }
    return a
  }

  @Test func largeIntegers() {
    let ten40 = DateNatural.powerOfTen(40)
    #expect(ten40.decimalText == "1" + String(repeating: "0", count: 40))
    #expect(ten40.decimalDigitCount == 41)
    #expect((ten40 - .one).decimalDigitCount == 40)
    let product = DateNatural.powerOfTen(75) * DateNatural.powerOfTen(60)
    #expect(product == DateNatural.powerOfTen(135))
    let (quotient, remainder) = (product + DateNatural(7 as UInt64)).quotientAndRemainder(
      dividingBy: DateNatural.powerOfTen(70))
    #expect(quotient == DateNatural.powerOfTen(65))
    #expect(remainder == DateNatural(7 as UInt64))
    #expect(
      DateNatural(digits: "123456789012345678901234567890")?.decimalText
        == "123456789012345678901234567890")
    #expect(DateNatural(digits: "12a") == nil)
  }

  @Test func fractionsAreReduced() {
    let value = DateRational.dividing(DateRational(3600), by: DateRational(-84))!
    #expect(value.fractionText == "-300/7")
    #expect((value + DateRational.dividing(DateRational(300), by: DateRational(7))!).isZero)
    #expect((value - value).fractionText == "0")
    #expect((-DateRational.zero).fractionText == "0")
    #expect(DateRational(decimal: "2.50")?.fractionText == "5/2")
    #expect(DateRational(decimal: ".5")?.fractionText == "1/2")
    #expect(DateRational(decimal: "5.")?.fractionText == "5")
    #expect(DateRational(decimal: "1.2.3") == nil)
    #expect(DateRational.dividing(DateRational(1), by: .zero) == nil)
  }

  @Test func roundingIsHalfToEven() {
    func rational(_ text: Substring) -> DateRational { DateRational(decimal: text)! }
    // To an integer.
    #expect(rational("2.5").magnitudeRoundedToInteger.decimalText == "2")
    #expect(rational("3.5").magnitudeRoundedToInteger.decimalText == "4")
    #expect(rational("2.5000001").magnitudeRoundedToInteger.decimalText == "3")
    // To 34 significant digits: a tie goes to the even digit.
    let tie = rational("1.0000000000000000000000000000000005")
    #expect(
      tie.decimal
        == Decimal34(coefficient: 1_000_000_000_000_000_000_000_000_000_000_000, exponent: -33))
    let up = rational("1.0000000000000000000000000000000015")
    #expect(
      up.decimal
        == Decimal34(coefficient: 1_000_000_000_000_000_000_000_000_000_000_002, exponent: -33))
    // Rounding up to the next power of ten keeps 34 digits.
    let nines = rational(Substring(String(repeating: "9", count: 40)))
    #expect(nines.decimal == Decimal34(coefficient: 1, exponent: 40))
    let third = DateRational.dividing(DateRational(1), by: DateRational(3))!
    #expect(TimeSpan.plainDecimal(third) == "0.3333333333333333333333333333333333")
  }

  @Test func decimalsOfDecimal34AreExact() {
    let value = DateRational(Decimal34(coefficient: 125, exponent: -2))
    #expect(value.fractionText == "5/4")
    #expect(!value.isRounded)
    let marked = DateRational(Decimal34(coefficient: 125, exponent: -2), isRounded: true)
    #expect(marked.isRounded)
    #expect(
      DateRational(Decimal34(coefficient: 3, exponent: 5, isNegative: true)).fractionText
        == "-300000")
  }

  @Test func magnitudesAtTheLimits() {
    let limit = DateRational(isNegative: false, numerator: .powerOfTen(100), denominator: .one)
    #expect(limit.magnitudeReaches(powerOfTen: 100))
    #expect(!(limit - DateRational(1)).magnitudeReaches(powerOfTen: 100))
    let small = DateRational(isNegative: true, numerator: .one, denominator: .powerOfTen(100))
    #expect(small.magnitudeReaches(powerOfTen: -100))
    let smaller = DateRational(
      isNegative: false, numerator: .one, denominator: .powerOfTen(100) + .one)
    #expect(!smaller.magnitudeReaches(powerOfTen: -100))
    #expect(!DateRational.zero.magnitudeReaches(powerOfTen: -100))
    for exponent in [-120, -37, -1, 0, 1, 2, 33, 99] {
      let power = DateRational(
        isNegative: false, numerator: .powerOfTen(max(0, exponent)),
        denominator: .powerOfTen(max(0, -exponent)))
      #expect(power.magnitudeReaches(powerOfTen: exponent))
      #expect(!power.magnitudeReaches(powerOfTen: exponent + 1))
    }
  }

  @Test func repeatingDecimals() {
    func fraction(_ p: Int, _ q: Int) -> DateRational {
      DateRational.dividing(DateRational(p), by: DateRational(q))!
    }
    #expect(fraction(1, 3).repeatingDecimalText() == "0.(3)")
    #expect(fraction(1, 6).repeatingDecimalText() == "0.1(6)")
    #expect(fraction(22, 7).repeatingDecimalText() == "3.(142857)")
    #expect(fraction(-1, 3).repeatingDecimalText() == "-0.(3)")
    #expect(fraction(3600, 7).repeatingDecimalText() == "514.(285714)")
    #expect(fraction(5, 4).repeatingDecimalText() == "1.25")
    #expect(fraction(7, 1).repeatingDecimalText() == "7")
    #expect(fraction(1, 12).repeatingDecimalText() == "0.08(3)")
    // 1/1019 repeats every 1018 digits: the first 1,000 are shown.
    let long = fraction(1, 1019).repeatingDecimalText()
    #expect(long.hasSuffix("… (period longer than 1,000 digits)"))
    #expect(long.hasPrefix("0.000981354268891"))
    #expect(long.count == "0.".count + 1000 + "… (period longer than 1,000 digits)".count)
    // 1/983 repeats every 982 digits: shown whole.
    #expect(fraction(1, 983).repeatingDecimalText().count == "0.()".count + 982)
  }
}
