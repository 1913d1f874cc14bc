import CalcCore
import Foundation
import Testing

/// `:tape csv` is as careful as `:save` (SPEC §8): written to a terminal, the notes — text that
/// came from input — are escaped as in every listing, while a file or a pipe gets them as they
/// are, quoted as RFC 4180 requires; and at the REPL, `:tape csv FILE` does not replace a file
/// this session did not write (nor save, nor load), which `:tape csv! FILE` does.
@Suite struct TapeCSVSafetyTests {
  /// A note that would drive a terminal: an OSC title sequence ended by BEL, a right-to-left
  /// override (U+202E) and a C1 control (NEL, U+0085).
  static let hostileNote = "\u{1B}]0;pwned\u{07}x\u{202E}y\u{85}z"
  /// The same note as calc escapes it.
  static let escapedNote = "\\u{1B}]0;pwned\\u{7}x\\u{202E}y\\u{85}z"

  /// A session file whose lines hold the hostile note and a note that CSV must quote.
  static let session = "12+3=  # \(hostileNote)\n*2=  # a, \"b\"\n"

  @Test func onATerminalTheNotesAreEscaped() throws {
    try withTemporaryDirectory { directory in
      try Script.write(Self.session, to: "s.calc", in: directory)
      try "".write(
        to: directory.appendingPathComponent(".inputrc"), atomically: true, encoding: .utf8)
      let calc = try TerminalSession(
        directory: directory, environment: ["HOME": directory.path, "NO_COLOR": "1"],
        arguments: ["--no-journal", "--no-live"])
      try calc.waitForLastLines(["calc> "])
      try calc.type(":load s.calc\r")
      try calc.waitForLastLines(["30", "calc> "])
      let before = calc.output.count
      try calc.type(":tape csv\r")
      try calc.waitForLastLines(["8,15 × 2 =,30,\"a, \"\"b\"\"\"", "calc> "])
      let bytes = Array(calc.output[before...])
      let text = String(decoding: bytes, as: UTF8.self)
      #expect(text.contains("5,12 + 3 =,15,\(Self.escapedNote)\r\n"), "\(calc.report)")
      for raw in ["\u{1B}]0;", "\u{07}", "\u{202E}", "\u{85}"] {
        #expect(!bytes.contains(Array(raw.utf8)), "\(raw.unicodeScalars.first!.value)")
      }
      try calc.type(":q\r")
      #expect(try calc.waitForExit() == 0)
    }
  }

  @Test func toAPipeOrAFileTheNotesAreKeptAndQuotedAsCSVRequires() throws {
    try withTemporaryDirectory { directory in
      try Script.write(Self.session, to: "s.calc", in: directory)
      let rows =
        "step,expression,result,note\n5,12 + 3 =,15,\(Self.hostileNote)\n"
        + "8,15 × 2 =,30,\"a, \"\"b\"\"\"\n"
      let run = try Script.runInProcess(
        ":load s.calc\n:tape csv\n:tape csv t.csv\n", in: directory)
      #expect(run.stderr == "")
      #expect(run.stdout == "30\n" + rows + "wrote the tape to t.csv\n")
      #expect(try Script.read("t.csv", in: directory) == rows)
    }
  }

  /// At the REPL, as `:save` does: an existing file this session neither wrote nor read is
  /// kept unless `:tape csv!` is typed; a file it wrote (or saved, or loaded) is replaced.
  @Test func atTheREPLTapeCSVKeepsAFileItDidNotWriteUnlessTold() throws {
    try withTemporaryDirectory { directory in
      let other = try Script.write("someone else's\n", to: "other.csv", in: directory).path
      let mine = directory.appendingPathComponent("mine.csv").path
      let saved = directory.appendingPathComponent("s.calc").path
      let run = REPLInProcessTests.run([
        "12+3=", ":tape csv \(other)", ":tape csv 1..5 \(other)", ":tape csv \(mine)", "*2=",
        ":tape csv \(mine)", ":save \(saved)", ":tape csv \(saved)", ":tape csv! \(other)",
        ":tape csv \(other)", ":tape csv!",
      ])
      #expect(
        run.errors
          == "error: '\(other)' exists, and this session did not write it; to replace it: "
          + ":tape csv! \(other)\n"
          + "error: '\(other)' exists, and this session did not write it; to replace it: "
          + ":tape csv! 1..5 \(other)\n"
          + "error: :tape csv! needs the FILE it replaces: :tape csv! tape.csv\n")
      let rows = "step,expression,result,note\n5,12 + 3 =,15,\n8,15 × 2 =,30,\n"
      #expect(try String(contentsOfFile: mine, encoding: .utf8) == rows, "a file it wrote")
      #expect(try String(contentsOfFile: saved, encoding: .utf8) == rows, "a file it saved")
      #expect(try String(contentsOfFile: other, encoding: .utf8) == rows, "replaced when told")
      #expect(run.output.components(separatedBy: "wrote the tape to \(other)\n").count == 3)
    }
  }

  /// Scripts write what they say, as with `:save`.
  @Test func aScriptWritesWhatItSays() throws {
    try withTemporaryDirectory { directory in
      try Script.write("someone else's\n", to: "other.csv", in: directory)
      let run = try Script.runInProcess("12+3=\n:tape csv other.csv\n", in: directory)
      #expect(run.stderr == "")
      #expect(
        try Script.read("other.csv", in: directory)
          == "step,expression,result,note\n5,12 + 3 =,15,\n")
    }
  }

  /// `csv!` is a word of the command table: Tab completes `csv` and `csv!` after `:tape `, and
  /// file names after either.
  @Test func tabCompletesTheWordsOfTapeAndFileNamesAfterThem() throws {
    try withTemporaryDirectory { directory in
      try Script.write("old\n", to: "out.csv", in: directory)
      try "".write(
        to: directory.appendingPathComponent(".inputrc"), atomically: true, encoding: .utf8)
      let calc = try TerminalSession(
        directory: directory, environment: ["HOME": directory.path, "NO_COLOR": "1"],
        arguments: ["--no-journal", "--no-live"])
      try calc.waitForLastLines(["calc> "])
      try calc.type("12+3=\r")
      try calc.waitForLastLines(["15", "calc> "])
      // Both words share `csv`; then, with nothing more to complete, a Tab lists them.
      try calc.type(":tape c\t")
      try calc.waitForLastLines(["calc> :tape csv"])
      try calc.type("\t\t")
      try calc.waitForLastLines(["calc> :tape csv", "csv   csv!", "calc> :tape csv"])
      try calc.type("! ou\t")
      try calc.waitForLastLines(["calc> :tape csv! out.csv "])
      try calc.type("\r")
      try calc.waitForLastLines(["wrote the tape to out.csv", "calc> "])
      #expect(
        try Script.read("out.csv", in: directory) == "step,expression,result,note\n5,12 + 3 =,15,\n"
      )
      try calc.type(":q\r")
      #expect(try calc.waitForExit() == 0)
    }
  }
}
