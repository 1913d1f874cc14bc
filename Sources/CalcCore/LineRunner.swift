import CalculatorEngine

/// The per-line policy that the REPL, scripts and `--keys` share: runs a line through the
/// interpreter, applies the start mode after `:reset`, turns notes and errors into messages at
/// the run's location, tracks the line whose pending operation is noted at the end, and decides
/// the exit status (SPEC §5).
///
/// It writes to the sinks it is given (``OutputBuffer``s: a descriptor's, or memory for tests
/// and embedders) and makes no system call of its own. Per-run settings (``source``, the
/// interpreter's script folder) change between files without rebuilding the interpreter.
///
/// A script (``Source/script(name:)``) and `--keys` (``Source/keys(option:)``) write their
/// notes and errors to ``errors`` as they happen, after the output before them; the REPL
/// (``Source/terminal``) gets them in the ``LineReport`` to show in its own style.
public struct LineRunner {
  /// Where a run's lines come from, which says where its messages say they are from.
  public enum Source: Sendable, Equatable {
    /// A script file (`<stdin>` for standard input): `FILE:LINE:COLUMN: message`, and notes
    /// `FILE:LINE:COLUMN: note: message`.
    case script(name: String)
    /// Key text given as the argument of `option` (`--keys`), a one-line script of keys alone
    /// (a `:` or a bare word is no command there): `calc: --keys: message`, notes
    /// `calc: note: message`; text without keys shows the display, as bc shows 0.
    case keys(option: String)
    /// The REPL: notes are `note: message`, errors the caller's to show (``LineReport``).
    case terminal
  }

  /// How a line ended the run, if it did.
  public enum End: Sendable, Equatable {
    /// `:quit` (or `quit`, `exit`): the run ends as if its input had.
    case quit
    /// A rejected line without ``keepsGoing``: the run stops with `status` (``fail(_:)``).
    case failed(Int32)
    /// The output's reader went away or writing failed: nothing more is worth running.
    case outputStopped
  }

  /// What a line typed at the REPL did (``runTyped(_:)``).
  public struct LineReport: Sendable {
    /// The session command the line performed with its change, for a journal.
    public var effect: Session.Effect?
    /// The start mode's key applied after a `:reset`, for a journal after ``effect``.
    public var startEffect: Session.Effect?
    /// Its notes, `note: message`, to show; none for a quiet run.
    public var notes: [String] = []
    /// Why the line was rejected, if it was; it changed nothing.
    public var failure: LineError?
    /// Whether the line asked to quit (`:quit`, `quit`, `exit`).
    public var quits = false
    /// Whether the line was accepted.
    public var isAccepted: Bool { failure == nil }
  }

  /// The interpreter, which keeps the session.
  public var interpreter: LineInterpreter
  /// Where displays and command output go.
  public var output: OutputBuffer
  /// Where notes and errors go (not for ``Source/terminal``).
  public var errors: OutputBuffer
  /// Where the lines come from; a script run sets it for each file.
  public var source: Source {
    didSet { sourceGeneration &+= 1 }
  }
  /// Counts the changes of ``source``: the last key line's source is known to be the current
  /// one while ``lastKeyLineGeneration`` is this, without comparing sources (a name each).
  private var sourceGeneration = 0
  /// ``sourceGeneration`` when ``lastKeyLine`` was last set by ``keyLineApplied(number:showedAnError:)``.
  private var lastKeyLineGeneration = -1
  /// `--keep-going`: a rejected line is reported and the run goes on with the next; a rejected
  /// key line writes the unchanged display, so that every key line gets one answer line.
  public var keepsGoing = false
  /// `-q`: no notes.
  public var isQuiet = false
  /// The memory the interpreter reads the keys of a script's lines into, kept from line to line
  /// (``LineInterpreter/run(_:output:keys:)``).
  private var keys = LineInterpreter.KeyMemory()
  /// The location of the last line that changed the session, if it applied keys: for the note
  /// that the input ended with an operation pending (not after a move, which a person means).
  private(set) var lastKeyLine: (source: Source, number: Int)?
  /// Whether a line was rejected (and, with ``keepsGoing``, passed over): the exit status is
  /// then 65.
  public private(set) var rejectedALine = false
  /// Whether a key line showed an error, at its end or on the way (SPEC §5): the exit status is
  /// then 1. Lines replayed by `:load`, `:edit`, `:insert` and `:delete` are no key lines of
  /// the run, and a move (`:goto`, `:undo`) to an error is none either.
  public private(set) var showedAnError = false

  /// A runner of lines from `source` through `interpreter`, writing to `output` and `errors`.
  public init(
    interpreter: LineInterpreter, output: OutputBuffer, errors: OutputBuffer, source: Source,
    keepsGoing: Bool = false, isQuiet: Bool = false
  ) {
    self.interpreter = interpreter
    self.output = output
    self.errors = errors
    self.source = source
    self.keepsGoing = keepsGoing
    self.isQuiet = isQuiet
  }

