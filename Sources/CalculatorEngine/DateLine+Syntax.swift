// The text of a date line (SPEC §13) read into a tree: the tokens, the grammar and the
// rejections of input, each with its column. DateLine.swift checks the kinds and calculates.
//
//   line    := sum [ "to" sum ] [ "in" unit ]
//   sum     := product { ("+" | "-") (offset | product) }
//   offset  := count unit { count unit }          (1y 2m 3w 4d: each once, in this order)
//   product := unary { ("*" | "/") unary }
//   unary   := "-" unary | primary
//   primary := date | "today" | duration | number | "$"N | "mr" | "(" sum ")"

/// A token of a date line, with its place: `start..<end` counts characters from 0.
struct DateToken {
  enum Kind {
    case date(CivilDate)
    /// A duration and its canonical text (`1:30`, `0:00:00.5`; hours without leading zeros).
    case duration(DateRational, String)
    /// A number and its text as typed.
    case number(DateRational, String)
    case reference(Int)
    /// A run of ASCII letters, lower case.
    case word(String)
    case plus, minus, times, divide, open, close
    case end
  }

  let kind: Kind
  let start: Int
  let end: Int
  var column: Int { start + 1 }

  var isEnd: Bool {
    if case .end = kind { return true }
    return false
  }

  func isWord(_ word: String) -> Bool {
    if case .word(let text) = kind { return text == word }
    return false
  }
}

/// An arithmetic operator of a date line.
enum DateOperator: Hashable {
  case plus, minus, times, divide

  var text: String {
    switch self {
    case .plus: "+"
    case .minus: "-"
    case .times: "*"
    case .divide: "/"
    }
  }
}

