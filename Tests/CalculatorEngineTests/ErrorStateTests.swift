import CalcDecimal
import Testing

@testable import CalculatorEngine

/// Each mode's error state decides what the calculator says of itself — ``Calculator/isError``
/// (which a script's exit status reads, SPEC §5), the display, the displayed value, what `$N`
/// recalls — whatever the mode: `prog 100/0=` once exited 0 because the front end read Standard
/// mode's brain in Programmer mode (issue 47). A new mode must add its row to ``errorKeys(_:)``,
/// whose `switch` the compiler holds to every mode.
@Suite struct ErrorStateTests {
  /// Keys that end in each error a mode can show, in that mode (after its mode key).
  static func errorKeys(_ mode: Key.Mode) -> [(String, CalculatorBrain.CalculationError)] {
    switch mode {
    case .standard:
      [
        ("100/0=", .divideByZero), ("0/0=", .undefined), ("9~@", .invalidInput),
        ("1000000000000000*======", .overflow),
      ]
    case .scientific:
      [
        ("100/0=", .divideByZero), ("0/0=", .undefined), ("9~@", .invalidInput),
        ("10^10000=", .overflow),
      ]
    case .programmer:
      [("100/0=", .divideByZero), ("0/0=", .undefined), ("1 lsh 64=", .notDefined)]
    case .formula:
      // Formulas, run on the Scientific keypad (SPEC §12).
      [
        ("100/0", .divideByZero), ("0/0", .undefined), ("sqrt(-9)", .invalidInput),
        ("10^10000", .overflow),
      ]
    case .date:
      // Date lines (SPEC §13).
      [
        ("1:00/0", .divideByZero), ("0:00/0:00", .undefined),
        ("9999-12-31 + 1d", .dateOutOfBound),
      ]
    }
  }

  @Test(arguments: Key.Mode.allCases)
  func theModesErrorStateIsTheCalculatorsError(mode: Key.Mode) throws {
    for (text, error) in Self.errorKeys(mode) {
      // A formula is applied by a session, which compiles it.
      var session = Session()
      try session.perform(.keys([.mode(mode)]))
      try session.perform(.keys(try KeyText.keys(in: text, startingIn: mode)))
      var state = session.state
      #expect(state.mode == mode)
      #expect(state.isError, "\(mode) \(text)")
      #expect(state.display == .error(error), "\(mode) \(text)")
      #expect(state.displayedValue == nil, "\(mode) \(text)")
      #expect(Calculator.Recalled(state) == .error(error), "\(mode) \(text)")
      #expect(!state.isPending, "\(mode) \(text)")
      // A digit starts afresh (rule 14): no error any more, in any mode with digit keys.
      if mode == .date { continue }
      state.press(.digit(.one))
      #expect(!state.isError, "\(mode) \(text) 1")
    }
  }

  /// The same session through the history: a line that ends in an error leaves the session's
  /// state in error, in every mode.
  @Test(arguments: Key.Mode.allCases)
  func aSessionsLineEndsInTheModesError(mode: Key.Mode) throws {
    var session = Session()
    try session.perform(.keys([.mode(mode)]))
    let line = mode == .formula ? "100/0" : mode == .date ? "1:00/0" : "100/0="
    try session.perform(.keys(try KeyText.keys(in: line, startingIn: mode)))
    #expect(session.state.isError)
    #expect(session.state.display == .error(.divideByZero))
  }
}
