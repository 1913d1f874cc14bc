// The operations of Scientific mode on `Number`: integer and rational powers, roots of perfect
// powers and `mod` are exact (SPEC §2 rule 15); everything else takes the exact operand rounded
// once to 34 digits (`decimalValue`) to the `Decimal34` functions and marks the result rounded.
// Errors are the `Decimal34` functions' (`FunctionError`).

extension Number {
  // MARK: - Functions that are not rational

  /// `function` of the value rounded to 34 digits (``decimalValue``), marked as rounded: the
  /// way into every function that is not rational (trigonometry, logarithms, eˣ, Γ).
  package func applying(_ function: (Decimal34) -> Result<Decimal34, FunctionError>)
    -> Result<Number, FunctionError>
  {
    function(decimalValue).map { Number(rounded: $0) }
  }

  /// A `Decimal34` function's result, marked as rounded.
  static func rounded(_ result: Result<Decimal34, FunctionError>) -> Result<Number, FunctionError> {
    result.map { Number(rounded: $0) }
  }

  // MARK: - Functions that are rational for integers

  /// n!: exact for an exact integer n ≥ 0 while n! has at most ``digitCap`` digits (80! has
  /// 119), else `Decimal34.factorial`'s value marked as rounded (Γ(n+1) for a non-integer n,
  /// 34 digits past the cap); its errors are `Decimal34.factorial`'s.
  package static func factorial(_ x: Number) -> Result<Number, FunctionError> {
    if x.isExact, x.isInteger, !x.isNegative, let n = Real(x.decimalValue).nearestInteger, n <= 100
    {
      var product = BigUInt.one
      if n > 1 { for k in 2...n { product = product * UInt32(k) } }
      if product.digitCount <= digitCap {
        return .success(
          Scaled(isNegative: false, numerator: product, denominator: .one).exactResult())
      }
    }
    return rounded(Decimal34.factorial(x.decimalValue))
  }

  /// 10ˣ: exact for an exact integer x (`Decimal34.pow10` gives 10^n exactly, within its
  /// overflow bounds), else rounded.
  package static func powerOfTen(_ x: Number) -> Result<Number, FunctionError> {
    let result = Decimal34.pow10(x.decimalValue)
    return x.isExact && x.isInteger ? result.map { Number($0) } : rounded(result)
  }

  /// 2ˣ: for an exact integer x the exact 2^n (`power`: within the cap, 2^-200 = 1/2^200), else
  /// rounded.
  package static func powerOfTwo(_ x: Number) -> Result<Number, FunctionError> {
    if x.isExact, x.isInteger { return power(Number(2), x) }
    return rounded(Decimal34.pow2(x.decimalValue))
  }

  // MARK: - Roots

  /// √x: exact when x is the square of an exact value (√(1/9) = 1/3, √2.25 = 1.5), else
  /// correctly rounded from ``decimalValue`` and marked; `nil` for x below zero.
  public static func squareRoot(_ x: Number) -> Number? {
    if x.isNegative { return nil }
    switch x.storage {
    case .rounded(let value): return Number(rounded: Decimal34.squareRoot(value)!)
    case .decimal(let value):
      let root = Decimal34.squareRoot(value)!
      // A rational root of a 34-digit decimal has at most 18 digits: the rounded root is it.
      if let square = Decimal34.exactProduct(root, root), square == value { return Number(root) }
      return Number(rounded: root)
    case .small, .big:
      if let root = exactRoot(x, 2) { return root }
      return Number(rounded: Decimal34.squareRoot(x.decimalValue)!)
    }
  }

  /// ∛x, real for x below zero: exact for a perfect cube, else rounded.
  package static func cubeRoot(_ x: Number) -> Result<Number, FunctionError> {
    if x.isRounded { return rounded(Decimal34.cubeRoot(x.decimalValue)) }
    if x.isZero { return .success(.zero) }
    if let root = exactRoot(x.magnitude, 3) { return limited(x.isNegative ? -root : root) }
    return rounded(Decimal34.cubeRoot(x.decimalValue))
  }

