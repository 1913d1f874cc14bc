import CalculatorEngine

/// SPEC §11's listings: `:find`'s rows and `:vary`'s table, from the engine's ``Ledger``.
extension LineInterpreter {
  /// Writes the lines `:find TEXT` finds, as `:lines` rows with their branch, streamed; Ctrl-C
  /// stops it.
  ///
  /// A table under a header that names every column — branch, line, step, keys, display, note,
  /// and `shared` (`+N branches`) — aligned to the widest cells of the first screenful (``findBatch``
  /// rows; a later cell widens its column). On a narrow terminal the columns give way as
  /// every listing's do (SPEC §6): the shared and note columns first, then the keys (cut with
  /// `…` first), then the step; the display is never cut.
  ///
  /// - Complexity: O(b × n), as ``Ledger/find(_:in:_:)``.
  func writeFound(_ text: String, to output: OutputBuffer) {
    struct Row {
      var cells: [String]
      var display: Display
    }
    // branch, line, step, keys, display, note, shared
    let headers = ["branch", "line", "step", "keys", "display", "note", "shared"]
    let rightAligned: Set<Int> = [0, 1, 2]
    var widths = headers.map(\.count)
    // The note and shared columns, while none of the first screenful's rows has one: left out
    // (a later row's cell then follows its row).
    var empty: Set<Int> = [5, 6]
    var batch: [Row] = []
    var wroteHeader = false
    var rows = 0
    /// The columns shown and the keys' room, for the widths so far.
    func layout() -> (shown: [Int], keysRoom: Int?, displayRoom: Int?) {
      var shown = [0, 1, 2, 3, 4, 5, 6].filter { !empty.contains($0) }
      func total(_ columns: [Int]) -> Int {
        2 + columns.map { widths[$0] }.reduce(0, +) + 2 * (columns.count - 1)
      }
      guard let limit = output.columns else { return (shown, nil, nil) }
      // The shared and note columns first, whole, then the keys (cut to no less than their
      // header first), then the step.
      for drop in [6, 5] where total(shown) > limit { shown.removeAll { $0 == drop } }
      if total(shown) > limit {
        let room = widths[3] - (total(shown) - limit)
        if room >= headers[3].count { return (shown, room, nil) }
        shown.removeAll { $0 == 3 }
      }
      if total(shown) > limit { shown.removeAll { $0 == 2 } }
      // A display still too wide is shown in scientific notation, never cut.
      let over = total(shown) - limit
      return (shown, nil, over > 0 ? widths[4] - over : nil)
    }
    func write(_ row: Row) {
      let (shown, keysRoom, displayRoom) = layout()
      var line = ""
      for (position, column) in shown.enumerated() {
        var cell = row.cells[column]
        if column == 3, let keysRoom { cell = Terminal.cutRight(cell, keysRoom) }
        if column == 4, let displayRoom {
          cell = Listing.fitted(row.display, format: format, width: displayRoom)
        }
        let width =
          column == 3
          ? (keysRoom ?? widths[3]) : column == 4 ? (displayRoom ?? widths[4]) : widths[column]
        let padded =
          position == shown.count - 1 && !rightAligned.contains(column)
          ? cell : Self.padded(cell, width, left: rightAligned.contains(column))
        line += (position == 0 ? "" : "  ") + padded
      }
      for column in empty.sorted() where !row.cells[column].isEmpty {
        line += "  " + row.cells[column]
      }
      while line.last == " " { line.removeLast() }
      if !wroteHeader {
        wroteHeader = true
        var header = ""
        for (position, column) in shown.enumerated() {
          let width =
            column == 3
            ? (keysRoom ?? widths[3]) : column == 4 ? (displayRoom ?? widths[4]) : widths[column]
          let padded =
            position == shown.count - 1 && !rightAligned.contains(column)
            ? headers[column]
            : Self.padded(headers[column], width, left: rightAligned.contains(column))
          header += (position == 0 ? "" : "  ") + padded
        }
        output.writeRow(style.dim("  " + header))
      }
      output.writeRow("  " + line)
    }
    Ledger.find(Ledger.Query(text, format: format), in: session.history) { found in
      rows += 1
      let row = Row(
        cells: [
          String(found.branch), String(found.number), String(found.line.start + 1),
          KeyText.text(of: found.line.keys, modeBefore: found.modeBefore),
          format.text(for: found.display),
          found.line.note.map(TextEscaping.escaped) ?? "",
          found.otherBranches > 0
            ? "+\(found.otherBranches) branch\(found.otherBranches == 1 ? "" : "es")" : "",
        ], display: found.display)
      for (column, cell) in row.cells.enumerated() {
        widths[column] = max(widths[column], Terminal.width(of: cell))
        if !wroteHeader, !cell.isEmpty { empty.remove(column) }
      }
      if batch.count < Self.findBatch && !wroteHeader {
        batch.append(row)
        return !output.hasStopped && !host.isInterrupted()
      }
      for waiting in batch { write(waiting) }
      batch = []
      write(row)
      output.flushIfFull()
      return !output.hasStopped && !host.isInterrupted()
    }
    for waiting in batch { write(waiting) }
    if rows == 0 { output.write("nothing found\n") }
  }

  /// How many rows of `:find` are aligned together before the first is written: a screenful.
  static let findBatch = 50

