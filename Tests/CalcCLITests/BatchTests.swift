import CalcTestSupport
import Foundation
import Testing

/// Scripts from standard input and from files (SPEC §5): in process (``InProcess``, in a folder
/// of the test's own for relative names), and through the built binary for a usage error, a
/// closed or full output and a shell pipeline.
@Suite struct BatchTests {
  // MARK: - Output

  @Test func keyLinesPrintTheDisplay() throws {
    let run = try Script.runInProcess("12+3=\n*2\n=\n")
    #expect(run.stdout == "15\n2\n30\n")
    #expect(run.stderr == "")
    #expect(run.status == 0)
  }

  @Test func aCommandLinePrintsWhatTheCommandPrints() throws {
    let run = try Script.runInProcess("12+3=\n:goto 2\n")
    #expect(run.stdout == "15\n12\n")
    #expect(run.stderr == "")
    #expect(run.status == 0)
  }

  @Test func commentsAndBlankLinesPrintNothing() throws {
    let run = try Script.runInProcess("# a comment\n\n   \n\t# indented comment\n1+2=\n\n# end\n")
    #expect(run.stdout == "3\n")
    #expect(run.status == 0)
  }

  @Test func emptyScriptPrintsNothing() throws {
    let run = try Script.runInProcess("")
    #expect(run.stdout == "")
    #expect(run.stderr == "")
    #expect(run.status == 0)
  }

  @Test func linesMayStartWithBlanks() throws {
    let run = try Script.runInProcess("  12+3=\n\t :goto 2\n")
    #expect(run.stdout == "15\n12\n")
    #expect(run.status == 0)
  }

  @Test func crlfLineEndings() throws {
    let run = try Script.runInProcess("1+2=\r\n# comment\r\n\r\n:goto 2\r\n")
    #expect(run.stdout == "3\n1\n")
    #expect(run.stderr == "")
    #expect(run.status == 0)
  }

  @Test func lastLineWithoutNewline() throws {
    let run = try Script.runInProcess("1+2=\n3")
    #expect(run.stdout == "3\n3\n")
    #expect(run.status == 0)
  }

  @Test func lastLineWithoutNewlineAfterCrlf() throws {
    let run = try Script.runInProcess("1+2=\r\n=")
    #expect(run.stdout == "3\n5\n")
    #expect(run.status == 0)
  }

  @Test func traceOnAScript() throws {
    let run = try Script.runInProcess("1+2\n# nothing\n=\n:undo\n", arguments: ["--trace"])
    #expect(run.stdout == "1\t1\t\n+\t1\t1 +\n2\t2\t1 +\n=\t3\t1 + 2 =\n2\n")
    #expect(run.status == 0)
  }

  @Test func localeOnAScript() throws {
    let run = try Script.runInProcess("1234.5\n", arguments: ["--locale", "de_DE"])
    #expect(run.stdout == "1234,5\n")
    let fromEnvironment = try Script.runInProcess("1234.5\n", environment: ["LANG": "de_DE.UTF-8"])
    #expect(fromEnvironment.stdout == "1234,5\n")
    let display = try Script.runInProcess(
      "1234.5\n", arguments: ["--display", "--locale", "de-DE"])
    #expect(display.stdout == "1.234,5\n")
  }

  @Test func quitStopsTheScript() throws {
    let run = try Script.runInProcess("1+2=\n:quit\n5\nx\n")
    #expect(run.stdout == "3\n")
    #expect(run.stderr == "")
    #expect(run.status == 0)
  }

  @Test func quitStopsLaterFilesToo() throws {
    try withTemporaryDirectory { directory in
      try Script.write("1\n:quit\n2\n", to: "a.calc", in: directory)
      try Script.write("5\n", to: "b.calc", in: directory)
      let run = try Script.runInProcess("", arguments: ["a.calc", "b.calc"], in: directory)
      #expect(run.stdout == "1\n")
      #expect(run.status == 0)
    }
  }

