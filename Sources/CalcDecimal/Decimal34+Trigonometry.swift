extension Decimal34 {
  /// A trigonometric or hyperbolic function, or an inverse; angles in `unit` (hyperbolic
  /// functions ignore it). See the elementary functions' documentation for digits and limits.
  ///
  /// Circular functions of |x| ≥ 10^100 are `invalidInput`. Degrees and grads are reduced
  /// exactly; radians by a π of enough digits for |x| < 10^100, except that an argument within
  /// 10^-32 (relative) of n·P/2 with n < 2,000,000, P being ``pi``, counts as that multiple
  /// (`π × 999999` does, `π × 1000000` does not). Poles follow Windows: tan at 90° is
  /// `invalidInput`, sec, csc and cot reached through a zero are `divideByZero` (but cot at 90°
  /// is `invalidInput`). asec, acsc and acot of 0 are `divideByZero`; they work on the exact
  /// argument, not on its reciprocal rounded to 34 digits.
  public static func trig(_ f: TrigFunction, _ x: Decimal34, unit: AngleUnit) -> Result<
    Decimal34, FunctionError
  > {
    switch f {
    case .sin, .cos, .tan, .sec, .csc, .cot:
      if let m = x.magnitudeExponent, m >= 100 { return .failure(.invalidInput) }
      return circular(f, x, unit: unit)
    case .asin, .acos, .atan: return inverse(f, x, unit: unit)
    case .asec, .acsc, .acot:
      guard !x.isZero else { return .failure(.divideByZero) }
      return inverse(f, x, unit: unit)
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

  // MARK: - Circular functions

  /// An angle reduced for evaluation: an exact multiple of 15° and the rest.
  enum Reduced {
    /// Exactly `degrees` (in [0, 360)), a multiple of 30 or 45.
    case special(Int)
    /// Quadrant q (0…3), the angle being q·π/2 + `r` radians with |r| ≤ π/4 (about: the
    /// nearest multiple of π/2 is subtracted, so that r keeps its relative accuracy).
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
    // The first pass (48 digits) needs 60 digits of the rest, the retry at 100 digits 120: a
    // radian argument is reduced again for it.
    let reduced = reduce(Real(x).absolute, unit: unit, rest: 60)
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
      var reduced = reduced
      if w.digits > 48, unit == .radians, case .general = reduced {
        reduced = reduce(Real(x).absolute, unit: unit)
      }
      let (s, c) = sinCos(
        reduced, w, sine: f != .cos && f != .sec, cosine: f != .sin && f != .csc)
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

  /// sin and cos of a reduced angle; one not asked for comes back as zero, its series skipped.
  static func sinCos(_ reduced: Reduced, _ w: Working, sine: Bool = true, cosine: Bool = true)
    -> (Real, Real)
  {
    let wide = Working(digits: w.digits + 6)
    let (quadrant, r): (Int, Real)
    switch reduced {
    case .special(let degrees):
      quadrant = degrees / 90
      r = wide.divide(wide.multiply(wide.pi, degrees % 90), 180)
    case .general(let q, let radians):
      (quadrant, r) = (q, radians)
    }
    // r in [0, π/2) for a special angle, |r| ≤ π/4 otherwise: past π/4 use the complement.
    let quarter = wide.divide(wide.pi, 4)
    // Quadrants 1 and 3 take sin from cos and the other way round (and the complement again).
    let (needSine, needCosine) = quadrant % 2 == 1 ? (cosine, sine) : (sine, cosine)
    var (s, c): (Real, Real)
    if quarter < r {
      let (cs, sn) = wide.sinCos(
        wide.subtract(wide.divide(wide.pi, 2), r), sine: needCosine, cosine: needSine)
      (s, c) = (sn, cs)
    } else {
      (s, c) = wide.sinCos(r, sine: needSine, cosine: needCosine)
    }
    switch quadrant {
    case 1: (s, c) = (c, s.negated)
    case 2: (s, c) = (s.negated, c.negated)
    case 3: (s, c) = (c.negated, s)
    default: break
    }
    return (w.normalized(s), w.normalized(c))
  }

  /// Reduces |x| ≥ 0 in `unit`: exactly in degrees and grads; in radians by a π of enough
  /// digits, with arguments within 10^-32·|x| of n·P/2, n < 2,000,000, taken as that multiple.
  ///
  /// The rest is taken from the nearest multiple of 90° or π/2, so that it never comes from a
  /// subtraction near π/2 that would cancel digits. In radians the working digits grow with |x|
  /// (10^99 needs 99 more for the quotient) and again, 50 at a time, when the rest comes out so
  /// small that its digits would be too few for the rounding to 34 (a 34-digit decimal very
  /// near a multiple of π/2): π's 330 digits keep 120 digits of a rest down to about 10^-79 at
  /// |x| near 10^99, far below the 1.9·10^-36 that the nearest 34-digit decimal comes to (at
  /// 9.32·10^69; `ElementaryReferenceTests.hardRadianCases`).
  /// - Complexity: O(d²) in those digits, d ≤ 330.
  static func reduce(_ x: Real, unit: AngleUnit, rest needed: Int = 120) -> Reduced {
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
      // The nearest multiple of 90°: the rest, in [-45°, 45°], is exact.
      let nearest = truncatedInteger(w.add(w.divide(angle, 90), Real(digits: "0.5")))
      let multiple = nearest.nearestInteger ?? 0
      let rest = w.subtract(angle, Real(90 * multiple))
      return .general(quadrant: multiple % 4, radians: w.divide(w.multiply(rest, w.pi), 180))
    case .radians:
      if x.isZero { return .special(0) }
      let magnitude = max(0, x.magnitude!)
      var digits = needed + 30 + magnitude
      while true {
        let w = Working(digits: digits)
        let halfPi = w.normalized(Working.halfPiDigits)
        // The nearest multiple of π/2; x > 0.
        let quotient = w.multiply(x, w.normalized(Working.twoOverPiDigits))
        let nearest = truncatedInteger(w.add(quotient, Real(digits: "0.5")))
        if nearest.isZero { return .general(quadrant: 0, radians: x) }
        let rest = w.subtract(x, w.multiply(halfPi, nearest))
        // Snapping to the nearest multiple n·P/2, P = π to 34 digits, when x − n·P/2 is below
        // 10^(m − 32), m = ⌊log10 x⌋. Tested only when the rest is below 10^(m − 31): else
        // |x − n·P/2| ≥ |x − n·π/2| − n·|π − P|/2 > 10^(m − 31) − 0.032·10^(m − 31) − (the
        // rest's error, below 10^(m − 80)) > 10^(m − 32), since |π − P| < 0.5·10^-33 and
        // n ≤ 2x/π + 1/2 ≤ 4x/π < 1.28·10^(m + 1) (n ≥ 1 means 2x/π ≥ 1/2): no snap.
        if rest.isZero || rest.magnitude! < x.magnitude! - 31, nearest < Real(2_000_000) {
          let snapped = w.divide(w.multiply(Real(Decimal34.pi), nearest), 2)
          let distance = w.subtract(x, snapped)
          if distance.isZero || (distance.magnitude ?? 0) < (x.magnitude ?? 0) - 32 {
            return .special(modulo4(nearest) * 90)
          }
        }
        // Only an exact multiple of π/2 has no rest, and no decimal is one: never reached.
        guard let restMagnitude = rest.magnitude else { return .special(modulo4(nearest) * 90) }
        // The rest's absolute error is about 10^(magnitude + 1 - digits); it needs `needed`
        // digits of its own (120: the retry at 100 digits, and slack).
        if restMagnitude - (magnitude + 1 - digits) >= needed || digits + 50 > 320 {
          return .general(quadrant: modulo4(nearest), radians: rest)
        }
        digits += 50
      }
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

  /// asin, acos, atan, asec, acsc or acot of `x` in `unit`; asec, acsc and acot of x ≠ 0.
  ///
  /// The inverse secant, cosecant and cotangent are computed from x itself, at working
  /// precision: asec x = 2·atan √((x − 1)/(x + 1)), acsc x = atan(1/√(x² − 1)) with x's sign,
  /// acot x = atan(1/x), so that they keep their digits near |x| = 1.
  static func inverse(_ f: TrigFunction, _ x: Decimal34, unit: AngleUnit) -> Result<
    Decimal34, FunctionError
  > {
    let r = Real(x)
    let beyondOne = Real.one < r.absolute
    let belowOne = r.absolute < .one
    switch f {
    case .asin, .acos: if beyondOne { return .failure(.invalidInput) }
    case .asec, .acsc: if belowOne { return .failure(.invalidInput) }
    default: break
    }
    // Exact angles, in degrees.
    let half = Decimal34(coefficient: 5, exponent: -1)
    let two = Decimal34(coefficient: 2, exponent: 0)
    let table: [(Decimal34, Int)]
    switch f {
    case .asin: table = [(.zero, 0), (one, 90), (-one, -90), (half, 30), (-half, -30)]
    case .acos: table = [(one, 0), (-one, 180), (.zero, 90), (half, 60), (-half, 120)]
    case .asec: table = [(one, 0), (-one, 180), (two, 60), (-two, 120)]
    case .acsc: table = [(one, 90), (-one, -90), (two, 30), (-two, -30)]
    case .acot: table = [(one, 45), (-one, -45)]
    default: table = [(.zero, 0), (one, 45), (-one, -45)]
    }
    if let exact = table.first(where: { $0.0 == x })?.1 {
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
    let isMinusOne = x == -one
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
      case .acos, .asec:
        // acos x = 2·atan √((1 − x)/(1 + x)), accurate near ±1; asec x = acos(1/x) =
        // 2·atan √((x − 1)/(x + 1)). Both are π at x = −1.
        if isMinusOne {
          radians = wide.pi
        } else {
          let (a, b) =
            f == .acos
            ? (wide.subtract(.one, r), wide.add(.one, r))
            : (wide.subtract(r, .one), wide.add(r, .one))
          radians = wide.multiply(wide.atan(wide.squareRoot(wide.divide(a, b))), 2)
        }
      case .acsc:
        // asin(1/x) = atan(1/√(x² − 1)), with x's sign; ±π/2 at x = ±1.
        let a = r.absolute
        let root = wide.squareRoot(wide.multiply(wide.subtract(a, .one), wide.add(a, .one)))
        let value = root.isZero ? wide.divide(wide.pi, 2) : wide.atan(wide.divide(.one, root))
        radians = r.isNegative ? value.negated : value
      case .acot:
        radians = wide.atan(wide.divide(.one, r))
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
