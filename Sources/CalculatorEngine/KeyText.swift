/// Key text: the one place where text becomes keys and keys become text.
///
/// Each key has a canonical ASCII spelling (``Key/canonical``); `ac` (AC), `−`
/// (U+2212), `×`, `÷`, `±`, `√`, `²`, `m−`, `³`, `∛` and `π` are accepted as aliases, and letters
/// are case-insensitive. Text is read by maximal munch over one table of spellings: at each
/// place, the longest spelling that matches (`logy` before `log`, `ce` before `c`); no text of
/// Standard mode's keys changes meaning by Scientific mode's longer words
/// (`KeyTextTests.standardKeyTextKeepsItsMeaning`). Spaces and tabs are ignored, and `#` starts
/// a comment that runs to the end of the line. Any other character is an error naming it and
/// its 1-based column — in particular `e` alone, so that a number in scientific notation
/// (`1E40`) is rejected instead of misread; a line with an error yields no keys at all.
public enum KeyText {
  /// Returns the keys of `text`, or throws for the first character that is no key.
  ///
  /// - Complexity: O(n) in the length of `text`.
  public static func keys(
    in text: some StringProtocol, startingIn mode: Key.Mode = .standard
  ) throws(KeyTextError) -> TypedKeys {
    var text = String(text)
    var failure: KeyTextError?
    let typed = text.withUTF8 { buffer in
      do throws(KeyTextError) {
        return try KeyText.keys(in: buffer, startingIn: mode)
      } catch {
        failure = error
        return TypedKeys()
      }
    }
    if let failure { throw failure }
    return typed
  }

  /// Checks that every character of `bytes` (UTF-8) is a key, a blank or part of a comment,
  /// then calls `body` for each key in order (a `$N` as ``Key/reference``
  /// without its N: ``keys(in:startingIn:)-(UnsafeBufferPointer<UInt8>,_)`` keeps it).
  ///
  /// Nothing is passed to `body` unless the whole text is valid, so a caller can apply keys as
  /// they come without ever applying part of a bad line. Allocates nothing when `bytes` has
  /// contiguous storage (an array, a buffer, a native string's UTF-8); other collections are
  /// copied into an array first.
  /// - Complexity: O(n) in the number of bytes.
  package static func scan<Bytes: Collection<UInt8>>(
    _ bytes: Bytes, startingIn mode: Key.Mode = .standard,
    _ body: (Key) -> Void
  ) throws(KeyTextError) {
    // `nil` without contiguous storage, else the text's error if any. Not a `Result`: making
    // `Result<Void, KeyTextError>`'s metadata at run time checks `KeyTextError: Error`, a
    // lookup that scans every conformance in the binary the first time — a third of the
    // instructions of `calc -k 12+3=` when it was one (Documentation/Performance.md).
    let outcome: KeyTextError?? = bytes.withContiguousStorageIfAvailable { buffer in
      if let error = firstError(in: buffer, startingIn: mode) { return error }
      forEachKey(in: buffer, startingIn: mode, body)
      return nil
    }
    switch outcome {
    case .some(.some(let error)): throw error
    case .some(.none): return
    case .none: try scan(Array(bytes), startingIn: mode, body)
    }
  }

