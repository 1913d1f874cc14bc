import CalcDecimal
import CalculatorEngine

/// What a key line needs to know of the state (its notes, its exit status), read where the
/// display is written or where `self` is not `inout`: read in a mutating method, the session's
/// state was copied first, a good part of a short line's cost
/// (Documentation/Performance.md#a-scripts-line).
package struct StateFacts {
  /// Whether the display shows an error.
  package var showsError: Bool
  /// Whether an operation is pending (or, in Scientific mode, a bracket is open).
  package var isPending: Bool
  /// The mode: the next line's keys are read in it.
  package var mode: Key.Mode

  /// The facts given.
  package init(showsError: Bool, isPending: Bool, mode: Key.Mode) {
    self.showsError = showsError
    self.isPending = isPending
    self.mode = mode
  }
}
