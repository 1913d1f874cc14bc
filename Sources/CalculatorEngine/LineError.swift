/// A line that was rejected: what is wrong, and the 1-based column (counted in characters) where
/// it starts.
///
/// Errors of input are thrown as this, with a message a person can act on; errors of calculation
/// are states of the brain (`Cannot divide by zero`), never thrown.
public struct LineError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What is wrong, as a sentence without a trailing period.
  public let message: String
  /// The 1-based column, counted in characters, where the problem starts.
  public let column: Int

  /// An error saying `message` at `column`.
  package init(_ message: String, column: Int = 1) {
    self.message = message
    self.column = column
  }

  /// A key text error at its own column.
  package init(_ error: KeyTextError) {
    self.init(error.description, column: error.column)
  }

  /// The message.
  public var description: String { message }
}
