import CalcDecimal
import CalculatorEngine
import Foundation
import Testing

@testable import CalcCLI
@testable import CalcCore

#if canImport(Glibc)
  import Glibc
#endif

/// SPEC §6 at narrow widths, in process: listings drop columns in order (keys or expression,
/// then step) and show a display still too wide in scientific notation, never cut; messages
/// break at spaces; the prompt takes at most a third of the width.
@Suite struct NarrowWidthTests {
  private func interpreter(_ lines: [String]) throws -> LineInterpreter {
    // As at the REPL: the expression line above the display.
    var interpreter = LineInterpreter(
      context: LineInterpreter.Context(
        format: DisplayFormat(localeIdentifier: "en_US"), showsExpression: true))
    for line in lines { try interpreter.run(line, output: OutputBuffer()) }
    return interpreter
  }

  /// What `command` prints on a terminal `columns` wide after `session`, line by line.
  private func lines(_ command: String, columns: Int, session: [String] = session) throws
    -> [String]
  {
    var interpreter = try interpreter(session)
    let output = OutputBuffer()
    output.columns = columns
    try interpreter.run(command, output: output)
    return output.text.split(separator: "\n").map(String.init)
  }

  /// A 37-column display (wider than 40 columns allow beside the line number), a 40-digit
  /// one, and small ones.
  static let session = [
    "12345678901234*98765432109876=", "*1000000000000=", "1+2+3+4+5+6+7+8+9+10+11=", "ms",
  ]