  /// x yroot y = x^(1/y), with `Decimal34.root`'s rules (Windows'): `divideByZero` for y = 0; a
  /// negative x has a real root when 1/y = p/q with q odd. Exact when 1/y is exact and x is a
  /// perfect power (`8 yroot 3` = 2, `8 yroot 1.5` = 4), else rounded.
  package static func root(_ x: Number, index y: Number) -> Result<Number, FunctionError> {
    if y.isZero { return .failure(.divideByZero) }
    if x.isZero, x.isExact, y.isExact {
      // 0 or `invalidInput`, by `Decimal34.root`'s rule for the sign of the index.
      return Decimal34.root(.zero, index: y.decimalValue).map { _ in .zero }
    }
    if x.isExact, y.isExact, let exponent = dividing(.one, by: y), exponent.isExact,
      let result = exactPower(x, exponent)
    {
      return result
    }
    return rounded(Decimal34.root(x.decimalValue, index: y.decimalValue))
  }

  /// The exact n-th root (n ≥ 2) of an exact x ≥ 0, if x is a perfect n-th power.
  static func exactRoot(_ x: Number, _ n: Int) -> Number? {
    switch x.storage {
    case .rounded: return nil
    case .decimal(let value):
      if value.isZero { return .zero }
      // With x = M·10^e, M not a multiple of 10, a root R·10^f (R not a multiple of 10, nor R^n)
      // is rational exactly when M = R^n and e = n·f.
      let normal = value.normalized
      guard Int(normal.exponent) % n == 0,
        let root = BigUInt(normal.coefficient).exactRoot(n)?.uint128
      else { return nil }
      return Number(Decimal34(coefficient: root, exponent: Int(normal.exponent) / n))
    case .small, .big:
      let scaled = Scaled(x)
      guard let p = scaled.numerator.exactRoot(n), let q = scaled.denominator.exactRoot(n) else {
        return nil
      }
      return Scaled(isNegative: false, numerator: p, denominator: q).exactResult()
    }
  }

  // MARK: - Powers

  /// x³: exact as x·x·x is, rounded for a rounded x (with Scientific mode's overflow).
  package static func cube(_ x: Number) -> Result<Number, FunctionError> {
    if x.isRounded { return rounded(Decimal34.cube(x.decimalValue)) }
    return integerPower(x, 3)
  }

  /// x^y with `Decimal34.power`'s rules (Windows'): 0^0 = 1, 0 to a negative power
  /// `invalidInput`, a negative base real when y = p/q with q odd.
  ///
  /// Exact for exact operands when y is an integer (`2^-3` = 1/8, `(1/3)^2` = 1/9) or y = p/q
  /// and x is a perfect q-th power (`8^(2/3)` = 4, `(4/9)^0.5` = 2/3), within the cap; else
  /// rounded once to 34 digits from the exact value (an integer power past the cap) or from
  /// ``decimalValue`` (an irrational power).
  public static func power(_ x: Number, _ y: Number) -> Result<Number, FunctionError> {
    if x.isExact, y.isExact {
      if y.isZero { return .success(.one) }
      if x.isZero { return y.isNegative ? .failure(.invalidInput) : .success(.zero) }
      if let result = exactPower(x, y) { return result }
    }
    return rounded(Decimal34.power(x.decimalValue, y.decimalValue))
  }

  /// x^y for exact nonzero x and y when y is rational with a small enough numerator and
  /// denominator and the result is exact or an integer power; `nil` when the result is
  /// irrational or y too large to try (the caller rounds).
  static func exactPower(_ x: Number, _ y: Number) -> Result<Number, FunctionError>? {
    guard let (negative, a, b) = y.reducedFraction(exponentLimit: 40) else { return nil }
    // ±1 to any integer power.
    if b.isOne, x.magnitude == .one {
      return .success(x.isNegative && !a.isEven ? -.one : .one)
    }
    guard let small = a.uint128, small <= 1_000_000 else { return nil }
    let n = negative ? -Int(small) : Int(small)
    if b.isOne { return integerPower(x, n) }
    guard let index128 = b.uint128, index128 <= 1_000_000 else { return nil }
    let index = Int(index128)
    if x.isNegative && index % 2 == 0 { return .failure(.invalidInput) }
    guard let root = exactRoot(x.magnitude, index) else { return nil }
    return integerPower(x.isNegative ? -root : root, n)
  }

