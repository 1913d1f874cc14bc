import CalcTestSupport
import CalculatorEngine
import Foundation
import Testing

@testable import CalcCLI
@testable import CalcCore

/// No silent wrong answers, round 2 (issue 33, items 1, 2 and 6; SPEC §5, §6 and §1): the new
/// notes through `--keys`, scripts and the REPL, the exit status of an error passed on the way,
/// the REPL's locale decimal separator, and the hints.
@Suite struct NoSilentWrongAnswersTests {
  /// A line of keys, what it shows, its note (its column, as a script gives it) and the exit
  /// status of `--keys` and of a script holding it.
  struct Row: Sendable, CustomTestStringConvertible {
    var keys: String
    var display: String
    var note: String?
    var column = 1
    var status: Int32 = 0
    var testDescription: String { keys }
  }

  static let rows: [Row] = [
    // An error the line went past (rule 14): the column of the key that showed it.
    Row(
      keys: "50/0*100=", display: "100",
      note: "Cannot divide by zero at column 5 (50 ÷ 0 ×); the keys after it started a new "
        + "calculation", column: 5, status: 1),
    Row(
      keys: "sci 50/0*100=", display: "100",
      note: "Cannot divide by zero at column 9 (50 ÷ 0 ×); the keys after it started a new "
        + "calculation", column: 9, status: 1),
    Row(
      keys: "2~@+5=", display: "5",
      note: "Invalid input at column 3 (√(-2)); the keys after it started a new calculation",
      column: 3, status: 1),
    Row(
      keys: "sci 2~@+5=", display: "5",
      note: "Invalid input at column 7 (√(-2)); the keys after it started a new calculation",
      column: 7, status: 1),
    Row(
      keys: "1/0=5+1=", display: "6",
      note: "Cannot divide by zero at column 4 (1 ÷ 0 =); the keys after it started a new "
        + "calculation", column: 4, status: 1),
    // A unary key of Scientific mode typed first, before its number.
    Row(
      keys: "sci sin(30)=", display: "0",
      note: "sin acted on 0 (sin acts on the number before it: 30sin, or (…)sin)", column: 5),
    Row(
      keys: "sci sin(2+3)=", display: "0",
      note: "sin acted on 0 (sin acts on the number before it: (…)sin)", column: 5),
    Row(
      keys: "sci sin 30=", display: "30",
      note: "sin acted on 0 and 30 started a new number (sin acts on the number before it: "
        + "30sin)", column: 9),
    // log and ln of 0 show an error, which the note explains: still status 1.
    Row(
      keys: "sci log(100)=", display: "100",
      note: "log acted on 0 (log acts on the number before it: 100log, or (…)log)", column: 5,
      status: 1),
    Row(
      keys: "sci ln 2", display: "2",
      note: "ln acted on 0 and 2 started a new number (ln acts on the number before it: 2ln)",
      column: 8, status: 1),
    Row(
      keys: "sci 5!3q", display: "9",
      note: "n! acted on 5 and 3 started a new number (n! acts on the number before it: 3!)",
      column: 7),
    Row(
      keys: "@16", display: "16",
      note: "√ acted on 0 and 16 started a new number (√ acts on the number before it: 16@)",
      column: 2),
    // An operator that replaced the same one.
    Row(
      keys: "2**10=", display: "20",
      note: "the second × replaced the first (xʸ is ^ in Scientific mode)", column: 3),
    Row(
      keys: "sci 2**10=", display: "20", note: "the second × replaced the first (xʸ is ^)",
      column: 7),
    Row(keys: "2//4=", display: "0.5", note: "the second ÷ replaced the first", column: 3),
    // A second decimal point.
    Row(
      keys: "1.2.3=", display: "1.23",
      note: "a number has one decimal point; the '.' at column 4 was ignored", column: 4),
    Row(
      keys: "sci 1.2.3=", display: "1.23",
      note: "a number has one decimal point; the '.' at column 8 was ignored", column: 8),
    // The first key a binary operator on a 0 nobody typed (the shell ate `$2`).
    Row(
      keys: "*1.19=", display: "0",
      note: "the line starts with ×; if it held $N, quote it with '…'", column: 1),
    Row(
      keys: " -5=", display: "-5", note: "the line starts with -; if it held $N, quote it with '…'",
      column: 2),
    // Nothing a person probably did not mean: no note, and no error passed.
    Row(keys: "123.45*6.7=", display: "827.115"),
    Row(keys: "1/0=c5=", display: "5"),
    Row(keys: "1/0=ce5=", display: "5"),
    Row(keys: "sci 30sin", display: "0.5"),
    Row(keys: "sci 2*(3+4)=", display: "14"),
    Row(keys: "5*3-1=", display: "14"),
    Row(keys: "1.5+.5=", display: "2"),
    Row(keys: "2+3=*2=", display: "10"),
    Row(keys: "sci 2^10=", display: "1,024"),
    // Errors at the end of the line: status 1, no note.
    Row(keys: "1/0=", display: "Cannot divide by zero", status: 1),
    Row(keys: "9~@+", display: "Invalid input", status: 1),
  ]

