extension Decimal34 {
  /// A trigonometric or hyperbolic function, or an inverse; angles in `unit` (hyperbolic
  /// functions ignore it). See the elementary functions' documentation for digits and limits.
  ///
  /// Circular functions of |x| ≥ 10^100 are `invalidInput`. Degrees and grads are reduced
  /// exactly; in radians an argument within 10^-32 (relative) of a multiple of P/2, P being
  /// ``pi``, counts as that multiple. Poles follow Windows: tan at 90° is `invalidInput`, sec,
  /// csc and cot reached through a zero are `divideByZero` (but cot at 90° is `invalidInput`).
  public static func trig(_ f: TrigFunction, _ x: Decimal34, unit: AngleUnit) -> Result<
    Decimal34, FunctionError
  > {
    switch f {
    case .sin, .cos, .tan, .sec, .csc, .cot:
      if let m = x.magnitudeExponent, m >= 100 { return .failure(.invalidInput) }
      return circular(f, x, unit: unit)
    case .asin, .acos, .atan: return inverse(f, x, unit: unit)
    case .asec:
      return reciprocal(x).flatMap { inverse(.acos, $0, unit: unit, reciprocalOf: x) }
    case .acsc:
      return reciprocal(x).flatMap { inverse(.asin, $0, unit: unit, reciprocalOf: x) }
    case .acot:
      return reciprocal(x).flatMap { inverse(.atan, $0, unit: unit, reciprocalOf: x) }
    case .sinh, .cosh, .tanh, .sech, .csch, .coth: return hyperbolic(f, x)
    case .asinh, .acosh, .atanh: return inverseHyperbolic(f, Real(x))
    case .asech:
      guard !x.isZero else { return .failure(.divideByZero) }
      return inverseHyperbolic(.acosh, Working(digits: 120).divide(.one, Real(x)))
    case .acsch:
      guard !x.isZero else { return .failure(.divideByZero) }
      return inverseHyperbolic(.asinh, Working(digits: 120).divide(.one, Real(x)))
    case .acoth:
      guard !x.isZero else { return .failure(.divideByZero) }
      return inverseHyperbolic(.atanh, Working(digits: 120).divide(.one, Real(x)))
    }
  }

  static func reciprocal(_ x: Decimal34) -> Result<Decimal34, FunctionError> {
    guard let value = Decimal34.dividing(one, by: x) else { return .failure(.divideByZero) }
    return .success(value)
  }

  // MARK: - Circular functions

  /// An angle reduced for evaluation: an exact multiple of 15° and the rest.
  enum Reduced {
    /// Exactly `degrees` (in [0, 360)), a multiple of 30 or 45.
    case special(Int)
    /// Quadrant q (0…3) plus `r` radians in [0, π/2), and whether the angle was negated.
    case general(quadrant: Int, radians: Real)
  }

