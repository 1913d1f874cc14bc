import CalculatorEngine
import Foundation
import Testing

@testable import CalcCLI
@testable import CalcCore

#if canImport(Glibc)
  import Glibc
#endif

/// `:reset`, `:load` and `:resume` keep the session they replace, one level deep (SPEC §4):
/// in process and through the binary, in the REPL, and across a journal and `--resume`.
@Suite struct UndoableReplacementTests {
  // MARK: - Scripts

  @Test func resetThenUndoAndRedoInAScript() throws {
    let run = try Script.runInProcess(
      "12+3=\n*2=\n:goto 2\n*4=\n:reset\n5=\n:undo\n:undo\n:branches\n:redo\n:redo\n:undo 7\n"
        + ":undo\n")
    #expect(
      run.stdout
        == "15\n30\n12\n48\n0\n5\n0\n"
        + "restored the session before :reset: 2 branches, 11 keys\n48\n"
        + "  branch  leaves  steps  display  last keys\n"
        + "       1              8  30       12+3=×2=\n"
        + "▶      2  1 at 2      5  48       12×4=\n"
        + "restored the session after :reset: 1 branch, 2 keys\n0\n5\n"
        + "restored the session before :reset: 2 branches, 11 keys\n48\n12\n")
    #expect(run.stderr == "")
    #expect(run.status == 0)
  }

  @Test func loadThenUndoAndRedoInAScript() throws {
    try withTemporaryDirectory { directory in
      try Script.write("2*3=\n:goto 2\n+1=\n", to: "s.calc", in: directory)
      let run = try Script.runInProcess(
        "7*7=\n:load s.calc\n:undo 9\n:redo\n:keys\n:undo\n:keys\n", in: directory)
      #expect(
        run.stdout
          == "49\n3\nrestored the session before :load: 1 branch, 4 keys\n49\n"
          + "restored the session after :load: 2 branches, 7 keys\n0\n\n"
          + "restored the session before :load: 1 branch, 4 keys\n49\n7*7=\n")
      #expect(run.stderr == "")
      #expect(run.status == 0)
    }
  }

  /// With nothing replaced, `:undo` at step 0 moves nowhere, as before; `:reset load` (the
  /// journal's form) is taken, any other argument refused.
  @Test func undoAtTheStartWithNothingReplacedAndResetArguments() throws {
    let run = try Script.runInProcess("12+3=\n:undo\n:undo\n:reset load\n:undo\n:reset again\n")
    #expect(
      run.stdout == "15\n0\n0\n0\nrestored the session before :load: 1 branch, 5 keys\n0\n")
    #expect(run.stderr == "<stdin>:6:8: :reset takes no argument, not 'again'\n")
    #expect(run.status == 65)
  }

  /// `--mode scientific`: the `sci` line after `:reset` is the new session's start.
  @Test func theModeLineIsTheStartOfTheNewSession() throws {
    let run = try Script.runInProcess(
      "2+2=\n:reset\n3*3=\n:undo\n:undo\n", arguments: ["--mode", "scientific", "-"])
    #expect(
      run.stdout == "4\n0\n9\n0\nrestored the session before :reset: 1 branch, 5 keys\n4\n")
    #expect(run.stderr == "")
    #expect(run.status == 0)
  }

  // MARK: - The REPL, in process

  @Test func resetAndLoadThenUndoAndRedoInTheREPL() throws {
    try withTemporaryDirectory { directory in
      let file = try Script.write("2*3=\n", to: "s.calc", in: directory).path
      let run = REPLInProcessTests.run([
        "12+3=", ":reset", ":undo", ":redo", ":undo", ":load \(file)", ":undo", ":undo",
        ":redo",
      ])
      #expect(run.errors == "")
      let expected = [
        "12 + 3 =", "15", "0", "restored the session before :reset: 1 branch, 5 keys",
        "12 + 3 =", "15", "restored the session after :reset: no keys", "0",
        "restored the session before :reset: 1 branch, 5 keys", "12 + 3 =", "15",
        "loaded 4 keys at step 4 from \(file)", "2 × 3 =", "6", "0",
        "restored the session before :load: 1 branch, 5 keys", "12 + 3 =", "15",
        "restored the session after :load: 1 branch, 4 keys", "0", "", "",
      ].joined(separator: "\n")
      #expect(run.output.hasSuffix(expected), "\(run.output)")
      #expect(
        run.editor.prompts.suffix(4) == ["calc> ", "calc[0/4]> ", "calc> ", "calc[0/4]> "])
    }
  }

  // MARK: - The journal and --resume

  /// Runs `lines` as the REPL does, recording each effect in a journal in `folder`; returns
  /// the interpreter after them.
  static func journaled(_ lines: [String], folder: String, directory: URL) throws
    -> LineInterpreter
  {
    let journal = try #require(Journal(directory: folder) { Issue.record("\($0)") })
    defer { journal.close() }
    var interpreter = LineInterpreter(
      context: .init(format: .posix),
      host: .init(
        home: directory.path, journalDirectory: folder, ownJournal: journal.path, files: .system))
    for line in lines {
      let result = try interpreter.run(line, output: OutputBuffer())
      if let effect = result.effect { journal.record([effect]) }
    }
    return interpreter
  }

  /// Runs calc without a terminal, with `HOME` in `directory` and no `XDG_STATE_HOME`.
  static func resume(_ stdin: String, in directory: URL) throws -> CalcRun {
    try InProcess.run(
      ["--resume", "-"], stdin: Data(stdin.utf8),
      environment: ["HOME": directory.path, "XDG_STATE_HOME": nil], directory: directory)
  }

  /// `12+3=`, `:reset`, `5=`, then a resume: the undo still restores the session before the
  /// reset; a session that ended right after that restore resumes there, where `:redo` brings
  /// the replacement back.
  @Test func theUndoStillWorksAfterResuming() throws {
    try withTemporaryDirectory { directory in
      let folder = directory.appendingPathComponent(".local/state/calc").path
      _ = try Self.journaled(["12+3=", ":reset", "5="], folder: folder, directory: directory)
      let run = try Self.resume(":undo\n:undo\n:redo\n:keys\n", in: directory)
      #expect(
        run.stdout
          == "0\nrestored the session before :reset: 1 branch, 5 keys\n15\n"
          + "restored the session after :reset: 1 branch, 2 keys\n0\n\n")
      #expect(run.stderr == "")
      #expect(run.status == 0)
    }
    try withTemporaryDirectory { directory in
      let folder = directory.appendingPathComponent(".local/state/calc").path
      let live = try Self.journaled(
        ["12+3=", "*2=", ":undo", ":reset", "5=", ":undo", ":undo"], folder: folder,
        directory: directory)
      #expect(live.display == "15")
      #expect(live.session.isRightAfterRestore)
      // The journal's records, replayed as one change each, end where the REPL was.
      let journal = try #require(Journal.journals(in: folder).first)
      let resumed = try ResumedSession(journal: journal)
      #expect(
        SessionScript.text(ofWhole: resumed.session) == SessionScript.text(ofWhole: live.session))
      #expect(resumed.session.isRightAfterRestore)
      let run = try Self.resume(":redo\n:undo\n:undo\n", in: directory)
      #expect(
        run.stdout
          == "restored the session after :reset: 1 branch, 2 keys\n0\n"
          + "restored the session before :reset: 1 branch, 8 keys\n15\n0\n")
      #expect(run.stderr == "")
    }
  }

  /// The REPL's `:resume` of a journal whose session ended after an undo of a replacement: a
  /// second resume (of the resuming REPL's own journal) gives the same session, kept one
  /// included.
  @Test func aResumedSessionIsJournaledWhole() throws {
    try withTemporaryDirectory { directory in
      let folder = directory.appendingPathComponent(".local/state/calc").path
      let first = try Self.journaled(
        ["12+3=", ":reset", "5=", ":undo", ":undo"], folder: folder, directory: directory)
      usleep(2000)  // a later start time for the second journal
      let second = try Self.journaled(
        [":resume", ":goto 2", ":goto 5"], folder: folder, directory: directory)
      #expect(!second.session.isRightAfterRestore, "a move ended the chance to redo at once")
      #expect(
        SessionScript.text(ofWhole: second.session) != SessionScript.text(ofWhole: first.session))
      let newest = try #require(Journal.journals(in: folder).first)
      let resumed = try ResumedSession(journal: newest)
      #expect(
        SessionScript.text(ofWhole: resumed.session) == SessionScript.text(ofWhole: second.session))
      #expect(!resumed.session.isRightAfterRestore)
      // At the end of the branch, :redo still brings the replacement back.
      let run = try Self.resume(":redo\n", in: directory)
      #expect(run.stdout == "restored the session after :reset: 1 branch, 2 keys\n0\n")
    }
  }

  /// The REPL on a pseudo-terminal: `12+3=`, `:reset`, `5=`, `:undo` twice (the old session
  /// again), `kill -9`, then `calc --resume`: the same session, where `:redo` brings the
  /// replacement back.
  @Test func aKilledREPLResumesAfterAnUndoOfAReset() throws {
    try withTemporaryDirectory { directory in
      try "".write(
        to: directory.appendingPathComponent(".inputrc"), atomically: true, encoding: .utf8)
      let environment = ["HOME": directory.path, "NO_COLOR": "1"]
      let calc = try TerminalSession(directory: directory, environment: environment)
      try calc.waitForLastLines(["calc> "])
      for (line, last) in [
        ("12+3=", ["15", "calc> "]), (":reset", ["0", "calc> "]), ("5=", ["5", "calc> "]),
        (":undo", ["0", "calc[0/2]> "]),
        (
          ":undo",
          ["restored the session before :reset: 1 branch, 5 keys", "12 + 3 =", "15", "calc> "]
        ),
      ] {
        try calc.type(line + "\r")
        try calc.waitForLastLines(last)
      }
      kill(calc.pid, SIGKILL)
      while calc.isRunning { usleep(1_000) }

      let again = try TerminalSession(
        directory: directory, environment: environment, arguments: ["--resume"])
      try again.waitForLastLines(["resumed 5 keys, at step 5 of 5", "12 + 3 =", "15", "calc> "])
      try again.type(":redo\r")
      try again.waitForLastLines([
        "calc> :redo", "restored the session after :reset: 1 branch, 2 keys", "0", "calc[0/2]> ",
      ])
      try again.type(":quit\r")
      #expect(try again.waitForExit() == 0)
    }
  }
}
