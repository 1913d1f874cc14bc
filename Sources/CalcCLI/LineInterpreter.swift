import CalculatorEngine

/// The interpreter shared by the REPL, scripts and `--keys`: one line of input in, its output out.
///
/// It only translates: the line is parsed by ``ScriptLine``, a change becomes a
/// ``Session/Command`` for ``Session/perform(_:)``, and what happened becomes output. A key line
/// prints the display (or, with ``trace``, one line per key); a command prints what it prints;
/// blank and comment lines print nothing. A rejected line throws a ``LineError`` and changes
/// nothing.
public struct LineInterpreter {
  /// The session: keys, branches, position.
  public internal(set) var session = Session()
  /// How displays are shown.
  public let format: DisplayFormat
  /// Whether key lines print one line per key: its button title, the display after it and the
  /// expression line, separated by tabs.
  public var trace: Bool
  /// Colours for a terminal, or none.
  public var style: Style
  /// Whether the display is printed with the expression line above it (dimmed), as the REPL
  /// does: a two-line display like Windows Calculator's.
  public var showsExpression = false
  /// Whether the output goes to a terminal, which `:copy` needs for its clipboard sequence.
  public var outputIsTerminal = false
  /// The folder of the script file being run, ending in `/` (`Examples/`): relative file names
  /// in `:load` and `:save` are taken from it, so that scripts that load each other run from
  /// any directory. `nil` (the REPL, standard input): from the current directory.
  public var scriptFolder: String?
  /// The folder of the REPL's journals, where `:resume` looks for the last session; `nil` when
  /// there is none (no `HOME`), and `:resume` says so.
  public var journalDirectory: String?
  /// This run's own journal, which `:resume` passes over: it resumes an earlier session.
  public var ownJournal: String?
  /// Whether the changes of each line are kept as journal lines, for ``takeJournalLines()``.
  public var recordsJournal = false
  /// The journal lines of the changes since ``takeJournalLines()`` was last called.
  private var journalLines: [String] = []

  /// What the caller should do after a line.
  public enum Outcome: Sendable {
    case proceed
    case quit
  }

  public init(format: DisplayFormat, trace: Bool = false, style: Style = .plain) {
    self.format = format
    self.trace = trace
    self.style = style
  }

  /// The display of the current position.
  public var display: String { format.text(for: session.state.brain) }

  /// Runs one line (UTF-8, without its newline), writing what it prints to `output`.
  ///
  /// A long listing is written out as it goes (``OutputBuffer/flushIfFull()`` after each row),
  /// so its memory stays bounded whatever its length; the caller flushes the rest.
  @discardableResult
  public mutating func run(_ line: UnsafeBufferPointer<UInt8>, output: OutputBuffer)
    throws(LineError) -> Outcome
  {
    let parsed: ScriptLine
    do {
      parsed = try ScriptLine(line)
    } catch {
      throw LineError(error.description, column: error.column)
    }
    switch parsed {
    case .blank:
      return .proceed
    case .keys(let keys):
      applyKeys(keys, output: output)
      return .proceed
    case .directive(let command):
      return try runCommand(command, output: output)
    }
  }

  /// Runs one line of text; see ``run(_:output:)-(UnsafeBufferPointer<UInt8>,_)``.
  @discardableResult
  public mutating func run(_ line: String, output: OutputBuffer) throws(LineError) -> Outcome {
    var copy = line
    let result: Result<Outcome, LineError> = copy.withUTF8 { bytes in
      do throws(LineError) {
        return .success(try run(bytes, output: output))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  /// The script lines that replay, from the session as it was at the last call, every change
  /// made since, when ``recordsJournal`` is set (else none); what the REPL writes to its
  /// ``Journal`` before it prints a line's output.
  public mutating func takeJournalLines() -> [String] {
    defer { journalLines.removeAll() }
    return journalLines
  }

  /// Performs `command` on the session, through its one door, and records its journal lines.
  @discardableResult
  mutating func perform(_ command: Session.Command) throws(SessionError) -> Session.Change {
    let change = try session.perform(command)
    if recordsJournal {
      journalLines += Journal.lines(for: command, change: change, after: session)
    }
    return change
  }

  /// Applies a line of keys and prints the display, or with ``trace`` one line per key.
  mutating func applyKeys(_ keys: [CalculatorButtonItem], output: OutputBuffer) {
    let before = session.state
    // A line of keys is always possible: perform throws only for moves and branch numbers.
    try! perform(.keys(keys))
    guard trace else {
      appendDisplay(to: output)
      return
    }
    // The states in between are not kept by the session: replaying the line from the state
    // before it gives them, as the session itself computed them.
    var state = before
    for key in keys {
      state = state.apply(key)
      output.bytes.append(contentsOf: key.title.utf8)
      output.bytes.append(UInt8(ascii: "\t"))
      format.append(state.brain, to: &output.bytes)
      output.bytes.append(UInt8(ascii: "\t"))
      format.appendExpression(state.brain, to: &output.bytes)
      output.bytes.append(UInt8(ascii: "\n"))
      // A journaled line's output waits for its journal lines, written after the line ran.
      if !recordsJournal { output.flushIfFull() }
    }
  }

  /// Appends the display and a newline; with ``showsExpression``, the expression line above it
  /// when it is not empty.
  func appendDisplay(to output: OutputBuffer) {
    listing.writeDisplay(showsExpression: showsExpression, to: output)
  }

  /// The listings of the session as it is, in this interpreter's format and style.
  var listing: Listing {
    Listing(
      history: session.history, format: format, style: style,
      isStopped: LineInterpreter.isListingStopped)
  }

  /// Whether a long listing should stop before its next row: its reader went away (a pager that
  /// was quit, `| head`), its output failed, or Ctrl-C was pressed (the REPL then drops the
  /// line's output and reports it).
  ///
  /// The one place a listing asks.
  static func isListingStopped(_ output: OutputBuffer) -> Bool {
    output.hasStopped || Interruption.isRequested
  }

}
