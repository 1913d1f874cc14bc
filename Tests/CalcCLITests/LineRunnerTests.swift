import CalculatorEngine
import Testing

@testable import CalcCLI

/// The one line runner (issue 34 item 2) with in-memory sinks: where each front end's messages
/// say they are from, the pending-operation note, SPEC §5's exit status, the start mode after
/// `:reset`, and settings that change between files without a new interpreter.
@Suite struct LineRunnerTests {
  /// A runner of `source` in the POSIX display, starting in `mode`, writing to memory.
  static func runner(
    _ source: LineRunner.Source, mode: Key.Mode = .standard,
    keepsGoing: Bool = false, isQuiet: Bool = false
  ) -> LineRunner {
    var context = LineInterpreter.Context(format: .posix)
    context.startMode = mode
    return LineRunner(
      interpreter: LineInterpreter(context: context), output: OutputBuffer(),
      errors: OutputBuffer(), source: source, keepsGoing: keepsGoing, isQuiet: isQuiet)
  }

  /// Runs `lines` as lines 1, 2, … and finishes; what was written, and the status.
  static func run(_ lines: [String], on runner: inout LineRunner) -> (
    output: String, errors: String, status: Int32
  ) {
    var status: Int32?
    for (index, line) in lines.enumerated() {
      switch runner.run(Array(line.utf8), number: index + 1) {
      case nil, .outputStopped?: continue
      case .quit?: break
      case .failed(let failed)?: status = runner.fail(failed)
      }
      break
    }
    let final = status ?? runner.finish()
    return (runner.output.text, runner.errors.text, final)
  }

  struct Row: Sendable, CustomTestStringConvertible {
    let source: LineRunner.Source
    let lines: [String]
    let stdout: String
    let stderr: String
    let status: Int32
    var testDescription: String { "\(source) \(lines)" }
  }

  /// The same lines through each source: the messages differ only in where they say they are from.
  static let rows: [Row] = [
    Row(
      source: .script(name: "s.calc"), lines: ["1/0=5+1=", "12+"], stdout: "6\n12\n",
      stderr: """
        s.calc:1:4: note: Cannot divide by zero at column 4 (1 ÷ 0 =); the keys after it started \
        a new calculation
        s.calc:2:1: note: 12 + is not finished; add = to compute it

        """, status: 1),
    Row(
      source: .keys(option: "--keys"), lines: ["1/0=5+1="], stdout: "6\n",
      stderr: """
        calc: note: Cannot divide by zero at column 4 (1 ÷ 0 =); the keys after it started a new \
        calculation

        """, status: 1),
    Row(
      source: .script(name: "<stdin>"), lines: ["1+2=", "1x", "5"], stdout: "3\n",
      stderr: "<stdin>:2:2: unknown key 'x' at column 2 (× is '*')\n", status: 65),
    Row(
      source: .keys(option: "--keys"), lines: ["1x"], stdout: "",
      stderr: "calc: --keys: unknown key 'x' at column 2 (× is '*')\n", status: 65),
    Row(
      source: .keys(option: "--keys"), lines: [":history"], stdout: "",
      stderr: "calc: --keys: unknown key ':' at column 1\n", status: 65),
    Row(
      source: .keys(option: "--keys"), lines: ["  # only a comment"], stdout: "0\n", stderr: "",
      status: 0),
    Row(
      source: .script(name: "s.calc"), lines: ["  # only a comment"], stdout: "", stderr: "",
      status: 0),
    // A move after the pending line: no note (a person means a move).
    Row(
      source: .script(name: "s.calc"), lines: ["12+", ":goto 1"], stdout: "12\n1\n", stderr: "",
      status: 0),
    Row(
      source: .script(name: "s.calc"), lines: ["2+3=", ":quit", "x"], stdout: "5\n", stderr: "",
      status: 0),
  ]

