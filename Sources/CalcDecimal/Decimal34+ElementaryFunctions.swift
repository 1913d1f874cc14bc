/// The unit of the angles of trigonometric functions.
public enum AngleUnit: UInt8, Hashable, Sendable, CaseIterable {
  case degrees, radians, grads
}

/// Why a function has no value: Windows Calculator's errors, by name.
public enum FunctionError: Error, Hashable, Sendable {
  /// Outside the function's domain (`Invalid input`).
  case invalidInput
  /// A pole reached through a reciprocal (`Cannot divide by zero`).
  case divideByZero
  /// 0/0-like (`Result is undefined`).
  case undefined
  /// A result of magnitude from 10^10000, or nonzero below 10^-9999 (`Overflow`).
  case overflow
}

/// The trigonometric and hyperbolic functions and their inverses.
public enum TrigFunction: UInt8, Hashable, Sendable, CaseIterable {
  case sin, cos, tan, sec, csc, cot, asin, acos, atan, asec, acsc, acot
  case sinh, cosh, tanh, sech, csch, coth, asinh, acosh, atanh, asech, acsch, acoth
}

/// The elementary functions of Scientific mode (SPEC §9), on the exact decimal.
///
/// Each result is computed with about 48 significant digits and rounded to 34, half to even; when
/// the working value lies too near a midpoint to decide, it is computed again with 100 digits,
/// and if that cannot decide either, rounded as it is (faithful, not necessarily correct: the
/// spec's "more than 80 digits" case). Results that are exact decimals are exact: integer powers
/// and factorials (computed in integers), roots of perfect powers, logarithms of powers of ten
/// and `logy` results p/q (q ≤ 1000), trigonometry at multiples of 30° and 45° (and the grad
/// equivalents; degrees and grads are reduced exactly). Domains and errors are Windows
/// Calculator's (its conformance cases are the table).
///
/// Every result of magnitude from 10^10000, or nonzero and below 10^-9999, is
/// ``FunctionError/overflow``: Scientific mode's limits.
extension Decimal34 {
  /// π rounded to 34 digits.
  package static let pi = Decimal34(
    coefficient: 3_141_592_653_589_793_238_462_643_383_279_503, exponent: -33)
  /// e rounded to 34 digits.
  package static let e = Decimal34(
    coefficient: 2_718_281_828_459_045_235_360_287_471_352_662, exponent: -33)

  // MARK: - Rounding the working values

  /// `compute(digits)` rounded to 34 digits, again with more digits when in doubt.
  static func rounded(_ compute: (Working) -> Real) -> Result<Decimal34, FunctionError> {
    var result = Real.round(compute(Working(digits: 48)), exact: false, digits: 48)
    if result.inDoubt {
      result = Real.round(compute(Working(digits: 100)), exact: false, digits: 100)
    }
    return limited(result.value)
  }

  /// The value within Scientific mode's limits, or `overflow`.
  static func limited(_ value: Decimal34) -> Result<Decimal34, FunctionError> {
    if let magnitude = value.magnitudeExponent, magnitude >= 10000 || magnitude < -9999 {
      return .failure(.overflow)
    }
    return .success(value)
  }

  /// An exact value rounded to 34 digits, within the limits.
  static func exactly(_ x: Real) -> Result<Decimal34, FunctionError> {
    if let magnitude = x.magnitude, magnitude >= 10001 || magnitude < -10001 {
      return .failure(.overflow)
    }
    return limited(Real.round(x, exact: true).value)
  }

  // MARK: - Integer parts

  /// The largest integer not above the value.
  package var floor: Decimal34 {
    guard exponent < 0 else { return self }
    let scale = Int(-exponent)
    guard scale < Decimal34.powersOfTen.count else { return isNegative ? -Decimal34.one : .zero }
    let divisor = Decimal34.powersOfTen[scale]
    var whole = coefficient / divisor
    let hasFraction = coefficient % divisor != 0
    if isNegative && hasFraction { whole += 1 }
    return Decimal34(coefficient: whole, exponent: 0, isNegative: isNegative)
  }

  /// The smallest integer not below the value.
  package var ceiling: Decimal34 { -(-self).floor }