  /// The canonical key text of `keys`, e.g. `12+3=` or `5ms c 12mr`.
  ///
  /// Keys are written one after the other, with a space between two word keys (`ms c`,
  /// `log yroot`, `pow10 pow2`): easier on a person, and needed to read some text back, since
  /// `logyroot` would read as `logy` and then no key; and after `bitN` before a digit
  /// (`bit1 0`, which `bit10` would misread); and between a word key and a hex digit (`hex FF`).
  /// - Complexity: O(n) in the number of keys.
  /// `references` holds N of each `$N` key, in order.
  package static func text(
    of keys: some Sequence<Key>, references: [Int] = [], formulas: [String] = []
  ) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(keys.underestimatedCount)
    append(keys, references: references, formulas: formulas, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The canonical key text of keys as typed, each `$N` with its N (see ``text(of:)-swift.method``).
  ///
  /// - Complexity: O(n) in the number of keys.
  public static func text(of keys: TypedKeys) -> String {
    text(of: keys, modeBefore: nil)
  }

  /// The canonical key text of keys as typed, applied where `modeBefore` is in force (`nil`:
  /// not known): a formula is written after `fx` unless formula mode is in force before it
  /// (SPEC §12: `fx 1+2*3`), so that the text reads back as the same keys in that mode.
  ///
  /// - Complexity: O(n) in the number of keys.
  package static func text(of keys: TypedKeys, modeBefore: Key.Mode?) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(keys.count)
    append(
      keys.keys, references: keys.references, formulas: keys.formulas, modeBefore: modeBefore,
      to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the canonical key text of `keys` (see ``text(of:)``) to `bytes`; `references` holds
  /// N of each `$N` key, in order (a `$N` without one is written `$`).
  ///
  /// - Complexity: O(n) in the number of keys.
  package static func append(
    _ keys: some Sequence<Key>, references: [Int] = [], formulas: [String] = [],
    modeBefore: Key.Mode? = nil, to bytes: inout [UInt8]
  ) {
    var mode = modeBefore
    // The mode of the key before, when it was a mode key.
    var afterModeKey: Key.Mode?
    // Whether the last key was a word (`pow10` is one, though it ends with digits).
    var endsWithLetter = false
    // Whether the last key was `$N`, whose digits a digit after it would continue (`$3 5`).
    var endsWithReference = false
    // Whether the last key was `bitN`, whose digits a digit after it would continue.
    var endsWithBit = false
    var references = references.makeIterator()
    var formulas = formulas.makeIterator()
    for key in keys {
      if key.hasText {
        // A formula line's text (SPEC §12), or a date line's (§13), after a blank when keys
        // come before it; after `fx` (`date`) unless formula (date) mode is in force (an `fx`
        // right before a formula is read as part of the formula's line, not as a key of its
        // own: `fx fx 5*-2` for both); a word key after it gets a blank too (`3*4.5 m+`).
        let lineMode: Key.Mode = key.isFormula ? .formula : .date
        if !bytes.isEmpty, bytes.last != UInt8(ascii: " ") { bytes.append(UInt8(ascii: " ")) }
        if mode != lineMode || afterModeKey == lineMode {
          bytes.append(contentsOf: (lineMode == .formula ? "fx " : "date ").utf8)
        }
        // Without the blanks that keep a typed formula's columns (``formulaLine(in:startingIn:reusing:)``).
        let text = (formulas.next() ?? "").utf8
        let blank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        let start = text.firstIndex { !blank($0) } ?? text.endIndex
        let end = text.lastIndex { !blank($0) }.map { text.index(after: $0) } ?? start
        bytes.append(contentsOf: text[start..<end])
        (endsWithLetter, endsWithReference, endsWithBit) = (true, false, false)
        mode = lineMode
        afterModeKey = nil
        continue
      }
      afterModeKey = nil
      if case .mode(let next) = key {
        mode = next
        afterModeKey = next
      }
      if case .reference = key {
        bytes.append(UInt8(ascii: "$"))
        if let line = references.next() { bytes.append(contentsOf: String(line).utf8) }
        (endsWithLetter, endsWithReference, endsWithBit) = (false, true, false)
        continue
      }
      let spelling = canonicalBytes[Int(key.code)]
      // A hex digit after a word key gets a space too (`hex FF`, `byte AC`): `hexFF` reads back
      // the same, but a person reads it as one word.
      if endsWithLetter && (isLetter(spelling[0]) || isHexDigitLetter(spelling[0])) {
        bytes.append(UInt8(ascii: " "))
      } else if endsWithBit || endsWithReference, case .digit = key {
        bytes.append(UInt8(ascii: " "))
      }
      endsWithReference = false
      bytes.append(contentsOf: spelling)
      let end = spelling[spelling.count - 1]
      endsWithLetter =
        isLetter(spelling[0])
        && (isLetter(end) || (end >= UInt8(ascii: "0") && end <= UInt8(ascii: "9")))
      if case .programmer(.bit) = key { endsWithBit = true } else { endsWithBit = false }
    }
  }

  @inline(__always)
  static func isLetter(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")
  }

  /// Whether `byte` is `A` through `F`, how Programmer mode's hex digits are spelled.
  @inline(__always)
  static func isHexDigitLetter(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F")
  }

  // MARK: - Internals

  /// What the text at some offset is.
  private enum Token {
    /// A key, spelled with `width` bytes.
    case key(Key, width: Int)
    /// A blank, `width` bytes.
    case blank(width: Int)
    /// A comment: the rest of the line.
    case comment
    /// No key starts here; `hint` says what was probably meant.
    case invalid(hint: String?)
  }

  private static let canonicalBytes: [[UInt8]] = Key.allKeys.map {
    Array($0.canonical.utf8)
  }

  /// The states of the script reader's check for notes, done on the way
  /// (``keys(in:startingIn:writingOver:references:)``).
  ///
  /// The first 128 bytes give each ASCII byte's class (0 a digit, 1 the point, 2–5 the
  /// operators `+ - × ÷`, 6 `=` and `%`, 7 any other key); from 128 on, state × 8 + class gives
  /// the next state.
  ///
  /// A state follows `LineInterpreter.mayNeedNotes` over keys of those classes, for a line that
  /// starts with no operation pending: bit 0 an operator was typed (one is pending), bit 1 a key
  /// may have shown an error, bit 2 the number being typed has a point, bit 3 a digit or point
  /// came after the first operator (which, with an operation pending before the line, may have
  /// shown an error: the check is due then), bit 4 the key before was an operator, bit 5 a `+`
  /// or `−` may be pending (Standard mode's left-to-right note), bit 6 a digit or point was
  /// typed on the line, and 0x80 "look with the check itself" (any other key, or what the check
  /// answers `true` to: a digit or point after a key that may have shown an error, a second
  /// point, an operator right after an operator, a `×` or `÷` while a `+` or `−` may be pending,
  /// a `−` whose left operand may be computed or from before the line). 0x80 stays 0x80.
  static let noteStates: [UInt8] = {
    var table = [UInt8](repeating: 0x80, count: 128 + 256 * 8)
    for byte in 0..<128 {
      let key: Key? = singleByteKeys[byte]
      let kind: UInt8
      switch key {
      case .digit: kind = 0
      case .dot: kind = 1
      case .op(let op): kind = 2 + op.rawValue
      // `%` is to the check what `=` is.
      case .equal, .command(.percent): kind = 6
      case nil, .command(.clear), .command(.clearEntry), .command(.flip), .command(.backspace),
        .unary, .memory, .scientific, .angle, .mode, .programmer, .reference, .formula,
        .dateLine:
        kind = 7
      }
      table[byte] = kind
    }
    for state in 0..<128 {
      let pending = state & 1 != 0
      let mayShowError = state & 2 != 0
      let point = state & 4 != 0
      let afterOperator = state & 8 != 0
      let lastWasOperator = state & 0x10 != 0
      let additive = state & 0x20
      let typed = state & 0x40
      for kind in 0..<8 {
        var next = 0x80
        switch kind {
        case 0:
          if !mayShowError { next = state & 0x0F | (pending ? 8 : 0) | additive | 0x40 }
        case 1:
          if !mayShowError, !point {
            next = state & 0x0B | 4 | (pending ? 8 : 0) | additive | 0x40
          }
        case 2...5:
          let isMinus = kind == 3
          let multiplies = kind >= 4
          if !lastWasOperator, !(isMinus && (pending || mayShowError || typed == 0)),
            !(multiplies && additive != 0)
          {
            let shows = mayShowError || pending
            next =
              1 | (shows ? 2 : 0) | (afterOperator ? 8 : 0) | 0x10 | (multiplies ? 0 : 0x20)
              | typed
          }
        case 6:
          next = (pending ? 1 : 0) | 2 | (afterOperator ? 8 : 0) | additive | typed
        default:
          break
        }
        table[128 + state * 8 + kind] = UInt8(next)
      }
    }
    return table
  }()

  /// What the script reader (``keys(in:startingIn:writingOver:references:)``) looks up for
  /// every byte, in one global: ``singleByteKeys`` and ``noteStates``. Each global's access checks
  /// that it is initialised (`swift_once`, 7 instructions a script line, callgrind).
  /// `nonisolated(unsafe)`: the keys' table is a pointer, written once before the global is
  /// published and only read after.
  nonisolated(unsafe) private static let scanTables: (keys: UnsafePointer<Key?>, states: [UInt8]) =
    (singleByteKeys, noteStates)

  /// The key an ASCII byte that is no letter stands for on its own (`+`, `(`, `!`, …), or nil for
  /// letters, blanks, `#`, bytes that are no key and bytes from 0x80 on (for every byte, so that
  /// the script reader needs no test before its lookup): 256 keys, allocated once and never
  /// freed. Not an array: an array of `Key?` needs its storage class's metadata made at the
  /// first line a process reads, about 8,400 instructions of `calc -k 12+3=`
  /// (Documentation/Performance.md, "Start-up, session 20"). Written once, before the global is
  /// published, and only read after (`nonisolated(unsafe)`).
  nonisolated(unsafe) private static let singleByteKeys: UnsafePointer<Key?> = {
    let table = UnsafeMutablePointer<Key?>.allocate(capacity: 256)
    for byte in 0..<256 {
      (table + byte).initialize(to: byte < 0x80 ? singleByteKey(UInt8(byte)) : nil)
    }
    return UnsafePointer(table)
  }()

  /// The key `byte` stands for on its own when it is no letter: its canonical spelling
  /// (``Key/canonical``), or nil.
  ///
  /// Written out instead of derived from the spellings, so that reading `12+3=` builds no key's
  /// spelling at all: `calc -k 12+3=` then runs none of the standard library's string code that
  /// building them runs, and touches fewer pages (Documentation/Performance.md).
  /// `KeyTextTests.singleByteSpellings` checks every ASCII byte against the canonical spellings.
  private static func singleByteKey(_ byte: UInt8) -> Key? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"):
      .digit(Key.Digit(rawValue: byte - UInt8(ascii: "0"))!)
    case UInt8(ascii: "."): .dot
    case UInt8(ascii: "+"): .op(.plus)
    case UInt8(ascii: "-"): .op(.minus)
    case UInt8(ascii: "*"): .op(.multiply)
    case UInt8(ascii: "/"): .op(.divide)
    case UInt8(ascii: "="): .equal
    case UInt8(ascii: "~"): .command(.flip)
    case UInt8(ascii: "%"): .command(.percent)
    case UInt8(ascii: "<"): .command(.backspace)
    case UInt8(ascii: "@"): .unary(.squareRoot)
    case UInt8(ascii: "("): .scientific(.bracket(.open))
    case UInt8(ascii: ")"): .scientific(.bracket(.close))
    case UInt8(ascii: "^"): .scientific(.binary(.power))
    case UInt8(ascii: "!"): .scientific(.function(.factorial))
    default: nil
    }
  }

