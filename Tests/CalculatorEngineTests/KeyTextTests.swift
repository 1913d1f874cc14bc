import CalculatorEngine
import Testing

/// SPEC §1: keys, their canonical characters, aliases, titles, and key text errors.
@Suite struct KeyTextTests {
  typealias Key = CalculatorButtonItem

  /// SPEC §1's table, written out independently of the engine: canonical character, key, title.
  static let table: [(canonical: Character, key: Key, title: String)] = [
    ("0", .digit(.zero), "0"), ("1", .digit(.one), "1"), ("2", .digit(.two), "2"),
    ("3", .digit(.three), "3"), ("4", .digit(.four), "4"), ("5", .digit(.five), "5"),
    ("6", .digit(.six), "6"), ("7", .digit(.seven), "7"), ("8", .digit(.eight), "8"),
    ("9", .digit(.nine), "9"), (".", .dot, "."),
    ("+", .op(.plus), "+"), ("-", .op(.minus), "-"),
    ("*", .op(.multiply), "×"), ("/", .op(.divide), "÷"),
    ("=", .equal, "="), ("%", .command(.percent), "%"), ("~", .command(.flip), "+/-"),
    ("c", .command(.clear), "AC"), ("e", .command(.clearEntry), "CE"),
    ("<", .command(.backspace), "⌫"),
  ]

  /// The keys of canonical key text, by the table above (not by the engine).
  static func expectedKeys(_ canonical: String) -> [Key] {
    canonical.map { character in table.first { $0.canonical == character }!.key }
  }

  // MARK: - Canonical characters and aliases

  @Test func tableCoversEveryKey() {
    #expect(Self.table.count == Key.allKeys.count)
    #expect(Set(Self.table.map(\.key)) == Set(Key.allKeys))
  }

  @Test(arguments: table.map { ($0.canonical, $0.key) })
  func canonicalCharacter(_ character: Character, _ key: Key) throws {
    #expect(key.canonical == character)
    #expect(try KeyText.keys(in: String(character)) == [key])
  }

  static let aliases: [(text: String, key: Key)] = [
    ("\u{2212}", .op(.minus)), ("×", .op(.multiply)), ("÷", .op(.divide)),
    ("±", .command(.flip)), ("C", .command(.clear)), ("E", .command(.clearEntry)),
  ]

  @Test(arguments: aliases) func alias(_ text: String, _ key: Key) throws {
    #expect(try KeyText.keys(in: text) == [key])
    #expect(try KeyText.keys(in: "1\(text)2") == [.digit(.one), key, .digit(.two)])
  }

  @Test func aliasesInALine() throws {
    #expect(try KeyText.keys(in: "9\u{2212}3×2÷4±CE=") == Self.expectedKeys("9-3*2/4~ce="))
  }

  // MARK: - Blanks and comments

  static let validLines: [(text: String, canonical: String)] = [
    ("", ""),
    ("   ", ""),
    ("\t\t", ""),
    ("1 + 2\t=", "1+2="),
    ("\t 12 \t+ 3 = ", "12+3="),
    ("#", ""),
    ("# 1+2=", ""),
    ("12 # the rest + 3 is a comment", "12"),
    ("1+2#=", "1+2"),
    ("5 # x ÷ \u{1B} is fine in a comment", "5"),
    ("1.5 × 2 =", "1.5*2="),
    ("C E c e", "cece"),
    ("  \u{2212}5  ", "-5"),
  ]

  @Test(arguments: validLines) func blanksAndComments(_ text: String, _ canonical: String) throws {
    #expect(try KeyText.keys(in: text) == Self.expectedKeys(canonical))
  }

  @Test func substring() throws {
    let line = "xx12+3=yy"
    let inner = line.dropFirst(2).dropLast(2)
    #expect(try KeyText.keys(in: inner) == Self.expectedKeys("12+3="))
  }

  // MARK: - Errors

  struct ErrorCase: Sendable, CustomTestStringConvertible {
    let text: String
    let character: String
    let column: Int
    var message: String { "unknown key '\(character)' at column \(column)" }
    var testDescription: String { message }
  }

