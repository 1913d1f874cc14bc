// What exact fractions need of `BigUInt` beyond the elementary functions' arithmetic: greatest
// common divisors, the factors 2 and 5 (a fraction is a terminating decimal exactly when its
// denominator has no others), integer roots, and decimal digits.

extension BigUInt {
  /// Whether the value is 1.
  var isOne: Bool { count == 1 && limb(0) == 1 }

  /// Whether the value is even (10^9 is even, so the lowest limb decides).
  var isEven: Bool { count == 0 || limb(0) & 1 == 0 }

  /// The value as a `BigUInt` from a `UInt64`.
  init(_ value: UInt64) { self.init(UInt128(value)) }

  /// -1, 0 or 1 as `a` is below, equal to or above `b`.
  static func compare(_ a: BigUInt, _ b: BigUInt) -> Int {
    a == b ? 0 : (a < b ? -1 : 1)
  }

  /// The remainder of a division by `small` (nonzero, below 2^32), the value unchanged.
  /// - Complexity: O(limbs).
  func remainder(dividingBy small: UInt32) -> UInt32 {
    let divisor = UInt64(small)
    return withLimbs { limbs in
      var remainder: UInt64 = 0
      for index in stride(from: limbs.count - 1, through: 0, by: -1) {
        remainder = (remainder * BigUInt.base + UInt64(limbs[index])) % divisor
      }
      return UInt32(remainder)
    }
  }

  /// `self × 10^n`, for any `n` ≥ 0 (``shifted(by:)`` with zero and negative shifts allowed).
  func timesPowerOfTen(_ n: Int) -> BigUInt { n <= 0 ? self : shifted(by: n) }

  /// `self × 2^n`.
  /// - Complexity: O(limbs · n / 29).
  func timesPowerOfTwo(_ n: Int) -> BigUInt {
    guard n > 0 else { return self }
    var result = self
    var rest = n
    while rest > 0 {
      let step = min(rest, 29)
      result = result * (UInt32(1) << UInt32(step))
      rest -= step
    }
    return result
  }

  /// `self × 5^n`.
  /// - Complexity: O(limbs · n / 13).
  func timesPowerOfFive(_ n: Int) -> BigUInt {
    guard n > 0 else { return self }
    var result = self
    var rest = n
    while rest > 0 {
      let step = min(rest, 13)  // 5^13 < 2^32
      var factor: UInt32 = 1
      for _ in 0..<step { factor *= 5 }
      result = result * factor
      rest -= step
    }
    return result
  }

  /// The exact quotient by 2^n (the caller knows that 2^n divides the value).
  func dividedByPowerOfTwo(_ n: Int) -> BigUInt {
    guard n > 0 else { return self }
    var result = self
    var rest = n
    while rest > 0 {
      let step = min(rest, 29)
      _ = result.formQuotient(dividingBy: UInt32(1) << UInt32(step))
      rest -= step
    }
    return result
  }

  /// The exact quotient by 5^n (the caller knows that 5^n divides the value).
  func dividedByPowerOfFive(_ n: Int) -> BigUInt {
    guard n > 0 else { return self }
    var result = self
    var rest = n
    while rest > 0 {
      let step = min(rest, 13)
      var factor: UInt32 = 1
      for _ in 0..<step { factor *= 5 }
      _ = result.formQuotient(dividingBy: factor)
      rest -= step
    }
    return result
  }

  /// How many times 2 divides the value, counting no further than `limit`; 0 for zero.
  /// - Complexity: O(limbs · count / 9).
  func twos(upTo limit: Int = .max) -> Int {
    guard !isZero, limit > 0, limb(0) & 1 == 0 else { return 0 }
    var value = self
    var count = 0
    // 2^9 divides 10^9, so the lowest limb tells divisibility by 2^9.
    while count + 9 <= limit, value.limb(0) % 512 == 0 {
      _ = value.formQuotient(dividingBy: 512)
      count += 9
    }
    while count < limit, value.limb(0) & 1 == 0 {
      _ = value.formQuotient(dividingBy: 2)
      count += 1
    }
    return count
  }

  /// How many times 5 divides the value, counting no further than `limit`; 0 for zero.
  /// - Complexity: O(limbs · count / 9).
  func fives(upTo limit: Int = .max) -> Int {
    guard !isZero, limit > 0, limb(0) % 5 == 0 else { return 0 }
    var value = self
    var count = 0
    // 5^9 divides 10^9, so the lowest limb tells divisibility by 5^9.
    while count + 9 <= limit, value.limb(0) % 1_953_125 == 0 {
      _ = value.formQuotient(dividingBy: 1_953_125)
      count += 9
    }
    while count < limit, value.limb(0) % 5 == 0 {
      _ = value.formQuotient(dividingBy: 5)
      count += 1
    }
    return count
  }

  /// The number of trailing zero decimal digits; 0 for zero.
  /// - Complexity: O(limbs).
  var trailingZeroDigits: Int {
    guard !isZero else { return 0 }
    return withLimbs { limbs in
      var zeros = 0
      for limb in limbs {
        if limb == 0 {
          zeros += 9
          continue
        }
        var rest = limb
        while rest % 10 == 0 {
          rest /= 10
          zeros += 1
        }
        break
      }
      return zeros
    }
  }