  /// Writes `:vary`'s table: a row per alternative — the line as it is first, marked — with
  /// its branch, line L's keys and the displays after the table's lines; `… N more differ`
  /// below it when more later lines differ.
  ///
  /// When the table is wider than the terminal, each alternative becomes a block of `label:
  /// value` lines instead (`after 3: 1,739`), so that every result stays whole (SPEC §6); line
  /// L's keys are then cut with `…` if need be.
  func writeVariation(_ variation: Ledger.Variation, to output: OutputBuffer) {
    // Line L as `:lines` writes it: `fx` only where another mode is in force before it.
    let modeBefore = session.mode(atStartOfLine: variation.line)
    let keys = variation.rows.map { KeyText.text(of: $0.keys, modeBefore: modeBefore) }
    let keysWidth = max(("line \(variation.line)").count, keys.map(\.count).max() ?? 0) + 2
    let cells = variation.rows.map { row in
      variation.columns.map { line in
        variation.display(row, afterLine: line).map { format.text(for: $0) } ?? ""
      }
    }
    let widths = variation.columns.indices.map { column in
      max(("after \(variation.columns[column])").count, cells.map { $0[column].count }.max() ?? 0)
        + 1
    }
    func line(_ marker: String, _ branch: String, _ keys: String, _ columns: [String]) -> String {
      var text = marker + Self.padded(branch, 6, left: true) + "  " + Self.padded(keys, keysWidth)
      for (cell, width) in zip(columns, widths) { text += "  " + Self.padded(cell, width) }
      while text.last == " " { text.removeLast() }
      return text
    }
    let header = line(
      "  ", "branch", "line \(variation.line)", variation.columns.map { "after \($0)" })
    let tableWidth = max(
      Terminal.width(of: header),
      variation.rows.indices.map { index in
        variation.rows[index].error == nil
          ? Terminal.width(of: line("  ", "", keys[index], cells[index])) : 0
      }.max() ?? 0)
    if let columns = output.columns, tableWidth > columns {
      return writeVariationBlocks(variation, keys: keys, cells: cells, to: output)
    }
    output.writeRow(style.dim(header))
    for (index, row) in variation.rows.enumerated() {
      let marker = index == 0 ? style.marker("▶ ") : "  "
      if let error = row.error {
        output.writeRow(
          marker + Self.padded("", 6) + "  " + Self.padded(keys[index], keysWidth) + "  "
            + "refused: " + error.description)
      } else {
        output.writeRow(line(marker, row.branch.map(String.init) ?? "", keys[index], cells[index]))
      }
    }
    if variation.moreDiffer > 0 { output.write("… \(variation.moreDiffer) more differ\n") }
  }

  /// `:vary`'s alternatives as blocks of `label: value` lines, for a terminal too narrow for its
  /// table: `▶ branch 1`, then `line 1: 1200+350+89=` and `after 2: 19,668` indented.
  private func writeVariationBlocks(
    _ variation: Ledger.Variation, keys: [String], cells: [[String]], to output: OutputBuffer
  ) {
    let indent = "    "
    let columns = output.columns ?? .max
    for (index, row) in variation.rows.enumerated() {
      let marker = index == 0 ? style.marker("▶ ") : "  "
      output.writeRow(marker + (row.branch.map { "branch \($0)" } ?? "no branch"))
      let label = "line \(variation.line): "
      output.writeRow(
        indent + label
          + Terminal.cutRight(keys[index], max(2, columns - indent.count - label.count)))
      if let error = row.error {
        output.write(
          Terminal.message(indent + "refused: " + error.description, width: output.columns)
            + "\n")
        continue
      }
      for (column, line) in variation.columns.enumerated() {
        let label = "after \(line): "
        let room = columns - indent.count - label.count
        let value =
          variation.display(row, afterLine: line).map {
            Listing.fitted($0, format: format, width: room)
          } ?? cells[index][column]
        output.write(indent + label + value + "\n")
      }
    }
    if variation.moreDiffer > 0 { output.write("… \(variation.moreDiffer) more differ\n") }
  }

  /// `text` padded with blanks to `width`, on the left when `left`.
  private static func padded(_ text: String, _ width: Int, left: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return left ? padding + text : text + padding
  }
}

/// Tab completion of `$N` references (SPEC §11), worked out here so that it is tested in
/// process; readline's completer (CalcCLI) asks for it.
extension LineInterpreter {
  /// How many lines a line entered at the position can refer to (`$1` up to this): the lines
  /// of the current branch before the position, a line's part before the position counting as
  /// a line of its own, as `:lines` lists them once the line is entered; the mode line, line 0,
  /// not among them (SPEC §11).
  ///
  /// - Complexity: O(p × log b), p the position, b the branches it passes through.
  public var referableLineCount: Int {
    let history = session.history
    let ends = history.lineEnds(upTo: history.position)
    let modeLine = ends.first == 1 && History.isModeLine(CollectionOfOne(history.key(at: 1)))
    return ends.count - (modeLine ? 1 : 0)
  }

  /// The line numbers that complete `digits`, typed after a `$`, given `lineCount` lines to
  /// refer to: those from 1 to `lineCount` whose decimal text starts with `digits`, in
  /// increasing order; all of them for empty `digits`, none when `digits` holds a non-digit.
  ///
  /// - Complexity: O(`lineCount`).
  public static func referenceCompletions(of digits: String, lineCount: Int) -> [String] {
    guard digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
      lineCount >= 1
    else { return [] }
    return (1...lineCount).map(String.init).filter { $0.hasPrefix(digits) }
  }
}
