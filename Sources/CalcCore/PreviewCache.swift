import CalculatorEngine

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
      // Anything but a line of keys that Enter would apply, or a formula line (SPEC §12): the
      // preview of the whole line.
      guard case .keys(let keys) = parsed, keys.formulas.isEmpty,
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