  /// Every spelling that starts with a letter (canonical spellings and the alias `ac`), grouped
  /// by first letter and longest first: the one table that maximal munch reads.
  private static let words: [[(spelling: [UInt8], key: Key)]] = {
    var table = [[(spelling: [UInt8], key: Key)]](repeating: [], count: 26)
    var spellings = Key.allKeys.map { (Array($0.canonical.utf8), $0) }
    spellings.append((Array("ac".utf8), .command(.clear)))
    for (spelling, key) in spellings where isLetter(spelling[0]) {
      table[Int(spelling[0] - UInt8(ascii: "a"))].append((spelling, key))
    }
    return table.map { $0.sorted { $0.spelling.count > $1.spelling.count } }
  }()

  /// Whether `bytes` is the start of a key spelled with more bytes and nothing else: `co`
  /// (`cos`), `yro` (`yroot`), `m` (`mc`, `m+`). Case is ignored, as in key text. The REPL's
  /// live display shows the state before such text instead of an error (SPEC §6).
  ///
  /// - Complexity: O(k × s), k the keys starting with the same letter, s ≤ ``lookahead``.
  /// Programmer mode's words count only in Programmer mode (`mode`): in the other modes `x` is
  /// no start of `xor`.
  package static func isUnfinishedSpelling(
    _ bytes: some Collection<UInt8>, mode: Key.Mode = .standard
  ) -> Bool {
    guard let first = bytes.first.map({ $0 | ($0 >= 0x41 && $0 <= 0x5A ? 0x20 : 0) }),
      isLetter(first)
    else { return false }
    let lowered = bytes.map { $0 | ($0 >= 0x41 && $0 <= 0x5A ? 0x20 : 0) }
    if lowered == [UInt8(ascii: "m")] { return true }
    let programmer = mode == .programmer
    return words[Int(first - UInt8(ascii: "a"))].contains { word in
      word.spelling.count > lowered.count && word.spelling.starts(with: lowered)
        && (programmer || !word.key.isProgrammerOnly)
    }
  }

