import CalcDecimal
import CalcTestSupport
import CalculatorEngine
import Testing

/// SPEC §9's examples, each as keys from a fresh calculator, the display (en_US) and, where the
/// spec gives it, the expression line.
@Suite struct ScientificModeTests {
  struct Example: CustomTestStringConvertible, Sendable {
    let keys: String
    let display: String
    let line: String?
    var testDescription: String { "\(keys) → \(display)\(line.map { " [\($0)]" } ?? "")" }
    init(_ keys: String, _ display: String, _ line: String? = nil) {
      (self.keys, self.display, self.line) = (keys, display, line)
    }
  }

  static let format = DisplayFormat(localeIdentifier: "en_US")

  static func state(_ keys: String) throws -> Calculator {
    Calculator.initial.applying(try KeyText.keys(in: keys))
  }

  static let examples: [Example] = [
    // Mode.
    Example("sci ~", "0", "negate(0)"), Example("sci exp", "0"), Example("sci exp3", "3"),
    Example("sci 1/0==", "Cannot divide by zero"), Example("std 1+2*3=", "9"),
    Example("sci 2+3 std", "0"), Example("sci 1/3=ms std mr", "0.33333333"),
    Example("sci rad std sci 90sin", "0.89399666", "sinᵣ(90)"),
    // Rules.
    Example("sci 1+2*3=", "7", "1 + 2 × 3 ="), Example("sci 2^3^2=", "64"),
    Example("sci 1+2*", "2"), Example("sci 1+2*3==", "13"),
    Example("sci 2-3*+", "-1", "2 - 3 +"), Example("sci 1-2+*", "-1", "(1 - 2) ×"),
    Example("sci 2(3)=", "6"), Example("sci (8)2=", "16"), Example("sci 5ms(mr+1)=", "30"),
    Example("sci 2pi=", "3.14159265"), Example("sci 1exp5~", "1.e-5"),
    Example("sci 12rad3=", "3"), Example("sci 2^10%=", "1.14869835"),
    // calc's decisions where Windows contradicts its own line (Windows: -5, 6, 0).
    Example("sci 2-3*+4=", "3"), Example("sci 1+(2)3=", "7"), Example("sci 10%", "0.1"),
    // Digits: exact where the value is a decimal.
    Example("sci 30sin", "0.5", "sin₀(30)"), Example("sci 90cos", "0"), Example("sci 45tan", "1"),
    Example("sci 1000log", "3"), Example("sci 27cbrt", "3", "cuberoot(27)"),
    Example("sci 8yroot3=", "2", "8 yroot 3 ="), Example("sci 1ln", "0"),
    Example("sci 5!", "120", "fact(5)"), Example("sci rad pi sin", "0"),
    Example("sci rad pi cos", "-1"), Example("sci rad pi/2=cos", "0"),
    Example("sci 8~^(2/3)=", "4"), Example("sci 8^(2/3)-4=", "0"),
    Example("sci 8~yroot1.5=", "4"), Example("sci 4~yroot2=", "Invalid input"),
    Example("sci 123.45fe", "1.2345E2"), Example("sci fe=", "0E0"),
    Example("sci 1.5exp3", "1.5e+3"),
    // The expression line.
    Example("sci 100log", "2", "log(100)"), Example("sci 2cube", "8", "cube(2)"),
    Example("sci 2pow10", "100", "10^(2)"), Example("sci 1powe", "2.71828183", "e^(1)"),
    Example("sci 3~abs", "3", "abs(-3)"), Example("sci 1+(2-3)=", "0", "1 + (2 - 3) ="),
    Example("sci 7mod3=", "1", "7 Mod 3 ="), Example("sci 8logy2=", "3", "8 log base 2 ="),
    Example("sci grad 50sin", "0.70710678", "sin₉(50)"),
    Example("sci 1asin", "90", "sin₀⁻¹(1)"), Example("sci 1asinh", "0.88137359", "sinh⁻¹(1)"),
    // CE turns F-E off; operands already on the line keep their form.
    Example("sci fe5+3ce=", "5", "5E0 + 0 ="),
  ]

  @Test(arguments: examples) func example(_ example: Example) throws {
    let state = try Self.state(example.keys)
    #expect(Self.format.text(for: state) == example.display)
    if let line = example.line {
      #expect(Self.format.expression(for: state) == line)
    }
  }

  /// `=` closes every open bracket even when the precedence stack is full (25 levels of
  /// brackets and waiting operations), where `)` typed is ignored as Windows ignores it: Windows'
  /// `=`, pressing `)` until none is open, never ends there, and neither did calc's (found by
  /// calc-fuzz). The line after `=` has as many `)` as `(`, on both keypads with brackets.
  @Test(arguments: ["sci", "prog"])
  func equalsClosesEveryBracketWhenTheStackIsFull(mode: String) throws {
    let state = try Self.state("\(mode) +9((((((((((+9(+9((((((((((+9(=")
    let line = Self.format.expression(for: state)
    #expect(line.hasSuffix(" ="))
    #expect(line.filter { $0 == "(" }.count == line.filter { $0 == ")" }.count)
    // `)` typed with the stack full is ignored: the brackets stay open until `=`.
    let typed = try Self.state("\(mode) +9((((((((((+9(+9((((((((((+9()")
    #expect(Self.format.expression(for: typed).filter { $0 == ")" }.isEmpty)
  }