  static let errors: [ErrorCase] = [
    ErrorCase(text: "12+x", character: "x", column: 4),
    ErrorCase(text: "x", character: "x", column: 1),
    ErrorCase(text: "1 + x", character: "x", column: 5),
    ErrorCase(text: "\t\tx", character: "x", column: 3),
    ErrorCase(text: "X", character: "X", column: 1),
    ErrorCase(text: "12+3=a", character: "a", column: 6),
    ErrorCase(text: "x # comment", character: "x", column: 1),
    // Key text uses `.` whatever the locale (SPEC §3).
    ErrorCase(text: "1,5", character: ",", column: 2),
    ErrorCase(text: "(1+2)", character: "(", column: 1),
    ErrorCase(text: "1+2;", character: ";", column: 4),
    // Columns count characters, not bytes: each alias below is 2 or 3 bytes.
    ErrorCase(text: "×x", character: "x", column: 2),
    ErrorCase(text: "×÷\u{2212}±x", character: "x", column: 5),
    ErrorCase(text: "÷÷\u{2212}a", character: "a", column: 4),
    ErrorCase(text: "1😀2", character: "😀", column: 2),
    ErrorCase(text: "××😀", character: "😀", column: 3),
    // A grapheme of several scalars is one character.
    ErrorCase(text: "👍🏽1", character: "👍🏽", column: 1),
    ErrorCase(text: "1–2", character: "–", column: 2),
    ErrorCase(text: "1÷·2", character: "·", column: 3),
    // Characters that are not printable are escaped.
    ErrorCase(text: "1\u{1B}", character: "\\u{1B}", column: 2),
    ErrorCase(text: "1\u{1B}[31m", character: "\\u{1B}", column: 2),
    ErrorCase(text: "\u{0}", character: "\\u{0}", column: 1),
    ErrorCase(text: "12\u{7F}", character: "\\u{7F}", column: 3),
    ErrorCase(text: "1\n2", character: "\\u{A}", column: 2),
    ErrorCase(text: "1\r", character: "\\u{D}", column: 2),
    ErrorCase(text: "×\u{200B}", character: "\\u{200B}", column: 2),
    ErrorCase(text: "1\u{2028}", character: "\\u{2028}", column: 2),
  ]

