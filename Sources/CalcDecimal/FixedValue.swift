/// An unsigned integer of at most ``capacity`` limbs of base 10^9 (least significant first), held
/// inside the value: the working values of the fixed-point series (``Fixed``). Internal.
///
/// A trivial type (no array, no reference counting): a copy is a copy of its bytes, so the
/// series' terms and sums cost no outlined copies and destroys, which ``BigUInt``'s optional
/// array costs in every operation. The limbs from `count` on are always zero, so that a sum
/// or difference reads past the shorter operand without a test.
struct FixedValue: Equatable {
  /// The limbs a value can have: 162 digits. A product's column then sums at most 18 partial
  /// products, which with the carry stay below 2^64 (see ``product(_:_:droppingLimbs:)``).
  static let capacity = 18
  static let base: UInt64 = 1_000_000_000

  /// The limbs; those from `count` on are zero.
  private var limbs: InlineArray<18, UInt32>
  /// The number of limbs, with no zero limb at the top.
  private(set) var count: Int

  /// Zero.
  init() {
    limbs = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    count = 0
  }

  /// The value of `value`, which has at most ``capacity`` limbs.
  init(_ value: BigUInt) {
    precondition(value.count <= FixedValue.capacity, "FixedValue: too many limbs")
    self.init()
    let n = value.count
    value.withLimbs { source in
      withMutableLimbs { limbs in
        for index in 0..<n { limbs[index] = source[index] }
      }
    }
    count = n
  }

  /// 10^(9·`limbs`), `limbs` below ``capacity``.
  static func one(limbs: Int) -> FixedValue {
    var value = FixedValue()
    value.limbs[limbs] = 1
    value.count = limbs + 1
    return value
  }

  /// The value as a ``BigUInt``.
  /// - Complexity: O(limbs).
  var bigUInt: BigUInt {
    let n = count
    return BigUInt.build(capacity: n) { result in
      withLimbs { source in
        for index in 0..<n { result[index] = source[index] }
      }
      return n
    }
  }

  var isZero: Bool { count == 0 }

  static func == (a: FixedValue, b: FixedValue) -> Bool {
    guard a.count == b.count else { return false }
    for index in 0..<a.count where a.limbs[index] != b.limbs[index] { return false }
    return true
  }

  /// The limb at `index` (below ``capacity``; zero from `count` on).
  func limb(_ index: Int) -> UInt32 { limbs[index] }

  /// Calls `body` with all ``capacity`` limbs.
  @inline(__always)
  private func withLimbs<R>(_ body: (UnsafeBufferPointer<UInt32>) -> R) -> R {
    limbs.span.withUnsafeBufferPointer { body($0) }
  }

  /// Calls `body` with all ``capacity`` limbs to change in place.
  @inline(__always)
  private mutating func withMutableLimbs<R>(_ body: (UnsafeMutableBufferPointer<UInt32>) -> R)
    -> R
  {
    var span = limbs.mutableSpan
    return span.withUnsafeMutableBufferPointer { body($0) }
  }

  /// Lowers `count` past zero limbs at the top, from `count` = `top`.
  @inline(__always)
  private mutating func trim(from top: Int) {
    var n = top
    while n > 0, limbs[n - 1] == 0 { n -= 1 }
    count = n
  }

  /// The sum; it must have at most ``capacity`` limbs.
  /// - Complexity: O(limbs).
  static func + (a: FixedValue, b: FixedValue) -> FixedValue {
    let n = max(a.count, b.count)
    var result = FixedValue()
    let top = a.withLimbs { x in
      b.withLimbs { y in
        result.withMutableLimbs { r in
          var carry: UInt32 = 0
          for index in 0..<n {
            // Below 2·10^9 < 2^32.
            let sum = x[index] &+ y[index] &+ carry
            carry = sum >= UInt32(base) ? 1 : 0
            r[index] = sum &- carry &* UInt32(base)
          }
          if carry == 0 { return n }
          r[n] = 1
          return n + 1
        }
      }
    }
    result.count = top
    return result
  }

  /// `a - b`, for `a >= b`.
  /// - Complexity: O(limbs).
  static func - (a: FixedValue, b: FixedValue) -> FixedValue {
    let n = a.count
    var result = FixedValue()
    a.withLimbs { x in
      b.withLimbs { y in
        result.withMutableLimbs { r in
          var borrow: UInt32 = 0
          for index in 0..<n {
            let subtrahend = y[index] &+ borrow
            borrow = x[index] < subtrahend ? 1 : 0
            r[index] = x[index] &+ borrow &* UInt32(base) &- subtrahend
          }
        }
      }
    }
    result.trim(from: n)
    return result
  }