  @Test func linesKeepTheirDisplayColumn() throws {
    // 60 columns: the keys are cut shorter, the step stays.
    #expect(
      try lines(":lines", columns: 60) == [
        "  line  step  keys     display",
        "     1     1  123456…  1,219,326,311,370,155,158,039,986,984",
        "     2    31  *10000…  1.21932631E39",
        "     3    46  1+2+3+…  66",
        "▶    4    70  ms       66",
      ])
    // 40 columns: the keys go, then the step; the widest display in scientific notation.
    #expect(
      try lines(":lines", columns: 40) == [
        "  line  display",
        "     1  1.21932631E27",
        "     2  1.21932631E39",
        "     3  66",
        "▶    4  66",
      ])
    // Where the keys alone make room, the step stays.
    #expect(
      try lines(":lines", columns: 40, session: ["1+2+3+4+5+6+7+8+9+10+11+12+13+14=", "*2="])
        == [
          "  line  step  keys               display",
          "     1     1  1+2+3+4+5+6+7+8+…  105",
          "▶    2    34  *2=                210",
        ])
  }

  @Test func tapeShortensTheExpressionThenDropsItThenTheStep() throws {
    let rows = try lines(":tape", columns: 40)
    #expect(
      Array(rows.prefix(3)) == [
        // Step and result (41 columns) do not fit: the result alone, whole.
        "1,219,326,311,370,155,158,039,986,984",
        "45  …× 1,000,000,000,000 = 1.21932631E39",
        "49  1 + 2 = 3",
      ])
    #expect(rows.last == "70  MS 66")
    #expect(rows.allSatisfy { Terminal.visibleWidth(of: $0) <= 40 }, "\(rows)")
  }

  @Test(arguments: [40, 60])
  func historyAndBranchesKeepTheirDisplay(columns: Int) throws {
    for command in [":history", ":branches", ":history 45"] {
      let rows = try lines(command, columns: columns)
      #expect(rows.allSatisfy { Terminal.visibleWidth(of: $0) <= columns }, "\(rows)")
      #expect(!rows.contains { $0.contains("…") && $0.hasSuffix("…") && command != ":branches" })
    }
    let history = try lines(":history 30..31", columns: 40)
    #expect(history.contains("  =    1.21932631E27"), "\(history)")
    #expect(history.first == "  key  display")
  }

  @Test func aDisplayTooWideIsShownInScientificNotation() {
    let format = DisplayFormat(localeIdentifier: "en_US")
    let value = Decimal34(coefficient: 9_999_999_999_999_999_999_999_999_999, exponent: 0)
    let cases: [(Int, String)] = [
      (40, "9,999,999,999,999,999,999,999,999,999"), (20, "1E28"), (5, "1E28"),
    ]
    for (width, expected) in cases {
      #expect(Listing.fitted(.value(Number(value)), format: format, width: width) == expected)
    }
    let pi = Decimal34(coefficient: 3_141_592_653_589_793_238_462_643_383_279, exponent: -2)
    let fitted: [(Int, String)] = [
      (14, "3.14159265E28"), (10, "3.14159E28"), (6, "3.1E28"), (4, "3E28"),
    ]
    for (width, expected) in fitted {
      #expect(Listing.fitted(.value(Number(pi)), format: format, width: width) == expected)
    }
  }

  @Test func messagesBreakAtSpacesNotInNumbers() throws {
    #expect(
      try lines(":edit 3 2*3=", columns: 40) == [
        "branch 2 (from branch 1): line 3",
        "  changed; 2 results changed: 66 → 6",
        "  (step 49), 66 → 6 (step 50)",
        "2 × 3 =",
        "6",
      ])
    // The expression line above the display too.
    #expect(
      try lines("*98765432109876=", columns: 40, session: ["12345678901234"]) == [
        "12,345,678,901,234 × 98,765,432,109,876", "=", "1,219,326,311,370,155,158,039,986,984",
      ])
    // A word longer than the row is left whole for the terminal to wrap, never cut.
    let long = "error: " + String(repeating: "9", count: 45) + " is too long"
    #expect(
      Terminal.message(long, width: 40)
        == "error:\n" + String(repeating: "9", count: 45) + "\nis too long")
    #expect(Terminal.message(long, width: nil) == long)
  }

  @Test func afterAResizeThePromptsRowIsFoundWhereTheTerminalPutIt() {
    // (row, column, old width, new width, reflows) → rows up to the prompt's.
    let cases: [(Int, Int, Int, Int, Bool, Int)] = [
      (1, 5, 60, 30, true, 2), (1, 5, 60, 80, true, 0), (0, 20, 40, 10, true, 2),
      (1, 5, 60, 30, false, 1), (1, 5, 60, 80, false, 1), (0, 20, 40, 10, false, 0),
    ]
    for (row, column, old, new, reflows, expected) in cases {
      #expect(
        Terminal.rowsAboveCursorAfterResize(
          row: row, column: column, from: old, to: new, reflows: reflows) == expected)
    }
    let environments: [([String: String], Bool)] = [
      (["TMUX": "/tmp/tmux-0/default,1,0"], true), (["VTE_VERSION": "7600"], true),
      (["TERM_PROGRAM": "iTerm.app"], true), (["TERM_PROGRAM": "other"], false),
      (["XTERM_VERSION": "XTerm(390)"], false), (["TMUX": ""], false), ([:], false),
    ]
    for (environment, expected) in environments {
      #expect(Terminal.reflows { environment[$0] } == expected, "\(environment)")
    }
  }

  @Test func thePromptTakesAtMostAThirdOfTheWidth() throws {
    // Step 3 of 10, with the memory set and, after a branch, step 4 of branch 2.
    let atThree = try interpreter(["5", "ms", "12+3=", "*2=", ":goto 3"])
    let onBranch = try interpreter(["5", "ms", "12+3=", "*2=", ":goto 3", "7=", ":goto 4"])
    let plain = try interpreter(["12+3=", "*2=", ":goto 3"])
    let cases: [(LineInterpreter, Int?, String)] = [
      (atThree, nil, "calc[3/10] M> "), (atThree, 42, "calc[3/10] M> "),
      (atThree, 41, "[3/10] M> "), (atThree, 27, "[3] M> "), (atThree, 12, "[3] M> "),
      (onBranch, 80, "calc b2[4/5] M> "), (onBranch, 47, "b2[4/5] M> "),
      (onBranch, 32, "b2[4] M> "), (plain, 36, "calc[3/8]> "), (plain, 30, "[3/8]> "),
      (plain, 20, "[3]> "),
    ]
    for (interpreter, columns, expected) in cases {
      #expect(Prompt.text(for: interpreter, columns: columns) == expected, "\(columns ?? 0)")
    }
  }
}