  /// x^n for an exact nonzero x: exact within the cap (x^n is p^n/q^n, in lowest terms), else
  /// correctly rounded to 34 digits (`Decimal34.power` for a decimal x; for a fraction, its
  /// 60-digit quotient raised with cut products, exactly where that is in doubt and small
  /// enough, through logarithms past |n| = 2000: faithful).
  static func integerPower(_ x: Number, _ n: Int) -> Result<Number, FunctionError> {
    if n == 0 { return .success(.one) }
    if x.isZero { return n < 0 ? .failure(.invalidInput) : .success(.zero) }
    let count = n.magnitude
    let odd = count & 1 == 1
    if case .decimal(let value) = x.storage {
      // M^count × 10^(e·count), M without trailing zeros: a 34-digit decimal whatever e is when
      // M^count is short enough, and else weighed against the cap by `exactResult`.
      let normal = value.normalized
      let coefficient = BigUInt(normal.coefficient)
      if fitsCap(coefficient, count) {
        let power = Scaled(
          isNegative: value.isNegative && odd, numerator: coefficient.power(Int(count)),
          denominator: .one, exponent: Int(normal.exponent) * Int(count))
        return limited((n > 0 ? power : power.reciprocal).exactResult())
      }
    }
    // The fraction in lowest terms, whose powers are: p^count/q^count.
    guard let (negative, p, q) = x.reducedFraction(exponentLimit: 400),
      fitsCap(p, count), fitsCap(q, count)
    else {
      if case .decimal(let value) = x.storage {
        let exponent = Decimal34(
          coefficient: UInt128(count), exponent: 0, isNegative: n < 0)
        return rounded(Decimal34.power(value, exponent))
      }
      return roundedFractionPower(Scaled(x), n)
    }
    let power = Scaled(
      isNegative: negative && odd, numerator: p.power(Int(count)),
      denominator: q.power(Int(count)))
    return limited((n > 0 ? power : power.reciprocal).exactResult())
  }

  /// The value within Scientific mode's limits, or `overflow`, as `Decimal34`'s functions
  /// give it: from 10^10000, and nonzero below 10^-9999.
  static func limited(_ value: Number) -> Result<Number, FunctionError> {
    if let magnitude = value.magnitudeExponent, magnitude >= 10000 || magnitude < -9999 {
      return .failure(.overflow)
    }
    return .success(value)
  }

  /// Whether v^count can have at most 120 digits (a quick bound: v ≥ 10^(d−1), and v ≥ 2 means
  /// v^count ≥ 10^(0.3·count)).
  static func fitsCap(_ v: BigUInt, _ count: UInt) -> Bool {
    if v.isOne { return true }
    let tenths = max(10 * (v.digitCount - 1), 3)
    return count <= UInt(Number.digitCap * 10 / tenths)
  }

  /// x^n for a fraction x past the cap, correctly rounded where it can be decided (see
  /// ``integerPower(_:_:)``), with Scientific mode's overflow.
  static func roundedFractionPower(_ x: Scaled, _ n: Int) -> Result<Number, FunctionError> {
    let count = n.magnitude
    let negative = x.isNegative && count & 1 == 1
    let base = Real(isNegative: false, mantissa: x.numerator, exponent: x.exponent)
    let w = Working(digits: 60)
    let quotient = w.divide(base, Real(isNegative: false, mantissa: x.denominator, exponent: 0))
    guard count <= 2000 else {
      let result = Decimal34.realPower(quotient, Real(n))
      return rounded(result.map { negative ? -$0 : $0 })
    }
    let power = Decimal34.cutPower(quotient, count, w)
    let value = n > 0 ? power : w.divide(.one, power)
    if let magnitude = value.magnitude, magnitude >= 10001 || magnitude < -10001 {
      return .failure(.overflow)
    }
    var result = Real.round(value, exact: false, digits: 60)
    if result.inDoubt,
      (x.numerator.digitCount + x.denominator.digitCount) * Int(count) <= 4000
    {
      let exact = Scaled(
        isNegative: false, numerator: x.numerator.power(Int(count)),
        denominator: x.denominator.power(Int(count)), exponent: x.exponent * Int(count))
      result.value = (n > 0 ? exact : exact.reciprocal).rounded(toSignificantDigits: 34)
    }
    return rounded(Decimal34.limited(negative ? -result.value : result.value))
  }

