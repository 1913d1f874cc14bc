import CalculatorEngine

/// A line that was rejected: what is wrong, and the 1-based column where it starts.
public struct LineError: Error, Hashable, Sendable, CustomStringConvertible {
  public let message: String
  public let column: Int

  public init(_ message: String, column: Int = 1) {
    self.message = message
    self.column = column
  }

  public var description: String { message }
}

/// The interpreter shared by the REPL, scripts and `--keys`: one line of input in, its output out.
///
/// A key line applies its keys and prints the display (or, with ``trace``, one line per key);
/// a line starting with `:` is a command; blank and comment lines print nothing. A rejected
/// line throws a ``LineError`` and changes nothing.
public struct LineInterpreter {
  /// The session's keys and position.
  public internal(set) var timeline: Timeline
  /// How displays are shown.
  public let format: DisplayFormat
  /// Whether key lines print one line per key: its button title, the display after it and the
  /// expression line, separated by tabs.
  public var trace: Bool
  /// Colours for a terminal, or none.
  public var style: Style

  /// What the caller should do after a line.
  public enum Outcome: Sendable {
    case proceed
    case quit
  }

  public init(format: DisplayFormat, trace: Bool = false, style: Style = .plain) {
    timeline = Timeline()
    self.format = format
    self.trace = trace
    self.style = style
  }

  /// The display of the current position.
  public var display: String { format.text(for: timeline.calculator.brain) }

  /// Runs one line (UTF-8, without its newline), appending what it prints to `output`.
  @discardableResult
  public mutating func run(_ line: UnsafeBufferPointer<UInt8>, output: inout [UInt8])
    throws(LineError) -> Outcome
  {
    var index = 0
    while index < line.count, line[index] == UInt8(ascii: " ") || line[index] == UInt8(ascii: "\t")
    {
      index += 1
    }
    if index < line.count, line[index] == UInt8(ascii: ":") {
      let text = String(decoding: line, as: UTF8.self)
      return try runCommand(text, output: &output)
    }
    try runKeys(line, output: &output)
    return .proceed
  }

  /// Runs one line of text; see ``run(_:output:)-(UnsafeBufferPointer<UInt8>,_)``.
  @discardableResult
  public mutating func run(_ line: String, output: inout [UInt8]) throws(LineError) -> Outcome {
    var copy = line
    let result: Result<Outcome, LineError> = copy.withUTF8 { bytes in
      do throws(LineError) {
        return .success(try run(bytes, output: &output))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  /// Applies a key line and returns how many keys it held. Blank and comment-only lines change
  /// nothing and print nothing.
  @discardableResult
  mutating func runKeys(_ line: UnsafeBufferPointer<UInt8>, output: inout [UInt8])
    throws(LineError) -> Int
  {
    var applied = 0
    do {
      if trace {
        try KeyText.scan(line) { key in
          timeline.apply(key)
          applied += 1
          output.append(contentsOf: key.title.utf8)
          output.append(UInt8(ascii: "\t"))
          format.append(timeline.calculator.brain, to: &output)
          output.append(UInt8(ascii: "\t"))
          format.appendExpression(timeline.calculator.brain, to: &output)
          output.append(UInt8(ascii: "\n"))
        }
      } else {
        try KeyText.scan(line) { key in
          timeline.apply(key)
          applied += 1
        }
        if applied > 0 { appendDisplay(to: &output) }
      }
    } catch {
      throw LineError(error.description, column: error.column)
    }
    return applied
  }

  /// Appends the display and a newline.
  func appendDisplay(to output: inout [UInt8]) {
    if timeline.calculator.brain.isError {
      output.append(contentsOf: style.error(display).utf8)
    } else {
      format.append(timeline.calculator.brain, to: &output)
    }
    output.append(UInt8(ascii: "\n"))
  }
}
