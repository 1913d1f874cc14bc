// The common date line read and calculated in one pass, without a tree (issue 51; SPEC §13):
// a date, `D to D`, `D ± offset`, durations and numbers with + - * / and brackets, `in` a unit,
// and `$N` that is a date, a duration or a number when a session resolves it. Whatever it does
// not handle — `today`, `mr`, any other `$N`, a fault, a value that rule 14 changes, and every
// rejection — it declines (`nil`), and the tree (DateLine+Syntax.swift, DateLine.swift) reads
// the line from its start: so its messages, columns and faults are the tree's alone.

extension DateLine {
  /// The line `text` read and calculated in one pass, if it is a common line that needs nothing
  /// of a context and calculates without a fault: the same value, kind and texts as
  /// ``init(_:in:)`` gives it; `nil` for any other line (the tree reads it).
  ///
  /// - Complexity: O(n) for a line of n bytes, and the cost of its exact arithmetic.
  package static func onePass(_ text: String) -> DateLine? {
    onePass(text, reference: nil)
  }

  /// The line `text` read and calculated in one pass as ``onePass(_:)`` reads it, each `$N`
  /// resolved through `reference` (``Context/reference``): a `$N` whose value is a date, a
  /// duration or a number that rule 14 leaves as it is is an operand, as the tree takes it;
  /// for any other (a difference, a fault, a reference that `reference` refuses), and with no
  /// `reference`, `nil` (the tree decides, and gives the errors).
  ///
  /// - Complexity: O(n) for a line of n bytes, and the cost of its exact arithmetic.
  package static func onePass(
    _ text: String, reference: ((Int) throws(LineError) -> DateValue)?
  ) -> DateLine? {
    var reader = DateOnePass()
    let read =
      if let reference {
        reader.read(text) { number in try? reference(number) }
      } else {
        reader.read(text) { _ in nil }
      }
    guard let read else { return nil }
    // Written as the line normalises it, the text is shared, not made again (a string's
    // allocation a line longer than 15 bytes).
    return DateLine(
      value: read.value, kind: read.kind, recordedText: text,
      normalizedText: reader.isNormalized
        ? text : String(decoding: reader.normalized, as: UTF8.self), references: reader.references)
  }

  /// A line calculated already: its parts as they are.
  init(
    value: DateValue, kind: DateKind?, recordedText: String, normalizedText: String,
    references: [Int]
  ) {
    self.value = value
    self.kind = kind
    self.recordedText = recordedText
    self.normalizedText = normalizedText
    self.references = references
  }
}

extension DateStep {
  /// The step of the line `text` read and calculated in one pass, as
  /// ``DateLine/onePass(_:reference:)`` reads it and ``init(_:)`` makes its step, without
  /// making the line (a session's common date line, ``Session/perform(commonDateLine:mayReferToLines:)``:
  /// the line's copy and destruction cost about 590 instructions a date line,
  /// Documentation/Performance.md, "Date lines, session 12"); `nil` where one pass declines.
  ///
  /// - Complexity: O(n) for a line of n bytes, and the cost of its exact arithmetic.
  static func onePass(
    _ text: String, reference: ((Int) throws(LineError) -> DateValue)? = nil
  ) -> DateStep? {
    var scratch = DateScratch()
    guard let reference else { return onePass(text, reusing: &scratch) { _ in nil } }
    return onePass(text, reusing: &scratch) { number in try? reference(number) }
  }

  /// ``onePass(_:reference:)`` with the reader kept in `scratch` and left there for the next
  /// line: a script's date lines make and destroy no reader and allocate no array (about 340
  /// instructions a line for the arrays, Documentation/Performance.md, "Date lines, session 14";
  /// about 900 for the reader, "Date lines, session 15"). `reference` gives the value of line N
  /// for `$N`, or `nil` to decline it; it is not kept.
  ///
  /// - Complexity: as ``onePass(_:reference:)``.
  package static func onePass(
    _ text: String, reusing scratch: inout DateScratch, reference: (Int) -> DateValue?
  ) -> DateStep? {
    var text = text
    return text.withUTF8 { onePass($0, reusing: &scratch, reference: reference) }
  }

