import CalculatorEngine
import Testing

/// SPEC §2 rules 14, 16 and 17 for the keys of Windows Calculator's Standard keypad that the
/// book's calculator did not have: √, x², 1/x and the memory register. Every SPEC example, then
/// rows of our own per rule; expected displays were worked out by hand from the rules (decimal
/// digits of roots with Python's `decimal` at 34 digits, half to even), never taken from calc.
@Suite struct KeypadTests {
  static let format = DisplayFormat(localeIdentifier: "en_US")

  static let specExamples: [DisplayCase] = [
    // §2.14 Errors
    DisplayCase(keys: "9~@", expected: "Invalid input", origin: "§2.14 example"),
    // §2.16 Unary keys
    DisplayCase(keys: "9@", expected: "3", origin: "§2.16 example"),
    DisplayCase(keys: "5q", expected: "25", origin: "§2.16 example"),
    DisplayCase(keys: "4r", expected: "0.25", origin: "§2.16 example"),
    DisplayCase(keys: "9@5", expected: "5", origin: "§2.16 example"),
    DisplayCase(keys: "9@~", expected: "-3", origin: "§2.16 example"),
    DisplayCase(keys: "2+9@=", expected: "5", origin: "§2.16 example"),
    DisplayCase(keys: "8*2+@", expected: "4", origin: "§2.16 example"),
    DisplayCase(keys: "5+@=", expected: "7.23606798", origin: "§2.16 example"),
    DisplayCase(keys: "3q+q=", expected: "90", origin: "§2.16 example"),
    DisplayCase(keys: "2+3=@=", expected: "5.23606798", origin: "§2.16 example"),
    DisplayCase(keys: "256@@@", expected: "2", origin: "§2.16 example"),
    DisplayCase(keys: "0r", expected: "Cannot divide by zero", origin: "§2.16 example (1/0)"),
    // §2.17 Memory
    DisplayCase(keys: "12ms3", expected: "3", origin: "§2.17 example"),
    DisplayCase(keys: "5+ms*3=", expected: "15", origin: "§2.17 example"),
    DisplayCase(keys: "2+3=ms=", expected: "8", origin: "§2.17 example"),
    DisplayCase(keys: "5ms c 12mr", expected: "5", origin: "§2.17 example"),
    DisplayCase(keys: "5ms c 2+mr=", expected: "7", origin: "§2.17 example"),
    DisplayCase(keys: "5ms c 2+3=mr=", expected: "8", origin: "§2.17 example"),
    DisplayCase(keys: "5m+m+ c mr", expected: "10", origin: "§2.17 example"),
    DisplayCase(keys: "5ms3m- c mr", expected: "2", origin: "§2.17 example"),
    DisplayCase(keys: "12mr", expected: "12", origin: "§2.17 example (empty memory)"),
  ]

  @Test(arguments: specExamples) func specExample(_ row: DisplayCase) throws {
    #expect(try display(row.keys, format: Self.format) == row.expected)
  }

  static let rule14Errors: [DisplayCase] = [
    DisplayCase(keys: "4~@", expected: "Invalid input", origin: "√ of a negative entry"),
    DisplayCase(keys: "2+9~@", expected: "Invalid input", origin: "√ of a negative right operand"),
    DisplayCase(keys: "2-5=@", expected: "Invalid input", origin: "√ of a negative result"),
    DisplayCase(keys: "3~+@", expected: "Invalid input", origin: "√ of the left operand shown"),
    DisplayCase(keys: "9~@5", expected: "5", origin: "a digit starts a new calculation"),
    DisplayCase(keys: "9~@+", expected: "Invalid input", origin: "operators are ignored"),
    DisplayCase(keys: "9~@q", expected: "Invalid input", origin: "unary keys are ignored"),
    DisplayCase(keys: "9~@=", expected: "Invalid input", origin: "= is ignored"),
    DisplayCase(keys: "9~@ce", expected: "0", origin: "CE clears"),
    DisplayCase(keys: "9~@c", expected: "0", origin: "AC clears"),
    DisplayCase(keys: "9~@.5+1=", expected: "1.5", origin: "the point starts a new number"),
    DisplayCase(keys: "5+0r", expected: "Cannot divide by zero", origin: "1/0 as right operand"),
    DisplayCase(keys: "0r3*2=", expected: "6", origin: "recovery after 1/0"),
    // 10^15 squared is 10^30; squared again 10^60; again 10^120 ≥ 10^100.
    DisplayCase(
      keys: "1000000000000000q", expected: "1,000,000,000,000,000,000,000,000,000,000",
      origin: "x² exact"),
    DisplayCase(keys: "1000000000000000qqq", expected: "Overflow", origin: "x² overflows"),
    DisplayCase(keys: "1000000000000000qqr", expected: "1E-60", origin: "1/x small"),
    // (10^-60)² = 10^-120: nonzero below 10^-100 becomes 0.
    DisplayCase(keys: "1000000000000000qqrq", expected: "0", origin: "x² underflows to 0"),
  ]

