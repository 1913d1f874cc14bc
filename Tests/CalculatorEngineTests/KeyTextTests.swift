import CalcTestSupport
import CalculatorEngine
import Testing

/// SPEC §1: keys, their canonical characters, aliases, titles, and key text errors.
@Suite struct KeyTextTests {

  /// SPEC §1's table, written out independently of the engine: canonical spelling, key, title.
  static let table: [(canonical: String, key: Key, title: String)] =
    [
      ("0", .digit(.zero), "0"), ("1", .digit(.one), "1"), ("2", .digit(.two), "2"),
      ("3", .digit(.three), "3"), ("4", .digit(.four), "4"), ("5", .digit(.five), "5"),
      ("6", .digit(.six), "6"), ("7", .digit(.seven), "7"), ("8", .digit(.eight), "8"),
      ("9", .digit(.nine), "9"), (".", .dot, "."),
      ("+", .op(.plus), "+"), ("-", .op(.minus), "-"),
      ("*", .op(.multiply), "×"), ("/", .op(.divide), "÷"),
      ("=", .equal, "="), ("%", .command(.percent), "%"), ("~", .command(.flip), "+/-"),
      ("c", .command(.clear), "AC"), ("ce", .command(.clearEntry), "CE"),
      ("<", .command(.backspace), "⌫"),
      ("@", .unary(.squareRoot), "√"), ("q", .unary(.square), "x²"),
      ("r", .unary(.reciprocal), "1/x"),
      ("ms", .memory(.store), "MS"), ("mr", .memory(.recall), "MR"), ("m+", .memory(.add), "M+"),
      ("m-", .memory(.subtract), "M−"), ("mc", .memory(.clear), "MC"),
      // SPEC §9's keys.
      ("(", .scientific(.bracket(.open)), "("), (")", .scientific(.bracket(.close)), ")"),
      ("^", .scientific(.binary(.power)), "xʸ"), ("yroot", .scientific(.binary(.root)), "ʸ√x"),
      ("mod", .scientific(.binary(.mod)), "mod"),
      ("logy", .scientific(.binary(.logBase)), "logᵧx"),
      ("sin", .scientific(.function(.sin)), "sin"), ("cos", .scientific(.function(.cos)), "cos"),
      ("tan", .scientific(.function(.tan)), "tan"), ("sec", .scientific(.function(.sec)), "sec"),
      ("csc", .scientific(.function(.csc)), "csc"), ("cot", .scientific(.function(.cot)), "cot"),
      ("asin", .scientific(.function(.asin)), "sin⁻¹"),
      ("acos", .scientific(.function(.acos)), "cos⁻¹"),
      ("atan", .scientific(.function(.atan)), "tan⁻¹"),
      ("asec", .scientific(.function(.asec)), "sec⁻¹"),
      ("acsc", .scientific(.function(.acsc)), "csc⁻¹"),
      ("acot", .scientific(.function(.acot)), "cot⁻¹"),
      ("sinh", .scientific(.function(.sinh)), "sinh"),
      ("cosh", .scientific(.function(.cosh)), "cosh"),
      ("tanh", .scientific(.function(.tanh)), "tanh"),
      ("sech", .scientific(.function(.sech)), "sech"),
      ("csch", .scientific(.function(.csch)), "csch"),
      ("coth", .scientific(.function(.coth)), "coth"),
      ("asinh", .scientific(.function(.asinh)), "sinh⁻¹"),
      ("acosh", .scientific(.function(.acosh)), "cosh⁻¹"),
      ("atanh", .scientific(.function(.atanh)), "tanh⁻¹"),
      ("asech", .scientific(.function(.asech)), "sech⁻¹"),
      ("acsch", .scientific(.function(.acsch)), "csch⁻¹"),
      ("acoth", .scientific(.function(.acoth)), "coth⁻¹"),
      ("cube", .scientific(.function(.cube)), "x³"),
      ("cbrt", .scientific(.function(.cubeRoot)), "∛x"),
      ("log", .scientific(.function(.log)), "log"), ("ln", .scientific(.function(.ln)), "ln"),
      ("pow10", .scientific(.function(.pow10)), "10ˣ"),
      ("pow2", .scientific(.function(.pow2)), "2ˣ"),
      ("powe", .scientific(.function(.powE)), "eˣ"), ("abs", .scientific(.function(.abs)), "|x|"),
      ("floor", .scientific(.function(.floor)), "⌊x⌋"),
      ("ceil", .scientific(.function(.ceiling)), "⌈x⌉"),
      ("dms", .scientific(.function(.dms)), "dms"),
      ("degrees", .scientific(.function(.degrees)), "degrees"),
      ("!", .scientific(.function(.factorial)), "n!"),
      ("pi", .scientific(.constant(.pi)), "π"), ("euler", .scientific(.constant(.euler)), "e"),
      ("exp", .scientific(.exponent), "exp"), ("fe", .scientific(.fixedToExponential), "F-E"),
      ("deg", .angle(.degrees), "DEG"), ("rad", .angle(.radians), "RAD"),
      ("grad", .angle(.grads), "GRAD"),
      ("std", .mode(.standard), "std"), ("sci", .mode(.scientific), "sci"),
      ("prog", .mode(.programmer), "prog"), ("fx", .mode(.formula), "fx"),
      ("date", .mode(.date), "date"),
      ("A", .programmer(.hexDigit(.a)), "A"), ("B", .programmer(.hexDigit(.b)), "B"),
      ("C", .programmer(.hexDigit(.c)), "C"),
      ("D", .programmer(.hexDigit(.d)), "D"), ("E", .programmer(.hexDigit(.e)), "E"),
      ("F", .programmer(.hexDigit(.f)), "F"),
      ("hex", .programmer(.radix(.hex)), "HEX"), ("dec", .programmer(.radix(.dec)), "DEC"),
      ("oct", .programmer(.radix(.oct)), "OCT"),
      ("bin", .programmer(.radix(.bin)), "BIN"),
      ("qword", .programmer(.wordSize(.qword)), "QWORD"),
      ("dword", .programmer(.wordSize(.dword)), "DWORD"),
      ("word", .programmer(.wordSize(.word)), "WORD"),
      ("byte", .programmer(.wordSize(.byte)), "BYTE"),
      ("and", .programmer(.bitwise(.and)), "AND"), ("or", .programmer(.bitwise(.or)), "OR"),
      ("xor", .programmer(.bitwise(.xor)), "XOR"),
      ("nand", .programmer(.bitwise(.nand)), "NAND"), ("nor", .programmer(.bitwise(.nor)), "NOR"),
      ("not", .programmer(.not), "NOT"),
      ("lsh", .programmer(.shift(.left)), "Lsh"), ("rsh", .programmer(.shift(.right)), "Rsh"),
      ("rshl", .programmer(.shift(.logicalRight)), "RshL"),
      ("rol", .programmer(.rotate(.left)), "RoL"), ("ror", .programmer(.rotate(.right)), "RoR"),
      ("rolc", .programmer(.rotate(.leftThroughCarry)), "RoLC"),
      ("rorc", .programmer(.rotate(.rightThroughCarry)), "RoRC"),
    ]
    + (0...63).map { number in ("bit\(number)", .programmer(.bit(.init(number)!)), "bit\(number)") }

