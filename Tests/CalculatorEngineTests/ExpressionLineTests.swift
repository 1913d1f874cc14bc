import CalcTestSupport
import CalculatorEngine
import Testing

/// SPEC §3.1: the expression line beside the display. Every example of the spec, then rows of
/// our own over every rule; each expected text was worked out by hand from the rules.
@Suite struct ExpressionLineTests {
  static let format = DisplayFormat(localeIdentifier: "en_US")

  /// A row: keys, and the exact expression line after them.
  struct Row: CustomTestStringConvertible, Sendable {
    let keys: String
    let expression: String
    let origin: String
    var testDescription: String { "\(origin): \(keys) → ‘\(expression)’" }
  }

  static func expression(_ keys: String, format: DisplayFormat = format) throws -> String {
    format.expression(for: Calculator.initial.applying(try KeyText.keys(in: keys)).standard!)
  }

  static let specExamples: [Row] = [
    Row(keys: "12+", expression: "12 +", origin: "§3.1 operator pending"),
    Row(keys: "50+20%", expression: "50 + 10", origin: "§3.1 computed right operand"),
    Row(keys: "9+~", expression: "9 + negate(9)", origin: "§3.1 computed right operand"),
    Row(keys: "12+3", expression: "12 +", origin: "§3.1 not while typed"),
    Row(keys: "12+3=", expression: "12 + 3 =", origin: "§3.1 after ="),
    Row(keys: "4+=", expression: "4 + 4 =", origin: "§3.1 after ="),
    Row(keys: "8*2==", expression: "16 × 2 =", origin: "§3.1 repeated ="),
    Row(keys: "13=", expression: "13 =", origin: "§3.1 nothing pending"),
    Row(keys: "1+2*", expression: "3 ×", origin: "§3.1 an operator completes"),
    Row(keys: "1+2*3=", expression: "3 × 3 =", origin: "§3.1 an operator completes"),
    Row(keys: "9@", expression: "√(9)", origin: "§3.1 unary"),
    Row(keys: "3q", expression: "sqr(3)", origin: "§3.1 unary"),
    Row(keys: "4r", expression: "1/(4)", origin: "§3.1 unary"),
    Row(keys: "256@@", expression: "√(√(256))", origin: "§3.1 unary nested"),
    Row(keys: "2+3q", expression: "2 + sqr(3)", origin: "§3.1 unary right operand"),
    Row(keys: "4r+2=", expression: "1/(4) + 2 =", origin: "§3.1 unary left operand"),
    Row(keys: "2+3=~", expression: "negate(5)", origin: "§3.1 sign change on a result"),
    Row(keys: "1/0=", expression: "1 ÷ 0 =", origin: "§3.1 after an error"),
    Row(keys: "9~@", expression: "√(-9)", origin: "§3.1 after an error"),
    Row(keys: "", expression: "", origin: "§3.1 empty at the start"),
    Row(keys: "123", expression: "", origin: "§3.1 empty while typing a first number"),
    Row(keys: "12+3c", expression: "", origin: "§3.1 empty after AC"),
    Row(keys: "2+3=4", expression: "", origin: "§3.1 empty when a digit starts anew after ="),
    Row(keys: "2+3=<", expression: "", origin: "§3.1 empty after ⌫ that follows a calculating ="),
    Row(keys: "13=<", expression: "13 =", origin: "§3.1 ⌫ after an = that calculated nothing"),
    Row(keys: "5ms c 2+mr", expression: "2 +", origin: "§3.1 mr acts like typing"),
    Row(keys: "12+3ms", expression: "12 +", origin: "§3.1 memory keys leave it"),
  ]

