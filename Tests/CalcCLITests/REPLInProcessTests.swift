import CalculatorEngine
import Testing

@testable import CalcCLI
@testable import CalcCore

/// The REPL's loop in process, through the line-editor seam (``ScriptedLineEditor``): prompts,
/// displays, errors, the history it remembers, `:quit` and Ctrl-D. The real terminal, readline
/// and the pager are tested through a pseudo-terminal in `REPLTests`.
@Suite struct REPLInProcessTests {
  /// Runs the REPL on `lines` with no journal; returns the editor after it, what it printed and
  /// its exit status.
  static func run(_ lines: [String], terminalSize: (rows: Int, columns: Int)? = nil) -> (
    editor: ScriptedLineEditor, output: String, errors: String, status: Int32
  ) {
    let context = LineInterpreter.Context(
      format: .posix, showsExpression: true, isInteractive: true)
    var repl = REPL(
      interpreter: LineInterpreter(context: context, host: .withFiles),
      environment: Environment([:]),
      keepsJournal: false)
    var editor = ScriptedLineEditor(lines: lines, terminalSize: terminalSize)
    let (output, errors) = (OutputBuffer(), OutputBuffer())
    let status = repl.run(
      editor: &editor, output: output, errors: errors, errorStyle: .plain, pagerCommand: nil)
    return (editor, output.text, errors.text, status)
  }

  @Test func promptsFollowThePositionAndTheMemory() {
    // `ms` at step 2 starts branch 2; branch 1's end holds no memory.
    let run = Self.run(["12+3=", ":goto 2", "ms", "*4=", ":branch 1", ":goto 3"])
    #expect(
      run.editor.prompts == [
        "calc> ", "calc> ", "calc[2/5]> ", "calc b2 M> ", "calc b2 M> ", "calc b1> ",
        "calc b1[3/5]> ",
      ])
    #expect(run.status == 0)
    #expect(
      run.output.hasSuffix("12 +\n12\n\n"), "Ctrl-D ends the last prompt's line: \(run.output)")
  }

  /// The screen's size comes through the editor's seam: the prompt takes at most a third of
  /// its width, the start-up line is broken at spaces and listings are cut to it (SPEC §6), in
  /// process.
  @Test(arguments: [
    (
      nil, ["calc> ", "calc> ", "calc[2/5]> ", "calc[2/5]> "], 1,
      "  step  key  expression  display\n     5  =    12 + 3 =    15       (kept)\n"
    ),
    (
      (24, 30), ["calc> ", "calc> ", "[2/5]> ", "[2/5]> "], 2,
      "  step  key  express…  display\n     5  =    12 + 3 =  15    …\n"
    ),
    ((24, 18), ["calc> ", "calc> ", "[2]> ", "[2]> "], 4, "  key  display\n  =    15       (…\n"),
  ])
  func theTerminalsSizeComesFromTheEditor(
    size: (rows: Int, columns: Int)?, prompts: [String], startupRows: Int, listing: String
  ) {
    let run = Self.run(["12+3=", ":goto 2", ":history 1"], terminalSize: size)
    #expect(run.editor.prompts == prompts)
    let rows = run.output.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(rows.firstIndex(of: "12 + 3 =") == startupRows, "\(run.output)")
    #expect(run.output.hasSuffix("12 + 3 =\n15\n12\n" + listing + "[━━●───] 2/5\n\n"))
  }

  @Test func aRejectedLineIsReportedAndRememberedAndTheSessionGoesOn() {
    let run = Self.run(["12+3=", ":frob", "12+x", "  ", "# note", "*2="])
    #expect(
      run.errors
        == "error: unknown command ':frob' (try :help)\nerror: unknown key 'x' at column 4 (× is '*')\n"
    )
    #expect(run.editor.history == ["12+3=", ":frob", "12+x", "*2="], "blank lines are not kept")
    #expect(run.output.contains("15 × 2 =\n30\n"), "\(run.output)")
  }

  @Test func quitEndsTheLoopAndLeavesTheRest() {
    let run = Self.run(["1+1=", "quit", "2+2="])
    #expect(run.editor.lines == ["2+2="])
    #expect(!run.output.contains("4"))
    #expect(run.status == 0)
  }

  /// SPEC §4: at the REPL, `:save` does not replace a file this session neither saved nor
  /// loaded; `:save!` does; `:load` says what it loaded.
  @Test func saveKeepsFilesItDidNotMakeUnlessTold() throws {
    try withTemporaryDirectory { directory in
      let other = try Script.write("# someone else's\n", to: "other.calc", in: directory).path
      let mine = directory.appendingPathComponent("mine.calc").path
      let run = Self.run([
        "12+3=", ":save \(other)", ":save \(mine)", "*2=", ":save \(mine)", ":load \(mine)",
        ":save! \(other)",
      ])
      #expect(
        run.errors
          == "error: '\(other)' exists, and this session did not save or load it; to replace it: "
          + ":save! \(other)\n")
      #expect(run.output.contains("saved 5 keys at step 5 to \(mine)\n"))
      #expect(run.output.contains("saved 8 keys at step 8 to \(mine)\n"), "a file it saved")
      #expect(run.output.contains("loaded 8 keys at step 8 from \(mine)\n"))
      #expect(run.output.contains("saved 8 keys at step 8 to \(other)\n"))
      #expect(try String(contentsOfFile: other, encoding: .utf8).contains("*2="))
    }
  }
}
