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
}
