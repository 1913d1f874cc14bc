import CalcTestSupport
import CalculatorEngine
import Testing

@testable import CalcCLI
@testable import CalcCore

/// SPEC §6's live display, in process: what `LineInterpreter.preview(of:)` says Enter would
/// give, and how its row is fitted to the terminal's width.
@Suite struct LivePreviewTests {
  /// An interpreter in en_US after `lines`.
  private func interpreter(after lines: [String]) throws -> LineInterpreter {
    var interpreter = LineInterpreter(
      context: .init(format: DisplayFormat(localeIdentifier: "en_US")), host: .withFiles)
    for line in lines { try interpreter.run(line, output: OutputBuffer()) }
    return interpreter
  }

  private func preview(_ line: String, after lines: [String] = []) throws -> LivePreview? {
    try interpreter(after: lines).preview(of: Array(line.utf8))
  }

  @Test(arguments: [
    // SPEC §6's example, and the states on the way.
    ("12+3=", [String](), LivePreview.result(expression: "12 + 3 =", display: "15")),
    ("12+3", [], .result(expression: "12 +", display: "3")),
    ("1234567", [], .result(expression: "", display: "1,234,567")),
    // An unfinished key is no error yet: the state before it.
    ("12+3=co", [], .result(expression: "12 + 3 =", display: "15")),
    ("1+m", [], .result(expression: "1 +", display: "1")),
    ("sci 8 yro", [], .result(expression: "", display: "8")),
    ("sci 2 cubeco", [], .result(expression: "cube(2)", display: "8")),
    ("hel", ["5"], .result(expression: "", display: "5")),
    // Errors as Enter gives them.
    ("12+x", [], .error("unknown key 'x' at column 4 (× is '*')")),
    ("(", [], .error("'(' is a key of Scientific mode (type sci first) at column 1")),
    ("1/0=", [], .result(expression: "1 ÷ 0 =", display: "Cannot divide by zero")),
    // Rule 18 at the line's start: a new number after `=` starts afresh.
    ("7", ["12+3="], .result(expression: "", display: "7")),
    ("*2=", ["12+3="], .result(expression: "15 × 2 =", display: "30")),
    // Moves and edits: the display they give.
    (":goto 2", ["12+3="], .result(expression: "", display: "12")),
    (":undo", ["12+3=", "*2="], .result(expression: "12 + 3 =", display: "15")),
    (":edit 1 2+3=", ["12+3=", "*2="], .result(expression: "5 × 2 =", display: "10")),
    (":goto 9", ["12+3="], .error("step 9 is out of range 0…5")),
    // `:edit L` alone opens line L at the REPL: the row shows that line, not an error.
    (":edit 1", ["12+3=", "*2="], .result(expression: "line 1: 12+3=", display: "15")),
    (":edit 2 ", ["12+3=", "*2="], .result(expression: "line 2: *2=", display: "30")),
    (":edit 3", ["12+3=", "*2="], .error("no line 3 (lines: 1…2)")),
    // Other commands, and names and arguments still being typed: what they do.
    (
      ":history", [],
      .summary(":history [K|N..M] — list this branch's steps: all, the last K, or N to M")
    ),
    (":goto", [], .summary(":goto N|+K|-K — move to step N, or K steps on/back")),
    (":got", [], .summary(":goto N|+K|-K — move to step N, or K steps on/back")),
    (":bra", [], .summary(":branches  :branch N")),
    (":frob", [], .error("unknown command ':frob' (try :help)")),
  ])
  func previewSaysWhatEnterWouldGive(line: String, before: [String], expected: LivePreview) throws {
    #expect(try preview(line, after: before) == expected)
  }

  @Test func blankLinesAndCommentsHaveNoPreview() throws {
    #expect(try preview("") == nil)
    #expect(try preview("   ") == nil)
    #expect(try preview("# a note") == nil)
  }

  @Test func nothingIsAppliedOrRecorded() throws {
    let before = try interpreter(after: ["12+3=", "*2="])
    for line in ["5+5=", ":goto 1", ":edit 1 9", ":reset", ":save x.calc", "m"] {
      _ = before.preview(of: Array(line.utf8))
    }
    let after = try interpreter(after: ["12+3=", "*2="])
    #expect(before.session.history.count == after.session.history.count)
    #expect(before.session.history.branchCount == 1)
    #expect(before.display == "30")
  }

