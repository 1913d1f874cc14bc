extension Decimal34 {
  /// The value with the opposite sign; zero stays zero.
  public static prefix func - (value: Decimal34) -> Decimal34 {
    Decimal34(
      uncheckedCoefficient: value.coefficient, exponent: value.exponent,
      isNegative: !value.isNegative)
  }

  /// The value divided by 100, exactly (but at the very bottom of the exponent range).
  package var percent: Decimal34 {
    Decimal34.fitted(coefficient, exponent: Int(exponent) - 2, isNegative: isNegative)
  }

  /// `a + b`, rounded to 34 significant digits, half to even.
  public static func + (a: Decimal34, b: Decimal34) -> Decimal34 {
    if b.isZero { return a }
    if a.isZero { return b }
    if a.exponent == b.exponent, a.coefficientHigh == 0, b.coefficientHigh == 0 {
      return sameExponentSum(a, b)
    }
    // Pad both coefficients to 34 digits so that the exponents differ by the difference of the
    // magnitudes, which the early exit below bounds by 35.
    let (ca, ea) = a.padded
    let (cb, eb) = b.padded
    if ea - eb > 35 { return a }  // b is below a tenth of a's last place: a, rounded, is the sum.
    if eb - ea > 35 { return b }
    let (high, highExp, low, lowExp) = ea >= eb ? (ca, ea, cb, eb) : (cb, eb, ca, ea)
    let scaled = Wide.product(high, Decimal34.powersOfTen[highExp - lowExp])
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

  /// `a + b` for nonzero operands with the same exponent and coefficients below 2^64 (two typed
  /// numbers with as many decimals: most sums of a script), exact in one 128-bit sum.
  ///
  /// The value and its coefficient are the general path's: that path pads both operands to 34
  /// digits, so it keeps the sum at the smaller padded exponent when it has at most 34 digits
  /// there, else at 34 digits; the shift below is the same choice.
  private static func sameExponentSum(_ a: Decimal34, _ b: Decimal34) -> Decimal34 {
    let x = UInt128(a.coefficientLow)
    let y = UInt128(b.coefficientLow)
    let magnitude: UInt128
    let isNegative: Bool
    let shift: Int
    if a.isNegative == b.isNegative {
      // At least 34 digits at the smaller padded exponent: the sum, padded to 34 digits.
      magnitude = x + y
      isNegative = a.isNegative
      shift = precision - digitCount(magnitude)
    } else {
      if x == y { return .zero }
      (magnitude, isNegative) = x > y ? (x - y, a.isNegative) : (y - x, b.isNegative)
      // The shorter operand has the smaller padded exponent.
      let shorter = min(digitCount(x), digitCount(y))
      shift = precision - max(shorter, digitCount(magnitude))
    }
    return fitted(
      magnitude * powersOfTen[shift], exponent: Int(a.exponent) - shift, isNegative: isNegative)
  }

  /// `a × b`, rounded to 34 significant digits, half to even.
  public static func * (a: Decimal34, b: Decimal34) -> Decimal34 {
    if a.isZero || b.isZero { return .zero }
    // Coefficients below 2^64 (every typed number: an entry has at most 16 digits) multiply in
    // one 128-bit product. Below 10^34 it needs no rounding, and the initializer makes exactly
    // the value the general path's `rounded` makes (which is what it calls past that).
    if a.coefficientHigh == 0, b.coefficientHigh == 0 {
      return Decimal34(
        coefficient: UInt128(a.coefficientLow) * UInt128(b.coefficientLow),
        exponent: Int(a.exponent) + Int(b.exponent), isNegative: a.isNegative != b.isNegative)
    }
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
    let numerator = Wide.product(ca, Decimal34.powersOfTen[shift])
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
    let radicand = Wide.product(coefficient, Decimal34.powersOfTen[shift])
    var root = radicand.squareRoot
    // sqrt(N) > r + 1/2 exactly when N − r² > r, as N and r are integers.
    if radicand.subtracting(Wide.product(root, root)) > Wide(root) { root += 1 }
    return rounded(
      Wide(root), exponent: (exponent - shift) / 2, isNegative: false, sticky: false)
  }

  /// The coefficient scaled up to exactly 34 digits, and the exponent that goes with it.
  private var padded: (UInt128, Int) {
    let pad = Decimal34.precision - Decimal34.digitCount(coefficient)
    return (coefficient * Decimal34.powersOfTen[pad], Int(exponent) - pad)
  }
}

extension Decimal34 {
  /// An unsigned 256-bit integer: just the operations exact arithmetic needs.
  struct Wide: Hashable, Comparable {
    var high: UInt128
    var low: UInt128

    /// `value`, widened.
    init(_ value: UInt128) {
      high = 0
      low = value
    }

    /// `high × 2^128 + low`.
    init(high: UInt128, low: UInt128) {
      self.high = high
      self.low = low
    }

    /// `a × b`, exactly.
    static func product(_ a: UInt128, _ b: UInt128) -> Wide {
      let (high, low) = a.multipliedFullWidth(by: b)
      return Wide(high: high, low: low)
    }

    /// `self + other`, for a sum below 2^256.
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

    /// The number of decimal digits; 1 for zero.
    var digitCount: Int {
      if high == 0 { return Decimal34.digitCount(low) }
      // At least 39 digits. Count the digits above 10^38, then check the estimate.
      let (quotient, _) = divided(by: powersOfTen[38])
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

    /// Whether `a` is below `b`.
    static func < (a: Wide, b: Wide) -> Bool {
      a.high != b.high ? a.high < b.high : a.low < b.low
    }
  }
}
