import CalcDecimal
import CalcTestSupport
import CalculatorEngine
import Testing

/// Random formulas against the oracle (SPEC §12's property; issue 49's oracle): the engine's
/// compiled keys, applied on the Scientific keypad, give what `FormulaReference` — an evaluator
/// written from the grammar with exact fractions — says the formula means; and the compiled key
/// text is canonical.
@Suite struct FormulaPropertyTests {
  /// How many formulas: a few hundred by default, 2,000 with `CALC_LONG_TESTS=1`.
  static let count = TestSize.count(short: 250, long: 2_000)

  /// Whether the engine keeps exact fractions (SPEC §2 rule 15, branch `fraction`): `1/3*3-1`
  /// is 0. Until then a rational result is compared exactly only where every rational step was
  /// a decimal of at most 34 digits, which the engine's rounding of each step computes exactly.
  static let engineIsExact: Bool = {
    let keys = try? KeyText.keys(in: "sci 1/3*3-1=")
    return keys.map { Calculator.initial.applying($0).displayedValue == .zero } ?? false
  }()

  /// The values the formulas' `$1`, `$2`, `mr` and `ans` (line 3) stand for.
  static let references: [Int: Decimal34] = [
    1: Decimal34(coefficient: 125, exponent: -1), 2: Decimal34(coefficient: 3, exponent: 0),
    3: Decimal34(coefficient: 7, exponent: -1, isNegative: true),
  ]
  static let memory = Decimal34(coefficient: 42, exponent: 0)

  /// What happened to one formula.
  enum Verdict {
    case agreed, skipped, disagreed(String)
  }

  /// Compares the engine with the oracle on `text`.
  static func check(_ text: String, unit: AngleUnit) -> Verdict {
    let formula: Formula
    do {
      formula = try Formula(text)
    } catch {
      return .disagreed("the engine rejects it: \(error)")
    }
    let keys: String
    do {
      keys = try formula.keyText(answer: 3)
    } catch {
      return .disagreed("the compiler rejects it: \(error)")
    }
    // (b) Canonical: the key text reads back as keys that KeyText writes as the same text.
    guard let read = try? KeyText.keys(in: keys, startingIn: .scientific),
      KeyText.text(of: read) == keys
    else { return .disagreed("keys \(keys) are not canonical key text") }
    // (a) The keys' result equals the reference evaluation.
    let unitKey: String
    switch unit {
    case .degrees: unitKey = "deg"
    case .radians: unitKey = "rad"
    case .grads: unitKey = "grad"
    }
    let start = Calculator(brain: .initial, memory: Number(memory)).applying(
      line: (try? KeyText.keys(in: unitKey)) ?? [])
    let state = start.applyingFormula(keys: read) { .value(Number(references[$0]!)) }
    let context = FormulaReference.Context(
      unit: unit, memory: memory, references: references, answer: references[3])
    guard let outcome = FormulaReference.evaluate(text, in: context) else {
      return .disagreed("the oracle cannot read it")
    }
    let shown = DisplayFormat.plain.text(for: state)
    switch outcome {
    case .error(let error):
      if case .error(let shownError) = state.display, shownError == error { return .agreed }
      // Before exact fractions a rounded step can miss an exact zero.
      if !engineIsExact { return .skipped }
      return .disagreed("keys \(keys): \(shown), the oracle \(error.message)")
    case .value(let value):
      if !engineIsExact && !value.fitsDecimal34 { return .skipped }
      guard let result = state.displayedValue?.decimalValue else {
        return .disagreed("keys \(keys): \(shown), the oracle \(value)")
      }
      if value.isExact {
        return result == value.decimal
          ? .agreed : .disagreed("keys \(keys): \(shown), the oracle \(value)")
      }
      guard let tolerance = value.tolerance else { return .skipped }
      let distance = result - value.decimal
      let allowed = tolerance + tolerance + unitInTheLastPlace(value.decimal)
      let excess = (distance.isNegative ? -distance : distance) - allowed
      return excess.isNegative || excess.isZero
        ? .agreed : .disagreed("keys \(keys): \(shown), the oracle \(value)")
    }
  }

  static func unitInTheLastPlace(_ value: Decimal34) -> Decimal34 {
    guard let magnitude = value.magnitudeExponent else { return .zero }
    return Decimal34(coefficient: 1, exponent: magnitude - 33)
  }

  @Test func randomFormulasAgreeWithTheOracle() {
    var generator = FormulaGenerator(seed: 0x5EED_F0A1)
    var random = SplitMix64(state: 0xF0A1_5EED)
    var agreed = 0
    var skipped = 0
    for index in 0..<Self.count {
      let text = generator.formula(depth: random.int(1...3))
      let unit = [AngleUnit.degrees, .degrees, .radians, .grads][random.below(4)]
      switch Self.check(text, unit: unit) {
      case .agreed: agreed += 1
      case .skipped: skipped += 1
      case .disagreed(let why):
        Issue.record("formula \(index) `\(text)` (\(unit)): \(why)")
      }
    }
    // Most formulas are compared, not skipped.
    #expect(agreed >= Self.count * 3 / 4, "agreed \(agreed), skipped \(skipped)")
  }

  /// The oracle itself on SPEC §12's examples, so that a wrong oracle cannot pass the property.
  @Test(arguments: [
    ("5*-2", "-10"), ("2^-1", "0.5"), ("-2^2", "-4"), ("2^3^2", "512"), ("sin(30)", "0.5"),
    ("1.5e-3*2", "0.003"), ("2(3+4)", "14"), ("sqrt(16)+5!", "124"), ("50+20%", "60"),
    ("1/3*3-1", "0"), ("log(8, 2)", "3"), ("root(27, 3)", "3"), ("10 mod 3", "1"),
    ("50-10%", "45"), ("50+20%*2", "70"), ("50+2*20%", "50.4"), ("2*(50+20%)", "120"),
    ("(50+20)%", "0.7"), ("6*6%", "0.36"), ("10%", "0.1"), ("--2", "2"), ("√16^2", "16"),
    ("1/0+5", "Cannot divide by zero"), ("0/0", "Result is undefined"),
    ("sqrt(-1)*0", "Invalid input"), ("2^3pi-8pi", "0"), ("3$1", "37.5"), ("mr mod 5", "2"),
  ])
  func oracleOnTheSpecsExamples(_ example: (String, String)) throws {
    let context = FormulaReference.Context(
      memory: Self.memory, references: Self.references, answer: Self.references[3])
    let outcome = try #require(FormulaReference.evaluate(example.0, in: context))
    switch outcome {
    case .value(let value): #expect(DisplayFormat.plain.text(for: value.decimal) == example.1)
    case .error(let error): #expect(error.message == example.1)
    }
  }

  /// The oracle's rounding: half to even at the 34th digit.
  @Test func oracleRoundsHalfToEven() throws {
    let third = try #require(FormulaReference.evaluate("2/3"))
    guard case .value(let value) = third else { throw CancellationError() }
    #expect(DisplayFormat.plain.text(for: value.decimal) == "0.6666666666666666666666666666666667")
    #expect(value.isExact && !value.fitsDecimal34)
    let tie = try #require(
      FormulaReference.evaluate("1" + String(repeating: "0", count: 33) + "5/10"))
    guard case .value(let rounded) = tie else { throw CancellationError() }
    // 1000…05 / 10 = 100…0.5 (34 digits before the point): the tie goes to the even 0.
    #expect(rounded.decimal == Decimal34(coefficient: 1, exponent: 33))
  }
}