  /// `a × small`, for `small` below 2^32; the product must have at most ``capacity`` limbs.
  /// - Complexity: O(limbs).
  static func * (a: FixedValue, small: UInt32) -> FixedValue {
    let n = a.count
    var result = FixedValue()
    let top = a.withLimbs { x in
      result.withMutableLimbs { r in
        var carry: UInt64 = 0
        for index in 0..<n {
          let value = UInt64(x[index]) * UInt64(small) + carry
          carry = value / base
          r[index] = UInt32(truncatingIfNeeded: value &- carry &* base)
        }
        var top = n
        while carry > 0 {
          let next = carry / base
          r[top] = UInt32(truncatingIfNeeded: carry &- next &* base)
          carry = next
          top += 1
        }
        return top
      }
    }
    // A zero `small` leaves zero limbs.
    result.trim(from: top)
    return result
  }

  /// Divides in place by `small` (nonzero, below 2^32), truncating, and returns the remainder.
  /// - Complexity: O(limbs).
  mutating func formQuotient(dividingBy small: UInt32) -> UInt32 {
    let divisor = UInt64(small)
    let n = count
    let remainder = withMutableLimbs { buffer in
      var remainder: UInt64 = 0
      var index = n
      while index > 0 {
        index -= 1
        let value = remainder &* FixedValue.base &+ UInt64(buffer[index])
        let quotient = value / divisor
        buffer[index] = UInt32(truncatingIfNeeded: quotient)
        remainder = value &- quotient &* divisor
      }
      return UInt32(truncatingIfNeeded: remainder)
    }
    trim(from: n)
    return remainder
  }

  /// a·b divided by 10^(9·`dropped`) and truncated, from the partial products of the columns
  /// from `dropped` − 2 up only; the result must have at most ``capacity`` limbs.
  ///
  /// The skipped columns sum to less than n·10^(9·(`dropped` − 1)) (n the shorter operand's
  /// limbs, far below 10^9), so the value is the truncated product or one less: an error below
  /// one unit plus 10^-8, where the whole product's is below one unit. It is the exact sum of a
  /// fixed set of partial products, cut, so any order of summing gives the same limbs.
  ///
  /// Column by column: each column's partial products and the carry are summed in a `UInt64`,
  /// then split once, where the rows split every product. A column of at most 18 products of
  /// limbs below 10^9 and a carry below 18·10^9 + 18 sums to less than 18·10^18 < 2^64.
  /// - Complexity: O(n·m) in the limb counts, less the columns below `dropped` − 2.
  static func product(_ a: FixedValue, _ b: FixedValue, droppingLimbs dropped: Int)
    -> FixedValue
  {
    let (n, m) = (a.count, b.count)
    let total = n + m
    if n == 0 || m == 0 || dropped >= total { return FixedValue() }
    precondition(total - dropped <= capacity, "FixedValue: too many limbs")
    let low = max(0, dropped - 2)
    var result = FixedValue()
    a.withLimbs { x in
      b.withLimbs { y in
        result.withMutableLimbs { r in
          var carry: UInt64 = 0
          for k in low..<(total - 1) {
            let sum = BigUInt.columnSum(k, x, n, y, m, plus: carry)
            carry = sum / base
            if k >= dropped { r[k - dropped] = UInt32(truncatingIfNeeded: sum &- carry &* base) }
          }
          // The whole sum is below 10^(9·total): the last carry is one limb.
          r[total - 1 - dropped] = UInt32(truncatingIfNeeded: carry)
        }
      }
    }
    result.trim(from: total - dropped)
    return result
  }

  /// a² divided by 10^(9·`dropped`) and truncated, as ``product(_:_:droppingLimbs:)`` computes
  /// it (the same value): each column's cross products once, doubled, plus its limb's square.
  /// - Complexity: O(n²) in the limb count, about half the products of
  ///   ``product(_:_:droppingLimbs:)``.
  static func square(_ a: FixedValue, droppingLimbs dropped: Int) -> FixedValue {
    let n = a.count
    let total = 2 * n
    if n == 0 || dropped >= total { return FixedValue() }
    precondition(total - dropped <= capacity, "FixedValue: too many limbs")
    let low = max(0, dropped - 2)
    var result = FixedValue()
    a.withLimbs { x in
      result.withMutableLimbs { r in
        var carry: UInt64 = 0
        for k in low..<(total - 1) {
          // Pairs i < j with i + j = k; the whole column (the same sum as the product's) is
          // below 2^64, so its half is too.
          var cross: UInt64 = 0
          var i = max(0, k - (n - 1))
          var j = k - i
          while i < j {
            cross &+= UInt64(x[i]) &* UInt64(x[j])
            i += 1
            j -= 1
          }
          var sum = carry &+ cross &* 2
          if i == j { sum &+= UInt64(x[i]) &* UInt64(x[i]) }
          carry = sum / base
          if k >= dropped { r[k - dropped] = UInt32(truncatingIfNeeded: sum &- carry &* base) }
        }
        r[total - 1 - dropped] = UInt32(truncatingIfNeeded: carry)
      }
    }
    result.trim(from: total - dropped)
    return result
  }
}
