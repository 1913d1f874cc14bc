/// The oracle of exact arithmetic (SPEC §2 rule 15): the simplest fractions that could be
/// right, over a big integer of their own — nothing here comes from CalcDecimal's `Number` or
/// `BigUInt`. Slow and plain on purpose: schoolbook arithmetic on base-10^9 limbs, long division
/// that finds each quotient limb by bisection, Euclid's gcd, rounding by comparing twice the
/// remainder with the divisor. `FractionReferenceTests` checks it against Python's
/// `fractions` (`Scripts/fraction-reference.py`).

/// A signed integer of any size.
public struct ModelInteger: Hashable, Comparable, CustomStringConvertible, Sendable {
  /// The magnitude's limbs, base 10^9, least significant first; empty for zero.
  public private(set) var limbs: [Int]
  /// Whether the value is below zero (never for zero).
  public private(set) var isNegative: Bool

  static let base = 1_000_000_000

  init(limbs: [Int], isNegative: Bool) {
    var trimmed = limbs
    while trimmed.last == 0 { trimmed.removeLast() }
    self.limbs = trimmed
    self.isNegative = isNegative && !trimmed.isEmpty
  }

  public init(_ value: Int) {
    var rest = value.magnitude
    var limbs: [Int] = []
    while rest > 0 {
      limbs.append(Int(rest % UInt(ModelInteger.base)))
      rest /= UInt(ModelInteger.base)
    }
    self.init(limbs: limbs, isNegative: value < 0)
  }

  /// The integer written in decimal, with an optional leading `-`.
  public init(_ text: String) {
    var digits = Substring(text)
    let negative = digits.first == "-"
    if negative { digits = digits.dropFirst() }
    var limbs: [Int] = []
    var end = digits.endIndex
    while end > digits.startIndex {
      let start = digits.index(end, offsetBy: -9, limitedBy: digits.startIndex) ?? digits.startIndex
      limbs.append(Int(digits[start..<end])!)
      end = start
    }
    self.init(limbs: limbs, isNegative: negative)
  }

  public static let zero = ModelInteger(0)
  public static let one = ModelInteger(1)

  public var isZero: Bool { limbs.isEmpty }
  public var magnitude: ModelInteger { ModelInteger(limbs: limbs, isNegative: false) }
  public var isEven: Bool { limbs.isEmpty || limbs[0] % 2 == 0 }

  /// The decimal digits, `-` first when negative.
  public var description: String {
    guard let top = limbs.last else { return "0" }
    var text = isNegative ? "-" : ""
    text += String(top)
    for limb in limbs.dropLast().reversed() {
      let digits = String(limb)
      text += String(repeating: "0", count: 9 - digits.count) + digits
    }
    return text
  }

  /// The number of decimal digits of the magnitude; 1 for zero.
  public var digitCount: Int { isZero ? 1 : description.count - (isNegative ? 1 : 0) }

  /// 10^n.
  public static func powerOfTen(_ n: Int) -> ModelInteger {
    ModelInteger("1" + String(repeating: "0", count: n))
  }

  // MARK: Magnitudes

  static func compareMagnitudes(_ a: [Int], _ b: [Int]) -> Int {
    if a.count != b.count { return a.count < b.count ? -1 : 1 }
    var index = a.count - 1
    while index >= 0 {
      if a[index] != b[index] { return a[index] < b[index] ? -1 : 1 }
      index -= 1
    }
    return 0
  }

  static func addMagnitudes(_ a: [Int], _ b: [Int]) -> [Int] {
    var result: [Int] = []
    var carry = 0
    for index in 0..<max(a.count, b.count) {
      let sum = (index < a.count ? a[index] : 0) + (index < b.count ? b[index] : 0) + carry
      result.append(sum % base)
      carry = sum / base
    }
    if carry > 0 { result.append(carry) }
    return result
  }

  /// a − b for a ≥ b.
  static func subtractMagnitudes(_ a: [Int], _ b: [Int]) -> [Int] {
    var result: [Int] = []
    var borrow = 0
    for index in 0..<a.count {
      var difference = a[index] - (index < b.count ? b[index] : 0) - borrow
      borrow = 0
      if difference < 0 {
        difference += base
        borrow = 1
      }
      result.append(difference)
    }
    while result.last == 0 { result.removeLast() }
    return result
  }

