/// Which mode key text is read in where it applies (SPEC §10: an upper-case `A`–`F` is a hex
/// digit in Programmer mode only): the keys of `:edit L`, `:insert L` and `:vary L` apply at
/// the start of line L, so they are read in the mode in force there.
extension Session {
  /// The mode in force at the start of line `number` of the current branch, numbered as
  /// `:lines` lists it (the mode line is line 0, SPEC §11: ``History/firstLineNumber(of:)``);
  /// the mode at the branch's end for the line after the last (where `:insert` appends), and
  /// the current mode for a line that does not exist or is the mode line (the command then
  /// fails for that reason).
  ///
  /// - Complexity: O(n × log b) in the length of the branch (b the branches it passes
  ///   through), plus one ``History/state(at:)``.
  package func mode(atStartOfLine number: Int) -> Key.Mode {
    // The line ends alone, not ``History/lines()``: building every line's keys cost more than
    // the edit it reads the keys for (`:edit 1` of a 100,000-line branch).
    let ends = history.lineEnds(upTo: history.count)
    let first =
      !ends.isEmpty && ends[0] == 1 && History.isModeLine(CollectionOfOne(history.key(at: 1)))
      ? 0 : 1
    let index = number - first
    if number >= 1, index < ends.count {
      return history.state(at: index == 0 ? 0 : ends[index - 1]).mode
    }
    if number >= 1, index == ends.count { return history.state(at: history.count).mode }
    return state.mode
  }
}

extension ScriptLine.Directive {
  /// This command with ``keyMode`` set from `session` for the commands whose argument holds
  /// key text applied at a line (`:edit L`, `:insert L`, `:vary L`): the mode in force at the
  /// start of line L (``Session/mode(atStartOfLine:)``); any other command unchanged.
  ///
  /// - Complexity: O(1) for other commands; else as ``Session/mode(atStartOfLine:)``.
  package func readingKeys(in session: Session) -> Self {
    switch name {
    case "edit", "insert", "vary": break
    default: return self
    }
    let number = argument.prefix { $0 != " " && $0 != "\t" }
    guard let line = Self.wholeNumber(number) else { return self }
    var copy = self
    copy.keyMode = session.mode(atStartOfLine: line)
    return copy
  }
}
