import CalcTestSupport
import CalculatorEngine
import Testing

/// The check of a line that is still arriving (``ScriptLine/PrefixCheck``): it may refuse a long
/// line early, but only at a byte that is bad whatever follows it (SPEC §8, issue 17).
@Suite struct PrefixCheckTests {
  /// Every spelling of every key, blanks, comments, bare words, commands and the bytes that
  /// come close to keys: the pieces random lines are made of.
  static let pieces: [String] = [
    "0", "1", "2", "9", ".", "+", "-", "*", "/", "=", "%", "~", "<", "@", "q", "Q", "r", "R",
    "\u{2212}", "×", "÷", "±", "√", "²", "c", "C", "ce", "CE", "cE", "ac", "AC", "aC", "ms", "MS",
    "mr", "m+", "m-", "m\u{2212}", "mc", "Mc", " ", "\t", "  ", "# note", "#", "help", "quit",
    "exit", "HELP", "x", "e", "a", "m", "h", "\r", "\u{FEFF}", "\u{00A0}", ":", ":goto 1",
  ]
  /// Bytes that are not UTF-8, or only the start of a character.
  static let rawPieces: [[UInt8]] = [[0xFF], [0xE2], [0xE2, 0x88], [0xC3], [0x80]]

  /// A random line of pieces.
  static func randomLine(_ random: inout SplitMix64) -> [UInt8] {
    var line: [UInt8] = []
    for _ in 0..<random.int(1...12) {
      if random.chance(8) {
        line += rawPieces[random.below(rawPieces.count)]
      } else {
        line += Array(pieces[random.below(pieces.count)].utf8)
      }
    }
    return line
  }

  /// What the parser says of a whole line: nil if it is accepted, else the error's column.
  static func errorColumn(_ line: [UInt8]) -> Int? {
    line.withUnsafeBufferPointer { buffer -> Int? in
      do throws(KeyTextError) {
        _ = try ScriptLine(buffer)
        return nil
      } catch {
        return error.column
      }
    }
  }

  /// Feeds `line` to a check in pieces ending at `cuts` (and then whole); returns the first
  /// rejection, as an offset.
  static func rejection(of line: [UInt8], cuts: [Int]) -> Int? {
    var check = ScriptLine.PrefixCheck()
    for cut in cuts + [line.count] {
      let found = line.withUnsafeBufferPointer { check.rejection(in: .init(rebasing: $0[..<cut])) }
      if let found { return found }
    }
    return nil
  }

  /// The column of byte `offset` of `line`, counted in characters as key-text errors count.
  static func column(of offset: Int, in line: [UInt8]) -> Int {
    String(decoding: line[..<offset], as: UTF8.self).count + 1
  }

  @Test func aRejectionIsWhereTheWholeLineFailsHoweverItArrives() {
    var random = SplitMix64(state: 17)
    var rejections = 0
    defer { #expect(rejections > 100, "the sweep must exercise early rejections") }
    for _ in 0..<TestSize.count(short: 20_000, long: 400_000) {
      let line = Self.randomLine(&random)
      // The line as it would reach the parser: a trailing `\r` is the line end's.
      let whole = line.last == UInt8(ascii: "\r") ? Array(line.dropLast()) : line
      let expected = Self.errorColumn(whole)
      var cuts: [Int] = []
      var at = 0
      while at < line.count {
        at += random.int(1...4)
        if at < line.count { cuts.append(at) }
      }
      guard let offset = Self.rejection(of: line, cuts: cuts) else { continue }
      rejections += 1
      let shown = String(decoding: line, as: UTF8.self).debugDescription
      #expect(expected != nil, "\(shown) rejected at \(offset) but the line is valid")
      #expect(
        expected == Self.column(of: offset, in: line),
        "\(shown) rejected at byte \(offset), the parser at column \(expected ?? 0)")
      if expected == nil || expected != Self.column(of: offset, in: line) { return }
    }
  }

  @Test(arguments: [
    // A key split between reads is not misread.
    ("      5m", "s", nil as Int?), ("      1c", "e", nil), ("      1a", "c", nil),
    ("      1m", "\u{2212}", nil), ("      12", "\r", nil),
    // Bare words may still arrive; a word that can be none is refused at its first bad key.
    ("hel", "p", nil), ("quit", "  # done", nil), ("exit  ", "\r", nil), ("helpxxxx", "", 0),
    ("help    ", "x", 0), ("help#   ", "", 0),
    // A character that is bad whatever follows is refused once enough has arrived to tell (a
    // word key is up to 7 letters long, `degrees`, so that is 8 bytes on).
    ("12345x6789012", "", 5), ("1+2", "e+400000", 3),
    // Commands and comments are left to the parser.
    ("  :goto", " 1", nil), ("12 # x", "yz", nil),
    // The reader does not know the mode: hex digits that Programmer mode reads are not
    // refused early (SPEC §10), and a line bad in both readings still is.
    ("hex FFFFFFFF", "FFFF", nil), ("FFFFFFFFFFFF", "", nil), ("FFFFzz12345678", "", 0),
    // Nor the session's formula mode (SPEC §12): a line that may be a formula is read whole,
    // one that can be none (no name starts with its word, a fifth exponent digit, a byte no
    // formula holds) is refused as before.
    ("sqrt(4)+sin(", "30)*2", nil), ("fx 2pi+SQRT", "(2)", nil), ("1.5e-3+", "2e+3", nil),
    ("2*√π×3÷", "4−1", nil), ("sqrt(4)+sinq", "(1)", 0), ("sqrt(4)+1", "\u{1}", 0),
    ("sqrt(4)+1e-", "12345", 0), ("sqrt(4)", "@", 0),
  ])
  func examples(first: String, rest: String, expected: Int?) {
    let line = Array((first + rest).utf8)
    #expect(Self.rejection(of: line, cuts: [first.utf8.count]) == expected)
  }

  @Test func eachByteIsLookedAtABoundedNumberOfTimes() {
    // 200,000 blanks, then keys, arriving one byte at a time: linear, not quadratic.
    let line = Array(String(repeating: " ", count: 200_000).utf8) + Array("1+2=".utf8)
    #expect(Self.rejection(of: line, cuts: Array(1..<line.count)) == nil)
  }
}
