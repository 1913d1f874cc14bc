// The text of a date line (SPEC §13) read into a tree: the tokens, the grammar and the
// rejections of input, each with its column. DateLine.swift checks the kinds and calculates.
//
//   line    := sum [ "to" sum ] [ "in" unit ]
//   sum     := product { ("+" | "-") (offset | product) }
//   offset  := count unit { count unit }          (1y 2m 3w 4d: each once, in this order)
//   product := unary { ("*" | "/") unary }
//   unary   := "-" unary | primary
//   primary := date | "today" | duration | number | "$"N | "mr" | "(" sum ")"

/// A token of a date line, with its place: `start..<end` counts bytes (here, characters) from 0.
///
/// Plain data, copied freely: a duration's or a number's value is in the lexer's `values`, a
/// word is its packed key (`DateWord`), and any text is read back from the line's bytes.
struct DateToken {
  enum Kind: Equatable {
    case date(CivilDate)
    /// A duration: its index in `values`.
    case duration(Int)
    /// A number: its index in `values`.
    case number(Int)
    case reference(Int)
    /// A run of ASCII letters, as ``DateWord/key(_:)`` packs it.
    case word(UInt64)
    case plus, minus, times, divide, open, close
    case end
  }

  let kind: Kind
  let start: Int
  let end: Int
  var column: Int { start + 1 }

  var isEnd: Bool { kind == .end }

  func isWord(_ key: UInt64) -> Bool { kind == .word(key) }
}

/// The words of date lines as 64-bit keys: up to 8 letters packed, lower case, one byte each;
/// a longer word is ``long`` (no keyword is longer, and rejections read the text back).
package enum DateWord {
  package static let long = UInt64.max

  /// The key of the ASCII letters `letters`, in any case.
  package static func key(_ letters: some Collection<UInt8>) -> UInt64 {
    guard letters.count <= 8 else { return long }
    var key: UInt64 = 0
    for letter in letters { key = key << 8 | UInt64(letter | 0x20) }
    return key
  }

  // The keys written out, as ``key(_:)`` packs them (`DateLineTests.wordKeysAreTheirLetters`
  // checks each): a constant is read in place, where `key("to".utf8)` was made once behind a
  // lazy global's check at every use.
  package static let to: UInt64 = 0x746F
  package static let `in`: UInt64 = 0x696E
  package static let today: UInt64 = 0x74_6F64_6179
  package static let mr: UInt64 = 0x6D72
  package static let t: UInt64 = 0x74
  /// The units of `in`: h, min, s, d, w (``TimeUnit``'s raw values).
  package static let hours: UInt64 = 0x68
  package static let minutes: UInt64 = 0x6D_696E
  package static let seconds: UInt64 = 0x73
  package static let days: UInt64 = 0x64
  package static let weeks: UInt64 = 0x77
  /// The place of the offset unit `key` in an offset's order: y 0, m 1, w 2, d 3; `nil` for
  /// any other word.
  package static func offsetUnit(_ key: UInt64) -> Int? {
    switch key {
    case 0x79: 0
    case 0x6D: 1
    case 0x77: 2
    case 0x64: 3
    default: nil
    }
  }
}

/// An arithmetic operator of a date line.
enum DateOperator: Hashable, Sendable {
  case plus, minus, times, divide

  /// Its ASCII character.
  var byte: UInt8 {
    switch self {
    case .plus: UInt8(ascii: "+")
    case .minus: UInt8(ascii: "-")
    case .times: UInt8(ascii: "*")
    case .divide: UInt8(ascii: "/")
    }
  }
}

