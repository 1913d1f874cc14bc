/// The terminal, in one place: the escape sequences calc writes, and how many rows
/// output takes on it.
///
/// Its size is read by CalcCLI (`Terminal.size(of:)`, a system call); colours are in ``Style``; readline draws the line being edited. Everything else calc sends
/// to a terminal that is not plain text comes from here.
package enum Terminal {
  /// `ESC [ n A`: the cursor up `rows` rows (nothing for 0).
  package static func cursorUp(_ rows: Int) -> String { rows > 0 ? "\u{1B}[\(rows)A" : "" }

  /// `ESC [ n B`: the cursor down `rows` rows, not past the bottom (nothing for 0).
  package static func cursorDown(_ rows: Int) -> String { rows > 0 ? "\u{1B}[\(rows)B" : "" }

  /// `ESC [ n G`: the cursor to column `column` of its row, counted from 0.
  package static func column(_ column: Int) -> String { "\u{1B}[\(column + 1)G" }

  /// `CR ESC [ C ESC [ J CR ESC [ K`: the cursor's row and every row below it cleared, the
  /// cursor at the start of its row. Not `CR ESC [ J`: tmux takes that, on the top row, for a
  /// clear of the whole screen and keeps the rows in its scrollback (`scroll-on-clear`).
  package static let eraseRowAndBelow = "\r\u{1B}[C\u{1B}[J\r\u{1B}[K"

  /// Whether the terminal, as its environment names it, rewraps the lines it shows when its
  /// width changes (tmux, VTE's terminals such as GNOME Terminal, kitty, Konsole, Windows
  /// Terminal, iTerm2, WezTerm, Apple's Terminal, VS Code's) rather than cutting or padding
  /// each row as xterm does. `variable` reads the environment.
  package static func reflows(_ variable: (String) -> String?) -> Bool {
    let markers = ["TMUX", "VTE_VERSION", "KITTY_WINDOW_ID", "KONSOLE_VERSION", "WT_SESSION"]
    if markers.contains(where: { variable($0).map { !$0.isEmpty } ?? false }) { return true }
    let programs = ["iTerm.app", "WezTerm", "Apple_Terminal", "vscode"]
    return variable("TERM_PROGRAM").map(programs.contains) ?? false
  }

  /// How many rows above the cursor the prompt's row is after the terminal went from `old` to
  /// `new` columns, the cursor having been on row `row` of the input (0 is the prompt's) at
  /// `column`: the same row when the terminal cuts or pads rows (xterm); when it `reflows`
  /// them, the prompt and the input are one line rewrapped at the new width, the cursor
  /// `row × old + column` columns into it.
  package static func rowsAboveCursorAfterResize(
    row: Int, column: Int, from old: Int, to new: Int, reflows: Bool
  ) -> Int {
    guard reflows, old > 0, new > 0 else { return row }
    return (row * old + column) / new
  }

  /// `ESC [ H ESC [ 2 J`: the cursor to the top left corner and the screen cleared (Ctrl-L).
  package static let clearScreen = "\u{1B}[H\u{1B}[2J"

  /// `CR ESC [ K`: the cursor to the start of its row, and the row cleared.
  package static let clearLine = "\r\u{1B}[K"

  /// `ESC [ J`: the rows from the cursor's to the bottom cleared (the slider's rows, after Enter).
  package static let eraseBelow = "\u{1B}[J"

  /// `LF ESC [ A`: a row kept free below the cursor's, which scrolls the screen once if the
  /// cursor is on the bottom row, so that the live display's first row does not make the
  /// screen jump at the first keystroke (SPEC §6). Written before each prompt.
  package static let reserveRowBelow = "\n\u{1B}[A"

  /// The rows calc draws below the input (SPEC §6: the live row and the slider bar), written
  /// after readline has drawn the prompt and the line, in the same frame: from the cursor, on
  /// row `cursorRow` of the input (0 is the prompt's) at `cursorColumn`, down past the input's
  /// `lastRow`; each of `rows` on a row of its own, cleared first; every row below them
  /// cleared (rows of an earlier frame); the cursor back where it was. With no rows, only the
  /// clearing: the rows of an earlier frame go. Relative moves only, so that a frame that
  /// scrolls the screen (input on the bottom row) still ends at the cursor.
  package static func rowsBelowInput(
    _ rows: [String], cursorRow: Int, lastRow: Int, cursorColumn: Int
  )
    -> String
  {
    let down = max(0, lastRow - cursorRow)
    var frame = cursorDown(down)
    for row in rows { frame += "\r\n\u{1B}[K" + row }
    if rows.isEmpty { frame += "\r\n" }
    frame += eraseBelow + cursorUp(down + max(1, rows.count)) + "\u{1B}[\(cursorColumn + 1)G"
    return frame
  }

  /// `line` as it fits in `width` columns without wrapping: unchanged when it fits, else cut
  /// with `…` in its last column. Escape sequences (colours) take no room and are kept; a line
  /// cut in a colour ends with the reset `ESC [0m`. For listings (SPEC §6: cut, not wrapped).
  ///
  /// - Complexity: O(n) in the scalars of `line`.
  static func cut(_ line: String, width: Int) -> String {
    guard visibleWidth(of: line) > width, width > 0 else { return line }
    var result = ""
    var used = 0
    var escape = false
    var coloured = false
    for scalar in line.unicodeScalars {
      if escape {
        result.unicodeScalars.append(scalar)
        if (0x40...0x7E).contains(scalar.value) && scalar != "[" { escape = false }
        continue
      }
      if scalar == "\u{1B}" {
        escape = true
        coloured = true
        result.unicodeScalars.append(scalar)
        continue
      }
      let next = Terminal.width(of: String(scalar))
      if used + next > width - 1 { break }
      used += next
      result.unicodeScalars.append(scalar)
    }
    return result + "…" + (coloured ? "\u{1B}[0m" : "")
  }

  /// A message (a note, an error, what a command did) for a terminal `width` columns wide, or
  /// `nil` when it is not one: broken at spaces, so that a number is never split across two
  /// rows (SPEC §6); a word longer than a row is left whole for the terminal to wrap. With
  /// `hanging`, the rows after the first are indented that much.
  ///
  /// - Complexity: O(n) in the scalars of `text`.
  package static func message(_ text: String, width: Int?, hanging: Int? = nil) -> String {
    guard let width else { return text }
    return wrapped(text, width: width, cutsLongWords: false, hanging: hanging)
  }

  /// `text` with each line longer than `width` columns broken at spaces (the spaces at a break
  /// dropped, others kept), the rest of a line indented as it is, or by `hanging` columns when
  /// given (under its text column: ``HelpText/wrapped(_:width:)``), at most half the width; a
  /// word longer than a line is cut at the edge (left whole without `cutsLongWords`). Escape
  /// sequences take no room. For `:help` and the start-up line (SPEC §6: wrapped at word
  /// boundaries).
  ///
  /// - Complexity: O(n) in the scalars of `text`.
  package static func wrapped(
    _ text: String, width: Int, cutsLongWords: Bool = true, hanging: Int? = nil
  ) -> String {
    guard width > 8 else { return text }
    var result: [String] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      guard visibleWidth(of: line) > width else {
        result.append(line)
        continue
      }
      let leading = line.prefix { $0 == " " }.count
      let indent = String(repeating: " ", count: min(hanging ?? leading, width / 2))
      // Words with the spaces before them: a break drops those spaces.
      var pieces: [(gap: String, word: String)] = []
      var gap = ""
      var word = ""
      for character in line.dropFirst(leading) {
        if character == " " {
          if !word.isEmpty {
            pieces.append((gap, word))
            (gap, word) = ("", "")
          }
          gap.append(character)
        } else {
          word.append(character)
        }
      }
      if !word.isEmpty { pieces.append((gap, word)) }
      var current = String(repeating: " ", count: leading)
      var currentWidth = leading
      var hasWord = false
      for (gap, word) in pieces {
        let wordWidth = visibleWidth(of: word)
        if hasWord, currentWidth + gap.count + wordWidth > width {
          result.append(current)
          (current, currentWidth, hasWord) = (indent, indent.count, false)
        }
        if hasWord {
          current += gap
          currentWidth += gap.count
        }
        current += word
        currentWidth += wordWidth
        hasWord = true
      }
      result.append(cutsLongWords ? cut(current, width: width) : current)
    }
    return result.joined(separator: "\n")
  }

  /// The columns `text` takes on a terminal, escape sequences (colours) taking none.
  static func visibleWidth(of text: String) -> Int {
    var total = 0
    var escape = false
    for scalar in text.unicodeScalars {
      if escape {
        if (0x40...0x7E).contains(scalar.value) && scalar != "[" { escape = false }
      } else if scalar == "\u{1B}" {
        escape = true
      } else {
        total += Terminal.width(of: String(scalar))
      }
    }
    return total
  }

  /// The columns `text` takes on a terminal: one a character, none for combining marks and
  /// format characters (such as the Arabic letter mark in `ar_EG`'s numbers).
  ///
  /// - Complexity: O(n) in the scalars of `text`.
  static func width(of text: String) -> Int {
    var width = 0
    for scalar in text.unicodeScalars {
      switch scalar.properties.generalCategory {
      case .nonspacingMark, .enclosingMark, .format: break
      default: width += 1
      }
    }
    return width
  }

  /// `ESC ] 52 ; c ; BASE64 BEL`: `base64` put on the terminal's clipboard (OSC 52).
  static func clipboard(base64: String) -> String { "\u{1B}]52;c;\(base64)\u{07}" }

  /// `sequence` wrapped for tmux to pass to the outer terminal: `ESC P tmux; …  ESC \`, each ESC
  /// inside doubled.
  static func tmuxPassthrough(_ sequence: String) -> String {
    var doubled = ""
    for character in sequence {
      if character == "\u{1B}" { doubled.append(character) }
      doubled.append(character)
    }
    return "\u{1B}Ptmux;" + doubled + "\u{1B}\\"
  }

  /// `sequence` wrapped in a DCS string for GNU screen to pass to the outer terminal:
  /// `ESC P … ESC \`.
  static func screenPassthrough(_ sequence: String) -> String { "\u{1B}P" + sequence + "\u{1B}\\" }

  /// Counts the rows that output takes on a terminal `columns` wide, a byte at a time: long
  /// lines wrap, a tab goes to the next multiple of 8, escape sequences (colours, OSC) take no
  /// room, and a UTF-8 character takes one column.
  package struct RowCounter {
    /// The width of the terminal.
    let columns: Int
    /// The rows so far (a line not yet ended counts once it has a character).
    package private(set) var rows = 0
    private var column = 0
    /// Where the counter is in an escape sequence, which takes no room on the screen.
    private var escape = Escape.none
    private enum Escape {
      case none
      /// After `ESC`.
      case start
      /// In `ESC [ … final`: colours.
      case controlSequence
      /// In `ESC ] … BEL`: e.g. the clipboard (OSC 52).
      case operatingSystemCommand
    }

    /// A counter at the start of a row, with no rows yet.
    package init(columns: Int) {
      self.columns = columns
    }

    /// Adds one byte of output to the count.
    package mutating func count(_ byte: UInt8) {
      switch escape {
      case .none:
        break
      case .start:
        escape =
          byte == UInt8(ascii: "[")
          ? .controlSequence : byte == UInt8(ascii: "]") ? .operatingSystemCommand : .none
        return
      case .controlSequence:
        if byte >= 0x40 && byte <= 0x7E { escape = .none }
        return
      case .operatingSystemCommand:
        // Ends at BEL, or at the ESC of `ESC \`, whose `\` then ends that escape.
        if byte == 0x07 { escape = .none }
        if byte == 0x1B { escape = .start }
        return
      }
      switch byte {
      case 0x1B:
        escape = .start
      case UInt8(ascii: "\n"):
        if column == 0 { rows += 1 }
        column = 0
      case UInt8(ascii: "\t"):
        advance(by: 8 - column % 8)
      case 0x80..<0xC0:
        break  // a UTF-8 continuation byte: the character was counted at its first byte
      default:
        advance(by: 1)
      }
    }

    private mutating func advance(by width: Int) {
      if column == 0 || column + width > columns {
        rows += 1
        column = 0
      }
      column += width
    }
  }
}

extension Terminal {
  /// `text`, or `…` and as much of its end as fits in `width` columns.
  static func cutLeft(_ text: String, _ width: Int) -> String {
    guard Terminal.width(of: text) > width else { return text }
    var kept: [Character] = []
    var used = 1
    for character in text.reversed() {
      let next = Terminal.width(of: String(character))
      if used + next > width { break }
      used += next
      kept.append(character)
    }
    return "…" + String(kept.reversed())
  }

  /// `text`, or as much of its start as fits in `width` columns and `…`.
  static func cutRight(_ text: String, _ width: Int) -> String {
    guard Terminal.width(of: text) > width else { return text }
    var kept = ""
    var used = 1
    for character in text {
      let next = Terminal.width(of: String(character))
      if used + next > width { break }
      used += next
      kept.append(character)
    }
    return kept + "…"
  }
}
