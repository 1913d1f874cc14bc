/// An unsigned integer of any size, in base 10^9 limbs (least significant first): what the
/// elementary functions compute with before rounding to 34 digits. Internal.
struct BigUInt: Hashable, Comparable {
  /// The limbs, each below 10^9, least significant first; no zero limb at the top.
  private(set) var limbs: [UInt32]

  static let base: UInt64 = 1_000_000_000
  static let zero = BigUInt(limbs: [])
  static let one = BigUInt(1)

  init(limbs: [UInt32]) {
    self.limbs = limbs
    trim()
  }

  init(_ value: UInt128) {
    var limbs: [UInt32] = []
    var rest = value
    while rest > 0 {
      limbs.append(UInt32(rest % UInt128(BigUInt.base)))
      rest /= UInt128(BigUInt.base)
    }
    self.limbs = limbs
  }

  init(_ value: Int) { self.init(UInt128(value)) }

  var isZero: Bool { limbs.isEmpty }

  private mutating func trim() {
    while let last = limbs.last, last == 0 { limbs.removeLast() }
  }

  /// The value, if it fits in a `UInt128`.
  var uint128: UInt128? {
    guard limbs.count <= 4 else { return nil }
    var value: UInt128 = 0
    for limb in limbs.reversed() {
      let (scaled, overflow) = value.multipliedReportingOverflow(by: UInt128(BigUInt.base))
      if overflow { return nil }
      let (sum, carry) = scaled.addingReportingOverflow(UInt128(limb))
      if carry { return nil }
      value = sum
    }
    return value
  }

  /// The number of decimal digits; 0 for zero.
  var digitCount: Int {
    guard let top = limbs.last else { return 0 }
    var count = (limbs.count - 1) * 9
    var rest = top
    while rest > 0 {
      count += 1
      rest /= 10
    }
    return count
  }

  static func < (a: BigUInt, b: BigUInt) -> Bool {
    if a.limbs.count != b.limbs.count { return a.limbs.count < b.limbs.count }
    for index in stride(from: a.limbs.count - 1, through: 0, by: -1)
    where a.limbs[index] != b.limbs[index] {
      return a.limbs[index] < b.limbs[index]
    }
    return false
  }

  static func + (a: BigUInt, b: BigUInt) -> BigUInt {
    var result = [UInt32](repeating: 0, count: max(a.limbs.count, b.limbs.count) + 1)
    var carry: UInt64 = 0
    for index in 0..<(result.count - 1) {
      let sum =
        (index < a.limbs.count ? UInt64(a.limbs[index]) : 0)
        + (index < b.limbs.count ? UInt64(b.limbs[index]) : 0) + carry
      result[index] = UInt32(sum % base)
      carry = sum / base
    }
    result[result.count - 1] = UInt32(carry)
    return BigUInt(limbs: result)
  }

  /// `a - b`, for `a >= b`.
  static func - (a: BigUInt, b: BigUInt) -> BigUInt {
    var result = a.limbs
    var borrow: Int64 = 0
    for index in 0..<result.count {
      var difference =
        Int64(result[index]) - (index < b.limbs.count ? Int64(b.limbs[index]) : 0) - borrow
      if difference < 0 {
        difference += Int64(base)
        borrow = 1
      } else {
        borrow = 0
      }
      result[index] = UInt32(difference)
    }
    return BigUInt(limbs: result)
  }

  /// The product, schoolbook, into one array allocated once (no wider scratch array).
  /// - Complexity: O(n·m) in the limb counts.
  static func * (a: BigUInt, b: BigUInt) -> BigUInt {
    if a.isZero || b.isZero { return .zero }
    let (n, m) = (a.limbs.count, b.limbs.count)
    let limbs = [UInt32](unsafeUninitializedCapacity: n + m) { result, count in
      result.initialize(repeating: 0)
      a.limbs.withUnsafeBufferPointer { x in
        b.limbs.withUnsafeBufferPointer { y in
          for i in 0..<n {
            let xi = UInt64(x[i])
            if xi == 0 { continue }
            var carry: UInt64 = 0
            for j in 0..<m {
              // < 10^9 + (10^9 − 1)² + 10^9 < 2^64.
              let value = UInt64(result[i + j]) + xi * UInt64(y[j]) + carry
              carry = value / base
              result[i + j] = UInt32(truncatingIfNeeded: value &- carry &* base)
            }
            result[i + m] = UInt32(truncatingIfNeeded: carry)
          }
        }
      }
      count = n + m
    }
    return BigUInt(limbs: limbs)
  }

