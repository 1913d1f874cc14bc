import CalcDecimal

/// The kind of a date-mode line or operand (SPEC §13).
package enum DateKind: String, Hashable, Sendable, CaseIterable {
  /// A date: `2026-12-01`, `today`, `D + 1m`.
  case date
  /// `D1 to D2`.
  case difference
  /// `H:MM:SS` and their arithmetic.
  case duration
  /// A conversion (`8:30 in h`), a duration ÷ a duration, a number operand.
  case number
}

/// An error of calculation in date mode: a state shown as the display, not a rejection.
package enum DateFault: Hashable, Sendable {
  /// An offset whose result (or a step of it) leaves 1601-01-01 … 9999-12-31.
  case dateOutOfBound
  /// A duration or number step's error: `/ 0` (`Cannot divide by zero`), `0:00/0` (`Result is
  /// undefined`), a magnitude of 10^100 or more (`Overflow`); or, through `$N`, another mode's.
  case calculation(CalculationError)

  /// The text shown in the display: `Date out of Bound`, `Cannot divide by zero`.
  package var message: String {
    switch self {
    case .dateOutOfBound: "Date out of Bound"
    case .calculation(let error): error.message
    }
  }
}

/// The value after a date line, or of an operand `$N` (SPEC §13).
package enum DateValue: Hashable, Sendable {
  case date(CivilDate)
  case difference(DateDifference)
  case duration(TimeSpan)
  case number(DateNumber)
  /// An error of calculation (rule 14: `$N` of such a line shows it too).
  case fault(DateFault)

  /// The kind of the value; `nil` for a fault.
  package var kind: DateKind? {
    switch self {
    case .date: .date
    case .difference: .difference
    case .duration: .duration
    case .number: .number
    case .fault: nil
    }
  }

  /// The display in `format`: `Saturday, September 11, 2004`, `4 months, 4 weeks, 2 days (152
  /// days)`, `0:08:34.286`, a number as the format shows numbers (`8.5`, `8,5` in de_DE), or the
  /// fault's message. Texts are English in every locale. With a format of precision `.exact`
  /// (`DisplayFormat.plain`, for `--plain`) it is ``plainText``.
  package func text(in format: DisplayFormat) -> String {
    if format.precision == .exact { return plainText }
    switch self {
    case .date(let date): return date.longText
    case .difference(let difference): return difference.text
    case .duration(let span): return span.displayText
    case .number(let number): return format.text(for: number.decimal)
    case .fault(let fault): return fault.message
    }
  }

  /// The form of `--plain`, `:copy` and `:tape csv`: a date in ISO form (`2004-09-11`), a
  /// duration with its seconds to 34 significant digits, a difference its display text, a number
  /// as `DisplayFormat.plain` writes it, a fault its message.
  package var plainText: String {
    switch self {
    case .date(let date): date.isoText
    case .difference(let difference): difference.text
    case .duration(let span): span.plainText
    case .number(let number): DisplayFormat.plain.text(for: number.decimal)
    case .fault(let fault): fault.message
    }
  }

  /// Appends ``plainText``'s bytes to `bytes`: a date, a difference and a duration without
  /// building a string (the answer line of `--plain`, issue 51).
  package func appendPlainText(to bytes: inout [UInt8]) {
    switch self {
    case .date(let date): date.appendISOText(to: &bytes)
    case .difference(let difference): difference.appendText(to: &bytes)
    case .duration(let span): span.appendPlainText(to: &bytes)
    // Without a string between (issue 51).
    case .number(let number): DisplayFormat.plain.append(number.decimal, to: &bytes)
    case .fault: bytes.append(contentsOf: plainText.utf8)
    }
  }

  /// What `$N` of this line (line `line`) is in another mode (SPEC §13): a difference's total
  /// days, a number line's number, a fault as it is; a date or a duration rejects the line with
  /// a hint (`$3 is a duration; write $3 in h on a line for a number`).
  package func numberInOtherModes(line: Int) throws(LineError) -> OtherModeValue {
    switch self {
    case .number(let number): return .number(number)
    case .difference(let difference): return .number(DateNumber(difference.totalDays))
    case .fault(let fault): return .fault(fault)
    case .duration:
      throw LineError("$\(line) is a duration; write $\(line) in h on a line for a number")
    case .date:
      throw LineError(
        "$\(line) is a date; write $\(line) to another date on a line for a number of days")
    }
  }
}