  static func circular(_ f: TrigFunction, _ x: Decimal34, unit: AngleUnit) -> Result<
    Decimal34, FunctionError
  > {
    // sin, tan, csc and cot are odd; cos and sec even.
    let odd: Bool
    switch f {
    case .sin, .tan, .csc, .cot: odd = true
    default: odd = false
    }
    let negate = odd && x.isNegative
    let reduced = reduce(Real(x).absolute, unit: unit)
    func signed(_ value: Decimal34) -> Decimal34 { negate ? -value : value }
    if case .special(let degrees) = reduced {
      // (sin, cos) as exact halves: 0, ±1/2, ±1, or nil for irrational values.
      let table: [Int: (Int?, Int?)] = [
        0: (0, 2), 30: (1, nil), 45: (nil, nil), 60: (nil, 1), 90: (2, 0), 120: (nil, -1),
        135: (nil, nil), 150: (1, nil), 180: (0, -2), 210: (-1, nil), 225: (nil, nil),
        240: (nil, -1), 270: (-2, 0), 300: (nil, 1), 315: (nil, nil), 330: (-1, nil),
      ]
      let (s, c) = table[degrees] ?? (nil, nil)
      /// `halves` / 2.
      func value(_ halves: Int) -> Decimal34 {
        Decimal34(coefficient: UInt128(halves.magnitude) * 5, exponent: -1, isNegative: halves < 0)
          .normalized
      }
      let isTangentOne = degrees % 90 == 45
      let tangentSign = (degrees / 90) % 2 == 0 ? 1 : -1
      switch f {
      case .sin: if let s { return .success(signed(value(s))) }
      case .cos: if let c { return .success(value(c)) }
      case .tan:
        if c == 0 { return .failure(.invalidInput) }
        if s == 0 { return .success(.zero) }
        if isTangentOne { return .success(signed(value(2 * tangentSign))) }
      case .sec:
        if c == 0 { return .failure(.divideByZero) }
        if let c { return .success(value(4 / c)) }
      case .csc:
        if s == 0 { return .failure(.divideByZero) }
        if let s { return .success(signed(value(4 / s))) }
      case .cot:
        if c == 0 { return .failure(.invalidInput) }
        if s == 0 { return .failure(.divideByZero) }
        if isTangentOne { return .success(signed(value(2 * tangentSign))) }
      default: break
      }
    }
    let result: Result<Decimal34, FunctionError> = rounded { w in
      let (s, c) = sinCos(reduced, w)
      switch f {
      case .sin: return s
      case .cos: return c
      case .tan: return w.divide(s, c)
      case .sec: return w.divide(.one, c)
      case .csc: return w.divide(.one, s)
      default: return w.divide(c, s)
      }
    }
    return result.map(signed)
  }

  /// sin and cos of a reduced angle.
  static func sinCos(_ reduced: Reduced, _ w: Working) -> (Real, Real) {
    let wide = Working(digits: w.digits + 6)
    let (quadrant, r): (Int, Real)
    switch reduced {
    case .special(let degrees):
      quadrant = degrees / 90
      r = wide.divide(wide.multiply(wide.pi, degrees % 90), 180)
    case .general(let q, let radians):
      (quadrant, r) = (q, radians)
    }
    // r in [0, π/2): past π/4 use the complement.
    let quarter = wide.divide(wide.pi, 4)
    var (s, c): (Real, Real)
    if quarter < r {
      let (cs, sn) = wide.sinCos(wide.subtract(wide.divide(wide.pi, 2), r))
      (s, c) = (sn, cs)
    } else {
      (s, c) = wide.sinCos(r)
    }
    switch quadrant {
    case 1: (s, c) = (c, s.negated)
    case 2: (s, c) = (s.negated, c.negated)
    case 3: (s, c) = (c.negated, s)
    default: break
    }
    return (w.normalized(s), w.normalized(c))
  }

  /// Reduces |x| ≥ 0 in `unit`: exactly in degrees and grads; in radians by a precise π, with
  /// arguments within 10^-32 of a multiple of P/2 taken as that multiple.
  static func reduce(_ x: Real, unit: AngleUnit) -> Reduced {
    switch unit {
    case .degrees, .grads:
      let full = unit == .degrees ? 360 : 400
      var angle = exactRemainder(x, full)
      if unit == .grads {
        // 1 grad is 0.9°, exactly.
        angle = Real(isNegative: false, mantissa: angle.mantissa * 9, exponent: angle.exponent - 1)
      }
      if angle.isInteger, let degrees = angle.nearestInteger, degrees % 15 == 0,
        degrees % 30 == 0 || degrees % 45 == 0
      {
        return .special(degrees % 360)
      }
      let w = Working(digits: 110)
      let quadrant = (truncatedInteger(w.divide(angle, 90)).nearestInteger ?? 0) % 4
      let rest = w.subtract(angle, Real(90 * quadrant))
      return .general(quadrant: quadrant, radians: w.divide(w.multiply(rest, w.pi), 180))
    case .radians:
      let w = Working(digits: 110 + max(0, x.magnitude ?? 0))
      let halfPi = w.divide(w.pi, 2)
      let quotient = w.divide(x, halfPi)
      // Snapping to the nearest multiple of P/2, P = π to 34 digits.
      let nearest = truncatedInteger(w.add(quotient, Real(digits: "0.5")))
      let snapped = w.divide(w.multiply(Real(Decimal34.pi), nearest), 2)
      let distance = w.subtract(x, snapped)
      if distance.isZero || (distance.magnitude ?? 0) < (x.magnitude ?? 0) - 32 {
        return .special(modulo4(nearest) * 90)
      }
      let whole = truncatedInteger(quotient)
      var rest = w.subtract(x, w.multiply(halfPi, whole))
      var quadrant = modulo4(whole)
      if rest.isNegative {
        rest = w.add(rest, halfPi)
        quadrant = (quadrant + 3) % 4
      }
      return .general(quadrant: quadrant, radians: rest)
    }
  }

