import CalcTestSupport
import Testing

@testable import CalculatorEngine

/// The codes of a line's keys read by table (``CalculatorButtonItem/codes(of:into:)``, what a
/// line's record holds) against each key's ``CalculatorButtonItem/code``, the `switch`: on every
/// key, and on random lines of them.
@Suite struct KeyCodeTableTests {
  typealias Key = CalculatorButtonItem

  /// Every key, and `$N`.
  static let keys = Key.allKeys + [.reference]

  /// The codes of `keys` by table, and their or.
  static func codes(of keys: [Key]) -> (codes: [UInt8], all: UInt8) {
    var codes = [UInt8](repeating: 0xAA, count: keys.count)
    let all = keys.withUnsafeBufferPointer { keys in
      codes.withUnsafeMutableBufferPointer { Key.codes(of: keys, into: $0) }
    }
    return (codes, all)
  }

  /// The table is in use on this machine (the keys are two bytes laid out as it expects), so
  /// that the tests below compare it with the `switch`, not the `switch` with itself.
  @Test func tableIsInUse() {
    #expect(Key.codeTable.count == 512)
  }

  /// Every key's code by table is its code, and its index in ``CalculatorButtonItem/allKeys``.
  @Test func everyKeysCodeByTableIsItsCode() {
    let (codes, all) = Self.codes(of: Self.keys)
    #expect(codes == Self.keys.map(\.code))
    #expect(codes.dropLast() == ArraySlice((0..<Key.allKeys.count).map { UInt8($0) }))
    #expect(codes.last == Key.referenceCode)
    #expect(all == 0xFF)
  }

  /// Random lines of keys, of every mode, with and without `$N`: the same codes as the
  /// `switch`, and their or (at least the highest); no keys, none and 0.
  @Test func randomLinesCodesByTableAreTheCodes() {
    var random = SplitMix64(state: 0xC0DE_7AB1E)
    #expect(Self.codes(of: []).codes.isEmpty)
    #expect(Self.codes(of: []).all == 0)
    for _ in 0..<TestSize.count(short: 2_000, long: 200_000) {
      // Standard mode's keys most of the time, as a script's lines hold.
      let pool = random.chance(70) ? Key.standardKeys : Self.keys
      let line = (0..<random.int(1...40)).map { _ in pool[random.below(pool.count)] }
      let (codes, all) = Self.codes(of: line)
      #expect(codes == line.map(\.code))
      #expect(all == line.map(\.code).reduce(0, |))
      #expect(all >= line.map(\.code).max()!)
    }
  }
}