/// What `$N` of a date line is in another mode: a number, or the line's fault.
package enum OtherModeValue: Hashable, Sendable {
  case number(DateNumber)
  case fault(DateFault)
}

/// A line of date mode read and calculated (SPEC §13): its value, its kind, and its text as it
/// is recorded and as the expression line shows it.
///
/// `DateLine(_:in:)` is the whole of a date line's meaning: text in, a value (or a fault, an
/// error of calculation shown as the display) out, or a `LineError` with the column and the
/// reason for a line that is rejected. It reads no clock and no session: `today`, the memory
/// and `$N` come from the ``Context``.
package struct DateLine: Hashable, Sendable {
  /// The value after the line: a date, a difference, a duration, a number, or a fault.
  package let value: DateValue
  /// The line's kind; `nil` only when the value is a fault that a `$N` brought and the kind
  /// cannot be told without it.
  package let kind: DateKind?
  /// The line as typed, with each `today` replaced by the date it stood for: what is recorded,
  /// so that a replay is exact (`today + 90d` is recorded `2026-12-01 + 90d`).
  package let recordedText: String
  /// The line normalised, for the expression line: one blank around `to`, `in` and each
  /// operator, dates in ISO form, units in lower case, hours without leading zeros, `today`
  /// replaced (`2019-07-31 to 2019-12-30`, `2008-01-31 + 1m 1d`, `(1:15 + 0:45) * 3`). `$N` and
  /// `mr` stay as written.
  ///
  /// Written as the line is read, from its syntax, when the line holds no `today` (the recorded
  /// text is the text: reading it again would give the same syntax, issue 51); else from
  /// ``recordedText`` read again.
  package let normalizedText: String
  /// N of each `$N` in the line, in order.
  package let references: [Int]

  /// What a date line reads from outside itself.
  package struct Context {
    /// The date `today` stands for (the caller reads the clock, or `CALC_TODAY`).
    package var today: CivilDate
    /// The memory's value, the operand `mr`; `nil` when the memory is empty.
    package var memory: DateNumber?
    /// The value of line N for `$N`; throws (the message is kept, the column becomes the
    /// `$N`'s) for a reference that the line may not make (`$7 refers to line 7; this is line
    /// 5`). `nil` rejects every `$N`.
    package var reference: ((Int) throws(LineError) -> DateValue)?

    package init(
      today: CivilDate, memory: DateNumber? = nil,
      reference: ((Int) throws(LineError) -> DateValue)? = nil
    ) {
      self.today = today
      self.memory = memory
      self.reference = reference
    }
  }

  /// Reads and calculates the date line `text` (a line without its note).
  ///
  /// Throws, with the 1-based column (in characters of `text`) and the reason, for a line that
  /// is rejected: text that is no date line, a date that does not exist (`no such date:
  /// February has 28 days in 2026`), a bad unit, a unit twice or out of order, an offset over
  /// 999, kinds that do not go together (`$2 is a duration; a date is needed`), `D1 - D2` (with
  /// the hint `D2 to D1`), a date plus a duration, times of day, time zones, other calendars, a
  /// calculation with numbers alone. Errors of calculation (`Date out of Bound`, `Cannot divide
  /// by zero`) are values: ``DateValue/fault(_:)``.
  ///
  /// - Complexity: O(n) for a line of n bytes, and each step of exact arithmetic
  ///   polynomial in the digits of its operands (at most 120, SPEC §2).
  package init(_ text: String, in context: Context) throws(LineError) {
    // The common line in one pass, without a tree (DateLine+OnePass.swift).
    if let line = Self.onePass(text, reference: context.reference) {
      self = line
      return
    }
    try self.init(readingTree: text, in: context)
  }

  /// Reads and calculates the date line `text` as ``init(_:in:)`` does, always through its
  /// tree (`DateParser`, `DateChecker`): what the one-pass reader is checked against.
  ///
  /// - Complexity: O(n) for a line of n bytes, and the cost of its exact arithmetic.
  package init(readingTree text: String, in context: Context) throws(LineError) {
    var parser = try DateParser(text)
    try self.init(text, syntax: parser.line(), in: context)
  }

  /// Calculates the date line `text`, whose syntax `syntax` is (read from `text` by a
  /// `DateParser`, as ``init(_:in:)`` reads it): for a caller that read the line already.
  init(_ text: String, syntax: DateSyntax, in context: Context) throws(LineError) {
    var checker = DateChecker(syntax: syntax, context: context)
    let kind = try checker.check()
    self.kind = kind
    value = checker.evaluate()
    references = checker.references
    recordedText = Self.recorded(syntax, text: text, today: context.today)
    normalizedText =
      recordedText == text
      ? Self.normalized(syntax, today: context.today) : Self.normalized(recorded: recordedText)
  }

  /// ``normalizedText`` of a line recorded as `text`, read again; `text` when it does not parse.
  ///
  /// - Complexity: O(n) in the line's length.
  private static func normalized(recorded text: String) -> String {
    guard var parser = try? DateParser(text), let parsed = try? parser.line() else {
      return text
    }
    // The recorded text holds no `today`: the date given here is never read.
    return normalized(parsed, today: .first)
  }

  /// `text` with each `$N` replaced by `$M`, M = `transform(N)` (for `:insert` and `:delete`,
  /// SPEC §11), everything else kept as it is.
  ///
  /// - Complexity: O(n) in the characters.
  package static func renumberingReferences(in text: String, _ transform: (Int) -> Int) -> String {
    var result = ""
    var characters = Substring(text)
    while let dollar = characters.firstIndex(of: "$") {
      result += characters[..<dollar] + "$"
      var rest = characters[characters.index(after: dollar)...]
      let digits = rest.prefix { $0.isASCII && $0.isNumber }
      if !digits.isEmpty, digits.count < 18, let line = Int(digits) {
        result += String(transform(line))
        rest = rest.dropFirst(digits.count)
      }
      characters = rest
    }
    return result + characters
  }

  /// Whether `text` may hold the word `today`: whether it holds `today` in any case of its ASCII
  /// letters, as the date line's words are read. `false` means no `today` for certain, so that
  /// a line without one reads no clock (issue 51).
  ///
  /// - Complexity: O(n) in the line's length.
  package static func mayMentionToday(_ text: String) -> Bool {
    // The last five bytes, each as a word's key folds it (DateWord.key), read in place (through
    // a generic sequence the scan cost a date line about 400 instructions, issue 51).
    var text = text
    return text.withUTF8 { bytes in
      let today = DateWord.today
      var window: UInt64 = 0
      for byte in bytes {
        window = (window << 8 | UInt64(byte | 0x20)) & 0xFF_FFFF_FFFF
        if window == today { return true }
      }
      return false
    }
  }

  /// `text`, a date line, with each `today` replaced by `today`'s ISO form, as it is recorded
  /// (``recordedText``), without calculating it; `text` as it is when it does not parse.
  ///
  /// - Complexity: O(n) in the line's length.
  package static func replacingToday(in text: String, with today: CivilDate) -> String {
    guard text.lowercased().contains("today"), var parser = try? DateParser(text),
      let syntax = try? parser.line()
    else { return text }
    return recorded(syntax, text: text, today: today)
  }

  private static func recorded(_ syntax: DateSyntax, text line: String, today: CivilDate)
    -> String
  {
    var spans: [Range<Int>] = []
    func collect(_ node: DateNode) {
      switch node.form {
      case .today: spans.append(node.start..<node.end)
      case .date, .duration, .number, .reference, .memory: break
      case .negate(let inner), .group(let inner): collect(inner)
      case .chain(let first, let terms):
        collect(first)
        for term in terms {
          if case .operand(_, let operand) = term.form { collect(operand) }
        }
      }
    }
    collect(syntax.left)
    if let right = syntax.right { collect(right) }
    guard !spans.isEmpty else { return line }
    var text = ""
    var index = 0
    for span in spans {
      text += DateLexer.text(syntax.bytes, index..<span.lowerBound) + today.isoText
      index = span.upperBound
    }
    return text + DateLexer.text(syntax.bytes, index..<syntax.bytes.count)
  }

  private static func normalized(_ syntax: DateSyntax, today: CivilDate) -> String {
    var text: [UInt8] = []
    text.reserveCapacity(syntax.bytes.count + 8)
    func write(_ string: String) { text.append(contentsOf: string.utf8) }
    func write(_ node: DateNode) {
      switch node.form {
      case .date(let date): date.appendISOText(to: &text)
      case .today: today.appendISOText(to: &text)
      case .duration:
        // Hours without leading zeros, one digit at least.
        var start = node.start
        while syntax.bytes[start] == UInt8(ascii: "0"), syntax.bytes[start + 1] != UInt8(ascii: ":")
        {
          start += 1
        }
        text.append(contentsOf: syntax.bytes[start..<node.end])
      case .number: text.append(contentsOf: syntax.bytes[node.start..<node.end])
      case .reference(let line): write("$" + String(line))
      case .memory: write("mr")
      case .negate(let inner):
        text.append(UInt8(ascii: "-"))
        write(inner)
      case .group(let inner):
        text.append(UInt8(ascii: "("))
        write(inner)
        text.append(UInt8(ascii: ")"))
      case .chain(let first, let terms):
        write(first)
        for term in terms {
          switch term.form {
          // Byte by byte: an array literal here allocated once an operator.
          case .operand(let op, let operand):
            text.append(UInt8(ascii: " "))
            text.append(op.byte)
            text.append(UInt8(ascii: " "))
            write(operand)
          case .offset(let isAddition, let offset):
            text.append(UInt8(ascii: " "))
            text.append(UInt8(ascii: isAddition ? "+" : "-"))
            text.append(UInt8(ascii: " "))
            offset.appendText(to: &text)
          }
        }
      }
    }
    write(syntax.left)
    if let right = syntax.right {
      write(" to ")
      write(right)
    }
    if let unit = syntax.unit {
      write(" in ")
      write(unit.rawValue)
    }
    return String(decoding: text, as: UTF8.self)
  }
}

