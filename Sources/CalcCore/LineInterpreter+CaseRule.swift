import CalculatorEngine

/// SPEC §10's case rule, its traps closed by notes and hints: in Programmer mode an upper-case
/// `A`–`F` is always a hex digit, so `AC` in HEX is two digits (a note) and outside HEX a hex
/// digit out of place (rejected with the same hint); in HEX a lower-case `c`, `ce` or `ac`
/// right after a digit (`1c`), and a lower-case run of `a`–`f` that is no key (`ff`), are
/// rejected with the hint `hex digits are upper case: 1C`.
extension LineInterpreter {
  /// The case rule's notes for a line of `keys` whose key text is `line`, applied after the
  /// session's state; throws for `1c` in HEX and for an upper-case run that spells a word key
  /// outside HEX (`AC`). Keys the keypad refuses for another reason are left to the session.
  /// `keys` start at index 0.
  ///
  /// - Complexity: O(n) in the line's bytes.
  func caseRuleNotes(for keys: ArraySlice<Key>, line: UnsafeBufferPointer<UInt8>)
    throws(LineError) -> [LineNote]
  {
    // Digits and operators alone set no trap: most lines of a script pay one scan.
    guard line.contains(where: { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }) else { return [] }
    let columns = KeyText.columns(in: line, startingIn: session.state.mode)
    let text = Array(String(decoding: line, as: UTF8.self).unicodeScalars)
    func character(atColumn column: Int) -> Unicode.Scalar? {
      column >= 1 && column <= text.count ? text[column - 1] : nil
    }
    func isUpper(_ scalar: Unicode.Scalar?) -> Bool {
      scalar.map { $0 >= "A" && $0 <= "Z" } ?? false
    }
    func isLetter(_ scalar: Unicode.Scalar?) -> Bool {
      scalar.map { ($0 >= "A" && $0 <= "Z") || ($0 >= "a" && $0 <= "z") } ?? false
    }
    /// The upper-case run at `column`, or else the run of letters of either case that starts
    /// there (`Dword`, read as the digit D and the key word), when it spells a word key read
    /// case-insensitively and holds an upper-case `A`–`F` (so that Programmer mode did not
    /// read it as that key): the run, the key, and the column after the run.
    func upperCaseWord(at column: Int) -> (String, Key, Int)? {
      func word(while inRun: (Unicode.Scalar?) -> Bool) -> (String, Key, Int)? {
        var end = column
        while inRun(character(atColumn: end)) { end += 1 }
        let run = String(String.UnicodeScalarView(text[(column - 1)..<(end - 1)]))
        guard run.count >= 2, run.contains(where: { $0 >= "A" && $0 <= "F" }),
          let word = Self.wordKey(spelled: run.lowercased())
        else { return nil }
        return (run, word, end)
      }
      if let upper = word(while: isUpper) { return upper }
      guard !isLetter(character(atColumn: column - 1)) else { return nil }
      return word(while: isLetter)
    }
    var keypad = session.state.keypad
    var notes: [LineNote] = []
    for (index, key) in keys.enumerated() where index < columns.count {
      let column = columns[index]
      let radix = keypad.radix
      let programmer = keypad.mode == .programmer
      defer { _ = keypad.press(key) }
      guard programmer else { continue }
      // An upper-case run starting here that spells a word key but holds `A`–`F`, so that it
      // was not read as that key (`AC`, `DEC`, `ROLC`).
      if isUpper(character(atColumn: column)), !isUpper(character(atColumn: column - 1)),
        let (run, word, end) = upperCaseWord(at: column)
      {
        var parts: [String] = []
        var allDigits = true
        for (offset, next) in keys[index...].enumerated() {
          guard index + offset < columns.count, columns[index + offset] < end else { break }
          if case .programmer(.hexDigit) = next {
            parts.append(next.title)
          } else {
            parts.append(next.canonical)
            allDigits = false
          }
        }
        let reading = (allDigits ? "the hex digits " : "") + parts.joined(separator: " ")
        let hint = "the key \(word.title) is \(run.lowercased())"
        if radix == .hex {
          notes.append(
            LineNote(message: "'\(run)' was read as \(reading); \(hint)", column: column))
        } else if let digit = keys[index...].firstIndex(where: {
          if case .programmer(.hexDigit) = $0 { true } else { false }
        }), digit < columns.count, columns[digit] < end {
          throw LineError(
            KeyRejection.hexDigitOutsideHex.message(for: keys[digit])
              + " at column \(columns[digit]) (\(hint))",
            column: columns[digit])
        }
      }
      switch key {
      case .command(.clear), .command(.clearEntry):
        guard radix == .hex, index > 0, columns[index - 1] == column - 1,
          let first = character(atColumn: column), first >= "a" && first <= "z"
        else { break }
        switch keys[index - 1] {
        case .digit, .programmer(.hexDigit): break
        default: continue
        }
        var start = column - 1
        while let before = character(atColumn: start - 1), before.properties.isASCIIHexDigit {
          start -= 1
        }
        var end = column
        while let after = character(atColumn: end), after.properties.isASCIIHexDigit { end += 1 }
        let typed = String(String.UnicodeScalarView(text[(start - 1)..<(end - 1)]))
        let width = key == .command(.clear) && first == "c" ? 1 : 2
        let spelled = String(String.UnicodeScalarView(text[(column - 1)..<(column - 1 + width)]))
        throw LineError(
          "'\(spelled)' after a digit is the key \(key.title) at column \(column) "
            + "(hex digits are upper case: \(typed.uppercased()))",
          column: column)
      default:
        break
      }
    }
    return notes
  }

