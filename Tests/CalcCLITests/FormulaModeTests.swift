import CalcCLI
import CalcCore
import Foundation
import Testing

/// Formula mode through the front end (SPEC v5 §12): `calc -e`, `--mode formula`, the key `fx`,
/// a formula line as one line and one step, its errors and its exit status; in process
/// (``InProcess``).
@Suite struct FormulaModeTests {
  /// SPEC §12's examples, each through `calc -e` (`1/0` and `1/0+5` exit 1).
  static let examples: [(formula: String, display: String)] = [
    ("5*-2", "-10"), ("2^-1", "0.5"), ("-2^2", "-4"), ("2^3^2", "512"), ("sin(30)", "0.5"),
    ("2pi", "6.28318531"), ("1.5e-3*2", "0.003"), ("2(3+4)", "14"), ("sqrt(16)+5!", "124"),
    ("50+20%", "60"), ("log(8, 2)", "3"), ("root(27, 3)", "3"),
    ("10 mod 3", "1"), ("50-10%", "45"), ("50+20%*2", "70"), ("50+2*20%", "50.4"),
    ("2*(50+20%)", "120"), ("(50+20)%", "0.7"), ("6*6%", "0.36"), ("10%", "0.1"),
    ("--2", "2"), ("√16^2", "16"), ("2e", "5.43656366"),
  ]

  @Test(arguments: examples) func dashE(_ example: (formula: String, display: String)) throws {
    try expectScript(["-e", example.formula], stdout: example.display + "\n")
  }

  /// `1/3*3-1` → `0`: the exact fractions of SPEC §2 rule 15.
  @Test func exactFractions() throws {
    let run = try InProcess.run(["-e", "1/3*3-1"], environment: posixLocale)
    #expect(run.stdout == "0\n")
  }

  /// `--trace`: one row per compiled key, with the display and the Scientific expression line
  /// after it (SPEC §12).
  @Test func traceShowsTheCompiledKeys() throws {
    try expectScript(
      ["--trace", "-e", "5*-2"],
      stdout: "5\t5\t\n×\t5\t5 ×\n2\t2\t5 ×\n+/-\t-2\t5 ×\n=\t-10\t5 × -2 =\n")
  }

  /// A formula line longer than the reader's chunk (64 KiB) that is no key text is read whole:
  /// the early refusal of a line that is still arriving knows formulas (SPEC §8, §12).
  @Test func aLongFormulaLineIsReadWhole() throws {
    // 68 KB: past one chunk.
    let formula = String(repeating: "sqrt(4)+", count: 8_500) + "0"
    try expectScript(["--mode", "formula", "-"], stdin: formula + "\n", stdout: "17000\n")
    try expectScript(["-"], stdin: "fx\n" + formula + "\n", stdout: "0\n17000\n")
    // A byte that no formula holds is refused early still, at its column in key text.
    let run = try InProcess.run(
      ["--mode", "formula", "-"], stdin: Data((formula + "\u{1}" + formula + "\n").utf8),
      environment: posixLocale)
    #expect(run.status == 65)
    #expect(run.stdout == "")
  }

  @Test func theLongNameAndAnAttachedFormula() throws {
    try expectScript(["--formula", "5*-2"], stdout: "-10\n")
    try expectScript(["-e5*-2"], stdout: "-10\n")
    try expectScript(["--formula=2^-1"], stdout: "0.5\n")
  }

  /// A formula's result is its first error, an error shown: exit 1 (SPEC §12).
  @Test(arguments: [
    ("1/0", "Cannot divide by zero"), ("1/0+5", "Cannot divide by zero"),
    ("sqrt(-1)*0", "Invalid input"),
  ])
  func anErrorShownExitsOne(_ formula: String, _ display: String) throws {
    try expectScript(["-e", formula], stdout: display + "\n", status: 1)
  }

  /// A formula that cannot be read is a rejected line (65), with its column.
  @Test(arguments: [
    ("sin 30", "calc: -e: sin needs brackets: sin(30)\n"),
    ("1+", "calc: -e: nothing after + at column 2\n"),
  ])
  func aParseErrorIsRejected(_ formula: String, _ message: String) throws {
    let run = try InProcess.run(["-e", formula], environment: posixLocale)
    #expect(run.status == 65)
    #expect(run.stdout == "")
    #expect(run.stderr.hasPrefix("calc: -e: "))
    #expect(run.stderr.contains(message.dropFirst("calc: -e: ".count).prefix(10)))
  }