  /// For random key lines (valid or not) after random lines, the preview is what running the
  /// line shows: the expression line and the display, or the error.
  @Test func thePreviewEqualsWhatEnterGives() throws {
    var random = SplitMix64(state: 0x11FE)
    let alphabet =
      Array("0123456789+-*/=.%~r@cemsqnl ()^!".map(String.init)) + [
        "sci ", "std ", "sin", "mr", "ms", "m+", "ce", "x", "sqr", "inv", "1/x",
      ]
    func randomLine() -> String {
      (0..<random.below(12)).map { _ in alphabet[random.below(alphabet.count)] }.joined()
    }
    for _ in 0..<TestSize.count(short: 300, long: 5_000) {
      var interpreter = LineInterpreter(
        context: .init(format: DisplayFormat(localeIdentifier: "en_US")), host: .withFiles)
      for _ in 0..<random.below(4) {
        _ = try? interpreter.run(randomLine(), output: OutputBuffer())
      }
      let line = randomLine()
      let preview = interpreter.preview(of: Array(line.utf8))
      var ran = interpreter
      do {
        try ran.run(line, output: OutputBuffer())
        let state = ran.session.state
        let format = interpreter.format
        if ScriptLineIsBlank(line) {
          #expect(preview == nil, "\(line)")
        } else {
          #expect(
            preview
              == .result(
                expression: format.expression(for: state), display: format.text(for: state)),
            "\(line)")
        }
      } catch {
        // A rejected line: its error, unless its end is an unfinished key, which is no error
        // yet: the preview is then that of the line before it.
        if isUnfinished(line) { continue }
        #expect(preview == .error(error.message), "\(line)")
      }
    }
  }

  /// The incremental preview (`PreviewCache`, a state kept every 8 keys) while random lines
  /// are typed piece by piece, backspaced and edited inside, after random lines: at every step
  /// it is the preview of the whole line, and with a width its row at that width is the row of
  /// the whole line's preview (15 sessions; 600 with `CALC_LONG_TESTS=1`).
  @Test func theIncrementalPreviewEqualsThePreview() throws {
    var random = SplitMix64(state: 0x1C4E)
    let alphabet =
      Array("0123456789+-*/=.%~@c()^!".map(String.init)) + [
        "1+", "1+", "1+", "2*", "2*", "sci ", "std ", "sin", "co", "mr", "ms", "m", "ce", "x",
        "(1+2)", "rad ",
        " ", "fe",
      ]
    let format = DisplayFormat(localeIdentifier: "en_US")
    var totalCuts = 0
    let sessions = TestSize.count(short: 15, long: 600)
    for _ in 0..<sessions {
      var interpreter = LineInterpreter(context: .init(format: format), host: .withFiles)
      // Half of the sessions start in Scientific mode, whose lines are cut for the row.
      if random.below(2) == 0 { try interpreter.run("sci", output: OutputBuffer()) }
      for _ in 0..<random.below(3) {
        let line = (0..<random.below(8)).map { _ in alphabet[random.below(alphabet.count)] }
        _ = try? interpreter.run(line.joined(), output: OutputBuffer())
      }
      var cuts = 0
      var whole = PreviewCache(interval: 8)
      var cut = PreviewCache(interval: 8)
      var line: [UInt8] = []
      for _ in 0..<150 {
        let piece = Array(alphabet[random.below(alphabet.count)].utf8)
        switch random.below(10) {
        case 0..<6:
          line += piece
        case 6..<8:
          line.removeLast(min(line.count, 1 + random.below(3)))
        case 8:
          line.insert(contentsOf: piece, at: random.below(line.count + 1))
        default:
          let start = random.below(line.count + 1)
          line.removeSubrange(start..<min(line.count, start + 1 + random.below(4)))
        }
        let expected = interpreter.preview(of: line)
        let text = String(decoding: line, as: UTF8.self)
        #expect(
          whole.preview(of: line, interpreter: interpreter, format: format) == expected, "\(text)")
        let width = 1 + random.below(30)
        if case .result(let expression, _) = expected, expression.count > width { cuts += 1 }
        #expect(
          cut.preview(of: line, interpreter: interpreter, format: format, width: width)?
            .row(width: width) == expected?.row(width: width), "\(text) at \(width)")
      }
      totalCuts += cuts
    }
    // Rows narrower than the expression line come up often enough to test the cut.
    #expect(totalCuts >= sessions)
  }

  private func ScriptLineIsBlank(_ line: String) -> Bool {
    (try? ScriptLine(line)) == .blank
  }

  /// Whether `line` ends with the start of a longer key spelling (`co`, `m`) or is the start of
  /// a bare command word.
  private func isUnfinished(_ line: String) -> Bool {
    let letters = line.reversed().prefix { $0.isLetter }
    let word = String(letters.reversed())
    return (0..<word.count).contains { start in
      KeyText.isUnfinishedSpelling(Array(word.dropFirst(start).utf8))
    } || ScriptLine.bareWords.contains { $0.hasPrefix(line.trimmingCharacters(in: .whitespaces)) }
  }

  // MARK: - Fitting the row

  @Test func theRowIsTheExpressionThreeSpacesAndTheDisplay() {
    #expect(
      LivePreview.result(expression: "12 + 3 =", display: "15").row(width: 79) == "12 + 3 =   15")
    #expect(LivePreview.result(expression: "", display: "15").row(width: 79) == "15")
  }

  @Test func theDisplayIsKeptWholeAndTheExpressionShortenedFromTheLeft() {
    let preview = LivePreview.result(
      expression: "1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 11 + 12 +", display: "78")
    #expect(preview.row(width: 39) == "… + 6 + 7 + 8 + 9 + 10 + 11 + 12 +   78")
    #expect(Terminal.width(of: preview.row(width: 39)) == 39)
    #expect(preview.row(width: 20) == "…10 + 11 + 12 +   78")
    // Even the display does not fit: it is shortened from the left too.
    let long = LivePreview.result(expression: "1 +", display: "1,234,567,890,123,456")
    #expect(long.row(width: 10) == "…0,123,456")
    #expect(
      LivePreview.error("'x' is not a key (column 4)").row(width: 20) == "error: 'x' is not a…")
  }

  @Test func widthCountsCharactersNotBytesOrMarks() {
    #expect(Terminal.width(of: "15 × 2 =") == 8)
    #expect(Terminal.width(of: "sin₀(30)") == 8)
    // ar_EG's numbers carry the Arabic letter mark, which takes no room.
    #expect(Terminal.width(of: "\u{061C}-١٢") == 3)
  }
}