  @Test func quitKeepsTheErrorStatus() throws {
    let run = try Script.runInProcess("1/0=\n:quit\n")
    #expect(run.stdout == "Cannot divide by zero\n")
    #expect(run.status == 1)
  }

  // MARK: - Files

  @Test func scriptFromAFile() throws {
    try withTemporaryDirectory { directory in
      try Script.write("12+3=\n:goto 2\n", to: "a.calc", in: directory)
      let run = try Script.runInProcess("99\n", arguments: ["a.calc"], in: directory)
      #expect(run.stdout == "15\n12\n")
      #expect(run.stderr == "")
      #expect(run.status == 0)
    }
  }

  @Test func stateCarriesAcrossFilesInOrder() throws {
    try withTemporaryDirectory { directory in
      try Script.write("12+\n", to: "a.calc", in: directory)
      try Script.write("3=\n", to: "b.calc", in: directory)
      try Script.write("*2=\n:keys\n", to: "c.calc", in: directory)
      let run = try Script.runInProcess(
        "", arguments: ["a.calc", "b.calc", "c.calc"], in: directory)
      #expect(run.stdout == "12\n15\n30\n12+\n3=\n*2=\n")
      #expect(run.status == 0)
      let reversed = try Script.runInProcess("", arguments: ["b.calc", "a.calc"], in: directory)
      #expect(reversed.stdout == "3\n12\n")
    }
  }

  @Test func dashIsStandardInputAmongFiles() throws {
    try withTemporaryDirectory { directory in
      try Script.write("12+\n", to: "a.calc", in: directory)
      try Script.write("=\n", to: "b.calc", in: directory)
      let run = try Script.runInProcess("3\n", arguments: ["a.calc", "-", "b.calc"], in: directory)
      #expect(run.stdout == "12\n3\n15\n")
      #expect(run.status == 0)
    }
  }

  @Test func dashAlone() throws {
    let run = try Script.runInProcess("7*6=\n", arguments: ["-"])
    #expect(run.stdout == "42\n")
    #expect(run.status == 0)
  }

  // MARK: - Exit statuses and messages

  @Test func finalErrorDisplayExitsWithOne() throws {
    let run = try Script.runInProcess("1+2=\n1/0=\n")
    #expect(run.stdout == "3\nCannot divide by zero\n")
    #expect(run.stderr == "")
    #expect(run.status == 1)
  }

  /// SPEC §5: a key line that showed an error gives status 1 even when a later line leaves it,
  /// and a move away does not undo that; a move onto an error is no key line showing one.
  @Test func anErrorThatIsNotFinalExitsWithOne() throws {
    let run = try Script.runInProcess("1/0=\n5\n")
    #expect(run.stdout == "Cannot divide by zero\n5\n")
    #expect(run.stderr == "")
    #expect(run.status == 1)
    let movedAway = try Script.runInProcess("1/0=\n:undo\n")
    #expect(movedAway.stdout == "Cannot divide by zero\n0\n")
    #expect(movedAway.status == 1)
    let clearedOnItsLine = try Script.runInProcess("1/0=c\n5\n")
    #expect(clearedOnItsLine.stdout == "0\n5\n")
    #expect(clearedOnItsLine.status == 0, "AC cleared it on purpose before the line ended")
    let movedOnto = try Script.runInProcess("1/0=c\n:goto 4\n")
    #expect(movedOnto.stdout == "0\nCannot divide by zero\n")
    #expect(movedOnto.status == 0, "a move is no key line")
  }

  @Test func usageErrorExitsWith64() throws {
    // ArgumentParser's usage error, through the binary.
    let run = try Script.run("1\n", arguments: ["--frob"])
    #expect(run.stdout == "")
    #expect(run.status == 64)
  }