  @Test(arguments: rows) func throughKeys(_ row: Row) throws {
    try expectScript(
      ["--display", "-k", row.keys], stdout: row.display + "\n",
      stderr: row.note.map { "calc: note: \($0)\n" } ?? "", status: row.status)
    // -q silences the note, never the status.
    try expectScript(
      ["--display", "-q", "-k", row.keys], stdout: row.display + "\n", status: row.status)
  }

  @Test(arguments: rows) func throughAScript(_ row: Row) throws {
    // The keys on line 2, after a line that clears, as a fresh calculator is.
    try expectScript(
      ["--display", "-"], stdin: "c\n\(row.keys)\n", stdout: "0\n\(row.display)\n",
      stderr: row.note.map { "<stdin>:2:\(row.column): note: \($0)\n" } ?? "", status: row.status)
    try expectScript(
      ["--display", "--quiet", "-"], stdin: "c\n\(row.keys)\n", stdout: "0\n\(row.display)\n",
      status: row.status)
  }

  /// In process, the interpreter returns each row's notes and whether it showed an error.
  @Test(arguments: rows) func throughTheInterpreter(_ row: Row) throws {
    var interpreter = LineInterpreter(
      context: .init(format: DisplayFormat(localeIdentifier: "en_US")), host: .withFiles)
    let result = try interpreter.run(row.keys, output: OutputBuffer())
    #expect(result.notes.map(\.message) == (row.note.map { [$0] } ?? []))
    #expect(result.notes.map(\.column) == (row.note == nil ? [] : [row.column]))
    #expect(result.showedAnError == (row.status == 1))
  }

  /// At the REPL (in process, through the line-editor seam): the same note, after the display,
  /// and status 0 whatever the line showed.
  @Test(arguments: rows) func atTheREPL(_ row: Row) {
    let run = REPLInProcessTests.run([row.keys])
    #expect(run.errors == (row.note.map { "note: \($0)\n" } ?? ""))
    #expect(run.output.hasSuffix("\(row.display)\n\n"), "\(run.output)")
    #expect(run.status == 0)
  }

