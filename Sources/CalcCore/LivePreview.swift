import CalculatorEngine

/// What Enter would give for the line being typed at the REPL: SPEC §6's live display, shown
/// dimmed on the row below the input at every keystroke.
///
/// It is worked out on a copy of the state: nothing is applied or recorded.
public enum LivePreview: Equatable, Sendable {
  /// The expression line (possibly empty) and the display that Enter would show.
  case result(expression: String, display: String)
  /// The error Enter would give.
  case error(String)
  /// What a command does: a command that is neither a move nor an edit, a command whose
  /// argument is still to come, or an edit of a session too large to replay at each keystroke.
  case summary(String)

  /// The most keys an edit (`:edit`, `:insert`, `:delete`) is tried on at each keystroke; in a
  /// longer session the preview shows what the command does instead (SPEC §7 gives an edit of
  /// a million keys a second, a keystroke two milliseconds).
  public static let editLimit = 100_000

  /// The row as drawn, at most `width` columns (``Terminal/width(of:)``): the expression line,
  /// three spaces and the display (`12 + 3 =   15`). When that does not fit, the display is
  /// kept whole and the expression line shortened from the left with `…`; a display that does
  /// not fit alone is shortened from the left too (a date difference drops its `(N days)` part
  /// first). Errors and summaries are cut at the right.
  public func row(width: Int) -> String {
    let width = max(1, width)
    switch self {
    case .result(let expression, var display):
      // A date difference too wide drops its `(N days)` first (SPEC §13).
      if Terminal.width(of: display) > width, display.hasSuffix(" days)"),
        let open = display.lastIndex(of: "("), open > display.startIndex
      {
        display = String(display[..<display.index(before: open)])
      }
      if expression.isEmpty { return Terminal.cutLeft(display, width) }
      let whole = expression + "   " + display
      if Terminal.width(of: whole) <= width { return whole }
      let room = width - Terminal.width(of: display) - 3
      // Fewer than two columns for the expression line: `…` alone says nothing.
      guard room >= 2 else { return Terminal.cutLeft(display, width) }
      return Terminal.cutLeft(expression, room) + "   " + display
    case .error(let message):
      return Terminal.cutRight("error: " + message, width)
    case .summary(let text):
      return Terminal.cutRight(text, width)
    }
  }
}

extension LineInterpreter {
  /// What Enter would give for `line` as typed so far (SPEC §6), or `nil` for a blank line.
  ///
  /// A key line gives the expression line and the display after it, or the error it would
  /// give; an unfinished key at its end (`m`, `co`, `yro`) is not an error yet, and the state
  /// before it is shown. A move (`:goto`, `:undo`, `:redo`, `:branch`) or an edit (`:edit`,
  /// `:insert`, `:delete`) gives the display after it, or its error; any other command, or one
  /// whose argument is still to come, its summary from the command table.
  ///
  /// - Complexity: O(n) in the line for a key line, whatever the session's size; a move as
  ///   the move; an edit as the edit, tried only in sessions of ``LivePreview/editLimit`` keys.
  public func preview(of line: [UInt8], format: DisplayFormat? = nil) -> LivePreview? {
    let shown = format ?? self.format
    var isFormula = false
    let preview: LivePreview? = line.withUnsafeBufferPointer { buffer in
      do throws(KeyTextError) {
        let parsed = try ScriptLine(buffer, mode: session.state.mode)
        if case .keys(let keys) = parsed { isFormula = !keys.formulas.isEmpty }
        return self.preview(of: parsed, line: buffer, format: shown)
      } catch {
        // A date line shows nothing until it parses (SPEC §13).
        if session.state.mode == .date { return nil }
        // A formula typed so far: the line as typing could finish it (SPEC §12). Else the
        // error as Enter gives it, with the same hints (`0xFF`: `hex FF`).
        return formulaPreview(of: buffer, format: shown)
          ?? unfinishedPreview(of: buffer, error: error, format: shown)
          ?? .error(caseRuleHint(for: error, in: buffer).description)
      }
    }
    // A line that ends in a word still being typed in the mode in force there (`prog 5 qwo`,
    // whose `q` another mode's keypad has): the line before it, which must be valid.
    // A formula's error stands (``formulaPreview(of:format:)`` finished what it could).
    guard case .error? = preview, !isFormula,
      let start = line.withUnsafeBufferPointer({
        Self.unfinishedWord(at: $0, mode: session.state.mode)
      })
    else { return preview }
    let before = Array(line[..<start])
    guard before.contains(where: { $0 != 0x20 && $0 != 0x09 }) else {
      return result(session.state, shown)
    }
    let shortened = self.preview(of: before, format: shown)
    if case .error? = shortened { return preview }
    return shortened
  }

