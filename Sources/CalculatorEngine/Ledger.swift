/// The tape as a ledger (SPEC §11): the queries that `:find` and `:vary` print, as pure
/// functions of a history, so that a front end only formats their answers.
public enum Ledger {
  /// A line that `:find` found: where it is, what it holds, and how many branches share it.
  package struct Found: Hashable, Sendable {
    /// The lowest-numbered branch that holds the line (the one that owns it).
    package let branch: Int
    /// Its number on that branch (and on every branch that shares it): 0 for the mode line.
    package let number: Int
    /// The line: its start, its keys as typed (`$N` included) and its note.
    package let line: History.Line
    /// The display after it.
    package let display: Display
    /// How many other branches hold the same line (`+N branches`).
    package let otherBranches: Int
    /// Whether it was found by its note (otherwise by its value).
    package let byNote: Bool
    /// The mode in force before the line on its branch, as `:lines` tracks it
    /// (``KeyText/ModeTracker``): a formula line is written with `fx` only where another mode
    /// is in force.
    package var modeBefore: Key.Mode? = .standard
  }

  /// What `:find TEXT` looks for: a note that contains the text, ignoring case, and, when the
  /// text reads as a number, a value that is shown as that number.
  package struct Query: Hashable, Sendable {
    /// The text, lowercased, for notes.
    package let text: String
    /// The numbers the text reads as (in key text, and in the locale's display form, grouping
    /// allowed in both: `1,639`), written canonically (``canonicalNumber(_:)``); empty when it
    /// reads as none.
    package let numbers: Set<String>
    /// The word the text reads as in Programmer mode's forms (SPEC §11): `0xFF`, `0o377`,
    /// `0b1111` (blanks and `_` between digits allowed, any case), compared with the bits of
    /// a Programmer value's word; `nil` when it reads as none.
    package let word: UInt64?
    /// The text as a Programmer display shows digits in HEX, OCT or BIN: blanks and `_` taken
    /// out, letters upper case (`75B CD15` is `75BCD15`); `nil` when it holds anything else.
    package let radixDigits: String?
    /// The format whose display form the values are compared in.
    package let format: DisplayFormat
    /// The date the text reads as in ISO form (`2027-03-15`, SPEC §13); `nil` when it reads
    /// as none.
    package let date: CivilDate?

    /// The query for `text`, whose numbers are read in key text and in the form of `format`'s
    /// locale, grouped or not (SPEC §11: `:find 1,639`): the locale's grouping is allowed even
    /// where `format` shows none (output that is not a terminal), since a person types what a
    /// terminal shows.
    ///
    /// - Complexity: O(n) in the text, plus a look-up of the locale's symbols (``LocaleTable``).
    package init(_ text: String, format: DisplayFormat) {
      self.text = text.lowercased()
      self.format = format
      let trimmed = text.trimmingBlanks
      var numbers: Set<String> = []
      // Key text: ASCII digits and a point, after a minus; groups of three with `,` allowed.
      for form in [Ledger.keyTextForm, Ledger.displayForm(of: format)] {
        if let plain = Ledger.ungrouped(trimmed, in: form),
          let number = Ledger.canonicalNumber(plain)
        {
          numbers.insert(number)
        }
      }
      self.numbers = numbers
      word = Ledger.word(trimmed)
      let digits = trimmed.filter { $0 != " " && $0 != "_" && $0 != "\t" }.uppercased()
      radixDigits =
        !digits.isEmpty && digits.allSatisfy({ $0.isASCII && $0.isHexDigit }) ? digits : nil
      date = trimmed.contains("-") ? try? CivilDate(iso: trimmed) : nil
    }

    /// Whether the display `display` shows one of ``numbers``, rounded as the display rounds;
    /// a Programmer value also when its word's bits are ``word``, or when it shows
    /// ``radixDigits`` in HEX, OCT or BIN.
    package func matches(_ display: Display) -> Bool {
      if case .date(let shown) = display {
        // A date line (SPEC §13): its date, or its plain text (`1:30:00`, a difference's);
        // a number line as any number.
        switch shown.value {
        case .date(let value): return value == date
        case .difference, .duration: return shown.value.plainText == text
        case .number, .fault: break
        }
      }
      if case .programmer(let shown) = display {
        if let word, word == ProgrammerBrain.pattern(shown.value, shown.wordSize) { return true }
        if shown.radix != .dec, let radixDigits, radixDigits == shown.plainDigits { return true }
        return numbers.contains(String(shown.value))
      }
      guard !numbers.isEmpty else { return false }
      let shown = format.text(for: display)
      guard let number = Ledger.canonicalNumber(Ledger.plain(shown, format: format)) else {
        return false
      }
      return numbers.contains(number)
    }

    /// Whether `note` contains the text, ignoring case.
    package func matches(note: String?) -> Bool {
      guard let note, !text.isEmpty else { return false }
      return note.lowercased().contains(text)
    }
  }