  /// The mode in which `key`'s spelling is read: upper-case hex digits are keys in Programmer
  /// mode only.
  static func mode(for key: Key) -> Key.Mode {
    if case .programmer(.hexDigit) = key { .programmer } else { .standard }
  }

  /// The 29 keys of Standard mode: the first rows of ``table``.
  static let standardTable = Array(table.prefix(29))

  /// The keys of `text` by a longest-match tokenizer over `rows` only, or `nil` where no row
  /// matches.
  static func longestMatch(
    _ text: String, over rows: [(canonical: String, key: Key, title: String)]
  )
    -> [Key]?
  {
    var rest = Substring(text)
    var keys: [Key] = []
    while !rest.isEmpty {
      guard
        let row = rows.filter({ rest.hasPrefix($0.canonical) }).max(by: {
          $0.canonical.count < $1.canonical.count
        })
      else { return nil }
      keys.append(row.key)
      rest = rest.dropFirst(row.canonical.count)
    }
    return keys
  }

  /// No key text of Standard mode changes meaning with Scientific mode's keys (issue 22): every
  /// concatenation of up to three Standard keys' spellings, without blanks (four under
  /// `CALC_LONG_TESTS=1`), reads as it did with Standard's keys alone.
  @Test func standardKeyTextKeepsItsMeaning() throws {
    let spellings = Self.standardTable.map(\.canonical)
    var texts = [""]
    var checked = 0
    for _ in 0..<(TestSize.isLong ? 4 : 3) {
      texts = texts.flatMap { prefix in spellings.map { prefix + $0 } }
      for text in texts {
        if let old = Self.longestMatch(text, over: Self.standardTable) {
          #expect(try KeyText.keys(in: text) == TypedKeys(old), "\(text)")
          checked += 1
        }
      }
    }
    #expect(checked > 20_000)
  }

