import CalcTestSupport
import Testing

@testable import CalculatorEngine

/// The session-script codec in the engine: the one writer (``SessionScript``) and the one reader
/// (``SessionScript/Replay``), which read back what the writer writes without the CLI.
@Suite struct SessionScriptTests {

  static func keys(_ text: String) -> TypedKeys { try! KeyText.keys(in: text) }

  /// The lines that perform `command`, joined by newlines.
  static func lines(performing command: Session.Command) -> String {
    var lines: [String] = []
    SessionScript.forEachLine(performing: command) { lines.append($0) }
    return lines.joined(separator: "\n")
  }

  @Test func eachCommandIsWrittenAsTheLineThatPerformsIt() throws {
    var loaded = Session()
    try loaded.perform(.keys(Self.keys("12+3=")))
    let table: [(Session.Command, String)] = [
      (.keys(Self.keys("12 + 3 =")), "12+3="),
      (.keys(Self.keys("ms mr m+ ce c")), "ms mr m+ce c"),
      (.goto(.step(4)), ":goto 4"),
      (.goto(.offset(2)), ":goto +2"),
      (.goto(.offset(-3)), ":goto -3"),
      (.undo(1), ":undo 1"),
      (.redo(2), ":redo 2"),
      (.branch(3), ":branch 3"),
      (.reset, ":reset"),
      (
        .load(loaded),
        ":reset load\n# calc session, format 3: 1 branch, at step 5 of 5 on branch 1\n12+3=\n:goto 5"
      ),
    ]
    for (command, expected) in table {
      #expect(Self.lines(performing: command) == expected)
    }
  }

  @Test func aRecordNamesWhereAMoveCameTo() throws {
    var session = Session()
    func record(_ command: Session.Command) throws -> String {
      let change = try session.perform(command)
      var lines: [String] = []
      SessionScript.forEachRecordLine(of: command, change: change, leaving: session) {
        lines.append($0)
      }
      return lines.joined(separator: "\n")
    }
    #expect(try record(.keys(Self.keys("12+3="))) == "12+3=")
    #expect(try record(.keys([])) == "")
    #expect(try record(.undo(1)) == ":goto 0")
    #expect(try record(.undo(1)) == "", "a move that stays is not recorded")
    #expect(try record(.redo(1)) == ":goto 5")
    #expect(try record(.goto(.offset(-2))) == ":goto 3")
    #expect(try record(.keys(Self.keys("4="))) == "4=")
    #expect(try record(.branch(1)) == ":branch 1")
    #expect(try record(.reset) == ":reset")
  }

  @Test func directivesAreParsedAsTheSessionTakesThem() throws {
    func command(_ line: String) throws(LineError) -> Session.Command? {
      guard case .directive(let directive) = try? ScriptLine(line) else {
        Issue.record("\(line) is no directive")
        return nil
      }
      return try SessionScript.command(directive)
    }
    #expect(Self.lines(performing: try #require(try command(":goto 7"))) == ":goto 7")
    #expect(Self.lines(performing: try #require(try command(" :goto  -2 # back"))) == ":goto -2")
    #expect(Self.lines(performing: try #require(try command(":undo"))) == ":undo 1")
    #expect(Self.lines(performing: try #require(try command(":redo 3"))) == ":redo 3")
    #expect(Self.lines(performing: try #require(try command(":branch 2"))) == ":branch 2")
    #expect(Self.lines(performing: try #require(try command(":reset"))) == ":reset")
    #expect(try command(":save x.calc") == nil)
    #expect(try command("quit") == nil)
    let errors: [(String, LineError)] = [
      (":goto", LineError(":goto needs a step: N, +K or -K", column: 6)),
      (":goto x", LineError(":goto takes a step N, +K or -K, not 'x'", column: 7)),
      (":goto +", LineError(":goto takes a step N, +K or -K, not '+'", column: 7)),
      (":undo -1", LineError(":undo takes a number of lines, not '-1'", column: 7)),
      (":branch", LineError(":branch needs a branch number (see :branches)", column: 8)),
      (":branch b", LineError(":branch takes a branch number, not 'b'", column: 9)),
      (":reset now", LineError(":reset takes no argument, not 'now'", column: 8)),
      (
        ":goto 99999999999999999999",
        LineError(
          ":goto takes a step N, +K or -K, not '99999999999999999999'", column: 7)
      ),
    ]
    for (line, expected) in errors {
      #expect(throws: expected) { _ = try command(line) }
    }
  }

  @Test func aReplayStopsBeforeALineItCannotTake() throws {
    let text = "12+3=\n:goto 2\n*4=\r\n:goto 9\n5=\n"
    let (session, stop) = SessionScript.replay(Array(text.utf8))
    #expect(
      stop
        == SessionScript.Stop(
          line: 4,
          error: LineError(
            "step 9 is out of range 0…5", column: 7)))
    #expect(session.history.branchCount == 2)
    #expect(session.history.position == 5)

    let torn = SessionScript.replay(Array("12+3=\n*2".utf8))
    #expect(torn.stop == SessionScript.Stop(line: 2, error: nil))
    #expect(torn.session.history.count == 5, "the torn line is not replayed")