/// SPEC §6 on a pseudo-terminal: the screen is always right — Ctrl-L, input that wraps onto
/// the live row — with and without the live display.
@Suite struct ScreenIsAlwaysRightTests {
  private func startCalc(in directory: URL, live: Bool, columns: Int, rows: Int) throws
    -> TerminalSession
  {
    try "".write(
      to: directory.appendingPathComponent(".inputrc"), atomically: true, encoding: .utf8)
    let calc = try TerminalSession(
      directory: directory,
      environment: ["HOME": directory.path, "NO_COLOR": "1", "TERM": "xterm"],
      arguments: ["--no-journal"] + (live ? [] : ["--no-live"]), columns: columns, rows: rows)
    try calc.wait(for: "a prompt") { $0.screen.lines.last == "calc> " }
    return calc
  }

  /// `text` in rows of `columns`, as the terminal wraps it.
  private func rows(_ text: String, columns: Int) -> [String] {
    stride(from: 0, to: text.count, by: columns).map { start in
      String(text.dropFirst(start).prefix(columns))
    }
  }

  /// Types `keys` one at a time, each once the one before has been drawn.
  private func typeSlowly(_ keys: String, into calc: TerminalSession) throws {
    for key in keys {
      let count = calc.output.count
      try calc.type(String(key))
      try calc.wait(for: "the echo of \(key)") { $0.output.count > count }
    }
  }