/// A node of a date line's tree and its place (`start..<end`, characters from 0).
///
/// A run of operators at one level is one node, `chain`, read left to right, so that the tree
/// is as deep as the line's brackets (at most 24), never as long as the line: a line of a
/// million terms is checked, calculated and written without deep recursion.
struct DateNode: Sendable {
  enum Form {
    case date(CivilDate)
    case today
    /// A duration: its index in the syntax's `values`.
    case duration(Int)
    /// A number: its index in the syntax's `values`.
    case number(Int)
    case reference(Int)
    case memory
    /// A minus sign before an operand.
    indirect case negate(DateNode)
    indirect case group(DateNode)
    /// The first operand, then each operator with its operand (or offset), left to right.
    indirect case chain(DateNode, [DateTerm])
  }

  let form: Form
  let start: Int
  let end: Int
  var column: Int { start + 1 }

  /// The node without the brackets around it.
  var unbracketed: DateNode {
    if case .group(let inner) = form { return inner.unbracketed }
    return self
  }
}

/// An operator of a chain and what follows it: an operand, or (after `+` or `-`) an offset.
struct DateTerm: Sendable {
  enum Form {
    case operand(DateOperator, DateNode)
    case offset(isAddition: Bool, DateOffset)
  }

  let form: Form
  let operatorStart: Int
  /// Where the term ends (characters from 0).
  let end: Int
}

/// A date line read: the expression, the second date of `D1 to D2`, and the unit of `in`.
struct DateSyntax: Sendable {
  let left: DateNode
  let right: DateNode?
  let unit: TimeUnit?
  /// The line's UTF-8 bytes (all ASCII: the lexer rejects any other).
  let bytes: [UInt8]
  /// The values of the durations and numbers, by the index their nodes hold.
  let values: [DateRational]
}

/// The tokens of a date line, read from its UTF-8 bytes.
///
/// Every token is ASCII, so up to the first byte that is not (which the lexer rejects), a byte's
/// offset is its character's: columns count characters, as `LineError` says.
///
/// It reads the bytes through a buffer pointer, each call given it: the one-pass reader's are
/// the line's string's own (``DateOnePass``), not copied into an array, and the tree's are its
/// array's (``DateParser``).
struct DateLexer {
  static func isDigit(_ bytes: UnsafeBufferPointer<UInt8>, _ at: Int) -> Bool {
    at < bytes.count && bytes[at] >= UInt8(ascii: "0") && bytes[at] <= UInt8(ascii: "9")
  }

  static func isLetter(_ byte: UInt8) -> Bool {
    (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
  }

  static func digitsEnd(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int) -> Int {
    var end = from
    while isDigit(bytes, end) { end += 1 }
    return end
  }

  /// The value of the ASCII digits `bytes[range]`, at most 18 of them.
  static func integer(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
    var value = 0
    // At most 18 digits: no overflow.
    for index in range { value = value &* 10 &+ Int(bytes[index] &- UInt8(ascii: "0")) }
    return value
  }

  /// ``integer(_:_:)-(UnsafeBufferPointer<UInt8>,_)`` of an array's bytes.
  static func integer(_ bytes: [UInt8], _ range: Range<Int>) -> Int {
    bytes.withUnsafeBufferPointer { integer($0, range) }
  }

  static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
  }

  /// ``text(_:_:)-(UnsafeBufferPointer<UInt8>,_)`` of an array's bytes.
  static func text(_ bytes: [UInt8], _ range: Range<Int>) -> String {
    String(decoding: bytes[range], as: UTF8.self)
  }

  /// Where the next token is looked for in the line's UTF-8 bytes, which each call is given
  /// (the lexer keeps no reference to them: its owner empties and refills them in place).
  private var index = 0
  /// The values of the durations and numbers read so far, by the index their tokens hold;
  /// empty when the lexer keeps only the last (``keepsValues`` is `false`).
  private(set) var values: [DateRational] = []
  /// Whether ``values`` keeps every value read, or only ``lastValue`` holds the last.
  private let keepsValues: Bool
  /// The value of the duration or number token just read, when ``keepsValues`` is `false`.
  private var lastValue = DateRational.zero

  /// A lexer at the start of a line that keeps every value in ``values``; with `keepsValues`
  /// `false`, only the last (``moveValue(into:)``: no array is allocated for a line's values).
  init(keepsValues: Bool = true) {
    self.keepsValues = keepsValues
  }

