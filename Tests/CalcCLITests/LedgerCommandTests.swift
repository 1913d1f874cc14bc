import CalculatorEngine
import Testing

@testable import CalcCLI

/// SPEC §11 through the line interpreter, in process: `$N` key lines, a key line's note, and
/// `:note`, with what each prints and what the journal records for it.
@Suite struct LedgerCommandTests {
  /// Runs `lines` in one interpreter; returns what each printed and the journal's record of it.
  static func run(_ lines: [String]) throws -> (
    printed: [String], records: [String], interpreter: LineInterpreter
  ) {
    var interpreter = LineInterpreter(format: .posix)
    var printed: [String] = []
    var records: [String] = []
    for line in lines {
      let output = OutputBuffer()
      let result = try interpreter.run(line, output: output)
      printed.append(output.text)
      if let effect = result.effect {
        records += Journal.lines(
          for: effect.command, change: effect.change, after: interpreter.session)
      }
    }
    return (printed, records, interpreter)
  }

  @Test func theInvoiceExampleRecomputesItsVATLine() throws {
    let (printed, records, interpreter) = try Self.run([
      "1200+350+89=  # net", "$1*0.19=  # VAT", "$1+$2=", ":note 3 total # gross",
      ":edit 1 1200+350+98=",
    ])
    #expect(printed[0] == "1,639\n")
    #expect(printed[1] == "311.41\n")
    #expect(printed[2] == "1,950.41\n")
    #expect(printed[3] == "1,950.41\n", ":note prints the display and changes nothing")
    #expect(
      printed[4]
        == "branch 2 (from branch 1): line 1 changed; 3 results changed: 1,639 → 1,648 (step 12), "
        + "311.41 → 313.12 (step 19), 1,950.41 → 1,961.12 (step 23)\n1,961.12\n")
    #expect(
      records == [
        "1200+350+89=  # net", "$1*0.19=  # VAT", "$1+$2=", ":note 3 total # gross",
        ":edit 1 1200+350+98=",
      ])
    let lines = interpreter.session.history.lines()
    #expect(lines.map(\.note) == ["net", "VAT", "total # gross"])
    #expect(lines.map { KeyText.text(of: $0.keys) } == ["1200+350+98=", "$1*0.19=", "$1+$2="])
  }

  /// Tab after `$` offers the numbers of the lines a line entered now can refer to, in
  /// increasing order (readline's completer asks for them: `REPLTests`).
  @Test(arguments: [
    ("", 3, ["1", "2", "3"]), ("1", 12, ["1", "10", "11", "12"]), ("2", 12, ["2"]),
    ("12", 12, ["12"]), ("13", 12, []), ("0", 12, []), ("", 0, []), ("1x", 12, []),
    ("+", 12, []),
  ])
  func tabCompletesLineNumbersAfterADollar(digits: String, lineCount: Int, expected: [String]) {
    #expect(LineInterpreter.referenceCompletions(of: digits, lineCount: lineCount) == expected)
  }

  /// The lines a `$N` can refer to follow the position: a line's part before it counts as a
  /// line, as it will once a line is entered there (SPEC §11).
  @Test func referableLinesFollowThePosition() throws {
    var (_, _, interpreter) = try Self.run(["1200+350+89=", "$1*0.19=", "$1+$2="])
    var counts: [Int] = [interpreter.referableLineCount]
    for move in [":goto 19", ":goto 15", ":goto 12", ":goto 3", ":goto 0"] {
      try interpreter.run(move, output: OutputBuffer())
      counts.append(interpreter.referableLineCount)
    }
    #expect(counts == [3, 2, 2, 1, 1, 0])
  }

  @Test func aBadReferenceIsAnErrorThatChangesNothing() throws {
    var interpreter = LineInterpreter(format: .posix)
    try interpreter.run("12+3=", output: OutputBuffer())
    #expect(
      throws: LineError(
        "$2 refers to line 2; this is line 2 (a line can use only the lines before it) at column 3",
        column: 3)
    ) {
      try interpreter.run("4+$2*2=", output: OutputBuffer())
    }
    #expect(throws: LineError.self) { try interpreter.run("$*2=", output: OutputBuffer()) }
    #expect(interpreter.session.history.count == 5)
    #expect(interpreter.display == "15")
  }

  @Test func theNoteOfALineThatDoesNotExistIsAnError() throws {
    var interpreter = LineInterpreter(format: .posix)
    try interpreter.run("12+3=", output: OutputBuffer())
    #expect(throws: LineError.self) { try interpreter.run(":note 2 x", output: OutputBuffer()) }
    #expect(throws: LineError.self) { try interpreter.run(":note", output: OutputBuffer()) }
  }
}