  static let rule16Unary: [DisplayCase] = [
    // On a typed entry.
    DisplayCase(keys: "2@", expected: "1.41421356", origin: "√2 rounded to 8 places"),
    DisplayCase(keys: "1.44@", expected: "1.2", origin: "√ of a decimal entry"),
    DisplayCase(keys: "0.5q", expected: "0.25", origin: "x² of a decimal entry"),
    DisplayCase(keys: "3~q", expected: "9", origin: "x² of a negative entry"),
    DisplayCase(keys: "3r", expected: "0.33333333", origin: "1/x of an entry"),
    DisplayCase(keys: "0@", expected: "0", origin: "√0"),
    DisplayCase(keys: "0q", expected: "0", origin: "0²"),
    DisplayCase(keys: "1000000000r", expected: "1E-9", origin: "1/x in scientific notation"),
    // On a result.
    DisplayCase(keys: "10-4=q", expected: "36", origin: "x² of a result"),
    DisplayCase(keys: "10-4=q=", expected: "32", origin: "= repeats −4 on the answer"),
    DisplayCase(keys: "3r*3=", expected: "1", origin: "(1/3 to 34 digits)×3 shows 1"),
    // Right after an operator: on the left operand shown, as the right operand.
    DisplayCase(keys: "7*@", expected: "2.64575131", origin: "√ of the left operand shown"),
    DisplayCase(keys: "7*@=", expected: "18.52025918", origin: "7×√7"),
    DisplayCase(keys: "4+r=", expected: "4.25", origin: "4 + 1/4"),
    // In a chain.
    DisplayCase(keys: "2+3q", expected: "9", origin: "x² of the right operand"),
    DisplayCase(keys: "2+3q=", expected: "11", origin: "2 + 3²"),
    DisplayCase(keys: "6+4@*", expected: "8", origin: "the operator completes 6 + √4"),
    DisplayCase(keys: "6+4@*3=", expected: "24", origin: "(6 + √4) × 3"),
    DisplayCase(keys: "16r@", expected: "0.25", origin: "√(1/16)"),
    // Nested, and what follows a unary answer.
    DisplayCase(keys: "9@@", expected: "1.73205081", origin: "√√9 = √3"),
    DisplayCase(keys: "2@q", expected: "2", origin: "(√2)² at 34 digits"),
    DisplayCase(keys: "4rr", expected: "4", origin: "1/(1/4)"),
    DisplayCase(keys: "5q<", expected: "25", origin: "backspace does nothing"),
    DisplayCase(keys: "4@5+", expected: "5", origin: "a digit starts a new number"),
    DisplayCase(keys: "9@.5", expected: "0.5", origin: "the point starts a new number"),
    DisplayCase(keys: "9@%", expected: "0.03", origin: "percent of the answer"),
    DisplayCase(keys: "2+3=@ce=", expected: "3", origin: "CE then = repeats +3 on 0"),
  ]