  /// How a number may be written: its decimal separator, grouping separators and group sizes.
  struct NumberForm {
    var decimal: String
    /// The separators between groups: the locale's, and a space where the locale's is a
    /// space that cannot be typed (U+00A0, U+202F).
    var grouping: [String]
    /// The size of the last group before the decimal separator; 0 for no grouping.
    var size: Int
    /// The size of the groups before it.
    var secondarySize: Int
  }

  /// Key text's form, grouping allowed: `1,234.5`.
  static let keyTextForm = NumberForm(decimal: ".", grouping: [","], size: 3, secondarySize: 3)

  /// The display form of `format`'s locale, with the locale's grouping whether or not `format`
  /// groups (``DisplayFormat/ungrouped`` keeps no separator to read).
  static func displayForm(of format: DisplayFormat) -> NumberForm {
    let locale =
      format.groupingSeparator.isEmpty
      ? DisplayFormat(localeIdentifier: format.localeIdentifier) : format
    var grouping = locale.groupingSeparator.isEmpty ? [] : [locale.groupingSeparator]
    if ["\u{A0}", "\u{202F}"].contains(locale.groupingSeparator) { grouping.append(" ") }
    return NumberForm(
      decimal: format.decimalSeparator, grouping: grouping, size: locale.groupingSize,
      secondarySize: locale.secondaryGroupingSize == 0
        ? locale.groupingSize : locale.secondaryGroupingSize)
  }

  /// `text` written in `form` made plain — its grouping separators taken out and its decimal
  /// separator made `.` — when its groups are where the form puts them (`1,639`, `12,345,678`;
  /// not `16,39`); ungrouped text as it is; `nil` for misplaced groups.
  ///
  /// - Complexity: O(n) in the text.
  static func ungrouped(_ text: String, in form: NumberForm) -> String? {
    var number = Substring(text)
    var sign = ""
    if let first = number.first, first == "-" || first == "\u{2212}" {
      sign = "-"
      number = number.dropFirst()
    }
    let parts = number.split(separator: form.decimal, omittingEmptySubsequences: false)
    guard parts.count <= 2, let whole = parts.first else { return nil }
    let fraction = parts.count == 2 ? "." + parts[1] : ""
    var groups = [whole]
    for separator in form.grouping {
      groups = groups.flatMap { $0.split(separator: separator, omittingEmptySubsequences: false) }
    }
    if groups.count > 1 {
      guard form.size > 0, let last = groups.last, last.count == form.size,
        let first = groups.first, (1...form.secondarySize).contains(first.count),
        groups.dropFirst().dropLast().allSatisfy({ $0.count == form.secondarySize })
      else { return nil }
    }
    return sign + groups.joined() + fraction
  }

  /// `text` in `format`'s display form made plain: its grouping separators removed and its
  /// decimal separator made `.`.
  static func plain(_ text: String, format: DisplayFormat) -> String {
    var plain = text
    if !format.groupingSeparator.isEmpty {
      plain = plain.split(separator: format.groupingSeparator, omittingEmptySubsequences: false)
        .joined()
    }
    if format.decimalSeparator != "." {
      plain = plain.split(separator: format.decimalSeparator, omittingEmptySubsequences: false)
        .joined(separator: ".")
    }
    return plain
  }

  /// The word that `text` writes in one of Programmer mode's forms, `0x`, `0o` or `0b` then
  /// the radix's digits (any case; blanks and `_` between them allowed): `0xFF` is 255; `nil`
  /// for any other text, and for more bits than a word holds.
  package static func word(_ text: String) -> UInt64? {
    let bytes = Array(text.utf8)
    guard bytes.count > 2, bytes[0] == UInt8(ascii: "0") else { return nil }
    let base: UInt64
    switch bytes[1] | 0x20 {
    case UInt8(ascii: "x"): base = 16
    case UInt8(ascii: "o"): base = 8
    case UInt8(ascii: "b"): base = 2
    default: return nil
    }
    var word: UInt64 = 0
    var digits = 0
    for byte in bytes[2...] {
      if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "_") { continue }
      let digit: UInt64
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt64(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt64(byte - UInt8(ascii: "A") + 10)
      default: return nil
      }
      guard digit < base else { return nil }
      let (shifted, overflow) = word.multipliedReportingOverflow(by: base)
      let (sum, carry) = shifted.addingReportingOverflow(digit)
      guard !overflow, !carry else { return nil }
      word = sum
      digits += 1
    }
    return digits > 0 ? word : nil
  }

  /// A plain decimal number (`-0012.50`) written canonically (`-12.5`): no leading zeros, no
  /// trailing zeros after the point, no point without digits after it, no sign on zero; `nil`
  /// for text that is not one (a blank, a grouping separator, an exponent, a second point).
  package static func canonicalNumber(_ text: String) -> String? {
    var digits = Substring(text)
    var negative = false
    if let first = digits.first, first == "-" || first == "\u{2212}" {
      negative = true
      digits = digits.dropFirst()
    }
    let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count <= 2, !digits.isEmpty, digits != ".",
      parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } })
    else { return nil }
    var whole = String(parts[0].drop { $0 == "0" })
    var fraction = parts.count == 2 ? String(parts[1]) : ""
    while fraction.last == "0" { fraction.removeLast() }
    if whole.isEmpty { whole = "0" }
    let number = fraction.isEmpty ? whole : whole + "." + fraction
    return negative && number != "0" ? "-" + number : number
  }

  /// Calls `body` with each line, on every branch, whose note or value `query` matches: the
  /// current branch's lines first, then the other branches' in the order of their numbers; a
  /// line that several branches share once, with the lowest-numbered branch that holds it and
  /// how many others do (SPEC §11). `body` returns `false` to stop (Ctrl-C).
  ///
  /// - Complexity: O(b × n) for b branches of at most n keys: each branch is read twice.
  package static func find(
    _ query: Query, in history: History, _ body: (Found) throws -> Bool
  ) rethrows {
    guard !history.isEmpty else { return }
    let count = history.branchCount
    // How many branches hold each line.
    var holders: [History.LinePlace: Int] = [:]
    for number in 1...count {
      for place in Set(history.linePlaces(ofBranch: number)) { holders[place, default: 0] += 1 }
    }
    var listed: Set<History.LinePlace> = []
    let order = [history.currentBranch] + (1...count).filter { $0 != history.currentBranch }
    for number in order {
      var copy = history
      if number != history.currentBranch { copy.switchTo(branch: number) }
      let lines = copy.lines()
      let places = copy.linePlaces(ofBranch: number)
      let displays = copy.displays(after: lines[...])
      let first = History.firstLineNumber(of: lines)
      var modes = KeyText.ModeTracker()
      for (index, line) in lines.enumerated() {
        let modeBefore = modes.mode
        modes.pass(line.keys)
        guard !listed.contains(places[index]) else { continue }
        let byNote = query.matches(note: line.note)
        guard byNote || query.matches(displays[index]) else { continue }
        listed.insert(places[index])
        let found = Found(
          branch: places[index].branch, number: index + first, line: line, display: displays[index],
          otherBranches: (holders[places[index]] ?? 1) - 1, byNote: byNote, modeBefore: modeBefore)
        guard try body(found) else { return }
      }
    }
  }
}