/// The kinds of a date line's operands checked against each other, then the line calculated.
struct DateChecker {
  let syntax: DateSyntax
  let context: DateLine.Context
  /// The values of the `$N`, by the node's start.
  private var resolved: [Int: DateValue] = [:]
  private(set) var references: [Int] = []
  /// Whether a duration (or an operand whose kind a fault hides) takes part.
  private var involvesDuration = false

  init(syntax: DateSyntax, context: DateLine.Context) {
    self.syntax = syntax
    self.context = context
  }

  /// The line's kind; throws for kinds that do not go together.
  mutating func check() throws(LineError) -> DateKind? {
    let leftKind = try kind(of: syntax.left)
    if let right = syntax.right {
      let rightKind = try kind(of: right)
      // Each side in turn, without an array of the two (issue 51).
      func requireDate(_ node: DateNode, _ kind: DateKind?) throws(LineError) {
        if let kind, kind != .date {
          throw LineError("\(describe(node)) is a \(kind); a date is needed", column: node.column)
        }
      }
      try requireDate(syntax.left, leftKind)
      try requireDate(right, rightKind)
      return syntax.unit == nil ? .difference : .number
    }
    if syntax.unit != nil {
      if let leftKind, leftKind != .duration, leftKind != .difference {
        throw LineError(
          "\(describe(syntax.left)) is a \(leftKind); a duration is needed",
          column: syntax.left.column)
      }
      return .number
    }
    if leftKind == .number, !involvesDuration {
      switch syntax.left.unbracketed.form {
      case .reference, .memory: break
      default:
        throw LineError(
          "a calculation with numbers alone: date lines calculate with dates and durations "
            + "(std or sci calculate numbers)", column: syntax.left.column)
      }
    }
    return leftKind
  }

