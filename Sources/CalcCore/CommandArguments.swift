import CalculatorEngine

/// What `:tape` was asked for: which steps, and whether as CSV, to a file or to the output.
struct TapeRequest {
  var steps: HistorySteps
  var isCSV: Bool
  /// The file for `:tape csv … FILE`.
  var file: FileName?

  /// Whether `csv!` asked to replace a FILE that this session did not write (SPEC §8).
  var isReplacing: Bool

  /// Parses `[csv|csv!] [K|N..M] [FILE]`: `csv` or `csv!` first; then a count or range when the
  /// next word is one; then, for CSV only, the rest as a file name (byte for byte), which
  /// `csv!` needs.
  init(_ directive: ScriptLine.Directive) throws(LineError) {
    var bytes = directive.argumentBytes[...]
    var column = directive.argumentColumn
    func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    /// The next word, taken off `bytes` with the blanks after it.
    func nextWord() -> ArraySlice<UInt8> {
      let word = bytes.prefix { !isBlank($0) }
      bytes = bytes.dropFirst(word.count)
      let blanks = bytes.prefix(while: isBlank)
      bytes = bytes.dropFirst(blanks.count)
      column += String(decoding: word, as: UTF8.self).count + blanks.count
      return word
    }
    isCSV = false
    isReplacing = false
    let firstWord = bytes.prefix(while: { !isBlank($0) })
    if firstWord.elementsEqual("csv".utf8) || firstWord.elementsEqual("csv!".utf8) {
      isCSV = true
      isReplacing = firstWord.count == 4
      _ = nextWord()
    }
    steps = .all
    let first = bytes.prefix { !isBlank($0) }
    if let byte = first.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
      let wordColumn = column
      let word = String(decoding: nextWord(), as: UTF8.self)
      steps = try HistorySteps(
        ScriptLine.Directive(
          name: directive.name, column: directive.column, argument: word,
          argumentColumn: wordColumn))
    }
    file = nil
    if !bytes.isEmpty {
      guard isCSV else {
        throw LineError(
          ":tape takes [csv|csv!] [K|N..M] [FILE], and a FILE only after csv, not "
            + "'\(TextEscaping.escaped(String(decoding: bytes, as: UTF8.self)))'",
          column: column)
      }
      file = FileName(Array(bytes))
    }
    if isReplacing, file == nil {
      throw LineError(
        ":tape csv! needs the FILE it replaces: :tape csv! tape.csv", column: column)
    }
  }
}

/// Which steps of the current branch `:history` lists.
enum HistorySteps: Hashable {
  /// Every step, from 0.
  case all
  /// The last K steps (every step if the branch has no more).
  case last(Int)
  /// Steps N through M.
  case range(Int, Int)

  /// The `[K|N..M]` of `directive`; whether the branch has those steps is checked when it runs.
  /// Its errors speak of lines for `:lines`, which counts lines, and of steps otherwise.
  init(_ directive: ScriptLine.Directive) throws(LineError) {
    let argument = directive.argument
    if argument.isEmpty {
      self = .all
      return
    }
    let unit = directive.name == CommandName.lines.rawValue ? "lines" : "steps"
    let parts = argument.split(separator: "..", maxSplits: 1, omittingEmptySubsequences: false)
    let numbers = parts.map(ScriptLine.Directive.wholeNumber)
    switch (numbers.count, numbers.first ?? nil, numbers.last ?? nil) {
    case (1, let count?, _) where count > 0:
      self = .last(count)
    case (1, 0?, _):
      throw LineError(
        ":\(directive.name) takes a number of \(unit) from 1, not '0'",
        column: directive.argumentColumn)
    case (2, let first?, let last?):
      self = .range(first, last)
    default:
      throw LineError(
        ":\(directive.name) takes K (the last K \(unit)) or N..M (\(unit) N to M), not "
          + "'\(TextEscaping.escaped(argument))'",
        column: directive.argumentColumn)
    }
  }

  /// The steps of a branch of `count` keys, or why there are none such.
  ///
  /// A range must run forwards and lie within `0...count`; the last K steps are all of them when
  /// there are fewer.
  func steps(count: Int, position: Int) throws(LineError) -> ClosedRange<Int> {
    switch self {
    case .all:
      return 0...count
    case .last(let steps):
      return max(0, count - steps + 1)...count
    case .range(let first, let last):
      guard first <= last else {
        throw LineError("steps \(first)..\(last) run backwards (write \(last)..\(first))")
      }
      guard last <= count else {
        throw LineError(
          SessionError.stepOutOfRange(.step(last), from: position, valid: 0...count).description)
      }
      return first...last
    }
  }

  /// The line numbers of a branch whose lines are numbered `first` (0 after a mode line, else
  /// 1) through `last`, or why there are none such; `first...first` for a branch without lines.
  func lines(last count: Int, first: Int = 1) throws(LineError) -> ClosedRange<Int> {
    switch self {
    case .all:
      return first...max(first, count)
    case .last(let k):
      return max(first, count - k + 1)...max(first, count)
    case .range(let from, let last):
      guard from <= last else {
        throw LineError("lines \(from)..\(last) run backwards (write \(last)..\(from))")
      }
      guard from >= first, last <= count else {
        throw LineError(
          SessionError.unknownLine(from < first ? from : last, count: count).description)
      }
      return from...last
    }
  }
}
