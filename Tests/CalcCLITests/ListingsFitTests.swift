import CalculatorEngine
import Foundation
import Testing

@testable import CalcCLI
@testable import CalcCore

/// Issue 45 (SPEC v5 §6): every listing fits from 40 columns — `:vary` keeps every result whole
/// (blocks of `label: value` lines when its table does not fit), `:branches` keeps its last
/// column, `:find`'s columns are aligned under a header that names the note column, and
/// `:help`'s and the `:edit` report's wrapped text is indented under its column. The REPL runs
/// in process at 40, 60 and 80 columns, and what it writes goes through the screen emulator:
/// a row wider than the terminal would wrap there, and the screen would not show the rows calc
/// wrote.
@Suite struct ListingsFitTests {
  static let session = [
    "1200+350+89=  # rent, March", "*12=  # a year", ":vary 1 1300+350+89= | 1400+350+89=",
    ":goto 5", "2=", ":branches", ":find 1,639", ":find rent", ":edit 1 1250+350+89=",
  ]

  /// The REPL's output for `lines` at `columns`, and the screen's rows for it.
  static func run(_ lines: [String], columns: Int) -> (rows: [String], screen: [String]) {
    let run = REPLInProcessTests.run(lines, terminalSize: (rows: 200, columns: columns))
    var screen = TerminalScreen(columns: columns, rows: 400)
    // The terminal driver turns each newline into a carriage return and a newline.
    screen.feed(Array(run.output.replacingOccurrences(of: "\n", with: "\r\n").utf8))
    let rows = run.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    return (rows, screen.lines)
  }

  @Test(arguments: [40, 60, 80]) func listingsFitAndKeepTheirNumbersWhole(columns: Int) {
    let (rows, screen) = Self.run(Self.session, columns: columns)
    // Nothing wrapped on the screen: every row is as calc wrote it.
    #expect(screen == rows, "\(columns) columns")
    for row in rows { #expect(Terminal.visibleWidth(of: row) <= columns, "\(row)") }
    // :vary: every result whole.
    for value in ["1,639", "19,668", "1,739", "20,868", "1,839", "22,068"] {
      #expect(rows.contains { $0.contains(value) }, "\(value) at \(columns)")
    }
    if columns < 45 {
      #expect(
        rows.contains("▶ branch 1") && rows.contains("    line 1: 1200+350+89=")
          && rows.contains("    after 2: 19,668"), "\(rows)")
    } else {
      #expect(rows.contains("▶      1  1200+350+89=    1,639     19,668"), "\(rows)")
    }
    // :branches: its last column stays, cut from the left so that the last keys show.
    let branches = rows.firstIndex { $0.hasPrefix("  branch  leaves") }
    #expect(branches != nil)
    if let branches {
      #expect(rows[branches].hasSuffix(columns < 45 ? "keys" : "last keys"), "\(rows[branches])")
      #expect(rows[branches + 4].hasSuffix(columns < 45 ? "…00+2=" : "1200+2="))
    }
    // :find: a header names every column shown, the note's too where it fits; aligned.
    let found = rows.indices.filter { rows[$0].hasPrefix("  branch  line  step  keys") }
    #expect(found.count == 2)
    if let first = found.first {
      let header = rows[first]
      #expect(header.contains("display"))
      #expect(header.hasSuffix("note") == (columns >= 45), "\(header)")
      let displayColumn = header.range(of: "display").map {
        header.distance(from: header.startIndex, to: $0.lowerBound)
      }
      // Each display starts under its header.
      for row in rows[(found[1] + 1)...(found[1] + 3)] {
        let value = row.range(of: "1,")!
        #expect(row.distance(from: row.startIndex, to: value.lowerBound) == displayColumn, "\(row)")
      }
    }
    // The :edit report: its rows after the first indented under its column.
    let report = rows.firstIndex { $0.hasPrefix("branch 5 (from branch 4):") }
    #expect(report != nil)
    if let report, Terminal.visibleWidth(of: rows[report]) > columns - 20 {
      #expect(rows[report + 1].hasPrefix("  ") && !rows[report + 1].hasPrefix("   "))
    }
  }

  @Test(arguments: [40, 60, 80]) func helpWrapsUnderItsColumn(columns: Int) {
    for mode in ["std", "sci", "prog"] {
      let (rows, screen) = Self.run(
        [mode, ":help", ":help ledger", ":help edit"], columns: columns)
      #expect(screen == rows, "\(mode) at \(columns) columns")
      // A wrapped row of the keys' paragraph goes on under the column after `Keys:`.
      if let keys = rows.firstIndex(where: { $0.hasPrefix("Keys:   ") }) {
        var index = keys + 1
        while index < rows.count, !rows[index].isEmpty, !rows[index].hasPrefix("Notes:") {
          #expect(
            rows[index].hasPrefix("        ") || rows[index].hasSuffix(":"),
            "\(mode) at \(columns): \(rows[index])")
          index += 1
        }
      } else {
        Issue.record("no Keys: paragraph in \(rows)")
      }
      // The commands' summaries: at 80 columns beside their usage, below it when narrower.
      if columns < 80 {
        #expect(rows.contains("  :goto N|+K|-K"))
        #expect(rows.contains { $0.hasPrefix("      move to step N") })
      } else {
        #expect(rows.contains { $0.hasPrefix("  :goto N|+K|-K      move to step N") })
      }
    }
  }

  /// The same at a real terminal: calc on a pseudo-terminal 40 columns wide, with readline, and
  /// the screen emulator; `:vary` keeps its results whole there too.
  @Test func varyAtAFortyColumnTerminal() throws {
    try withTemporaryDirectory { directory in
      let calc = try TerminalSession(
        directory: directory,
        environment: ["HOME": directory.path, "NO_COLOR": "1", "PAGER": ""],
        arguments: ["--no-journal", "--no-live"], columns: 40, rows: 30)
      try calc.wait(for: "a prompt") { $0.lines.last == "calc> " }
      try calc.type("1200+350+89=\r")
      try calc.waitForLastLines(["1,639", "calc> "])
      try calc.type("*12=\r")
      try calc.waitForLastLines(["19,668", "calc> "])
      try calc.type(":vary 1 1300+350+89= | 1400+350+89=\r")
      try calc.waitForLastLines([
        "▶ branch 1", "    line 1: 1200+350+89=", "    after 1: 1,639", "    after 2: 19,668",
        "  branch 2", "    line 1: 1300+350+89=", "    after 1: 1,739", "    after 2: 20,868",
        "  branch 3", "    line 1: 1400+350+89=", "    after 1: 1,839", "    after 2: 22,068",
        "calc b1> ",
      ])
      try calc.type(":quit\r")
      #expect(try calc.waitForExit() == 0)
    }
  }
}
