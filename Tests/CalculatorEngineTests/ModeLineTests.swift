import CalcTestSupport
import CalculatorEngine
import Testing

/// SPEC §11: the mode line that `--mode` adds is line 0. A branch whose first line is exactly
/// one mode key numbers it 0 and the lines after it from 1; `$0` and the commands that change a
/// line refuse it, and a change of line 1 that makes or unmakes such a line keeps every
/// reference pointing at the same line.
@Suite struct ModeLineTests {

  static func keys(_ text: String) -> TypedKeys { LedgerTests.keys(text) }

  /// Line 0 `sci`, then 1,024, 1,025 and 2,050.
  static let lines = ["sci", "2^10=", "$1+1=", "$2*2="]

  @Test func theModeLineIsLineZeroAndReferencesCountFromIt() throws {
    let session = try LedgerTests.session(Self.lines)
    #expect(History.firstLineNumber(of: session.history.lines()) == 0)
    #expect(LedgerTests.displays(session) == ["0", "1,024", "1,025", "2,050"])
    let plain = try LedgerTests.session(["2*10=", "$1+1="])
    #expect(History.firstLineNumber(of: plain.history.lines()) == 1)
  }

  @Test(
    arguments: [
      ("sci", true), ("std", true), ("prog", true), ("sci rad", false), ("5", false),
      ("5 sci", false),
    ] as [(String, Bool)])
  func aModeLineIsExactlyOneModeKey(text: String, isModeLine: Bool) {
    #expect(History.isModeLine(Self.keys(text)) == isModeLine)
  }

