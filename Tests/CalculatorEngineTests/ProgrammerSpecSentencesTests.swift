import CalcTestSupport
import CalculatorEngine
import Testing

/// SPEC §10 sentence by sentence, for the sentences whose examples ProgrammerModeTests,
/// ProgrammerConformanceTests and the front-end tests do not already hold: the mode key, the
/// word size and memory across modes, the display per radix, the carry, the omitted × after
/// radix and word-size keys, and a word-size key during an error. Keys from a fresh calculator,
/// the display on a terminal (en_US) and, where given, the expression line.
@Suite struct ProgrammerSpecSentencesTests {
  struct Row: CustomTestStringConvertible, Sendable {
    let keys: String
    let display: String
    let line: String?
    let sentence: String
    var testDescription: String { "\(sentence): \(keys) → \(display)" }
    init(_ keys: String, _ display: String, line: String? = nil, _ sentence: String) {
      (self.keys, self.display, self.line, self.sentence) = (keys, display, line, sentence)
    }
  }

  static let format = DisplayFormat(localeIdentifier: "en_US")

  static let rows: [Row] = [
    // Mode: `prog` clears the calculation — display, pending operations, brackets, the
    // carry — and returns to DEC; the word size persists across mode switches; memory kept.
    Row("prog 5+3 prog", "0", line: "", "prog clears the pending operation"),
    Row("prog hex prog 5~", "-5", "prog returns to DEC"),
    Row("prog (1+2 prog 3=", "3", line: "3 =", "prog clears the brackets"),
    Row("prog 1 rorc prog 0 rolc", "0", "prog clears the carry"),
    Row("prog byte std prog 127+1=", "-128", "the word size persists across std"),
    Row("prog byte sci prog 127+1=", "-128", "the word size persists across sci"),
    Row("prog 5 ms std mr", "5", "the memory is kept"),
    Row("prog 5 ms sci prog mr", "5", "the memory is kept"),
    // Values: two's complement in the word, truncated toward zero, wrapping.
    Row("prog byte 1 lsh 7=", "-128", line: "1 Lsh 7 =", "a shift wraps to the word"),
    Row("prog 1 lsh 63=", "-9,223,372,036,854,775,808", "a count below the word size"),
    Row("prog 7/2=", "3", "division truncates toward zero"),
    Row("prog 7~/2=", "-3", line: "-7 ÷ 2 =", "division truncates toward zero"),
    // v5: `~` on a 0 nobody typed does nothing in DEC, as rule 9 says (calc 0.4 said -5).
    Row("prog c~5", "5", "~ on a 0 after AC does nothing"),
    Row("prog 5 ce~5", "5", "~ on a 0 after CE does nothing"),
    Row("prog 0~5", "5", "~ on a typed 0 does nothing"),
    Row("prog c 5~", "-5", "~ after the digits negates"),
    Row("prog c~5+3=", "8", line: "5 + 3 =", "~ on a 0 then a calculation"),
    // Display: DEC by the locale, HEX and BIN in 4s (BIN padded), OCT in 3s.
    Row("prog 1234", "1,234", "DEC grouped by the locale"),
    Row("prog 7 bin", "0111", "BIN padded to 4 digits"),
    Row("prog 123456789 oct", "726 746 425", "OCT in groups of 3"),
    Row("prog 123456789 bin", "0111 0101 1011 1100 1101 0001 0101", "BIN in groups of 4"),
    // The carry: kept by CE, radix and word-size keys; cleared by AC and mode switches.
    Row("prog 1 rorc ce rolc", "1", "CE keeps the carry"),
    Row("prog 1 rorc hex rolc", "1", line: "RoLC(RoRC(1))", "a radix key keeps the carry"),
    Row("prog 1 rorc byte rolc", "1", "a word-size key keeps the carry"),
    Row("prog 1 rorc c rolc", "0", "AC clears the carry"),
    Row("prog 1 rorc std prog rolc", "0", "a mode switch clears the carry"),
    // Memory holds exact values, shown truncated to the current word.
    Row("prog 300 ms byte mr", "44", "memory shown in the current word"),
    Row("sci 2.5 ms prog mr", "2", "memory truncated toward zero"),
    Row("sci 2.5~ ms prog mr", "-2", "memory truncated toward zero"),
    Row("sci 2.5 ms prog mr std mr", "2.5", "memory holds exact values"),
    // `(` multiplies after a digit, not counting radix, word-size and memory keys (§9).
    Row("prog 2 hex (3)=", "6", line: "2 × (3) =", "the radix key does not count"),
    Row("prog 5 byte (2)=", "10", line: "5 × (2) =", "the word-size key does not count"),
    Row("prog 5 ms (2)=", "10", line: "5 × (2) =", "ms does not count"),
    // Keys: `<` is backspace, `rol c` is RoL then AC, `MS` and `MR` work, `c` is AC in HEX.
    Row("prog 12<", "1", "< is backspace"), Row("prog 5 rol c", "0", "rol c is RoL then AC"),
    Row("prog 5 MS c MR", "5", "MS and MR still work"), Row("prog hex c", "0", "c is AC"),
    Row("prog hex C", "C", "C is the digit"),
    // `bitN` after an operator flips a bit of the left operand.
    Row("prog 5+bit0", "4", line: "5 +", "bitN after an operator"),
    // Departures: a word-size key during an error clears it and sets the size; CE clears.
    Row("prog 1/0= byte 127+1=", "-128", line: "127 + 1 =", "a word-size key during an error"),
    Row("prog 1/0= ce", "0", line: "", "CE clears the error"),
  ]

  @Test(arguments: rows) func sentence(_ row: Row) throws {
    let state = Calculator.initial.applying(try KeyText.keys(in: row.keys))
    #expect(Self.format.text(for: state) == row.display)
    if let line = row.line {
      #expect(Self.format.expression(for: state) == line)
    }
  }

  /// The word size is QWORD at first, after `:reset` and at position 0, whatever it was.
  @Test func theWordSizeIsQWORDAfterResetAndAtPositionZero() throws {
    func session(_ lines: [String]) throws -> Session {
      var session = Session()
      for line in lines {
        try session.perform(.keys(try KeyText.keys(in: line, startingIn: session.state.mode)))
      }
      return session
    }
    var reset = try session(["prog byte"])
    #expect(reset.state.wordSize == .byte)
    try reset.perform(.reset)
    #expect(reset.state.wordSize == .qword)
    var start = try session(["prog byte"])
    try start.perform(.goto(.step(0)))
    #expect(start.state.wordSize == .qword)
    try start.perform(.keys(try KeyText.keys(in: "prog 127+1=")))
    #expect(Self.format.text(for: start.state) == "128")
  }
}
