extension Decimal34 {
  // MARK: - Exact results, or nothing

  /// `a + b` when the exact sum has at most 34 significant digits (and an exponent in range);
  /// `nil` when it would have to be rounded.
  ///
  /// Two typed numbers with as many decimals (most sums of a script) take Decimal34's own
  /// same-exponent sum, which is exact for them (a sum below 2^65 has fewer than 34 digits),
  /// so the value is the one `+` gives.
  @inline(__always)
  static func exactSum(_ a: Decimal34, _ b: Decimal34) -> Decimal34? {
    if b.isZero { return a }
    if a.isZero { return b }
    if a.exponent == b.exponent, a.coefficientHigh == 0, b.coefficientHigh == 0 { return a + b }
    return alignedExactSum(a, b)
  }

  /// ``exactSum(_:_:)`` for operands of different exponents or long coefficients.
  static func alignedExactSum(_ a: Decimal34, _ b: Decimal34) -> Decimal34? {
    var (high, low) = a.exponent >= b.exponent ? (a, b) : (b, a)
    var shift = Int(high.exponent) - Int(low.exponent)
    if shift <= 38 {
      let (scaled, overflow) = high.coefficient.multipliedReportingOverflow(by: powersOfTen[shift])
      if !overflow {
        if high.isNegative == low.isNegative {
          let (sum, carry) = scaled.addingReportingOverflow(low.coefficient)
          if !carry {
            return exactValue(sum, exponent: Int(low.exponent), isNegative: high.isNegative)
          }
        } else if scaled >= low.coefficient {
          return exactValue(
            scaled - low.coefficient, exponent: Int(low.exponent), isNegative: high.isNegative)
        } else {
          return exactValue(
            low.coefficient - scaled, exponent: Int(low.exponent), isNegative: low.isNegative)
        }
      }
    }
    // Without trailing zeros, the lower operand's last digit is the sum's when the exponents
    // differ; with 35 or more places between them the higher operand's first digit is at least
    // 35 places above it and cannot be cancelled: more than 34 digits.
    high = high.normalized
    low = low.normalized
    if high.exponent < low.exponent { swap(&high, &low) }
    shift = Int(high.exponent) - Int(low.exponent)
    guard shift <= 34 else { return nil }
    let scaled = Wide.product(high.coefficient, powersOfTen[shift])
    let lowWide = Wide(low.coefficient)
    let magnitude: Wide
    let isNegative: Bool
    if high.isNegative == low.isNegative {
      (magnitude, isNegative) = (scaled.adding(low.coefficient), high.isNegative)
    } else if lowWide < scaled {
      (magnitude, isNegative) = (scaled.subtracting(lowWide), high.isNegative)
    } else {
      (magnitude, isNegative) = (lowWide.subtracting(scaled), low.isNegative)
    }
    return exactValue(magnitude, exponent: Int(low.exponent), isNegative: isNegative)
  }

  /// `a × b` when the exact product has at most 34 significant digits (and an exponent in
  /// range); `nil` when it would have to be rounded.
  ///
  /// Coefficients below 2^64 (every typed number) multiply in one 128-bit product; below 10^34
  /// that is `*`'s own value.
  @inline(__always)
  static func exactProduct(_ a: Decimal34, _ b: Decimal34) -> Decimal34? {
    if a.isZero || b.isZero { return .zero }
    let exponent = Int(a.exponent) + Int(b.exponent)
    let isNegative = a.isNegative != b.isNegative
    if a.coefficientHigh == 0, b.coefficientHigh == 0 {
      let product = UInt128(a.coefficientLow) * UInt128(b.coefficientLow)
      if product < 10_000_000_000_000_000_000_000_000_000_000_000,
        let fitting = Int32(exactly: exponent)
      {
        return Decimal34(uncheckedCoefficient: product, exponent: fitting, isNegative: isNegative)
      }
      return exactValue(product, exponent: exponent, isNegative: isNegative)
    }
    return exactValue(
      Wide.product(a.coefficient, b.coefficient), exponent: exponent, isNegative: isNegative)
  }

  /// `magnitude × 10^exponent` if it has at most 34 significant digits and its exponent fits,
  /// else `nil`.
  static func exactValue(_ magnitude: UInt128, exponent: Int, isNegative: Bool) -> Decimal34? {
    if magnitude == 0 { return .zero }
    var coefficient = magnitude
    var exponent = exponent
    while coefficient >= powersOfTen[precision], coefficient % 10 == 0 {
      coefficient /= 10
      exponent += 1
    }
    guard coefficient < powersOfTen[precision], let fitting = Int32(exactly: exponent) else {
      return nil
    }
    return Decimal34(uncheckedCoefficient: coefficient, exponent: fitting, isNegative: isNegative)
  }

  /// ``exactValue(_:exponent:isNegative:)-(UInt128,_,_)`` for a 256-bit magnitude.
  static func exactValue(_ magnitude: Wide, exponent: Int, isNegative: Bool) -> Decimal34? {
    if magnitude.high == 0 {
      return exactValue(magnitude.low, exponent: exponent, isNegative: isNegative)
    }
    // Above 2^128: strip trailing zeros by powers of ten while they divide.
    var value = magnitude
    var exponent = exponent
    for step in [19, 1] {
      while value.high != 0 {
        let (quotient, remainder) = value.divided(by: powersOfTen[step])
        if remainder != 0 { break }
        value = quotient
        exponent += step
      }
    }
    guard value.high == 0 else { return nil }
    return exactValue(value.low, exponent: exponent, isNegative: isNegative)
  }
}
