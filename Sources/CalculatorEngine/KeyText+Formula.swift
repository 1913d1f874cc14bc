// Formula-mode lines (SPEC §12): what a line is in formula mode, read where key text is read.
extension KeyText {
  /// The mode in force from line to line, for writing lines one after another: a formula line
  /// is written after `fx` only where another mode is in force (SPEC §12: "a writer puts `fx`
  /// before it where the mode in force is another"), and always where the mode is not known.
  package struct ModeTracker {
    /// The mode in force before the next line; `nil` when not known.
    package var mode: Key.Mode?

    /// A tracker from the start of a session (Standard mode), or from `mode`.
    package init(mode: Key.Mode? = .standard) { self.mode = mode }

    /// The key text of `keys`, the next line, and the mode after it.
    ///
    /// - Complexity: O(n) in the number of keys.
    package mutating func text(of keys: TypedKeys) -> String {
      let text = KeyText.text(of: keys, modeBefore: mode)
      pass(keys)
      return text
    }

    /// Passes over `keys`, the next line, without writing it.
    ///
    /// - Complexity: O(n) in the number of keys.
    package mutating func pass(_ keys: TypedKeys) {
      for key in keys {
        switch key {
        case .mode(let next): mode = next
        case .formula: mode = .formula
        case .dateLine: mode = .date
        case .digit, .dot, .op, .equal, .command, .unary, .memory, .angle, .reference,
          .scientific, .programmer:
          break
        }
      }
    }
  }

