import CalcDecimal

/// What the display shows, in any mode: a number being typed, a computed number, or an error
/// (SPEC §3); ``DisplayFormat`` writes it.
public enum Display: Hashable, Sendable {
  /// A number being typed, shown as typed: `1,234.50`, `0.`, `-0.`.
  case entry(Entry)
  /// A computed number, shown rounded to the format's precision: `0.66666667`.
  case value(Number)
  /// A failed calculation, shown as its message.
  case error(CalculationError)
  /// A number being typed in Scientific mode, shown as typed: `1.5e+3`, `0.`.
  case scientificEntry(ScientificEntry)
  /// A computed number with F-E on: always in scientific notation, `1.2345E2`, `0E0`.
  case exponential(Number)
  /// Programmer mode's value (typed or computed): the word's bits in the radix shown.
  case programmer(ProgrammerValue)
  /// Date mode's value (SPEC §13): a date, a difference, a duration, a number or an error of
  /// calculation, shown as ``DateValue/text(in:)`` writes it.
  case date(DateDisplay)
}

/// Why a calculation failed: the error the display shows, in any mode (SPEC rule 14, §9,
/// §10). An error of calculation is a state, never thrown.
public enum CalculationError: Hashable, Sendable, CaseIterable {
  /// A nonzero number divided by zero, or (Scientific mode) a pole reached through a
  /// reciprocal, such as `90sec`.
  case divideByZero
  /// Zero divided by zero, or `1 logy 1`.
  case undefined
  /// The square root of a negative number, or (Scientific mode) an argument outside a
  /// function's domain.
  case invalidInput
  /// A result of magnitude 10^100 or more (Scientific mode: 10^10000 or more, or nonzero
  /// below 10^-9999).
  case overflow
  /// (Programmer mode) A shift count that is negative or not less than the word size.
  case notDefined
  /// (Date mode, SPEC §13) A date outside 1601-01-01 … 9999-12-31, shown where `$N` recalls
  /// such a line in another mode (rule 14).
  case dateOutOfBound

  /// The text shown in the display.
  public var message: String {
    switch self {
    case .divideByZero: "Cannot divide by zero"
    case .undefined: "Result is undefined"
    case .invalidInput: "Invalid input"
    case .overflow: "Overflow"
    case .notDefined: "Result not defined"
    case .dateOutOfBound: "Date out of Bound"
    }
  }
}
