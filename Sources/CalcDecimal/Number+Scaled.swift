// The general path of exact arithmetic: a number as ±N/D × 10^E in big integers. Every form of
// `Number` converts to it, every operation can be done in it, and its results are brought back
// to the cheapest form (`exactResult`) or rounded once to 34 digits (`rounded`). The fast paths
// in `Number+Arithmetic.swift` give the same values for the operands they take.

/// ±`numerator`/`denominator` × 10^`exponent`, `denominator` > 0. Internal.
///
/// The operations that keep a value exact take and give the fraction N/D in lowest terms (the
/// power of ten apart: N may still share factors 2 and 5 with 10^E's complement); the rounding
/// operations do not need it.
struct Scaled {
  var isNegative: Bool
  var numerator: BigUInt
  var denominator: BigUInt
  var exponent: Int

  init(isNegative: Bool, numerator: BigUInt, denominator: BigUInt, exponent: Int = 0) {
    self.isNegative = isNegative && !numerator.isZero
    self.numerator = numerator
    self.denominator = denominator
    self.exponent = exponent
  }

  init(_ value: Decimal34) {
    self.init(
      isNegative: value.isNegative, numerator: BigUInt(value.coefficient), denominator: .one,
      exponent: Int(value.exponent))
  }

  init(_ box: FractionBox) {
    self.init(isNegative: box.isNegative, numerator: box.numerator, denominator: box.denominator)
  }

  init(_ number: Number) {
    switch number.storage {
    case .decimal(let value), .rounded(let value): self.init(value)
    case .small(let fraction):
      self.init(
        isNegative: fraction.isNegative, numerator: BigUInt(fraction.numerator),
        denominator: BigUInt(UInt128(fraction.denominator)))
    case .big(let box): self.init(box)
    }
  }

  var isZero: Bool { numerator.isZero }

  /// Whether the value is an integer times a power of ten (a decimal's form: D = 1).
  var isDecimal: Bool { denominator.isOne }

  /// -x.
  var negated: Scaled {
    var copy = self
    copy.isNegative = !isNegative && !isZero
    return copy
  }

  /// ⌊log10 |value|⌋; `nil` for zero.
  var magnitudeExponent: Int? {
    guard !isZero else { return nil }
    let estimate = numerator.digitCount - denominator.digitCount
    // N / D lies in [10^(estimate − 1), 10^(estimate + 1)).
    let below =
      estimate >= 0
      ? numerator < denominator.timesPowerOfTen(estimate)
      : numerator.timesPowerOfTen(-estimate) < denominator
    return exponent + (below ? estimate - 1 : estimate)
  }

  /// -1, 0 or 1 as |self| is below, equal to or above |other|.
  func compareMagnitudes(_ other: Scaled) -> Int {
    guard let m = magnitudeExponent else { return other.isZero ? 0 : -1 }
    guard let n = other.magnitudeExponent else { return 1 }
    if m != n { return m < n ? -1 : 1 }
    // N·D'·10^E against N'·D·10^E': the same magnitude bounds the shift by the digit counts.
    let common = min(exponent, other.exponent)
    let left = (numerator * other.denominator).timesPowerOfTen(exponent - common)
    let right = (other.numerator * denominator).timesPowerOfTen(other.exponent - common)
    return BigUInt.compare(left, right)
  }

  // MARK: - Operations

  /// x × y; in lowest terms when both are (`reduced`), else as it comes.
  static func product(_ x: Scaled, _ y: Scaled, reduced: Bool) -> Scaled {
    let isNegative = x.isNegative != y.isNegative
    guard reduced else {
      return Scaled(
        isNegative: isNegative, numerator: x.numerator * y.numerator,
        denominator: x.denominator * y.denominator, exponent: x.exponent + y.exponent)
    }
    // Cross-cancelled first (each fraction is in lowest terms), so the product is too.
    let g1 = BigUInt.gcd(x.numerator, y.denominator)
    let g2 = BigUInt.gcd(y.numerator, x.denominator)
    return Scaled(
      isNegative: isNegative,
      numerator: exactQuotient(x.numerator, g1) * exactQuotient(y.numerator, g2),
      denominator: exactQuotient(x.denominator, g2) * exactQuotient(y.denominator, g1),
      exponent: x.exponent + y.exponent)
  }

  /// 1/x, for x nonzero: N and D swapped, the exponent negated.
  var reciprocal: Scaled {
    Scaled(
      isNegative: isNegative, numerator: denominator, denominator: numerator, exponent: -exponent)
  }