  static let one = Decimal34(coefficient: 1, exponent: 0)

  /// Whether the value is an integer.
  var isInteger: Bool { Real(self).isInteger }

  // MARK: - Exponentials and logarithms

  /// e^x.
  package static func exp(_ x: Decimal34) -> Result<Decimal34, FunctionError> {
    if x.isZero { return .success(one) }
    if let m = x.magnitudeExponent, m >= 5 { return .failure(.overflow) }  // |x| ≥ 10^5
    return rounded { w in w.exp(Real(x)) }
  }

  /// 10^x: exact for integers.
  package static func pow10(_ x: Decimal34) -> Result<Decimal34, FunctionError> {
    if x.isInteger, let n = Real(x).nearestInteger {
      guard n > -10000, n < 10000 else { return .failure(.overflow) }
      return .success(Decimal34(coefficient: 1, exponent: n))
    }
    if let m = x.magnitudeExponent, m >= 5 { return .failure(.overflow) }
    return rounded { w in
      let wide = Working(digits: w.digits + 6)
      return w.exp(wide.multiply(Real(x), wide.ln10))
    }
  }

  /// 2^x: exact for integers.
  package static func pow2(_ x: Decimal34) -> Result<Decimal34, FunctionError> {
    power(Decimal34(coefficient: 2, exponent: 0), x)
  }

  /// The natural logarithm; `invalidInput` for x ≤ 0.
  public static func ln(_ x: Decimal34) -> Result<Decimal34, FunctionError> {
    guard !x.isNegative, !x.isZero else { return .failure(.invalidInput) }
    if x == one { return .success(.zero) }
    return rounded { w in w.ln(Real(x)) }
  }

  /// The common logarithm; exact for powers of ten; `invalidInput` for x ≤ 0.
  package static func log10(_ x: Decimal34) -> Result<Decimal34, FunctionError> {
    guard !x.isNegative, !x.isZero else { return .failure(.invalidInput) }
    let normal = x.normalized
    if normal.coefficient == 1 {
      return .success(
        Decimal34(
          coefficient: UInt128(normal.exponent.magnitude), exponent: 0,
          isNegative: normal.exponent < 0))
    }
    return rounded { w in
      let wide = Working(digits: w.digits + 6)
      return w.divide(wide.ln(Real(x)), wide.ln10)
    }
  }

  /// log_y x = ln x / ln y; exact for results p/q with q ≤ 1000.
  public static func log(_ x: Decimal34, base y: Decimal34) -> Result<Decimal34, FunctionError> {
    guard !x.isNegative, !x.isZero, !y.isNegative, !y.isZero else {
      return .failure(.invalidInput)
    }
    if y == one { return .failure(x == one ? .undefined : .divideByZero) }
    if x == one { return .success(.zero) }
    let w = Working(digits: 70)
    let ratio = w.divide(w.ln(Real(x)), w.ln(Real(y)))
    if let (p, q) = fraction(near: ratio, tolerance: 60) {
      return exactly(Working(digits: 80).divide(Real(p), Real(q)))
    }
    return rounded { w in
      let wide = Working(digits: w.digits + 6)
      return w.divide(wide.ln(Real(x)), wide.ln(Real(y)))
    }
  }

