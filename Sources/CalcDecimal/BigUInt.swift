/// An unsigned integer of any size, in base 10^9 limbs (least significant first): what the
/// elementary functions compute with before rounding to 34 digits. Internal.
///
/// Up to ``inlineCapacity`` limbs (144 digits: every value of the 48-digit pass,
/// products and shifted dividends included) live inside the value itself, so that the series'
/// inner loops allocate nothing and count no references; larger values (n!, the 330-digit π,
/// huge remainders) keep their limbs in an array.
struct BigUInt: Equatable, Comparable {
  /// The limbs of a value of at most ``inlineCapacity`` limbs; those from `count` on are zero.
  private var inline: InlineArray<16, UInt32>
  /// The limbs of a larger value (its first `count` are the value), else `nil`.
  private var heap: [UInt32]?
  /// The number of limbs, each below 10^9; no zero limb at the top.
  private(set) var count: Int

  static let inlineCapacity = 16
  static let base: UInt64 = 1_000_000_000
  static let zero = BigUInt()
  static let one = BigUInt(1)

  private init() {
    inline = InlineArray(repeating: 0)
    heap = nil
    count = 0
  }

  /// The value of `value`, split into limbs by 64-bit divisions: below 2^64 by the constant
  /// 10^9 (a multiplication), above by two-word divisions, not by calls of the 128-bit division.
  init(_ value: UInt128) {
    self.init()
    var high = UInt64(truncatingIfNeeded: value >> 64)
    var low = UInt64(truncatingIfNeeded: value)
    while high > 0 {
      // (high, low) ÷ 10^9: high's quotient, then the rest's two words.
      let (highQuotient, highRemainder) = (high / BigUInt.base, high % BigUInt.base)
      let (lowQuotient, remainder) = BigUInt.base.dividingFullWidth((highRemainder, low))
      inline[count] = UInt32(truncatingIfNeeded: remainder)
      count += 1
      (high, low) = (highQuotient, lowQuotient)
    }
    while low > 0 {
      let quotient = low / BigUInt.base
      inline[count] = UInt32(truncatingIfNeeded: low &- quotient &* BigUInt.base)
      count += 1
      low = quotient
    }
  }

  init(_ value: Int) { self.init(UInt128(value)) }

  /// A value of the given parts; `count` is the number of limbs, with no zero limb at the top.
  private init(inline: InlineArray<16, UInt32>, heap: [UInt32]?, count: Int) {
    self.inline = inline
    self.heap = heap
    self.count = count
  }

  /// A value built in place: `body` is given `capacity` zeroed limbs and returns how many of them
  /// it used; zero limbs at the top are dropped.
  ///
  /// The limbs are filled in a local `InlineArray` (a plain value) and the result is made from
  /// them at the end: filling a `BigUInt()` made first cost an outlined copy and destroy of the
  /// whole value (its optional array makes it non-trivial) in every operation.
  /// - Complexity: O(capacity) plus `body`; no allocation up to ``inlineCapacity`` limbs.
  @inline(__always)
  static func build(
    capacity: Int, _ body: (UnsafeMutableBufferPointer<UInt32>) -> Int
  ) -> BigUInt {
    if capacity <= inlineCapacity {
      // Zeros as a literal: `InlineArray(repeating: 0)` was a call in every operation.
      var limbs: InlineArray<16, UInt32> = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
      var span = limbs.mutableSpan
      var used = span.withUnsafeMutableBufferPointer { buffer in
        body(UnsafeMutableBufferPointer(rebasing: buffer[0..<capacity]))
      }
      while used > 0, limbs[used - 1] == 0 { used -= 1 }
      return BigUInt(inline: limbs, heap: nil, count: used)
    }
    var array = [UInt32](repeating: 0, count: capacity)
    var used = array.withUnsafeMutableBufferPointer { body($0) }
    while used > 0, array[used - 1] == 0 { used -= 1 }
    return BigUInt(inline: InlineArray(repeating: 0), heap: array, count: used)
  }

