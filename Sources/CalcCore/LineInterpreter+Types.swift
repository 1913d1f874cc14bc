import CalculatorEngine

/// What a front end gives the interpreter (``Context``, ``Host``) and gets back from a line
/// (``Outcome``, ``LineResult``, ``LineNote``).
extension LineInterpreter {
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
    /// when there is none (no `HOME`), and `:resume` says so. Setting it replaces
    /// ``findJournalDirectory``.
    public var journalDirectory: String? {
      get { findJournalDirectory() }
      set { findJournalDirectory = { newValue } }
    }
    /// How ``journalDirectory`` is found, each time it is asked for: CalcCLI's system host
    /// works it out from the environment then, so that a run that never asks (`--keys`, a
    /// script) builds no path (Documentation/Performance.md, "Start-up, session 20").
    public var findJournalDirectory: @Sendable () -> String?
    /// This run's own journal, which `:resume` passes over: it resumes an earlier session.
    public var ownJournal: String?
    /// Whether Ctrl-C was pressed while the line runs.
    public var isInterrupted: @Sendable () -> Bool
    /// How `:copy` reaches the clipboard: straight, or through tmux or screen.
    public var clipboard: Clipboard
    /// The files `:save`, `:tape csv FILE`, `:load` and `:resume` read and write: none by
    /// default; CalcCLI's `Files.system` for the machine's, ``Files/memory(_:)`` for tests.
    public var files: Files
    /// The local date, in ISO form (`2026-12-01`), that `today` stands for in a date line
    /// (SPEC §13): `CALC_TODAY` when set, else the clock's (CalcCLI's system host); `nil`, or
    /// text that is no date, leaves 1601-01-01.
    public var today: @Sendable () -> String?

    /// A host with the given parts; by default no home, no journals, never interrupted, the
    /// terminal's clipboard reached straight, and no date for `today`.
    public init(
      home: String? = nil, journalDirectory: String? = nil, ownJournal: String? = nil,
      isInterrupted: @escaping @Sendable () -> Bool = { false },
      clipboard: Clipboard = .terminal, files: Files = .unavailable,
      today: @escaping @Sendable () -> String? = { nil }
    ) {
      self.today = today
      self.home = home
      // A closure that captures nothing when there is no folder: CalcCLI's system host replaces
      // it, and a replaced context would be freed at every start.
      if let journalDirectory {
        self.findJournalDirectory = { journalDirectory }
      } else {
        self.findJournalDirectory = { nil }
      }
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
}
