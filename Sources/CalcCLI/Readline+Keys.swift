@preconcurrency private import CReadline
import CalcCore
import CalculatorEngine
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// readline's keys as calc reads and binds them: the slider's functions, the source of keys with
/// signals acted on between two keys (Ctrl-C, `fg`, a resize), Ctrl-C on the line, and bracketed
/// pastes.
extension Readline {
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
  static func slide(_ slider: SliderMove) -> Int32 {
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

  /// readline's source of keys: one byte from the terminal, with signals acted on in between.
  static func nextKey(_ stream: UnsafeMutablePointer<FILE>?) -> Int32 {
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

  /// The signals acted on between two keys: Ctrl-C, `fg` and a resize. (Glibc's `sigset_t`:
  /// the one through this file's private import of CReadline could not be seen outside it.)
  static let keySignals: Glibc.sigset_t = {
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
  static func paste() -> Int32 {
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

  static func insert(_ bytes: [UInt8]) {
    guard !bytes.isEmpty else { return }
    _ = FileName(bytes).withCString { rl_insert_text($0) }
  }
}
