import CalculatorEngine

/// The interpreter shared by the REPL, scripts and `--keys`: one line of input in, its output
/// and its effects out.
///
/// The line is parsed by ``ScriptLine``; a change becomes a ``Session/Command`` for
/// ``Session/perform(_:)``, the session's one door; what happened becomes output, and the pairs
/// of command and change are returned as the line's effects for an observer (the REPL's
/// journal) to record. A key line prints the display (or, with ``Context/trace``, one line per
/// key); a command prints what it prints; blank and comment lines print nothing. A rejected line
/// throws a ``LineError`` and changes nothing.
public struct LineInterpreter {
  /// How lines are run and shown; a runner changes the per-run parts (the script folder)
  /// between files.
  public package(set) var context: Context
  /// What the interpreter asks of the machine; the REPL sets its own journal once it is open.
  public package(set) var host: Host
  /// The session: keys, branches, position. It changes only through ``run(_:output:)``.
  public private(set) var session: Session
  /// The effect of the line that is running.
  var effect: Session.Effect?
  /// What the command of the line that is running changed; `nil` for a script's key line while
  /// ``keepsEffects`` is off, which ``appliedKeys`` tells.
  package private(set) var change: Session.Change?
  /// Whether the line that ran applied keys (``change`` is `.applied`), read where the change
  /// is: a copy of the change for a caller to look at was a good part of a script line's cost
  /// (Documentation/Performance.md#a-scripts-line).
  @inline(__always)
  package var appliedKeys: Bool {
    if keysAppliedInPlace { return true }
    if case .applied? = change { return true }
    return false
  }
  /// Whether the line that ran was a script's key line (no effect kept, not at the REPL), whose
  /// change is not kept in ``change``: storing it, and destroying it at the next line, is work
  /// for every script line that nobody reads (Documentation/Performance.md#a-scripts-line).
  private var keysAppliedInPlace = false
  /// Whether a line's effect is made and returned (``LineResult/effect``): off while a script's
  /// line runs (``run(_:output:keys:)``), whose runner reads only the change, so that no effect
  /// (a copy of the command, destroyed after the line) is made for nobody
  /// (Documentation/Performance.md#a-scripts-line). While it is off, a key line outside the REPL
  /// keeps no ``change`` either (``appliedKeys`` tells it).
  var keepsEffects = true
  /// The notes of the line that is running.
  package var notes: [LineNote] = []

  /// Whether a key line's trailing comment is its note (SPEC §11): true but while a script whose
  /// header names format 2 or older runs (SPEC §4: there a trailing comment is not a note).
  package var trailingCommentsAreNotes = true
  /// How the running script's line numbers count the mode line (SPEC §4, §11): as line 1 while
  /// a script whose header names format 2 or older runs, else as line 0.
  package var lineNumbering = SessionScript.LineNumbering.modeLineIsZero
  /// Whether the key line that is running showed an error, at its end or on the way.
  package var showedAnError = false
  /// Whether Standard mode's left-to-right note was given: it is given once a run (SPEC v5 §5).
  package var notedLeftToRight = false
  /// Whether the last change to the session was a line of keys (not a move, an edit or a load;
  /// a rejected line changes nothing): the next line's first number may then replace a number
  /// that line ended with (SPEC v5 §5).
  var followsKeyLine = false
  /// The facts of the state after the last key line, read as its display was written; `nil`
  /// once anything else changed the session (``perform(_:)``, ``enterStartMode()``), and at
  /// the start. The next key line reads them instead of the state.
  var factsAfterKeys: StateFacts?
  /// The longest line read into ``KeyMemory/lineKeys``; longer lines are parsed by
  /// ``ScriptLine``, and their room is not kept.
  static let shortLine = 4_096
  /// The files (device and inode) this session saved or loaded: at the REPL, `:save` replaces
  /// only those.
  var knownFiles: Set<FileIdentity> = []

