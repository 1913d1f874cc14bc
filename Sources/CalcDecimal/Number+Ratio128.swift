// The fast path of exact arithmetic past two decimals: fractions in lowest terms in 128-bit
// integers, for decimals whose exponent is within ±38, small fractions, and boxed fractions whose
// numerator and denominator fit 128 bits. Every operation takes
// and gives lowest terms, cancelling across (a product) or through the denominators' common
// factor (a sum, Henrici's way), so no gcd of a result is ever taken: most gcds here have an
// operand of one or two words (a typed number's coefficient, a small denominator, a power of
// ten's twos and fives). `number` then brings the result to its canonical form.

/// ±`numerator`/`denominator` in lowest terms, in 128-bit integers. Internal.
struct Ratio128 {
  var isNegative: Bool
  var numerator: UInt128
  var denominator: UInt128

  init(isNegative: Bool, numerator: UInt128, denominator: UInt128) {
    self.isNegative = isNegative
    self.numerator = numerator
    self.denominator = denominator
  }

  /// The value of `number` in lowest terms, if it is a decimal whose exponent is within ±38 and
  /// whose integer fits, a small fraction, or a boxed one whose parts fit 128 bits.
  @inline(__always)
  init?(_ number: Number) {
    switch number.storage {
    case .decimal(let value):
      let exponent = Int(value.exponent)
      isNegative = value.isNegative
      if exponent >= 0 {
        guard exponent <= 38 else { return nil }
        let (scaled, overflow) = value.coefficient.multipliedReportingOverflow(
          by: Decimal34.powersOfTen[exponent])
        if overflow { return nil }
        (numerator, denominator) = (scaled, 1)
        return
      }
      let k = -exponent
      guard k <= 38 else { return nil }
      // c/10^k: cancel the twos and fives that c shares with 10^k.
      var c = value.coefficient
      if c == 0 {
        (numerator, denominator) = (0, 1)
        return
      }
      let twos = min(c.trailingZeroBitCount, k)
      c >>= twos
      let fives = Ratio128.fives(of: &c, upTo: k)
      numerator = c
      denominator = Ratio128.powerOfFive(k - fives) << (k - twos)
    case .small(let fraction):
      (numerator, denominator) = (fraction.numerator, UInt128(fraction.denominator))
      isNegative = fraction.isNegative
    case .big(let box):
      // A boxed fraction whose parts fit 128 bits (a denominator past 2^32) is computed here too.
      guard box.numerator.count <= 5, box.denominator.count <= 5,
        let n = box.numerator.uint128, let d = box.denominator.uint128
      else { return nil }
      (numerator, denominator, isNegative) = (n, d, box.isNegative)
    case .rounded:
      return nil
    }
  }

  /// 5^n for n ≤ 38: 10^n / 2^n.
  @inline(__always)
  static func powerOfFive(_ n: Int) -> UInt128 { Decimal34.powersOfTen[n] >> n }

  /// Divides `value` by 5 as often as it can, at most `limit` times, and returns how often.
  @inline(__always)
  static func fives(of value: inout UInt128, upTo limit: Int) -> Int {
    var count = 0
    if value <= UInt128(UInt64.max) {
      var small = UInt64(value)
      while count < limit, small % 5 == 0 {
        small /= 5
        count += 1
      }
      value = UInt128(small)
      return count
    }
    while count < limit, value % 5 == 0 {
      value /= 5
      count += 1
    }
    return count
  }

  /// a / b for b dividing a, skipping b = 1.
  @inline(__always)
  static func divide(_ a: UInt128, _ b: UInt128) -> UInt128 {
    if b == 1 { return a }
    if a <= UInt128(UInt64.max) { return UInt128(UInt64(a) / UInt64(b)) }
    return a / b
  }

  /// a·b, or `nil` past 128 bits.
  @inline(__always)
  static func multiply(_ a: UInt128, _ b: UInt128) -> UInt128? {
    let (product, overflow) = a.multipliedReportingOverflow(by: b)
    return overflow ? nil : product
  }

