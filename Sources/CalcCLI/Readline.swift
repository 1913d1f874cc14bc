@preconcurrency private import CReadline
import CalcCore
import CalculatorEngine
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// GNU readline, for the REPL: line editing, line history, Tab completion, pastes and signals.
///
/// The Readline files are the only ones that import `CReadline`: this one sets readline up and
/// reads a line (and keeps its history), `Readline+Keys.swift` reads and binds keys (the slider,
/// signals, pastes), `Readline+Redraw.swift` draws the rows below the input, and
/// `Readline+Completion.swift` completes. readline reads keys through ``nextKey(_:)`` instead of
/// its own `rl_getc`, which would go back to waiting after a signal: calc has to act on Ctrl-C
/// during a Ctrl-R search and on `fg` after Ctrl-Z, between two keys.
enum Readline {
  /// What readline's callbacks share between calls — the paste being run, the live rows, the
  /// slider's bar, completion's place — in one object, owned by the ``ReadlineEditor`` that set
  /// readline up.
  final class State {
    /// Command names completed after `:` at the start of a line.
    var commandNames: [String] = []
    /// Lines of a paste after the one that was entered: the REPL runs them one by one.
    var pastedLines: [[UInt8]] = []
    /// The end of a paste after its last newline: the start of the next line being edited.
    var pastedFragment: [UInt8] = []
    /// After Ctrl-C in a search: the search is aborted first, then the line is abandoned.
    var abandonAfterSearch = false
    /// While a line of the past is edited (`:edit L`): Ctrl-C ends the read instead of giving a
    /// fresh prompt, and ``wasAbandoned`` says so.
    var endsOnInterrupt = false
    /// Whether the last ``readLine(prompt:prefill:)`` ended with Ctrl-C.
    var wasAbandoned = false
    /// Whether calc has drawn rows below the input (the live row, the slider's bar): Enter and
    /// Ctrl-C erase them.
    var hasRowsBelow = false
    /// The live display and the slider while a line is read (SPEC §6); `nil` turns both off
    /// (`TERM=dumb`, `--no-live`, a line of the past being edited turns off the slider only).
    var live: LiveDisplay?
    /// The slider's bar, drawn below the live row from a move until the line is entered or
    /// abandoned.
    var sliderRow: String?
    /// Text written at the start of the next frame: after a resize, back to the prompt's row and
    /// everything below it cleared, since readline then draws the prompt and line afresh.
    var framePrefix = ""
    /// The last live row and what it was worked out from: the preview is worked out again only
    /// when the line, the width or the slider changes (not when the cursor moves).
    var lastPreview: (line: [UInt8], width: Int, row: String?)?
    /// How far completion's list of matches has got (readline asks for them one at a time).
    var matchIndex = 0
    /// How many lines a `$N` typed now can refer to (``LineEditor/referableLines``).
    var referableLines: (() -> Int)?
    /// The line numbers that complete the `$N` being completed, worked out when readline asks
    /// for the first match.
    var referenceMatches: [String] = []
    /// The mode key words are completed in (``LineEditor/keyMode``).
    var keyMode: (() -> Key.Mode)?
    /// The key words that complete the word being completed (``complete(text:start:)``).
    var keyMatches: [String] = []
  }

  /// The one pointer C needs: readline's callbacks take no context, so they reach the state of
  /// the editor that set readline up last through it (``setUp(_:commands:promptsOnStandardError:)``).
  nonisolated(unsafe) static var current = State()

  /// Whether ``readLine(prompt:)`` is running: Ctrl-C then abandons the line being edited.
  static let isReading = Atomic<Bool>(false)
  /// Set by the SIGINT handler while readline reads: the line being edited is abandoned.
  static let abandonRequested = Atomic<Bool>(false)
  /// Set by the SIGCONT handler: the prompt and the line are drawn again (after Ctrl-Z, `fg`).
  static let continued = Atomic<Bool>(false)
  /// Set by the SIGWINCH handler: the terminal changed size, and the frame is drawn anew.
  static let resized = Atomic<Bool>(false)

