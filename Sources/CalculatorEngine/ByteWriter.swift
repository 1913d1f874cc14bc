/// Bytes written a few at a time into memory of their own, emptied and written again: the
/// one-pass date reader's normalised text (``DateOnePass``).
///
/// Not an array: appending a token's bytes to an `[UInt8]` cost about 70 instructions and a
/// call to `memcpy`, three times a date line, and emptying it about 60 (issue 51;
/// Documentation/Performance.md, "Date lines, session 16"). A reference, so that its owner stays
/// a value: the owner takes a writer of its own (``isKnownUniquelyReferenced(_:)``) before
/// writing, and a copy of the owner never writes into the memory its original reads.
final class ByteWriter: @unchecked Sendable {
  /// The memory, `capacity` bytes; the first `count` written.
  private var base: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  /// The number of bytes written.
  private(set) var count = 0

  /// An empty writer with room for `capacity` bytes.
  init(capacity: Int = 64) {
    self.capacity = max(capacity, 16)
    base = .allocate(capacity: self.capacity)
  }

  deinit {
    base.deallocate()
  }

  /// The bytes written, valid until the next change.
  var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

  /// Forgets the bytes written, keeping the memory.
  @inline(__always)
  func removeAll() {
    count = 0
  }

  /// Makes room for `more` bytes after those written.
  ///
  /// - Complexity: O(n) in the bytes written, when the memory moves.
  @inline(__always)
  func reserve(_ more: Int) {
    if count + more > capacity { grow(toAtLeast: count + more) }
  }

  @inline(never)
  private func grow(toAtLeast needed: Int) {
    let newCapacity = max(needed, 2 * capacity)
    let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    newBase.initialize(from: base, count: count)
    base.deallocate()
    (base, capacity) = (newBase, newCapacity)
  }

  /// Writes `byte` after the bytes written.
  @inline(__always)
  func append(_ byte: UInt8) {
    if count == capacity { grow(toAtLeast: count + 1) }
    base[count] = byte
    count += 1
  }

  /// Writes at most `maximum` bytes after the bytes written, through `write`, which is given
  /// where they go and returns how many it wrote: the date's, the offset's and the count's
  /// writers shared with an answer line's array (``CivilDate/writeISOText(into:)``).
  @inline(__always)
  func append(upTo maximum: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int) {
    reserve(maximum)
    count += write(base + count)
  }

  /// Writes `bytes` after the bytes written.
  ///
  /// - Complexity: O(n) in the length of `bytes`.
  @inline(__always)
  func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress else { return }
    reserve(bytes.count)
    // A token is a few bytes: a loop, not a call to `memcpy`.
    var index = 0
    while index < bytes.count {
      base[count &+ index] = source[index]
      index &+= 1
    }
    count += bytes.count
  }
}
