/// A script's common key line in Standard mode: two typed numbers, a basic operator between
/// them, and `=`, with `%` before the `=` or not — `123.45*6.7=`, `30513.12+59%=` — as
/// ``KeyText/commonKeyLine(in:codes:)`` reads it from the line's bytes, without making its keys.
///
/// A session applies it as its keys (``Session/perform(commonKeyLine:)``), in one change of the
/// state: the same state, record and display as the keys pressed one by one
/// (`CommonKeyLineTests`). The numbers are at most 15 digits each, so that every digit typed
/// counts (``Entry/maximumDigits``), and have at most one point: such a line needs no note from
/// a state with no operation pending (SPEC §5), the only state a session applies it in.
package struct CommonKeyLine: Hashable, Sendable {
  /// The first number, as typed.
  package let left: Entry
  /// The operator between the numbers.
  package let op: Key.Op
  /// The second number, as typed.
  package let right: Entry
  /// Whether `%` follows the second number.
  package let percent: Bool
  /// The number of keys, one a byte.
  package let count: Int

  /// The most bytes such a line has: two numbers of 15 digits and a point, the operator, `%`
  /// and `=`.
  package static var longest: Int { 35 }
}

extension KeyText {
  /// The common key line that `buffer` holds in full (``CommonKeyLine``), with the code of each
  /// of its keys written to `codes` (one a byte: room for `buffer.count`); `nil` for any other
  /// text — a blank, a comment, a word, a third number, a number of more than 15 digits or
  /// with a second point — which ``keys(in:startingIn:writingOver:references:)`` reads as usual.
  ///
  /// The bytes are those that ``singleByteKeys`` reads as the same keys, and the codes theirs
  /// (`CommonKeyLineTests.readerAgreesWithTheKeyTextReader`).
  /// - Complexity: O(n) in the number of bytes.
  @inline(__always)
  package static func commonKeyLine(
    in buffer: UnsafeBufferPointer<UInt8>, codes: UnsafeMutablePointer<UInt8>
  ) -> CommonKeyLine? {
    guard let bytes = buffer.baseAddress else { return nil }
    let end = buffer.count
    var index = 0
    guard let left = typedNumber(bytes, at: &index, end: end, codes: codes), index < end else {
      return nil
    }
    let op: Key.Op
    switch bytes[index] {
    case UInt8(ascii: "+"): op = .plus
    case UInt8(ascii: "-"): op = .minus
    case UInt8(ascii: "*"): op = .multiply
    case UInt8(ascii: "/"): op = .divide
    default: return nil
    }
    codes[index] = Key.op(op).code
    index &+= 1
    guard let right = typedNumber(bytes, at: &index, end: end, codes: codes), index < end else {
      return nil
    }
    var percent = false
    if bytes[index] == UInt8(ascii: "%") {
      percent = true
      codes[index] = Key.command(.percent).code
      index &+= 1
      guard index < end else { return nil }
    }
    guard bytes[index] == UInt8(ascii: "="), index &+ 1 == end else { return nil }
    codes[index] = Key.equal.code
    return CommonKeyLine(left: left, op: op, right: right, percent: percent, count: end)
  }

  /// The number typed by the digits and the point at `index` on, whose codes it writes (a digit's
  /// code is its value, the point's 10), moving `index` past them: `nil` when there are none,
  /// more than 15 digits or a second point.
  @inline(__always)
  private static func typedNumber(
    _ bytes: UnsafePointer<UInt8>, at index: inout Int, end: Int,
    codes: UnsafeMutablePointer<UInt8>
  ) -> Entry? {
    let start = index
    var digits: UInt64 = 0
    var digitCount = 0
    var pointAt = -1
    while index < end {
      let byte = bytes[index]
      let value = byte &- UInt8(ascii: "0")
      if value < 10 {
        digits = digits &* 10 &+ UInt64(value)
        digitCount &+= 1
        codes[index] = value
      } else if byte == UInt8(ascii: "."), pointAt < 0 {
        pointAt = index
        codes[index] = Key.dot.code
      } else {
        break
      }
      index &+= 1
    }
    // At most 15 digits: each of them typed counts, and the entry needs no check for room.
    guard index > start, digitCount <= 15 else { return nil }
    if index < end, bytes[index] == UInt8(ascii: ".") { return nil }
    let fractionDigits = pointAt < 0 ? 0 : index &- pointAt &- 1
    return Entry(
      typedDigits: digits, fractionDigitCount: UInt8(truncatingIfNeeded: fractionDigits),
      hasPoint: pointAt >= 0)
  }
}
