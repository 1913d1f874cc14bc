import CalcCLI
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// SPEC §6's live display on a real pseudo-terminal with readline: the row below the input
/// while a line is typed, gone after Enter, fitted to the width, following resizes; none on a
/// dumb terminal or with `--no-live`.
@Suite struct LiveDisplayTests {
  /// A REPL in `directory` (its `HOME`, with an empty `.inputrc`), its start-up line seen.
  private func startCalc(
    in directory: URL, arguments: [String] = ["--no-journal"], columns: Int = 80,
    rows: Int = 24, term: String = "xterm"
  ) throws -> TerminalSession {
    try "".write(
      to: directory.appendingPathComponent(".inputrc"), atomically: true, encoding: .utf8)
    let calc = try TerminalSession(
      directory: directory,
      environment: ["HOME": directory.path, "NO_COLOR": "1", "TERM": term],
      arguments: arguments, columns: columns, rows: rows)
    try calc.wait(for: "a prompt") { $0.screen.lines.last == "calc> " }
    calc.skippedLines = 1
    return calc
  }

  /// Waits until the row below the input is `row`.
  private func waitForPreview(_ row: String, in calc: TerminalSession) throws {
    try calc.wait(for: "the live row '\(row)'") { $0.screen.rowsBelowCursor.first == row }
  }

