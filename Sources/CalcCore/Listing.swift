import CalcDecimal
import CalculatorEngine

/// The listings of a session — `:history`, `:tape`, `:branches`, the slider bar and the display
/// with its expression line — as functions of the history, the format and the style, written to
/// any ``OutputBuffer`` (a terminal, a pipe, the pager, or memory).
///
/// A long listing writes its rows out as it makes them (``OutputBuffer/flushIfFull()``), so that
/// its memory stays bounded, and asks ``isStopped`` before each row.
package struct Listing {
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
  /// above it (dimmed) when it is not empty, broken at spaces to fit ``OutputBuffer/columns``:
  /// a two-line display like Windows Calculator's.
  ///
  /// Returns what a key line's notes and exit status need to know of the state, read here, where
  /// the state is at hand (``LineInterpreter/applyKeys(_:references:line:output:mode:mayHoldModeKeys:)``).
  ///
  /// `mode`, when given, is the state's mode, known to the caller: a line without a mode key
  /// leaves the mode as it was (reading it was a call, 10 instructions a script line, callgrind).
  @discardableResult @inline(__always)
  static func writeDisplay(
    _ state: Calculator, format: DisplayFormat, style: Style, showsExpression: Bool,
    to output: OutputBuffer, mode: Key.Mode? = nil
  ) -> StateFacts {
    if showsExpression {
      let expression = format.expression(for: state)
      // On a terminal, broken at spaces: a number is never split across two rows (SPEC §6).
      if !expression.isEmpty {
        output.write(style.dim(Terminal.message(expression, width: output.columns)) + "\n")
      }
    }
    let isError = state.isError
    if isError {
      output.write(style.error(format.text(for: state)))
      output.bytes.append(UInt8(ascii: "\n"))
    } else {
      // With its newline: a script's everyday answer is one append.
      format.appendLine(state, to: &output.bytes)
    }
    return StateFacts(
      showsError: isError, isPending: state.isPending, mode: mode ?? state.mode)
  }

  /// The text of `display` in at most `width` columns (SPEC §6: a display too wide for a narrow
  /// terminal is shown in scientific notation, never cut): as the display shows it when it
  /// fits, else a value in scientific notation with as many significant digits as fit, rounded
  /// (`9.99999999E27`); with no width, or a display that is not a value, as it shows it.
  ///
  /// - Complexity: O(34) format attempts at most.
  static func fitted(_ display: CalculatorBrain.Display, format: DisplayFormat, width: Int?)
    -> String
  {
    let text = format.text(for: display)
    guard let width, Terminal.width(of: text) > width else { return text }
    let value: Decimal34
    switch display {
    case .value(let number), .exponential(let number): value = number
    case .entry, .scientificEntry, .programmer, .error: return text
    }
    var shortest = text
    for digits in stride(from: Decimal34.precision, through: 1, by: -1) {
      var bytes: [UInt8] = []
      format.appendExponential(value.rounded(toSignificantDigits: digits), to: &bytes)
      shortest = String(decoding: bytes, as: UTF8.self)
      if Terminal.width(of: shortest) <= width { break }
    }
    return shortest
  }

  /// `text` cut to `width` columns from the left, after `…` (an expression line keeps its end).
  private static func cutLeft(_ text: String, _ width: Int) -> String {
    text.count > width ? "…" + String(text.suffix(max(0, width - 1))) : text
  }

  /// `text` cut to `width` columns from the right, before `…` (key text keeps its start).
  private static func cutRight(_ text: String, _ width: Int) -> String {
    text.count > width ? String(text.prefix(max(0, width - 1))) + "…" : text
  }

  /// The narrowest a shortened expression or key text column gets before it is left out.
  static let narrowestTextColumn = 6

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
    forEachHistoryRow(measured, output: output) { _, _, expression, state in
      widths.expression = max(widths.expression, expression.count)
      widths.display = max(widths.display, format.text(for: state.display).count)
    }
    // On a narrow terminal the columns give way so that the display fits (SPEC §6): the
    // expression is shortened from the left (as the live display does), then left out, then
    // the step; a display still too wide is shown in scientific notation.
    var (showsExpression, showsStep) = (true, true)
    var displayRoom: Int?
    if let columns = output.columns {
      let room = columns - (2 + widths.step + 2 + 3 + 2 + 2 + widths.display)
      widths.expression = min(widths.expression, max(room, Self.narrowestTextColumn))
      showsExpression = room >= Self.narrowestTextColumn
      showsStep = columns >= 2 + widths.step + 2 + 3 + 2 + widths.display || showsExpression
      displayRoom =
        columns - 2 - 3 - 2 - (showsStep ? widths.step + 2 : 0)
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
    output.writeRow(style.dim("  " + stepHeader + "key  " + expressionHeader + "display"))
    forEachHistoryRow(steps, output: output) { step, key, expression, state in
      let display = Listing.fitted(state.display, format: format, width: displayRoom)
      var line =
        (showsStep ? pad(String(step), widths.step, true) + "  " : "") + pad(key, 3, false) + "  "
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
    var texts = shown.map { line in Self.cutRight(KeyText.text(of: line.keys), Self.keysWidth) }
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
    case calculation(ExpressionLine, result: CalculatorBrain.Display)
    case memory(String, amount: Decimal34?)
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
        if let programmer = state.programmer {
          // In the radix and word shown at that step (SPEC §10).
          // MS and MR: the display after the key; M+ and M−: the display they added.
          let value: Int64? =
            switch memory {
            case .store, .recall: programmer.value
            case .add, .subtract: before.programmer?.value
            case .clear: nil
            }
          body(
            step,
            .programmerMemory(
              key.title,
              amount: value.map {
                ProgrammerValue(value: $0, radix: programmer.radix, wordSize: programmer.wordSize)
              }))
          return
        }
        body(step, .memory(key.title, amount: amount))
      case .reference:
        // `$N` is a row like MR (SPEC §4, §11): `7  $3 1,639`; ignored while an error is shown.
        guard state != before else { return }
        body(step, .memory(history.keyTitle(at: step), amount: state.displayedValue))
      case .digit, .dot, .op, .equal, .command, .unary, .scientific, .angle, .mode, .programmer:
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
    forEachTapeRowWithNote(steps, output: output) { step, row, note in
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
      case .programmerMemory(let title, let amount):
        output.write(title + (amount.map { " " + format.text(for: .programmer($0)) } ?? ""))
      }
      // The line's note, after its last row (SPEC §11).
      if let note { output.write("  " + style.dim(TextEscaping.escaped(note))) }
      // Too wide for the terminal, when there is one: made again as text, only then, with
      // the expression shortened from the left, then left out, then the step; a result still
      // too wide in scientific notation (SPEC §6).
      if let columns = output.columns, output.bytes.count - start > columns,
        Terminal.visibleWidth(of: String(decoding: output.bytes[start...], as: UTF8.self))
          > columns
      {
        output.bytes.removeSubrange(start...)
        output.write(
          Listing.narrowTapeRow(
            row, step: number, stepWidth: width, format: format, columns: columns))
      }
      output.bytes.append(UInt8(ascii: "\n"))
      output.flushIfFull()
    }
    if rows == 0, !isStopped(output) { output.write("no calculations\n") }
  }

  /// A row of `:tape` that is too wide for `columns` (SPEC §6): the expression shortened from
  /// the left after `…`, or left out when fewer than ``narrowestTextColumn`` columns remain for
  /// it; then the step left out; a result still too wide in scientific notation.
  static func narrowTapeRow(
    _ row: TapeRow, step: String, stepWidth: Int, format: DisplayFormat, columns: Int
  ) -> String {
    let (expression, result): (String, CalculatorBrain.Display?) =
      switch row {
      case .calculation(let line, let result): (format.text(for: line), result)
      case .memory(let title, let amount): (title, amount.map { .value($0) })
      case .programmerMemory(let title, let amount): (title, amount.map { .programmer($0) })
      }
    let resultWidth = result.map { format.text(for: $0).count } ?? 0
    let stepText = String(repeating: " ", count: max(0, stepWidth - step.count)) + step + "  "
    // A memory row keeps its key (`M+`): it is the row's meaning.
    let keepsExpression: Bool
    switch row {
    case .memory, .programmerMemory: keepsExpression = true
    case .calculation: keepsExpression = false
    }
    let room = columns - stepText.count - 1 - resultWidth
    if keepsExpression || room >= narrowestTextColumn {
      let shown = keepsExpression ? expression : cutLeft(expression, room)
      let left = stepText + shown + (result == nil ? "" : " ")
      let fits = left.count + resultWidth <= columns
      let prefix = fits || !keepsExpression ? left : shown + " "
      return prefix
        + (result.map { fitted($0, format: format, width: columns - prefix.count) } ?? "")
    }
    guard let result else { return stepText + expression }
    if stepText.count + resultWidth <= columns { return stepText + format.text(for: result) }
    return fitted(result, format: format, width: columns)
  }

  /// Calls `body` with each tape row of `steps` (``forEachTapeRow(_:output:_:)``) and, on the
  /// last row of a line that has a note, that note (SPEC §11): each row is held until the next
  /// one shows whether its line goes on.
  ///
  /// - Complexity: as ``forEachTapeRow(_:output:_:)``, and O(n) for the branch's lines when a
  ///   line of the session has a note.
  func forEachTapeRowWithNote(
    _ steps: ClosedRange<Int>, output: OutputBuffer, _ body: (Int, TapeRow, String?) -> Void
  ) {
    guard history.hasNotes else {
      forEachTapeRow(steps, output: output) { body($0, $1, nil) }
      return
    }
    let lines = history.lines()
    var index = 0
    var pending: (step: Int, row: TapeRow, line: Int)?
    forEachTapeRow(steps, output: output) { step, row in
      // The line that holds the key leading to `step`: rows come in order of steps.
      while index < lines.count, lines[index].end < step { index += 1 }
      if let held = pending {
        body(held.step, held.row, held.line == index ? nil : lines[held.line].note)
      }
      pending = (step, row, index)
    }
    if let held = pending, held.line < lines.count, !isStopped(output) {
      body(held.step, held.row, lines[held.line].note)
    }
  }

  /// The tape of `steps` as CSV (SPEC §4, `:tape csv`): the header `step,expression,result,note`,
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
      return "\""
        + text.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"")
        + "\""
    }
    output.write("step,expression,result,note\n")
    forEachTapeRowWithNote(steps, output: output) { step, row, note in
      // Programmer mode's rows in DEC, whatever radix they were shown in (SPEC §10).
      let (expression, result) =
        switch row.inDecimal {
        case .calculation(let line, let result): (plain.text(for: line), plain.text(for: result))
        case .memory(let title, let amount): (title, amount.map { plain.text(for: $0) } ?? "")
        case .programmerMemory(let title, let amount):
          (title, amount.map { plain.text(for: .programmer($0)) } ?? "")
        }
      output.write("\(step),\(field(expression)),\(field(result)),\(field(note ?? ""))\n")
      output.flushIfFull()
    }
  }

  /// The slider's bar as the REPL draws it below the input on a terminal `columns` wide: at
  /// most 60 cells, and four columns to spare.
  package func sliderBar(columns: Int) -> String {
    let label = " \(history.position)/\(history.count)".count
    return slider(width: max(1, min(60, columns - 4 - label)))
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
      var expression = (max(0, keys.count - lastKeysShown)..<keys.count).map {
        keys.title(at: $0)
      }.joined()
      if keys.count > lastKeysShown { expression = "…" + expression }
      return Row(
        number: String(number), leaves: branch.parent.map { "\($0) at \(branch.fork)" } ?? "",
        steps: String(branch.count),
        display: format.text(for: history.stateAtEnd(ofBranch: number).display),
        keys: expression)
    }
    var widths = (
      number: 6, leaves: max(6, rows.map(\.leaves.count).max()!),
      steps: max(5, rows.map(\.steps.count).max()!),
      display: max(7, rows.map(\.display.count).max()!)
    )
    // On a narrow terminal the last keys go first (cut, then left out with the rest of the row
    // past the edge), then the steps; a display still too wide is shown in scientific
    // notation (SPEC §6).
    var showsSteps = true
    var displayRoom: Int?
    if let columns = output.columns {
      let before = 2 + widths.number + 2 + widths.leaves + 2
      showsSteps = before + widths.steps + 2 + widths.display <= columns
      displayRoom = columns - before - (showsSteps ? widths.steps + 2 : 0)
      widths.display = min(widths.display, max(7, displayRoom ?? 0))
    }
    let pad = Listing.pad
    let header =
      "  \(pad("branch", widths.number, true))  \(pad("leaves", widths.leaves, false))"
      + (showsSteps ? "  " + pad("steps", widths.steps, true) : "")
      + "  \(pad("display", widths.display, false))  last keys"
    output.writeRow(style.dim(header))
    for (index, row) in rows.enumerated() {
      let display =
        row.display.count > (displayRoom ?? .max)
        ? Listing.fitted(
          history.stateAtEnd(ofBranch: index + 1).display, format: format, width: displayRoom)
        : row.display
      var line =
        "\(pad(row.number, widths.number, true))  \(pad(row.leaves, widths.leaves, false))"
        + (showsSteps ? "  " + pad(row.steps, widths.steps, true) : "")
        + "  \(pad(display, widths.display, false))  \(row.keys)"
      line = (index + 1 == history.currentBranch ? style.marker("▶ ") : "  ") + line
      while line.last == " " { line.removeLast() }
      output.writeRow(line)
      output.flushIfFull()
    }
  }
}

/// What a key line needs to know of the state (its notes, its exit status), read where the
/// display is written or where `self` is not `inout`: read in a mutating method, the session's
/// state was copied first, about 200 instructions a read, a good part of a short line's cost.
package struct StateFacts {
  /// Whether the display shows an error.
  package var showsError: Bool
  /// Whether an operation is pending (or, in Scientific mode, a bracket is open).
  package var isPending: Bool
  /// The mode: the next line's keys are read in it.
  package var mode: Key.Mode

  /// The facts given.
  package init(showsError: Bool, isPending: Bool, mode: Key.Mode) {
    self.showsError = showsError
    self.isPending = isPending
    self.mode = mode
  }
}