  /// `a × small`, for `small` below 2^32.
  static func * (a: BigUInt, small: UInt32) -> BigUInt {
    var result = [UInt32]()
    result.reserveCapacity(a.limbs.count + 1)
    var carry: UInt64 = 0
    for limb in a.limbs {
      let value = UInt64(limb) * UInt64(small) + carry
      result.append(UInt32(value % base))
      carry = value / base
    }
    while carry > 0 {
      result.append(UInt32(carry % base))
      carry /= base
    }
    return BigUInt(limbs: result)
  }

  /// The quotient and remainder of a division by `small` (nonzero, below 2^32).
  func divided(by small: UInt32) -> (BigUInt, UInt32) {
    var result = limbs
    var remainder: UInt64 = 0
    for index in stride(from: result.count - 1, through: 0, by: -1) {
      let value = remainder * BigUInt.base + UInt64(result[index])
      result[index] = UInt32(value / UInt64(small))
      remainder = value % UInt64(small)
    }
    return (BigUInt(limbs: result), UInt32(remainder))
  }

  /// Divides in place by `small` (nonzero, below 2^32), truncating, and returns the remainder.
  /// - Complexity: O(limbs), no allocation when the limbs are not shared.
  mutating func formQuotient(dividingBy small: UInt32) -> UInt32 {
    var remainder: UInt64 = 0
    let divisor = UInt64(small)
    limbs.withUnsafeMutableBufferPointer { buffer in
      for index in stride(from: buffer.count - 1, through: 0, by: -1) {
        let value = remainder * BigUInt.base + UInt64(buffer[index])
        let quotient = value / divisor
        buffer[index] = UInt32(truncatingIfNeeded: quotient)
        remainder = value &- quotient &* divisor
      }
    }
    trim()
    return UInt32(remainder)
  }

  /// 10^n.
  static func powerOfTen(_ n: Int) -> BigUInt {
    var limbs = [UInt32](repeating: 0, count: n / 9)
    var top: UInt32 = 1
    for _ in 0..<(n % 9) { top *= 10 }
    limbs.append(top)
    return BigUInt(limbs: limbs)
  }

  /// The value times 10^n, built in one array.
  /// - Complexity: O(limbs + n).
  func shifted(by n: Int) -> BigUInt {
    guard !isZero, n > 0 else { return self }
    let whole = n / 9
    var small: UInt64 = 1
    for _ in 0..<(n % 9) { small *= 10 }
    var result = [UInt32]()
    result.reserveCapacity(whole + limbs.count + 1)
    result.append(contentsOf: repeatElement(0, count: whole))
    var carry: UInt64 = 0
    for limb in limbs {
      let value = UInt64(limb) * small + carry
      carry = value / BigUInt.base
      result.append(UInt32(truncatingIfNeeded: value &- carry &* BigUInt.base))
    }
    if carry > 0 { result.append(UInt32(carry)) }
    return BigUInt(limbs: result)
  }

  /// The value divided by 10^n, truncated, and whether anything nonzero was dropped; built in
  /// one array.
  /// - Complexity: O(limbs).
  func truncated(by n: Int) -> (BigUInt, Bool) {
    guard n > 0, !isZero else { return (self, false) }
    let whole = n / 9
    if whole >= limbs.count { return (.zero, true) }
    var dropped = false
    for index in 0..<whole where limbs[index] != 0 {
      dropped = true
      break
    }
    var small: UInt64 = 1
    for _ in 0..<(n % 9) { small *= 10 }
    let count = limbs.count - whole
    var remainder: UInt64 = 0
    let result = [UInt32](unsafeUninitializedCapacity: count) { buffer, initialized in
      limbs.withUnsafeBufferPointer { source in
        for index in stride(from: count - 1, through: 0, by: -1) {
          let value = remainder * BigUInt.base + UInt64(source[index + whole])
          let quotient = value / small
          buffer[index] = UInt32(truncatingIfNeeded: quotient)
          remainder = value &- quotient &* small
        }
      }
      initialized = count
    }
    return (BigUInt(limbs: result), dropped || remainder != 0)
  }

