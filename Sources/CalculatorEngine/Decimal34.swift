/// An exact decimal number with at most 34 significant digits (IEEE 754 decimal128 precision).
///
/// The value is `(isNegative ? -1 : 1) × coefficient × 10^exponent`. Results of arithmetic are
/// rounded to 34 significant digits, half to even, like decimal128. The exponent is an `Int32`,
/// far beyond anything the calculator reaches (it bounds magnitudes to 10^±100 itself, see
/// ``CalculatorBrain``): a result whose exponent would fall below that range is rounded to
/// fewer digits and at last to zero, and one above it becomes the largest value of its sign.
/// Zero is never negative.
///
/// `==` and hashing are numeric: `1.50 == 1.5`, although their coefficients differ (150 × 10^-2
/// and 15 × 10^-1).
public struct Decimal34: Hashable, Sendable {
  // The coefficient is stored as two 64-bit halves rather than a `UInt128`, so that the value is
  // aligned to 8 bytes, not 16: 24 bytes instead of 32, which every state that holds numbers
  // (and every snapshot of one) is copied with.
  private let coefficientHigh: UInt64
  private let coefficientLow: UInt64
  /// The power of ten the coefficient is scaled by.
  public let exponent: Int32
  /// Whether the value is below zero; never true for zero.
  public let isNegative: Bool

  /// The significant digits, below 10^34.
  @inline(__always)
  public var coefficient: UInt128 { UInt128(coefficientHigh) << 64 | UInt128(coefficientLow) }

  /// The number of significant digits kept by arithmetic.
  public static let precision = 34

  /// Zero.
  public static let zero = Decimal34(uncheckedCoefficient: 0, exponent: 0, isNegative: false)

  /// A value from its parts; a coefficient of 10^34 or more is rounded to 34 digits.
  ///
  /// A zero coefficient gives zero, which is never negative. An exponent beyond `Int32` is
  /// brought into range as the type's documentation says.
  public init(coefficient: UInt128, exponent: Int, isNegative: Bool = false) {
    self = Decimal34.rounded(
      Wide(coefficient), exponent: exponent, isNegative: isNegative, sticky: false)
  }

  @inline(__always)
  init(uncheckedCoefficient coefficient: UInt128, exponent: Int32, isNegative: Bool) {
    coefficientHigh = UInt64(truncatingIfNeeded: coefficient >> 64)
    coefficientLow = UInt64(truncatingIfNeeded: coefficient)
    self.exponent = exponent
    self.isNegative = isNegative && coefficient != 0
  }

  /// A value from a coefficient below 10^34 and any exponent: exact when the exponent fits an
  /// `Int32`; otherwise rounded (half to even) to fewer digits towards zero below the range, or
  /// padded with zeros, and failing that the largest value, above it.
  static func fitted(_ coefficient: UInt128, exponent: Int, isNegative: Bool) -> Decimal34 {
    if let exponent = Int32(exactly: exponent) {
      return Decimal34(
        uncheckedCoefficient: coefficient, exponent: exponent, isNegative: isNegative)
    }
    if coefficient == 0 { return .zero }
    if exponent < Int(Int32.min) {
      let drop = Int(Int32.min) - exponent
      guard drop < pow10.count else { return .zero }  // below half of the smallest unit
      let (quotient, remainder) = coefficient.quotientAndRemainder(dividingBy: pow10[drop])
      let half = pow10[drop] / 2
      let up = remainder > half || (remainder == half && quotient & 1 == 1)
      return Decimal34(
        uncheckedCoefficient: quotient + (up ? 1 : 0), exponent: Int32.min, isNegative: isNegative)
    }
    let pad = exponent - Int(Int32.max)
    if digitCount(coefficient) + pad <= precision {
      return Decimal34(
        uncheckedCoefficient: coefficient * pow10[pad], exponent: Int32.max,
        isNegative: isNegative)
    }
    return Decimal34(
      uncheckedCoefficient: pow10[precision] - 1, exponent: Int32.max, isNegative: isNegative)
  }

  /// Whether the value is zero.
  public var isZero: Bool { coefficientHigh == 0 && coefficientLow == 0 }

  /// The value with the opposite sign; zero stays zero.
  public static prefix func - (value: Decimal34) -> Decimal34 {
    Decimal34(
      uncheckedCoefficient: value.coefficient, exponent: value.exponent,
      isNegative: !value.isNegative)
  }

