/// One line of a calc script or of REPL input, split into what it is: the one parser of the
/// line grammar, shared by scripts, the REPL, its completion and `:load`.
///
/// A line whose first character after blanks (spaces, tabs) is `:` is a command: a name up to
/// the next blank, then an argument, the rest of the line without surrounding blanks and
/// without a comment (a `#` at its start or after a blank). Any other line is key text
/// (``KeyText``); key text without keys (empty, blanks, a comment) is a blank line.
public enum ScriptLine: Hashable, Sendable {
  /// Nothing to do: empty, blanks, or a comment.
  case blank
  /// A line of keys, at least one.
  case keys([CalculatorButtonItem])
  /// A `:command`, not yet checked against the commands that exist.
  case command(Command)

  /// A command line's parts, with their 1-based columns (counted in characters) for messages.
  public struct Command: Hashable, Sendable {
    /// The name after the `:`, e.g. `goto`; empty for a lone `:`.
    public let name: String
    /// The column of the `:`.
    public let column: Int
    /// The argument: the rest of the line, trimmed, without a trailing comment; may be empty.
    public let argument: String
    /// The column where the argument starts (or would start).
    public let argumentColumn: Int

    /// A command with the given parts.
    public init(name: String, column: Int = 1, argument: String = "", argumentColumn: Int? = nil) {
      self.name = name
      self.column = column
      self.argument = argument
      self.argumentColumn = argumentColumn ?? column + name.count + 2
    }
  }

  /// Parses `line` (UTF-8, without its newline); throws for key text that holds a character
  /// that is no key.
  ///
  /// - Complexity: O(n) in the length of the line.
  public init(_ line: UnsafeBufferPointer<UInt8>) throws(KeyTextError) {
    var index = 0
    while index < line.count, line[index] == UInt8(ascii: " ") || line[index] == UInt8(ascii: "\t")
    {
      index += 1
    }
    if index < line.count, line[index] == UInt8(ascii: ":") {
      self = .command(ScriptLine.command(String(decoding: line, as: UTF8.self)))
      return
    }
    var keys: [CalculatorButtonItem] = []
    try KeyText.scan(line) { keys.append($0) }
    self = keys.isEmpty ? .blank : .keys(keys)
  }

  /// Parses a line of text; see ``init(_:)-(UnsafeBufferPointer<UInt8>)``.
  public init(_ line: String) throws(KeyTextError) {
    var copy = line
    let result: Result<ScriptLine, KeyTextError> = copy.withUTF8 { bytes in
      do throws(KeyTextError) {
        return .success(try ScriptLine(bytes))
      } catch {
        return .failure(error)
      }
    }
    self = try result.get()
  }

  /// The parts of a line known to start with blanks and a `:`.
  private static func command(_ line: String) -> Command {
    let characters = Array(line)
    func isBlank(_ index: Int) -> Bool { characters[index] == " " || characters[index] == "\t" }
    var index = 0
    while index < characters.count, isBlank(index) { index += 1 }
    let column = index + 1
    index += 1  // the colon
    let nameStart = index
    while index < characters.count, !isBlank(index) { index += 1 }
    let name = String(characters[nameStart..<index])
    while index < characters.count, isBlank(index) { index += 1 }
    // A `#` after a blank starts a comment, as in key lines (`:goto 3  # back to 12`).
    var end = characters.count
    if let hash = (index..<characters.count).first(where: {
      characters[$0] == "#" && ($0 == index || isBlank($0 - 1))
    }) {
      end = hash
    }
    while end > index, isBlank(end - 1) { end -= 1 }
    return Command(
      name: name, column: column, argument: String(characters[index..<end]),
      argumentColumn: index + 1)
  }
}
