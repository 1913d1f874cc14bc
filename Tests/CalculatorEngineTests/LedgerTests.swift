import CalcTestSupport
import CalculatorEngine
import Testing

/// SPEC §11 in the engine: `$N` references (resolved when a line is applied, afresh on every
/// replay, renumbered by `:insert` and `:delete`) and line notes (kept with the line, saved,
/// set without a branch). The random sessions of `SessionTests` and `SessionScriptTests` cover
/// both through `SessionModel`; these are the spec's examples and the edges, with exact text.
@Suite struct LedgerTests {

  static func keys(_ text: String) -> TypedKeys { try! KeyText.keys(in: text) }

  /// A session after the script `lines` (key lines with notes, and directives), replayed.
  static func session(_ lines: [String]) throws -> Session {
    var replay = SessionScript.Replay()
    for line in lines { try replay.perform(line) }
    replay.session.history._checkInvariants()
    return replay.session
  }

  static func display(_ session: Session) -> String { DisplayFormat.posix.text(for: session.state) }

  /// The display after each line of the current branch.
  static func displays(_ session: Session) -> [String] {
    let lines = session.history.lines()
    return session.history.displays(after: lines[...]).map { DisplayFormat.posix.text(for: $0) }
  }

  /// The lines of the current branch as `:lines` writes their keys.
  static func texts(_ session: Session) -> [String] {
    session.history.lines().map { KeyText.text(of: $0.keys) }
  }

  // MARK: - Key text

  @Test(
    arguments: [
      (
        "$3*1.19=",
        TypedKeys(
          [.reference, .op(.multiply), .digit(.one), .dot, .digit(.one), .digit(.nine), .equal],
          references: [3]), "$3*1.19="
      ),
      ("$3 5", TypedKeys([.reference, .digit(.five)], references: [3]), "$3 5"),
      ("$12$1", TypedKeys([.reference, .reference], references: [12, 1]), "$12$1"),
      ("ms$2", TypedKeys([.memory(.store), .reference], references: [2]), "ms$2"),
      (
        "5+$2=  # VAT",
        TypedKeys([.digit(.five), .op(.plus), .reference, .equal], references: [2]),
        "5+$2="
      ),
    ] as [(String, TypedKeys, String)])
  func referencesAreKeysWrittenAsTyped(text: String, keys: TypedKeys, canonical: String) throws {
    #expect(try KeyText.keys(in: text) == keys)
    #expect(KeyText.text(of: keys) == canonical)
    #expect(try KeyText.keys(in: canonical) == keys, "what is written reads back")
  }

  // MARK: - References