  /// The operand as a message names it: its text, or its column when that is long.
  private func describe(_ node: DateNode) -> String { describe(node.start..<node.end) }

  /// The text at `span` as a message names it: itself, or its column when that is long.
  private func describe(_ span: Range<Int>) -> String {
    span.count <= 30
      ? DateLexer.text(syntax.bytes, span) : "the operand at column \(span.lowerBound + 1)"
  }

  private mutating func kind(of node: DateNode) throws(LineError) -> DateKind? {
    let kind = try inferredKind(of: node)
    if kind == .duration || kind == nil { involvesDuration = true }
    return kind
  }

  private mutating func inferredKind(of node: DateNode) throws(LineError) -> DateKind? {
    switch node.form {
    case .date, .today: return .date
    case .duration: return .duration
    case .number: return .number
    case .memory:
      guard context.memory != nil else {
        throw LineError("mr: the memory is empty", column: node.column)
      }
      return .number
    case .reference(let line):
      guard let reference = context.reference else {
        throw LineError("$\(line) has no line to refer to here", column: node.column)
      }
      let value: DateValue
      do throws(LineError) {
        value = try reference(line)
      } catch {
        throw LineError(error.message, column: node.column)
      }
      resolved[node.start] = value
      references.append(line)
      return value.kind
    case .group(let inner): return try kind(of: inner)
    case .negate(let inner):
      let kind = try kind(of: inner)
      if let kind, kind == .date || kind == .difference {
        throw LineError(
          "\(describe(inner)) is a \(kind); a duration or a number is needed",
          column: inner.column)
      }
      return kind
    case .chain(let first, let terms):
      var kind = try kind(of: first)
      var span = first.start..<first.end
      for term in terms {
        switch term.form {
        case .offset:
          if let kind, kind != .date {
            throw LineError(
              "\(describe(span)) is a \(kind); a date is needed", column: span.lowerBound + 1)
          }
          kind = .date
        case .operand(let op, let operand):
          let operandKind = try self.kind(of: operand)
          kind = try combined(
            op, span, kind, operand, operandKind, operatorColumn: term.operatorStart + 1)
        }
        span = first.start..<term.end
      }
      return kind
    }
  }

