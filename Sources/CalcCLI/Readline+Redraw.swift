@preconcurrency private import CReadline
import CalcCore
import CalculatorEngine
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// readline's display with calc's rows below the input (SPEC §6): each redisplay one frame and
/// one write, Ctrl-L's clear included.
extension Readline {
  /// Ctrl-L: the screen cleared, then the prompt, the line and the rows below drawn at the top,
  /// in one frame and one write. (readline's own clear-screen writes the clear through its
  /// buffered stream, outside calc's frame, and knows nothing of the rows below.)
  /// The prompt's rows and those below are erased before the screen is cleared: a terminal that
  /// keeps what a clear removes (tmux) then keeps only what was there before the prompt.
  static func clearScreen() -> Int32 {
    current.framePrefix =
      Terminal.cursorUp(Int(_rl_last_v_pos)) + Terminal.eraseRowAndBelow + Terminal.clearScreen
    current.hasRowsBelow = false
    current.lastPreview = nil
    rl_forced_update_display()
    return 0
  }

  /// readline's redisplay, with calc's rows below the input (SPEC §6), as one frame: what
  /// readline draws is collected in a buffer, calc's rows are added, and the whole goes to the
  /// terminal in one write, so that nothing flickers.
  ///
  /// During a search (Ctrl-R) there are no rows below; rows an earlier frame drew are cleared.
  static func redisplay() {
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
  static func clearingRowsBelow() -> String { drawing([]) }

  /// `rows` drawn below the input's last row (none: the rows there cleared), the cursor left
  /// where it is (``Terminal/rowsBelowInput(_:cursorRow:lastRow:cursorColumn:)``).
  private static func drawing(_ rows: [String]) -> String {
    return Terminal.rowsBelowInput(
      rows, cursorRow: Int(_rl_last_v_pos), lastRow: Int(_rl_vis_botlin),
      cursorColumn: Int(_rl_last_c_pos))
  }

  /// Writes `bytes` to the terminal readline draws on, in one write where the system allows.
  static func writeToTerminal(_ bytes: [UInt8]) {
    let fd = rl_outstream.map { fileno($0) } ?? STDOUT_FILENO
    _ = Platform.writeFully(bytes, to: fd)
  }
}