  /// `--plain` gives every digit.
  @Test func plainGivesTheFullDigits() throws {
    #expect(
      DisplayFormat.plain.text(for: try Self.state("sci 2@"))
        == "1.414213562373095048801688724209698")
    #expect(DisplayFormat.plain.text(for: try Self.state("sci 1ln ~ powe")) == "1")
    #expect(
      DisplayFormat.plain.text(for: try Self.state("sci 10ln"))
        == "2.302585092994045684017991454684364")
  }

  /// A switch keeps the memory and the angle unit, turns F-E off and ends the entry.
  @Test func aSwitchKeepsMemoryAndUnit() throws {
    let state = try Self.state("sci rad fe 5ms std sci")
    #expect(state.mode == .scientific)
    #expect(state.angleUnit == .radians)
    #expect(state.memory == Number(5))
    #expect(!state.isExponential)
    #expect(Self.format.text(for: state) == "0")
  }

  /// SPEC §9: a value recalled into Standard mode from outside its range shows Overflow (from
  /// 10^100) or 0 (below 10^-100).
  @Test func recalledIntoStandardWithinItsRange() throws {
    #expect(Self.format.text(for: try Self.state("sci 1exp200 ms std mr")) == "Overflow")
    #expect(Self.format.text(for: try Self.state("sci 1exp200~ ms std mr")) == "0")
    #expect(Self.format.text(for: try Self.state("sci 1exp50 ms std mr")) == "1E50")
  }

  /// Standard mode refuses Scientific keys; the line is checked with the mode it reaches.
  @Test func standardModeRefusesScientificKeys() throws {
    let keys = try KeyText.keys(in: "1+2 sin")
    #expect(Calculator.initial.firstKeyOutOfMode(in: keys) == 3)
    #expect(Calculator.initial.firstKeyOutOfMode(in: try KeyText.keys(in: "sci 1+2 sin")) == nil)
    #expect(Calculator.initial.firstKeyOutOfMode(in: try KeyText.keys(in: "sci std (")) == 2)
    var session = Session()
    #expect(throws: SessionError.self) { try session.perform(.keys(try KeyText.keys(in: "2^2="))) }
    #expect(session.history.count == 0)
  }

  /// Property: for random sessions of Standard and Scientific keys with mode switches, the
  /// state at any position equals a replay of that prefix (line starts included), and
  /// save/load is identity.
  @Test func timeTravelAcrossModes() throws {
    var random = SplitMix64(state: 0x5C1_E4CE)
    let scientific = Key.allKeys.filter {
      if case .mode = $0 { return false }
      return true
    }
    for _ in 0..<TestSize.count(short: 30, long: 400) {
      var session = Session()
      var lines: [[Key]] = []
      for _ in 0..<random.int(1...12) {
        var line: [Key] = random.chance(30) ? [.mode(.scientific)] : []
        for _ in 0..<random.int(1...8) {
          line.append(scientific[random.below(scientific.count)])
        }
        if random.chance(10) { line.append(.mode(.standard)) }
        // Only lines that the mode allows are typed.
        if session.state.firstKeyOutOfMode(in: line) != nil { continue }
        try session.perform(.keys(line))
        lines.append(line)
      }
      // The state at each position equals a replay of the prefix, line starts included.
      var starts: Set<Int> = []
      var count = 0
      for line in lines {
        starts.insert(count)
        count += line.count
      }
      let keys = lines.flatMap { $0 }
      for position in stride(from: 0, through: count, by: max(1, count / 7)) {
        var replay = Calculator.initial
        for (index, key) in keys.prefix(position).enumerated() {
          if starts.contains(index) { replay.startLine() }
          replay.press(key)
        }
        #expect(session.history.state(at: position) == replay, "position \(position)")
      }
      // Save then load is identity.
      let text = SessionScript.text(of: session.history)
      let loaded = SessionScript.replay(Array(text.utf8))
      #expect(loaded.stop == nil)
      #expect(loaded.session.history.state == session.history.state)
      #expect(loaded.session.history.count == session.history.count)
    }
  }
}

/// Robustness: random Scientific keys, numbers with exponents included, never trap, and the
/// display is always a number or an error (calc-bench's mixed stream once found 2^(5·10^9)
/// trapping on an overflowing multiplication).
@Suite struct ScientificRobustnessTests {
  @Test func randomKeysNeverTrap() throws {
    var random = SplitMix64(state: 0xB0_0B5)
    let keys = Key.allKeys.filter {
      if case .mode(.standard) = $0 { return false }
      return true
    }
    let format = DisplayFormat.plain
    for _ in 0..<TestSize.count(short: 100, long: 5_000) {
      var state = Calculator.initial.apply(.mode(.scientific))
      for _ in 0..<random.int(1...30) {
        if random.chance(15) {
          // A number with an exponent of up to four digits.
          for _ in 0..<random.int(1...4) { state.press(.digit(.init(random.below(10))!)) }
          state.press(.scientific(.exponent))
          if random.chance(50) { state.press(.command(.flip)) }
          for _ in 0..<random.int(1...4) { state.press(.digit(.init(random.below(10))!)) }
        }
        state.press(keys[random.below(keys.count)])
      }
      #expect(!format.text(for: state).isEmpty)
    }
  }

  /// Powers with huge integer exponents go through logarithms: no trap, and the limits hold.
  @Test(arguments: [
    ("sci 2^5exp9=", "Overflow"), ("sci 1^5exp9=", "1"), ("sci 1~^10000001=", "-1"),
    ("sci 1~^4exp9=", "1"), ("sci 0.5^5exp9=", "Overflow"), ("sci 1.0000001^1exp7=", "2.71828169"),
  ])
  func hugeIntegerExponents(_ keys: String, _ display: String) throws {
    let state = Calculator.initial.applying(try KeyText.keys(in: keys))
    #expect(DisplayFormat(localeIdentifier: "en_US").text(for: state) == display)
  }
}
