import CalcDecimal
import CalculatorEngine
import Foundation

/// The listings of a session — `:history`, `:tape`, `:branches`, the slider bar and the display
/// with its expression line — as functions of the history, the format and the style, written to
/// any ``OutputBuffer`` (a terminal, a pipe, the pager, or memory).
///
/// A long listing writes its rows out as it makes them (``OutputBuffer/flushIfFull()``), so that
/// its memory stays bounded, and asks ``isStopped`` before each row.
struct Listing {
  /// The history listed.
  let history: History
  /// How numbers are shown.
  let format: DisplayFormat
  /// Colours for a terminal, or none.
  let style: Style
  /// Whether a long listing should stop before its next row: its reader went away (a pager
  /// that was quit, `| head`), its output failed, or Ctrl-C was pressed (the REPL then drops the
  /// line's output and reports it).
  let isStopped: (OutputBuffer) -> Bool

  /// Appends the display of `state` and a newline; with `showsExpression`, the expression line
  /// above it (dimmed) when it is not empty: a two-line display like Windows Calculator's.
  ///
  /// Returns what a key line's notes and exit status need to know of the state, read here, where
  /// the state is at hand (``LineInterpreter/applyKeys(_:line:output:)``).
  @discardableResult
  static func writeDisplay(
    _ state: Calculator, format: DisplayFormat, style: Style, showsExpression: Bool,
    to output: OutputBuffer
  ) -> LineInterpreter.StateFacts {
    if showsExpression {
      let expression = format.expression(for: state)
      if !expression.isEmpty { output.write(style.dim(expression) + "\n") }
    }
    let isError = state.isError
    if isError {
      output.write(style.error(format.text(for: state)))
    } else {
      format.append(state, to: &output.bytes)
    }
    output.bytes.append(UInt8(ascii: "\n"))
    return LineInterpreter.StateFacts(showsError: isError, isPending: state.isPendingOperation)
  }

