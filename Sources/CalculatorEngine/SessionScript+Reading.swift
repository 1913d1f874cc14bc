/// Reading session scripts back: the directives that change a session, and a replay.
///
/// What ``SessionScript`` writes, and what a REPL journal holds, is a calc script of key lines
/// and the five session directives `:goto N|+K|-K`, `:undo [K]`, `:redo [K]`, `:branch N` and
/// `:reset` (in a journal also `:reset load` and `:reset resume`, which name the command of a
/// replacement; ``resetLine(_:)``). This is the one reader of them: `:load` and `--resume` replay through it, and a
/// program that imports only the engine can replay calc's files with it.
extension SessionScript {
  /// The names of the directives that change a session, in the order `:help` lists them
  /// (``CommandName/sessionDirectives``).
  package static var directiveNames: [String] { CommandName.sessionDirectives }

  /// The session command `directive` spells, or `nil` when its name is none of
  /// ``directiveNames``; throws, at the argument's column, for an argument it cannot take.
  ///
  /// Whether the session can do it (a step on the branch, a branch that exists) is the
  /// session's to say when it is performed.
  package static func command(_ directive: ScriptLine.Directive) throws(LineError)
    -> Session.Command?
  {
    guard let name = CommandName(rawValue: directive.name) else { return nil }
    switch name {
    case .goto: return .goto(try directive.stepArgument())
    case .undo: return .undo(try directive.countArgument())
    case .redo: return .redo(try directive.countArgument())
    case .branch: return .branch(try directive.branchArgument())
    case .reset:
      // The journal names a `:load` or `:resume` it records (``resetLine(_:)``).
      switch directive.argument {
      case "load": return .load(Session(), by: .load)
      case "resume": return .load(Session(), by: .resume)
      default:
        try directive.requireNoArgument()
        return .reset
      }
    case .edit:
      let (line, keys) = try directive.lineAndKeysArgument()
      // A comment after the keys sets the line's note, `#` alone removes it (SPEC §11).
      let note: Session.NoteChange =
        switch try directive.note() {
        case nil: .keep
        case ""?: .remove
        case let text?: .set(text)
        }
      return .edit(line: line, keys: keys, note: note)
    case .insert:
      let (line, keys) = try directive.lineAndKeysArgument()
      // A comment after the keys is the new line's note, as for `:edit` (SPEC §11).
      return .insert(
        line: line, keys: keys, note: try directive.note().flatMap { $0.isEmpty ? nil : $0 })
    case .delete:
      return .delete(line: try directive.lineArgument())
    case .note:
      let (line, text) = try directive.lineAndTextArgument()
      return .note(line: line, text: text)
    case .vary:
      let (line, alternatives) = try directive.lineAndAlternativesArgument()
      return .vary(line: line, alternatives: alternatives)
    case .history, .tape, .lines, .why, .find, .branches, .keys, .exact, .copy, .save,
      .saveReplacing,
      .load,
      .resume, .pad, .help, .quit:
      return nil
    }
  }

  /// Calls `body` with each script line that performs `command`, without newlines: the keys as
  /// canonical key text, a directive, or for `load` its ``resetLine(_:)`` and the loaded
  /// session's script.
  ///
  /// Replaying the lines after the session as it was before `command` gives the session as it
  /// was after it.
  /// - Complexity: O(n) in the keys of a line, or of the loaded session.
  public static func forEachLine(
    performing command: Session.Command, _ body: (String) throws -> Void
  ) rethrows {
    switch command {
    case .keys(let keys, let references): try body(KeyText.text(of: keys, references: references))
    case .keysWithNote(let keys, let note): try body(noted(KeyText.text(of: keys), note))
    case .goto(.step(let step)): try body(":goto \(step)")
    case .goto(.offset(let offset)):
      try body(":goto \(offset < 0 ? "-" : "+")\(offset.magnitude)")
    case .undo(let count): try body(":undo \(count)")
    case .redo(let count): try body(":redo \(count)")
    case .branch(let number): try body(":branch \(number)")
    case .reset: try body(":reset")
    case .load(let session, let replacement):
      try body(resetLine(replacement))
      try forEachLine(of: session.history, body)
    case .edit(let line, let keys, let note):
      let comment =
        switch note {
        case .keep: ""
        case .set(let text): "  # " + text
        case .remove: "  #"
        }
      try body(":edit \(line) \(KeyText.text(of: keys))" + comment)
    case .insert(let line, let keys, let note):
      try body(noted(":insert \(line) \(KeyText.text(of: keys))", note))
    case .delete(let line): try body(":delete \(line)")
    case .note(let line, let text): try body(":note \(line)" + (text.map { " " + $0 } ?? ""))
    case .vary(let line, let alternatives):
      try body(
        ":vary \(line) " + alternatives.map { KeyText.text(of: $0) }.joined(separator: " | "))
    }
  }

