import CalcCLI
import CalcTestSupport
import CalculatorEngine
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The session survives (SPEC §6): the REPL's journal on a real terminal, `kill -9`, and
/// `:resume` / `calc --resume` bringing everything back.
///
/// Every test has its own `HOME`; the journals go to `HOME/.local/state/calc` (`XDG_STATE_HOME`
/// is removed unless a test sets it).
@Suite struct JournalTests {
  // MARK: - Helpers

  /// The start-up line when an earlier session can be resumed.
  static let startupWithHint =
    "calc \(CalcCommand.version) — :help, Ctrl-D to leave, :resume for the last session"
  static let startup = "calc \(CalcCommand.version) — :help for keys and commands, Ctrl-D to leave"

  /// calc on a pseudo-terminal in `directory` (its `HOME`), once its screen is `screen`.
  private func startCalc(
    in directory: URL, arguments: [String] = [], environment: [String: String] = [:],
    screen: [String] = [JournalTests.startup, "calc> "]
  ) throws -> TerminalSession {
    let inputrc = directory.appendingPathComponent(".inputrc")
    if !FileManager.default.fileExists(atPath: inputrc.path) {
      try "".write(to: inputrc, atomically: true, encoding: .utf8)
    }
    var variables = environment
    variables["HOME"] = directory.path
    variables["NO_COLOR"] = "1"
    let calc = try TerminalSession(
      directory: directory, environment: variables, arguments: arguments)
    if !screen.isEmpty { try calc.waitForScreen(screen) }
    return calc
  }

  /// Types `line` and Enter, and waits for `display` and then `prompt` at the end of the screen.
  private func enter(
    _ line: String, in calc: TerminalSession, display: String, prompt: String = "calc> "
  ) throws {
    try calc.type(line + "\r")
    try calc.waitForLastLines([display, prompt])
  }

  /// Runs calc without a terminal, with `HOME` in `directory` and no `XDG_STATE_HOME`.
  private func run(_ arguments: [String], in directory: URL, stdin: String = "") throws -> CalcRun {
    try InProcess.run(
      arguments, stdin: Data(stdin.utf8),
      environment: ["HOME": directory.path, "XDG_STATE_HOME": nil], directory: directory)
  }

  private func stateFolder(_ directory: URL) -> String {
    directory.appendingPathComponent(".local/state/calc").path
  }

  private func journals(in folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter {
      $0.hasSuffix(".calc")
    }.sorted()
  }

  private func mode(of path: String) -> mode_t? {
    var information = stat()
    guard stat(path, &information) == 0 else { return nil }
    return information.st_mode & 0o7777
  }

  private func killAndReap(_ calc: TerminalSession) {
    kill(calc.pid, SIGKILL)
    while calc.isRunning { usleep(1_000) }
  }

  // MARK: - Crash and resume

  /// The lines typed in the crash test: a branch (at `:goto 5`) and the memory (`ms`).
  static let typed: [(line: String, display: String, prompt: String)] = [
    ("12+3=", "15", "calc> "),
    ("*2=", "30", "calc> "),
    ("ms", "30", "calc M> "),
    ("c", "0", "calc M> "),
    (":goto 5", "15", "calc[5/10]> "),
    ("-5=", "10", "calc b2> "),
  ]

