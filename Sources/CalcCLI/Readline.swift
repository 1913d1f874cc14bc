@preconcurrency private import CReadline
import CalcCore
import CalculatorEngine
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// GNU readline, for the REPL: line editing, line history, Tab completion, pastes and signals.
///
/// This is the only file that imports `CReadline`. readline reads keys through ``nextKey(_:)``
/// instead of its own `rl_getc`, which would go back to waiting after a signal: calc has to act
/// on Ctrl-C during a Ctrl-R search and on `fg` after Ctrl-Z, between two keys.
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
  nonisolated(unsafe) private static var current = State()

  /// Whether ``readLine(prompt:)`` is running: Ctrl-C then abandons the line being edited.
  private static let isReading = Atomic<Bool>(false)
  /// Set by the SIGINT handler while readline reads: the line being edited is abandoned.
  private static let abandonRequested = Atomic<Bool>(false)
  /// Set by the SIGCONT handler: the prompt and the line are drawn again (after Ctrl-Z, `fg`).
  private static let continued = Atomic<Bool>(false)
  /// Set by the SIGWINCH handler: the terminal changed size, and the frame is drawn anew.
  private static let resized = Atomic<Bool>(false)

  /// The readline functions of the slider (SPEC §6), with their default key sequences: Alt-←
  /// Alt-→ Alt-↑ Alt-↓ as xterm, tmux, GNOME Terminal and iTerm2 send them (`ESC [1;3D`, and
  /// `ESC ESC [D` where Alt is sent as Escape), and PgUp/PgDn for the line moves.
  static let sliderFunctions: [(name: String, move: SliderMove, sequences: [String])] = [
    ("calc-back-key", .backKey, ["\u{1B}[1;3D", "\u{1B}\u{1B}[D", "\u{1B}\u{1B}OD"]),
    ("calc-forward-key", .forwardKey, ["\u{1B}[1;3C", "\u{1B}\u{1B}[C", "\u{1B}\u{1B}OC"]),
    (
      "calc-back-line", .backLine, ["\u{1B}[1;3A", "\u{1B}\u{1B}[A", "\u{1B}\u{1B}OA", "\u{1B}[5~"]
    ),
    (
      "calc-forward-line", .forwardLine,
      ["\u{1B}[1;3B", "\u{1B}\u{1B}[B", "\u{1B}\u{1B}OB", "\u{1B}[6~"]
    ),
  ]

  /// A slider key: the move goes through the session's door (``LiveDisplay/move``), then the
  /// prompt (with its position) and the rows below the input are redrawn in place, in one
  /// frame when readline redisplays after this function. The line keeps its text. While no
  /// slider is offered (a line of the past being edited), the bell.
  private static func slide(_ slider: SliderMove) -> Int32 {
    guard let move = current.live?.move else {
      rl_ding()
      return 0
    }
    let (prompt, bar) = move(slider, Terminal.size(of: STDIN_FILENO)?.columns)
    current.sliderRow = bar
    current.lastPreview = nil
    rl_set_prompt(prompt)
    return 0
  }

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

  /// Ctrl-L: the screen cleared, then the prompt, the line and the rows below drawn at the top,
  /// in one frame and one write. (readline's own clear-screen writes the clear through its
  /// buffered stream, outside calc's frame, and knows nothing of the rows below.)
  /// The prompt's rows and those below are erased before the screen is cleared: a terminal that
  /// keeps what a clear removes (tmux) then keeps only what was there before the prompt.
  private static func clearScreen() -> Int32 {
    current.framePrefix =
      Terminal.cursorUp(Int(_rl_last_v_pos)) + Terminal.eraseRowAndBelow + Terminal.clearScreen
    current.hasRowsBelow = false
    current.lastPreview = nil
    rl_forced_update_display()
    return 0
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

  // MARK: - Keys, pastes and signals

  /// readline's source of keys: one byte from the terminal, with signals acted on in between.
  private static func nextKey(_ stream: UnsafeMutablePointer<FILE>?) -> Int32 {
    let fd = stream.map { fileno($0) } ?? STDIN_FILENO
    while true {
      if current.abandonAfterSearch, rl_readline_state & UInt(RL_STATE_ISEARCH) == 0 {
        current.abandonAfterSearch = false
        abandonLine()
      }
      if continued.exchange(false, ordering: .relaxed) {
        // `fg`: the shell has moved to a fresh row; the prompt, the line and the rows below
        // are drawn there (a row kept free below first, as before each prompt). The cursor's
        // row is cleared first: when nothing moved the cursor (SIGSTOP and SIGCONT sent by
        // another program), it is the input's row, drawn again in place.
        current.framePrefix =
          Terminal.clearLine + (current.live == nil ? "" : Terminal.reserveRowBelow)
        current.hasRowsBelow = false
        current.lastPreview = nil
        rl_on_new_line()
        rl_forced_update_display()
      }
      if resized.exchange(false, ordering: .relaxed) {
        var (rows, old, columns): (Int32, Int32, Int32) = (0, 0, 0)
        rl_get_screen_size(&rows, &old)
        rl_reset_screen_size()
        rl_get_screen_size(&rows, &columns)
        // The prompt shortened or lengthened for the new width.
        if let prompt = current.live?.prompt { rl_set_prompt(prompt(Int(columns))) }
        // The slider's bar, if shown, for the new width too.
        if current.sliderRow != nil, let bar = current.live?.bar {
          current.sliderRow = bar(Int(columns))
        }
        // Back to the prompt's row, everything below cleared, then the prompt, the line and
        // the rows below drawn for the new width, in one frame.
        let up = Terminal.rowsAboveCursorAfterResize(
          row: Int(_rl_last_v_pos), column: Int(_rl_last_c_pos), from: Int(old),
          to: Int(columns), reflows: terminalReflows)
        current.framePrefix = Terminal.cursorUp(up) + Terminal.eraseRowAndBelow
        current.hasRowsBelow = false
        current.lastPreview = nil
        rl_forced_update_display()
      }
      if abandonRequested.exchange(false, ordering: .relaxed) {
        if current.endsOnInterrupt, rl_readline_state & UInt(RL_STATE_ISEARCH) == 0 {
          // Editing a line of the past: Ctrl-C leaves it as it was. The line is emptied and
          // entered, and the caller is told.
          current.wasAbandoned = true
          rl_replace_line("", 0)
          rl_point = 0
          return 13
        }
        if rl_readline_state & UInt(RL_STATE_ISEARCH) != 0 {
          current.abandonAfterSearch = true
          return 7  // Ctrl-G: readline ends the search and restores the line; then it goes
        }
        abandonLine()
      }
      guard waitForInput(fd) else {
        // Ctrl-Z: the rows below the input go before calc stops, so that neither the shell's
        // message nor the scrollback holds them.
        if [SIGTSTP, SIGTTIN, SIGTTOU].contains(_rl_caught_signal), current.hasRowsBelow {
          writeToTerminal(Array(clearingRowsBelow().utf8))
          current.hasRowsBelow = false
          current.lastPreview = nil
        }
        rl_check_signals()  // readline's handling: the terminal, then calc's handler
        continue
      }
      var byte: UInt8 = 0
      let count = read(fd, &byte, 1)
      if count == 1 { return Int32(byte) }
      if count == 0 || errno != EINTR { return EOF }
      rl_check_signals()
    }
  }

  /// Whether the terminal rewraps its lines when its width changes (``Terminal/reflows(_:)``),
  /// from calc's environment.
  private static let terminalReflows = Terminal.reflows { name in
    getenv(name).map { String(cString: $0) }
  }

  /// The signals acted on between two keys: Ctrl-C, `fg` and a resize.
  private static let keySignals: sigset_t = {
    var set = sigset_t()
    sigemptyset(&set)
    for signal in [SIGINT, SIGCONT, SIGWINCH] { sigaddset(&set, signal) }
    return set
  }()

  /// Waits until `fd` has a key to read (true), or a signal came (false), without the race of
  /// checking for signals and then waiting: the signals are blocked while the flags are
  /// checked, and unblocked only during the wait itself (`ppoll`). A signal that arrived
  /// before, while a frame was drawn, is found waiting and ends the wait at once.
  private static func waitForInput(_ fd: Int32) -> Bool {
    var blocked = keySignals
    var previous = sigset_t()
    pthread_sigmask(SIG_BLOCK, &blocked, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    if _rl_caught_signal != 0 || abandonRequested.load(ordering: .relaxed)
      || continued.load(ordering: .relaxed) || resized.load(ordering: .relaxed)
    {
      return false
    }
    var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    return ppoll(&descriptor, 1, nil, &previous) > 0
  }

  /// readline's redisplay, with calc's rows below the input (SPEC §6), as one frame: what
  /// readline draws is collected in a buffer, calc's rows are added, and the whole goes to the
  /// terminal in one write, so that nothing flickers.
  ///
  /// During a search (Ctrl-R) there are no rows below; rows an earlier frame drew are cleared.
  private static func redisplay() {
    var buffer: UnsafeMutablePointer<CChar>?
    var size = 0
    let target = rl_outstream
    guard let collector = open_memstream(&buffer, &size) else {
      rl_redisplay()
      return
    }
    // Anything readline wrote through the stream before (a bell, a completion list) goes first.
    if let target { fflush(target) }
    let before = (row: Int(_rl_last_v_pos), lastRow: Int(_rl_vis_botlin), column: _rl_last_c_pos)
    (rl_outstream, _rl_out_stream) = (collector, collector)
    rl_redisplay()
    (rl_outstream, _rl_out_stream) = (target, target)
    fclose(collector)
    var frame = Array(current.framePrefix.utf8)
    current.framePrefix = ""
    // The line has grown onto rows where calc's rows were: readline takes those rows for
    // empty and writes only the new characters, so they are cleared first, from where the
    // cursor was, and the cursor put back.
    if current.hasRowsBelow, Int(_rl_vis_botlin) > before.lastRow {
      let down = before.lastRow - before.row + 1
      frame +=
        Array(
          (Terminal.cursorDown(down) + "\r" + Terminal.eraseBelow + Terminal.cursorUp(down)
            + Terminal.column(Int(before.column))).utf8)
    }
    if let buffer {
      frame += UnsafeRawBufferPointer(start: buffer, count: size)
      free(buffer)
    }
    frame += Array(rowsBelowInput().utf8)
    writeToTerminal(frame)
  }

  /// The rows below the input for the line as it is, or the text that clears those of an
  /// earlier frame; empty when there is nothing to draw or clear.
  private static func rowsBelowInput() -> String {
    var rows: [String] = []
    let searching = rl_readline_state & UInt(RL_STATE_ISEARCH | RL_STATE_NSEARCH) != 0
    if let live = current.live, !searching {
      var columns: Int32 = 0
      var screenRows: Int32 = 0
      rl_get_screen_size(&screenRows, &columns)
      let width = max(1, Int(columns) - 1)
      let line = Array(UnsafeRawBufferPointer(start: rl_line_buffer, count: Int(rl_end)))
      let row: String?
      if let last = current.lastPreview, last.line == line, last.width == width {
        row = last.row
      } else {
        row = live.preview(line, width)
        current.lastPreview = (line, width, row)
      }
      // After a move, the live row shows where the slider is even with no text typed.
      if let row = row ?? (current.sliderRow == nil ? nil : live.current(width)) {
        // Programmer mode's panel comes as a second row (SPEC §10).
        rows += row.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      }
      if let sliderRow = current.sliderRow { rows.append(sliderRow) }
    }
    guard !rows.isEmpty || current.hasRowsBelow else { return "" }
    current.hasRowsBelow = !rows.isEmpty
    return drawing(rows)
  }

  /// The text that clears the rows below the input, the cursor left where it is.
  private static func clearingRowsBelow() -> String { drawing([]) }

  /// `rows` drawn below the input's last row (none: the rows there cleared), the cursor left
  /// where it is (``Terminal/rowsBelowInput(_:cursorRow:lastRow:cursorColumn:)``).
  private static func drawing(_ rows: [String]) -> String {
    return Terminal.rowsBelowInput(
      rows, cursorRow: Int(_rl_last_v_pos), lastRow: Int(_rl_vis_botlin),
      cursorColumn: Int(_rl_last_c_pos))
  }

  /// Writes `bytes` to the terminal readline draws on, in one write where the system allows.
  private static func writeToTerminal(_ bytes: [UInt8]) {
    let fd = rl_outstream.map { fileno($0) } ?? STDOUT_FILENO
    _ = Platform.writeFully(bytes, to: fd)
  }

  /// Ctrl-C: the line being edited is dropped and a fresh prompt drawn below it.
  private static func abandonLine() {
    discardPaste()
    rl_replace_line("", 0)
    rl_point = 0
    rl_mark = 0
    // Below the input, and the live rows there erased (they are not part of the line).
    let below = Terminal.cursorDown(Int(_rl_vis_botlin - _rl_last_v_pos)) + "\r\n"
    writeToTerminal(Array((below + (current.hasRowsBelow ? Terminal.eraseBelow : "")).utf8))
    current.hasRowsBelow = false
    current.sliderRow = nil
    current.lastPreview = nil
    if current.live != nil { writeToTerminal(Array(Terminal.reserveRowBelow.utf8)) }
    rl_on_new_line()
    rl_redisplay()
  }

  /// Bracketed paste: the pasted text up to its first line break goes into the line, which is
  /// then entered; later lines wait in ``nextPastedLine()``, and a last line without a line
  /// break becomes the start of the next line, so that a paste works exactly like typing.
  private static func paste() -> Int32 {
    let end: [UInt8] = [
      0x1B, UInt8(ascii: "["), UInt8(ascii: "2"), UInt8(ascii: "0"),
      UInt8(ascii: "1"), UInt8(ascii: "~"),
    ]
    var text: [UInt8] = []
    while !text.suffix(end.count).elementsEqual(end) {
      let key = rl_read_key()
      guard key >= 0 else { break }
      text.append(UInt8(truncatingIfNeeded: key))
    }
    if text.suffix(end.count).elementsEqual(end) { text.removeLast(end.count) }
    text.removeAll { $0 == 0 }
    var lines: [[UInt8]] = [[]]
    var index = 0
    while index < text.count {
      let byte = text[index]
      index += 1
      guard byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") else {
        lines[lines.count - 1].append(byte)
        continue
      }
      if byte == UInt8(ascii: "\r"), index < text.count, text[index] == UInt8(ascii: "\n") {
        index += 1
      }
      lines.append([])
    }
    insert(lines[0])
    guard lines.count > 1 else { return 0 }
    current.pastedLines = Array(lines[1..<(lines.count - 1)])
    current.pastedFragment = lines[lines.count - 1]
    rl_redisplay()
    return rl_newline(1, 10)
  }

  private static func insert(_ bytes: [UInt8]) {
    guard !bytes.isEmpty else { return }
    _ = FileName(bytes).withCString { rl_insert_text($0) }
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

  // MARK: - Completion

  /// Completion: command names after a leading `:`, file names after `:save ` or `:load `,
  /// line numbers after a `$` in a key line (SPEC §11), nothing else in a key line.
  private static func complete(text: UnsafePointer<CChar>?, start: Int32)
    -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
  {
    // A list of matches goes below the input, where the live rows are: they go first, and
    // the redisplay after the list draws them again.
    if current.hasRowsBelow {
      writeToTerminal(Array(clearingRowsBelow().utf8))
      current.hasRowsBelow = false
      current.lastPreview = nil
    }
    let line = String(cString: rl_line_buffer)
    let before = String(decoding: line.utf8.prefix(Int(start)), as: UTF8.self)
    // What comes before the word being completed, parsed like any line: nothing means a command
    // name; a `:save` or `:load` with its argument still to come means a file name.
    // `$` breaks words (readline's default), so the word after it is the digits of a `$N`.
    if before.hasSuffix("$"), !before.contains("#"),
      !before.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix(":")
    {
      rl_attempted_completion_over = 1
      // `$1` completed to `$12` goes on with the keys that follow, not a blank (`$12 5`).
      rl_completion_append_character = 0
      return rl_completion_matches(text) { text, state in
        Readline.nextReference(matching: text, state: state)
      }
    }
    let word = text.map { String(cString: $0) } ?? ""
    let mode = current.keyMode?()
    switch try? ScriptLine(before, mode: mode ?? .standard) {
    case .blank where !before.contains("#") && (word.isEmpty || word.hasPrefix(":")):
      rl_attempted_completion_over = 1
      return rl_completion_matches(text) { text, state in
        Readline.nextCommand(matching: text, state: state)
      }
    case .directive(let directive) where CommandSpec.named(directive.name)?.argument == .file:
      return nil  // readline's own file name completion
    case .blank where !before.contains("#"), .keys:
      // A key word of the mode in force (SPEC §10: Programmer's words, `prog`).
      rl_attempted_completion_over = 1
      guard let mode else { return nil }
      current.keyMatches = LineInterpreter.keyWordCompletions(of: word, mode: mode)
      return rl_completion_matches(text) { _, state in Readline.nextKeyWord(state: state) }
    default:
      rl_attempted_completion_over = 1
      return nil
    }
  }

  private static func nextReference(matching text: UnsafePointer<CChar>?, state: Int32)
    -> UnsafeMutablePointer<CChar>?
  {
    if state == 0 {
      current.matchIndex = 0
      current.referenceMatches = LineInterpreter.referenceCompletions(
        of: text.map { String(cString: $0) } ?? "", lineCount: current.referableLines?() ?? 0)
    }
    guard current.matchIndex < current.referenceMatches.count else { return nil }
    current.matchIndex += 1
    return strdup(current.referenceMatches[current.matchIndex - 1])
  }

  /// The next key word of ``State/keyMatches`` (readline asks for them one at a time).
  private static func nextKeyWord(state: Int32) -> UnsafeMutablePointer<CChar>? {
    if state == 0 { current.matchIndex = 0 }
    guard current.matchIndex < current.keyMatches.count else { return nil }
    current.matchIndex += 1
    return strdup(current.keyMatches[current.matchIndex - 1])
  }

  private static func nextCommand(matching text: UnsafePointer<CChar>?, state: Int32)
    -> UnsafeMutablePointer<CChar>?
  {
    if state == 0 { current.matchIndex = 0 }
    let prefix = text.map { String(cString: $0) } ?? ""
    while current.matchIndex < current.commandNames.count {
      let name = current.commandNames[current.matchIndex]
      current.matchIndex += 1
      if name.hasPrefix(prefix) { return strdup(name) }
    }
    return nil
  }
}

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