  /// Calls `body` with the script lines that record what `command` did (`change`), leaving
  /// `session`: what a journal keeps. The lines depend on the command and the change alone.
  ///
  /// A line of keys is its key text, with its note (``Session/Command/keysWithNote(_:note:)``);
  /// a move (`:goto`, `:undo`, `:redo`) is the absolute
  /// `:goto N` it came to, or nothing if it stayed; a replaced session is `:reset` (`:reset
  /// load`, `:reset resume`: ``resetLine(_:)``) and its whole script, so that the record never
  /// depends on another file; a restore by `undo` or `redo` is the command as given (`:undo 1`),
  /// which replays to the same restore.
  ///
  /// Replayed, a replacement is one change, undoable like the one recorded: `:reset` keeps the
  /// session before it, and the script's lines build the new session on the empty one. A new
  /// session that came whole with its own kept session (it replaced an empty one: a
  /// `--resume`) is written with that too (``forEachLine(ofWhole:_:)``).
  /// - Complexity: O(n) in the keys of a line, or of the whole session for a replacement.
  package static func forEachRecordLine(
    of command: Session.Command, change: Session.Change, leaving session: Session,
    _ body: (String) throws -> Void
  ) rethrows {
    switch change {
    case .applied(let count, _):
      // The line's note, given with its keys (SPEC §11), goes with it: the command holds it.
      guard count > 0 else { return }
      try forEachLine(performing: command, body)
    case .moved(let from, let to):
      if from != to { try body(":goto \(to)") }
    case .switched(let branch):
      try body(":branch \(branch)")
    case .reset:
      try body(":reset")
    case .loaded(let isWhole):
      guard case .load(let loaded, let replacement) = command else { return }
      // An empty session that came whole, with nothing kept, in place of an empty one (a
      // `--resume` that found nothing): nothing changed, and a journal of it would be a session
      // of nothing (SPEC §8).
      if isWhole, loaded.history.isEmpty, loaded.kept == nil { return }
      try body(resetLine(replacement))
      if isWhole {
        try forEachLine(ofWhole: loaded, body)
      } else {
        try forEachLine(of: loaded.history, body)
      }
    case .restored:
      try forEachLine(performing: command, body)
    case .rewrote(let rewrite):
      // Deterministic: the command replays to the same branches.
      if !rewrite.isUnchanged { try forEachLine(performing: command, body) }
    case .noted(_, let isUnchanged):
      if !isUnchanged { try forEachLine(performing: command, body) }
    case .varied:
      // Deterministic, and it stays where it was: the command replays to the same branches.
      try forEachLine(performing: command, body)
    }
  }

  /// `line` with `note` after it as a comment, `12+3=  # rent` (SPEC §11); `line` alone
  /// without a note (`nil` or empty).
  static func noted(_ line: String, _ note: String?) -> String {
    guard let note, !note.isEmpty else { return line }
    return line + "  # " + note
  }

  /// `:reset`, `:reset load`, `:reset resume`: the line that starts the record of a
  /// replacement, naming the command that made it.
  package static func resetLine(_ replacement: Session.Replacement) -> String {
    switch replacement {
    case .reset: ":reset"
    case .load: ":reset load"
    case .resume: ":reset resume"
    }
  }

