import CalcCLI
import CalculatorEngine
import Foundation
import Testing

/// SPEC §4, "Changing the past": `:lines`, `:edit`, `:insert` and `:delete` in process (scripts),
/// the journal, and the REPL's pre-filled `:edit L` on the pseudo-terminal. The model-based
/// property (random sessions with random edits against `SessionModel`) is in `SessionTests`,
/// whose generator makes edits, insertions and deletions; save/load and journal identity after
/// edits are in `SessionScriptTests` and `LineInterpreterTests`, over the same generator.
@Suite struct ChangingThePastTests {
  static let invoice = "100+10=\n*2=\n+5=\n-1=\n*3=\n"

  @Test func linesListsNumberStepKeysAndDisplay() throws {
    try expectScript(
      ["-"], stdin: Self.invoice + ":goto 13\n:lines\n:lines 2\n:lines 2..3\n",
      stdout: "110\n220\n225\n224\n672\n225\n" + """
          line  step  keys     display
             1     1  100+10=  110
             2     8  *2=      220
        ▶    3    11  +5=      225
             4    14  -1=      224  (kept)
             5    17  *3=      672  (kept)
          line  step  keys  display
             4    14  -1=   224  (kept)
             5    17  *3=   672  (kept)
          line  step  keys  display
             2     8  *2=   220
        ▶    3    11  +5=   225

        """)
    try expectScript(["-"], stdin: ":lines\n", stdout: "no lines\n")
  }

  @Test func aForkIsALineBoundary() throws {
    // Branch 2 leaves inside line 1 (at step 2): its first line is `12`, then its own `7=`.
    try expectScript(
      ["-"], stdin: "12+3=\n:goto 2\n7=\n:lines\n",
      stdout: "15\n12\n7\n" + """
          line  step  keys  display
             1     1  12    12
        ▶    2     3  7=    7

        """)
  }

  @Test func editReplaysTheLaterLinesOnANewBranchAndSaysWhatChanged() throws {
    try expectScript(
      ["-"], stdin: Self.invoice + ":edit 1 100+20=\n:branches\n:branch 1\n",
      stdout: "110\n220\n225\n224\n672\n"
        + "branch 2 (from branch 1): line 1 changed; 5 results changed: 110 → 120 (step 7), "
        + "220 → 240 (step 10), 225 → 245 (step 13), … and 2 more\n732\n" + """
            branch  leaves  steps  display  last keys
                 1             19  672      100+10=×2=+5=-1=×3=
          ▶      2  1 at 0     19  732      100+20=×2=+5=-1=×3=
          672

          """)
    // One result: the later lines start calculations of their own.
    try expectScript(
      ["-"], stdin: "1+1=\n5*5=\n:edit 1 1+2=\n",
      stdout:
        "2\n25\nbranch 2 (from branch 1): line 1 changed; 1 result changed: 2 → 3 (step 4)\n25\n")
    // No result: the same display.
    try expectScript(
      ["-"], stdin: "1+1=\n:edit 1 2=\n",
      stdout: "2\nbranch 2 (from branch 1): line 1 changed; no results changed\n2\n")
    // The same keys: nothing changes, no branch.
    try expectScript(
      ["-"], stdin: "1+1=\n:edit 1 1+1=\n:branches\n",
      stdout: "2\nnothing changed\n2\n" + """
          branch  leaves  steps  display  last keys
        ▶      1              4  2        1+1=

        """)
  }

  @Test func insertAndDelete() throws {
    try expectScript(
      ["-"], stdin: Self.invoice + ":insert 2 +1=\n:lines 1..3\n",
      stdout: "110\n220\n225\n224\n672\n"
        + "branch 2 (from branch 1): line 2 inserted; 4 results changed: 220 → 222 (step 13), "
        + "225 → 227 (step 16), 224 → 226 (step 19), … and 1 more\n678\n" + """
            line  step  keys     display
               1     1  100+10=  110
               2     8  +1=      111
               3    11  *2=      222

          """)
    // At n+1: the branch grows, like typing at its end.
    try expectScript(
      ["-"], stdin: "1+1=\n:goto 0\n:insert 2 *3=\n:branches\n",
      stdout: "2\n0\nline 2 inserted at the end of branch 1\n6\n" + """
          branch  leaves  steps  display  last keys
        ▶      1              7  6        1+1=×3=

        """)
    try expectScript(
      ["-"], stdin: Self.invoice + ":delete 2\n",
      stdout: "110\n220\n225\n224\n672\n"
        + "branch 2 (from branch 1): line 2 deleted; 3 results changed: 225 → 115 (step 10), "
        + "224 → 114 (step 13), 672 → 342 (step 16)\n342\n")
    // The last line: back to where it starts, its keys kept, like :undo.
    try expectScript(
      ["-"], stdin: Self.invoice + ":delete 5\n:redo\n",
      stdout: "110\n220\n225\n224\n672\n"
        + "line 5 deleted: back to step 16, its keys kept as the future (like :undo)\n224\n672\n")
  }