  @Test func notesAtTheREPLAreDimmedAndItExitsZero() {
    let run = REPLInProcessTests.run(["50/0*100=", "2**10=", "1/0=", "1.2.3="])
    #expect(
      run.errors
        == "note: Cannot divide by zero at column 5 (50 ÷ 0 ×); the keys after it started a new "
        + "calculation\nnote: the second × replaced the first (xʸ is ^ in Scientific mode)\n"
        + "note: a number has one decimal point; the '.' at column 4 was ignored\n")
    #expect(run.output.contains("100 =\n100\n"), "\(run.output)")
    #expect(run.status == 0, "the REPL exits 0 unless output failed")
  }

  @Test func theNoteShowsOnceWhereALineGoesPastSeveralErrors() throws {
    // Each error the line went past gets its note, in order; a clear on purpose gets none.
    try expectScript(
      ["-k", "1/0=2/0=5=c3/0=c"], stdout: "0\n",
      stderr: "calc: note: Cannot divide by zero at column 4 (1 ÷ 0 =); the keys after it started "
        + "a new calculation\n"
        + "calc: note: Cannot divide by zero at column 8 (2 ÷ 0 =); the keys after it started "
        + "a new calculation\n", status: 1)
  }

  // MARK: - Exit statuses

  @Test func anErrorShownByAnyKeyLineGivesStatusOne() throws {
    // At the end of a line that a later line leaves, or on the way.
    try expectScript(["-"], stdin: "1/0=\n5=\n", stdout: "Cannot divide by zero\n5\n", status: 1)
    try expectScript(
      ["-"], stdin: "2+2=\n50/0*100=\n3=\n", stdout: "4\n100\n3\n",
      stderr: "<stdin>:2:5: note: Cannot divide by zero at column 5 (50 ÷ 0 ×); the keys after "
        + "it started a new calculation\n", status: 1)
    try expectScript(["-"], stdin: "2+2=\n", stdout: "4\n")
  }

  @Test func statusesTakePrecedenceInOrder() throws {
    try withTemporaryDirectory { directory in
      try Script.write("1/0=\n", to: "error.calc", in: directory)
      try Script.write("1/0=\n2x\n3=\n", to: "both.calc", in: directory)
      // 65 before 1.
      try expectScript(
        ["--keep-going", "both.calc"], directory: directory,
        stdout: "Cannot divide by zero\nCannot divide by zero\n3\n",
        stderr: "both.calc:2:2: unknown key 'x' at column 2 (× is '*')\n", status: 65)
      // 66 before 1: a folder cannot be read as a script, after one that showed an error.
      try expectScript(
        ["error.calc", "."], directory: directory, stdout: "Cannot divide by zero\n",
        stderr: "calc: cannot read '.': Is a directory\n", status: 66)
      // 74 before 1.
      let full = try Script.shell("\"$CALC\" -k 50/0*100= > /dev/full", in: directory)
      #expect(full.status == 74)
      #expect(full.stderr.hasSuffix("calc: write error: No space left on device\n"))
      let fullScript = try Script.shell("\"$CALC\" error.calc > /dev/full", in: directory)
      #expect(fullScript.status == 74)
    }
  }

  /// Lines replayed by `:load`, `:edit`, `:insert` and `:delete` are no key lines of the script.
  @Test func replayedLinesDoNotCount() throws {
    try withTemporaryDirectory { directory in
      try Script.write("1/0=\n50/0*100=\n", to: "errors.calc", in: directory)
      try expectScript(
        ["-"], stdin: ":load errors.calc\n", directory: directory, stdout: "100\n")
      try expectScript(
        ["-"], stdin: "1+1=\n2+2=\n:edit 1 1/0=\n", directory: directory,
        stdout: "2\n4\n"
          + "branch 2 (from branch 1): line 1 changed; 1 result changed: 2 → Cannot divide by "
          + "zero (step 4); now showing an error: line 1\n4\n")
      try expectScript(
        ["-"], stdin: "1+1=\n:insert 1 50/0*100=\n:delete 1\n", directory: directory,
        stdout: "2\n"
          + "branch 2 (from branch 1): line 1 inserted; no results changed\n2\n"
          + "branch 3 (from branch 2): line 1 deleted; no results changed\n2\n")
    }
  }

  /// `--resume` replays the last REPL session, whose errors are no key lines of this run; the
  /// REPL itself exits 0 after an error.
  @Test func resumedLinesDoNotCount() throws {
    try withTemporaryDirectory { directory in
      let state = directory.appendingPathComponent("state").path
      let journals = state + "/calc"
      let context = LineInterpreter.Context(format: .posix, isInteractive: true)
      var repl = REPL(
        interpreter: LineInterpreter(
          context: context, host: LineInterpreter.Host(journalDirectory: journals, files: .system)),
        environment: Environment([:]))
      var editor = ScriptedLineEditor(lines: ["1/0=", "50/0*100="])
      let status = repl.run(
        editor: &editor, output: OutputBuffer(), errors: OutputBuffer(), errorStyle: .plain,
        pagerCommand: nil)
      #expect(status == 0)
      let environment: [String: String?] = ["HOME": directory.path, "XDG_STATE_HOME": state]
      try expectScript(["--resume", "-k", "+1="], environment: environment, stdout: "101\n")
      try expectScript(
        ["--resume", "-"], stdin: ":keys\n", environment: environment,
        stdout: "1/0=\n50/0*100=\n")
    }
  }

  @Test func aRepeatedKeysOptionIsAUsageError() throws {
    for arguments in [
      ["-k", "1+", "-k", "2="], ["-k1+", "--keys=2="], ["--keys", "1", "-k", "2"],
    ] {
      try expectRun(
        arguments, stdout: "",
        stderr: "calc: --keys (-k) may be given once; put all the keys in one: -k '12+3='\n",
        status: 64)
    }
    // A value that looks like the option is a value, and after `--` a FILE.
    try expectScript(
      ["-k", "-k"], stdout: "", stderr: "calc: --keys: unknown key 'k' at column 2\n",
      status: 65)
  }

  // MARK: - Hints

  @Test func theMissingFileHintPrintsAResult() throws {
    try withTemporaryDirectory { directory in
      try expectScript(
        ["12+3"], directory: directory, stdout: "",
        stderr: "calc: cannot read '12+3': No such file or directory "
          + "(to press keys: calc -k '12+3=')\n", status: 66)
      // The hint's command does print the result, without a note.
      try expectScript(["-k", "12+3="], stdout: "15\n")
      try expectScript(
        ["12+3="], directory: directory, stdout: "",
        stderr: "calc: cannot read '12+3=': No such file or directory "
          + "(to press keys: calc -k '12+3=')\n", status: 66)
      try expectScript(
        ["help"], directory: directory, stdout: "",
        stderr: "calc: cannot read 'help': No such file or directory (for help: calc --help)\n",
        status: 66)
    }
  }

  @Test func eNamesEuler() throws {
    try expectScript(
      ["-k", "sci e q"], stdout: "",
      stderr: "calc: --keys: unknown key 'e' at column 5 (CE is 'ce'; in Scientific mode the "
        + "constant e is 'euler', and a number in scientific notation is typed with exp: "
        + "sci 1exp40)\n", status: 65)
    try expectScript(["-k", "sci euler q"], stdout: "7.3890561\n")
  }

  @Test func helpExplainsTheUnitSubscript() {
    let help = HelpText.help(style: .plain, mode: .scientific)
    #expect(help.contains("sin₀(30) is in\n"))
    #expect(help.contains("degrees, sinᵣ radians, sin₉ grads"))
    // Wrapped at 40 columns like the rest (SPEC §6), the subscripts stay readable.
    let narrow = HelpText.help(style: .plain, mode: .scientific, columns: 40)
    #expect(narrow.split(separator: "\n").allSatisfy { $0.count <= 40 })
    #expect(narrow.contains("sin₀(30)"))
  }
}

