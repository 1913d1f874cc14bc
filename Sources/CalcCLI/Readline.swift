@preconcurrency import CReadline
import CalculatorEngine

#if canImport(Glibc)
  import Glibc
#endif

/// GNU readline, for the REPL: line editing, line history, Tab completion and Ctrl-C.
///
/// This is the only file that imports `CReadline`.
enum Readline {
  /// Command names completed after `:` at the start of a line.
  nonisolated(unsafe) private static var commandNames: [String] = []

  /// Sets readline up for calc: `$if calc` in `~/.inputrc`, completion, and Ctrl-C handling.
  static func setUp(commands: [String]) {
    commandNames = commands.map { ":" + $0 }
    rl_readline_name = UnsafePointer(strdup("calc"))
    rl_attempted_completion_function = { text, start, _ in
      Readline.complete(text: text, start: start)
    }
    // Ctrl-C abandons the line being edited and shows a fresh prompt; it never ends calc.
    // readline catches SIGINT while it reads, cleans up the terminal, then calls this handler
    // from its own (RL_STATE_SIGHANDLER). Outside readline, while a line runs, the handler does
    // nothing: readline's functions are not async-signal-safe, and there is no line to abandon.
    signal(SIGINT) { _ in
      guard rl_readline_state & UInt(RL_STATE_SIGHANDLER) != 0 else { return }
      let newline: [UInt8] = [10]
      _ = newline.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, 1) }
      rl_on_new_line()
      rl_replace_line("", 0)
      rl_redisplay()
    }
  }

  /// Reads a line with editing; `nil` at the end of input (Ctrl-D on an empty line).
  static func readLine(prompt: String) -> String? {
    guard let line = readline(prompt) else { return nil }
    defer { free(line) }
    return String(cString: line)
  }

  /// Whether readline itself moved to a new line when ``readLine(prompt:)`` returned `nil`:
  /// with bracketed paste on (its default, unless the terminal is dumb) it writes a newline at
  /// the end of input as it turns that mode off; otherwise the cursor is still after the prompt.
  static var endedLineAtEndOfInput: Bool {
    guard rl_eof_found != 0, let value = rl_variable_value("enable-bracketed-paste") else {
      return false
    }
    return String(cString: value) == "on"
  }

  /// Loads the line history from `path`, creating the file with mode 0600 if there is none.
  static func loadHistory(path: String, limit: Int) {
    let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
    if fd >= 0 { close(fd) }
    stifle_history(Int32(limit))
    read_history(path)
  }

  /// Adds `line` to the history and appends it to `path`; the file keeps its last `limit` lines.
  static func addHistory(_ line: String, path: String, limit: Int) {
    if let last = history_get(history_base + history_length - 1),
      String(cString: last.pointee.line) == line
    {
      return
    }
    add_history(line)
    append_history(1, path)
    history_truncate_file(path, Int32(limit))
  }

  /// Completion: command names after a leading `:`, file names after `:save ` or `:load `,
  /// nothing in a key line.
  private static func complete(text: UnsafePointer<CChar>?, start: Int32)
    -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
  {
    let line = String(cString: rl_line_buffer)
    let before = String(decoding: line.utf8.prefix(Int(start)), as: UTF8.self)
    // What comes before the word being completed, parsed like any line: nothing means a command
    // name; a `:save` or `:load` with its argument still to come means a file name.
    switch try? ScriptLine(before) {
    case .blank where !before.contains("#"):
      rl_attempted_completion_over = 1
      return rl_completion_matches(text) { text, state in
        Readline.nextCommand(matching: text, state: state)
      }
    case .command(let command) where ["save", "load"].contains(command.name):
      return nil  // readline's own file name completion
    default:
      rl_attempted_completion_over = 1
      return nil
    }
  }

  nonisolated(unsafe) private static var matchIndex = 0

  private static func nextCommand(matching text: UnsafePointer<CChar>?, state: Int32)
    -> UnsafeMutablePointer<CChar>?
  {
    if state == 0 { matchIndex = 0 }
    let prefix = text.map { String(cString: $0) } ?? ""
    while matchIndex < commandNames.count {
      let name = commandNames[matchIndex]
      matchIndex += 1
      if name.hasPrefix(prefix) { return strdup(name) }
    }
    return nil
  }
}
