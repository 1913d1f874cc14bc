import CalcDecimal
import CalculatorEngine

/// `:tape`, on the screen and as CSV.
extension Listing {
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
        let amount: Number? =
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
      case .formula, .dateLine:
        // One row a formula or a date line, a calculation: the line normalised and its
        // result (SPEC §12, §13).
        body(step, .calculation(state.expressionLine, result: state.display))
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
    let (expression, result): (String, Display?) =
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
  /// `escapingText` (the output is a terminal): the notes, text that came from input, have
  /// their control and invisible characters escaped, as every listing has (SPEC §8).
  ///
  /// - Complexity: O(m + ``History/snapshotInterval``) for m steps.
  func writeTapeCSV(
    _ steps: ClosedRange<Int>, to output: OutputBuffer, escapingText: Bool = false
  ) {
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
      let noteText = escapingText ? TextEscaping.escaped(note ?? "") : note ?? ""
      output.write("\(step),\(field(expression)),\(field(result)),\(field(noteText))\n")
      output.flushIfFull()
    }
  }
}
