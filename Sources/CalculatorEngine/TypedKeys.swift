/// Keys as typed: a line's keys and, beside them, the line number N of each `$N` among them
/// (SPEC §11), so that the key itself stays two bytes (``Key/reference``).
///
/// A collection of the keys; ``references`` holds one N for each ``Key/reference``
/// key, in order. Used where keys may hold references: a script line, a session's command, a
/// history's lines. Two values are equal when their keys and their references are.
public struct TypedKeys: RandomAccessCollection, Hashable, Sendable, ExpressibleByArrayLiteral {
  /// The keys, each `$N` as a ``Key/reference`` key without its N.
  public private(set) var keys: [Key]
  /// N of each ``Key/reference`` key of ``keys``, in order.
  public private(set) var references: [Int]
  /// The text of each ``Key/formula`` and ``Key/dateLine`` key of ``keys``, in order (SPEC
  /// §12, §13): as typed in a line read from text, canonical (a date line's recorded) in a
  /// history's lines.
  public private(set) var formulas: [String] = []
  /// The formulas of ``formulas`` as the line's reader read them (``KeyText/formulaLine(in:startingIn:reusing:)``),
  /// so that the session compiling them does not read them again; empty when they were not kept.
  /// No part of the value: equality and hashing ignore it.
  private var parsed: [ReadFormula] = []

  /// A formula as the line's reader kept it: read (its tree), or, for the common formula,
  /// compiled while it was read (``FormulaParser/compiledKeys(of:)``: no `ans`, `$N`, `mr` or
  /// note, so nothing of the session is needed to compile it).
  private enum ReadFormula {
    case read(Formula)
    case compiled(FormulaParser.Compiled)
  }
  /// The date line of ``formulas``[`index`] as the line's reader read it
  /// (``KeyText/formulaLine(in:startingIn:reusing:)``), so that the session calculating it does
  /// not read it again (issue 51); `nil` when none was kept. No part of the value.
  private var readDate: ReadDate?

  /// A date line's syntax and the index of its text, in a box: one reference, so that copying
  /// and destroying keys (a script line's, several times a line) costs a retain and a release.
  private final class ReadDate: Sendable {
    let index: Int
    let read: Read
    init(_ index: Int, _ read: Read) {
      self.index = index
      self.read = read
    }

    /// The line read into a tree, or (the common line, ``DateLine/onePass(_:)``) read and
    /// calculated: such a line needs nothing of the session.
    enum Read: Sendable {
      case syntax(DateSyntax)
      case calculated(DateLine)
    }
  }

  /// Keys with the given line numbers of their `$N` keys, one for each, in order, and the text
  /// of their formula keys.
  public init(_ keys: [Key], references: [Int] = [], formulas: [String] = []) {
    assert(references.count == keys.lazy.filter(\.isReference).count, "one N for each $N key")
    assert(formulas.count == keys.lazy.filter(\.hasText).count, "one text for each formula")
    self.keys = keys
    self.references = references
    self.formulas = formulas
  }

  /// Keys without `$N` keys.
  public init(arrayLiteral keys: Key...) {
    self.init(keys)
  }

  /// No keys.
  public init() {
    keys = []
    references = []
  }

  /// `$N` alone.
  public static func reference(_ line: Int) -> TypedKeys {
    TypedKeys([.reference], references: [line])
  }

  /// The index of the first key: 0.
  public var startIndex: Int { 0 }
  /// The index after the last key: the number of keys.
  public var endIndex: Int { keys.count }
  /// The key at `position` (a `$N` key without its N: ``referencedLine(at:)``).
  public subscript(position: Int) -> Key { keys[position] }

  /// Appends a key other than `$N`.
  public mutating func append(_ key: Key) {
    precondition(!key.isReference, "a $N key needs its N")
    precondition(!key.hasText, "a formula or date line key needs its text")
    keys.append(key)
  }

  /// Appends the keys whose ``Key/code``s `codes` holds, none of them `$N`, a formula or a date
  /// line, in one append: decoded on the stack first (appending a lazy map of the codes went
  /// through the generic copy, about 65 instructions a key; Documentation/Performance.md).
  mutating func appendKeys(decoding codes: UnsafeBufferPointer<UInt8>) {
    let all = Key.allKeys
    withUnsafeTemporaryAllocation(of: Key.self, capacity: codes.count) { decoded in
      for index in codes.indices {
        decoded.initializeElement(at: index, to: all[Int(codes[index])])
      }
      keys.append(contentsOf: UnsafeBufferPointer(decoded))
    }
  }

