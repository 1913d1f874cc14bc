/// Key text: the one place where text becomes keys and keys become text.
///
/// Each key has a canonical character; `−` (U+2212), `×`, `÷`, `±`, `C` and `E` are accepted as
/// aliases. Spaces and tabs are ignored, and `#` starts a comment that runs to the end of the
/// line. Any other character is an error naming it and its 1-based column; a line with an error
/// yields no keys at all.
public enum KeyText {
  /// Returns the keys of `text`, or throws for the first character that is no key.
  ///
  /// - Complexity: O(n) in the length of `text`.
  public static func keys(in text: some StringProtocol) throws(KeyTextError)
    -> [CalculatorButtonItem]
  {
    var keys: [CalculatorButtonItem] = []
    try scan(String(text).utf8) { keys.append($0) }
    return keys
  }

  /// Checks that every character of `bytes` (UTF-8) is a key, a blank or part of a comment,
  /// then calls `body` for each key in order.
  ///
  /// Nothing is passed to `body` unless the whole text is valid, so a caller can apply keys as
  /// they come without ever applying part of a bad line. Allocates nothing when `bytes` has
  /// contiguous storage (an array, a buffer, a native string's UTF-8); other collections are
  /// copied into an array first.
  /// - Complexity: O(n) in the number of bytes.
  public static func scan<Bytes: Collection<UInt8>>(
    _ bytes: Bytes, _ body: (CalculatorButtonItem) -> Void
  ) throws(KeyTextError) {
    let result: Result<Void, KeyTextError>? = bytes.withContiguousStorageIfAvailable { buffer in
      if let error = firstError(in: buffer) { return .failure(error) }
      forEachKey(in: buffer, body)
      return .success(())
    }
    if let result {
      try result.get()
    } else {
      try scan(Array(bytes), body)
    }
  }

  /// The canonical key text of `keys`, e.g. `12+3=`.
  ///
  /// - Complexity: O(n) in the number of keys.
  public static func text(of keys: some Sequence<CalculatorButtonItem>) -> String {
    String(decoding: keys.lazy.map { asciiCanonical[Int($0.code)] }, as: UTF8.self)
  }

  // MARK: - Internals

  /// Meaning of an ASCII byte: a key code, or one of the markers below.
  private static let skip: UInt8 = 0xFD
  private static let comment: UInt8 = 0xFE
  private static let invalid: UInt8 = 0xFF

  private static let asciiCanonical: [UInt8] = CalculatorButtonItem.allKeys.map {
    $0.canonical.asciiValue!
  }

  private static let asciiTable: [UInt8] = {
    var table = [UInt8](repeating: invalid, count: 128)
    for key in CalculatorButtonItem.allKeys { table[Int(key.canonical.asciiValue!)] = key.code }
    table[Int(UInt8(ascii: "C"))] = CalculatorButtonItem.command(.clear).code
    table[Int(UInt8(ascii: "E"))] = CalculatorButtonItem.command(.clearEntry).code
    table[Int(UInt8(ascii: " "))] = skip
    table[Int(UInt8(ascii: "\t"))] = skip
    table[Int(UInt8(ascii: "#"))] = comment
    return table
  }()

  /// The keys spelled with a non-ASCII character.
  private static func alias(_ scalar: Unicode.Scalar) -> CalculatorButtonItem? {
    switch scalar {
    case "\u{2212}": .op(.minus)
    case "×": .op(.multiply)
    case "÷": .op(.divide)
    case "±": .command(.flip)
    default: nil
    }
  }

  /// Decodes the UTF-8 scalar starting at `index`: the scalar and its length, or `nil` if the
  /// bytes there are not valid UTF-8.
  fileprivate static func scalar(in buffer: UnsafeBufferPointer<UInt8>, at index: Int)
    -> (Unicode.Scalar, Int)?
  {
    var iterator = buffer[index...].makeIterator()
    var decoder = UTF8()
    switch decoder.decode(&iterator) {
    case .scalarValue(let scalar): return (scalar, UTF8.width(scalar))
    case .emptyInput, .error: return nil
    }
  }

  private static func firstError(in buffer: UnsafeBufferPointer<UInt8>) -> KeyTextError? {
    var index = 0
    while index < buffer.count {
      let byte = buffer[index]
      if byte < 0x80 {
        let meaning = asciiTable[Int(byte)]
        if meaning == comment { return nil }
        if meaning == invalid { return KeyTextError(buffer: buffer, offset: index) }
        index += 1
      } else if let (scalar, width) = scalar(in: buffer, at: index), alias(scalar) != nil {
        index += width
      } else {
        return KeyTextError(buffer: buffer, offset: index)
      }
    }
    return nil
  }

  /// Calls `body` for each key of text already known to be valid.
  private static func forEachKey(
    in buffer: UnsafeBufferPointer<UInt8>, _ body: (CalculatorButtonItem) -> Void
  ) {
    var index = 0
    while index < buffer.count {
      let byte = buffer[index]
      if byte < 0x80 {
        let meaning = asciiTable[Int(byte)]
        if meaning == comment { return }
        if meaning != skip { body(CalculatorButtonItem.allKeys[Int(meaning)]) }
        index += 1
      } else {
        let (scalar, width) = scalar(in: buffer, at: index)!
        body(alias(scalar)!)
        index += width
      }
    }
  }
}

/// Text that is not key text: the offending character and its 1-based column.
public struct KeyTextError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The offending character as shown to a person: control and other invisible characters are
  /// escaped as `\u{1B}`; bytes that are not UTF-8 as `\x{FF}`.
  public let character: String
  /// The 1-based column of the character, counted in characters.
  public let column: Int
  /// Whether the text was not valid UTF-8 at that column.
  public let isInvalidUTF8: Bool

  /// `unknown key 'x' at column 4`, or `invalid UTF-8 byte \x{FF} at column 2`.
  public var description: String {
    isInvalidUTF8
      ? "invalid UTF-8 byte \(character) at column \(column)"
      : "unknown key '\(character)' at column \(column)"
  }

  /// An error for `character`, already escaped as ``character`` shows it, at the 1-based
  /// `column`.
  public init(character: String, column: Int, isInvalidUTF8: Bool = false) {
    self.character = character
    self.column = column
    self.isInvalidUTF8 = isInvalidUTF8
  }

  fileprivate init(buffer: UnsafeBufferPointer<UInt8>, offset: Int) {
    let column = String(decoding: buffer[..<offset], as: UTF8.self).count + 1
    if buffer[offset] >= 0x80, KeyText.scalar(in: buffer, at: offset) == nil {
      let hex = String(buffer[offset], radix: 16, uppercase: true)
      self.init(character: "\\x{\(hex)}", column: column, isInvalidUTF8: true)
    } else {
      // A grapheme is at most a few dozen bytes in any real text; a cut scalar after it is harmless.
      let first = String(decoding: buffer[offset...].prefix(64), as: UTF8.self).first!
      self.init(character: TextEscaping.escaped(String(first)), column: column)
    }
  }
}

/// Escaping of text that is echoed back to a person.
public enum TextEscaping {
  /// `text` with control characters and other invisible scalars written as `\u{1B}`, so that an
  /// echoed message can never drive the terminal.
  ///
  /// - Complexity: O(n) in the length of `text`.
  public static func escaped(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      if isInvisible(scalar) {
        result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate,
      .unassigned:
      true
    default:
      false
    }
  }
}
