import CalculatorEngine
import Testing

@testable import CalcCLI
@testable import CalcCore

/// The REPL's loop in process, through the line-editor seam (``ScriptedLineEditor``): prompts,
/// displays, errors, the history it remembers, `:quit` and Ctrl-D, and what a person reads
/// (``screen(_:)``). What only a terminal shows — readline's editing, completion and history,
/// the live rows, colour, the pager, pastes and signals — is tested through a pseudo-terminal in
/// `REPLTests`.
@Suite struct REPLInProcessTests {
  /// A REPL with no journal, as a terminal's: the expression line above the display.
  static func repl() -> REPL {
    let context = LineInterpreter.Context(
      format: .posix, showsExpression: true, isInteractive: true)
    return REPL(
      interpreter: LineInterpreter(context: context, host: .withFiles),
      environment: Environment([:]),
      keepsJournal: false)
  }

  /// Runs the REPL on `lines` with no journal; returns the editor after it, what it printed and
  /// its exit status.
  static func run(_ lines: [String], terminalSize: (rows: Int, columns: Int)? = nil) -> (
    editor: ScriptedLineEditor, output: String, errors: String, status: Int32
  ) {
    var repl = Self.repl()
    var editor = ScriptedLineEditor(lines: lines, terminalSize: terminalSize)
    let (output, errors) = (OutputBuffer(), OutputBuffer())
    let status = repl.run(
      editor: &editor, output: output, errors: errors, errorStyle: .plain, pagerCommand: nil)
    return (editor, output.text, errors.text, status)
  }

  /// Runs the REPL on `lines` with its output, its errors and the echo of each prompt and line
  /// in one buffer, in the order they were written: the lines a person reads on the terminal
  /// (the start-up line first; after the last line, Ctrl-D's newline), the editor after it and
  /// the exit status. A line typed blank is echoed as typed, trailing blanks and all.
  static func screen(_ lines: [String]) -> (
    lines: [String], editor: ScriptedLineEditor, status: Int32
  ) {
    var repl = Self.repl()
    let terminal = OutputBuffer()
    var editor = ScriptedLineEditor(lines: lines, echo: terminal)
    let status = repl.run(
      editor: &editor, output: terminal, errors: terminal, errorStyle: .plain, pagerCommand: nil)
    let shown = terminal.text.split(separator: "\n", omittingEmptySubsequences: false)
    return (shown.map(String.init), editor, status)
  }