  /// Appends `$line`.
  public mutating func appendReference(_ line: Int) {
    keys.append(.reference)
    references.append(line)
  }

  /// Appends a formula line's key with its text.
  public mutating func appendFormula(_ text: String) {
    keys.append(.formula)
    formulas.append(text)
    parsed.removeAll()
  }

  /// Appends a formula line's key with its text and the formula read from it.
  ///
  /// A formula longer than ``longestKeptFormula`` bytes is not kept: its tree would stay alive
  /// while its keys run, and a session that reads it again lets go of it before they do (the 4
  /// MB line's peak, Documentation/Performance.md).
  package mutating func appendFormula(_ text: String, read formula: consuming Formula) {
    // A line that is a formula alone, the common one, shares one array of its key.
    if keys.isEmpty { keys = TypedKeys.formulaKeyAlone } else { keys.append(.formula) }
    if parsed.count == formulas.count, text.utf8.count <= TypedKeys.longestKeptFormula {
      parsed.append(.read(formula))
    }
    formulas.append(text)
  }

  /// Appends a formula line's key with its text, compiled as it was read
  /// (``FormulaParser/compiledKeys(of:)``). Kept whatever its length: the session's step holds
  /// the same array of keys, so keeping them costs no room.
  mutating func appendFormula(_ text: String, compiled: consuming FormulaParser.Compiled) {
    if keys.isEmpty { keys = TypedKeys.formulaKeyAlone } else { keys.append(.formula) }
    if parsed.count == formulas.count { parsed.append(.compiled(compiled)) }
    formulas.append(text)
  }

  /// The longest formula, in bytes, whose reading a line keeps: 64 KiB.
  static let longestKeptFormula = 1 << 16

  /// The keys of a line that is one formula: shared, so that reading such a line allocates
  /// no array for them (copied on write, as any array, when a key is appended).
  private static let formulaKeyAlone: [Key] = [.formula]

  /// Whether applying the keys may need the ends of the lines before them (``Session``'s
  /// `LineEndIndex`): for a `$N` key, a date line, `ans` or `$N` in a formula, or a formula
  /// not kept as read (``withReadFormula(at:_:)``). `false` for a line of formulas read
  /// without `$N` or `ans`, the common formula line, which then reads no line end.
  ///
  /// - Complexity: O(f) in the number of formulas.
  package var mayNeedLineEnds: Bool {
    guard references.isEmpty else { return true }
    // A line whose one text is a date line read and calculated in one pass makes no reference
    // (issue 51: the look-up cost such a line about 370 instructions).
    if formulas.count == 1, hasCalculatedDateLine(at: 0) { return false }
    guard parsed.count == formulas.count else { return true }
    return parsed.contains {
      switch $0 {
      case .read(let formula): formula.usesAnswer || !formula.references.isEmpty
      case .compiled: false
      }
    }
  }

  /// `body` of the formula of ``formulas``[`index`] as the line's reader read it; `nil` when
  /// it was not kept, or was kept compiled (``compiledFormula(at:)``).
  package func withReadFormula<Result>(
    at index: Int, _ body: (borrowing Formula) throws(FormulaError) -> Result
  ) throws(FormulaError) -> Result? {
    guard parsed.count == formulas.count, case .read(let formula) = parsed[index] else {
      return nil
    }
    return try body(formula)
  }

  /// The formula of ``formulas``[`index`] as the line's reader compiled it
  /// (``FormulaParser/compiledKeys(of:)``), if it did.
  func compiledFormula(at index: Int) -> FormulaParser.Compiled? {
    guard parsed.count == formulas.count, case .compiled(let compiled) = parsed[index] else {
      return nil
    }
    return compiled
  }

  /// The notes (``Formula/notes``) of the formula of ``formulas``[`index`] as the line's reader
  /// read it, if it was kept: without copying the formula. A formula kept compiled has none
  /// (``FormulaParser/compiledKeys(of:)`` reads no implied ×, which the one note is about).
  package func readFormulaNotes(at index: Int) -> [String]? {
    guard parsed.count == formulas.count else { return nil }
    switch parsed[index] {
    case .read(let formula): return formula.notes
    case .compiled: return []
    }
  }

  /// Whether `left` and `right` hold the same keys, references and formulas' texts.
  public static func == (left: TypedKeys, right: TypedKeys) -> Bool {
    left.keys == right.keys && left.references == right.references
      && left.formulas == right.formulas
  }