  @Test func modeFormulaReadsLinesAsFormulas() throws {
    try expectScript(
      ["--mode", "formula", "-"], stdin: "5*-2\nsin(30)\n2^3^2\n",
      stdout: "-10\n0.5\n512\n")
  }

  /// `rad` then `sin(pi/2)` → `1`; the angle unit stays over formulas (SPEC §12).
  @Test func theAngleUnitIsKept() throws {
    try expectScript(["--mode", "formula", "-"], stdin: "rad\nsin(pi/2)\n", stdout: "0\n1\n")
  }

  /// The memory is kept: `ms`, `m+` after a formula, `mr` in a formula (SPEC §12).
  @Test func theMemoryIsKept() throws {
    try expectScript(
      ["--mode", "formula", "-"], stdin: "3*4.5 m+\n2*mr\nmc\n", stdout: "13.5\n27\n27\n")
  }

  /// A line may begin with a mode key and go on in the new mode (SPEC §12).
  @Test func aModeKeyThenAFormula() throws {
    try expectScript(
      ["-"], stdin: "fx 5*-2\nsci 30sin=\nfx 2pi\n", stdout: "-10\n0.5\n6.28318531\n")
  }

  /// `$N` and `ans` (the nearest earlier line with a value) in formulas.
  @Test func referencesAndAns() throws {
    try expectScript(
      ["--mode", "formula", "-"], stdin: "2+3\n1/0\nans*2\n$1+1\n",
      stdout: "5\nCannot divide by zero\n10\n6\n", status: 1)
  }

  /// A formula line is one line and one step: `:undo` moves over it whole (SPEC §12).
  @Test func oneLineOneStep() throws {
    try expectScript(
      ["--mode", "formula", "-"], stdin: "1+2*3\n4^2\n:undo\n:goto 1\n",
      stdout: "7\n16\n7\n0\n")
  }

  /// `ce` and `fe` are rejected with the reason; a rejected line changes nothing.
  @Test func ceIsRejected() throws {
    let run = try InProcess.run(
      ["--keep-going", "--mode", "formula", "-"], stdin: Data("2+3\nce\n".utf8),
      environment: posixLocale)
    #expect(run.stdout == "5\n5\n")
    #expect(run.stderr.contains("'ce' is not a key of formula mode"))
    #expect(run.status == 65)
  }

  @Test func usageErrors() throws {
    let withKeys = try CalcProcess.run(["-e", "1+2", "-k", "1+2="], environment: posixLocale)
    #expect(withKeys.status == 64)
    let withFile = try CalcProcess.run(["-e", "1+2", "script.calc"], environment: posixLocale)
    #expect(withFile.status == 64)
    let twice = try CalcProcess.run(["-e", "1+2", "-e", "3"], environment: posixLocale)
    #expect(twice.status == 64)
  }

  /// The binary itself: `calc -e '5*-2'` prints `-10` and exits 0; `calc -e '1/0'` exits 1.
  @Test func theBinary() throws {
    let product = try CalcProcess.run(["-e", "5*-2"], environment: posixLocale)
    #expect(product.stdout == "-10\n")
    #expect(product.status == 0)
    let division = try CalcProcess.run(["-e", "1/0"], environment: posixLocale)
    #expect(division.stdout == "Cannot divide by zero\n")
    #expect(division.status == 1)
  }
}

/// Formula lines on the tape (SPEC v5 §12): `:history` one step per formula, `:why L` its
/// compiled keys, `:help formulas`, `:pad`'s card and Tab's names.
@Suite struct FormulaTapeTests {
  /// The expression lines start in one column, after the widest display.
  @Test func whyShowsTheCompiledKeys() throws {
    try expectScript(
      ["--mode", "formula", "-"], stdin: "2+3\n5*-2\n:why 2\n",
      stdout: "5\n-10\nline 2: 5*-2\n  5       5\n  ×       5    5 ×\n  2       2    5 ×\n"
        + "  +/-     -2   5 ×\n  =       -10  5 × -2 =\n")
    // Any line of any mode: its keys.
    try expectScript(
      ["-"], stdin: "12+3=\n:why 1\n",
      stdout: "15\nline 1: 12+3=\n  1       1\n  2       12\n  +       12  12 +\n"
        + "  3       3   12 +\n  =       15  12 + 3 =\n")
    // A formula's first error ends its keys.
    try expectScript(
      ["--mode", "formula", "-"], stdin: "1/0+5\n:why 1\n",
      stdout:
        "Cannot divide by zero\nline 1: 1/0+5\n  1       1\n  ÷       1                      1 ÷\n"
        + "  0       0                      1 ÷\n  +       Cannot divide by zero  1 ÷ 0 +\n",
      status: 1)
    let missing = try InProcess.run(
      ["--mode", "formula", "-"], stdin: Data("2+3\n:why 7\n".utf8), environment: posixLocale)
    #expect(missing.stderr.contains("no line 7"))
    #expect(missing.status == 65)
  }

