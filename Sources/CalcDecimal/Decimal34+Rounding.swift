extension Decimal34 {
  // MARK: - The one half-even rounding

  /// `value ÷ 10^count`, rounded half to even: the rounding of every result, of every value
  /// squeezed into the exponent range, and of every display that shows fewer digits.
  ///
  /// `sticky` says that the exact value is a little more than `value` (a nonzero remainder was
  /// dropped before), which breaks a tie upwards. `count` is in 1...38, and the rounded quotient
  /// must fit a `UInt128` (its high half is dropped); a quotient that rounds up to the next
  /// power of ten is returned as such, for the caller to shorten.
  @inline(__always)
  static func roundedHalfEven(_ value: Wide, droppingDigits count: Int, sticky: Bool = false)
    -> UInt128
  {
    assert(count > 0, "rounding drops at least one digit")
    let divisor = powersOfTen[count]
    let (quotient, remainder) = value.divided(by: divisor)
    let half = divisor / 2
    let up = remainder > half || (remainder == half && (sticky || quotient.low & 1 == 1))
    return quotient.low + (up ? 1 : 0)
  }

  // MARK: - Rounding values

  /// The value rounded half to even to at most `digits` digits after the decimal point; the
  /// value itself when it has no more.
  ///
  /// `digits` must not be negative. A value below half a unit of the last kept place becomes
  /// zero (never negative). Trailing zeros are kept: 1.999 to 2 digits is 2.00, which `==` 2.
  public func rounded(toFractionDigits digits: Int) -> Decimal34 {
    precondition(digits >= 0, "a negative number of fraction digits")
    let exponent = Int(self.exponent)
    guard exponent < -digits else { return self }
    // With at most 34 digits, dropping 35 or more leaves zero, and below half a unit.
    let drop = -digits - exponent
    let coefficient =
      drop < Decimal34.powersOfTen.count
      ? Decimal34.roundedHalfEven(Wide(self.coefficient), droppingDigits: drop) : 0
    // `exponent < -digits` and `exponent >= Int32.min` put `-digits` in the Int32 range.
    return Decimal34(
      uncheckedCoefficient: coefficient, exponent: Int32(-digits), isNegative: isNegative)
  }

  /// The value rounded half to even to at most `digits` significant digits; the value itself
  /// when it has no more.
  ///
  /// The digits counted are the coefficient's: 1500 made as 1500 × 10^0 has four. `digits` must
  /// be positive. Zero stays zero; a value that rounds up to the next power of ten keeps
  /// `digits` digits (9.96 to 2 digits is 10, coefficient 10, exponent 0). At the top of the
  /// exponent range the result is brought into range as the type's documentation says.
  public func rounded(toSignificantDigits digits: Int) -> Decimal34 {
    precondition(digits > 0, "fewer than one significant digit")
    return Decimal34.rounded(
      Wide(coefficient), toDigits: digits, exponent: Int(exponent), isNegative: isNegative,
      sticky: false)
  }

  // MARK: - Rounding results

  /// Rounds `magnitude × 10^exponent` to 34 digits, half to even, for a result of arithmetic.
  ///
  /// `sticky` says that the exact value is a little more than `magnitude` (a nonzero remainder
  /// was dropped), which decides ties.
  static func rounded(_ magnitude: Wide, exponent: Int, isNegative: Bool, sticky: Bool)
    -> Decimal34
  {
    rounded(
      magnitude, toDigits: precision, exponent: exponent, isNegative: isNegative, sticky: sticky)
  }

  /// Rounds `magnitude × 10^exponent` to `digits` significant digits (1 through 34), half to
  /// even, and fits the exponent into range.
  @inline(__always)
  static func rounded(
    _ magnitude: Wide, toDigits digits: Int, exponent: Int, isNegative: Bool, sticky: Bool
  ) -> Decimal34 {
    let count = magnitude.digitCount
    guard count > digits else {
      // No digits to drop. A sticky remainder without dropped digits cannot happen: callers
      // pass it only with quotients of 35 or more digits.
      return fitted(magnitude.low, exponent: exponent, isNegative: isNegative)
    }
    let drop = count - digits
    var quotient = roundedHalfEven(magnitude, droppingDigits: drop, sticky: sticky)
    var newExponent = exponent + drop
    if quotient == powersOfTen[digits] {
      quotient = powersOfTen[digits - 1]
      newExponent += 1
    }
    return fitted(quotient, exponent: newExponent, isNegative: isNegative)
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
      guard drop < powersOfTen.count else { return .zero }  // below half of the smallest unit
      return Decimal34(
        uncheckedCoefficient: roundedHalfEven(Wide(coefficient), droppingDigits: drop),
        exponent: Int32.min, isNegative: isNegative)
    }
    let pad = exponent - Int(Int32.max)
    if digitCount(coefficient) + pad <= precision {
      return Decimal34(
        uncheckedCoefficient: coefficient * powersOfTen[pad], exponent: Int32.max,
        isNegative: isNegative)
    }
    return Decimal34(
      uncheckedCoefficient: powersOfTen[precision] - 1, exponent: Int32.max,
      isNegative: isNegative)
  }
}
