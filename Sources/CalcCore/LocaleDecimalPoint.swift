import CalculatorEngine

/// The locale's decimal separator at the REPL (SPEC §6), beyond reading it as the decimal point
/// (``REPL/acceptingDecimalSeparator(_:separator:)``): a number typed the way the display groups
/// it is rejected or noted, never misread.
///
/// Under a locale whose decimal separator is not `.` (`de_DE`'s `,`), a number in a key line
/// that holds both `.` and the separator (`1.234,5`) is rejected with what to type instead
/// (`'.' groups digits in de-DE; type 1234,5`); a `.` followed by exactly three digits and then
/// something that is no digit (`1.234*2=`) gets a note that it is the decimal point
/// (`1.234 is one point two three four; '.' does not group digits here`). A number is a run of
/// digits, `.` and separators; blanks inside it are passed over, as key text passes them over.
/// Command lines, comments and lines under a locale whose separator is `.` are left alone.
package enum LocaleDecimalPoint {
  /// A character of a number: a digit (its ASCII byte), `.`, or the separator (`,`).
  enum Part: Equatable {
    case digit(UInt8)
    case point
    case separator
  }

  /// The notes for the key line `line`, as typed (before the separator is read as `.`), under
  /// `format`'s locale; throws for a number that mixes `.` and the separator.
  ///
  /// - Complexity: O(n) in the length of the line.
  package static func notes(for line: [UInt8], format: DisplayFormat) throws(LineError)
    -> [LineInterpreter.LineNote]
  {
    let separator = Array(format.decimalSeparator.utf8)
    guard !separator.isEmpty, separator != [UInt8(ascii: ".")],
      line.first(where: { $0 != 0x20 && $0 != 0x09 }) != UInt8(ascii: ":")
    else { return [] }
    var notes: [LineInterpreter.LineNote] = []
    // The number being read: its parts and the column of each.
    var parts: [(part: Part, column: Int)] = []
    func finish() throws(LineError) {
      defer { parts.removeAll() }
      let hasPoint = parts.contains { $0.part == .point }
      let hasSeparator = parts.contains { $0.part == .separator }
      guard hasPoint else { return }
      if hasSeparator {
        throw mixed(parts.map(\.part), column: parts[0].column, format: format)
      }
      // The first `.` followed by exactly three digits and then no digit.
      guard let point = parts.firstIndex(where: { $0.part == .point }) else { return }
      let after = parts[(point + 1)...].prefix { if case .digit = $0.part { true } else { false } }
      guard after.count == 3 else { return }
      notes.append(
        LineInterpreter.LineNote(
          message: "\(text(of: parts[...(point + 3)].map(\.part))) is "
            + "\(spoken(parts[...(point + 3)].map(\.part))); '.' does not group digits here",
          column: parts[point].column))
    }
    var index = 0
    // The column of the character at `index`, counted in characters from 1.
    var column = 0
    while index < line.count {
      let byte = line[index]
      if byte == UInt8(ascii: "#") { break }
      // A UTF-8 continuation byte starts no column.
      if byte & 0xC0 != 0x80 { column += 1 }
      if line[index...].starts(with: separator) {
        parts.append((.separator, column))
        // The separator's other characters, if it has more than one.
        column += separator.dropFirst().filter { $0 & 0xC0 != 0x80 }.count
        index += separator.count
        continue
      }
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): parts.append((.digit(byte), column))
      case UInt8(ascii: "."): parts.append((.point, column))
      case 0x20, 0x09: break
      default: try finish()
      }
      index += 1
    }
    try finish()
    return notes
  }

  /// The error for a number that holds both `.` and the separator: the digits again with the
  /// last of the two as the decimal point, written with the separator, and the other left out.
  private static func mixed(_ parts: [Part], column: Int, format: DisplayFormat) -> LineError {
    let locale = String(format.localeIdentifier.map { $0 == "_" ? "-" : $0 })
    let decimal = parts.last { $0 == .point || $0 == .separator }
    var suggestion = ""
    for part in parts {
      switch part {
      case .digit(let byte): suggestion.unicodeScalars.append(Unicode.Scalar(byte))
      case .point, .separator: if part == decimal { suggestion += format.decimalSeparator }
      }
    }
    // A locale's own grouping, whatever the display does with it (an output that is not a
    // terminal is not grouped).
    let grouping = DisplayFormat(localeIdentifier: format.localeIdentifier).groupingSeparator
    let rule =
      grouping == "."
      ? "'.' groups digits in \(locale)"
      : "'\(format.decimalSeparator)' is the decimal point in \(locale)"
    return LineError(
      "\(text(of: parts, separator: format.decimalSeparator)) mixes '.' and "
        + "'\(format.decimalSeparator)' at column \(column) (\(rule); type \(suggestion))",
      column: column)
  }

  /// The number as typed, without blanks.
  private static func text(of parts: [Part], separator: String = ",") -> String {
    var text = ""
    for part in parts {
      switch part {
      case .digit(let byte): text.unicodeScalars.append(Unicode.Scalar(byte))
      case .point: text += "."
      case .separator: text += separator
      }
    }
    return text
  }

  /// How a number of digits with one `.` reads aloud: `one point two three four`, `twelve
  /// point three four five`, `point five`.
  static func spoken(_ parts: [Part]) -> String {
    let point = parts.firstIndex(of: .point) ?? parts.count
    let whole = parts[..<point].compactMap { if case .digit(let byte) = $0 { byte } else { nil } }
    let fraction = parts[point...].compactMap {
      if case .digit(let byte) = $0 { byte } else { nil }
    }
    var words: [String] = []
    if !whole.isEmpty { words.append(cardinal(whole)) }
    words.append("point")
    words += fraction.map { ones[Int($0 - UInt8(ascii: "0"))] }
    return words.joined(separator: " ")
  }

  private static let ones = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen",
  ]
  private static let tens = [
    "", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
  ]
  private static let scales = [
    "", "thousand", "million", "billion", "trillion", "quadrillion", "quintillion",
    "sextillion", "septillion", "octillion", "nonillion", "decillion",
  ]

  /// The English words of a whole number given by its ASCII digits: `twelve`, `one thousand
  /// two hundred thirty-four`; `zero` for zeros. Up to 36 digits (decillions); longer ones are
  /// read digit by digit.
  ///
  /// - Complexity: O(n) in the number of digits.
  static func cardinal(_ digits: [UInt8]) -> String {
    let values = Array(digits.map { Int($0 - UInt8(ascii: "0")) }.drop { $0 == 0 })
    if values.isEmpty { return "zero" }
    if values.count > 3 * scales.count { return values.map { ones[$0] }.joined(separator: " ") }
    var words: [String] = []
    // Groups of three from the left, the first possibly shorter.
    var start = 0
    var group = (values.count - 1) / 3
    var length = values.count - 3 * group
    while start < values.count {
      let chunk = values[start..<(start + length)].reduce(0) { $0 * 10 + $1 }
      if chunk > 0 {
        words.append(below1000(chunk))
        if group > 0 { words.append(scales[group]) }
      }
      start += length
      length = 3
      group -= 1
    }
    return words.joined(separator: " ")
  }

  /// The words of 1…999.
  private static func below1000(_ number: Int) -> String {
    var words: [String] = []
    if number >= 100 { words += [ones[number / 100], "hundred"] }
    let rest = number % 100
    if rest >= 20 {
      words.append(rest % 10 == 0 ? tens[rest / 10] : "\(tens[rest / 10])-\(ones[rest % 10])")
    } else if rest > 0 {
      words.append(ones[rest])
    }
    return words.joined(separator: " ")
  }
}
