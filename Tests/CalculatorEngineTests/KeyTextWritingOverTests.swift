import CalculatorEngine
import Testing

/// `KeyText.keys(in:startingIn:writingOver:references:)`, a script's reader of keys: the keys,
/// references and errors of `KeyText.keys(in:startingIn:)`, whatever earlier lines left in the
/// storage.
@Suite struct KeyTextWritingOverTests {

  /// Lines read one after the other over the same storage, each with its keys, its `$N`
  /// lines, whether it ends in a comment and whether it holds a key of more than one byte (or
  /// of a byte that is no key alone), written out by hand.
  static let lines:
    [(text: String, keys: [Key], references: [Int], hasComment: Bool, hasWords: Bool)] = [
      (
        "123.45*6.7=",
        [
          .digit(.one), .digit(.two), .digit(.three), .dot, .digit(.four), .digit(.five),
          .op(.multiply), .digit(.six), .dot, .digit(.seven), .equal,
        ], [], false, false
      ),
      ("1+2", [.digit(.one), .op(.plus), .digit(.two)], [], false, false),
      ("", [], [], false, false),
      ("  # only a comment", [], [], true, false),
      (
        "$3 5+$12=", [.reference, .digit(.five), .op(.plus), .reference, .equal], [3, 12], false,
        true
      ),
      ("9 ce  # note", [.digit(.nine), .command(.clearEntry)], [], true, true),
      ("ms c mr", [.memory(.store), .command(.clear), .memory(.recall)], [], false, true),
      (
        "2×3−1=",
        [.digit(.two), .op(.multiply), .digit(.three), .op(.minus), .digit(.one), .equal],
        [], false, true
      ),
      ("7", [.digit(.seven)], [], false, false),
    ]

  @Test func readsEachLineOverTheLastOnesKeys() throws {
    var storage: [Key] = []
    var references: [Int] = []
    for line in Self.lines {
      var text = line.text
      let (count, hasComment, hasWords, _) = try text.withUTF8 {
        try KeyText.keys(
          in: $0, startingIn: .standard, writingOver: &storage, references: &references)
      }
      #expect(Array(storage[..<count]) == line.keys, "\(line.text)")
      #expect(references == line.references, "\(line.text)")
      #expect(hasComment == line.hasComment, "\(line.text)")
      #expect(hasWords == line.hasWords, "\(line.text)")
      // The same as the reader that makes a new array.
      let typed = try KeyText.keys(in: line.text)
      #expect(Array(storage[..<count]) == typed.keys, "\(line.text)")
      #expect(references == typed.references, "\(line.text)")
    }
  }

  /// Text that is no key throws the same error as the other readers, and the next line reads
  /// as if it had not been there.
  @Test func rejectsAsTheOtherReadersDo() throws {
    var storage: [Key] = []
    var references: [Int] = []
    for bad in ["12x3", "1e5", "$", "2+m"] {
      var text = bad
      var thrown: KeyTextError?
      do {
        _ = try text.withUTF8 {
          try KeyText.keys(
            in: $0, startingIn: .standard, writingOver: &storage, references: &references)
        }
      } catch {
        thrown = error as? KeyTextError
      }
      var expected: KeyTextError?
      do throws(KeyTextError) { _ = try KeyText.keys(in: bad) } catch { expected = error }
      #expect(thrown != nil, "\(bad)")
      #expect(thrown == expected, "\(bad)")
      var next = "4="
      let (count, _, _, _) = try next.withUTF8 {
        try KeyText.keys(
          in: $0, startingIn: .standard, writingOver: &storage, references: &references)
      }
      #expect(Array(storage[..<count]) == [.digit(.four), .equal], "after \(bad)")
      #expect(references.isEmpty, "after \(bad)")
    }
  }

  /// In Programmer mode upper-case `A`–`F` are hex digits, as for the other readers; a mode key
  /// changes the reading of what follows it.
  @Test func readsInTheModeGiven() throws {
    var storage: [Key] = []
    var references: [Int] = []
    for (text, mode) in [("hex FF+A=", Key.Mode.programmer), ("prog hex AC", .standard)] {
      var copy = text
      let (count, _, _, _) = try copy.withUTF8 {
        try KeyText.keys(in: $0, startingIn: mode, writingOver: &storage, references: &references)
      }
      #expect(
        Array(storage[..<count]) == (try KeyText.keys(in: text, startingIn: mode)).keys, "\(text)")
    }
  }
}
