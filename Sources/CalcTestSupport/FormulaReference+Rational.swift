import CalcDecimal

extension FormulaReference {
  /// An integer of any size: a sign and a magnitude in base 2^32, least significant limb
  /// first, without leading zero limbs (zero has none). Only what ``Rational`` needs, written for
  /// obviousness rather than speed.
  struct BigInt: Hashable, Sendable {
    var isNegative: Bool
    var limbs: [UInt32]

    static let zero = BigInt(isNegative: false, limbs: [])
    static let one = BigInt(1)
    static let ten = BigInt(10)

    init(isNegative: Bool, limbs: [UInt32]) {
      var limbs = limbs
      while limbs.last == 0 { limbs.removeLast() }
      self.isNegative = isNegative && !limbs.isEmpty
      self.limbs = limbs
    }

    init(_ value: Int) {
      self.init(UInt128(value.magnitude), isNegative: value < 0)
    }

    init(_ value: UInt128, isNegative: Bool = false) {
      var limbs: [UInt32] = []
      var rest = value
      while rest > 0 {
        limbs.append(UInt32(truncatingIfNeeded: rest))
        rest >>= 32
      }
      self.init(isNegative: isNegative, limbs: limbs)
    }

    var isZero: Bool { limbs.isEmpty }
    var isOdd: Bool { (limbs.first ?? 0) & 1 == 1 }
    var magnitude: BigInt { BigInt(isNegative: false, limbs: limbs) }

    /// The value, if it fits in a `UInt128` (the sign ignored).
    var uint128: UInt128? {
      guard limbs.count <= 4 else { return nil }
      return limbs.reversed().reduce(0) { $0 << 32 | UInt128($1) }
    }

    static prefix func - (a: BigInt) -> BigInt { BigInt(isNegative: !a.isNegative, limbs: a.limbs) }

    static func + (a: BigInt, b: BigInt) -> BigInt {
      if a.isNegative == b.isNegative {
        return BigInt(isNegative: a.isNegative, limbs: add(a.limbs, b.limbs))
      }
      if compare(a.limbs, b.limbs) >= 0 {
        return BigInt(isNegative: a.isNegative, limbs: subtract(a.limbs, b.limbs))
      }
      return BigInt(isNegative: b.isNegative, limbs: subtract(b.limbs, a.limbs))
    }

    static func - (a: BigInt, b: BigInt) -> BigInt { a + -b }

    static func * (a: BigInt, b: BigInt) -> BigInt {
      guard !a.isZero, !b.isZero else { return .zero }
      var product = [UInt32](repeating: 0, count: a.limbs.count + b.limbs.count)
      for (i, x) in a.limbs.enumerated() {
        var carry: UInt64 = 0
        for (j, y) in b.limbs.enumerated() {
          let sum = UInt64(x) * UInt64(y) + UInt64(product[i + j]) + carry
          product[i + j] = UInt32(truncatingIfNeeded: sum)
          carry = sum >> 32
        }
        product[i + b.limbs.count] = UInt32(carry)
      }
      return BigInt(isNegative: a.isNegative != b.isNegative, limbs: product)
    }

    /// The quotient truncated toward zero and the remainder (the sign of `a`); `b` is not zero.
    static func divide(_ a: BigInt, by b: BigInt) -> (quotient: BigInt, remainder: BigInt) {
      precondition(!b.isZero, "division by zero")
      if compare(a.limbs, b.limbs) < 0 { return (.zero, a) }
      var quotient = [UInt32](repeating: 0, count: a.limbs.count)
      var remainder: [UInt32] = []
      // Bit by bit, most significant first: slow, and plainly right.
      for bit in stride(from: a.limbs.count * 32 - 1, through: 0, by: -1) {
        remainder = shiftedLeftOne(remainder, in: (a.limbs[bit / 32] >> (bit % 32)) & 1)
        if compare(remainder, b.limbs) >= 0 {
          remainder = subtract(remainder, b.limbs)
          quotient[bit / 32] |= 1 << (bit % 32)
        }
      }
      return (
        BigInt(isNegative: a.isNegative != b.isNegative, limbs: quotient),
        BigInt(isNegative: a.isNegative, limbs: remainder)
      )
    }

