import CalcTestSupport
import Foundation
import Testing

@testable import CalcCLI
@testable import CalcCore
@testable import CalculatorEngine

/// Formula lines saved and read back (SPEC v5 §12): `:lines`, `:keys`, `:save` and the journal
/// write the formula, canonical (`ans` as its `$N`), after `fx` where another mode is in force;
/// a session holding formula lines is format 4; it round-trips through `:save`/`:load` and
/// `--resume`.
@Suite struct FormulaSavingTests {
  /// A formula session: the mode line, formulas with `ans`, `$N`, a trailing `m+`, a note, an
  /// angle key alone, and a formula after a line of Scientific keys.
  static let session =
    "2+3\nans*2\n$1^2 m+  # squared\nrad\nsin(pi/2)\nsci 1+2*3=\nfx mr+1\n"

  /// What the session's lines are written as: `ans` as `$2`'s predecessor, `fx` only after
  /// the Scientific line.
  static let written = "fx\n2+3\n$1*2\n$1^2 m+  # squared\nrad\nsin(pi/2)\nsci1+2*3=\nfx mr+1\n"

  @Test func saveWritesFormatFourAndLoadReadsItBack() throws {
    try withTemporaryDirectory { directory in
      let run = try InProcess.run(
        ["--mode", "formula", "-"], stdin: Data((Self.session + ":save f.calc\n").utf8),
        environment: posixLocale, directory: directory)
      #expect(run.stdout == "5\n10\n25\n25\n1\n7\n26\nsaved 15 keys at step 15 to f.calc\n")
      #expect(run.stderr == "")
      let saved = try String(
        contentsOf: directory.appendingPathComponent("f.calc"), encoding: .utf8)
      #expect(
        saved
          == "# calc session, format 4: 1 branch, at step 15 of 15 on branch 1\n" + Self.written
          + ":goto 15\n")
      // Loaded, the same lines, the same display and memory.
      try expectScript(
        ["-"], stdin: ":load f.calc\n:keys\nmr\n", directory: directory,
        stdout: "26\n" + Self.written.replacingOccurrences(of: "  # squared", with: "") + "25\n")
      // Run as a script, the file gives the same results.
      try expectScript(
        ["f.calc"], directory: directory, stdout: "0\n5\n10\n25\n25\n1\n7\n26\n26\n")
    }
  }

  /// `:lines` shows the canonical formula, `fx` only where another mode is in force.
  @Test func linesShowTheCanonicalFormula() throws {
    let run = try InProcess.run(
      ["--mode", "formula", "-"], stdin: Data((Self.session + ":keys\n").utf8),
      environment: posixLocale)
    #expect(run.stdout.hasSuffix(Self.written.replacingOccurrences(of: "  # squared", with: "")))
  }

  /// A session of keys alone is still format 3, which older calcs read.
  @Test func keysAloneStayFormatThree() {
    var session = Session()
    _ = try? session.perform(.keys([.digit(.one), .op(.plus), .digit(.two), .equal]))
    #expect(SessionScript.text(of: session.history).hasPrefix("# calc session, format 3: "))
  }

  /// A formula line inserted after a mode line keeps its reading: the writer puts `fx` before
  /// it (SPEC §12: "an inserted mode line never changes how a formula is read").
  @Test func anInsertedModeLineLeavesTheFormula() throws {
    try withTemporaryDirectory { directory in
      try expectScript(
        ["--mode", "formula", "-"],
        stdin: "5*-2\n2^-1\n:insert 2 sci\n:keys\n:save g.calc\n", directory: directory,
        stdout: "-10\n0.5\nbranch 2 (from branch 1): line 2 inserted; no results changed\n0.5\n"
          + "fx\n5*-2\nsci\nfx 2^-1\nsaved 5 keys on 2 branches, at step 4 of branch 2, to g.calc\n"
      )
      try expectScript(
        ["-"], stdin: ":load g.calc\n:keys\n", directory: directory,
        stdout: "0.5\nfx\n5*-2\nsci\nfx 2^-1\n")
    }
  }

  /// The journal records a formula line as the history does: canonical, `ans` as its `$N`.
  @Test func theJournalRecordsTheCanonicalFormula() throws {
    var context = LineInterpreter.Context(format: .posix)
    context.startMode = .formula
    var interpreter = LineInterpreter(context: context, host: .withFiles)
    _ = interpreter.enterStartMode()
    var records: [String] = []
    for line in ["2+3", "  ans * 2  # doubled", "sin(30) ms", "fx 1+1"] {
      let result = try interpreter.run(line, output: OutputBuffer())
      let effect = try #require(result.effect)
      SessionScript.forEachRecordLine(
        of: effect.command, change: effect.change, leaving: interpreter.session
      ) { records.append($0) }
    }
    #expect(records == ["fx 2+3", "fx $1 * 2  # doubled", "fx sin(30) ms", "fx 1+1"])
    // Replayed, the records give the same session.
    var replay = SessionScript.Replay()
    for line in ["fx"] + records { try replay.perform(line) }
    #expect(replay.session.state == interpreter.session.state)
    #expect(
      SessionScript.text(of: replay.session.history)
        == SessionScript.text(of: interpreter.session.history))
  }

  /// `--resume` reads a journal of format 4 with formula lines, and `-e` runs after it, in
  /// formula mode, on a new line (SPEC §12).
  @Test func resumeReadsFormulaLines() throws {
    try withTemporaryDirectory { directory in
      let folder = directory.appendingPathComponent(".local/state/calc").path
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      try (Journal.header + "\nfx\nfx 2+3\nfx $1*2 m+\nsci\n12+3=\n")
        .write(
          toFile: folder + "/20260101T000000.000000Z-1.calc", atomically: false,
          encoding: .utf8)
      let environment: [String: String?] = ["HOME": directory.path, "XDG_STATE_HOME": nil]
      try expectScript(
        ["--resume", "-"], stdin: ":keys\nmr\n", environment: environment, directory: directory,
        stdout: "fx\n2+3\n$1*2 m+\nsci\n12+3=\n10\n")
      try expectScript(
        ["--resume", "-e", "mr/4"], environment: environment, directory: directory,
        stdout: "2.5\n")
    }
  }

  /// Save then load is identity for random formula sessions: the same script, the same state.
  @Test func randomFormulaSessionsRoundTrip() throws {
    var random = SplitMix64(state: 0xF0_12)
    let lines = [
      "1+2*3", "ans/4", "$1-ans", "2^-1", "sin(30)", "c", "mr", "5 ms", "3*4.5 m+", "rad",
      "deg", "sci", "fx", "std", "12+", "fx 2pi", "sqrt(16)+5!", "50+20%", "1/0",
    ]
    for _ in 0..<TestSize.count(short: 20, long: 500) {
      var interpreter = LineInterpreter(context: .init(format: .posix), host: .withFiles)
      for _ in 0..<random.int(1...12) {
        _ = try? interpreter.run(lines[random.below(lines.count)], output: OutputBuffer())
      }
      let text = SessionScript.text(of: interpreter.session.history)
      var replay = SessionScript.Replay()
      for line in text.split(separator: "\n") { try replay.perform(String(line)) }
      #expect(replay.session.state == interpreter.session.state, "\(text)")
      #expect(SessionScript.text(of: replay.session.history) == text)
    }
  }

  /// `:edit L FORMULA` replays the later lines, compiling their formulas again; `$N` in a
  /// formula follows its line when lines move; `:vary` tries formulas (SPEC §11, §12).
  @Test func editInsertDeleteAndVaryCompileTheFormulasAgain() throws {
    try expectScript(
      ["--mode", "formula", "-"],
      stdin: "2+3\nans*2\n$2+1\n:edit 1 10\n:keys\n",
      stdout: "5\n10\n11\nbranch 2 (from branch 1): line 1 changed; 3 results changed: "
        + "5 → 10 (step 2), 10 → 20 (step 3), 11 → 21 (step 4)\n21\nfx\n10\n$1*2\n$2+1\n")
    // An inserted line moves the references after it.
    try expectScript(
      ["--mode", "formula", "-"], stdin: "2+3\n$1*2\n:insert 1 7\n:keys\n",
      stdout: "5\n10\nbranch 2 (from branch 1): line 1 inserted; no results changed\n10\n"
        + "fx\n7\n2+3\n$2*2\n")
    // A deleted line that a formula refers to is refused, naming the formula's line.
    let refused = try InProcess.run(
      ["--mode", "formula", "-"], stdin: Data("2+3\n$1*2\n:delete 1\n:keys\n".utf8),
      environment: posixLocale)
    #expect(refused.stdout == "5\n10\n")
    #expect(refused.stderr.contains("line 2 refers to it ($1)"))
    #expect(refused.status == 65)
    // `:vary L F | F …`: a what-if table over formulas.
    let varied = try InProcess.run(
      ["--mode", "formula", "-"], stdin: Data("2+3\n$1*2\n:vary 1 1 | 2^-1 | sin(30)\n".utf8),
      environment: posixLocale)
    #expect(varied.status == 0)
    #expect(varied.stdout.contains("2^-1"))
    #expect(varied.stdout.contains("sin(30)"))
  }
}