  /// A formula line previews its result while it is typed, its brackets closed and a trailing
  /// operator ignored (SPEC §12); Enter shows the formula normalised above the result.
  @Test func aFormulaPreviewsItsResult() throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory)
      try calc.type("fx\r")
      try calc.waitForLastLines(["calc> fx", "0", "calc fx> "])
      try calc.type("2^(1+2")
      try waitForPreview("2 ^ (1 + 2) =   8", in: calc)
      try calc.type(")*-")
      try waitForPreview("2 ^ (1 + 2) =   8", in: calc)
      try calc.type("1\r")
      try calc.waitForLastLines(["calc fx> 2^(1+2)*-1", "2 ^ (1 + 2) × −1 =", "-8", "calc fx> "])
    }
  }

  @Test func thePreviewAppearsBeforeEnterAndIsGoneAfterIt() throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory)
      try calc.type("12+3")
      try waitForPreview("12 +   3", in: calc)
      try calc.type("=")
      // SPEC §6's example: the expression line, three spaces, the display.
      try waitForPreview("12 + 3 =   15", in: calc)
      #expect(calc.lines == ["calc> 12+3="])
      try calc.type("\r")
      try calc.waitForScreen(["calc> 12+3=", "12 + 3 =", "15", "calc> "])
      #expect(calc.screen.rowsBelowCursor.allSatisfy { $0.isEmpty })
      // An unfinished key shows the state before it; a wrong one, the error Enter would give.
      try calc.type("*2co")
      try waitForPreview("15 ×   2", in: calc)
      try calc.type("x")
      try waitForPreview("error: unknown key 'o' at column 4", in: calc)
      // Editing in the middle of the line: the preview follows the whole line.
      try calc.type("\u{01}\u{0B}")  // Ctrl-A, Ctrl-K: the line emptied
      try calc.wait(for: "no live row for an empty line") {
        $0.screen.rowsBelowCursor.allSatisfy { $0.isEmpty }
      }
      try calc.type(":goto 2")
      try waitForPreview("12", in: calc)
      try calc.type("\r")
      try calc.waitForLastLines(["calc> :goto 2", "12", "calc[2/5]> "])
      #expect(calc.screen.rowsBelowCursor.allSatisfy { $0.isEmpty })
    }
  }

  /// The same keystrokes with and without the live display leave the same scrollback: each
  /// preview is erased before the line's output.
  @Test func theScrollbackAfterEnterIsTheScrollbackWithoutLiveDisplay() throws {
    let keystrokes = [
      "12+3=\r", "*2\u{7F}3=\r", "1+x\r", "sci (1+2)*3=\r", "5\u{02}\u{02}9\r", ":undo\r",
      ":history\r", "\u{1B}[A\r", "7*\u{03}", "std\r", "\r",
    ]
    var screens: [[String]] = []
    // The two sessions side by side, so that they settle in the same 60 ms.
    try withTemporaryDirectory { live in
      try withTemporaryDirectory { noLive in
        let sessions = [
          try startCalc(in: live, arguments: ["--no-journal"]),
          try startCalc(in: noLive, arguments: ["--no-journal", "--no-live"]),
        ]
        for keys in keystrokes {
          for calc in sessions {
            let count = calc.screen.lines.count
            try calc.type(keys)
            try calc.wait(for: "the output of \(keys.debugDescription)") {
              $0.screen.lines.count > count && $0.screen.lines.last?.hasPrefix("calc") == true
            }
          }
          // Nothing arrives after the prompt any more (readline's own redisplay included): the
          // first session is watched for 60 ms, then the second, whose output meanwhile waits
          // in its terminal, for 5 ms more; again while either had more.
          var settled = false
          while !settled {
            settled = true
            for (index, calc) in sessions.enumerated() {
              let before = calc.output.count
              try? calc.wait(
                for: "more output", timeout: .milliseconds(index == 0 ? 60 : 5)
              ) { $0.output.count > before }
              if calc.output.count > before { settled = false }
            }
          }
        }
        screens = sessions.map(\.screen.lines)
      }
    }
    #expect(screens[0] == screens[1])
    #expect(screens[0].contains("(1 + 2) × 3 ="))
  }

  @Test func aResizeDuringAPreviewRedrawsItForTheNewWidth() throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory, columns: 80)
      // Scientific mode keeps the whole expression line (Standard's shows a running total).
      let line = "sci " + (1...15).map(String.init).joined(separator: "+")  // 40 characters
      let whole = (1...14).map(String.init).joined(separator: " + ") + " +   15"
      try calc.type(line)
      try waitForPreview(whole, in: calc)
      try calc.resize(columns: 40, rows: 24)
      // The prompt and the input take 46 columns, two rows now; the preview is cut to 39 columns from the left, the
      // display kept whole.
      try calc.wait(for: "the preview for 40 columns") { calc in
        guard let row = calc.screen.rowsBelowCursor.first(where: { !$0.isEmpty }) else {
          return false
        }
        return row.hasPrefix("…") && row.hasSuffix(" +   15") && row.count == 39
      }
      try calc.type("\r")
      try calc.wait(for: "the display") { $0.screen.lines.last == "calc sci> " }
      #expect(calc.screen.lines.dropLast().last == "15")
      #expect(calc.screen.lines.allSatisfy { $0.count <= 40 })
    }
  }

  @Test func thePromptOnTheBottomRowDoesNotMakeTheScreenJump() throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory, rows: 8)
      for number in 1...4 {
        try calc.type("\(number)+\(number)=\r")
        try calc.wait(for: "line \(number)") {
          $0.screen.lines.last == "calc> " && $0.screen.lines.contains("\(2 * number)")
        }
      }
      // The prompt is on the bottom row but one: the row below it was kept free for the preview.
      let before = calc.screen.lines
      #expect(calc.screen.cursorRow == 6)
      try calc.type("9*9")
      try waitForPreview("9 ×   9", in: calc)
      #expect(calc.screen.cursorRow == 6)
      #expect(Array(calc.screen.lines.dropLast()) == Array(before.dropLast()))
      #expect(calc.screen.lines.last == "calc> 9*9")
    }
  }

  @Test(arguments: [40, 80])
  func nothingIsDrawnPastTheRightEdge(columns: Int) throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory, columns: columns)
      let line = "sci " + (1...30).map(String.init).joined(separator: "+")
      try calc.type(line)
      try calc.wait(for: "the preview") {
        $0.screen.rowsBelowCursor.contains { $0.hasSuffix("  30") }
      }
      let row = calc.screen.rowsBelowCursor.first { !$0.isEmpty }!
      #expect(row.count <= columns - 1, "\(row)")
      #expect(row.hasPrefix("…"))
      // Slider moves: the bar follows the width too.
      try calc.type("\u{15}1+2=\r")
      try calc.wait(for: "the display") { $0.screen.lines.last == "calc> " }
      try calc.type("\u{1B}[1;3D")
      try calc.wait(for: "the slider") {
        $0.screen.rowsBelowCursor.contains { $0.hasSuffix("3/4") }
      }
      #expect(calc.screen.rowsBelowCursor.allSatisfy { $0.count <= columns - 1 })
      // The start-up line, broken at a space at 40 columns; :pad without its outer borders.
      let startup = Array(calc.screen.lines.prefix(2))
      if columns == 40 {
        #expect(
          startup == [
            "calc \(CalcCommand.version) — :help for keys and", "commands, Ctrl-D to leave",
          ])
      } else {
        #expect(
          startup.first
            == "calc \(CalcCommand.version) — :help for keys and commands, Ctrl-D to leave")
      }
      try calc.type("\r:pad\r")
      try calc.wait(for: "the keypad") {
        $0.screen.lines.last == "calc[3/4]> " && $0.screen.lines.contains { $0.contains("MC") }
      }
      let top =
        columns == 40
        ? "───────┬───────┬───────┬───────┬───────" : "┌───────┬───────┬───────┬───────┬───────┐"
      #expect(calc.screen.lines.contains(top), "\(calc.screen.lines)")
      #expect(!calc.screen.lines.contains { ["┐", "│", "┤", "┘"].contains($0) })
    }
  }

  @Test(arguments: [(["--no-journal"], "dumb"), (["--no-journal", "--no-live"], "xterm")])
  func noPreviewOnADumbTerminalOrWithNoLive(arguments: [String], term: String) throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory, arguments: arguments, term: term)
      try calc.type("12+3=")
      try calc.wait(for: "the typed line") { $0.screen.lines.last == "calc> 12+3=" }
      // Time enough for a frame to come.
      try? calc.wait(for: "nothing", timeout: .milliseconds(300)) { _ in false }
      #expect(calc.screen.rowsBelowCursor.allSatisfy { $0.isEmpty })
      #expect(!calc.text.contains("\u{1B}[J"))
      try calc.type("\r")
      try calc.waitForLastLines(["15", "calc> "])
    }
  }

  @Test func ctrlCDuringAPreviewOrScrubbingLeavesTheSessionAsItWas() throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory)
      try calc.type("12+3=\r")
      try calc.waitForLastLines(["15", "calc> "])
      try calc.type("*5")
      try waitForPreview("15 ×   5", in: calc)
      try calc.type("\u{03}")
      try calc.waitForLastLines(["calc> *5^C", "calc> "])
      #expect(calc.screen.rowsBelowCursor.allSatisfy { $0.isEmpty })
      // Scrubbing: each move is a change, like :goto; Ctrl-C drops the typed text only.
      try calc.type("4\u{1B}[1;3D\u{1B}[1;3D")
      try calc.wait(for: "two keys back") { $0.lines.last?.hasPrefix("calc[3/5]> 4") == true }
      try calc.type("\u{03}")
      try calc.waitForLastLines(["calc[3/5]> 4^C", "calc[3/5]> "])
      #expect(calc.screen.rowsBelowCursor.allSatisfy { $0.isEmpty })
      try calc.type(":keys\r")
      try calc.waitForLastLines(["calc[3/5]> :keys", "12+", "calc[3/5]> "])
    }
  }
}

