/// One line of a calc script or of REPL input, split into what it is: the one parser of the
/// line grammar, shared by scripts, the REPL, its completion and `:load`.
///
/// A line whose first character after blanks (spaces, tabs) is `:` is a command: a name up to
/// the next blank, then an argument, the rest of the line without surrounding blanks and
/// without a comment (a `#` at its start or after a blank). The bare words `help`, `quit` and
/// `exit` (in any case, alone on the line but for blanks and a comment) are the commands of the
/// same names: no key text can hold them. Any other line is key text (``KeyText``); key text
/// without keys (empty, blanks, a comment) is a blank line.
package enum ScriptLine: Hashable, Sendable {
  /// Nothing to do: empty, blanks, or a comment.
  case blank
  /// A line of keys, at least one.
  case keys(TypedKeys)
  /// A `:command` (a directive), not yet checked against the commands that exist.
  case directive(Directive)

  /// A command line's parts, with their 1-based columns (counted in characters) for messages.
  package struct Directive: Hashable, Sendable {
    /// The name after the `:`, e.g. `goto`; empty for a lone `:`.
    package let name: String
    /// The column of the `:`.
    package let column: Int
    /// The argument: the rest of the line, trimmed, without a trailing comment; may be empty.
    package let argument: String
    /// The argument exactly as it came, which need not be UTF-8: a file name is passed to the
    /// system byte for byte.
    package let argumentBytes: [UInt8]
    /// The column where the argument starts (or would start).
    package let argumentColumn: Int
    /// The line's trailing comment, blanks trimmed (empty for a `#` alone), without a journal's
    /// checksum; `nil` without one, and for the commands whose text is taken whole.
    package var comment: String? = nil
    /// The first byte of ``comment`` that is not UTF-8 (``comment`` shows it as U+FFFD), as
    /// the error of a note (``note()``); `nil` when the comment is UTF-8 or there is none.
    package var commentError: KeyTextError? = nil
    /// The mode the argument's key text is read in (`:edit L KEYS`, `:insert`, `:vary`): the
    /// mode in force where the keys apply (``readingKeys(in:)``); Standard until set.
    package var keyMode = Key.Mode.standard

    /// A command with the given parts.
    package init(name: String, column: Int = 1, argument: String = "", argumentColumn: Int? = nil) {
      self.init(
        name: name, column: column, argumentBytes: Array(argument.utf8),
        argumentColumn: argumentColumn)
    }

    /// A command whose argument is given as bytes.
    package init(name: String, column: Int = 1, argumentBytes: [UInt8], argumentColumn: Int? = nil)
    {
      self.name = name
      self.column = column
      self.argument = String(decoding: argumentBytes, as: UTF8.self)
      self.argumentBytes = argumentBytes
      self.argumentColumn = argumentColumn ?? column + name.count + 2
    }
  }

  /// Parses `line` (UTF-8, without its newline), key text read in `mode` (upper-case `A`–`F`
  /// are hex digits in Programmer mode); throws for key text that holds a character that is no
  /// key.
  ///
  /// - Complexity: O(n) in the length of the line.
  package init(
    _ line: UnsafeBufferPointer<UInt8>, mode: Key.Mode = .standard
  ) throws(KeyTextError) {
    var storage: [Key] = []
    try self.init(line, mode: mode, reusing: &storage)
  }

  /// Parses `line` as ``init(_:mode:)-(UnsafeBufferPointer<UInt8>,_)`` does, gathering its
  /// keys in the memory of `storage` (``KeyText/keys(in:startingIn:reusing:)``): one allocation
  /// for a script's lines.
  ///
  /// - Complexity: O(n) in the length of the line.
  package init(
    _ line: UnsafeBufferPointer<UInt8>, mode: Key.Mode = .standard,
    reusing storage: inout [Key]
  ) throws(KeyTextError) {
    let index = ScriptLine.firstNonBlank(line)
    if index < line.count, line[index] == UInt8(ascii: ":") {
      self = .directive(ScriptLine.directive(line))
      return
    }
    let keys: TypedKeys
    do {
      keys = try KeyText.keys(in: line, startingIn: mode, reusing: &storage)
    } catch {
      // Checked only once the line failed as keys, so that key lines pay nothing for it.
      guard let word = ScriptLine.bareWord(line, from: index) else { throw error }
      self = .directive(word)
      return
    }
    self = keys.isEmpty ? .blank : .keys(keys)
  }

  /// Whether `line` is a command line: its first character after blanks is `:`. A reader can
  /// tell from the start of a line, before the rest has arrived.
  package static func isCommand(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    let index = firstNonBlank(line)
    return index < line.count && line[index] == UInt8(ascii: ":")
  }

  /// A check of a line that is still arriving, a piece at a time, so that a reader can refuse a
  /// bad long line at its first bad character instead of reading all of it (`/dev/zero`).
  ///
  /// It rejects only at a byte that is bad whatever follows: a key whose spelling may go on
  /// (`c`|`e`, `m`|`s`, `a`|`c`), a character cut between reads, a `\r` that may end the line and
  /// a word that may still be a bare command (`help`) all wait for more input. A command line
  /// (`:`…) and the rest of a line after a comment are left to the parser. Each byte is looked at
  /// a bounded number of times, so checking a line as it grows costs O(n) in all.
  package struct PrefixCheck: Sendable {
    /// Where the next token to decide starts.
    private var checked = 0
    /// The offset of the line's first character after blanks, once it has arrived.
    private var start: Int?
    /// How many leading blanks have been seen while ``start`` is unknown.
    private var blanks = 0
    /// The line is a command, or a comment has started: nothing more to check.
    private var isDone = false
    /// Set when a key error was found in a line that may still be a bare word: the error's
    /// offset, and where the blanks after the word are still being read.
    private var pendingBareWord: (error: Int, blanksFrom: Int)?
    /// Where the next token to decide starts in Programmer mode's reading, and whether that
    /// reading has failed: the reader does not know the session's mode, so a line is refused
    /// early only when it is bad in both readings (SPEC §10: `FF` is keys in Programmer mode).
    private var programmerChecked = 0
    private var programmerFailed = false
    /// Where the next byte to decide starts in a formula's reading (SPEC §12: formula mode, or
    /// after `fx`), and whether that reading has failed.
    private var formulaChecked = 0
    private var formulaFailed = false
    /// The formula reading's word being read (letters, and digits after a letter), lower case.
    private var formulaWord: [UInt8] = []
    /// The formula reading's number: whether the byte before was a digit or a point of one,
    /// and the digits of an exponent (`1.5e-3`) read so far, `-1` outside one, `-2` right after
    /// its `e`, `-3` after its sign.
    private var formulaAfterNumber = false
    private var formulaExponent = -1
    /// Where the next byte to decide starts in a date line's reading (SPEC §13: date mode, or
    /// after `date`), whether that reading has failed, and the letters of its word so far.
    private var dateChecked = 0
    private var dateFailed = false
    private var dateWord: [UInt8] = []

    /// A check of a line that has not started yet.
    package init() {}

    /// The offset of a character in `prefix` (the part of a line that has arrived; each call
    /// passes a longer prefix of the same line) that is no key whatever follows it, or `nil`
    /// while nothing is known to be wrong.
    ///
    /// - Complexity: O(k) in the bytes that arrived since the last call, amortised.
    package mutating func rejection(in prefix: UnsafeBufferPointer<UInt8>) -> Int? {
      guard !isDone else { return nil }
      let first: Int
      if let known = start {
        first = known
      } else {
        // Blanks before the first character are looked at once, however many calls they span.
        while blanks < prefix.count,
          prefix[blanks] == UInt8(ascii: " ") || prefix[blanks] == UInt8(ascii: "\t")
        {
          blanks += 1
        }
        guard blanks < prefix.count else { return nil }
        first = blanks
        start = first
        if prefix[first] == UInt8(ascii: ":") {
          isDone = true
          return nil
        }
        checked = first
      }
      if let pending = pendingBareWord { return bareWordRejection(in: prefix, pending) }
      switch KeyText.checkPrefix(prefix, from: checked) {
      case .undecided(let upTo):
        checked = upTo
        return nil
      case .comment:
        isDone = true
        return nil
      case .invalid(let offset):
        checked = offset
        if !programmerFailed {
          if programmerChecked < first { programmerChecked = first }
          switch KeyText.checkPrefix(prefix, from: programmerChecked, startingIn: .programmer) {
          case .undecided(let upTo):
            programmerChecked = upTo
            return nil
          case .comment:
            isDone = true
            return nil
          case .invalid:
            programmerFailed = true
          }
        }
        if !formulaFailed {
          if formulaChecked < first { formulaChecked = first }
          switch formulaPrefix(prefix) {
          case nil: return nil
          case true?:
            isDone = true
            return nil
          case false?: formulaFailed = true
          }
        }
        if !dateFailed {
          if dateChecked < first { dateChecked = first }
          switch datePrefix(prefix) {
          case nil: return nil
          case true?:
            isDone = true
            return nil
          case false?: dateFailed = true
          }
        }
        guard let end = ScriptLine.bareWordEnd(prefix, from: first) else { return offset }
        return bareWordRejection(in: prefix, (offset, end))
      }
    }

    /// The words a formula line may hold (SPEC §12): the names, the mode keys, and the keys that
    /// formula mode's keypad takes alone (`m` for `m+` and `m-`).
    private static let formulaWords: [[UInt8]] =
      (Formula.functionNames + Formula.otherNames
      + [
        "std", "sci", "prog", "fx", "date", "c", "ac", "ce", "fe", "mc", "ms", "m", "deg", "rad",
        "grad",
      ]).map { Array($0.utf8) }

    /// Reads the prefix on from ``formulaChecked`` as a formula line may be written (SPEC
    /// §12): `true` at a `#` (its note: nothing more to check), `false` at a byte no formula
    /// holds there (a control character, `@`, a letter that makes a word no name starts with,
    /// a fifth exponent digit), `nil` while the line may still be a formula line.
    ///
    /// - Complexity: O(k) in the bytes after ``formulaChecked``.
    private mutating func formulaPrefix(_ prefix: UnsafeBufferPointer<UInt8>) -> Bool? {
      func isName(_ word: [UInt8], whole: Bool) -> Bool {
        PrefixCheck.formulaWords.contains { whole ? $0 == word : $0.starts(with: word) }
      }
      while formulaChecked < prefix.count {
        let byte = prefix[formulaChecked]
        let lower = byte | 0x20
        let isLetter = lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")
        let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        if isDigit, formulaExponent != -1 {
          // An exponent's digit: at most 4 (its `e` was no word, then).
          formulaExponent = max(formulaExponent, 0) + 1
          formulaWord = []
          if formulaExponent > 4 { return false }
        } else if isLetter || (isDigit && !formulaWord.isEmpty) {
          if lower == UInt8(ascii: "e"), formulaAfterNumber, formulaWord.isEmpty {
            formulaExponent = -2
          } else {
            formulaExponent = -1
          }
          formulaWord.append(isLetter ? lower : byte)
          if formulaWord.count > 8 || !isName(formulaWord, whole: false) { return false }
          formulaAfterNumber = false
        } else {
          // A word that ends must be a whole name (an exponent's `e` is one: Euler's number).
          if !formulaWord.isEmpty, !isName(formulaWord, whole: true) { return false }
          let sign = byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
          formulaExponent = formulaExponent == -2 && sign ? -3 : -1
          formulaWord = []
          formulaAfterNumber = isDigit || byte == UInt8(ascii: ".")
          switch byte {
          case UInt8(ascii: "#"): return true
          case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: " "), UInt8(ascii: "\t"),
            UInt8(ascii: "\r"), UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-"),
            UInt8(ascii: "*"), UInt8(ascii: "/"), UInt8(ascii: "^"), UInt8(ascii: "!"),
            UInt8(ascii: "%"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: ","),
            UInt8(ascii: ";"), UInt8(ascii: "$"), UInt8(ascii: "="),
            // The bytes of π, ×, ÷, √, ∛ and −: their lead bytes and continuation bytes.
            0xC3, 0xCF, 0xE2, 0x80...0xBF:
            break
          default: return false
          }
        }
        formulaChecked += 1
      }
      return nil
    }

    /// The words a date line may hold (SPEC §13): `to`, `today`, `in` and its units, the
    /// offset units, `mr`, and `date` before the line.
    private static let dateWords: [[UInt8]] =
      ["to", "today", "in", "h", "min", "s", "d", "w", "y", "m", "mr", "date"].map {
        Array($0.utf8)
      }

    /// Reads the prefix on from ``dateChecked`` as a date line may be written (SPEC §13):
    /// `true` at a `#` (its note), `false` at a byte no date line holds there (a control
    /// character, `@`, `=`, a letter that makes a word no date word starts with), `nil` while
    /// the line may still be a date line.
    ///
    /// - Complexity: O(k) in the bytes after ``dateChecked``.
    private mutating func datePrefix(_ prefix: UnsafeBufferPointer<UInt8>) -> Bool? {
      func isWord(_ word: [UInt8], whole: Bool) -> Bool {
        PrefixCheck.dateWords.contains { whole ? $0 == word : $0.starts(with: word) }
      }
      while dateChecked < prefix.count {
        let byte = prefix[dateChecked]
        let lower = byte | 0x20
        if lower >= UInt8(ascii: "a"), lower <= UInt8(ascii: "z") {
          dateWord.append(lower)
          if !isWord(dateWord, whole: false) { return false }
        } else {
          if !dateWord.isEmpty, !isWord(dateWord, whole: true) { return false }
          dateWord = []
          switch byte {
          case UInt8(ascii: "#"): return true
          case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: " "), UInt8(ascii: "\t"),
            UInt8(ascii: "\r"), UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-"),
            UInt8(ascii: "*"), UInt8(ascii: "/"), UInt8(ascii: "("), UInt8(ascii: ")"),
            UInt8(ascii: ":"), UInt8(ascii: "$"),
            // The bytes of ×, ÷ and −: their lead bytes and continuation bytes.
            0xC3, 0xE2, 0x80...0xBF:
            break
          default: return false
          }
        }
        dateChecked += 1
      }
      return nil
    }

    /// Reads on after a word that may be a bare command: blanks keep it possible, a comment
    /// after them settles it, anything else makes the key error final.
    private mutating func bareWordRejection(
      in prefix: UnsafeBufferPointer<UInt8>, _ pending: (error: Int, blanksFrom: Int)
    ) -> Int? {
      var index = pending.blanksFrom
      if index < 0 {
        // The word itself was still arriving (`hel`).
        guard let end = ScriptLine.bareWordEnd(prefix, from: start ?? 0) else {
          return pending.error
        }
        guard end >= 0 else {
          pendingBareWord = pending
          return nil
        }
        index = end
      }
      // The byte after the word is a blank (see ``bareWordEnd``), so a `#` here starts a comment.
      scan: while index < prefix.count {
        switch prefix[index] {
        case UInt8(ascii: " "), UInt8(ascii: "\t"): index += 1
        case UInt8(ascii: "#"):
          isDone = true
          return nil
        case UInt8(ascii: "\r") where index == prefix.count - 1:
          break scan  // it may be the `\r` of a `\r\n` line end
        default: return pending.error
        }
      }
      pendingBareWord = (pending.error, index)
      return nil
    }
  }

  /// Whether the line whose first non-blank byte is at `start` may still be a bare word: `nil`
  /// if not; the offset of the blank after the word when the whole word has arrived; -1 while
  /// the word may still be arriving (`he`, `quit\r`).
  private static func bareWordEnd(_ prefix: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    // The longest bare word, and a `\r` that may end the line after it.
    let limit = 5
    var end = start
    while end < prefix.count, end - start <= limit, prefix[end] != UInt8(ascii: " "),
      prefix[end] != UInt8(ascii: "\t"), prefix[end] != UInt8(ascii: "#")
    {
      end += 1
    }
    guard end - start <= limit else { return nil }
    var word = String(decoding: UnsafeBufferPointer(rebasing: prefix[start..<end]), as: UTF8.self)
      .lowercased()
    if end == prefix.count {
      if word.hasSuffix("\r") { word.removeLast() }
      return bareWords.contains { $0.hasPrefix(word) } ? -1 : nil
    }
    // `help#…` is no bare word: a comment needs a blank before it.
    guard bareWords.contains(word), prefix[end] != UInt8(ascii: "#") else { return nil }
    return end
  }

  /// The offset of the first byte of `line` that is not a blank (space, tab), or its length.
  private static func firstNonBlank(_ line: UnsafeBufferPointer<UInt8>) -> Int {
    line.firstIndex { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") } ?? line.count
  }

  /// The words that work without a `:`.
  package static let bareWords: Set<String> = ["help", "quit", "exit"]

  /// The command a line spells as a bare word (``bareWords``) starting at `start`, if it does.
  private static func bareWord(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Directive? {
    func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    var end = start
    while end < line.count, !isBlank(line[end]), line[end] != UInt8(ascii: "#") { end += 1 }
    var rest = end
    while rest < line.count, isBlank(line[rest]) { rest += 1 }
    // Only a comment may follow, after a blank (`quit  # done`).
    guard rest == line.count || (line[rest] == UInt8(ascii: "#") && rest > end) else { return nil }
    let word = String(decoding: UnsafeBufferPointer(rebasing: line[start..<end]), as: UTF8.self)
      .lowercased()
    guard bareWords.contains(word) else { return nil }
    return Directive(name: word, column: start + 1, argumentColumn: end + 1)
  }

  /// Parses a line of text, key text read in `mode`, as the initializer from bytes does.
  package init(_ line: String, mode: Key.Mode = .standard) throws(KeyTextError) {
    var copy = line
    let result: Result<ScriptLine, KeyTextError> = copy.withUTF8 { bytes in
      do throws(KeyTextError) {
        return .success(try ScriptLine(bytes, mode: mode))
      } catch {
        return .failure(error)
      }
    }
    self = try result.get()
  }

  /// The commands whose argument is the rest of the line taken whole, `#` included (SPEC §11):
  /// only a journal's checksum comment is cut from it.
  package static let wholeArgumentNames: Set<String> = ["note", "find", "vary"]

  /// The note of a key line (SPEC §11): the text after its first `#`, blanks trimmed, up to a
  /// journal's checksum comment (the last ` # crc XXXXXXXX` or ` # crc+ XXXXXXXX`, never part
  /// of a note); `nil` when the line has no comment or the comment is empty.
  ///
  /// Throws for a byte of the note that is not UTF-8, at its column (SPEC §8), as key text
  /// does: `invalid UTF-8 byte \x{FF} at column 9 (in the note)`.
  ///
  /// - Complexity: O(n) in the length of the line.
  package static func note(ofKeyLine line: UnsafeBufferPointer<UInt8>) throws(KeyTextError)
    -> String?
  {
    guard let hash = line.firstIndex(of: UInt8(ascii: "#")) else { return nil }
    var start = hash + 1
    var end = checksumStart(line) ?? line.count
    func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    while start < end, isBlank(line[start]) { start += 1 }
    while end > start, isBlank(line[end - 1]) { end -= 1 }
    guard start < end else { return nil }
    if let error = KeyTextError.firstInvalidUTF8(in: line, range: start..<end, of: "the note") {
      throw error
    }
    return String(decoding: UnsafeBufferPointer(rebasing: line[start..<end]), as: UTF8.self)
  }

  /// The note of a key line given as text (which is UTF-8); see
  /// ``note(ofKeyLine:)-(UnsafeBufferPointer<UInt8>)``.
  package static func note(ofKeyLine line: String) -> String? {
    var copy = line
    return copy.withUTF8 { (try? note(ofKeyLine: $0)) ?? nil }
  }

  /// Where a journal's checksum comment at the end of `line` starts (the blank before its
  /// `#`): ` # crc ` or ` # crc+ ` and eight lowercase hexadecimal digits, exactly.
  static func checksumStart(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
    let count = line.count
    guard count >= 15 else { return nil }
    for index in (count - 8)..<count {
      switch line[index] {
      case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): continue
      default: return nil
      }
    }
    for mark in [" # crc ", " # crc+ "] {
      let start = count - 8 - mark.utf8.count
      if start >= 0, line[start..<(count - 8)].elementsEqual(mark.utf8) { return start }
    }
    return nil
  }

  /// The parts of a line known to start with blanks and a `:`.
  private static func directive(_ line: UnsafeBufferPointer<UInt8>) -> Directive {
    func isBlank(_ index: Int) -> Bool {
      line[index] == UInt8(ascii: " ") || line[index] == UInt8(ascii: "\t")
    }
    func text(_ range: Range<Int>) -> String {
      String(decoding: UnsafeBufferPointer(rebasing: line[range]), as: UTF8.self)
    }
    var index = firstNonBlank(line)
    let column = index + 1
    index += 1  // the colon
    let nameStart = index
    while index < line.count, !isBlank(index) { index += 1 }
    let name = text(nameStart..<index)
    while index < line.count, isBlank(index) { index += 1 }
    // A `#` after a blank starts a comment, as in key lines (`:goto 3  # back to 12`), except
    // in the commands whose text is taken whole, which lose only a journal's checksum.
    var end = max(checksumStart(line) ?? line.count, index)
    var comment: String?
    var commentError: KeyTextError?
    if !wholeArgumentNames.contains(name),
      let hash = (index..<end).first(where: {
        line[$0] == UInt8(ascii: "#") && ($0 == index || isBlank($0 - 1))
      })
    {
      var start = hash + 1
      var last = end
      while start < last, isBlank(start) { start += 1 }
      while last > start, isBlank(last - 1) { last -= 1 }
      comment = text(start..<last)
      commentError = KeyTextError.firstInvalidUTF8(in: line, range: start..<last, of: "the note")
      end = hash
    }
    while end > index, isBlank(end - 1) { end -= 1 }
    // Columns count characters, as in key text; the argument's bytes are kept as they came.
    var directive = Directive(
      name: name, column: column, argumentBytes: Array(line[index..<end]),
      argumentColumn: text(0..<index).count + 1)
    directive.comment = comment
    directive.commentError = commentError
    return directive
  }
}