  /// A fraction p/q with q ≤ 1000 within 10^-`tolerance` (relative) of `x`, if there is one: the
  /// first q of 1…1000 for which q·x is that near an integer.
  ///
  /// The q are not scanned: any q that qualifies has q·x within 10^(m + 4 − tolerance) of an
  /// integer (m = ⌊log10 |x|⌋), and the smallest such q, q₀, is a denominator of a convergent of
  /// x's continued fraction (a best approximation of the second kind). q·x for a q that is not a
  /// multiple of q₀ is at least 1/q₀ − 1000·10^(m + 4 − tolerance) from an integer, far more than
  /// the tolerance, so only q₀, 2q₀, … are tested, in order: the same answer as the scan, with a
  /// handful of tests instead of up to 1,000 (`logy` took about 3 ms a key).
  /// - Complexity: O(d²) in x's digits d, for the continued fraction.
  static func fraction(near x: Real, tolerance: Int) -> (Int, Int)? {
    guard !x.isZero, let m = x.magnitude, m < 15, m > -4 else { return nil }
    // x = M/10^k with few digits after the point: a nonzero q·x − p is at least 10^-k, too much
    // for the tolerance, so the answer is the q that makes q·x an integer, if it is ≤ 1000.
    if x.exponent < 0, -x.exponent <= min(tolerance - m - 3, 38), let mantissa = x.mantissa.uint128
    {
      let scale = Decimal34.powersOfTen[-x.exponent]
      var (a, b) = (mantissa, scale)
      while b != 0 { (a, b) = (b, a % b) }
      let q = scale / a
      guard q <= 1000 else { return nil }
      let p = Int(mantissa / a)
      return (x.isNegative ? -p : p, Int(q))
    }
    let w = Working(digits: tolerance + 20)
    guard let first = nearDenominator(x.absolute, within: m + 4 - tolerance) else { return nil }
    for q in stride(from: first, through: 1000, by: first) {
      let scaled = w.multiply(x, q)
      guard let p = scaled.nearestInteger else { return nil }
      let difference = w.subtract(scaled, Real(p))
      if difference.isZero { return (p, q) }
      if let d = difference.magnitude, let s = scaled.magnitude, d < s - tolerance {
        return (p, q)
      }
    }
    return nil
  }

  /// The smallest q ≤ 1000 with q·x within 10^`bound` of an integer, for x > 0 and `bound` ≤ −8,
  /// found among the denominators of x's convergents (x is the exact rational mantissa/10^k).
  /// - Complexity: O(d²) in x's digits d.
  static func nearDenominator(_ x: Real, within bound: Int) -> Int? {
    if x.exponent >= 0 { return 1 }
    let exact = Working(digits: x.mantissa.digitCount + 8)
    func isNear(_ q: Int) -> Bool {
      let scaled = exact.multiply(x, q)
      guard let p = scaled.nearestInteger else { return false }
      let difference = exact.subtract(scaled, Real(p))
      return difference.isZero || difference.magnitude! < bound
    }
    // x = a/b; the convergents' denominators k(n) = a(n)·k(n−1) + k(n−2).
    var (a, b) = (x.mantissa, BigUInt.powerOfTen(-x.exponent))
    var (before, last) = (1, 0)
    while !b.isZero {
      let (quotient, remainder) = BigUInt.divide(a, by: b)
      let next: Int
      if last == 0 {
        next = 1
      } else {
        guard let partial = quotient.uint128, partial <= 1000 else { return nil }
        next = Int(partial) * last + before
      }
      if next > 1000 { return nil }
      if isNear(next) { return next }
      (before, last) = (last, next)
      (a, b) = (b, remainder)
    }
    return nil
  }

  // MARK: - Powers and roots

  /// x^y, with Windows' rules: 0^0 = 1, 0 to a negative power `invalidInput`, a negative base
  /// with an exponent p/q (q ≤ 1000, within 10^-32) real when q is odd.
  public static func power(_ x: Decimal34, _ y: Decimal34) -> Result<Decimal34, FunctionError> {
    if y.isZero { return .success(one) }
    if x.isZero { return y.isNegative ? .failure(.invalidInput) : .success(.zero) }
    let yReal = Real(y)
    if y.isInteger {
      if let n = yReal.nearestInteger, n.magnitude <= 1_000_000 { return integerPower(x, n) }
      return hugeIntegerPower(x, yReal)
    }
    if let (p, q) = fraction(near: yReal, tolerance: 32) {
      return rationalPower(x, p, q)
    }
    if x.isNegative { return .failure(.invalidInput) }
    return realPower(Real(x), yReal)
  }

  /// x yroot y = x^(1/y); `divideByZero` for y = 0.
  package static func root(_ x: Decimal34, index y: Decimal34) -> Result<Decimal34, FunctionError> {
    if y.isZero { return .failure(.divideByZero) }
    let w = Working(digits: 60)
    let exponent = w.divide(.one, Real(y))
    if let (p, q) = fraction(near: exponent, tolerance: 32) {
      if x.isZero { return p < 0 ? .failure(.invalidInput) : .success(.zero) }
      return rationalPower(x, p, q)
    }
    if x.isZero { return y.isNegative ? .failure(.invalidInput) : .success(.zero) }
    if x.isNegative { return .failure(.invalidInput) }
    return realPower(Real(x), exponent)
  }