  static func multiplyMagnitudes(_ a: [Int], _ b: [Int]) -> [Int] {
    if a.isEmpty || b.isEmpty { return [] }
    var result = [Int](repeating: 0, count: a.count + b.count + 1)
    for i in 0..<a.count {
      var carry = 0
      for j in 0..<b.count {
        let value = result[i + j] + a[i] * b[j] + carry
        result[i + j] = value % base
        carry = value / base
      }
      var k = i + b.count
      while carry > 0 {
        let value = result[k] + carry
        result[k] = value % base
        carry = value / base
        k += 1
      }
    }
    while result.last == 0 { result.removeLast() }
    return result
  }

  /// Quotient and remainder of magnitudes, b nonzero: schoolbook long division, one quotient
  /// limb at a time, each found by bisection between two bounds read off the leading limbs.
  ///
  /// With s = max(0, n − 2) for b of n limbs, B = ⌊b / base^s⌋ (b's top one or two limbs) and
  /// R = ⌊r / base^s⌋ (the partial remainder's top limbs, at most three as r < b·base):
  /// B·base^s ≤ b < (B + 1)·base^s and R·base^s ≤ r < (R + 1)·base^s, so the limb ⌊r/b⌋ lies in
  /// [⌊R/(B + 1)⌋, ⌊(R + 1)/B⌋] — a range of one or two values when B has two limbs. Each
  /// candidate is checked exactly (b·q ≤ r).
  static func divideMagnitudes(_ a: [Int], _ b: [Int]) -> ([Int], [Int]) {
    precondition(!b.isEmpty, "division by zero")
    let s = max(0, b.count - 2)
    let top = value(of: b, from: s)
    if compareMagnitudes(a, b) < 0 { return ([], a) }
    var quotient = [Int](repeating: 0, count: a.count)
    // The top n − 1 limbs are below b: the first partial remainder, with no quotient limb.
    var remainder = Array(a[(a.count - b.count + 1)...])
    for index in stride(from: a.count - b.count, through: 0, by: -1) {
      remainder.insert(a[index], at: 0)
      while remainder.last == 0 { remainder.removeLast() }
      if compareMagnitudes(remainder, b) < 0 { continue }
      let leading = value(of: remainder, from: s)
      var low = Int(min(leading / (top + 1), UInt128(base - 1)))
      var high = Int(min((leading + 1) / top, UInt128(base - 1)))
      while low < high {
        let middle = (low + high + 1) / 2
        if compareMagnitudes(multiplyMagnitudes(b, [middle]), remainder) <= 0 {
          low = middle
        } else {
          high = middle - 1
        }
      }
      quotient[index] = low
      if low > 0 { remainder = subtractMagnitudes(remainder, multiplyMagnitudes(b, [low])) }
    }
    while quotient.last == 0 { quotient.removeLast() }
    return (quotient, remainder)
  }

  /// ⌊a / base^s⌋ for a of at most s + 3 limbs, as a 128-bit value.
  static func value(of a: [Int], from s: Int) -> UInt128 {
    var result: UInt128 = 0
    var index = a.count - 1
    while index >= s {
      result = result * UInt128(base) + UInt128(a[index])
      index -= 1
    }
    return result
  }

  // MARK: Signed arithmetic

  public static func < (a: ModelInteger, b: ModelInteger) -> Bool {
    if a.isNegative != b.isNegative { return a.isNegative }
    let order = compareMagnitudes(a.limbs, b.limbs)
    return a.isNegative ? order > 0 : order < 0
  }

  public static prefix func - (a: ModelInteger) -> ModelInteger {
    ModelInteger(limbs: a.limbs, isNegative: !a.isNegative)
  }

  public static func + (a: ModelInteger, b: ModelInteger) -> ModelInteger {
    if a.isNegative == b.isNegative {
      return ModelInteger(limbs: addMagnitudes(a.limbs, b.limbs), isNegative: a.isNegative)
    }
    if compareMagnitudes(a.limbs, b.limbs) >= 0 {
      return ModelInteger(limbs: subtractMagnitudes(a.limbs, b.limbs), isNegative: a.isNegative)
    }
    return ModelInteger(limbs: subtractMagnitudes(b.limbs, a.limbs), isNegative: b.isNegative)
  }

