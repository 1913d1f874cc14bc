import CalcTestSupport
import CalculatorEngine
import Testing

@testable import CalcCore

/// A script's common date line — one that starts with a digit, `$` or `(` and has no note — is
/// calculated in one pass and applied through ``Session/perform(commonDateLine:)``, with no
/// keys made (issue 51). It must do exactly what the general reader and door do with the same
/// line: the same display, error, notes and exit facts, and the same session afterwards.
@Suite struct CommonDateLineTests {
  /// Date-mode lines run one after the other: common ones of every form, `$N` of every kind of
  /// value (a difference's declines), lines that one pass declines or that are rejected, notes,
  /// moves and other modes' lines in between.
  static let lines = [
    "date", "2024-03-15 to 2025-01-01", "2024-02-29 + 1y", "8603-09-14 + 552y 3m 2w 1d",
    "2165-08-15", "65:55:08 in min", "1:30+0:45", "(1:30+0:45)*3", "9999:59:59.999/7",
    "$3 to $5", "$4 + 10d", "$8*2", "$2 in h", "$7 / $8", "2024-01-01 to today",
    "1601-01-01 - 1d", "2024-13-01", "$99", "$0", "1:30 +", "2024-01-01   ", "2024-01-01\t",
    "2024-01-01 # new year", "$23 to 2024-12-25", "5 ms", "12", "$5", "1:00:00.5*3 in s",
    ":undo", "2024-06-01 to 2024-07-01", ":goto 4", "$3 - 2w", "std", "12+3=", "date",
    "$34 in d", "$34 + 0:30", "2024-01-01 to $4", "mr", "$1 to $1", "9990-12-31 + 999y",
    "0:00/0", "1:30 in fortnights", "$2 to $3 to $4", "2024-02-30", "(1:30+", "((1:00))*2",
    "(2024-01-01 to 2024-02-01) in d", "($3 + 1d) to $5", "(mr)", "(1:00)*2 # a note",
  ]

  @Test func scriptPathAgreesWithTheGeneralPath() {
    Self.agree(Self.lines)
  }

  @Test func randomLinesAgree() {
    var random = SplitMix64(state: 0x5EED_DA7E)
    let count = TestSize.count(short: 400, long: 20_000)
    var lines = ["date"]
    for number in 2...count { lines.append(Self.randomLine(&random, before: number)) }
    Self.agree(lines)
  }

  /// The common lines take the one-pass door, and a line it declines changes nothing there.
  @Test func commonLinesTakeTheOnePassDoor() throws {
    var session = Session()
    _ = try session.perform(.keys([.mode(.date)]))
    for text in [
      "2024-03-15 to 2025-01-01", "2024-02-29 + 1y", "1:30+0:45", "$2 + 10d", "$3*2",
      "(1:30+0:45)*3",
    ] {
      #expect(session.perform(commonDateLine: text) != nil, "\(text)")
    }
    let before = SessionScript.text(of: session.history)
    let position = session.history.position
    for text in ["2024-01-01 to today", "$1 in h", "$99", "2024-13-01", "1:30 +", "mr"] {
      #expect(session.perform(commonDateLine: text) == nil, "\(text)")
      #expect(SessionScript.text(of: session.history) == before, "\(text)")
      #expect(session.history.position == position, "\(text)")
    }
    #expect(Self.commonText("2024-01-01  \t")?.text == "2024-01-01")
    #expect(Self.commonText("2024-01-01  \t")?.mayReferToLines == false)
    #expect(Self.commonText("$1 + 1d")?.text == "$1 + 1d")
    #expect(Self.commonText("2024-01-01 to $1")?.mayReferToLines == true)
    #expect(Self.commonText("2024-01-01 # a note") == nil)
    #expect(Self.commonText(" 2024-01-01") == nil)
    #expect(Self.commonText("ms") == nil)
    #expect(Self.commonText("(1:30+0:45)*3")?.text == "(1:30+0:45)*3")
    #expect(Self.commonText("(1:30+0:45)*3")?.mayReferToLines == false)
    // Without `$` in the text, a `$N` is declined, changing nothing.
    #expect(session.perform(commonDateLine: "$2 + 1d", mayReferToLines: false) == nil)
    #expect(SessionScript.text(of: session.history) == before)
  }

  /// A line of a common shape, as a script reads it, takes the door without the look at the
  /// line; any other line there changes nothing, and the general door takes it as it did.
  @Test func shapedLinesTakeTheirDoorAsRead() throws {
    var session = Session()
    _ = try session.perform(.keys([.mode(.date)]))
    var scratch = DateScratch()
    func shaped(_ text: String) -> Session.Change? {
      var text = text
      return text.withUTF8 { session.perform(shapedDateLine: $0, reusing: &scratch) }
    }
    for text in ["2024-03-15 to 2025-01-01", "2024-02-29 + 1y", "1:30+0:45", "$2 + 10d", "$3*2"] {
      #expect(shaped(text) != nil, "\(text)")
    }
    let before = SessionScript.text(of: session.history)
    for text in [
      "2024-01-01 # a note", "2024-01-01  ", "1:30+0:45\t", "(1:30+0:45)*3 # x", "$2 + 10d ",
      "2024-01-01 to today", "$1 in h", "1:30 +", "mr",
    ] {
      #expect(shaped(text) == nil, "\(text)")
      #expect(SessionScript.text(of: session.history) == before, "\(text)")
    }
  }

