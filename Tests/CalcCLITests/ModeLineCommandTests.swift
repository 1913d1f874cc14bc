import CalculatorEngine
import Testing

@testable import CalcCLI

/// SPEC §11's line 0 through the line interpreter, in process: a session started with
/// `--mode scientific` lists its `sci` line as line 0, refers and edits from line 1, and refuses
/// `$0` and `:edit 0` with messages that say why.
@Suite struct ModeLineCommandTests {
  /// An interpreter started in Scientific mode (`--mode scientific`) after `lines`, and what
  /// each line printed.
  static func run(_ lines: [String]) throws -> (interpreter: LineInterpreter, printed: [String]) {
    var context = LineInterpreter.Context(format: .posix)
    context.startMode = .scientific
    var interpreter = LineInterpreter(context: context)
    #expect(interpreter.enterStartMode() != nil)
    var printed: [String] = []
    for line in lines {
      let output = OutputBuffer()
      try interpreter.run(line, output: output)
      printed.append(output.text)
    }
    return (interpreter, printed)
  }

  @Test func linesListsTheModeLineAsLineZero() throws {
    let (_, printed) = try Self.run([
      "2^10=  # base", "$1+1=", ":lines", ":lines 1", ":lines 0..1", ":edit 1 2^11=",
    ])
    #expect(printed[0] == "1,024\n")
    #expect(printed[1] == "1,025\n")
    #expect(
      printed[2]
        == "  line  step  keys   display  note\n" + "     0     1  sci    0\n"
        + "     1     2  2^10=  1,024    base\n" + "▶    2     7  $1+1=  1,025\n")
    #expect(printed[3] == "  line  step  keys   display\n" + "▶    2     7  $1+1=  1,025\n")
    #expect(
      printed[4]
        == "  line  step  keys   display  note\n" + "     0     1  sci    0\n"
        + "     1     2  2^10=  1,024    base\n")
    #expect(
      printed[5]
        == "branch 2 (from branch 1): line 1 changed; 2 results changed: 1,024 → 2,048 (step 6), "
        + "1,025 → 2,049 (step 10)\n2,049\n")
  }

  /// A lone mode key put in line 1's place of a branch without a mode line becomes line 0, and
  /// the change report says so; one inserted later is an ordinary line (SPEC §11).
  @Test func aChangeThatMakesTheModeLineSaysSo() throws {
    func printed(_ lines: [String]) throws -> [String] {
      var interpreter = LineInterpreter(context: LineInterpreter.Context(format: .posix))
      return try lines.map { line in
        let output = OutputBuffer()
        try interpreter.run(line, output: output)
        return output.text
      }
    }
    let inserted = try printed(["1+2=", "3*4=", ":insert 1 sci", ":lines"])
    #expect(
      inserted[2]
        == "branch 2 (from branch 1): line 1 inserted as the mode line (line 0); no results "
        + "changed\n12\n")
    #expect(
      inserted[3]
        == "  line  step  keys  display\n" + "     0     1  sci   0\n"
        + "     1     2  1+2=  3\n" + "▶    2     6  3*4=  12\n")
    let edited = try printed(["1+2=", "3*4=", ":edit 1 sci"])
    #expect(
      edited[2]
        == "branch 2 (from branch 1): line 1 changed, now the mode line (line 0); 1 result "
        + "changed: 3 → 0 (step 1)\n12\n")
    let later = try printed(["1+2=", "3*4=", ":insert 2 sci"])
    #expect(later[2] == "branch 2 (from branch 1): line 2 inserted; no results changed\n12\n")
  }

  @Test(
    arguments: [
      (
        "$0+1=",
        "$0 refers to the mode line, line 0, which has no result to recall; this is line 2 at "
          + "column 1", 1
      ),
      (
        "1+$0=",
        "$0 refers to the mode line, line 0, which has no result to recall; this is "
          + "line 2 at column 3", 3
      ),
      (":edit 0 5=", "cannot edit line 0: it is the mode line, which stays (lines: 1…1)", 7),
      (":edit 0", "cannot edit line 0: it is the mode line, which stays (lines: 1…1)", 7),
      (":delete 0", "cannot delete line 0: it is the mode line, which stays (lines: 1…1)", 9),
      (
        ":note 0 mode",
        "cannot set the note of line 0: it is the mode line, which stays (lines: 1…1)", 7
      ),
      (":vary 0 std", "cannot vary line 0: it is the mode line, which stays (lines: 1…1)", 7),
    ] as [(String, String, Int)])
  func lineZeroIsRefusedAndNothingChanges(line: String, message: String, column: Int) throws {
    var (interpreter, _) = try Self.run(["2^10="])
    let before = SessionScript.text(of: interpreter.session.history)
    #expect(throws: LineError(message, column: column)) {
      try interpreter.run(line, output: OutputBuffer())
    }
    #expect(SessionScript.text(of: interpreter.session.history) == before)
  }

  /// Tab after `$` offers lines 1 on, never the mode line; the REPL's `:edit L` prefills line L.
  @Test func completionAndTheEditRequestCountFromLineOne() throws {
    var (interpreter, _) = try Self.run([])
    #expect(interpreter.referableLineCount == 0)
    try interpreter.run("2^10=", output: OutputBuffer())
    try interpreter.run("$1+1=", output: OutputBuffer())
    #expect(interpreter.referableLineCount == 2)
    let request = Array(":edit 1".utf8).withUnsafeBufferPointer { try? ScriptLine($0) }
    #expect(interpreter.request(for: request) == .editLine(1, keys: "2^10="))
    let zero = Array(":edit 0".utf8).withUnsafeBufferPointer { try? ScriptLine($0) }
    #expect(interpreter.request(for: zero) == nil)
    // The live row under `:edit L` shows line L, or why line 0 cannot be edited.
    #expect(
      interpreter.preview(of: Array(":edit 1".utf8))
        == .result(expression: "line 1: 2^10=", display: "1,024"))
    #expect(
      interpreter.preview(of: Array(":edit 0".utf8))
        == .error("cannot edit line 0: it is the mode line, which stays (lines: 1…2)"))
  }
}

/// `calc FILE` reads a key line's trailing comment as its note in a hand-written script and in
/// format 3, and as a comment in format 2 and older (SPEC §4), as `:load` and `--resume` do.
@Suite struct ScriptNotesFollowTheFormatTests {
  @Test(
    arguments: [
      ("", true), ("# calc session, format 3: 1 branch, at step 4 of 4 on branch 1\n", true),
      ("# calc session, format 2: 1 branch, at step 4 of 4 on branch 1\n", false),
      ("# calc session: 1 branch, at step 4 of 4 on branch 1\n", false),
    ] as [(String, Bool)])
  func aTrailingCommentIsANoteFromFormat3(header: String, isNote: Bool) throws {
    let lines =
      isNote
      ? "  line  step  keys  display  note\n▶    1     1  1+2=  3        three\n"
      : "  line  step  keys  display\n▶    1     1  1+2=  3\n"
    try expectScript(["-"], stdin: header + "1+2=  # three\n:lines\n", stdout: "3\n" + lines)
  }
}