  /// The key whose spelling is `word` (lower case): a word key such as `ac`, `dword`, `rolc`.
  static func wordKey(spelled word: String) -> Key? {
    if word == "ac" { return .command(.clear) }
    return Key.allKeys.first { $0.canonical == word }
  }

  /// `error`, a line's key text error, with the hint `hex digits are upper case: FF` when it is
  /// at a lower-case `a`–`f` in HEX (SPEC §10); the radix there is worked out from the keys
  /// before it, after the session's state.
  ///
  /// - Complexity: O(n) in the line's bytes.
  func caseRuleHint(for error: KeyTextError, in line: UnsafeBufferPointer<UInt8>) -> KeyTextError {
    let text = Array(String(decoding: line, as: UTF8.self).unicodeScalars)
    guard error.column >= 1, error.column <= text.count else { return error }
    if let radixHint = Self.radixPrefixHint(in: text, at: error.column - 1) {
      // Outside Programmer mode, the key that goes there first.
      let programmer = radix(beforeColumn: error.column, in: line, text: text) != nil
      return KeyTextError(
        character: error.character, column: error.column, isInvalidUTF8: error.isInvalidUTF8,
        hint: programmer ? radixHint : "prog " + radixHint)
    }
    if let hint = Self.programmerHint(forCharacter: error.character),
      radix(beforeColumn: error.column, in: line, text: text) != nil
    {
      return KeyTextError(
        character: error.character, column: error.column, isInvalidUTF8: error.isInvalidUTF8,
        hint: hint)
    }
    if let (run, word) = Self.upperCaseWord(in: text, around: error.column - 1),
      radix(beforeColumn: error.column, in: line, text: text) != nil
    {
      return KeyTextError(
        character: error.character, column: error.column, isInvalidUTF8: error.isInvalidUTF8,
        hint: "the key \(word.title) is \(run.lowercased())")
    }
    guard let run = Self.lowerCaseHexRun(in: text, at: error.column - 1),
      radix(beforeColumn: error.column, in: line, text: text) == .hex
    else { return error }
    return KeyTextError(
      character: error.character, column: error.column, isInvalidUTF8: error.isInvalidUTF8,
      hint: "hex digits are upper case: \(run.uppercased())")
  }

  /// The upper-case run around `offset` in `text` when it spells a word key read
  /// case-insensitively (`DWORD`): the run and the key; `nil` otherwise.
  static func upperCaseWord(in text: [Unicode.Scalar], around offset: Int)
    -> (String, Key)?
  {
    func isUpper(_ scalar: Unicode.Scalar) -> Bool { scalar >= "A" && scalar <= "Z" }
    guard isUpper(text[offset]) else { return nil }
    var start = offset
    while start > 0, isUpper(text[start - 1]) { start -= 1 }
    var end = offset
    while end < text.count, isUpper(text[end]) { end += 1 }
    let run = String(String.UnicodeScalarView(text[start..<end]))
    guard let word = wordKey(spelled: run.lowercased()) else { return nil }
    return (run, word)
  }

