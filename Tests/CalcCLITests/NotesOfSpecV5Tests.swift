import CalcTestSupport
import CalculatorEngine
import Foundation
import Testing

@testable import CalcCLI
@testable import CalcCore

/// Issue 45 (SPEC v5 §5, "Notes, never silence"): every note that v5 adds, with its exact text,
/// in every mode where it can occur — a table per mode, through `--keys`, a script on standard
/// input, the REPL, and `-q` (which silences notes and nothing else). The keys run in the mode
/// given by `--mode`, so that columns count from the keys themselves.
@Suite struct NotesOfSpecV5Tests {
  /// A line of keys, what it shows, its notes (each with its column) and the exit status.
  struct Row: Sendable, CustomTestStringConvertible {
    var keys: String
    var display: String
    var notes: [(message: String, column: Int)]
    var status: Int32 = 0
    var testDescription: String { keys }

    init(
      _ keys: String, _ display: String, _ notes: [(message: String, column: Int)],
      status: Int32 = 0
    ) {
      (self.keys, self.display, self.notes, self.status) = (keys, display, notes, status)
    }

    init(_ keys: String, _ display: String, _ note: String, column: Int, status: Int32 = 0) {
      self.init(keys, display, [(note, column)], status: status)
    }
  }

  /// What the notes say in each mode for `5*-2=` and its kin.
  /// `formula` is the line as a formula, which the note offers (SPEC v5 §5, §12).
  static func negative(
    _ left: String, _ op: String, _ right: String, formula: String
  ) -> String {
    "− replaced \(op) (\(left) − \(right)); a negative number is typed \(right)~, or as a "
      + "formula: calc -e '\(formula)'"
  }

  static let tilde =
    "~ did nothing to 0 and 5 started a new number (~ goes after the number: 5~)"
  static let memory = "MR replaced the 2 being typed (2×MR is 2*mr)"
  static let roundedOperands =
    "the line shows values rounded to the display; √3² is 2.999999999999999999999999999999999 "
    + "(√ rounds to 34 digits)"

  static let standard: [Row] = [
    Row("5*-2=", "3", negative("5", "×", "2", formula: "5*-2"), column: 3),
    Row("5+*3=", "15", "× replaced + (5 × 3)", column: 3),
    Row("5*/2=", "2.5", "÷ replaced × (5 ÷ 2)", column: 3),
    Row(
      "1+2*-3=", "0",
      [
        (negative("3", "×", "3", formula: "1+2*-3"), 5),
        (
          "Standard mode computes left to right (1 + 2 = 3, then ×); sci and formulas (calc -e) apply precedence",
          4
        ),
      ]),
    Row("5ms c 2mr", "5", memory, column: 8),
    Row("~5+3=", "8", tilde, column: 1),
    Row(
      "12.99+4.50*3+7.25=", "59.72",
      "Standard mode computes left to right (12.99 + 4.5 = 17.49, then × 3); sci and formulas "
        + "(calc -e) apply precedence", column: 11),
    Row("3@q-3=", "-1E-33", roundedOperands, column: 6),
    // No note: what the keys say is what a person means.
    Row("5*2~=", "-10", []),
    Row("100-50=", "50", []),
    Row("12.99+4.50=", "17.49", []),
  ]