/// The REPL under a locale whose decimal separator is `,` (SPEC §6).
@Suite struct LocaleDecimalPointTests {
  static let german = DisplayFormat(localeIdentifier: "de_DE")

  /// Runs the REPL in `de_DE` on `lines`; returns what it printed and its status.
  static func run(_ lines: [String], journals: String? = nil) -> (
    output: String, errors: String, status: Int32
  ) {
    let context = LineInterpreter.Context(
      format: german, showsExpression: true, isInteractive: true)
    var repl = REPL(
      interpreter: LineInterpreter(
        context: context, host: LineInterpreter.Host(journalDirectory: journals, files: .system)),
      environment: Environment([:]), keepsJournal: journals != nil)
    var editor = ScriptedLineEditor(lines: lines)
    let (output, errors) = (OutputBuffer(), OutputBuffer())
    let status = repl.run(
      editor: &editor, output: output, errors: errors, errorStyle: .plain, pagerCommand: nil)
    return (output.text, errors.text, status)
  }

  @Test(arguments: [
    (
      "1.234,5*2=",
      "1.234,5 mixes '.' and ',' at column 1 ('.' groups digits in de-DE; type 1234,5)"
    ),
    (
      "3+1.234.567,89=",
      "1.234.567,89 mixes '.' and ',' at column 3 ('.' groups digits in de-DE; "
        + "type 1234567,89)"
    ),
    ("1,234.5=", "1,234.5 mixes '.' and ',' at column 1 ('.' groups digits in de-DE; type 1234,5)"),
    (
      "2*1 234,5.0=",
      "1234,5.0 mixes '.' and ',' at column 3 ('.' groups digits in de-DE; "
        + "type 12345,0)"
    ),
  ])
  func aNumberMixingPointAndCommaIsRejected(line: String, message: String) throws {
    #expect(throws: LineError(message, column: message.columnAfter("at column "))) {
      try LocaleDecimalPoint.notes(for: Array(line.utf8), format: Self.german)
    }
    let run = Self.run(["5", line])
    #expect(run.errors == "error: \(message)\n")
    #expect(run.output.hasSuffix("5\n\n"), "nothing applied: \(run.output)")
  }

  @Test(arguments: [
    ("1.234*2=", "1.234 is one point two three four; '.' does not group digits here", 2),
    ("12.345", "12.345 is twelve point three four five; '.' does not group digits here", 3),
    ("2+.125=", ".125 is point one two five; '.' does not group digits here", 3),
    (
      "1234.567=",
      "1234.567 is one thousand two hundred thirty-four point five six seven; "
        + "'.' does not group digits here", 5
    ),
    ("1.234.567=", "1.234 is one point two three four; '.' does not group digits here", 2),
  ])
  func aPointBeforeThreeDigitsGetsANote(line: String, note: String, column: Int) throws {
    let notes = try LocaleDecimalPoint.notes(for: Array(line.utf8), format: Self.german)
    #expect(notes == [LineInterpreter.LineNote(message: note, column: column)])
    let run = Self.run([line])
    #expect(run.errors.hasPrefix("note: \(note)\n"), "\(run.errors)")
  }

  @Test(arguments: ["2,5*2=", "1.5+1,25=", "1.2345=", "1.23=", "1,234=", ":goto 0", "5 # 1.234,5"])
  func otherLinesGetNothing(line: String) throws {
    #expect(try LocaleDecimalPoint.notes(for: Array(line.utf8), format: Self.german) == [])
  }

  /// Where `.` does not group digits (fr_FR groups with a narrow space), the hint says what the
  /// decimal point is instead.
  @Test func aLocaleThatGroupsWithSpacesSaysWhatThePointIs() throws {
    let french = DisplayFormat(localeIdentifier: "fr_FR")
    let message =
      "1.234,5 mixes '.' and ',' at column 1 (',' is the decimal point in fr-FR; type 1234,5)"
    #expect(throws: LineError(message, column: 1)) {
      try LocaleDecimalPoint.notes(for: Array("1.234,5".utf8), format: french)
    }
  }

  @Test func aLocaleWithAPointIsLeftAlone() throws {
    #expect(try LocaleDecimalPoint.notes(for: Array("1.234,5".utf8), format: .posix) == [])
  }

  @Test func theNumberIsReadAloud() {
    func words(_ digits: String) -> String { LocaleDecimalPoint.cardinal(Array(digits.utf8)) }
    #expect(words("0") == "zero")
    #expect(words("007") == "seven")
    #expect(words("15") == "fifteen")
    #expect(words("40") == "forty")
    #expect(words("999") == "nine hundred ninety-nine")
    #expect(words("1000") == "one thousand")
    #expect(words("1000001") == "one million one")
    #expect(
      words("1234567890123456") == "one quadrillion two hundred thirty-four trillion "
        + "five hundred sixty-seven billion eight hundred ninety million one hundred twenty-three "
        + "thousand four hundred fifty-six")
  }

  /// The line is recorded with `.` as the decimal point: `:keys`, `:save` and the journal.
  @Test func linesAreRecordedWithAPoint() throws {
    try withTemporaryDirectory { directory in
      let saved = directory.appendingPathComponent("saved.calc").path
      let journals = directory.appendingPathComponent("state/calc").path
      let run = Self.run(["2,5*2=", "1,5", ":keys", ":save \(saved)"], journals: journals)
      #expect(run.output.contains("2,5 × 2 =\n5\n"), "\(run.output)")
      #expect(run.output.contains("2.5*2=\n1.5\n"), "\(run.output)")
      #expect(
        try String(contentsOfFile: saved, encoding: .utf8).hasSuffix("2.5*2=\n1.5\n:goto 9\n"))
      let journal = try #require(Journal.journals(in: journals).first)
      let text = try String(contentsOfFile: journal, encoding: .utf8)
      #expect(text.contains("2.5*2="), "\(text)")
      #expect(!text.contains("2,5"), "\(text)")
      #expect(run.status == 0)
    }
  }
}