  @Test func dollarZeroIsRejectedAndChangesNothing() throws {
    var session = try LedgerTests.session(Self.lines)
    let before = SessionScript.text(of: session.history)
    #expect(throws: SessionError.modeLineReference(line: 4)) {
      try session.perform(.keys(Self.keys("$0+1=")))
    }
    #expect(
      SessionError.modeLineReference(line: 4).description
        == "$0 refers to the mode line, line 0, which has no result to recall; this is line 4")
    #expect(SessionError.modeLineReference(line: 4).rejectedReference == 0)
    #expect(SessionScript.text(of: session.history) == before)
    // Without a mode line there is no line 0 at all.
    var plain = try LedgerTests.session(["1=", "2="])
    #expect(throws: SessionError.badReference(0, line: 3)) {
      try plain.perform(.keys(Self.keys("$0+1=")))
    }
  }

  @Test(
    arguments: [
      (
        Session.Command.edit(line: 0, keys: LedgerTests.keys("std")),
        "cannot edit line 0: it is the mode line, which stays (lines: 1…3)"
      ),
      (.delete(line: 0), "cannot delete line 0: it is the mode line, which stays (lines: 1…3)"),
      (
        .insert(line: 0, keys: LedgerTests.keys("5")),
        "cannot insert before line 0: it is the mode line, which stays (lines: 1…3)"
      ),
      (
        .note(line: 0, text: "mode"),
        "cannot set the note of line 0: it is the mode line, which stays (lines: 1…3)"
      ),
      (
        .vary(line: 0, alternatives: [LedgerTests.keys("std")]),
        "cannot vary line 0: it is the mode line, which stays (lines: 1…3)"
      ),
    ] as [(Session.Command, String)])
  func changesOfLineZeroAreRefusedAndChangeNothing(command: Session.Command, message: String)
    throws
  {
    var session = try LedgerTests.session(Self.lines)
    let before = SessionScript.text(of: session.history)
    do {
      try session.perform(command)
      Issue.record("\(command) was done")
    } catch {
      #expect(error.description == message)
    }
    #expect(SessionScript.text(of: session.history) == before)
    #expect(session.history.branchCount == 1)
  }

  @Test func aModeLineAloneLeavesNoOtherLines() throws {
    var session = try LedgerTests.session(["sci"])
    #expect(throws: SessionError.modeLineFixed("edit", last: 0)) {
      try session.perform(.edit(line: 0, keys: Self.keys("std")))
    }
    #expect(
      SessionError.modeLineFixed("edit", last: 0).description
        == "cannot edit line 0: it is the mode line, which stays (this branch has no other lines)")
    #expect(throws: SessionError.unknownLine(1, count: 0)) {
      try session.perform(.delete(line: 1))
    }
    // `:insert 1` adds a line after it, at the end.
    try session.perform(.insert(line: 1, keys: Self.keys("2^3=")))
    #expect(LedgerTests.texts(session) == ["sci", "2^3="])
    #expect(LedgerTests.display(session) == "8")
  }

  @Test func anInsertOrDeleteAfterTheModeLineKeepsItAsLineZero() throws {
    var session = try LedgerTests.session(Self.lines)
    try session.perform(.insert(line: 1, keys: Self.keys("100=")))
    #expect(LedgerTests.texts(session) == ["sci", "100=", "2^10=", "$2+1=", "$3*2="])
    #expect(LedgerTests.displays(session) == ["0", "100", "1,024", "1,025", "2,050"])
    var deleted = try LedgerTests.session(["sci", "7=", "2^10=", "$2+1="])
    try deleted.perform(.delete(line: 1))
    #expect(LedgerTests.texts(deleted) == ["sci", "2^10=", "$1+1="])
    #expect(LedgerTests.displays(deleted) == ["0", "1,024", "1,025"])
    #expect(throws: SessionError.referencedLineDeleted(line: 1, by: 2)) {
      try deleted.perform(.delete(line: 1))
    }
  }

  @Test func aChangeOfLineOneCanMakeTheModeLineAndReferencesFollowTheirLines() throws {
    // `:insert 1 sci` on a branch without one makes line 0: every line keeps its number.
    var inserted = try LedgerTests.session(["2+3=", "$1*2="])
    try inserted.perform(.insert(line: 1, keys: Self.keys("sci")))
    #expect(LedgerTests.texts(inserted) == ["sci", "2+3=", "$1*2="])
    #expect(LedgerTests.displays(inserted) == ["0", "5", "10"])
    // `:edit 1 sci` makes line 1 line 0: a later line that used it is refused.
    var used = try LedgerTests.session(["2+3=", "$1*2="])
    let before = SessionScript.text(of: used.history)
    #expect(throws: SessionError.laterLineReferencesModeLine(.edited, line: 1, later: 2)) {
      try used.perform(.edit(line: 1, keys: Self.keys("sci")))
    }
    #expect(
      SessionError.laterLineReferencesModeLine(.edited, line: 1, later: 2).description
        == "cannot edit line 1: the first line would then be a lone mode key, the mode line "
        + "(line 0), and line 2 refers to it")
    #expect(SessionScript.text(of: used.history) == before)
    // Unused, the later lines move down a number, and their references with them.
    var edited = try LedgerTests.session(["2+3=", "7=", "$2*2="])
    try edited.perform(.edit(line: 1, keys: Self.keys("sci")))
    #expect(LedgerTests.texts(edited) == ["sci", "7=", "$1*2="])
    #expect(LedgerTests.displays(edited) == ["0", "7", "14"])
    // `:delete 1` before a lone mode key makes that line 0.
    var deleted = try LedgerTests.session(["5=", "sci", "2^3=", "$3+1="])
    try deleted.perform(.delete(line: 1))
    #expect(LedgerTests.texts(deleted) == ["sci", "2^3=", "$1+1="])
    #expect(LedgerTests.displays(deleted) == ["0", "8", "9"])
  }

  @Test func findAndVaryNumberTheLinesFromTheModeLine() throws {
    var session = try LedgerTests.session(Self.lines)
    #expect(LedgerTests.found("1,025", in: session) == ["1 2 $1+1= 1,025"])
    guard
      case .varied(let variation) = try session.perform(
        .vary(line: 1, alternatives: [Self.keys("2^11=")]))
    else {
      Issue.record("no table")
      return
    }
    #expect(variation.line == 1)
    #expect(variation.columns == [1, 2, 3])
    #expect(
      variation.rows.map { $0.displays.map { DisplayFormat.posix.text(for: $0) } } == [
        ["1,024", "1,025", "2,050"], ["2,048", "2,049", "4,098"],
      ])
  }

  /// Inside the first line, the part before the position is a line of its own: line 0 when it
  /// is a lone mode key.
  @Test func thePartOfALineBeforeAForkCanBeTheModeLine() throws {
    var session = try LedgerTests.session(["sci2^10=", ":goto 1"])
    #expect(throws: SessionError.badReference(1, line: 1)) {
      try session.perform(.keys(Self.keys("$1=")))
    }
    try session.perform(.keys(Self.keys("3^2=")))
    try session.perform(.keys(Self.keys("$1+1=")))
    #expect(LedgerTests.texts(session) == ["sci", "3^2=", "$1+1="])
    #expect(LedgerTests.displays(session) == ["0", "9", "10"])
    #expect(History.firstLineNumber(of: session.history.lines(ofBranch: 1)) == 1)
  }
}

/// The line ends that resolve `$N` without counting the lines (issue 36): kept through lines
/// typed at the end, rebuilt after moves into the past, forks and replacements.
@Suite struct LineEndIndexTests {
  static func keys(_ text: String) -> TypedKeys { LedgerTests.keys(text) }