  /// Goes back to the start of a line, for the next line.
  mutating func restart() {
    index = 0
  }

  /// Moves the value of the duration or number token just read into `value`: taken out of
  /// ``values`` (the last), or, for ``DateOnePass``, which keeps no array of them, swapped out
  /// of the lexer without a copy.
  mutating func moveValue(into value: inout DateRational) {
    if keepsValues { value = values.removeLast() } else { swap(&value, &lastValue) }
  }

  /// Keeps `value`, the value of the token being read, and returns the index the token holds.
  private mutating func keep(_ value: DateRational) -> Int {
    guard keepsValues else {
      lastValue = value
      return 0
    }
    values.append(value)
    return values.count - 1
  }

  /// The next token; `.end` at the end of the text (and after it).
  ///
  /// The parser asks for tokens one at a time, so that a line of millions of tokens never holds
  /// them all.
  mutating func token(in bytes: UnsafeBufferPointer<UInt8>) throws(LineError) -> DateToken {
    while index < bytes.count,
      bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t")
    {
      index += 1
    }
    let start = index
    guard start < bytes.count else { return DateToken(kind: .end, start: start, end: start) }
    let byte = bytes[start]
    let single: DateToken.Kind?
    switch byte {
    case UInt8(ascii: "+"): single = .plus
    case UInt8(ascii: "-"): single = .minus
    case UInt8(ascii: "*"): single = .times
    case UInt8(ascii: "/"): single = .divide
    case UInt8(ascii: "("): single = .open
    case UInt8(ascii: ")"): single = .close
    default: single = nil
    }
    if let single {
      index += 1
      return DateToken(kind: single, start: start, end: start + 1)
    }
    if byte == UInt8(ascii: "$") {
      let end = Self.digitsEnd(bytes, start + 1)
      guard end > start + 1 else {
        throw LineError("$ needs the number of a line: $3", column: start + 1)
      }
      guard end - start - 1 <= 18 else {
        throw LineError("\(Self.text(bytes, start..<end)) refers to no line", column: start + 1)
      }
      index = end
      return DateToken(
        kind: .reference(Self.integer(bytes, start + 1..<end)), start: start, end: end)
    }
    if Self.isLetter(byte) {
      var end = start
      while end < bytes.count, Self.isLetter(bytes[end]) { end += 1 }
      index = end
      return DateToken(kind: .word(DateWord.key(bytes[start..<end])), start: start, end: end)
    }
    if Self.isDigit(bytes, start) || (byte == UInt8(ascii: ".") && Self.isDigit(bytes, start + 1)) {
      let token = try number(in: bytes, at: start)
      index = token.end
      return token
    }
    // The first character that is not part of a token: its column counts characters.
    let column = Self.text(bytes, 0..<start).count + 1
    let character = Self.text(bytes, start..<bytes.count).first!
    throw LineError(Self.unexpected(character), column: column)
  }