  /// Sets readline up for calc: `$if calc` in `~/.inputrc`, UTF-8 editing, completion, pastes,
  /// Ctrl-C and Ctrl-Z.
  static func setUp(_ state: State, commands: [String], promptsOnStandardError: Bool = false) {
    current = state
    current.commandNames = commands.map { ":" + $0 }
    // `calc > FILE`: the prompt and the echo are for the person at the terminal (SPEC §5).
    if promptsOnStandardError { rl_outstream = stderr }
    rl_readline_name = UnsafePointer(strdup("calc"))
    editUTF8()
    rl_attempted_completion_function = { text, start, _ in
      Readline.complete(text: text, start: start)
    }
    rl_getc_function = { stream in Readline.nextKey(stream) }
    // A resize is handled between two keys (``nextKey(_:)``), where the frame is redrawn
    // from the prompt's row: readline's own handler would redraw where the cursor is.
    rl_catch_sigwinch = 0
    rl_initialize()
    // After rl_initialize: with a redisplay function of its own set, readline would not read
    // the terminal's capabilities (terminal.c) and would scroll long lines sideways.
    rl_redisplay_function = { Readline.redisplay() }
    // The slider's functions, by name for `~/.inputrc`.
    let functions: [@convention(c) (Int32, Int32) -> Int32] = [
      { _, _ in Readline.slide(.backKey) }, { _, _ in Readline.slide(.forwardKey) },
      { _, _ in Readline.slide(.backLine) }, { _, _ in Readline.slide(.forwardLine) },
    ]
    for (function, entry) in zip(functions, sliderFunctions) {
      rl_add_funmap_entry(strdup(entry.name), function)
    }
    for name in ["emacs", "vi-insert"] {
      if let keymap = rl_get_keymap_by_name(name) {
        rl_bind_keyseq_in_map("\u{1B}[200~", { _, _ in Readline.paste() }, keymap)
        // calc's bindings after the init files readline has read (the system's binds ESC ESC
        // [D to backward-word on Debian) ...
        for (function, entry) in zip(functions, sliderFunctions) {
          for sequence in entry.sequences { rl_bind_keyseq_in_map(sequence, function, keymap) }
        }
      }
    }
    // Ctrl-L (and any key bound to clear-screen) clears the screen and draws the prompt, the
    // line and the rows below again (SPEC §6).
    let clear: @convention(c) (Int32, Int32) -> Int32 = { _, _ in Readline.clearScreen() }
    rl_add_funmap_entry(strdup("calc-clear-screen"), clear)
    takeOverClearScreen(clear)
    // ... and the user's own file once more, so that a `$if calc` section there wins ...
    if let file = userInitFile() { rl_read_init_file(file) }
    // ... where a key bound to clear-screen gets calc's.
    takeOverClearScreen(clear)
    // Ctrl-C abandons the line being edited and shows a fresh prompt; while a line runs, it
    // stops the line (see Interruption). It never ends calc. Without SA_RESTART, so that a
    // wait for input (`:load` of a FIFO) ends with EINTR. While readline reads, it catches
    // SIGINT itself, cleans up the terminal, then calls this handler from within nextKey; the
    // flag it sets is acted on there, between two keys, where readline may be called.
    install(SIGINT) { _ in
      if Readline.isReading.load(ordering: .relaxed) {
        Readline.abandonRequested.store(true, ordering: .relaxed)
      } else {
        Interruption.request()
      }
    }
    install(SIGCONT) { _ in Readline.continued.store(true, ordering: .relaxed) }
    install(SIGWINCH) { _ in Readline.resized.store(true, ordering: .relaxed) }
    // A parent may have left them blocked (a blocked signal stays blocked across exec, and
    // tmux gives its panes the mask it was started with): they would then never arrive.
    var signals = keySignals
    pthread_sigmask(SIG_UNBLOCK, &signals, nil)
  }

  /// Binds `clear` to every key that readline's `clear-screen` is bound to (Ctrl-L unless an
  /// inputrc says otherwise), in the emacs and vi keymaps.
  private static func takeOverClearScreen(_ clear: @convention(c) (Int32, Int32) -> Int32) {
    for name in ["emacs", "vi-insert", "vi-command"] {
      guard let keymap = rl_get_keymap_by_name(name),
        let sequences = rl_invoking_keyseqs_in_map(rl_clear_screen, keymap)
      else { continue }
      var index = 0
      while let sequence = sequences[index] {
        rl_bind_keyseq_in_map(sequence, clear, keymap)
        free(sequence)
        index += 1
      }
      free(sequences)
    }
  }

  /// `$INPUTRC`, else `~/.inputrc`, when it exists.
  private static func userInitFile() -> String? {
    if let path = getenv("INPUTRC").map({ String(cString: $0) }), !path.isEmpty {
      return access(path, R_OK) == 0 ? path : nil
    }
    guard let home = getenv("HOME").map({ String(cString: $0) }), !home.isEmpty else { return nil }
    let path = home + "/.inputrc"
    return access(path, R_OK) == 0 ? path : nil
  }

