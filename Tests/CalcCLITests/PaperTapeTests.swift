import Foundation
import Testing

/// The `paper-tape` example (Examples/PaperTape), run as the built binary beside the test
/// bundle, like `calc`.
@Suite struct PaperTapeTests {
  /// Runs paper-tape with `arguments` and `stdin`.
  static func run(_ arguments: [String], stdin: String = "") throws -> CalcRun {
    try CalcProcess.run(
      arguments, stdin: Data(stdin.utf8), executable: CalcProcess.product("paper-tape"))
  }

  static let tape12plus3 = """
    paper tape
     1  1
    12  2
    12  +
     3  3
    15  =

      step  key  expression  display
         0                   0
         1  1    1           1
         2  2    12          12
         3  +    12+         12
         4  3    12+3        3
    ▶    5  =    12+3=       15
    position 5 of 5

    goto 2        12
    undo 1        0
    redo 1        15
    goto 6        step 6 is out of range 0…5

    """

  @Test func tapeFromArguments() throws {
    let run = try Self.run(["12+3="])
    #expect(run.stdout == Self.tape12plus3)
    #expect(run.stderr == "")
    #expect(run.status == 0)
  }

  @Test func tapeFromStandardInput() throws {
    // Two lines this time: `:undo 1` still goes back to where the line holding step 2 began,
    // and `redo 2` forward over both lines.
    let run = try Self.run([], stdin: "1 2 + # a comment\n3 =\n")
    #expect(
      run.stdout == Self.tape12plus3.replacingOccurrences(of: "redo 1  ", with: "redo 2  "))
    #expect(run.status == 0)
  }

  @Test func titlesAndErrorsOnTheTape() throws {
    let run = try Self.run(["6÷0=", "~"])
    #expect(
      run.stdout.hasPrefix(
        """
        paper tape
                            6  6
                            6  ÷
                            0  0
        Cannot divide by zero  =
        Cannot divide by zero  +/-

        """))
    #expect(run.status == 0)
  }

  @Test func badKeyExits65() throws {
    let run = try Self.run(["12+3=", "4x"])
    #expect(run.stdout == "")
    #expect(run.stderr == "paper-tape: line 2: unknown key 'x' at column 2 (× is '*')\n")
    #expect(run.status == 65)
  }
}
