import CalculatorEngine

#if canImport(Glibc)
  import Glibc
#endif

/// The interactive session: readline input, the display after each line, errors that change
/// nothing, and the time position in the prompt.
struct REPL {
  var interpreter: LineInterpreter
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

  /// How many lines the history file keeps.
  static let historyLimit = 1000

  /// The line printed on start: how to get help and how to leave.
  static let startupLine =
    "calc \(CalcCommand.version) — :help for keys and commands, Ctrl-D to leave"
  /// The start-up line when there is an earlier session to resume: shorter words for help, so
  /// that it stays within 72 columns (SPEC §6).
  static let startupLineWithResume =
    "calc \(CalcCommand.version) — :help, Ctrl-D to leave, :resume for the last session"

  /// `$CALC_HISTORY`, else `~/.calc_history`; `nil` when neither can be known.
  var historyPath: String? {
    if let path = environment["CALC_HISTORY"], !path.isEmpty { return path }
    guard let home = environment["HOME"], !home.isEmpty else { return nil }
    return home + "/.calc_history"
  }

  /// `calc> ` at the end of the current branch, `calc[3/8]> ` before it (step 3 of its 8), the
  /// parts of ``promptParts`` (`calc sci rad FE b2> `), and ` M` before the `>` while the memory
  /// holds a value (`calc M> `, `calc sci b2[3/8] M> `): SPEC §6 and §9, each part separated by
  /// a space, the position attached to the part before. Shortened for the terminal on standard
  /// input (see ``prompt(parts:of:columns:)``).
  var prompt: String {
    Self.prompt(for: interpreter)
  }

  /// The prompt for `interpreter`'s session on a terminal `columns` wide (by default the one on
  /// standard input; `nil`: not shortened); see ``prompt``.
  static func prompt(
    for interpreter: LineInterpreter,
    columns: Int? = Terminal.size(of: STDIN_FILENO)?.columns
  ) -> String {
    prompt(parts: promptParts(for: interpreter), of: interpreter, columns: columns)
  }

  /// The parts of the prompt after `calc`, in SPEC §9's order: `sci` in Scientific mode, the
  /// angle unit when it is not degrees (in either mode), `FE` while F-E is on, and the branch
  /// when there is more than one: `calc sci rad FE b2[3/8] M> `.
  static func promptParts(for interpreter: LineInterpreter) -> [String] {
    let history = interpreter.session.history
    let state = history.state
    var parts: [String] = []
    if state.mode == .scientific { parts.append("sci") }
    switch state.angleUnit {
    case .degrees: break
    case .radians: parts.append("rad")
    case .grads: parts.append("grad")
    }
    if state.isExponential { parts.append("FE") }
    if history.branchCount > 1 { parts.append("b\(history.currentBranch)") }
    return parts
  }

  /// How the prompt is shortened to take at most a third of the terminal's width (SPEC §6),
  /// each step on top of the ones before.
  enum PromptShortening: Int, CaseIterable, Comparable {
    /// The whole prompt.
    case whole
    /// Without `calc `: `sci b2[3/8]> `, `[3/8]> `.
    case withoutName
    /// The position without the branch's length: `[3]`.
    case shortPosition
    /// Without the word size (Programmer mode's `QWORD`; no mode shows one yet, so that this
    /// step changes nothing today).
    case withoutWordSize

    static func < (left: Self, right: Self) -> Bool { left.rawValue < right.rawValue }
  }