  static let scientific: [Row] = [
    Row("5*-2=", "3", negative("5", "×", "2", formula: "5*-2"), column: 3),
    Row("2^-1=", "1", negative("2", "xʸ", "1", formula: "2^-1"), column: 3),
    Row("1+2*-3=", "0", negative("3", "×", "3", formula: "1+2*-3"), column: 5),
    Row("5+*3=", "15", "× replaced + (5 × 3)", column: 3),
    Row("2pi=", "3.14159265", "π replaced the 2 being typed (2π is 2*pi)", column: 2),
    Row("2euler=", "2.71828183", "e replaced the 2 being typed (2e is 2*euler)", column: 2),
    Row("5ms c 2mr", "5", memory, column: 8),
    Row(
      "1.5exp-3=", "-1.5",
      "− after exp subtracts (1.5 − 3); a negative exponent is 1.5exp3~", column: 7),
    Row("1exp+3=", "4", "+ after exp adds (1 + 3); an exponent is 1exp3", column: 5),
    Row("~5+3=", "8", tilde, column: 1),
    Row(
      "1exp12345", "1.e+1234", "an exponent holds 4 digits; 1 more was ignored (column 9)",
      column: 9),
    Row("3@q-3=", "-1E-33", roundedOperands, column: 6),
    // No note: precedence, a negative exponent typed as such, π on its own.
    Row("12.99+4.50*3+7.25=", "33.74", []),
    Row("1.5exp3~=", "0.0015", []),
    Row("2*pi=", "6.28318531", []),
  ]

  static let programmer: [Row] = [
    Row("5*-2=", "3", negative("5", "×", "2", formula: "5*-2"), column: 3),
    Row("5+*3=", "15", "× replaced + (5 × 3)", column: 3),
    Row("5 and or 3=", "7", "OR replaced AND (5 OR 3)", column: 7),
    Row("5 lsh rsh 1=", "2", "Rsh replaced Lsh (5 Rsh 1)", column: 7),
    Row("5ms c 2mr", "5", memory, column: 8),
    Row("~5+3=", "8", tilde, column: 1),
    Row("c~5", "5", tilde, column: 2),
    // No note: precedence, and a number made negative after its digits.
    Row("1+2*3=", "7", []),
    Row("5~*2=", "-10", []),
  ]

  static func check(_ row: Row, mode: String) throws {
    let stderr = row.notes.map { "calc: note: \($0.message)\n" }.joined()
    try expectScript(
      ["--display", "--mode", mode, "-k", row.keys], stdout: row.display + "\n",
      stderr: stderr, status: row.status)
    try expectScript(
      ["--display", "-q", "--mode", mode, "-k", row.keys], stdout: row.display + "\n",
      status: row.status)
    let located = row.notes.map { "<stdin>:1:\($0.column): note: \($0.message)\n" }.joined()
    try expectScript(
      ["--display", "--mode", mode, "-"], stdin: row.keys + "\n", stdout: row.display + "\n",
      stderr: located, status: row.status)
    // The REPL: the same notes, after the display, and status 0.
    let key = mode == "standard" ? "std" : mode == "scientific" ? "sci" : "prog"
    let repl = REPLInProcessTests.run([key, row.keys])
    #expect(repl.errors == row.notes.map { "note: \($0.message)\n" }.joined(), "\(row.keys)")
    // Programmer mode's panel follows the display.
    #expect(repl.output.contains("\n\(row.display)\n"), "\(repl.output)")
    #expect(repl.status == 0)
  }

  @Test(arguments: standard) func inStandardMode(_ row: Row) throws {
    try Self.check(row, mode: "standard")
  }

  @Test(arguments: scientific) func inScientificMode(_ row: Row) throws {
    try Self.check(row, mode: "scientific")
  }

  @Test(arguments: programmer) func inProgrammerMode(_ row: Row) throws {
    try Self.check(row, mode: "programmer")
  }

  // MARK: - Notes about lines

  static let modes = ["standard", "scientific", "programmer"]