  static let rule17Memory: [DisplayCase] = [
    // MS on an entry, a result, mid-operation and after =.
    DisplayCase(keys: "2+3=ms c mr", expected: "5", origin: "MS of a result"),
    DisplayCase(keys: "7+ms c mr", expected: "7", origin: "MS of the left operand shown"),
    DisplayCase(keys: "7+2ms=", expected: "9", origin: "MS keeps the operation"),
    DisplayCase(keys: "7+2ms5=", expected: "12", origin: "MS ends the entry: 5 replaces 2"),
    DisplayCase(keys: "1.50ms", expected: "1.5", origin: "MS shows the entry as a value"),
    // MR.
    DisplayCase(keys: "mr", expected: "0", origin: "MR of an empty memory does nothing"),
    DisplayCase(keys: "3ms c 10-mr=", expected: "7", origin: "MR as the right operand"),
    DisplayCase(keys: "3ms c 10-mr==", expected: "4", origin: "= repeats −3"),
    DisplayCase(keys: "2ms c 5*mr+", expected: "10", origin: "MR then an operator"),
    DisplayCase(keys: "4ms mr5", expected: "5", origin: "a digit after MR starts a new number"),
    DisplayCase(keys: "4ms c mr<", expected: "4", origin: "backspace does nothing after MR"),
    DisplayCase(keys: "4ms c mr~", expected: "-4", origin: "MR gives a computed value"),
    DisplayCase(keys: "9ms c mr@", expected: "3", origin: "√ of the recalled value"),
    // M+ and M−.
    DisplayCase(keys: "4m+5", expected: "5", origin: "M+ ends the entry"),
    DisplayCase(keys: "4m+5m+ c mr", expected: "9", origin: "M+ twice"),
    DisplayCase(keys: "3m- c mr", expected: "-3", origin: "M− on an empty memory"),
    DisplayCase(keys: "0.1m+0.2m+ c mr", expected: "0.3", origin: "exact decimal sum"),
    DisplayCase(keys: "2+3+m+ c mr", expected: "5", origin: "M+ of the left operand shown"),
    // M+ takes what the display shows: the entries 4.5 and 7, not the products.
    DisplayCase(keys: "3*4.5m+2*7m+ c mr", expected: "11.5", origin: "M+ of right operands"),
    DisplayCase(keys: "3*4.5=m+2*7=m+mr", expected: "27.5", origin: "an invoice total"),
    // MC.
    DisplayCase(keys: "5ms mc c mr", expected: "0", origin: "MC empties the memory"),
    DisplayCase(keys: "5mc3", expected: "53", origin: "MC on an empty memory does nothing"),
    DisplayCase(keys: "5ms6mc7=", expected: "7", origin: "MC ends the entry"),
    // Ignored while an error is shown.
    DisplayCase(keys: "1/0=ms c mr", expected: "0", origin: "MS ignored in error"),
    DisplayCase(keys: "5ms 1/0=mr", expected: "Cannot divide by zero", origin: "MR ignored"),
    DisplayCase(keys: "5ms 1/0=m+ c mr", expected: "5", origin: "M+ ignored in error"),
    DisplayCase(keys: "5ms 1/0=mc c mr", expected: "5", origin: "MC ignored in error"),
    DisplayCase(keys: "5ms 9~@3m+ c mr", expected: "8", origin: "after recovery M+ works"),
    // AC and CE leave the memory alone.
    DisplayCase(keys: "5ms ce mr", expected: "5", origin: "CE keeps the memory"),
    DisplayCase(keys: "5ms c c mr", expected: "5", origin: "AC keeps the memory"),
  ]

  @Test(arguments: rule14Errors + rule16Unary + rule17Memory) func rule(_ row: DisplayCase) throws {
    #expect(try display(row.keys, format: Self.format) == row.expected)
  }

  /// The register itself, not only what MR shows.
  static let registers: [(keys: String, memory: String?)] = [
    ("", nil), ("5", nil), ("5ms", "5"), ("5ms mc", nil), ("5m+m+", "10"), ("3m-", "-3"),
    ("5ms 1/0=m+", "5"), ("5ms c ce", "5"), ("2+3=ms", "5"), ("7+ms", "7"), ("1.50ms", "1.5"),
    ("0ms", "0"), ("5ms 5m-", "0"),
  ]

  @Test(arguments: registers) func register(_ keys: String, _ memory: String?) throws {
    let calculator = Calculator.initial.applying(try KeyText.keys(in: keys))
    #expect(calculator.memory.map { Self.format.text(for: $0) } == memory)
  }

  /// SPEC §2.17: time travel restores the memory with everything else.
  @Test func timeTravelRestoresTheMemory() throws {
    var session = Session()
    try session.perform(.keys(KeyText.keys(in: "5ms3m+ c")))
    let format = Self.format
    #expect(session.state.memory.map { format.text(for: $0) } == "8")
    try session.perform(.goto(.step(1)))
    #expect(session.state.memory == nil)
    try session.perform(.goto(.step(2)))
    #expect(session.state.memory.map { format.text(for: $0) } == "5")
    try session.perform(.goto(.step(0)))
    #expect(session.state == Calculator.initial)
    try session.perform(.goto(.step(5)))
    #expect(session.state.memory.map { format.text(for: $0) } == "8")
    try session.perform(.branch(1))
    #expect(session.state.memory.map { format.text(for: $0) } == "8")
  }

  /// `mr` after `0ms` recalls 0: a memory holding 0 is not an empty memory.
  @Test func memoryHoldingZeroIsNotEmpty() throws {
    #expect(try display("0ms c 7+mr=", format: Self.format) == "7")
    #expect(try display("0ms c 7+mr", format: Self.format) == "0")
  }
}