  /// ``onePass(_:reusing:reference:)-(String,_,_)`` of the line's bytes: a script's line is
  /// read where it lies, and its step holds the text inline when it can (``DateText``), with
  /// no string made for it. A line of a common shape (``DateShape/step(of:reference:)``) is read
  /// by its shape, without the reader; with `shapeOnly`, any other line is `nil`.
  ///
  /// - Complexity: as ``onePass(_:reference:)``.
  package static func onePass(
    _ bytes: UnsafeBufferPointer<UInt8>, reusing scratch: inout DateScratch,
    shapeOnly: Bool = false, reference: (Int) -> DateValue?
  ) -> DateStep? {
    if let step = DateShape.step(of: bytes, reference: reference) { return step }
    if shapeOnly { return nil }
    guard let read = scratch.reader.read(bytes, reference: reference) else { return nil }
    if scratch.reader.isNormalized {
      return DateStep(value: read.value, text: DateText(bytes, normalized: nil))
    }
    return DateStep(value: read.value, text: DateText(bytes, normalized: scratch.reader.normalized))
  }
}

/// The one-pass reader kept between a script's date lines
/// (``DateStep/onePass(_:reusing:reference:)``): its arrays only grow, to the longest line's
/// length, and it is reset, not made again, for each line.
package struct DateScratch: Sendable {
  /// The reader of the last line.
  var reader = DateOnePass()

  /// A reader that has read no line.
  package init() {}
}

// Sendable although it holds a buffer pointer: outside `read(_:reference:)`, the only place
// that sets it, the pointer is nil and the buffer empty, so a reader that is shared or sent
// between reads points at nothing.
extension DateOnePass: @unchecked Sendable {}

/// The reader and calculator of ``DateLine/onePass(_:)``: the grammar of DateLine+Syntax.swift
/// over the same tokens (``DateLexer``), each operand's value and kind as it is read and the
/// normalised text written as it goes; every function returns `nil` where the line is not one
/// it calculates.
struct DateOnePass {
  /// An operand's value: the kinds a line's operands have on either side of `to` (a `$N` of
  /// a difference or a fault is the tree's).
  private enum Operand {
    case date(CivilDate)
    case duration(DateRational)
    case number(DateRational)
  }

  /// The line's bytes, where they lie, valid only while ``read(_:reference:)-(UnsafeBufferPointer<UInt8>,_)``
  /// reads them (not copied into an array); empty otherwise.
  private var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
  private var lexer = DateLexer(keepsValues: false)
  /// The token being read and the one after it: plain data, copied freely.
  private var current = DateToken(kind: .end, start: 0, end: 0)
  private var next = DateToken(kind: .end, start: 0, end: 0)
  /// The values of ``current`` and ``next`` where they are a duration or a number (taken out
  /// of the lexer at once, so that the lexer holds at most one value: a long line keeps no
  /// array of them); else whatever was left there, not read. Apart from the tokens, so that
  /// moving to the next token copies no value and destroys none.
  private var currentValue = DateRational.zero
  private var nextValue = DateRational.zero
  private var depth = 0
  /// Whether a duration was read (a line of numbers alone is rejected).
  private var sawDuration = false
  /// The normalised text written so far (``DateLine/normalizedText``), valid until the reader
  /// changes.
  var normalized: UnsafeBufferPointer<UInt8> { writer.bytes }
  /// Where the normalised text is written: this reader's own (``read(_:reference:)-(UnsafeBufferPointer<UInt8>,_)``
  /// takes a new one when a copy of the reader shares it).
  private var writer = ByteWriter()
  /// N of each `$N` read, in order (``DateLine/references``).
  private(set) var references: [Int] = []
  /// Whether the normalised text of the line read last is its text (written as it normalises).
  private(set) var isNormalized = false

  /// A reader that has read no line.
  init() {}

  /// Reads and calculates the line `text`, `$N` resolved by `reference` (`nil` declines it):
  /// its value and kind, and ``normalized`` and ``references`` as the line gives them; `nil`
  /// where one pass declines the line. The arrays of the line before are emptied, not let go.
  ///
  /// - Complexity: O(n) for a line of n bytes, and the cost of its exact arithmetic.
  mutating func read(_ text: String, reference: (Int) -> DateValue?) -> (
    value: DateValue, kind: DateKind
  )? {
    var text = text
    // The string's own bytes (a native string's, just made, are contiguous): not copied.
    return text.withUTF8 { read($0, reference: reference) }
  }