  /// x³, exact before rounding.
  package static func cube(_ x: Decimal34) -> Result<Decimal34, FunctionError> {
    let r = Real(x)
    return exactly(
      Real(isNegative: x.isNegative, mantissa: r.mantissa.power(3), exponent: 3 * r.exponent))
  }

  /// ∛x, exact for perfect cubes, real for negative x.
  package static func cubeRoot(_ x: Decimal34) -> Result<Decimal34, FunctionError> {
    if x.isZero { return .success(.zero) }
    return rationalPower(x, 1, 3)
  }

  /// x^y for an integer y beyond a million in magnitude, through logarithms; the sign by y's
  /// parity.
  static func hugeIntegerPower(_ x: Decimal34, _ y: Real) -> Result<Decimal34, FunctionError> {
    let negative = x.isNegative && modulo4(y.absolute) % 2 == 1
    return realPower(Real(x).absolute, y).map { negative ? -$0 : $0 }
  }

  /// x^n for an integer n: correctly rounded, from products cut to 60 digits when they decide
  /// the rounding, else exact in integers when the result is not huge.
  ///
  /// - Complexity: O(log n) products of 60 digits; in doubt (a result within about 10^-52 of a
  ///   midpoint between two 34-digit values), O(log n) exact products of up to 24,000 digits.
  static func integerPower(_ x: Decimal34, _ n: Int) -> Result<Decimal34, FunctionError> {
    integerPower(x, n, exactOnly: false)
  }

  /// x^n as ``integerPower(_:_:)`` computes it; with `exactOnly`, the exact product in integers
  /// decides every result it can (the oracle of the cut products in the tests).
  static func integerPower(_ x: Decimal34, _ n: Int, exactOnly: Bool)
    -> Result<Decimal34, FunctionError>
  {
    let r = Real(x)
    guard let m = x.magnitudeExponent else { return .success(.zero) }
    // A bound on the result's magnitude decides overflow before computing it.
    let (low, high) = (m * n, (m + 1) * n)
    if max(low, high) > 9000 || min(low, high) < -9000 {
      // Refine with logarithms: the estimate is only good to a digit per power.
      let w = Working(digits: 40)
      let log = w.multiply(w.divide(w.ln(r.absolute), w.ln10), n)
      if let value = log.nearestInteger, value >= 10001 || value <= -10001 {
        return .failure(.overflow)
      }
    }
    let negative = x.isNegative && n & 1 == 1
    let count = n.magnitude
    if count <= 2000, r.mantissa.digitCount * Int(count) <= 24000 {
      // An exact product of more than 120 digits costs more than its rounding needs: products cut
      // to 60 digits are off by less than count·10^-59 relatively (each cut is below 10^-59, and
      // the power raises each to at most count − 1 uses), well inside the 52 digits that
      // `Real.round` assumes of them; only a value that near a midpoint needs the exact one.
      if !exactOnly, r.mantissa.digitCount * Int(count) > 120 {
        let w = Working(digits: 60)
        let power = cutPower(r.absolute, count, w)
        let value = n > 0 ? power : w.divide(.one, power)
        // Beyond the limits either way, as ``exactly(_:)`` decides before rounding.
        if let magnitude = value.magnitude, magnitude >= 10001 || magnitude < -10001 {
          return .failure(.overflow)
        }
        let rounded = Real.round(value, exact: false, digits: 60)
        if !rounded.inDoubt { return limited(negative ? -rounded.value : rounded.value) }
      }
      let mantissa = r.mantissa.power(Int(count))
      let exact = Real(isNegative: negative, mantissa: mantissa, exponent: r.exponent * Int(count))
      if n > 0 { return exactly(exact) }
      return rounded { w in w.divide(.one, exact) }
    }
    return realPower(r.absolute, Real(n)).map { negative ? -$0 : $0 }
  }

