import Foundation
import Testing

/// The history commands (SPEC §4, §6), with scripts on standard input in process (``InProcess``),
/// in a folder of the test's own where files are named relative to the current directory.
@Suite struct TimeTravelCommandTests {
  /// `:history` of `98-3+2*4=` at step 7: the spec's `98-3+2×4` example, with two kept keys.
  static let history98 = """
      step  key  expression  display
         0                   0
         1  9                9
         2  8                98
         3  -    98 -        98
         4  3    98 -        3
         5  +    95 +        95
         6  2    95 +        2
    ▶    7  ×    97 ×        97
         8  4    97 ×        4        (kept)
         9  =    97 × 4 =    388      (kept)
    [━━━━━━━●──] 7/9

    """

  /// `:history` of `12+3=4*2=` at step 5.
  static let history12 = """
      step  key  expression  display
         0                   0
         1  1                1
         2  2                12
         3  +    12 +        12
         4  3    12 +        3
    ▶    5  =    12 + 3 =    15
         6  4                4        (kept)
         7  ×    4 ×         4        (kept)
         8  2    4 ×         2        (kept)
         9  =    4 × 2 =     8        (kept)
    [━━━━━●────] 5/9

    """

  /// The note that `98-3+2*4=`, the first such line of a run, gets (SPEC v5 §5).
  static let leftToRight98 =
    "note: Standard mode computes left to right (95 + 2 = 97, then × 4); sci and formulas (calc -e) apply precedence\n"

  // MARK: - :history

  @Test func historyMarksThePositionAndTheKeptFuture() throws {
    let run = try Script.runInProcess("98-3+2*4=\n:goto 7\n:history\n")
    #expect(run.stdout == "388\n97\n" + Self.history98)
    #expect(run.stderr == "<stdin>:1:7: " + Self.leftToRight98)
    #expect(run.status == 0)
  }

