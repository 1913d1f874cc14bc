import CalcDecimal
import CalculatorEngine

/// `:history` and `:lines`.
extension Listing {
  /// Appends `:history` of `steps` (within `0...count`): each step of the current branch with
  /// its key, the expression line there (what the REPL showed above the display) and the display,
  /// the current step marked, the kept future labelled, the steps where other branches leave
  /// marked with their numbers, and a slider of the whole branch.
  ///
  /// The columns are as wide as the widest of the first ``measuredRows`` rows (an expression
  /// line longer than ``expressionWidth`` is cut to its end, after `…`), so that the first rows
  /// appear at once however long the branch. Rows are written out as they are made
  /// (``OutputBuffer/flushIfFull()``), and stop early when ``isStopped`` says so.
  /// - Complexity: O(m + ``History/snapshotInterval``) for m steps; beyond the output buffer,
  ///   memory stays O(number of branches) however long the history.
  func writeHistory(_ steps: ClosedRange<Int>, to output: OutputBuffer) {
    guard !history.isEmpty else {
      output.write("no history\n")
      return
    }
    let forks = history.forksOnCurrentBranch()
    var widths = (
      step: max(4, String(history.count).count), key: 3, expression: 10, display: 7
    )
    let measured =
      steps.lowerBound...min(steps.upperBound, steps.lowerBound + Self.measuredRows - 1)
    forEachHistoryRow(measured, output: output) { _, key, expression, state in
      // A formula's step shows the formula (SPEC §12), wider than a key's title.
      widths.key = max(widths.key, min(key.count, 16))
      widths.expression = max(widths.expression, expression.count)
      widths.display = max(widths.display, format.text(for: state.display).count)
    }
    // On a narrow terminal the columns give way so that the display fits (SPEC §6): the
    // expression is shortened from the left (as the live display does), then left out, then
    // the step; a display still too wide is shown in scientific notation.
    var (showsExpression, showsStep) = (true, true)
    var displayRoom: Int?
    if let columns = output.columns {
      let room = columns - (2 + widths.step + 2 + widths.key + 2 + 2 + widths.display)
      widths.expression = min(widths.expression, max(room, Self.narrowestTextColumn))
      showsExpression = room >= Self.narrowestTextColumn
      showsStep =
        columns >= 2 + widths.step + 2 + widths.key + 2 + widths.display || showsExpression
      displayRoom =
        columns - 2 - widths.key - 2 - (showsStep ? widths.step + 2 : 0)
        - (showsExpression ? widths.expression + 2 : 0)
      widths.display = min(widths.display, displayRoom ?? widths.display)
    }
    let expressionWidth = widths.expression
    let pad = Listing.pad
    let stepHeader = showsStep ? pad("step", widths.step, true) + "  " : ""
    let expressionHeader =
      showsExpression
      ? pad(Listing.cutRight("expression", widths.expression), widths.expression, false) + "  "
      : ""
    let keyWidth = widths.key
    output.writeRow(
      style.dim(
        "  " + stepHeader + pad("key", keyWidth, false) + "  " + expressionHeader + "display"))
    forEachHistoryRow(steps, output: output) { step, key, expression, state in
      let display = Listing.fitted(state.display, format: format, width: displayRoom)
      var line =
        (showsStep ? pad(String(step), widths.step, true) + "  " : "")
        + pad(Listing.cutRight(key, keyWidth), keyWidth, false) + "  "
        + (showsExpression
          ? pad(Listing.cutLeft(expression, expressionWidth), widths.expression, false) + "  "
          : "")
      let mark = forks[step].map { "  " + Listing.forkMark($0) } ?? ""
      if step > history.position {
        line = "  " + style.dim(line + pad(display, widths.display, false) + "  (kept)" + mark)
      } else if step == history.position {
        line =
          style.marker("▶ ") + line
          + (mark.isEmpty ? display : pad(display, widths.display, false) + mark)
      } else {
        line = "  " + line + (mark.isEmpty ? display : pad(display, widths.display, false) + mark)
      }
      while line.last == " " { line.removeLast() }
      output.writeRow(line)
      output.flushIfFull()
    }
    guard !isStopped(output) else { return }
    let label = " \(history.position)/\(history.count)".count
    output.writeRow(slider(width: max(1, min(30, (output.columns ?? 80) - 4 - label))))
  }

