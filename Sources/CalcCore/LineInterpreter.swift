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
  /// How a front end wants lines run and shown.
  public struct Context: Sendable {
    /// How displays are shown.
    public var format: DisplayFormat
    /// How numbers in notes are shown: notes go to standard error, grouped only when that is a
    /// terminal (SPEC §3); ``format`` unless set.
    public var noteFormat: DisplayFormat
    /// Whether key lines print one line per key: its button title, the display after it and the
    /// expression line, separated by tabs.
    public var trace = false
    /// Colours for a terminal, or none.
    public var style = Style.plain
    /// Whether the display is printed with the expression line above it (dimmed), as the REPL
    /// does: a two-line display like Windows Calculator's.
    public var showsExpression = false
    /// Whether the output goes to a terminal, which `:copy` needs for its clipboard sequence.
    public var outputIsTerminal = false
    /// Whether lines come from a person at the REPL: `:load` then prints a summary, and `:save`
    /// does not replace a file this session neither saved nor loaded (`:save!` does). Scripts
    /// write what they say.
    public var isInteractive = false
    /// The folder of the script file being run, ending in `/` (`Examples/`): relative file
    /// names in `:load` and `:save` are taken from it, so that scripts that load each other run
    /// from any directory. `nil` (the REPL, standard input): from the current directory. Bytes,
    /// like the script's name: a folder whose name is not UTF-8 is that folder.
    package var scriptFolder: FileName?
    /// The mode to start in (`--mode`): its key is applied on a line of its own before the
    /// first input and after `:reset` (``enterStartMode()``).
    public var startMode = Key.Mode.standard

    /// A context showing displays in `format`, with everything else off.
    public init(
      format: DisplayFormat, trace: Bool = false, style: Style = .plain,
      showsExpression: Bool = false, outputIsTerminal: Bool = false, isInteractive: Bool = false
    ) {
      self.format = format
      self.noteFormat = format
      self.trace = trace
      self.style = style
      self.showsExpression = showsExpression
      self.outputIsTerminal = outputIsTerminal
      self.isInteractive = isInteractive
    }
  }

  /// What the interpreter asks of the machine it runs on, injected so that tests can give
  /// their own: the home folder (`~` in file names), the journals (`:resume`), whether
  /// Ctrl-C was pressed (long listings stop), the clipboard's route and the files.
  public struct Host: Sendable {
    /// `HOME`, for `~` in file names; `nil` leaves `~` as it is.
    public var home: String?
    /// The folder of the REPL's journals, where `:resume` looks for the last session; `nil`
    /// when there is none (no `HOME`), and `:resume` says so.
    public var journalDirectory: String?
    /// This run's own journal, which `:resume` passes over: it resumes an earlier session.
    public var ownJournal: String?
    /// Whether Ctrl-C was pressed while the line runs.
    public var isInterrupted: @Sendable () -> Bool
    /// How `:copy` reaches the clipboard: straight, or through tmux or screen.
    public var clipboard: Clipboard
    /// The files `:save`, `:tape csv FILE`, `:load` and `:resume` read and write: none by
    /// default; CalcCLI's `Files.system` for the machine's, ``Files/memory(_:)`` for tests.
    public var files: Files

    /// A host with the given parts; by default no home, no journals, never interrupted, and
    /// the terminal's clipboard reached straight.
    public init(
      home: String? = nil, journalDirectory: String? = nil, ownJournal: String? = nil,
      isInterrupted: @escaping @Sendable () -> Bool = { false },
      clipboard: Clipboard = .terminal, files: Files = .unavailable
    ) {
      self.home = home
      self.journalDirectory = journalDirectory
      self.ownJournal = ownJournal
      self.isInterrupted = isInterrupted
      self.clipboard = clipboard
      self.files = files
    }
  }

  /// What the caller should do after a line.
  public enum Outcome: Sendable {
    case proceed
    case quit
  }

  /// What a line did: what to do next, and the command it performed on the session with what
  /// it changed (a line performs at most one: its keys, or one command; none for a listing, a
  /// blank line or a refusal).
  public struct LineResult: Sendable {
    public var outcome: Outcome
    /// The command and its change; `nil` also while ``keepsEffects`` is off (a script's lines).
    public var effect: Session.Effect?
    /// What the line's command changed, whether or not its effect is kept.
    public var change: Session.Change?
    /// Notes for standard error (`note: …`): what a person probably wants to know about what the
    /// line did, which is no error, each with the column it is about.
    public var notes: [LineNote] = []
    /// Whether the line was a key line that showed an error, at its end or on the way (an
    /// error it went past: SPEC §5's exit status 1 for scripts and `--keys`).
    public var showedAnError = false
  }

  /// A note about a line: its message and the 1-based column it is about.
  public struct LineNote: Sendable, Equatable {
    public var message: String
    public var column: Int
  }

  /// How lines are run and shown; a runner changes the per-run parts (the script folder)
  /// between files.
  public package(set) var context: Context
  /// What the interpreter asks of the machine; the REPL sets its own journal once it is open.
  public package(set) var host: Host
  /// The session: keys, branches, position. It changes only through ``run(_:output:)``.
  public private(set) var session: Session
  /// The effect of the line that is running.
  private var effect: Session.Effect?
  /// What the command of the line that is running changed; `nil` for a script's key line while
  /// ``keepsEffects`` is off, which ``appliedKeys`` tells.
  package private(set) var change: Session.Change?
  /// Whether the line that ran applied keys (``change`` is `.applied`), read where the change
  /// is: a copy of the change for a caller to look at cost a script's line 100 instructions.
  @inline(__always)
  package var appliedKeys: Bool {
    if keysAppliedInPlace { return true }
    if case .applied? = change { return true }
    return false
  }
  /// Whether the line that ran was a script's key line (no effect kept, not at the REPL), whose
  /// change is not kept in ``change``: storing it, and destroying it at the next line, cost
  /// about 25 instructions a script line (callgrind).
  private var keysAppliedInPlace = false
  /// Whether a line's effect is made and returned (``LineResult/effect``): a script's runner
  /// reads only the change, and making an effect (a copy of the command, destroyed after the
  /// line) was 1.3% of a short line's instructions (`123.45*6.7=`, callgrind). While it is off,
  /// a key line outside the REPL keeps no ``change`` either (``appliedKeys`` tells it).
  package var keepsEffects = true
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
  /// The facts of the state after the last key line, read as its display was written; `nil`
  /// once anything else changed the session (``perform(_:)``, ``enterStartMode()``), and at
  /// the start. The next key line reads them instead of the state.
  private var factsAfterKeys: StateFacts?
  /// The memory the keys of each line are read into, kept from line to line: a script's line
  /// then allocates nothing for its keys (``KeyText/keys(in:startingIn:reusing:)``).
  private var keyStorage: [Key] = []
  /// The keys of a line of at most ``shortLine`` bytes, written over those of the line before
  /// (``KeyText/keys(in:startingIn:writingOver:references:)``): they only grow, to the longest
  /// such line's length.
  private var lineKeys: [Key] = []
  /// N of each `$N` of the line in ``lineKeys``.
  private var lineReferences: [Int] = []
  /// The longest line read into ``lineKeys``; longer lines are parsed by ``ScriptLine``, and
  /// their room is not kept.
  static let shortLine = 4_096
  /// The files (device and inode) this session saved or loaded: at the REPL, `:save` replaces
  /// only those.
  var knownFiles: Set<FileIdentity> = []

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

  /// Runs one line (UTF-8, without its newline), writing what it prints to `output`.
  ///
  /// A long listing is written out as it goes (``OutputBuffer/flushIfFull()`` after each row),
  /// so its memory stays bounded whatever its length; the caller flushes the rest.
  @discardableResult
  public mutating func run(_ line: UnsafeBufferPointer<UInt8>, output: OutputBuffer)
    throws(LineError) -> LineResult
  {
    let outcome = try runInPlace(line, output: output)
    // Moved out, not copied: a script runs this for every line.
    return LineResult(
      outcome: outcome, effect: effect.take(), change: change.take(), notes: notes,
      showedAnError: showedAnError)
  }

  /// Runs one line as ``run(_:output:)-(UnsafeBufferPointer<UInt8>,_)`` does, leaving what it
  /// did in ``change``, ``notes`` and ``showedAnError`` instead of returning a ``LineResult``:
  /// a script's runner reads them where they are (making and destroying a result a line was
  /// 1.2% of a short line's instructions).
  package mutating func runInPlace(_ line: UnsafeBufferPointer<UInt8>, output: OutputBuffer)
    throws(LineError) -> Outcome
  {
    if case .some = effect { effect = nil }
    if case .some = change { change = nil }
    keysAppliedInPlace = false
    if !notes.isEmpty { notes = [] }
    showedAnError = false
    return try runLine(line, output: output)
  }

  /// Runs one line for ``runInPlace(_:output:)``, its only caller, into which it is inlined (a
  /// call a line for nothing).
  @inline(__always)
  private mutating func runLine(_ line: UnsafeBufferPointer<UInt8>, output: OutputBuffer)
    throws(LineError) -> Outcome
  {
    // Read once, and after a key line from its facts: each read of the session from this module
    // copies the state.
    let mode = factsAfterKeys?.mode ?? session.mode
    // A key line of a script's length, the common line: its keys are read over the keys of the
    // line before, and handed on as a slice of them, with no `ScriptLine` made and destroyed.
    // Text that is no key (a bare word, an error) and longer lines take the parser below.
    if line.count <= LineInterpreter.shortLine,
      !LineInterpreter.mayBeCommand(line) || !ScriptLine.isCommand(line)
    {
      let scanned:
        (
          count: Int, hasComment: Bool, hasWords: Bool,
          mayNeedNotes: (ifIdle: Bool, ifPending: Bool)
        )?
      do {
        scanned = try KeyText.keys(
          in: line, startingIn: mode, writingOver: &lineKeys, references: &lineReferences)
      } catch {
        scanned = nil
      }
      if let scanned {
        guard scanned.count > 0 else { return .proceed }
        // A line without `$N` hands on a new empty array, not the kept one: the kept one, read
        // from `self`, which `applyKeys` changes, was retained around the call (22 instructions a
        // script line, callgrind).
        try applyKeys(
          lineKeys[..<scanned.count], references: lineReferences.isEmpty ? [] : lineReferences,
          line: line, output: output, mode: mode, mayHoldModeKeys: scanned.hasWords,
          mayNeedNotes: scanned.mayNeedNotes)
        if scanned.hasComment { noteTrailingComment(of: line, output: output) }
        return .proceed
      }
    }
    let parsed: ScriptLine
    do {
      parsed = try ScriptLine(line, mode: mode, reusing: &keyStorage)
    } catch {
      // In Programmer mode, `ff` in HEX and Windows' `| & >` get hints (SPEC §10).
      throw LineError(caseRuleHint(for: error, in: line).description, column: error.column)
    }
    switch parsed {
    case .blank:
      return .proceed
    case .keys(let keys):
      try applyKeys(
        keys.keys[...], references: keys.references, line: line, output: output, mode: mode)
      if line.contains(UInt8(ascii: "#")) { noteTrailingComment(of: line, output: output) }
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

  /// Whether `line` may be a command line (``ScriptLine/isCommand(_:)``): it starts with `:` or
  /// a blank. A line that starts otherwise, as a script's key lines do, is none without the
  /// call (16 instructions a script line, callgrind).
  @inline(__always)
  static func mayBeCommand(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let first = line.first else { return false }
    return first == UInt8(ascii: ":") || first == UInt8(ascii: " ") || first == UInt8(ascii: "\t")
  }

  /// Takes the trailing comment of the key line just applied as its note (SPEC §11), which
  /// the journal's record carries; at the REPL, shown dimmed after the display.
  private mutating func noteTrailingComment(
    of line: UnsafeBufferPointer<UInt8>, output: OutputBuffer
  ) {
    guard trailingCommentsAreNotes else { return }
    let note = ScriptLine.note(ofKeyLine: line)
    session.noteLineAtPosition(note)
    if let note, context.isInteractive, context.showsExpression, !context.trace,
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
    factsAfterKeys = nil
    let change = try session.perform(command)
    self.change = change
    if keepsEffects { effect = Session.Effect(command: command, change: change) }
    return change
  }

  /// Performs a move through time (a slider's: ``SliderMove/command``), printing nothing;
  /// returns its effect for a journal, or `nil` when the session refuses it (at an end).
  package mutating func performMove(_ command: Session.Command) -> Session.Effect? {
    effect = nil
    guard (try? perform(command)) != nil else { return nil }
    return effect.take()
  }

  /// Applies a line of keys and prints the display, or with ``trace`` one line per key; keys
  /// that a person probably did not mean get notes (``keyNotes(for:after:line:)``), and
  /// ``showedAnError`` says whether the line showed an error. `keys` start at index 0, and
  /// `references` hold N of each `$N` among them; `line` is the key text, for the columns of
  /// notes; `mode` is the session's mode before the line; `mayHoldModeKeys` is false when the
  /// keys are known to hold no mode key (digits and operators alone); `mayNeedNotes` is the
  /// script reader's check (``KeyText/keys(in:startingIn:writingOver:references:)``), with no
  /// operation pending before the line and with one: `false` spares the line
  /// ``mayNeedNotes(_:isPending:startsOnAnUntouchedZero:)-([Key],_,_)``.
  ///
  /// Inlined into its callers as far as a line that needs no note and no trace goes, a script's
  /// line, which then takes 13 instructions fewer (callgrind on `123.45*6.7=`); the rest is
  /// ``applyKeysWithNotesOrTrace(_:references:line:output:needsNotes:)``.
  @inline(__always)
  package mutating func applyKeys(
    _ keys: ArraySlice<Key>, references: [Int],
    line: UnsafeBufferPointer<UInt8>?, output: OutputBuffer, mode: Key.Mode,
    mayHoldModeKeys: Bool = true,
    mayNeedNotes scanned: (ifIdle: Bool, ifPending: Bool) = (true, true)
  ) throws(LineError) {
    // The state before the line, for notes and the trace only: a copy of the calculator is a
    // good part of a short line's cost, so the common line makes none (and has no optional
    // state to carry, which the compiler copies about).
    // Programmer mode's lines: the case rule's notes and refusals first (SPEC §10), and the
    // replay for notes when a run of digits may go past the word (SPEC §5).
    // A pattern match a key, not `contains(_:)`: through the collection's generic `==` that
    // test cost a fifteenth of a script's line.
    // Not looked for in a line of digits and operators alone (`mayHoldModeKeys` false).
    let programmer =
      mode == .programmer
      || (mayHoldModeKeys
        && keys.contains { if case .mode(.programmer) = $0 { true } else { false } })
    if programmer, let line { notes += try caseRuleNotes(for: keys, line: line) }
    let isPending = (factsAfterKeys ?? stateFacts).isPending
    let startsOnAnUntouchedZero = keys.first?.isBinaryOperator == true && showsUntouchedZero
    // The reader's answer first: `false` is exact, as the check's own is.
    let needsNotes =
      startsOnAnUntouchedZero
      || ((isPending ? scanned.ifPending : scanned.ifIdle)
        && LineInterpreter.mayNeedNotes(
          keys, isPending: isPending, startsOnAnUntouchedZero: false))
      || (programmer && LineInterpreter.hasDigitRun(keys, atLeast: 3))
    guard needsNotes || context.trace else {
      try performKeys(keys, references: references, line: line, output: output)
      // Keys without a mode key leave the mode as it was.
      let facts = appendDisplay(to: output, mode: mayHoldModeKeys ? nil : mode)
      // No note due: no error passed on the way either (mayNeedNotes is exact when false).
      showedAnError = facts.showsError
      factsAfterKeys = facts
      return
    }
    try applyKeysWithNotesOrTrace(
      keys, references: references, line: line, output: output, needsNotes: needsNotes)
  }

  /// The rest of ``applyKeys(_:references:line:output:mode:mayHoldModeKeys:mayNeedNotes:)``, for
  /// a line that needs notes (`needsNotes`) or is traced.
  @inline(never)
  private mutating func applyKeysWithNotesOrTrace(
    _ keys: ArraySlice<Key>, references: [Int],
    line: UnsafeBufferPointer<UInt8>?, output: OutputBuffer, needsNotes: Bool
  ) throws(LineError) {
    let keys = TypedKeys(Array(keys), references: references)
    let before = session.state
    // The replay for notes comes first and lets go of its states before the line is applied, so
    // that a long line's expression line is held once at a time, not twice.
    let found = needsNotes ? keyNotes(for: keys, after: before, line: line) : nil
    try performKeys(keys.keys[...], references: keys.references, line: line, output: output)
    var passedAnError = false
    if let found {
      notes += found.notes
      passedAnError = found.passedAnError
    }
    let facts = stateFacts
    showedAnError = passedAnError || facts.showsError
    factsAfterKeys = facts
    guard context.trace else {
      appendDisplay(to: output)
      return
    }
    // The states in between are not kept by the session: replaying the line from the state
    // before it gives them, as the session itself computed them.
    var state = before
    state.startLine()
    // The keys as the session applied them: `$N` recalls what the line recorded.
    var recalls = session.history.lastKeysRecalls(keys.count)
    var references = keys.references.makeIterator()
    for key in keys {
      if case .reference = key {
        state.recall(recalls.removeFirst())
        output.bytes.append(UInt8(ascii: "$"))
        output.bytes.append(contentsOf: String(references.next()!).utf8)
      } else {
        state = state.apply(key)
        output.bytes.append(contentsOf: key.title.utf8)
      }
      output.bytes.append(UInt8(ascii: "\t"))
      format.append(state, to: &output.bytes)
      output.bytes.append(UInt8(ascii: "\t"))
      format.appendExpression(state, to: &output.bytes)
      output.bytes.append(UInt8(ascii: "\n"))
      // The output of a line waits for its effects to be recorded (the REPL's journal) when
      // it goes to a terminal; a script's trace is written out as it goes.
      if !context.showsExpression { output.flushIfFull() }
    }
  }

  /// Applies a line of keys through the session's door; says which branch it started at the
  /// REPL, and turns the session's refusal into the line's error, at the key's column.
  ///
  /// A script's line (no effect kept, not at the REPL) is applied here, inlined into its caller
  /// and returning no change: on main 8f11f95 the call cost 76 instructions a script line of its
  /// own and the change's copies and destroys 40 (callgrind on `123.45*6.7=`); the rest is
  /// ``performKeysKeepingEffect(_:references:line:output:)``.
  @inline(__always)
  private mutating func performKeys(
    _ keys: ArraySlice<Key>, references: [Int],
    line: UnsafeBufferPointer<UInt8>?, output: OutputBuffer
  ) throws(LineError) {
    guard context.isInteractive || keepsEffects else {
      factsAfterKeys = nil
      do {
        // Its change is `.applied`, and ``appliedKeys`` says so: nobody reads more of it.
        _ = try session.perform(.keys(keys, references: references))
        keysAppliedInPlace = true
      } catch {
        throw keyLineError(for: error, keys: keys, references: references, line: line)
      }
      return
    }
    try performKeysKeepingEffect(keys, references: references, line: line, output: output)
  }

  /// ``performKeys(_:references:line:output:)`` keeping the line's effect, and at the REPL
  /// saying which branch the line started.
  private mutating func performKeysKeepingEffect(
    _ keys: ArraySlice<Key>, references: [Int],
    line: UnsafeBufferPointer<UInt8>?, output: OutputBuffer
  ) throws(LineError) {
    // Read only for the REPL's message: each read of the history from this module copies it.
    let (fork, from) =
      context.isInteractive ? (session.history.position, session.history.currentBranch) : (0, 0)
    let change: Session.Change
    do {
      // The case itself, not `.keys(_: TypedKeys)`: that function is not inlined across modules.
      change = try perform(.keys(keys, references: references))
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
  private func keyLineError(
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
    return LineError(
      error.description + " at column \(column)" + (hint.map { " (\($0))" } ?? ""),
      column: column)
  }

  /// The facts of the state as it is (see ``StateFacts``).
  var stateFacts: StateFacts {
    let state = session.state
    return StateFacts(
      showsError: state.isError, isPending: state.isPending, mode: state.mode)
  }

  /// Whether the display shows a 0 that nobody typed.
  var showsUntouchedZero: Bool { session.state.showsUntouchedZero }

  /// Appends the display and a newline; with ``showsExpression``, the expression line above it
  /// when it is not empty. Returns the facts of the state, read on the way.
  ///
  /// Inlined: called, it took a copy of the whole interpreter, and of the state and the format
  /// to pass them on (`memcpy`, 170 instructions a script line). `mode`, when given, is the
  /// state's mode, known to the caller.
  @discardableResult @inline(__always)
  package func appendDisplay(to output: OutputBuffer, mode: Key.Mode? = nil)
    -> StateFacts
  {
    // Static: a display per key line is the hot path of a script, and needs no listing.
    Listing.writeDisplay(
      session.state, format: format, style: style,
      showsExpression: context.showsExpression, to: output, mode: mode)
  }

  /// The listings of the session as it is, in this interpreter's format and style.
  package var listing: Listing {
    Listing(
      history: session.history, format: format, style: style,
      isStopped: { [host] output in output.hasStopped || host.isInterrupted() })
  }
}