  /// ``read(_:reference:)-(String,_)`` of a line's bytes, which must stay where they are
  /// until it returns.
  mutating func read(_ buffer: UnsafeBufferPointer<UInt8>, reference: (Int) -> DateValue?) -> (
    value: DateValue, kind: DateKind
  )? {
    lexer.restart()
    current = DateToken(kind: .end, start: 0, end: 0)
    next = current
    depth = 0
    sawDuration = false
    isNormalized = false
    if !isKnownUniquelyReferenced(&writer) { writer = ByteWriter(capacity: buffer.count + 8) }
    writer.removeAll()
    if !references.isEmpty { references.removeAll(keepingCapacity: true) }
    bytes = buffer
    defer { bytes = UnsafeBufferPointer(start: nil, count: 0) }
    guard start(), let read = line(reference) else { return nil }
    // Through the buffers, a word at a time: the generic `elementsEqual` cost about 12
    // instructions a byte.
    isNormalized = ByteScan.equal(writer.bytes, buffer)
    return read
  }

  /// Reads the first two tokens; `false` when the lexer rejects one.
  private mutating func start() -> Bool {
    guard readNext(), advance() else { return false }
    writer.reserve(bytes.count + 8)
    return true
  }

  /// Reads the next token into ``next``, and its value, for a duration or a number, into
  /// ``nextValue``; `false` when the lexer rejects it.
  private mutating func readNext() -> Bool {
    guard let token = try? lexer.token(in: bytes) else { return false }
    next = token
    switch token.kind {
    case .duration, .number: lexer.moveValue(into: &nextValue)
    default: break
    }
    return true
  }

  /// Moves to the next token; `false` when the lexer rejects it.
  private mutating func advance() -> Bool {
    current = next
    // Swapped, not copied: a value may hold references (a copy retained them).
    swap(&currentValue, &nextValue)
    if current.isEnd { return true }
    return readNext()
  }

  /// Whether rule 14 leaves `value` as it is: below 10^100, and zero or at least 10^-100.
  static func isKept(_ value: DateRational) -> Bool {
    // Parts below 2^64: zero, or between 2^-64 and 2^64, without counting digits.
    if value.hasWordParts { return true }
    return !value.magnitudeReaches(powerOfTen: 100)
      && (value.isZero || value.magnitudeReaches(powerOfTen: -100))
  }

  private mutating func write(_ string: StaticString) {
    string.withUTF8Buffer { writer.append(contentsOf: $0) }
  }

  /// The whole line: its value and kind.
  private mutating func line(_ reference: (Int) -> DateValue?) -> (
    value: DateValue, kind: DateKind
  )? {
    if current.isEnd { return nil }
    guard let left = sum(reference) else { return nil }
    var value: DateValue
    var kind: DateKind
    if current.isWord(DateWord.to) {
      guard advance(), !current.isEnd, case .date(let first) = left else { return nil }
      write(" to ")
      guard let right = sum(reference), case .date(let second) = right else { return nil }
      value = .difference(DateDifference(between: first, and: second))
      kind = .difference
    } else {
      switch left {
      case .date(let date): (value, kind) = (.date(date), .date)
      case .duration(let seconds):
        (value, kind) = (.duration(TimeSpan(seconds: seconds)), .duration)
      case .number(let number): (value, kind) = (.number(DateNumber(number)), .number)
      }
    }
    if current.isWord(DateWord.in) {
      guard advance(), case .word(let key) = current.kind else { return nil }
      let unit: TimeUnit
      switch key {
      case DateWord.hours: unit = .hours
      case DateWord.minutes: unit = .minutes
      case DateWord.seconds: unit = .seconds
      case DateWord.days: unit = .days
      case DateWord.weeks: unit = .weeks
      default: return nil
      }
      guard advance() else { return nil }
      let span: TimeSpan
      switch value {
      case .duration(let duration): span = duration
      case .difference(let difference):
        span = TimeSpan(seconds: DateRational(difference.totalDays) * DateRational(86_400))
      default: return nil
      }
      let number = span.converted(to: unit)
      guard Self.isKept(number.value) else { return nil }
      write(" in ")
      for byte in unit.rawValue.utf8 { writer.append(byte) }
      (value, kind) = (.number(number), .number)
    } else if kind == .number, !sawDuration {
      return nil
    }
    guard current.isEnd else { return nil }
    return (value, kind)
  }

