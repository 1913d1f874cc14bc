import CalcTestSupport
import CalculatorEngine
import Foundation
import Testing

@testable import CalcCLI
@testable import CalcCore

#if canImport(Glibc)
  import Glibc
#endif

/// One codec, one truth (SPEC §4 "Changing the past" and "Sessions are scripts", §6's journal):
/// every session that can be reached saves, loads and resumes as the same session, mode
/// included; an edit after which a later line would be rejected on replay is refused; format 3
/// is written, format 2 read, a newer format refused. The engine's half of the property (every
/// random session against `SessionModel`, saved and replayed after each edit) is
/// `SessionTests.agreesWithTheModel`.
@Suite struct SessionCodecTests {
  static let sinRefused = "line 2 would then be rejected ('sin' is a key of Scientific mode)"

  // MARK: - Edits that would skip keys are refused

  /// The `:delete` of issue 32's saved session that could not be loaded: refused — the lone
  /// `sci` is the mode line, line 0, which stays (SPEC §11) — and nothing is saved.
  @Test func deletingTheModeLineBeforeScientificKeysIsRefused() throws {
    try withTemporaryDirectory { directory in
      try expectScript(
        ["-"], stdin: "sci\n30sin\n:delete 0\n:save! m.calc\n", directory: directory,
        stdout: "0\n0.5\n",
        stderr:
          "<stdin>:3:9: cannot delete line 0: it is the mode line, which stays (lines: 1…1)\n",
        status: 65)
      #expect(
        !FileManager.default.fileExists(atPath: directory.appendingPathComponent("m.calc").path))
    }
  }

  /// Each refusal names the later line and changes nothing; the edits that leave every later
  /// line readable are done; what is saved then loads back, through `calc FILE` and `:load`.
  /// (`sci0`, not a lone `sci`, so that line 1 is a mode line that can change; the `std`
  /// inserted before it is a lone mode key, so on branch 2 it is line 0: SPEC §11.)
  @Test func refusedAndAcceptedEditsOfModeLinesSaveAndLoadBack() throws {
    try withTemporaryDirectory { directory in
      try expectScript(
        ["--keep-going", "-"],
        stdin: "sci0\n30sin\n:delete 1\n:insert 2 std\n:edit 1 std\n:edit 1 5\n:insert 1 std\n"
          + ":edit 1 sci rad\n:lines\n:save! m.calc\n",
        directory: directory,
        stdout: "0\n0.5\n"
          + "branch 2 (from branch 1): line 1 inserted as the mode line (line 0); no results "
          + "changed\n0.5\n"
          + "branch 3 (from branch 2): line 1 changed; 1 result changed: 0.5 → -0.98803162 "
          + "(step 6)\n-0.98803162\n" + """
              line  step  keys     display
                 0     1  std      0
                 1     2  sci rad  0
            ▶    2     4  30sin    -0.98803162
            saved 16 keys on 3 branches, at step 6 of branch 3, to m.calc

            """,
        stderr: "<stdin>:3:9: cannot delete line 1: \(Self.sinRefused)\n"
          + "<stdin>:4:9: cannot insert before line 2: \(Self.sinRefused)\n"
          + "<stdin>:5:7: cannot edit line 1: \(Self.sinRefused)\n"
          + "<stdin>:6:7: cannot edit line 1: \(Self.sinRefused)\n",
        status: 65)
      let saved = try String(
        contentsOf: directory.appendingPathComponent("m.calc"), encoding: .utf8)
      #expect(
        saved == """
          # calc session, format 3: 3 branches, at step 6 of 6 on branch 3
          sci0
          30sin
          # branch 2 leaves branch 1 at step 0
          :branch 1
          :goto 0
          std
          sci0
          30sin
          # branch 3 leaves branch 2 at step 1
          :branch 2
          :goto 1
          sci rad
          30sin
          :goto 6

          """)
      let run = try InProcess.run(["m.calc"], directory: directory)
      #expect(run.stderr == "")
      #expect(run.status == 0)
      #expect(run.stdout.hasSuffix("-0.98803162\n-0.98803162\n"))
      try expectScript(
        ["-"], stdin: ":load m.calc\n:branches\n:keys\n", directory: directory,
        stdout: "-0.98803162\n" + """
            branch  leaves  steps  display      last keys
                 1              5  0.5          sci030sin
                 2  1 at 0      6  0.5          stdsci030sin
          ▶      3  2 at 1      6  -0.98803162  stdsciRAD30sin
          std
          sci rad
          30sin

          """)
    }
  }

  /// A `std` before a line of Standard keys and Scientific keys after it: the edit is refused
  /// at the first later line that a replay would reject, and one that keeps every later line in
  /// its mode is made; replays apply each line's recorded keys.
  @Test func theFirstLaterLineThatWouldBeRejectedIsNamed() throws {
    try expectScript(
      ["--keep-going", "-"],
      stdin: "sci0\n1+2=\n(4)\nstd\n5\n:insert 2 std\n:insert 3 std\n:delete 4\n:keys\n",
      stdout: "0\n3\n4\n0\n5\n"
        + "branch 2 (from branch 1): line 4 deleted; no results changed\n5\n"
        + "sci0\n1+2=\n(4)\n5\n",
      stderr: "<stdin>:6:9: cannot insert before line 2: line 3 would then be rejected ('(' is a "
        + "key of Scientific mode)\n"
        + "<stdin>:7:9: cannot insert before line 3: line 3 would then be rejected ('(' is a "
        + "key of Scientific mode)\n",
      status: 65)
  }

  // MARK: - Formats

  /// A file that names a later format than this calc writes is refused by name, however it is
  /// read: as a script, by `:load`, and as a journal by `--resume`.
  @Test func aFileFromANewerCalcIsRefused() throws {
    try withTemporaryDirectory { directory in
      let file = directory.appendingPathComponent("f.calc")
      try "# calc session, format 99: 1 branch, at step 4 of 4 on branch 1\n1+1=\n:goto 4\n"
        .write(to: file, atomically: true, encoding: .utf8)
      let refusal = "written by a newer calc (format 99; this calc reads formats up to 4)"
      try expectScript(
        ["f.calc"], directory: directory, stdout: "", stderr: "f.calc:1:1: \(refusal)\n",
        status: 65)
      try expectScript(
        ["--keep-going", "f.calc"], directory: directory, stdout: "",
        stderr: "f.calc:1:1: \(refusal)\n", status: 65)
      try expectScript(
        ["-"], stdin: "5\n:load f.calc\n", directory: directory, stdout: "5\n",
        stderr: "<stdin>:2:7: cannot load 'f.calc': \(refusal)\n", status: 65)
      let folder = directory.appendingPathComponent(".local/state/calc")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let journal = folder.appendingPathComponent("20261125T000000.000000Z-1.calc")
      try "# calc journal, format 5\n1+1=\n".write(to: journal, atomically: true, encoding: .utf8)
      try expectScript(
        ["--resume", "-k", "="], environment: ["HOME": directory.path, "XDG_STATE_HOME": nil],
        stdout: "",
        stderr: "calc: --resume: cannot resume '\(journal.path)': written by a newer calc "
          + "(format 5; this calc reads formats up to 4)\n",
        status: 66)
    }
  }

  /// Format 2 (SPEC v3) is read as before: a saved session (whose trailing comment is no note)
  /// and a journal, which resumes without a note.
  @Test func formatTwoIsStillRead() throws {
    try withTemporaryDirectory { directory in
      try """
      # calc session, format 2: 2 branches, at step 2 of 5 on branch 1
      12+3=  # a comment, not a note
      # branch 2 leaves branch 1 at step 2
      :branch 1
      :goto 2
      *4=
      :branch 1
      :goto 2

      """.write(
        to: directory.appendingPathComponent("v3.calc"), atomically: true, encoding: .utf8)
      try expectScript(
        ["-"], stdin: ":load v3.calc\n:branches\n:branch 2\n", directory: directory,
        stdout: "12\n" + """
            branch  leaves  steps  display  last keys
          ▶      1              5  15       12+3=
                 2  1 at 2      5  48       12×4=
          48

          """)
      let folder = directory.appendingPathComponent(".local/state/calc")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try "# calc journal, format 2\n12+3=\n:goto 2\n".write(
        to: folder.appendingPathComponent("20261125T000000.000000Z-1.calc"), atomically: true,
        encoding: .utf8)
      try expectScript(
        ["--resume", "-k", "*4="], environment: ["HOME": directory.path, "XDG_STATE_HOME": nil],
        stdout: "48\n")
    }
  }

  // MARK: - Resume keeps the session and its mode

  /// calc on a pseudo-terminal with `HOME` in `directory`, once its last line is `prompt`.
  private func startCalc(in directory: URL, arguments: [String] = [], prompt: String)
    throws -> TerminalSession
  {
    let inputrc = directory.appendingPathComponent(".inputrc")
    if !FileManager.default.fileExists(atPath: inputrc.path) {
      try "".write(to: inputrc, atomically: true, encoding: .utf8)
    }
    let calc = try TerminalSession(
      directory: directory, environment: ["HOME": directory.path, "NO_COLOR": "1"],
      arguments: arguments)
    try calc.wait(for: "the prompt '\(prompt)'") { $0.lines.last == prompt }
    return calc
  }

  /// Issue 32: `calc --resume` of a Scientific session stays in Scientific mode (no `std`
  /// line that nobody typed), and resuming the resumed session, twice, gives the same session.
  @Test func resumeKeepsScientificModeThroughTwoResumes() throws {
    try withTemporaryDirectory { directory in
      let first = try startCalc(in: directory, prompt: "calc> ")
      try first.type("sci\r")
      try first.waitForLastLines(["0", "calc sci> "])
      try first.type("2*(3+\r")
      try first.waitForLastLines(["2 × (3 +", "3", "calc sci> "])
      try first.type(":q\r")
      #expect(try first.waitForExit() == 0)

      let second = try startCalc(in: directory, arguments: ["--resume"], prompt: "calc sci> ")
      #expect(second.lines.contains("resumed 6 keys, at step 6 of 6"))
      try second.type("4)=\r")
      try second.waitForLastLines(["2 × (3 + 4) =", "14", "calc sci> "])
      try second.type(":q\r")
      #expect(try second.waitForExit() == 0)

      for _ in 0..<2 {
        let again = try startCalc(in: directory, arguments: ["--resume"], prompt: "calc sci> ")
        #expect(again.lines.contains("resumed 9 keys, at step 9 of 9"), "\(again.lines)")
        try again.type(":keys\r")
        try again.waitForLastLines(["sci", "2*(3+", "4)=", "calc sci> "])
        try again.type(":q\r")
        #expect(try again.waitForExit() == 0)
      }
    }
  }

  // MARK: - The property, through the interpreter and the REPL's journal

  /// What a person can see of a session: `:branches`, `:lines`, `:keys` and the display.
  static func listings(of session: Session) throws -> String {
    var interpreter = LineInterpreter(
      context: LineInterpreter.Context(format: .posix), host: LineInterpreter.Host(files: .system),
      session: session)
    let output = OutputBuffer()
    for line in [":branches", ":lines", ":keys"] { try interpreter.run(line, output: output) }
    interpreter.appendDisplay(to: output)
    return output.text
  }

  /// Random sessions of both modes through the interpreter (20; 400 with `CALC_LONG_TESTS=1`):
  /// after each edit, insertion or deletion, accepted or refused, `:save` then `:load` into a
  /// fresh interpreter gives the same `:branches`, `:lines`, `:keys` and display, and the same
  /// branches, position and calculator (memory, mode, angle unit, F-E).
  @Test func afterEveryEditSaveThenLoadIsIdentity() throws {
    try withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("s.calc").path
      var edits = 0
      for index in 0..<TestSize.count(short: 20, long: 400) {
        var random = SplitMix64(state: 0xC0DE_C000 &+ UInt64(index) &* 0x9E37_79B9)
        var interpreter = LineInterpreter(context: .init(format: .posix), host: .withFiles)
        var model = SessionModel()
        for _ in 0..<40 {
          let operation = SessionOperation.random(for: model, using: &random)
          let output = OutputBuffer()
          if (try? interpreter.run(operation.description, output: output)) != nil {
            let agrees = model.perform(operation)
            #expect(agrees, "session \(index): \(operation) was accepted")
          }
          switch operation {
          case .edit, .insert, .delete: edits += 1
          case .keys, .goto, .offset, .undo, .redo, .branch, .reset, .note: continue
          }
          try interpreter.run(":save \(path)", output: output)
          var loaded = LineInterpreter(context: .init(format: .posix), host: .withFiles)
          try loaded.run(":load \(path)", output: output)
          #expect(
            LineInterpreterTests.Snapshot(loaded) == LineInterpreterTests.Snapshot(interpreter),
            "session \(index) after \(operation)")
          let (was, now) = (
            try Self.listings(of: interpreter.session), try Self.listings(of: loaded.session)
          )
          #expect(now == was, "session \(index) after \(operation)")
        }
      }
      #expect(edits > TestSize.count(short: 20, long: 400) * 2, "edits happen")
    }
  }

  /// Runs the REPL in process on `lines` with its journal in `folder`, resuming first when
  /// `resumes`; returns its session when it ends.
  static func runREPL(_ lines: [String], journals folder: String, resumes: Bool) -> Session {
    let context = LineInterpreter.Context(format: .posix, isInteractive: true)
    let interpreter = LineInterpreter(
      context: context, host: LineInterpreter.Host(journalDirectory: folder, files: .system))
    var repl = REPL(
      interpreter: interpreter, environment: Environment([:]), keepsJournal: true,
      resumes: resumes)
    var editor = ScriptedLineEditor(lines: lines)
    _ = repl.run(
      editor: &editor, output: OutputBuffer(), errors: OutputBuffer(), errorStyle: .plain,
      pagerCommand: nil)
    return repl.interpreter.session
  }

  /// Random sessions of both modes typed at the REPL (12; 120 with `CALC_LONG_TESTS=1`): the
  /// journal resumes to the same session, and so does the journal of the resumed session, and
  /// that of the session resumed from it (`--resume` of a resumed session of a resumed session).
  @Test func twoSuccessiveResumesGiveTheSameSession() throws {
    for index in 0..<TestSize.count(short: 12, long: 120) {
      try withTemporaryDirectory { directory in
        let folder = directory.appendingPathComponent("journals").path
        var random = SplitMix64(state: 0x2E5E_0000 &+ UInt64(index) &* 0x9E37_79B9)
        var model = SessionModel()
        var interpreter = LineInterpreter(context: .init(format: .posix), host: .withFiles)
        var lines: [String] = []
        for _ in 0..<40 {
          let operation = SessionOperation.random(for: model, using: &random)
          lines.append(operation.description)
          if (try? interpreter.run(operation.description, output: OutputBuffer())) != nil {
            _ = model.perform(operation)
          }
        }
        let typed = Self.runREPL(lines, journals: folder, resumes: false)
        let expected = LineInterpreterTests.Snapshot(interpreter)
        #expect(LineInterpreterTests.Snapshot(typed) == expected, "session \(index)")
        var sessions: [Session] = []
        for _ in 0..<3 {
          // File times tick coarsely: each journal must be the newest when it is resumed.
          waitForFileTimesToPass(filesIn: folder)
          // A process another test starts meanwhile may hold an ended REPL's lock until it
          // execs (JournalLockTests.awaitRelease): the journal would then be skipped as open.
          for journal in Journal.journals(in: folder) { JournalLockTests.awaitRelease(of: journal) }
          sessions.append(Self.runREPL([], journals: folder, resumes: true))
        }
        for (resume, session) in sessions.enumerated() {
          #expect(
            LineInterpreterTests.Snapshot(session) == expected,
            "session \(index), resume \(resume + 1)")
          let (was, now) = (
            try Self.listings(of: interpreter.session), try Self.listings(of: session)
          )
          #expect(now == was, "session \(index), resume \(resume + 1)")
        }
      }
    }
  }
}
