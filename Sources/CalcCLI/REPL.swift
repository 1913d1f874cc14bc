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
  private struct Sinks {
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
  private struct Reading {
    let journal: Journal?
    let live: Bool
    let format: DisplayFormat
  }

  /// What reading gave the loop.
  private enum NextLine {
    /// A line to run.
    case line([UInt8])
    /// Nothing to run (Ctrl-C on a line, an edit left as it was): read again.
    case nothing
    /// The end of input.
    case end
  }

  /// The display again on the screen, when the output goes elsewhere.
  private func showDisplay(_ sinks: Sinks) {
    guard let screen = sinks.screen else { return }
    let brain = interpreter.session.state
    let format = interpreter.context.noteFormat
    let expression = format.expression(for: brain)
    if !expression.isEmpty { screen.write(sinks.errorStyle.dim(expression) + "\n") }
    screen.write(sinks.errorStyle.dim(format.text(for: brain)) + "\n")
    if let panel = ProgrammerPanel.row(for: brain, format: format, width: sinks.errors.columns) {
      screen.write(sinks.errorStyle.dim(panel) + "\n")
    }
    screen.flush()
  }

  /// Programmer mode's panel of the four radixes (SPEC §10) for a line that showed the display
  /// (`effect`: keys, a move, an edit, a load), at most `columns` wide; `nil` for other lines
  /// and in the other modes.
  private func panel(after effect: Session.Effect?, columns: Int?) -> String? {
    switch effect?.change {
    case .applied?, .moved?, .switched?, .rewrote?, .restored?, .loaded?, .reset?: break
    case .noted?, .varied?, nil: return nil
    }
    return ProgrammerPanel.row(
      for: interpreter.session.state, format: interpreter.format, width: columns)
  }

  /// The start-up line, broken at a space to fit the terminal (at 40 columns), not by it.
  private func showStartup(_ sinks: Sinks, editor: some LineEditor) {
    let startupColumns = editor.size(of: sinks.screen == nil ? .output : .errors)?.columns
    let startup = startupColumns.map { Terminal.wrapped(startupLine, width: $0) } ?? startupLine
    sinks.person.write(
      (sinks.screen == nil ? interpreter.style : sinks.errorStyle).dim(startup) + "\n")
    sinks.person.flush()
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

  /// Reads the next line: a pasted line is echoed after the prompt, a line worth recalling is
  /// remembered, and a request of the line (`:edit L` alone: ``LineRequest/editLine(_:keys:)``)
  /// is served by a second, prefilled read.
  private mutating func nextLine(
    editor: inout some LineEditor, _ reading: Reading, _ sinks: Sinks
  ) -> NextLine {
    let person = sinks.person
    let prompt = Prompt.text(for: interpreter, columns: editor.size(of: .input)?.columns)
    let line: [UInt8]
    let input = read(
      editor: &editor, journal: reading.journal, live: reading.live, format: reading.format,
      screen: person
    ) { editor in editor.read(prompt: prompt) }
    switch input {
    case .typed(let typed):
      line = typed
    case .pasted(let pasted):
      // The next line of a paste, shown as if typed at the prompt.
      person.write(prompt + TextEscaping.escaped(String(decoding: pasted, as: UTF8.self)) + "\n")
      person.flush()
      line = pasted
    case .end(let cursorAfterPrompt):
      // Ctrl-D: leave the terminal on a fresh line, exactly once.
      if cursorAfterPrompt { person.write("\n") }
      person.flush()
      return .end
    case .abandoned:
      return .nothing
    }
    let mode = interpreter.session.state.mode
    let parsed = line.withUnsafeBufferPointer { try? ScriptLine($0, mode: mode) }
    // A line that parses as blank is not worth recalling; a rejected one is, to be fixed.
    if parsed != .blank { editor.remember(line) }
    switch interpreter.request(for: parsed) {
    case nil:
      return .line(line)
    case .editLine(let number, let keys):
      return edit(line: number, keys: keys, editor: &editor, reading, sinks)
    }
  }

  /// `:edit L` without keys: line L's keys to edit on the input line, then the edit (`:edit L
  /// KEYS`, or `:delete L` for an emptied line); the live row shows what the edit would give,
  /// and there is no slider while a line of the past is edited.
  private mutating func edit(
    line number: Int, keys: String, editor: inout some LineEditor, _ reading: Reading,
    _ sinks: Sinks
  ) -> NextLine {
    let edited = read(
      editor: &editor, journal: nil, live: reading.live, format: reading.format,
      screen: sinks.person, prefix: Array(":edit \(number) ".utf8)
    ) { editor in
      editor.read(prompt: "edit line \(number)> ", prefill: Array(keys.utf8))
    }
    switch edited {
    case .typed(let edited), .pasted(let edited):
      // An emptied line deletes the line (SPEC §4).
      let line =
        InputText.isBlank(edited)
        ? Array(":delete \(number)".utf8) : Array(":edit \(number) ".utf8) + edited
      editor.remember(line)
      return .line(line)
    case .end, .abandoned:
      sinks.person.write(sinks.errorStyle.dim("line \(number) left as it was") + "\n")
      sinks.person.flush()
      return .nothing
    }
  }

  /// Reads the screen's size for the line about to run (the window may have changed): the
  /// pager's screen, listings cut to the width, `:help` wrapped and `:pad` narrowed (SPEC §6),
  /// notes and errors broken at spaces (a number is never split).
  private func fitToScreen(editor: some LineEditor, pagerCommand: String?, _ sinks: Sinks) {
    let size = editor.size(of: .output)
    if let pagerCommand, let size {
      sinks.output.pager = Pager(command: pagerCommand, rows: size.rows, columns: size.columns)
    }
    sinks.output.columns = size?.columns
    sinks.errors.columns = editor.size(of: .errors)?.columns
  }

  /// An empty line: the expression line and the display again.
  private func showAgain(_ sinks: Sinks) {
    if sinks.screen != nil {
      showDisplay(sinks)
    } else {
      interpreter.appendDisplay(to: sinks.output)
      if let panel = ProgrammerPanel.row(
        for: interpreter.session.state, format: interpreter.format, width: sinks.output.columns)
      {
        sinks.output.write(interpreter.style.dim(panel) + "\n")
      }
      sinks.output.endPaging()
    }
  }

  /// A number typed the way the display groups it (`1.234,5` under de_DE) is rejected (`nil`,
  /// reported), and `1.234` gets a note (SPEC §6); then the locale's separator in `line` is read
  /// as the decimal point, so that the line is recorded with `.`. Returns the notes.
  private func readDecimalPoint(
    _ line: inout [UInt8], editor: inout some LineEditor, _ sinks: Sinks
  ) -> [LineInterpreter.LineNote]? {
    let localeNotes: [LineInterpreter.LineNote]
    do throws(LineError) {
      localeNotes = try LocaleDecimalPoint.notes(for: line, format: interpreter.format)
    } catch {
      report(error.message, editor: &editor, errors: sinks.errors, style: sinks.errorStyle)
      return nil
    }
    line = InputText.acceptingDecimalSeparator(
      line, separator: Array(interpreter.format.decimalSeparator.utf8))
    return localeNotes
  }

  /// Reads the next input with `read`, with the live display and the slider (SPEC §6) when
  /// `live`: while the line is edited, the editor shows what Enter would give (worked out on
  /// a copy of the session, nothing applied) and the slider's keys move through time.
  ///
  /// Each move goes through the session's door like the command it stands for, and is
  /// journaled as `:goto N` before it is drawn. The moves act on a copy of the interpreter in
  /// a box that the editor's closures share; it is taken back when the read ends (a move
  /// changes the position alone, so the two copies share the history's storage and nothing
  /// is copied). With `prefix` (`:edit 3 `), the live row shows what that command would give
  /// with the line as its keys, and there is no slider. `journal` is `nil` then.
  ///
  /// When the read ends (Enter, the end of input), the rows below the input are erased on
  /// `screen` before anything else is written, so that the scrollback reads as without them.
  private mutating func read<Editor: LineEditor>(
    editor: inout Editor, journal: Journal?, live: Bool, format: DisplayFormat,
    screen: OutputBuffer, prefix: [UInt8] = [], _ read: (inout Editor) -> EditorInput
  ) -> EditorInput {
    defer {
      if editor.hasRowsBelow {
        editor.hasRowsBelow = false
        screen.write(Terminal.eraseBelow)
        screen.flush()
      }
    }
    guard live else {
      let interpreter = self.interpreter
      editor.referableLines = { interpreter.referableLineCount }
      editor.keyMode = { interpreter.session.state.mode }
      defer { (editor.referableLines, editor.keyMode) = (nil, nil) }
      return read(&editor)
    }
    let box = LiveBox(LiveRows(interpreter: interpreter, format: format))
    // The slider may move the position while the line is read: Tab asks the moved copy.
    editor.referableLines = { box.rows.interpreter.referableLineCount }
    editor.keyMode = { box.rows.interpreter.session.state.mode }
    let showsPreview = self.showsPreview
    editor.live = LiveDisplay(
      preview: { line, width in
        showsPreview ? box.rows.preview(line, prefix: prefix, width: width) : nil
      },
      current: { width in box.rows.current(width: width) },
      move: !prefix.isEmpty
        ? nil
        : { slider, columns in
          let (effect, prompt, bar) = box.rows.move(slider, columns: columns)
          // Journaled before it is drawn, so that kill -9 loses no move.
          if let effect { journal?.record([effect]) }
          return (prompt, bar)
        },
      prompt: !prefix.isEmpty
        ? nil : { columns in Prompt.text(for: box.rows.interpreter, columns: columns) },
      bar: { columns in
        let interpreter = box.rows.interpreter
        return interpreter.style.dim(interpreter.listing.sliderBar(columns: columns))
      })
    let input = read(&editor)
    // The closures go first: the interpreter taken back is then the only owner of its storage.
    editor.live = nil
    editor.referableLines = nil
    editor.keyMode = nil
    interpreter = box.rows.interpreter
    return input
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

  /// Reports a rejected or interrupted line: `error: MESSAGE`, and how many lines of a paste
  /// were dropped with it.
  private func report(
    _ failure: String, editor: inout some LineEditor, errors: OutputBuffer, style: Style
  ) {
    // The rest of a paste goes with a rejected or interrupted line.
    let dropped = editor.discardPendingInput()
    errors.write(style.error(Terminal.message("error: \(failure)", width: errors.columns)) + "\n")
    if dropped > 0 {
      let lines = dropped == 1 ? "1 pasted line was" : "\(dropped) pasted lines were"
      errors.write(style.error("error: \(lines) not run") + "\n")
    }
    errors.flush()
  }
}

/// The live rows while a line is read: the editor's closures share them, and the slider's
/// moves change their interpreter (see `REPL.read(editor:journal:live:format:prefix:_:)`).
private final class LiveBox {
  var rows: LiveRows

  init(_ rows: LiveRows) {
    self.rows = rows
  }
}