  @Test func badKeyStopsTheScript() throws {
    let run = try Script.runInProcess("1+2=\n1x\n5\n")
    #expect(run.stdout == "3\n")
    #expect(run.stderr == "<stdin>:2:2: unknown key 'x' at column 2 (× is '*')\n")
    #expect(run.status == 65)
  }

  @Test func badKeyColumnExample() throws {
    let run = try Script.runInProcess("12+3=\n12x\n")
    #expect(run.stdout == "15\n")
    #expect(run.stderr == "<stdin>:2:3: unknown key 'x' at column 3 (× is '*')\n")
    #expect(run.status == 65)
  }

  @Test func aRejectedLineAppliesNone() throws {
    // Nothing of line 2 was applied: its `5` would have shown as the display.
    let run = try Script.runInProcess("1+2=\n5x\n", arguments: ["--trace"])
    #expect(run.stdout == "1\t1\t\n+\t1\t1 +\n2\t2\t1 +\n=\t3\t1 + 2 =\n")
    #expect(run.stderr == "<stdin>:2:2: unknown key 'x' at column 2 (× is '*')\n")
    #expect(run.status == 65)
  }

  @Test func badKeyOnTheLastLineWithoutNewline() throws {
    let run = try Script.runInProcess("1\n\n\tx")
    #expect(run.stdout == "1\n")
    #expect(run.stderr == "<stdin>:3:2: unknown key 'x' at column 2 (× is '*')\n")
    #expect(run.status == 65)
  }

  @Test func badKeyColumnCountsCharacters() throws {
    let run = try Script.runInProcess("÷−×x\n")
    #expect(run.stderr == "<stdin>:1:4: unknown key 'x' at column 4 (× is '*')\n")
    #expect(run.status == 65)
  }

  @Test func badKeyInAFileNamesTheFile() throws {
    try withTemporaryDirectory { directory in
      try Script.write("1+\n", to: "a.calc", in: directory)
      try Script.write("2=\n# ok\n3 y\n4\n", to: "b.calc", in: directory)
      let run = try Script.runInProcess("", arguments: ["a.calc", "b.calc"], in: directory)
      #expect(run.stdout == "1\n3\n")
      #expect(run.stderr == "b.calc:3:3: unknown key 'y' at column 3\n")
      #expect(run.status == 65)
    }
  }

  @Test func badLineStopsLaterFiles() throws {
    try withTemporaryDirectory { directory in
      try Script.write("1\n:frob\n", to: "a.calc", in: directory)
      try Script.write("2\n", to: "b.calc", in: directory)
      let run = try Script.runInProcess("", arguments: ["a.calc", "b.calc"], in: directory)
      #expect(run.stdout == "1\n")
      #expect(run.stderr == "a.calc:2:1: unknown command ':frob' (try :help)\n")
      #expect(run.status == 65)
    }
  }

  @Test func unknownCommandNamesItsColumn() throws {
    let run = try Script.runInProcess("1+2=\n  :frob 3\n")
    #expect(run.stdout == "3\n")
    #expect(run.stderr == "<stdin>:2:3: unknown command ':frob' (try :help)\n")
    #expect(run.status == 65)
  }

  @Test func missingCommandName() throws {
    let run = try Script.runInProcess(":\n")
    #expect(run.stderr == "<stdin>:1:1: missing command name after ':' (try :help)\n")
    #expect(run.status == 65)
  }

  @Test func gotoOutOfRangeNamesTheValidRange() throws {
    let run = try Script.runInProcess("1+2=\n:goto 99\n:goto 1\n")
    #expect(run.stdout == "3\n")
    #expect(run.stderr == "<stdin>:2:7: step 99 is out of range 0…4\n")
    #expect(run.status == 65)
  }

  @Test func relativeGotoOutOfRange() throws {
    let back = try Script.runInProcess("1+2=\n:goto -5\n")
    #expect(back.stderr == "<stdin>:2:7: step -5 from 4 is out of range 0…4\n")
    #expect(back.status == 65)
    let forward = try Script.runInProcess("1+2=\n:goto 2\n:goto +3\n")
    #expect(forward.stdout == "3\n1\n")
    #expect(forward.stderr == "<stdin>:3:7: step +3 from 2 is out of range 0…4\n")
    #expect(forward.status == 65)
  }

