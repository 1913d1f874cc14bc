import CalculatorEngine

extension LineInterpreter {
  /// `:why L` (SPEC §12): a row for each key of line L — for a formula, each of its compiled
  /// Scientific keys — with the display and the expression line after it, replayed from the
  /// state before the line (the states in between are not kept).
  ///
  /// - Complexity: O(``History/snapshotInterval`` + n) in the keys of the line.
  func writeWhy(
    _ number: Int, at command: ScriptLine.Directive, output: OutputBuffer
  ) throws(LineError) {
    let history = session.history
    let lines = history.lines()
    let first = History.firstLineNumber(of: lines)
    guard number >= first, number - first < lines.count else {
      throw LineError(
        SessionError.unknownLine(number, count: lines.count - 1 + first).description,
        column: command.argumentColumn)
    }
    let line = lines[number - first]
    var modes = KeyText.ModeTracker()
    for earlier in lines[..<(number - first)] { modes.pass(earlier.keys) }
    output.writeRow(style.dim("line \(number): \(modes.text(of: line.keys))"))
    var state = history.state(at: line.start)
    state.startLine()
    let keyWidth = 8
    // The rows are written once the widest display is known, so that the expression lines
    // start in one column.
    var rows: [(title: String, display: String, expression: String)] = []
    func row(_ title: String, _ state: Calculator) {
      rows.append((title, format.text(for: state), format.expression(for: state)))
    }
    for index in line.keys.indices {
      let step = line.start + index + 1
      if let formula = history.formulaStep(at: step) {
        state.forEachState(applying: formula, row)
      } else if let date = history.dateStep(at: step) {
        // A date line is one row, its normalised text as the key (SPEC §13).
        state = history.state(at: step)
        row(date.normalizedText, state)
      } else if line.keys[index].isReference {
        // What `$N` recalled is the history's: its state, not a replay of the key.
        state = history.state(at: step)
        row(line.keys.title(at: index), state)
      } else {
        state.press(line.keys[index])
        row(line.keys.title(at: index), state)
      }
      if line.keys[index].isFormula { state = history.state(at: step) }
    }
    let displayWidth = rows.lazy.map(\.display.count).max() ?? 0
    for row in rows {
      let title = row.title + String(repeating: " ", count: max(1, keyWidth - row.title.count))
      let display =
        row.expression.isEmpty
        ? row.display
        : row.display + String(repeating: " ", count: displayWidth - row.display.count)
      output.writeRow(
        "  " + title + display + (row.expression.isEmpty ? "" : "  " + style.dim(row.expression)))
    }
  }
}