  // MARK: - mod

  /// The floored remainder of x ÷ y, with the sign of y; x when y is 0 (Windows'). Exact for
  /// exact operands within the cap, else rounded once; `invalidInput` when the operands' scales
  /// are 20,000 places or more apart (as `Decimal34.floorMod`).
  public static func floorMod(_ x: Number, _ y: Number) -> Result<Number, FunctionError> {
    if y.isZero { return .success(x) }
    let rounding = x.isRounded || y.isRounded
    if x.isZero { return .success(rounding ? Number(rounded: .zero) : .zero) }
    if rounding, let a = x.shortDecimal, let b = y.shortDecimal {
      return rounded(Decimal34.floorMod(a, b))
    }
    let (a, b) = (Scaled(x), Scaled(y))
    let common = min(a.exponent, b.exponent)
    guard a.exponent - common < 20000, b.exponent - common < 20000 else {
      return .failure(.invalidInput)
    }
    // x = A/(Da·Db) and y = B/(Da·Db), times 10^common.
    let bigA = a.numerator.timesPowerOfTen(a.exponent - common) * b.denominator
    let bigB = b.numerator.timesPowerOfTen(b.exponent - common) * a.denominator
    var (_, remainder) = BigUInt.divide(bigA, by: bigB)
    var negative = x.isNegative
    if !remainder.isZero, x.isNegative != y.isNegative {
      remainder = bigB - remainder
      negative = y.isNegative
    }
    let denominator = a.denominator * b.denominator
    let g = BigUInt.gcd(remainder, denominator)
    let result = Scaled(
      isNegative: negative, numerator: Scaled.exactQuotient(remainder, g),
      denominator: Scaled.exactQuotient(denominator, g), exponent: common)
    if rounding { return rounded(Decimal34.limited(result.rounded(toSignificantDigits: 34))) }
    return limited(result.exactResult())
  }

  // MARK: - The fraction in lowest terms

  /// The exact value as ±p/q in lowest terms; `nil` for a rounded value and for a decimal
  /// whose exponent (without trailing zeros) is beyond ±`exponentLimit` (10^e would be made).
  func reducedFraction(exponentLimit: Int) -> (
    isNegative: Bool, numerator: BigUInt,
    denominator: BigUInt
  )? {
    switch storage {
    case .rounded: return nil
    case .small(let f):
      return (f.isNegative, BigUInt(f.numerator), BigUInt(UInt128(f.denominator)))
    case .big(let box):
      return (box.isNegative, box.numerator, box.denominator)
    case .decimal(let value):
      if value.isZero { return (false, .zero, .one) }
      let normal = value.normalized
      let exponent = Int(normal.exponent)
      guard abs(exponent) <= exponentLimit else { return nil }
      let coefficient = BigUInt(normal.coefficient)
      if exponent >= 0 { return (value.isNegative, coefficient.shifted(by: exponent), .one) }
      // M/10^k with M not a multiple of 10: M shares 2s or 5s with 10^k, not both.
      let k = -exponent
      let twos = coefficient.twos(upTo: k)
      let fives = coefficient.fives(upTo: k)
      return (
        value.isNegative, coefficient.dividedByPowerOfTwo(twos).dividedByPowerOfFive(fives),
        BigUInt.powerOfTen(k).dividedByPowerOfTwo(twos).dividedByPowerOfFive(fives)
      )
    }
  }
}