  @Test func killedSessionResumesWithBranchesPositionAndMemory() throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory)
      for step in Self.typed {
        try enter(step.line, in: calc, display: step.display, prompt: step.prompt)
      }
      killAndReap(calc)

      // The same lines as a script: the oracle for the :branches table.
      let live = try run(
        ["-"], in: directory,
        stdin: Self.typed.map(\.line).joined(separator: "\n") + "\n:branches\n")
      let branches = live.stdout.split(separator: "\n").dropFirst(Self.typed.count)
        .joined(separator: "\n")
      #expect(branches.contains("1 at 5"))

      let resumed = try run(
        ["--resume", "-"], in: directory, stdin: ":keys\n:branches\n:branch 1\nmr\n:keys\n")
      #expect(resumed.stderr == "")
      #expect(resumed.status == 0)
      #expect(
        resumed.stdout == "12+3=\n-5=\n" + branches + "\n0\n30\n12+3=\n*2=\nms\nc\nmr\n",
        "\(resumed.stdout)")

      // The REPL resumes too, says what it restored, and journals the resumed session.
      let again = try startCalc(
        in: directory, arguments: ["--resume"],
        screen: [
          Self.startup,
          "resumed 13 keys on 2 branches, at step 8 of 8 on branch 2", "15 - 5 =", "10",
          "calc b2> ",
        ])
      try enter(":branch 1", in: again, display: "0", prompt: "calc b1 M> ")
      try enter("mr", in: again, display: "30", prompt: "calc b1 M> ")
      try again.type(":quit\r")
      #expect(try again.waitForExit() == 0)
      let all = journals(in: stateFolder(directory))
      #expect(all.count == 2)
      // (The checksums are JournalIntegrityTests' business.)
      let newest = JournalIntegrityTests.strippingChecksums(
        try String(contentsOfFile: stateFolder(directory) + "/" + all.last!, encoding: .utf8))
      #expect(
        newest.hasPrefix(
          Journal.header
            + "\n:reset resume\n# calc session, format 3: 2 branches, at step 8 of 8 on branch 2\n")
      )
      #expect(newest.hasSuffix(":goto 8\n:branch 1\nmr\n"))
    }
  }

  @Test func sessionLoadedFromAFileResumesAfterTheFileIsDeleted() throws {
    try withTemporaryDirectory { directory in
      let file = directory.appendingPathComponent("s.calc")
      try "2*3=\n:goto 2\n+1=\n7ms\n".write(to: file, atomically: true, encoding: .utf8)
      let expected = try run(["-"], in: directory, stdin: ":load s.calc\n+1=\n:branches\n:keys\n")
      #expect(expected.status == 0)

      let calc = try startCalc(in: directory)
      try enter(":load s.calc", in: calc, display: "7", prompt: "calc b2 M> ")
      try enter("+1=", in: calc, display: "8", prompt: "calc b2 M> ")
      try calc.type(":quit\r")
      #expect(try calc.waitForExit() == 0)
      try FileManager.default.removeItem(at: file)

      let resumed = try run(["--resume", "-"], in: directory, stdin: ":branches\n:keys\n")
      #expect(resumed.status == 0)
      #expect(
        resumed.stdout == expected.stdout.split(separator: "\n").dropFirst(2)
          .joined(separator: "\n") + "\n")
    }
  }

  @Test func resumeCommandReplacesTheSessionAndSaysWhatItRestored() throws {
    try withTemporaryDirectory { directory in
      let first = try startCalc(in: directory)
      try enter("9@", in: first, display: "3")
      try first.type(":quit\r")
      #expect(try first.waitForExit() == 0)

      let calc = try startCalc(in: directory, screen: [Self.startupWithHint, "calc> "])
      try enter("5+5=", in: calc, display: "10")
      try calc.type(":resume\r")
      try calc.waitForLastLines([
        "calc> :resume", "resumed 2 keys, at step 2 of 2", "√(9)", "3", "calc> ",
      ])
      // Its own journal does not count: a second :resume brings back the same session.
      try calc.type(":resume\r")
      try calc.waitForLastLines([
        "calc> :resume", "resumed 2 keys, at step 2 of 2", "√(9)", "3", "calc> ",
      ])
      try calc.type(":quit\r")
      #expect(try calc.waitForExit() == 0)
    }
  }

  // MARK: - Housekeeping

  @Test func journalFolderAndFileHaveTheirModesAndHoldTheChanges() throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory)
      try enter("12+3=", in: calc, display: "15")
      try calc.type(":keys\r")
      try calc.waitForLastLines(["12+3=", "calc> "])
      try enter(":goto -1", in: calc, display: "3", prompt: "calc[4/5]> ")
      try enter(":undo", in: calc, display: "0", prompt: "calc[0/5]> ")
      try enter(":undo", in: calc, display: "0", prompt: "calc[0/5]> ")
      try calc.type("12x\r")
      try calc.waitForLastLines(["error: unknown key 'x' at column 3 (× is '*')", "calc[0/5]> "])
      try enter(":branch 1", in: calc, display: "15")
      try enter(":reset", in: calc, display: "0")
      try calc.type(":quit\r")
      #expect(try calc.waitForExit() == 0)

      let folder = stateFolder(directory)
      #expect(mode(of: folder) == 0o700)
      let names = journals(in: folder)
      #expect(names.count == 1)
      let path = folder + "/" + names[0]
      #expect(mode(of: path) == 0o600)
      #expect(
        JournalIntegrityTests.strippingChecksums(try String(contentsOfFile: path, encoding: .utf8))
          == Journal.header + "\n12+3=\n:goto 4\n:goto 0\n:branch 1\n:reset\n")
    }
  }

  @Test func twoSessionsAtOnceEachHaveTheirOwnJournal() throws {
    try withTemporaryDirectory { directory in
      let first = try startCalc(in: directory)
      let second = try startCalc(in: directory)
      try enter("1+1=", in: first, display: "2")
      try enter("2*3=", in: second, display: "6")
      // File times tick in milliseconds or coarser: make the first session's line later.
      waitForFileTimesToPass(filesIn: stateFolder(directory))
      try enter("+1=", in: first, display: "3")
      try first.type(":quit\r")
      #expect(try first.waitForExit() == 0)
      try second.type(":quit\r")
      #expect(try second.waitForExit() == 0)
      let folder = stateFolder(directory)
      let texts = try journals(in: folder).map {
        JournalIntegrityTests.strippingChecksums(
          try String(contentsOfFile: folder + "/" + $0, encoding: .utf8))
      }
      let header = Journal.header + "\n"
      #expect(Set(texts) == [header + "1+1=\n+1=\n", header + "2*3=\n"])
      // The one written last (the first session's `+1=`) is the one resumed.
      let resumed = try run(["--resume", "-k", ""], in: directory)
      #expect(resumed.stdout == "3\n", "\(resumed) \(texts)")
    }
  }

  @Test func stateHomeFromTheEnvironment() throws {
    try withTemporaryDirectory { directory in
      let state = directory.appendingPathComponent("state").path
      let calc = try startCalc(in: directory, environment: ["XDG_STATE_HOME": state])
      try enter("1+1=", in: calc, display: "2")
      killAndReap(calc)
      #expect(journals(in: state + "/calc").count == 1)
      #expect(!FileManager.default.fileExists(atPath: stateFolder(directory)))
      let resumed = try InProcess.run(
        ["--resume", "--keys", "*3="],
        environment: ["HOME": directory.path, "XDG_STATE_HOME": state])
      #expect(resumed.stdout == "6\n")
    }
  }

  @Test func onlyTheLastTwentyJournalsAreKept() throws {
    try withTemporaryDirectory { directory in
      let folder = stateFolder(directory)
      try FileManager.default.createDirectory(
        atPath: folder, withIntermediateDirectories: true)
      let start = Date(timeIntervalSinceNow: -3600)
      var old: [String] = []
      for index in 0..<25 {
        let name = "20260101T0000\(10 + index).000000Z-\(100 + index).calc"
        let path = folder + "/" + name
        try "\(index)\n".write(toFile: path, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes(
          [.modificationDate: start.addingTimeInterval(Double(index))], ofItemAtPath: path)
        old.append(name)
      }
      try "not a journal\n".write(toFile: folder + "/notes.txt", atomically: false, encoding: .utf8)

      let calc = try startCalc(in: directory, screen: [Self.startupWithHint, "calc> "])
      try enter("5", in: calc, display: "5")
      try calc.type(":quit\r")
      #expect(try calc.waitForExit() == 0)
      let kept = journals(in: folder)
      #expect(kept.count == 20)
      #expect(Set(kept).isSuperset(of: old.suffix(19)))
      #expect(FileManager.default.fileExists(atPath: folder + "/notes.txt"))
      // The newest earlier one is what --resume finds.
      #expect(try run(["--resume", "-k", ""], in: directory).stdout == "5\n")
    }
  }

  @Test func noJournalWritesNothing() throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory, arguments: ["--no-journal"])
      try enter("12+3=", in: calc, display: "15")
      try enter(":goto 1", in: calc, display: "1", prompt: "calc[1/5]> ")
      try calc.type(":quit\r")
      #expect(try calc.waitForExit() == 0)
      #expect(
        !FileManager.default.fileExists(atPath: directory.appendingPathComponent(".local").path))
      // Nothing to resume: a fresh start, with a note (SPEC v5 §5).
      let resumed = try run(["--resume", "-"], in: directory)
      #expect(resumed.status == 0)
      #expect(resumed.stderr == "calc: note: no session to resume; starting afresh\n")
    }
  }

  @Test func unwritableStateFolderIsReportedOnceAndTheSessionGoesOn() throws {
    try withTemporaryDirectory { directory in
      // A file where the folder should be: nobody, not even root, can make a folder in it.
      let blocked = directory.appendingPathComponent("state")
      try "".write(to: blocked, atomically: false, encoding: .utf8)
      let warning =
        "calc: journal: cannot create '\(blocked.path)/calc': Not a directory; "
        + "this session is not journaled"
      let calc = try startCalc(
        in: directory, environment: ["XDG_STATE_HOME": blocked.path], screen: [])
      // The long warning wraps on the screen; the output holds it whole, before the start-up line.
      try calc.wait(for: "the warning, the start-up line and a prompt") { calc in
        calc.text.contains(warning + "\r\n" + Self.startup)
          && calc.lines.suffix(2) == [Self.startup, "calc> "]
      }
      try enter("12+3=", in: calc, display: "15")
      try enter(":goto 2", in: calc, display: "12", prompt: "calc[2/5]> ")
      try enter("*4=", in: calc, display: "48", prompt: "calc b2> ")
      try calc.type(":quit\r")
      #expect(try calc.waitForExit() == 0)
      #expect(calc.text.components(separatedBy: "calc: journal:").count == 2)
    }
  }

  @Test func noStateFolderWithoutHomeIsReportedOnce() throws {
    try withTemporaryDirectory { directory in
      let inputrc = directory.appendingPathComponent("inputrc")
      try "".write(to: inputrc, atomically: true, encoding: .utf8)
      let calc = try TerminalSession(
        directory: directory, environment: ["NO_COLOR": "1", "INPUTRC": inputrc.path])
      try calc.waitForScreen([
        "calc: journal: neither XDG_STATE_HOME nor HOME is set; this session is not journaled",
        Self.startup, "calc> ",
      ])
      try enter("12+3=", in: calc, display: "15")
      try calc.type(":quit\r")
      #expect(try calc.waitForExit() == 0)
      #expect(calc.text.components(separatedBy: "calc: journal:").count == 2)
    }
  }

  @Test func aJournalThatStopsWorkingIsReportedOnce() throws {
    try withTemporaryDirectory { directory in
      let folder = directory.appendingPathComponent("calc").path
      var reports: [String] = []
      let journal = try #require(Journal(directory: folder) { reports.append($0) })
      #expect(mode(of: folder) == 0o700)
      try FileManager.default.removeItem(atPath: folder)
      #expect(!journal.append(["1+1="]))
      #expect(!journal.append(["2+2="]))
      #expect(journal.isBroken)
      #expect(reports.count == 1)
      #expect(reports.first?.hasPrefix("calc: journal: cannot write '\(folder)/") == true)
    }
  }

  // MARK: - Damaged journals and errors

  /// Writes `text` as the only journal in `directory`'s state folder.
  private func writeJournal(_ text: String, in directory: URL) throws {
    let folder = stateFolder(directory)
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try text.write(
      toFile: folder + "/20260101T000000.000000Z-1.calc", atomically: false, encoding: .utf8)
  }

  @Test func tornLastLineRestoresWhatCameBeforeIt() throws {
    try withTemporaryDirectory { directory in
      try writeJournal(Journal.header + "\n12+3=\nms\n*4", in: directory)
      let resumed = try run(["--resume", "-"], in: directory, stdin: ":keys\nmr\n")
      #expect(resumed.stdout == "12+3=\nms\n15\n")
      #expect(
        resumed.stderr
          == "calc: --resume: the journal's line 4 was cut short: restored the session as it "
          + "was before it\n")
      #expect(resumed.status == 0)
    }
  }

  @Test func badLineRestoresWhatCameBeforeIt() throws {
    try withTemporaryDirectory { directory in
      try writeJournal("12+3=\n:goto 9\n*2=\n", in: directory)
      let resumed = try run(["--resume", "-k", ""], in: directory)
      #expect(resumed.stdout == "15\n")
      #expect(
        resumed.stderr
          == "calc: --resume: the journal's line 2 cannot be replayed (column 7: step 9 is out "
          + "of range 0…5): restored the session as it was before it\n"
          + "calc: --resume: note: \(Self.olderFormatNote)\n")
    }
  }

  static let olderFormatNote =
    "the journal was written before numbers stopped continuing across lines; each of its lines "
    + "now starts a new number"

  @Test func anOlderJournalIsResumedWithANoteAndEachLineStartsANumber() throws {
    try withTemporaryDirectory { directory in
      // Written before SPEC rule 18: `12` then `3+1=` was 123 + 1; now each line starts anew.
      try writeJournal("12\n3+1=\n", in: directory)
      let resumed = try run(["--resume", "-k", ""], in: directory)
      #expect(resumed.stdout == "4\n")
      #expect(resumed.stderr == "calc: --resume: note: \(Self.olderFormatNote)\n")
      #expect(resumed.status == 0)
      // With the header, the same lines resume without a note.
      try writeJournal(Journal.header + "\n12\n3+1=\n", in: directory)
      let current = try run(["--resume", "-k", ""], in: directory)
      #expect(current.stdout == "4\n")
      #expect(current.stderr == "")
      // -q silences the note and nothing else.
      try writeJournal("12\n3+1=\n", in: directory)
      let quiet = try run(["-q", "--resume", "-k", ""], in: directory)
      #expect(quiet.stdout == "4\n")
      #expect(quiet.stderr == "")
    }
  }

  @Test func resumeWithoutAnEarlierSessionIsAnErrorThatChangesNothing() throws {
    try withTemporaryDirectory { directory in
      let script = try run(["-"], in: directory, stdin: "2+2=\n:resume\n")
      #expect(script.stdout == "4\n")
      #expect(
        script.stderr
          == "<stdin>:2:1: no earlier session to resume in '\(stateFolder(directory))'\n")
      #expect(script.status == 65)
      // `--resume` with keys starts afresh, with a note, and runs them (SPEC v5 §5).
      let keys = try run(["--resume", "-k", "1"], in: directory)
      #expect(keys.stdout == "1\n")
      #expect(keys.stderr == "calc: note: no session to resume; starting afresh\n")
      #expect(keys.status == 0)
    }
  }

  // MARK: - The property

  /// A random line of REPL input: keys (memory keys among them), moves, branches, resets,
  /// saves and loads, a `:resume` now and then, commands that change nothing, bad lines.
  private static func randomLine(
    _ random: inout SplitMix64, session: Session, saved: [String], folder: String
  ) -> String {
    let keys = [
      "0", "1", "2", "3", "7", "9", ".", "+", "-", "*", "/", "=", "%", "~", "c", "ce", "<", "@",
      "q", "r", "ms", "mr", "m+", "m-", "mc",
    ]
    let history = session.history
    switch random.below(20) {
    case 0..<9:
      return (0..<random.int(1...8)).map { _ in keys[random.below(keys.count)] }.joined()
    case 9: return ":goto \(random.int(0...(history.count + 1)))"
    case 10: return ":goto \(random.below(2) == 0 ? "+" : "-")\(random.int(0...4))"
    case 11: return ":undo \(random.int(0...3))"
    case 12: return random.below(2) == 0 ? ":redo" : ":redo \(random.int(0...3))"
    case 13: return ":branch \(random.int(1...(history.branchCount + 1)))"
    case 14: return random.below(4) == 0 ? ":reset" : ":keys"
    case 15: return ":save \(folder)/saved\(random.below(3)).txt"
    case 16: return saved.isEmpty ? ":branches" : ":load \(saved[random.below(saved.count)])"
    case 17: return random.below(3) == 0 ? ":resume" : ":history"
    case 18: return ["12x", ":nope", ":goto", ":branch 0", ":undo -1"][random.below(5)]
    default: return ""
    }
  }

  /// 20 random sessions (100 with `CALC_LONG_TESTS=1`) journaled and resumed.
  @Test func replayingTheJournalGivesTheLiveSession() throws {
    var random = SplitMix64(state: 12)
    var replaced = (loads: 0, resumes: 0)
    let rounds = TestSize.count(short: 20, long: 100)
    for round in 0..<rounds {
      try withTemporaryDirectory { directory in
        let folder = directory.appendingPathComponent("calc").path
        // An earlier session, for :resume.
        var earlier = LineInterpreter(context: .init(format: .plain), host: .withFiles)
        let first = try #require(Journal(directory: folder) { Issue.record("\($0)") })
        let ignored = OutputBuffer()
        for line in ["12+3=", "ms", ":goto 2", "*4=", "m+"] {
          if let effect = try earlier.run(line, output: ignored).effect { first.record([effect]) }
        }
        first.close()
        usleep(2000)  // a later start time and modification time for the live journal

        let journal = try #require(Journal(directory: folder) { Issue.record("\($0)") })
        var live = LineInterpreter(
          context: .init(format: .plain),
          host: .init(journalDirectory: folder, ownJournal: journal.path, files: .system))
        var saved: [String] = []
        var lines: [String] = []
        for _ in 0..<random.int(1...50) {
          let line = Self.randomLine(
            &random, session: live.session, saved: saved, folder: directory.path)
          lines.append(line)
          // As the REPL does: the line, then its journal lines, then (here dropped) its output.
          let output = OutputBuffer()
          if let result = try? live.run(line, output: output) {
            if line.hasPrefix(":save ") { saved.append(String(line.dropFirst(6))) }
            if line.hasPrefix(":load ") { replaced.loads += 1 }
            if line == ":resume" { replaced.resumes += 1 }
            if let effect = result.effect { journal.record([effect]) }
          }
        }
        journal.close()
        if live.session.history.isEmpty, !FileManager.default.fileExists(atPath: journal.path) {
          return  // nothing was ever changed: no journal, as intended
        }
        let resumed = try ResumedSession(journal: journal.path)
        let context = "round \(round) (seed 12): \(lines)"
        #expect(resumed.damage == nil, "\(context)")
        #expect(
          SessionScript.text(of: resumed.session.history)
            == SessionScript.text(of: live.session.history), "\(context)")
        // What a replacement kept comes back too (SPEC §4), and whether :redo would restore it.
        #expect(
          SessionScript.text(ofWhole: resumed.session)
            == SessionScript.text(ofWhole: live.session), "\(context)")
        #expect(
          resumed.session.isRightAfterRestore == live.session.isRightAfterRestore, "\(context)")
        #expect(resumed.session.state == live.session.state, "\(context)")
        resumed.session.history._checkInvariants()
      }
    }
    // The property says something about :load and :resume only if they happened.
    #expect(replaced.loads >= rounds / 10, "\(replaced)")
    #expect(replaced.resumes >= rounds / 10, "\(replaced)")
  }
}