  public static func - (a: ModelInteger, b: ModelInteger) -> ModelInteger { a + -b }

  public static func * (a: ModelInteger, b: ModelInteger) -> ModelInteger {
    ModelInteger(
      limbs: multiplyMagnitudes(a.limbs, b.limbs), isNegative: a.isNegative != b.isNegative)
  }

  /// The floored quotient and the remainder with the divisor's sign: a = q·b + r.
  public static func flooredDivision(_ a: ModelInteger, _ b: ModelInteger) -> (
    ModelInteger, ModelInteger
  ) {
    let (q, r) = divideMagnitudes(a.limbs, b.limbs)
    var quotient = ModelInteger(limbs: q, isNegative: a.isNegative != b.isNegative)
    var remainder = ModelInteger(limbs: r, isNegative: a.isNegative)
    if !remainder.isZero, a.isNegative != b.isNegative {
      quotient = quotient - .one
      remainder = remainder + b
    }
    return (quotient, remainder)
  }

  /// gcd(|a|, |b|), by Euclid's algorithm.
  public static func gcd(_ a: ModelInteger, _ b: ModelInteger) -> ModelInteger {
    var (u, v) = (a.limbs, b.limbs)
    while !v.isEmpty { (u, v) = (v, divideMagnitudes(u, v).1) }
    return ModelInteger(limbs: u, isNegative: false)
  }

  /// a^n for n ≥ 0, by repeated multiplication.
  public func power(_ n: Int) -> ModelInteger {
    var result = ModelInteger.one
    for _ in 0..<n { result = result * self }
    return result
  }
}

/// An exact fraction in lowest terms, the denominator above zero.
public struct Fraction: Hashable, CustomStringConvertible, Sendable {
  public let numerator: ModelInteger
  public let denominator: ModelInteger

  /// n/d in lowest terms, d nonzero.
  public init(_ n: ModelInteger, _ d: ModelInteger) {
    precondition(!d.isZero, "a zero denominator")
    let g = ModelInteger.gcd(n, d)
    var (p, q) = (
      ModelInteger.flooredDivision(n.magnitude, g).0, ModelInteger.flooredDivision(d.magnitude, g).0
    )
    if n.isNegative != d.isNegative { p = -p }
    if q.isZero { q = .one }
    numerator = p
    denominator = q
  }

  public init(_ n: Int) { self.init(ModelInteger(n), .one) }

  /// A decimal written like `-12.5`, `0.0001` or `3E-40`.
  public init(decimal text: String) {
    var mantissa = text
    var exponent = 0
    if let e = text.firstIndex(where: { $0 == "E" || $0 == "e" }) {
      mantissa = String(text[..<e])
      exponent = Int(text[text.index(after: e)...])!
    }
    if let point = mantissa.firstIndex(of: ".") {
      exponent -= mantissa.distance(from: point, to: mantissa.endIndex) - 1
      mantissa.remove(at: point)
    }
    let integer = ModelInteger(mantissa)
    if exponent >= 0 {
      self.init(integer * ModelInteger.powerOfTen(exponent), .one)
    } else {
      self.init(integer, ModelInteger.powerOfTen(-exponent))
    }
  }

  public static let zero = Fraction(0)

  public var isZero: Bool { numerator.isZero }
  public var isNegative: Bool { numerator.isNegative }
  public var isInteger: Bool { denominator == .one }

  /// `p/q`, or `p` for an integer.
  public var description: String {
    isInteger ? numerator.description : "\(numerator)/\(denominator)"
  }

  public static prefix func - (a: Fraction) -> Fraction { Fraction(-a.numerator, a.denominator) }

  public static func + (a: Fraction, b: Fraction) -> Fraction {
    Fraction(
      a.numerator * b.denominator + b.numerator * a.denominator, a.denominator * b.denominator)
  }

  public static func - (a: Fraction, b: Fraction) -> Fraction { a + -b }

  public static func * (a: Fraction, b: Fraction) -> Fraction {
    Fraction(a.numerator * b.numerator, a.denominator * b.denominator)
  }

