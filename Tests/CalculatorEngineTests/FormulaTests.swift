import CalcDecimal
import CalcTestSupport
import CalculatorEngine
import Testing

/// SPEC §12's examples, each a test: a formula's result, its compiled keys, its errors, its
/// expression line and what a session records; then the limits (nesting, very long lines).
@Suite struct FormulaTests {
  static let format = DisplayFormat(localeIdentifier: "en_US")

  /// The display after the formula, applied to a fresh calculator after the key text `before`.
  static func result(_ formula: String, after before: String = "") throws -> String {
    let start = Calculator.initial.applying(line: try KeyText.keys(in: before))
    return format.text(for: try start.applyingFormula(Formula(formula)))
  }

  /// The error of `formula`: its parse's, or its compile's.
  static func error(_ formula: String, answer: Int? = 3) -> FormulaError? {
    do {
      _ = try Formula(formula).keyText(answer: answer)
      return nil
    } catch {
      return error
    }
  }

  // MARK: - Results

  static let results: [(formula: String, display: String)] = [
    // SPEC §12's examples.
    ("5*-2", "-10"), ("2^-1", "0.5"), ("-2^2", "-4"), ("2^3^2", "512"), ("sin(30)", "0.5"),
    ("2pi", "6.28318531"), ("1.5e-3*2", "0.003"), ("2(3+4)", "14"), ("sqrt(16)+5!", "124"),
    ("50+20%", "60"), ("log(8, 2)", "3"), ("root(27, 3)", "3"), ("10 mod 3", "1"),
    ("1/0", "Cannot divide by zero"), ("1/0+5", "Cannot divide by zero"),
    ("sqrt(-1)*0", "Invalid input"),
    // Prefix operators (§12 rule 3).
    ("2*-3", "-6"), ("--2", "2"), ("√16^2", "16"), ("√2pi", "4.44288294"),
    // Percent (§12): X·Y/100 right after a binary + or -, else Y/100.
    ("50-10%", "45"), ("50+20%*2", "70"), ("50+2*20%", "50.4"), ("2*(50+20%)", "120"),
    ("(50+20)%", "0.7"), ("6*6%", "0.36"), ("10%", "0.1"), ("2^10%", "1.07177346"),
    ("50+-20%", "49.8"), ("50+sin(20%)", "50.00349065"), ("1+2*3+20%", "8.4"),
    ("10 mod 20%", "0"), ("50+20%^2", "150"), ("50+20%%", "55"),
    // Numbers and constants.
    ("2e", "5.43656366"), ("2E+3", "2,000"), (".5", "0.5"), ("5.", "5"), ("-1.5e-3", "-0.0015"),
    ("-2e3", "-2,000"), ("0.000", "0"), ("007", "7"), ("π", "3.14159265"), ("e", "2.71828183"),
    // Implied × (§12), and the reading of 1/2pi.
    ("(1+2)(3+4)", "21"), ("2sin(30)", "1"), ("1/2pi", "1.57079633"), ("1/(2pi)", "0.15915494"),
    ("2^3pi", "25.13274123"), ("2√4", "4"), ("3!pi", "18.84955592"),
    // Functions under their key-text names, and exp, fact, cbrt, ∛.
    ("exp(1)", "2.71828183"), ("powe(1)", "2.71828183"), ("fact(5)", "120"), ("cbrt(27)", "3"),
    ("∛(8)", "2"), ("log(1000)", "3"), ("ln(1)", "0"), ("abs(-3)", "3"), ("floor(-2.5)", "-3"),
    ("ceil(2.1)", "3"), ("cube(2)", "8"), ("pow10(2)", "100"), ("pow2(10)", "1,024"),
    ("SIN(30)", "0.5"), ("asin(1)", "90"), ("log(8; 2)", "3"), ("root(8, 1+2)", "2"),
    ("root(1+26, 3)", "3"), ("log(2^3, 2)", "3"), ("2^log(8, 2)", "8"),
    // Right to left, signed exponents, and the keypad's traps.
    ("2^-3^2", "0.00195312"), ("2**3", "8"), ("2^3!", "64"), ("-3!", "-6"), ("(-3)^2", "9"),
    ("1-2-3", "-4"), ("2/4/2", "0.25"), ("2^3*2", "16"), ("2*3^2", "18"), ("-(2)", "-2"),
    ("-pi", "-3.14159265"), ("-sin(30)", "-0.5"), ("2 × 3 ÷ 4 − 1", "0.5"),
    // A trailing = is allowed; a note after # is not part of the formula.
    ("2+3=", "5"), ("2+3 # sum", "5"),
    // Decisions (Documentation/Formulas.md).
    ("2^√4", "4"), ("10mod3", "1"), ("-2^10%", "-1.07177346"), ("50+(20)%", "60"),
    ("50+sin(30)%", "50.25"), ("2*(3)%", "0.06"),
  ]

