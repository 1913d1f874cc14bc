// + − × ÷, percent, x², 1/x, negation, floor and ceiling of `Number`.
//
// Each operation tries, in order: two decimals whose exact result fits 34 digits (the everyday
// path: one `Decimal34` operation and a test); a rounded operand (the result is rounded once,
// from the exact operands, to 34 digits); decimals and small fractions whose exact result fits
// 128-bit integers (`Ratio128`: `12345.67/7` is 1234567/700, one 64-bit gcd); and the general
// path in big integers (`Scaled`). Every path gives the canonical form (Number.swift), so
// which one ran never shows.

extension Number {
  // MARK: - Sign

  /// The value with the opposite sign, exact or rounded as it was; zero stays zero.
  public static prefix func - (value: Number) -> Number {
    switch value.storage {
    case .decimal(let x): Number(storage: .decimal(-x))
    case .rounded(let x): Number(storage: .rounded(-x))
    case .small(let f):
      Number(
        storage: .small(
          SmallFraction(
            numerator: f.numerator, denominator: f.denominator, isNegative: !f.isNegative)))
    case .big(let box):
      Number(
        storage: .big(
          FractionBox(
            isNegative: !box.isNegative, numerator: box.numerator, denominator: box.denominator)))
    }
  }

  /// |value|.
  public var magnitude: Number { isNegative ? -self : self }

  // MARK: - + − × ÷

  /// `a + b`: exact when both are and the result is within the cap, else rounded once to 34
  /// digits, half to even.
  @inline(__always)
  public static func + (a: Number, b: Number) -> Number {
    if case .decimal(let x) = a.storage, case .decimal(let y) = b.storage,
      let sum = Decimal34.exactSum(x, y)
    {
      return Number(storage: .decimal(sum))
    }
    return slowSum(a, b)
  }

  /// `a - b`, as `a + (-b)`.
  @inline(__always)
  public static func - (a: Number, b: Number) -> Number {
    if case .decimal(let x) = a.storage, case .decimal(let y) = b.storage,
      let difference = Decimal34.exactSum(x, -y)
    {
      return Number(storage: .decimal(difference))
    }
    return slowSum(a, -b)
  }

  /// `a × b`: exact when both are and the result is within the cap, else rounded once to 34
  /// digits, half to even.
  @inline(__always)
  public static func * (a: Number, b: Number) -> Number {
    if case .decimal(let x) = a.storage, case .decimal(let y) = b.storage,
      let product = Decimal34.exactProduct(x, y)
    {
      return Number(storage: .decimal(product))
    }
    return slowProduct(a, b)
  }

  /// `a ÷ b`, exact or rounded as `*` is; `nil` when `b` is zero (the caller tells `0/0`,
  /// `Result is undefined`, from `x/0`, `Cannot divide by zero`, as for `Decimal34`).
  public static func dividing(_ a: Number, by b: Number) -> Number? {
    if b.isZero { return nil }
    if a.isRounded || b.isRounded {
      if let x = a.shortDecimal, let y = b.shortDecimal {
        return Number(rounded: Decimal34.dividing(x, by: y)!)
      }
      return Number(
        rounded: Scaled.product(Scaled(a), Scaled(b).reciprocal, reduced: false)
          .rounded(toSignificantDigits: Decimal34.precision))
    }
    if a.isZero { return .zero }
    if let x = Ratio128(a), let y = Ratio128(b), let quotient = Ratio128.quotient(x, y) {
      return quotient.number
    }
    return Scaled.product(Scaled(a), Scaled(b).reciprocal, reduced: true).exactResult()
  }

  /// `a + b` past the fast path.
  static func slowSum(_ a: Number, _ b: Number) -> Number {
    if a.isRounded || b.isRounded {
      if let x = a.shortDecimal, let y = b.shortDecimal { return Number(rounded: x + y) }
      return Number(rounded: roundedSum(Scaled(a), Scaled(b)))
    }
    if let x = Ratio128(a), let y = Ratio128(b), let sum = Ratio128.sum(x, y) { return sum.number }
    let (x, y) = (Scaled(a), Scaled(b))
    if abs(x.exponent - y.exponent) <= alignmentLimit {
      return Scaled.sum(x, y, reduced: true).exactResult()
    }
    // Exponents this far apart belong to a decimal of magnitude beyond 10^1166 or below
    // 10^-1166 (a fraction's is 0): the sum is a decimal of more than 34 digits, or a fraction
    // whose numerator or denominator has more than 120 — rounded.
    if let x = a.shortDecimal, let y = b.shortDecimal { return Number(rounded: x + y) }
    return Number(rounded: roundedSum(x, y))
  }

  /// The most places a sum aligns an operand by, making 10^k: beyond, the exact sum is past
  /// the cap and ``roundedSum(_:_:)`` finds its rounding without it.
  static let alignmentLimit = 1200