  /// The kind of `left op right` (`left` is the text of the chain so far), or the rejection of
  /// kinds that do not go together.
  private func combined(
    _ op: DateOperator, _ left: Range<Int>, _ leftKind: DateKind?, _ right: DateNode,
    _ rightKind: DateKind?, operatorColumn: Int
  ) throws(LineError) -> DateKind? {
    let rightSpan = right.start..<right.end
    switch op {
    case .plus, .minus:
      if leftKind == .date {
        switch rightKind {
        case .date:
          if op == .minus {
            throw LineError(
              "a date minus a date: the days between them are \(describe(right)) to "
                + describe(left), column: operatorColumn)
          }
          throw LineError(
            "a date plus a date: \(describe(left)) to \(describe(right)) counts the days "
              + "between them", column: operatorColumn)
        case .duration:
          throw LineError(
            "a date plus a duration is not built: dates have no time of day (add days: + 1d)",
            column: right.column)
        case .number:
          if case .number = right.unbracketed.form {
            let text = describe(right.unbracketed)
            throw LineError(
              "\(text) needs a unit: \(text)d, \(text)w, \(text)m or \(text)y",
              column: right.column)
          }
          throw LineError(
            "\(describe(right)) is a number; an offset is needed (10d)", column: right.column)
        case .difference:
          throw LineError(
            "\(describe(right)) is a difference; an offset is needed (10d)", column: right.column
          )
        case nil: return .date
        }
      }
      // Each side in turn, without an array of the two (issue 51).
      func requireArithmetic(_ span: Range<Int>, _ kind: DateKind?, _ other: DateKind?)
        throws(LineError)
      {
        if kind == .date || kind == .difference {
          let needed = other == .number ? "a number" : "a duration"
          throw LineError(
            "\(describe(span)) is a \(kind!); \(needed) is needed", column: span.lowerBound + 1)
        }
      }
      try requireArithmetic(left, leftKind, rightKind)
      try requireArithmetic(rightSpan, rightKind, leftKind)
      switch (leftKind, rightKind) {
      case (.duration, .number):
        throw LineError(
          "\(describe(right)) is a number; a duration is needed", column: right.column)
      case (.number, .duration):
        throw LineError(
          "\(describe(left)) is a number; a duration is needed", column: left.lowerBound + 1)
      case (nil, _), (_, nil): return leftKind ?? rightKind
      default: return leftKind
      }
    case .times, .divide:
      func requireNoDate(_ span: Range<Int>, _ kind: DateKind?) throws(LineError) {
        if let kind, kind == .date || kind == .difference {
          throw LineError(
            "\(describe(span)) is a \(kind); a duration or a number is needed",
            column: span.lowerBound + 1)
        }
      }
      try requireNoDate(left, leftKind)
      try requireNoDate(rightSpan, rightKind)
      switch (op, leftKind, rightKind) {
      case (.times, .duration, .duration):
        throw LineError("a duration times a duration is not built", column: operatorColumn)
      case (.divide, .number, .duration):
        throw LineError("a number divided by a duration is not built", column: operatorColumn)
      case (.times, .duration, _), (.times, _, .duration), (.divide, .duration, .number):
        return .duration
      case (_, .number, .number), (.divide, .duration, .duration): return .number
      default: return nil
      }
    }
  }