  @Test(arguments: results) func result(_ example: (formula: String, display: String)) throws {
    #expect(try Self.result(example.formula) == example.display)
  }

  /// `rad` then `sin(pi/2)` → `1`; the unit and the memory are kept.
  @Test func unitAndMemoryAreKept() throws {
    #expect(try Self.result("sin(pi/2)", after: "rad") == "1")
    #expect(try Self.result("sin(pi/2)", after: "sci rad") == "1")
    #expect(try Self.result("mr*2", after: "21ms") == "42")
    let start = Calculator.initial.applying(line: try KeyText.keys(in: "sci grad 7ms 1+2"))
    let after = try start.applyingFormula(Formula("cos(100)+mr"))
    #expect(Self.format.text(for: after) == "7")
    #expect(after.memory == start.memory)
    #expect(after.angleUnit == .grads)
    #expect(after.mode == .scientific)
  }

  /// From any state, even an error or Programmer mode, the formula starts from a cleared
  /// Scientific keypad.
  @Test func startsFromAClearedKeypad() throws {
    #expect(try Self.result("2+3", after: "1/0=") == "5")
    #expect(try Self.result("2+3", after: "sci 1+(2*") == "5")
    #expect(try Self.result("2+3", after: "prog hex FF") == "5")
    #expect(try Self.result("2+3", after: "sci 1.5fe") == "5")
  }

  /// `$N` recalls what the caller gives, an error too; `ans` is written as its line.
  @Test func referencesAndAnswer() throws {
    let formula = try Formula("3$1 + ans")
    #expect(formula.references == [1])
    #expect(formula.usesAnswer)
    let state = try Calculator.initial.applyingFormula(formula, answer: 2) { line in
      .value(Number(line * 10))
    }
    #expect(Self.format.text(for: state) == "50")
    #expect(try formula.canonicalText(answer: 2) == "3$1 + $2")
    #expect(try formula.keyText(answer: 2) == "3*$1+$2=")
    let failed = try Calculator.initial.applyingFormula(Formula("$1+1")) { _ in
      .error(.divideByZero)
    }
    #expect(Self.format.text(for: failed) == "Cannot divide by zero")
  }

