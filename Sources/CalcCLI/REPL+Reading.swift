import CalcCore
import CalculatorEngine

/// How the REPL reads a line: pastes echoed, `:edit L` served by a prefilled read, the locale's
/// decimal separator, and the live display and the slider while the line is edited.
extension REPL {
  /// Reads the next line: a pasted line is echoed after the prompt, a line worth recalling is
  /// remembered, and a request of the line (`:edit L` alone: ``LineRequest/editLine(_:keys:)``)
  /// is served by a second, prefilled read.
  mutating func nextLine(
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

  /// A number typed the way the display groups it (`1.234,5` under de_DE) is rejected (`nil`,
  /// reported), and `1.234` gets a note (SPEC §6); then the locale's separator in `line` is read
  /// as the decimal point, so that the line is recorded with `.`. Returns the notes.
  func readDecimalPoint(
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
}

/// The live rows while a line is read: the editor's closures share them, and the slider's
/// moves change their interpreter (see `REPL.read(editor:journal:live:format:prefix:_:)`).
private final class LiveBox {
  var rows: LiveRows

  init(_ rows: LiveRows) {
    self.rows = rows
  }
}