  /// Reads a date, a duration or a number at `start`, appends it, and returns where it ends.
  private mutating func number(in bytes: UnsafeBufferPointer<UInt8>, at start: Int)
    throws(LineError) -> DateToken
  {
    let first = Self.digitsEnd(bytes, start)
    var index = start
    if first < bytes.count, bytes[first] == UInt8(ascii: "-"),
      let date = try CivilDate.scan(bytes, at: &index)
    {
      return DateToken(kind: .date(date), start: start, end: index)
    }
    // 12/01/2026, 01.12.2026 and 2026/12/01 are dates written otherwise: say how to write them.
    if first > start, first < bytes.count,
      bytes[first] == UInt8(ascii: "/") || bytes[first] == UInt8(ascii: ".")
    {
      let separator = bytes[first]
      let second = Self.digitsEnd(bytes, first + 1)
      if second < bytes.count, bytes[second] == separator {
        let third = Self.digitsEnd(bytes, second + 1)
        let lengths = (first - start, second - first - 1, third - second - 1)
        let dayMonth = (1...2).contains(lengths.0) && (1...2).contains(lengths.1)
        let monthDay = (1...2).contains(lengths.1) && (1...2).contains(lengths.2)
        if (dayMonth && lengths.2 == 4) || (lengths.0 == 4 && monthDay) {
          throw LineError("dates are written YYYY-MM-DD: 2026-12-01", column: start + 1)
        }
      }
    }
    if first > start, first < bytes.count, bytes[first] == UInt8(ascii: ":") {
      return try duration(in: bytes, at: start, hoursEnd: first)
    }
    var end = first
    if end < bytes.count, bytes[end] == UInt8(ascii: ".") { end = Self.digitsEnd(bytes, end + 1) }
    let kept = keep(
      end == first && end - start <= 18
        ? DateRational(Self.integer(bytes, start..<end))
        : DateRational(decimal: Substring(Self.text(bytes, start..<end)))!)
    return DateToken(kind: .number(kept), start: start, end: end)
  }

  /// Reads `H:MM`, `H:MM:SS` or `H:MM:SS.f` (1 to 3 digits) whose hours end at `hoursEnd`.
  private mutating func duration(
    in bytes: UnsafeBufferPointer<UInt8>, at start: Int, hoursEnd: Int
  )
    throws(LineError) -> DateToken
  {
    // Minutes, then seconds: two digits each, below 60.
    var fields = (count: 0, minutes: 0, seconds: 0)
    var end = hoursEnd
    // Not an array of the two names, nor a name a field: a name is made only for a message.
    for field in 0..<2 {
      guard end < bytes.count, bytes[end] == UInt8(ascii: ":") else { break }
      let fieldEnd = Self.digitsEnd(bytes, end + 1)
      guard fieldEnd - end - 1 == 2 else {
        throw LineError(
          field == 0 ? "minutes have two digits: 1:05" : "seconds have two digits: 1:05:09",
          column: end + 2)
      }
      let value = Self.integer(bytes, end + 1..<fieldEnd)
      guard value < 60 else {
        throw LineError(
          (field == 0 ? "minutes" : "seconds") + " are below 60: hours and minutes carry the rest",
          column: end + 2)
      }
      if fields.count == 0 { fields.minutes = value } else { fields.seconds = value }
      fields.count += 1
      end = fieldEnd
    }
    if end < bytes.count, bytes[end] == UInt8(ascii: ":") {
      throw LineError("a duration is H:MM or H:MM:SS: 1:30 or 1:30:15", column: end + 1)
    }
    var milliseconds: (value: Int, digits: Int)?
    if end < bytes.count, bytes[end] == UInt8(ascii: ".") {
      guard fields.count == 2 else {
        throw LineError(
          "a fraction of a second follows the seconds: 1:30:00.5", column: end + 1)
      }
      let fractionEnd = Self.digitsEnd(bytes, end + 1)
      guard (1...3).contains(fractionEnd - end - 1) else {
        throw LineError(
          "a second has 1 to 3 digits after the point (milliseconds): 0:00:01.250",
          column: fractionEnd - end - 1 == 0 ? end + 1 : end + 5)
      }
      milliseconds = (Self.integer(bytes, end + 1..<fractionEnd), fractionEnd - end - 1)
      end = fractionEnd
    }
    if end < bytes.count, bytes[end] == UInt8(ascii: ".") {
      throw LineError("a duration has one point, before its milliseconds", column: end + 1)
    }
    // Hours without leading zeros (one digit at least).
    var hoursStart = start
    while hoursStart < hoursEnd - 1, bytes[hoursStart] == UInt8(ascii: "0") { hoursStart += 1 }
    let rest = fields.minutes * 60 + fields.seconds
    let seconds: DateRational
    if hoursEnd - hoursStart <= 12 {
      // At most 12 digits of hours: the milliseconds' count, below 3.7 × 10^18, fits an Int,
      // and the value is made as one fraction, reduced once (not a sum of two).
      let whole = Self.integer(bytes, hoursStart..<hoursEnd) * 3600 + rest
      if let milliseconds {
        let scale = Int(DateRational.powerOfTen(milliseconds.digits))
        seconds = DateRational(
          isNegative: false, numerator: DateNatural(UInt64(whole * scale + milliseconds.value)),
          denominator: DateNatural(UInt64(scale)))
      } else {
        seconds = DateRational(whole)
      }
    } else {
      var value =
        DateRational(decimal: Substring(Self.text(bytes, hoursStart..<hoursEnd)))!
        * DateRational(3600) + DateRational(rest)
      if let milliseconds {
        let scale = Int(DateRational.powerOfTen(milliseconds.digits))
        value =
          value + DateRational.dividing(DateRational(milliseconds.value), by: DateRational(scale))!
      }
      seconds = value
    }
    return DateToken(kind: .duration(keep(seconds)), start: start, end: end)
  }

