import CalcDecimal
import CalcTestSupport
import CalculatorEngine
import Testing

/// Exact values in the engine (SPEC v5 §2 rule 15, issue 48): Standard and Scientific mode keep
/// the exact fraction while every step is rational, and the display and `--plain` round it once.
@Suite struct ExactValueTests {
  /// The state after `text`, one line of keys, in Standard mode or (with `scientific`) after
  /// `sci`.
  static func state(_ text: String, scientific: Bool = false) throws -> Calculator {
    let keys = try KeyText.keys(in: (scientific ? "sci " : "") + text)
    return Calculator.initial.applying(line: keys)
  }

  /// The display (POSIX, no grouping) and `--plain` after `text`.
  static func shown(_ text: String, scientific: Bool) throws -> (display: String, plain: String) {
    let state = try state(text, scientific: scientific)
    return (DisplayFormat.posix.text(for: state), DisplayFormat.plain.text(for: state))
  }

  /// Issue 48's oracle cases, each in both modes: the display and `--plain` both show them.
  @Test(arguments: [
    ("1/3*3-1=", "0"), ("1/3=*3=-1=", "0"), ("10/3*3=-10=", "0"), ("1/3=ms c mr*3-1=", "0"),
    ("1/3=/3=/3=*27=-1=", "0"), ("2/3=*3=-2=", "0"),
    ("0.09+1000000000000000-1000000000000000=", "0.09"),
    ("12345678.9+0.000000001-12345678.9=", "1E-9"),
  ])
  func oracleCasesInBothModes(_ keys: String, _ expected: String) throws {
    for scientific in [false, true] {
      let (display, plain) = try Self.shown(keys, scientific: scientific)
      #expect(display == expected, "\(scientific ? "sci " : "")\(keys)")
      #expect(plain == expected, "\(scientific ? "sci " : "")\(keys) --plain")
    }
  }

  /// Scientific mode's cases: a 32-digit entry (Standard's entries hold 16 digits), and a value
  /// that a step rounded stays a 34-digit decimal, each later step rounding as before.
  @Test(arguments: [
    ("0.0000000000000000000000000000001/10+1-1=", "1E-32"), ("2@q-2=", "0"),
    ("3@q-3=", "-1E-33"),
  ])
  func scientificCases(_ keys: String, _ expected: String) throws {
    let (display, plain) = try Self.shown(keys, scientific: true)
    #expect(display == expected)
    #expect(plain == expected)
  }

  /// The display rounds the exact value once, to its digits; `--plain` to 34.
  @Test func theDisplayRoundsOnce() throws {
    for scientific in [false, true] {
      let (display, plain) = try Self.shown("2/3=", scientific: scientific)
      #expect(display == "0.66666667")
      #expect(plain == "0.6666666666666666666666666666666667")
      let state = try Self.state("2/3=", scientific: scientific)
      #expect(state.displayedValue?.fractionText == "2/3")
      #expect(state.displayedValue?.isRounded == false)
    }
    // Scientific notation from the exact value: 1/3 × 10^-9.
    #expect(try Self.shown("1/3=/1000000000=", scientific: false).display == "3.33333333E-10")
    // The expression line shows an operand as the display does.
    let state = try Self.state("2/3=+", scientific: true)
    #expect(DisplayFormat.posix.expression(for: state) == "0.66666667 +")
    #expect(DisplayFormat.plain.expression(for: state) == "0.6666666666666666666666666666666667 +")
  }

  /// An operand of Scientific mode's line whose 34 digits end in a 5 is rounded as the exact
  /// number lies: 1/2 + 1/(2·10^35) keeps 0.5000…0 (34 digits) beside the exact value, which
  /// the display's 8 digits round as they would the exact value.
  @Test func anOperandRoundsAsItsExactValue() {
    let half = Number(Decimal34(coefficient: 5, exponent: -1))
    let tiny = Number.dividing(.one, by: Number(Decimal34(coefficient: 3, exponent: 40)))!
    for (value, text) in [
      (Number(Decimal34(coefficient: 125, exponent: -9)) + tiny, "0.00000013"),
      (Number(Decimal34(coefficient: 125, exponent: -9)) - tiny, "0.00000012"),
      (half + tiny, "0.5"),
    ] {
      let operand = ScientificOperand(value: value, isExponential: false)
      #expect(DisplayFormat.posix.text(for: Number(operand.valueForRounding)) == text)
      #expect(DisplayFormat.posix.text(for: value) == text)
    }
  }

  /// Scientific functions whose result is rational for an exact integer keep it exact: n!
  /// while it has at most 120 digits (80! has 119), 10ˣ and 2ˣ; a non-integer n!, 81! and
  /// 10^0.5 round; errors are as before.
  @Test(arguments: [
    ("5!", "120", true), ("0!", "1", true),
    ("80!", "7.156945704626380229481153372318653E118", true),
    ("81!", "5.797126020747367985879734231578109E120", false),
    ("2.5!", "3.323350970447842551184064031264647", false), ("3~!", "Invalid input", false),
    ("3249!", "Overflow", false), ("3 pow10", "1000", true), ("3~ pow10", "0.001", true),
    ("0.5 pow10", "3.162277660168379331998893544432719", false), ("10000 pow10", "Overflow", false),
    ("10 pow2", "1024", true), ("3~ pow2", "0.125", true), ("8 yroot 3=", "2", true),
    ("7.5 mod 2=", "1.5", true), ("7.5~ abs", "7.5", true), ("7.5 floor", "7", true),
    ("7.5 ceil", "8", true),
  ])
  func integerValuedFunctions(_ keys: String, _ expected: String, _ exact: Bool) throws {
    let state = try Self.state(keys, scientific: true)
    #expect(DisplayFormat.plain.text(for: state) == expected, "\(keys)")
    #expect(state.displayedValue.map(\.isExact) ?? false == exact, "\(keys)")
  }