/// Issue 45: the live row shows no error for an unfinished Programmer word (`5ro`, `qwo`,
/// `xo`), as for Scientific ones, whether the mode was entered on an earlier line or on this
/// one (SPEC §6).
@Suite struct UnfinishedProgrammerWordTests {
  static func preview(_ line: String, after lines: [String]) throws -> LivePreview? {
    let format = DisplayFormat(localeIdentifier: "en_US")
    var interpreter = LineInterpreter(context: .init(format: format), host: .withFiles)
    for line in lines { try interpreter.run(line, output: OutputBuffer()) }
    let preview = interpreter.preview(of: Array(line.utf8))
    // The REPL's incremental preview, keystroke by keystroke, says the same.
    var cache = PreviewCache()
    var typed: [UInt8] = []
    var last: LivePreview?
    for byte in line.utf8 {
      typed.append(byte)
      last = cache.preview(of: typed, interpreter: interpreter, format: format)
    }
    #expect(last == preview, "\(line) after \(lines)")
    return preview
  }

  @Test(arguments: [
    ("5ro", "5"), ("5 ro", "5"), ("qwo", "0"), ("5 qwo", "5"), ("5 xo", "5"), ("5 rs", "5"),
    ("5 rsh", "5"), ("5 rol", "10"), ("5 bi", "5"), ("5 na", "5"), ("5 dwo", "5"), ("5 by", "5"),
    ("5 he", "5"), ("5 o", "5"), ("5 an", "5"), ("5 no", "5"),
  ])
  func anUnfinishedWordIsNoError(line: String, display: String) throws {
    for (prefix, before) in [("", ["prog"]), ("prog ", [String]())] {
      let shown = try Self.preview(prefix + line, after: before)
      guard case .result(_, let shownDisplay)? = shown else {
        Issue.record("\(prefix)\(line): \(String(describing: shown))")
        continue
      }
      #expect(shownDisplay == display, "\(prefix)\(line)")
    }
  }

  /// A word that no key starts with is an error as soon as it is typed.
  @Test func aWordThatNoKeyStartsIsAnError() throws {
    let shown = try Self.preview("5 rz", after: ["prog"])
    guard case .error? = shown else {
      Issue.record("\(String(describing: shown))")
      return
    }
  }
}