extension LedgerCommandTests {
  @Test func linesListsReferencesAsTypedAndNotesLast() throws {
    let (printed, _, _) = try Self.run([
      "1200+350+89=  # rent, March", "$1*12=", ":lines", ":tape",
    ])
    #expect(
      printed[2]
        == "  line  step  keys          display  note\n"
        + "     1     1  1200+350+89=  1,639    rent, March\n"
        + "▶    2    13  $1*12=        19,668\n")
    // The tape shows the value a reference recalled, as a row like MR's.
    #expect(
      printed[3]
        == " 9  1,200 + 350 = 1,550\n12  1,550 + 89 = 1,639  rent, March\n13  $1 1,639\n"
        + "17  1,639 × 12 = 19,668\n")
  }
}

extension LedgerCommandTests {
  @Test func varyPrintsSpecsTableAndStaysWhereItWas() throws {
    let (printed, records, interpreter) = try Self.run([
      "1200+350+89=", "*12=", ":vary 1 1300+350+89= | 1400+350+89=", ":vary 1 1300+350+89=",
    ])
    #expect(
      printed[2]
        == "  branch  line 1          after 1   after 2\n"
        + "▶      1  1200+350+89=    1,639     19,668\n"
        + "       2  1300+350+89=    1,739     20,868\n"
        + "       3  1400+350+89=    1,839     22,068\n")
    // Again: the branch that holds the alternative is reused.
    #expect(
      printed[3]
        == "  branch  line 1          after 1   after 2\n"
        + "▶      1  1200+350+89=    1,639     19,668\n"
        + "       2  1300+350+89=    1,739     20,868\n")
    let history = interpreter.session.history
    #expect(history.branchCount == 3)
    #expect((history.currentBranch, history.position) == (1, 16))
    #expect(records.last == ":vary 1 1300+350+89=")
    // The journal's records replay to the same session.
    let replayed = SessionScript.replay(Array(records.map { $0 + "\n" }.joined().utf8))
    #expect(replayed.stop == nil)
    #expect(
      SessionScript.text(of: replayed.session.history) == SessionScript.text(of: history))
  }

  @Test func varyReportsARefusedAlternativeInItsRowAndBadKeysRejectItAll() throws {
    let (printed, _, interpreter) = try Self.run([
      "5=", "$1*2=", "c", ":vary 2 $2*3= | $1*3=",
    ])
    #expect(
      printed[3]
        == "  branch  line 2    after 2   after 3\n"
        + "▶      1  $1*2=     10        0\n"
        + "          $2*3=     refused: $2 refers to line 2; this is line 2 (a line can use only "
        + "the lines before it)\n"
        + "       2  $1*3=     15        0\n")
    var copy = interpreter
    #expect(throws: LineError.self) { try copy.run(":vary 2 1+x | 2=", output: OutputBuffer()) }
    #expect(copy.session.history.branchCount == 2)
  }

  @Test func findListsTheLinesWithTheirBranch() throws {
    let (printed, _, _) = try Self.run([
      "1200+350+89=  # Rent", "*12=", ":goto 12", "c1639=", ":find 1,639", ":find rent",
      ":find nothing",
    ])
    // Aligned, under a header that names every column (SPEC §6).
    #expect(
      printed[4]
        == "  branch  line  step  keys          display  note  shared\n"
        + "       1     1     1  1200+350+89=  1,639    Rent  +1 branch\n"
        + "       2     2    13  c1639=        1,639\n")
    #expect(
      printed[5]
        == "  branch  line  step  keys          display  note  shared\n"
        + "       1     1     1  1200+350+89=  1,639    Rent  +1 branch\n")
    #expect(printed[6] == "nothing found\n")
  }
}