  /// Runs `line` (UTF-8, without its newline), line `number` of a script or `--keys`, and
  /// returns how it ended the run, if it did.
  ///
  /// Notes and errors are written to ``errors`` after the output before them; a rejected line
  /// with ``keepsGoing`` writes the unchanged display when it was a key line. Output is flushed
  /// once a good amount is pending. Returns nothing to keep: a script runs this for every line.
  /// - Complexity: as ``LineInterpreter/run(_:output:)-(UnsafeBufferPointer<UInt8>,_)``; a line
  ///   of `--keys` is scanned once more first.
  public mutating func run(_ line: UnsafeBufferPointer<UInt8>, number: Int) -> End? {
    do throws(LineError) {
      if case .keys = source, try keys(in: line).isEmpty {
        // Text without keys (empty, or only a comment) still shows the display, like bc's 0.
        interpreter.appendDisplay(to: output)
        if interpreter.session.state.isError { showedAnError = true }
        lastKeyLine = (source, number)
      } else {
        // Nobody keeps a script's effects: only their changes are read (account(for:)). What
        // the line did is read from the interpreter: no `LineResult` made a line.
        let outcome = try interpreter.run(line, output: output, keys: &keys)
        if interpreter.appliedKeys {
          keyLineApplied(number: number, showedAnError: interpreter.showedAnError)
        } else {
          _ = account(
            for: interpreter.change, showedAnError: interpreter.showedAnError, number: number)
        }
        if !isQuiet, !interpreter.notes.isEmpty {
          for note in interpreter.notes {
            write(
              Self.text(of: "note: " + note.message, in: source, line: number, column: note.column))
          }
        }
        if outcome == .quit { return .quit }
      }
    } catch {
      rejectedALine = true
      write(Self.text(of: rejection(error.message), in: source, line: number, column: error.column))
      guard keepsGoing else { return .failed(ExitStatus.dataError) }
      // One answer per key line, also for a rejected one: the display, unchanged.
      if !ScriptLine.isCommand(line) { interpreter.appendDisplay(to: output) }
    }
    output.flushIfFull()
    return output.hasStopped ? .outputStopped : nil
  }

  /// Runs one line of text; see ``run(_:number:)-(UnsafeBufferPointer<UInt8>,_)``.
  public mutating func run(_ line: [UInt8], number: Int) -> End? {
    line.withUnsafeBufferPointer { run($0, number: number) }
  }

  /// Runs `line` typed at the REPL (``Source/terminal``) and returns what it did, for the REPL
  /// to journal and show: its notes (`note: message`) and its error are not written.
  ///
  /// Output is left pending for the caller (the REPL pages it).
  /// - Complexity: as ``LineInterpreter/run(_:output:)-(UnsafeBufferPointer<UInt8>,_)``.
  public mutating func runTyped(_ line: [UInt8]) -> LineReport {
    var report = LineReport()
    let ran: Result<LineInterpreter.LineResult, LineError> = line.withUnsafeBufferPointer {
      do throws(LineError) {
        return .success(try interpreter.run($0, output: output))
      } catch {
        return .failure(error)
      }
    }
    switch ran {
    case .success(let result):
      report.startEffect = account(
        for: result.change, showedAnError: result.showedAnError, number: 1)
      report.effect = result.effect
      if !isQuiet {
        report.notes = result.notes.map {
          Self.text(of: "note: " + $0.message, in: source, line: 1, column: $0.column)
        }
      }
      report.quits = result.outcome == .quit
    case .failure(let error):
      report.failure = error
    }
    return report
  }

  /// Takes account of what a line did (its `change`, and whether it showed an error): the start
  /// mode after `:reset` (its effect is returned, for a journal), the line whose pending
  /// operation is noted at the end, and an error shown.
  private mutating func account(
    for change: Session.Change?, showedAnError lineShowedAnError: Bool, number: Int
  ) -> Session.Effect? {
    switch change {
    case .applied?:
      keyLineApplied(number: number, showedAnError: lineShowedAnError)
    case .reset?:
      lastKeyLine = nil
      return interpreter.enterStartMode()
    case .moved?, .switched?, .loaded?, .restored?, .rewrote?, .noted?, .varied?: lastKeyLine = nil
    case nil: break
    }
    return nil
  }

  /// Takes account of key line `number`, applied: the line whose pending operation is noted at
  /// the end, and whether it showed an error. Inlined into ``run(_:number:)``: the call's frame
  /// cost a script line instructions (callgrind, Documentation/Performance.md, "Branch speed5").
  @inline(__always)
  private mutating func keyLineApplied(number: Int, showedAnError lineShowedAnError: Bool) {
    // The number alone while the source is the same: a copy of the source (its name) a line
    // was retained and released, and comparing the sources cost nearly as much.
    if lastKeyLineGeneration == sourceGeneration, lastKeyLine != nil {
      lastKeyLine!.number = number
    } else {
      lastKeyLine = (source, number)
      lastKeyLineGeneration = sourceGeneration
    }
    if lineShowedAnError { showedAnError = true }
  }