  /// The longest spelling in bytes (`degrees`).
  private static let longestSpelling = Key.allKeys.map(\.canonical.utf8.count)
    .max()!

  /// The token that starts at `index`, which must be below `buffer.count`; in Programmer mode
  /// (`programmer`) an upper-case `A`–`F` is always a hex digit, never part of a word key (SPEC
  /// §10).
  @inline(__always)
  private static func token(
    in buffer: UnsafeBufferPointer<UInt8>, at index: Int, programmer: Bool = false
  ) -> Token {
    let byte = buffer[index]
    guard byte < 0x80 else { return nonASCIIToken(in: buffer, at: index) }
    if programmer, byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "F") {
      return .key(.programmer(.hexDigit(Key.HexDigit(rawValue: byte - 65)!)), width: 1)
    }
    let lower = byte | (byte >= 0x41 && byte <= 0x5A ? 0x20 : 0)
    if let key = singleByteKeys[Int(lower)] { return .key(key, width: 1) }
    switch lower {
    case UInt8(ascii: " "), UInt8(ascii: "\t"): return .blank(width: 1)
    case UInt8(ascii: "#"): return .comment
    case UInt8(ascii: "a")...UInt8(ascii: "z"):
      return wordToken(in: buffer, at: index, lower, programmer: programmer)
    case UInt8(ascii: "$"): return referenceToken(in: buffer, at: index)
    default: return .invalid(hint: nil)
    }
  }

  /// The `nth` `$N` of key text `text` (from 0) as it was typed: `$` and its digits
  /// (`$007`, `$99999999999999999999`); `nil` when there are fewer. Nothing after a `#` (a
  /// comment) counts.
  ///
  /// - Complexity: O(n) in the length of `text`.
  public static func typedReference(_ nth: Int, in text: Substring) -> Substring? {
    var seen = 0
    var index = text.startIndex
    while index < text.endIndex, text[index] != "#" {
      guard text[index] == "$" else {
        index = text.index(after: index)
        continue
      }
      let digits = text[text.index(after: index)...].prefix { $0.isASCII && $0.isNumber }
      if !digits.isEmpty {
        if seen == nth { return text[index..<digits.endIndex] }
        seen += 1
      }
      index = digits.endIndex
    }
    return nil
  }

  /// What `$` with no digit after it gets (SPEC §11).
  package static let referenceHint =
    "$ needs a line number: $3 recalls the value after line 3 (see :lines)"

  /// `$N` at `index`, where a `$` stands: the digits after it, up to the first byte that is no
  /// digit (a blank ends them: `$3 5` is `$3`, then 5); ``referencedLine(in:at:width:)`` reads N.
  private static func referenceToken(in buffer: UnsafeBufferPointer<UInt8>, at index: Int)
    -> Token
  {
    var end = index + 1
    while end < buffer.count, buffer[end] >= UInt8(ascii: "0"), buffer[end] <= UInt8(ascii: "9") {
      end += 1
    }
    guard end > index + 1 else { return .invalid(hint: referenceHint) }
    return .key(.reference, width: end - index)
  }

  /// N of the `$N` token at `index`, `width` bytes (see ``referenceToken(in:at:)``): a number
  /// too large for an `Int` is kept as `Int.max`, a line that never exists.
  private static func referencedLine(
    in buffer: UnsafeBufferPointer<UInt8>, at index: Int, width: Int
  ) -> Int {
    var line = 0
    for offset in (index + 1)..<(index + width) {
      let (times, overflow) = line.multipliedReportingOverflow(by: 10)
      let (sum, carry) = times.addingReportingOverflow(Int(buffer[offset] - UInt8(ascii: "0")))
      line = overflow || carry ? Int.max : sum
    }
    return line
  }

  /// The longest key spelled with letters at `index` (maximal munch), or a memory key `m+`,
  /// `m-`, `m−`; `first` is the byte at `index` in lower case. In Programmer mode no upper-case
  /// `A`–`F` is part of a word.
  private static func wordToken(
    in buffer: UnsafeBufferPointer<UInt8>, at index: Int, _ first: UInt8, programmer: Bool
  ) -> Token {
    candidates: for (spelling, key) in words[Int(first - UInt8(ascii: "a"))] {
      guard index + spelling.count <= buffer.count else { continue }
      for offset in 1..<spelling.count {
        let byte = buffer[index + offset]
        if programmer, byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "F") { continue candidates }
        guard byte | (byte >= 0x41 && byte <= 0x5A ? 0x20 : 0) == spelling[offset] else {
          continue candidates
        }
      }
      return .key(key, width: spelling.count)
    }
    switch first {
    case UInt8(ascii: "m"): return memoryToken(in: buffer, at: index)
    case UInt8(ascii: "a"): return .invalid(hint: "AC is 'c' or 'ac'")
    case UInt8(ascii: "e"):
      return .invalid(hint: eHint)
    default: return .invalid(hint: nil)
    }
  }

  /// What an `e` that starts no key probably meant (SPEC §1): CE, the constant e, or a number
  /// in scientific notation.
  static let eHint =
    "CE is 'ce'; in Scientific mode the constant e is 'euler', and a number in scientific "
    + "notation is typed with exp: sci 1exp40"

  /// `m+`, `m-` or `m−` at `index`, where an `m` stands that starts no word key.
  private static func memoryToken(in buffer: UnsafeBufferPointer<UInt8>, at index: Int) -> Token {
    let hint = "the memory keys are ms, mr, m+, m- and mc"
    switch next(in: buffer, after: index) {
    case UInt8(ascii: "+"): return .key(.memory(.add), width: 2)
    case UInt8(ascii: "-"): return .key(.memory(.subtract), width: 2)
    case 0xE2:
      if index + 1 < buffer.count, let (scalar, width) = scalar(in: buffer, at: index + 1),
        scalar == "\u{2212}"
      {
        return .key(.memory(.subtract), width: 1 + width)
      }
      return .invalid(hint: hint)
    default: return .invalid(hint: hint)
    }
  }

  /// The byte after `index`, case-folded to lowercase for ASCII letters; 0 at the end.
  @inline(__always)
  private static func next(in buffer: UnsafeBufferPointer<UInt8>, after index: Int) -> UInt8 {
    guard index + 1 < buffer.count else { return 0 }
    let byte = buffer[index + 1]
    return byte | (byte >= 0x41 && byte <= 0x5A ? 0x20 : 0)
  }

  /// The keys spelled with a non-ASCII character.
  private static func nonASCIIToken(in buffer: UnsafeBufferPointer<UInt8>, at index: Int) -> Token {
    guard let (scalar, width) = scalar(in: buffer, at: index) else { return .invalid(hint: nil) }
    let key: Key
    switch scalar {
    case "\u{2212}": key = .op(.minus)
    case "×": key = .op(.multiply)
    case "÷": key = .op(.divide)
    case "±": key = .command(.flip)
    case "√": key = .unary(.squareRoot)
    case "²": key = .unary(.square)
    case "³": key = .scientific(.function(.cube))
    case "∛": key = .scientific(.function(.cubeRoot))
    case "π": key = .scientific(.constant(.pi))
    default: return .invalid(hint: nil)
    }
    return .key(key, width: width)
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

  /// How far text that may be only the start of a line is known to be key text: for a reader
  /// that checks a long line while it is still arriving.
  package enum PrefixVerdict: Equatable, Sendable {
    /// Every byte before `checkedUpTo` is keys or blanks, whatever follows; the bytes after it
    /// need more input to decide.
    case undecided(checkedUpTo: Int)
    /// A comment starts at this offset: nothing after it can be wrong.
    case comment(at: Int)
    /// The character at this offset is no key, whatever follows it.
    case invalid(at: Int)
  }

  /// The most bytes a token's meaning depends on, counted from its first byte: the longest
  /// spelling (`degrees`), and one more.
  static let lookahead = longestSpelling + 1

  /// Checks `buffer` from `start`, which must be a token boundary (0, or a `checkedUpTo` of an
  /// earlier verdict on a prefix of the same line), deciding only tokens whose bytes have all
  /// arrived: `c` at the end may be the start of `ce`, `m` of `ms`, `\r` of a line end, a lead
  /// byte of a longer character.
  ///
  /// A verdict on a prefix never contradicts the whole line: an `.invalid(at:)` offset is where
  /// ``scan(_:_:)`` of any line that starts with `buffer` fails.
  /// - Complexity: O(n) in the bytes after `start`.
  package static func checkPrefix(
    _ buffer: UnsafeBufferPointer<UInt8>, from start: Int,
    startingIn mode: Key.Mode = .standard
  ) -> PrefixVerdict {
    var index = start
    var programmer = mode == .programmer
    while index + lookahead <= buffer.count {
      switch token(in: buffer, at: index, programmer: programmer) {
      case .key(let key, let width):
        if case .mode(let mode) = key { programmer = mode == .programmer }
        index += width
      case .blank(let width): index += width
      case .comment: return .comment(at: index)
      case .invalid: return .invalid(at: index)
      }
    }
    return .undecided(checkedUpTo: index)
  }

  private static func firstError(
    in buffer: UnsafeBufferPointer<UInt8>, startingIn mode: Key.Mode
  ) -> KeyTextError? {
    var index = 0
    var programmer = mode == .programmer
    while index < buffer.count {
      switch token(in: buffer, at: index, programmer: programmer) {
      case .key(let key, let width):
        if case .mode(let mode) = key { programmer = mode == .programmer }
        index += width
      case .blank(let width): index += width
      case .comment: return nil
      case .invalid(let hint): return KeyTextError(buffer: buffer, offset: index, hint: hint)
      }
    }
    return nil
  }

  /// The keys of `buffer` (UTF-8), in one pass; throws for the first character that is no key.
  ///
  /// The keys are gathered before they are returned, so a bad line never yields part of its
  /// keys, without the second pass that ``scan(_:_:)`` makes to call its body only for valid
  /// text.
  /// - Complexity: O(n) in the number of bytes.
  package static func keys(
    in buffer: UnsafeBufferPointer<UInt8>, startingIn mode: Key.Mode = .standard
  ) throws(KeyTextError) -> TypedKeys {
    var storage: [Key] = []
    return try keys(in: buffer, startingIn: mode, reusing: &storage)
  }

  /// The keys of `buffer` (UTF-8), as ``keys(in:startingIn:)-(UnsafeBufferPointer<UInt8>,_)``
  /// gives them, gathered in the memory of `storage`, which holds them afterwards.
  ///
  /// A caller that reads line after line (a script) keeps one allocation for all of them, as
  /// long as it has let go of the keys of the line before (else `storage` is copied on write,
  /// as any array is); the room of a line of more than 4,096 keys is not kept.
  /// - Complexity: O(n) in the number of bytes.
  package static func keys(
    in buffer: UnsafeBufferPointer<UInt8>, startingIn mode: Key.Mode = .standard,
    reusing storage: inout [Key]
  ) throws(KeyTextError) -> TypedKeys {
    if let formulaLine = try formulaLine(in: buffer, startingIn: mode, reusing: &storage) {
      return formulaLine
    }
    return try plainKeys(in: buffer, startingIn: mode, reusing: &storage)
  }

  /// The keys of `buffer` read as key text alone, with no formula-mode line
  /// (``formulaLine(in:startingIn:reusing:)``): the rest of
  /// ``keys(in:startingIn:reusing:)``.
  ///
  /// - Complexity: O(n) in the number of bytes.
  static func plainKeys(
    in buffer: UnsafeBufferPointer<UInt8>, startingIn mode: Key.Mode,
    reusing storage: inout [Key]
  ) throws(KeyTextError) -> TypedKeys {
    if storage.capacity > 4_096 {
      storage = []
    } else {
      storage.removeAll(keepingCapacity: true)
    }
    storage.reserveCapacity(min(buffer.count, 64))
    var references: [Int] = []
    // Digits and operators, most of a script's bytes, straight from the table, looked up once
    // a line (a global's every access checks that it is initialised).
    let singleBytes = singleByteKeys
    var index = 0
    var programmer = mode == .programmer
    while index < buffer.count {
      let byte = buffer[index]
      if byte < 0x80, let key = singleBytes[Int(byte)] {
        storage.append(key)
        index += 1
        continue
      }
      switch token(in: buffer, at: index, programmer: programmer) {
      case .key(let key, let width):
        if case .mode(let mode) = key { programmer = mode == .programmer }
        if case .reference = key {
          references.append(referencedLine(in: buffer, at: index, width: width))
        }
        storage.append(key)
        index += width
      case .blank(let width): index += width
      case .comment: return TypedKeys(storage, references: references)
      case .invalid(let hint): throw KeyTextError(buffer: buffer, offset: index, hint: hint)
      }
    }
    return TypedKeys(storage, references: references)
  }

  /// The keys of `buffer` (UTF-8), as ``keys(in:startingIn:)-(UnsafeBufferPointer<UInt8>,_)``
  /// reads them, written over the start of `storage`, with N of each `$N` in `references`:
  /// returns how many keys there are (the keys are `storage[..<count]`), whether the line ends
  /// in a comment, and whether a key was spelled with more than one byte or with a byte that
  /// is no key alone (a word such as `sci`, `$N`, `×`; false for digits and operators alone, so
  /// that a caller knows without looking that no mode key is among them); and whether the keys
  /// may need the interpreter's notes (CalcCore's `LineInterpreter.mayNeedNotes`), with no
  /// operation pending before the line and with one: `false` is exact, `true` means "look"
  /// (``noteStates``, one lookup a byte).
  ///
  /// For a caller that reads line after line (a script): `storage` only grows, to the longest
  /// line's length in bytes, and no key is appended one at a time (an append a key, and
  /// emptying the array a line, cost more than reading the keys). The keys past `count` are
  /// left over from earlier lines. On text that is no key, `storage` may hold part of its keys.
  /// - Complexity: O(n) in the number of bytes.
  package static func keys(
    in buffer: UnsafeBufferPointer<UInt8>, startingIn mode: Key.Mode,
    writingOver storage: inout [Key], references: inout [Int]
  ) throws(KeyTextError) -> (
    count: Int, hasComment: Bool, hasWords: Bool, mayNeedNotes: (ifIdle: Bool, ifPending: Bool)
  ) {
    if !references.isEmpty { references.removeAll(keepingCapacity: true) }
    guard let bytes = buffer.baseAddress, !buffer.isEmpty else {
      return (0, false, false, (true, true))
    }
    if storage.count < buffer.count {
      storage.append(contentsOf: repeatElement(.dot, count: buffer.count - storage.count))
    }
    // Digits and operators, most of a script's bytes, straight from the table, looked up once
    // a line (a global's every access checks that it is initialised).
    let (singleBytes, states) = scanTables
    var failure: KeyTextError?
    var hasComment = false
    var hasWords = false
    // The check for notes on the way (``noteStates``): one lookup a byte.
    var noteState: UInt8 = 0
    let end = buffer.count
    let count = storage.withUnsafeMutableBufferPointer { keys in
      states.withUnsafeBufferPointer { states in
        let out = keys.baseAddress!
        var written = 0
        var index = 0
        var programmer = mode == .programmer
        while index < end {
          let stop = readSingleByteKeys(
            bytes, from: index, to: end, into: out + written, table: singleBytes,
            states: states.baseAddress!, noteState: &noteState)
          written &+= stop &- index
          index = stop
          guard index < end else { break }
          switch token(in: buffer, at: index, programmer: programmer) {
          case .key(let key, let width):
            hasWords = true
            noteState = 0x80
            if case .mode(let mode) = key { programmer = mode == .programmer }
            if case .reference = key {
              references.append(referencedLine(in: buffer, at: index, width: width))
            }
            out[written] = key
            written &+= 1
            index &+= width
          case .blank(let width): index &+= width
          case .comment:
            hasComment = true
            return written
          case .invalid(let hint):
            failure = KeyTextError(buffer: buffer, offset: index, hint: hint)
            return 0
          }
        }
        return written
      }
    }
    if let failure { throw failure }
    if noteState & 0x80 != 0 {
      return (count, hasComment, hasWords, (true, true))
    }
    // In a line longer than an entry's digits, a run of more digits and points than that is
    // looked at by the check itself (its keys are digits, points, operators and `=` here).
    if count > Entry.maximumDigits, hasLongRun(buffer, classes: states) {
      return (count, hasComment, hasWords, (true, true))
    }
    // With an operation pending before the line, its first operator computes it (and a `×`
    // may compute a `+` left to right): the check is due once an operator was typed.
    return (count, hasComment, hasWords, (false, noteState & 9 != 0))
  }

  /// Reads the keys of single bytes (``scanTables``) of `bytes` from `start` on, as far as they
  /// go and at most to `end`, into `out` (a key a byte), taking `noteState` along
  /// (``noteStates``); returns where they stopped.
  ///
  /// Its own small loop, not inlined: within the reader's loop the compiler kept the tables on
  /// the stack and read them again at every byte (17 instructions a byte; 13 here, callgrind
  /// on `123.45*6.7=`).
  /// - Complexity: O(n) in the bytes read.
  @inline(never)
  private static func readSingleByteKeys(
    _ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int,
    into out: UnsafeMutablePointer<Key>,
    table: UnsafePointer<Key?>, states: UnsafePointer<UInt8>,
    noteState: inout UInt8
  ) -> Int {
    var index = start
    var next = out
    var state = noteState
    while index < end {
      let byte = bytes[index]
      // No key from 0x80 on: the table's second half is empty.
      guard let key = table[Int(byte)] else { break }
      next.initialize(to: key)
      next += 1
      state = states[128 &+ Int(state) &* 8 &+ Int(states[Int(byte)])]
      index &+= 1
    }
    noteState = state
    return index
  }

  /// Whether `buffer`, key text whose keys are digits, points, operators, `=` and `%` (the
  /// reader's check found nothing else), holds a run of more than an entry's digits of digits
  /// and points, as CalcCore's `LineInterpreter.mayNeedNotes(long:)` counts them: blanks do not
  /// end a run, and a comment ends the text. An operator, `=` or `%` ends a run (the check
  /// counts on past `%`, but no digit or point can follow one in such a line: the reader's
  /// check would have said "look").
  ///
  /// - Complexity: O(n) in the number of bytes.
  private static func hasLongRun(_ buffer: UnsafeBufferPointer<UInt8>, classes: [UInt8]) -> Bool {
    classes.withUnsafeBufferPointer { classes in
      var run = 0
      for byte in buffer {
        // A byte of a blank of more than one byte.
        if byte >= 0x80 { continue }
        switch classes[Int(byte)] {
        case 0, 1:
          run &+= 1
          if run > Entry.maximumDigits { return true }
        case 7:
          // No key: a blank, or the comment's `#`.
          if byte == UInt8(ascii: "#") { return false }
        default:
          run = 0
        }
      }
      return false
    }
  }

  /// The 1-based column (counted in Unicode scalars) of each key of `buffer`, valid key text, in
  /// order: for messages about a key. The empty list for text that is not key text.
  ///
  /// - Complexity: O(n) in the number of bytes.
  package static func columns(
    in buffer: UnsafeBufferPointer<UInt8>, startingIn mode: Key.Mode = .standard
  ) -> [Int] {
    var columns: [Int] = []
    var index = 0
    var column = 1
    var programmer = mode == .programmer
    func advance(_ width: Int) {
      // A UTF-8 continuation byte starts no column.
      for offset in index..<(index + width) where buffer[offset] & 0xC0 != 0x80 { column += 1 }
      index += width
    }
    while index < buffer.count {
      switch token(in: buffer, at: index, programmer: programmer) {
      case .key(let key, let width):
        if case .mode(let mode) = key { programmer = mode == .programmer }
        columns.append(column)
        advance(width)
      case .blank(let width): advance(width)
      case .comment: return columns
      case .invalid: return []
      }
    }
    return columns
  }

  /// Calls `body` for each key of text already known to be valid.
  private static func forEachKey(
    in buffer: UnsafeBufferPointer<UInt8>, startingIn mode: Key.Mode,
    _ body: (Key) -> Void
  ) {
    var index = 0
    var programmer = mode == .programmer
    while index < buffer.count {
      switch token(in: buffer, at: index, programmer: programmer) {
      case .key(let key, let width):
        if case .mode(let mode) = key { programmer = mode == .programmer }
        body(key)
        index += width
      case .blank(let width): index += width
      case .comment, .invalid: return
      }
    }
  }
}