  /// The memory a line's keys are read into, kept from line to line by the runner of a script
  /// (``LineRunner``, which lends it to ``run(_:output:keys:)``): a script's line then allocates
  /// nothing for its keys. A line run through ``run(_:output:)-(UnsafeBufferPointer<UInt8>,_)``
  /// reads its keys into memory of its own.
  package struct KeyMemory {
    /// The keys of each line that is parsed by ``ScriptLine``
    /// (``KeyText/keys(in:startingIn:reusing:)``).
    var keyStorage: [Key] = []
    /// The keys of a line of at most ``LineInterpreter/shortLine`` bytes, written over those of
    /// the line before (``KeyText/keys(in:startingIn:writingOver:references:)``): they only
    /// grow, to the longest such line's length.
    var lineKeys: [Key] = []
    /// N of each `$N` of the line in ``lineKeys``.
    var lineReferences: [Int] = []
    /// The arrays of the one-pass reader of a common date line
    /// (``Session/perform(commonDateLine:mayReferToLines:reusing:)``).
    var dateScratch = DateScratch()

    /// Empty memory.
    package init() {}
  }

  /// An interpreter for `context` on `host`, continuing `session`.
  public init(context: Context, host: Host = Host(), session: Session = Session()) {
    self.context = context
    self.host = host
    self.session = session
  }

  /// An interpreter with a context of `format`, `trace` and `style`, on a host with no home
  /// and no journals.
  public init(format: DisplayFormat, trace: Bool = false, style: Style = .plain) {
    self.init(context: Context(format: format, trace: trace, style: style))
  }

  /// How displays are shown.
  ///
  /// Lent, not copied (a format holds a dozen strings and arrays, each retained and released
  /// with a copy): a script reads it for every line. The same for ``style``.
  public var format: DisplayFormat { _read { yield context.format } }
  /// Colours for a terminal, or none.
  public var style: Style { _read { yield context.style } }

  /// The display of the current position.
  public var display: String { format.text(for: session.state) }

  /// Runs one line (UTF-8, without its newline), writing what it prints to `output`: the one way
  /// in, for every front end (a script's lines, through ``LineRunner``, with the runner's
  /// memory: ``run(_:output:keys:)``).
  ///
  /// A long listing is written out as it goes (``OutputBuffer/flushIfFull()`` after each row),
  /// so its memory stays bounded whatever its length; the caller flushes the rest.
  @discardableResult
  public mutating func run(_ line: UnsafeBufferPointer<UInt8>, output: OutputBuffer)
    throws(LineError) -> LineResult
  {
    var keys = KeyMemory()
    let outcome = try runLine(line, output: output, keys: &keys, keepsEffects: true)
    // Moved out, not copied.
    return LineResult(
      outcome: outcome, effect: effect.take(), change: change.take(), notes: notes,
      showedAnError: showedAnError)
  }

  /// Runs a script's line as ``run(_:output:)-(UnsafeBufferPointer<UInt8>,_)`` does, its keys
  /// read into `keys` (the runner's, kept from line to line), keeping no effect, and leaving
  /// what it did in ``change`` (or ``appliedKeys``), ``notes`` and ``showedAnError`` instead of
  /// returning a ``LineResult``: the runner reads them where they are, and no result is made and
  /// destroyed a line. Inlined into the runner
  /// (``LineRunner/run(_:number:)-(UnsafeBufferPointer<UInt8>,_)``), to spare a call a line
  /// (Documentation/Performance.md#a-scripts-line).
  @inline(__always)
  package mutating func run(
    _ line: UnsafeBufferPointer<UInt8>, output: OutputBuffer, keys: inout KeyMemory
  ) throws(LineError) -> Outcome {
    try runLine(line, output: output, keys: &keys, keepsEffects: false)
  }