extension String {
  /// The string without blanks (spaces, tabs) at either end.
  var trimmingBlanks: String {
    var text = Substring(self)
    while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
    while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
    return String(text)
  }
}

extension Ledger {
  /// What `:vary L KEYS | KEYS …` found (SPEC §11): a row for the line as it is, then one per
  /// alternative, and the lines whose displays the table shows.
  public struct Variation: Hashable, Sendable {
    /// One alternative of the line: its branch and the displays after it and every later line.
    public struct Row: Hashable, Sendable {
      /// The branch that holds it; `nil` when it was refused.
      public let branch: Int?
      /// Line L's keys in it.
      public let keys: TypedKeys
      /// The displays after line L and each later line, in order; empty when refused.
      public let displays: [Display]
      /// Why it was refused, if it was.
      public let error: SessionError?
    }

    /// The varied line, from 1.
    public let line: Int
    /// The line as it is (first), then each alternative.
    public let rows: [Row]
    /// The lines whose displays the table shows: line L, the first three later lines whose
    /// displays differ between the rows, and the last line, without repeats, in order.
    package let columns: [Int]
    /// How many more later lines differ than the columns show (`… N more differ`).
    package let moreDiffer: Int

    /// The table for `rows` of line `line`.
    ///
    /// - Complexity: O(r × n): r rows of n displays.
    package init(line: Int, rows: [Row]) {
      self.line = line
      self.rows = rows
      let count = rows.first?.displays.count ?? 0
      let answered = rows.filter { $0.error == nil }
      let differing = (1..<max(1, count)).filter { offset in
        Set(answered.map { $0.displays[offset] }).count > 1
      }
      let shown = differing.prefix(3)
      let last = count - 1
      columns = Array(Set([0] + shown + (count > 0 ? [last] : []))).sorted().map { line + $0 }
      moreDiffer =
        differing.count - shown.count - (differing.last == last && !shown.contains(last) ? 1 : 0)
    }

    /// The display of `row` after line `number` (one of ``columns``).
    package func display(_ row: Row, afterLine number: Int) -> Display? {
      let offset = number - line
      return offset >= 0 && offset < row.displays.count ? row.displays[offset] : nil
    }
  }
}

extension History {
  /// Whether the first line of a branch (from step 0) that holds `keys` is its mode line, line
  /// 0 (SPEC §11): exactly one mode key (`sci`, `std`, `prog`), the line `--mode` adds. A line
  /// of one mode key typed or loaded there is the same line: a saved session cannot tell them
  /// apart. The lines after it are numbered from 1, as on a branch without one.
  package static func isModeLine(_ keys: some Collection<Key>) -> Bool {
    guard keys.count == 1, let key = keys.first, case .mode = key else { return false }
    return true
  }

  /// The number of the first of `lines` (a branch's, from step 0, as ``lines()`` lists them):
  /// 0 when it is the mode line (``isModeLine(_:)``), else 1; line N is `lines[N - first]`.
  package static func firstLineNumber(of lines: some Collection<Line>) -> Int {
    guard let line = lines.first, isModeLine(line.keys) else { return 1 }
    return 0
  }
}