  /// The greatest common divisor; gcd(0, b) = b.
  ///
  /// Euclid's algorithm on limbs until both values fit 128 bits, then binary steps on
  /// machine words: a large value and a small one cost one long division and a short tail.
  /// - Complexity: O(n²) limb operations for values of n limbs.
  static func gcd(_ a: BigUInt, _ b: BigUInt) -> BigUInt {
    var (x, y) = a < b ? (b, a) : (a, b)
    while !y.isZero {
      if let small = y.uint128, let large = x.uint128 {
        return BigUInt(gcd128(large, small))
      }
      if let small = y.uint128, small <= UInt128(UInt32.max) {
        let remainder = x.remainder(dividingBy: UInt32(small))
        return BigUInt(UInt128(gcd64(UInt64(small), UInt64(remainder))))
      }
      (x, y) = (y, divide(x, by: y).1)
    }
    return x
  }

  /// ⌊self^(1/n)⌋ for n ≥ 1, by Newton's iteration from above.
  /// - Complexity: O(log digits) iterations, each a power and a division.
  func integerRoot(_ n: Int) -> BigUInt {
    precondition(n >= 1, "a root of index below 1")
    if n == 1 || isZero || isOne { return self }
    // Start above the root: 10^⌈digits/n⌉ > self^(1/n).
    var x = BigUInt.powerOfTen((digitCount + n - 1) / n)
    while true {
      // x' = ((n − 1)·x + self / x^(n−1)) / n, which decreases to the root and stops there.
      let (quotient, _) = BigUInt.divide(self, by: x.power(n - 1))
      let (next, _) = (x * UInt32(n - 1) + quotient).divided(by: UInt32(n))
      if !(next < x) { return x }
      x = next
    }
  }

  /// The exact n-th root, if the value is a perfect n-th power.
  func exactRoot(_ n: Int) -> BigUInt? {
    if isZero || isOne || n == 1 { return self }
    // 2^n > self: only 0 and 1 are n-th powers below it (10^digits < 2^(3.33·digits + 4)).
    if n > digitCount * 10 / 3 + 4 { return nil }
    let root = integerRoot(n)
    return root.power(n) == self ? root : nil
  }

  /// The decimal digits as ASCII, most significant first; `0` for zero.
  /// - Complexity: O(digits).
  var decimalDigits: [UInt8] {
    guard !isZero else { return [UInt8(ascii: "0")] }
    var result: [UInt8] = []
    result.reserveCapacity(count * 9)
    withLimbs { limbs in
      var top = limbs[limbs.count - 1]
      var head: [UInt8] = []
      repeat {
        head.append(UInt8(ascii: "0") + UInt8(top % 10))
        top /= 10
      } while top > 0
      result.append(contentsOf: head.reversed())
      for index in stride(from: limbs.count - 2, through: 0, by: -1) {
        var limb = limbs[index]
        var digits = [UInt8](repeating: UInt8(ascii: "0"), count: 9)
        for position in stride(from: 8, through: 0, by: -1) {
          digits[position] = UInt8(ascii: "0") + UInt8(limb % 10)
          limb /= 10
        }
        result.append(contentsOf: digits)
      }
    }
    return result
  }

  /// The decimal digits as a string.
  var decimalString: String { String(decoding: decimalDigits, as: UTF8.self) }
}

// MARK: - Greatest common divisors of machine words

/// gcd(a, b) of 64-bit values, by Stein's binary algorithm after one remainder when one is
/// much the larger (a typed coefficient and a small divisor); gcd(0, b) = b.
@inline(__always)
func gcd64(_ a: UInt64, _ b: UInt64) -> UInt64 {
  if a == 0 { return b }
  if b == 0 { return a }
  if a == 1 || b == 1 { return 1 }
  var (a, b) = (a, b)
  if a > b, b.leadingZeroBitCount > a.leadingZeroBitCount + 8 {
    a %= b
    if a == 0 { return b }
  } else if b > a, a.leadingZeroBitCount > b.leadingZeroBitCount + 8 {
    b %= a
    if b == 0 { return a }
  }
  let shift = (a | b).trailingZeroBitCount
  var u = a >> a.trailingZeroBitCount
  var v = b
  repeat {
    v >>= v.trailingZeroBitCount
    if u > v { swap(&u, &v) }
    v -= u
  } while v != 0
  return u << shift
}

/// gcd(a, b) of 128-bit values; one remainder first when one of them fits 64 bits.
func gcd128(_ a: UInt128, _ b: UInt128) -> UInt128 {
  if a == 0 { return b }
  if b == 0 { return a }
  if a == 1 || b == 1 { return 1 }
  let (large, small) = a < b ? (b, a) : (a, b)
  if small <= UInt128(UInt64.max) {
    if large <= UInt128(UInt64.max) { return UInt128(gcd64(UInt64(large), UInt64(small))) }
    let remainder = large % small
    return UInt128(gcd64(UInt64(small), UInt64(remainder)))
  }
  let shift = (a | b).trailingZeroBitCount
  var u = a >> a.trailingZeroBitCount
  var v = b
  repeat {
    v >>= v.trailingZeroBitCount
    if u > v { swap(&u, &v) }
    v -= u
    if u <= UInt128(UInt64.max), v <= UInt128(UInt64.max) {
      return UInt128(gcd64(UInt64(u), UInt64(v))) << shift
    }
  } while v != 0
  return u << shift
}
