// The commonest date lines read by their shape, without the lexer or the grammar (issue 51): a
// date, two dates with `to` between them, a date moved by an offset, a sum of two durations, a
// duration in a unit, divided or (a sum) multiplied by a whole number, and those written with
// `$N`. Any other line, and a shape whose value leaves the range or whose `$N` is of another
// kind, goes on to the one-pass reader (DateLine+OnePass.swift), which reads such a line to the
// same value and texts: `DateShapeTests` compares the two.

/// The step of a date line of a common shape (``step(of:reference:)``).
package enum DateShape {
  /// The step of `bytes` when they are one of these shapes, or `nil`:
  ///
  /// - `YYYY-MM-DD`, `YYYY-MM-DD to YYYY-MM-DD`, or `YYYY-MM-DD + offset` or `- offset` (the
  ///   offset's units `y m w d` in that order, one blank between them, counts of 0 to 999
  ///   without leading zeros), each exactly as a line's normalised text writes it, and a
  ///   result in the range;
  /// - `A+B`, `A in u` (`u` one of `h min s d w`), `A/n` and `(A+B)*n`, where `A` and `B` are
  ///   durations `H:MM`, `H:MM:SS` or `H:MM:SS.f` of at most 7 digits of hours and `n` a whole
  ///   number of 1 to 9 digits, each operator with a blank on either side or none;
  /// - `$N to $M` and `$N + offset` or `- offset` of dates, and `$N in u` and `$N*k` (`k` 1 to
  ///   9 digits) of a duration, N and M of 1 to 9 digits without a leading zero, each `$N`
  ///   resolved by `reference` (`nil` declines the line, as the one-pass reader declines it).
  ///
  /// Read so, a script's date line costs from about 700 instructions fewer (a date) to 3,000 (an
  /// offset) than through the one-pass reader (Documentation/Performance.md, "Date lines by
  /// their shape, session 18"). Not inlined: at its caller, the step was copied and destroyed.
  /// - Complexity: O(n) in the length of the line.
  @inline(never)
  package static func step(
    of bytes: UnsafeBufferPointer<UInt8>, reference: (Int) -> DateValue?
  ) -> DateStep? {
    guard let first = bytes.first else { return nil }
    if first == UInt8(ascii: "$") { return referenceStep(of: bytes, reference: reference) }
    guard bytes.count >= 5 else { return nil }
    if bytes[4] == UInt8(ascii: "-") {
      return dateValue(of: bytes).map {
        DateStep(value: $0, text: DateText(shaped: bytes, normalized: nil))
      }
    }
    return durationStep(of: bytes)
  }

  /// The value of a line of dates (``step(of:reference:)``).
  private static func dateValue(of bytes: UnsafeBufferPointer<UInt8>) -> DateValue? {
    let count = bytes.count
    guard count >= 10, let first = CivilDate.scanISO(bytes, at: 0) else { return nil }
    if count == 10 { return .date(first) }
    guard count >= 14, bytes[10] == UInt8(ascii: " ") else { return nil }
    if bytes[11] == UInt8(ascii: "t") {
      guard count == 24, bytes[12] == UInt8(ascii: "o"), bytes[13] == UInt8(ascii: " "),
        let second = CivilDate.scanISO(bytes, at: 14)
      else { return nil }
      return .difference(DateDifference(between: first, and: second))
    }
    return moved(first, bytes, at: 11)
  }

  /// `date` moved by ` + offset` or ` - offset` written from `index` (after its blank) to the
  /// end of `bytes`; `nil` for other bytes, and a result out of the range.
  private static func moved(_ date: CivilDate, _ bytes: UnsafeBufferPointer<UInt8>, at index: Int)
    -> DateValue?
  {
    guard index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: " "),
      let offset = offset(bytes, from: index + 2)
    else { return nil }
    switch bytes[index] {
    case UInt8(ascii: "+"): return offset.added(to: date).map { .date($0) }
    case UInt8(ascii: "-"): return offset.subtracted(from: date).map { .date($0) }
    default: return nil
    }
  }

  /// The ASCII digits from `start` of `bytes` (none, or as many as there are): their value
  /// when there are at most 9 of them (else -1), and where they end.
  private static func digits(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (
    value: Int, end: Int
  ) {
    var (index, value) = (start, 0)
    while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 {
      value = value &* 10 &+ Int(bytes[index] &- UInt8(ascii: "0"))
      index += 1
    }
    return (index - start <= 9 ? value : -1, index)
  }

  /// The number N of `$N` at `start` of `bytes` (1 to 9 digits, no leading zero), and where
  /// it ends.
  private static func lineNumber(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> (
    number: Int, end: Int
  )? {
    guard start + 1 < bytes.count, bytes[start] == UInt8(ascii: "$"),
      bytes[start + 1] != UInt8(ascii: "0")
    else { return nil }
    let (number, end) = digits(bytes, from: start + 1)
    return end > start + 1 && number >= 0 ? (number, end) : nil
  }

  /// The step of a line that starts with `$N` (``step(of:reference:)``).
  private static func referenceStep(
    of bytes: UnsafeBufferPointer<UInt8>, reference: (Int) -> DateValue?
  ) -> DateStep? {
    let count = bytes.count
    guard let (first, firstEnd) = lineNumber(bytes, at: 0), firstEnd + 1 < count else {
      return nil
    }
    if bytes[firstEnd] == UInt8(ascii: "*") {
      // `$N*k`: a duration times a whole number, normalised with blanks around `*`.
      let (factor, end) = digits(bytes, from: firstEnd + 1)
      guard end == count, factor >= 0, case .duration(let span)? = reference(first),
        DateOnePass.isKept(span.seconds)
      else { return nil }
      let product = span.seconds * DateRational(factor)
      guard DateOnePass.isKept(product) else { return nil }
      let value = DateValue.duration(TimeSpan(seconds: product))
      return normalized(bytes) { text in
        text.append(bytes, 0..<firstEnd)
        text.append(" * ")
        text.append(bytes, (firstEnd + 1)..<count)
      } body: {
        DateStep(value: value, text: DateText(shaped: bytes, normalized: $0))
      }
    }
    guard bytes[firstEnd] == UInt8(ascii: " "), firstEnd + 3 < count else { return nil }
    let value: DateValue
    switch bytes[firstEnd + 1] {
    case UInt8(ascii: "t"):
      guard bytes[firstEnd + 2] == UInt8(ascii: "o"), bytes[firstEnd + 3] == UInt8(ascii: " "),
        let (second, secondEnd) = lineNumber(bytes, at: firstEnd + 4), secondEnd == count,
        case .date(let start)? = reference(first), case .date(let end)? = reference(second)
      else { return nil }
      value = .difference(DateDifference(between: start, and: end))
    case UInt8(ascii: "i"):
      guard bytes[firstEnd + 2] == UInt8(ascii: "n"), bytes[firstEnd + 3] == UInt8(ascii: " "),
        let unit = unit(bytes, from: firstEnd + 4), case .duration(let span)? = reference(first),
        DateOnePass.isKept(span.seconds)
      else { return nil }
      let number = TimeSpan(seconds: span.seconds).converted(to: unit)
      guard DateOnePass.isKept(number.value) else { return nil }
      value = .number(number)
    default:
      guard case .date(let date)? = reference(first),
        let moved = moved(date, bytes, at: firstEnd + 1)
      else { return nil }
      value = moved
    }
    return DateStep(value: value, text: DateText(shaped: bytes, normalized: nil))
  }

  /// The unit written from `start` to the end of `bytes` as a line's normalised text writes
  /// it (`h min s d w`).
  private static func unit(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> TimeUnit? {
    switch bytes.count - start {
    case 1:
      switch bytes[start] {
      case UInt8(ascii: "h"): return .hours
      case UInt8(ascii: "s"): return .seconds
      case UInt8(ascii: "d"): return .days
      case UInt8(ascii: "w"): return .weeks
      default: return nil
      }
    case 3:
      guard bytes[start] == UInt8(ascii: "m"), bytes[start + 1] == UInt8(ascii: "i"),
        bytes[start + 2] == UInt8(ascii: "n")
      else { return nil }
      return .minutes
    default:
      return nil
    }
  }

  /// The offset that `bytes` from `start` to their end are, written as ``DateOffset`` writes
  /// it; `nil` for anything else.
  private static func offset(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> DateOffset? {
    var offset = DateOffset()
    var index = start
    var lastUnit = -1
    while true {
      let digitsStart = index
      let number: Int
      (number, index) = digits(bytes, from: digitsStart)
      let count = index - digitsStart
      // 0 to 999, with no leading zero; then a unit.
      guard count >= 1, count <= 3, count == 1 || bytes[digitsStart] != UInt8(ascii: "0"),
        index < bytes.count
      else { return nil }
      // A unit of one letter, as the lexer keys a word of it.
      guard let unit = DateWord.offsetUnit(UInt64(bytes[index])), unit > lastUnit else {
        return nil
      }
      offset.set(number, place: unit)
      lastUnit = unit
      index += 1
      if index == bytes.count { return offset }
      guard bytes[index] == UInt8(ascii: " ") else { return nil }
      index += 1
    }
  }

  /// A duration read in a line's bytes: its seconds (`units / scale`, the scale 1, 10, 100 or
  /// 1000: plain integers, which a `DateRational` is made of once, for the line's value),
  /// where its hours start without leading zeros (as the normalised text writes them), and
  /// where it ends.
  private struct Duration {
    var units: Int
    var scale: Int
    var hoursStart: Int
    var end: Int
  }

  /// `numerator / denominator`, reduced as the exact arithmetic reduces it.
  private static func rational(_ numerator: Int, over denominator: Int) -> DateRational {
    denominator == 1
      ? DateRational(numerator)
      : DateRational(
        isNegative: false, numerator: DateNatural(UInt64(numerator)),
        denominator: DateNatural(UInt64(denominator)))
  }

  /// The step of a line of durations (``step(of:reference:)``): `A+B`, `A in u`, `A/n` and
  /// `(A+B)*n`, each with or without blanks around its operator.
  private static func durationStep(of bytes: UnsafeBufferPointer<UInt8>) -> DateStep? {
    let count = bytes.count
    if bytes[0] == UInt8(ascii: "(") {
      // `(A+B)*n`: the sum, then a whole number.
      guard let sum = sum(bytes, at: 1), sum.end < count, bytes[sum.end] == UInt8(ascii: ")"),
        let (factor, factorStart) = operand(bytes, after: sum.end + 1, UInt8(ascii: "*"))
      else { return nil }
      let seconds = rational(sum.units, over: sum.scale)
      guard DateOnePass.isKept(seconds) else { return nil }
      let product = seconds * DateRational(factor)
      guard DateOnePass.isKept(product) else { return nil }
      let value = DateValue.duration(TimeSpan(seconds: product))
      return normalized(bytes) { text in
        text.append("(")
        text.append(bytes, sum.left)
        text.append(" + ")
        text.append(bytes, sum.right)
        text.append(") * ")
        text.append(bytes, factorStart..<count)
      } body: {
        DateStep(value: value, text: DateText(shaped: bytes, normalized: $0))
      }
    }
    if let sum = sum(bytes, at: 0) {
      guard sum.end == count else { return nil }
      let seconds = rational(sum.units, over: sum.scale)
      guard DateOnePass.isKept(seconds) else { return nil }
      let value = DateValue.duration(TimeSpan(seconds: seconds))
      if sum.isNormalized {
        return DateStep(value: value, text: DateText(shaped: bytes, normalized: nil))
      }
      return normalized(bytes) { text in
        text.append(bytes, sum.left)
        text.append(" + ")
        text.append(bytes, sum.right)
      } body: {
        DateStep(value: value, text: DateText(shaped: bytes, normalized: $0))
      }
    }
    guard let left = duration(bytes, at: 0), left.end < count else { return nil }
    let seconds = rational(left.units, over: left.scale)
    if let (divisor, divisorStart) = operand(bytes, after: left.end, UInt8(ascii: "/")) {
      // `A/n`: a duration divided by a whole number (not zero: a fault, the tree's).
      guard DateOnePass.isKept(seconds),
        let quotient = DateRational.dividing(seconds, by: DateRational(divisor)),
        DateOnePass.isKept(quotient)
      else { return nil }
      let value = DateValue.duration(TimeSpan(seconds: quotient))
      return normalized(bytes) { text in
        text.append(bytes, left.hoursStart..<left.end)
        text.append(" / ")
        text.append(bytes, divisorStart..<count)
      } body: {
        DateStep(value: value, text: DateText(shaped: bytes, normalized: $0))
      }
    }
    // ` in u`: the unit as the normalised text writes it.
    let index = left.end + 1
    guard bytes[left.end] == UInt8(ascii: " "), count - index >= 4,
      bytes[index] == UInt8(ascii: "i"), bytes[index + 1] == UInt8(ascii: "n"),
      bytes[index + 2] == UInt8(ascii: " "), let unit = unit(bytes, from: index + 3)
    else { return nil }
    let number = rational(left.units, over: left.scale * unit.seconds)
    guard DateOnePass.isKept(seconds), DateOnePass.isKept(number) else { return nil }
    let value = DateValue.number(DateNumber(number))
    if left.hoursStart == 0 {
      return DateStep(value: value, text: DateText(shaped: bytes, normalized: nil))
    }
    return normalized(bytes) { text in
      text.append(bytes, left.hoursStart..<count)
    } body: {
      DateStep(value: value, text: DateText(shaped: bytes, normalized: $0))
    }
  }

  /// A sum of two durations, `A+B` or `A + B`, read from `start` of a line's bytes.
  private struct Sum {
    /// Its seconds: `units / scale`, as ``Duration``'s.
    var units: Int
    var scale: Int
    /// The two durations as the normalised text writes them, and where the sum ends.
    var left: Range<Int>
    var right: Range<Int>
    var end: Int
    /// Whether the bytes are the normalised text already.
    var isNormalized: Bool
  }

  /// The sum `A+B` or `A + B` at `start` of `bytes`, or `nil`.
  private static func sum(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Sum? {
    guard let left = duration(bytes, at: start), left.end < bytes.count else { return nil }
    var index = left.end
    let spaced = bytes[index] == UInt8(ascii: " ")
    if spaced { index += 1 }
    guard index < bytes.count, bytes[index] == UInt8(ascii: "+") else { return nil }
    index += 1
    if spaced {
      guard index < bytes.count, bytes[index] == UInt8(ascii: " ") else { return nil }
      index += 1
    }
    guard let right = duration(bytes, at: index) else { return nil }
    // Below 2^64 (7 digits of hours): what rule 14 keeps, as exact as a sum of fractions.
    let scale = max(left.scale, right.scale)
    return Sum(
      units: left.units * (scale / left.scale) + right.units * (scale / right.scale),
      scale: scale, left: left.hoursStart..<left.end, right: right.hoursStart..<right.end,
      end: right.end, isNormalized: spaced && left.hoursStart == start && right.hoursStart == index)
  }

  /// The whole number of 1 to 9 digits that ends `bytes`, after `operator` at `index` with a
  /// blank on either side of it or none, and where its digits start; `nil` for other bytes.
  private static func operand(
    _ bytes: UnsafeBufferPointer<UInt8>, after index: Int, _ operator: UInt8
  ) -> (value: Int, start: Int)? {
    var index = index
    guard index < bytes.count else { return nil }
    let spaced = bytes[index] == UInt8(ascii: " ")
    if spaced { index += 1 }
    guard index < bytes.count, bytes[index] == `operator` else { return nil }
    index += 1
    if spaced {
      guard index < bytes.count, bytes[index] == UInt8(ascii: " ") else { return nil }
      index += 1
    }
    let (value, end) = digits(bytes, from: index)
    guard end == bytes.count, end > index, value >= 0 else { return nil }
    return (value, index)
  }

  /// Where a line's normalised text is written (``normalized(_:write:body:)``).
  private struct TextWriter {
    let base: UnsafeMutablePointer<UInt8>
    var count = 0

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
      for index in range {
        base[count] = bytes[index]
        count += 1
      }
    }

    mutating func append(_ text: StaticString) {
      text.withUTF8Buffer { append($0, 0..<$0.count) }
    }
  }

  /// Calls `body` with the normalised text that `write` writes of a line of `bytes`: at most
  /// 4 bytes longer than the line (the blanks around two operators).
  private static func normalized<R>(
    _ bytes: UnsafeBufferPointer<UInt8>, write: (inout TextWriter) -> Void,
    body: (UnsafeBufferPointer<UInt8>) -> R
  ) -> R {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count + 4) { buffer in
      var writer = TextWriter(base: buffer.baseAddress.unsafelyUnwrapped)
      write(&writer)
      precondition(writer.count <= bytes.count + 4)
      return body(UnsafeBufferPointer(start: writer.base, count: writer.count))
    }
  }

  /// The duration `H:MM`, `H:MM:SS` or `H:MM:SS.f` (1 to 3 digits after the point, after
  /// seconds only) at `start` of `bytes`, with 1 to 7 digits of hours and not followed by a
  /// digit, `:` or `.`; its value as the lexer makes it (``DateLexer``). `nil` for anything
  /// else, which the lexer reads or rejects.
  private static func duration(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Duration? {
    let count = bytes.count
    func digit(_ index: Int) -> Int? {
      guard index < count else { return nil }
      let value = bytes[index] &- UInt8(ascii: "0")
      return value < 10 ? Int(value) : nil
    }
    var index = start
    var hours = 0
    while let value = digit(index) {
      hours = hours * 10 + value
      index += 1
      guard index - start <= 7 else { return nil }
    }
    let hoursEnd = index
    guard hoursEnd > start, index < count, bytes[index] == UInt8(ascii: ":"),
      let m0 = digit(index + 1), let m1 = digit(index + 2), m0 < 6
    else { return nil }
    var rest = (m0 * 10 + m1) * 60
    index += 3
    var milliseconds: (value: Int, digits: Int)?
    if index < count, bytes[index] == UInt8(ascii: ":") {
      guard let s0 = digit(index + 1), let s1 = digit(index + 2), s0 < 6 else { return nil }
      rest += s0 * 10 + s1
      index += 3
      if index < count, bytes[index] == UInt8(ascii: ".") {
        let fractionStart = index + 1
        var value = 0
        index = fractionStart
        while let next = digit(index) {
          value = value * 10 + next
          index += 1
          guard index - fractionStart <= 3 else { return nil }
        }
        guard index > fractionStart else { return nil }
        milliseconds = (value, index - fractionStart)
      }
    }
    if index < count {
      let byte = bytes[index]
      guard byte &- UInt8(ascii: "0") >= 10, byte != UInt8(ascii: ":"), byte != UInt8(ascii: ".")
      else { return nil }
    }
    var hoursStart = start
    while hoursStart < hoursEnd - 1, bytes[hoursStart] == UInt8(ascii: "0") { hoursStart += 1 }
    let whole = hours * 3600 + rest
    guard let milliseconds else {
      return Duration(units: whole, scale: 1, hoursStart: hoursStart, end: index)
    }
    let scale = milliseconds.digits == 1 ? 10 : milliseconds.digits == 2 ? 100 : 1000
    return Duration(
      units: whole * scale + milliseconds.value, scale: scale, hoursStart: hoursStart, end: index)
  }
}