  /// Ctrl-L clears the screen and draws the prompt, the line (wrapped or not) and the live
  /// row at the top; later keys land where they belong, and Enter gives the usual output.
  @Test(arguments: [40, 80], [true, false])
  func ctrlLClearsTheScreenAndRedrawsTheLine(columns: Int, live: Bool) throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory, live: live, columns: columns, rows: 10)
      try calc.type("12+3=\r")
      try calc.waitForLastLines(["15", "calc> "])
      for line in ["7*6", "1+2+3+4+5+6+7+8+9+10+11+12+13+14+15+16"] {
        try calc.type(line)
        let preview = line == "7*6" ? "7 ×   6" : "120 +   16"
        if live {
          try calc.wait(for: "the live row") { $0.screen.rowsBelowCursor.first == preview }
        }
        try calc.type("\u{0C}")
        let input = rows("calc> " + line, columns: columns)
        let top = input + (live ? [preview] : [])
        try calc.wait(for: "the cleared screen") {
          $0.screen.screenRows == top + Array(repeating: "", count: 10 - top.count)
        }
        #expect(calc.screen.cursorRow == input.count - 1)
        try calc.type("+1\u{0C}=\r")
        let result = line == "7*6" ? ["42 + 1 =", "43"] : ["136 + 1 =", "137"]
        let after = rows("calc> " + line + "+1=", columns: columns) + result + ["calc>"]
        try calc.wait(for: "the line's output") {
          Array($0.screen.screenRows.prefix(after.count)) == after
        }
        #expect(calc.screen.screenRows.dropFirst(after.count).allSatisfy { $0.isEmpty })
        try calc.type("\u{0C}")
        try calc.wait(for: "a prompt alone") { $0.screen.screenRows.first == "calc>" }
      }
      #expect(calc.screen.scrollback.isEmpty)
      try calc.type(":quit\r")
      #expect(try calc.waitForExit() == 0)
    }
  }

  /// After a resize the prompt and the slider's bar are drawn again for the new width: the
  /// prompt within a third of it, the bar within the row.
  @Test func aResizeRedrawsThePromptAndTheSliderBarForTheNewWidth() throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory, live: true, columns: 100, rows: 10)
      try calc.type((1...30).map(String.init).joined(separator: "+") + "=\r")
      try calc.waitForLastLines(["465", "calc> "])
      try calc.type("\u{1B}[1;3D")  // Alt-←
      let wide = "[" + String(repeating: "━", count: 59) + "●─] 80/81"
      try calc.wait(for: "the bar") { $0.screen.rowsBelowCursor.prefix(2) == ["435 +   30", wide] }
      #expect(calc.lines.last == "calc[80/81]> ")
      try calc.resize(columns: 36, rows: 10)
      let narrow = "[" + String(repeating: "━", count: 26) + "●] 80/81"
      try calc.wait(for: "the bar for 36 columns") {
        $0.screen.rowsBelowCursor.prefix(2) == ["435 +   30", narrow]
      }
      #expect(calc.lines.last == "[80/81]> ")
      try calc.type("\r")
      try calc.waitForLastLines(["[80/81]>", "435 +", "30", "[80/81]> "])
      #expect(calc.screen.rowsBelowCursor.allSatisfy { $0.isEmpty })
    }
  }

  /// Ctrl-Z erases the live row before calc stops (the shell's message and the scrollback do
  /// not get it); when calc goes on, the prompt, the line and the live row are drawn again.
  @Test func ctrlZErasesTheLiveRowAndContinuingDrawsItAgain() throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory, live: true, columns: 40, rows: 10)
      try calc.type("12+3")
      try calc.wait(for: "the live row") { $0.screen.rowsBelowCursor.first == "12 +   3" }
      try calc.type("\u{1A}")
      try calc.wait(for: "the live row erased") {
        $0.screen.rowsBelowCursor.allSatisfy { $0.isEmpty } && $0.lines.last == "calc> 12+3^Z"
      }
      // calc leads a session of its own here, an orphaned process group, where the system
      // does not stop it; SIGCONT is what `fg` would send.
      kill(calc.pid, SIGCONT)
      try calc.wait(for: "the line and the live row drawn again") {
        $0.lines.last == "calc> 12+3" && $0.screen.rowsBelowCursor.first == "12 +   3"
      }
      try calc.type("=\r")
      try calc.waitForLastLines(["calc> 12+3=", "12 + 3 =", "15", "calc> "])
      #expect(!calc.lines.contains { $0.contains("^Z") })
    }
  }

  /// Lines longer than the width, typed a key at a time so that each wraps onto the row where
  /// the live row was, leave the screen and the scrollback exactly as without the live display.
  @Test(arguments: [40, 80])
  func aLineThatWrapsOntoTheLiveRowLeavesNothingStale(columns: Int) throws {
    let lines = [
      (1...(columns / 2)).map(String.init).joined(separator: "+") + "=",
      String(repeating: "12345678+", count: columns / 9 + 1) + "1=",
      "*" + String(repeating: "9", count: 20) + "+" + String(repeating: "1", count: columns),
    ]
    var screens: [[String]] = []
    for live in [true, false] {
      try withTemporaryDirectory { directory in
        let calc = try startCalc(in: directory, live: live, columns: columns, rows: 6)
        for line in lines {
          // The part that fits on the prompt's row at once, the rest a key at a time.
          let first = columns - 6 - 3
          try calc.type(String(line.prefix(first)))
          try calc.wait(for: "the echo") {
            $0.screen.lines.last?.hasSuffix(line.prefix(first)) == true
          }
          try typeSlowly(String(line.dropFirst(first)), into: calc)
          try calc.type("\r")
          try calc.wait(for: "the next prompt") { $0.screen.lines.last == "calc> " }
        }
        #expect(calc.screen.rowsBelowCursor.allSatisfy { $0.isEmpty })
        screens.append(calc.screen.scrollback + calc.screen.screenRows)
        try calc.type(":quit\r")
        #expect(try calc.waitForExit() == 0)
      }
    }
    try #require(screens.count == 2)
    #expect(screens[0] == screens[1])
    // Every row is one of the lines' own: the input's rows, or an output row.
    #expect(screens[1].contains(rows("calc> " + lines[0], columns: columns)[1]))
  }
}

