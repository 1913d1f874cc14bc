import CalcTestSupport
import CalculatorEngine
import Testing

@testable import CalcCore

/// The script reader's check for notes (`KeyText.keys(in:startingIn:writingOver:references:)`'s
/// `mayNeedNotes`), done on the way: where it says no note can be due, with no operation
/// pending before the line or with one, `LineInterpreter.mayNeedNotes` says so too.
@Suite struct ReaderNotesScanTests {
  /// The reader's answer for `text`, with no operation pending and with one.
  static func readerAnswer(_ text: String) throws -> (
    keys: [Key], ifIdle: Bool, ifPending: Bool
  ) {
    var storage: [Key] = []
    var references: [Int] = []
    let scanned = try Array(text.utf8).withUnsafeBufferPointer {
      try KeyText.keys(
        in: $0, startingIn: .standard, writingOver: &storage, references: &references)
    }
    return (
      Array(storage[..<scanned.count]), scanned.mayNeedNotes.ifIdle,
      scanned.mayNeedNotes.ifPending
    )
  }

  /// Lines worked out by hand: (text, may need notes with none pending, with one pending).
  static let lines: [(text: String, ifIdle: Bool, ifPending: Bool)] = [
    ("123.45*6.7=", false, true),
    ("123.45*6.7", false, true),
    ("12 + 3 =", false, true),
    ("12=", false, false),
    ("=", false, false),
    ("12", false, false),
    ("1.2.3", true, true),
    ("1++2", true, true),
    ("1+2+3", true, true),
    ("1+-", false, false),
    ("1+2=3", true, true),
    ("1=+", false, false),
    ("1c2", true, true),
    ("30513.12+59%=", false, true),
    ("5%2", true, true),
    ("12345678901234567", true, true),
    ("1234567890123456", false, false),
    ("1234567890+1234567=", false, true),
    ("12345678.12345678+", true, true),
    ("12345678%123456789=", true, true),
    ("12345678+123456789%=", false, true),
    ("1 sin", true, true),
    ("1+2 # a note", false, true),
    ("12345678 90123456 # 7", false, false),
    ("12345678 901234567", true, true),
  ]

  @Test(arguments: lines)
  func answerOfLinesWorkedOutByHand(_ line: (text: String, ifIdle: Bool, ifPending: Bool)) throws {
    let answer = try Self.readerAnswer(line.text)
    #expect(answer.ifIdle == line.ifIdle, "\(line.text)")
    #expect(answer.ifPending == line.ifPending, "\(line.text)")
  }

  /// Random lines of digits, points, operators, `=` and a few other keys: where the reader
  /// says `false`, the check itself says `false`.
  @Test func noLineTheCheckLooksAtIsSpared() throws {
    var random = SplitMix64(state: 0x11E5)
    let pieces = [
      "1", "2", "0", ".", "+", "-", "*", "/", "=", " ", "c", "%", "~", "<", "@", "12", "3.4",
      "1234567890", "12345678%", "\t", " # 12345678901234567",
    ]
    var spared = 0
    var looked = 0
    for _ in 0..<TestSize.count(short: 3_000, long: 200_000) {
      let text = (0..<random.below(14)).map { _ in pieces[random.below(pieces.count)] }.joined()
      let answer = try Self.readerAnswer(text)
      for (isPending, mayNeed) in [(false, answer.ifIdle), (true, answer.ifPending)] {
        let check = LineInterpreter.mayNeedNotes(
          answer.keys, isPending: isPending, startsOnAnUntouchedZero: false)
        if mayNeed {
          looked += 1
        } else {
          spared += 1
          #expect(!check, "\(text), pending: \(isPending)")
        }
      }
    }
    #expect(spared >= 500)
    #expect(looked >= 500)
  }
}
