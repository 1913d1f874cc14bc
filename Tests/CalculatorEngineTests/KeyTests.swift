import CalculatorEngine
import Testing

/// The key's size (issue 34: a `$N` key holding its N made every key 16 bytes, and every array
/// of keys eight times larger) and keys as typed, which keep N beside the keys.
@Suite struct KeyTests {

  /// A key is two bytes, and an array of keys two bytes a key: N of `$N` is not in the key.
  @Test func keyIsTwoBytes() {
    #expect(MemoryLayout<Key>.size <= 2)
    #expect(MemoryLayout<Key>.stride <= 2)
    #expect(MemoryLayout<Key?>.size <= 2)
  }

  /// Keys as typed keep each `$N`'s N, in order, through slicing, joining, inserting and
  /// renumbering; two lines that differ only in N differ.
  @Test func typedKeysKeepEachReferencesLine() throws {
    let keys = try KeyText.keys(in: "$3+$12*2=$1")
    #expect(
      keys.keys == [
        .reference, .op(.plus), .reference, .op(.multiply), .digit(.two), .equal, .reference,
      ])
    #expect(keys.references == [3, 12, 1])
    #expect(keys.referencedLine(at: 2) == 12)
    #expect(keys.title(at: 6) == "$1")
    #expect(keys.title(at: 1) == "+")
    #expect(KeyText.text(of: keys.extracting(2..<7)) == "$12*2=$1")
    #expect(KeyText.text(of: keys.extracting(1..<2)) == "+")
    #expect(KeyText.text(of: keys.extracting(0..<2) + keys.extracting(4..<7)) == "$3+2=$1")
    #expect(KeyText.text(of: keys.renumbered { $0 + 1 }) == "$4+$13*2=$2")
    var inserted = keys
    inserted.insertReference(7, at: 1)
    #expect(KeyText.text(of: inserted) == "$3$7+$12*2=$1")
    #expect(inserted.references == [3, 7, 12, 1])
    #expect(try KeyText.keys(in: "$3+$12*2=$2") != keys)
    #expect(
      try KeyText.keys(in: "12+3=") == [
        .digit(.one), .digit(.two), .op(.plus), .digit(.three), .equal,
      ])
  }
}