  @Test func aReferenceRecallsTheValueAfterItsLineLikeMR() throws {
    let session = try Self.session([
      "1200+350+89=", "$1*0.19=", "$1+$2=", "2+$1", "$1 5", "7+$2$1=",
    ])
    // Line 6: 2 + 7 is 9, pending; $2 then $1 replace the right operand: 9 + 1,639.
    #expect(
      Self.displays(session) == ["1,639", "311.41", "1,950.41", "1,639", "5", "1,648"])
    #expect(
      Self.texts(session) == ["1200+350+89=", "$1*0.19=", "$1+$2=", "2+$1", "$1 5", "7+$2$1="])
    // The tape and the expression line show the value, as for MR.
    let state = session.history.state(at: session.history.lines()[3].end)
    #expect(DisplayFormat.posix.text(for: state.expressionLine) == "2 +")
  }

  @Test func aReferenceCarriesTheExactValue() throws {
    let session = try Self.session(["2/3=", "$1*3="])
    #expect(Self.displays(session) == ["0.66666667", "2"])
  }

  @Test func aReferenceToALineThatEndedInAnErrorShowsItThenRule14() throws {
    let session = try Self.session(["1+2=", "4*5=", "1/0=", "$3*1.19="])
    #expect(Self.displays(session) == ["3", "20", "Cannot divide by zero", "1.19"])
    let shown = try Self.session(["1/0=", "$1"])
    #expect(Self.display(shown) == "Cannot divide by zero")
  }

  @Test(arguments: [
    ("$7*2=", "$7 refers to line 7; this is line 5 (a line can use only the lines before it)"),
    ("$5", "$5 refers to line 5; this is line 5 (a line can use only the lines before it)"),
    ("$0+1=", "$0 refers to no line (lines are numbered from 1); this is line 5"),
  ])
  func otherReferencesRejectTheLineAndChangeNothing(line: String, message: String) throws {
    var session = try Self.session(["1=", "2=", "3=", "4="])
    let before = SessionScript.text(of: session.history)
    #expect(throws: SessionError.self) { try session.perform(.keys(Self.keys(line))) }
    do {
      try session.perform(.keys(Self.keys(line)))
    } catch {
      #expect(error.description == message)
    }
    #expect(SessionScript.text(of: session.history) == before)
    #expect(Self.display(session) == "4")
  }

  @Test func referencesWorkAcrossModes() throws {
    // The first `sci` is the mode line, line 0 (SPEC §11).
    let session = try Self.session(["sci", "2^10=", "std", "$1+1=", "sci", "(1+$3)*2="])
    #expect(Self.displays(session) == ["0", "1,024", "0", "1,025", "0", "2,052"])
  }

  /// In Programmer mode `$N` recalls as `mr` does: truncated toward zero, wrapped to the word,
  /// shown in the radix; a line that ended in an error shows the error.
  @Test func referencesWorkInProgrammerModeAsMR() throws {
    let session = try Self.session([
      "1000/8=", "c7.9~", "prog", "byte", "$1*3=", "$2", "hex", "$5",
    ])
    let shown = Self.displays(session)
    // 125 × 3 is 375, 119 in a byte; -7.9 is -7, F9 in hex; 119 is 77 in hex.
    #expect(shown == ["125", "-7.9", "0", "0", "119", "-7", "F9", "77"])
    let error = try Self.session(["1/0=", "prog", "$1"])
    #expect(Self.display(error) == "Cannot divide by zero")
  }

  /// `$N`'s code is no key's: Programmer mode's keys take the codes 0 through 173, and a branch
  /// that holds both keeps each key (its line ends are apart from the codes).
  @Test func theReferenceCodeIsNoKeysCodeAndBothKindsOfKeyAreKept() throws {
    #expect(Key.allKeys.count == 175)
    #expect(!Key.allKeys.contains { $0.code == Key.referenceCode })
    #expect(Key(code: Key.referenceCode) == nil)
    #expect(Key.programmer(.bit(Key.Bit(63)!)).code == 173)
    let lines = ["prog", "1 bit63 rorc", "$1 bit7", "bit7$2 rorc"]
    let session = try Self.session(lines)
    #expect(Self.texts(session) == ["prog", "1bit63 rorc", "$1bit7", "bit7$2rorc"])
    var keys: [Key] = []
    session.history.forEachLine(upToPosition: { keys += $0 })
    #expect(keys == lines.flatMap(Self.keys))
    let history = session.history
    #expect((1...history.count).map { history.key(at: $0) } == keys)
  }

  @Test func linesAreNumberedOnTheBranchTheLineIsRecordedOn() throws {
    // After line 1, a new branch: its line 2 may use line 1 only.
    var session = try Self.session(["1+1=", "2+2=", "3+3=", ":goto 4"])
    #expect(throws: SessionError.badReference(2, line: 2)) {
      try session.perform(.keys(Self.keys("$2*10=")))
    }
    try session.perform(.keys(Self.keys("$1*10=")))
    #expect(session.history.currentBranch == 2)
    #expect(Self.displays(session) == ["2", "20"])
    // Inside a line, the part before the position is line 1: `1+` shows 1.
    var inside = try Self.session(["1+1=", ":goto 2"])
    try inside.perform(.keys(Self.keys("$1=")))
    #expect(Self.texts(inside) == ["1+", "$1="])
    #expect(Self.display(inside) == "2")
  }

  @Test func anEditRecomputesTheLinesThatUseItAndReportsThem() throws {
    var session = try Self.session(["1200+350+89=", "$1*0.19=", "$1+$2="])
    let change = try session.perform(.edit(line: 1, keys: Self.keys("1200+350+98=")))
    guard case .rewrote(let rewrite) = change else {
      Issue.record("\(change)")
      return
    }
    #expect(
      rewrite.results.map {
        "\(DisplayFormat.posix.text(for: $0.old)) → \(DisplayFormat.posix.text(for: $0.new))"
      } == ["1,639 → 1,648", "311.41 → 313.12", "1,950.41 → 1,961.12"])
    #expect(Self.texts(session) == ["1200+350+98=", "$1*0.19=", "$1+$2="])
    // The old branch keeps its values.
    try session.perform(.branch(1))
    #expect(Self.display(session) == "1,950.41")
  }

  /// Four lines, the last using the three before it.
  static let referring = ["2+3=", "10*2=", "7-1=", "$1+$2+$3="]

  @Test(arguments: 1...5)
  func anInsertRenumbersTheReferencesOfTheLinesItMoves(at line: Int) throws {
    var session = try Self.session(Self.referring)
    try session.perform(.insert(line: line, keys: Self.keys("100=")))
    var expected = ["2+3=", "10*2=", "7-1=", "$1+$2+$3="]
    expected[3] = (1...3).map { $0 >= line ? "$\($0 + 1)" : "$\($0)" }.joined(separator: "+") + "="
    expected.insert("100=", at: line - 1)
    #expect(Self.texts(session) == expected)
    // At the end, `100=` repeats the last line's `+ 6` (rule 6).
    #expect(Self.display(session) == (line == 5 ? "106" : "31"))
  }

  @Test(arguments: 1...3)
  func deletingAReferencedLineIsRefusedAndChangesNothing(line: Int) throws {
    var session = try Self.session(Self.referring)
    let before = SessionScript.text(of: session.history)
    #expect(throws: SessionError.referencedLineDeleted(line: line, by: 4)) {
      try session.perform(.delete(line: line))
    }
    #expect(
      SessionError.referencedLineDeleted(line: line, by: 4).description
        == "cannot delete line \(line): line 4 refers to it ($\(line))")
    #expect(SessionScript.text(of: session.history) == before)
  }

  @Test(arguments: 1...5)
  func aDeleteRenumbersTheReferencesOfTheLinesItMoves(at line: Int) throws {
    // Line 2 is referred to by nobody; the others by a later line.
    var session = try Self.session(["2+3=", "9=", "$1*2=", "$3+1=", "$4*$1="])
    let before = SessionScript.text(of: session.history)
    let texts = ["2+3=", "9=", "$1*2=", "$3+1=", "$4*$1="]
    switch line {
    case 2:
      try session.perform(.delete(line: 2))
      #expect(Self.texts(session) == ["2+3=", "$1*2=", "$2+1=", "$3*$1="])
      #expect(Self.displays(session) == ["5", "10", "11", "55"])
    case 5:
      try session.perform(.delete(line: 5))
      #expect(Self.texts(session) == texts, "the last line's keys stay as the future")
      #expect(session.history.position == session.history.lines()[3].end)
    default:
      #expect(throws: SessionError.self) { try session.perform(.delete(line: line)) }
      #expect(SessionScript.text(of: session.history) == before)
    }
  }

  @Test func anEditOrInsertThatRefersAheadIsRefused() throws {
    var session = try Self.session(Self.referring)
    let before = SessionScript.text(of: session.history)
    #expect(throws: SessionError.badReference(2, line: 2)) {
      try session.perform(.edit(line: 2, keys: Self.keys("$2=")))
    }
    #expect(throws: SessionError.badReference(3, line: 2)) {
      try session.perform(.insert(line: 2, keys: Self.keys("$3=")))
    }
    #expect(SessionScript.text(of: session.history) == before)
  }

  @Test func savedAndLoadedReferencesResolveAfresh() throws {
    let session = try Self.session(
      Self.referring + [":goto 4", "$1*100=", ":branch 1"])
    let saved = SessionScript.text(of: session.history)
    #expect(saved.contains("\n$1+$2+$3=\n"))
    let loaded = SessionScript.replay(Array(saved.utf8))
    #expect(loaded.stop == nil)
    #expect(SessionScript.text(of: loaded.session.history) == saved)
    #expect(loaded.session.state == session.state)
  }

  // MARK: - Notes

  @Test func aTrailingCommentIsTheLinesNote() throws {
    let session = try Self.session([
      "# calc session, format 3: hand copied", "1200+350+89=  # rent, March", "*12=",
      "5= # total # crc 0badf00d", "6=  #   ", "7= # 19% # crc+ 0123abcd",
    ])
    #expect(session.history.lines().map(\.note) == ["rent, March", nil, "total", nil, "19%"])
    let saved = SessionScript.text(of: session.history)
    #expect(saved.contains("\n1200+350+89=  # rent, March\n*12=\n5=  # total\n"))
    let loaded = SessionScript.replay(Array(saved.utf8))
    #expect(SessionScript.text(of: loaded.session.history) == saved)
  }

  @Test func aFormat2FileHasNoNotes() throws {
    let session = try Self.session(["# calc session, format 2: 1 branch", "12+3=  # not a note"])
    #expect(session.history.lines().map(\.note) == [nil])
  }

  @Test func theNoteCommandSetsWithoutABranchAndUndoKeepsIt() throws {
    var session = try Self.session(["1+2=", "*3="])
    let change = try session.perform(.note(line: 1, text: "VAT # 19%"))
    #expect(change == .noted(line: 1, isUnchanged: false))
    #expect(session.history.branchCount == 1)
    try session.perform(.undo(2))
    #expect(session.history.lines().map(\.note) == ["VAT # 19%", nil])
    #expect(
      try session.perform(.note(line: 1, text: "VAT # 19%")) == .noted(line: 1, isUnchanged: true))
    try session.perform(.note(line: 1, text: nil))
    #expect(session.history.lines().map(\.note) == [nil, nil])
    #expect(throws: SessionError.unknownLine(3, count: 2)) {
      try session.perform(.note(line: 3, text: "x"))
    }
  }

  @Test func theNoteDirectiveTakesTheTextWhole() throws {
    guard case .directive(let directive) = try ScriptLine(":note 2 VAT # 19%") else {
      Issue.record("not a directive")
      return
    }
    #expect(directive.argument == "2 VAT # 19%")
    let command = try SessionScript.command(directive)
    guard case .note(2, "VAT # 19%")? = command else {
      Issue.record("\(String(describing: command))")
      return
    }
    var lines: [String] = []
    SessionScript.forEachLine(performing: .note(line: 2, text: "VAT # 19%")) { lines.append($0) }
    #expect(lines == [":note 2 VAT # 19%"])
  }

  @Test func aNoteStaysWithItsLineThroughEditsAndReplays() throws {
    var session = try Self.session(["1+1=  # one", "2+2=  # two", "3+3=  # three"])
    try session.perform(.edit(line: 2, keys: Self.keys("20+2=")))
    #expect(session.history.lines().map(\.note) == ["one", "two", "three"])
    try session.perform(.insert(line: 1, keys: Self.keys("9=")))
    #expect(session.history.lines().map(\.note) == [nil, "one", "two", "three"])
    try session.perform(.delete(line: 2))
    #expect(session.history.lines().map(\.note) == [nil, "two", "three"])
  }

  @Test func thePartOfAParentsLineBeforeAForkHasNoNoteOfItsOwn() throws {
    var session = try Self.session(["12+3=  # sum", ":goto 2", "*4="])
    #expect(session.history.lines().map(\.note) == [nil, nil])
    #expect(throws: SessionError.noteOnForkedPart(line: 1, branch: 2, parent: 1)) {
      try session.perform(.note(line: 1, text: "x"))
    }
    try session.perform(.branch(1))
    #expect(session.history.lines().map(\.note) == ["sum"])
  }
}

