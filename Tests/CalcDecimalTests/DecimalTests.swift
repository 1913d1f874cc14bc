import CalcDecimal
import CalcTestSupport
import Testing

/// SPEC §2.15: decimal arithmetic with 34 significant digits, rounded half to even.
///
/// Values are written as `coefficient × 10^exponent`; expected results were worked out by hand
/// (and with exact fractions where the digits are many), never taken from the module under
/// test.
@Suite struct DecimalTests {
  typealias D = Decimal34

  /// `coefficient × 10^exponent`, negative when asked.
  static func d(_ coefficient: UInt128, _ exponent: Int = 0, negative: Bool = false) -> D {
    D(coefficient: coefficient, exponent: exponent, isNegative: negative)
  }

  /// 10^n as a `UInt128`, computed here rather than taken from the module under test.
  static func p10(_ n: Int) -> UInt128 {
    var value: UInt128 = 1
    for _ in 0..<n { value *= 10 }
    return value
  }

  /// A value as text with trailing zeros of the coefficient folded into the exponent, e.g.
  /// `-15E-1`; zero is `0`, and a zero that claims to be negative is `-0`. Equal numbers give
  /// equal text whatever their coefficients.
  static func canonical(_ coefficient: UInt128, _ exponent: Int, negative: Bool) -> String {
    if coefficient == 0 { return negative ? "-0" : "0" }
    var (c, e) = (coefficient, exponent)
    while c % 10 == 0 {
      c /= 10
      e += 1
    }
    return "\(negative ? "-" : "")\(c)E\(e)"
  }

  static func canonical(_ value: D) -> String {
    canonical(value.coefficient, Int(value.exponent), negative: value.isNegative)
  }

  /// Whether `value` has at most 34 digits.
  static func fits(_ value: D) -> Bool { value.coefficient < p10(34) }

  // MARK: - Parts

  @Test func zeroIsNeverNegative() {
    #expect(!Self.d(0, 5, negative: true).isNegative)
    #expect(!(-D.zero).isNegative)
    #expect((-Self.d(0, -3)).isZero)
    #expect(D.zero.isZero)
    #expect(D.zero.magnitudeExponent == nil)
  }

  @Test func negation() {
    let x = Self.d(15, -1)
    #expect((-x).isNegative)
    #expect(Self.canonical(-x) == "-15E-1")
    #expect(-(-x) == x)
  }

  @Test func constructionRoundsTo34Digits() {
    // 35 digits, last 5, kept digit 4 even: stays.
    let even = Self.d(12_345_678_901_234_567_890_123_456_789_012_345)
    #expect(even.coefficient == 1_234_567_890_123_456_789_012_345_678_901_234)
    #expect(even.exponent == 1)
    // 35 digits, last 5, kept digit 3 odd: up.
    let odd = Self.d(12_345_678_901_234_567_890_123_456_789_012_335)
    #expect(odd.coefficient == 1_234_567_890_123_456_789_012_345_678_901_234)
    #expect(odd.exponent == 1)
    // 10^34 has 35 digits: 10^33 × 10.
    let power = Self.d(Self.p10(34))
    #expect(power.coefficient == Self.p10(33))
    #expect(power.exponent == 1)
    // UInt128.max = 340282366920938463463374607431768211455: keep 34 digits, drop 11455.
    let max = Self.d(UInt128.max, -5)
    #expect(max.coefficient == 3_402_823_669_209_384_634_633_746_074_317_682)
    #expect(max.exponent == 0)
  }

  @Test func magnitudeExponent() {
    #expect(Self.d(123).magnitudeExponent == 2)
    #expect(Self.d(123, -5).magnitudeExponent == -3)
    #expect(Self.d(1, 99).magnitudeExponent == 99)
    #expect(Self.d(Self.p10(34) - 1, -134).magnitudeExponent == -101)
  }

  @Test func percentIsExact() {
    #expect(Self.canonical(Self.d(5).percent) == "5E-2")
    #expect(Self.canonical(Self.d(1234, -1, negative: true).percent) == "-1234E-3")
  }