  /// The keys of a line read in formula mode (SPEC §12), or `nil` when the line is not one:
  /// its leading mode keys (`fx`, `sci`, …), then, when the mode in force is formula mode,
  /// either keys that formula mode's keypad takes (`c`/`ac`, the memory keys, `deg`, `rad`,
  /// `grad`, a mode key and what follows it in its mode) or a formula (a ``Key/formula`` key
  /// with its text) optionally followed by `ms`, `m+` or `m-`. A `#` starts the line's note.
  ///
  /// The formula's text keeps the line's columns: what comes before it is written as blanks,
  /// so that its errors point at the line's column. Throws the formula's error (with its column
  /// and hint), and for `ce` and `fe`, which formula mode lacks.
  /// - Complexity: O(n) in the length of the line.
  package static func formulaLine(
    in buffer: UnsafeBufferPointer<UInt8>, startingIn mode: Key.Mode,
    reusing storage: inout [Key]
  ) throws(KeyTextError) -> TypedKeys? {
    var mode = mode
    var keys = TypedKeys()
    var index = 0
    while true {
      while index < buffer.count, isBlank(buffer[index]) { index += 1 }
      guard let (word, width) = modeWord(in: buffer, at: index) else { break }
      keys.append(.mode(word))
      mode = word
      index += width
    }
    if mode == .date {
      return try dateLine(in: buffer, from: index, after: keys, reusing: &storage)
    }
    guard mode == .formula else { return nil }
    var end = index
    while end < buffer.count, buffer[end] != UInt8(ascii: "#") { end += 1 }
    while end > index, isBlank(buffer[end - 1]) { end -= 1 }
    // Nothing after the mode keys: key text reads them.
    guard end > index else { return nil }
    let column = columnAfter(buffer, index)
    // Keys that formula mode's keypad takes (`c`, `mr`, `deg`, `ms sci 5+`) are keys: words
    // only, so a line that starts with a digit, `.` or `(`, or whose first word is called
    // (`sin(`), is not tried as keys.
    var wordEnd = index
    while wordEnd < end, (buffer[wordEnd] | 0x20) >= UInt8(ascii: "a"),
      (buffer[wordEnd] | 0x20) <= UInt8(ascii: "z")
    {
      wordEnd += 1
    }
    let mayBeKeys =
      wordEnd > index
      ? wordEnd == end || buffer[wordEnd] != UInt8(ascii: "(") : !isFormulaStart(buffer[index])
    if mayBeKeys,
      let plain = try? plainKeys(
        in: UnsafeBufferPointer(rebasing: buffer[index..<end]), startingIn: .formula,
        reusing: &storage),
      Calculator.keyRejection(in: plain, keypad: Keypad(mode: .formula)) == nil
    {
      keys.append(contentsOf: plain)
      return keys
    }
    // The line's bytes compared without allocating: `ce`, `fe` and the trailing memory words
    // in any case (ASCII letters).
    func endsWith(_ spelling: [UInt8]) -> Bool {
      guard end - index >= spelling.count else { return false }
      return zip(buffer[(end - spelling.count)..<end], spelling).allSatisfy { byte, letter in
        byte == letter
          || (letter >= UInt8(ascii: "a") && letter <= UInt8(ascii: "z") && byte | 0x20 == letter)
      }
    }
    if end - index == 2, endsWith(Array("ce".utf8)) || endsWith(Array("fe".utf8)) {
      let rest = String(
        decoding: UnsafeBufferPointer(rebasing: buffer[index..<end]), as: UTF8.self)
      throw KeyTextError(
        message: "'\(rest)' is not a key of formula mode (type sci for Scientific mode's keys)",
        column: column)
    }
    do {
      var formulaEnd = end
      var memory: Key.Memory?
      // Each trailing memory word ends in `s`, `S`, `+`, `-` or `−`'s last byte (0x92).
      let last = buffer[end - 1]
      let mayEndInMemoryWord =
        last | 0x20 == UInt8(ascii: "s") || last == UInt8(ascii: "+")
        || last == UInt8(ascii: "-") || last == 0x92
      for (spelling, key) in trailingMemoryWords where mayEndInMemoryWord && endsWith(spelling) {
        let start = end - spelling.count
        guard start > index, isBlank(buffer[start - 1]) else { continue }
        memory = key
        formulaEnd = start
        while formulaEnd > index, isBlank(buffer[formulaEnd - 1]) { formulaEnd -= 1 }
        break
      }
      // The bytes before the formula as blanks, one a character: its columns are the line's.
      let formulaBytes = UnsafeBufferPointer(rebasing: buffer[index..<formulaEnd])
      let text =
        column == 1
        ? String(decoding: formulaBytes, as: UTF8.self)
        : String(repeating: " ", count: column - 1)
          + String(decoding: formulaBytes, as: UTF8.self)
      // An `fx` right before the formula is the formula line's own, not a step: a formula
      // line switches to formula mode itself, and `fx 5*-2` is one step as `5*-2` is.
      if keys.last == .mode(.formula) { keys = keys.extracting(0..<(keys.count - 1)) }
      do throws(FormulaError) {
        // The common formula compiled as it is read, with no tree (issue 49); any other read
        // straight into the keys: the formula is not copied.
        if let compiled = FormulaParser.compiledKeys(of: text) {
          keys.appendFormula(text, compiled: compiled)
        } else {
          keys.appendFormula(text, read: try Formula(text))
        }
      } catch {
        throw KeyTextError(message: error.message, column: error.column)
      }
      if let memory { keys.append(.memory(memory)) }
    }
    return keys
  }