  /// Runs one line for ``run(_:output:)-(UnsafeBufferPointer<UInt8>,_)`` and
  /// ``run(_:output:keys:)``, into which it is inlined (a call a line for nothing): its keys
  /// read into `memory`, its effect kept when `keepsEffects`.
  @inline(__always)
  private mutating func runLine(
    _ line: UnsafeBufferPointer<UInt8>, output: OutputBuffer, keys memory: inout KeyMemory,
    keepsEffects: Bool
  ) throws(LineError) -> Outcome {
    if case .some = effect { effect = nil }
    if case .some = change { change = nil }
    keysAppliedInPlace = false
    if !notes.isEmpty { notes = [] }
    showedAnError = false
    // Set for the line and left so after it (no restoring a line): ``performMove(_:)``, the
    // other way to ``perform(_:)``, sets its own.
    self.keepsEffects = keepsEffects
    // Read once, and after a key line from its facts: each read of the session from this module
    // copies the state.
    let mode = factsAfterKeys?.mode ?? session.mode
    // A script's common key line in Standard mode (`123.45*6.7=`): applied from its bytes in
    // one change of the state, with no keys made (issue 51; Documentation/Performance.md,
    // "The common key line, session 17"). Any other line goes on below, nothing changed.
    if mode == .standard, !keepsEffects, !context.trace, !context.isInteractive,
      applyCommonKeyLine(line, output: output)
    {
      return .proceed
    }
    // A key line of a script's length, the common line: its keys are read over the keys of the
    // line before, and handed on as a slice of them, with no `ScriptLine` made and destroyed.
    // Text that is no key (a bare word, an error) and longer lines take the parser below.
    // A formula-mode line is read by the parser below (``KeyText/formulaLine(in:startingIn:)``).
    if line.count <= LineInterpreter.shortLine, mode != .formula, mode != .date,
      !LineInterpreter.mayBeCommand(line) || !ScriptLine.isCommand(line)
    {
      let scanned:
        (
          count: Int, hasComment: Bool, hasWords: Bool,
          mayNeedNotes: (ifIdle: Bool, ifPending: Bool)
        )?
      do {
        scanned = try KeyText.keys(
          in: line, startingIn: mode, writingOver: &memory.lineKeys,
          references: &memory.lineReferences)
      } catch {
        scanned = nil
      }
      if let scanned,
        !scanned.hasWords
          || !memory.lineKeys[..<scanned.count].contains(where: {
            $0 == .mode(.formula) || $0 == .mode(.date)
          })
      {
        guard scanned.count > 0 else { return .proceed }
        if scanned.hasComment, let note = try note(ofKeyLine: line) {
          try applyNotedKeys(
            TypedKeys(
              Array(memory.lineKeys[..<scanned.count]), references: memory.lineReferences),
            note: note,
            line: line, output: output, mode: mode, mayHoldModeKeys: scanned.hasWords,
            mayNeedNotes: scanned.mayNeedNotes)
          return .proceed
        }
        // A line without `$N` hands on a new empty array, not the kept one: the kept one, read
        // from `self`, which `applyKeys` changes, was retained around the call
        // (Documentation/Performance.md#a-scripts-line).
        try applyKeys(
          memory.lineKeys[..<scanned.count],
          references: memory.lineReferences.isEmpty ? [] : memory.lineReferences,
          line: line, output: output, mode: mode, mayHoldModeKeys: scanned.hasWords,
          mayNeedNotes: scanned.mayNeedNotes)
        return .proceed
      }
    }
    // A script's date line that starts with a digit, `$` or `(` and has no note, the common one:
    // calculated in one pass and applied as its key alone, with no keys made and resolved
    // (issue 51; Documentation/Performance.md, "Date lines, session 12").
    if mode == .date, !keepsEffects, !context.trace, !context.isInteractive,
      applyCalculatedDateLine(line, output: output, reusing: &memory.dateScratch)
    {
      return .proceed
    }
    let parsed: ScriptLine
    do {
      parsed = try ScriptLine(line, mode: mode, reusing: &memory.keyStorage)
    } catch {
      // In Programmer mode, `ff` in HEX and Windows' `| & >` get hints (SPEC §10).
      throw LineError(caseRuleHint(for: error, in: line).description, column: error.column)
    }
    switch parsed {
    case .blank:
      return .proceed
    case .keys(let keys):
      if keys.hasFormulas {
        try applyFormulaLine(keys, line: line, output: output)
        return .proceed
      }
      if line.contains(UInt8(ascii: "#")), let note = try note(ofKeyLine: line) {
        try applyNotedKeys(keys, note: note, line: line, output: output, mode: mode)
        return .proceed
      }
      try applyKeys(
        keys.keys[...], references: keys.references, line: line, output: output, mode: mode)
      return .proceed
    case .directive(let command):
      // `:edit L KEYS` reads its keys in the mode in force at line L (SPEC §10).
      // A script of format 2 or older counts the mode line as line 1 (SPEC §4).
      let numbered = try command.numbered(lineNumbering, in: session)
      do throws(LineError) {
        return try runCommand(numbered.readingKeys(in: session), output: output)
      } catch {
        throw command.explaining(error, numberedAs: numbered)
      }
    }
  }