  private static func install(_ signal: Int32, _ handler: @convention(c) (Int32) -> Void) {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = handler
    sigemptyset(&action.sa_mask)
    action.sa_flags = 0
    sigaction(signal, &action, nil)
  }

  /// Makes readline edit UTF-8 even when `LC_CTYPE` is not a UTF-8 locale (`LANG=C`): calc's keys
  /// and output are UTF-8 whatever the locale, and a backspace over `×` must remove all of it.
  ///
  /// readline takes its character set from `LC_ALL`, `LC_CTYPE` or `LANG` when it starts, so the
  /// variable it reads is set to `C.UTF-8` (which children such as a pager inherit too).
  private static func editUTF8() {
    setlocale(LC_CTYPE, "")
    guard let codeset = nl_langinfo(nl_item(CODESET)), String(cString: codeset) != "UTF-8" else {
      return
    }
    let names = ["C.UTF-8", "en_US.UTF-8"]
    guard let utf8 = names.first(where: { name in setlocale(LC_CTYPE, name) != nil }) else {
      return
    }
    let variable = getenv("LC_ALL").map { $0.pointee != 0 } == true ? "LC_ALL" : "LC_CTYPE"
    setenv(variable, utf8, 1)
  }

  /// Reads a line with editing; `nil` at the end of input (Ctrl-D on an empty line).
  ///
  /// The bytes are those typed, which need not be UTF-8.
  static func readLine(prompt: String) -> [UInt8]? {
    current.endsOnInterrupt = false
    return readEntered(prompt: prompt)
  }

  /// Reads a line that starts as `prefill`, the cursor at its end: a line of the past to edit.
  /// Ctrl-C ends it (``wasAbandoned``) rather than starting afresh.
  static func readLine(prompt: String, prefill: [UInt8], endsOnInterrupt ends: Bool = true)
    -> [UInt8]?
  {
    current.endsOnInterrupt = ends
    current.wasAbandoned = false
    defer { current.endsOnInterrupt = false }
    current.pastedFragment = prefill
    return readEntered(prompt: prompt)
  }

  private static func readEntered(prompt: String) -> [UInt8]? {
    continued.store(false, ordering: .relaxed)
    current.sliderRow = nil
    current.lastPreview = nil
    if current.live != nil {
      writeToTerminal(Array(Terminal.reserveRowBelow.utf8))
    }
    if !current.pastedFragment.isEmpty {
      rl_startup_hook = {
        Readline.insert(Readline.current.pastedFragment)
        Readline.current.pastedFragment = []
        rl_startup_hook = nil
        return 0
      }
    }
    isReading.store(true, ordering: .relaxed)
    let line = readline(prompt)
    isReading.store(false, ordering: .relaxed)
    // Ctrl-C just as readline returned a line: it stops that line instead.
    if abandonRequested.exchange(false, ordering: .relaxed) { Interruption.request() }
    guard let line else { return nil }
    defer { free(line) }
    return Array(UnsafeRawBufferPointer(start: line, count: strlen(line)))
  }

  /// The next line of a paste of several lines, if one is waiting: the REPL shows it after the
  /// prompt, as if typed, and runs it.
  static func nextPastedLine() -> [UInt8]? {
    current.pastedLines.isEmpty ? nil : current.pastedLines.removeFirst()
  }

  /// Forgets the rest of a paste (after `:quit`, or when a line fails).
  @discardableResult
  static func discardPaste() -> Int {
    let count = current.pastedLines.count
    current.pastedLines = []
    current.pastedFragment = []
    return count
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

  // MARK: - History

  /// Loads the history file at `path` (see ``HistoryFile/prepare(_:limit:)``) into readline's
  /// history; returns a warning when it cannot be used (it is then not used).
  static func loadHistory(path: String, limit: Int) -> String? {
    stifle_history(Int32(limit))
    if let warning = HistoryFile.prepare(path) { return warning }
    read_history(path)
    return nil
  }

  /// Adds `line` to readline's history, unless it repeats the last line, and to the file at
  /// `path` (``HistoryFile/append(_:to:limit:)``).
  static func addHistory(_ line: [UInt8], path: String, limit: Int) {
    if let last = history_get(history_base + history_length - 1), let previous = last.pointee.line,
      UnsafeRawBufferPointer(start: previous, count: strlen(previous)).elementsEqual(line)
    {
      return
    }
    FileName(line).withCString { add_history($0) }
    HistoryFile.append(line, to: path, limit: limit)
  }
}