  /// A number that ended a line, replaced by the next line's first number before any operator
  /// used it: `12+⏎3⏎4=⏎` → `16`.
  @Test(arguments: modes) func aNumberReplacedByTheNextLine(_ mode: String) throws {
    try expectScript(
      ["--mode", mode, "-"], stdin: "12+\n3\n4=\n", stdout: "12\n3\n16\n",
      stderr: "<stdin>:3:1: note: the 3 of line 2 was replaced by 4 before it was used\n")
    // A number alone on its line, with nothing pending, is that line's result (SPEC rule 18:
    // `printf '1\n2\n3\n' | calc` prints 1, 2, 3); an operator after the number uses it.
    try expectScript(["--mode", mode, "-"], stdin: "1\n2\n3\n", stdout: "1\n2\n3\n")
    try expectScript(["--mode", mode, "-"], stdin: "12+\n3\n+4=\n", stdout: "12\n3\n19\n")
    // A till's lines end on an operator: the next line's number replaces nothing (and such a
    // line is not replayed for the note: Performance.md, "The final main of stop 55").
    try expectScript(
      ["--mode", mode, "-"], stdin: "12+\n7-\n3+\n5\n=\n", stdout: "12\n19\n16\n5\n21\n")
    try expectScript(
      ["--mode", mode, "-"], stdin: "12+\n7-\n3\n5=\n", stdout: "12\n19\n3\n14\n",
      stderr: "<stdin>:4:1: note: the 3 of line 3 was replaced by 5 before it was used\n")
    // Not after a move into a number, which a person means (SPEC §4).
    try expectScript(
      ["--mode", mode, "-"], stdin: "12+3=\n:goto -1\n4=\n", stdout: "15\n3\n16\n")
  }

  /// `$N` of a line that ended in an error shows that error (SPEC §11, rule 14), with §5's
  /// note; the line counts as one that showed an error.
  @Test(arguments: modes) func aReferenceToAnErrorLine(_ mode: String) throws {
    try expectScript(
      ["--mode", mode, "-"], stdin: "1/0=\n$1*2=\n", stdout: "Cannot divide by zero\n2\n",
      stderr: "<stdin>:2:1: note: $1 recalled the error of line 1 (Cannot divide by zero); "
        + "the keys after it started a new calculation\n", status: 1)
    try expectScript(
      ["--mode", mode, "-"], stdin: "1/0=\nc\n5+$1=\n",
      stdout: "Cannot divide by zero\n0\nCannot divide by zero\n",
      stderr: "<stdin>:3:3: note: $1 recalled the error of line 1 (Cannot divide by zero)\n",
      status: 1)
    // Its note, and status 1, also when the line before does not show the error any more.
    try expectScript(
      ["--mode", mode, "-"], stdin: "1/0=\nc\n$1*3+1=\n", stdout: "Cannot divide by zero\n0\n4\n",
      stderr: "<stdin>:3:1: note: $1 recalled the error of line 1 (Cannot divide by zero); "
        + "the keys after it started a new calculation\n", status: 1)
  }

  /// `:edit`'s report says which lines now show an error, at their end or on the way (a
  /// result that hides the error it went past), and the replay does not count as a key line.
  @Test func anEditSaysWhichLinesNowShowAnError() throws {
    let lines = "100=\n$1*2=\n$2+$1=\n"
    try expectScript(
      ["-"], stdin: lines + ":edit 1 1/0=\n",
      stdout: "100\n200\n300\n"
        + "branch 2 (from branch 1): line 1 changed; 3 results changed: 100 → Cannot divide by "
        + "zero (step 4), 200 → 2 (step 8), 300 → Cannot divide by zero (step 12); now showing "
        + "an error: line 1, line 2 (on the way), line 3\nCannot divide by zero\n")
    try expectScript(
      ["-"], stdin: lines + ":edit 2 1/0=\n",
      stdout: "100\n200\n300\n"
        + "branch 2 (from branch 1): line 2 changed; 2 results changed: 200 → Cannot divide by "
        + "zero (step 8), 300 → Cannot divide by zero (step 12); now showing an error: line 2, "
        + "line 3\nCannot divide by zero\n")
    // An edit that clears the error says nothing of errors.
    try expectScript(
      ["-"], stdin: "1/0=\n$1*2=\n:edit 1 5=\n",
      stdout: "Cannot divide by zero\n2\n"
        + "branch 2 (from branch 1): line 1 changed; 2 results changed: Cannot divide by zero → "
        + "5 (step 2), 2 → 10 (step 6)\n10\n",
      stderr: "<stdin>:2:1: note: $1 recalled the error of line 1 (Cannot divide by zero); the "
        + "keys after it started a new calculation\n", status: 1)
  }