/// SPEC §10's panel and prompt on a real pseudo-terminal: the panel's row under the live row
/// while a line is typed, gone after Enter, and under the display after it.
@Suite struct ProgrammerLivePanelTests {
  @Test func thePanelIsLiveUnderTheLiveRowAndStaysUnderTheDisplay() throws {
    try withTemporaryDirectory { directory in
      try "".write(
        to: directory.appendingPathComponent(".inputrc"), atomically: true, encoding: .utf8)
      let calc = try TerminalSession(
        directory: directory,
        environment: ["HOME": directory.path, "NO_COLOR": "1", "TERM": "xterm"],
        arguments: ["--no-journal", "--mode", "programmer"], columns: 80, rows: 24)
      try calc.wait(for: "a prompt") { $0.screen.lines.last == "calc prog dec> " }
      try calc.type("hex FF")
      try calc.wait(for: "the live row and the panel") {
        Array($0.screen.rowsBelowCursor.prefix(2)) == [
          "FF", "HEX FF  DEC 255  OCT 377  BIN 1111 1111",
        ]
      }
      try calc.type(" rorc")
      try calc.wait(for: "the carry in the panel") {
        Array($0.screen.rowsBelowCursor.prefix(2)) == [
          "RoRC(FF)   7F", "HEX 7F  DEC 127  OCT 177  BIN 0111 1111  carry 1",
        ]
      }
      try calc.type("\r")
      try calc.waitForLastLines([
        "calc prog dec> hex FF rorc", "RoRC(FF)", "7F",
        "HEX 7F  DEC 127  OCT 177  BIN 0111 1111  carry 1", "calc prog hex> ",
      ])
      #expect(calc.screen.rowsBelowCursor.allSatisfy { $0.isEmpty })
    }
  }
}
