import CalcTestSupport
import CalculatorEngine
import Testing

@testable import CalcCore

/// A script's common key line in Standard mode — two typed numbers, `+ - * /`, `%` or not, and
/// `=` — is applied from its bytes through ``Session/perform(commonKeyLine:)`` in one change of
/// the state, with no keys made (issue 51). It must do exactly what the general reader and door
/// do with the same line: the same display, error, notes and exit facts, and the same session
/// afterwards, from whatever state the line before left.
@Suite struct CommonKeyLineTests {
  /// Standard-mode lines run one after the other: common ones of every form (errors, leading
  /// zeros, a point first or last, 15 digits), and lines that leave every kind of state before
  /// one — an operation pending, a number being typed, a boxed expression line, an error, the
  /// memory, a `$N`, moves, another mode — and lines the door declines.
  static let lines = [
    "123.45*6.7=", "30513.12+59%=", "852.97/19=", "5/0=", "12+3=", "0/0=", "7-9=", "12+",
    "3=", "007.50*2=", "12", ".5+.25=", "1.+2.=", "9@", "2*3=", "13=", "4-", "2*3=",
    "123456789012345*987654321098765=", "1234567890123456*2=", "1.2.3+4=", "5*-2=", "5 * 2 =",
    "ms", "6/4=", "mr", "1+1= # a note", "$1+2=", "2+$3=", "1+2", "=", "8/3=", "2*3%=",
    "50-10%=", "0.1+0.2=", ":undo", "4+4=", ":goto 3", "5+5=", "sci", "2+3=", "std", "2+3=",
    "c", "99999999999*99999999999=", "2.5/0%=", "%=", "1+2==", "0*0=", "0.=", "3-3=",
  ]

  @Test func scriptPathAgreesWithTheGeneralPath() {
    CommonDateLineTests.agree(Self.lines)
  }

  /// Random lines of the forms above; 400 of them cross snapshot intervals of the branch
  /// (384 keys), where the door declines a line that one falls due within.
  @Test func randomLinesAgree() {
    var random = SplitMix64(state: 0xC0FF_EE51)
    let count = TestSize.count(short: 400, long: 20_000)
    var lines: [String] = []
    for number in 1...count { lines.append(Self.randomLine(&random, before: number)) }
    CommonDateLineTests.agree(lines)
  }

  /// The common lines take the door from any state without an operation pending, and a line
  /// it declines changes nothing.
  @Test func commonLinesTakeTheDoor() throws {
    var session = Session()
    for text in ["123.45*6.7=", "30513.12+59%=", "5/0=", "1.+.5=", "0/0=", "9*9="] {
      #expect(Self.perform(text, on: &session) != nil, "\(text)")
    }
    _ = try session.perform(.keys([.digit(.one), .op(.plus)]))
    let before = SessionScript.text(of: session.history)
    let position = session.history.position
    for text in [
      "2+3=", "2+3", "2+3==", "1234567890123456+1=", "1.2.3+1=", "2+3= ", " 2+3=", "+2=", "2+3%%=",
      "2+3=#", "",
    ] {
      #expect(Self.perform(text, on: &session) == nil, "\(text)")
      #expect(SessionScript.text(of: session.history) == before, "\(text)")
      #expect(session.history.position == position, "\(text)")
    }
    // Not at the end of the branch: the general door starts a branch.
    _ = try session.perform(.keys([.equal]))
    _ = try session.perform(.undo(1))
    #expect(Self.perform("2+3=", on: &session) == nil)
    // Another mode's line.
    var scientific = Session()
    _ = try scientific.perform(.keys([.mode(.scientific)]))
    #expect(Self.perform("2+3=", on: &scientific) == nil)
  }

  /// The reader's keys and codes are the general reader's, for any text of the line's bytes.
  @Test func readerAgreesWithTheKeyTextReader() throws {
    var random = SplitMix64(state: 0x0C0D_E5)
    let alphabet = Array("0123456789.+-*/%= ".utf8)
    var accepted = 0
    for _ in 0..<TestSize.count(short: 20_000, long: 400_000) {
      var bytes: [UInt8] = []
      for _ in 0..<random.int(1...36) {
        // Mostly digits, so that lines of the common form come up often.
        bytes.append(
          random.chance(70)
            ? UInt8(ascii: "0") + UInt8(random.below(10)) : alphabet[random.below(alphabet.count)])
      }
      if random.chance(50) { bytes.append(UInt8(ascii: "=")) }
      let read: (CommonKeyLine, [UInt8])? = bytes.withUnsafeBufferPointer { buffer in
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: buffer.count) { codes in
          KeyText.commonKeyLine(in: buffer, codes: codes.baseAddress!).map {
            ($0, Array(codes.prefix($0.count)))
          }
        }
      }
      guard let (line, codes) = read else { continue }
      accepted += 1
      let text = String(decoding: bytes, as: UTF8.self)
      let keys = try KeyText.keys(in: text).keys
      #expect(keys.map(\.code) == codes, "\(text)")
      #expect(line.count == bytes.count, "\(text)")
      // Typed one by one, the numbers are the reader's entries.
      let op = keys.firstIndex(where: \.isBinaryOperator)!
      let end = keys[(op + 1)...].firstIndex(where: { !$0.startsANumber })!
      #expect(Self.typed(keys[..<op]) == line.left, "\(text)")
      #expect(Self.typed(keys[(op + 1)..<end]) == line.right, "\(text)")
    }
    #expect(accepted > 100)
  }

  /// The entry that typing `keys`, digits and points, makes.
  static func typed(_ keys: ArraySlice<Key>) -> Entry {
    var entry = Entry.zero
    for key in keys {
      switch key {
      case .digit(let digit): entry = entry.appending(digit)
      case .dot: entry = entry.appendingPoint()
      default: Issue.record("\(key) is no digit")
      }
    }
    return entry
  }

  /// ``Session/perform(commonKeyLine:)`` of `text`'s bytes.
  static func perform(_ text: String, on session: inout Session) -> Session.Change? {
    var text = text
    return text.withUTF8 { session.perform(commonKeyLine: $0) }
  }

  /// A random line: mostly common ones, of every operator and number form, and lines that
  /// leave an operation pending, a number typed, an error, a `$N`, a memory key, a note or a
  /// move behind them.
  static func randomLine(_ random: inout SplitMix64, before number: Int) -> String {
    func typedNumber() -> String {
      var text = ""
      let digits = random.chance(5) ? random.int(14...16) : random.int(0...6)
      let point = random.chance(60) ? random.int(0...digits) : -1
      for index in 0...digits {
        if index == point { text += "." }
        if index < digits { text += String(random.below(random.chance(20) ? 2 : 10)) }
      }
      return text.isEmpty ? "0" : text
    }
    let ops = ["+", "-", "*", "/"]
    func common() -> String {
      typedNumber() + ops[random.below(4)] + typedNumber() + (random.chance(20) ? "%" : "") + "="
    }
    switch random.below(16) {
    case 0: return typedNumber() + ops[random.below(4)]
    case 1: return typedNumber()
    case 2: return "\(typedNumber())/0="
    case 3: return "$\(random.int(0...number))+\(typedNumber())="
    case 4:
      return ["ms", "mr", "m+", "9@", "13=", "c", "ce", "~", "<", "=", "%", "+1=", "*2="][
        random.below(13)]
    case 5: return common() + " # \(number)"
    case 6: return [":undo", ":redo", "sci", "std", "prog", "std"][random.below(6)]
    default: return common()
    }
  }
}
