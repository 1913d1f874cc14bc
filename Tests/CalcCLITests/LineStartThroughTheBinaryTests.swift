import Foundation
import Testing

/// SPEC rule 18 through the built binary: a number never continues on the next line, in
/// scripts, on standard input, and after `:goto`; `:keys` prints one line per input line.
@Suite struct LineStartThroughTheBinaryTests {
  @Test func numbersOnLinesOfTheirOwnStayApart() throws {
    try expectRun(["-"], stdin: "1\n2\n3\n", stdout: "1\n2\n3\n")
    try expectRun(["-"], stdin: "100\n50\n", stdout: "100\n50\n")
    try expectRun(["-"], stdin: "12.5\n7.25\n3\n", stdout: "12.5\n7.25\n3\n")
    try expectRun(["--plain", "-"], stdin: "12+\n3=\n", stdout: "12\n15\n")
    try expectRun(["-"], stdin: "1.50\n~\n", stdout: "1.50\n-1.5\n")
  }

  @Test func aLineAfterAGotoIntoANumberStartsANewOne() throws {
    try expectRun(
      ["-"], stdin: "1234+1=\n:goto 2\n5=\n:keys\n", stdout: "1,235\n12\n5\n12\n5=\n")
  }

  @Test func theKeysOfEachLineRebuildTheDisplay() throws {
    let keys = try CalcProcess.run(["-"], stdin: Data("12+\n3\n.5*2=\n:keys\n".utf8))
    // 12 + 0.5 = 12.5, × 2 = 25: the `3` was a number of its own, ended by the next line.
    #expect(keys.stdout == "12\n3\n25\n12+\n3\n.5*2=\n")
    let rebuilt = keys.stdout.split(separator: "\n").dropFirst(3).joined(separator: "\n") + "\n"
    try expectRun(["-"], stdin: rebuilt, stdout: "12\n3\n25\n")
  }

  @Test func aSessionSavedBeforeRule18IsLoadedWithANote() throws {
    try withTemporaryDirectory { directory in
      try Script.write(
        "# calc session: 1 branch, at step 4 of 4 on branch 1\n100\n50\n:goto 5\n", to: "old.calc",
        in: directory)
      try Script.write("100\n50\n", to: "hand.calc", in: directory)
      try expectRun(
        ["-"], stdin: "1\n:load old.calc\n", directory: directory, stdout: "1\n50\n",
        stderr: "<stdin>:2:7: note: 'old.calc' was saved before numbers stopped continuing "
          + "across lines; each of its lines now starts a new number\n")
      try expectRun(
        ["-"], stdin: ":load hand.calc\n", directory: directory, stdout: "50\n", stderr: "")
      // What :save writes now names its format, and loads without a note.
      try expectRun(
        ["-"], stdin: ":load old.calc\n:save new.calc\n:load new.calc\n", directory: directory,
        stdout: "50\nsaved 5 keys at step 5 to new.calc\n50\n",
        stderr: "<stdin>:1:7: note: 'old.calc' was saved before numbers stopped continuing "
          + "across lines; each of its lines now starts a new number\n")
      #expect(
        try Script.read("new.calc", in: directory).hasPrefix(
          "# calc session, format 2: 1 branch, at step 5 of 5 on branch 1\n"))
    }
  }
}