    /// The greatest common divisor of the magnitudes (binary, Stein's algorithm).
    static func gcd(_ a: BigInt, _ b: BigInt) -> BigInt {
      var (u, v) = (a.limbs, b.limbs)
      if u.isEmpty { return BigInt(isNegative: false, limbs: v) }
      if v.isEmpty { return BigInt(isNegative: false, limbs: u) }
      var shift = 0
      while (u[0] | v[0]) & 1 == 0 {
        u = shiftedRightOne(u)
        v = shiftedRightOne(v)
        shift += 1
      }
      while u[0] & 1 == 0 { u = shiftedRightOne(u) }
      while !v.isEmpty {
        while v[0] & 1 == 0 { v = shiftedRightOne(v) }
        if compare(u, v) > 0 { swap(&u, &v) }
        v = subtract(v, u)
      }
      var result = BigInt(isNegative: false, limbs: u)
      for _ in 0..<shift { result = result + result }
      return result
    }

    /// 10^n.
    static func powerOfTen(_ n: Int) -> BigInt {
      var result = BigInt.one
      var base = BigInt.ten
      var n = n
      while n > 0 {
        if n & 1 == 1 { result = result * base }
        base = base * base
        n >>= 1
      }
      return result
    }

    /// The decimal digits of the magnitude (`"0"` for zero).
    var digits: String {
      if isZero { return "0" }
      var chunks: [UInt32] = []
      var rest = limbs
      while !rest.isEmpty {
        var remainder: UInt64 = 0
        for index in stride(from: rest.count - 1, through: 0, by: -1) {
          let value = remainder << 32 | UInt64(rest[index])
          rest[index] = UInt32(value / 1_000_000_000)
          remainder = value % 1_000_000_000
        }
        while rest.last == 0 { rest.removeLast() }
        chunks.append(UInt32(remainder))
      }
      var text = String(chunks.removeLast())
      for chunk in chunks.reversed() {
        let part = String(chunk)
        text += String(repeating: "0", count: 9 - part.count) + part
      }
      return text
    }

    private static func compare(_ a: [UInt32], _ b: [UInt32]) -> Int {
      if a.count != b.count { return a.count < b.count ? -1 : 1 }
      for index in stride(from: a.count - 1, through: 0, by: -1) where a[index] != b[index] {
        return a[index] < b[index] ? -1 : 1
      }
      return 0
    }

    private static func add(_ a: [UInt32], _ b: [UInt32]) -> [UInt32] {
      var sum: [UInt32] = []
      var carry: UInt64 = 0
      for index in 0..<max(a.count, b.count) {
        let value =
          UInt64(index < a.count ? a[index] : 0) + UInt64(index < b.count ? b[index] : 0) + carry
        sum.append(UInt32(truncatingIfNeeded: value))
        carry = value >> 32
      }
      if carry > 0 { sum.append(UInt32(carry)) }
      return sum
    }

    /// `a - b` for `a ≥ b`.
    private static func subtract(_ a: [UInt32], _ b: [UInt32]) -> [UInt32] {
      var difference: [UInt32] = []
      var borrow: Int64 = 0
      for index in 0..<a.count {
        var value = Int64(a[index]) - Int64(index < b.count ? b[index] : 0) - borrow
        borrow = value < 0 ? 1 : 0
        if value < 0 { value += 1 << 32 }
        difference.append(UInt32(value))
      }
      while difference.last == 0 { difference.removeLast() }
      return difference
    }

    private static func shiftedLeftOne(_ a: [UInt32], in bit: UInt32) -> [UInt32] {
      var result: [UInt32] = []
      var carry = bit
      for limb in a {
        result.append(limb << 1 | carry)
        carry = limb >> 31
      }
      if carry > 0 { result.append(carry) }
      return result
    }

    private static func shiftedRightOne(_ a: [UInt32]) -> [UInt32] {
      var result = a
      for index in 0..<result.count {
        let high: UInt32 = index + 1 < a.count ? a[index + 1] << 31 : 0
        result[index] = a[index] >> 1 | high
      }
      while result.last == 0 { result.removeLast() }
      return result
    }
  }