  @Test func badCommandArguments() throws {
    let goto = try Script.runInProcess("1\n:goto x\n")
    #expect(goto.stderr == "<stdin>:2:7: :goto takes a step N, +K or -K, not 'x'\n")
    #expect(goto.status == 65)
    let empty = try Script.runInProcess("1\n:goto\n")
    #expect(empty.stderr == "<stdin>:2:6: :goto needs a step: N, +K or -K\n")
    let undo = try Script.runInProcess(":undo -1\n")
    #expect(undo.stderr == "<stdin>:1:7: :undo takes a number of lines, not '-1'\n")
    let keys = try Script.runInProcess(":keys all\n")
    #expect(keys.stderr == "<stdin>:1:7: :keys takes no argument, not 'all'\n")
    #expect(keys.status == 65)
  }

  @Test func controlCharacterInAKeyLineIsEscaped() throws {
    let run = try Script.runInProcess("1\n2\u{1B}[2J\n")
    #expect(run.stdout == "1\n")
    #expect(run.stderr == "<stdin>:2:2: unknown key '\\u{1B}' at column 2\n")
    #expect(!run.stderr.contains("\u{1B}"))
    #expect(run.status == 65)
  }

  @Test func controlCharacterInACommandIsEscaped() throws {
    let run = try Script.runInProcess(":fr\u{07}ob\n")
    #expect(run.stderr == "<stdin>:1:1: unknown command ':fr\\u{7}ob' (try :help)\n")
    #expect(run.status == 65)
    let argument = try Script.runInProcess(":goto \u{1B}[H\n")
    #expect(argument.stderr == "<stdin>:1:7: :goto takes a step N, +K or -K, not '\\u{1B}[H'\n")
    #expect(!argument.stderr.contains("\u{1B}"))
  }

  @Test func nulIsEscaped() throws {
    let run = try Script.runInProcess("1\u{0}2\n")
    #expect(run.stdout == "")
    #expect(run.stderr == "<stdin>:1:2: unknown key '\\u{0}' at column 2\n")
    #expect(run.status == 65)
  }

  @Test func invalidUTF8IsNamedByItsByte() throws {
    let run = try InProcess.run([], stdin: Data([0x31, 0xFF, 0x0A]))
    #expect(run.stdout == "")
    #expect(run.stderr == "<stdin>:1:2: invalid UTF-8 byte \\x{FF} at column 2\n")
    #expect(run.status == 65)
  }

  @Test func missingFileExitsWith66() throws {
    try withTemporaryDirectory { directory in
      let run = try Script.runInProcess("", arguments: ["nope.calc"], in: directory)
      #expect(run.stdout == "")
      #expect(run.stderr == "calc: cannot read 'nope.calc': No such file or directory\n")
      #expect(run.status == 66)
    }
  }

  @Test func missingFileIsReportedBeforeAnyLineRuns() throws {
    try withTemporaryDirectory { directory in
      try Script.write("1+2=\n", to: "a.calc", in: directory)
      let run = try Script.runInProcess("", arguments: ["a.calc", "nope.calc"], in: directory)
      #expect(run.stdout == "")
      #expect(run.stderr == "calc: cannot read 'nope.calc': No such file or directory\n")
      #expect(run.status == 66)
    }
  }

  @Test func directoryExitsWith66() throws {
    try withTemporaryDirectory { directory in
      try FileManager.default.createDirectory(
        at: directory.appendingPathComponent("sub"), withIntermediateDirectories: false)
      try Script.write("1+2=\n", to: "a.calc", in: directory)
      let run = try Script.runInProcess("", arguments: ["a.calc", "sub"], in: directory)
      #expect(run.stdout == "3\n")
      #expect(run.stderr == "calc: cannot read 'sub': Is a directory\n")
      #expect(run.status == 66)
    }
  }

