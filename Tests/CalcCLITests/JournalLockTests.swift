import Foundation
import Testing

@testable import CalcCLI
@testable import CalcCore

#if canImport(Glibc)
  import Glibc
#endif

/// A journal belongs to its session until the session ends (SPEC §8): calc locks its journal,
/// pruning leaves locked journals alone, and `:resume` / `--resume` skip them and say so.
///
/// In process (a ``Journal`` and the folder's functions) and with real REPLs on pseudo-terminals,
/// each test with its own `HOME`.
@Suite struct JournalLockTests {
  static let startupWithHint =
    "calc \(CalcCommand.version) — :help, Ctrl-D to leave, :resume for the last session"
  static let startup = "calc \(CalcCommand.version) — :help for keys and commands, Ctrl-D to leave"

  /// calc on a pseudo-terminal with `HOME` in `directory`, once its prompt shows.
  private func startCalc(in directory: URL, arguments: [String] = []) throws -> TerminalSession {
    let inputrc = directory.appendingPathComponent(".inputrc")
    if !FileManager.default.fileExists(atPath: inputrc.path) {
      try "".write(to: inputrc, atomically: true, encoding: .utf8)
    }
    let calc = try TerminalSession(
      directory: directory, environment: ["HOME": directory.path, "NO_COLOR": "1"],
      arguments: arguments)
    try calc.waitForLastLines(["calc> "])
    return calc
  }

  /// Types `line` and Enter, and waits for `display` and the prompt at the end of the screen.
  private func enter(_ line: String, in calc: TerminalSession, display: String) throws {
    try calc.type(line + "\r")
    try calc.waitForLastLines([display, "calc> "])
  }

  /// Runs calc without a terminal, with `HOME` in `directory` and no `XDG_STATE_HOME`.
  private func run(_ arguments: [String], in directory: URL) throws -> CalcRun {
    try InProcess.run(
      arguments, environment: ["HOME": directory.path, "XDG_STATE_HOME": nil],
      directory: directory)
  }

  private func stateFolder(_ directory: URL) -> String {
    directory.appendingPathComponent(".local/state/calc").path
  }

  private func journals(in folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter {
      $0.hasSuffix(".calc")
    }.sorted()
  }

  private func killAndReap(_ calc: TerminalSession) {
    kill(calc.pid, SIGKILL)
    while calc.isRunning { usleep(1_000) }
  }

  // MARK: - Through the binary

  @Test func aLongSessionOutlivesTwentyOneShortOnesAndResumesAfterKill9() throws {
    try withTemporaryDirectory { directory in
      let folder = stateFolder(directory)
      let long = try startCalc(in: directory)
      try enter("12+3=", in: long, display: "15")
      let longJournal = try #require(journals(in: folder).first)
      // Twenty-one sessions start, journal a line and end while the long one stays open.
      for _ in 0..<21 {
        let short = try startCalc(in: directory)
        try short.type("1+1=\r:q\r")
        #expect(try short.waitForExit() == 0)
      }
      // Twenty short ones are kept, and the long one besides.
      let kept = journals(in: folder)
      #expect(kept.count == 21)
      #expect(kept.contains(longJournal))
      // File times may tick coarsely: the long session's next line is written clearly later.
      waitForFileTimesToPass(filesIn: folder)
      try enter("*2=", in: long, display: "30")
      killAndReap(long)
      let resumed = try run(["--resume", "-k", ""], in: directory)
      #expect(resumed.stdout == "30\n")
      #expect(resumed.stderr == "")
      #expect(resumed.status == 0)
    }
  }