  @Test func aKeyLinePrintsTheExpressionLineAndTheDisplay() {
    let run = Self.screen(["12+3=", "*2=", ":quit"])
    // SPEC §6: the expression line above the display, as Windows Calculator shows it.
    #expect(
      run.lines == [
        REPLTests.startupLine, "calc> 12+3=", "12 + 3 =", "15", "calc> *2=", "15 × 2 =", "30",
        "calc> :quit", "",
      ])
    #expect(run.status == 0)
  }

  @Test func thePromptShowsThePositionBeforeTheEnd() {
    let run = Self.screen([
      "12+3=", ":goto 2", ":goto -1", ":redo", ":goto -1", "4=", ":undo", ":branch 1",
    ])
    // Keys typed before the end start a new branch, at whose end the prompt is: the position is
    // relative to the current branch (6 keys now), and branch 1 is kept. The line starts a new
    // number (rule 18): 12 + 4, not 12 + 34.
    #expect(
      run.lines.dropFirst() == [
        "calc> 12+3=", "12 + 3 =", "15",
        "calc> :goto 2", "12",
        "calc[2/5]> :goto -1", "1",
        "calc[1/5]> :redo", "12 + 3 =", "15",
        "calc> :goto -1", "12 +", "3",
        "calc[4/5]> 4=", "(branch 2 from step 4 of branch 1)", "12 + 4 =", "16",
        "calc b2> :undo", "12 +", "3",
        "calc b2[4/6]> :branch 1", "12 + 3 =", "15",
        "calc b1> ", "",
      ])
  }

  /// SPEC §6: `M` in the prompt while the memory holds a value, also before the end; time
  /// travel to before the `ms` empties the memory again.
  @Test func thePromptShowsTheMemory() {
    let run = Self.screen(["5ms", "c2+mr=", ":goto 4", ":goto 1", ":goto 7", "mc"])
    #expect(
      run.lines.dropFirst() == [
        "calc> 5ms", "5",
        "calc M> c2+mr=", "2 + 5 =", "7",
        "calc M> :goto 4", "2",
        "calc[4/7] M> :goto 1", "5",
        "calc[1/7]> :goto 7", "2 + 5 =", "7",
        "calc M> mc", "2 + 5 =", "7",
        "calc> ", "",
      ])
  }

  /// SPEC §4 and §6: the prompt names the branch when there is more than one, and a line typed
  /// in the past says which branch it starts.
  @Test func thePromptNamesTheBranchAndANewBranchIsAnnounced() {
    let run = Self.screen(["12+3=", ":goto 2", "*2=", "ms", ":goto 1", ":branch 1"])
    // The memory is the memory at that step: none yet at step 1.
    #expect(
      run.lines.dropFirst() == [
        "calc> 12+3=", "12 + 3 =", "15",
        "calc> :goto 2", "12",
        "calc[2/5]> *2=", "(branch 2 from step 2 of branch 1)", "12 × 2 =", "24",
        "calc b2> ms", "12 × 2 =", "24",
        "calc b2 M> :goto 1", "1",
        "calc b2[1/6]> :branch 1", "12 + 3 =", "15",
        "calc b1> ", "",
      ])
  }

  @Test func aBadLineChangesNothing() {
    let run = Self.screen([
      "12+3=", ":goto 2", "7x", ":goto 9", ":frob", ":undo 0", ":keys", ":redo 3", ":keys",
    ])
    #expect(
      run.lines.dropFirst() == [
        "calc> 12+3=", "12 + 3 =", "15",
        "calc> :goto 2", "12",
        "calc[2/5]> 7x", "error: unknown key 'x' at column 2 (× is '*')",
        "calc[2/5]> :goto 9", "error: step 9 is out of range 0…5",
        "calc[2/5]> :frob", "error: unknown command ':frob' (try :help)",
        "calc[2/5]> :undo 0", "12",
        "calc[2/5]> :keys", "12",
        "calc[2/5]> :redo 3", "12 + 3 =", "15",
        "calc> :keys", "12+3=",
        "calc> ", "",
      ])
    #expect(run.status == 0)
  }

  /// SPEC §6 and issue 15's "done when": `12+3` then Enter shows `12 +` above `3`, so the
  /// pending operation is never invisible; an empty line shows both again.
  @Test func aPendingOperationIsShownAboveTheDisplay() {
    let run = Self.screen(["12+3", "", "<9@", "=", "  ", "c", ""])
    #expect(
      run.lines.dropFirst() == [
        "calc> 12+3", "12 +", "3",
        "calc> ", "12 +", "3",
        "calc> <9@", "12 + √(9)", "3",
        "calc> =", "12 + √(9) =", "15",
        "calc>   ", "12 + √(9) =", "15",
        "calc> c", "0",
        "calc> ", "0",
        "calc> ", "",
      ])
  }

  /// SPEC §6: one line on start says how to get help and leave, and `:help` (also `help`,
  /// without the colon) lists every way out; each of them ends the REPL with status 0 and runs
  /// nothing after it.
  @Test func theStartupLineSaysHowToGetHelpAndLeave() {
    for help in [":help", "help"] {
      let run = Self.screen([help])
      #expect(
        run.lines == [REPLTests.startupLine, "calc> " + help] + REPLTests.help + ["calc> ", ""])
    }
    for way in [":q", ":quit", ":exit", "quit", "exit"] {
      let run = Self.screen([way, "1+1="])
      #expect(run.lines == [REPLTests.startupLine, "calc> " + way, ""], "\(way)")
      #expect(run.editor.lines == ["1+1="], "\(way)")
      #expect(run.status == 0)
    }
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