  /// Calls `body` with the lines that rebuild `session` whole, after an empty session: its
  /// script, and with a kept session (SPEC §4) the replacement and restore that leave it kept
  /// as it is.
  ///
  /// The session before a replacement is written first, then the replacement's line
  /// (``resetLine(_:)``) and the replacement's script; when the session before it is the
  /// current one (restored), an `:undo` follows, and unless ``Session/isRightAfterRestore``,
  /// two moves that end where it is.
  /// - Complexity: O(n) in the number of keys of both sessions.
  package static func forEachLine(ofWhole session: Session, _ body: (String) throws -> Void)
    rethrows
  {
    guard let kept = session.kept else {
      try forEachLine(of: session.history, body)
      return
    }
    let (before, after) =
      kept.isReplaced ? (kept.session, session) : (session, kept.session)
    try forEachLine(of: before.history, body)
    try body(resetLine(kept.replacement))
    try forEachLine(of: after.history, body)
    guard !kept.isReplaced else { return }
    try body(":undo")
    if !session.isRightAfterRestore {
      let position = session.history.position
      try body(":goto \(position == 0 ? 1 : 0)")
      try body(":goto \(position)")
    }
  }

  /// The lines of ``forEachLine(ofWhole:_:)``, each ending in a newline.
  ///
  /// - Complexity: O(n) in the number of keys of both sessions.
  public static func text(ofWhole session: Session) -> String {
    joined { forEachLine(ofWhole: session, $0) }
  }

  /// What the first line of a script says about who wrote it, in which format.
  package enum Origin: Hashable, Sendable {
    /// No calc header: a script a person wrote, or a journal of before SPEC rule 18.
    case handWritten
    /// calc's session header without a format (``olderHeader``): written before SPEC rule 18.
    case olderFormat
    /// calc's header of a session (`# calc session, format 3: …`) or of a journal
    /// (`# calc journal, format 3`), naming a format this calc reads: 2, 3 or 4 (a number
    /// below 2, which calc never wrote, is read as 2).
    case format(Int)
  }

  /// What `line`, the first line of a script (UTF-8, without its newline), says about its
  /// origin; throws, at column 1, when it names a format later than ``format``: `written by a
  /// newer calc (format 5; this calc reads formats up to 4)`.
  ///
  /// A header is `# calc session, format N` or `# calc journal, format N`, N being ASCII digits
  /// that end at the line's end or at any other character (`:` in a session's header, a blank
  /// before a journal line's checksum).
  /// - Complexity: O(n) in the length of the header; O(1) for a line that is none.
  package static func origin(ofFirstLine line: UnsafeBufferPointer<UInt8>) throws(LineError)
    -> Origin
  {
    func starts(with prefix: StaticString) -> Bool {
      line.count >= prefix.utf8CodeUnitCount
        && prefix.withUTF8Buffer { line.starts(with: $0) }
    }
    let prefixLength: Int
    if starts(with: "# calc session, format ") {
      prefixLength = "# calc session, format ".utf8.count
    } else if starts(with: "# calc journal, format ") {
      prefixLength = "# calc journal, format ".utf8.count
    } else {
      return starts(with: "# calc session: ") ? .olderFormat : .handWritten
    }
    let digits = line[prefixLength...].prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    guard !digits.isEmpty else { return .handWritten }
    // More digits than an Int holds is a format no calc writes yet either.
    let claimed = Int(String(decoding: digits, as: UTF8.self)) ?? Int.max
    guard claimed <= format else {
      let shown =
        digits.count > 20 ? "\(digits.count)-digit" : String(decoding: digits, as: UTF8.self)
      throw LineError(
        "written by a newer calc (format \(shown); this calc reads formats up to \(format))")
    }
    return .format(max(claimed, 2))
  }