  /// a ÷ b for b nonzero.
  public static func / (a: Fraction, b: Fraction) -> Fraction {
    Fraction(a.numerator * b.denominator, a.denominator * b.numerator)
  }

  /// ⌊a⌋.
  public var floor: Fraction {
    Fraction(ModelInteger.flooredDivision(numerator, denominator).0, .one)
  }

  /// a − b·⌊a/b⌋ (the sign of b), a when b is 0.
  public static func floorMod(_ a: Fraction, _ b: Fraction) -> Fraction {
    b.isZero ? a : a - b * (a / b).floor
  }

  /// a^n for any integer n (a nonzero when n < 0).
  public func power(_ n: Int) -> Fraction {
    let p = Fraction(numerator.power(Int(n.magnitude)), denominator.power(Int(n.magnitude)))
    return n >= 0 ? p : Fraction.one / p
  }

  public static let one = Fraction(1)

  /// |a|.
  public var magnitude: Fraction { isNegative ? -self : self }

  /// ⌊log10 |a|⌋, for a nonzero: the digit counts' difference, less one when the smaller power
  /// of ten is not reached.
  public var magnitudeExponent: Int {
    let p = numerator.magnitude
    let q = denominator
    let estimate = p.digitCount - q.digitCount
    let reached =
      estimate >= 0
      ? !(p < q * ModelInteger.powerOfTen(estimate))
      : !(p * ModelInteger.powerOfTen(-estimate) < q)
    return reached ? estimate : estimate - 1
  }

  /// 10^n as a fraction, any n.
  public static func powerOfTen(_ n: Int) -> Fraction {
    n >= 0
      ? Fraction(ModelInteger.powerOfTen(n), .one) : Fraction(.one, ModelInteger.powerOfTen(-n))
  }

  /// The integer nearest to a, ties to even.
  public var roundedHalfEven: ModelInteger {
    let (q, r) = ModelInteger.flooredDivision(numerator, denominator)
    // a = q + r/d with 0 ≤ r < d: up when 2r > d, or 2r = d and q odd.
    let twice = r + r
    if denominator < twice || (twice == denominator && !q.isEven) { return q + .one }
    return q
  }

  /// a rounded half to even to a multiple of 10^unit, as (coefficient, unit).
  public func rounded(toUnit unit: Int) -> (coefficient: ModelInteger, exponent: Int) {
    ((self / Fraction.powerOfTen(unit)).roundedHalfEven, unit)
  }

  /// a rounded half to even to `digits` significant digits (zero stays zero).
  public func rounded(toSignificantDigits digits: Int) -> (coefficient: ModelInteger, exponent: Int)
  {
    if isZero { return (.zero, 0) }
    return rounded(toUnit: magnitudeExponent - digits + 1)
  }

  /// a rounded half to even at the coarser of the `fractionDigits`th place after the point and
  /// the `significantDigits`th significant digit.
  public func rounded(toFractionDigits fractionDigits: Int, significantDigits: Int) -> (
    coefficient: ModelInteger, exponent: Int
  ) {
    if isZero { return (.zero, 0) }
    return rounded(toUnit: max(-fractionDigits, magnitudeExponent - significantDigits + 1))
  }

  /// The fraction c·10^e.
  public static func scaled(_ coefficient: ModelInteger, _ exponent: Int) -> Fraction {
    Fraction(coefficient, .one) * powerOfTen(exponent)
  }

  /// Whether a is a decimal of at most 34 significant digits.
  public var isDecimal34: Bool {
    if isZero { return true }
    let (coefficient, exponent) = rounded(toSignificantDigits: 34)
    return Fraction.scaled(coefficient, exponent) == self
  }

  /// `c·10^e` normalized: `coefficientEexponent` without trailing zeros in the coefficient, `0`
  /// for zero — the form the tests compare.
  public static func text(_ coefficient: ModelInteger, _ exponent: Int) -> String {
    if coefficient.isZero { return "0" }
    var digits = coefficient.description
    var e = exponent
    while digits.hasSuffix("0") {
      digits.removeLast()
      e += 1
    }
    return "\(digits)E\(e)"
  }