  /// The run of hex digits (`0`–`9`, `a`–`f` of either case) around `offset` in `text`, when
  /// the character there is a lower-case `a`–`f`; `nil` otherwise.
  static func lowerCaseHexRun(in text: [Unicode.Scalar], at offset: Int) -> String? {
    guard text[offset] >= "a" && text[offset] <= "f" else { return nil }
    var start = offset
    while start > 0, text[start - 1].properties.isASCIIHexDigit { start -= 1 }
    var end = offset
    while end < text.count, text[end].properties.isASCIIHexDigit { end += 1 }
    return String(String.UnicodeScalarView(text[start..<end]))
  }

  /// The radix in force at `column` of `line`, in Programmer mode; `nil` when the mode there
  /// is another, or the text before it is no key text.
  private func radix(
    beforeColumn column: Int, in line: UnsafeBufferPointer<UInt8>, text: [Unicode.Scalar]
  )
    -> Key.Radix?
  {
    let before = String(String.UnicodeScalarView(text[..<(column - 1)]))
    // Only the keys before the run count: `hex ff` is in HEX, `ff` after `hex` on an earlier line too.
    guard let keys = try? KeyText.keys(in: before, startingIn: session.state.mode) else {
      return nil
    }
    var keypad = session.state.keypad
    for key in keys { _ = keypad.press(key) }
    return keypad.mode == .programmer ? keypad.radix : nil
  }

  /// The hint for a key that the keypad refused in HEX because it is a lower-case run of
  /// `a`–`f` spelling another mode's key (`fe`): `hex digits are upper case: FE`; `nil` else.
  func caseRuleHint(forRejectedKeyAt column: Int, in line: UnsafeBufferPointer<UInt8>) -> String? {
    let text = Array(String(decoding: line, as: UTF8.self).unicodeScalars)
    guard column >= 1, column <= text.count,
      let run = Self.lowerCaseHexRun(in: text, at: column - 1),
      radix(beforeColumn: column, in: line, text: text) == .hex
    else { return nil }
    return "hex digits are upper case: \(run.uppercased())"
  }

  /// The hint for a number written with a radix prefix (`0xFF`, `0o377`, `0b1010`), rejected
  /// at its letter: the radix key then the digits, `hex FF` (SPEC v5 §5; the caller puts `prog`
  /// before it outside Programmer mode); `nil` when the letter at `offset` of `text` is no such
  /// prefix's.
  static func radixPrefixHint(in text: [Unicode.Scalar], at offset: Int) -> String? {
    guard offset >= 1, text[offset - 1] == "0",
      offset < 2
        || !text[offset - 2].properties.isAlphabetic && !("0"..."9").contains(text[offset - 2])
    else { return nil }
    let radix: String
    switch text[offset] {
    case "x", "X": radix = "hex"
    case "o", "O": radix = "oct"
    case "b", "B": radix = "bin"
    default: return nil
    }
    let digits = text[(offset + 1)...].prefix { $0.properties.isASCIIHexDigit || $0 == "_" }
      .filter { $0 != "_" }
    guard !digits.isEmpty else { return nil }
    return "\(radix) \(String(String.UnicodeScalarView(digits)).uppercased())"
  }

  /// The hint for a Windows keyboard shortcut that Programmer mode lacks (SPEC §10): `^`, `|`,
  /// `&` and `>` name the keys `xor`, `or`, `and` and `rsh`; `nil` for any other key.
  static func programmerHint(for key: Key) -> String? {
    if case .scientific(.binary(.power)) = key { return "bitwise XOR is xor" }
    return nil
  }

  /// The hint for a character that is no key in Programmer mode but a Windows shortcut: `|`,
  /// `&`, `>`.
  static func programmerHint(forCharacter character: String) -> String? {
    switch character {
    case "|": "bitwise OR is or"
    case "&": "bitwise AND is and"
    case ">": "a right shift is rsh (rshl shifts zeros in)"
    case "^": "bitwise XOR is xor"
    default: nil
    }
  }

  /// Whether `keys` hold a run of at least `count` digits (hex digits included) in a row.
  ///
  /// - Complexity: O(n) in the number of keys.
  static func hasDigitRun(_ keys: ArraySlice<Key>, atLeast count: Int) -> Bool {
    var run = 0
    for key in keys {
      switch key {
      case .digit, .programmer(.hexDigit):
        run += 1
        if run >= count { return true }
      default:
        run = 0
      }
    }
    return false
  }
}
