import CalcTestSupport
import Testing

@testable import CalculatorEngine

/// The codes of a line's keys as its record takes them
/// (``Key/codes(of:into:)``), against each key's ``Key/code``
/// one at a time; and their or, which stands for the highest in the check for
/// keys beyond Standard's (a line of Standard's keys whose or reaches the first code beyond them
/// takes the whole check, and passes: `CheckedLineTests`).
@Suite struct LineCodesTests {

  /// Every key, and `$N`.
  static let keys = Key.allKeys + [.reference]

  /// The codes of `keys` and their or.
  static func codes(of keys: [Key]) -> (switched: [UInt8], all: UInt8) {
    var switched = [UInt8](repeating: 0xAA, count: keys.count)
    let all = keys.withUnsafeBufferPointer { keys in
      switched.withUnsafeMutableBufferPointer { Key.codes(of: keys, into: $0) }
    }
    return (switched, all)
  }

  /// Every key's code is its index in ``Key/allKeys``; `$N`'s is its
  /// own.
  @Test func everyKeysCode() {
    let codes = Self.codes(of: Self.keys)
    #expect(codes.switched.dropLast() == ArraySlice((0..<Key.allKeys.count).map { UInt8($0) }))
    #expect(codes.switched.last == Key.referenceCode)
    #expect(codes.all == 0xFF)
  }

  /// Random lines of keys, of every mode: each key's code, and an or at least the
  /// highest code, at least the first code beyond Standard's when a key is beyond them; no keys,
  /// none and 0.
  @Test func randomLinesCodesAndTheirOr() {
    var random = SplitMix64(state: 0xC0DE_7AB1E)
    let none = Self.codes(of: [])
    #expect(none.switched.isEmpty)
    #expect(none.all == 0)
    let beyond = History.firstCodeBeyondStandard
    for _ in 0..<TestSize.count(short: 2_000, long: 200_000) {
      // Standard mode's keys most of the time, as a script's lines hold.
      let pool = random.chance(70) ? Key.standardKeys : Self.keys
      let line = (0..<random.int(1...40)).map { _ in pool[random.below(pool.count)] }
      let codes = Self.codes(of: line)
      #expect(codes.switched == line.map(\.code))
      #expect(codes.all >= line.map(\.code).max()!)
      if line.contains(where: { $0.code >= beyond }) { #expect(codes.all >= beyond) }
    }
  }
}
