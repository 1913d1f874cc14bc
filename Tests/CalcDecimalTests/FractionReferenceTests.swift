import CalcDecimal
import CalcTestSupport
import Foundation
import Testing

/// Exact arithmetic against Python (issue 48's oracle, cross-checked once): 400 sequences of
/// rational operations — dividing by 3, 7, 9, 11, 13 and multiplying back, sums of very
/// different magnitudes, powers, mod, percent, and runs of divisions past the 120-digit cap —
/// worked out with `fractions` and `decimal` by `Scripts/fraction-reference.py`, whose output is
/// the checked-in `Fixtures/fraction-reference.txt`. Each line is replayed on the test oracle
/// (`ModelNumber` over `Fraction`, CalcTestSupport) and on calc's `Number`: the mark, the exact
/// value, its 34-digit rounding, the display's roundings and `:exact`'s text must all be
/// Python's. The oracle, slow in a debug build, replays every tenth line in `swift test` and all
/// of them with `CALC_LONG_TESTS=1`; `Number` every other line, and all of them in the long run.
@Suite struct FractionReferenceTests {
  struct Line {
    let kind: String
    let tokens: [String]
    let rounded: Bool
    let value: String
    let r34: String
    let d8: String
    let s9: String
    let text: String
  }

  static let lines: [Line] = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/fraction-reference.txt")
    let text = try! String(contentsOf: url, encoding: .utf8)
    return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
      let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      return Line(
        kind: f[0], tokens: f[1].split(separator: " ").map(String.init), rounded: f[2] == "1",
        value: f[3], r34: f[4], d8: f[5], s9: f[6], text: f[7])
    }
  }()

  /// Applies one operation token to a `Number`.
  static func apply(_ token: String, _ x: Number) -> Number {
    switch token {
    case "hund": return x.percent
    case "sq": return x.squared
    case "inv": return x.reciprocal!
    case "neg": return -x
    case "floor": return x.floor
    default: break
    }
    let arg = String(token.dropFirst())
    switch token.first! {
    case "^": return try! Number.power(x, Number(Int(arg)!)).get()
    case "+": return x + NumberText.number(arg)
    case "-": return x - NumberText.number(arg)
    case "*": return x * NumberText.number(arg)
    case "/": return Number.dividing(x, by: NumberText.number(arg))!
    case "m": return try! Number.floorMod(x, NumberText.number(arg)).get()
    case "p": return NumberText.number(arg).percent(of: x)
    default: fatalError("unknown operation \(token)")
    }
  }

  /// Applies one operation token to the model.
  static func apply(_ token: String, _ x: ModelNumber) -> ModelNumber {
    switch token {
    case "hund": return ModelNumber.step(x.value / Fraction(100), rounded: x.isRounded)
    case "sq": return x * x
    case "inv": return (ModelNumber(exact: .one) / x)!
    case "neg": return -x
    case "floor": return ModelNumber.step(x.value.floor, rounded: x.isRounded)
    default: break
    }
    let arg = String(token.dropFirst())
    let y = ModelNumber(exact: Fraction(decimal: arg))
    switch token.first! {
    case "^": return x.power(Int(arg)!)!
    case "+": return x + y
    case "-": return x - y
    case "*": return x * y
    case "/": return (x / y)!
    case "m": return ModelNumber.floorMod(x, y)
    case "p": return y.percent(of: x)
    default: fatalError("unknown operation \(token)")
    }
  }

  /// Every `step`th line, from the first.
  static func sample(_ step: Int) -> [Line] {
    stride(from: 0, to: lines.count, by: step).map { lines[$0] }
  }

  @Test func theModelIsPythons() {
    #expect(Self.lines.count == 400)
    for line in Self.sample(TestSize.count(short: 10, long: 1)) {
      var x = ModelNumber(exact: Fraction(decimal: line.tokens[0]))
      for token in line.tokens.dropFirst() { x = Self.apply(token, x) }
      let context = Comment(rawValue: line.tokens.joined(separator: " "))
      #expect(x.isRounded == line.rounded, context)
      if x.isRounded {
        let (c, e) = x.value.rounded(toSignificantDigits: 34)
        #expect(Fraction.text(c, e) == line.value, context)
      } else {
        #expect(x.value.description == line.value, context)
        if !line.text.isEmpty, let expansion = x.value.expansion() {
          let expected = x.value.isInteger ? x.value.description : "\(x.value) = \(expansion)"
          if !line.text.contains("period longer") { #expect(expected == line.text, context) }
        }
      }
      let r34 = x.value.rounded(toSignificantDigits: 34)
      #expect(Fraction.text(r34.coefficient, r34.exponent) == line.r34, context)
      let d8 = x.value.rounded(toFractionDigits: 8, significantDigits: 34)
      #expect(Fraction.text(d8.coefficient, d8.exponent) == line.d8, context)
      let s9 = x.value.rounded(toSignificantDigits: 9)
      #expect(Fraction.text(s9.coefficient, s9.exponent) == line.s9, context)
    }
  }

  @Test func numbersArePythons() {
    for line in Self.sample(TestSize.count(short: 2, long: 1)) {
      var x = NumberText.number(line.tokens[0])
      for token in line.tokens.dropFirst() { x = Self.apply(token, x) }
      let context = Comment(rawValue: line.tokens.joined(separator: " "))
      #expect(x.isRounded == line.rounded, context)
      if x.isRounded {
        #expect(NumberText.text(x.decimalValue) == line.value, context)
      } else {
        #expect((x.isZero ? "0" : x.fractionText) == line.value, context)
        if !line.text.isEmpty { #expect(x.exactText() == line.text, context) }
      }
      #expect(NumberText.text(x.decimalValue) == line.r34, context)
      #expect(NumberText.text(x.rounded(toFractionDigits: 8)) == line.d8, context)
      #expect(NumberText.text(x.rounded(toSignificantDigits: 9)) == line.s9, context)
    }
  }
}