  /// x^count (count ≥ 1) by repeated squaring, each product cut to `w`'s digits.
  ///
  /// - Complexity: O(log count) products of `w.digits` digits.
  static func cutPower(_ x: Real, _ count: UInt, _ w: Working) -> Real {
    var square = x
    var result: Real?
    var rest = count
    while true {
      if rest & 1 == 1 { result = result.map { w.multiply($0, square) } ?? square }
      rest >>= 1
      if rest == 0 { return result ?? x }
      square = w.multiply(square, square)
    }
  }

  /// |x|^(p/q) with the sign rule for negative x: real for odd q, `invalidInput` for even q.
  static func rationalPower(_ x: Decimal34, _ p: Int, _ q: Int) -> Result<Decimal34, FunctionError>
  {
    if x.isNegative && q % 2 == 0 { return .failure(.invalidInput) }
    let negative = x.isNegative && p & 1 == 1
    if q == 1 { return integerPower(x, p) }
    let base = Real(x).absolute
    // An exact root: the q-th root of |x| rounded to 34 digits, raised to q, gives |x| back.
    if let root = exactRoot(base, q) {
      return integerPower(root, p).map { negative ? -$0 : $0 }
    }
    let w = Working(digits: 70)
    let exponent = w.divide(Real(p), Real(q))
    return realPower(base, exponent).map { negative ? -$0 : $0 }
  }

  /// The exact q-th root of x > 0 (q ≥ 2) if it is a decimal of at most 34 digits.
  ///
  /// With x = M·10^e, M not a multiple of 10, a root R·10^f (R not a multiple of 10, so neither
  /// is R^q) is exact exactly when M = R^q and e = q·f: decided in integers, without logarithms.
  /// x has at most 34 digits, so R > 1 needs q < 113.
  /// - Complexity: O(q · log M) multiplications of 128-bit integers.
  static func exactRoot(_ x: Real, _ q: Int) -> Decimal34? {
    guard var coefficient = x.mantissa.uint128, coefficient > 0 else { return nil }
    var exponent = x.exponent
    while coefficient % 10 == 0 {
      coefficient /= 10
      exponent += 1
    }
    guard exponent % q == 0 else { return nil }
    guard let root = integerRoot(coefficient, q) else { return nil }
    return Decimal34(coefficient: root, exponent: exponent / q)
  }

  /// The integer q-th root of `n` ≥ 1 if `n` is a perfect q-th power, q ≥ 2.
  /// - Complexity: O(q · log n) 128-bit multiplications (a bisection).
  static func integerRoot(_ n: UInt128, _ q: Int) -> UInt128? {
    if n == 1 { return 1 }
    let bits = 128 - n.leadingZeroBitCount
    if q >= bits { return nil }  // 2^q > n
    /// r^q compared with n: -1, 0 or 1.
    func compare(_ r: UInt128) -> Int {
      var power: UInt128 = 1
      for _ in 0..<q {
        let (product, overflow) = power.multipliedReportingOverflow(by: r)
        if overflow || product > n { return 1 }
        power = product
      }
      return power == n ? 0 : -1
    }
    // r < 2^⌈bits/q⌉.
    var (low, high) = (UInt128(1), UInt128(1) << ((bits + q - 1) / q))
    while low < high {
      let middle = low + (high - low) / 2
      switch compare(middle) {
      case 0: return middle
      case -1: low = middle + 1
      default: high = middle
      }
    }
    return nil
  }

  /// e^(y · ln x) for x > 0, with overflow decided first.
  static func realPower(_ x: Real, _ y: Real) -> Result<Decimal34, FunctionError> {
    if let mx = x.magnitude, let my = y.magnitude, my < 3, (mx.magnitude + 1) * 1000 < 9000 {
      // |y·log10 x| < 10^(my + 1)·(|mx| + 1) < 9000: no overflow, no logarithm needed to know.
      return rounded { w in
        let wide = Working(digits: w.digits + 8)
        return w.exp(wide.multiply(y, wide.ln(x)))
      }
    }
    let w = Working(digits: 40)
    let log10 = w.multiply(y, w.divide(w.ln(x), w.ln10))
    if let m = log10.magnitude, m >= 5 { return .failure(.overflow) }
    if let value = log10.nearestInteger, value >= 10001 || value <= -10001 {
      return .failure(.overflow)
    }
    return rounded { w in
      let wide = Working(digits: w.digits + 8)
      return w.exp(wide.multiply(y, wide.ln(x)))
    }
  }