  @Test func normalized() {
    let value = Self.d(1500, -3).normalized
    #expect(value.coefficient == 15)
    #expect(value.exponent == -1)
    #expect(Self.d(0, 7).normalized == D.zero)
  }

  // MARK: - isNumericallyEqual

  static let equalPairs: [(D, D)] = [
    (d(150, -2), d(15, -1)),
    (d(1, 2), d(100)),
    (d(0, 5), d(0, -3)),
    (d(0, 5, negative: true), d(0)),
    (d(7, 0, negative: true), d(7_000, -3, negative: true)),
    (d(p10(33), -33), d(1)),
  ]

  static let unequalPairs: [(D, D)] = [
    (d(15, -1, negative: true), d(15, -1)),
    (d(1), d(10)),
    (d(1), d(0)),
    (d(1, -100), d(0)),
    (d(p10(34) - 1, -33), d(1, 1)),
    (d(12, 0), d(21, 0)),
  ]

  @Test(arguments: equalPairs) func numericallyEqual(_ a: D, _ b: D) {
    #expect(a.isNumericallyEqual(to: b))
    #expect(b.isNumericallyEqual(to: a))
  }

  @Test(arguments: unequalPairs) func numericallyUnequal(_ a: D, _ b: D) {
    #expect(!a.isNumericallyEqual(to: b))
    #expect(!b.isNumericallyEqual(to: a))
  }

  @Test(arguments: equalPairs) func equalityIsNumeric(_ a: D, _ b: D) {
    #expect(a == b)
    #expect(a.hashValue == b.hashValue)
    #expect(Set([a, b]).count == 1)
  }

  @Test(arguments: unequalPairs) func inequalityIsNumeric(_ a: D, _ b: D) {
    #expect(a != b)
  }

  @Test func equalNumbersKeepTheirCoefficients() {
    // 1.50 == 1.5, yet each keeps the digits it was made with.
    #expect(Self.d(150, -2) == Self.d(15, -1))
    #expect(Self.d(150, -2).coefficient == 150)
    #expect(Self.d(15, -1).coefficient == 15)
  }

  /// An 8-byte-aligned 24-byte value, not a 16-byte-aligned 32-byte one: states copy less.
  @Test func layout() {
    #expect(MemoryLayout<D>.alignment == 8)
    #expect(MemoryLayout<D>.stride == 24)
  }

  // MARK: - The ends of the exponent range

  static let top = Int(Int32.max)
  static let bottom = Int(Int32.min)

  @Test func aboveTheExponentRangeZerosArePaddedThenTheLargestValue() {
    let padded = Self.d(5, Self.top + 2)
    #expect(padded.coefficient == 500 && Int(padded.exponent) == Self.top)
    let largest = Self.d(Self.p10(34) - 1, Self.top + 1, negative: true)
    #expect(largest.coefficient == Self.p10(34) - 1 && Int(largest.exponent) == Self.top)
    #expect(largest.isNegative)
    let product = Self.d(3, Self.top) * Self.d(7, Self.top)
    #expect(product.coefficient == Self.p10(34) - 1 && Int(product.exponent) == Self.top)
    let quotient = D.dividing(Self.d(1, Self.top), by: Self.d(1, Self.bottom))!
    #expect(Int(quotient.exponent) == Self.top)
  }

  @Test func belowTheExponentRangeDigitsAreRoundedAwayThenZero() {
    let rounded = Self.d(15, Self.bottom - 1)
    #expect(rounded.coefficient == 2 && Int(rounded.exponent) == Self.bottom)
    let even = Self.d(25, Self.bottom - 1)
    #expect(even.coefficient == 2)
    #expect(Self.d(123, Self.bottom - 50).isZero)
    #expect(Self.d(1, Self.bottom).percent.isZero)
    #expect(Self.d(1234, Self.bottom).percent.coefficient == 12)
    #expect((Self.d(1, Self.bottom) * Self.d(1, Self.bottom)).isZero)
    #expect(D.dividing(Self.d(1, Self.bottom), by: Self.d(3, Self.top))!.isZero)
  }

  @Test func normalizingStopsAtTheTopOfTheRange() {
    let value = Self.d(10, Self.top)
    #expect(value.normalized.coefficient == 10)
    #expect(value == Self.d(10, Self.top))
  }