  @Test func resumeSkipsTheNewestSessionWhileItIsOpenAndSaysSo() throws {
    try withTemporaryDirectory { directory in
      let first = try startCalc(in: directory)
      try enter("7*6=", in: first, display: "42")
      // The only session is open: nothing to resume, so a fresh start that says why.
      let none = try run(["--resume", "-k", ""], in: directory)
      #expect(
        none.stderr
          == "calc: note: no session to resume (the only one is still open in process "
          + "\(first.pid)); starting afresh\n")
      #expect(none.stdout == "0\n")
      #expect(none.status == 0)
      try first.type(":q\r")
      #expect(try first.waitForExit() == 0)

      waitForFileTimesToPass(filesIn: stateFolder(directory))
      let second = try startCalc(in: directory)
      try enter("5+5=", in: second, display: "10")
      let skipped =
        "the newest session is still open in process \(second.pid); resuming the one before"
      let resumed = try run(["--resume", "-k", ""], in: directory)
      #expect(resumed.stdout == "42\n")
      #expect(resumed.stderr == "calc: --resume: \(skipped)\n")
      #expect(resumed.status == 0)

      // The REPL's --resume (a :resume) says it too, before what it restored.
      let third = try startCalc(in: directory, arguments: ["--resume"])
      #expect(
        third.lines.prefix(3) == [
          Self.startup, skipped, "resumed 4 keys, at step 4 of 4",
        ], "\(third.lines)")
      #expect(third.lines.suffix(2) == ["42", "calc> "])
      try third.type(":q\r")
      #expect(try third.waitForExit() == 0)
      try second.type(":q\r")
      #expect(try second.waitForExit() == 0)
      // Once every one has ended, the newest is resumed without a word: the third's, which
      // journaled its :resume of the first.
      waitForFileTimesToPass(filesIn: stateFolder(directory))
      let last = try startCalc(in: directory)
      try last.type(":resume\r")
      try last.waitForLastLines(["42", "calc> "])
      #expect(!last.lines.contains(skipped))
      try last.type(":q\r")
      #expect(try last.waitForExit() == 0)
    }
  }

  // MARK: - In process

  /// Waits (at most five seconds) until no one holds the lock of the journal at `path`, which
  /// this process just closed. The lock belongs to the open file description: a process that
  /// another test starts at that moment shares it until its exec closes it (O_CLOEXEC), so a
  /// check right after `close` can still find it held (it did, twice, under load; and once for
  /// over a second with a load average of 11 on two cores).
  static func awaitRelease(of path: String) {
    for _ in 0..<1000 {
      guard Journal.owner(of: path) != nil else { return }
      usleep(5_000)
    }
  }

  @Test func aJournalIsLockedFromItsFirstLineUntilItIsClosed() throws {
    try withTemporaryDirectory { directory in
      var reports: [String] = []
      let journal = try #require(Journal(directory: directory.path) { reports.append($0) })
      #expect(Journal.owner(of: journal.path) == nil)
      #expect(journal.append(["1+1="]))
      // Another open file of it, even in this process, finds the lock held.
      #expect(Journal.owner(of: journal.path) == getpid())
      journal.close()
      JournalLockTests.awaitRelease(of: journal.path)
      #expect(Journal.owner(of: journal.path) == nil)
      #expect(reports == [])
    }
  }

  @Test func pruningKeepsLockedJournalsBeyondTheLastTwenty() throws {
    try withTemporaryDirectory { directory in
      let open = try #require(Journal(directory: directory.path) { _ in })
      #expect(open.append(["1+1="]))
      // Twenty-one newer ones, of ended sessions (process ids that are no calc's here).
      var newer: [String] = []
      for index in 0..<21 {
        let path = directory.path + "/20990101T0000\(10 + index).000000Z-\(900_000 + index).calc"
        try "1\n".write(toFile: path, atomically: false, encoding: .utf8)
        var times = [
          timespec(tv_sec: time(nil) + 10 + index, tv_nsec: 0),
          timespec(tv_sec: time(nil) + 10 + index, tv_nsec: 0),
        ]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        newer.append(path)
      }
      Journal.prune(directory.path, keeping: Journal.kept)
      let left = Set(Journal.journals(in: directory.path))
      // The oldest ended one goes; the open one, older still, stays.
      #expect(left == Set(newer.dropFirst()).union([open.path]))
      open.close()
      JournalLockTests.awaitRelease(of: open.path)
      Journal.prune(directory.path, keeping: Journal.kept)
      #expect(Set(Journal.journals(in: directory.path)) == Set(newer.dropFirst()))
    }
  }

  @Test(arguments: [
    ("20261122T014930.123456Z-4242.calc", Int32(4242)),
    ("/state/calc/20261122T014930.123456Z-1.calc", 1),
    ("notes.calc", 0),
    ("20261122T014930.123456Z-.calc", 0),
  ])
  func theProcessIDComesFromTheJournalsName(path: String, pid: Int32) {
    #expect(Journal.processID(ofJournal: path) == pid)
  }

  @Test(arguments: [
    ([Int32(1234)], "the newest session is still open in process 1234"),
    ([1, 2], "the 2 newest sessions are still open in processes 1 and 2"),
    ([1, 2, 3], "the 3 newest sessions are still open in processes 1, 2 and 3"),
  ])
  func theSentenceNamesTheOpenSessions(pids: [Int32], sentence: String) {
    #expect(ResumedSession.stillOpenSentence(pids) == sentence)
  }
}