  /// A session script replayed into a fresh session, one line at a time.
  ///
  /// A line that cannot be replayed throws and changes nothing, so that ``session`` is always
  /// the replay of the lines accepted before it.
  package struct Replay: Sendable {
    /// The session the accepted lines built.
    package private(set) var session = Session()
    /// How many lines were accepted, blank ones included.
    package private(set) var lineCount = 0
    /// What the first line says about the script's origin and format (``Origin``);
    /// ``Origin/handWritten`` until a line was read.
    package private(set) var origin = Origin.handWritten
    /// Whether the first line is the header of a session script written before SPEC rule 18
    /// (``SessionScript/olderHeader``): its numbers were typed when they still continued across
    /// lines, and are now read with rule 18.
    package var isOlderFormat: Bool { origin == .olderFormat }

    /// A replay that has read nothing yet.
    package init() {}

    /// Replays one line (UTF-8, without its newline).
    ///
    /// Throws, at the column where it goes wrong, for a first line that names a later format
    /// than this calc's (``SessionScript/origin(ofFirstLine:)``), a character that is no key,
    /// a directive that is not one of the session's (`other` says why: by default `:save cannot
    /// be used in a session file`), a bad argument, or a command the session refuses.
    /// - Complexity: O(n) in the length of the line, beyond what the command costs.
    package mutating func perform(
      _ line: UnsafeBufferPointer<UInt8>,
      other: (ScriptLine.Directive) -> LineError = Replay.notASessionCommand
    ) throws(LineError) {
      let origin = lineCount == 0 ? try SessionScript.origin(ofFirstLine: line) : self.origin
      let parsed: ScriptLine
      do {
        parsed = try ScriptLine(line, mode: session.state.mode)
      } catch {
        throw LineError(error)
      }
      switch parsed {
      case .blank:
        lineCount += 1
        self.origin = origin
        return
      case .keys(let keys):
        // A trailing comment is the line's note, but not in the formats before SPEC v4.
        let note: String?
        switch origin {
        case .handWritten, .format(3...):
          do throws(KeyTextError) {
            note = try ScriptLine.note(ofKeyLine: line)
          } catch {
            throw LineError(error)
          }
        case .format, .olderFormat: note = nil
        }
        do {
          try session.perform(note.map { .keysWithNote(keys, note: $0) } ?? .keys(keys))
        } catch {
          throw LineError(error.description, column: 1)
        }
        lineCount += 1
        self.origin = origin
        return
      case .directive(let directive):
        // A file of format 2 or older counts the mode line as line 1 (SPEC §4, §11).
        let numbered = try directive.numbered(origin.lineNumbering, in: session)
        let sessionCommand: Session.Command?
        do throws(LineError) {
          sessionCommand = try SessionScript.command(numbered.readingKeys(in: session))
        } catch {
          throw directive.explaining(error, numberedAs: numbered)
        }
        guard let sessionCommand else { throw other(directive) }
        do {
          try session.perform(sessionCommand)
        } catch {
          throw directive.explaining(
            LineError(error.description, column: numbered.argumentColumn), numberedAs: numbered)
        }
        lineCount += 1
        self.origin = origin
      }
    }

    /// Replays one line of text; see ``perform(_:other:)``.
    package mutating func perform(
      _ line: String, other: (ScriptLine.Directive) -> LineError = Replay.notASessionCommand
    ) throws(LineError) {
      var copy = line
      let result: Result<Void, LineError> = copy.withUTF8 { bytes in
        do throws(LineError) {
          try perform(bytes, other: other)
          return .success(())
        } catch {
          return .failure(error)
        }
      }
      try result.get()
    }

    /// `:save cannot be used in a session file`, at the directive's column.
    package static func notASessionCommand(_ directive: ScriptLine.Directive) -> LineError {
      LineError(
        ":\(TextEscaping.escaped(directive.name)) cannot be used in a session file",
        column: directive.column)
    }
  }

  /// Where a replay of a whole script stopped before its end, and why.
  public struct Stop: Error, Hashable, Sendable {
    /// The 1-based number of the line that was not replayed.
    public let line: Int
    /// Why: the line was rejected (its error), or it was the last and had no newline (`nil`):
    /// a record cut short, whose keys may be only some of the line's.
    public let error: LineError?
  }

  /// Replays the script `text` into a fresh session: the session of every line before the
  /// first that cannot be replayed, and where and why the replay stopped, if it did.
  ///
  /// A last line without its newline is taken as torn and not replayed, as a journal's record
  /// is written whole with its newline; a `\r` before a newline is part of the line end.
  /// - Complexity: O(n) in the length of the text, beyond what the commands cost.
  public static func replay(_ text: [UInt8]) -> (session: Session, stop: Stop?) {
    var replay = Replay()
    var start = 0
    var number = 0
    let stop: Stop? = text.withUnsafeBufferPointer { bytes in
      while start < bytes.count {
        number += 1
        guard let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else {
          return Stop(line: number, error: nil)
        }
        var end = newline
        if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        do throws(LineError) {
          try replay.perform(UnsafeBufferPointer(rebasing: bytes[start..<end]))
        } catch {
          return Stop(line: number, error: error)
        }
        start = newline + 1
      }
      return nil
    }
    return (replay.session, stop)
  }
}