  /// The value divided by 100, exactly (but at the very bottom of the exponent range).
  public var percent: Decimal34 {
    Decimal34.fitted(coefficient, exponent: Int(exponent) - 2, isNegative: isNegative)
  }

  /// The decimal exponent of the leading digit: ⌊log10 |value|⌋; `nil` for zero.
  public var magnitudeExponent: Int? {
    isZero ? nil : Int(exponent) + Decimal34.digitCount(coefficient) - 1
  }

  /// Whether two values are the same number, whatever their coefficients: the same as `==`.
  public func isNumericallyEqual(to other: Decimal34) -> Bool {
    if isZero || other.isZero { return isZero && other.isZero }
    guard isNegative == other.isNegative else { return false }
    let (a, b) = (self.normalized, other.normalized)
    return a.coefficient == b.coefficient && a.exponent == b.exponent
  }

  /// Whether `a` and `b` are the same number: `1.50 == 1.5`.
  public static func == (a: Decimal34, b: Decimal34) -> Bool {
    if a.coefficientLow == b.coefficientLow, a.coefficientHigh == b.coefficientHigh,
      a.exponent == b.exponent
    {
      return a.isNegative == b.isNegative
    }
    return a.isNumericallyEqual(to: b)
  }

  /// Hashes the number, not its coefficient: equal numbers hash alike.
  public func hash(into hasher: inout Hasher) {
    let value = normalized
    hasher.combine(value.coefficientHigh)
    hasher.combine(value.coefficientLow)
    hasher.combine(value.exponent)
    hasher.combine(value.isNegative)
  }

  /// The same value with trailing zeros of the coefficient removed (as far as the exponent
  /// range allows).
  ///
  /// - Complexity: O(number of trailing zeros).
  public var normalized: Decimal34 {
    guard !isZero else { return .zero }
    var c = coefficient
    var e = exponent
    while c % 10 == 0, e < Int32.max {
      c /= 10
      e += 1
    }
    return Decimal34(uncheckedCoefficient: c, exponent: e, isNegative: isNegative)
  }

  // MARK: - Arithmetic

  /// `a + b`, rounded to 34 significant digits, half to even.
  public static func + (a: Decimal34, b: Decimal34) -> Decimal34 {
    if b.isZero { return a }
    if a.isZero { return b }
    // Pad both coefficients to 34 digits so that the exponents differ by the difference of the
    // magnitudes, which the early exit below bounds by 35.
    let (ca, ea) = a.padded
    let (cb, eb) = b.padded
    if ea - eb > 35 { return a }  // b is below a tenth of a's last place: a, rounded, is the sum.
    if eb - ea > 35 { return b }
    let (high, highExp, low, lowExp) = ea >= eb ? (ca, ea, cb, eb) : (cb, eb, ca, ea)
    let scaled = Wide.product(high, Decimal34.pow10[highExp - lowExp])
    let highNegative = ea >= eb ? a.isNegative : b.isNegative
    if a.isNegative == b.isNegative {
      return rounded(
        scaled.adding(low), exponent: lowExp, isNegative: a.isNegative, sticky: false)
    }
    let lowWide = Wide(low)
    if scaled == lowWide { return .zero }
    if scaled > lowWide {
      return rounded(
        scaled.subtracting(lowWide), exponent: lowExp, isNegative: highNegative, sticky: false)
    }
    return rounded(
      lowWide.subtracting(scaled), exponent: lowExp, isNegative: !highNegative, sticky: false)
  }

  /// `a - b`, rounded to 34 significant digits, half to even.
  public static func - (a: Decimal34, b: Decimal34) -> Decimal34 { a + -b }

  /// `a × b`, rounded to 34 significant digits, half to even.
  public static func * (a: Decimal34, b: Decimal34) -> Decimal34 {
    if a.isZero || b.isZero { return .zero }
    return rounded(
      Wide.product(a.coefficient, b.coefficient),
      exponent: Int(a.exponent) + Int(b.exponent), isNegative: a.isNegative != b.isNegative,
      sticky: false)
  }