  /// Applies `line` when it is a common key line (``KeyText/commonKeyLine(in:codes:)``) that
  /// the session takes (``Session/perform(commonKeyLine:)``), and prints the display, as
  /// ``applyKeys(_:references:line:output:mode:mayHoldModeKeys:mayNeedNotes:note:)`` does for
  /// its keys (such a line needs no note); returns whether it did. A line it does not apply
  /// changed nothing, for the general reader.
  @inline(__always)
  private mutating func applyCommonKeyLine(_ line: UnsafeBufferPointer<UInt8>, output: OutputBuffer)
    -> Bool
  {
    guard session.perform(commonKeyLine: line) != nil else { return false }
    keysAppliedInPlace = true
    followsKeyLine = true
    let facts = appendDisplay(to: output, mode: .standard)
    showedAnError = facts.showsError
    factsAfterKeys = facts
    return true
  }

  /// Applies `line` when it is a common date line (``KeyText/commonDateLine(in:)``) that
  /// the session calculates in one pass
  /// (``Session/perform(commonDateLine:mayReferToLines:)``), and prints the
  /// display, as ``applyFormulaLine(_:line:output:)`` does for a script's line without a note;
  /// returns whether it did. A line it does not apply changed nothing, for the general reader.
  @inline(never)
  private mutating func applyCalculatedDateLine(
    _ line: UnsafeBufferPointer<UInt8>, output: OutputBuffer, reusing scratch: inout DateScratch
  ) -> Bool {
    // A line of a common shape as it was read; any other, once its text is found.
    if session.perform(shapedDateLine: line, reusing: &scratch) == nil {
      guard let (text, mayReferToLines) = KeyText.commonDateLine(in: line),
        session.perform(commonDateLine: text, mayReferToLines: mayReferToLines, reusing: &scratch)
          != nil
      else { return false }
    }
    followsKeyLine = false
    // Its change is `.applied`, and ``appliedKeys`` says so: a script's line (the door is taken
    // while no effect is kept), whose runner reads no more of it. Kept in ``change``, it was
    // copied out and destroyed for the runner at every line (Documentation/Performance.md,
    // "Date lines, session 19").
    keysAppliedInPlace = true
    // The facts as the display is written: the state is read once. Calculated in one pass,
    // the line is in date mode now, and no fault (one pass declines a line that faults).
    assert(session.state.mode == .date && session.state.errorAndPending == (false, false))
    let facts = appendDisplay(to: output, mode: .date, showsNoError: true)
    showedAnError = facts.showsError
    factsAfterKeys = facts
    return true
  }

  /// Whether `line` may be a command line (``ScriptLine/isCommand(_:)``): it starts with `:` or
  /// a blank. A line that starts otherwise, as a script's key lines do, is none without the
  /// call, spared a line (Documentation/Performance.md#a-scripts-line).
  @inline(__always)
  static func mayBeCommand(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let first = line.first else { return false }
    return first == UInt8(ascii: ":") || first == UInt8(ascii: " ") || first == UInt8(ascii: "\t")
  }

  /// The note of a key line (SPEC §11), its trailing comment: `nil` when it has none, or while
  /// trailing comments are no notes (a script of format 2). Throws for a byte of the note that
  /// is not UTF-8, at its column (SPEC §8).
  func note(ofKeyLine line: UnsafeBufferPointer<UInt8>) throws(LineError) -> String? {
    guard trailingCommentsAreNotes else { return nil }
    do throws(KeyTextError) {
      return try ScriptLine.note(ofKeyLine: line)
    } catch {
      throw LineError(error)
    }
  }

  /// Applies a key line that has a note (SPEC §11): its keys and note are one change
  /// (``Session/Command/keysWithNote(_:note:)``), which the journal's record carries; at the
  /// REPL, the note is shown dimmed after the display. `mayHoldModeKeys` and `mayNeedNotes`
  /// are the script reader's, as for
  /// ``applyKeys(_:references:line:output:mode:mayHoldModeKeys:mayNeedNotes:note:)``.
  @inline(never)
  private mutating func applyNotedKeys(
    _ keys: TypedKeys, note: String, line: UnsafeBufferPointer<UInt8>, output: OutputBuffer,
    mode: Key.Mode, mayHoldModeKeys: Bool = true,
    mayNeedNotes scanned: (ifIdle: Bool, ifPending: Bool) = (true, true)
  ) throws(LineError) {
    try applyKeys(
      keys.keys[...], references: keys.references, line: line, output: output, mode: mode,
      mayHoldModeKeys: mayHoldModeKeys, mayNeedNotes: scanned, note: note)
    if context.isInteractive, context.showsExpression, !context.trace,
      output.bytes.last == UInt8(ascii: "\n")
    {
      output.bytes.removeLast()
      output.write("  " + style.dim(TextEscaping.escaped(note)) + "\n")
    }
  }

