import CalcCore
import CalculatorEngine

#if canImport(Glibc)
  import Glibc
#endif

/// The REPL's line editor: GNU readline, with calc's history file.
struct ReadlineEditor: LineEditor {
  /// The history file, or `nil` when there is none or it cannot be used.
  private var historyPath: String?
  /// What readline's callbacks share, owned here; readline reaches it through
  /// ``Readline``'s one pointer.
  private let state = Readline.State()

  /// Sets readline up (``Readline/setUp(_:commands:promptsOnStandardError:)``) and loads the history file at
  /// `historyPath`; a file that cannot be used is reported through `warn` and not used.
  init(
    commands: [String], historyPath: String?, promptsOnStandardError: Bool = false,
    warn: (String) -> Void
  ) {
    Readline.setUp(state, commands: commands, promptsOnStandardError: promptsOnStandardError)
    self.historyPath = historyPath
    if let path = historyPath,
      let warning = Readline.loadHistory(path: path, limit: HistoryFile.limit)
    {
      warn(warning)
      self.historyPath = nil
    }
  }

  mutating func read(prompt: String) -> EditorInput {
    if let pasted = Readline.nextPastedLine() { return .pasted(pasted) }
    let line = Readline.readLine(prompt: prompt)
    if let line { return .typed(line) }
    return .end(cursorAfterPrompt: !Readline.endedLineAtEndOfInput)
  }

  var referableLines: (() -> Int)? {
    get { state.referableLines }
    set { state.referableLines = newValue }
  }

  var keyMode: (() -> Key.Mode)? {
    get { state.keyMode }
    set { state.keyMode = newValue }
  }

  var hasRowsBelow: Bool {
    get { state.hasRowsBelow }
    set { state.hasRowsBelow = newValue }
  }

  var live: LiveDisplay? {
    get { state.live }
    set { state.live = newValue }
  }

  mutating func read(prompt: String, prefill: [UInt8]) -> EditorInput {
    let line = Readline.readLine(prompt: prompt, prefill: prefill)
    if state.wasAbandoned { return .abandoned }
    if let line { return .typed(line) }
    return .end(cursorAfterPrompt: !Readline.endedLineAtEndOfInput)
  }

  mutating func remember(_ line: [UInt8]) {
    guard let historyPath else { return }
    Readline.addHistory(line, path: historyPath, limit: HistoryFile.limit)
  }

  mutating func discardPendingInput() -> Int { Readline.discardPaste() }

  func size(of stream: TerminalStream) -> (rows: Int, columns: Int)? {
    switch stream {
    case .input: Terminal.size(of: STDIN_FILENO)
    case .output: Terminal.size(of: STDOUT_FILENO)
    case .errors: Terminal.size(of: STDERR_FILENO)
    }
  }
}