extension LedgerCommandTests {
  @Test func digitsAfterAReferenceStartANewNumberWithANote() throws {
    var interpreter = LineInterpreter(format: .posix)
    try interpreter.run("1200+350+89=", output: OutputBuffer())
    let result = try interpreter.run("$1 5", output: OutputBuffer())
    #expect(result.notes.map(\.message) == ["$1 recalled 1,639 and 5 started a new number"])
    #expect(result.notes.map(\.column) == [4])
    #expect(interpreter.display == "5")
    // No note when an operator follows.
    #expect(try interpreter.run("$1*2=", output: OutputBuffer()).notes.isEmpty)
  }

  @Test func theTraceShowsWhatAReferenceRecalled() throws {
    var interpreter = LineInterpreter(format: .posix, trace: true)
    try interpreter.run("2+3=", output: OutputBuffer())
    let output = OutputBuffer()
    try interpreter.run("$1*2=", output: output)
    #expect(output.text == "$1\t5\t\n×\t5\t5 ×\n2\t2\t5 ×\n=\t10\t5 × 2 =\n")
  }
}

extension LedgerCommandTests {
  @Test func theTapeShowsANoteAfterItsLinesLastRow() throws {
    let (printed, _, _) = try Self.run([
      "1200+350+89=  # rent, \"March\"", "*12=", "$1/2=  # half", ":tape", ":tape csv",
    ])
    #expect(
      printed[3]
        == " 9  1,200 + 350 = 1,550\n12  1,550 + 89 = 1,639  rent, \"March\"\n"
        + "16  1,639 × 12 = 19,668\n17  $1 1,639\n20  1,639 ÷ 2 = 819.5  half\n")
    #expect(
      printed[4]
        == "step,expression,result,note\n9,1200 + 350 =,1550,\n"
        + "12,1550 + 89 =,1639,\"rent, \"\"March\"\"\"\n16,1639 × 12 =,19668,\n17,$1,1639,\n"
        + "20,1639 ÷ 2 =,819.5,half\n")
  }
}

extension LedgerCommandTests {
  @Test func theREPLShowsANoteDimmedAfterTheDisplay() throws {
    let style = Style(isEnabled: true)
    var interpreter = LineInterpreter(
      context: LineInterpreter.Context(
        format: .posix, style: style, showsExpression: true, isInteractive: true))
    let output = OutputBuffer()
    try interpreter.run("12+3=  # sum", output: output)
    #expect(output.text == style.dim("12 + 3 =") + "\n15  " + style.dim("sum") + "\n")
    // A script prints the display alone.
    var script = LineInterpreter(format: .posix)
    let plain = OutputBuffer()
    try script.run("12+3=  # sum", output: plain)
    #expect(plain.text == "15\n")
  }
}

extension LedgerCommandTests {
  @Test func varyWithTheLineAsItIsRepeatsTheFirstRow() throws {
    let (printed, _, interpreter) = try Self.run(["2+3=", "*4=", ":vary 1 2+3= | 2+4="])
    #expect(
      printed[2]
        == "  branch  line 1    after 1   after 2\n" + "▶      1  2+3=      5         20\n"
        + "       1  2+3=      5         20\n" + "       2  2+4=      6         24\n")
    #expect(interpreter.session.history.branchCount == 2)
  }
}

/// Issue 45, defect 3: `:find 1,639` finds the line whose display shows `1,639`, through a pipe
/// (no grouping in the output) under `C.UTF-8` and `en_US`, and in the locale's display form.
@Suite struct FindGroupedNumbersTests {
  @Test(arguments: ["C.UTF-8", "en_US.UTF-8", "C", "POSIX"])
  func findsAGroupedNumber(lang: String) throws {
    try expectScript(
      ["-"], stdin: "1200+350+89=\n:find 1,639\n:find 1639\n", environment: ["LANG": lang],
      stdout: "1639\n"
        + String(
          repeating: "  branch  line  step  keys          display\n"
            + "       1     1     1  1200+350+89=  1639\n", count: 2))
  }

  @Test func findsTheLocalesDisplayForm() throws {
    try expectScript(
      ["--locale", "de_DE", "-"], stdin: "1200+350+89=\n:find 1.639\n",
      stdout: "1639\n  branch  line  step  keys          display\n"
        + "       1     1     1  1200+350+89=  1639\n")
    try expectScript(
      ["-"], stdin: "1200+350+89=\n:find 16,39\n", environment: ["LANG": "C.UTF-8"],
      stdout: "1639\nnothing found\n")
  }
}