  /// `:history` shows a formula as one step, with the formula and its result.
  @Test func historyShowsOneStepPerFormula() throws {
    let run = try InProcess.run(
      ["--mode", "formula", "-"], stdin: Data("2+3\nsin(30)*2\n:history\n".utf8),
      environment: posixLocale)
    let rows = run.stdout.split(separator: "\n").map { $0.split(separator: " ") }
    #expect(rows.contains { $0 == ["2", "2+3", "2", "+", "3", "=", "5"] })
    #expect(rows.contains { $0.first == "▶" && $0.contains("sin(30)*2") && $0.last == "1" })
    #expect(rows.count == 2 + 1 + 4 + 1)
  }

  /// The expression line of a formula line is the formula normalised (SPEC §12: `5 × −2 =`):
  /// on `:history`, kept by `m+` and an angle key, gone after `c` and a recall.
  @Test func historyShowsTheFormulaNormalised() throws {
    try expectScript(
      ["-"], stdin: "fx\n5*-2\n50+20% m+\n1/0+5\nrad\nc\nmr\n2^3^2\n:history\n",
      stdout: "0\n-10\n60\nCannot divide by zero\nCannot divide by zero\n0\n60\n512\n"
        + "  step  key     expression   display\n"
        + "     0                       0\n"
        + "     1  fx                   0\n"
        + "     2  5*-2    5 × −2 =     -10\n"
        + "     3  50+20%  50 + 20% =   60\n"
        + "     4  M+      50 + 20% =   60\n"
        + "     5  1/0+5   1 ÷ 0 + 5 =  Cannot divide by zero\n"
        + "     6  RAD     1 ÷ 0 + 5 =  Cannot divide by zero\n"
        + "     7  AC                   0\n"
        + "     8  MR                   60\n"
        + "▶    9  2^3^2   2 ^ 3 ^ 2 =  512\n"
        + "[━━━━━━━━━●] 9/9\n",
      status: 1)
  }

  /// `:tape` shows one row per formula, a calculation: the formula normalised and its result,
  /// an error too, a repeated formula again; a trailing `ms` is a row of its own (SPEC §12).
  @Test func tapeShowsOneRowPerFormula() throws {
    try expectScript(
      ["-"], stdin: "fx\n5*-2\n5*-2\n2pi ms\n1/0+5\nc\nsci 1+2*3=\n:tape\n:tape csv\n",
      stdout: "0\n-10\n-10\n6.28318531\nCannot divide by zero\n0\n7\n"
        + " 2  5 × −2 = -10\n 3  5 × −2 = -10\n 4  2π = 6.28318531\n 5  MS 6.28318531\n"
        + " 6  1 ÷ 0 + 5 = Cannot divide by zero\n14  1 + 2 × 3 = 7\n"
        + "step,expression,result,note\n2,5 × −2 =,-10,\n3,5 × −2 =,-10,\n"
        + "4,2π =,6.283185307179586476925286766559006,\n"
        + "5,MS,6.283185307179586476925286766559006,\n"
        + "6,1 ÷ 0 + 5 =,Cannot divide by zero,\n14,1 + 2 × 3 =,7,\n",
      status: 1)
  }