  /// The decimal expansion, the repeating part in brackets, found the plain way: long division
  /// remembering where each remainder first came, until one comes back or none is left. At
  /// most `limit` digits after the point are worked out (then `nil`).
  public func expansion(limit: Int = 5000) -> String? {
    let p = numerator.magnitude
    let (whole, remainder) = ModelInteger.flooredDivision(p, denominator)
    var text = (isNegative ? "-" : "") + whole.description
    if remainder.isZero { return text }
    text += "."
    var seen: [ModelInteger: Int] = [:]
    var digits: [Character] = []
    var r = remainder
    while !r.isZero {
      if let start = seen[r] {
        return text + String(digits[..<start]) + "(" + String(digits[start...]) + ")"
      }
      if digits.count >= limit { return nil }
      seen[r] = digits.count
      let (digit, rest) = ModelInteger.flooredDivision(r * ModelInteger(10), denominator)
      digits.append(Character(digit.description))
      r = rest
    }
    return text + String(digits)
  }
}

/// The model of a calculator number: an exact fraction, or a 34-digit value marked rounded —
/// SPEC §2 rule 15 read literally, with calc's decision that a 34-digit decimal stays exact
/// whatever its fraction's digits (Documentation/Decisions.md).
public struct ModelNumber: Hashable, CustomStringConvertible, Sendable {
  public let value: Fraction
  public let isRounded: Bool

  public init(exact value: Fraction) {
    self = ModelNumber.step(value, rounded: false)
  }

  init(value: Fraction, isRounded: Bool) {
    self.value = value
    self.isRounded = isRounded
  }

  /// The result of a step whose exact value is `exact`: rounded to 34 digits when an operand
  /// was rounded or when it needs more than 120 digits and is not a 34-digit decimal.
  public static func step(_ exact: Fraction, rounded: Bool) -> ModelNumber {
    let withinCap =
      exact.numerator.digitCount <= 120 && exact.denominator.digitCount <= 120
    if !rounded && (withinCap || exact.isDecimal34) {
      return ModelNumber(value: exact, isRounded: false)
    }
    let (coefficient, exponent) = exact.rounded(toSignificantDigits: 34)
    return ModelNumber(value: Fraction.scaled(coefficient, exponent), isRounded: true)
  }

  /// `p/q` for an exact value, `≈ cEe` for a rounded one.
  public var description: String {
    isRounded
      ? "≈ "
        + Fraction.text(
          value.rounded(toSignificantDigits: 34).0,
          value.rounded(toSignificantDigits: 34).1)
      : value.description
  }

  public static func + (a: ModelNumber, b: ModelNumber) -> ModelNumber {
    step(a.value + b.value, rounded: a.isRounded || b.isRounded)
  }
  public static func - (a: ModelNumber, b: ModelNumber) -> ModelNumber {
    step(a.value - b.value, rounded: a.isRounded || b.isRounded)
  }
  public static func * (a: ModelNumber, b: ModelNumber) -> ModelNumber {
    step(a.value * b.value, rounded: a.isRounded || b.isRounded)
  }
  /// a ÷ b, `nil` for b zero.
  public static func / (a: ModelNumber, b: ModelNumber) -> ModelNumber? {
    b.value.isZero ? nil : step(a.value / b.value, rounded: a.isRounded || b.isRounded)
  }
  public static prefix func - (a: ModelNumber) -> ModelNumber {
    ModelNumber(value: -a.value, isRounded: a.isRounded)
  }
  /// The floored remainder, a when b is 0.
  public static func floorMod(_ a: ModelNumber, _ b: ModelNumber) -> ModelNumber {
    if b.value.isZero { return a }
    return step(Fraction.floorMod(a.value, b.value), rounded: a.isRounded || b.isRounded)
  }
  /// a^n, `nil` for 0 to a negative power.
  public func power(_ n: Int) -> ModelNumber? {
    if n == 0 { return ModelNumber(value: .one, isRounded: isRounded) }
    if value.isZero && n < 0 { return nil }
    return ModelNumber.step(value.power(n), rounded: isRounded)
  }
  /// x·y/100 with self as y.
  public func percent(of x: ModelNumber) -> ModelNumber {
    ModelNumber.step(x.value * value / Fraction(100), rounded: isRounded || x.isRounded)
  }
}