  /// The floored remainder of x ÷ y (the sign of y); x when y is 0.
  package static func floorMod(_ x: Decimal34, _ y: Decimal34) -> Result<Decimal34, FunctionError> {
    if y.isZero { return .success(x) }
    if x.isZero { return .success(.zero) }
    let (a, b) = (Real(x), Real(y))
    let e = min(a.exponent, b.exponent)
    guard a.exponent - e < 20000, b.exponent - e < 20000 else {
      return .failure(.invalidInput)
    }
    let ma = a.mantissa.shifted(by: a.exponent - e)
    let mb = b.mantissa.shifted(by: b.exponent - e)
    var (_, r) = BigUInt.divide(ma, by: mb)
    var negative = x.isNegative
    if !r.isZero && x.isNegative != y.isNegative {
      r = mb - r
      negative = y.isNegative
    }
    return exactly(Real(isNegative: negative, mantissa: r, exponent: e))
  }

  // MARK: - Factorial

  /// n! for integers (exact), Γ(x + 1) otherwise; `invalidInput` for negative integers.
  package static func factorial(_ x: Decimal34) -> Result<Decimal34, FunctionError> {
    if x.isInteger {
      if x.isNegative { return .failure(.invalidInput) }
      guard let n = Real(x).nearestInteger, n < 3249 else { return .failure(.overflow) }
      var product = BigUInt.one
      if n > 1 { for k in 2...n { product = product * UInt32(k) } }
      return exactly(Real(isNegative: false, mantissa: product, exponent: 0))
    }
    if let m = x.magnitudeExponent, m >= 4, !x.isNegative { return .failure(.overflow) }
    if let m = x.magnitudeExponent, m >= 4 { return .failure(.overflow) }
    return rounded { w in gamma(Working(digits: w.digits + 10), w.add(Real(x), .one)) }
  }

  /// The Bernoulli numbers B2 … B80, numerator and denominator (mpmath's `bernfrac`).
  static let bernoulli: [(String, Int)] = [
    ("1", 6), ("-1", 30), ("1", 42), ("-1", 30), ("5", 66), ("-691", 2730), ("7", 6),
    ("-3617", 510), ("43867", 798), ("-174611", 330), ("854513", 138), ("-236364091", 2730),
    ("8553103", 6), ("-23749461029", 870), ("8615841276005", 14322), ("-7709321041217", 510),
    ("2577687858367", 6), ("-26315271553053477373", 1_919_190), ("2929993913841559", 6),
    ("-261082718496449122051", 13530),
    ("1520097643918070802691", 1806),
    ("-27833269579301024235023", 690),
    ("596451111593912163277961", 282),
    ("-5609403368997817686249127547", 46410),
    ("495057205241079648212477525", 66),
    ("-801165718135489957347924991853", 1590),
    ("29149963634884862421418123812691", 798),
    ("-2479392929313226753685415739663229", 870),
    ("84483613348880041862046775994036021", 354),
    ("-1215233140483755572040304994079820246041491", 56786730),
    ("12300585434086858541953039857403386151", 6),
    ("-106783830147866529886385444979142647942017", 510),
    ("1472600022126335654051619428551932342241899101", 64722),
    ("-78773130858718728141909149208474606244347001", 30),
    ("1505381347333367003803076567377857208511438160235", 4686),
    ("-5827954961669944110438277244641067365282488301844260429", 140100870),
    ("34152417289221168014330073731472635186688307783087", 6),
    ("-24655088825935372707687196040585199904365267828865801", 30),
    ("414846365575400828295179035549542073492199375372400483487", 3318),
    ("-4603784299479457646935574969019046849794257872751288919656867", 230010),
  ]

