import CalcTestSupport
import CalculatorEngine
import Testing

/// `ByteScan`'s word-at-a-time scans agree with a byte at a time on random buffers of every
/// length up to 40, the bytes sought anywhere, at either end or absent, and on every byte
/// value (a scan of a word must find no byte that is not there).
@Suite struct ByteScanTests {
  @Test func holdsIsContains() {
    var random = SplitMix64(state: 0xB7_5CA0)
    for length in 0...40 {
      for _ in 0..<TestSize.count(short: 60, long: 2_000) {
        var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
        let first = UInt8.random(in: 0...255, using: &random)
        let second = UInt8.random(in: 0...255, using: &random)
        if length > 0, Bool.random(using: &random) {
          bytes[Int.random(in: 0..<length, using: &random)] = first
        }
        let found = bytes.withUnsafeBufferPointer { ByteScan.holds(first, second, in: $0) }
        #expect(found.first == bytes.contains(first), "\(bytes) \(first)")
        #expect(found.second == bytes.contains(second), "\(bytes) \(second)")
      }
    }
    // Each byte value beside every other, in a full word and in a tail.
    for byte in 0...255 {
      let word = (0..<8).map { UInt8(truncatingIfNeeded: byte &+ 1 &+ $0 % 2) }
      let scanned = word.withUnsafeBufferPointer { ByteScan.holds(UInt8(byte), 0, in: $0) }
      #expect(scanned.first == word.contains(UInt8(byte)), "\(byte)")
    }
  }

  /// `isASCII` is "no byte is 0x80 or more", at every length around a word, with one high byte
  /// anywhere or none.
  @Test func isASCIIIsNoHighByte() {
    var random = SplitMix64(state: 0xA5_C11)
    for length in 0...40 {
      for _ in 0..<TestSize.count(short: 60, long: 2_000) {
        var bytes = (0..<length).map { _ in UInt8.random(in: 0...0x7F, using: &random) }
        if length > 0, Bool.random(using: &random) {
          bytes[Int.random(in: 0..<length, using: &random)] = UInt8.random(
            in: 0x80...0xFF, using: &random)
        }
        let ascii = bytes.withUnsafeBufferPointer { ByteScan.isASCII($0) }
        #expect(ascii == bytes.allSatisfy { $0 < 0x80 }, "\(bytes)")
      }
    }
  }

  @Test func equalIsElementsEqual() {
    var random = SplitMix64(state: 0xE9_0A1)
    for length in 0...40 {
      for _ in 0..<TestSize.count(short: 60, long: 2_000) {
        let left = (0..<length).map { _ in UInt8.random(in: 0...3, using: &random) }
        var right = left
        if length > 0, Bool.random(using: &random) {
          right[Int.random(in: 0..<length, using: &random)] = UInt8.random(
            in: 0...3, using: &random)
        }
        if Int.random(in: 0..<8, using: &random) == 0 { right.append(0) }
        let equal = left.withUnsafeBufferPointer { l in
          right.withUnsafeBufferPointer { r in ByteScan.equal(l, r) }
        }
        #expect(equal == (left == right), "\(left) \(right)")
      }
    }
  }
}