  /// Runs one line of text; see ``run(_:output:)-(UnsafeBufferPointer<UInt8>,_)``.
  @discardableResult
  public mutating func run(_ line: String, output: OutputBuffer) throws(LineError) -> LineResult {
    var copy = line
    let result: Result<LineResult, LineError> = copy.withUTF8 { bytes in
      do throws(LineError) {
        return .success(try run(bytes, output: output))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  /// Performs `keys`, a line that holds formulas and no date line, without a note and without
  /// keeping its effect: as ``perform(_:)`` performs ``Session/Command/keysWithNote(_:note:)``
  /// with an empty note, whose box a script's formula line does without.
  mutating func perform(formulaLine keys: TypedKeys) throws(SessionError) -> Session.Change {
    factsAfterKeys = nil
    let change = try session.perform(formulaLine: keys)
    followsKeyLine = false
    self.change = change
    return change
  }

  /// Applies the start mode's key (`sci` for `--mode scientific`) on a line of its own when the
  /// session is in the other mode: at the start, and after `:reset`. Returns its effect, for a
  /// journal; `nil` when nothing was applied.
  public mutating func enterStartMode() -> Session.Effect? {
    guard session.mode != context.startMode else { return nil }
    factsAfterKeys = nil
    let command = Session.Command.keys([.mode(context.startMode)])
    guard let change = try? session.perform(command) else { return nil }
    return Session.Effect(command: command, change: change)
  }

  /// Reserves room in the session's history for about `keys` more keys: a capacity hint
  /// (``Session/reserveCapacity(forKeys:)``) for a script of known size.
  package mutating func reserveCapacity(forKeys keys: Int) {
    session.reserveCapacity(forKeys: keys)
  }

  /// Performs `command` on the session, through its one door, and keeps it with its change as
  /// the effect of the line.
  @discardableResult
  mutating func perform(_ command: Session.Command) throws(SessionError) -> Session.Change {
    var command = command
    factsAfterKeys = nil
    // A change that may hold a date line reads the date `today` stands for (SPEC §13); keys
    // alone, and noted keys without a line's text, need none.
    var mayHoldDateLine = true
    if case .keys = command {
      mayHoldDateLine = false
    } else if case .keysWithNote(let keys, _) = command {
      // A formula line holds no date line: reading the clock cost about 4 k instructions a
      // formula line (Documentation/Performance.md); a date line without `today` reads none
      // either (issue 51: as much a date line). The session's `today` is read only for a line
      // that holds one.
      mayHoldDateLine = keys.hasFormulas && keys.dateLinesMayMentionToday
    }
    if mayHoldDateLine, let text = host.today(), let today = try? CivilDate(iso: text) {
      session.today = today
      // A rewrite is journaled with `today` as its date, as a date line is (SPEC §13).
      func recorded(_ keys: TypedKeys) -> TypedKeys {
        keys.mappingDateTexts { DateLine.replacingToday(in: $0, with: today) }
      }
      switch command {
      case .edit(let line, let keys, let note):
        command = .edit(line: line, keys: recorded(keys), note: note)
      case .insert(let line, let keys, let note):
        command = .insert(line: line, keys: recorded(keys), note: note)
      case .vary(let line, let alternatives):
        command = .vary(line: line, alternatives: alternatives.map(recorded))
      case .keys, .keysWithNote, .goto, .undo, .redo, .branch, .reset, .load, .delete, .note:
        break
      }
    }
    let change = try session.perform(command)
    if case .keys = command { followsKeyLine = true } else { followsKeyLine = false }
    self.change = change
    if keepsEffects { effect = Session.Effect(command: command, change: change) }
    return change
  }

  /// Performs a move through time (a slider's: ``SliderMove/command``), printing nothing;
  /// returns its effect for a journal, or `nil` when the session refuses it (at an end).
  package mutating func performMove(_ command: Session.Command) -> Session.Effect? {
    effect = nil
    keepsEffects = true
    guard (try? perform(command)) != nil else { return nil }
    return effect.take()
  }

  /// Applies a line of keys through the session's door; says which branch it started at the
  /// REPL, and turns the session's refusal into the line's error, at the key's column.
  ///
  /// A script's line (no effect kept, not at the REPL) is applied here, inlined into its caller
  /// and returning no change, since the call and the change's copies and destroys were a good
  /// part of a script line's cost (Documentation/Performance.md#a-scripts-line); the rest is
  /// ``performKeysKeepingEffect(_:references:line:output:note:)``.
  ///
  /// A line with a note (`note`) is one change with it (``Session/Command/keysWithNote(_:note:)``).
  @inline(__always)
  mutating func performKeys(
    _ keys: ArraySlice<Key>, references: [Int],
    line: UnsafeBufferPointer<UInt8>?, output: OutputBuffer, note: String? = nil
  ) throws(LineError) {
    guard context.isInteractive || keepsEffects else {
      factsAfterKeys = nil
      do {
        // Its change is `.applied`, and ``appliedKeys`` says so: nobody reads more of it.
        if let note {
          _ = try session.perform(
            .keysWithNote(TypedKeys(Array(keys), references: references), note: note))
        } else {
          _ = try session.perform(.keys(keys, references: references))
        }
        keysAppliedInPlace = true
        followsKeyLine = true
      } catch {
        throw keyLineError(for: error, keys: keys, references: references, line: line)
      }
      return
    }
    try performKeysKeepingEffect(
      keys, references: references, line: line, output: output, note: note)
  }

  /// ``performKeys(_:references:line:output:note:)`` keeping the line's effect, and at the REPL
  /// saying which branch the line started.
  private mutating func performKeysKeepingEffect(
    _ keys: ArraySlice<Key>, references: [Int],
    line: UnsafeBufferPointer<UInt8>?, output: OutputBuffer, note: String?
  ) throws(LineError) {
    // Read only for the REPL's message: each read of the history from this module copies it.
    let (fork, from) =
      context.isInteractive ? (session.history.position, session.history.currentBranch) : (0, 0)
    let change: Session.Change
    do {
      // The case itself, not `.keys(_: TypedKeys)`: that function is not inlined across modules.
      change = try perform(
        note.map { .keysWithNote(TypedKeys(Array(keys), references: references), note: $0) }
          ?? .keys(keys, references: references))
    } catch {
      throw keyLineError(for: error, keys: keys, references: references, line: line)
    }
    // At the REPL, a line typed in the past says which branch it starts (SPEC §4, §6).
    if context.isInteractive, case .applied(_, let newBranch?) = change {
      let message = "(branch \(newBranch) from step \(fork) of branch \(from))"
      output.write(style.dim(Terminal.message(message, width: output.columns)) + "\n")
    }
  }

  /// The line's error for the session's refusal of its keys: a key the keypad lacks (SPEC §9,
  /// §10), a bad `$N`; at the key's column of `line`, with a hint in Programmer mode.
  @inline(never)
  func keyLineError(
    for error: SessionError, keys: ArraySlice<Key>, references: [Int],
    line: UnsafeBufferPointer<UInt8>?
  ) -> LineError {
    var column = 1
    var at = error.rejectedKeyIndex
    if let target = error.rejectedReference, let nth = references.firstIndex(of: target) {
      at = keys.indices.lazy.filter { keys[$0].isReference }.dropFirst(nth).first
    }
    var hint: String?
    if let index = at, let line {
      let columns = KeyText.columns(in: line, startingIn: session.state.mode)
      if index < columns.count { column = columns[index] }
      if case .keyRejected(let key, _, .notInProgrammer) = error {
        hint =
          LineInterpreter.programmerHint(for: key)
          ?? caseRuleHint(forRejectedKeyAt: column, in: line)
      }
    }
    // A `$N` is quoted as typed (`$99999999999999999999`, whose N no `Int` holds).
    let message =
      line.map {
        error.description(
          typedIn: Substring(String(decoding: $0, as: UTF8.self)), references: references)
      } ?? error.description
    return LineError(
      message + " at column \(column)" + (hint.map { " (\($0))" } ?? ""), column: column)
  }
}