  /// The rejection of a character that no token starts with.
  static func unexpected(_ character: Character) -> String {
    switch character {
    case "=": return "a date line needs no =: it is calculated when it is entered"
    case ":": return "a duration starts with its hours: 0:30"
    case "#": return "a note starts after the line: 2026-12-01 + 90d  # deadline"
    default: return "unexpected " + describe(character)
    }
  }

  /// A character as a message names it: `'%'`, or `U+00A0` for one that cannot be seen.
  static func describe(_ character: Character) -> String {
    if character.isASCII, let scalar = character.unicodeScalars.first, scalar.value >= 0x21,
      scalar.value < 0x7F
    {
      return "'" + String(character) + "'"
    }
    return character.unicodeScalars.map { scalar in
      let hex = String(scalar.value, radix: 16, uppercase: true)
      return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }.joined(separator: " ")
  }
}

struct DateParser {
  let bytes: [UInt8]
  private var lexer: DateLexer
  private var depth = 0
  /// The token before ``current`` (`nil` at the start), the token to read, and the one after it.
  private var previous: DateToken?
  private var current: DateToken
  private var next: DateToken

  /// The deepest brackets may nest (Windows' limit).
  static let maximumDepth = 24

  init(_ text: String) throws(LineError) {
    bytes = Array(text.utf8)
    lexer = DateLexer()
    current = try Self.token(&lexer, in: bytes)
    next = current.isEnd ? current : try Self.token(&lexer, in: bytes)
  }

  /// The next token of `lexer` in `bytes`.
  private static func token(_ lexer: inout DateLexer, in bytes: [UInt8]) throws(LineError)
    -> DateToken
  {
    try bytes.withUnsafeBufferPointer { buffer throws(LineError) in try lexer.token(in: buffer) }
  }

  /// The text of `token` as typed.
  private func text(_ token: DateToken) -> String {
    DateLexer.text(bytes, token.start..<token.end)
  }

  /// Moves to the next token and returns the one it leaves.
  private mutating func advance() throws(LineError) -> DateToken {
    let token = current
    previous = token
    current = next
    if !next.isEnd { next = try Self.token(&lexer, in: bytes) }
    return token
  }

  /// The whole line.
  mutating func line() throws(LineError) -> DateSyntax {
    if current.isEnd { throw LineError("the line is empty: a date line is a date, such as today") }
    let left = try sum()
    var right: DateNode?
    if current.isWord(DateWord.to) {
      _ = try advance()
      if current.isEnd {
        throw LineError(
          "to needs a date after it: 2026-01-01 to 2026-12-01", column: current.column)
      }
      right = try sum()
    }
    var unit: TimeUnit?
    if current.isWord(DateWord.in) {
      _ = try advance()
      guard case .word = current.kind else {
        throw LineError("in needs a unit: h, min, s, d or w (8:30 in h)", column: current.column)
      }
      let word = text(current).lowercased()
      guard let found = TimeUnit(rawValue: word) else {
        let reason =
          word == "m"
          ? "m is months; minutes are min (1:30 in min)"
          : "in converts to h, min, s, d or w (8:30 in h)"
        throw LineError(reason, column: current.column)
      }
      _ = try advance()
      unit = found
    }
    guard current.isEnd else { throw unexpected() }
    return DateSyntax(
      left: left, right: right, unit: unit, bytes: bytes, values: lexer.values)
  }