  /// The lines `:edit`, `:insert` and `:delete` name as now showing an error are numbered as
  /// `:lines` numbers the new branch: after a mode line (line 0), after an inserted line, and
  /// after a deleted one.
  @Test func theLinesNowShowingAnErrorAreTheNewBranchs() throws {
    try expectScript(
      ["-"], stdin: "sci\n100=\n$1*2=\n$2+$1=\n:edit 1 1/0=\n",
      stdout: "0\n100\n200\n300\n"
        + "branch 2 (from branch 1): line 1 changed; 3 results changed: 100 → Cannot divide by "
        + "zero (step 5), 200 → 2 (step 9), 300 → Cannot divide by zero (step 13); now showing "
        + "an error: line 1, line 2 (on the way), line 3\nCannot divide by zero\n")
    try expectScript(
      ["-"], stdin: "sci\n1=\n+5=\n+6=\n:insert 2 1/0\n",
      stdout: "0\n1\n6\n12\n"
        + "branch 2 (from branch 1): line 2 inserted; 2 results changed: 6 → 5 (step 9), 12 → 11 "
        + "(step 12); now showing an error: line 3 (on the way)\n11\n")
    // Scientific mode has no note for a number replaced by the next line (SPEC v5 §5).
    let note = "<stdin>:3:1: note: the 0 of line 2 was replaced by 7 before it was used\n"
    for (mode, stdout, step, note) in [
      ("", "2\n0\n7\n5.28571429\n", 6, note), ("sci\n", "0\n2\n0\n7\n5.28571429\n", 7, ""),
    ] {
      try expectScript(
        ["-"], stdin: mode + "2/\n0\n7\n+5=\n:delete 3\n",
        stdout: stdout
          + "branch 2 (from branch 1): line 3 deleted; 1 result changed: 5.28571429 → 5 (step "
          + "\(step)); now showing an error: line 3 (on the way)\n5\n",
        stderr: note)
    }
  }

  /// `$N` replacing a number being typed (`2$1`), as `mr` does.
  @Test(arguments: modes) func aReferenceReplacingANumber(_ mode: String) throws {
    try expectScript(
      ["--mode", mode, "-"], stdin: "7=\n2$1=\n", stdout: "7\n7\n",
      stderr: "<stdin>:2:2: note: $1 replaced the 2 being typed (2×$1 is 2*$1)\n")
  }

  /// Standard mode's left-to-right note is given once a run, at the first such line.
  @Test func leftToRightOnceARun() throws {
    let note =
      "note: Standard mode computes left to right (1 + 2 = 3, then × 3); sci and formulas (calc -e) apply precedence"
    try expectScript(
      ["-"], stdin: "1+2*3=\n1+2*3=\n", stdout: "9\n9\n", stderr: "<stdin>:1:4: \(note)\n")
    let repl = REPLInProcessTests.run(["1+2*3=", "1+2*3=", "sci", "1+2*3="])
    #expect(repl.errors == "\(note)\n")
  }

  /// The formula words are on since formula mode exists, in one place
  /// (Documentation/Decisions.md).
  @Test func formulaWordsNameFormulaMode() {
    #expect(FormulaWords.isAvailable)
    #expect(FormulaWords.asFormula("5*-2=") == ", or as a formula: calc -e '5*-2'")
    #expect(FormulaWords.asFormula("  5*-2 =  # note") == ", or as a formula: calc -e '5*-2'")
    #expect(FormulaWords.precedence == "sci and formulas (calc -e) apply precedence")
  }

  @Test func aTermIsWrittenAsAFormula() {
    #expect(LineInterpreter.compact("sqr(√(3))") == "√3²")
    #expect(LineInterpreter.compact("√(sqr(3))") == "√(3²)")
    #expect(LineInterpreter.compact("√(2)") == "√2")
    #expect(LineInterpreter.compact("sqr(sqr(2))") == "2²²")
    #expect(LineInterpreter.compact("1/(3)") == "1/(3)")
  }
}