  /// Ends a run whose input ended (or quit): the note that an operation is pending after the
  /// last key line, then the exit status — SPEC §5's order: 74 if output failed, else 65 if a
  /// line was rejected, else 1 if a key line showed an error, else 0.
  public mutating func finish() -> Int32 {
    if !isQuiet, let lastKeyLine, let pending = interpreter.pendingNote {
      write(
        Self.text(
          of: "note: " + pending, in: lastKeyLine.source, line: lastKeyLine.number, column: 1))
    }
    let status =
      rejectedALine
      ? ExitStatus.dataError : showedAnError ? ExitStatus.errorDisplayed : ExitStatus.success
    return output.exitStatus(status, errors: errors)
  }

  /// Ends a run that stopped with `status` (66 for an unreadable input, 65 for a rejected
  /// line): `status`, or 74 if output failed.
  public func fail(_ status: Int32) -> Int32 {
    output.exitStatus(status, errors: errors)
  }

  /// Writes `message` about line `number` to ``errors`` after all pending output, at the run's
  /// location; for a message about no line (`cannot read 'x': …`), `number` is `nil`.
  public func report(_ message: String, line number: Int?, column: Int = 1) {
    write(
      number.map { Self.text(of: message, in: source, line: $0, column: column) }
        ?? Diagnostic(message).text)
  }

  /// The message for a rejected line: `--keys: message` for key text given as an argument.
  private func rejection(_ message: String) -> String {
    guard case .keys(let option) = source else { return message }
    return option + ": " + message
  }

  /// The keys of `line`, a line of key text alone, read in the session's mode (SPEC §10:
  /// `--mode programmer -k 'hex FF'`); an error gets the case rule's hints.
  private func keys(in line: UnsafeBufferPointer<UInt8>) throws(LineError)
    -> TypedKeys
  {
    // A command as the line's first word, in a mode whose lines are formulas or dates (SPEC
    // §12, §13): their readers would call the `:` an unknown character or a bad duration; it
    // gets the hint that key text gets (`calc -e ':lines'`).
    let mode = interpreter.session.mode
    if mode == .formula || mode == .date,
      let first = line.firstIndex(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }),
      line[first] == UInt8(ascii: ":")
    {
      let at = KeyTextError(character: ":", column: first + 1, isInvalidUTF8: false, hint: nil)
      throw LineError(
        KeyTextError(
          character: ":", column: first + 1, isInvalidUTF8: false,
          hint: Self.commandHint(for: at, in: line)))
    }
    do throws(KeyTextError) {
      return try KeyText.keys(in: line, startingIn: interpreter.session.mode)
    } catch {
      if let hint = Self.commandHint(for: error, in: line) {
        throw LineError(
          KeyTextError(
            character: error.character, column: error.column, isInvalidUTF8: false, hint: hint))
      }
      throw LineError(interpreter.caseRuleHint(for: error, in: line))
    }
  }

  /// The hint for a command given as key text (`calc -k ':lines'`, SPEC v5 §5): commands run in
  /// scripts and the REPL, with a command line that runs it on the last session (`printf
  /// ':lines\n' | calc --resume`); `nil` when `error` is not at a `:`.
  static func commandHint(for error: KeyTextError, in line: UnsafeBufferPointer<UInt8>)
    -> String?
  {
    guard error.character == ":" else { return nil }
    let text = Array(String(decoding: line, as: UTF8.self))
    guard error.column >= 1, error.column <= text.count else { return nil }
    var command = String(text[(error.column - 1)...])
    while let last = command.last, last == " " || last == "\t" { command.removeLast() }
    // Quoted for the shell: a `'` ends the quotes, is escaped, and opens them again.
    let quoted = TextEscaping.escaped(command).split(
      separator: "'", omittingEmptySubsequences: false
    )
    .joined(separator: "'\\''")
    return "commands run in scripts and the REPL: printf '\(quoted)\\n' | calc --resume"
  }

  /// `message` about `line` and `column` of `source`, placed as it places its messages.
  private static func text(of message: String, in source: Source, line: Int, column: Int)
    -> String
  {
    switch source {
    case .script(let name): Diagnostic(file: name, line: line, column: column, message).text
    case .keys: Diagnostic(message).text
    case .terminal: message
    }
  }

  /// Writes `text` and a newline to ``errors`` after all pending output.
  private func write(_ text: String) {
    output.flush()
    errors.write(text + "\n")
    errors.flush()
  }
}
