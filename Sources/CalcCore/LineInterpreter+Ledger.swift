import CalculatorEngine

/// SPEC §11's listings: `:find`'s rows and `:vary`'s table, from the engine's ``Ledger``.
extension LineInterpreter {
  /// Writes the lines `:find TEXT` finds, as `:lines` rows with their branch, streamed; Ctrl-C
  /// stops it.
  ///
  /// - Complexity: O(b × n), as ``Ledger/find(_:in:_:)``.
  func writeFound(_ text: String, to output: OutputBuffer) {
    var rows = 0
    Ledger.find(Ledger.Query(text, format: format), in: session.history) { found in
      if rows == 0 { output.writeRow(style.dim("  branch  line  step  keys  display")) }
      rows += 1
      let keys = KeyText.text(of: found.line.keys)
      var row =
        Self.padded(String(found.branch), 6, left: true) + "  "
        + Self.padded(String(found.number), 4, left: true) + "  "
        + Self.padded(String(found.line.start + 1), 4, left: true) + "  " + keys + "  "
        + format.text(for: found.display)
      if let note = found.line.note { row += "  " + TextEscaping.escaped(note) }
      if found.otherBranches > 0 {
        row += style.dim(
          "  +\(found.otherBranches) branch\(found.otherBranches == 1 ? "" : "es")")
      }
      output.writeRow("  " + row)
      output.flushIfFull()
      return !output.hasStopped && !host.isInterrupted()
    }
    if rows == 0 { output.write("nothing found\n") }
  }

  /// Writes `:vary`'s table: a row per alternative — the line as it is first, marked — with
  /// its branch, line L's keys and the displays after the table's lines; `… N more differ`
  /// below it when more later lines differ.
  func writeVariation(_ variation: Ledger.Variation, to output: OutputBuffer) {
    let keys = variation.rows.map { KeyText.text(of: $0.keys) }
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
    output.writeRow(
      style.dim(
        line("  ", "branch", "line \(variation.line)", variation.columns.map { "after \($0)" })))
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