  /// x + y at the smaller exponent; in lowest terms when both are (`reduced`), else as it
  /// comes.
  ///
  /// The operand with the larger exponent is multiplied by 10^(difference): the caller bounds
  /// the difference.
  /// - Complexity: for `reduced`, a gcd of the denominators and one of the sum with it
  ///   (Henrici's addition); else two products.
  static func sum(_ x: Scaled, _ y: Scaled, reduced: Bool) -> Scaled {
    let common = min(x.exponent, y.exponent)
    var a = x
    var b = y
    if reduced {
      a = a.aligned(to: common)
      b = b.aligned(to: common)
    } else {
      a.numerator = a.numerator.timesPowerOfTen(a.exponent - common)
      b.numerator = b.numerator.timesPowerOfTen(b.exponent - common)
    }
    if !reduced || (a.denominator.isOne && b.denominator.isOne) {
      let (numerator, isNegative) = signedSum(
        a.numerator * b.denominator, a.isNegative, b.numerator * a.denominator, b.isNegative)
      return Scaled(
        isNegative: isNegative, numerator: numerator, denominator: a.denominator * b.denominator,
        exponent: common)
    }
    // Henrici: with g = gcd(b, d), a/b + c/d = t / (b/g · d/g) where t = a·(d/g) + c·(b/g),
    // and the only factors t can share with that denominator are those of g.
    let g = BigUInt.gcd(a.denominator, b.denominator)
    let (aScale, bScale) = (exactQuotient(b.denominator, g), exactQuotient(a.denominator, g))
    let (t, isNegative) = signedSum(
      a.numerator * aScale, a.isNegative, b.numerator * bScale, b.isNegative)
    if t.isZero { return Scaled(isNegative: false, numerator: .zero, denominator: .one) }
    let g2 = g.isOne ? g : BigUInt.gcd(t, g)
    return Scaled(
      isNegative: isNegative, numerator: exactQuotient(t, g2),
      denominator: bScale * exactQuotient(b.denominator, g2), exponent: common)
  }

  /// The same value with the exponent lowered to `target` (≤ `exponent`), the fraction kept in
  /// lowest terms: N·10^k / D, cancelled by the factors 2 and 5 that D shares with 10^k.
  func aligned(to target: Int) -> Scaled {
    let k = exponent - target
    guard k > 0, !isZero else {
      return Scaled(
        isNegative: isNegative, numerator: numerator, denominator: denominator, exponent: target)
    }
    if denominator.isOne {
      return Scaled(
        isNegative: isNegative, numerator: numerator.shifted(by: k), denominator: denominator,
        exponent: target)
    }
    let twos = denominator.twos(upTo: k)
    let fives = denominator.fives(upTo: k)
    return Scaled(
      isNegative: isNegative,
      numerator: numerator.shifted(by: k).dividedByPowerOfTwo(twos).dividedByPowerOfFive(fives),
      denominator: denominator.dividedByPowerOfTwo(twos).dividedByPowerOfFive(fives),
      exponent: target)
  }

  /// ±a ± b: the magnitude and sign of the sum of two signed magnitudes.
  static func signedSum(_ a: BigUInt, _ aNegative: Bool, _ b: BigUInt, _ bNegative: Bool)
    -> (BigUInt, Bool)
  {
    if aNegative == bNegative {
      let sum = a + b
      return (sum, aNegative && !sum.isZero)
    }
    switch BigUInt.compare(a, b) {
    case 0: return (.zero, false)
    case 1: return (a - b, aNegative)
    default: return (b - a, bNegative)
    }
  }

  /// a / b for b dividing a.
  static func exactQuotient(_ a: BigUInt, _ b: BigUInt) -> BigUInt {
    b.isOne ? a : BigUInt.divide(a, by: b).0
  }

  // MARK: - Rounding

  /// The value rounded half to even to an integer multiple of 10^`unit`.
  ///
  /// The quotient must fit a `UInt128`: `unit` at most 35 places below the leading digit.
  /// - Complexity: one division of numbers of about the operands' sizes.
  func rounded(toUnit unit: Int) -> Decimal34 {
    guard let magnitude = magnitudeExponent, magnitude >= unit - 1 else { return .zero }
    // value / 10^unit = N·10^(E − unit) / D.
    let shift = exponent - unit
    let (quotient, remainder) = BigUInt.divide(
      numerator.timesPowerOfTen(shift), by: denominator.timesPowerOfTen(-shift))
    let half = BigUInt.compare(remainder + remainder, denominator.timesPowerOfTen(-shift))
    // At most 35 places below the leading digit: the quotient has at most 36 digits.
    var coefficient = quotient.uint128!
    if half > 0 || (half == 0 && coefficient & 1 == 1) { coefficient += 1 }
    return Decimal34(coefficient: coefficient, exponent: unit, isNegative: isNegative)
  }