  /// The keys of canonical key text without blanks, by the table above (not by the engine):
  /// the longest spelling that matches, left to right.
  static func expectedKeys(_ canonical: String) -> [Key] {
    var rest = Substring(canonical)
    var keys: [Key] = []
    while !rest.isEmpty {
      let row = table.filter { rest.hasPrefix($0.canonical) }.max {
        $0.canonical.count < $1.canonical.count
      }!
      keys.append(row.key)
      rest = rest.dropFirst(row.canonical.count)
    }
    return keys
  }

  // MARK: - Canonical characters and aliases

  /// SPEC §1: what people type first gets a hint that names the key to use, never a bare error.
  @Test(
    arguments: [
      ("12x3=", "x", 3, "× is '*'"),
      ("12X3=", "X", 3, "× is '*'"),
      ("sqrt16", "s", 1, "√ is '@', after its number: 16@"),
      ("16 SQRT", "S", 4, "√ is '@', after its number: 16@"),
      ("1,5", ",", 2, "key text uses '.' for the decimal point"),
      ("ans", "a", 1, "the display already holds the last result"),
      ("last+1=", "l", 1, "the display already holds the last result"),
      ("clear", "l", 2, "AC is 'c'"),
      ("history", "h", 1, "commands start with ':', as in :history"),
      ("undo 2", "u", 1, "commands start with ':', as in :undo"),
      ("goto 3", "g", 1, "commands start with ':', as in :goto"),
      // Words without a guess keep the key's own hint, or none.
      (
        "1e5", "e", 2,
        "CE is 'ce'; in Scientific mode the constant e is 'euler', and a number in scientific "
          + "notation is typed with exp: sci 1exp40"
      ),
      ("max", "m", 1, "the memory keys are ms, mr, m+, m- and mc"),
      // `$` without a line number (SPEC §11).
      ("12$", "$", 3, KeyText.referenceHint),
      ("$+1", "$", 1, KeyText.referenceHint),
    ] as [(String, String, Int, String?)])
  func whatPeopleTypeFirstGetsAHint(text: String, character: String, column: Int, hint: String?) {
    #expect(throws: KeyTextError(character: character, column: column, hint: hint)) {
      try KeyText.keys(in: text)
    }
  }

  @Test func tableCoversEveryKey() {
    #expect(Self.table.count == Key.allKeys.count)
    #expect(Set(Self.table.map(\.key)) == Set(Key.allKeys))
  }

  @Test(arguments: table.map { ($0.canonical, $0.key) })
  func canonicalSpelling(_ spelling: String, _ key: Key) throws {
    #expect(key.canonical == spelling)
    #expect(try KeyText.keys(in: spelling, startingIn: Self.mode(for: key)) == [key])
  }

  /// Every alias of SPEC §1, and every spelling in upper and mixed case.
  static let aliases: [(text: String, key: Key)] = [
    ("\u{2212}", .op(.minus)), ("×", .op(.multiply)), ("÷", .op(.divide)),
    ("±", .command(.flip)), ("C", .command(.clear)), ("ac", .command(.clear)),
    ("AC", .command(.clear)), ("Ac", .command(.clear)), ("aC", .command(.clear)),
    ("CE", .command(.clearEntry)), ("Ce", .command(.clearEntry)), ("cE", .command(.clearEntry)),
    ("√", .unary(.squareRoot)), ("²", .unary(.square)), ("Q", .unary(.square)),
    ("R", .unary(.reciprocal)), ("MS", .memory(.store)), ("Ms", .memory(.store)),
    ("mS", .memory(.store)), ("MR", .memory(.recall)), ("M+", .memory(.add)),
    ("M-", .memory(.subtract)), ("m\u{2212}", .memory(.subtract)),
    ("M\u{2212}", .memory(.subtract)),
    ("MC", .memory(.clear)), ("mC", .memory(.clear)),
  ]

  /// Every mode's key spelled at a line's start, from every mode, is read as a mode word: the
  /// script reader finds those words by their packed bytes, written out rather than packed from
  /// the spellings (KeyText+Formula.swift), so each must still be its key's canonical spelling.
  /// After the mode words, the last one decides whether a formula or a date follows.
  @Test(arguments: Key.Mode.allCases)
  func modeWordsArePackedSpellings(mode: Key.Mode) throws {
    let spelling = Key.mode(mode).canonical
    for start in Key.Mode.allCases {
      let formula = try KeyText.keys(in: "\(spelling) fx 2*3", startingIn: start)
      #expect(formula.keys.first == .mode(mode), "\(spelling) from \(start)")
      #expect(formula.keys.last == .formula, "\(spelling) from \(start)")
      #expect(formula.formulas.map { String($0.drop { $0 == " " }) } == ["2*3"])
      let date = try KeyText.keys(in: " \(spelling)  date 2024-01-01", startingIn: start)
      #expect(date.keys.first == .mode(mode), "\(spelling) from \(start)")
      #expect(date.keys.last == .dateLine, "\(spelling) from \(start)")
    }
    // A longer word is no mode key.
    #expect(throws: KeyTextError.self) {
      try KeyText.keys(in: spelling + "x", startingIn: .scientific)
    }
  }

  /// Every printable ASCII byte that is no letter, `#` or `$` reads on its own as the key it
  /// spells (``Key/canonical``), or is an error when it spells none: KeyText's
  /// table of single bytes is written out, not derived from the spellings.
  @Test func singleByteSpellings() throws {
    let spelled = Dictionary(
      uniqueKeysWithValues: Key.allKeys.filter { $0.canonical.utf8.count == 1 }.map {
        ($0.canonical.utf8.first!, $0)
      })
    var keys = 0
    for byte in UInt8(0x21)..<0x7F
    where !Self.isASCIILetter(byte) && byte != UInt8(ascii: "#")
      && byte != UInt8(ascii: "$")
    {
      let text = String(UnicodeScalar(byte))
      if let key = spelled[byte] {
        #expect(try KeyText.keys(in: text, startingIn: Self.mode(for: key)) == [key], "\(text)")
        keys += 1
      } else {
        #expect(throws: KeyTextError.self, "\(text)") {
          try KeyText.keys(in: text, startingIn: .scientific)
        }
      }
    }
    #expect(keys == 24)
  }

  static func isASCIILetter(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
      || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
  }

  @Test(arguments: aliases) func alias(_ text: String, _ key: Key) throws {
    #expect(try KeyText.keys(in: text) == [key])
    #expect(try KeyText.keys(in: "1\(text)2") == [.digit(.one), key, .digit(.two)])
  }

  @Test func aliasesInALine() throws {
    #expect(
      try KeyText.keys(in: "9\u{2212}3×2÷4±CE=") == TypedKeys(Self.expectedKeys("9-3*2/4~ce=")))
    #expect(
      try KeyText.keys(in: "√9²+4R=MSm\u{2212}") == TypedKeys(Self.expectedKeys("@9q+4r=msm-")))
  }

  /// Two-letter keys next to each other and to one-letter keys read greedily from the left:
  /// `c` is AC unless an `e` follows it.
  static let letterRuns: [(text: String, canonical: String)] = [
    ("cce", "cce"), ("cc", "cc"), ("cec", "cec"), ("acce", "cce"), ("msmr", "msmr"),
    ("mcmc", "mcmc"), ("m+m+m-", "m+m+m-"), ("5ms c 12mr", "5msc12mr"), ("9@@q r", "9@@qr"),
    ("qr@", "qr@"), ("mcce", "mcce"), ("2+mr=", "2+mr="),
  ]

  @Test(arguments: letterRuns) func lettersTogether(_ text: String, _ canonical: String) throws {
    #expect(try KeyText.keys(in: text) == TypedKeys(Self.expectedKeys(canonical)))
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
    ("C  c", "cc"),
    ("ce CE Ce", "cecece"),
    ("  \u{2212}5  ", "-5"),
  ]

  @Test(arguments: validLines) func blanksAndComments(_ text: String, _ canonical: String) throws {
    #expect(try KeyText.keys(in: text) == TypedKeys(Self.expectedKeys(canonical)))
  }

  @Test func substring() throws {
    let line = "xx12+3=yy"
    let inner = line.dropFirst(2).dropLast(2)
    #expect(try KeyText.keys(in: inner) == TypedKeys(Self.expectedKeys("12+3=")))
  }

  // MARK: - Errors

  struct ErrorCase: Sendable, CustomTestStringConvertible {
    let text: String
    let character: String
    let column: Int
    var hint: String? = nil
    var message: String {
      "unknown key '\(character)' at column \(column)" + (hint.map { " (\($0))" } ?? "")
    }
    var testDescription: String { message }
  }

  static let ceHint =
    "CE is 'ce'; in Scientific mode the constant e is 'euler', and a number in scientific "
    + "notation is typed with exp: sci 1exp40"
  static let memoryHint = "the memory keys are ms, mr, m+, m- and mc"
  static let acHint = "AC is 'c' or 'ac'"
  static let timesHint = "× is '*'"
  static let pointHint = "key text uses '.' for the decimal point"

  static let errors: [ErrorCase] = [
    ErrorCase(text: "12+x", character: "x", column: 4, hint: timesHint),
    ErrorCase(text: "x", character: "x", column: 1, hint: timesHint),
    ErrorCase(text: "1 + x", character: "x", column: 5, hint: timesHint),
    ErrorCase(text: "\t\tx", character: "x", column: 3, hint: timesHint),
    ErrorCase(text: "X", character: "X", column: 1, hint: timesHint),
    ErrorCase(text: "12+3=a", character: "a", column: 6, hint: acHint),
    // SPEC §1: `e` alone is no key, so scientific notation is rejected at its `E`, not misread.
    ErrorCase(text: "1E40*2=", character: "E", column: 2, hint: ceHint),
    ErrorCase(text: "1e5", character: "e", column: 2, hint: ceHint),
    ErrorCase(text: "1e5*2=", character: "e", column: 2, hint: ceHint),
    ErrorCase(text: "e", character: "e", column: 1, hint: ceHint),
    ErrorCase(text: "3.2E-7", character: "E", column: 4, hint: ceHint),
    ErrorCase(text: "1,234.5E6", character: ",", column: 2, hint: pointHint),
    // A two-letter key split by a blank is an error at its first letter.
    ErrorCase(text: "c e", character: "e", column: 3, hint: ceHint),
    ErrorCase(text: "5m s", character: "m", column: 2, hint: memoryHint),
    ErrorCase(text: "m r", character: "m", column: 1, hint: memoryHint),
    ErrorCase(text: "5 m\t+", character: "m", column: 3, hint: memoryHint),
    ErrorCase(text: "a c", character: "a", column: 1, hint: acHint),
    ErrorCase(text: "m", character: "m", column: 1, hint: memoryHint),
    ErrorCase(text: "12M", character: "M", column: 3, hint: memoryHint),
    ErrorCase(text: "mx", character: "m", column: 1, hint: memoryHint),
    ErrorCase(text: "m×", character: "m", column: 1, hint: memoryHint),
    ErrorCase(text: "mce", character: "e", column: 3, hint: ceHint),
    ErrorCase(text: "1/x", character: "x", column: 3, hint: timesHint),
    ErrorCase(text: "sqrt", character: "s", column: 1, hint: "√ is '@', after its number: 16@"),
    ErrorCase(text: "x # comment", character: "x", column: 1, hint: timesHint),
    // Key text uses `.` whatever the locale (SPEC §3).
    ErrorCase(text: "1,5", character: ",", column: 2, hint: pointHint),
    ErrorCase(text: "1+2;", character: ";", column: 4),
    // Columns count characters, not bytes: each alias below is 2 or 3 bytes.
    ErrorCase(text: "×x", character: "x", column: 2, hint: timesHint),
    ErrorCase(text: "×÷\u{2212}±x", character: "x", column: 5, hint: timesHint),
    ErrorCase(text: "÷÷\u{2212}a", character: "a", column: 4, hint: acHint),
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
    #expect(throws: KeyTextError(character: row.character, column: row.column, hint: row.hint)) {
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
      #expect("\(error)" == "unknown key 'x' at column 4 (× is '*')")
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
    #expect(
      KeyText.text(of: Key.standardKeys) == "0123456789.+-*/=c~%ce<@q r ms mr m+m-mc")
    #expect(
      KeyText.text(of: Key.scientificKeys)
        == "()^yroot mod logy sin cos tan sec csc cot asin acos atan asec acsc acot sinh cosh "
        + "tanh sech csch coth asinh acosh atanh asech acsch acoth cube cbrt log ln pow10 pow2 "
        + "powe abs floor ceil dms degrees!pi euler exp fe deg rad grad std sci prog fx")
    #expect(
      KeyText.text(of: Key.programmerKeys)
        == "ABCDEFhex dec oct bin qword dword word byte and or xor nand nor not lsh rsh rshl rol "
        + "ror rolc rorc "
        + (0...63).map { "bit\($0)" }.joined(separator: " "))
    // Without `fx`, after which a line is a formula (SPEC §12) and `A`-`F` no hex digits.
    let readable = Key.allKeys.filter { $0 != .mode(.formula) }
    #expect(try KeyText.keys(in: KeyText.text(of: readable)) == TypedKeys(readable))
    #expect(try KeyText.keys(in: "fx") == [.mode(.formula)])
  }

  /// A space separates two letters of different keys, for a person's sake; nothing else does.
  static let spacedTexts: [(canonical: String, text: String)] = [
    ("5msc12mr", "5ms c12mr"), ("cce", "c ce"), ("qr", "q r"), ("m+m+", "m+m+"),
    ("m+c", "m+c"), ("9@@", "9@@"), ("1+2=", "1+2="), ("mcce", "mc ce"), ("cec", "ce c"),
    ("cpi", "c pi"), ("lnlog", "ln log"), ("pow100", "pow100"), ("2pi", "2pi"),
    ("sinsin", "sin sin"), ("!q", "!q"),
  ]

  @Test(arguments: spacedTexts) func textSpacing(_ canonical: String, _ text: String) throws {
    let keys = Self.expectedKeys(canonical)
    #expect(KeyText.text(of: keys) == text)
    #expect(try KeyText.keys(in: text) == TypedKeys(keys))
  }

  @Test func textOfNoKeys() {
    #expect(KeyText.text(of: [Key]()) == "")
  }

  @Test(arguments: table.map(\.key)) func textRoundTrip(_ key: Key) throws {
    #expect(KeyText.text(of: [key]) == key.canonical)
    #expect(try KeyText.keys(in: KeyText.text(of: [key]), startingIn: Self.mode(for: key)) == [key])
  }

  /// A long pseudo-random sequence of keys survives text and back.
  @Test func textRoundTripOfALongSequence() throws {
    var state: UInt64 = 0x1234_5678
    var keys: [Key] = []
    var mode = Key.Mode.standard
    for _ in 0..<5_000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let key = Key.allKeys[Int(state >> 33) % Key.allKeys.count]
      // A hex digit is key text in Programmer mode only.
      if case .programmer(.hexDigit) = key, mode != .programmer { continue }
      if case .mode(let new) = key { mode = new }
      keys.append(key)
    }
    let text = KeyText.text(of: keys)
    #expect(text.count >= keys.count)
    #expect(try KeyText.keys(in: text) == TypedKeys(keys))
  }

  /// Text with aliases, blanks and a comment comes back in canonical form.
  @Test func aliasesBecomeCanonical() throws {
    let keys = try KeyText.keys(in: "1 × 2 ÷ 3 \u{2212} 4 ± CE √ ² AC M\u{2212} # note")
    #expect(KeyText.text(of: keys) == "1*2/3-4~ce@q c m-")
  }

  // MARK: - Titles and codes

  @Test(arguments: table.map { ($0.key, $0.title) }) func title(_ key: Key, _ title: String) {
    #expect(key.title == title)
    #expect(key.description == title)
  }

  @Test func keyCount() {
    #expect(Key.standardKeys.count == 29)
    #expect(Key.programmerKeys.count == 91)
    #expect(Key.allKeys.count == 175)
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

  /// 175 keys: codes 0 through 174, `date` the last (a history marks line ends apart from the
  /// code bytes); the codes of `$N`, of a formula line and of a date line (255, 254, 253) are
  /// no key's alone.
  @Test(arguments: [UInt8(175), 200, 253, 254, 255]) func noKeyForCode(_ code: UInt8) {
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
