import CalculatorEngine

extension LineInterpreter {
  /// Applies a line that holds a formula (SPEC §12) through the session's door, with its note,
  /// and prints the display; the formula's own notes (the `1/2pi` reading) are the line's.
  /// A formula the session refuses is the line's error at the formula's column.
  @inline(never)
  mutating func applyFormulaLine(
    _ keys: TypedKeys, line: UnsafeBufferPointer<UInt8>, output: OutputBuffer
  ) throws(LineError) {
    let note =
      line.contains(UInt8(ascii: "#")) ? try note(ofKeyLine: line) : nil
    // The one note a formula has is about a division (`1/2pi`): the formula the line's reader
    // kept has it; one it did not keep is read again only when it holds `/` or `÷` (whose last
    // byte is 0xB7). A date line's text (``Key/dateLine``, beside the formulas' in
    // ``TypedKeys/formulas``) is never a formula, so it is not read as one.
    var index = 0
    for key in keys.keys where key.hasText {
      defer { index += 1 }
      guard key.isFormula else { continue }
      if let kept = keys.readFormulaNotes(at: index) {
        if !kept.isEmpty { notes += kept.map { LineNote(message: $0, column: 1) } }
        continue
      }
      let text = keys.formulas[index]
      if text.utf8.contains(UInt8(ascii: "/")) || text.utf8.contains(0xB7),
        let formula = try? Formula(text)
      {
        notes += formula.notes.map { LineNote(message: $0, column: 1) }
      }
    }
    let (fork, from) =
      context.isInteractive ? (session.history.position, session.history.currentBranch) : (0, 0)
    let change: Session.Change
    do {
      // A line of formulas or date lines without a note, whose date lines do not mention
      // `today` (which ``perform(_:)`` reads the clock for), when no effect is kept — a
      // script's line — skips the command's box (issue 51; for a date line too).
      change =
        try note == nil && !keepsEffects
        && !(keys.keys.contains(where: \.isDateLine) && keys.dateLinesMayMentionToday)
        ? perform(formulaLine: keys) : perform(.keysWithNote(keys, note: note ?? ""))
    } catch {
      if case .formula(let formulaError) = error {
        throw LineError(formulaError.message, column: formulaError.column)
      }
      throw keyLineError(
        for: error, keys: keys.keys[...], references: keys.references, line: line)
    }
    if context.isInteractive, case .applied(_, let newBranch?) = change {
      let message = "(branch \(newBranch) from step \(fork) of branch \(from))"
      output.write(style.dim(Terminal.message(message, width: output.columns)) + "\n")
    }
    // The journal records the formulas as the history does: canonical (SPEC §12).
    if keepsEffects {
      effect = Session.Effect(
        command: .keysWithNote(recordedLine(keys), note: note ?? ""), change: change)
    }
    let facts = stateFacts
    showedAnError = facts.showsError
    factsAfterKeys = facts
    guard context.trace else {
      appendDisplay(to: output)
      if let note, context.isInteractive, context.showsExpression,
        output.bytes.last == UInt8(ascii: "\n")
      {
        output.bytes.removeLast()
        output.write("  " + style.dim(TextEscaping.escaped(note)) + "\n")
      }
      return
    }
    // `--trace`: a row for each key, and for each compiled key of a formula, with the display
    // and the expression line after it (SPEC §12).
    let history = session.history
    var state = history.state(at: history.position - keys.count)
    for index in keys.indices {
      func row(_ title: String, _ state: Calculator) {
        output.bytes.append(contentsOf: title.utf8)
        output.bytes.append(UInt8(ascii: "\t"))
        format.append(state, to: &output.bytes)
        output.bytes.append(UInt8(ascii: "\t"))
        format.appendExpression(state, to: &output.bytes)
        output.bytes.append(UInt8(ascii: "\n"))
      }
      let step = history.position - keys.count + index + 1
      if let formula = history.formulaStep(at: step) {
        state.forEachState(applying: formula, row)
      } else if let date = history.dateStep(at: step) {
        // A date line is one row, its normalised text as the key (SPEC §13).
        row(date.normalizedText, history.state(at: step))
      } else {
        state.press(keys[index])
        row(keys.title(at: index), state)
      }
      state = history.state(at: step)
    }
  }

  /// `keys`, the line just applied, as the history recorded it: each formula's text canonical
  /// (``FormulaStep/text``), `ans` written as its `$N`.
  ///
  /// - Complexity: O(n) in the number of keys.
  private func recordedLine(_ keys: TypedKeys) -> TypedKeys {
    let history = session.history
    let start = history.position - keys.count
    var recorded = TypedKeys()
    for index in keys.indices {
      switch keys[index] {
      case .formula:
        recorded.appendFormula(
          history.formulaStep(at: start + index + 1)?.text ?? keys.formulaText(at: index))
      case .dateLine:
        // Recorded with `today` replaced by its date (SPEC §13).
        recorded.appendDateLine(
          history.dateStep(at: start + index + 1)?.text ?? keys.formulaText(at: index))
      case .reference:
        recorded.appendReference(keys.referencedLine(at: index))
      case .digit, .dot, .op, .equal, .command, .unary, .memory, .angle, .mode, .scientific,
        .programmer:
        recorded.append(keys[index])
      }
    }
    return recorded
  }
}