  private mutating func sum() throws(LineError) -> DateNode {
    let first = try product()
    var terms: [DateTerm] = []
    while true {
      let isAddition: Bool
      switch current.kind {
      case .plus: isAddition = true
      case .minus: isAddition = false
      default:
        return terms.isEmpty
          ? first : DateNode(form: .chain(first, terms), start: first.start, end: terms.last!.end)
      }
      let operatorToken = try advance()
      if case .number = current.kind, Self.isUnitWord(next) {
        let (offset, end) = try offset()
        terms.append(
          DateTerm(
            form: .offset(isAddition: isAddition, offset), operatorStart: operatorToken.start,
            end: end))
      } else {
        let right = try product()
        terms.append(
          DateTerm(
            form: .operand(isAddition ? .plus : .minus, right),
            operatorStart: operatorToken.start, end: right.end))
      }
    }
  }

  /// `1y 2m 3w 4d`: counts 0 to 999, units once each, in the order y m w d.
  private mutating func offset() throws(LineError) -> (DateOffset, Int) {
    var offset = DateOffset()
    var lastUnit = -1
    var end = current.end
    let units = ["y", "m", "w", "d"]
    while case .number = current.kind, Self.isUnitWord(next), case .word(let key) = next.kind {
      let count = try advance()
      guard !bytes[count.start..<count.end].contains(UInt8(ascii: ".")) else {
        throw LineError("an offset counts whole units: 1d, not 1.5d", column: count.column)
      }
      let unitToken = try advance()
      guard let unit = DateWord.offsetUnit(key) else {
        throw LineError(
          Self.unitRejection(text(unitToken).lowercased()), column: unitToken.column)
      }
      var digitsStart = count.start
      while digitsStart < count.end - 1, bytes[digitsStart] == UInt8(ascii: "0") {
        digitsStart += 1
      }
      let number =
        count.end - digitsStart <= 3 ? DateLexer.integer(bytes, digitsStart..<count.end) : .max
      guard number <= DateOffset.maximumCount else {
        throw LineError(
          "an offset is at most 999 of a unit (\(text(count) + units[unit]))",
          column: count.column)
      }
      switch unit {
      case 0 where offset.years == nil: offset.years = number
      case 1 where offset.months == nil: offset.months = number
      case 2 where offset.weeks == nil: offset.weeks = number
      case 3 where offset.days == nil: offset.days = number
      default:
        throw LineError(
          "\(units[unit]) twice: each unit of an offset comes once (1y 2m 3w 4d)",
          column: unitToken.column)
      }
      guard unit > lastUnit else {
        throw LineError(
          "\(units[unit]) after \(units[lastUnit]): an offset's units go y m w d (1y 2m 3w 4d)",
          column: unitToken.column)
      }
      lastUnit = unit
      end = unitToken.end
    }
    if case .number = current.kind {
      let written = text(current)
      throw LineError(
        "\(written) needs a unit: \(written)d, \(written)w, \(written)m or \(written)y",
        column: current.column)
    }
    return (offset, end)
  }

  /// Whether `token` is a word that can follow an offset's count: any word but `to` and `in`.
  private static func isUnitWord(_ token: DateToken) -> Bool {
    guard case .word(let key) = token.kind else { return false }
    return key != DateWord.to && key != DateWord.in
  }

  /// Why `word` is not a unit of an offset.
  static func unitRejection(_ word: String) -> String {
    if DateWords.time.contains(word) {
      return "'\(word)' is not a unit of an offset (y, m, w, d); a duration is written H:MM:SS"
    }
    return "'\(word)' is not a unit of an offset: y, m, w or d (1y 2m 3w 4d)"
  }