  /// `x + y` correctly rounded to 34 digits, for operands of which at most one is a fraction
  /// (the other a 34-digit decimal, exact or rounded), without making 10^k for a large k.
  ///
  /// With the exponents far apart (a decimal of magnitude past 10^±1166 beside a fraction of
  /// magnitude within 10^±121): a decimal 36 places or more above the other operand is the
  /// rounded sum itself (the rest is below a tenth of its last place's half); a fraction 300
  /// places or more above a decimal rounds as it would with the decimal replaced by any value of
  /// its sign below 10^(magnitude − 299) — a fraction p/q with q ≤ 10^120 lies either on a
  /// rounding boundary or at least 10^(magnitude − 156) from one —, so the decimal is replaced by
  /// ±10^(magnitude − 300).
  static func roundedSum(_ x: Scaled, _ y: Scaled) -> Decimal34 {
    if abs(x.exponent - y.exponent) <= alignmentLimit {
      return Scaled.sum(x, y, reduced: false).rounded(toSignificantDigits: Decimal34.precision)
    }
    guard let mx = x.magnitudeExponent else { return y.rounded(toSignificantDigits: 34) }
    guard let my = y.magnitudeExponent else { return x.rounded(toSignificantDigits: 34) }
    let (large, small, gap) = mx >= my ? (x, y, mx - my) : (y, x, my - mx)
    let magnitude = max(mx, my)
    if large.isDecimal, large.numerator.digitCount <= Decimal34.precision, gap >= 36 {
      return large.rounded(toSignificantDigits: Decimal34.precision)
    }
    if gap >= 300 {
      let standIn = Scaled(
        isNegative: small.isNegative, numerator: .one, denominator: .one,
        exponent: magnitude - 300)
      return Scaled.sum(large, standIn, reduced: false)
        .rounded(toSignificantDigits: Decimal34.precision)
    }
    // Not reached by two numbers of calc's forms; exact, if slow.
    return Scaled.sum(x, y, reduced: false).rounded(toSignificantDigits: Decimal34.precision)
  }

  /// `a × b` past the fast path.
  static func slowProduct(_ a: Number, _ b: Number) -> Number {
    if a.isRounded || b.isRounded {
      if let x = a.shortDecimal, let y = b.shortDecimal { return Number(rounded: x * y) }
      return Number(
        rounded: Scaled.product(Scaled(a), Scaled(b), reduced: false)
          .rounded(toSignificantDigits: Decimal34.precision))
    }
    if a.isZero || b.isZero { return .zero }
    if let x = Ratio128(a), let y = Ratio128(b), let product = Ratio128.product(x, y) {
      return product.number
    }
    return Scaled.product(Scaled(a), Scaled(b), reduced: true).exactResult()
  }

  // MARK: - Percent, x², 1/x

  /// The value divided by 100 (`Y%` with nothing pending, or with `×` or `÷`: Y/100), exact or
  /// rounded as the value is.
  public var percent: Number {
    switch storage {
    case .decimal(let value): Number(storage: .decimal(value.percent))
    case .rounded(let value): Number(storage: .rounded(value.percent))
    case .small, .big:
      Number.scaled(self, byPowerOfTen: -2)
    }
  }

  /// x·y/100 with `self` as y (`Y%` with `+` or `-` pending), as one step: exact when both are
  /// and the result is within the cap, else rounded once.
  public func percent(of x: Number) -> Number {
    if let y = shortDecimal, x.shortDecimal != nil {
      let hundredth = isRounded ? Number(rounded: y.percent) : Number(y.percent)
      return x * hundredth
    }
    var scaled = Scaled(self)
    scaled.exponent -= 2
    if x.isRounded || isRounded {
      return Number(
        rounded: Scaled.product(Scaled(x), scaled, reduced: false)
          .rounded(toSignificantDigits: Decimal34.precision))
    }
    return Scaled.product(Scaled(x), scaled, reduced: true).exactResult()
  }

  /// `value × 10^power`, exact or rounded as the value is.
  static func scaled(_ value: Number, byPowerOfTen power: Int) -> Number {
    var scaled = Scaled(value)
    scaled.exponent += power
    if value.isRounded {
      return Number(rounded: scaled.rounded(toSignificantDigits: Decimal34.precision))
    }
    return scaled.exactResult()
  }

  /// x².
  public var squared: Number { self * self }

  /// 1/x; `nil` for zero (`Cannot divide by zero`).
  public var reciprocal: Number? { Number.dividing(.one, by: self) }

  // MARK: - Integer parts

  /// ⌊x⌋, the largest integer not above the value; exact or rounded as the value is.
  public var floor: Number {
    switch storage {
    case .decimal(let value): return Number(storage: .decimal(value.floor))
    case .rounded(let value): return Number(storage: .rounded(value.floor))
    case .small, .big:
      let scaled = Scaled(self)
      var (whole, remainder) = BigUInt.divide(scaled.numerator, by: scaled.denominator)
      if scaled.isNegative, !remainder.isZero { whole = whole + .one }
      return Scaled(isNegative: scaled.isNegative, numerator: whole, denominator: .one)
        .exactResult()
    }
  }

  /// ⌈x⌉, the smallest integer not below the value.
  public var ceiling: Number { -(-self).floor }
}
