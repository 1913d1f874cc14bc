import CalcCore
import CalculatorEngine

#if canImport(Glibc)
  import Glibc
#endif

/// The interactive session: readline input, the display after each line, errors that change
/// nothing, and the time position in the prompt.
struct REPL {
  /// The runner of each line, with the interpreter; its sinks are set when the REPL runs.
  var runner: LineRunner
  let environment: Environment
  /// Whether this run keeps a journal (`--no-journal` turns it off).
  var keepsJournal = true
  /// Whether the run starts by resuming the last session (`--resume`).
  var resumes = false
  /// `-q`: no notes.
  var isQuiet = false
  /// Whether the live display shows what Enter would give while a line is typed (SPEC §6):
  /// off with `--no-live`; the slider's rows are drawn either way.
  var showsPreview = true

  /// The interpreter, which keeps the session.
  var interpreter: LineInterpreter {
    get { runner.interpreter }
    _modify { yield &runner.interpreter }
  }

  /// A REPL continuing `interpreter`'s session.
  init(
    interpreter: LineInterpreter, environment: Environment, keepsJournal: Bool = true,
    resumes: Bool = false, isQuiet: Bool = false, showsPreview: Bool = true
  ) {
    runner = LineRunner(
      interpreter: interpreter, output: OutputBuffer(), errors: OutputBuffer(), source: .terminal,
      isQuiet: isQuiet)
    self.environment = environment
    self.keepsJournal = keepsJournal
    self.resumes = resumes
    self.isQuiet = isQuiet
    self.showsPreview = showsPreview
  }

  /// The line printed on start: how to get help and how to leave.
  static let startupLine =
    "calc \(Version.number) — :help for keys and commands, Ctrl-D to leave"
  /// The start-up line when there is an earlier session to resume: shorter words for help, so
  /// that it stays within 72 columns (SPEC §6).
  static let startupLineWithResume =
    "calc \(Version.number) — :help, Ctrl-D to leave, :resume for the last session"

  /// `$CALC_HISTORY`, else `~/.calc_history`; `nil` when neither can be known.
  var historyPath: String? {
    if let path = environment["CALC_HISTORY"], !path.isEmpty { return path }
    guard let home = environment["HOME"], !home.isEmpty else { return nil }
    return home + "/.calc_history"
  }

  /// Runs the REPL on the terminal: readline, standard output and standard error.
  ///
  /// With standard output not a terminal (`calc > FILE`), displays and command output go to
  /// it, and what is for the person — the prompt, the echo, the start-up line, the expression
  /// line and the display again, dimmed — to standard error, the terminal (SPEC §5).
  mutating func run() -> Int32 {
    let output = OutputBuffer(fd: STDOUT_FILENO)
    let errors = OutputBuffer(fd: STDERR_FILENO)
    let outputIsTerminal = Platform.isTerminal(STDOUT_FILENO)
    // A terminal that cannot move the cursor gets no rows below the input (SPEC §6).
    let canDrawBelow = environment["TERM"].map { $0 != "dumb" && !$0.isEmpty } ?? false
    var editor = ReadlineEditor(
      // `:save!` is typed on purpose, not completed: `:sa` Tab still gives `:save `.
      commands: CommandSpec.all.map(\.name).filter { !$0.hasSuffix("!") },
      historyPath: historyPath, promptsOnStandardError: !outputIsTerminal
    ) { warning in
      errors.write("calc: \(warning)\n")
      errors.flush()
    }
    // A pager quit before the end of a listing is a closed pipe: the listing stops, calc goes on.
    signal(SIGPIPE, SIG_IGN)
    return run(
      editor: &editor, output: output, errors: errors,
      errorStyle: Style.forOutput(STDERR_FILENO, environment: environment),
      pagerCommand: Pager.command(environment: environment),
      screen: outputIsTerminal ? nil : errors, drawsBelowInput: canDrawBelow)
  }