  /// The REPL shows the formula normalised above its result, and `:goto` back to it does too.
  @Test func theScreenShowsTheFormulaNormalised() {
    let run = REPLInProcessTests.screen(["fx", "5*-2", "sqrt(16)+5! ms", ":goto 2"])
    #expect(
      Array(run.lines.dropFirst()) == [
        "calc> fx", "0", "calc fx> 5*-2", "5 × −2 =", "-10", "calc fx> sqrt(16)+5! ms",
        "sqrt(16) + 5! =", "124", "calc fx M> :goto 2", "5 × −2 =", "-10",
        "calc fx[2/4]> ", "",
      ])
  }

  @Test func helpFormulasAndThePad() throws {
    let help = try InProcess.run(["-"], stdin: Data(":help formulas\n".utf8))
    #expect(help.stdout.hasPrefix("Formula mode (fx, --mode formula, calc -e '5*-2')"))
    #expect(help.stdout.contains("sin cos tan"))
    let pad = try InProcess.run(["--mode", "formula", "-"], stdin: Data(":pad\n".utf8))
    #expect(pad.stdout.contains("^ **"))
    #expect(pad.stdout.contains("log(x, b)"))
  }

  /// The prompt shows `fx` and the angle unit (SPEC §12: `calc fx rad> `).
  @Test func thePromptShowsFormulaMode() {
    let run = REPLInProcessTests.screen(["fx", "5*-2", "rad", "sin(pi/2)"])
    #expect(run.lines.contains("calc fx> 5*-2"))
    #expect(run.lines.contains("calc fx rad> sin(pi/2)"))
    #expect(run.lines.contains("-10"))
    #expect(run.status == 0)
  }

  @Test func tabCompletesNames() {
    #expect(LineInterpreter.keyWordCompletions(of: "2*sq", mode: .formula) == ["2*sqrt("])
    #expect(LineInterpreter.keyWordCompletions(of: "a", mode: .formula).contains("asin("))
    #expect(LineInterpreter.keyWordCompletions(of: "a", mode: .formula).contains("ans"))
    #expect(
      LineInterpreter.keyWordCompletions(of: "3+p", mode: .formula)
        == ["3+pi", "3+prog", "3+pow2(", "3+powe(", "3+pow10("])
  }
}

/// The hints between key text and formulas (SPEC §12): `exp` is exponent entry in key text and
/// eˣ in formulas; a missing FILE that reads as a formula names `calc -e`.
@Suite struct FormulaHintTests {
  @Test func oneExpThreeInFormulaMode() throws {
    try expectScript(
      ["-e", "1exp3"], stdout: "",
      stderr: "calc: -e: exp needs brackets: 1e3 (exp(x) is eˣ)\n", status: 65)
    try expectScript(
      ["--mode", "formula", "-"], stdin: "2+1exp-3\n", stdout: "",
      stderr: "<stdin>:1:4: exp needs brackets: 1e-3 (exp(x) is eˣ)\n", status: 65)
  }

  @Test func expOfAnArgumentInScientificMode() throws {
    let tail = "; in key text exp enters an exponent (1exp3) and eˣ is powe\n"
    try expectScript(
      ["-k", "sci exp(2)"], stdout: "2\n",
      stderr: "calc: note: exp(2) is eˣ in a formula (fx, or calc -e 'exp(2)')" + tail)
    try expectScript(
      ["-k", "sci 2exp(1+1)="], stdout: "4\n",
      stderr: "calc: note: exp(x) is eˣ in a formula (fx, or calc -e)" + tail)
    // In a formula it is eˣ, and `exp` followed by digits in key text is no formula.
    try expectScript(["-e", "exp(0)"], stdout: "1\n")
    try expectScript(
      ["-k", "sci 1exp3="], stdout: "1000\n")
  }

  @Test func aMissingFileThatReadsAsAFormula() throws {
    try withTemporaryDirectory { directory in
      try expectScript(
        ["5*-2"], directory: directory, stdout: "",
        stderr:
          "calc: cannot read '5*-2': No such file or directory (as a formula: calc -e '5*-2')\n",
        status: 66)
      try expectScript(
        ["sin(30)"], directory: directory, stdout: "",
        stderr:
          "calc: cannot read 'sin(30)': No such file or directory (as a formula: calc -e 'sin(30)')\n",
        status: 66)
      // The same result either way: §6's hint to press keys (`12+3`, `12+3=`); not, a formula.
      try expectScript(
        ["12+3"], directory: directory, stdout: "",
        stderr: "calc: cannot read '12+3': No such file or directory "
          + "(to press keys: calc -k '12+3=')\n", status: 66)
      try expectScript(
        ["5*-2="], directory: directory, stdout: "",
        stderr: "calc: cannot read '5*-2=': No such file or directory "
          + "(as a formula: calc -e '5*-2')\n", status: 66)
      try expectScript(
        ["notes.calc"], directory: directory, stdout: "",
        stderr: "calc: cannot read 'notes.calc': No such file or directory\n", status: 66)
    }
  }
}