  // MARK: - Exact and rounded results

  struct Case: Sendable, CustomTestStringConvertible {
    let a: D
    let op: String
    let b: D
    /// The expected result as `canonical(_:)` text.
    let expected: String
    let note: String
    var testDescription: String { "\(note): \(op)" }

    func result() -> D? {
      switch op {
      case "+": a + b
      case "-": a - b
      case "*": a * b
      default: D.dividing(a, by: b)
      }
    }
  }

  static let nines34 = p10(34) - 1  // 34 nines

  static let cases: [Case] = [
    // Exact at 34 digits.
    Case(
      a: d(p10(17) - 1), op: "*", b: d(p10(17) - 1),
      expected: "9999999999999999800000000000000001E0", note: "(10^17−1)² has 34 digits"),
    Case(
      a: d(p10(16) - 1), op: "*", b: d(p10(16) - 1),
      expected: "99999999999999980000000000000001E0", note: "two 16-digit entries"),
    Case(
      a: d(1), op: "+", b: d(1, -33),
      expected: "1000000000000000000000000000000001E-33", note: "1 + 10^-33 exact"),
    Case(
      a: d(nines34), op: "-", b: d(nines34 - 1),
      expected: "1E0", note: "34 nines − …998"),
    Case(
      a: d(1, 1), op: "/", b: d(4), expected: "25E-1", note: "10 ÷ 4 exact"),
    Case(
      a: d(p10(16) - 1), op: "/", b: d(3), expected: "3333333333333333E0",
      note: "exact division"),
    // Rounding at the 34th digit: above and below half.
    Case(
      a: d(p10(17) + 1), op: "*", b: d(p10(17) + 1),
      expected: "100000000000000002E17",
      note: "(10^17+1)² = 10^34 + 2·10^17 + 1: 35 digits, the last 1 dropped"),
    Case(
      a: d(1), op: "+", b: d(1, -34), expected: "1E0", note: "1 + 10^-34 → 1"),
    Case(
      a: d(1), op: "/", b: d(3), expected: "3333333333333333333333333333333333E-34",
      note: "1 ÷ 3"),
    Case(
      a: d(2), op: "/", b: d(3), expected: "6666666666666666666666666666666667E-34",
      note: "2 ÷ 3 rounds up"),
    Case(
      a: d(1), op: "/", b: d(7), expected: "1428571428571428571428571428571429E-34",
      note: "1 ÷ 7 rounds up"),
    // Ties, both ways.
    Case(
      a: d(nines34), op: "+", b: d(5, -1), expected: "1E34",
      note: "…9.5: tie, odd 9 rounds up and carries"),
    Case(
      a: d(nines34 - 1), op: "+", b: d(5, -1), expected: "9999999999999999999999999999999998E0",
      note: "…8.5: tie, even 8 stays"),
    Case(
      a: d(nines34 - 1), op: "+", b: d(50_000_001, -8),
      expected: "9999999999999999999999999999999999E0", note: "…8.50000001: above half"),
    Case(
      a: d(nines34 - 1), op: "+", b: d(49_999_999, -8),
      expected: "9999999999999999999999999999999998E0", note: "…8.49999999: below half"),
    Case(
      a: d(1, 34), op: "-", b: d(5, -1), expected: "1E34",
      note: "10^34 − 0.5 = …9.5: tie, odd rounds up"),
    Case(
      a: d(1, 34), op: "-", b: d(15, -1), expected: "9999999999999999999999999999999998E0",
      note: "10^34 − 1.5 = …8.5: tie, even stays"),
    Case(
      a: d(1), op: "+", b: d(5, -34), expected: "1E0", note: "1.000…0|5: tie, even 0 stays"),
    Case(
      a: d(p10(33) + 1, -33), op: "+", b: d(5, -34),
      expected: "1000000000000000000000000000000002E-33", note: "1.000…1|5: tie, odd 1 up"),
    Case(
      a: d(1), op: "-", b: d(5, -35), expected: "1E0",
      note: "0.(34 nines)5: tie, odd 9 rounds up to 1"),
    Case(
      a: d(1), op: "-", b: d(15, -35), expected: "9999999999999999999999999999999998E-34",
      note: "0.(33 nines)85: tie, even 8 stays"),
    Case(
      a: d(p10(33) + 1), op: "*", b: d(15), expected: "1500000000000000000000000000000002E1",
      note: "×: …01|5 tie, odd up"),
    Case(
      a: d(p10(33) + 3), op: "*", b: d(15), expected: "1500000000000000000000000000000004E1",
      note: "×: …04|5 tie, even stays"),
    Case(
      a: d(nines34), op: "/", b: d(2), expected: "5E33",
      note: "÷: 4…9.5 exact tie, odd rounds up"),
    Case(
      a: d(nines34 - 2), op: "/", b: d(2), expected: "4999999999999999999999999999999998E0",
      note: "÷: 4…8.5 exact tie, even stays"),
    // Ties broken by a sticky remainder: the digits after the 34th read exactly 5 (or 50) as far
    // as a 35/36-digit quotient goes, the kept digit is even, and the remainder is not zero, so
    // the exact quotient is above half and rounds up.
    Case(
      a: d(7_678_680_541_607_084_941_228_518_874_386_873), op: "/", b: d(89),
      expected: "8627730945625938136211818959985251E-2",
      note: "÷: …250|5+ sticky rounds up"),
    Case(
      a: d(7_988_235_054_220_797_629_225_192_650_990_624), op: "/", b: d(13_783_758),
      expected: "5795397056608798289425273318778975E-7",
      note: "÷: …74|500277… sticky rounds up"),
    // Very different exponents.
    Case(a: d(1, 99), op: "+", b: d(1, -99), expected: "1E99", note: "1E99 + 1E-99"),
    Case(a: d(1, 99), op: "-", b: d(1, -99), expected: "1E99", note: "1E99 − 1E-99 rounds up"),
    Case(
      a: d(1, -99), op: "+", b: d(1, 99), expected: "1E99", note: "1E-99 + 1E99 (swapped)"),
    Case(
      a: d(1, -99), op: "-", b: d(1, 99), expected: "-1E99", note: "1E-99 − 1E99"),
    Case(
      a: d(1, 34), op: "-", b: d(9, -2), expected: "1E34",
      note: "10^34 − 0.09 rounds back to 10^34"),
    Case(
      a: d(1, 34), op: "-", b: d(6, -1), expected: "9999999999999999999999999999999999E0",
      note: "10^34 − 0.6 = …9.4 rounds down"),
    Case(
      a: d(1, 33), op: "+", b: d(1), expected: "1000000000000000000000000000000001E0",
      note: "10^33 + 1 exact"),
    Case(a: d(1, 34), op: "+", b: d(1), expected: "1E34", note: "10^34 + 1: 1 is below half"),
    Case(
      a: d(1, 34), op: "+", b: d(6), expected: "1000000000000000000000000000000001E1",
      note: "10^34 + 6 rounds to …1E1"),
    Case(a: d(1, 34), op: "+", b: d(5), expected: "1E34", note: "10^34 + 5: tie, even stays"),
    Case(
      a: d(1, 34), op: "+", b: d(15), expected: "1000000000000000000000000000000002E1",
      note: "10^34 + 15: tie, odd 1 up"),
    Case(a: d(1, 40), op: "*", b: d(1, -80), expected: "1E-40", note: "exponents add"),
    Case(a: d(1, -50), op: "/", b: d(1, 50), expected: "1E-100", note: "exponents subtract"),
    // Cancellation to zero, never negative.
    Case(a: d(15, -1), op: "-", b: d(150, -2), expected: "0", note: "1.5 − 1.50"),
    Case(a: d(2, 0, negative: true), op: "+", b: d(2), expected: "0", note: "−2 + 2"),
    Case(a: d(2), op: "+", b: d(2, 0, negative: true), expected: "0", note: "2 + −2"),
    Case(
      a: d(1, -1, negative: true), op: "-", b: d(1, -1, negative: true), expected: "0",
      note: "−0.1 − −0.1"),
    Case(
      a: d(nines34, 60, negative: true), op: "+", b: d(nines34, 60), expected: "0",
      note: "big −x + x"),
    Case(a: d(1, 0, negative: true), op: "*", b: d(0), expected: "0", note: "−1 × 0"),
    Case(a: d(0), op: "*", b: d(3, 0, negative: true), expected: "0", note: "0 × −3"),
    Case(a: d(0), op: "/", b: d(5, 0, negative: true), expected: "0", note: "0 ÷ −5"),
    Case(a: d(0), op: "-", b: d(0), expected: "0", note: "0 − 0"),
    Case(a: d(0), op: "-", b: d(7), expected: "-7E0", note: "0 − 7"),
    Case(a: d(7, 0, negative: true), op: "-", b: d(0), expected: "-7E0", note: "−7 − 0"),
    // Signs.
    Case(
      a: d(6, 0, negative: true), op: "*", b: d(7, 0, negative: true), expected: "42E0",
      note: "−6 × −7"),
    Case(
      a: d(1, 0, negative: true), op: "/", b: d(3),
      expected: "-3333333333333333333333333333333333E-34", note: "−1 ÷ 3"),
    Case(a: d(3), op: "-", b: d(5), expected: "-2E0", note: "3 − 5"),
  ]