  private mutating func sum(_ reference: (Int) -> DateValue?) -> Operand? {
    guard var result = product(reference) else { return nil }
    while true {
      let isAddition: Bool
      switch current.kind {
      case .plus: isAddition = true
      case .minus: isAddition = false
      default: return result
      }
      guard advance() else { return nil }
      if case .number = current.kind, case .word(let key) = next.kind,
        key != DateWord.to, key != DateWord.in
      {
        guard case .date(let date) = result, let offset = offset() else { return nil }
        guard let moved = isAddition ? offset.added(to: date) : offset.subtracted(from: date)
        else { return nil }
        writer.append(UInt8(ascii: " "))
        writer.append(UInt8(ascii: isAddition ? "+" : "-"))
        writer.append(UInt8(ascii: " "))
        offset.appendText(to: writer)
        result = .date(moved)
      } else {
        writer.append(UInt8(ascii: " "))
        writer.append(UInt8(ascii: isAddition ? "+" : "-"))
        writer.append(UInt8(ascii: " "))
        guard let right = product(reference),
          let combined = Self.apply(isAddition ? .plus : .minus, result, right)
        else { return nil }
        result = combined
      }
    }
  }

  /// `1y 2m 3w 4d`, as ``DateParser``'s `offset()` reads it.
  private mutating func offset() -> DateOffset? {
    var offset = DateOffset()
    var lastUnit = -1
    while case .number = current.kind, case .word(let key) = next.kind,
      key != DateWord.to, key != DateWord.in
    {
      let count = current
      guard !bytes[count.start..<count.end].contains(UInt8(ascii: ".")),
        let unit = DateWord.offsetUnit(key), unit > lastUnit
      else { return nil }
      var digitsStart = count.start
      while digitsStart < count.end - 1, bytes[digitsStart] == UInt8(ascii: "0") {
        digitsStart += 1
      }
      guard count.end - digitsStart <= 3 else { return nil }
      offset.set(DateLexer.integer(bytes, digitsStart..<count.end), place: unit)
      lastUnit = unit
      guard advance(), advance() else { return nil }
    }
    if case .number = current.kind { return nil }
    return offset
  }

  @inline(__always)
  private mutating func product(_ reference: (Int) -> DateValue?) -> Operand? {
    guard var result = unary(reference) else { return nil }
    while true {
      let op: DateOperator
      switch current.kind {
      case .times: op = .times
      case .divide: op = .divide
      default: return result
      }
      guard advance() else { return nil }
      writer.append(UInt8(ascii: " "))
      writer.append(op.byte)
      writer.append(UInt8(ascii: " "))
      guard let right = unary(reference), let combined = Self.apply(op, result, right) else {
        return nil
      }
      result = combined
    }
  }

  /// `left op right` as DateChecker calculates it, with rule 14; `nil` for kinds that do not go
  /// together, a fault, or a result that rule 14 changes.
  private static func apply(_ op: DateOperator, _ left: Operand, _ right: Operand) -> Operand? {
    let (x, xIsDuration): (DateRational, Bool)
    let (y, yIsDuration): (DateRational, Bool)
    switch left {
    case .date: return nil
    case .duration(let value): (x, xIsDuration) = (value, true)
    case .number(let value): (x, xIsDuration) = (value, false)
    }
    switch right {
    case .date: return nil
    case .duration(let value): (y, yIsDuration) = (value, true)
    case .number(let value): (y, yIsDuration) = (value, false)
    }
    let result: Operand
    switch op {
    case .plus, .minus:
      guard xIsDuration == yIsDuration else { return nil }
      let value = op == .plus ? x + y : x - y
      result = xIsDuration ? .duration(value) : .number(value)
    case .times:
      guard !(xIsDuration && yIsDuration) else { return nil }
      let value = x * y
      result = xIsDuration || yIsDuration ? .duration(value) : .number(value)
    case .divide:
      guard !(yIsDuration && !xIsDuration), let value = DateRational.dividing(x, by: y) else {
        return nil
      }
      result = xIsDuration && !yIsDuration ? .duration(value) : .number(value)
    }
    switch result {
    case .duration(let value), .number(let value): return isKept(value) ? result : nil
    case .date: return result
    }
  }