  /// An exact rational number p/q in lowest terms, q > 0: the arithmetic of SPEC §2 rule 15.
  struct Rational: Hashable, Sendable {
    let numerator: BigInt
    let denominator: BigInt

    static let zero = Rational(.zero, .one)
    static let hundred = Rational(BigInt(100), .one)

    /// `numerator / denominator`, reduced; the denominator is not zero.
    init(_ numerator: BigInt, _ denominator: BigInt) {
      let divisor = BigInt.gcd(numerator, denominator)
      var p = BigInt.divide(numerator, by: divisor).quotient
      var q = BigInt.divide(denominator, by: divisor).quotient
      if q.isNegative { (p, q) = (-p, -q) }
      self.numerator = p
      self.denominator = q
    }

    /// The exact value of `value`.
    init(_ value: Decimal34) {
      let coefficient = BigInt(value.coefficient, isNegative: value.isNegative)
      if value.exponent >= 0 {
        self.init(coefficient * BigInt.powerOfTen(Int(value.exponent)), .one)
      } else {
        self.init(coefficient, BigInt.powerOfTen(Int(-value.exponent)))
      }
    }

    var isZero: Bool { numerator.isZero }
    var isNegative: Bool { numerator.isNegative }
    var isInteger: Bool { denominator == .one }

    static func + (a: Rational, b: Rational) -> Rational {
      Rational(
        a.numerator * b.denominator + b.numerator * a.denominator, a.denominator * b.denominator)
    }
    static prefix func - (a: Rational) -> Rational { Rational(-a.numerator, a.denominator) }
    static func - (a: Rational, b: Rational) -> Rational { a + -b }
    static func * (a: Rational, b: Rational) -> Rational {
      Rational(a.numerator * b.numerator, a.denominator * b.denominator)
    }
    /// `a / b`; `b` is not zero.
    static func / (a: Rational, b: Rational) -> Rational {
      Rational(a.numerator * b.denominator, a.denominator * b.numerator)
    }

    /// The largest integer not above the value.
    var floor: Rational {
      let (quotient, remainder) = BigInt.divide(numerator, by: denominator)
      let down = remainder.isNegative ? quotient - .one : quotient
      return Rational(down, .one)
    }

    /// The decimal digits of the numerator and of the denominator, the larger.
    var digitCount: Int { max(numerator.digits.count, denominator.digits.count) }

    /// ⌊log10 |value|⌋; `nil` for zero.
    var magnitudeExponent: Int? {
      guard !isZero else { return nil }
      var exponent = numerator.digits.count - denominator.digits.count
      // |p| ≥ q × 10^exponent, or the exponent is one too high.
      let p = numerator.magnitude
      let scaled =
        exponent >= 0
        ? (p, denominator * BigInt.powerOfTen(exponent))
        : (p * BigInt.powerOfTen(-exponent), denominator)
      if (scaled.0 - scaled.1).isNegative { exponent -= 1 }
      return exponent
    }

    /// The value rounded to 34 significant digits, half to even.
    var decimal: Decimal34 {
      guard let magnitude = magnitudeExponent else { return .zero }
      let scale = 33 - magnitude
      var p = numerator.magnitude
      var q = denominator
      if scale >= 0 { p = p * BigInt.powerOfTen(scale) } else { q = q * BigInt.powerOfTen(-scale) }
      var (coefficient, remainder) = BigInt.divide(p, by: q)
      // Half to even: up when the remainder is above half of q, or half and the digit odd.
      let excess = remainder + remainder - q
      if !excess.isNegative && (!excess.isZero || coefficient.isOdd) {
        coefficient = coefficient + .one
      }
      return Decimal34(
        coefficient: coefficient.uint128!, exponent: -scale, isNegative: numerator.isNegative)
    }

    /// Whether the value is a decimal of at most 34 significant digits (``decimal`` is exact).
    var fitsDecimal34: Bool { Rational(decimal) == self }
  }
}