  @Test(arguments: cases) func arithmetic(_ row: Case) throws {
    let result = try #require(row.result())
    #expect(Self.canonical(result) == row.expected)
    #expect(Self.fits(result))
  }

  @Test func divisionByZero() {
    #expect(D.dividing(Self.d(5), by: D.zero) == nil)
    #expect(D.dividing(D.zero, by: D.zero) == nil)
    #expect(D.dividing(Self.d(5), by: Self.d(0, 9, negative: true)) == nil)
  }

  // MARK: - Randomized against an independent exact computation

  /// An operand with up to 12 digits and an exponent in −10…10.
  struct Operand {
    let coefficient: UInt128
    let exponent: Int
    let negative: Bool
    var value: D { D(coefficient: coefficient, exponent: exponent, isNegative: negative) }

    static func random(using rng: inout SplitMix64, zeroAllowed: Bool) -> Operand {
      let digits = Int.random(in: 1...12, using: &rng)
      let bound = UInt64(DecimalTests.p10(digits))
      var coefficient = UInt128(UInt64.random(in: 0..<bound, using: &rng))
      if coefficient == 0 && !zeroAllowed { coefficient = 7 }
      return Operand(
        coefficient: coefficient, exponent: Int.random(in: -10...10, using: &rng),
        negative: Bool.random(using: &rng))
    }