  @Test func answerWithoutAnEarlierResult() throws {
    let formula = try Formula("2*ans")
    #expect(throws: FormulaError("ans: no earlier result", column: 3)) {
      try formula.keyText(answer: nil)
    }
    #expect(throws: FormulaError("ans: no earlier result", column: 3)) {
      try formula.canonicalText(answer: nil)
    }
    #expect(throws: FormulaError("ans: no earlier result", column: 3)) {
      try Calculator.initial.applyingFormula(formula)
    }
  }

  /// `mr` with an empty memory would do nothing on the keypad: the formula is rejected.
  @Test func memoryMustHoldAValue() throws {
    #expect(throws: FormulaError("mr: the memory is empty", column: 3)) {
      try Calculator.initial.applyingFormula(Formula("1+mr"))
    }
    #expect(try Self.result("1+mr", after: "0ms") == "1")
  }

  /// The keys after the first error are not applied: their digits would start a new
  /// calculation.
  @Test func theFirstErrorIsTheResult() throws {
    let state = try Calculator.initial.applyingFormula(Formula("1/0+5"))
    #expect(Self.format.text(for: state) == "Cannot divide by zero")
    #expect(Self.format.expression(for: state) == "1 ÷ 0 +")
    #expect(try Self.result("0/0*2") == "Result is undefined")
    #expect(try Self.result("2^99999") == "Overflow")
    #expect(try Self.result("sqrt(-4)+sqrt(4)") == "Invalid input")
  }

  /// `1/3*3-1` → `0` needs the exact fractions of SPEC §2 rule 15 (branch `fraction`).
  @Test func exactFractions() throws {
    #expect(try Self.result("1/3*3-1") == "0")
  }

  // MARK: - Compiled keys

  static let compiled: [(formula: String, keys: String)] = [
    // SPEC §12's examples.
    ("5*-2", "5*2~="), ("sin(30)", "30sin="), ("sin(1+2)", "(1+2)sin="), ("2^3^2", "2^(3^2)="),
    ("-2^2", "(2^2)~="), ("1.5e-3", "1.5exp3~="), ("2pi", "2*pi="), ("log(8, 2)", "8logy2="),
    // Percent as the keypad computes it.
    ("50+20%", "50+20%="), ("2^10%", "2^(10%)="), ("50+-20%", "50+(20%)~="), ("6*6%", "6*6%="),
    ("10 mod 20%", "10mod(20%)="), ("50+sin(20%)", "50+(20%)sin="), ("(50+20)%", "(50+20)%="),
    // Signs go into the entry before exp; functions after their argument.
    ("-2e3", "2~exp3="), ("-1.5e-3", "1.5~exp3~="), ("--2", "2~~="), ("√-2", "2~@="),
    ("-√2", "2@~="), ("2^-3^2", "2^(3^2)~="), ("-2^3^2", "(2^(3^2))~="),
    ("sin(cos(0))", "0cos sin="), ("e^2", "euler^2="), ("root(27, 3)", "27yroot3="),
    ("log(100)", "100log="), ("sqrt(16)+5!", "16@+5!="), ("exp(1)", "1powe="),
    ("fact(3)!", "3!!="), ("root(8, 3)^2", "8yroot3^2="), ("2^root(8, 3)", "2^(8yroot3)="),
    ("log(8, 2)!", "(8logy2)!="), ("root(8, 2^2)", "8yroot(2^2)="), ("-2^10%", "(2^(10%))~="),
    // Numbers are written as the entry holds them.
    ("007.50", "7.5="), (".5", "0.5="), ("5.", "5="), ("1e0", "1="), ("2E+03", "2exp3="),
    // Implied × is always the key *; brackets as written.
    ("2(3+4)", "2*(3+4)="), ("(1+2)(3+4)", "(1+2)*(3+4)="), ("3$1", "3*$1="), ("2e", "2*euler="),
    ("mr mr", "mr*mr="), ("pi pi", "pi*pi="), ("((2))", "((2))="), ("2√4", "2*4@="),
    ("10 mod 3", "10mod3="), ("pi mod 2", "pi mod2="), ("pi^pi", "pi^pi="), ("ans*2", "$7*2="),
  ]

  @Test(arguments: compiled) func keys(_ example: (formula: String, keys: String)) throws {
    let text = try Formula(example.formula).keyText(answer: 7)
    #expect(text == example.keys)
    // Canonical: KeyText writes the keys it reads back as the same text.
    #expect(KeyText.text(of: try KeyText.keys(in: text, startingIn: .scientific)) == text)
  }

  /// The keys' depth stays within the keypad's 25 levels, or the formula is rejected.
  @Test func keysBeyondTheKeypadsLevels() throws {
    // 24 nested brackets compile; with a waiting + and × at each level (3 levels of the
    // keypad's each), 8 do and 9 do not.
    let nested = String(repeating: "(", count: 24) + "1" + String(repeating: ")", count: 24)
    #expect(try Self.result(nested) == "1")
    let stacked = String(repeating: "1+2*1^(", count: 8) + "0" + String(repeating: ")", count: 8)
    #expect(try Self.result(stacked) == "3")
    let tooMany = String(repeating: "1+2*1^(", count: 9) + "0" + String(repeating: ")", count: 9)
    #expect(Self.error(tooMany)?.message.hasPrefix("too deep for the Scientific keypad") == true)
    // A power tower needs a bracket a level: 26 of them for 28 numbers.
    let tower = Array(repeating: "2", count: 28).joined(separator: "^")
    #expect(Self.error(tower)?.message.hasPrefix("too deep for the Scientific keypad") == true)
    #expect(try Self.result(Array(repeating: "1", count: 27).joined(separator: "^")) == "1")
  }

  // MARK: - Errors

  static let errors: [(formula: String, message: String)] = [
    // SPEC §12's messages.
    ("1+(2*3", "unbalanced ( at column 3"), ("2*(3+(4)", "unbalanced ( at column 3"),
    ("sinx", "unknown name 'sinx' at column 1 (sin(x)?)"),
    ("sin 30", "sin needs brackets: sin(30)"), ("1+", "nothing after + at column 2"),
    ("12+", "nothing after + at column 3"),
    ("2 3", "two numbers in a row at column 3; write 2*3"),
    ("(2)3", "two numbers in a row at column 4; write (2)*3"),
    ("e2", "two numbers in a row at column 2; write e*2"),
    ("$1 2", "two numbers in a row at column 4; write $1*2"),
    ("2 e3", "two numbers in a row at column 4; write e*3"),
    ("2,5", "a formula uses . for the decimal point: 2.5"),
    ("sin(2,5)", "a formula uses . for the decimal point: 2.5"),
    ("1exp3", "exp needs brackets: 1e3 (exp(x) is eˣ)"),
    ("1exp-3", "exp needs brackets: 1e-3 (exp(x) is eˣ)"),
    ("pie", "unknown name 'pie' at column 1 (pi?)"), ("ee", "unknown name 'ee' at column 1 (e?)"),
    ("1.2.3", "two decimal points in one number at column 4"),
    ("1e10000", "an exponent has at most 4 digits at column 3"),
    (String(repeating: "1", count: 33), "a number has at most 32 digits at column 1"),
    ("0." + String(repeating: "1", count: 33), "a number has at most 32 digits at column 1"),
    // More of the same kinds.
    ("(1+2))", "unbalanced ) at column 6"), ("sin(30", "unbalanced ( at column 4"),
    ("(", "unbalanced ( at column 1"), ("()", "nothing in the brackets at column 1"),
    ("sin()", "nothing in the brackets of sin at column 4"), ("*2", "nothing before * at column 1"),
    ("2*", "nothing after * at column 2"), ("1+*2", "nothing after + at column 2"),
    ("2^", "nothing after ^ at column 2"), ("-", "nothing after - at column 1"),
    ("√", "nothing after √ at column 1"), ("!3", "nothing before ! at column 1"),
    ("(*2)", "nothing before * at column 2"), ("log(8,)", "nothing after , at column 6"),
    ("5!3", "two numbers in a row at column 3; write 5!*3"),
    ("pi2", "two numbers in a row at column 3; write pi*2"),
    ("sin", "sin needs brackets: sin(x)"), ("sqrt 16", "sqrt needs brackets: sqrt(16)"),
    ("sin30", "sin needs brackets: sin(30)"), ("2sin", "sin needs brackets: sin(x)"),
    ("exp3", "exp needs brackets: exp(3)"), ("∛8", "∛ needs brackets: ∛(8)"),
    ("root(8)", "root needs two arguments: root(x, n)"),
    ("root(8, 2, 1)", "root takes two arguments at column 10"),
    ("log(8, 2, 1)", "log takes one or two arguments at column 9"),
    ("sin(1, 2)", "sin takes one argument at column 6"),
    ("2, 5", ", outside a function's brackets at column 2"),
    ("x", "unknown name 'x' at column 1 (× is *)"), ("2x3", "unknown name 'x3' at column 2"),
    ("sine(30)", "unknown name 'sine' at column 1 (sin(x)?)"),
    ("euler", "unknown name 'euler' at column 1 (e?)"),
    ("2 @ 3", "unknown character '@' at column 3 (√ is sqrt(x) or √x)"),
    ("2\u{A0}3", "unknown character '\\u{A0}' at column 2"),
    ("2+3=5", "= may only end a formula, at column 4"),
    ("", "nothing to compute: a formula such as 5*-2"),
    ("  # only a note", "nothing to compute: a formula such as 5*-2"),
    (".", "a point with no digits at column 1"), ("$", KeyText.referenceHint),
    ("2 mod", "nothing after mod at column 3"), ("mod 2", "nothing before mod at column 1"),
    ("é", "unknown character 'é' at column 1"),
    (
      String(repeating: "(", count: 25) + "1",
      "brackets and function calls nested more than 24 deep at column 25"
    ),
    (
      String(repeating: "sin(", count: 25) + "1",
      "brackets and function calls nested more than 24 deep at column 100"
    ),
  ]

  @Test(arguments: errors) func error(_ example: (formula: String, message: String)) {
    #expect(Self.error(example.formula)?.message == example.message)
  }

  /// The column of an error points at its place, counted in characters.
  @Test func columnsCountCharacters() {
    #expect(Self.error("π+√") == FormulaError("nothing after √ at column 3", column: 3))
    #expect(Self.error("sin 30")?.column == 1)
    #expect(Self.error("2,5")?.column == 2)
    #expect(Self.error("1+(2*3")?.column == 3)
    #expect(Self.error("×2")?.message == "nothing before × at column 1")
  }

  // MARK: - What a formula line shows and records

  static let lines: [(formula: String, line: String)] = [
    ("5*-2", "5 × −2 ="), ("2^-1", "2 ^ −1 ="), ("2pi", "2π ="), ("2(3+4)", "2(3 + 4) ="),
    ("sqrt(16)+5!", "sqrt(16) + 5! ="), ("50+20%", "50 + 20% ="), ("log(8;2)", "log(8, 2) ="),
    ("10 mod 3", "10 mod 3 ="), ("1/0", "1 ÷ 0 ="), ("2**3", "2 ^ 3 ="), ("-√2", "−√2 ="),
    ("  1.50e-3 ×2 =", "1.50e-3 × 2 ="), ("SIN(30)", "sin(30) ="), ("e e", "e e ="),
    ("3$1", "3$1 ="), ("ans+1", "$4 + 1 ="), ("∛(8)", "∛(8) ="), ("1−2", "1 − 2 ="),
  ]

  @Test(arguments: lines) func expressionLine(_ example: (formula: String, line: String)) throws {
    #expect(try Formula(example.formula).expressionLine(answer: 4) == example.line)
  }

  @Test func canonicalText() throws {
    #expect(try Formula("  ans*2 + ANS = ").canonicalText(answer: 12) == "$12*2 + $12")
    #expect(try Formula("5*-2 # note").canonicalText(answer: nil) == "5*-2")
    #expect(try Formula("sin(30)").canonicalText(answer: nil) == "sin(30)")
  }

  /// The note for `1/2pi`, once a line, whenever an implied × follows the right operand of `/`.
  @Test func divisionNote() throws {
    #expect(
      try Formula("1/2pi").notes == ["1/2pi reads as (1/2)×π; 1/(2pi) divides by 2π"])
    #expect(try Formula("1/2pi*1/2pi").notes.count == 1)
    #expect(try Formula("1/(2pi)").notes.isEmpty)
    #expect(try Formula("2pi/2").notes.isEmpty)
    #expect(
      try Formula("3/4(5)").notes == ["3/4(5) reads as (3/4)×(5); 3/(4(5)) divides by 4(5)"])
  }

  /// The names a front end completes: every Scientific function key has one.
  @Test func names() {
    #expect(Formula.functionNames.count == 40)
    #expect(Formula.functionNames.prefix(3) == ["sin", "cos", "tan"])
    #expect(Formula.functionNames.suffix(4) == ["fact", "sqrt", "exp", "root"])
    #expect(Formula.otherNames == ["pi", "e", "mr", "ans", "mod"])
    for name in Formula.functionNames {
      #expect(throws: Never.self) { try Formula("\(name)(1\(name == "root" ? ", 2" : ""))") }
    }
  }

  // MARK: - Very long lines

  /// A 4 MB line is computed or rejected, never a crash: the parser recurses only into
  /// brackets, calls and the right sides of `^`, each bounded. The deep lines are 4 MB always
  /// (rejected at once); the long flat ones 4 MB with `CALC_LONG_TESTS=1`, 256 KB by default (a
  /// debug build reads about 0.2 MB of a flat line a second).
  @Test func veryLongLines() throws {
    let size = 4 << 20
    // Deep: rejected at the nesting limit, at once.
    let deep = String(repeating: "(", count: size)
    #expect(Self.error(deep)?.column == 25)
    let calls = String(repeating: "sin(", count: size / 4)
    #expect(Self.error(calls)?.column == 100)
    let tower = String(repeating: "2^", count: size / 2) + "2"
    #expect(Self.error(tower)?.message.hasPrefix("too deep") == true)
    let signedTower = String(repeating: "2^-", count: size / 3) + "2"
    #expect(Self.error(signedTower)?.message.hasPrefix("too deep") == true)
    // Long: a flat sum, a run of signs and of roots compile in one pass.
    let length = TestSize.count(short: 1 << 18, long: 4 << 20)
    let sum = String(repeating: "1+", count: length / 2) + "1"
    let sumKeys = try Formula(sum).keyText(answer: nil)
    #expect(sumKeys.utf8.count == sum.utf8.count + 1)
    let signs = String(repeating: "-", count: length) + "2"
    #expect(try Formula(signs).keyText(answer: nil).hasPrefix("2~~"))
    let roots = String(repeating: "√", count: length / 3) + "2"
    #expect(try Formula(roots).expressionLine(answer: nil).hasSuffix("√2 ="))
  }

  /// A long flat line runs on the keypad to its result.
  @Test func longLineComputes() throws {
    let count = 20_000
    let sum = String(repeating: "1+", count: count) + "1"
    #expect(try Self.result(sum) == "20,001")
    let product = "1" + String(repeating: "*2/2", count: count)
    #expect(try Self.result(product) == "1")
  }
}