  /// The keys of a line read in date mode (SPEC §13) from `index` of `buffer`, after the mode
  /// keys `keys`: keys that date mode's keypad takes (the memory keys, a mode key and what
  /// follows it in its mode), or a date line (a ``Key/dateLine`` key with its text); `nil` when
  /// nothing follows the mode keys. A `#` starts the line's note.
  ///
  /// The date line's text keeps the line's columns, as a formula's does. Throws the date
  /// line's error (with its column), and, for key text that is no date line, why date mode
  /// lacks the key (`'fe' is not a key of date mode …`).
  /// - Complexity: O(n) in the length of the line.
  private static func dateLine(
    in buffer: UnsafeBufferPointer<UInt8>, from index: Int, after keys: TypedKeys,
    reusing storage: inout [Key]
  ) throws(KeyTextError) -> TypedKeys? {
    var keys = keys
    var end = index
    while end < buffer.count, buffer[end] != UInt8(ascii: "#") { end += 1 }
    while end > index, isBlank(buffer[end - 1]) { end -= 1 }
    guard end > index else { return nil }
    let column = columnAfter(buffer, index)
    // Text that starts with a digit is never keys date mode's keypad takes (the memory and
    // mode keys start with a letter), nor text that starts with `$` (its keys, when they read,
    // start with a `$N`, which makes a date line): its keys are read only for a line that does
    // not parse, for the error (issue 51: reading them cost a date line about 3,400
    // instructions, and a `$N` line about 9,500 with the error it built).
    var start = index
    while start < end, isBlank(buffer[start]) { start += 1 }
    let keysOnlyForError =
      (buffer[start] >= UInt8(ascii: "0") && buffer[start] <= UInt8(ascii: "9"))
      || buffer[start] == UInt8(ascii: "$")
    var plain: TypedKeys?
    if !keysOnlyForError {
      plain = try? plainKeys(
        in: UnsafeBufferPointer(rebasing: buffer[index..<end]), startingIn: .date,
        reusing: &storage)
      // `$N` alone is a date line (a whole operand), not a key that recalls.
      if let plain, !plain.hasReferences,
        Calculator.keyRejection(in: plain, keypad: Keypad(mode: .date)) == nil
      {
        keys.append(contentsOf: plain)
        return keys
      }
    }
    let line = String(decoding: UnsafeBufferPointer(rebasing: buffer[index..<end]), as: UTF8.self)
    let text = column == 1 ? line : String(repeating: " ", count: column - 1) + line
    // The common line read and calculated at once (DateLine+OnePass.swift); the tree reads any
    // other, and gives every rejection.
    if let calculated = DateLine.onePass(text) {
      if keys.last == .mode(.date) { keys = keys.extracting(0..<(keys.count - 1)) }
      keys.appendDateLine(text, calculated: calculated)
      return keys
    }
    let syntax: DateSyntax
    do throws(LineError) {
      var parser = try DateParser(text)
      syntax = try parser.line()
    } catch {
      if keysOnlyForError {
        plain = try? plainKeys(
          in: UnsafeBufferPointer(rebasing: buffer[index..<end]), startingIn: .date,
          reusing: &storage)
      }
      // Key text without digits (`fe`, `sin`, `deg`) is a key date mode lacks; with them, the
      // date line's own reason (`no such date: …`).
      if let plain, !plain.contains(where: \.startsANumber),
        let rejection = Calculator.keyRejection(in: plain, keypad: Keypad(mode: .date))
      {
        throw KeyTextError(message: rejection.description, column: column)
      }
      throw KeyTextError(message: error.message, column: error.column)
    }
    // A `date` right before the line is the date line's own, not a step, as `fx` before a
    // formula is.
    if keys.last == .mode(.date) { keys = keys.extracting(0..<(keys.count - 1)) }
    // Kept beside the text: the session calculates the line from it (issue 51).
    keys.appendDateLine(text, read: syntax)
    return keys
  }

