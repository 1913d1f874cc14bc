import CalcTestSupport
import Testing

@testable import CalculatorEngine

/// A run of digits and points is typed into the entry in one change of the state
/// (``CalculatorBrain/type(fresh:_:thenRun:from:)``, through ``Calculator/press(each:)``): the
/// same state as pressing its keys one at a time, whatever state the run starts from and however
/// it ends.
@Suite struct TypedRunTests {
  /// `keys` pressed as a line's run and one at a time, from `start`.
  static func bothWays(_ keys: [Key], from start: Calculator) -> (
    run: Calculator, oneByOne: Calculator
  ) {
    var run = start
    keys.withUnsafeBufferPointer { run.press(each: $0) }
    var oneByOne = start
    for key in keys { oneByOne.press(key) }
    return (run, oneByOne)
  }

  /// Rows: the keys before, the line, and the display after it (`posix`), each from the same
  /// state both ways.
  @Test(arguments: [
    ("", "123.45*6.7=", "827.115"),
    ("", "1.2.3", "1.23"),
    ("", "..5", "0.5"),
    ("", "12345678901234567890", "1,234,567,890,123,456"),
    ("", "0.000000000000000012", "0.0000000000000000"),
    ("", "007", "7"),
    ("12+3=", "45", "45"),
    ("12+3=", ".5=", "3.5"),
    ("12+", "3.50", "3.50"),
    ("1/0=", "25", "25"),
    ("9@", "1", "1"),
    ("12+3", "4~5", "-345"),
    ("5ms", "7mr8", "8"),
    ("2+3", "c45", "45"),
    ("2+3", "<<9", "9"),
  ])
  func rows(before: String, line: String, display: String) throws {
    let start = Calculator.initial.applying(line: try KeyText.keys(in: before))
    let (run, oneByOne) = Self.bothWays(Array(try KeyText.keys(in: line)), from: start)
    #expect(run == oneByOne)
    #expect(DisplayFormat.posix.text(for: run) == display)
  }

  /// Random lines of Standard keys, rich in digits and points, from random states: the run
  /// gives the state that one key at a time gives.
  @Test func randomLinesAgree() {
    var random = SplitMix64(state: 0x7E_2024)
    let typing: [Key] =
      Key.Digit.allCases.map { .digit($0) } + [.dot]
    let others = Key.standardKeys
    var state = Calculator.initial
    for _ in 0..<TestSize.count(short: 2_000, long: 50_000) {
      let keys = (0..<random.int(1...30)).map { _ in
        random.chance(70) ? typing[random.below(typing.count)] : others[random.below(others.count)]
      }
      let (run, oneByOne) = Self.bothWays(keys, from: state)
      #expect(run == oneByOne, "\(keys.map(\.canonical).joined())")
      state = run
    }
  }
}