extension String {
  /// The number after `marker` in the string (`at column 3` → 3); 0 when there is none.
  fileprivate func columnAfter(_ marker: String) -> Int {
    guard let range = range(of: marker) else { return 0 }
    return Int(self[range.upperBound...].prefix { $0.isNumber }) ?? 0
  }
}

/// The cheap scan that spares the common line a replay (``LineInterpreter/mayNeedNotes``) never
/// says no where the replay finds a note or an error passed on the way: random lines, in both
/// modes, from random states.
@Suite struct NotesScanTests {
  /// Keys weighted toward what makes notes and errors: zeros, points, operators, `=`, unary keys.
  static let alphabet: [Key] =
    // Formula (date) mode's lines are formulas (date lines), which no keypad note applies to
    // (SPEC §12, §13).
    Key.allKeys.filter {
      !$0.isProgrammerOnly && $0 != .mode(.programmer) && $0 != .mode(.formula)
        && $0 != .mode(.date)
    }
    + Array(repeating: .digit(.zero), count: 6) + Array(repeating: .dot, count: 4)
    + Key.Op.allCases.flatMap { [Key.op($0), .op($0)] }
    + Array(repeating: .equal, count: 6)
    + [.unary(.squareRoot), .unary(.reciprocal), .unary(.square), .command(.flip)]
    + [
      .digit(.nine), .digit(.nine), .digit(.one), .scientific(.function(.ln)),
      .scientific(.function(.sin)),
    ]

