import CalcDecimal
import CalcTestSupport
import Testing

@testable import CalculatorEngine

/// The state after an `=` that applied an operation, ``CalculatorBrain/equalled(result:operation:left:right:)``,
/// stands for the `.left` state with the boxed line that `=` made before it
/// (``CalculatorBrain/general``): every key does from it what it does from that state.
@Suite struct EqualledStateTests {
  /// The keys of Standard mode a calculation takes, memory keys included.
  static let keys = Key.standardKeys

  /// `state` and its general form lead to the same state, display, expression line and memory
  /// under `key`.
  static func agree(_ state: Calculator, _ key: Key) -> Bool {
    let general = Calculator(brain: state.standard!.general, memory: state.memory)
    let (next, expected) = (state.apply(key), general.apply(key))
    return next.standard?.general == expected.standard?.general && next.display == expected.display
      && next.expressionLine == expected.expressionLine && next.memory == expected.memory
      && state.completedCalculation(by: key) == general.completedCalculation(by: key)
  }

  /// An `=` that applies an operation leads to the new case, whatever came before it; an `=`
  /// with nothing to repeat, and a failed one, do not.
  @Test(arguments: [
    ("12+3=", true), ("12+3==", true), ("12+=", true), ("2*@=", true), ("12+3=5=", true),
    ("12+3=+=", true), ("13=", false), ("1/0=", false), ("", false), ("12+3=<", false),
  ])
  func whichEqualsLeadToIt(keys: String, equalled: Bool) throws {
    let brain = Calculator.initial.applying(try KeyText.keys(in: keys)).standard!
    if case .equalled = brain { #expect(equalled) } else { #expect(!equalled) }
  }

  /// What the display and the expression line show after `=`, and after the key that follows
  /// it, as rows.
  @Test(arguments: [
    ("12+3=", "15", "12 + 3 ="),
    ("12+3==", "18", "15 + 3 ="),
    ("12+=", "24", "12 + 12 ="),
    ("2*9@=", "6", "2 × √(9) ="),
    ("12+3=5", "5", ""),
    ("12+3=.", "0.", ""),
    ("12+3=+", "15", "15 +"),
    ("12+3=~", "-15", "negate(15)"),
    ("12+3=%", "0.15", "0.15"),
    ("12+3=<", "15", ""),
    ("12+3=@", "3.87298335", "√(15)"),
    ("12+3=ce", "0", ""),
    ("12+3=c", "0", ""),
    ("12+3=ms5+mr=", "20", "5 + 15 ="),
    ("12+3=m+m+mr", "30", ""),
  ])
  func rows(keys: String, display: String, line: String) throws {
    let state = Calculator.initial.applying(try KeyText.keys(in: keys))
    #expect(DisplayFormat.posix.text(for: state.display) == display, "\(keys)")
    #expect(DisplayFormat.posix.text(for: state.expressionLine) == line, "\(keys)")
  }

  /// From every state random sessions reach, each Standard key does from the state what it
  /// does from the state's general form (the new case agrees with the old one key by key).
  @Test func everyKeyAgreesWithTheGeneralForm() {
    var random = SplitMix64(state: 0xE0A1)
    let sessions = TestSize.count(short: 300, long: 5_000)
    var equalledStates = 0
    for _ in 0..<sessions {
      var state = Calculator.initial
      for _ in 0..<random.int(1...40) {
        // `=` and operators often, so that repeated and chained `=`s are common.
        let key: Key =
          random.chance(25)
          ? (random.chance(50) ? .equal : .op(.multiply)) : Self.keys[random.below(Self.keys.count)]
        if case .equalled = state.standard! { equalledStates += 1 }
        for probe in Self.keys where !Self.agree(state, probe) {
          Issue.record("\(probe) from \(state.standard!)")
        }
        state.press(key)
      }
    }
    #expect(equalledStates > sessions / 2)
  }

  /// Results at the bounds: an `=` that overflows shows the line that failed; one below 10^-100
  /// gives 0 in the new case.
  @Test func resultsAtTheBounds() throws {
    let big = Calculator.initial.applying(try KeyText.keys(in: "9999999999999999qqqqqqq=="))
    #expect(big.display == .error(.overflow))
    let tiny = Calculator.initial.applying(try KeyText.keys(in: "0.0000000000000001qqqqqqq*="))
    #expect(tiny.display == .value(.zero))
    if case .equalled = tiny.standard! {
    } else {
      Issue.record("not the new case: \(tiny.standard!)")
    }
  }
}