  /// ``KeyText/commonDateLine(in:)`` of `line`, its bytes as a string.
  static func commonText(_ line: String) -> (text: String, mayReferToLines: Bool)? {
    var line = line
    return line.withUTF8 {
      KeyText.commonDateLine(in: $0).map {
        (String(decoding: $0.bytes, as: UTF8.self), $0.mayReferToLines)
      }
    }
  }

  /// Runs `lines` through a script's path (``LineInterpreter/run(_:output:keys:)``, which keeps
  /// no effect and takes the one-pass door) and through the general one
  /// (``LineInterpreter/run(_:output:)-(String,_)``, which keeps effects and never does), and
  /// expects the same of every line and the same sessions at the end.
  static func agree(_ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    var script = LineInterpreter(context: .init(format: .posix))
    var general = LineInterpreter(context: .init(format: .posix))
    var memory = LineInterpreter.KeyMemory()
    for line in lines {
      let scriptOutput = OutputBuffer()
      var bytes = Array(line.utf8)
      let scriptResult: String = bytes.withUnsafeMutableBufferPointer { buffer in
        do throws(LineError) {
          _ = try script.run(UnsafeBufferPointer(buffer), output: scriptOutput, keys: &memory)
          let notes = script.notes.map { "\($0.column): \($0.message)" }
          return notes.joined(separator: "\n") + " shown \(script.showedAnError)"
        } catch {
          return "\(error.column): \(error.message)"
        }
      }
      let generalOutput = OutputBuffer()
      let generalResult: String
      do {
        let result = try general.run(line, output: generalOutput)
        let notes = result.notes.map { "\($0.column): \($0.message)" }
        generalResult = notes.joined(separator: "\n") + " shown \(result.showedAnError)"
      } catch {
        generalResult = "\(error.column): \(error.message)"
      }
      #expect(scriptOutput.text == generalOutput.text, "\(line)", sourceLocation: sourceLocation)
      #expect(scriptResult == generalResult, "\(line)", sourceLocation: sourceLocation)
      // The states themselves, and the expression lines they show.
      let (scriptState, generalState) = (script.session.state, general.session.state)
      #expect(scriptState == generalState, "\(line)", sourceLocation: sourceLocation)
      var (scriptLine, generalLine) = ([UInt8](), [UInt8]())
      script.format.appendExpression(scriptState, to: &scriptLine)
      general.format.appendExpression(generalState, to: &generalLine)
      #expect(scriptLine == generalLine, "\(line)", sourceLocation: sourceLocation)
    }
    #expect(
      SessionScript.text(of: script.session.history)
        == SessionScript.text(of: general.session.history), sourceLocation: sourceLocation)
    #expect(
      script.session.history.position == general.session.history.position,
      sourceLocation: sourceLocation)
    for command in [":lines", ":history"] {
      let (first, second) = (OutputBuffer(), OutputBuffer())
      _ = try? script.run(command, output: first)
      _ = try? general.run(command, output: second)
      #expect(first.text == second.text, "\(command)", sourceLocation: sourceLocation)
    }
  }

  /// A random date line of calc-bench's forms, `$N` of any earlier line included (of any
  /// kind: those of a difference or an error decline), now and then with trailing blanks or
  /// a note; `number` is the line's.
  static func randomLine(_ random: inout SplitMix64, before number: Int) -> String {
    func date() -> String {
      let year = random.int(1601...9999)
      let month = random.int(1...12)
      let day = random.int(1...28)
      return "\(year)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
    }
    func duration() -> String {
      let minutes = random.below(60)
      return "\(random.below(100)):\(minutes < 10 ? "0" : "")\(minutes)"
    }
    func reference() -> String { "$\(random.int(0...number))" }
    let units = ["h", "min", "s", "d", "w"]
    var line: String
    switch random.below(12) {
    case 0, 1: line = "\(date()) to \(date())"
    case 2, 3: line = "\(date()) \(random.below(2) == 0 ? "+" : "-") \(random.below(1_000))d"
    case 4: line = date()
    case 5: line = "\(duration())+\(duration())"
    case 6: line = "(\(duration())-\(duration()))*\(random.int(1...9))"
    case 7: line = "\(duration()) in \(units[random.below(units.count)])"
    case 8: line = "\(reference()) to \(reference())"
    case 9: line = "\(reference()) + \(random.below(1_000))d"
    case 10: line = "\(reference())*\(random.int(1...5))"
    default: line = "\(reference()) in \(units[random.below(units.count)])"
    }
    switch random.below(20) {
    case 0: line += "  "
    case 1: line += " # note \(number)"
    default: break
    }
    return line
  }
}