  /// The value divided by 10^(9·`count`), truncated: its lowest `count` limbs dropped.
  /// - Complexity: O(limbs).
  func droppingLimbs(_ count: Int) -> BigUInt {
    guard count > 0 else { return self }
    guard count < limbs.count else { return .zero }
    let kept = limbs.count - count
    let result = [UInt32](unsafeUninitializedCapacity: kept) { buffer, initialized in
      limbs.withUnsafeBufferPointer { source in
        for index in 0..<kept { buffer[index] = source[index + count] }
      }
      initialized = kept
    }
    return BigUInt(limbs: result)
  }

  /// The quotient and remainder of `a ÷ b` (Knuth's algorithm D, base 10^9), `b` nonzero.
  static func divide(_ a: BigUInt, by b: BigUInt) -> (BigUInt, BigUInt) {
    precondition(!b.isZero, "division by zero")
    if a < b { return (.zero, a) }
    if b.limbs.count == 1 {
      let (q, r) = a.divided(by: b.limbs[0])
      return (q, BigUInt(Int(r)))
    }
    // Normalize so that the divisor's top limb is at least base / 2.
    let scale = UInt32(base / (UInt64(b.limbs.last!) + 1))
    let u = (a * scale).limbs + [0]
    var v = (b * scale).limbs
    var uu = u
    if uu.count < a.limbs.count + 1 { uu += [0] }
    let n = v.count
    let m = uu.count - n - 1
    var q = [UInt32](repeating: 0, count: m + 1)
    let vTop = UInt64(v[n - 1])
    let vNext = UInt64(v[n - 2])
    for j in stride(from: m, through: 0, by: -1) {
      let numerator = UInt64(uu[j + n]) * base + UInt64(uu[j + n - 1])
      var qhat = numerator / vTop
      var rhat = numerator % vTop
      while qhat >= base || qhat * vNext > rhat * base + UInt64(uu[j + n - 2]) {
        qhat -= 1
        rhat += vTop
        if rhat >= base { break }
      }
      // Multiply and subtract.
      var borrow: Int64 = 0
      var carry: UInt64 = 0
      for i in 0..<n {
        let product = qhat * UInt64(v[i]) + carry
        carry = product / base
        var difference = Int64(uu[i + j]) - Int64(product % base) - borrow
        if difference < 0 {
          difference += Int64(base)
          borrow = 1
        } else {
          borrow = 0
        }
        uu[i + j] = UInt32(difference)
      }
      var difference = Int64(uu[j + n]) - Int64(carry) - borrow
      if difference < 0 {
        difference += Int64(base)
        borrow = 1
      } else {
        borrow = 0
      }
      uu[j + n] = UInt32(difference)
      if borrow != 0 {
        // Added back: qhat was one too large.
        qhat -= 1
        var carry: UInt64 = 0
        for i in 0..<n {
          let sum = UInt64(uu[i + j]) + UInt64(v[i]) + carry
          uu[i + j] = UInt32(sum % base)
          carry = sum / base
        }
        uu[j + n] = UInt32((UInt64(uu[j + n]) + carry) % base)
      }
      q[j] = UInt32(qhat)
    }
    v = []
    let remainder = BigUInt(limbs: Array(uu[0..<n])).divided(by: scale).0
    return (BigUInt(limbs: q), remainder)
  }

  /// `self` to the power `n`.
  func power(_ n: Int) -> BigUInt {
    var result = BigUInt.one
    var base = self
    var n = n
    while n > 0 {
      if n & 1 == 1 { result = result * base }
      n >>= 1
      if n > 0 { base = base * base }
    }
    return result
  }
}