  static let ownRows: [Row] = [
    // Chains.
    Row(keys: "1+2+", expression: "3 +", origin: "chain"),
    Row(keys: "1+2+3", expression: "3 +", origin: "chain, typing"),
    Row(keys: "1+2+3=", expression: "3 + 3 =", origin: "chain completed"),
    Row(keys: "2*3-1=", expression: "6 - 1 =", origin: "chain completed"),
    Row(keys: "10/4*", expression: "2.5 ×", origin: "chain with a fraction"),
    Row(keys: "5+*", expression: "5 ×", origin: "operator replaced"),
    // Repeated `=`.
    Row(keys: "2+3==", expression: "5 + 3 =", origin: "repeat"),
    Row(keys: "2+3===", expression: "8 + 3 =", origin: "repeat twice"),
    Row(keys: "10-2==", expression: "8 - 2 =", origin: "repeat −"),
    Row(keys: "4+==", expression: "8 + 4 =", origin: "repeat of x op ="),
    Row(keys: "2+3=4=", expression: "4 + 3 =", origin: "a new number keeps the operation"),
    Row(keys: "2+3=*", expression: "5 ×", origin: "an operator after ="),
    // Percent.
    Row(keys: "50+20%=", expression: "50 + 10 =", origin: "percent of +"),
    Row(keys: "6*6%", expression: "6 × 0.06", origin: "percent of ×"),
    Row(keys: "6*6%=", expression: "6 × 0.06 =", origin: "percent of ×, ="),
    Row(keys: "10+%", expression: "10 + 1", origin: "percent right after the operator"),
    Row(keys: "200-5%", expression: "200 - 10", origin: "percent of −"),
    Row(keys: "10%", expression: "0.1", origin: "percent with nothing pending"),
    Row(keys: "10%%", expression: "0.001", origin: "percent twice"),
    // Sign change on entries and on results.
    Row(keys: "6~", expression: "", origin: "sign of an entry"),
    Row(keys: "12+6~", expression: "12 +", origin: "sign of a right entry"),
    Row(keys: "2+3=~=", expression: "negate(5) + 3 =", origin: "negated result, repeat"),
    Row(keys: "2+3=~~", expression: "negate(negate(5))", origin: "negated twice"),
    Row(keys: "5+~~", expression: "5 + negate(negate(5))", origin: "negated right operand twice"),
    Row(keys: "4r+~", expression: "1/(4) + negate(0.25)", origin: "negate the value shown"),
    // CE after an operator.
    Row(keys: "12+ce", expression: "12 +", origin: "CE after the operator"),
    Row(keys: "12+5ce", expression: "12 +", origin: "CE on the right entry"),
    Row(keys: "12+5ce2=", expression: "12 + 2 =", origin: "CE then a new entry"),
    Row(keys: "2+3=ce", expression: "", origin: "CE after ="),
    Row(keys: "2+3=ce=", expression: "0 + 3 =", origin: "CE then = repeats on 0"),
    // Unary keys nested and in chains.
    Row(keys: "256@@@", expression: "√(√(√(256)))", origin: "nested thrice"),
    Row(keys: "3qq", expression: "sqr(sqr(3))", origin: "nested squares"),
    Row(keys: "4rr", expression: "1/(1/(4))", origin: "nested reciprocals"),
    Row(keys: "9@~", expression: "negate(√(9))", origin: "sign of a root"),
    Row(keys: "1.50@", expression: "√(1.5)", origin: "numbers written like computed values"),
    Row(keys: "2*4@", expression: "2 × √(4)", origin: "unary on the right entry"),
    Row(keys: "2*4@=", expression: "2 × √(4) =", origin: "unary right operand completed"),
    Row(keys: "8*2+@", expression: "16 + √(16)", origin: "unary on the left shown"),
    Row(keys: "5+@=", expression: "5 + √(5) =", origin: "unary right after the operator"),
    Row(keys: "9@+1=", expression: "√(9) + 1 =", origin: "unary left operand"),
    Row(keys: "3q+q=", expression: "sqr(3) + sqr(9) =", origin: "the right starts from the value"),
    Row(keys: "4r+=", expression: "1/(4) + 0.25 =", origin: "x op = with a unary left"),
    Row(keys: "2+3=@", expression: "√(5)", origin: "unary after ="),
    Row(keys: "2+3=q=", expression: "sqr(5) + 3 =", origin: "unary after =, repeat"),
    Row(keys: "1+4@-", expression: "3 -", origin: "an operator completes a unary chain"),
    Row(keys: "9@5", expression: "", origin: "a digit after a unary answer"),
    // Errors.
    Row(keys: "0/0=", expression: "0 ÷ 0 =", origin: "undefined"),
    Row(keys: "5/0+", expression: "5 ÷ 0 +", origin: "error at an operator"),
    Row(keys: "2+9~@", expression: "2 + √(-9)", origin: "invalid right operand"),
    Row(keys: "0r", expression: "1/(0)", origin: "1/0"),
    Row(keys: "1/0=5", expression: "", origin: "a digit starts anew"),
    Row(keys: "1/0=+", expression: "1 ÷ 0 =", origin: "ignored keys leave it"),
    Row(keys: "1/0=ce", expression: "", origin: "CE clears the error"),
    Row(
      keys: "1000000000000000qqq", expression: "sqr(sqr(sqr(1,000,000,000,000,000)))",
      origin: "overflow"),
    // AC.
    Row(keys: "2+3=c", expression: "", origin: "AC after ="),
    Row(keys: "9@c", expression: "", origin: "AC after a unary key"),
    // Memory keys.
    Row(keys: "2+3=ms", expression: "2 + 3 =", origin: "MS after ="),
    Row(keys: "9@m+", expression: "√(9)", origin: "M+ after a unary key"),
    Row(keys: "5ms c mr", expression: "", origin: "MR like typing a first number"),
    Row(keys: "5ms c 2+mr=", expression: "2 + 5 =", origin: "MR completed by ="),
    Row(keys: "5ms c 2+mr@", expression: "2 + √(5)", origin: "unary on a recalled number"),
    Row(keys: "7+2ms", expression: "7 +", origin: "MS ends the entry, line unchanged"),
    Row(keys: "7+2ms=", expression: "7 + 2 =", origin: "MS then ="),
    Row(keys: "mc", expression: "", origin: "MC on an empty memory"),
    // Backspace after `=`.
    Row(keys: "12+3<", expression: "12 +", origin: "⌫ on the right entry"),
    Row(keys: "2+3=@<", expression: "√(5)", origin: "⌫ after a unary key"),
    Row(keys: "2+3=<<", expression: "", origin: "⌫ twice"),
  ]