  @Test func historyAtTheEnd() throws {
    let run = try Script.runInProcess("5+5=\n:history\n")
    #expect(
      run.stdout == """
        10
          step  key  expression  display
             0                   0
             1  5                5
             2  +    5 +         5
             3  5    5 +         5
        ▶    4  =    5 + 5 =     10
        [━━━━●] 4/4

        """)
  }

  @Test func historyAtStepZero() throws {
    let run = try Script.runInProcess("5+5=\n:goto 0\n:history\n")
    #expect(
      run.stdout == """
        10
        0
          step  key  expression  display
        ▶    0                   0
             1  5                5        (kept)
             2  +    5 +         5        (kept)
             3  5    5 +         5        (kept)
             4  =    5 + 5 =     10       (kept)
        [●────] 0/4

        """)
  }

  @Test func historyWidensForAnErrorDisplay() throws {
    let run = try Script.runInProcess("1/0=\n:goto 2\n:history\n")
    let kept = "  (kept)"
    #expect(
      run.stdout == """
        Cannot divide by zero
        1
          step  key  expression  display
             0                   0
             1  1                1
        ▶    2  ÷    1 ÷         1
             3  0    1 ÷         0\(String(repeating: " ", count: 20))\(kept)
             4  =    1 ÷ 0 =     Cannot divide by zero\(kept)
        [━━●──] 2/4

        """)
  }

  @Test func historyShowsButtonTitles() throws {
    let run = try Script.runInProcess("5~%ce<c\n:history\n")
    #expect(
      run.stdout == """
        0
          step  key  expression  display
             0                   0
             1  5                5
             2  +/-              -5
             3  %    -0.05       -0.05
             4  CE               0
             5  ⌫                0
        ▶    6  AC               0
        [━━━━━━●] 6/6

        """)
  }

  @Test func historyWidensStepsForALongBranch() throws {
    let run = try Script.runInProcess(String(repeating: "1+", count: 5_000) + "\n:history\n")
    #expect(run.status == 0)
    let lines = run.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 1 + 1 + 10_001 + 1)
    #expect(lines.first == "5000")
    #expect(lines.dropFirst().first == "   step  key  expression  display")
    #expect(lines.dropLast().last == "▶ 10000  +    5000 +      5000")
    #expect(lines.last == "[" + String(repeating: "━", count: 30) + "●] 10000/10000")
    #expect(lines[2] == "      0                   0")
    #expect(lines[3] == "      1  1                1")
  }

  /// The expression column is the expression line at each step; one longer than 40 characters
  /// is cut to its last 39, after `…`.
  @Test func historyCutsLongExpressionLines() throws {
    let run = try Script.runInProcess("2" + String(repeating: "@", count: 15) + "\n:history\n")
    #expect(run.status == 0)
    let lines = run.stdout.split(separator: "\n").map(String.init)
    let line = String(repeating: "√(", count: 15) + "2" + String(repeating: ")", count: 15)
    #expect(line.count == 46)
    let cut = "…" + String(line.suffix(39))
    #expect(
      lines.dropFirst().first == "  step  key  "
        + "expression".padding(toLength: 40, withPad: " ", startingAt: 0) + "  display")
    #expect(lines.dropLast().last?.hasPrefix("▶   16  √    \(cut)  ") == true, "\(lines)")
    #expect(lines[4] == "     2  √    √(2)" + String(repeating: " ", count: 38) + "1.41421356")
  }

  @Test func historyOfAnEmptySession() throws {
    let run = try Script.runInProcess(":history\n")
    #expect(run.stdout == "no history\n")
    #expect(run.stderr == "")
    #expect(run.status == 0)
  }

  /// `:history K`: the last K steps, with the header and the whole branch's slider.
  @Test func historyOfTheLastSteps() throws {
    let run = try Script.runInProcess("98-3+2*4=\n:goto 7\n:history 3\n:history 100\n")
    #expect(
      run.stdout == "388\n97\n" + """
          step  key  expression  display
        ▶    7  ×    97 ×        97
             8  4    97 ×        4        (kept)
             9  =    97 × 4 =    388      (kept)
        [━━━━━━━●──] 7/9

        """ + Self.history98)
    #expect(run.stderr == "<stdin>:1:7: " + Self.leftToRight98)
    #expect(run.status == 0)
  }

  /// `:history N..M`: steps N through M.
  @Test func historyOfARange() throws {
    let run = try Script.runInProcess("98-3+2*4=\n:goto 7\n:history 2..4\n:history 0..0\n")
    #expect(
      run.stdout == "388\n97\n" + """
          step  key  expression  display
             2  8                98
             3  -    98 -        98
             4  3    98 -        3
        [━━━━━━━●──] 7/9
          step  key  expression  display
             0                   0
        [━━━━━━━●──] 7/9

        """)
    #expect(run.status == 0)
  }

  /// A range far into a long branch shows the rows of the whole listing (its columns are as
  /// wide as its own rows need): the expression cut to its last characters, the position, the
  /// kept future and the marks of the branches that leave there.
  @Test func historyRangesAreRowsOfTheWholeListing() throws {
    let keys = (0..<3_000).map { ["1", "+", "2", "*", "@", "q", "="][$0 % 7] }.joined()
    let setup = "\(keys)\n:goto 1500\n7\n:branch 1\n:goto 1400\n"
    /// The listing's lines after the setup's five displays, with runs of spaces made one.
    func listing(_ argument: String) throws -> [String] {
      let run = try Script.runInProcess(setup + ":history \(argument)\n")
      #expect(run.status == 0)
      return run.stdout.split(separator: "\n").dropFirst(5).map {
        $0.split(separator: " ").joined(separator: " ")
      }
    }
    let whole = try listing("")
    let header = whole.first!
    let slider = whole.last!
    #expect(whole.count == 1 + 3_001 + 1)
    for (first, last) in [(0, 5), (60, 70), (61, 62), (1399, 1401), (1495, 1505), (2990, 3000)] {
      #expect(
        try listing("\(first)..\(last)")
          == [header] + whole[(1 + first)...(1 + last)] + [slider], "\(first)..\(last)")
    }
    #expect(try listing("4") == [header] + whole[(1 + 2997)...(1 + 3000)] + [slider])
  }

  /// A bad count or range is an error at the argument that names what is wrong, and changes
  /// nothing: the rest of a REPL session goes on as before (see `LineInterpreterTests`).
  @Test(arguments: [
    ("0", ":history takes a number of steps from 1, not '0'"),
    ("x", ":history takes K (the last K steps) or N..M (steps N to M), not 'x'"),
    ("-1", ":history takes K (the last K steps) or N..M (steps N to M), not '-1'"),
    ("2..", ":history takes K (the last K steps) or N..M (steps N to M), not '2..'"),
    ("1..2..3", ":history takes K (the last K steps) or N..M (steps N to M), not '1..2..3'"),
    ("4..2", "steps 4..2 run backwards (write 2..4)"),
    ("2..10", "step 10 is out of range 0…9"),
  ])
  func historyRejectsABadRange(argument: String, message: String) throws {
    let run = try Script.runInProcess("98-3+2*4=\n:history \(argument)\n5=\n")
    #expect(run.stdout == "388\n")
    #expect(run.stderr == "<stdin>:1:7: " + Self.leftToRight98 + "<stdin>:2:10: \(message)\n")
    #expect(run.status == 65)
  }

  // MARK: - Moving

  @Test func gotoAbsoluteAndRelative() throws {
    let run = try Script.runInProcess(
      "12+3=\n:goto 2\n:goto +2\n:goto -3\n:goto 5\n:goto 0\n:goto +0\n")
    #expect(run.stdout == "15\n12\n3\n1\n15\n0\n0\n")
    #expect(run.status == 0)
  }

  @Test func gotoOutOfRangeChangesNothing() throws {
    // Each script stops at the rejected line; `:keys` before it shows where it stood.
    let run = try Script.runInProcess("12+3=\n:goto 3\n:goto 6\n")
    #expect(run.stdout == "15\n12\n")
    #expect(run.stderr == "<stdin>:3:7: step 6 is out of range 0…5\n")
    #expect(run.status == 65)
    let huge = try Script.runInProcess("1\n:goto +9223372036854775807\n")
    #expect(huge.stderr == "<stdin>:2:7: step +9223372036854775807 from 1 is out of range 0…1\n")
    #expect(huge.status == 65)
    let tooBig = try Script.runInProcess("1\n:goto 99999999999999999999999\n")
    #expect(tooBig.status == 65)
    #expect(tooBig.stderr.hasPrefix("<stdin>:2:7: "))
  }

  /// `:undo` and `:redo` move by lines (SPEC §4), stopping at the ends.
  @Test func undoAndRedoMoveByLinesAndClampAtTheEnds() throws {
    let run = try Script.runInProcess(
      "12+3=\n*2=\n+1=\n:undo\n:undo 2\n:undo 99\n:undo\n:redo\n:redo 3\n:redo 99\n:redo\n")
    #expect(run.stdout == "15\n30\n31\n30\n0\n0\n0\n15\n31\n31\n31\n")
    #expect(run.stderr == "")
    #expect(run.status == 0)
  }

  @Test func undoAndRedoOfZeroSteps() throws {
    let run = try Script.runInProcess("12+3=\n:undo 0\n:goto 2\n:redo 0\n")
    #expect(run.stdout == "15\n15\n12\n12\n")
  }

  @Test func undoOnAnEmptySession() throws {
    let run = try Script.runInProcess(":undo\n:redo 5\n")
    #expect(run.stdout == "0\n0\n")
    #expect(run.status == 0)
  }

  @Test func undoArgumentMustBeACount() throws {
    let run = try Script.runInProcess("1\n:redo two\n")
    #expect(run.stdout == "1\n")
    #expect(run.stderr == "<stdin>:2:7: :redo takes a number of lines, not 'two'\n")
    #expect(run.status == 65)
  }

  @Test func movingToAnErrorDisplayAtTheEndExitsWithOne() throws {
    let run = try Script.runInProcess("1/0=\n:undo\n:redo\n")
    #expect(run.stdout == "Cannot divide by zero\n0\nCannot divide by zero\n")
    #expect(run.status == 1)
  }

  // MARK: - :keys, :reset, the kept future

  @Test func keysShowsTheAppliedKeysOnly() throws {
    let run = try Script.runInProcess("12 + 3 = # sum\n:keys\n:goto 3\n:keys\n:goto 0\n:keys\n")
    #expect(run.stdout == "15\n12+3=\n12\n12+\n0\n\n")
    #expect(run.status == 0)
  }

  @Test func keysAreCanonical() throws {
    let run = try Script.runInProcess("12×3÷2−1±\nC5CE√²Ms\n:keys\n")
    #expect(run.stdout == "-1\n0\n12*3/2-1~\nc5ce@q ms\n")
  }

  @Test func keysOfAnEmptySession() throws {
    let run = try Script.runInProcess(":keys\n")
    #expect(run.stdout == "\n")
    #expect(run.status == 0)
  }

  @Test func resetEmptiesTheHistory() throws {
    let run = try Script.runInProcess("12+3=\n:goto 2\n:reset\n:keys\n:history\n:goto 1\n")
    #expect(run.stdout == "15\n12\n0\n\nno history\n")
    #expect(run.stderr == "<stdin>:6:7: step 1 is out of range 0…0\n")
    #expect(run.status == 65)
  }

  @Test func resetThenNewKeysStartFresh() throws {
    let run = try Script.runInProcess("2+3=\n:reset\n=\n:keys\n")
    // The remembered `+3` is gone with the rest of the state.
    #expect(run.stdout == "5\n0\n0\n=\n")
  }

  /// Nothing is discarded (SPEC §4): keys typed in the past start branch 2, and branch 1 keeps
  /// its future, marked where it leaves. The new line starts a new number (rule 18): `12+` then
  /// `7=` is 19, and `:keys` gives one line per input line.
  @Test func applyingKeysInThePastStartsABranch() throws {
    let run = try Script.runInProcess(
      "12+3=\n:goto 4\n7=\n:keys\n:history\n:redo\n:branches\n:branch 1\n")
    #expect(
      run.stdout == """
        15
        3
        19
        12+3
        7=
          step  key  expression  display
             0                   0
             1  1                1
             2  2                12
             3  +    12 +        12
             4  3    12 +        3        → branch 1
             5  7    12 +        7
        ▶    6  =    12 + 7 =    19
        [━━━━━━●] 6/6
        19
          branch  leaves  steps  display  last keys
               1              5  15       12+3=
        ▶      2  1 at 4      6  19       12+37=
        15

        """)
    #expect(run.status == 0)
  }

  @Test func theKeptFutureCarriesAcrossFiles() throws {
    try withTemporaryDirectory { directory in
      try Script.write("12+3=\n:goto 2\n:keys\n", to: "a.calc", in: directory)
      try Script.write(":redo 9\n:keys\n", to: "b.calc", in: directory)
      let run = try Script.runInProcess("", arguments: ["a.calc", "b.calc"], in: directory)
      #expect(run.stdout == "15\n12\n12\n15\n12+3=\n")
    }
  }

  @Test func blankAndCommentLinesInThePastKeepTheFuture() throws {
    let run = try Script.runInProcess("12+3=\n:goto 2\n\n# note\n:redo 9\n")
    #expect(run.stdout == "15\n12\n15\n")
  }

  // MARK: - :save and :load

  @Test func saveThenLoadRestoresKeysPositionAndKeptFuture() throws {
    try withTemporaryDirectory { directory in
      let saved = try Script.runInProcess(
        "12+3=\n4*2=\n:goto 5\n:save s.calc\n:keys\n:history\n", in: directory)
      #expect(
        saved.stdout == "15\n8\n15\nsaved 9 keys at step 5 to s.calc\n12+3=\n" + Self.history12)
      #expect(saved.stderr == "")
      #expect(saved.status == 0)
      #expect(
        try Script.read("s.calc", in: directory)
          == "# calc session, format 3: 1 branch, at step 5 of 9 on branch 1\n12+3=\n4*2=\n:goto 5\n"
      )

      let loaded = try Script.runInProcess(
        "1+1=\n:load s.calc\n:keys\n:history\n:redo 99\n", in: directory)
      #expect(loaded.stdout == "2\n15\n12+3=\n" + Self.history12 + "8\n")
      #expect(loaded.stderr == "")
      #expect(loaded.status == 0)
    }
  }

  /// `:save` writes every branch with its lines as typed, then what restores the branch and
  /// position; `:load` and running the file both rebuild the same branches.
  @Test func saveWritesEveryBranch() throws {
    try withTemporaryDirectory { directory in
      let session = "12+3=\n*2=\n:goto 2\n*4=\n:goto 1\n5=\n:branch 2\n:goto 4\n"
      let saved = try Script.runInProcess(session + ":save s.calc\n:branches\n", in: directory)
      #expect(saved.status == 0)
      #expect(
        saved.stdout.contains("saved 13 keys on 3 branches, at step 4 of branch 2, to s.calc\n"))
      #expect(
        try Script.read("s.calc", in: directory) == """
          # calc session, format 3: 3 branches, at step 4 of 5 on branch 2
          12+3=
          *2=
          # branch 2 leaves branch 1 at step 2
          :branch 1
          :goto 2
          *4=
          # branch 3 leaves branch 1 at step 1
          :branch 1
          :goto 1
          5=
          :branch 2
          :goto 4

          """)
      let branches = String(
        saved.stdout.split(separator: "\n", omittingEmptySubsequences: false)
          .suffix(5).joined(separator: "\n"))
      let loaded = try Script.runInProcess("7\n:load s.calc\n:branches\n", in: directory)
      #expect(loaded.stdout == "7\n4\n" + branches)
      let replayed = try Script.runInProcess(
        ":branches\n", arguments: ["s.calc", "-"], in: directory)
      #expect(replayed.stdout.hasSuffix("\n4\n" + branches))
      #expect(replayed.status == 0)
    }
  }

  @Test func anUnknownBranchIsAnErrorThatChangesNothing() throws {
    let run = try Script.runInProcess("12+3=\n:goto 2\n*4=\n:branch 99\n")
    #expect(run.stdout == "15\n12\n48\n")
    #expect(run.stderr == "<stdin>:4:9: no branch 99 (branches: 1…2)\n")
    #expect(run.status == 65)
    let interactive = try Script.runInProcess(":branch 1\n")
    #expect(interactive.stderr == "<stdin>:1:9: no branch 1: the session has no keys yet\n")
    let missing = try Script.runInProcess("1\n:branch\n")
    #expect(missing.stderr == "<stdin>:2:8: :branch needs a branch number (see :branches)\n")
  }

  @Test func theSavedFileIsAScript() throws {
    try withTemporaryDirectory { directory in
      let saved = try Script.runInProcess("98-3+2*4=\n:goto 7\n:save s.calc\n", in: directory)
      #expect(saved.status == 0)
      let replay = try Script.runInProcess("", arguments: ["s.calc"], in: directory)
      #expect(replay.stdout == "388\n97\n")
      #expect(replay.stderr == "s.calc:2:7: " + Self.leftToRight98)
      #expect(replay.status == 0)
      let more = try Script.runInProcess(":history\n", arguments: ["s.calc", "-"], in: directory)
      #expect(more.stdout == "388\n97\n" + Self.history98)
    }
  }

  @Test func savingAnEmptySession() throws {
    try withTemporaryDirectory { directory in
      let saved = try Script.runInProcess(":save empty.calc\n", in: directory)
      #expect(saved.stdout == "saved 0 keys at step 0 to empty.calc\n")
      let loaded = try Script.runInProcess("5\n:load empty.calc\n:history\n", in: directory)
      #expect(loaded.stdout == "5\n0\nno history\n")
      #expect(loaded.status == 0)
    }
  }

  @Test func savingAnErrorDisplayReplaysToIt() throws {
    try withTemporaryDirectory { directory in
      let saved = try Script.runInProcess("1/0=\n:save e.calc\n", in: directory)
      #expect(saved.status == 1)
      let replay = try Script.runInProcess("", arguments: ["e.calc"], in: directory)
      #expect(replay.stdout == "Cannot divide by zero\nCannot divide by zero\n")
      #expect(replay.status == 1)
    }
  }

  @Test func saveLeavesNoTemporaryFile() throws {
    try withTemporaryDirectory { directory in
      let run = try Script.runInProcess("12+3=\n:save s.calc\n:save t.calc\n", in: directory)
      #expect(run.status == 0)
      #expect(try Script.listing(directory) == ["s.calc", "t.calc"])
    }
  }

  @Test func saveOverwritesAnExistingFile() throws {
    try withTemporaryDirectory { directory in
      try Script.write(String(repeating: "old text\n", count: 100), to: "s.calc", in: directory)
      let run = try Script.runInProcess("7*6=\n:save s.calc\n", in: directory)
      #expect(run.stdout == "42\nsaved 4 keys at step 4 to s.calc\n")
      #expect(run.status == 0)
      #expect(
        try Script.read("s.calc", in: directory)
          == "# calc session, format 3: 1 branch, at step 4 of 4 on branch 1\n7*6=\n:goto 4\n")
      #expect(try Script.listing(directory) == ["s.calc"])
    }
  }

  @Test func saveIntoAMissingDirectoryFails() throws {
    try withTemporaryDirectory { directory in
      let run = try Script.runInProcess("12\n:save nodir/s.calc\n3\n", in: directory)
      #expect(run.stdout == "12\n")
      #expect(run.stderr.hasPrefix("<stdin>:2:7: cannot save 'nodir/s.calc': "))
      #expect(run.stderr.hasSuffix("\n"))
      #expect(run.stderr.split(separator: "\n").count == 1)
      #expect(run.status == 65)
      #expect(try Script.listing(directory) == [])
    }
  }

  @Test func saveOverADirectoryFailsAndLeavesItAlone() throws {
    try withTemporaryDirectory { directory in
      let sub = directory.appendingPathComponent("sub")
      try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: false)
      try Script.write("x", to: "inner", in: sub)
      let run = try Script.runInProcess("12\n:save sub\n", in: directory)
      #expect(run.stdout == "12\n")
      #expect(run.stderr.hasPrefix("<stdin>:2:7: cannot save 'sub': "))
      #expect(run.status == 65)
      #expect(try Script.listing(directory) == ["sub"])
      #expect(try Script.listing(sub) == ["inner"])
    }
  }

  @Test func saveNeedsAFileName() throws {
    let run = try Script.runInProcess("1\n:save\n")
    #expect(run.stderr == "<stdin>:2:6: :save needs a file name\n")
    #expect(run.status == 65)
    let load = try Script.runInProcess(":load   \n")
    #expect(load.stderr == "<stdin>:1:9: :load needs a file name\n")
    #expect(load.status == 65)
  }

  @Test func saveAndLoadAFileNameWithSpaces() throws {
    try withTemporaryDirectory { directory in
      let run = try Script.runInProcess(
        "6*7=\n:save my session.calc\n:reset\n:load my session.calc\n",
        in: directory)
      #expect(run.stdout == "42\nsaved 4 keys at step 4 to my session.calc\n0\n42\n")
      #expect(try Script.listing(directory) == ["my session.calc"])
    }
  }

  @Test func saveExpandsTheHomeDirectory() throws {
    try withTemporaryDirectory { directory in
      let run = try Script.runInProcess(
        "6*7=\n:save ~/home.calc\n:load ~/home.calc\n", environment: ["HOME": directory.path])
      #expect(run.stdout == "42\nsaved 4 keys at step 4 to \(directory.path)/home.calc\n42\n")
      #expect(try Script.listing(directory) == ["home.calc"])
    }
  }

  @Test func saveEscapesAControlCharacterInTheFileName() throws {
    try withTemporaryDirectory { directory in
      let run = try Script.runInProcess("12\n:save a\u{1B}b.calc\n", in: directory)
      #expect(run.status == 0)
      #expect(run.stdout == "12\nsaved 2 keys at step 2 to a\\u{1B}b.calc\n")
      #expect(!run.stdout.contains("\u{1B}"))
      #expect(try Script.listing(directory) == ["a\u{1B}b.calc"])
    }
  }

  @Test func loadReplacesTheSession() throws {
    try withTemporaryDirectory { directory in
      try Script.write("# by hand\r\n12+\r\n\r\n3=\r\n:undo\r\n", to: "h.calc", in: directory)
      let run = try Script.runInProcess("9*9=\n:load h.calc\n:keys\n:redo\n:keys\n", in: directory)
      #expect(run.stdout == "81\n12\n12+\n15\n12+\n3=\n")
      #expect(run.status == 0)
    }
  }

  @Test func loadOfAMissingFileFails() throws {
    try withTemporaryDirectory { directory in
      let run = try Script.runInProcess("5\n:load missing.calc\n6\n", in: directory)
      #expect(run.stdout == "5\n")
      #expect(
        run.stderr == "<stdin>:2:7: cannot load 'missing.calc': No such file or directory\n")
      #expect(run.status == 65)
    }
  }

  @Test func loadOfADirectoryFails() throws {
    try withTemporaryDirectory { directory in
      try FileManager.default.createDirectory(
        at: directory.appendingPathComponent("sub"), withIntermediateDirectories: false)
      let run = try Script.runInProcess("5\n:load sub\n", in: directory)
      #expect(run.stdout == "5\n")
      #expect(run.stderr == "<stdin>:2:7: cannot load 'sub': Is a directory\n")
      #expect(run.status == 65)
    }
  }

  @Test func loadOfAMalformedFileNamesItsLineAndColumn() throws {
    try withTemporaryDirectory { directory in
      try Script.write("12\n1x\n3\n", to: "bad.calc", in: directory)
      let run = try Script.runInProcess("5\n:load bad.calc\n:keys\n", in: directory)
      #expect(run.stdout == "5\n")
      #expect(
        run.stderr
          == "<stdin>:2:7: cannot load 'bad.calc': bad.calc:2:2: unknown key 'x' at column 2 (× is '*')\n"
      )
      #expect(run.status == 65)
    }
  }

  @Test func loadOfAFileWithABadGoto() throws {
    try withTemporaryDirectory { directory in
      try Script.write("12+3=\n:goto 9\n", to: "bad.calc", in: directory)
      let run = try Script.runInProcess(":load bad.calc\n", in: directory)
      #expect(run.stdout == "")
      #expect(
        run.stderr
          == "<stdin>:1:7: cannot load 'bad.calc': bad.calc:2:7: step 9 is out of range 0…5\n")
      #expect(run.status == 65)
    }
  }

  @Test func loadRefusesSaveInASessionFile() throws {
    try withTemporaryDirectory { directory in
      try Script.write("5\n:save q.calc\n", to: "evil.calc", in: directory)
      let run = try Script.runInProcess("7\n:load evil.calc\n", in: directory)
      #expect(run.stdout == "7\n")
      #expect(
        run.stderr
          == "<stdin>:2:7: cannot load 'evil.calc': evil.calc:2:1: "
          + ":save cannot be used in a session file\n")
      #expect(run.status == 65)
      #expect(try Script.listing(directory) == ["evil.calc"])
    }
  }

  @Test func loadRefusesLoadAndQuitInASessionFile() throws {
    try withTemporaryDirectory { directory in
      try Script.write("1\n  :load self.calc\n", to: "self.calc", in: directory)
      let run = try Script.runInProcess(":load self.calc\n", in: directory)
      // The refused command is at column 3, as an unknown command there would be.
      #expect(
        run.stderr
          == "<stdin>:1:7: cannot load 'self.calc': self.calc:2:3: "
          + ":load cannot be used in a session file\n")
      #expect(run.status == 65)
      try Script.write("1\n:quit\n", to: "quit.calc", in: directory)
      let quit = try Script.runInProcess(":load quit.calc\n", in: directory)
      #expect(quit.stderr.contains("quit.calc:2:1: :quit cannot be used in a session file"))
      #expect(quit.status == 65)
    }
  }

  @Test func anIndentedFailingCommandIsNotReportedAtColumnOne() throws {
    try withTemporaryDirectory { directory in
      let run = try Script.runInProcess("5\n  :load missing.calc\n", in: directory)
      #expect(run.status == 65)
      // The command starts at column 3 and its file name at column 9; column 1 is a blank.
      let message = ": cannot load 'missing.calc': No such file or directory\n"
      #expect(["<stdin>:2:3" + message, "<stdin>:2:9" + message].contains(run.stderr))
    }
  }

  @Test func loadEscapesAControlCharacterInTheFileName() throws {
    try withTemporaryDirectory { directory in
      let run = try Script.runInProcess(":load a\u{1B}b\n", in: directory)
      #expect(run.stderr == "<stdin>:1:7: cannot load 'a\\u{1B}b': No such file or directory\n")
      #expect(run.status == 65)
    }
  }

  // MARK: - :tape and :copy

  /// SPEC §4 `:tape`: the calculations completed on the current branch up to the position, with
  /// the step where each completed; chains, repeated `=` and a branch.
  @Test func tapeListsTheCompletedCalculations() throws {
    let run = try Script.runInProcess(
      """
      1+2*3=
      *2==
      :goto 6
      +1=
      :tape
      :branch 1
      :tape
      :goto 5
      :tape
      c1/0=
      :tape
      :reset
      :tape
      """)
    #expect(
      run.stdout == """
        9
        36
        9
        10
        4  1 + 2 = 3
        6  3 × 3 = 9
        9  9 + 1 = 10
        36
         4  1 + 2 = 3
         6  3 × 3 = 9
         9  9 × 2 = 18
        10  18 × 2 = 36
        3
        4  1 + 2 = 3
        Cannot divide by zero
         4  1 + 2 = 3
        10  1 ÷ 0 = Cannot divide by zero
        0
        no calculations

        """)
    #expect(
      run.stderr
        == "<stdin>:1:4: note: Standard mode computes left to right (1 + 2 = 3, then × 3); "
        + "sci and formulas (calc -e) apply precedence\n")
    // The `c1/0=` line showed an error (SPEC §5: status 1).
    #expect(run.status == 1)
  }

  @Test func tapeRefusesABadCount() throws {
    let run = try Script.runInProcess("1+2=\n:tape 0\n")
    #expect(run.stdout == "3\n")
    #expect(run.stderr == "<stdin>:2:7: :tape takes a number of steps from 1, not '0'\n")
    #expect(run.status == 65)
  }

  /// `:copy` needs a terminal for its clipboard sequence: in a script whose output is a pipe it
  /// is a rejected line that says so and changes nothing.
  @Test func copyOutsideATerminalSaysItCannot() throws {
    let run = try Script.runInProcess("1000+234=\n:copy\n")
    #expect(run.stdout == "1234\n")
    #expect(
      run.stderr
        == "<stdin>:2:1: cannot copy 1234: the output is not a terminal"
        + " (:copy uses the terminal's clipboard)\n")
    #expect(run.status == 65)
  }
}