extension ScriptLine.Directive {
  /// Throws unless the directive has no argument: `:reset takes no argument, not 'x'`.
  package func requireNoArgument() throws(LineError) {
    guard argument.isEmpty else {
      throw LineError(
        ":\(name) takes no argument, not '\(TextEscaping.escaped(argument))'",
        column: argumentColumn)
    }
  }

  /// The step of `:goto N|+K|-K`: step N, or K steps on or back.
  package func stepArgument() throws(LineError) -> Session.Target {
    guard !argument.isEmpty else {
      throw LineError(":\(name) needs a step: N, +K or -K", column: argumentColumn)
    }
    let sign = argument.first == "+" ? 1 : argument.first == "-" ? -1 : 0
    let digits = sign == 0 ? Substring(argument) : argument.dropFirst()
    guard let amount = Self.wholeNumber(digits) else {
      throw LineError(
        ":\(name) takes a step N, +K or -K, not '\(TextEscaping.escaped(argument))'",
        column: argumentColumn)
    }
    return sign == 0 ? .step(amount) : .offset(sign * amount)
  }

  /// The `[K]` of `:undo` and `:redo`: a whole number of lines, 1 by default.
  package func countArgument() throws(LineError) -> Int {
    if argument.isEmpty { return 1 }
    guard let count = Self.wholeNumber(Substring(argument)) else {
      throw LineError(
        ":\(name) takes a number of lines, not '\(TextEscaping.escaped(argument))'",
        column: argumentColumn)
    }
    return count
  }

  /// A step number `N` (no sign), as `:copy N` takes.
  package func stepNumber() throws(LineError) -> Int {
    guard let step = Self.wholeNumber(Substring(argument)) else {
      throw LineError(
        ":\(name) takes a step N, not '\(TextEscaping.escaped(argument))'", column: argumentColumn)
    }
    return step
  }

  /// The `L` of `:delete`: a line number (the session refuses line 0: the mode line, or none).
  package func lineArgument() throws(LineError) -> Int {
    guard !argument.isEmpty else {
      throw LineError(":\(name) needs a line number (see :lines)", column: argumentColumn)
    }
    guard let number = Self.wholeNumber(Substring(argument)) else {
      throw LineError(
        ":\(name) takes a line number from 1 (see :lines), not '\(TextEscaping.escaped(argument))'",
        column: argumentColumn)
    }
    return number
  }

  /// The `L KEYS` of `:edit` and `:insert`: a line number, a blank, and key text; errors
  /// in the keys are reported at their column in the line.
  package func lineAndKeysArgument() throws(LineError) -> (line: Int, keys: TypedKeys) {
    let blank = argument.firstIndex { $0 == " " || $0 == "\t" } ?? argument.endIndex
    let number = argument[..<blank]
    guard let line = Self.wholeNumber(number) else {
      throw LineError(
        argument.isEmpty
          ? ":\(name) needs a line number and its keys: :\(name) 3 12+4="
          : ":\(name) takes a line number from 1 and keys (:\(name) 3 12+4=), not "
            + "'\(TextEscaping.escaped(argument))'",
        column: argumentColumn)
    }
    let rest = argument[blank...].drop { $0 == " " || $0 == "\t" }
    guard !rest.isEmpty else {
      throw LineError(
        ":\(name) \(line) needs the line's keys after the number: :\(name) \(line) 12+4="
          + (name == "edit" ? " (or :delete \(line))" : ""),
        column: argumentColumn + argument.count)
    }
    let shift =
      argumentColumn + argument.distance(from: argument.startIndex, to: rest.startIndex) - 1
    do throws(KeyTextError) {
      return (line, try KeyText.keys(in: rest, startingIn: keyMode))
    } catch {
      throw LineError(
        KeyTextError(
          character: error.character, column: error.column + shift,
          isInvalidUTF8: error.isInvalidUTF8, hint: error.hint))
    }
  }