  /// Γ(z) for z not a non-positive integer: Stirling's series after shifting z above 60, and the
  /// reflection formula for z < 1/2.
  ///
  /// Up to 60 working digits the series has 20 terms (B2 … B40) and z is shifted above 60: the
  /// series' error in ln Γ is then 6·10^-59. With more digits (the retry at 100 digits works
  /// with 110) it has 40 terms (… B80) and z is shifted above 100: 5·10^-109 (mpmath's
  /// `loggamma`; 20 terms above 60 left the retry good to 58 digits only).
  /// - Complexity: O(d²) per term and per shift step, d the working digits.
  static func gamma(_ w: Working, _ z: Real) -> Real {
    if z < Real(digits: "0.5") {
      // Γ(z) = π / (sin(πz) · Γ(1 − z)).
      let s = sinPi(w, z)
      return w.divide(w.pi, w.multiply(s, gamma(w, w.subtract(.one, z))))
    }
    var shift = 0
    var x = z
    var divisor = Real.one
    let (bound, terms) = w.digits > 60 ? (100, 40) : (60, 20)
    while x < Real(bound) {
      divisor = w.multiply(divisor, x)
      x = w.add(x, .one)
      shift += 1
    }
    // ln Γ(x) = (x − ½) ln x − x + ½ ln 2π + Σ B2k / (2k(2k−1) x^(2k−1)).
    let lnx = w.ln(x)
    var sum = w.subtract(w.multiply(w.subtract(x, Real(digits: "0.5")), lnx), x)
    sum = w.add(sum, w.divide(w.ln(w.multiply(w.pi, 2)), 2))
    let x2 = w.multiply(x, x)
    var power = x
    for (index, (numerator, denominator)) in bernoulli.prefix(terms).enumerated() {
      let k = index + 1
      let b = Real(digits: numerator.hasPrefix("-") ? String(numerator.dropFirst()) : numerator)
      var term = w.divide(w.divide(b, denominator * (2 * k) * (2 * k - 1)), power)
      if numerator.hasPrefix("-") { term = term.negated }
      sum = w.add(sum, term)
      power = w.multiply(power, x2)
    }
    let value = w.exp(sum)
    return shift == 0 ? value : w.divide(value, divisor)
  }

  /// sin(πz), with z reduced exactly enough by its integer part.
  static func sinPi(_ w: Working, _ z: Real) -> Real {
    let n = z.nearestInteger ?? 0
    let f = w.subtract(z, Real(n))  // |f| ≤ 1/2
    let angle = w.multiply(f, w.pi)
    // |angle| ≤ π/2: split at π/4 for the series.
    let quarter = w.divide(w.pi, 4)
    var value: Real
    if quarter < angle.absolute {
      let rest = w.subtract(w.divide(w.pi, 2), angle.absolute)
      value = w.sinCos(rest).1
      if angle.isNegative { value = value.negated }
    } else {
      value = w.sinCos(angle).0
    }
    return n & 1 == 1 ? value.negated : value
  }

  // MARK: - Degrees, minutes, seconds

  /// Degrees as d.mmss (Windows' dms): 2.5 → 2.3.
  package static func dms(_ x: Decimal34) -> Result<Decimal34, FunctionError> {
    convertSexagesimal(x, from: 60, to: 100)
  }

  /// d.mmss as degrees: 2.3 → 2.5.
  package static func degrees(_ x: Decimal34) -> Result<Decimal34, FunctionError> {
    convertSexagesimal(x, from: 100, to: 60)
  }

  /// Windows' `IDC_DMS`: degrees, minutes and seconds moved between bases 60 and 100.
  static func convertSexagesimal(_ x: Decimal34, from: Int, to: Int) -> Result<
    Decimal34, FunctionError
  > {
    let w = Working(digits: 80)
    let value = Real(x)
    let degrees = truncatedInteger(value)
    var minutes = w.multiply(w.subtract(value, degrees), from)
    var seconds = minutes
    minutes = truncatedInteger(minutes)
    seconds = w.multiply(w.subtract(seconds, minutes), from)
    seconds = w.divide(seconds, to)
    minutes = w.divide(w.add(minutes, seconds), to)
    return limited(Real.round(w.add(degrees, minutes), exact: false, digits: 80).value)
  }

  /// The integer part, toward zero.
  static func truncatedInteger(_ x: Real) -> Real {
    guard x.exponent < 0 else { return x }
    let (whole, _) = x.mantissa.truncated(by: -x.exponent)
    return Real(isNegative: x.isNegative, mantissa: whole, exponent: 0)
  }
}
