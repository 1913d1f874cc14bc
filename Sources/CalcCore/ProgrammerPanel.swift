import CalculatorEngine

/// Programmer mode's panel in the REPL (SPEC §10, §6): the value in all four radixes on one
/// row under the display, dimmed — `HEX 75B CD15  DEC 123,456,789  OCT 726 746 425  BIN 0111 …`
/// — and `carry 1` at its end while the rotate-through-carry bit is set (Windows keeps that
/// bit invisible).
package enum ProgrammerPanel {
  /// The panel's row for `state` with numbers in `format`, at most `width` columns when given
  /// (`nil`: whole); `nil` outside Programmer mode and while an error is shown (Windows then
  /// empties the four rows).
  ///
  /// When the row does not fit, the BIN digits are cut on the left in whole groups of four
  /// (`BIN …0101 1011`), keeping HEX, DEC, OCT and the carry whole; when not even four BIN
  /// digits fit, BIN is left out and the rest cut at the right with `…`, like a listing, the
  /// carry kept.
  /// - Complexity: O(w), w the word size.
  package static func row(for state: Calculator, format: DisplayFormat, width: Int? = nil)
    -> String?
  {
    guard let programmer = state.programmer, let value = programmer.value else { return nil }
    let rows = format.radixRows(value, wordSize: programmer.wordSize)
    // `Radix.allCases`: HEX, DEC, OCT, BIN.
    let head = "HEX \(rows[0])  DEC \(rows[1])  OCT \(rows[2])  BIN "
    let carry = programmer.carry ? "  carry 1" : ""
    let whole = head + rows[3] + carry
    guard let width, Terminal.width(of: whole) > width else { return whole }
    let room = width - Terminal.width(of: head) - Terminal.width(of: carry)
    let groups = rows[3].split(separator: " ")
    var kept: [Substring] = []
    var used = 1  // the `…`
    for group in groups.reversed() {
      let next = group.count + (kept.isEmpty ? 0 : 1)
      guard used + next <= room else { break }
      used += next
      kept.append(group)
    }
    guard !kept.isEmpty else {
      // Not even one group of BIN: the row without it, cut at the right if need be.
      let short = "HEX \(rows[0])  DEC \(rows[1])  OCT \(rows[2])"
      let room = width - Terminal.width(of: carry)
      guard room >= 2 else { return Terminal.cutRight(short + carry, width) }
      return Terminal.cutRight(short, room) + carry
    }
    return head + "…" + kept.reversed().joined(separator: " ") + carry
  }
}

extension LineInterpreter {
  /// What Tab completes `text` (the word before the cursor in a key line) to: `text` with its
  /// trailing letters completed to each word key of `mode` they start (`5ro` → `5rol`, `5ror`,
  /// `5rolc`, `5rorc`), in lower case, shortest first; the mode keys of the other modes count
  /// (`pr` → `prog`). In Programmer mode an upper-case `A`–`F` is a hex digit and ends no word
  /// (SPEC §10). In formula mode, the names of formulas (SPEC §12): functions with their `(`
  /// (`2*si` → `2*sin(`, `2*sinh(`), `pi`, `e`, `ans`, `mr`, `mod`, and the mode keys. Empty
  /// when no letters end `text`.
  ///
  /// - Complexity: O(k), k the number of keys.
  package static func keyWordCompletions(of text: String, mode: Key.Mode)
    -> [String]
  {
    let scalars = Array(text.unicodeScalars)
    var start = scalars.count
    while start > 0 {
      let scalar = scalars[start - 1]
      guard scalar.isASCII, scalar.properties.isAlphabetic else { break }
      if mode == .programmer, scalar >= "A", scalar <= "F" { break }
      start -= 1
    }
    guard start < scalars.count else { return [] }
    let head = String(String.UnicodeScalarView(scalars[..<start]))
    let word = String(String.UnicodeScalarView(scalars[start...])).lowercased()
    let keypad = Keypad(mode: mode)
    var matches: [String] = []
    if mode == .formula {
      let names =
        Formula.functionNames.map { $0 + "(" } + Formula.otherNames
        + Key.Mode.allCases.map { Key.mode($0).canonical }
      for name in names where name.hasPrefix(word) { matches.append(head + name) }
      return matches.sorted { ($0.count, $0) < ($1.count, $1) }
    }
    if mode == .date {
      // Date mode's words (SPEC §13): `to`, `today`, the conversions, and the keys alone.
      let names =
        ["to", "today"] + TimeUnit.allCases.map { "in " + $0.rawValue }
        + Key.Mode.allCases.map { Key.mode($0).canonical }
        + Key.Memory.allCases.map { Key.memory($0).canonical }
      for name in names where name.hasPrefix(word) { matches.append(head + name) }
      return matches.sorted { ($0.count, $0) < ($1.count, $1) }
    }
    for key in Key.allKeys {
      let spelling = key.canonical
      guard spelling.count > 1 || spelling == word, spelling.hasPrefix(word),
        spelling.first.map({ $0.isLetter }) == true
      else { continue }
      var probe = keypad
      if case .mode = key {
      } else if probe.press(key) != nil {
        continue
      }
      matches.append(head + spelling)
    }
    return matches.sorted { ($0.count, $0) < ($1.count, $1) }
  }
}