  /// Pads `text` with spaces to `width` characters, on the right or (with `left`) the left.
  private static func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return left ? padding + text : text + padding
  }

  /// `→ branch 2`, `→ branches 2, 5`: the branches that leave the current one at a step.
  private static func forkMark(_ branches: [Int]) -> String {
    (branches.count == 1 ? "→ branch " : "→ branches ")
      + branches.map(String.init).joined(separator: ", ")
  }

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
    var widths = (step: max(4, String(history.count).count), expression: 10, display: 7)
    let measured =
      steps.lowerBound...min(steps.upperBound, steps.lowerBound + Self.measuredRows - 1)
    forEachHistoryRow(measured, output: output) { _, _, expression, display in
      widths.expression = max(widths.expression, expression.count)
      widths.display = max(widths.display, display.count)
    }
    // On a narrow terminal the expression column gives way, so that the display still fits:
    // expressions are shortened from the left, as the live display does.
    if let columns = output.columns {
      let room = columns - (2 + widths.step + 2 + 3 + 2 + 2 + widths.display)
      widths.expression = max(10, min(widths.expression, room))
    }
    let expressionWidth = widths.expression
    let pad = Listing.pad
    let header =
      "  \(pad("step", widths.step, true))  key  \(pad("expression", widths.expression, false))"
      + "  display"
    output.writeRow(style.dim(header))
    forEachHistoryRow(steps, output: output) { step, key, expression, display in
      let expression =
        expression.count > expressionWidth
        ? "…" + String(expression.suffix(expressionWidth - 1)) : expression
      var line =
        "\(pad(String(step), widths.step, true))  \(pad(key, 3, false))  "
        + "\(pad(expression, widths.expression, false))  "
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
    let shown = lines[(numbers.lowerBound - 1)..<numbers.upperBound]
    let displays = history.displays(after: shown)
    let position = history.position
    let widths = (
      line: max(4, String(lines.count).count), step: max(4, String(history.count).count)
    )
    let texts = shown.map { line in
      let text = KeyText.text(of: line.keys)
      return text.count > Self.keysWidth ? String(text.prefix(Self.keysWidth - 1)) + "…" : text
    }
    let keysWidth = max(4, texts.map(\.count).max() ?? 0)
    let pad = Listing.pad
    output.writeRow(
      style.dim(
        "  \(pad("line", widths.line, true))  \(pad("step", widths.step, true))  "
          + "\(pad("keys", keysWidth, false))  display"))
    for ((number, line), (text, display)) in zip(
      zip(numbers, shown), zip(texts, displays))
    {
      guard !isStopped(output) else { return }
      let row =
        "\(pad(String(number), widths.line, true))  \(pad(String(line.start + 1), widths.step, true))  "
        + "\(pad(text, keysWidth, false))  \(format.text(for: display))"
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
  /// last ``expressionWidth`` characters) and display, until ``isStopped``.
  private func forEachHistoryRow(
    _ steps: ClosedRange<Int>, output: OutputBuffer, _ body: (Int, String, String, String) -> Void
  ) {
    struct Stopped: Error {}
    let width = Listing.expressionWidth
    try? history.forEachStep(in: steps) { step, key, state in
      guard !isStopped(output) else { throw Stopped() }
      let line = format.expression(for: state)
      let shown = line.count > width ? "…" + String(line.suffix(width - 1)) : line
      body(step, key?.title ?? "", shown, format.text(for: state))
    }
  }

  /// One row of the paper tape: a completed calculation with its result, or a memory key that
  /// changed or recalled the memory, with the amount (none for `MC`).
  enum TapeRow {
    case calculation(ExpressionLine, result: CalculatorBrain.Display)
    case memory(String, amount: Decimal34?)
  }

  /// Calls `body` with each row of the tape at `steps` (within `0...position`) of the current
  /// branch, until ``isStopped``.
  ///
  /// - Complexity: O(m + ``History/snapshotInterval``) for m steps, in one pass.
  func forEachTapeRow(
    _ steps: ClosedRange<Int>, output: OutputBuffer, _ body: (Int, TapeRow) -> Void
  ) {
    struct End: Error {}
    var previous: History.State?
    try? history.forEachStep(in: max(0, steps.lowerBound - 1)...steps.upperBound) {
      step, key, state in
      guard !isStopped(output) else { throw End() }
      defer { previous = state }
      guard let key, let before = previous, steps.contains(step) else { return }
      switch key {
      case .memory(let memory):
        // A key that did nothing (MR or MC on an empty memory, or while an error is shown)
        // is no row.
        guard state != before else { return }
        let amount: Decimal34? =
          switch memory {
          case .store, .recall: state.memory
          case .add, .subtract: before.displayedValue
          case .clear: nil
          }
        body(step, .memory(key.title, amount: amount))
      case .digit, .dot, .op, .equal, .command, .unary, .bracket, .binary, .function, .constant,
        .exponent, .fixedToExponential, .angle, .mode:
        guard let line = before.completedCalculation(by: key) else { return }
        body(step, .calculation(line, result: state.display))
      }
    }
  }

  /// Appends `:tape` of `steps` (within `0...position`): every calculation completed on the
  /// current branch, one row each — the step where it completed (so that `:goto` returns
  /// there), the calculation as the expression line writes it, and its result: `4  1 + 2 = 3` —
  /// and the memory keys that changed or recalled the memory, as a printing calculator prints
  /// them: `8  M+ 13.5`, `9  MR 35.48`, `10  MC`.
  ///
  /// Rows are written out as they are made, and stop early when ``isStopped``.
  /// - Complexity: O(m + ``History/snapshotInterval``) for m steps, in one pass; memory O(1)
  ///   beyond the output.
  func writeTape(_ steps: ClosedRange<Int>, to output: OutputBuffer) {
    let width = String(steps.upperBound).count
    var rows = 0
    forEachTapeRow(steps, output: output) { step, row in
      rows += 1
      let start = output.bytes.count
      let number = String(step)
      output.write(String(repeating: " ", count: width - number.count) + number + "  ")
      switch row {
      case .calculation(let line, let result):
        format.append(line, to: &output.bytes)
        output.bytes.append(UInt8(ascii: " "))
        format.append(result, to: &output.bytes)
      case .memory(let title, let amount):
        output.write(title + (amount.map { " " + format.text(for: $0) } ?? ""))
      }
      // Cut to the terminal, when there is one: the row as text, only then.
      if let columns = output.columns, output.bytes.count - start > columns {
        let row = String(decoding: output.bytes[start...], as: UTF8.self)
        output.bytes.removeSubrange(start...)
        output.write(Terminal.cut(row, width: columns))
      }
      output.bytes.append(UInt8(ascii: "\n"))
      output.flushIfFull()
    }
    if rows == 0, !isStopped(output) { output.write("no calculations\n") }
  }

  /// The tape of `steps` as CSV (SPEC §4, `:tape csv`): the header `step,expression,result`,
  /// then a row per tape row, LF line ends, fields quoted as RFC 4180 says, plain numbers in
  /// both columns (a memory row's expression is its key, `M+`; `MC` has no result).
  ///
  /// - Complexity: O(m + ``History/snapshotInterval``) for m steps.
  func writeTapeCSV(_ steps: ClosedRange<Int>, to output: OutputBuffer) {
    let plain = DisplayFormat.plain
    /// A field, quoted when it holds a comma, a quote or a line break.
    func field(_ text: String) -> String {
      guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else {
        return text
      }
      return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
    output.write("step,expression,result\n")
    forEachTapeRow(steps, output: output) { step, row in
      let (expression, result) =
        switch row {
        case .calculation(let line, let result): (plain.text(for: line), plain.text(for: result))
        case .memory(let title, let amount): (title, amount.map { plain.text(for: $0) } ?? "")
        }
      output.write("\(step),\(field(expression)),\(field(result))\n")
      output.flushIfFull()
    }
  }

  /// `[━━━━━━━●───] 7/10`: the book's slider over the current branch, at most 30 cells wide.
  func slider(width: Int = 30) -> String {
    let count = history.count
    let cells = min(count, width)
    let filled = count == 0 ? 0 : (history.position * cells + count / 2) / count
    return "[" + String(repeating: "━", count: filled) + "●"
      + String(repeating: "─", count: cells - filled) + "] \(history.position)/\(count)"
  }

  /// Appends `:branches`: for every branch its number, where it leaves the branch it came from
  /// (`1 at 5`: branch 1, after step 5), its length, the display at its end and its last keys;
  /// `▶` marks the current one.
  ///
  /// - Complexity: O(b × (``History/snapshotInterval`` + depth)), b the number of branches.
  func writeBranches(to output: OutputBuffer) {
    guard !history.isEmpty else {
      output.write("no branches\n")
      return
    }
    let lastKeysShown = 20
    struct Row {
      let number: String
      let leaves: String
      let steps: String
      let display: String
      let keys: String
    }
    let rows = (1...history.branchCount).map { number in
      let branch = history.branch(number)
      let keys = history.lastKeys(ofBranch: number, limit: lastKeysShown + 1)
      var expression = keys.suffix(lastKeysShown).map(\.title).joined()
      if keys.count > lastKeysShown { expression = "…" + expression }
      return Row(
        number: String(number), leaves: branch.parent.map { "\($0) at \(branch.fork)" } ?? "",
        steps: String(branch.count),
        display: format.text(for: history.stateAtEnd(ofBranch: number)), keys: expression)
    }
    let widths = (
      number: 6, leaves: max(6, rows.map(\.leaves.count).max()!),
      steps: max(5, rows.map(\.steps.count).max()!),
      display: max(7, rows.map(\.display.count).max()!)
    )
    let pad = Listing.pad
    let header =
      "  \(pad("branch", widths.number, true))  \(pad("leaves", widths.leaves, false))"
      + "  \(pad("steps", widths.steps, true))  \(pad("display", widths.display, false))  last keys"
    output.writeRow(style.dim(header))
    for (index, row) in rows.enumerated() {
      var line =
        "\(pad(row.number, widths.number, true))  \(pad(row.leaves, widths.leaves, false))"
        + "  \(pad(row.steps, widths.steps, true))  \(pad(row.display, widths.display, false))"
        + "  \(row.keys)"
      line = (index + 1 == history.currentBranch ? style.marker("▶ ") : "  ") + line
      while line.last == " " { line.removeLast() }
      output.writeRow(line)
      output.flushIfFull()
    }
  }
}