  private mutating func product() throws(LineError) -> DateNode {
    let first = try unary()
    var terms: [DateTerm] = []
    while true {
      let op: DateOperator
      switch current.kind {
      case .times: op = .times
      case .divide: op = .divide
      default:
        return terms.isEmpty
          ? first : DateNode(form: .chain(first, terms), start: first.start, end: terms.last!.end)
      }
      let operatorToken = try advance()
      let right = try unary()
      terms.append(
        DateTerm(form: .operand(op, right), operatorStart: operatorToken.start, end: right.end))
    }
  }

  /// Minus signs, counted (not nested: a run of any length makes at most two nodes), then an
  /// operand.
  private mutating func unary() throws(LineError) -> DateNode {
    var signs = 0
    let start = current.start
    while case .minus = current.kind {
      _ = try advance()
      signs += 1
    }
    let operand = try primary()
    guard signs > 0 else { return operand }
    // An even run is two negations (so that a date under it is still rejected), an odd run one.
    let once = DateNode(form: .negate(operand), start: start, end: operand.end)
    return signs % 2 == 1 ? once : DateNode(form: .negate(once), start: start, end: operand.end)
  }

  private mutating func primary() throws(LineError) -> DateNode {
    let token = current
    switch token.kind {
    case .date(let date):
      _ = try advance()
      return DateNode(form: .date(date), start: token.start, end: token.end)
    case .duration(let index):
      _ = try advance()
      return DateNode(form: .duration(index), start: token.start, end: token.end)
    case .number(let index):
      _ = try advance()
      return DateNode(form: .number(index), start: token.start, end: token.end)
    case .reference(let line):
      _ = try advance()
      return DateNode(form: .reference(line), start: token.start, end: token.end)
    case .word(DateWord.today):
      _ = try advance()
      return DateNode(form: .today, start: token.start, end: token.end)
    case .word(DateWord.mr):
      _ = try advance()
      return DateNode(form: .memory, start: token.start, end: token.end)
    case .word:
      throw LineError(DateWords.rejection(of: text(token).lowercased()), column: token.column)
    case .open:
      _ = try advance()
      depth += 1
      guard depth <= Self.maximumDepth else {
        throw LineError("brackets nest at most 24 deep", column: token.column)
      }
      let inner = try sum()
      guard case .close = current.kind else {
        if current.isEnd {
          throw LineError("a ( without its ): close it", column: token.column)
        }
        throw unexpected()
      }
      let close = try advance()
      depth -= 1
      return DateNode(form: .group(inner), start: token.start, end: close.end)
    case .close:
      throw LineError(
        previous == nil ? "a ) without its (" : "something is missing before )",
        column: token.column)
    case .end:
      throw LineError(
        "\(previous.map(text) ?? "") needs something after it", column: token.column)
    case .plus, .times, .divide:
      throw LineError("\(text(token)) needs something before it", column: token.column)
    case .minus:
      // unary() reads a minus; this is not reached.
      throw LineError("- needs something after it", column: token.column)
    }
  }