extension KeyText {
  /// What people type first, and what to type instead (SPEC §1): the one table of guesses, so
  /// that the REPL, scripts and `--keys` give the same hint. Words are matched whole, in any
  /// case, as the run of ASCII letters around the rejected character.
  static let wordGuesses: [String: String] = {
    var table = [
      "x": "× is '*'",
      "sqrt": "√ is '@', after its number: 16@",
      "ans": "the display already holds the last result",
      "last": "the display already holds the last result",
      "clear": "AC is 'c'",
    ]
    for command in commandWords { table[command] = "commands start with ':', as in :\(command)" }
    return table
  }()

  /// The REPL's commands that a person may type without their `:` (the bare words `help`, `quit`
  /// and `exit` need none): ``CommandName/hintedWords``.
  package static var commandWords: [String] { CommandName.hintedWords }

  /// Guesses for characters that are no key, whatever surrounds them.
  static let characterGuesses: [UInt8: String] = [
    UInt8(ascii: ","): "key text uses '.' for the decimal point"
  ]

  /// What was probably meant by the text around `offset`, where a key was rejected: a word of
  /// ``wordGuesses`` that holds the offset, or a character of ``characterGuesses``; `nil` when
  /// nothing is known. Looked at only once a line has failed.
  static func guess(in buffer: UnsafeBufferPointer<UInt8>, at offset: Int) -> String? {
    func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    if isLetter(buffer[offset]) {
      var start = offset
      while start > 0, isLetter(buffer[start - 1]) { start -= 1 }
      var end = offset
      while end < buffer.count, isLetter(buffer[end]) { end += 1 }
      let word = String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self)
        .lowercased()
      return wordGuesses[word]
    }
    return characterGuesses[buffer[offset]]
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
  package let isInvalidUTF8: Bool
  /// What was probably meant, for characters that come close to a key (`e`, `m`, `a`).
  public let hint: String?
  /// The whole message of a formula-mode line's error (SPEC §12), which is no unknown key;
  /// `nil` for key text's errors.
  package var message: String? = nil