  @Test(arguments: rows) func messagesAreWhereTheSourceSays(_ row: Row) {
    var runner = Self.runner(row.source)
    let run = Self.run(row.lines, on: &runner)
    #expect(run.output == row.stdout)
    #expect(run.errors == row.stderr)
    #expect(run.status == row.status)
  }

  @Test func keepGoingAnswersEveryKeyLineAndExitsWith65() {
    var runner = Self.runner(.script(name: "s.calc"), keepsGoing: true)
    let run = Self.run(["1+2=", "1x", ":frob", "1/0="], on: &runner)
    #expect(run.output == "3\n3\nCannot divide by zero\n")
    #expect(
      run.errors
        == "s.calc:2:2: unknown key 'x' at column 2 (× is '*')\ns.calc:3:1: unknown command ':frob' (try :help)\n"
    )
    #expect(run.status == 65, "65 before 1 (SPEC §5)")
  }

  @Test func quietSilencesNotesAndNothingElse() {
    var runner = Self.runner(.script(name: "s.calc"), isQuiet: true)
    let run = Self.run(["1/0=5+1=", "12+", "1x"], on: &runner)
    #expect(run.output == "6\n12\n")
    #expect(run.errors == "s.calc:3:2: unknown key 'x' at column 2 (× is '*')\n")
    #expect(run.status == 65)
  }

  @Test func theStartModeComesBackAfterReset() {
    var runner = Self.runner(.terminal, mode: .scientific)
    _ = runner.interpreter.enterStartMode()
    let reset = runner.runTyped(Array(":reset".utf8))
    #expect(reset.isAccepted)
    #expect(reset.effect.map { if case .reset = $0.change { true } else { false } } == true)
    #expect(
      reset.startEffect.map {
        if case .keys([.mode(.scientific)], _) = $0.command { true } else { false }
      }
        == true)
    #expect(runner.interpreter.session.state.mode == .scientific)
    let again = runner.runTyped(Array("2+3=".utf8))
    #expect(again.startEffect == nil)
  }

  @Test func theREPLGetsItsNotesAndErrorsToShow() {
    var runner = Self.runner(.terminal)
    let noted = runner.runTyped(Array("1/0=5+1=".utf8))
    #expect(
      noted.notes == [
        "note: Cannot divide by zero at column 4 (1 ÷ 0 =); the keys after it started a new calculation"
      ])
    #expect(!noted.quits)
    let rejected = runner.runTyped(Array("1x".utf8))
    #expect(rejected.failure?.message == "unknown key 'x' at column 2 (× is '*')")
    #expect(rejected.effect == nil)
    #expect(runner.runTyped(Array("quit".utf8)).quits)
    #expect(runner.errors.text == "", "the REPL writes them itself")
    #expect(runner.output.text == "6\n")
  }

  /// Scripts one after another: the same interpreter, each with its own name in messages; the
  /// pending note names the file and line that left the operation pending.
  @Test func settingsChangeBetweenFilesWithoutANewInterpreter() {
    var runner = Self.runner(.script(name: "a.calc"))
    #expect(runner.run(Array("12+".utf8), number: 1) == nil)
    runner.source = .script(name: "b.calc")
    runner.interpreter.context.scriptFolder = FileName("sub/")
    #expect(runner.run(Array("1x".utf8), number: 1) == .failed(ExitStatus.dataError))
    #expect(runner.errors.text == "b.calc:1:2: unknown key 'x' at column 2 (× is '*')\n")
    runner.keepsGoing = true
    #expect(runner.run(Array("3".utf8), number: 2) == nil)
    #expect(runner.finish() == ExitStatus.dataError)
    // The pending line is b.calc's second (`3`), not a.calc's `12+`.
    #expect(
      runner.errors.text
        == "b.calc:1:2: unknown key 'x' at column 2 (× is '*')\nb.calc:2:1: note: 12 + 3 is not finished; add = to compute it\n"
    )
  }
}