  /// `a ÷ b`, rounded to 34 significant digits, half to even; `nil` when `b` is zero.
  public static func dividing(_ a: Decimal34, by b: Decimal34) -> Decimal34? {
    if b.isZero { return nil }
    if a.isZero { return .zero }
    // With a padded to 34 digits and scaled by 10^(digits(b) + 1), the quotient has 35 or 36
    // digits: enough for a correctly rounded result, and still below 2^128.
    let (ca, ea) = a.padded
    let shift = digitCount(b.coefficient) + 1
    let numerator = Wide.product(ca, Decimal34.pow10[shift])
    let (quotient, remainder) = b.coefficient.dividingFullWidth((numerator.high, numerator.low))
    return rounded(
      Wide(quotient), exponent: ea - shift - Int(b.exponent),
      isNegative: a.isNegative != b.isNegative, sticky: remainder != 0)
  }

  /// The square root of `value`, correctly rounded to 34 significant digits; `nil` when `value`
  /// is negative.
  ///
  /// A square root is never exactly halfway between two 34-digit values (the square of a
  /// midpoint has one more digit than any 68-digit square can), so there are no ties to break.
  public static func squareRoot(_ value: Decimal34) -> Decimal34? {
    if value.isZero { return .zero }
    if value.isNegative { return nil }
    // With the coefficient padded to 34 digits and scaled by 10^33 or 10^34, whichever leaves an
    // even exponent, the radicand has 67 or 68 digits and its integer root exactly 34.
    let (coefficient, exponent) = value.padded
    let shift = (exponent - 33) % 2 == 0 ? 33 : 34
    let radicand = Wide.product(coefficient, Decimal34.pow10[shift])
    var root = radicand.squareRoot
    // sqrt(N) > r + 1/2 exactly when N − r² > r, as N and r are integers.
    if radicand.subtracting(Wide.product(root, root)) > Wide(root) { root += 1 }
    return rounded(
      Wide(root), exponent: (exponent - shift) / 2, isNegative: false, sticky: false)
  }

  /// The coefficient scaled up to exactly 34 digits, and the exponent that goes with it.
  private var padded: (UInt128, Int) {
    let pad = Decimal34.precision - Decimal34.digitCount(coefficient)
    return (coefficient * Decimal34.pow10[pad], Int(exponent) - pad)
  }

  /// Rounds `magnitude × 10^exponent` to 34 digits, half to even.
  ///
  /// `sticky` says that the exact value is a little more than `magnitude` (a nonzero remainder
  /// was dropped), which decides ties.
  static func rounded(_ magnitude: Wide, exponent: Int, isNegative: Bool, sticky: Bool)
    -> Decimal34
  {
    let digits = magnitude.digitCount
    guard digits > precision else {
      // No digits to drop. A sticky remainder without dropped digits cannot happen: callers
      // pass it only with quotients of 35 or more digits.
      return fitted(magnitude.low, exponent: exponent, isNegative: isNegative)
    }
    let drop = digits - precision
    let divisor = pow10[drop]
    let (quotientWide, remainder) = magnitude.divided(by: divisor)
    var quotient = quotientWide.low
    let half = divisor / 2
    if remainder > half || (remainder == half && (sticky || quotient & 1 == 1)) {
      quotient += 1
    }
    var newExponent = exponent + drop
    if quotient == pow10[precision] {
      quotient = pow10[precision - 1]
      newExponent += 1
    }
    return fitted(quotient, exponent: newExponent, isNegative: isNegative)
  }

  // MARK: - Digits

  /// Powers of ten, 10^0 through 10^38: all that fit in a `UInt128`. A literal, so that the
  /// compiler lays it out statically: a computed table would cost a lazy-initialization check
  /// on every use, and arithmetic uses it several times per operation.
  static let pow10: [UInt128] = [
    1,  // 10^0
    10,  // 10^1
    100,  // 10^2
    1_000,  // 10^3
    10_000,  // 10^4
    100_000,  // 10^5
    1_000_000,  // 10^6
    10_000_000,  // 10^7
    100_000_000,  // 10^8
    1_000_000_000,  // 10^9
    10_000_000_000,  // 10^10
    100_000_000_000,  // 10^11
    1_000_000_000_000,  // 10^12
    10_000_000_000_000,  // 10^13
    100_000_000_000_000,  // 10^14
    1_000_000_000_000_000,  // 10^15
    10_000_000_000_000_000,  // 10^16
    100_000_000_000_000_000,  // 10^17
    1_000_000_000_000_000_000,  // 10^18
    10_000_000_000_000_000_000,  // 10^19
    100_000_000_000_000_000_000,  // 10^20
    1_000_000_000_000_000_000_000,  // 10^21
    10_000_000_000_000_000_000_000,  // 10^22
    100_000_000_000_000_000_000_000,  // 10^23
    1_000_000_000_000_000_000_000_000,  // 10^24
    10_000_000_000_000_000_000_000_000,  // 10^25
    100_000_000_000_000_000_000_000_000,  // 10^26
    1_000_000_000_000_000_000_000_000_000,  // 10^27
    10_000_000_000_000_000_000_000_000_000,  // 10^28
    100_000_000_000_000_000_000_000_000_000,  // 10^29
    1_000_000_000_000_000_000_000_000_000_000,  // 10^30
    10_000_000_000_000_000_000_000_000_000_000,  // 10^31
    100_000_000_000_000_000_000_000_000_000_000,  // 10^32
    1_000_000_000_000_000_000_000_000_000_000_000,  // 10^33
    10_000_000_000_000_000_000_000_000_000_000_000,  // 10^34
    100_000_000_000_000_000_000_000_000_000_000_000,  // 10^35
    1_000_000_000_000_000_000_000_000_000_000_000_000,  // 10^36
    10_000_000_000_000_000_000_000_000_000_000_000_000,  // 10^37
    100_000_000_000_000_000_000_000_000_000_000_000_000,  // 10^38
  ]

