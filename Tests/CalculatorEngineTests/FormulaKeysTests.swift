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
