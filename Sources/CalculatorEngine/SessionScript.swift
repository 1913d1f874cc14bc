/// A session written as a calc script, the format of `:save`: replaying it into a fresh session
/// rebuilds the same branches with the same numbers, keys and line ends, then the same current
/// branch and position.
///
/// ```
/// # calc session, format 3: 2 branches, at step 5 of 5 on branch 2
/// 12+3=
/// *2=  # doubled
/// # branch 2 leaves branch 1 at step 2
/// :branch 1
/// :goto 2
/// *4=
/// :branch 2
/// :goto 5
/// ```
///
/// Each branch's own lines follow in order, as canonical key text, a line's note (SPEC §11)
/// after two blanks and `# `; every branch after the first
/// is preceded by the commands that reach its fork, where its first line then starts it (in
/// the order of their numbers, each branch's parent is already complete). The script ends with
/// `:branch N` (unless the current branch is the last one made, where replaying leaves it) and
/// `:goto` the position. An empty session is the header alone.
///
/// Everything else a session holds — memory, mode, angle unit, F-E (and Programmer mode's radix,
/// word size and carry) — is the replay of its keys, line by line: the keys are the truth, and a
/// line's keys are written as recorded, so that replaying them applies the same keys. That holds
/// because the session never records a line that its replay would reject (an edit after which a
/// later line would be rejected is refused, SPEC §4).
///
/// The header names the format: 3 (SPEC v4's, ``keysFormat``) for a session of keys alone, 4
/// (``format``, SPEC v5 §12) for one that holds formula lines, which a calc that reads only
/// format 3 refuses as newer rather than misreading a formula as keys; format 2 in v3, read the
/// same way as 3:
/// the lines are the same, but a trailing comment in a format-2 file is not a note, and its line
/// numbers count a lone mode key first line as line 1: ``LineNumbering``). Both are
/// replayed with SPEC rule 18 (each line starts by ending the number being typed). A file whose
/// header is the older `# calc session: …` was written before rule 18; it is read the same way,
/// and ``Replay/isOlderFormat`` says so, for a note that numbers no longer continue across
/// lines. A file that names a later format than ``format`` is refused (``origin(ofFirstLine:)``).
public enum SessionScript {
  /// The newest format this calc reads and writes: 4 since SPEC v5 (formula lines, §12), what a
  /// journal names (a journal may come to hold formula lines after its first line) and a
  /// session script that holds a formula line.
  public static let format = 4
  /// The format of a session script of keys alone: 3 (SPEC v4), which older calcs read.
  package static let keysFormat = 3
  /// The start of the first line of a session script of keys alone.
  package static let header = "# calc session, format \(keysFormat): "
  /// The start of the first line of a session script that holds a formula line.
  package static let formulaHeader = "# calc session, format \(format): "
  /// The start of the first line of a session script written before SPEC rule 18.
  package static let olderHeader = "# calc session: "

  /// Calls `body` with each line of the script for `history`, without newlines.
  ///
  /// - Complexity: O(n) in the number of keys on all branches.
  package static func forEachLine(of history: History, _ body: (String) throws -> Void) rethrows {
    guard !history.isEmpty else {
      try body(header + "empty")
      return
    }
    let branches = history.branchCount
    try body(
      (history.hasFormulas ? formulaHeader : header)
        + "\(branches == 1 ? "1 branch" : "\(branches) branches"), at step "
        + "\(history.position) of \(history.count) on branch \(history.currentBranch)")
    for number in 1...branches {
      let branch = history.branch(number)
      if let parent = branch.parent {
        try body("# branch \(number) leaves branch \(parent) at step \(branch.fork)")
        try body(":branch \(parent)")
        try body(":goto \(branch.fork)")
      }
      // The mode in force, for a formula line's `fx` (SPEC §12): unknown at a fork, where the
      // writer puts `fx` before a formula line whatever the mode.
      var modes = KeyText.ModeTracker(mode: number == 1 ? .standard : nil)
      try history.forEachOwnLine(ofBranch: number) { keys, note in
        let text = modes.text(of: keys)
        try body(note.map { text + "  # " + $0 } ?? text)
      }
    }
    // Replaying leaves the last branch made current; name another one only when it is.
    if history.currentBranch != branches { try body(":branch \(history.currentBranch)") }
    try body(":goto \(history.position)")
  }

  /// The whole script for `history`, each line ending in a newline.
  ///
  /// - Complexity: O(n) in the number of keys on all branches.
  public static func text(of history: History) -> String {
    joined { forEachLine(of: history, $0) }
  }

  /// The lines that `write` gives its argument, each ending in a newline.
  static func joined(_ write: (_ line: (String) -> Void) -> Void) -> String {
    var text = ""
    write { line in
      text += line
      text += "\n"
    }
    return text
  }
}