  /// An integer-valued x ≥ 0 modulo 4.
  static func modulo4(_ x: Real) -> Int {
    if x.isZero { return 0 }
    let integer =
      x.exponent >= 0 ? x.mantissa.shifted(by: x.exponent) : x.mantissa.truncated(by: -x.exponent).0
    return Int(integer.divided(by: 4).1)
  }

  /// x mod `modulus` for x ≥ 0, exactly.
  static func exactRemainder(_ x: Real, _ modulus: Int) -> Real {
    if x.isZero { return .zero }
    if x.exponent >= 0 {
      let (_, r) = x.mantissa.shifted(by: x.exponent).divided(by: UInt32(modulus))
      return Real(Int(r))
    }
    let scaled = BigUInt(modulus).shifted(by: -x.exponent)
    let (_, r) = BigUInt.divide(x.mantissa, by: scaled)
    return Real(isNegative: false, mantissa: r, exponent: x.exponent)
  }

  // MARK: - Inverse circular functions

  /// asin, acos or atan of `x` in `unit`; `reciprocalOf` is the argument of asec, acsc or acot
  /// when `x` is its reciprocal, for the domain.
  static func inverse(
    _ f: TrigFunction, _ x: Decimal34, unit: AngleUnit, reciprocalOf original: Decimal34? = nil
  ) -> Result<Decimal34, FunctionError> {
    let r = Real(x)
    let beyondOne = Real.one < r.absolute
    if f != .atan {
      if let original {
        // asec and acsc: |original| < 1 is outside the domain.
        if Real(original).absolute < .one { return .failure(.invalidInput) }
      } else if beyondOne {
        return .failure(.invalidInput)
      }
    }
    // Exact angles, in degrees.
    let half = Decimal34(coefficient: 5, exponent: -1)
    var exact: Int?
    switch f {
    case .asin:
      if x.isZero { exact = 0 }
      if x == one { exact = 90 }
      if x == -one { exact = -90 }
      if x == half { exact = 30 }
      if x == -half { exact = -30 }
    case .acos:
      if x == one { exact = 0 }
      if x == -one { exact = 180 }
      if x.isZero { exact = 90 }
      if x == half { exact = 60 }
      if x == -half { exact = 120 }
    default:
      if x.isZero { exact = 0 }
      if x == one { exact = 45 }
      if x == -one { exact = -45 }
    }
    if let exact {
      switch unit {
      case .degrees:
        return .success(
          Decimal34(coefficient: UInt128(exact.magnitude), exponent: 0, isNegative: exact < 0))
      case .grads:
        // 1° is 10/9 grad: 30° is 33.33… grad, not exact.
        if exact % 9 == 0 {
          return .success(
            Decimal34(
              coefficient: UInt128(exact.magnitude / 9 * 10), exponent: 0, isNegative: exact < 0))
        }
      case .radians:
        if exact == 0 { return .success(.zero) }
      }
    }
    return rounded { w in
      let wide = Working(digits: w.digits + 8)
      let radians: Real
      switch f {
      case .asin:
        let root = wide.squareRoot(wide.multiply(wide.subtract(.one, r), wide.add(.one, r)))
        radians =
          root.isZero
          ? wide.divide(r.isNegative ? wide.pi.negated : wide.pi, 2)
          : wide.atan(wide.divide(r, root))
      case .acos:
        // 2·atan(√((1 − x)/(1 + x))): accurate near ±1.
        let ratio = wide.divide(wide.subtract(.one, r), wide.add(.one, r))
        radians = wide.multiply(wide.atan(wide.squareRoot(ratio)), 2)
      default:
        radians = wide.atan(r)
      }
      switch unit {
      case .radians: return w.normalized(radians)
      case .degrees: return w.divide(wide.multiply(radians, 180), wide.pi)
      case .grads: return w.divide(wide.multiply(radians, 200), wide.pi)
      }
    }
  }

