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
  /// not fit alone is shortened from the left too. Errors and summaries are cut at the right.
  public func row(width: Int) -> String {
    let width = max(1, width)
    switch self {
    case .result(let expression, let display):
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
    return line.withUnsafeBufferPointer { buffer in
      do throws(KeyTextError) {
        return preview(
          of: try ScriptLine(buffer, mode: session.state.mode), line: buffer, format: shown)
      } catch {
        return unfinishedPreview(of: buffer, error: error, format: shown)
          ?? .error(error.description)
      }
    }
  }

  private func preview(
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
      // `$N` keys recall what the session resolves for them (SPEC §11): on a copy.
      if keys.contains(where: \.isReference) {
        var copy = session
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
  private func result(_ state: Calculator, _ format: DisplayFormat) -> LivePreview {
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
      case .keys, .reset, .load, .note, .vary:
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
    case .history, .lines, .find, .tape, .branches, .keys, .copy, .save, .load, .resume, .pad,
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

/// The live display of a line being typed, worked out incrementally (SPEC §7: 2 ms a keystroke
/// while keys are added at the end of a 32,000-character line): it keeps the keys of the last
/// key line it previewed and the states after every ``interval`` of them, so that the next
/// preview replays only the keys after the longest common prefix of the two lines, from the
/// last kept state within it.
///
/// What it shows is exactly ``LineInterpreter/preview(of:format:)``'s (a line that is not a
/// line of keys goes there whole), with the expression line cut to the end that a row of a
/// given width can show. It works on copies: nothing is applied to the session. It belongs to
/// one position of one session: ``LiveRows`` starts a new one after every move.
public struct PreviewCache {
  /// The keys of the last key line previewed.
  private var keys: [Key] = []
  /// The state after `startLine()` and the first `index` keys, for index 0, ``interval``,
  /// 2 × ``interval``, … up to the keys' count (those within the last line's common prefix
  /// with the line before it).
  private var states: [(index: Int, state: Calculator)] = []
  /// The state after all of ``keys``.
  private var end: Calculator?

  /// How many keys apart the kept states are (``defaultInterval`` unless a test asks for
  /// fewer): an edit inside the line replays at most this many keys before it, and each kept
  /// state costs O(1) memory beside the shared expression line.
  public let interval: Int

  /// The interval of the REPL's cache.
  public static let defaultInterval = 256

  /// The state that the last ``preview(of:interpreter:format:width:)`` showed for a line of
  /// keys; `nil` after any other line (a command, an error in the key text).
  public private(set) var lastState: Calculator?

  /// An empty cache keeping a state every `interval` keys.
  public init(interval: Int = PreviewCache.defaultInterval) {
    self.interval = max(1, interval)
  }

  /// What ``LineInterpreter/preview(of:format:)`` gives for `line` after `interpreter`'s
  /// session, with an expression line of more than `width` columns cut to its end (after `…`)
  /// when `width` is given: its ``LivePreview/row(width:)`` at that width is the same.
  ///
  /// - Complexity: O(n) in the line's bytes for parsing and comparing, plus the replay of the
  ///   keys after the longest common prefix with the last line and fewer than ``interval``
  ///   keys before it, plus O(`width`) for the expression line.
  public mutating func preview(
    of line: [UInt8], interpreter: LineInterpreter, format: DisplayFormat, width: Int? = nil
  ) -> LivePreview? {
    line.withUnsafeBufferPointer { buffer in
      let parsed: ScriptLine
      do throws(KeyTextError) {
        parsed = try ScriptLine(buffer, mode: interpreter.session.state.mode)
      } catch {
        guard
          case .keys(let start) = LineInterpreter.unfinishedPart(
            of: buffer, error: error, mode: interpreter.session.state.mode),
          let before = try? ScriptLine(
            UnsafeBufferPointer(rebasing: buffer[..<start]), mode: interpreter.session.state.mode)
        else { return interpreter.preview(of: line, format: format) }
        parsed = before
      }
      // Anything but a line of keys that Enter would apply: the preview of the whole line.
      guard case .keys(let keys) = parsed,
        let state = advance(to: keys.keys, from: interpreter.session.state)
      else {
        lastState = nil
        return interpreter.preview(of: line, format: format)
      }
      lastState = state
      return Self.result(state, format, width: width)
    }
  }

  /// The state after `startLine()` and `keys` from `start`, replaying from the last kept state
  /// within the longest common prefix of `keys` and the last line's keys; `nil` when a key
  /// is one that the mode at its place does not have (Enter would reject the line).
  ///
  /// The kept keys never hold such a key, so only the keys replayed are checked, from the
  /// mode of the state they start from.
  private mutating func advance(to keys: [Key], from start: Calculator)
    -> Calculator?
  {
    var common = 0
    let shared = min(keys.count, self.keys.count)
    while common < shared, keys[common] == self.keys[common] { common += 1 }
    var state: Calculator
    var index: Int
    if let end, common == self.keys.count, !states.isEmpty {
      (state, index) = (end, common)
    } else {
      while let last = states.last, last.index > common { states.removeLast() }
      if states.isEmpty {
        var first = start
        first.startLine()
        states.append((0, first))
      }
      (index, state) = states[states.count - 1]
    }
    guard state.firstKeyOutOfMode(in: keys[index...]) == nil else { return nil }
    while index < keys.count {
      state.press(keys[index])
      index += 1
      if index % interval == 0 { states.append((index, state)) }
    }
    self.keys = keys
    end = state
    return state
  }

  /// The expression line and display of `state`, a Scientific or Programmer expression line cut
  /// to its last `width` + 2 tokens after `…` when it has more (each token but a final space is
  /// at least a column wide, so the cut line is still wider than the row).
  static func result(_ state: Calculator, _ format: DisplayFormat, width: Int?) -> LivePreview {
    let display = format.text(for: state)
    let kept = max(1, width ?? .max - 2) + 2
    var bytes = Array("…".utf8)
    if let scientific = state.scientific, scientific.shownLine.count > kept {
      format.append(ExpressionTokens(scientific.shownLine.suffix(kept)), to: &bytes)
    } else if let programmer = state.programmer, programmer.shownLine.count > kept {
      format.append(
        ProgrammerTokens(programmer.shownLine.suffix(kept)), radix: programmer.radix,
        wordSize: programmer.wordSize, to: &bytes)
    } else {
      return .result(expression: format.expression(for: state), display: display)
    }
    return .result(expression: String(decoding: bytes, as: UTF8.self), display: display)
  }
}

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