  /// The bytes of `buffer`, where they lie, that are the text of the date line that `buffer`,
  /// a line read in date mode, is when it starts
  /// with a digit, `$` or `(` and holds no note (`#`): the common date line of a script, which
  /// ``formulaLine(in:startingIn:reusing:)`` reads as a date line's key alone with this text;
  /// `nil` for any other line. `mayReferToLines` is whether the text holds a `$`.
  ///
  /// Such a line is never keys, a mode word or a command: the general reader takes the whole
  /// of it, its trailing blanks left off, as the date line's text (a `$` starts a date line's
  /// `$N`, not a key that recalls; `(` is a key of Scientific mode, which date mode's keypad
  /// refuses first of all, so that its keys never read).
  /// - Complexity: O(n) in the length of the line.
  package static func commonDateLine(in buffer: UnsafeBufferPointer<UInt8>)
    -> (bytes: UnsafeBufferPointer<UInt8>, mayReferToLines: Bool)?
  {
    guard let first = buffer.first,
      (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) || first == UInt8(ascii: "$")
        || first == UInt8(ascii: "(")
    else { return nil }
    // One pass over the bytes for both, a word at a time: through a string's generic
    // `contains`, the `$` alone cost about 480 instructions a date line, a byte at a time 180.
    let (note, dollar) = ByteScan.holds(UInt8(ascii: "#"), UInt8(ascii: "$"), in: buffer)
    if note { return nil }
    var end = buffer.count
    while end > 0, isBlank(buffer[end - 1]) { end -= 1 }
    return (UnsafeBufferPointer(rebasing: buffer[..<end]), dollar)
  }

  /// The memory keys a formula may be followed by, as spelled at the end of a line.
  private static let trailingMemoryWords: [([UInt8], Key.Memory)] = [
    (Array("ms".utf8), .store), (Array("m+".utf8), .add), (Array("m-".utf8), .subtract),
    (Array("m−".utf8), .subtract),
  ]

  /// The 1-based column, in characters, of the byte at `index` of `buffer`: without building a
  /// string where the bytes before it are ASCII.
  private static func columnAfter(_ buffer: UnsafeBufferPointer<UInt8>, _ index: Int) -> Int {
    if buffer[..<index].allSatisfy({ $0 < 0x80 }) { return index + 1 }
    return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<index]), as: UTF8.self)
      .count + 1
  }

  /// Whether `byte` starts a formula and no key of formula mode's keypad: a digit, `.` or `(`.
  private static func isFormulaStart(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: ".")
      || byte == UInt8(ascii: "(")
  }

  /// Whether `byte` is a blank of key text: a space or a tab.
  private static func isBlank(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
  }

  /// The mode key spelled at `index` of `buffer` (`std`, `sci`, `prog`, `fx`, in any case),
  /// ending where no letter or digit follows, and its width; `nil` for anything else.
  private static func modeWord(
    in buffer: UnsafeBufferPointer<UInt8>, at index: Int
  ) -> (Key.Mode, Int)? {
    var end = index
    while end < buffer.count, end - index < 5 {
      let byte = buffer[end] | 0x20
      guard
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
          || (buffer[end] >= UInt8(ascii: "0") && buffer[end] <= UInt8(ascii: "9"))
      else { break }
      end += 1
    }
    guard end > index, end - index <= 4 else { return nil }
    // The word's bytes in one number, lower case (digits keep their bit 0x20), without a string.
    var word: UInt32 = 0
    for offset in index..<end { word = word << 8 | UInt32(buffer[offset] | 0x20) }
    // Every mode, by raw value: a new mode is found here once its word is packed below.
    var raw: UInt8 = 0
    while let mode = Key.Mode(rawValue: raw) {
      if packedWord(of: mode) == word { return (mode, end - index) }
      raw += 1
    }
    return nil
  }

  /// The word of `mode`'s key, packed as ``modeWord(in:at:)`` packs a word (the first byte
  /// highest): `std` is 0x73_74_64. Written out rather than packed from the spellings at run time,
  /// which built two arrays of tuples at the first line (Documentation/Performance.md, "Start-up,
  /// session 20"); `KeyTextTests.modeWordsArePackedSpellings` checks each against the key's
  /// canonical spelling.
  static func packedWord(of mode: Key.Mode) -> UInt32 {
    switch mode {
    case .standard: 0x73_74_64  // std
    case .scientific: 0x73_63_69  // sci
    case .programmer: 0x70_72_6f_67  // prog
    case .formula: 0x66_78  // fx
    case .date: 0x64_61_74_65  // date
    }
  }
}