    /// The signed value scaled to `10^exponent`, which must not be above our exponent.
    func scaled(to exponent: Int) -> Int128 {
      let magnitude = Int128(coefficient) * Int128(DecimalTests.p10(self.exponent - exponent))
      return negative ? -magnitude : magnitude
    }
  }

  /// `a + b` exactly: both operands are scaled to the smaller exponent. With at most 12 digits
  /// and exponents 20 apart, the sum has at most 33 digits and is exact in Int128 (and at 34
  /// digits).
  static func exactSum(_ a: Operand, _ b: Operand) -> String {
    let exponent = min(a.exponent, b.exponent)
    let sum = a.scaled(to: exponent) + b.scaled(to: exponent)
    return canonical(UInt128(sum.magnitude), exponent, negative: sum < 0)
  }

  /// `a × b` exactly: at most 24 digits.
  static func exactProduct(_ a: Operand, _ b: Operand) -> String {
    let product = a.coefficient * b.coefficient
    return canonical(
      product, a.exponent + b.exponent, negative: product != 0 && a.negative != b.negative)
  }

  /// `a ÷ b` correctly rounded to 34 significant digits by schoolbook long division: one digit
  /// at a time, then half to even with the final remainder as the sticky bit.
  static func longDivision(_ a: Operand, _ b: Operand) -> String {
    precondition(b.coefficient != 0)
    if a.coefficient == 0 { return "0" }
    var remainder = a.coefficient
    let divisor = b.coefficient
    // Integer digits of the quotient first, then fraction digits.
    var digits: [UInt8] = []
    var lastExponent = 0  // the power of ten of the last digit produced (before a/b scaling)
    let integerPart = remainder / divisor
    remainder %= divisor
    for character in String(integerPart) where !(digits.isEmpty && character == "0") {
      digits.append(UInt8(String(character))!)
    }
    while digits.count < 35 && remainder != 0 {
      remainder *= 10
      let digit = UInt8(remainder / divisor)
      remainder %= divisor
      lastExponent -= 1
      if !digits.isEmpty || digit != 0 { digits.append(digit) }
    }
    // The exponent of the last digit: integer digits end at 10^0, fraction digits below.
    var coefficient: UInt128 = 0
    var exponent = lastExponent + a.exponent - b.exponent
    if digits.count == 35 {
      let dropped = digits.removeLast()
      exponent += 1
      for digit in digits { coefficient = coefficient * 10 + UInt128(digit) }
      let sticky = remainder != 0
      if dropped > 5 || (dropped == 5 && (sticky || coefficient % 2 == 1)) { coefficient += 1 }
    } else {
      for digit in digits { coefficient = coefficient * 10 + UInt128(digit) }
    }
    return canonical(coefficient, exponent, negative: a.negative != b.negative)
  }

