/// The name of a command of calc's line language (`:history`, `:edit`, …): the one list of the
/// command words, from which the engine's lists derive.
///
/// The words people call "commands" are these; calc's other `Command` types are the book's
/// ``Key/Command`` (the AC, +/-, %, CE and ⌫ keys) and ``Session/Command``
/// (a typed change to a session, what some of these commands become). A front end's table of
/// commands (what each takes, its help) has one row per case, in this order, which is the
/// order `:help` lists them in.
package enum CommandName: String, CaseIterable, Sendable {
  case history, tape, lines, why, edit, insert, delete, note, find, vary, goto, undo, redo, branches
  case branch, keys, exact, copy, save
  /// `:save!`, which replaces a file that this session neither saved nor loaded.
  case saveReplacing = "save!"
  case load, resume, reset, pad, help, quit

  /// Whether the command changes the session, so that a session script or a journal may hold
  /// it (``SessionScript/command(_:)`` reads these and no others).
  package var changesSession: Bool {
    switch self {
    case .goto, .undo, .redo, .branch, .reset, .edit, .insert, .delete, .note, .vary: true
    case .history, .tape, .lines, .why, .find, .branches, .keys, .exact, .copy, .save,
      .saveReplacing,
      .load,
      .resume, .pad, .help, .quit:
      false
    }
  }

  /// Whether a line that is only this word, without its `:`, runs it (``ScriptLine/bareWords``:
  /// `help` and `quit`; `exit` is another name of `quit`).
  package var isBareWord: Bool { ScriptLine.bareWords.contains(rawValue) }

  /// The commands a person may type without their `:` by mistake, for the hint "commands start
  /// with ':'": every name of letters alone but the bare words.
  package static let hintedWords: [String] = allCases.filter {
    !$0.isBareWord && $0.rawValue.allSatisfy(\.isLetter)
  }.map(\.rawValue)

  /// The names of the commands that change a session (``changesSession``), in this list's order.
  package static let sessionDirectives: [String] = allCases.filter(\.changesSession).map(\.rawValue)
}
