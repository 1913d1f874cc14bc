import Testing

@testable import CalcCLI
@testable import CalcCore

/// The terminal's escape sequences and the row counter that decides when output is paged.
@Suite struct TerminalTests {
  /// The rows `text` takes on a terminal `columns` wide.
  static func rows(_ text: String, columns: Int = 10) -> Int {
    var counter = Terminal.RowCounter(columns: columns)
    for byte in text.utf8 { counter.count(byte) }
    return counter.rows
  }

  @Test func rowsFollowLinesWrapsTabsAndCharacters() {
    let table: [(String, Int)] = [
      ("", 0), ("\n", 1), ("a", 1), ("a\n", 1), ("a\nb\n", 2), ("\n\n", 2),
      ("0123456789", 1), ("0123456789a", 2), ("0123456789\n", 1), ("01234567890123456789x", 3),
      ("\t\tx", 2), ("\t\t\tx", 3), ("××××××××××", 1), ("×××××××××××", 2),
    ]
    for (text, rows) in table {
      #expect(Self.rows(text) == rows, "\(text.debugDescription)")
    }
  }

  @Test func escapeSequencesTakeNoRoom() {
    let red = "\u{1B}[31m0123456789\u{1B}[0m"
    #expect(Self.rows(red) == 1)
    #expect(Self.rows(Terminal.clipboard(base64: String(repeating: "QUJD", count: 40))) == 0)
    #expect(Self.rows("\u{1B}]52;c;QUJD\u{1B}\\0123456789") == 1, "an OSC ended by ESC \\")
  }

  @Test func sequences() {
    #expect(Terminal.cursorUp(0) == "")
    #expect(Terminal.cursorUp(3) == "\u{1B}[3A")
    #expect(Terminal.clearLine == "\r\u{1B}[K")
    #expect(Terminal.clipboard(base64: "MTU=") == "\u{1B}]52;c;MTU=\u{07}")
    #expect(Terminal.size(of: -1) == nil)
  }
}