  /// 2^-200 is the exact fraction 1/2^200 (61 digits), which no 34-digit decimal holds.
  @Test func aNegativePowerOfTwoIsAFraction() throws {
    let value = try #require(Self.state("200~ pow2", scientific: true).displayedValue)
    #expect(value.isExact)
    #expect(value.fractionText == "1/1606938044258990275541962092341162602522202993782792835301376")
  }

  /// Programmer mode divides integers, as before.
  @Test func programmerModeIsUnchanged() throws {
    let keys = try KeyText.keys(in: "prog 1/3*3-1=")
    #expect(DisplayFormat.posix.text(for: Calculator.initial.applying(line: keys)) == "-1")
  }

  /// The exact value travels through memory and `$N`.
  @Test func memoryAndReferencesAreExact() throws {
    var replay = SessionScript.Replay()
    for line in ["1/3=", "ms", "c", "$1*3-1=", "mr*3-1=", "sci", "$1*3-1="] {
      try replay.perform(line)
    }
    let displays = replay.session.history.displays(after: replay.session.history.lines()[...])
      .map { DisplayFormat.posix.text(for: $0) }
    #expect(displays == ["0.33333333", "0.33333333", "0", "0", "0", "0", "0"])
  }

  // MARK: - The property

  /// How many random sequences: 300 by default, 10,000 with `CALC_LONG_TESTS=1`.
  static let count = TestSize.count(short: 300, long: 10_000)

  /// An operand of a random sequence: a whole number, a decimal, or one of the issue's
  /// divisors.
  static func operand(_ random: inout SplitMix64) -> String {
    switch random.below(4) {
    case 0: return String(random.int(1...999))
    case 1: return "\(random.int(0...99)).\(random.int(1...99))"
    case 2: return ["3", "7", "9", "11", "13"][random.below(5)]
    default: return "0.\(String(repeating: "0", count: random.below(4)))\(random.int(1...9))"
    }
  }

  /// A random rational sequence of one line, and its value in the model: each step finishes
  /// with `=` (so both modes compute left to right), or is x², 1/x, %, a sign change, `ms` …
  /// `mr`, or (Scientific) an integer power; it ends before the value leaves 10^±80.
  static func sequence(_ random: inout SplitMix64, scientific: Bool) -> (String, ModelNumber) {
    let first = operand(&random)
    // `=` ends the entry: a sign change on an entry changes the entry, shown as typed (`-17.60`).
    var text = first + "="
    var x = ModelNumber(exact: Fraction(decimal: first))
    var memory: ModelNumber?
    for _ in 0..<random.int(1...8) {
      var next: ModelNumber?
      var keys = ""
      switch random.below(scientific ? 9 : 8) {
      case 0, 1, 2, 3:
        let b = operand(&random)
        let y = ModelNumber(exact: Fraction(decimal: b))
        let op = ["+", "-", "*", "/"][random.below(4)]
        keys = op + b + "="
        switch op {
        case "+": next = x + y
        case "-": next = x - y
        case "*": next = x * y
        default: next = x / y
        }
      case 4:
        keys = "q"
        next = x * x
      case 5:
        keys = "r"
        next = ModelNumber(exact: .one) / x
      case 6:
        if let m = memory {
          keys = "+mr="
          next = x + m
        } else {
          keys = "ms"
          memory = x
          next = x
        }
      case 7:
        keys = random.chance(50) ? "%" : "~"
        next = keys == "%" ? x.percent(of: ModelNumber(exact: .one)) : -x
      default:
        // An integer power of an exact value (a rounded one's is `Decimal34.power`'s, faithful).
        guard !x.isRounded else { continue }
        let n = random.int(-3...4)
        keys = n < 0 ? "^\(-n)~=" : "^\(n)="
        next = x.power(n)
      }
      guard let value = next, value.value.isZero || abs(value.value.magnitudeExponent) < 80
      else { break }
      text += " " + keys
      x = value
    }
    return (text, x)
  }

  /// The model's value as `--plain` writes it: rounded to 34 digits.
  static func plainText(_ model: ModelNumber) -> String {
    let (coefficient, exponent) = model.value.rounded(toSignificantDigits: 34)
    let digits = coefficient.magnitude.description
    let decimal = Decimal34(
      coefficient: UInt128(digits)!, exponent: exponent, isNegative: coefficient.isNegative)
    return DisplayFormat.plain.text(for: Number(decimal))
  }

  /// Random rational sequences in Standard and Scientific mode agree with the `Fraction` model:
  /// `--plain` shows the model's value rounded to 34 digits, the mark is the model's, and an
  /// exact value is the model's fraction.
  @Test(arguments: [false, true])
  func randomSequencesAgreeWithTheModel(_ scientific: Bool) throws {
    var random = SplitMix64(state: scientific ? 0x5C1E : 0x57D)
    for _ in 0..<Self.count {
      let (text, model) = Self.sequence(&random, scientific: scientific)
      let state = try Self.state(text, scientific: scientific)
      let label = "\(scientific ? "sci " : "")\(text)"
      guard let value = state.displayedValue else {
        Issue.record("\(label): \(DisplayFormat.posix.text(for: state))")
        continue
      }
      #expect(DisplayFormat.plain.text(for: state) == Self.plainText(model), "\(label)")
      #expect(value.isRounded == model.isRounded, "\(label)")
      if !model.isRounded {
        #expect(value.fractionText == model.value.description, "\(label)")
      }
    }
  }
}
