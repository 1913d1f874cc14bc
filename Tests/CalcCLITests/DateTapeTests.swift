import CalcTestSupport
import CalculatorEngine
import Foundation
import Testing

@testable import CalcCLI
@testable import CalcCore

/// Date lines on the tape (SPEC v5 §13): `:edit` and its change report, `:vary`, `:find`,
/// `:exact`, `:save` and `:load`, the journal's records, `--trace`, the live row, Tab, and a
/// difference at narrow widths; in process.
@Suite struct DateTapeTests {
  static let today: [String: String?] = ["CALC_TODAY": "2026-12-01"]

  /// A plan: a start date, milestones from it, the span between two.
  static let plan = "2027-01-04\n$1 + 2w\n$1 + 1m\n$2 to $3\n"

  @Test func anEditReplaysTheLaterLinesAndListsEveryDateThatMoved() throws {
    try expectScript(
      ["--mode", "date", "-"], stdin: Self.plan + ":edit 1 2027-02-01\n:keys\n",
      stdout: "Monday, January 4, 2027\nMonday, January 18, 2027\nThursday, February 4, 2027\n"
        + "2 weeks, 3 days (17 days)\n"
        + "branch 2 (from branch 1): line 1 changed; 3 dates moved: 2027-01-04 → 2027-02-01 "
        + "(step 2), 2027-01-18 → 2027-02-15 (step 3), 2027-02-04 → 2027-03-01 (step 4); "
        + "1 other result changed\n2 weeks (14 days)\n"
        + "date\n2027-02-01\n$1 + 2w\n$1 + 1m\n$2 to $3\n")
  }