  @Test func randomizedAgainstExactArithmetic() {
    var rng = SplitMix64(state: 0x5EED_CA1C_2024)
    var checked = 0
    for _ in 0..<2_000 {
      let a = Operand.random(using: &rng, zeroAllowed: true)
      let b = Operand.random(using: &rng, zeroAllowed: true)
      let divisor = b.coefficient == 0 ? Operand(coefficient: 3, exponent: 0, negative: false) : b
      let minusB = Operand(coefficient: b.coefficient, exponent: b.exponent, negative: !b.negative)
      let results: [(String, D, String)] = [
        ("+", a.value + b.value, Self.exactSum(a, b)),
        ("-", a.value - b.value, Self.exactSum(a, minusB)),
        ("*", a.value * b.value, Self.exactProduct(a, b)),
        ("/", D.dividing(a.value, by: divisor.value)!, Self.longDivision(a, divisor)),
      ]
      for (op, result, expected) in results {
        let description =
          "\(Self.canonical(a.value)) \(op) \(Self.canonical(op == "/" ? divisor.value : b.value))"
        #expect(Self.canonical(result) == expected, "\(description)")
        #expect(Self.fits(result), "\(description)")
        checked += 1
      }
    }
    #expect(checked == 8_000)
  }

  /// q × b ÷ b gives q back exactly when q × b is exact.
  @Test func randomizedExactQuotients() {
    var rng = SplitMix64(state: 42)
    for _ in 0..<2_000 {
      let q = Operand.random(using: &rng, zeroAllowed: true)
      let b = Operand.random(using: &rng, zeroAllowed: false)
      let product = q.value * b.value
      let quotient = D.dividing(product, by: b.value)!
      #expect(quotient.isNumericallyEqual(to: q.value), "\(Self.canonical(q.value)) × b ÷ b")
    }
  }

  /// The long-division reference agrees with the hand-worked rows above.
  @Test func referenceDivisionAgreesWithHandWorkedRows() {
    let one = Operand(coefficient: 1, exponent: 0, negative: false)
    let three = Operand(coefficient: 3, exponent: 0, negative: false)
    let two = Operand(coefficient: 2, exponent: 0, negative: false)
    #expect(Self.longDivision(one, three) == "3333333333333333333333333333333333E-34")
    #expect(Self.longDivision(two, three) == "6666666666666666666666666666666667E-34")
    let minusEight = Operand(coefficient: 8, exponent: 0, negative: true)
    #expect(Self.longDivision(one, minusEight) == "-125E-3")
    let thousand = Operand(coefficient: 10, exponent: 2, negative: false)
    #expect(Self.longDivision(thousand, two) == "5E2")
    let seven = Operand(coefficient: 7, exponent: 0, negative: false)
    #expect(Self.longDivision(one, seven) == "1428571428571428571428571428571429E-34")
  }
}