  /// `unknown key '!' at column 4`, `unknown key 'x' at column 2 (× is '*')`, or
  /// `invalid UTF-8 byte \x{FF} at column 2` (`… at column 9 (in the note)`: a note's).
  public var description: String {
    if let message { return message }
    if isInvalidUTF8 {
      let base = "invalid UTF-8 byte \(character) at column \(column)"
      return hint.map { base + " (\($0))" } ?? base
    }
    let base = "unknown key '\(character)' at column \(column)"
    return hint.map { base + " (\($0))" } ?? base
  }

  /// An error for `character`, already escaped as ``character`` shows it, at the 1-based
  /// `column`.
  package init(character: String, column: Int, isInvalidUTF8: Bool = false, hint: String? = nil) {
    self.character = character
    self.column = column
    self.isInvalidUTF8 = isInvalidUTF8
    self.hint = hint
  }

  /// A formula-mode line's error (SPEC §12): `message` at the 1-based `column`.
  package init(message: String, column: Int) {
    self.init(character: "", column: column)
    self.message = message
  }

  /// The error for the first byte of `buffer[range]` that is not UTF-8, at its column in
  /// `buffer` (counted in characters), said to be in `what` (`the note`): `invalid UTF-8 byte
  /// \x{FF} at column 9 (in the note)`; `nil` when the range is UTF-8.
  ///
  /// - Complexity: O(n) in the length of the range.
  static func firstInvalidUTF8(
    in buffer: UnsafeBufferPointer<UInt8>, range: Range<Int>, of what: String
  ) -> KeyTextError? {
    var offset = range.lowerBound
    while offset < range.upperBound {
      if buffer[offset] < 0x80 {
        offset += 1
      } else if let (_, width) = KeyText.scalar(in: buffer, at: offset),
        offset + width <= range.upperBound
      {
        offset += width
      } else {
        let hex = String(buffer[offset], radix: 16, uppercase: true)
        let column = String(decoding: buffer[..<offset], as: UTF8.self).count + 1
        return KeyTextError(
          character: "\\x{\(hex)}", column: column, isInvalidUTF8: true, hint: "in \(what)")
      }
    }
    return nil
  }