/// A node of a date line's tree and its place (`start..<end`, characters from 0).
///
/// A run of operators at one level is one node, `chain`, read left to right, so that the tree
/// is as deep as the line's brackets (at most 24), never as long as the line: a line of a
/// million terms is checked, calculated and written without deep recursion.
struct DateNode {
  indirect enum Form {
    case date(CivilDate)
    case today
    case duration(DateRational, String)
    case number(DateRational, String)
    case reference(Int)
    case memory
    /// An odd number of minus signs before an operand (an even number is none).
    case negate(DateNode)
    case group(DateNode)
    /// The first operand, then each operator with its operand (or offset), left to right.
    case chain(DateNode, [DateTerm])
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
struct DateTerm {
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
struct DateSyntax {
  let left: DateNode
  let right: DateNode?
  let toStart: Int?
  let unit: TimeUnit?
  let unitStart: Int?
  let characters: [Character]
}

enum DateLexer {
  /// The tokens of `characters`, ending with `.end` at the end of the text.
  static func tokens(_ characters: [Character]) throws(LineError) -> [DateToken] {
    var tokens: [DateToken] = []
    var index = 0
    func isDigit(_ at: Int) -> Bool {
      at < characters.count && characters[at].isASCII && characters[at].isNumber
    }
    func digitsEnd(_ from: Int) -> Int {
      var end = from
      while isDigit(end) { end += 1 }
      return end
    }
    while index < characters.count {
      let character = characters[index]
      let start = index
      switch character {
      case " ", "\t":
        index += 1
        continue
      case "+": tokens.append(DateToken(kind: .plus, start: start, end: start + 1))
      case "-": tokens.append(DateToken(kind: .minus, start: start, end: start + 1))
      case "*": tokens.append(DateToken(kind: .times, start: start, end: start + 1))
      case "/": tokens.append(DateToken(kind: .divide, start: start, end: start + 1))
      case "(": tokens.append(DateToken(kind: .open, start: start, end: start + 1))
      case ")": tokens.append(DateToken(kind: .close, start: start, end: start + 1))
      case "$":
        let end = digitsEnd(start + 1)
        guard end > start + 1 else {
          throw LineError("$ needs the number of a line: $3", column: start + 1)
        }
        let number = characters[start + 1..<end].reduce(0) {
          min($0 * 10 + Int(String($1))!, Int.max / 20)
        }
        tokens.append(DateToken(kind: .reference(number), start: start, end: end))
        index = end
        continue
      default:
        if character.isASCII, character.isLetter {
          var end = start
          while end < characters.count, characters[end].isASCII, characters[end].isLetter {
            end += 1
          }
          let word = String(characters[start..<end]).lowercased()
          tokens.append(DateToken(kind: .word(word), start: start, end: end))
          index = end
          continue
        }
        if isDigit(start) || (character == "." && isDigit(start + 1)) {
          index = try number(characters, at: start, into: &tokens)
          continue
        }
        throw LineError(unexpected(character), column: start + 1)
      }
      index += 1
    }
    tokens.append(DateToken(kind: .end, start: characters.count, end: characters.count))
    return tokens
  }

  /// Reads a date, a duration or a number at `start`, appends it, and returns where it ends.
  private static func number(
    _ characters: [Character], at start: Int, into tokens: inout [DateToken]
  ) throws(LineError) -> Int {
    func isDigit(_ at: Int) -> Bool {
      at < characters.count && characters[at].isASCII && characters[at].isNumber
    }
    func digitsEnd(_ from: Int) -> Int {
      var end = from
      while isDigit(end) { end += 1 }
      return end
    }
    let first = digitsEnd(start)
    var index = start
    if first < characters.count, characters[first] == "-",
      let date = try CivilDate.scan(characters, at: &index)
    {
      tokens.append(DateToken(kind: .date(date), start: start, end: index))
      return index
    }
    // 12/01/2026, 01.12.2026 and 2026/12/01 are dates written otherwise: say how to write them.
    for separator in ["/", "."] as [Character] where first > start {
      guard first < characters.count, characters[first] == separator else { continue }
      let second = digitsEnd(first + 1)
      guard second < characters.count, characters[second] == separator else { continue }
      let third = digitsEnd(second + 1)
      let lengths = (first - start, second - first - 1, third - second - 1)
      let dayMonth = (1...2).contains(lengths.0) && (1...2).contains(lengths.1)
      let monthDay = (1...2).contains(lengths.1) && (1...2).contains(lengths.2)
      if (dayMonth && lengths.2 == 4) || (lengths.0 == 4 && monthDay) {
        throw LineError("dates are written YYYY-MM-DD: 2026-12-01", column: start + 1)
      }
    }
    if first > start, first < characters.count, characters[first] == ":" {
      return try duration(characters, at: start, hoursEnd: first, into: &tokens)
    }
    var end = first
    if end < characters.count, characters[end] == "." { end = digitsEnd(end + 1) }
    let text = String(characters[start..<end])
    let value =
      end == first && end - start <= 18
      ? DateRational(Int(text)!) : DateRational(decimal: Substring(text))!
    tokens.append(DateToken(kind: .number(value, text), start: start, end: end))
    return end
  }

  /// Reads `H:MM`, `H:MM:SS` or `H:MM:SS.f` (1 to 3 digits) whose hours end at `hoursEnd`.
  private static func duration(
    _ characters: [Character], at start: Int, hoursEnd: Int, into tokens: inout [DateToken]
  ) throws(LineError) -> Int {
    func isDigit(_ at: Int) -> Bool {
      at < characters.count && characters[at].isASCII && characters[at].isNumber
    }
    func digitsEnd(_ from: Int) -> Int {
      var end = from
      while isDigit(end) { end += 1 }
      return end
    }
    // Minutes, then seconds: two digits each, below 60.
    var fields: [Int] = []
    var end = hoursEnd
    for name in ["minutes", "seconds"] {
      guard end < characters.count, characters[end] == ":" else { break }
      let fieldEnd = digitsEnd(end + 1)
      guard fieldEnd - end - 1 == 2 else {
        throw LineError(
          "\(name) have two digits: 1:05" + (name == "seconds" ? ":09" : ""), column: end + 2)
      }
      let value = Int(String(characters[end + 1..<fieldEnd]))!
      guard value < 60 else {
        throw LineError("\(name) are below 60: hours and minutes carry the rest", column: end + 2)
      }
      fields.append(value)
      end = fieldEnd
    }
    if end < characters.count, characters[end] == ":" {
      throw LineError("a duration is H:MM or H:MM:SS: 1:30 or 1:30:15", column: end + 1)
    }
    var fraction: Substring = ""
    if end < characters.count, characters[end] == "." {
      guard fields.count == 2 else {
        throw LineError(
          "a fraction of a second follows the seconds: 1:30:00.5", column: end + 1)
      }
      let fractionEnd = digitsEnd(end + 1)
      guard (1...3).contains(fractionEnd - end - 1) else {
        throw LineError(
          "a second has 1 to 3 digits after the point (milliseconds): 0:00:01.250",
          column: fractionEnd - end - 1 == 0 ? end + 1 : end + 5)
      }
      fraction = Substring(String(characters[end + 1..<fractionEnd]))
      end = fractionEnd
    }
    if end < characters.count, characters[end] == "." {
      throw LineError("a duration has one point, before its milliseconds", column: end + 1)
    }
    let hoursDigits = String(characters[start..<hoursEnd])
    let hours = DateRational(decimal: Substring(hoursDigits))!
    var seconds =
      hours * DateRational(3600) + DateRational(fields[0] * 60 + (fields.count > 1 ? fields[1] : 0))
    if !fraction.isEmpty { seconds = seconds + DateRational(decimal: "." + fraction)! }
    let trimmedHours = hoursDigits.drop { $0 == "0" }
    let text =
      (trimmedHours.isEmpty ? "0" : String(trimmedHours)) + String(characters[hoursEnd..<end])
    tokens.append(DateToken(kind: .duration(seconds, text), start: start, end: end))
    return end
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
  let characters: [Character]
  let tokens: [DateToken]
  private var position = 0
  private var depth = 0

  /// The deepest brackets may nest (Windows' limit).
  static let maximumDepth = 24

  init(_ characters: [Character]) throws(LineError) {
    self.characters = characters
    tokens = try DateLexer.tokens(characters)
  }

  private var current: DateToken { tokens[position] }
  private var next: DateToken { tokens[min(position + 1, tokens.count - 1)] }

  private mutating func advance() -> DateToken {
    let token = tokens[position]
    if position < tokens.count - 1 { position += 1 }
    return token
  }

  /// The whole line.
  mutating func line() throws(LineError) -> DateSyntax {
    if current.isEnd { throw LineError("the line is empty: a date line is a date, such as today") }
    let left = try sum()
    var right: DateNode?
    var toStart: Int?
    if current.isWord("to") {
      toStart = advance().start
      if current.isEnd {
        throw LineError(
          "to needs a date after it: 2026-01-01 to 2026-12-01", column: current.column)
      }
      right = try sum()
    }
    var unit: TimeUnit?
    var unitStart: Int?
    if current.isWord("in") {
      _ = advance()
      guard case .word(let text) = current.kind else {
        throw LineError("in needs a unit: h, min, s, d or w (8:30 in h)", column: current.column)
      }
      guard let found = TimeUnit(rawValue: text) else {
        let reason =
          text == "m"
          ? "m is months; minutes are min (1:30 in min)"
          : "in converts to h, min, s, d or w (8:30 in h)"
        throw LineError(reason, column: current.column)
      }
      unitStart = advance().start
      unit = found
    }
    guard current.isEnd else { throw unexpected() }
    return DateSyntax(
      left: left, right: right, toStart: toStart, unit: unit, unitStart: unitStart,
      characters: characters)
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
      let operatorToken = advance()
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
    while case .number(let value, let text) = current.kind, Self.isUnitWord(next),
      case .word(let word) = next.kind
    {
      let count = advance()
      guard value.isInteger, !text.contains(".") else {
        throw LineError("an offset counts whole units: 1d, not 1.5d", column: count.column)
      }
      let unitToken = advance()
      guard let unit = units.firstIndex(of: word) else {
        throw LineError(Self.unitRejection(word), column: unitToken.column)
      }
      guard value.numerator.uint128.map({ $0 <= UInt128(DateOffset.maximumCount) }) ?? false
      else {
        throw LineError(
          "an offset is at most 999 of a unit (\(text + word))", column: count.column)
      }
      let number = Int(value.numerator.uint128!)
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
    if case .number(_, let text) = current.kind {
      throw LineError(
        "\(text) needs a unit: \(text)d, \(text)w, \(text)m or \(text)y",
        column: current.column)
    }
    return (offset, end)
  }

  /// Whether `token` is a word that can follow an offset's count: any word but `to` and `in`.
  private static func isUnitWord(_ token: DateToken) -> Bool {
    guard case .word(let word) = token.kind else { return false }
    return word != "to" && word != "in"
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
      let operatorToken = advance()
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
      _ = advance()
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
      _ = advance()
      return DateNode(form: .date(date), start: token.start, end: token.end)
    case .duration(let seconds, let text):
      _ = advance()
      return DateNode(form: .duration(seconds, text), start: token.start, end: token.end)
    case .number(let value, let text):
      _ = advance()
      return DateNode(form: .number(value, text), start: token.start, end: token.end)
    case .reference(let line):
      _ = advance()
      return DateNode(form: .reference(line), start: token.start, end: token.end)
    case .word("today"):
      _ = advance()
      return DateNode(form: .today, start: token.start, end: token.end)
    case .word("mr"):
      _ = advance()
      return DateNode(form: .memory, start: token.start, end: token.end)
    case .word(let word):
      throw LineError(DateWords.rejection(of: word), column: token.column)
    case .open:
      _ = advance()
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
      let close = advance()
      depth -= 1
      return DateNode(form: .group(inner), start: token.start, end: close.end)
    case .close:
      throw LineError(
        position == 0 ? "a ) without its (" : "something is missing before )",
        column: token.column)
    case .end:
      let previous = tokens[max(0, position - 1)]
      let name = String(characters[previous.start..<previous.end])
      throw LineError("\(name) needs something after it", column: token.column)
    case .plus, .times, .divide:
      let name = String(characters[token.start..<token.end])
      throw LineError("\(name) needs something before it", column: token.column)
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
    let previous = tokens[max(0, position - 1)]
    let afterDate: Bool
    switch previous.kind {
    case .date, .word("today"): afterDate = true
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
    case .word(let word):
      if word == "to" || word == "in" {
        return LineError(
          depth > 0 ? "\(word) stands outside brackets" : "\(word) comes once on a line",
          column: column)
      }
      if Self.offsetUnits.contains(word), case .number(_, let text) = previous.kind {
        return LineError(
          "\(text)\(word) is an offset: it follows a date and + or - (2026-12-01 + \(text)\(word))",
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

  private static let offsetUnits: Set<String> = ["y", "m", "w", "d"]
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
