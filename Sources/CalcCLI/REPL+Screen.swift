import CalcCore
import CalculatorEngine

/// What the REPL shows the person besides a line's output: the start-up line, the display again
/// (on the screen when the output goes elsewhere), Programmer mode's panel, a rejected line's
/// error, and the screen's size for the line about to run.
extension REPL {
  /// The display again on the screen, when the output goes elsewhere.
  func showDisplay(_ sinks: Sinks) {
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
  func panel(after effect: Session.Effect?, columns: Int?) -> String? {
    switch effect?.change {
    case .applied?, .moved?, .switched?, .rewrote?, .restored?, .loaded?, .reset?: break
    case .noted?, .varied?, nil: return nil
    }
    return ProgrammerPanel.row(
      for: interpreter.session.state, format: interpreter.format, width: columns)
  }

  /// The start-up line, broken at a space to fit the terminal (at 40 columns), not by it.
  func showStartup(_ sinks: Sinks, editor: some LineEditor) {
    let startupColumns = editor.size(of: sinks.screen == nil ? .output : .errors)?.columns
    let startup = startupColumns.map { Terminal.wrapped(startupLine, width: $0) } ?? startupLine
    sinks.person.write(
      (sinks.screen == nil ? interpreter.style : sinks.errorStyle).dim(startup) + "\n")
    sinks.person.flush()
  }

  /// Reads the screen's size for the line about to run (the window may have changed): the
  /// pager's screen, listings cut to the width, `:help` wrapped and `:pad` narrowed (SPEC §6),
  /// notes and errors broken at spaces (a number is never split).
  func fitToScreen(editor: some LineEditor, pagerCommand: String?, _ sinks: Sinks) {
    let size = editor.size(of: .output)
    if let pagerCommand, let size {
      sinks.output.pager = Pager(command: pagerCommand, rows: size.rows, columns: size.columns)
    }
    sinks.output.columns = size?.columns
    sinks.errors.columns = editor.size(of: .errors)?.columns
  }

  /// An empty line: the expression line and the display again.
  func showAgain(_ sinks: Sinks) {
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

  /// Reports a rejected or interrupted line: `error: MESSAGE`, and how many lines of a paste
  /// were dropped with it.
  func report(
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