  @Test(arguments: errors) func unknownKey(_ row: ErrorCase) {
    #expect(throws: KeyTextError(character: row.character, column: row.column)) {
      try KeyText.keys(in: row.text)
    }
    do {
      _ = try KeyText.keys(in: row.text)
    } catch {
      #expect(error.description == row.message)
      #expect(!error.isInvalidUTF8)
    }
  }

  @Test func messageExample() {
    #expect(throws: KeyTextError.self) { try KeyText.keys(in: "12+x") }
    do {
      _ = try KeyText.keys(in: "12+x")
    } catch {
      #expect("\(error)" == "unknown key 'x' at column 4")
    }
  }

  /// Bytes that are not UTF-8.
  static let invalidUTF8: [(bytes: [UInt8], message: String)] = [
    ([0x31, 0xFF], "invalid UTF-8 byte \\x{FF} at column 2"),
    ([0xFE], "invalid UTF-8 byte \\x{FE} at column 1"),
    ([0x31, 0x2B, 0x80], "invalid UTF-8 byte \\x{80} at column 3"),
    // A cut `×` (C3 97): the lead byte alone.
    ([0xC3], "invalid UTF-8 byte \\x{C3} at column 1"),
    ([0xC3, 0x31], "invalid UTF-8 byte \\x{C3} at column 1"),
    // `×` then a bad byte: one character before it.
    ([0xC3, 0x97, 0xC0, 0x80], "invalid UTF-8 byte \\x{C0} at column 2"),
    // An encoded surrogate (ED A0 80) is not UTF-8.
    ([0x35, 0xED, 0xA0, 0x80], "invalid UTF-8 byte \\x{ED} at column 2"),
  ]

  @Test(arguments: invalidUTF8) func invalidBytes(_ bytes: [UInt8], _ message: String) {
    var applied = 0
    do {
      try KeyText.scan(bytes) { _ in applied += 1 }
      Issue.record("expected an error for \(bytes)")
    } catch {
      #expect(error.description == message)
      #expect(error.isInvalidUTF8)
    }
    #expect(applied == 0)
  }

  /// A line with an unknown key is rejected whole: `scan` passes none of its keys to `body`,
  /// even those before the bad character.
  @Test(arguments: ["123x", "1+2=\u{1}", "1 2 3 4 5 6 7 8 9 ×÷ 😀", "c 12 + 3 = ,"])
  func badLineYieldsNoKeys(_ text: String) {
    var applied: [Key] = []
    #expect(throws: KeyTextError.self) {
      try KeyText.scan(text.utf8) { applied.append($0) }
    }
    #expect(applied.isEmpty)
  }

  @Test func badBytesYieldNoKeys() {
    var applied: [Key] = []
    #expect(throws: KeyTextError.self) {
      try KeyText.scan([0x31, 0x2B, 0x32, 0x3D, 0xFF]) { applied.append($0) }
    }
    #expect(applied.isEmpty)
  }

  @Test func scanCallsBodyInOrder() throws {
    var applied: [Key] = []
    try KeyText.scan("12 × 3 = # done".utf8) { applied.append($0) }
    #expect(applied == Self.expectedKeys("12*3="))
  }

  /// A collection without contiguous storage takes the other path through `scan`.
  @Test func scanNonContiguousBytes() throws {
    let bytes = Array("1÷4=".utf8).lazy.map { $0 }
    var applied: [Key] = []
    try KeyText.scan(bytes) { applied.append($0) }
    #expect(applied == Self.expectedKeys("1/4="))

    let bad = Array("1÷4?".utf8).lazy.map { $0 }
    applied = []
    #expect(throws: KeyTextError(character: "?", column: 4)) {
      try KeyText.scan(bad) { applied.append($0) }
    }
    #expect(applied.isEmpty)
  }

  // MARK: - Text of keys

  @Test func textOfAllKeys() throws {
    #expect(KeyText.text(of: Key.allKeys) == "0123456789.+-*/=c~%e<")
    #expect(try KeyText.keys(in: KeyText.text(of: Key.allKeys)) == Key.allKeys)
  }

  @Test func textOfNoKeys() {
    #expect(KeyText.text(of: [Key]()) == "")
  }

  @Test(arguments: table.map(\.key)) func textRoundTrip(_ key: Key) throws {
    #expect(KeyText.text(of: [key]) == String(key.canonical))
    #expect(try KeyText.keys(in: KeyText.text(of: [key])) == [key])
  }

  /// A long pseudo-random sequence of keys survives text and back.
  @Test func textRoundTripOfALongSequence() throws {
    var state: UInt64 = 0x1234_5678
    var keys: [Key] = []
    for _ in 0..<5_000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      keys.append(Key.allKeys[Int(state >> 33) % Key.allKeys.count])
    }
    let text = KeyText.text(of: keys)
    #expect(text.count == keys.count)
    #expect(try KeyText.keys(in: text) == keys)
  }

  /// Text with aliases, blanks and a comment comes back in canonical form.
  @Test func aliasesBecomeCanonical() throws {
    let keys = try KeyText.keys(in: "1 × 2 ÷ 3 \u{2212} 4 ± C E # note")
    #expect(KeyText.text(of: keys) == "1*2/3-4~ce")
  }

  // MARK: - Titles and codes

  @Test(arguments: table.map { ($0.key, $0.title) }) func title(_ key: Key, _ title: String) {
    #expect(key.title == title)
    #expect(key.description == title)
  }

  @Test func operatorTitles() {
    #expect(Key.Op.allCases.map(\.title) == ["+", "-", "×", "÷"])
  }

  @Test(arguments: Key.allKeys) func codeRoundTrip(_ key: Key) {
    #expect(Key(code: key.code) == key)
  }

  @Test func codesAreDistinctAndDense() {
    let codes = Key.allKeys.map(\.code)
    #expect(codes == (0..<UInt8(Key.allKeys.count)).map { $0 })
  }

  @Test(arguments: [UInt8(21), 22, 100, 127, 255]) func noKeyForCode(_ code: UInt8) {
    #expect(Key(code: code) == nil)
  }

  @Test func digitValues() {
    for value in 0...9 {
      #expect(Key.Digit(value)?.value == UInt8(value))
    }
  }

  /// `Digit.init?(_:)` is documented as "`nil` unless `value` is 0 through 9".
  @Test(arguments: [-1, 10, 255, 256, 257, 265, -256, Int.min, Int.max])
  func noDigitForValue(_ value: Int) {
    #expect(Key.Digit(value) == nil)
  }
}