  /// Runs the REPL with lines from `editor`, writing to `output` and `errors`; long output goes
  /// through `pagerCommand` when the output is a terminal.
  ///
  /// `screen` is where the person reads when it is not `output` (`calc > FILE`: standard
  /// error): the start-up line and the echo of pasted lines go there, and after each accepted
  /// line the expression line and the display, dimmed, in `errorStyle`.
  mutating func run(
    editor: inout some LineEditor, output: OutputBuffer, errors: OutputBuffer, errorStyle: Style,
    pagerCommand: String?, screen: OutputBuffer? = nil, drawsBelowInput: Bool = false
  ) -> Int32 {
    (runner.output, runner.errors, runner.isQuiet) = (output, errors, isQuiet)
    let journal = openJournal(errors: errors)
    defer { journal?.close() }
    let sinks = Sinks(output: output, errors: errors, errorStyle: errorStyle, screen: screen)
    showStartup(sinks, editor: editor)
    start(journal: journal, editor: &editor, sinks)
    // Numbers on the screen: grouped for the terminal even when the output goes to a file.
    let reading = Reading(
      journal: journal, live: drawsBelowInput,
      format: screen == nil ? interpreter.format : interpreter.context.noteFormat)
    while !output.hasStopped {
      // Ctrl-C from here on stops the line that is read next.
      Interruption.reset()
      var line: [UInt8]
      switch nextLine(editor: &editor, reading, sinks) {
      case .line(let next): line = next
      case .nothing: continue
      case .end: return output.exitStatus(ExitStatus.success, errors: errors)
      }
      fitToScreen(editor: editor, pagerCommand: pagerCommand, sinks)
      // An empty line shows the expression line and the display again.
      if InputText.isBlank(line) {
        showAgain(sinks)
        continue
      }
      guard let localeNotes = readDecimalPoint(&line, editor: &editor, sinks) else { continue }
      let (outcome, isAccepted) = run(
        line, journal: journal, editor: &editor, output: output, errors: errors, style: errorStyle,
        notes: localeNotes, showsPanel: screen == nil)
      if outcome == .quit { break }
      if isAccepted { showDisplay(sinks) }
    }
    return output.exitStatus(ExitStatus.success, errors: errors)
  }

  /// Where a run of the REPL writes, fixed for the run.
  struct Sinks {
    /// Displays and command output.
    let output: OutputBuffer
    /// Errors and notes.
    let errors: OutputBuffer
    /// Colours on standard error.
    let errorStyle: Style
    /// Where the person reads when it is not ``output`` (`calc > FILE`: standard error).
    let screen: OutputBuffer?
    /// Where the person reads: ``screen``, else ``output``.
    var person: OutputBuffer { screen ?? output }
  }

  /// How lines are read in a run: the journal that records slider moves, whether the live
  /// rows are drawn, and the format of numbers on the screen.
  struct Reading {
    let journal: Journal?
    let live: Bool
    let format: DisplayFormat
  }

  /// What reading gave the loop.
  enum NextLine {
    /// A line to run.
    case line([UInt8])
    /// Nothing to run (Ctrl-C on a line, an edit left as it was): read again.
    case nothing
    /// The end of input.
    case end
  }

  /// Resumes the last session (`--resume`), or else enters the start mode, journaled: a resumed
  /// session keeps its own mode.
  private mutating func start(journal: Journal?, editor: inout some LineEditor, _ sinks: Sinks) {
    if resumes,
      run(
        Array(":resume".utf8), journal: journal, editor: &editor, output: sinks.output,
        errors: sinks.errors, style: sinks.errorStyle
      ).isAccepted
    {
      showDisplay(sinks)
      return
    }
    if let start = interpreter.enterStartMode() { journal?.record([start]) }
  }

  /// Runs one line: its change goes to the journal, then its output to the terminal; a rejected
  /// line prints its error. Returns what to do next and whether the line was accepted.
  ///
  /// Ctrl-C while it runs stops it and changes nothing: the interpreter is put back as it was,
  /// from a copy that shares its storage until the line changes it (copy on write); nothing is
  /// journaled, and what the line has not printed yet is dropped.
  /// `notes` are the line's own, shown before the interpreter's if it is accepted; with
  /// `showsPanel`, Programmer mode's panel follows the display (the output is the screen).
  private mutating func run(
    _ line: [UInt8], journal: Journal?, editor: inout some LineEditor, output: OutputBuffer,
    errors: OutputBuffer, style: Style, notes lineNotes: [LineInterpreter.LineNote] = [],
    showsPanel: Bool = false
  ) -> (outcome: LineInterpreter.Outcome, isAccepted: Bool) {
    let before = runner
    let ran = runner.runTyped(line)
    var outcome = ran.quits ? LineInterpreter.Outcome.quit : .proceed
    var failure = ran.failure?.message
    let notes = lineNotes.map { "note: " + $0.message } + ran.notes
    if Interruption.reset() {
      runner = before
      output.bytes.removeAll()
      (outcome, failure) = (.proceed, "interrupted")
    } else if failure == nil, let effect = ran.effect {
      journal?.record([effect])
      if let start = ran.startEffect { journal?.record([start]) }
    }
    // Programmer mode's panel under the display, before the notes (SPEC §10).
    if failure == nil, showsPanel, let panel = panel(after: ran.effect, columns: output.columns) {
      output.write(interpreter.style.dim(panel) + "\n")
    }
    output.endPaging()
    if failure == nil, !notes.isEmpty, !isQuiet {
      for note in notes {
        errors.write(style.dim(Terminal.message(note, width: errors.columns)) + "\n")
      }
      errors.flush()
    }
    if let failure { report(failure, editor: &editor, errors: errors, style: style) }
    return (outcome, failure == nil)
  }
}
