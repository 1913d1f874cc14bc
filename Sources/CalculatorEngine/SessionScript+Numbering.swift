/// How the line numbers of a script count a branch's lines: the mode line is line 0 since
/// SPEC §11's rule, and line 1 in the files written before it (format 2 and older, SPEC §4).
extension SessionScript {
  /// How a script's line numbers (`:edit L`, `:insert L`, `:delete L`, `:note L`, `:vary L`)
  /// count the lines of the branch they name.
  package enum LineNumbering: Hashable, Sendable {
    /// A first line that is one mode key alone (``History/isModeLine(_:)``) is line 0, the
    /// lines after it count from 1 (SPEC §11): hand-written scripts and format 3.
    case modeLineIsZero
    /// Every line counts from 1, a lone mode key first line too: the files of format 2 and
    /// older, read as before (SPEC §4).
    case modeLineIsOne
  }
}

extension SessionScript.Origin {
  /// How the script's line numbers count: format 2 and the older header count the mode line
  /// as line 1, hand-written scripts and format 3 as line 0.
  package var lineNumbering: SessionScript.LineNumbering {
    switch self {
    case .handWritten: .modeLineIsZero
    case .olderFormat: .modeLineIsOne
    case .format(let format): format >= 3 ? .modeLineIsZero : .modeLineIsOne
    }
  }
}

extension History {
  /// Whether the current branch's first line is the mode line, line 0 (SPEC §11): one mode key
  /// alone, ending at step 1.
  ///
  /// - Complexity: O(log b), b the number of branches the current one passes through.
  var startsWithModeLine: Bool {
    guard count >= 1, History.isModeLine(CollectionOfOne(key(at: 1))) else { return false }
    return count == 1 || startsLine(at: 2)
  }
}

extension ScriptLine.Directive {
  /// The commands whose argument starts with a line number of the current branch.
  package static let lineNumberedNames: Set<String> = ["edit", "insert", "delete", "note", "vary"]

  /// This directive with its line number read in `numbering` and written in today's
  /// (``SessionScript/LineNumbering/modeLineIsZero``), for `session`'s current branch: the one
  /// place where an older file's numbers are translated, for every command that names a line.
  ///
  /// Only ``SessionScript/LineNumbering/modeLineIsOne`` on a branch that starts with the mode
  /// line changes anything: line L becomes L − 1. Its line 1 is the mode line, which today's
  /// numbering keeps as it is (SPEC §11): a command that changes it or puts a line before it is
  /// refused, at the argument's column, saying so. A line number that is not one (`:edit x`) and
  /// line 0, which no calc counted, are left to the command's reader and the session to refuse.
  /// The argument's column moves by the digits the number lost, so that a message about its
  /// keys still points at the file's column.
  /// - Complexity: O(n) in the length of the argument, when it changes; O(log b) otherwise.
  package func numbered(_ numbering: SessionScript.LineNumbering, in session: Session)
    throws(LineError) -> Self
  {
    switch numbering {
    case .modeLineIsZero: return self
    case .modeLineIsOne: break
    }
    guard Self.lineNumberedNames.contains(name), session.history.startsWithModeLine else {
      return self
    }
    let digits = argument.prefix { $0 != " " && $0 != "\t" }
    guard let number = Self.wholeNumber(digits), number >= 1 else { return self }
    guard number >= 2 else {
      let mode = KeyText.text(of: [session.history.key(at: 1)])
      let change = name == "insert" ? "put a line before it" : "change it"
      throw LineError(
        ":\(name) 1 names the mode line (\(mode)), which a file of format 2 or older counts as "
          + "line 1: calc now numbers it 0 and keeps it, so this file cannot \(change) "
          + "(SPEC §11)",
        column: argumentColumn)
    }
    let renumbered = Array(String(number - 1).utf8)
    var copy = Self(
      name: name, column: column,
      argumentBytes: renumbered + argumentBytes[digits.utf8.count...],
      argumentColumn: argumentColumn + digits.count - renumbered.count)
    copy.comment = comment
    copy.keyMode = keyMode
    return copy
  }
}

extension ScriptLine.Directive {
  /// `error`, thrown for this directive once ``numbered(_:in:)`` wrote it as `numbered`, with
  /// the number the file wrote when the error names the line (at the argument's column, or
  /// after its end: keys missing): `no line 9 (this branch has line 1)` goes on `(the file's
  /// :edit 10, which counts the mode line as line 1)`. An error in the keys, and any error of a
  /// directive left as it was, is returned as it is.
  package func explaining(_ error: LineError, numberedAs numbered: Self) -> LineError {
    let end = numbered.argumentColumn + numbered.argument.count
    guard numbered.argumentBytes != argumentBytes,
      error.column == numbered.argumentColumn || error.column >= end
    else {
      return error
    }
    let digits = argument.prefix { $0 != " " && $0 != "\t" }
    return LineError(
      error.message + " (the file's :\(name) \(digits), which counts the mode line as line 1)",
      column: error.column)
  }
}
