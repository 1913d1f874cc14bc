// Rounding a number once: to 34 digits for the functions and `--plain`, and to the display's
// digits (SPEC §2 rule 15, §3): always from the exact value, never through a 34-digit value
// first.

extension Number {
  /// The value rounded to 34 significant digits, half to even: the value itself when it is a
  /// decimal (exact or rounded), the correctly rounded value of a fraction.
  ///
  /// This is what an operation that is not rational takes of an exact operand (`√(1/3)` is the
  /// square root of 0.3333…3333): the existing `Decimal34` functions then round their result
  /// once more.
  public var decimalValue: Decimal34 {
    switch storage {
    case .decimal(let value), .rounded(let value): value
    case .small, .big: rounded(toSignificantDigits: Decimal34.precision)
    }
  }

  /// The value rounded half to even to `digits` (1...34) significant digits, once, from the
  /// exact value.
  ///
  /// A decimal keeps its trailing zeros (`Decimal34.rounded(toSignificantDigits:)`); zero is
  /// zero.
  public func rounded(toSignificantDigits digits: Int) -> Decimal34 {
    precondition(digits >= 1 && digits <= Decimal34.precision, "1 to 34 significant digits")
    switch storage {
    case .decimal(let value), .rounded(let value):
      return value.rounded(toSignificantDigits: digits)
    case .small(let fraction):
      let unit = fraction.magnitudeExponent - digits + 1
      if let value = fraction.rounded(toUnit: unit) { return value }
      return Scaled(self).rounded(toUnit: unit)
    case .big(let box):
      let scaled = Scaled(box)
      if let n = box.numerator.uint128, let d = box.denominator.uint128, d <= UInt128(UInt64.max),
        let magnitude = scaled.magnitudeExponent,
        let value = Number.rounded(
          numerator: n, denominator: UInt64(d), isNegative: box.isNegative,
          toUnit: magnitude - digits + 1)
      {
        return value
      }
      return scaled.rounded(toSignificantDigits: digits)
    }
  }

  /// The value rounded half to even once, at the coarser of two places: the `fractionDigits`th
  /// digit after the point and the `significantDigits`th significant digit (1...34).
  ///
  /// The display's rounding (SPEC §3: at most 8 fraction digits, and never more than the 34
  /// digits a value has): `2/3` → 0.66666667 at 8 fraction digits; 10^30/3 →
  /// 333333333333333333333333333333.3333 (34 digits). A value below half the last place is 0.
  public func rounded(toFractionDigits fractionDigits: Int, significantDigits: Int = 34)
    -> Decimal34
  {
    precondition(fractionDigits >= 0, "a negative number of fraction digits")
    precondition(
      significantDigits >= 1 && significantDigits <= Decimal34.precision,
      "1 to 34 significant digits")
    switch storage {
    case .decimal(let value), .rounded(let value):
      // At most 34 digits already: the significant-digit place is never the coarser but when
      // the value has more digits than asked for.
      guard let magnitude = value.magnitudeExponent else { return .zero }
      if magnitude - significantDigits + 1 > -fractionDigits {
        return value.rounded(toSignificantDigits: significantDigits)
      }
      return value.rounded(toFractionDigits: fractionDigits)
    case .small(let fraction):
      let unit = max(-fractionDigits, fraction.magnitudeExponent - significantDigits + 1)
      if let value = fraction.rounded(toUnit: unit) { return value }
      return Scaled(self).rounded(toUnit: unit)
    case .big(let box):
      let scaled = Scaled(box)
      if let n = box.numerator.uint128, let d = box.denominator.uint128, d <= UInt128(UInt64.max),
        let magnitude = scaled.magnitudeExponent,
        let value = Number.rounded(
          numerator: n, denominator: UInt64(d), isNegative: box.isNegative,
          toUnit: max(-fractionDigits, magnitude - significantDigits + 1))
      {
        return value
      }
      return scaled.rounded(toFractionDigits: fractionDigits, significantDigits: significantDigits)
    }
  }

