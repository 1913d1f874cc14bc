import CalcCLI
import Foundation
import Testing

/// `calc > FILE` with a terminal on standard input (SPEC §5): the displays and command output go
/// to the file, ungrouped and without colour; the prompt, the echo, the start-up line, the
/// expression line, notes and errors go to the terminal, where the display is shown too, dimmed.
@Suite struct RedirectedOutputTests {
  /// calc on a pseudo-terminal in `directory`, its standard output the file `out.txt` there,
  /// once its start-up line and prompt are on the terminal.
  private func startCalc(in directory: URL, environment: [String: String] = ["NO_COLOR": "1"])
    throws -> TerminalSession
  {
    try "".write(
      to: directory.appendingPathComponent(".inputrc"), atomically: true, encoding: .utf8)
    var variables = environment
    variables["HOME"] = directory.path
    let calc = try TerminalSession(
      directory: directory, environment: variables,
      standardOutput: directory.appendingPathComponent("out.txt").path)
    try calc.wait(for: "the start-up line and a prompt") { calc in
      calc.lines.count == 2 && calc.lines[0] == REPLTests.startupLine && calc.lines[1] == "calc> "
    }
    return calc
  }

  @Test func displaysGoToTheFileAndThePersonSeesEverything() throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory)
      try calc.type("1000+234=\r")
      try calc.waitForLastLines(["calc> 1000+234=", "1,000 + 234 =", "1,234", "calc> "])
      try calc.type("12x\r")
      try calc.waitForLastLines([
        "calc> 12x", "error: unknown key 'x' at column 3 (× is '*')", "calc> ",
      ])
      try calc.type("3*4=@16\r")
      try calc.waitForLastLines([
        "calc> 3*4=@16",
        "note: √ acted on 12 and 16 started a new number (√ acts on the number before it: 16@)",
        "16", "calc> ",
      ])
      try calc.type(":keys\r")
      try calc.waitForLastLines(["calc> :keys", "16", "calc> "])
      try calc.type(":quit\r")
      #expect(try calc.waitForExit() == 0)
      let file = try Script.read("out.txt", in: directory)
      #expect(file == "1234\n16\n1000+234=\n3*4=@16\n")
      // NO_COLOR: nothing is painted, on the terminal either.
      #expect(!calc.text.contains("\u{1B}[2m"))
    }
  }

  @Test func withColourTheTerminalsDisplayIsDimmedAndTheFileHasNoEscapes() throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory, environment: [:])
      try calc.type("1000+234=\r")
      try calc.waitForLastLines(["calc> 1000+234=", "1,000 + 234 =", "1,234", "calc> "])
      #expect(calc.text.contains("\u{1B}[2m1,234\u{1B}[0m"))
      try calc.type(":quit\r")
      #expect(try calc.waitForExit() == 0)
      #expect(try Script.read("out.txt", in: directory) == "1234\n")
    }
  }
}

/// SPEC §4 on the pseudo-terminal: `:save` does not replace a file this REPL neither saved nor
/// loaded, and changes nothing; `:save!` does.
@Suite struct SaveProtectionOnTheTerminalTests {
  @Test func saveRefusesAnotherFileAndSaveBangReplacesIt() throws {
    try withTemporaryDirectory { directory in
      try "".write(
        to: directory.appendingPathComponent(".inputrc"), atomically: true, encoding: .utf8)
      try Script.write("# someone else's\n", to: "other.calc", in: directory)
      let calc = try TerminalSession(
        directory: directory, environment: ["HOME": directory.path, "NO_COLOR": "1"])
      try calc.wait(for: "a prompt") { $0.lines.last == "calc> " }
      try calc.type("12+3=\r")
      try calc.waitForLastLines(["calc> 12+3=", "12 + 3 =", "15", "calc> "])
      try calc.type(":save other.calc\r")
      let refusal =
        "error: 'other.calc' exists, and this session did not save or load it; to replace it: "
        + ":save! other.calc"
      // Broken at a space to fit the 100 columns (SPEC §6: messages wrap at spaces).
      try calc.wait(for: "the refusal and a prompt") { calc in
        calc.lines.joined(separator: " ").contains(refusal) && calc.lines.last == "calc> "
      }
      #expect(try Script.read("other.calc", in: directory) == "# someone else's\n")
      try calc.type(":save! other.calc\r")
      try calc.waitForLastLines([
        "calc> :save! other.calc", "saved 5 keys at step 5 to other.calc", "calc> ",
      ])
      #expect(try Script.read("other.calc", in: directory).contains("12+3="))
      // Saved by this session, the file is replaced by a plain :save from now on.
      try calc.type("*2=\r")
      try calc.waitForLastLines(["calc> *2=", "15 × 2 =", "30", "calc> "])
      try calc.type(":save other.calc\r")
      try calc.waitForLastLines([
        "calc> :save other.calc", "saved 8 keys at step 8 to other.calc", "calc> ",
      ])
      try calc.type(":quit\r")
      #expect(try calc.waitForExit() == 0)
    }
  }
}