  /// Appends `:lines` for the lines numbered `numbers` (from 1) of `lines`, the current
  /// branch's: each line's number, the step of its first key, its keys as canonical key text
  /// (cut after ``keysWidth`` characters, with `…`) and the display after it; `▶` marks the line
  /// the position is in or has just finished, and lines after the position are the kept future.
  ///
  /// - Complexity: O(m + ``History/snapshotInterval``), m the steps of the lines listed.
  func writeLines(_ numbers: ClosedRange<Int>, of lines: [History.Line], to output: OutputBuffer) {
    guard !lines.isEmpty else {
      output.write("no lines\n")
      return
    }
    // Line 0 is the mode line when there is one (SPEC §11).
    let first = History.firstLineNumber(of: lines)
    let shown = lines[(numbers.lowerBound - first)...(numbers.upperBound - first)]
    let displays = history.displays(after: shown)
    let position = history.position
    let widths = (
      line: max(4, String(lines.count).count), step: max(4, String(history.count).count)
    )
    // A formula line is written with `fx` only where another mode is in force (SPEC §12).
    var modes = KeyText.ModeTracker()
    for line in lines[..<shown.startIndex] { modes.pass(line.keys) }
    var texts = shown.map { line in
      Self.cutRight(modes.text(of: line.keys), Self.keysWidth)
    }
    var keysWidth = max(4, texts.map(\.count).max() ?? 0)
    // On a narrow terminal the columns give way so that the display fits (SPEC §6): the keys
    // are cut shorter, then left out, then the step; a display still too wide is shown in
    // scientific notation.
    var (showsKeys, showsStep) = (true, true)
    var displayRoom: Int?
    if let columns = output.columns {
      let displayWidth = max(7, displays.map { format.text(for: $0).count }.max() ?? 0)
      let room = columns - (2 + widths.line + 2 + widths.step + 2 + 2 + displayWidth)
      if room < keysWidth {
        keysWidth = max(4, room)
        texts = texts.map { Self.cutRight($0, keysWidth) }
      }
      showsKeys = room >= Self.narrowestTextColumn
      showsStep = showsKeys || columns >= 2 + widths.line + 2 + widths.step + 2 + displayWidth
      displayRoom =
        columns - 2 - widths.line - 2 - (showsStep ? widths.step + 2 : 0)
        - (showsKeys ? keysWidth + 2 : 0)
    }
    let pad = Listing.pad
    // Notes (SPEC §11) are a last column, after the widest display, when a shown line has one.
    let fittedDisplays = displays.map { Listing.fitted($0, format: format, width: displayRoom) }
    let noteAt =
      shown.contains { $0.note != nil } ? max(7, fittedDisplays.map(\.count).max() ?? 0) : nil
    output.writeRow(
      style.dim(
        "  \(pad("line", widths.line, true))  "
          + (showsStep ? pad("step", widths.step, true) + "  " : "")
          + (showsKeys ? pad("keys", keysWidth, false) + "  " : "")
          + (noteAt.map { pad("display", $0, false) + "  note" } ?? "display")))
    for ((number, line), (text, display)) in zip(
      zip(numbers, shown), zip(texts, fittedDisplays))
    {
      guard !isStopped(output) else { return }
      var row =
        "\(pad(String(number), widths.line, true))  "
        + (showsStep ? pad(String(line.start + 1), widths.step, true) + "  " : "")
        + (showsKeys ? pad(text, keysWidth, false) + "  " : "")
      if let noteAt, let note = line.note {
        row += pad(display, noteAt, false) + "  " + TextEscaping.escaped(note)
      } else {
        row += display
      }
      if line.start >= position {
        output.writeRow("  " + style.dim(row + "  (kept)"))
      } else if line.end >= position {
        output.writeRow(style.marker("▶ ") + row)
      } else {
        output.writeRow("  " + row)
      }
      output.flushIfFull()
    }
  }

  /// The widest key text `:lines` shows; a longer line is cut after `…`.
  static let keysWidth = 40

  /// How many rows of `:history` set its column widths: the first screenfuls, not the whole
  /// branch, so that a listing of millions of steps starts at once.
  static let measuredRows = 1000
  /// The widest expression line `:history` shows; a longer one is cut to its last characters.
  static let expressionWidth = 40

  /// Calls `body` for each of `steps` with its number, key title, expression line (cut to its
  /// last ``expressionWidth`` characters) and state, until ``isStopped``.
  private func forEachHistoryRow(
    _ steps: ClosedRange<Int>, output: OutputBuffer,
    _ body: (Int, String, String, History.State) -> Void
  ) {
    struct Stopped: Error {}
    let width = Listing.expressionWidth
    try? history.forEachStep(in: steps) { step, key, state in
      guard !isStopped(output) else { throw Stopped() }
      let line = format.expression(for: state)
      let shown = line.count > width ? "…" + String(line.suffix(width - 1)) : line
      body(step, key == nil ? "" : history.keyTitle(at: step), shown, state)
    }
  }

  /// One row of the paper tape: a completed calculation with its result, or a memory key that
  /// changed or recalled the memory, with the amount (none for `MC`).
  enum TapeRow {
    case calculation(ExpressionLine, result: Display)
    case memory(String, amount: Number?)
    /// Programmer mode's memory key: the amount as the display showed it at that step (in
    /// its radix and word, truncated).
    case programmerMemory(String, amount: ProgrammerValue?)

    /// The row in DEC, for `:tape csv` (SPEC §10): Programmer mode's operands and results in
    /// decimal; other rows unchanged.
    var inDecimal: TapeRow {
      switch self {
      case .calculation(.programmer(let tokens, _, let size), let result):
        // A failed `=` is a row too (`F ÷ 0 =` → `15 ÷ 0 =`), its result the error's text.
        var decimal = result
        if case .programmer(var value) = result {
          value.radix = .dec
          decimal = .programmer(value)
        }
        return .calculation(.programmer(tokens, radix: .dec, wordSize: size), result: decimal)
      case .programmerMemory(let title, let amount):
        return .programmerMemory(
          title,
          amount: amount.map {
            ProgrammerValue(value: $0.value, radix: .dec, wordSize: $0.wordSize)
          })
      case .calculation, .memory: return self
      }
    }
  }
}
