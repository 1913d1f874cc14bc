import CalculatorEngine

/// The rows the REPL draws below the input for SPEC §6's live display and slider, worked out
/// for a session: the one place that the REPL's editor closures and calc-bench's measurement
/// of the render path share.
///
/// It holds the interpreter while a line is read; a slider move changes its position alone,
/// so a copy shares the history's storage with the original and nothing is copied.
public struct LiveRows {
  /// The session, moved by the slider.
  public private(set) var interpreter: LineInterpreter
  /// How numbers are shown on the screen (the terminal's grouping).
  public let format: DisplayFormat
  /// The locale's decimal separator, accepted as the decimal point (SPEC §6).
  private let separator: [UInt8]
  /// The last key line's keys and states, for the next keystroke's preview.
  private var cache = PreviewCache()

  /// Rows for `interpreter`'s session, with numbers in `format`.
  public init(interpreter: LineInterpreter, format: DisplayFormat) {
    self.interpreter = interpreter
    self.format = format
    separator = Array(interpreter.format.decimalSeparator.utf8)
  }

  /// The live row for `line` as typed so far (after `prefix`, such as `:edit 3 `), dimmed and
  /// at most `width` columns; `nil` for a blank line. In Programmer mode a line of keys adds
  /// a second row after a newline: the panel of the four radixes (``ProgrammerPanel``).
  ///
  /// - Complexity: as ``PreviewCache/preview(of:interpreter:format:width:)``: a key added at
  ///   the end of a line replays that key alone.
  public mutating func preview(_ line: [UInt8], prefix: [UInt8] = [], width: Int) -> String? {
    let text = InputText.acceptingDecimalSeparator(prefix + line, separator: separator)
    guard
      let row = cache.preview(of: text, interpreter: interpreter, format: format, width: width)
    else { return nil }
    return interpreter.style.dim(row.row(width: width)) + panel(after: cache.lastState, width)
  }

  /// Programmer mode's panel below the live row (SPEC §10), as a second row: a newline and
  /// the panel for `state`, dimmed; empty without one.
  private func panel(after state: Calculator?, _ width: Int) -> String {
    guard let state, let panel = ProgrammerPanel.row(for: state, format: format, width: width)
    else { return "" }
    return "\n" + interpreter.style.dim(panel)
  }

  /// The live row for the position itself (its expression line and display), dimmed: after a
  /// move, while nothing is typed; in Programmer mode with the panel's row after a newline.
  public func current(width: Int) -> String {
    let state = interpreter.session.state
    let row = LivePreview.result(
      expression: format.expression(for: state), display: format.text(for: state))
    return interpreter.style.dim(row.row(width: width)) + panel(after: state, width)
  }

  /// A slider move, through the session's door as the command it stands for (`:goto -1`,
  /// `:undo`, …); returns its effect for a journal (`nil` at an end, where a move goes
  /// nowhere), the prompt for the new position, and the slider's bar for a terminal `columns`
  /// wide (`nil`: not a terminal; the bar is then as for 80 columns and the prompt not
  /// shortened), dimmed.
  ///
  /// - Complexity: as the move (``History/move(to:)``), plus O(w) for the bar.
  public mutating func move(_ slider: SliderMove, columns: Int?) -> (
    effect: Session.Effect?, prompt: String, bar: String
  ) {
    cache = PreviewCache()
    let effect = interpreter.performMove(slider.command)
    let history = interpreter.session.history
    let label = " \(history.position)/\(history.count)".count
    let bar = interpreter.listing.slider(width: max(1, min(60, (columns ?? 80) - 4 - label)))
    return (
      effect, Prompt.text(for: interpreter, columns: columns), interpreter.style.dim(bar)
    )
  }

  /// The text that draws `rows` below the input after readline's redraw, with the cursor on
  /// row `cursorRow` of the input at `cursorColumn` and the input's last row `lastRow`: see
  /// ``Terminal/rowsBelowInput(_:cursorRow:lastRow:cursorColumn:)``.
  public static func frame(_ rows: [String], cursorRow: Int, lastRow: Int, cursorColumn: Int)
    -> String
  {
    Terminal.rowsBelowInput(
      rows, cursorRow: cursorRow, lastRow: lastRow, cursorColumn: cursorColumn)
  }
}
