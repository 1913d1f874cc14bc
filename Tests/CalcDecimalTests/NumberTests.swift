import CalcDecimal
import CalcTestSupport
import Testing

/// Helpers shared by the tests of `Number`: values from decimal text, and the texts compared.
enum NumberText {
  /// The exact decimal written `-12.5`, `0.0001` or `3E-40`, parsed here (not by the module).
  static func decimal(_ text: String) -> Decimal34 {
    var mantissa = Substring(text)
    var exponent = 0
    if let e = mantissa.firstIndex(where: { $0 == "E" || $0 == "e" }) {
      exponent = Int(mantissa[mantissa.index(after: e)...])!
      mantissa = mantissa[..<e]
    }
    let negative = mantissa.first == "-"
    if negative { mantissa = mantissa.dropFirst() }
    var coefficient: UInt128 = 0
    var afterPoint = false
    for character in mantissa {
      if character == "." {
        afterPoint = true
        continue
      }
      coefficient = coefficient * 10 + UInt128(character.wholeNumberValue!)
      if afterPoint { exponent -= 1 }
    }
    return Decimal34(coefficient: coefficient, exponent: exponent, isNegative: negative)
  }

  /// The exact number written as a decimal.
  static func number(_ text: String) -> Number { Number(decimal(text)) }

  /// `coefficientEexponent` without trailing zeros in the coefficient, `0` for zero: the form in
  /// which `Fraction.text` writes the model's roundings.
  static func text(_ value: Decimal34) -> String {
    if value.isZero { return "0" }
    var digits = String(value.coefficient)
    var exponent = Int(value.exponent)
    while digits.hasSuffix("0") {
      digits.removeLast()
      exponent += 1
    }
    return (value.isNegative ? "-" : "") + "\(digits)E\(exponent)"
  }
}

/// SPEC §2 rule 15: exact fractions while every step is rational, 34-digit decimals after a
/// rounded step; the display and `--plain` rounding the exact value once; `:exact`'s text
/// (§6). Expected values are worked out by hand or by Python's `fractions`, never taken from
/// the module.
@Suite struct NumberTests {
  typealias N = Number
  static func n(_ text: String) -> Number { NumberText.number(text) }
  static func n(_ value: Int) -> Number { Number(value) }
  static func d(_ text: String) -> Decimal34 { NumberText.decimal(text) }

  /// a ÷ b, which must not be a division by zero.
  static func div(_ a: Number, _ b: Number) -> Number { Number.dividing(a, by: b)! }

  // MARK: The spec's cases as arithmetic

  @Test func thirdsComeBackToZero() {
    let one = Self.n(1)
    // 1/3*3-1 = 0, 10/3*3-10 = 0, 2/3*3-2 = 0, 1/3/3/3*27-1 = 0.
    #expect(Self.div(one, Self.n(3)) * Self.n(3) - one == .zero)
    #expect(Self.div(Self.n(10), Self.n(3)) * Self.n(3) - Self.n(10) == .zero)
    #expect(Self.div(Self.n(2), Self.n(3)) * Self.n(3) - Self.n(2) == .zero)
    let ninth = Self.div(Self.div(Self.div(one, Self.n(3)), Self.n(3)), Self.n(3))
    #expect(ninth * Self.n(27) - one == .zero)
    #expect(ninth.fractionText == "1/27")
    #expect((Self.div(one, Self.n(3)) * Self.n(3)).isExact)
  }

  @Test func sumsAreNeverSnapped() {
    let big = Self.n("1000000000000000")
    #expect(Self.n("0.09") + big - big == Self.n("0.09"))
    let x = Self.n("12345678.9")
    let sum = x + Self.n("0.000000001") - x
    #expect(sum == Self.n("1E-9"))
    #expect(NumberText.text(sum.decimalValue) == "1E-9")
    let tiny = Self.div(Self.n("0.0000000000000000000000000000001"), Self.n(10))
    let back = tiny + Self.n(1) - Self.n(1)
    #expect(back == Self.n("1E-32"))
    #expect(back.isExact)
  }