  /// Where the word that ends `line` starts, when it is the start of a longer key in the mode
  /// in force there (`ro` of `prog 5ro`: `rol`, `ror`), taking the longest such word; `nil`
  /// when the line does not end in one.
  ///
  /// - Complexity: O(n) in the line's bytes for each letter of its last word.
  static func unfinishedWord(
    at line: UnsafeBufferPointer<UInt8>, mode: Key.Mode
  ) -> Int? {
    func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    var start = line.count
    while start > 0, isLetter(line[start - 1]) { start -= 1 }
    guard start < line.count else { return nil }
    for candidate in start..<line.count {
      let before = UnsafeBufferPointer(rebasing: line[..<candidate])
      // The mode in force after the keys before the word (`prog` on the same line).
      var inForce = mode
      if let keys = try? KeyText.keys(in: before, startingIn: mode) {
        for case .mode(let switched) in keys { inForce = switched }
      }
      if KeyText.isUnfinishedSpelling(line[candidate...], mode: inForce) { return candidate }
    }
    return nil
  }

  func preview(
    of parsed: ScriptLine, line: UnsafeBufferPointer<UInt8>, format: DisplayFormat
  ) -> LivePreview? {
    switch parsed {
    case .blank:
      return nil
    case .keys(let keys):
      var state = session.state
      if let error = state.keyRejection(in: keys), let index = error.rejectedKeyIndex {
        let columns = KeyText.columns(in: line, startingIn: state.mode)
        let column = index < columns.count ? columns[index] : 1
        return .error(error.description + " at column \(column)")
      }
      // A formula line: the state it would leave, as the session would apply it (SPEC §12).
      // (A line with a date line is read by a copy of the session, below: it needs today.)
      if keys.contains(where: \.isFormula), !keys.contains(where: \.isDateLine) {
        do throws(SessionError) {
          return result(try session.state(afterFormulaLine: keys), format)
        } catch {
          return .error(error.description)
        }
      }
      // `$N` keys recall what the session resolves for them (SPEC §11), and a date line is
      // read and calculated by it (SPEC §13): on a copy.
      if keys.contains(where: { $0.isReference || $0.isDateLine }) {
        var copy = session
        if let text = host.today(), let today = try? CivilDate(iso: text) { copy.today = today }
        do throws(SessionError) {
          try copy.perform(.keys(keys))
        } catch {
          return .error(error.description)
        }
        return result(copy.state, format)
      }
      state.startLine()
      for key in keys { state.press(key) }
      return result(state, format)
    case .directive(let directive):
      return preview(of: directive, line: line, format: format)
    }
  }

  /// The expression line and the display of `state`, as a key line shows them.
  func result(_ state: Calculator, _ format: DisplayFormat) -> LivePreview {
    .result(expression: format.expression(for: state), display: format.text(for: state))
  }

  private func preview(
    of directive: ScriptLine.Directive, line: UnsafeBufferPointer<UInt8>, format: DisplayFormat
  ) -> LivePreview {
    // `:edit L KEYS` reads its keys in the mode in force at line L (SPEC §10).
    let directive = directive.readingKeys(in: session)
    let spec = CommandSpec.named(directive.name)
    if directive.name == "edit", let opened = lineToEdit(directive, format: format) {
      return opened
    }
    let command: ParsedCommand
    do throws(LineError) {
      command = try ParsedCommand(directive)
    } catch {
      if directive.argument.isEmpty, let spec { return .summary(Self.summary(spec)) }
      // A name still being typed: the commands it may become.
      let matches = CommandSpec.all.filter { $0.name.hasPrefix(directive.name) }
      if directive.argument.isEmpty, !directive.name.isEmpty, !matches.isEmpty {
        return .summary(
          matches.count == 1
            ? Self.summary(matches[0]) : matches.map(\.usage).joined(separator: "  "))
      }
      return .error(error.message)
    }
    let summary = LivePreview.summary(spec.map(Self.summary) ?? "")
    switch command {
    case .session(let change):
      switch change {
      case .goto, .undo, .redo, .branch:
        break
      case .edit, .insert, .delete:
        guard session.history.count <= LivePreview.editLimit else { return summary }
      case .keys, .keysWithNote, .reset, .load, .note, .vary:
        return summary
      }
      // On a copy: a move changes the position alone; an edit adds a branch to the copy's
      // list, whose keys the original keeps sharing.
      var copy = self
      do throws(LineError) {
        try copy.run(line, output: OutputBuffer())
      } catch {
        return .error(error.message)
      }
      return result(copy.session.state, format)
    case .editLine:
      // A line that cannot be listed: what running it would say (its keys are missing).
      do throws(LineError) {
        _ = try CommandSpec.sessionCommand(directive)
      } catch {
        return .error(error.message)
      }
      return summary
    case .history, .lines, .why, .find, .tape, .branches, .keys, .exact, .copy, .save, .load,
      .resume,
      .pad,
      .help,
      .quit:
      return summary
    }
  }