  /// Calls `body` with the limbs (`count` of them, least significant first).
  @inline(__always)
  func withLimbs<R>(_ body: (UnsafeBufferPointer<UInt32>) -> R) -> R {
    if let heap {
      return heap.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[0..<count])) }
    }
    return inline.span.withUnsafeBufferPointer {
      body(UnsafeBufferPointer(rebasing: $0[0..<count]))
    }
  }

  /// Calls `body` with the limbs to change in place (`count` of them); zero limbs at the top are
  /// dropped afterwards.
  @inline(__always)
  private mutating func withMutableLimbs<R>(_ body: (UnsafeMutableBufferPointer<UInt32>) -> R)
    -> R
  {
    let n = count
    let result: R
    if var array = heap {
      heap = nil
      result = array.withUnsafeMutableBufferPointer {
        body(UnsafeMutableBufferPointer(rebasing: $0[0..<n]))
      }
      heap = array
    } else {
      var span = inline.mutableSpan
      result = span.withUnsafeMutableBufferPointer {
        body(UnsafeMutableBufferPointer(rebasing: $0[0..<n]))
      }
    }
    trim()
    return result
  }

  /// The limb at `index` (below `count`).
  @inline(__always)
  func limb(_ index: Int) -> UInt32 {
    if let heap { return heap[index] }
    return inline[index]
  }

  var isZero: Bool { count == 0 }

  private mutating func trim() {
    while count > 0, limb(count - 1) == 0 { count -= 1 }
  }

  static func == (a: BigUInt, b: BigUInt) -> Bool {
    guard a.count == b.count else { return false }
    return a.withLimbs { x in
      b.withLimbs { y in
        for index in 0..<x.count where x[index] != y[index] { return false }
        return true
      }
    }
  }

  /// The value, if it fits in a `UInt128`.
  var uint128: UInt128? {
    guard count <= 4 else { return nil }
    var value: UInt128 = 0
    for index in stride(from: count - 1, through: 0, by: -1) {
      let (scaled, overflow) = value.multipliedReportingOverflow(by: UInt128(BigUInt.base))
      if overflow { return nil }
      let (sum, carry) = scaled.addingReportingOverflow(UInt128(limb(index)))
      if carry { return nil }
      value = sum
    }
    return value
  }

  /// The number of decimal digits; 0 for zero.
  var digitCount: Int {
    guard count > 0 else { return 0 }
    return (count - 1) * 9 + BigUInt.digits(of: limb(count - 1))
  }

  /// The decimal digits of a limb below 10^9, by comparisons (no division); 0 for 0.
  @inline(__always)
  static func digits(of limb: UInt32) -> Int {
    if limb < 10_000 {
      if limb < 100 { return limb < 10 ? (limb == 0 ? 0 : 1) : 2 }
      return limb < 1000 ? 3 : 4
    }
    if limb < 1_000_000 { return limb < 100_000 ? 5 : 6 }
    if limb < 100_000_000 { return limb < 10_000_000 ? 7 : 8 }
    return 9
  }

  static func < (a: BigUInt, b: BigUInt) -> Bool {
    if a.count != b.count { return a.count < b.count }
    return a.withLimbs { x in
      b.withLimbs { y in
        for index in stride(from: x.count - 1, through: 0, by: -1) where x[index] != y[index] {
          return x[index] < y[index]
        }
        return false
      }
    }
  }

  /// The sum: the limbs both operands have, then the longer one's with the carry.
  /// - Complexity: O(limbs).
  static func + (a: BigUInt, b: BigUInt) -> BigUInt {
    let n = max(a.count, b.count) + 1
    return build(capacity: n) { result in
      a.withLimbs { x in
        b.withLimbs { y in
          let (short, long) = x.count < y.count ? (x, y) : (y, x)
          // Below 2·10^9 + 1 < 2^32.
          var carry: UInt32 = 0
          for index in 0..<short.count {
            let sum = short[index] &+ long[index] &+ carry
            carry = sum >= UInt32(base) ? 1 : 0
            result[index] = sum &- carry &* UInt32(base)
          }
          for index in short.count..<long.count {
            let sum = long[index] &+ carry
            carry = sum >= UInt32(base) ? 1 : 0
            result[index] = sum &- carry &* UInt32(base)
          }
          result[n - 1] = carry
          return n
        }
      }
    }
  }

  /// `a - b`, for `a >= b`.
  static func - (a: BigUInt, b: BigUInt) -> BigUInt {
    build(capacity: a.count) { result in
      a.withLimbs { x in
        b.withLimbs { y in
          var borrow: Int64 = 0
          for index in 0..<x.count {
            var difference =
              Int64(x[index]) - (index < y.count ? Int64(y[index]) : 0) - borrow
            if difference < 0 {
              difference += Int64(base)
              borrow = 1
            } else {
              borrow = 0
            }
            result[index] = UInt32(truncatingIfNeeded: difference)
          }
          return x.count
        }
      }
    }
  }

  /// The product, schoolbook, built in place.
  /// - Complexity: O(n·m) in the limb counts.
  static func * (a: BigUInt, b: BigUInt) -> BigUInt {
    if a.isZero || b.isZero { return .zero }
    let (n, m) = (a.count, b.count)
    return build(capacity: n + m) { result in
      a.withLimbs { x in b.withLimbs { y in multiply(x, y, into: result) } }
      return n + m
    }
  }

  /// Writes x·y (schoolbook) into `result`, which has at least x.count + y.count limbs, zeroed.
  ///
  /// Column by column when the shorter operand has at most 18 limbs: a column's partial
  /// products and carry sum in a `UInt64` (at most 18 products below 10^18 and a carry below
  /// 18·10^9 + 18: below 18·10^18 < 2^64) and are split once, where a row splits every product.
  /// Longer operands (π's 37 limbs by 37) go row by row.
  /// - Complexity: O(n·m) in the limb counts.
  /// Column `k` of the product of the first `n` limbs of `x` and the first `m` of `y`: the sum
  /// of the partial products x[i]·y[k − i], plus `carry`, in a `UInt64` (the caller keeps it
  /// below 2^64: at most 18 products of limbs below 10^9 and a carry below 18·10^9 + 18).
  ///
  /// - Complexity: O(min(n, m)).
  @inline(__always)
  static func columnSum(
    _ k: Int, _ x: UnsafeBufferPointer<UInt32>, _ n: Int, _ y: UnsafeBufferPointer<UInt32>,
    _ m: Int, plus carry: UInt64
  ) -> UInt64 {
    var sum = carry
    var i = max(0, k - (m - 1))
    let last = min(k, n - 1)
    while i <= last {
      sum &+= UInt64(x[i]) &* UInt64(y[k - i])
      i += 1
    }
    return sum
  }

  @inline(__always)
  private static func multiply(
    _ x: UnsafeBufferPointer<UInt32>, _ y: UnsafeBufferPointer<UInt32>,
    into result: UnsafeMutableBufferPointer<UInt32>
  ) {
    let (n, m) = (x.count, y.count)
    if min(n, m) <= 18 {
      var carry: UInt64 = 0
      for k in 0..<(n + m - 1) {
        let sum = columnSum(k, x, n, y, m, plus: carry)
        carry = sum / base
        result[k] = UInt32(truncatingIfNeeded: sum &- carry &* base)
      }
      // The product is below 10^(9(n + m)): the last carry is one limb.
      result[n + m - 1] = UInt32(truncatingIfNeeded: carry)
      return
    }
    for i in 0..<x.count {
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

  /// The product a·b with its lowest limbs dropped: `dropped` of them, or, with `digits`, as
  /// many whole limbs as leave at least `digits` digits (``Working/normalized(_:)``'s cut).
  /// Returns the value and the limbs dropped. The same value as `(a * b).droppingLimbs(_:)`,
  /// but the full product lives only in a scratch buffer on the stack: no value of 2n limbs
  /// is built, copied and cut.
  /// - Complexity: O(n·m) in the limb counts.
  static func product(
    _ a: BigUInt, _ b: BigUInt, droppingLimbs dropped: Int = 0, digits: Int? = nil
  )
    -> (BigUInt, Int)
  {
    if a.isZero || b.isZero { return (.zero, 0) }
    let total = a.count + b.count
    var drop = dropped
    // At least this many limbs are dropped (the product has at least da + db − 1 digits): the
    // value is built straight in its place, with room for the rest (a value returned from the
    // scratch's closure was copied and destroyed).
    var least = dropped
    if let digits {
      let excess = a.digitCount + b.digitCount - 1 - digits
      least = excess >= 9 ? excess / 9 : 0
    }
    let value = build(capacity: total - least) { kept in
      withUnsafeTemporaryAllocation(of: UInt32.self, capacity: total) { scratch in
        scratch.initialize(repeating: 0)
        a.withLimbs { x in b.withLimbs { y in multiply(x, y, into: scratch) } }
        var top = total
        while top > 0, scratch[top - 1] == 0 { top -= 1 }
        if let digits {
          let digitCount = (top - 1) * 9 + BigUInt.digits(of: scratch[top - 1])
          let excess = digitCount - digits
          drop = excess >= 9 ? excess / 9 : 0
        }
        if drop >= top { return 0 }
        for index in 0..<(top - drop) { kept[index] = scratch[index + drop] }
        return top - drop
      }
    }
    return (value, drop)
  }

  /// `a × small`, for `small` below 2^32.
  static func * (a: BigUInt, small: UInt32) -> BigUInt {
    build(capacity: a.count + 2) { result in
      a.withLimbs { x in
        var carry: UInt64 = 0
        for index in 0..<x.count {
          let value = UInt64(x[index]) * UInt64(small) + carry
          carry = value / base
          result[index] = UInt32(truncatingIfNeeded: value &- carry &* base)
        }
        result[x.count] = UInt32(truncatingIfNeeded: carry % base)
        result[x.count + 1] = UInt32(truncatingIfNeeded: carry / base)
        return x.count + 2
      }
    }
  }

  /// The quotient and remainder of a division by `small` (nonzero, below 2^32).
  func divided(by small: UInt32) -> (BigUInt, UInt32) {
    var quotient = self
    let remainder = quotient.formQuotient(dividingBy: small)
    return (quotient, remainder)
  }

  /// Divides in place by `small` (nonzero, below 2^32), truncating, and returns the remainder.
  /// - Complexity: O(limbs), no allocation when the limbs are inline or not shared.
  mutating func formQuotient(dividingBy small: UInt32) -> UInt32 {
    let divisor = UInt64(small)
    return withMutableLimbs { buffer in
      var remainder: UInt64 = 0
      for index in stride(from: buffer.count - 1, through: 0, by: -1) {
        let value = remainder * BigUInt.base + UInt64(buffer[index])
        let quotient = value / divisor
        buffer[index] = UInt32(truncatingIfNeeded: quotient)
        remainder = value &- quotient &* divisor
      }
      return UInt32(remainder)
    }
  }

  /// 10^n.
  static func powerOfTen(_ n: Int) -> BigUInt {
    var top: UInt32 = 1
    for _ in 0..<(n % 9) { top *= 10 }
    return build(capacity: n / 9 + 1) { result in
      result[n / 9] = top
      return n / 9 + 1
    }
  }

  /// The value times 10^n, built in place.
  /// - Complexity: O(limbs + n).
  func shifted(by n: Int) -> BigUInt {
    guard !isZero, n > 0 else { return self }
    let whole = n / 9
    var small: UInt64 = 1
    for _ in 0..<(n % 9) { small *= 10 }
    return BigUInt.build(capacity: whole + count + 1) { result in
      withLimbs { x in
        var carry: UInt64 = 0
        for index in 0..<x.count {
          let value = UInt64(x[index]) * small + carry
          carry = value / BigUInt.base
          result[whole + index] = UInt32(truncatingIfNeeded: value &- carry &* BigUInt.base)
        }
        result[whole + x.count] = UInt32(truncatingIfNeeded: carry)
        return whole + x.count + 1
      }
    }
  }

  /// The value divided by 10^n, truncated, and whether anything nonzero was dropped; built in
  /// place.
  /// - Complexity: O(limbs).
  func truncated(by n: Int) -> (BigUInt, Bool) {
    guard n > 0, !isZero else { return (self, false) }
    let whole = n / 9
    if whole >= count { return (.zero, true) }
    var small: UInt64 = 1
    for _ in 0..<(n % 9) { small *= 10 }
    var dropped = false
    let kept = count - whole
    let result = BigUInt.build(capacity: kept) { buffer in
      withLimbs { source in
        for index in 0..<whole where source[index] != 0 {
          dropped = true
          break
        }
        var remainder: UInt64 = 0
        for index in stride(from: kept - 1, through: 0, by: -1) {
          let value = remainder * BigUInt.base + UInt64(source[index + whole])
          let quotient = value / small
          buffer[index] = UInt32(truncatingIfNeeded: quotient)
          remainder = value &- quotient &* small
        }
        if remainder != 0 { dropped = true }
      }
      return kept
    }
    return (result, dropped)
  }

  /// The value split at its `n`-th digit from the right (0 < `n` < ``digitCount``): the quotient
  /// by 10^n, which has at most 38 digits, and the remainder, in one pass over the limbs.
  /// - Complexity: O(limbs).
  func split(atDigit n: Int) -> (UInt128, BigUInt) {
    let whole = n / 9
    var small: UInt64 = 1
    for _ in 0..<(n % 9) { small *= 10 }
    var quotient: UInt128 = 0
    let rest = BigUInt.build(capacity: whole + 1) { buffer in
      withLimbs { source in
        var remainder: UInt64 = 0
        for index in stride(from: source.count - 1, through: whole, by: -1) {
          let value = remainder * BigUInt.base + UInt64(source[index])
          let digit = value / small
          quotient = quotient * UInt128(BigUInt.base) + UInt128(digit)
          remainder = value &- digit &* small
        }
        for index in 0..<whole { buffer[index] = source[index] }
        buffer[whole] = UInt32(truncatingIfNeeded: remainder)
      }
      return whole + 1
    }
    return (quotient, rest)
  }

  /// a·10^`shiftA` + b·10^`shiftB`, or with `subtract` |a·10^`shiftA` − b·10^`shiftB`|, its
  /// lowest limbs dropped as ``Working/normalized(_:)`` drops them (as many whole limbs as
  /// leave at least `digits` digits); also the limbs dropped and, for a difference, whether
  /// the second term was the larger. The same value as building the shifted terms, their sum
  /// or difference and the cut one after the other, with only the result built: the terms
  /// live in scratch on the stack.
  /// - Complexity: O(limbs + shifts / 9).
  static func alignedSum(
    _ a: BigUInt, shiftedBy shiftA: Int, _ b: BigUInt, shiftedBy shiftB: Int, subtract: Bool,
    keeping digits: Int
  ) -> (value: BigUInt, dropped: Int, secondLarger: Bool) {
    let length = max(a.count + shiftA / 9, b.count + shiftB / 9) + 2
    return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 2 * length) { scratch in
      scratch.initialize(repeating: 0)
      var x = UnsafeMutableBufferPointer(rebasing: scratch[0..<length])
      var y = UnsafeMutableBufferPointer(rebasing: scratch[length..<(2 * length)])
      /// Writes `value`·10^`shift` into `target` (zeroed).
      func place(_ value: BigUInt, _ shift: Int, _ target: UnsafeMutableBufferPointer<UInt32>) {
        let whole = shift / 9
        var small: UInt64 = 1
        for _ in 0..<(shift % 9) { small *= 10 }
        value.withLimbs { source in
          var carry: UInt64 = 0
          for index in 0..<source.count {
            let product = UInt64(source[index]) * small + carry
            carry = product / base
            target[whole + index] = UInt32(truncatingIfNeeded: product &- carry &* base)
          }
          target[whole + source.count] = UInt32(truncatingIfNeeded: carry)
        }
      }
      place(a, shiftA, x)
      place(b, shiftB, y)
      var secondLarger = false
      if subtract {
        var index = length - 1
        while index > 0, x[index] == y[index] { index -= 1 }
        if x[index] < y[index] {
          swap(&x, &y)
          secondLarger = true
        }
        var borrow: UInt32 = 0
        for index in 0..<length {
          let subtrahend = y[index] &+ borrow
          borrow = x[index] < subtrahend ? 1 : 0
          x[index] = x[index] &+ borrow &* UInt32(base) &- subtrahend
        }
      } else {
        var carry: UInt32 = 0
        for index in 0..<length {
          let sum = x[index] &+ y[index] &+ carry
          carry = sum >= UInt32(base) ? 1 : 0
          x[index] = sum &- carry &* UInt32(base)
        }
      }
      var top = length
      while top > 0, x[top - 1] == 0 { top -= 1 }
      if top == 0 { return (.zero, 0, secondLarger) }
      let excess = (top - 1) * 9 + BigUInt.digits(of: x[top - 1]) - digits
      let drop = excess >= 9 ? excess / 9 : 0
      let value = build(capacity: top - drop) { kept in
        for index in 0..<(top - drop) { kept[index] = x[index + drop] }
        return top - drop
      }
      return (value, drop, secondLarger)
    }
  }

  /// The value divided by 10^(9·`count`), truncated: its lowest `count` limbs dropped.
  /// - Complexity: O(limbs).
  func droppingLimbs(_ dropped: Int) -> BigUInt {
    guard dropped > 0 else { return self }
    guard dropped < count else { return .zero }
    let kept = count - dropped
    return BigUInt.build(capacity: kept) { buffer in
      withLimbs { source in
        for index in 0..<kept { buffer[index] = source[index + dropped] }
      }
      return kept
    }
  }

  /// The quotient and remainder of `a ÷ b` (Knuth's algorithm D, base 10^9), `b` nonzero; the
  /// scratch numbers are on the stack. Without `remainder`, a divisor of more than one limb
  /// leaves the remainder unmade (zero is returned in its place).
  /// - Complexity: O(n·m) in the limb counts.
  static func divide(_ a: BigUInt, by b: BigUInt, remainder wanted: Bool = true) -> (
    BigUInt, BigUInt
  ) {
    precondition(!b.isZero, "division by zero")
    if a < b { return (.zero, a) }
    if b.count == 1 {
      let (q, r) = a.divided(by: b.limb(0))
      return (q, BigUInt(UInt128(r)))
    }
    // Normalize so that the divisor's top limb is at least base / 2.
    let scale = base / (UInt64(b.limb(b.count - 1)) + 1)
    let (n, total) = (b.count, a.count + 1)
    let m = total - n - 1
    return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: total + n) { scratch in
      let uu = UnsafeMutableBufferPointer(rebasing: scratch[0..<total])
      let v = UnsafeMutableBufferPointer(rebasing: scratch[total..<(total + n)])
      a.withLimbs { x in
        var carry: UInt64 = 0
        for index in 0..<x.count {
          let value = UInt64(x[index]) * scale + carry
          carry = value / base
          uu[index] = UInt32(truncatingIfNeeded: value &- carry &* base)
        }
        uu[x.count] = UInt32(truncatingIfNeeded: carry)
      }
      b.withLimbs { y in
        var carry: UInt64 = 0
        for index in 0..<y.count {
          let value = UInt64(y[index]) * scale + carry
          carry = value / base
          v[index] = UInt32(truncatingIfNeeded: value &- carry &* base)
        }
      }
      let vTop = UInt64(v[n - 1])
      let vNext = UInt64(v[n - 2])
      let quotient = build(capacity: m + 1) { q in
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
            uu[i + j] = UInt32(truncatingIfNeeded: difference)
          }
          var difference = Int64(uu[j + n]) - Int64(carry) - borrow
          if difference < 0 {
            difference += Int64(base)
            borrow = 1
          } else {
            borrow = 0
          }
          uu[j + n] = UInt32(truncatingIfNeeded: difference)
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
          q[j] = UInt32(truncatingIfNeeded: qhat)
        }
        return m + 1
      }
      if !wanted { return (quotient, .zero) }
      var remainder = build(capacity: n) { r in
        for index in 0..<n { r[index] = uu[index] }
        return n
      }
      _ = remainder.formQuotient(dividingBy: UInt32(scale))
      return (quotient, remainder)
    }
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