  @Test func theScanMissesNoNote() throws {
    var random = SplitMix64(state: 33)
    var checked = 0
    var noted = 0
    for _ in 0..<TestSize.count(short: 600, long: 100_000) {
      var interpreter = LineInterpreter(context: .init(format: .posix), host: .withFiles)
      // A random state: a line or two before, in either mode.
      for _ in 0..<random.int(0...2) {
        var prior: [Key] = random.chance(30) ? [.mode(.scientific)] : []
        for _ in 0..<random.int(1...8) {
          prior.append(Self.alphabet[random.below(Self.alphabet.count)])
        }
        _ = try? interpreter.run(KeyText.text(of: prior), output: OutputBuffer())
      }
      var keys: [Key] = []
      for _ in 0..<random.int(1...12) {
        keys.append(Self.alphabet[random.below(Self.alphabet.count)])
      }
      let before = interpreter.session.state
      guard before.firstKeyOutOfMode(in: keys) == nil else { continue }
      var started = before
      started.startLine()
      let leftToRight = !interpreter.notedLeftToRight
      let found = interpreter.keyNotes(
        for: TypedKeys(keys), after: before, line: nil, leftToRight: leftToRight)
      let mayNeed =
        LineInterpreter.mayNeedNotes(
          keys, isPending: started.isPending,
          startsOnAnUntouchedZero: keys[0].isBinaryOperator && started.showsUntouchedZero,
          leftToRight: leftToRight, mode: started.mode)
        // A line that starts with a number while an operation is pending is replayed too.
        || (started.isPending && keys[0].startsANumber)
      checked += 1
      if !found.notes.isEmpty || found.passedAnError || found.leftToRight != nil {
        noted += 1
        #expect(mayNeed, "\(KeyText.text(of: keys)) after \(interpreter.display): \(found)")
      }
      // Through the interpreter: the same notes, and the status flag.
      let result = try interpreter.run(KeyText.text(of: keys), output: OutputBuffer())
      #expect(
        result.notes.map(\.message).count == found.notes.count + (found.leftToRight == nil ? 0 : 1),
        "\(KeyText.text(of: keys)) after \(interpreter.display): \(found)")
      var after = started
      for key in keys { after.press(key) }
      #expect(result.showedAnError == (found.passedAnError || after.isError))
    }
    // The sweep reaches both kinds of line.
    #expect(checked > 200 && noted > 20, "checked \(checked), noted \(noted)")
  }
}