  /// The prompt from its parts (see ``prompt``): the one place it is put together. On a
  /// terminal `columns` wide, shortened step by step (``PromptShortening``) until it takes at
  /// most a third of the width; when even the shortest is wider, the shortest.
  static func prompt(parts: [String], of interpreter: LineInterpreter, columns: Int? = nil)
    -> String
  {
    let history = interpreter.session.history
    let memory = history.state.memory == nil ? "" : " M"
    func prompt(_ shortening: PromptShortening) -> String {
      let place =
        history.isAtEnd
        ? ""
        : shortening >= .shortPosition
          ? "[\(history.position)]" : "[\(history.position)/\(history.count)]"
      let words = shortening >= .withoutName ? parts : ["calc"] + parts
      let text = words.joined(separator: " ") + place + memory
      return (shortening >= .withoutName ? String(text.drop { $0 == " " }) : text) + "> "
    }
    guard let columns else { return prompt(.whole) }
    let shortenings = PromptShortening.allCases
    return shortenings.lazy.map(prompt).first { Terminal.width(of: $0) <= columns / 3 }
      ?? prompt(shortenings.last!)
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
    let journal = openJournal(errors: errors)
    defer { journal?.close() }
    let person = screen ?? output
    /// The display again on the screen, when the output goes elsewhere.
    func showDisplay() {
      guard let screen else { return }
      let brain = interpreter.session.state
      let format = interpreter.context.noteFormat
      let expression = format.expression(for: brain)
      if !expression.isEmpty { screen.write(errorStyle.dim(expression) + "\n") }
      screen.write(errorStyle.dim(format.text(for: brain)) + "\n")
      screen.flush()
    }
    // At 40 columns the start-up line is broken at a space, not by the terminal.
    let startupColumns = Terminal.size(of: screen == nil ? STDOUT_FILENO : STDERR_FILENO)?.columns
    let startup = startupColumns.map { Terminal.wrapped(startupLine, width: $0) } ?? startupLine
    person.write((screen == nil ? interpreter.style : errorStyle).dim(startup) + "\n")
    person.flush()
    // A resumed session keeps its own mode: no start-mode line after it.
    var hasResumed = false
    if resumes {
      if run(
        Array(":resume".utf8), journal: journal, editor: &editor, output: output, errors: errors,
        style: errorStyle
      ).isAccepted {
        showDisplay()
        hasResumed = true
      }
    }
    if !hasResumed, let start = interpreter.enterStartMode() { journal?.record([start]) }
    // Numbers on the screen: grouped for the terminal even when the output goes to a file.
    let screenFormat = screen == nil ? interpreter.format : interpreter.context.noteFormat
    while !output.hasStopped {
      // Ctrl-C from here on stops the line that is read next.
      Interruption.reset()
      var line: [UInt8]
      let prompt = self.prompt
      let input = read(
        editor: &editor, journal: journal, live: drawsBelowInput, format: screenFormat,
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
        return output.exitStatus(ExitStatus.success, errors: errors)
      case .abandoned:
        continue
      }
      let parsed = line.withUnsafeBufferPointer { try? ScriptLine($0) }
      // A line that parses as blank is not worth recalling; a rejected one is, to be fixed.
      if parsed != .blank { editor.remember(line) }
      // `:edit L` without keys: line L's keys to edit on the input line, then the edit.
      if case .directive(let directive)? = parsed, directive.name == "edit",
        let number = ScriptLine.Directive.wholeNumber(Substring(directive.argument)),
        number >= 1, number <= interpreter.session.history.lines().count
      {
        let toEdit = interpreter.session.history.lines()[number - 1]
        // The prefilled line holds the note (SPEC §11): kept, changed or removed with it.
        let text = KeyText.text(of: toEdit.keys) + (toEdit.note.map { "  # " + $0 } ?? "")
        // The live row shows what the edit would give; no slider while a line of the past is
        // edited.
        let edited = read(
          editor: &editor, journal: nil, live: drawsBelowInput, format: screenFormat,
          screen: person, prefix: Array(":edit \(number) ".utf8)
        ) { editor in
          editor.read(
            prompt: "edit line \(number)> ", prefill: Array(text.utf8))
        }
        switch edited {
        case .typed(let edited), .pasted(let edited):
          // An emptied line deletes the line (SPEC §4).
          line =
            edited.allSatisfy({ $0 == 0x20 || $0 == 0x09 })
            ? Array(":delete \(number)".utf8) : Array(":edit \(number) ".utf8) + edited
          editor.remember(line)
        case .end, .abandoned:
          person.write(errorStyle.dim("line \(number) left as it was") + "\n")
          person.flush()
          continue
        }
      }
      // The screen's size is read for each line: the window may have changed.
      let size = Terminal.size(of: STDOUT_FILENO)
      if let pagerCommand, let size {
        output.pager = Pager(command: pagerCommand, rows: size.rows, columns: size.columns)
      }
      // Listings are cut to the width, :help wrapped and :pad narrowed (SPEC §6).
      output.columns = size?.columns
      // Notes and errors are broken at spaces (SPEC §6: a number is never split).
      errors.columns = errors.fd.flatMap { Terminal.size(of: $0)?.columns }
      // An empty line shows the expression line and the display again.
      if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
        if screen != nil {
          showDisplay()
        } else {
          interpreter.appendDisplay(to: output)
          output.endPaging()
        }
        continue
      }
      // A number typed the way the display groups it (`1.234,5` under de_DE) is rejected, and
      // `1.234` gets a note (SPEC §6); then the separator is read as the decimal point, so that
      // the line is recorded with `.`.
      let localeNotes: [LineInterpreter.LineNote]
      do throws(LineError) {
        localeNotes = try LocaleDecimalPoint.notes(for: line, format: interpreter.format)
      } catch {
        report(error.message, editor: &editor, errors: errors, style: errorStyle)
        continue
      }
      line = REPL.acceptingDecimalSeparator(
        line, separator: Array(interpreter.format.decimalSeparator.utf8))
      let (outcome, isAccepted) = run(
        line, journal: journal, editor: &editor, output: output, errors: errors, style: errorStyle,
        notes: localeNotes)
      if outcome == .quit { break }
      if isAccepted { showDisplay() }
    }
    return output.exitStatus(ExitStatus.success, errors: errors)
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
    guard live else { return read(&editor) }
    let box = LiveBox(LiveRows(interpreter: interpreter, format: format))
    let showsPreview = self.showsPreview
    editor.live = LiveDisplay(
      preview: { line, width in
        showsPreview ? box.rows.preview(line, prefix: prefix, width: width) : nil
      },
      current: { width in box.rows.current(width: width) },
      move: !prefix.isEmpty
        ? nil
        : { slider in
          let columns = Terminal.size(of: STDIN_FILENO)?.columns ?? 80
          let (effect, prompt, bar) = box.rows.move(slider, columns: columns)
          // Journaled before it is drawn, so that kill -9 loses no move.
          if let effect { journal?.record([effect]) }
          return (prompt, bar)
        },
      prompt: !prefix.isEmpty
        ? nil : { columns in REPL.prompt(for: box.rows.interpreter, columns: columns) },
      bar: { columns in
        let interpreter = box.rows.interpreter
        return interpreter.style.dim(interpreter.listing.sliderBar(columns: columns))
      })
    let input = read(&editor)
    // The closures go first: the interpreter taken back is then the only owner of its storage.
    editor.live = nil
    interpreter = box.rows.interpreter
    return input
  }

  /// `line` with the locale's decimal separator, when it is not `.`, read as the decimal point
  /// in a key line, up to a comment (SPEC §6: `2,5*2=` under `de_DE`): at the REPL only, since
  /// scripts and `--keys` must mean the same everywhere. Command lines are left as they are.
  ///
  /// - Complexity: O(n) in the length of the line.
  static func acceptingDecimalSeparator(_ line: [UInt8], separator: [UInt8]) -> [UInt8] {
    guard !separator.isEmpty, separator != [UInt8(ascii: ".")],
      line.first(where: { $0 != 0x20 && $0 != 0x09 }) != UInt8(ascii: ":")
    else { return line }
    var result: [UInt8] = []
    result.reserveCapacity(line.count)
    var index = 0
    while index < line.count {
      if line[index] == UInt8(ascii: "#") {
        result += line[index...]
        break
      }
      if line[index...].starts(with: separator) {
        result.append(UInt8(ascii: "."))
        index += separator.count
      } else {
        result.append(line[index])
        index += 1
      }
    }
    return result
  }

  /// Runs one line: its change goes to the journal, then its output to the terminal; a rejected
  /// line prints its error. Returns what to do next and whether the line was accepted.
  ///
  /// Ctrl-C while it runs stops it and changes nothing: the interpreter is put back as it was,
  /// from a copy that shares its storage until the line changes it (copy on write); nothing is
  /// journaled, and what the line has not printed yet is dropped.
  /// `notes` are the line's own, shown before the interpreter's if it is accepted.
  private mutating func run(
    _ line: [UInt8], journal: Journal?, editor: inout some LineEditor, output: OutputBuffer,
    errors: OutputBuffer, style: Style, notes lineNotes: [LineInterpreter.LineNote] = []
  ) -> (outcome: LineInterpreter.Outcome, isAccepted: Bool) {
    let before = interpreter
    var outcome = LineInterpreter.Outcome.proceed
    var effect: Session.Effect?
    var notes = lineNotes
    var failure: String?
    do throws(LineError) {
      let result = try line.withUnsafeBufferPointer { bytes throws(LineError) in
        try interpreter.run(bytes, output: output)
      }
      (outcome, effect) = (result.outcome, result.effect)
      notes += result.notes
    } catch {
      failure = error.message
    }
    if Interruption.reset() {
      interpreter = before
      output.bytes.removeAll()
      (outcome, failure) = (.proceed, "interrupted")
    } else if failure == nil, let effect {
      journal?.record([effect])
      if case .reset = effect.change, let start = interpreter.enterStartMode() {
        journal?.record([start])
      }
    }
    output.endPaging()
    if failure == nil, !notes.isEmpty, !isQuiet {
      for note in notes {
        errors.write(
          style.dim(Terminal.message("note: \(note.message)", width: errors.columns)) + "\n")
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
