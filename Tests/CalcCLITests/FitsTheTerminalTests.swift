import CalculatorEngine
import Foundation
import Testing

@testable import CalcCLI
@testable import CalcCore

/// SPEC §6: everything calc draws fits the terminal's width — `:pad`, `:help` (wrapped at word
/// boundaries), the start-up line, listings (cut with `…`) — at 40 columns or more.
@Suite struct FitsTheTerminalTests {
  /// A session with long expression lines, two branches, memory and both modes.
  private func interpreter(
    _ lines: [String] = [long, "ms", "std", "12+3=", "*2=", ":goto 3", "7*8="]
  ) throws -> LineInterpreter {
    var interpreter = LineInterpreter(format: DisplayFormat(localeIdentifier: "en_US"))
    for line in lines {
      try interpreter.run(line, output: OutputBuffer())
    }
    return interpreter
  }

  static let long = "sci " + (1...30).map(String.init).joined(separator: "+") + "="

  /// The lines `command` prints on a terminal `columns` wide after `session`.
  private func lines(
    _ command: String, columns: Int, mode: String? = nil, session: [String]? = nil
  ) throws -> [String] {
    var interpreter = try session.map { try self.interpreter($0) } ?? self.interpreter()
    if let mode { try interpreter.run(mode, output: OutputBuffer()) }
    let output = OutputBuffer()
    output.columns = columns
    try interpreter.run(command, output: output)
    return output.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  @Test(arguments: [40, 52, 80])
  func everyCommandFits(columns: Int) throws {
    for command in [":pad", ":help", ":history", ":lines", ":branches", ":tape", ":history 3"] {
      for mode in [nil, "sci", "prog 5~ rorc", "fx", "date"] {
        for line in try lines(command, columns: columns, mode: mode) {
          #expect(Terminal.visibleWidth(of: line) <= columns, "\(command): \(line)")
        }
      }
    }
  }

  @Test func historyKeepsTheDisplayAndShortensTheExpressionFromTheLeft() throws {
    let rows = try lines(":history 3", columns: 40, session: [Self.long])
    // The last three steps of branch 1 (the long Scientific line): its end, with the display.
    #expect(rows.contains { $0.hasSuffix("+ 29 + 30 =  465") && $0.contains("…") }, "\(rows)")
  }

  @Test func padLosesItsOuterBordersBelow41Columns() throws {
    let wide = try lines(":pad", columns: 41)
    #expect(wide.first?.hasPrefix("┌") == true)
    let narrow = try lines(":pad", columns: 40)
    #expect(narrow.first?.hasPrefix("─") == true)
    #expect(narrow.dropLast().allSatisfy { $0.count == 39 }, "\(narrow)")
  }

  /// Formula and date mode's `:pad` cards (and their `:help` topics) put each meaning under its
  /// form when the aligned column does not fit, and never break a word.
  @Test(arguments: [
    ("fx", ":pad"), ("date", ":pad"), ("fx", ":help formulas"), ("date", ":help dates"),
  ])
  func cardsKeepWordsWhole(mode: String, command: String) throws {
    let words = { (rows: [String]) in
      Set(rows.flatMap { $0.split(separator: " ").map(String.init) })
    }
    let wide = try lines(command, columns: 200, mode: mode)
    for columns in [40, 52] {
      let narrow = try lines(command, columns: columns, mode: mode)
      #expect(words(narrow) == words(wide), "\(command) at \(columns): \(narrow)")
    }
    let card = try lines(":pad", columns: 40, mode: mode)
    #expect(card.contains { $0.hasPrefix("      ") }, "meanings under their forms: \(card)")
    let aligned = try lines(":pad", columns: 80, mode: mode)
    #expect(
      !aligned.contains { $0.hasPrefix("      ") && !$0.hasPrefix("           ") }, "\(aligned)")
  }

  @Test func helpIsWrappedAtWordBoundaries() throws {
    let help = try lines(":help", columns: 40)
    #expect(help.contains("  :history [K|N..M]"))
    #expect(help.contains("      list this branch's steps: all, the"))
    #expect(help.contains("      last K, or N to M"))
    // At 80 columns the summaries line up after the usages, as before.
    let wide = try lines(":help", columns: 80)
    #expect(wide.contains { $0.hasPrefix("  :goto N|+K|-K") && $0.contains("move to step N") })
  }

  @Test func cutAndWrapKeepColoursAndCountCharacters() {
    #expect(Terminal.cut("abcdef", width: 4) == "abc…")
    #expect(Terminal.cut("abc", width: 4) == "abc")
    #expect(Terminal.cut("\u{1B}[2mabcdef\u{1B}[22m", width: 4) == "\u{1B}[2mabc…\u{1B}[0m")
    #expect(Terminal.cut("15 × 2 = 30", width: 6) == "15 × …")
    #expect(Terminal.wrapped("aa bb  cc dd", width: 9) == "aa bb  cc\ndd")
    #expect(Terminal.wrapped("  aa bb cc dd", width: 9) == "  aa bb\n  cc dd")
    #expect(
      Terminal.wrapped(REPL.startupLine, width: 40)
        == "calc \(CalcCommand.version) — :help for keys and\ncommands, Ctrl-D to leave")
  }
}