  @Test func errorsNameTheLineAndChangeNothing() throws {
    try expectScript(
      ["-"], stdin: "1+1=\n:edit 3 5=\n", stdout: "2\n",
      stderr: "<stdin>:2:7: no line 3 (this branch has line 1)\n", status: 65)
    try expectScript(
      ["--keep-going", "-"],
      stdin:
        "1+1=\n5=\n:edit 0 5=\n:delete 9\n:insert 4 1=\n:edit 1\n:edit 1 5x\n:insert 1\n:keys\n",
      stdout: "2\n6\n1+1=\n5=\n",
      stderr: "<stdin>:3:7: no line 0 (lines: 1…2)\n"
        + "<stdin>:4:9: no line 9 (lines: 1…2)\n"
        + "<stdin>:5:9: cannot insert before line 4: the lines are 1…2, and 3 adds one at the end\n"
        + "<stdin>:6:8: :edit 1 needs the line's keys after the number: :edit 1 12+4= (or :delete 1)\n"
        + "<stdin>:7:10: unknown key 'x' at column 10 (× is '*')\n"
        + "<stdin>:8:10: :insert 1 needs the line's keys after the number: :insert 1 12+4=\n",
      status: 65)
  }

  /// The journal records the command; `--resume` replays it to the same branches.
  @Test func aJournalWithEditsResumes() throws {
    try withTemporaryDirectory { directory in
      let folder = directory.appendingPathComponent("calc").path
      let journal = try #require(Journal(directory: folder) { Issue.record("\($0)") })
      var interpreter = LineInterpreter(
        context: .init(format: .plain),
        host: .init(journalDirectory: folder, ownJournal: journal.path))
      for line in [
        "100+10=", "*2=", "+5=", ":edit 1 100+20=", ":insert 2 +1=", ":delete 3", ":goto 5",
      ] {
        let result = try interpreter.run(line, output: OutputBuffer())
        if let effect = result.effect { #expect(journal.record([effect])) }
      }
      journal.close()
      let text = JournalIntegrityTests.strippingChecksums(
        try String(contentsOfFile: journal.path, encoding: .utf8))
      #expect(
        text == Journal.header
          + "\n100+10=\n*2=\n+5=\n:edit 1 100+20=\n:insert 2 +1=\n:delete 3\n:goto 5\n")
      let resumed = try ResumedSession(journal: journal.path)
      #expect(resumed.damage == nil)
      #expect(
        SessionScript.text(of: resumed.session.history)
          == SessionScript.text(of: interpreter.session.history))
      #expect(resumed.session.state == interpreter.session.state)
      #expect(resumed.session.history.branchCount == 4)
    }
  }

  /// SPEC §4 in the REPL: `:edit L` alone puts line L on the input line; Enter applies the
  /// edit, Ctrl-C leaves the line as it was, and an emptied line deletes it.
  @Test func theReplPrefillsALineToEdit() throws {
    try withTemporaryDirectory { directory in
      try "".write(
        to: directory.appendingPathComponent(".inputrc"), atomically: true, encoding: .utf8)
      let calc = try TerminalSession(
        directory: directory,
        environment: ["HOME": directory.path, "NO_COLOR": "1"], arguments: ["--no-journal"])
      try calc.wait(for: "a prompt") { $0.lines.last == "calc> " }
      try calc.type("1000+645=\r")
      try calc.waitForLastLines(["calc> 1000+645=", "1,000 + 645 =", "1,645", "calc> "])
      try calc.type("*12=\r")
      try calc.waitForLastLines(["calc> *12=", "1,645 × 12 =", "19,740", "calc> "])
      try calc.type(":edit 1\r")
      try calc.waitForLastLines(["calc> :edit 1", "edit line 1> 1000+645="])
      try calc.type("\u{7F}\u{7F}4=\r")
      try calc.waitForLastLines(["1,644 × 12 =", "19,728", "calc b2> "])
      // The report is wider than the screen's 100 columns: it is broken at a space, its rows
      // after the first indented (SPEC §6).
      #expect(
        Array(calc.lines.suffix(5).prefix(2)) == [
          "branch 2 (from branch 1): line 1 changed; 2 results changed: 1,645 → 1,644 (step 9), "
            + "19,740 → 19,728",
          "  (step 13)",
        ], "\(calc.lines)")
      // Ctrl-C: the line stays as it was.
      try calc.type(":edit 2\r")
      try calc.waitForLastLines(["calc b2> :edit 2", "edit line 2> *12="])
      try calc.type("\u{03}")
      try calc.wait(for: "the line left as it was and a prompt") { calc in
        calc.lines.contains("line 2 left as it was") && calc.lines.last == "calc b2> "
      }
      // An emptied line deletes it: the last line, so the position goes back.
      try calc.type(":edit 2\r")
      try calc.waitForLastLines(["calc b2> :edit 2", "edit line 2> *12="])
      try calc.type("\u{15}\r")
      try calc.waitForLastLines([
        "edit line 2>",
        "line 2 deleted: back to step 9, its keys kept as the future (like :undo)",
        "1,000 + 644 =", "1,644", "calc b2[9/13]> ",
      ])
      try calc.type(":quit\r")
      #expect(try calc.waitForExit() == 0)
    }
  }
}
