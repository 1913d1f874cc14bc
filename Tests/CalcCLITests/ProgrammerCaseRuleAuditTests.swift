import CalcCore
import CalculatorEngine
import Foundation
import Testing

/// SPEC §10's case rule, the runs its sentence lists and the front-end tests did not hold:
/// `DWORD` and `ROLC` cannot be read as hex digits (W, O, R, L are none), so `DWORD` is rejected
/// with the hint naming the key in every radix and `ROLC` in HEX is read as `rol C` with a
/// note; a capitalised word key (`Dword`, `DWord`: the digit D, then the key `word`) gets the
/// same note or hint instead of silence. And the prompt of §10's example, whole.
@Suite struct ProgrammerCaseRuleAuditTests {
  @Test func runsThatCannotBeHexDigitsAndCapitalisedWordKeys() throws {
    let dword = "the key DWORD is dword"
    let cases: [(keys: String, stdout: String, stderr: String, status: Int32)] = [
      ("prog DWORD", "", "calc: --keys: unknown key 'W' at column 7 (\(dword))\n", 65),
      (
        "prog hex ROLC", "C\n",
        "calc: note: 'ROLC' was read as rol C; the key RoLC is rolc\n"
          + "calc: note: RoL acted on 0 and C started a new number (RoL acts on the number "
          + "before it: Crol)\n", 0
      ),
      ("prog hex Dword 5", "5\n", "calc: note: 'Dword' was read as D word; \(dword)\n", 0),
      ("prog hex DWord 5", "5\n", "calc: note: 'DWord' was read as D word; \(dword)\n", 0),
      (
        "prog Dword 5", "",
        "calc: --keys: 'D' is a hex digit (type hex first) at column 6 (\(dword))\n", 65
      ),
      (
        "prog 5 Ac", "",
        "calc: --keys: 'A' is a hex digit (type hex first) at column 8 (the key AC is ac)\n", 65
      ),
      // Lower case and other words are read as before, with no note.
      ("prog hex dword F", "F\n", "", 0), ("prog hex Word 5", "5\n", "", 0),
      ("prog hex F and 3=", "3\n", "", 0),
    ]
    for (keys, stdout, stderr, status) in cases {
      try expectScript(["-k", keys], stdout: stdout, stderr: stderr, status: status)
    }
  }

  /// `calc prog hex byte b2[3/8] M> `: mode, radix, word size, branch with the position, memory.
  @Test func thePromptOfTheSpecWhole() throws {
    var interpreter = LineInterpreter(format: DisplayFormat(localeIdentifier: "en_US"))
    for line in ["prog hex byte 1 ms", "2", "3", ":goto 6", "4", "5", ":goto 6"] {
      try interpreter.run(line, output: OutputBuffer())
    }
    #expect(Prompt.text(for: interpreter, columns: nil) == "calc prog hex byte b2[6/8] M> ")
  }
}
