/// One line of a calc script or of REPL input, split into what it is: the one parser of the
/// line grammar, shared by scripts, the REPL, its completion and `:load`.
///
/// A line whose first character after blanks (spaces, tabs) is `:` is a command: a name up to
/// the next blank, then an argument, the rest of the line without surrounding blanks and
/// without a comment (a `#` at its start or after a blank). The bare words `help`, `quit` and
/// `exit` (in any case, alone on the line but for blanks and a comment) are the commands of the
/// same names: no key text can hold them. Any other line is key text (``KeyText``); key text
/// without keys (empty, blanks, a comment) is a blank line.
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
    /// The argument exactly as it came, which need not be UTF-8: a file name is passed to the
    /// system byte for byte.
    public let argumentBytes: [UInt8]
    /// The column where the argument starts (or would start).
    public let argumentColumn: Int

    /// A command with the given parts.
    public init(name: String, column: Int = 1, argument: String = "", argumentColumn: Int? = nil) {
      self.init(
        name: name, column: column, argumentBytes: Array(argument.utf8),
        argumentColumn: argumentColumn)
    }

    /// A command whose argument is given as bytes.
    public init(name: String, column: Int = 1, argumentBytes: [UInt8], argumentColumn: Int? = nil) {
      self.name = name
      self.column = column
      self.argument = String(decoding: argumentBytes, as: UTF8.self)
      self.argumentBytes = argumentBytes
      self.argumentColumn = argumentColumn ?? column + name.count + 2
    }
  }

  /// Parses `line` (UTF-8, without its newline); throws for key text that holds a character
  /// that is no key.
  ///
  /// - Complexity: O(n) in the length of the line.
  public init(_ line: UnsafeBufferPointer<UInt8>) throws(KeyTextError) {
    let index = ScriptLine.firstNonBlank(line)
    if index < line.count, line[index] == UInt8(ascii: ":") {
      self = .command(ScriptLine.command(line))
      return
    }
    var keys: [CalculatorButtonItem] = []
    do {
      try KeyText.scan(line) { keys.append($0) }
    } catch {
      // Checked only once the line failed as keys, so that key lines pay nothing for it.
      guard let word = ScriptLine.bareWord(line, from: index) else { throw error }
      self = .command(word)
      return
    }
    self = keys.isEmpty ? .blank : .keys(keys)
  }

  /// Whether `line` is a command line: its first character after blanks is `:`. A reader can
  /// tell from the start of a line, before the rest has arrived.
  public static func isCommand(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    let index = firstNonBlank(line)
    return index < line.count && line[index] == UInt8(ascii: ":")
  }

  /// The offset of the first byte of `line` that is not a blank (space, tab), or its length.
  private static func firstNonBlank(_ line: UnsafeBufferPointer<UInt8>) -> Int {
    line.firstIndex { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") } ?? line.count
  }

  /// The words that work without a `:`.
  public static let bareWords: Set<String> = ["help", "quit", "exit"]

  /// The command a line spells as a bare word (``bareWords``) starting at `start`, if it does.
  private static func bareWord(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Command? {
    func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    var end = start
    while end < line.count, !isBlank(line[end]), line[end] != UInt8(ascii: "#") { end += 1 }
    var rest = end
    while rest < line.count, isBlank(line[rest]) { rest += 1 }
    // Only a comment may follow, after a blank (`quit  # done`).
    guard rest == line.count || (line[rest] == UInt8(ascii: "#") && rest > end) else { return nil }
    let word = String(decoding: UnsafeBufferPointer(rebasing: line[start..<end]), as: UTF8.self)
      .lowercased()
    guard bareWords.contains(word) else { return nil }
    return Command(name: word, column: start + 1, argumentColumn: end + 1)
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
  private static func command(_ line: UnsafeBufferPointer<UInt8>) -> Command {
    func isBlank(_ index: Int) -> Bool {
      line[index] == UInt8(ascii: " ") || line[index] == UInt8(ascii: "\t")
    }
    func text(_ range: Range<Int>) -> String {
      String(decoding: UnsafeBufferPointer(rebasing: line[range]), as: UTF8.self)
    }
    var index = firstNonBlank(line)
    let column = index + 1
    index += 1  // the colon
    let nameStart = index
    while index < line.count, !isBlank(index) { index += 1 }
    let name = text(nameStart..<index)
    while index < line.count, isBlank(index) { index += 1 }
    // A `#` after a blank starts a comment, as in key lines (`:goto 3  # back to 12`).
    var end = line.count
    if let hash = (index..<line.count).first(where: {
      line[$0] == UInt8(ascii: "#") && ($0 == index || isBlank($0 - 1))
    }) {
      end = hash
    }
    while end > index, isBlank(end - 1) { end -= 1 }
    // Columns count characters, as in key text; the argument's bytes are kept as they came.
    return Command(
      name: name, column: column, argumentBytes: Array(line[index..<end]),
      argumentColumn: text(0..<index).count + 1)
  }
}