  /// A change that a later date line or formula would refuse leaves the session as it was: its
  /// lines, its position (the branch's end, not the changed line's start), its state and its
  /// display. (Found by calc-fuzz: the position had moved to the changed line's start.)
  @Test func aRefusedChangeLeavesTheSessionAsItWas() throws {
    let cases: [(lines: [String], change: String, message: String)] = [
      (
        ["date", "2027-01-04", "$1 + 2w"], ":edit 1 1:00",
        "cannot edit line 1: line 2 would then be rejected ($1 is a duration; a date is needed)"
      ),
      (
        ["sci", "1exp9999~", "1", "$1*.1=", "date", "$3+3"], ":edit 1 2",
        "cannot edit line 1: line 5 would then be rejected (a calculation with numbers alone: "
          + "date lines calculate with dates and durations (std or sci calculate numbers))"
      ),
      (
        ["5 ms", "fx", "mr+1"], ":delete 1",
        "cannot delete line 1: line 2 would then be rejected (mr: the memory is empty)"
      ),
    ]
    for (lines, change, message) in cases {
      var interpreter = LineInterpreter(context: .init(format: .posix), host: .init())
      for line in lines { try interpreter.run(line, output: OutputBuffer()) }
      let script = SessionScript.text(of: interpreter.session.history)
      let (state, display) = (interpreter.session.state, interpreter.display)
      #expect(throws: LineError.self, "\(change)") {
        try interpreter.run(change, output: OutputBuffer())
      }
      do {
        try interpreter.run(change, output: OutputBuffer())
      } catch {
        #expect(error.message == message)
      }
      #expect(SessionScript.text(of: interpreter.session.history) == script, "\(change)")
      #expect(interpreter.session.state == state, "\(change)")
      #expect(interpreter.display == display, "\(change)")
    }
  }

  /// `:tape csv` of a date, a duration, a difference and a conversion: each row its line as
  /// shown and its result in `--plain` form (ISO dates, a duration's 34 digits), quoted where the
  /// result holds a comma.
  @Test func tapeCSVOfDateLines() throws {
    try expectScript(
      ["--mode", "date", "--plain", "-"],
      stdin: "2027-01-04\n1:30+0:45:30\n2019-07-31 to 2019-12-30\n1:00/7\n$2 in h\n:tape csv\n",
      stdout: "2027-01-04\n2:15:30\n4 months, 4 weeks, 2 days (152 days)\n"
        + "0:08:34.28571428571428571428571428571429\n2.258333333333333333333333333333333\n"
        + "step,expression,result,note\n2,2027-01-04,2027-01-04,\n3,1:30 + 0:45:30,2:15:30,\n"
        + "4,2019-07-31 to 2019-12-30,\"4 months, 4 weeks, 2 days (152 days)\",\n"
        + "5,1:00 / 7,0:08:34.28571428571428571428571428571429,\n"
        + "6,$2 in h,2.258333333333333333333333333333333,\n")
  }

  /// `:copy` of a date, a duration and a difference puts the line's plain value on the
  /// clipboard (here the terminal's, through OSC 52) and says which.
  @Test func copyOfDateLines() throws {
    var interpreter = LineInterpreter(
      context: .init(format: .posix, outputIsTerminal: true), host: .init(clipboard: .terminal))
    try interpreter.run("date", output: OutputBuffer())
    var copied: [String] = []
    for line in ["2027-01-04", "1:00/7", "2019-07-31 to 2019-12-30", "8:30 in h"] {
      try interpreter.run(line, output: OutputBuffer())
      let output = OutputBuffer()
      try interpreter.run(":copy", output: output)
      copied.append(output.text)
    }
    func sent(_ text: String) -> String {
      "\u{1B}]52;c;\(Data(text.utf8).base64EncodedString())\u{07}"
        + "\(text) sent to the terminal's clipboard\n"
    }
    #expect(
      copied == [
        sent("2027-01-04"), sent("0:08:34.28571428571428571428571428571429"),
        sent("4 months, 4 weeks, 2 days (152 days)"), sent("8.5"),
      ])
  }

  @Test func varyTabulatesStartDates() throws {
    let run = try InProcess.run(
      ["--mode", "date", "-"], stdin: Data((Self.plan + ":vary 1 2027-01-04 | 2027-02-01\n").utf8),
      environment: posixLocale)
    #expect(run.status == 0)
    #expect(run.stdout.contains("Monday, March 1, 2027"))
    #expect(run.stdout.contains("2 weeks, 3 days (17 days)"))
  }

  @Test func findAndExact() throws {
    let found = try InProcess.run(
      ["--mode", "date", "-"], stdin: Data((Self.plan + ":find 2027-01-18\n").utf8),
      environment: posixLocale)
    // Written as `:lines` writes it: no `date` where date mode is in force.
    #expect(found.stdout.hasSuffix("1     2     3  $1 + 2w  Monday, January 18, 2027\n"))
    try expectScript(
      ["--mode", "date", "-"], stdin: "1:00/7\n:exact\n8:30 in h\n:exact\n:exact 1\n",
      stdout: "0:08:34.286\n3600/7 s = 514.(285714) s\n8.5\n17/2 = 8.5\n3600/7 s = 514.(285714) s\n"
    )
  }

  /// `:save` writes format 4 with `today` as its date; `:load` gives the same session.
  @Test func saveAndLoadKeepTheDates() throws {
    try withTemporaryDirectory { directory in
      try expectScript(
        ["-"],
        stdin: "date\ntoday\n$1 + 2w  # milestone\n8:30 in h\nms\nstd\n$3+1=\n:save p.calc\n",
        environment: Self.today, directory: directory,
        stdout: "0\nTuesday, December 1, 2026\nTuesday, December 15, 2026\n8.5\n8.5\n0\n9.5\n"
          + "saved 10 keys at step 10 to p.calc\n")
      let saved = try String(
        contentsOf: directory.appendingPathComponent("p.calc"), encoding: .utf8)
      #expect(
        saved == "# calc session, format 4: 1 branch, at step 10 of 10 on branch 1\n"
          + "date\n2026-12-01\n$1 + 2w  # milestone\n8:30 in h\nms\nstd\n$3+1=\n:goto 10\n")
      try expectScript(
        ["-"], stdin: ":load p.calc\n$3\n:lines\n", environment: ["CALC_TODAY": "2030-01-01"],
        directory: directory,
        stdout: "9.5\n8.5\n"
          + "  line  step  keys        display                     note\n"
          + "     0     1  date        0\n"
          + "     1     2  2026-12-01  Tuesday, December 1, 2026\n"
          + "     2     3  $1 + 2w     Tuesday, December 15, 2026  milestone\n"
          + "     3     4  8:30 in h   8.5\n"
          + "     4     5  ms          8.5\n"
          + "     5     6  std         0\n"
          + "     6     7  $3+1=       9.5\n"
          + "▶    7    11  $3          8.5\n")
    }
  }

  /// A hand-written file whose date line says `today` is refused by `:load`, which has no date
  /// for it (a file calc writes holds the date instead); run as a script, it has the clock's.
  @Test func loadRefusesTodayInAHandWrittenFile() throws {
    try withTemporaryDirectory { directory in
      try "date\ntoday\n".write(
        to: directory.appendingPathComponent("hw.calc"), atomically: false, encoding: .utf8)
      try expectScript(
        ["-"], stdin: ":load hw.calc\n", directory: directory, stdout: "",
        stderr: "<stdin>:1:7: cannot load 'hw.calc': hw.calc:2:1: today: no date is known here "
          + "(write the date, such as 2026-12-01)\n", status: 65)
      try expectScript(
        ["hw.calc"], environment: Self.today, directory: directory,
        stdout: "0\nTuesday, December 1, 2026\n")
    }
  }

  /// The journal records a date line, and an `:edit` or `:insert` of one, with `today` replaced
  /// by its date, and a replay of the records (on any day) gives the same session.
  @Test func theJournalRecordsTheDate() throws {
    var context = LineInterpreter.Context(format: .posix)
    context.startMode = .date
    var interpreter = LineInterpreter(
      context: context, host: LineInterpreter.Host(files: .system, today: { "2026-12-01" }))
    _ = interpreter.enterStartMode()
    var records: [String] = []
    for line in [
      "today + 90d", "  $1 to today  # span", "8:30 in h", "ms", "date 1:30*2",
      ":edit 1 today + 1d", ":insert 1 today",
    ] {
      let result = try interpreter.run(line, output: OutputBuffer())
      let effect = try #require(result.effect)
      SessionScript.forEachRecordLine(
        of: effect.command, change: effect.change, leaving: interpreter.session
      ) { records.append($0) }
    }
    #expect(
      records == [
        "date 2026-12-01 + 90d", "date $1 to 2026-12-01  # span", "date 8:30 in h", "ms",
        "date 1:30*2",
        // A rewrite too is recorded with the date `today` stood for.
        ":edit 1 date 2026-12-01 + 1d", ":insert 1 date 2026-12-01",
      ])
    var replay = SessionScript.Replay()
    for line in ["date"] + records { try replay.perform(line) }
    #expect(replay.session.state == interpreter.session.state)
    #expect(
      SessionScript.text(of: replay.session.history)
        == SessionScript.text(of: interpreter.session.history))
  }

  /// `--resume` reads a journal of format 4 with date lines, and keys run after it in the mode
  /// the session left.
  @Test func resumeReadsDateLines() throws {
    try withTemporaryDirectory { directory in
      let folder = directory.appendingPathComponent(".local/state/calc").path
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      try (Journal.header + "\ndate\ndate 2026-12-01\ndate $1 + 90d  # due\n8:30 in h\nms\n")
        .write(
          toFile: folder + "/20260101T000000.000000Z-1.calc", atomically: false,
          encoding: .utf8)
      let environment: [String: String?] = ["HOME": directory.path, "XDG_STATE_HOME": nil]
      try expectScript(
        ["--resume", "-"], stdin: ":keys\n$1 to $2\n", environment: environment,
        directory: directory,
        stdout: "date\n2026-12-01\n$1 + 90d\n8:30 in h\nms\n3 months (90 days)\n")
    }
  }

  /// `--trace`: one row per date line, its normalised text as the key.
  @Test func traceIsOneRowPerDateLine() throws {
    try expectScript(
      ["--trace", "--mode", "date", "-k", "today+1d"], environment: Self.today,
      stdout: "2026-12-01 + 1d\tWednesday, December 2, 2026\t2026-12-01 + 1d\n")
  }

  /// `:why L` of a date line: one row, the line normalised, its display and expression line.
  @Test func whyOfADateLine() throws {
    try expectScript(
      ["--mode", "date", "-"], stdin: "2027-01-04\n$1+2w\n:why 2\n",
      stdout: "Monday, January 4, 2027\nMonday, January 18, 2027\nline 2: $1+2w\n"
        + "  $1 + 2w Monday, January 18, 2027  $1 + 2w\n")
  }

  /// The live row shows nothing until the line parses, then what Enter would give.
  @Test func theLiveRow() throws {
    var interpreter = LineInterpreter(
      context: .init(format: DisplayFormat(localeIdentifier: "en_US")),
      host: LineInterpreter.Host(files: .system, today: { "2026-12-01" }))
    try interpreter.run("date", output: OutputBuffer())
    #expect(interpreter.preview(of: Array("2026-12-".utf8)) == nil)
    #expect(interpreter.preview(of: Array("2026-02-30".utf8)) == nil)
    #expect(
      interpreter.preview(of: Array("today + 90d".utf8))
        == .result(expression: "2026-12-01 + 90d", display: "Monday, March 1, 2027"))
    // At narrow widths a difference drops its `(N days)`.
    let span = try #require(interpreter.preview(of: Array("2019-01-01 to 2027-03-16".utf8)))
    #expect(span.row(width: 40) == "…-16   8 years, 2 months, 2 weeks, 1 day")
    #expect(span.row(width: 30) == "…ars, 2 months, 2 weeks, 1 day")
    // The preview changes nothing.
    #expect(interpreter.session.history.count == 1)
  }

  @Test func tabCompletesDateWords() {
    #expect(
      LineInterpreter.keyWordCompletions(of: "2026-12-01 t", mode: .date).contains("2026-12-01 to"))
    #expect(
      LineInterpreter.keyWordCompletions(of: "2026-12-01 to tod", mode: .date)
        == ["2026-12-01 to today"])
    #expect(LineInterpreter.keyWordCompletions(of: "8:30 i", mode: .date).contains("8:30 in h"))
  }

  /// At narrow widths a difference drops its `(N days)`, then wraps after a comma.
  @Test func aDifferenceAtNarrowWidths() throws {
    var interpreter = LineInterpreter(context: .init(format: .posix))
    try interpreter.run("date 2026-01-01 to 2027-03-16", output: OutputBuffer())
    for (columns, shown) in [
      (80, "1 year, 2 months, 2 weeks, 1 day (439 days)\n"),
      (40, "1 year, 2 months, 2 weeks, 1 day\n"),
      (20, "1 year, 2 months,\n2 weeks, 1 day\n"),
    ] {
      let output = OutputBuffer()
      output.columns = columns
      _ = interpreter.appendDisplay(to: output)
      #expect(String(decoding: output.bytes, as: UTF8.self) == shown, "\(columns)")
    }
  }

  /// For random sessions that mix date lines with the other modes' lines, edits and jumps:
  /// save then load is identity, and the state after each line equals a replay of the lines up
  /// to it.
  @Test func randomDateSessionsRoundTripAndReplay() throws {
    var random = SplitMix64(state: 0xDA_7E)
    let lines = [
      "date", "2026-12-01", "today + 90d", "$1 + 2w", "$1 to $2", "$2 - 1m 1d", "1:30+0:45",
      "$1 * 2", "8:30 in h", "ms", "m+", "mr", "1:00/7", "9999-12-31 + 1d", "$3 in min",
      "date 2026-1-31 + 1m", "std", "12+3=", "$2+1=", "sci", "2^10=", "fx", "2pi", "mc",
      "2024-02-29 to 2025-02-28",
    ]
    var withDates = 0
    for _ in 0..<TestSize.count(short: 25, long: 600) {
      var interpreter = LineInterpreter(
        context: .init(format: .posix),
        host: LineInterpreter.Host(files: .system, today: { "2026-12-01" }))
      // Most sessions start in date mode.
      if random.chance(80) { _ = try? interpreter.run("date", output: OutputBuffer()) }
      for _ in 0..<random.int(1...14) {
        var line = lines[random.below(lines.count)]
        if random.chance(10), interpreter.session.history.position > 2 {
          line = ":edit 1 2027-01-0\(random.int(1...9))"
        } else if random.chance(8), interpreter.session.history.position > 0 {
          line = ":goto \(random.int(0...interpreter.session.history.position))"
        }
        _ = try? interpreter.run(line, output: OutputBuffer())
      }
      let history = interpreter.session.history
      if history.lines().contains(where: { $0.keys.contains(.dateLine) }) { withDates += 1 }
      let text = SessionScript.text(of: history)
      var replay = SessionScript.Replay()
      for line in text.split(separator: "\n") { try replay.perform(String(line)) }
      #expect(replay.session.state == interpreter.session.state, "\(text)")
      #expect(SessionScript.text(of: replay.session.history) == text)
      // The state after each line of the current branch is a replay of the lines up to it.
      var tracker = KeyText.ModeTracker()
      var prefix = SessionScript.Replay()
      for line in history.lines() {
        try prefix.perform(tracker.text(of: line.keys))
        #expect(prefix.session.state == history.state(at: line.end), "\(text) at \(line.end)")
      }
    }
    // The sweep reaches sessions with date lines.
    #expect(withDates >= 10, "\(withDates)")
  }
}