  @Test func productsAreExact() {
    let x = Self.n("99999999999")
    #expect(x * x == Self.n("9999999999800000000001"))
    #expect((x * x).shortDecimal.map(NumberText.text) == "9999999999800000000001E0")
    // 123.45 × 6.7, the everyday script, stays a decimal.
    #expect((Self.n("123.45") * Self.n("6.7")).shortDecimal == Self.d("827.115"))
  }

  @Test func roundedStepsRoundAsBefore() {
    // sci 2@q-2= → 0 and 3@q-3= → -1E-33 (SPEC §2 rule 15).
    let root2 = Number.squareRoot(Self.n(2))!
    #expect(root2.isRounded)
    #expect(root2.squared - Self.n(2) == Number(rounded: .zero))
    let root3 = Number.squareRoot(Self.n(3))!
    let difference = root3.squared - Self.n(3)
    #expect(difference.isRounded)
    #expect(NumberText.text(difference.decimalValue) == "-1E-33")
    // A value that depends on a rounded one stays rounded: √2 − √2 + 1/3 is 0.3333…3, and
    // ×3 −1 gives -1E-34 as calc 0.4 did.
    let third = root2 - root2 + Self.div(Self.n(1), Self.n(3))
    #expect(third.isRounded)
    #expect(NumberText.text((third * Self.n(3) - Self.n(1)).decimalValue) == "-1E-34")
  }

  // MARK: Forms and the cap

  @Test func valueIsAsSmallAsADecimal() {
    #expect(MemoryLayout<Number>.size <= MemoryLayout<Decimal34>.size)
    #expect(MemoryLayout<Number>.stride == MemoryLayout<Decimal34>.stride)
  }