  @Test func controlCharacterInAFileNameIsEscaped() throws {
    try withTemporaryDirectory { directory in
      let run = try Script.runInProcess("", arguments: ["a\u{1B}b"], in: directory)
      #expect(run.stderr == "calc: cannot read 'a\\u{1B}b': No such file or directory\n")
      #expect(run.status == 66)
    }
  }

  // MARK: - Size

  /// A line of a million keys with `CALC_LONG_TESTS=1`, of 100,000 by default (a million keys
  /// take about 5 s in a debug build).
  @Test func aLineOfManyKeys() throws {
    // 50,000 additions, then entry edits that end at 0, then `1=`: 1,000,000 keys in all (a
    // tenth of each by default).
    let additions = TestSize.count(short: 5_000, long: 50_000)
    let edits = TestSize.count(short: 44_999, long: 449_999)
    let keys =
      String(repeating: "1+", count: additions) + String(repeating: "9<", count: edits) + "1="
    #expect(keys.utf8.count == TestSize.count(short: 100_000, long: 1_000_000))
    let run = try Script.runInProcess("7=\n" + keys + "\n:keys\n")
    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(run.stdout.hasPrefix("7\n\(additions + 1)\n7=\n1+1+"))
    // Compared apart from #expect, which would print a megabyte on failure.
    let same = run.stdout == "7\n\(additions + 1)\n7=\n" + keys + "\n"
    #expect(same)
  }

  /// 100,000 lines with `CALC_LONG_TESTS=1`, 10,000 by default.
  @Test func aScriptOfManyLines() throws {
    let count = TestSize.count(short: 10_000, long: 100_000)
    let script = (1...count).map { "\($0)=\n" }.joined()
    let run = try Script.runInProcess(script)
    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(run.stdout.hasPrefix("1\n2\n3\n"))
    #expect(run.stdout.contains("\n999\n1000\n1001\n"))
    #expect(run.stdout.hasSuffix("\n\(count - 1)\n\(count)\n"))
    let same = run.stdout == (1...count).map { "\($0)\n" }.joined()
    #expect(same)
  }

  @Test func badKeyAfterAHundredThousandLines() throws {
    try withTemporaryDirectory { directory in
      try Script.write(
        String(repeating: "1=\n", count: 100_000) + "2 x\n", to: "big.calc",
        in: directory)
      let run = try Script.runInProcess("", arguments: ["big.calc"], in: directory)
      let same = run.stdout == String(repeating: "1\n", count: 100_000)
      #expect(same)
      #expect(run.stderr == "big.calc:100001:3: unknown key 'x' at column 3 (× is '*')\n")
      #expect(run.status == 65)
    }
  }

  @Test func closedOutputIsQuiet() throws {
    try withTemporaryDirectory { directory in
      try Script.write(String(repeating: "1+1=\n", count: 200_000), to: "big.calc", in: directory)
      let run = try Script.shell(
        "{ \"$CALC\" big.calc; echo $? > status; } | head -1", in: directory)
      #expect(run.stdout == "2\n")
      #expect(run.stderr == "")
      #expect(run.status == 0)
      // Killed by SIGPIPE, as `cat` would be, or a quiet exit.
      let status = try Script.read("status", in: directory)
      #expect(["141\n", "0\n"].contains(status))
    }
  }

  @Test func closedOutputOfStandardInputScriptIsQuiet() throws {
    try withTemporaryDirectory { directory in
      try Script.write(String(repeating: "12+3=\n", count: 100_000), to: "big.calc", in: directory)
      let run = try Script.shell("\"$CALC\" < big.calc | head -1", in: directory)
      #expect(run.stdout == "15\n")
      #expect(run.stderr == "")
    }
  }
}
