import CalcCore
import CalculatorEngine
import Testing

/// `:edit L` without keys is a request the command table returns to the REPL (line L's keys to
/// edit), not a command name the loop compares; every other line runs as it is.
struct LineRequestTests {
  @Test(arguments: [
    (":edit 2", LineRequest.editLine(2, keys: "*4=")),
    (":edit 1  ", .editLine(1, keys: "12+3=")),
    (" :edit 3", .editLine(3, keys: "-1=")),
    (":edit 4", nil),
    (":edit 0", nil),
    (":edit 2 *5=", nil),
    (":edit x", nil),
    (":delete 2", nil),
    ("12+3=", nil),
    ("", nil),
  ])
  func editWithoutKeysAsksForTheLine(line: String, request: LineRequest?) throws {
    var interpreter = LineInterpreter(format: .posix)
    for keys in ["12+3=", "*4=", "-1="] { try interpreter.run(keys, output: OutputBuffer()) }
    let parsed = Array(line.utf8).withUnsafeBufferPointer { try? ScriptLine($0) }
    #expect(interpreter.request(for: parsed) == request)
  }
}