extension LedgerTests {
  @Test(
    arguments: [
      (":edit 2 20+2=", "20+2=", "two"),
      (":edit 2 20+2=  # new", "20+2=", "new"),
      (":edit 2 20+2=  #", "20+2=", nil),
      (":edit 2 2+2=  # only the note", "2+2=", "only the note"),
      (":edit 2 2+2= # crc 0badf00d", "2+2=", "two"),
    ] as [(String, String, String?)])
  func anEditKeepsSetsOrRemovesTheNote(line: String, keys: String, note: String?) throws {
    let session = try Self.session(["1+1=  # one", "2+2=  # two", "3+3=", line])
    #expect(session.history.lines().map(\.note) == ["one", note, nil])
    #expect(Self.texts(session)[1] == keys)
    // An edit of the note alone makes no branch, as `note`.
    #expect(session.history.branchCount == (keys == "2+2=" ? 1 : 2))
    // Written as it was given, it replays to the same.
    let saved = SessionScript.text(of: session.history)
    #expect(
      SessionScript.text(of: SessionScript.replay(Array(saved.utf8)).session.history) == saved)
  }

  @Test func anEditIsRecordedWithItsNoteChange() {
    var lines: [String] = []
    for note in [Session.NoteChange.keep, .set("VAT # 19%"), .remove] {
      SessionScript.forEachLine(performing: .edit(line: 2, keys: Self.keys("5="), note: note)) {
        lines.append($0)
      }
    }
    #expect(lines == [":edit 2 5=", ":edit 2 5=  # VAT # 19%", ":edit 2 5=  #"])
  }
}