  /// The number of decimal digits of `value`; 1 for zero.
  static func digitCount(_ value: UInt128) -> Int {
    if value == 0 { return 1 }
    let bits = 128 - value.leadingZeroBitCount
    // 1233/4096 is just above log10(2): the estimate is the digit count or one less.
    let estimate = (bits * 1233) >> 12
    return estimate < pow10.count && value >= pow10[estimate] ? estimate + 1 : estimate
  }

  /// An unsigned 256-bit integer: just the operations exact arithmetic needs.
  struct Wide: Hashable, Comparable {
    var high: UInt128
    var low: UInt128

    init(_ value: UInt128) {
      high = 0
      low = value
    }

    init(high: UInt128, low: UInt128) {
      self.high = high
      self.low = low
    }

    static func product(_ a: UInt128, _ b: UInt128) -> Wide {
      let (high, low) = a.multipliedFullWidth(by: b)
      return Wide(high: high, low: low)
    }

    func adding(_ other: UInt128) -> Wide {
      let (low, carry) = self.low.addingReportingOverflow(other)
      return Wide(high: high + (carry ? 1 : 0), low: low)
    }

    /// `self - other`, for `other <= self`.
    func subtracting(_ other: Wide) -> Wide {
      let (low, borrow) = self.low.subtractingReportingOverflow(other.low)
      return Wide(high: high - other.high - (borrow ? 1 : 0), low: low)
    }

    /// Quotient and remainder of division by a nonzero `divisor`.
    func divided(by divisor: UInt128) -> (Wide, UInt128) {
      // Most values that get rounded fit in 128 bits, and a 128-bit division is several times
      // cheaper than the generic full-width one below.
      if high == 0 {
        let (quotient, remainder) = low.quotientAndRemainder(dividingBy: divisor)
        return (Wide(quotient), remainder)
      }
      let (quotientHigh, remainderHigh) = high.quotientAndRemainder(dividingBy: divisor)
      let (quotientLow, remainder) = divisor.dividingFullWidth((remainderHigh, low))
      return (Wide(high: quotientHigh, low: quotientLow), remainder)
    }

    var digitCount: Int {
      if high == 0 { return Decimal34.digitCount(low) }
      // At least 39 digits. Count the digits above 10^38, then check the estimate.
      let (quotient, _) = divided(by: pow10[38])
      return 38 + Decimal34.digitCount(quotient.low)
    }

    /// ⌊√self⌋, for a value of 67 or 68 decimal digits (whose root is below 2^128).
    ///
    /// Newton's iteration from above: it decreases to the integer root and stops there. From
    /// 10^33 on, `self / x` stays below 10^35, so the divisions fit a `UInt128` quotient.
    var squareRoot: UInt128 {
      let bits = high == 0 ? 128 - low.leadingZeroBitCount : 256 - high.leadingZeroBitCount
      var x = UInt128(1) << ((bits + 1) / 2)
      while true {
        let (quotient, _) = divided(by: x)
        let next = (x + quotient.low) / 2
        if next >= x { return x }
        x = next
      }
    }

    static func < (a: Wide, b: Wide) -> Bool {
      a.high != b.high ? a.high < b.high : a.low < b.low
    }
  }
}
