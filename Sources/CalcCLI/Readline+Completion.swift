@preconcurrency private import CReadline
import CalcCore
import CalculatorEngine
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Tab completion: command names, their words and file names, key words of the mode in force, and
/// the line numbers of a `$N`.
extension Readline {
  /// Completion: command names after a leading `:`, file names after `:save ` or `:load `,
  /// a command's words (`:tape csv`, `csv!`: ``CommandSpec/Argument/words``) and file names
  /// after them, line numbers after a `$` in a key line (SPEC §11), nothing else in a key line.
  static func complete(text: UnsafePointer<CChar>?, start: Int32)
    -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
  {
    // A list of matches goes below the input, where the live rows are: they go first, and
    // the redisplay after the list draws them again.
    if current.hasRowsBelow {
      writeToTerminal(Array(clearingRowsBelow().utf8))
      current.hasRowsBelow = false
      current.lastPreview = nil
    }
    let line = String(cString: rl_line_buffer)
    let before = String(decoding: line.utf8.prefix(Int(start)), as: UTF8.self)
    // What comes before the word being completed, parsed like any line: nothing means a command
    // name; a `:save` or `:load` with its argument still to come means a file name.
    // `$` breaks words (readline's default), so the word after it is the digits of a `$N`.
    if before.hasSuffix("$"), !before.contains("#"),
      !before.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix(":")
    {
      rl_attempted_completion_over = 1
      // `$1` completed to `$12` goes on with the keys that follow, not a blank (`$12 5`).
      rl_completion_append_character = 0
      return rl_completion_matches(text) { text, state in
        Readline.nextReference(matching: text, state: state)
      }
    }
    let word = text.map { String(cString: $0) } ?? ""
    let mode = current.keyMode?()
    // In formula mode a line being typed is no formula yet: the names of formulas (SPEC §12);
    // in date mode, its words (SPEC §13).
    if mode == .formula || mode == .date,
      !before.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix(":"),
      !before.contains("#"), !(before.isEmpty && word.hasPrefix(":"))
    {
      rl_attempted_completion_over = 1
      // A function's `(` goes on with its argument, not a blank.
      rl_completion_append_character = 0
      current.keyMatches = LineInterpreter.keyWordCompletions(of: word, mode: mode ?? .formula)
      return rl_completion_matches(text) { _, state in Readline.nextKeyWord(state: state) }
    }
    switch try? ScriptLine(before, mode: mode ?? .standard) {
    case .blank where !before.contains("#") && (word.isEmpty || word.hasPrefix(":")):
      rl_attempted_completion_over = 1
      return rl_completion_matches(text) { text, state in
        Readline.nextCommand(matching: text, state: state)
      }
    case .directive(let directive) where CommandSpec.named(directive.name)?.argument == .file:
      return nil  // readline's own file name completion
    case .directive(let directive)
    where !(CommandSpec.named(directive.name)?.argument.words ?? []).isEmpty:
      // `:tape csv` and `:tape csv!` (the table's words), then a FILE after either.
      let words = CommandSpec.named(directive.name)?.argument.words ?? []
      let first = directive.argument.prefix { $0 != " " && $0 != "\t" }
      if !first.isEmpty, words.contains(String(first)) { return nil }
      rl_attempted_completion_over = 1
      guard directive.argument.isEmpty else { return nil }
      current.keyMatches = words.filter { $0.hasPrefix(word) }
      return rl_completion_matches(text) { _, state in Readline.nextKeyWord(state: state) }
    case .blank where !before.contains("#"), .keys:
      // A key word of the mode in force (SPEC §10: Programmer's words, `prog`).
      rl_attempted_completion_over = 1
      guard let mode else { return nil }
      current.keyMatches = LineInterpreter.keyWordCompletions(of: word, mode: mode)
      return rl_completion_matches(text) { _, state in Readline.nextKeyWord(state: state) }
    default:
      rl_attempted_completion_over = 1
      return nil
    }
  }

  private static func nextReference(matching text: UnsafePointer<CChar>?, state: Int32)
    -> UnsafeMutablePointer<CChar>?
  {
    if state == 0 {
      current.matchIndex = 0
      current.referenceMatches = LineInterpreter.referenceCompletions(
        of: text.map { String(cString: $0) } ?? "", lineCount: current.referableLines?() ?? 0)
    }
    guard current.matchIndex < current.referenceMatches.count else { return nil }
    current.matchIndex += 1
    return strdup(current.referenceMatches[current.matchIndex - 1])
  }

  /// The next key word of ``State/keyMatches`` (readline asks for them one at a time).
  static func nextKeyWord(state: Int32) -> UnsafeMutablePointer<CChar>? {
    if state == 0 { current.matchIndex = 0 }
    guard current.matchIndex < current.keyMatches.count else { return nil }
    current.matchIndex += 1
    return strdup(current.keyMatches[current.matchIndex - 1])
  }

  private static func nextCommand(matching text: UnsafePointer<CChar>?, state: Int32)
    -> UnsafeMutablePointer<CChar>?
  {
    if state == 0 { current.matchIndex = 0 }
    let prefix = text.map { String(cString: $0) } ?? ""
    while current.matchIndex < current.commandNames.count {
      let name = current.commandNames[current.matchIndex]
      current.matchIndex += 1
      if name.hasPrefix(prefix) { return strdup(name) }
    }
    return nil
  }
}