    let other = SessionScript.replay(Array("1\n  :save x.calc\n".utf8))
    #expect(other.stop?.error == LineError(":save cannot be used in a session file", column: 3))
    #expect(
      SessionScript.replay(Array("12x\n".utf8)).stop?.error
        == LineError("unknown key 'x' at column 3 (× is '*')", column: 3))
    #expect(SessionScript.replay([]).stop == nil)
  }

  /// The first line names the format: 3 is written, 2 and 3 are read, the older header and
  /// hand-written scripts are told apart, and a later format is refused by name.
  @Test func theFirstLineNamesTheFormat() throws {
    func origin(_ line: String) throws(LineError) -> SessionScript.Origin {
      var copy = line
      let result: Result<SessionScript.Origin, LineError> = copy.withUTF8 { bytes in
        do throws(LineError) {
          return .success(try SessionScript.origin(ofFirstLine: bytes))
        } catch {
          return .failure(error)
        }
      }
      return try result.get()
    }
    #expect(SessionScript.header == "# calc session, format 3: ")
    let table: [(String, SessionScript.Origin)] = [
      ("# calc session, format 3: 1 branch, at step 5 of 5 on branch 1", .format(3)),
      ("# calc session, format 2: empty", .format(2)),
      ("# calc journal, format 3", .format(3)),
      ("# calc journal, format 2 # crc 32fd19d1", .format(2)),
      ("# calc journal, format 3 ", .format(3)),
      ("# calc session, format 0: x", .format(2)),
      ("# calc session: 1 branch, at step 5 of 5 on branch 1", .olderFormat),
      ("# calc session, format x", .handWritten),
      ("12+3=", .handWritten),
      ("", .handWritten),
      ("# my budget", .handWritten),
    ]
    for (line, expected) in table {
      #expect(try origin(line) == expected, "\(line)")
    }
    #expect(
      throws: LineError("written by a newer calc (format 5; this calc reads formats up to 4)")
    ) { _ = try origin("# calc session, format 5: 1 branch") }
    #expect(
      throws: LineError("written by a newer calc (format 99; this calc reads formats up to 4)")
    ) { _ = try origin("# calc journal, format 99 # crc 00000000") }
    #expect(
      throws: LineError(
        "written by a newer calc (format 25-digit; this calc reads formats up to 4)")
    ) { _ = try origin("# calc journal, format 1234567890123456789012345") }

    // A replay stops at the first line of a newer file, and says which format a file named.
    let newer = SessionScript.replay(Array("# calc session, format 5: x\n1+1=\n".utf8))
    #expect(
      newer.stop
        == SessionScript.Stop(
          line: 1,
          error: LineError("written by a newer calc (format 5; this calc reads formats up to 4)")))
    #expect(newer.session.history.isEmpty)
    var replay = SessionScript.Replay()
    #expect(throws: LineError.self) { try replay.perform("# calc session, format 5: x") }
    #expect(replay.origin == .handWritten && replay.lineCount == 0)
    try replay.perform("# calc session, format 2: 1 branch")
    #expect(replay.origin == .format(2) && !replay.isOlderFormat)
    try replay.perform("# calc session, format 4: a comment after the first line")
    #expect(replay.origin == .format(2))
    var older = SessionScript.Replay()
    try older.perform("# calc session: 1 branch")
    #expect(older.isOlderFormat)
  }

  @Test func aRejectedLineChangesNothing() throws {
    var replay = SessionScript.Replay()
    try replay.perform("12+3=")
    let before = SessionScript.text(of: replay.session.history)
    for line in [":goto 9", ":branch 2", "12+x", ":save f", ":frob"] {
      #expect(throws: LineError.self) { try replay.perform(line) }
      #expect(SessionScript.text(of: replay.session.history) == before)
      #expect(replay.lineCount == 1)
    }
  }

  /// 50 random sessions (3,000 with `CALC_LONG_TESTS=1`): the script written for a session
  /// replays to the same session (save then load is identity), and so do the records of each
  /// command performed (what a journal keeps).
  @Test func writingThenReadingIsIdentity() throws {
    for index in 0..<TestSize.count(short: 50, long: 3_000) {
      let seed = 0x5C21_7700 &+ UInt64(index) &* 0x9E37_79B9
      var random = SplitMix64(state: seed)
      var model = SessionModel()
      var session = Session()
      var journal: [UInt8] = []
      for _ in 0..<40 {
        let operation = SessionOperation.random(for: model, using: &random)
        guard model.perform(operation) else { continue }
        let command = operation.command
        let change = try session.perform(command)
        SessionScript.forEachRecordLine(of: command, change: change, leaving: session) {
          journal += Array($0.utf8) + [UInt8(ascii: "\n")]
        }
      }
      let saved = SessionScript.text(of: session.history)
      let loaded = SessionScript.replay(Array(saved.utf8))
      #expect(loaded.stop == nil, "seed \(seed)")
      #expect(SessionScript.text(of: loaded.session.history) == saved, "seed \(seed)")
      #expect(loaded.session.state == session.state, "seed \(seed)")
      let resumed = SessionScript.replay(journal)
      #expect(resumed.stop == nil, "seed \(seed)")
      #expect(SessionScript.text(of: resumed.session.history) == saved, "seed \(seed)")
    }
  }
}