  // MARK: - Calculating

  /// The value of the checked line.
  func evaluate() -> DateValue {
    let left = value(of: syntax.left)
    var result = left
    if let right = syntax.right {
      let second = value(of: right)
      switch (left, second) {
      case (.fault, _): result = left
      case (_, .fault): result = second
      case (.date(let a), .date(let b)): result = .difference(DateDifference(between: a, and: b))
      default: preconditionFailure("to joins dates (checked)")
      }
    }
    guard let unit = syntax.unit else { return result }
    switch result {
    case .duration(let span): return Self.checked(.number(span.converted(to: unit)))
    case .difference(let difference):
      let span = TimeSpan(seconds: DateRational(difference.totalDays) * DateRational(86_400))
      return Self.checked(.number(span.converted(to: unit)))
    case .fault: return result
    case .date, .number: preconditionFailure("in converts a duration (checked)")
    }
  }

  private func value(of node: DateNode) -> DateValue {
    switch node.form {
    case .date(let date): return .date(date)
    case .today: return .date(context.today)
    case .duration(let index):
      return Self.checked(.duration(TimeSpan(seconds: syntax.values[index])))
    case .number(let index): return Self.checked(.number(DateNumber(syntax.values[index])))
    // Another mode's number may lie beyond date mode's limits (`sci 1exp9999=`): rule 14 at
    // those limits, as a number recalled into Standard mode (SPEC §11).
    case .memory: return Self.checked(.number(context.memory!))
    case .reference: return Self.checked(resolved[node.start]!)
    case .group(let inner): return value(of: inner)
    case .negate(let inner):
      switch value(of: inner) {
      case .duration(let span): return .duration(TimeSpan(seconds: -span.seconds))
      case .number(let number): return .number(DateNumber(-number.value))
      case let other: return other
      }
    case .chain(let first, let terms):
      var result = value(of: first)
      for term in terms {
        if case .fault = result { return result }
        switch term.form {
        case .offset(let isAddition, let offset):
          guard case .date(let date) = result else { preconditionFailure("an offset moves a date") }
          let moved = isAddition ? offset.added(to: date) : offset.subtracted(from: date)
          result = moved.map { .date($0) } ?? .fault(.dateOutOfBound)
        case .operand(let op, let operand):
          let b = value(of: operand)
          if case .fault = b { return b }
          result = Self.checked(Self.apply(op, result, b))
        }
      }
      return result
    }
  }

  /// The number of a duration's seconds or of a number.
  private static func rational(_ value: DateValue) -> DateRational {
    switch value {
    case .duration(let span): span.seconds
    case .number(let number): number.value
    default: preconditionFailure("arithmetic on durations and numbers (checked)")
    }
  }

  private static func apply(_ op: DateOperator, _ a: DateValue, _ b: DateValue) -> DateValue {
    let (x, y) = (rational(a), rational(b))
    let isDuration: Bool
    if case .duration = a {
      isDuration = true
    } else if case .duration = b {
      isDuration = true
    } else {
      isDuration = false
    }
    let result: DateRational
    switch op {
    case .plus: result = x + y
    case .minus: result = x - y
    case .times: result = x * y
    case .divide:
      guard let quotient = DateRational.dividing(x, by: y) else {
        return .fault(.calculation(x.isZero ? .undefined : .divideByZero))
      }
      if case .duration = b { return .number(DateNumber(quotient)) }
      result = quotient
    }
    return isDuration ? .duration(TimeSpan(seconds: result)) : .number(DateNumber(result))
  }

  /// Rule 14 on a result: a magnitude of 10^100 or more is `Overflow`, a nonzero one below
  /// 10^-100 becomes 0.
  static func checked(_ value: DateValue) -> DateValue {
    let number: DateRational
    switch value {
    case .duration(let span): number = span.seconds
    case .number(let value): number = value.value
    default: return value
    }
    if number.magnitudeReaches(powerOfTen: 100) { return .fault(.calculation(.overflow)) }
    guard !number.isZero, !number.magnitudeReaches(powerOfTen: -100) else { return value }
    if case .duration = value { return .duration(TimeSpan(seconds: .zero)) }
    return .number(DateNumber(.zero))
  }
}