  /// What a display shows of the value, rounded once from the exact value, and whether it is
  /// written in scientific notation.
  ///
  /// The notation is chosen as DisplayFormat chooses it for a 34-digit value (SPEC §3), by the
  /// magnitude of ``decimalValue``: scientific below 10^`scientificBelow` and from
  /// 10^`scientificFrom`. In scientific notation the value is rounded to `mantissaDigits`
  /// significant digits (the display's 9: `3.33333333E-10`; `--plain`'s 34); otherwise to
  /// `fractionDigits` digits after the point and at most 34 significant digits (the display's
  /// 8), or, for `nil` (`--plain`), to 34 significant digits.
  public func rounded(
    fractionDigits: Int?, mantissaDigits: Int, scientificBelow: Int = -8, scientificFrom: Int = 34
  ) -> (value: Decimal34, isScientific: Bool) {
    let value = decimalValue
    guard let magnitude = value.magnitudeExponent else { return (.zero, false) }
    if magnitude < scientificBelow || magnitude >= scientificFrom {
      return (rounded(toSignificantDigits: mantissaDigits), true)
    }
    guard let fractionDigits else { return (value, false) }
    return (rounded(toFractionDigits: fractionDigits), false)
  }
}

extension SmallFraction {
  /// The fraction rounded half to even to a multiple of 10^`unit`; `nil` where the word-sized
  /// division cannot (see ``Number/rounded(numerator:denominator:isNegative:toUnit:)``).
  func rounded(toUnit unit: Int) -> Decimal34? {
    Number.rounded(
      numerator: numerator, denominator: UInt64(denominator), isNegative: isNegative, toUnit: unit)
  }
}

extension Number {
  /// ±n/d rounded half to even to a multiple of 10^`unit` (`unit` ≤ 0), by long division in
  /// machine words: the integer part from n's two halves, then nine digits at a time (a remainder
  /// below d times 10^9 is divided as a 128-bit value by the 64-bit d); `nil` for `unit` > 0 or
  /// a quotient past 128 bits (then the general path rounds).
  /// - Complexity: 2 + ⌈−unit/9⌉ divisions of a 128-bit value by a 64-bit one.
  static func rounded(
    numerator n: UInt128, denominator d: UInt64, isNegative: Bool, toUnit unit: Int
  )
    -> Decimal34?
  {
    guard unit <= 0 else { return nil }
    let high = UInt64(truncatingIfNeeded: n >> 64)
    let (quotientHigh, remainderHigh) = high.quotientAndRemainder(dividingBy: d)
    let (quotientLow, remainderLow) = d.dividingFullWidth(
      (remainderHigh, UInt64(truncatingIfNeeded: n)))
    var quotient = UInt128(quotientHigh) << 64 | UInt128(quotientLow)
    var remainder = remainderLow
    var k = -unit
    while k > 0 {
      let step = min(k, 9)
      let scale = UInt64(truncatingIfNeeded: Decimal34.powersOfTen[step])
      // remainder·scale < d·2^30: its high word is below d, so the quotient fits a word.
      let (productHigh, productLow) = remainder.multipliedFullWidth(by: scale)
      let (digits, rest) = d.dividingFullWidth((productHigh, productLow))
      let (scaled, overflow) = quotient.multipliedReportingOverflow(by: UInt128(scale))
      let (sum, carry) = scaled.addingReportingOverflow(UInt128(digits))
      if overflow || carry { return nil }
      (quotient, remainder, k) = (sum, rest, k - step)
    }
    // Half to even: up when 2r > d, or 2r = d and the quotient is odd (d − r compared, as 2r
    // may not fit).
    let rest = d - remainder
    if remainder > rest || (remainder == rest && quotient & 1 == 1) { quotient += 1 }
    return Decimal34(coefficient: quotient, exponent: unit, isNegative: isNegative)
  }
}