  /// The `L [TEXT]` of `:note`: a line number from 1 and the rest of the argument, taken
  /// whole (`#` is text), or `nil` when there is none (SPEC §11).
  package func lineAndTextArgument() throws(LineError) -> (line: Int, text: String?) {
    let blank = argument.firstIndex { $0 == " " || $0 == "\t" } ?? argument.endIndex
    guard let line = Self.wholeNumber(argument[..<blank]) else {
      throw LineError(
        argument.isEmpty
          ? ":\(name) needs a line number, then the note: :\(name) 3 rent, March"
          : ":\(name) takes a line number from 1 and a note (:\(name) 3 rent), not "
            + "'\(TextEscaping.escaped(argument))'",
        column: argumentColumn)
    }
    let text = argument[blank...].drop { $0 == " " || $0 == "\t" }
    // The number and the blanks before the text are ASCII: as many bytes as characters.
    let offset = argument.utf8.distance(from: argument.startIndex, to: text.startIndex)
    let invalid = argumentBytes.withUnsafeBufferPointer {
      KeyTextError.firstInvalidUTF8(in: $0, range: offset..<$0.count, of: "the note")
    }
    if let invalid {
      throw LineError(
        KeyTextError(
          character: invalid.character, column: invalid.column + argumentColumn - 1,
          isInvalidUTF8: true, hint: invalid.hint))
    }
    return (line, text.isEmpty ? nil : String(text))
  }

  /// The note that `:edit L KEYS # TEXT` and `:insert L KEYS # TEXT` give line L (SPEC §11):
  /// the comment, empty for a `#` alone, `nil` without one. Throws for a byte of it that is not
  /// UTF-8, at its column, as for key text.
  public func note() throws(LineError) -> String? {
    if let commentError { throw LineError(commentError) }
    return comment
  }

  /// The `L KEYS | KEYS …` of `:vary`: a line number from 1 and the alternatives, key text
  /// separated by `|` (SPEC §11); bad key text in any of them, or an empty one, rejects it all.
  package func lineAndAlternativesArgument() throws(LineError) -> (
    line: Int, alternatives: [TypedKeys]
  ) {
    let blank = argument.firstIndex { $0 == " " || $0 == "\t" } ?? argument.endIndex
    guard let line = Self.wholeNumber(argument[..<blank]) else {
      throw LineError(
        argument.isEmpty
          ? ":\(name) needs a line number and alternatives: :\(name) 1 1300+350+89= | 1400="
          : ":\(name) takes a line number from 1 and alternatives (:\(name) 1 5= | 6=), not "
            + "'\(TextEscaping.escaped(argument))'",
        column: argumentColumn)
    }
    var alternatives: [TypedKeys] = []
    var column = argumentColumn + argument.distance(from: argument.startIndex, to: blank)
    for text in argument[blank...].split(separator: "|", omittingEmptySubsequences: false) {
      defer { column += text.count + 1 }
      let keys: TypedKeys
      do throws(KeyTextError) {
        keys = try KeyText.keys(in: text, startingIn: keyMode)
      } catch {
        throw LineError(
          KeyTextError(
            character: error.character, column: error.column + column - 1,
            isInvalidUTF8: error.isInvalidUTF8, hint: error.hint))
      }
      guard !keys.isEmpty else {
        throw LineError(
          ":\(name) \(line) needs keys for each alternative, separated by |", column: column)
      }
      alternatives.append(keys)
    }
    return (line, alternatives)
  }

  /// The `N` of `:branch`.
  package func branchArgument() throws(LineError) -> Int {
    guard !argument.isEmpty else {
      throw LineError(":\(name) needs a branch number (see :branches)", column: argumentColumn)
    }
    guard let number = Self.wholeNumber(Substring(argument)) else {
      throw LineError(
        ":\(name) takes a branch number, not '\(TextEscaping.escaped(argument))'",
        column: argumentColumn)
    }
    return number
  }

  /// ASCII digits that fit in an `Int`; `nil` for anything else (a sign, a blank, nothing).
  package static func wholeNumber(_ text: Substring) -> Int? {
    guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    return Int(text)
  }
}