extension LedgerTests {
  /// `:find`'s answers as `branch line keys display (+N)`.
  static func found(_ text: String, in session: Session, format: DisplayFormat = .posix)
    -> [String]
  {
    var rows: [String] = []
    Ledger.find(Ledger.Query(text, format: format), in: session.history) { found in
      rows.append(
        "\(found.branch) \(found.number) \(KeyText.text(of: found.line.keys)) "
          + format.text(for: found.display)
          + (found.otherBranches > 0 ? " +\(found.otherBranches)" : ""))
      return true
    }
    return rows
  }

  @Test func findListsLinesByNoteOrShownValueOnEveryBranchCurrentFirst() throws {
    let session = try Self.session([
      "1200+350+89=  # Rent, March", "*12=", ":goto 12", "$1*1.19=  # with VAT", "c 1639=",
    ])
    #expect(session.history.currentBranch == 2)
    // Line 1 is shared by both branches; the current branch's lines come first.
    #expect(Self.found("1639", in: session) == ["1 1 1200+350+89= 1,639 +1", "2 3 c1639= 1,639"])
    #expect(Self.found("1,639", in: session) == Self.found("1639", in: session))
    #expect(Self.found("1639.00", in: session) == Self.found("1639", in: session))
    #expect(Self.found("rent", in: session) == ["1 1 1200+350+89= 1,639 +1"])
    #expect(Self.found("VAT", in: session) == ["2 2 $1*1.19= 1,950.41"])
    #expect(Self.found("19,668", in: session) == ["1 2 *12= 19,668"])
    #expect(Self.found("nothing", in: session).isEmpty)
    // The display's rounding: 2/3 is shown as 0.66666667.
    let third = try Self.session(["2/3="])
    #expect(Self.found("0.66666667", in: third) == ["1 1 2/3= 0.66666667"])
    #expect(Self.found("0.6666", in: third).isEmpty)
  }