  /// The value rounded half to even to `digits` (1...34) significant digits.
  func rounded(toSignificantDigits digits: Int) -> Decimal34 {
    guard let magnitude = magnitudeExponent else { return .zero }
    return rounded(toUnit: magnitude - digits + 1)
  }

  /// The value rounded half to even to at most `fractionDigits` digits after the point and at
  /// most `digits` significant digits: once, at the coarser of the two places.
  func rounded(toFractionDigits fractionDigits: Int, significantDigits digits: Int) -> Decimal34 {
    guard let magnitude = magnitudeExponent else { return .zero }
    return rounded(toUnit: max(-fractionDigits, magnitude - digits + 1))
  }

  // MARK: - Back to a number

  /// The exact value as a ``Number`` in its canonical form — a 34-digit decimal, else a small
  /// or boxed fraction within the cap —, or, when it needs more than ``Number/digitCap``
  /// digits, its 34-digit rounding marked as rounded. `self` must be in lowest terms (but for
  /// the power of ten).
  ///
  /// A large exponent is weighed before 10^E is made: when the fraction's numerator (E > 0) or
  /// denominator (E < 0) would have more than 120 digits anyway, the value is rounded without
  /// it.
  func exactResult() -> Number {
    if isZero { return .zero }
    // A terminating decimal: D = 2^a·5^b, and N·10^E/D = N·2^(k−a)·5^(k−b) × 10^(E−k).
    let twos = denominator.twos()
    let fives = denominator.fives()
    let rest = denominator.dividedByPowerOfTwo(twos).dividedByPowerOfFive(fives)
    if rest.isOne {
      let k = max(twos, fives)
      var coefficient = numerator.timesPowerOfTwo(k - twos).timesPowerOfFive(k - fives)
      var power = exponent - k
      let zeros = coefficient.trailingZeroDigits
      if zeros > 0 {
        coefficient = coefficient.truncated(by: zeros).0
        power += zeros
      }
      if coefficient.digitCount <= Decimal34.precision, let small = coefficient.uint128,
        let fitting = Int32(exactly: power)
      {
        return Number(
          storage: .decimal(
            Decimal34(uncheckedCoefficient: small, exponent: fitting, isNegative: isNegative)))
      }
    }
    var n = numerator
    var d = denominator
    let cap = Number.digitCap
    if exponent > 0 {
      // The numerator will be at least N·10^E/D.
      if n.digitCount - 1 + exponent - d.digitCount >= cap { return roundedResult() }
      let (t, f) = (min(twos, exponent), min(fives, exponent))
      n = n.shifted(by: exponent).dividedByPowerOfTwo(t).dividedByPowerOfFive(f)
      d = d.dividedByPowerOfTwo(t).dividedByPowerOfFive(f)
    } else if exponent < 0 {
      // The denominator will be at least D·10^k/N.
      let k = -exponent
      if d.digitCount - 1 + k - n.digitCount >= cap { return roundedResult() }
      let (t, f) = (n.twos(upTo: k), n.fives(upTo: k))
      d = d.shifted(by: k).dividedByPowerOfTwo(t).dividedByPowerOfFive(f)
      n = n.dividedByPowerOfTwo(t).dividedByPowerOfFive(f)
    }
    guard n.digitCount <= cap, d.digitCount <= cap else { return roundedResult() }
    return Number.fraction(isNegative: isNegative, numerator: n, denominator: d)
  }

  /// The value rounded once to 34 digits, marked as rounded.
  func roundedResult() -> Number {
    Number(rounded: rounded(toSignificantDigits: Decimal34.precision))
  }
}

extension Number {
  /// The canonical form of a fraction in lowest terms within the cap that is not a 34-digit
  /// decimal: ``Storage/small`` when it fits, else a box.
  static func fraction(isNegative: Bool, numerator: BigUInt, denominator: BigUInt) -> Number {
    if let n = numerator.uint128, let d = denominator.uint128, d <= UInt128(UInt32.max) {
      return Number(
        storage: .small(SmallFraction(numerator: n, denominator: UInt32(d), isNegative: isNegative))
      )
    }
    return Number(
      storage: .big(
        FractionBox(isNegative: isNegative, numerator: numerator, denominator: denominator)))
  }
}
