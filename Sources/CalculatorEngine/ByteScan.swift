// Scans of a line's bytes a word (8 bytes) at a time, for the lines a script runs most: a
// byte loop costs about 10 instructions a byte (issue 51; Documentation/Performance.md, "Date
// lines, session 15").

/// Byte scans a word at a time over a line's UTF-8 bytes.
package enum ByteScan {
  /// Eight copies of 0x01.
  private static let ones: UInt64 = 0x0101_0101_0101_0101
  /// Eight copies of 0x80.
  private static let highs: UInt64 = 0x8080_8080_8080_8080

  /// Whether any of the 8 bytes of `word` is `byte`: exact (a byte equal to `byte` is a zero
  /// byte of `word ^ spread`, and the test finds a zero byte without false positives).
  @inline(__always)
  package static func word(_ word: UInt64, holds byte: UInt8) -> Bool {
    let difference = word ^ (ones &* UInt64(byte))
    return (difference &- ones) & ~difference & highs != 0
  }

  /// Whether `buffer` holds `first`, and whether it holds `second`, in one pass.
  ///
  /// - Complexity: O(n) in the length of `buffer`.
  package static func holds(_ first: UInt8, _ second: UInt8, in buffer: UnsafeBufferPointer<UInt8>)
    -> (first: Bool, second: Bool)
  {
    guard let base = buffer.baseAddress else { return (false, false) }
    let raw = UnsafeRawPointer(base)
    var (holdsFirst, holdsSecond) = (false, false)
    var index = 0
    while index &+ 8 <= buffer.count {
      let bytes = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      if word(bytes, holds: first) { holdsFirst = true }
      if word(bytes, holds: second) { holdsSecond = true }
      index &+= 8
    }
    if index < buffer.count {
      if buffer.count >= 8 {
        // The last 8 bytes, some of them read already.
        let bytes = raw.loadUnaligned(fromByteOffset: buffer.count &- 8, as: UInt64.self)
        if word(bytes, holds: first) { holdsFirst = true }
        if word(bytes, holds: second) { holdsSecond = true }
      } else {
        while index < buffer.count {
          if base[index] == first { holdsFirst = true }
          if base[index] == second { holdsSecond = true }
          index &+= 1
        }
      }
    }
    return (holdsFirst, holdsSecond)
  }

  /// Whether every byte of `buffer` is ASCII (below 0x80).
  ///
  /// - Complexity: O(n) in the length of `buffer`.
  package static func isASCII(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = buffer.baseAddress else { return true }
    let raw = UnsafeRawPointer(base)
    var bits: UInt64 = 0
    var index = 0
    while index &+ 8 <= buffer.count {
      bits |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      index &+= 8
    }
    while index < buffer.count {
      bits |= UInt64(base[index])
      index &+= 1
    }
    return bits & highs == 0
  }

  /// Whether `left` and `right` hold the same bytes.
  ///
  /// - Complexity: O(n) in the length of the buffers.
  package static func equal(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>)
    -> Bool
  {
    guard left.count == right.count else { return false }
    guard let leftBase = left.baseAddress, let rightBase = right.baseAddress else { return true }
    let (leftRaw, rightRaw) = (UnsafeRawPointer(leftBase), UnsafeRawPointer(rightBase))
    var index = 0
    while index &+ 8 <= left.count {
      if leftRaw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        != rightRaw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      {
        return false
      }
      index &+= 8
    }
    if index < left.count, left.count >= 8 {
      // The last 8 bytes, some of them compared already.
      return leftRaw.loadUnaligned(fromByteOffset: left.count &- 8, as: UInt64.self)
        == rightRaw.loadUnaligned(fromByteOffset: left.count &- 8, as: UInt64.self)
    }
    while index < left.count {
      if leftBase[index] != rightBase[index] { return false }
      index &+= 1
    }
    return true
  }
}
