import CalcDecimal

/// Date mode's calculation (SPEC §13): the value after the last date line, and that line as the
/// expression line shows it. A fresh date mode shows 0, as the other modes do.
struct DateBrain: Hashable, Sendable {
  /// The value after the last date line (or a memory key's recall).
  var value: DateValue
  /// The last date line, its step's text shared (not made again for the state); empty in a
  /// fresh date mode. Only its normalised text (``DateLine/normalizedText``) is part of the
  /// state: two states that differ only in how the line was typed are equal.
  var text: DateText

  /// The last date line normalised, for the expression line; empty in a fresh date mode.
  var line: String { text.normalized }

  /// A fresh date mode: `0`, no line.
  static let initial = DateBrain(value: .number(DateNumber(0)), text: DateText())

  /// Whether the two show the same value after the same normalised line.
  static func == (lhs: DateBrain, rhs: DateBrain) -> Bool {
    lhs.value == rhs.value && lhs.text.hasSameNormalizedText(as: rhs.text)
  }

  /// Hashes what ``==`` compares.
  func hash(into hasher: inout Hasher) {
    hasher.combine(value)
    text.hashNormalizedText(into: &hasher)
  }
}

/// A date line as a history records it (SPEC §13): its text (with `today` replaced by the date
/// it stood for, so that a replay is exact), and its value when it was applied, so that a jump
/// replays it as one step without reading it again.
public struct DateStep: Hashable, Sendable {
  /// The value after the line.
  package let value: DateValue
  /// The line as recorded and normalised, inline when it can be (``DateText``).
  package let lineText: DateText

  /// The line as recorded (``DateLine/recordedText``).
  public var text: String { lineText.recorded }
  /// The line normalised, for the expression line (``DateLine/normalizedText``).
  package var normalizedText: String { lineText.normalized }

  /// The step of `line`, read and calculated.
  package init(_ line: DateLine) {
    value = line.value
    lineText = DateText(recorded: line.recordedText, normalized: line.normalizedText)
  }

  /// A step of its parts (``onePass(_:reusing:reference:)``).
  init(value: DateValue, text: DateText) {
    self.value = value
    self.lineText = text
  }
}

/// What the display shows in date mode: a date line's value (SPEC §13).
///
/// The value is held in a box: one reference, so that ``Display`` copies and destroys as
/// cheaply as before date mode — a `DateValue` inline made every display's copy an outlined
/// call, about 88 instructions of an everyday script line (Documentation/Performance.md).
public struct DateDisplay: Hashable, Sendable {
  /// The value.
  package var value: DateValue { storage.value }
  private let storage: Storage

  /// The display of `value`.
  package init(value: DateValue) {
    storage = Storage(value)
  }

  /// Whether the two displays show the same value (not whether they share a box).
  public static func == (lhs: DateDisplay, rhs: DateDisplay) -> Bool {
    lhs.value == rhs.value
  }

  /// Hashes the value, as ``==`` compares it.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(value)
  }

  /// The box of a value.
  private final class Storage: Sendable {
    let value: DateValue
    init(_ value: DateValue) { self.value = value }
  }
}

extension DateValue {
  /// The number of a number line or a difference's total days, as a calculator's number: what
  /// `$N` of the line is in another mode and what `ms` stores; `nil` for a date, a duration or
  /// a fault.
  package var number: Number? {
    switch self {
    case .number(let number):
      number.isRounded ? Number(rounded: number.decimal) : Number(number.decimal)
    case .difference(let difference): Number(difference.totalDays)
    case .date, .duration, .fault: nil
    }
  }
}

extension DateNumber {
  /// A calculator's number as a date-mode number (`mr`, another mode's `$N`): exactly the
  /// number (a fraction such as 1/3 included), or its 34 digits marked rounded when it is.
  ///
  /// A number well beyond rule 14's limits (10^101 and more, or nonzero below 10^-101) is only
  /// ever checked against them (`DateChecker.checked`: `Overflow`, or 0): it stands as a power of
  /// ten on the same side of the limit, for its exact value took about 280 million instructions
  /// for 1E-9999 (a `$N` of it in a date line, issue 51).
  package init(number: Number) {
    let decimal = number.decimalValue
    if let magnitude = decimal.magnitudeExponent, magnitude >= 101 || magnitude <= -102 {
      self.init(
        Decimal34(
          coefficient: 1, exponent: magnitude >= 101 ? 101 : -102, isNegative: decimal.isNegative),
        isRounded: number.isRounded)
      return
    }
    if !number.isRounded, !number.isExactDecimal, let text = number.fractionText,
      let value = DateRational(fraction: text)
    {
      self.init(value)
    } else {
      self.init(decimal, isRounded: number.isRounded || !number.isExactDecimal)
    }
  }
}

extension Number {
  /// Whether the number's decimal value (``decimalValue``) is exactly the number.
  fileprivate var isExactDecimal: Bool {
    !isRounded && Number(decimalValue) == self
  }
}

extension Calculator {
  /// Date mode's value (SPEC §13); `nil` in the other modes.
  package var dateValue: DateValue? {
    if case .date(let box) = machine { box.brain.value } else { nil }
  }
}