  /// x × y, or `nil` past 128 bits; cancelled across first, so in lowest terms.
  static func product(_ x: Ratio128, _ y: Ratio128) -> Ratio128? {
    let g1 = gcd128(x.numerator, y.denominator)
    let g2 = gcd128(y.numerator, x.denominator)
    guard let n = multiply(divide(x.numerator, g1), divide(y.numerator, g2)),
      let d = multiply(divide(x.denominator, g2), divide(y.denominator, g1))
    else { return nil }
    return Ratio128(isNegative: x.isNegative != y.isNegative, numerator: n, denominator: d)
  }

  /// x ÷ y for y nonzero.
  @inline(__always)
  static func quotient(_ x: Ratio128, _ y: Ratio128) -> Ratio128? {
    product(
      x, Ratio128(isNegative: y.isNegative, numerator: y.denominator, denominator: y.numerator))
  }

  /// x + y, or `nil` past 128 bits: with g = gcd(b, d), a/b + c/d = t / (b/g · d/g) where
  /// t = a·(d/g) + c·(b/g), and t shares with that denominator only factors of g.
  static func sum(_ x: Ratio128, _ y: Ratio128) -> Ratio128? {
    let g = gcd128(x.denominator, y.denominator)
    let (xScale, yScale) = (divide(y.denominator, g), divide(x.denominator, g))
    guard let a = multiply(x.numerator, xScale), let b = multiply(y.numerator, yScale) else {
      return nil
    }
    var t: UInt128
    let isNegative: Bool
    if x.isNegative == y.isNegative {
      let (sum, carry) = a.addingReportingOverflow(b)
      if carry { return nil }
      (t, isNegative) = (sum, x.isNegative)
    } else {
      (t, isNegative) = a >= b ? (a - b, x.isNegative) : (b - a, y.isNegative)
    }
    if t == 0 { return Ratio128(isNegative: false, numerator: 0, denominator: 1) }
    let g2 = g == 1 ? 1 : gcd128(t, g)
    t = divide(t, g2)
    guard let d = multiply(yScale, divide(y.denominator, g2)) else { return nil }
    return Ratio128(isNegative: isNegative, numerator: t, denominator: d)
  }

  /// The value in its canonical form (Number.swift): a 34-digit decimal, a small fraction, or a
  /// box. 128-bit values are far within the cap.
  var number: Number {
    let (n, d) = (numerator, denominator)
    if n == 0 { return .zero }
    if d == 1 {
      if let value = Decimal34.exactValue(n, exponent: 0, isNegative: isNegative) {
        return Number(storage: .decimal(value))
      }
      return Number(
        storage: .small(SmallFraction(numerator: n, denominator: 1, isNegative: isNegative)))
    }
    // A terminating decimal: d = 2^a·5^b, and n/d = n·2^(k−a)·5^(k−b) × 10^-k.
    let twos = d.trailingZeroBitCount
    var rest = d >> twos
    let fives = Ratio128.fives(of: &rest, upTo: .max)
    if rest == 1, let coefficient = Ratio128.scaledToPowerOfTen(n, twos: twos, fives: fives),
      let value = Decimal34.exactValue(
        coefficient, exponent: -max(twos, fives), isNegative: isNegative)
    {
      return Number(storage: .decimal(value))
    }
    if d <= UInt128(UInt32.max) {
      return Number(
        storage: .small(SmallFraction(numerator: n, denominator: UInt32(d), isNegative: isNegative))
      )
    }
    return Number(
      storage: .big(
        FractionBox(isNegative: isNegative, numerator: BigUInt(n), denominator: BigUInt(d))))
  }

  /// n·2^(k−twos)·5^(k−fives) for k = max(twos, fives): the coefficient of n/(2^twos·5^fives)
  /// over 10^k; `nil` past 128 bits (and so past 34 digits).
  private static func scaledToPowerOfTen(_ n: UInt128, twos: Int, fives: Int) -> UInt128? {
    if fives > twos {
      let shift = fives - twos
      guard shift < 128, n <= UInt128.max >> shift else { return nil }
      return n << shift
    }
    let count = twos - fives
    guard count <= 55 else { return nil }  // 5^56 > 2^128
    let power = count <= 38 ? powerOfFive(count) : powerOfFive(38) * powerOfFive(count - 38)
    return multiply(n, power)
  }
}
