import CalculatorEngine

/// A table row of the engine's tests: keys from a fresh calculator, the display (en_US) and the
/// exact expression line after them.
public struct DisplayLineRow: CustomStringConvertible, Sendable {
  public let keys: String
  public let display: String
  public let line: String
  public var description: String { "\(keys) → \(display) [\(line)]" }

  public init(_ keys: String, _ display: String, _ line: String) {
    (self.keys, self.display, self.line) = (keys, display, line)
  }

  /// The format the rows' displays are written in.
  public static let format = DisplayFormat(localeIdentifier: "en_US")

  /// A fresh calculator after `keys` (key text); throws for text that is no keys.
  public static func state(_ keys: String) throws -> Calculator {
    Calculator.initial.applying(try KeyText.keys(in: keys))
  }
}