/// SPEC §6 in a real tmux, which rewraps its lines when the window's width changes and keeps
/// what a clear of the screen removes in its scrollback: a resize and Ctrl-L leave no stale
/// text there either.
@Suite(
  .enabled(
    if: TmuxServer.isAvailable,
    "tmux is not installed (apt-get install tmux): the screen in tmux is unchecked"))
struct ScreenInARealTmuxTests {
  @Test func resizesAndCtrlLLeaveNoStaleTextInTheScrollback() throws {
    try withTemporaryDirectory { directory in
      let server = try TmuxServer(
        in: directory, columns: 60, rows: 12,
        command: "env HOME='\(directory.path)' TERM=xterm NO_COLOR=1 "
          + "'\(CalcProcess.binary.path)' --no-journal")
      defer { server.stop() }
      let tmuxCommand = server.run
      /// The pane's lines, the scrollback first, trailing blanks and empty lines at the end
      /// dropped, once `condition` holds of them (or after five seconds).
      func pane(until condition: ([String]) -> Bool) throws -> [String] {
        var lines: [String] = []
        for _ in 0..<100 {
          let text = try tmuxCommand(["capture-pane", "-p", "-S", "-"]).stdout
          lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.reversed().drop { $0 == " " }.reversed())
          }
          while lines.last == "" { lines.removeLast() }
          if condition(lines) { break }
          usleep(50_000)
        }
        return lines
      }
      let line = (1...23).map(String.init).joined(separator: "+")
      _ = try pane { $0.last == "calc>" }
      _ = try tmuxCommand(["send-keys", "1+2=", "Enter"])
      _ = try pane { $0.last == "calc>" && $0.contains("3") }
      _ = try tmuxCommand(["send-keys", line])
      _ = try pane { $0.last == "253 +   23" }
      let terminal = try tmuxCommand(["display-message", "-p", "#{pane_tty}"]).stdout
      let paneTerminal = open(
        String(terminal.prefix { $0 != "\n" }), O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
      try #require(paneTerminal >= 0, "the pane's terminal \(terminal)")
      defer { close(paneTerminal) }
      for width in [30, 80] {
        _ = try tmuxCommand(["resize-window", "-x", "\(width)"])
        // tmux tells the pane of a resize after a delay of its own (about 250 ms); a key that
        // arrives before that is read in the old width. Wait until the pane's terminal has the
        // new width (calc gets SIGWINCH then), and a little for calc to redraw.
        var size = winsize()
        for _ in 0..<500 {
          if ioctl(paneTerminal, UInt(TIOCGWINSZ), &size) == 0, Int(size.ws_col) == width { break }
          usleep(10_000)
        }
        #expect(Int(size.ws_col) == width, "the pane's terminal is \(size.ws_col) wide")
        usleep(100_000)
        let lines = try pane { $0.filter { $0.hasPrefix("calc> 1+2+3") }.count == 1 }
        #expect(lines.filter { $0.hasPrefix("calc> 1+2+3") }.count == 1, "\(width): \(lines)")
        // The output above the prompt is all there.
        #expect(lines.contains("3") && lines.contains("1 + 2 ="), "\(width): \(lines)")
      }
      _ = try tmuxCommand(["send-keys", "C-l"])
      _ = try pane { $0.first == REPL.startupLine && $0.last == "253 +   23" }
      _ = try tmuxCommand(["send-keys", "Enter"])
      let final = try pane { $0.last == "calc>" && $0.contains("23") }
      #expect(
        final == [
          REPL.startupLine, "calc> 1+2=", "1 + 2 =", "3", "calc> " + line, "253 +", "23", "calc>",
        ])
    }
  }
}