  /// The rejection of the token after a complete operand, where an operator, `to`, `in`, `)` or
  /// the end was due.
  private func unexpected() -> LineError {
    let token = current
    let column = token.column
    let previous = self.previous ?? current
    let afterDate: Bool
    switch previous.kind {
    case .date, .word(DateWord.today): afterDate = true
    default: afterDate = false
    }
    switch token.kind {
    case .date:
      return LineError(
        afterDate
          ? "two dates are joined by to: 2026-01-01 to 2026-12-01"
          : "an operator is missing before the date", column: column)
    case .duration, .number:
      if afterDate {
        return LineError("times of day are not built: a date has no time of day", column: column)
      }
      return LineError("an operator is missing here (+ - * /)", column: column)
    case .word:
      let word = text(token).lowercased()
      if word == "to" || word == "in" {
        return LineError(
          depth > 0 ? "\(word) stands outside brackets" : "\(word) comes once on a line",
          column: column)
      }
      if ["y", "m", "w", "d"].contains(word), case .reference = previous.kind {
        return LineError(
          "an offset counts a number typed in the line, not \(text(previous)): such as 10\(word)",
          column: previous.column)
      }
      if ["y", "m", "w", "d"].contains(word), case .number = previous.kind {
        let offset = text(previous) + word
        return LineError(
          "\(offset) is an offset: it follows a date and + or - (2026-12-01 + \(offset))",
          column: previous.column)
      }
      if word == "t" && afterDate {
        return LineError("times of day are not built: a date has no time of day", column: column)
      }
      if DateWords.zones.contains(word) || DateWords.time.contains(word)
        || DateWords.calendars.contains(word)
      {
        return LineError(DateWords.rejection(of: word), column: column)
      }
      return LineError(
        "'\(word)' cannot follow here: an operator (+ - * /), to or in was expected",
        column: column)
    case .open, .reference:
      return LineError(
        "an operator is missing here (+ - * /): nothing multiplies by itself", column: column)
    case .close:
      return LineError("a ) without its (", column: column)
    case .plus, .minus, .times, .divide, .end:
      return LineError("unexpected text", column: column)
    }
  }
}

/// The words that date lines reject with a reason of their own.
enum DateWords {
  static let zones: Set<String> = [
    "utc", "gmt", "z", "zulu", "est", "edt", "cst", "cdt", "mst", "mdt", "pst", "pdt", "cet",
    "cest", "eet", "eest", "wet", "west", "bst", "ist", "jst", "kst", "msk", "hst", "akst",
    "akdt", "aest", "aedt", "acst", "awst", "nzst", "nzdt", "tz", "timezone", "zone",
  ]
  static let time: Set<String> = [
    "am", "pm", "noon", "midnight", "now", "o", "clock", "h", "hr", "hrs", "hour", "hours",
    "min", "mins", "minute", "minutes", "s", "sec", "secs", "second", "seconds", "t",
  ]
  static let calendars: Set<String> = [
    "julian", "hijri", "islamic", "hebrew", "jewish", "persian", "jalali", "chinese",
    "japanese", "buddhist", "coptic", "ethiopic", "indian", "saka", "lunar", "roc", "minguo",
    "umalqura", "calendar",
  ]
  static let names: Set<String> = [
    "yesterday", "tomorrow", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
    "sunday", "mon", "tue", "wed", "thu", "fri", "sat", "sun", "january", "february", "march",
    "april", "may", "june", "july", "august", "september", "october", "november", "december",
    "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
  ]

  /// Why `word` cannot stand where an operand was due.
  static func rejection(of word: String) -> String {
    if zones.contains(word) {
      return "time zones are not built: dates have no time of day or time zone"
    }
    if time.contains(word) {
      return "times of day are not built: a duration is written H:MM (1:30)"
    }
    if calendars.contains(word) {
      return "other calendars are not built: dates are proleptic Gregorian (2026-12-01)"
    }
    if names.contains(word) {
      return "dates are written YYYY-MM-DD (2026-12-01) or today"
    }
    switch word {
    case "gregorian": return "dates are Gregorian already: write 2026-12-01"
    case "to": return "to needs a date before it: 2026-01-01 to 2026-12-01"
    case "in": return "in needs a duration before it: 8:30 in h"
    case "y", "m", "w", "d": return "an offset such as 10\(word) follows a date and + or -"
    case "ms", "mc":
      return "\(word) is a memory key: it stands alone on its line"
    case "fe": return "fe is not a key of date mode"
    case "std", "sci", "prog", "date": return "\(word) is a mode key: it starts a line"
    default:
      return
        "unknown word '\(word)': a date line holds dates (2026-12-01, today), to, offsets "
        + "(+ 1y 2m 3w 4d), durations (1:30) and in"
    }
  }
}