  /// Minus signs, then an operand: an odd run negates it once, an even run twice (as the tree
  /// does, and writes `-` or `--`).
  @inline(__always)
  private mutating func unary(_ reference: (Int) -> DateValue?) -> Operand? {
    var signs = 0
    while case .minus = current.kind {
      guard advance() else { return nil }
      signs += 1
    }
    if signs > 0 {
      writer.append(UInt8(ascii: "-"))
      if signs % 2 == 0 { writer.append(UInt8(ascii: "-")) }
    }
    guard let operand = primary(reference) else { return nil }
    guard signs > 0 else { return operand }
    switch operand {
    case .date: return nil
    case .duration(let value):
      return .duration(signs % 2 == 1 ? -value : -(-value))
    case .number(let value):
      return .number(signs % 2 == 1 ? -value : -(-value))
    }
  }

  /// The current token's value, moved out (``currentValue`` is left zero): no copy of it, and
  /// no copy of the token with it.
  private mutating func takeCurrentValue() -> DateRational {
    var value = DateRational.zero
    swap(&value, &currentValue)
    return value
  }

  private mutating func primary(_ reference: (Int) -> DateValue?) -> Operand? {
    let token = current
    switch token.kind {
    case .date(let date):
      guard advance() else { return nil }
      // Written YYYY-MM-DD, the token is the date's ISO form (about 350 instructions a date).
      if token.end - token.start == 10, bytes[token.start + 4] == UInt8(ascii: "-"),
        bytes[token.start + 7] == UInt8(ascii: "-")
      {
        writer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[token.start..<token.end]))
      } else {
        date.appendISOText(to: writer)
      }
      return .date(date)
    case .duration:
      guard Self.isKept(currentValue) else { return nil }
      let value = takeCurrentValue()
      guard advance() else { return nil }
      sawDuration = true
      // Hours without leading zeros, one digit at least.
      var start = token.start
      while bytes[start] == UInt8(ascii: "0"), bytes[start + 1] != UInt8(ascii: ":") {
        start += 1
      }
      writer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<token.end]))
      return .duration(value)
    case .number:
      guard Self.isKept(currentValue) else { return nil }
      let value = takeCurrentValue()
      guard advance() else { return nil }
      writer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[token.start..<token.end]))
      return .number(value)
    case .open:
      guard advance() else { return nil }
      depth += 1
      guard depth <= DateParser.maximumDepth else { return nil }
      writer.append(UInt8(ascii: "("))
      guard let inner = sum(reference), case .close = current.kind, advance() else {
        return nil
      }
      writer.append(UInt8(ascii: ")"))
      depth -= 1
      return inner
    case .reference(let line):
      // As the tree's checker takes it (`DateChecker`): the value as it is, rule 14 on a
      // duration or a number (a value it changes, and a fault, are the tree's), a duration
      // counting as one in the line.
      guard let value = reference(line) else { return nil }
      let operand: Operand
      switch value {
      case .date(let date): operand = .date(date)
      case .duration(let span):
        guard Self.isKept(span.seconds) else { return nil }
        sawDuration = true
        operand = .duration(span.seconds)
      case .number(let number):
        guard Self.isKept(number.value) else { return nil }
        operand = .number(number.value)
      case .difference, .fault: return nil
      }
      guard advance() else { return nil }
      references.append(line)
      writer.append(UInt8(ascii: "$"))
      DateDifference.appendDecimal(line, to: writer)
      return operand
    default:
      // `today`, `mr`, another word, a misplaced operator or the end: the tree's.
      return nil
    }
  }
}
