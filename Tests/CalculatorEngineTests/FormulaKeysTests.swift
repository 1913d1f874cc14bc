import CalcTestSupport
import CalculatorEngine
import Testing

/// The keys a formula compiles to directly (`Formula.keys(answer:)`, what a session applies and
/// records) are the keys its canonical key text (`Formula.keyText(answer:)`, what `:why` and
/// the tests of the compiler read) reads back as in Scientific mode.
@Suite struct FormulaKeysTests {
  /// `formula`'s keys, compiled directly and read back from its key text, with `ans` line 7.
  static func bothKeys(_ formula: String) throws -> (direct: TypedKeys, read: TypedKeys) {
    let parsed = try Formula(formula)
    let text = try parsed.keyText(answer: 7)
    return (try parsed.keys(answer: 7), try KeyText.keys(in: text, startingIn: .scientific))
  }

  @Test(arguments: FormulaTests.compiled) func examples(
    _ example: (formula: String, keys: String)
  ) throws {
    let (direct, read) = try Self.bothKeys(example.formula)
    #expect(direct == read)
    #expect(direct.references == read.references)
  }

  @Test func randomFormulas() throws {
    var generator = FormulaGenerator(seed: 0x4B45_5953)
    var random = SplitMix64(state: 0x5953_4B45)
    for _ in 0..<FormulaPropertyTests.count {
      let text = generator.formula(depth: random.int(1...3))
      guard let (direct, read) = try? Self.bothKeys(text) else { continue }
      #expect(direct == read, "`\(text)`")
    }
  }

  /// The line reader's one-pass compile (`Formula.compiledKeys(of:)`), where it takes a
  /// formula, gives the compiler's keys and the canonical text; a formula it does not take is
  /// read as before. Checked on the examples, on random formulas of the whole language, and on
  /// random formulas of the part it reads, with the blanks, spellings and nesting around it.
  @Test func onePassCompileGivesTheCompilersKeys() throws {
    var generator = FormulaGenerator(seed: 0x4F4E_4550)
    var random = SplitMix64(state: 0x5041_5353)
    var texts = FormulaTests.compiled.map(\.formula)
    for _ in 0..<FormulaPropertyTests.count {
      texts.append(generator.formula(depth: random.int(1...3)))
    }
    for _ in 0..<(4 * FormulaPropertyTests.count) {
      texts.append(Self.readPart(depth: random.int(0...4), &random))
    }
    texts += [
      "sin(5.2472)", "ln(0.1187)", "5.9549^0.65", "sqrt(3.0615)", "  -2^2 = ", "--2", "+-+2",
      "-2^-3^2", "2**3", "-(2^2)^2", "007.500e-003", "-.5e+2", "1e0", "0", "-0.0", "−1×2÷3",
      "π", "e", "-e^2", "∛8", "log(100)", "fact(3)", "exp(1)", "sin(1+2)", "sin((1+2))",
      "sin(2^3)", "sin(-2)", "sin(-2^2)", "((((1))))", "(((1)))", "2^(3^(4^2))", "2^3^4^5",
      "1-(2-(3-4))", "1/2/3", "2^-sin(1)", "-sin(1)^2", "1+", "(1", "1)", "sin 1", "2 3", "",
      "=", "1 # note", "1e5000", "1.2.3", "sin()", "()", "log(8, 2)", "root(8, 3)",
    ]
    var taken = 0
    for text in texts {
      guard let compiled = Formula.compiledKeys(of: text) else { continue }
      taken += 1
      let formula = try Formula(text)
      #expect(compiled.keys == (try formula.keys(answer: nil)), "`\(text)`")
      #expect(compiled.canonicalText == (try formula.canonicalText(answer: nil)), "`\(text)`")
      #expect(formula.notes.isEmpty && !formula.usesAnswer && !formula.usesMemory)
      #expect(formula.references.isEmpty)
    }
    // The checks above are not empty: most formulas of the part it reads are taken.
    #expect(taken > 4 * FormulaPropertyTests.count / 2)
    // What it does not take is left to the parser, errors and all.
    for text in ["2pi", "5 mod 3", "3!", "50%", "√4", "mr", "ans", "$1", "log(8, 2)", "1+", ""] {
      #expect(Formula.compiledKeys(of: text) == nil, "`\(text)`")
    }
  }

  /// A random formula of the part of the language the one-pass compile reads (numbers, `pi`,
  /// `e`, brackets, one-argument calls, prefix signs, `^`, `+ - * /`), nested at most `depth`
  /// deep (beyond 3 it is not taken), in the spellings people use.
  static func readPart(depth: Int, _ random: inout SplitMix64) -> String {
    func pick(_ choices: [String]) -> String { choices[random.below(choices.count)] }
    func blank() -> String { random.chance(20) ? " " : "" }
    func number() -> String {
      var text = pick(["0", "1", "2", "7", "10", "007", "123", "", "4"])
      if text.isEmpty || random.chance(40) { text += "." + pick(["5", "25", "50", "0", "125"]) }
      if random.chance(20) {
        text += pick(["e", "E"]) + pick(["", "-", "+"]) + pick(["2", "03", "0"])
      }
      return text
    }
    func atom(_ depth: Int) -> String {
      switch random.below(depth > 0 ? 7 : 3) {
      case 0, 1: return number()
      case 2: return pick(["pi", "π", "e", "PI"])
      case 3, 4:
        return pick(["sin", "cos", "ln", "log", "sqrt", "abs", "exp", "fact", "cbrt", "∛"]) + "("
          + blank() + sum(depth - 1) + blank() + ")"
      default: return "(" + blank() + sum(depth - 1) + blank() + ")"
      }
    }
    func unary(_ depth: Int) -> String {
      var text = ""
      while random.chance(25) { text += pick(["-", "+", "−"]) + blank() }
      text += atom(depth)
      if depth > 0, random.chance(25) {
        text += blank() + pick(["^", "**"]) + blank() + unary(depth - 1)
      }
      return text
    }
    func product(_ depth: Int) -> String {
      var text = unary(depth)
      while random.chance(30) {
        text += blank() + pick(["*", "/", "×", "÷"]) + blank() + unary(depth)
      }
      return text
    }
    func sum(_ depth: Int) -> String {
      var text = product(depth)
      while random.chance(35) {
        text += blank() + pick(["+", "-", "−"]) + blank() + product(depth)
      }
      return text
    }
    return blank() + sum(depth) + blank() + (random.chance(10) ? "=" : "")
  }

  /// An error the compiler finds is the same either way.
  @Test func errorsAreTheSame() throws {
    let tooMany = String(repeating: "1+2*1^(", count: 9) + "0" + String(repeating: ")", count: 9)
    for text in [tooMany, "ans+1"] {
      let formula = try Formula(text)
      let answer: Int? = text == "ans+1" ? nil : 7
      #expect(throws: FormulaError.self) { try formula.keys(answer: answer) }
      var textError: FormulaError?
      var keysError: FormulaError?
      do { _ = try formula.keyText(answer: answer) } catch { textError = error }
      do { _ = try formula.keys(answer: answer) } catch { keysError = error }
      #expect(textError == keysError)
    }
  }
}
