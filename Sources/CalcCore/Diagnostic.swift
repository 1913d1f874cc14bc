/// A message about the input, for standard error: where it is (`FILE:LINE:COLUMN: `) or, when
/// it is about no place in a file, `calc: `, then what is wrong.
///
/// The one printer of calc's messages about input, so that every message starts with a location
/// or with `calc: `.
package struct Diagnostic: Equatable {
  /// The file as shown in messages (`<stdin>`, an escaped name), if the message is about one.
  package var file: String?
  /// The 1-based line in `file`.
  package var line: Int?
  /// The 1-based column in `line`, counted in characters.
  package var column: Int?
  /// What is wrong, as a sentence without a trailing period.
  package var message: String

  /// A message about the whole run (`calc: cannot read 'x': …`).
  package init(_ message: String) {
    self.message = message
  }

  /// A message about `line` and `column` of `file`.
  package init(file: String, line: Int, column: Int = 1, _ message: String) {
    (self.file, self.line, self.column, self.message) = (file, line, column, message)
  }

  /// `FILE:LINE:COLUMN: message`, or `calc: message`.
  package var text: String {
    guard let file, let line else { return "calc: " + message }
    return "\(file):\(line):\(column ?? 1): \(message)"
  }
}
