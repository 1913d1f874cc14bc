import CalculatorEngine

/// The REPL's prompt (SPEC §6 and §9), worked out from the session alone: the terminal's width
/// is given, not read.
package enum Prompt {
  /// The prompt for `interpreter`'s session on a terminal `columns` wide (`nil`: not
  /// shortened): `calc> ` at the end of the current branch, `calc[3/8]> ` before it (step 3 of
  /// its 8), the parts of ``parts(for:)`` (`calc sci rad FE b2> `), and ` M` before the `>`
  /// while the memory holds a value (`calc M> `, `calc sci b2[3/8] M> `): SPEC §6 and §9, each
  /// part separated by a space, the position attached to the part before.
  package static func text(for interpreter: LineInterpreter, columns: Int?) -> String {
    text(parts: parts(for: interpreter), of: interpreter, columns: columns)
  }

  /// The parts of the prompt after `calc`, in SPEC §9's and §10's order: `sci` in Scientific
  /// mode, the angle unit when it is not degrees and `FE` while F-E is on (not in Programmer
  /// mode, which has neither); in Programmer mode `prog`, the radix and the word size when it is
  /// not QWORD; then the branch when there is more than one: `calc sci rad FE b2[3/8] M> `,
  /// `calc prog hex byte b2[3/8] M> `.
  static func parts(for interpreter: LineInterpreter) -> [String] {
    let history = interpreter.session.history
    let state = history.state
    var parts: [String] = []
    if let programmer = state.programmer {
      parts.append("prog")
      parts.append(Key.programmer(.radix(programmer.radix)).canonical)
      if let size = wordSizePart(of: state) { parts.append(size) }
    } else if state.mode == .date {
      // No angle unit: date mode has no trigonometry (SPEC §13).
      parts.append("date")
    } else {
      if state.mode == .scientific { parts.append("sci") }
      if state.mode == .formula { parts.append("fx") }
      switch state.angleUnit {
      case .degrees: break
      case .radians: parts.append("rad")
      case .grads: parts.append("grad")
      }
      if state.isExponential { parts.append("FE") }
    }
    if history.branchCount > 1 { parts.append("b\(history.currentBranch)") }
    return parts
  }

  /// The word size as the prompt shows it in Programmer mode (`byte`), or `nil` for QWORD and
  /// in the other modes.
  static func wordSizePart(of state: Calculator) -> String? {
    guard let programmer = state.programmer, programmer.wordSize != .qword else { return nil }
    return Key.programmer(.wordSize(programmer.wordSize)).canonical
  }

  /// How the prompt is shortened to take at most a third of the terminal's width (SPEC §6),
  /// each step on top of the ones before.
  enum PromptShortening: Int, CaseIterable, Comparable {
    /// The whole prompt.
    case whole
    /// Without `calc `: `sci b2[3/8]> `, `[3/8]> `.
    case withoutName
    /// The position without the branch's length: `[3]`.
    case shortPosition
    /// Without the word size (Programmer mode's `byte`, `word`, `dword`).
    case withoutWordSize

    static func < (left: Self, right: Self) -> Bool { left.rawValue < right.rawValue }
  }

  /// The prompt from its parts (see ``text(for:columns:)``): the one place it is put together. On a
  /// terminal `columns` wide, shortened step by step (``PromptShortening``) until it takes at
  /// most a third of the width; when even the shortest is wider, the shortest.
  static func text(parts: [String], of interpreter: LineInterpreter, columns: Int? = nil)
    -> String
  {
    let history = interpreter.session.history
    let memory = history.state.memory == nil ? "" : " M"
    func prompt(_ shortening: PromptShortening) -> String {
      let place =
        history.isAtEnd
        ? ""
        : shortening >= .shortPosition
          ? "[\(history.position)]" : "[\(history.position)/\(history.count)]"
      var shown = parts
      if shortening >= .withoutWordSize, let size = wordSizePart(of: history.state),
        let index = shown.firstIndex(of: size)
      {
        shown.remove(at: index)
      }
      let words = shortening >= .withoutName ? shown : ["calc"] + shown
      let text = words.joined(separator: " ") + place + memory
      return (shortening >= .withoutName ? String(text.drop { $0 == " " }) : text) + "> "
    }
    guard let columns else { return prompt(.whole) }
    let shortenings = PromptShortening.allCases
    return shortenings.lazy.map(prompt).first { Terminal.width(of: $0) <= columns / 3 }
      ?? prompt(shortenings.last!)
  }
}