  /// For `:edit L` without keys, which at the REPL puts line L on the input line to be edited
  /// (SPEC §6): line L's keys and the display after it (`line 1: 12+3=   15`), or the error for
  /// a line that does not exist; `nil` for any other argument, and in a session too large to list
  /// its lines at each keystroke.
  ///
  /// - Complexity: O(n) in the length of the current branch.
  private func lineToEdit(_ directive: ScriptLine.Directive, format: DisplayFormat) -> LivePreview?
  {
    let history = session.history
    guard history.count <= LivePreview.editLimit,
      let number = ScriptLine.Directive.wholeNumber(Substring(directive.argument))
    else { return nil }
    let lines = history.lines()
    // Line 0 is the mode line when there is one (SPEC §11), which stays.
    let first = History.firstLineNumber(of: lines)
    let last = lines.count - 1 + first
    if number == 0, first == 0 {
      return .error(SessionError.modeLineFixed("edit", last: last).description)
    }
    guard number >= 1 else { return nil }
    guard number <= last else {
      return .error(SessionError.unknownLine(number, count: last).description)
    }
    let line = lines[number - first]
    return .result(
      expression: "line \(number): \(KeyText.text(of: line.keys))",
      display: format.text(for: history.state(at: line.end)))
  }

  /// `:goto N|+K|-K — move to step N, or K steps on/back`.
  private static func summary(_ spec: CommandSpec) -> String {
    spec.usage + " — " + spec.summary
  }

  /// The preview of a line whose end is the start of a longer key (`12+3=co`), or of a bare
  /// word (`hel`): the line before that start, which must be valid; `nil` when the error is
  /// elsewhere.
  private func unfinishedPreview(
    of line: UnsafeBufferPointer<UInt8>, error: KeyTextError, format: DisplayFormat
  ) -> LivePreview? {
    switch Self.unfinishedPart(of: line, error: error, mode: session.state.mode) {
    case nil: return nil
    case .bareWord: return result(session.state, format)
    case .keys(let start):
      let before = UnsafeBufferPointer(rebasing: line[..<start])
      guard let parsed = try? ScriptLine(before, mode: session.state.mode) else { return nil }
      return preview(of: parsed, line: before, format: format) ?? result(session.state, format)
    }
  }

  /// Where a line that did not parse (with `error`) ends in something still being typed.
  enum UnfinishedPart: Equatable {
    /// The whole line is the start of a bare command word (`hel`): the position's own preview.
    case bareWord
    /// The bytes from `start` on begin a longer key (`co`, `yro`): the line before it counts.
    case keys(before: Int)
  }

  /// The unfinished part of `line` that gave `error`, or `nil` when the error is elsewhere.
  ///
  /// - Complexity: O(n) in the line's bytes.
  static func unfinishedPart(
    of line: UnsafeBufferPointer<UInt8>, error: KeyTextError,
    mode: Key.Mode = .standard
  ) -> UnfinishedPart? {
    // The error's column counts characters: the offset of its first byte.
    var offset = 0
    var column = 1
    while offset < line.count, column < error.column {
      offset += 1
      while offset < line.count, line[offset] & 0xC0 == 0x80 { offset += 1 }
      column += 1
    }
    let trimmed = line.drop { $0 == 0x20 || $0 == 0x09 }
    let word = trimmed.prefix { $0 != 0x20 && $0 != 0x09 }
    if word.count == trimmed.count, !word.isEmpty,
      ScriptLine.bareWords.contains(where: { $0.utf8.starts(with: word) })
    {
      return .bareWord
    }
    // The unfinished key starts at the error or at a letter before it in the same word.
    var start = min(offset, line.count - 1)
    while start >= 0, (line[start] | 0x20) >= 0x61, (line[start] | 0x20) <= 0x7A {
      if KeyText.isUnfinishedSpelling(line[start...], mode: mode) { return .keys(before: start) }
      start -= 1
    }
    return nil
  }
}
