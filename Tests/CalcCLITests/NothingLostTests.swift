import CalcTestSupport
import CalculatorEngine
import Foundation
import Testing

@testable import CalcCLI
@testable import CalcCore

#if canImport(Glibc)
  import Glibc
#endif

/// Nothing lost (SPEC §6 "The session survives", §8, §11; issue 46): a REPL whose standard
/// output or error is closed writes nothing into its journal; a note typed on a key line, or
/// given by `:insert`, is journaled and comes back; a journal that holds no session is skipped
/// by `--resume` and removed by pruning, and live journals do not count against the 20 kept;
/// and, over random sessions in the three modes with notes on their key lines, every answered
/// line and every note comes back after `kill -9` and `--resume`.
///
/// The REPLs run on pseudo-terminals, each test with its own `HOME`; what can be seen in
/// process (pruning, the resumed session's script) is.
@Suite struct NothingLostTests {
  static let startup = "calc \(CalcCommand.version) — :help for keys and commands, Ctrl-D to leave"

  /// calc on a pseudo-terminal with `HOME` in `directory` (no `.inputrc` of the machine's), the
  /// descriptors in `closed` closed; once its screen is `screen` (none: not waited for).
  private func startCalc(
    in directory: URL, arguments: [String] = [], closed: [Int32] = [],
    screen: [String]? = [NothingLostTests.startup, "calc> "]
  ) throws -> TerminalSession {
    let inputrc = directory.appendingPathComponent(".inputrc")
    if !FileManager.default.fileExists(atPath: inputrc.path) {
      try "".write(to: inputrc, atomically: true, encoding: .utf8)
    }
    let calc = try TerminalSession(
      directory: directory,
      environment: ["HOME": directory.path, "NO_COLOR": "1", "PAGER": "cat"],
      arguments: arguments, closed: closed)
    if let screen { try calc.waitForScreen(screen) }
    return calc
  }

  /// Runs calc without a terminal, in process, with `HOME` in `directory`.
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

  private func killAndReap(_ calc: TerminalSession) {
    kill(calc.pid, SIGKILL)
    while calc.isRunning { usleep(1_000) }
  }

  /// The lines of the journal at `path`, each of which calc wrote with its checksum.
  private func journalLines(_ path: String) throws -> [String] {
    try String(contentsOfFile: path, encoding: .utf8).split(
      separator: "\n", omittingEmptySubsequences: false
    ).dropLast().map(String.init)
  }

  /// Whether every line of `lines` ends with a journal's checksum comment: calc wrote them all.
  private func areAllChecksummed(_ lines: [String]) -> Bool {
    lines.allSatisfy { line in
      var text = line
      return text.withUTF8 { Journal.checksumComment(of: $0) } != nil
    }
  }

  // MARK: - Descriptors 0–2 closed at start

  /// With standard output closed (`calc >&-`), the journal used to be opened as descriptor 1:
  /// the displays landed in it, and `--resume` found it damaged. Now `/dev/null` is opened
  /// read-only there first, so the first display fails as a write error (status 74) after its
  /// line was journaled; with standard error closed, errors and listings go nowhere and the
  /// session goes on.
  @Test(arguments: [[Int32(1)], [2], [1, 2]])
  func aREPLWithStandardOutputOrErrorClosedWritesNothingIntoItsJournal(closed: [Int32]) throws {
    try withTemporaryDirectory { directory in
      let outputClosed = closed.contains(1)
      // The start-up line and the prompt go to the terminal unless both are closed.
      let calc = try startCalc(
        in: directory, arguments: ["--no-live"], closed: closed,
        screen: closed == [1, 2] ? nil : [Self.startup, "calc> "])
      try calc.type("12+3=\r")
      var answered = ["12+3="]
      if outputClosed {
        #expect(try calc.waitForExit() == 74)
        if !closed.contains(2) {
          #expect(calc.lines.last { !$0.isEmpty } == "calc: write error: Bad file descriptor")
        }
      } else {
        // An error (to the closed standard error), a listing and another line, then kill -9.
        for (count, line) in ["12+3=", ":goto 99", ":lines", "7*7="].enumerated().dropFirst() {
          try calc.type(line + "\r")
          try calc.wait(for: "the answer to \(line)") { calc in
            calc.lines.filter { $0.hasPrefix("calc>") }.count == count + 2
          }
        }
        try calc.waitForLastLines(["49", "calc> "])
        answered.append("7*7=")
        killAndReap(calc)
      }
      let folder = stateFolder(directory)
      let journal = try #require(journals(in: folder).first, "\(calc.report)")
      let lines = try journalLines(folder + "/" + journal)
      #expect(areAllChecksummed(lines), "\(lines)")
      #expect(lines.count == 1 + answered.count, "\(lines)")
      let resumed = try run(["--resume", "-"], in: directory, stdin: ":keys\n")
      #expect(resumed.stderr == "")
      #expect(resumed.stdout == answered.map { $0 + "\n" }.joined())
    }
  }