  @Test(arguments: specExamples) func specExample(_ row: Row) throws {
    #expect(try Self.expression(row.keys) == row.expression)
  }

  @Test(arguments: ownRows) func rule(_ row: Row) throws {
    #expect(try Self.expression(row.keys) == row.expression)
  }

  @Test func atLeastFortyRowsOfOurOwn() {
    #expect(Self.ownRows.count >= 40)
  }

  /// Numbers are written like the display in the chosen locale.
  @Test func localeFormatsTheNumbers() throws {
    let german = DisplayFormat(localeIdentifier: "de_DE")
    #expect(try Self.expression("1234.5+", format: german) == "1.234,5 +")
    #expect(try Self.expression("2~@", format: german) == "√(-2)")
    #expect(try Self.expression("1/4=", format: german) == "1 ÷ 4 =")
    #expect(try Self.expression("10/4*", format: german) == "2,5 ×")
  }

  /// Past 27 wrappers the outer ones are counted and written `…(…)`.
  @Test func deepNesting() throws {
    #expect(CalculatorBrain.Term.maximumStoredWrappers == 27)
    let keys = "1" + String(repeating: "q", count: 28)
    let expected =
      "…(" + String(repeating: "sqr(", count: 27) + "1" + String(repeating: ")", count: 27) + ")"
    #expect(try Self.expression(keys) == expected)
    let exact = "1" + String(repeating: "q", count: 27)
    #expect(
      try Self.expression(exact)
        == String(repeating: "sqr(", count: 27) + "1" + String(repeating: ")", count: 27))
    // The depth saturates at 255 without trapping; the text stays the same.
    #expect(try Self.expression("1" + String(repeating: "q", count: 300)) == expected)
    let term = Calculator.initial.applying(
      try KeyText.keys(in: "1" + String(repeating: "r", count: 300))
    ).standard!
    if case .left(.value(let value), _, _) = term {
      #expect(value.term.depth == 255)
      #expect(value.term.isTyped)  // its base, 1, was typed
    } else {
      Issue.record("expected a computed value")
    }
  }

  /// The expression line is a function of the state: after `goto p` it equals the line
  /// after replaying the first p keys, for random key sequences and positions (16 sequences of
  /// 25 positions; 100 with `CALC_LONG_TESTS=1`).
  @Test func timeTravelShowsTheLineOfThePrefix() throws {
    var random = SplitMix64(state: 0xE1_9E55)
    let keys = Key.standardKeys
    for _ in 0..<TestSize.count(short: 16, long: 100) {
      let sequence = (0..<random.int(1...700)).map { _ in keys[random.below(keys.count)] }
      var session = Session()
      try session.perform(.keys(sequence))
      for _ in 0..<25 {
        let position = random.int(0...sequence.count)
        try session.perform(.goto(.step(position)))
        let replayed = Calculator.initial.applying(sequence.prefix(position))
        #expect(
          Self.format.expression(for: session.state)
            == Self.format.expression(for: replayed))
      }
    }
  }
}

/// The rows of a paper tape: the calculation each key completes (`:tape`, SPEC §4).
@Suite struct CompletedCalculationTests {
  static let format = DisplayFormat(localeIdentifier: "en_US")

  /// The tape of `keys`: for every key that completes a calculation, its step, the calculation
  /// and the display after it.
  static func tape(_ keys: String) throws -> [String] {
    var calculator = Calculator.initial
    var rows: [String] = []
    for (index, key) in try KeyText.keys(in: keys).enumerated() {
      let line = calculator.standard!.completedCalculation(by: key)
      calculator = calculator.apply(key)
      if let line {
        rows.append("\(index + 1)  \(format.text(for: line)) \(format.text(for: calculator))")
      }
    }
    return rows
  }

  @Test(arguments: [
    ("1+2*3=", ["4  1 + 2 = 3", "6  3 × 3 = 9"]),
    ("12+3=", ["5  12 + 3 = 15"]),
    ("8*2==", ["4  8 × 2 = 16", "5  16 × 2 = 32"]),
    ("13=", ["3  13 = 13"]),
    ("9@=", ["3  √(9) = 3"]),
    ("1/0=", ["4  1 ÷ 0 = Cannot divide by zero"]),
    ("1/0==", ["4  1 ÷ 0 = Cannot divide by zero"]),
    ("5/0+", ["4  5 ÷ 0 = Cannot divide by zero"]),
    ("12+3", []),
    ("5+*3=", ["5  5 × 3 = 15"]),
    ("4+=", ["3  4 + 4 = 8"]),
    ("2+3q=", ["5  2 + sqr(3) = 11"]),
    ("5ms c 2+mr=", ["7  2 + 5 = 7"]),
  ])
  func tapeRows(keys: String, rows: [String]) throws {
    #expect(try Self.tape(keys) == rows)
  }
}
