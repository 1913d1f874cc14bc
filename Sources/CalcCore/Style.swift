/// Colours for a terminal: on only when the output is a terminal whose `TERM` is set and not
/// `dumb`, and `NO_COLOR` is unset.
public struct Style: Sendable {
  public let isEnabled: Bool

  public static let plain = Style(isEnabled: false)

  public init(isEnabled: Bool) {
    self.isEnabled = isEnabled
  }

  /// Errors: red.
  public func error(_ text: String) -> String { paint(text, "31") }
  /// Secondary text, such as the kept future: dim.
  public func dim(_ text: String) -> String { paint(text, "2") }
  /// The current step's marker: bold cyan.
  public func marker(_ text: String) -> String { paint(text, "1;36") }

  private func paint(_ text: String, _ code: String) -> String {
    isEnabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }
}