  fileprivate init(buffer: UnsafeBufferPointer<UInt8>, offset: Int, hint: String?) {
    let hint = KeyText.guess(in: buffer, at: offset) ?? hint
    let column = String(decoding: buffer[..<offset], as: UTF8.self).count + 1
    if buffer[offset] >= 0x80, KeyText.scalar(in: buffer, at: offset) == nil {
      let hex = String(buffer[offset], radix: 16, uppercase: true)
      self.init(character: "\\x{\(hex)}", column: column, isInvalidUTF8: true)
    } else {
      // A grapheme is at most a few dozen bytes in any real text; a cut scalar after it is harmless.
      let first = String(decoding: buffer[offset...].prefix(64), as: UTF8.self).first!
      self.init(character: TextEscaping.escaped(String(first)), column: column, hint: hint)
    }
  }
}

/// Escaping of text that is echoed back to a person.
package enum TextEscaping {
  /// `text` with control characters and other invisible scalars written as `\u{1B}`, so that an
  /// echoed message can never drive the terminal.
  ///
  /// - Complexity: O(n) in the length of `text`.
  package static func escaped(_ text: String) -> String {
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

  /// `text` escaped as by ``escaped(_:)``, except that its line breaks (`\n`) are kept: for
  /// messages of several lines, such as a usage error.
  package static func escapedKeepingNewlines(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { escaped(String($0)) }
      .joined(separator: "\n")
  }

  /// Controls, format characters (zero-width and bidi controls, U+FEFF), separators other than
  /// the space (U+00A0, U+202F, U+2028), other default-ignorable characters, private-use and
  /// unassigned scalars: whatever a person could not see or that could drive the terminal.
  private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
    if scalar == " " { return false }
    if scalar.properties.isDefaultIgnorableCodePoint { return true }
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator, .spaceSeparator, .privateUse,
      .surrogate, .unassigned:
      return true
    default:
      return false
    }
  }
}
