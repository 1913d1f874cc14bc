import CalculatorEngine

/// What a line asks of the front end before it runs, instead of running.
public enum LineRequest: Equatable, Sendable {
  /// `:edit L` without keys, line L existing: its keys (as key text) to edit on the input line,
  /// which the front end then runs as `:edit L KEYS` (or `:delete L` when emptied).
  case editLine(Int, keys: String)
}

extension LineInterpreter {
  /// What `line` asks of the REPL before it runs, or `nil` for a line to run as it is: the
  /// command table decides (``ParsedCommand/editLine(_:)``), the loop reads the answer.
  ///
  /// - Complexity: O(n) in the lines of the current branch, for `:edit L`; else O(1).
  package func request(for line: ScriptLine?) -> LineRequest? {
    guard case .directive(let directive)? = line,
      case .editLine(let number)? = try? ParsedCommand(directive)
    else { return nil }
    let lines = session.history.lines()
    // Line 0, the mode line, cannot be edited: the line runs, and says so.
    let first = History.firstLineNumber(of: lines)
    guard number >= 1, number - first < lines.count else { return nil }
    let toEdit = lines[number - first]
    // The prefilled line holds the note (SPEC §11): kept, changed or removed with it.
    return .editLine(
      number, keys: KeyText.text(of: toEdit.keys) + (toEdit.note.map { "  # " + $0 } ?? ""))
  }
}