  // MARK: - Hyperbolic functions

  static func hyperbolic(_ f: TrigFunction, _ x: Decimal34) -> Result<Decimal34, FunctionError> {
    let r = Real(x)
    if x.isZero {
      switch f {
      case .sinh, .tanh: return .success(.zero)
      case .cosh, .sech: return .success(one)
      default: return .failure(.divideByZero)
      }
    }
    if let m = x.magnitudeExponent, m >= 5 {
      switch f {
      case .sinh, .cosh, .sech, .csch: return .failure(.overflow)
      default: return .success(x.isNegative ? -one : one)
      }
    }
    return rounded { w in
      let wide = Working(digits: w.digits + 10)
      let (sinh, cosh): (Real, Real)
      if r.absolute < .one {
        // sinh by its series, keeping relative accuracy for small x.
        let r2 = wide.multiply(r, r)
        var term = r
        var sum = r
        var k = 1
        while true {
          term = wide.divide(wide.multiply(term, r2), (2 * k) * (2 * k + 1))
          if term.isZero { break }
          sum = wide.add(sum, term)
          if let t = term.magnitude, let s = sum.magnitude, t < s - wide.digits { break }
          k += 1
        }
        sinh = sum
        cosh = wide.squareRoot(wide.add(.one, wide.multiply(sum, sum)))
      } else {
        let e = wide.exp(r)
        let inverse = wide.divide(.one, e)
        sinh = wide.divide(wide.subtract(e, inverse), 2)
        cosh = wide.divide(wide.add(e, inverse), 2)
      }
      switch f {
      case .sinh: return w.normalized(sinh)
      case .cosh: return w.normalized(cosh)
      case .tanh: return w.divide(sinh, cosh)
      case .sech: return w.divide(.one, cosh)
      case .csch: return w.divide(.one, sinh)
      default: return w.divide(cosh, sinh)
      }
    }
  }

  /// asinh, acosh or atanh of `x` (exact, or a reciprocal good to 120 digits).
  static func inverseHyperbolic(_ f: TrigFunction, _ x: Real) -> Result<Decimal34, FunctionError> {
    switch f {
    case .acosh:
      if x < .one { return .failure(.invalidInput) }
      if x == .one { return .success(.zero) }
    case .atanh:
      if x == .one { return .failure(.divideByZero) }
      if Real.one < x.absolute || x == Real.one.negated { return .failure(.invalidInput) }
    default: break
    }
    if x.isZero { return .success(.zero) }
    return rounded { w in
      let wide = Working(digits: w.digits + 10)
      let half = Real(digits: "0.5")
      switch f {
      case .asinh:
        let a = x.absolute
        var value: Real
        if a < half {
          // atanh(x / √(1 + x²)), relative-accurate for small x.
          value = wide.atanhSeries(
            wide.divide(a, wide.squareRoot(wide.add(.one, wide.multiply(a, a)))))
        } else {
          value = wide.ln(wide.add(a, wide.squareRoot(wide.add(wide.multiply(a, a), .one))))
        }
        return w.normalized(x.isNegative ? value.negated : value)
      case .acosh:
        let root = wide.squareRoot(wide.multiply(wide.subtract(x, .one), wide.add(x, .one)))
        return w.normalized(wide.ln(wide.add(x, root)))
      default:
        let a = x.absolute
        var value: Real
        if a < half {
          value = wide.atanhSeries(a)
        } else {
          value = wide.divide(
            wide.ln(wide.divide(wide.add(.one, a), wide.subtract(.one, a))), 2)
        }
        return w.normalized(x.isNegative ? value.negated : value)
      }
    }
  }
}