  // MARK: - Notes on key lines

  /// `1200+350+89=  # rent` at the REPL is one change with its note, journaled with it; so is
  /// `:insert L KEYS # note`, as `:edit` was. Both come back after `kill -9` and `--resume`.
  @Test func notesOfKeyLinesAndOfInsertAreJournaledAndComeBackAfterKill9() throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory)
      try calc.type("1200+350+89=  # rent\r")
      try calc.waitForLastLines(["1,639  rent", "calc> "])
      try calc.type("*12=\r")
      try calc.waitForLastLines(["19,668", "calc> "])
      try calc.type(":insert 2 +100=  # deposit\r")
      try calc.waitForLastLines(["20,868", "calc b2> "])
      killAndReap(calc)
      let folder = stateFolder(directory)
      let journal = try #require(journals(in: folder).first)
      let lines = try journalLines(folder + "/" + journal)
      #expect(lines.count == 4)
      #expect(lines[1].hasPrefix("1200+350+89=  # rent # crc "), "\(lines)")
      #expect(lines[3].hasPrefix(":insert 2 +100=  # deposit # crc "), "\(lines)")
      let resumed = try run(["--resume", "-"], in: directory, stdin: ":save s.calc\n")
      #expect(resumed.stderr == "")
      #expect(
        try Script.read("s.calc", in: directory)
          == """
          # calc session, format 3: 2 branches, at step 21 of 21 on branch 2
          1200+350+89=  # rent
          *12=
          # branch 2 leaves branch 1 at step 12
          :branch 1
          :goto 12
          +100=  # deposit
          *12=
          :goto 21

          """)
    }
  }

  /// In process: the journal's record of a key line with a note holds the note, and `:insert`
  /// keeps the note it was given (it dropped it), as `:edit` does.
  @Test func theRecordOfANotedLineHoldsItsNoteAndInsertKeepsItsNote() throws {
    var interpreter = LineInterpreter(context: .init(format: .plain, isInteractive: true))
    var records: [String] = []
    for line in ["1200+350+89=  # rent", "*12=", ":insert 2 +100=  # deposit"] {
      let result = try interpreter.run(line, output: OutputBuffer())
      if let effect = result.effect {
        records += Journal.lines(for: effect.command, change: effect.change, after: Session())
      }
    }
    #expect(records == ["1200+350+89=  # rent", "*12=", ":insert 2 +100=  # deposit"])
    #expect(interpreter.session.history.lines().map(\.note) == ["rent", "deposit", nil])
  }

  // MARK: - Journals that hold no session

  /// The header alone, with its checksum, as calc writes it.
  static let headerOnly: String = {
    let text = Journal.header + " "
    let value = CRC32(Array(text.utf8)).value
    let hex = String(value, radix: 16)
    return text + "# crc " + String(repeating: "0", count: 8 - hex.count) + hex + "\n"
  }()

  /// Writes a journal named for process `pid` in `folder` holding `text`, written after every
  /// file there.
  @discardableResult
  private func plantJournal(_ text: String, pid: Int32, in folder: String, second: Int) throws
    -> String
  {
    waitForFileTimesToPass(filesIn: folder)
    let path = folder + "/20990101T0000\(10 + second).000000Z-\(pid).calc"
    try text.write(toFile: path, atomically: false, encoding: .utf8)
    return path
  }

  /// A REPL killed between creating its journal and its first write leaves an empty file, and
  /// one could hold its header alone: neither is a session. `--resume` skips them and says so,
  /// a REPL's start prunes them (their calcs are gone), and a REPL's `--resume` that finds
  /// nothing journals nothing.
  @Test func aJournalThatHoldsNoSessionIsSkippedByResumeAndRemovedByPruning() throws {
    try withTemporaryDirectory { directory in
      let folder = stateFolder(directory)
      let first = try startCalc(in: directory)
      try first.type("12+3=\r")
      try first.waitForLastLines(["15", "calc> "])
      killAndReap(first)
      let real = try #require(journals(in: folder).first)
      // Above Linux's largest process id: no such process runs.
      let empty = try plantJournal("", pid: 4_194_305, in: folder, second: 1)
      let header = try plantJournal(Self.headerOnly, pid: 4_194_306, in: folder, second: 2)
      let resumed = try run(["--resume", "-k", ""], in: directory)
      #expect(
        resumed.stderr
          == "calc: --resume: the 2 newest journals are empty; resuming the one before them\n")
      #expect(resumed.stdout == "15\n")
      #expect(resumed.status == 0)

      // A REPL's start prunes them; its --resume then takes the real one without a word.
      let second = try startCalc(
        in: directory, arguments: ["--resume"],
        screen: [Self.startup, "resumed 5 keys, at step 5 of 5", "12 + 3 =", "15", "calc> "])
      #expect(!FileManager.default.fileExists(atPath: empty))
      #expect(!FileManager.default.fileExists(atPath: header))
      killAndReap(second)
      #expect(journals(in: folder).count == 2 && journals(in: folder).contains(real))
    }
  }

  @Test func aREPLsResumeThatFindsOnlyAnEmptyJournalJournalsNothing() throws {
    try withTemporaryDirectory { directory in
      let folder = stateFolder(directory)
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      // An empty journal of a process that still runs (this one): kept by pruning, skipped.
      let empty = try plantJournal("", pid: getpid(), in: folder, second: 1)
      let calc = try startCalc(
        in: directory, arguments: ["--resume"],
        screen: [
          Self.startup, "error: no earlier session to resume: the only journal is empty",
          "calc> ",
        ])
      try calc.type(":q\r")
      #expect(try calc.waitForExit() == 0)
      #expect(journals(in: folder) == [URL(fileURLWithPath: empty).lastPathComponent])
    }
  }

  /// Pruning keeps the 20 most recent finished journals besides the live ones, which do not
  /// count, and removes every journal that holds no session once its process is gone.
  @Test func pruningKeepsTwentyFinishedJournalsBesidesTheLiveOnesAndRemovesEmptyOnes() throws {
    try withTemporaryDirectory { directory in
      let folder = directory.path
      // Four live sessions, older than all the others.
      var live: [Journal] = []
      for _ in 0..<4 {
        let journal = try #require(Journal(directory: folder) { Issue.record("\($0)") })
        #expect(journal.append(["1+1="]))
        live.append(journal)
        usleep(1000)  // another microsecond in the name
      }
      defer { for journal in live { journal.close() } }
      // 25 finished ones, newer; among them, two empty ones whose calcs are gone, and one
      // whose process still runs (this one).
      var finished: [String] = []
      var empties: [String] = []
      for index in 0..<25 {
        let path = folder + "/20990101T0001\(10 + index).000000Z-\(900_000 + index).calc"
        try "1+1=\n".write(toFile: path, atomically: false, encoding: .utf8)
        finished.append(path)
        if index == 10 || index == 20 {
          let empty = folder + "/20990101T0001\(10 + index).500000Z-\(4_194_305 + index).calc"
          try (index == 10 ? "" : Self.headerOnly).write(
            toFile: empty, atomically: false, encoding: .utf8)
          empties.append(empty)
        }
      }
      let running = folder + "/20990101T000200.000000Z-\(getpid()).calc"
      try "".write(toFile: running, atomically: false, encoding: .utf8)
      for (offset, path) in (finished + empties + [running]).enumerated() {
        var times = [
          timespec(tv_sec: time(nil) + 10 + offset, tv_nsec: 0),
          timespec(tv_sec: time(nil) + 10 + offset, tv_nsec: 0),
        ]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
      }
      Journal.prune(folder, keeping: Journal.kept)
      let left = Set(Journal.journals(in: folder))
      #expect(left == Set(live.map(\.path)).union(finished.suffix(20)).union([running]))
    }
  }

  @Test(arguments: [
    ("", true), (headerOnly, true), ("# calc journal, format 3\n\n  # a comment\n", true),
    ("1+1=\n", false), (headerOnly + "12+3= # crc 00000000\n", false),
  ])
  func whetherAJournalHoldsASession(text: String, holdsNone: Bool) throws {
    try withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("j.calc").path
      try text.write(toFile: path, atomically: false, encoding: .utf8)
      #expect(Journal.holdsNoSession(path) == holdsNone)
    }
  }

  @Test(arguments: [
    ([Int32](), 1, "the newest journal is empty"),
    ([], 3, "the 3 newest journals are empty"),
    ([1234], 0, "the newest session is still open in process 1234"),
    ([1, 2], 1, "the 3 newest journals were skipped: 2 still open (processes 1 and 2), 1 empty"),
  ])
  func theSentenceSaysWhatWasSkipped(open: [Int32], empty: Int, sentence: String) {
    #expect(ResumedSession.skippedSentence(open: open, empty: empty) == sentence)
  }

  // MARK: - Random sessions killed

  /// Key text of the mode in force, spelled as people type it.
  private static let vocabulary: [Key.Mode: [String]] = [
    .standard: [
      "0", "1", "2", "3", "5", "7", "9", ".", "+", "-", "*", "/", "=", "=", "%", "~", "c", "@",
      "q", "r", "ms", "mr", "m+",
    ],
    .scientific: [
      "0", "1", "2", "3", "4", "6", "8", ".", "+", "-", "*", "/", "=", "=", "^", "(", ")", "sin",
      "cos", "pi", "~",
    ],
    .programmer: [
      "0", "1", "2", "3", "5", "7", "9", "+", "-", "*", "=", "=", "and", "or", "xor", "not",
      "hex", "dec",
    ],
  ]

  /// Notes as people write them: words, `#`, `$`, `|`, commas, quotes, other scripts.
  private static let notes = [
    "rent", "rent, March", "a # b", "Miete für März", "x,y \"q\"", "$3 of it", "ünïcödé ✓",
    "|pipe|", "  spaced  ", "税金", "tip 15%",
  ]

  /// A random line of a REPL session in three modes: keys of the mode in force, often with a
  /// note; a mode key; now and then a move that makes the next keys a branch, or a `:note`.
  private static func randomLine(_ random: inout SplitMix64, session: Session) -> String {
    let mode = session.state.mode
    switch random.below(20) {
    case 0, 4: return ["sci", "prog", "std"][random.below(3)]
    case 1: return ":undo"
    case 2: return ":goto \(random.int(0...max(0, session.history.count)))"
    case 3:
      let lines = session.history.lines().count
      return ":note \(random.int(1...max(1, lines))) \(notes[random.below(notes.count)])"
    default:
      let words = vocabulary[mode] ?? []
      let keys = (0..<random.int(1...7)).map { _ in words[random.below(words.count)] }.joined()
      return random.chance(50) ? keys + "  # " + notes[random.below(notes.count)] : keys
    }
  }

  /// Random REPL sessions in the three modes with notes on their key lines, each killed with
  /// `kill -9` once a random number of its lines were answered: `--resume` brings back every
  /// answered line and every note — the session a replay of the same lines in process built.
  /// 3 sessions of up to 16 lines (20 of up to 40 with `CALC_LONG_TESTS=1`).
  @Test func everyAnsweredLineAndNoteComesBackAfterKill9() throws {
    var random = SplitMix64(state: 46)
    let (sessions, longest) = (
      TestSize.count(short: 3, long: 20), TestSize.count(short: 16, long: 40)
    )
    var notesBack = 0
    for round in 0..<sessions {
      try withTemporaryDirectory { directory in
        let calc = try startCalc(in: directory, arguments: ["--no-live"])
        calc.skippedLines = 1
        var oracle = LineInterpreter(
          context: .init(format: .posix, showsExpression: true, isInteractive: true))
        var typed: [String] = []
        for count in 1...random.int(3...longest) {
          // Each session starts in a mode of its own.
          let line =
            count == 1
            ? ["sci", "prog", "std"][round % 3] : Self.randomLine(&random, session: oracle.session)
          typed.append(line)
          _ = try? oracle.run(line, output: OutputBuffer())
          try calc.type(line + "\r")
          // Each line, answered or refused, ends with a new prompt.
          try calc.wait(for: "the answer to \(line)") { calc in
            calc.lines.filter { $0.hasPrefix("calc") }.count == count + 1
          }
        }
        killAndReap(calc)
        let resumed = try run(["--resume", "-"], in: directory, stdin: ":save s.calc\n")
        let context = "round \(round) (seed 46): \(typed)"
        #expect(resumed.stderr == "", "\(context)")
        let expected = SessionScript.text(of: oracle.session.history)
        let saved = try Script.read("s.calc", in: directory)
        #expect(saved == expected, "\(context)")
        notesBack += expected.components(separatedBy: "  # ").count - 1
      }
    }
    #expect(notesBack > 0, "the sessions had notes to bring back")
  }
}