  /// Hashes the keys, references and formulas' texts.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(keys)
    hasher.combine(references)
    hasher.combine(formulas)
  }

  /// Appends a date line's key with its text (SPEC §13).
  ///
  /// The formulas read by the line's reader are let go of: they are kept only while their
  /// indices are those of ``formulas`` (``withReadFormula(at:_:)``).
  public mutating func appendDateLine(_ text: String) {
    keys.append(.dateLine)
    formulas.append(text)
    parsed.removeAll()
  }

  /// Appends a date line's key with its text and the syntax read from it (kept for
  /// ``readDateSyntax(at:)``).
  mutating func appendDateLine(_ text: String, read syntax: DateSyntax) {
    keys.append(.dateLine)
    readDate = ReadDate(formulas.count, .syntax(syntax))
    formulas.append(text)
    parsed.removeAll()
  }

  /// Appends a date line's key with its text and the line read and calculated from it by
  /// ``DateLine/onePass(_:)`` (kept for ``readDateLine(at:)``).
  mutating func appendDateLine(_ text: String, calculated line: DateLine) {
    // A line of the date line alone shares one array of its key (an allocation a line).
    if keys.isEmpty { keys = TypedKeys.dateLineAlone } else { keys.append(.dateLine) }
    readDate = ReadDate(formulas.count, .calculated(line))
    formulas.append(text)
    parsed.removeAll()
  }

  /// The keys of a line of one date line (also the key a session records for a common date
  /// line, ``Session/perform(commonDateLine:mayReferToLines:)``).
  static let dateLineAlone: [Key] = [.dateLine]

  /// The syntax of the date line of ``formulas``[`index`] as the line's reader read it, if it
  /// was kept.
  func readDateSyntax(at index: Int) -> DateSyntax? {
    guard let readDate, readDate.index == index, case .syntax(let syntax) = readDate.read else {
      return nil
    }
    return syntax
  }

  /// The date line of ``formulas``[`index`] as the line's reader read and calculated it in one
  /// pass, if it was kept: a line without `today`, `mr` and `$N`, the same in any session.
  func readDateLine(at index: Int) -> DateLine? {
    guard let readDate, readDate.index == index, case .calculated(let line) = readDate.read
    else { return nil }
    return line
  }

  /// Whether the date line of ``formulas``[`index`] was read and calculated in one pass
  /// (``readDateLine(at:)`` is not `nil`), without copying the line.
  func hasCalculatedDateLine(at index: Int) -> Bool {
    guard let readDate, readDate.index == index, case .calculated = readDate.read else {
      return false
    }
    return true
  }

  /// Whether the keys hold a formula line's key or a date line's (a key with its text).
  public var hasFormulas: Bool { !formulas.isEmpty }

  /// The same keys with each date line's text passed through `transform` (a formula's kept).
  ///
  /// - Complexity: O(n) in the number of keys.
  package func mappingDateTexts(_ transform: (String) -> String) -> TypedKeys {
    guard keys.contains(.dateLine) else { return self }
    var copy = self
    copy.readDate = nil
    var index = 0
    for key in keys where key.hasText {
      if key.isDateLine { copy.formulas[index] = transform(formulas[index]) }
      index += 1
    }
    return copy
  }

  /// Whether the text of some date line key may hold `today` (``DateLine/mayMentionToday(_:)``),
  /// without gathering the texts.
  ///
  /// - Complexity: O(n) in the number of keys and the length of the date lines.
  package var dateLinesMayMentionToday: Bool {
    var index = 0
    for key in keys where key.hasText {
      // A line calculated in one pass holds no `today` (about 300 instructions a date line).
      if key.isDateLine, !hasCalculatedDateLine(at: index),
        DateLine.mayMentionToday(formulas[index])
      {
        return true
      }
      index += 1
    }
    return false
  }

  /// The texts of the formula keys alone, in order.
  public var formulaTexts: [String] { texts(of: \.isFormula) }

  /// The texts of the date line keys alone, in order.
  public var dateTexts: [String] { texts(of: \.isDateLine) }

  private func texts(of kind: (Key) -> Bool) -> [String] {
    var texts: [String] = []
    var index = 0
    for key in keys where key.hasText {
      if kind(key) { texts.append(formulas[index]) }
      index += 1
    }
    return texts
  }

  /// Appends the keys of `other`, with their references.
  public mutating func append(contentsOf other: TypedKeys) {
    keys.append(contentsOf: other.keys)
    references.append(contentsOf: other.references)
    if parsed.count == formulas.count, other.parsed.count == other.formulas.count {
      parsed.append(contentsOf: other.parsed)
    } else {
      parsed.removeAll()
    }
    if readDate == nil, let read = other.readDate {
      readDate = ReadDate(formulas.count + read.index, read.read)
    }
    formulas.append(contentsOf: other.formulas)
  }

  /// Inserts `$line` before the key at `index` (within `0...count`).
  ///
  /// - Complexity: O(n) in the number of keys.
  package mutating func insertReference(_ line: Int, at index: Int) {
    references.insert(line, at: keys[..<index].lazy.filter(\.isReference).count)
    keys.insert(.reference, at: index)
  }

  /// The keys at `range`, with their references.
  ///
  /// - Complexity: O(`range.upperBound`).
  package func extracting(_ range: Range<Int>) -> TypedKeys {
    let first = keys[..<range.lowerBound].lazy.filter(\.isReference).count
    let count = keys[range].lazy.filter(\.isReference).count
    let firstFormula = keys[..<range.lowerBound].lazy.filter(\.hasText).count
    let formulaCount = keys[range].lazy.filter(\.hasText).count
    return TypedKeys(
      Array(keys[range]), references: Array(references[first..<(first + count)]),
      formulas: Array(formulas[firstFormula..<(firstFormula + formulaCount)]))
  }

  /// The keys of `left`, then those of `right`.
  ///
  /// - Complexity: O(m + n).
  public static func + (left: TypedKeys, right: TypedKeys) -> TypedKeys {
    var result = left
    result.append(contentsOf: right)
    return result
  }

  /// Reserves room for `count` keys.
  package mutating func reserveCapacity(_ count: Int) { keys.reserveCapacity(count) }

  /// Removes every key, keeping the storage.
  package mutating func removeAll(keepingCapacity: Bool) {
    keys.removeAll(keepingCapacity: keepingCapacity)
    references.removeAll(keepingCapacity: keepingCapacity)
    formulas.removeAll(keepingCapacity: keepingCapacity)
    parsed.removeAll()
    readDate = nil
  }

  /// Whether some key is `$N`.
  public var hasReferences: Bool { !references.isEmpty }

  /// The same keys with each `$N`'s N passed through `renumber`.
  ///
  /// - Complexity: O(r), r the references.
  package func renumbered(_ renumber: (Int) -> Int) -> TypedKeys {
    var copy = self
    copy.references = references.map(renumber)
    copy.formulas = formulas.map { TypedKeys.renumbering($0, renumber) }
    copy.parsed = []
    copy.readDate = nil
    return copy
  }

  /// N of each `$N`, in order: those of the `$N` keys, then those written in the formulas'
  /// texts (SPEC §12).
  ///
  /// - Complexity: O(n) in the length of the formulas.
  package var allReferences: [Int] {
    var all = references
    for text in formulas {
      _ = TypedKeys.renumbering(text) { line in
        all.append(line)
        return line
      }
    }
    return all
  }

  /// `text`, a formula's, with the N of each `$N` passed through `renumber` (a formula uses `$`
  /// for nothing else).
  ///
  /// - Complexity: O(n) in the length of `text`.
  static func renumbering(_ text: String, _ renumber: (Int) -> Int) -> String {
    var bytes: [UInt8] = []
    let utf8 = Array(text.utf8)
    var index = 0
    while index < utf8.count {
      let byte = utf8[index]
      bytes.append(byte)
      index += 1
      guard byte == UInt8(ascii: "$") else { continue }
      var end = index
      while end < utf8.count, utf8[end] >= UInt8(ascii: "0"), utf8[end] <= UInt8(ascii: "9") {
        end += 1
      }
      guard end > index else { continue }
      let line = Int(String(decoding: utf8[index..<end], as: UTF8.self)) ?? Int.max
      bytes.append(contentsOf: String(renumber(line)).utf8)
      index = end
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The line number of the `$N` key at `index`, which must be one.
  ///
  /// - Complexity: O(i), i the index.
  public func referencedLine(at index: Int) -> Int {
    precondition(keys[index].isReference, "not a $N key")
    return references[keys[..<index].lazy.filter(\.isReference).count]
  }

  /// The key at `index` as text: its ``Key/title``, `$N` for a reference.
  ///
  /// - Complexity: O(i) for a reference, i the index.
  public func title(at index: Int) -> String {
    if keys[index].hasText { return formulaText(at: index) }
    return keys[index].isReference ? "$\(referencedLine(at: index))" : keys[index].title
  }

  /// The text of the formula key at `index`, which must be one.
  ///
  /// - Complexity: O(i), i the index.
  public func formulaText(at index: Int) -> String {
    precondition(keys[index].hasText, "not a formula or date line key")
    return formulas[keys[..<index].lazy.filter(\.hasText).count]
  }
}