  /// Issue 45, defect 3: `:find 1,639` finds under `C.UTF-8` and `en_US` where the output is
  /// not a terminal (no grouping shown), and in the locale's display form (SPEC §11).
  @Test func findReadsGroupedNumbersWhateverTheOutputShows() throws {
    let session = try Self.session(["1200+350+89=", "*12=", "c0.5="])
    let english = DisplayFormat(localeIdentifier: "en_US")
    for format in [DisplayFormat.posix.ungrouped, english.ungrouped, .plain, english] {
      #expect(Self.found("1,639", in: session, format: format).count == 1, "\(format)")
      #expect(Self.found("19,668", in: session, format: format).count == 1, "\(format)")
      #expect(Self.found("-1,639", in: session, format: format).isEmpty)
      // Groups where the locale puts them, or none.
      #expect(Self.found("16,39", in: session, format: format).isEmpty)
      #expect(Self.found("1,6,39", in: session, format: format).isEmpty)
    }
    // The locale's display form: `.` groups in de-DE, `,` is its decimal separator.
    let german = DisplayFormat(localeIdentifier: "de_DE")
    for format in [german, german.ungrouped] {
      #expect(Self.found("1.639", in: session, format: format).count == 1)
      #expect(Self.found("19.668", in: session, format: format).count == 1)
      #expect(Self.found("0,5", in: session, format: format).count == 1)
    }
    // fr-FR groups with a narrow no-break space, which a person types as a space.
    let french = DisplayFormat(localeIdentifier: "fr_FR")
    for text in ["1\u{202F}639", "1 639"] {
      #expect(Self.found(text, in: session, format: french.ungrouped).count == 1, "\(text)")
    }
  }

  @Test(
    arguments: [
      ("1639", "1639"), ("-0012.50", "-12.5"), ("0.0", "0"), ("-0", "0"), ("1.", "1"),
      ("1,639", nil), ("1e5", nil), ("", nil), (".", nil), ("1.2.3", nil),
    ] as [(String, String?)])
  func numbersAreComparedCanonically(text: String, canonical: String?) {
    #expect(Ledger.canonicalNumber(text) == canonical)
  }
}

extension LedgerTests {
  @Test func anEditThatABranchHoldsAlreadyReusesIt() throws {
    var session = try Self.session(["1200+350+89=", "$1*12=", ":edit 1 1300+350+89=", ":branch 1"])
    #expect(session.history.branchCount == 2)
    let change = try session.perform(.edit(line: 1, keys: Self.keys("1300+350+89=")))
    guard case .rewrote(let rewrite) = change else {
      Issue.record("\(change)")
      return
    }
    #expect(rewrite.newBranch == 2)
    #expect(session.history.branchCount == 2)
    #expect(session.history.currentBranch == 2)
    #expect(Self.display(session) == "20,868")
    // Back to the first keys from branch 2: branch 1 holds them.
    try session.perform(.edit(line: 1, keys: Self.keys("1200+350+89=")))
    #expect(session.history.currentBranch == 1)
    #expect(session.history.branchCount == 2)
  }
}