  @Test func referencesResolveAfterMovesForksAndBranchSwitches() throws {
    var session = Session()
    try session.perform(.keys(Self.keys("1=")))
    for number in 1..<40 {
      try session.perform(.keys(Self.keys("$\(number)+1=")))
    }
    #expect(LedgerTests.display(session) == "40")
    // A line without a reference at the end keeps the index; then one with a reference.
    try session.perform(.keys(Self.keys("c500=")))
    try session.perform(.keys(Self.keys("$41+$3=")))
    #expect(LedgerTests.display(session) == "503")
    // Back in the past: a new branch whose lines end where the old one's did.
    let end10 = session.history.lines()[9].end
    try session.perform(.goto(.step(end10)))
    try session.perform(.keys(Self.keys("$10*100=")))
    #expect(LedgerTests.display(session) == "1,000")
    try session.perform(.keys(Self.keys("$11+$2=")))
    #expect(LedgerTests.display(session) == "1,002")
    // Back on branch 1, at its end.
    try session.perform(.branch(1))
    try session.perform(.keys(Self.keys("$42+1=")))
    #expect(LedgerTests.display(session) == "504")
    session.history._checkInvariants()
  }

  /// A replacement brings other line ends, even with the same length and number of branches.
  @Test func aLoadDropsTheLineEnds() throws {
    var session = try LedgerTests.session(["1=", "$1+1="])
    let other = try LedgerTests.session(["5+5=", "+1"])
    #expect(session.history.count == other.history.count)
    try session.perform(.load(other))
    try session.perform(.keys(Self.keys("$1")))
    #expect(LedgerTests.display(session) == "10")
    // `:undo` back to the session before a load brings its own line ends, though the loaded
    // session's last had the same branch, length and number of branches.
    var restored = try LedgerTests.session(["1=", "22+1=", "$2"])
    let loaded = try LedgerTests.session(["555=", "+1="])
    try restored.perform(.load(loaded))
    try restored.perform(.keys(Self.keys("$1")))
    #expect(restored.history.count == 8)
    var undos = 0
    while undos < 6, case .moved = try restored.perform(.undo(1)) { undos += 1 }
    #expect(restored.history.count == 8)
    #expect(LedgerTests.display(restored) == "23")
    try restored.perform(.keys(Self.keys("$1")))
    #expect(LedgerTests.display(restored) == "1")
  }
}

/// `:find` in Programmer mode (SPEC §11): `0x…`, `0o…` and `0b…` find a value by its word's
/// bits; the digits a HEX, OCT or BIN display shows find it as shown; decimal text, grouped or
/// not, finds it by its value whatever the radix shown.
@Suite struct FindInProgrammerModeTests {
  /// Line 0 `prog`; 255; 123,456,789; then HEX; then a byte: 0x15.
  static let lines = ["prog", "255+0=", "123456789+0=", "hex", "byte"]

  @Test(
    arguments: [
      ("0xFF", ["1 1 255+0= 255"]), ("0o377", ["1 1 255+0= 255"]),
      ("0b1111_1111", ["1 1 255+0= 255"]), ("0B11111111", ["1 1 255+0= 255"]),
      ("255", ["1 1 255+0= 255"]),
      ("0x75bcd15", ["1 2 123456789+0= 123,456,789", "1 3 hex 75B CD15"]),
      ("0x75B CD15", ["1 2 123456789+0= 123,456,789", "1 3 hex 75B CD15"]),
      ("75BCD15", ["1 3 hex 75B CD15"]), ("75B CD15", ["1 3 hex 75B CD15"]),
      ("123,456,789", ["1 2 123456789+0= 123,456,789", "1 3 hex 75B CD15"]),
      ("0x15", ["1 4 byte 15"]), ("21", ["1 4 byte 15"]), ("15", ["1 4 byte 15"]),
      ("0x1FFFFFFFFFFFFFFFF", []), ("0x", []), ("0xG", []), ("0b102", []),
    ] as [(String, [String])])
  func programmerValuesAreFoundInEveryForm(text: String, expected: [String]) throws {
    let session = try LedgerTests.session(Self.lines)
    #expect(LedgerTests.found(text, in: session) == expected)
  }

  @Test(
    arguments: [
      ("0xff", 255), ("0o17", 15), ("0b101", 5), ("0x_f f", 255), ("0xFFFFFFFFFFFFFFFF", -1),
    ] as [(String, Int64)])
  func wordsAreReadInTheirRadix(text: String, expected: Int64) {
    #expect(Ledger.word(text) == UInt64(bitPattern: expected))
  }
}