  @Test func terminatingResultsAreDecimals() {
    #expect(Self.div(Self.n(1), Self.n(8)).shortDecimal == Self.d("0.125"))
    #expect(
      (Self.div(Self.n(1), Self.n(3)) + Self.div(Self.n(1), Self.n(6))).shortDecimal
        == Self.d("0.5"))
    // 1/2^40 = 0.0000000000009094947017729282379150390625, 28 digits.
    var x = Self.n(1)
    for _ in 0..<40 { x = Self.div(x, Self.n(2)) }
    #expect(x.shortDecimal == Self.d("0.0000000000009094947017729282379150390625"))
    #expect(x.isExact)
    // 1/2^120 has 84 digits: a fraction, exact, its denominator 37 digits.
    for _ in 0..<80 { x = Self.div(x, Self.n(2)) }
    #expect(x.shortDecimal == nil)
    #expect(x.fractionText == "1/1329227995784915872903807060280344576")
  }

  @Test func theCapRoundsOnce() {
    // 1/7^142 has a 121-digit denominator (7^142 ≈ 1.06·10^120): rounded; 1/7^141 is exact.
    var x = Self.n(1)
    for _ in 0..<141 { x = Self.div(x, Self.n(7)) }
    #expect(x.isExact)
    #expect(x.fractionText?.count == 2 + 120)
    let past = Self.div(x, Self.n(7))
    #expect(past.isRounded)
    // 1/7^142 = 9.910… × 10^-121, correctly rounded (Python: Decimal(1)/Decimal(7**142) at 34
    // digits).
    #expect(NumberText.text(past.decimalValue) == "9910106414975280833820248458465188E-154")
    // From then on every step rounds, even ×7.
    #expect((past * Self.n(7)).isRounded)
  }

  @Test func aDecimalStaysExactBeyondTheCap() {
    // 1E-200 is 1/10^200 (201 digits), but a 34-digit decimal: exact, and so is its square.
    let tiny = Self.n("1E-200")
    #expect((tiny * tiny).isExact)
    #expect((tiny * tiny).shortDecimal == Self.d("1E-400"))
    // 1E-200/3 is a fraction past the cap: rounded.
    #expect(Self.div(tiny, Self.n(3)).isRounded)
    // 3E2000 × (1/3) is exactly 1E2000.
    #expect((Self.n("3E2000") * Self.div(Self.n(1), Self.n(3))).shortDecimal == Self.d("1E2000"))
  }

  // MARK: Rounding for the display

  @Test func twoThirdsRoundOnce() {
    let twoThirds = Self.div(Self.n(2), Self.n(3))
    #expect(NumberText.text(twoThirds.rounded(toFractionDigits: 8)) == "66666667E-8")
    #expect(NumberText.text(twoThirds.decimalValue) == "6666666666666666666666666666666667E-34")
    let display = twoThirds.rounded(fractionDigits: 8, mantissaDigits: 9)
    #expect(!display.isScientific)
    #expect(NumberText.text(display.value) == "66666667E-8")
  }

  @Test func noDoubleRounding() {
    // 0.12345677 + 0.5·10^-8 − 10^-40 rounds down at 8 fraction digits, though its 34-digit
    // rounding, 0.123456775000…0, would round to even (up, 0.12345678) a second time.
    let x = Self.n("0.123456775") - Self.div(Self.n("1E-40"), Self.n(3))
    #expect(NumberText.text(x.decimalValue) == "123456775E-9")
    #expect(NumberText.text(x.rounded(toFractionDigits: 8)) == "12345677E-8")
  }

  @Test func displayNotation() {
    // 1/3/1000000000 → 3.33333333E-10, scientific below 10^-8.
    let small = Self.div(Self.div(Self.n(1), Self.n(3)), Self.n("1000000000"))
    let shown = small.rounded(fractionDigits: 8, mantissaDigits: 9)
    #expect(shown.isScientific)
    #expect(NumberText.text(shown.value) == "333333333E-18")
    // 10^30/3 shows 34 digits: 333333333333333333333333333333.3333.
    let large = Self.div(Self.n("1E30"), Self.n(3))
    let fixed = large.rounded(fractionDigits: 8, mantissaDigits: 9)
    #expect(!fixed.isScientific)
    #expect(NumberText.text(fixed.value) == "3333333333333333333333333333333333E-4")
    // --plain: 34 significant digits, no fraction limit.
    let plain = Self.div(Self.n(2), Self.n(3)).rounded(fractionDigits: nil, mantissaDigits: 34)
    #expect(NumberText.text(plain.value) == "6666666666666666666666666666666667E-34")
  }

  @Test func notationAtTheBoundaries() {
    // 10^-8 − 10^-50/3 rounds to 1E-8 at 34 digits: fixed notation, as the 34-digit value had.
    let below = Self.n("1E-8") - Self.div(Self.n("1E-50"), Self.n(3))
    let shown = below.rounded(fractionDigits: 8, mantissaDigits: 9)
    #expect(!shown.isScientific)
    #expect(NumberText.text(shown.value) == "1E-8")
    #expect(below.magnitudeExponent == -9)
    // 10^34 − 1/3 rounds to 1E34: scientific, 1E34.
    let above = Self.n("1E34") - Self.div(Self.n(1), Self.n(3))
    let large = above.rounded(fractionDigits: 8, mantissaDigits: 9)
    #expect(large.isScientific)
    #expect(NumberText.text(large.value) == "1E34")
    // Zero.
    #expect(Number.zero.rounded(fractionDigits: 8, mantissaDigits: 9) == (.zero, false))
  }

  @Test func largeIntegers() {
    // 10^40 + 1: an exact integer of 41 digits, held as a fraction over 1.
    let x = Self.n("1E40") + Self.n(1)
    #expect(x.isExact && x.isInteger && x.shortDecimal == nil)
    #expect(x.exactText() == "1" + String(repeating: "0", count: 39) + "1")
    #expect(NumberText.text(x.decimalValue) == "1E40")
    #expect(x - Self.n("1E40") == Self.n(1))
    #expect(x.magnitudeExponent == 40)
  }

  @Test func functionsThatAreNotRationalRound() throws {
    let ln = Self.n(2).applying(Decimal34.ln)
    #expect(try ln.get().isRounded)
    #expect(try ln.get().decimalValue == Decimal34.ln(Self.d("2")).get())
    #expect(Self.n(-1).applying(Decimal34.ln) == .failure(.invalidInput))
  }

  // MARK: Percent, powers, roots, mod

  @Test func percentForms() {
    // 50+20% → 50·20/100 = 10; 6*6% → 6/100; (1/3)% of 3 → 0.01.
    #expect(Self.n(20).percent(of: Self.n(50)) == Self.n(10))
    #expect(Self.n(6).percent == Self.n("0.06"))
    let third = Self.div(Self.n(1), Self.n(3))
    #expect(third.percent(of: Self.n(3)) == Self.n("0.01"))
    #expect(third.percent.fractionText == "1/300")
  }

  @Test func powersAndRoots() throws {
    #expect(try Number.power(Self.n(2), Self.n(-3)).get() == Self.n("0.125"))
    #expect(try Number.power(Self.div(Self.n(1), Self.n(3)), Self.n(2)).get().fractionText == "1/9")
    #expect(try Number.power(Self.n(8), Self.div(Self.n(2), Self.n(3))).get() == Self.n(4))
    #expect(try Number.power(Self.n(-8), Self.div(Self.n(1), Self.n(3))).get() == Self.n(-2))
    #expect(Number.power(Self.n(-4), Self.n("0.5")) == .failure(.invalidInput))
    #expect(Number.power(Self.n(0), Self.n(-1)) == .failure(.invalidInput))
    #expect(
      try Number.power(Self.div(Self.n(4), Self.n(9)), Self.n("0.5")).get().fractionText
        == "2/3")
    #expect(Number.squareRoot(Self.div(Self.n(1), Self.n(9))) == Self.div(Self.n(1), Self.n(3)))
    #expect(Number.squareRoot(Self.n("2.25")) == Self.n("1.5"))
    #expect(Number.squareRoot(Self.n(-1)) == nil)
    #expect(try Number.cubeRoot(Self.n(27)).get() == Self.n(3))
    #expect(try Number.cubeRoot(Self.div(Self.n(-8), Self.n(27))).get().fractionText == "-2/3")
    #expect(try Number.root(Self.n(8), index: Self.n(3)).get() == Self.n(2))
    #expect(try Number.root(Self.n(-8), index: Self.n("1.5")).get() == Self.n(4))
    #expect(Number.root(Self.n(4), index: Self.n(0)) == .failure(.divideByZero))
    #expect(Number.root(Self.n(-4), index: Self.n(2)) == .failure(.invalidInput))
    #expect(try Number.root(Self.n(2), index: Self.n(2)).get().isRounded)
    #expect(try Number.root(.zero, index: Self.n(3)).get() == .zero)
    #expect(Number.root(.zero, index: Self.n(-3)) == .failure(.invalidInput))
    #expect(try Number.cube(Self.div(Self.n(2), Self.n(3))).get().fractionText == "8/27")
    // √(1/3): the square root of 1/3 rounded to 34 digits, rounded again.
    let root = Number.squareRoot(Self.div(Self.n(1), Self.n(3)))!
    #expect(root.isRounded)
    #expect(NumberText.text(root.decimalValue) == "5773502691896257645091487805019574E-34")
  }

  @Test func mod() throws {
    // Floored, the sign of the divisor; x mod 0 is x.
    #expect(try Number.floorMod(Self.n(7), Self.n(3)).get() == Self.n(1))
    #expect(try Number.floorMod(Self.n(-7), Self.n(3)).get() == Self.n(2))
    #expect(try Number.floorMod(Self.n(7), Self.n(-3)).get() == Self.n(-2))
    #expect(try Number.floorMod(Self.n(7), Self.n(0)).get() == Self.n(7))
    let third = Self.div(Self.n(1), Self.n(3))
    #expect(try Number.floorMod(Self.n(1), third).get() == .zero)
    #expect(
      try Number.floorMod(Self.div(Self.n(10), Self.n(7)), third).get().fractionText
        == "2/21")
    #expect(try Number.floorMod(Self.n("1E9000"), Self.n(7)).get() == Self.n(1))
  }

  @Test func floorAndCeiling() {
    let x = Self.div(Self.n(-7), Self.n(3))
    #expect(x.floor == Self.n(-3))
    #expect(x.ceiling == Self.n(-2))
    #expect(x.magnitude.floor == Self.n(2))
  }

  @Test func divisionByZero() {
    #expect(Number.dividing(Self.n(1), by: .zero) == nil)
    #expect(Number.zero.reciprocal == nil)
    #expect(Self.n(4).reciprocal == Self.n("0.25"))
  }

  @Test func comparison() {
    let third = Self.div(Self.n(1), Self.n(3))
    #expect(Number.compare(third, Self.n("0.3333333333333333333333333333333333")) == 1)
    #expect(Number.compare(-third, Self.n(0)) == -1)
    #expect(Number.compare(third, third) == 0)
    #expect(Self.n("0.5").isNumericallyEqual(to: Number(rounded: Self.d("0.5"))))
    #expect(Self.n("0.5") != Number(rounded: Self.d("0.5")))
    #expect(Number.compare(Self.n("1E50"), Self.n("-1E50")) == 1)
    #expect(third.magnitudeExponent == -1)
    #expect(Self.div(Self.n(10), Self.n(3)).magnitudeExponent == 0)
  }

  // MARK: :exact

  @Test func exactTexts() {
    #expect(Self.div(Self.n(1), Self.n(3)).exactText() == "1/3 = 0.(3)")
    #expect(Self.div(Self.n(1), Self.n(6)).exactText() == "1/6 = 0.1(6)")
    #expect(Self.div(Self.n(22), Self.n(7)).exactText() == "22/7 = 3.(142857)")
    #expect(Self.div(Self.n(-1), Self.n(3)).exactText() == "-1/3 = -0.(3)")
    #expect(Self.n(12).exactText() == "12")
    #expect(Self.n("-2.5").exactText() == "-5/2 = -2.5")
    #expect(Self.n("1E40").exactText() == "1" + String(repeating: "0", count: 40))
    #expect(
      (Self.n("99999999999") * Self.n("99999999999")).exactText()
        == "9999999999800000000001")
    #expect(Number.squareRoot(Self.n(3))!.exactText() == "≈ 1.732050807568877293527446341505872")
    #expect(Number(rounded: Self.d("1E-40")).exactText() == "≈ 1E-40")
    // A typed terminating decimal past 120 digits written out: scientific, every digit, exact.
    #expect(Self.n("1E-9999").exactText() == "1E-9999 (exact)")
    #expect(Self.n("-2.5E+200").exactText() == "-2.5E200 (exact)")
    #expect(Self.n("1E-119").exactText().hasPrefix("1/1" + String(repeating: "0", count: 118)))
    // 1/1019's period has 1,018 digits (10 has order 1018 modulo 1019).
    let long = Self.div(Self.n(1), Self.n(1019)).exactText()
    #expect(long.hasPrefix("1/1019 = 0.(000981354268891069676153091265947006869479882"))
    #expect(long.hasSuffix("… (period longer than 1,000 digits)"))
    #expect(long.count == "1/1019 = 0.(".count + 1000 + "… (period longer than 1,000 digits)".count)
    // 1/1007 = 1/(19·53): period 234, the least common multiple of 18 (for 19) and 13 (for 53).
    let shorter = Self.div(Self.n(1), Self.n(1007)).exactText()
    #expect(shorter.hasSuffix(")"))
    #expect(shorter.count == "1/1007 = 0.()".count + 234)
    // 1/(7·2^3·5) = 1/280: three digits before the period.
    #expect(Self.div(Self.n(1), Self.n(280)).exactText() == "1/280 = 0.003(571428)")
  }
}
