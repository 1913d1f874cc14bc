import CalcDecimal

/// A length of time of date mode (SPEC §13), `H:MM:SS.fff`: exact seconds, any number of hours,
/// positive or negative.
///
/// The seconds are exact (§2): a fraction in lowest terms while every step is rational and its
/// parts have at most 120 digits, else a 34-digit decimal from then on (``isRounded``). They are
/// kept in `DateRational` (DateRational.swift), date mode's own exact type, which CalcDecimal's
/// exact type can replace behind this face.
package struct TimeSpan: Hashable, Sendable, CustomStringConvertible {
  var seconds: DateRational

  init(seconds: DateRational) { self.seconds = seconds }

  /// `hours:minutes:seconds.milliseconds`, negated when `isNegative`.
  package init(
    isNegative: Bool = false, hours: Int, minutes: Int = 0, seconds: Int = 0,
    milliseconds: Int = 0
  ) {
    let total =
      DateRational(hours) * DateRational(3600) + DateRational(minutes * 60 + seconds)
      + DateRational.dividing(DateRational(milliseconds), by: DateRational(1000))!
    self.seconds = isNegative ? -total : total
  }

  /// Whether the value depends on a rounded step (rule 15): it is a 34-digit decimal.
  package var isRounded: Bool { seconds.isRounded }
  /// Whether the duration is below zero.
  package var isNegative: Bool { seconds.isNegative }
  /// Whether the duration is zero.
  package var isZero: Bool { seconds.isZero }

  /// The display: `H:MM:SS`, with `.fff` when the milliseconds, rounded half to even, are not
  /// zero (`1:00/7` is `0:08:34.286`); a minus before a duration that does not round to zero
  /// (`-0:15:00`). Hours are never grouped, in any locale.
  package var displayText: String {
    let milliseconds = (seconds * DateRational(1000)).magnitudeRoundedToInteger
    let (wholeSeconds, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
    let sign = seconds.isNegative && !milliseconds.isZero ? "-" : ""
    return sign + Self.clock(wholeSeconds)
      + (fraction == 0 ? "" : "." + Self.padded(Int(fraction), to: 3))
  }

  /// The form of `--plain`, `:copy` and `:tape csv`: `H:MM:SS` with the seconds to 34
  /// significant digits, without trailing zeros (`0:08:34.28571428571428571428571428571429`,
  /// `2:15:30`).
  package var plainText: String { smallPlainText ?? generalPlainText }

  /// ``plainText`` for any value, in `DateRational`'s arithmetic: what ``plainText`` gives when
  /// its 64-bit path cannot (package-visible so that a test compares the two paths).
  package var generalPlainText: String {
    let (whole, fraction) = seconds.magnitudeParts
    let (totalMinutes, second) = whole.quotientAndRemainder(dividingBy: 60)
    var minutes = totalMinutes
    var field = "00"
    let value = DateRational(Int(second)) + fraction
    if let (coefficient, exponent) = value.generalMagnitudeSignificand(
      digits: DateRational.roundedDigits)
    {
      // Below 60, the seconds round at most to 60 (6 × 10^33 × 10^-32): a minute more.
      if exponent == 1 - (DateRational.roundedDigits - 1),
        coefficient == DateNatural(6 as UInt64) * .powerOfTen(DateRational.roundedDigits - 1)
      {
        minutes = minutes + .one
      } else {
        field = Self.secondsField(coefficient.decimalText, exponent)
      }
    }
    let sign = seconds.isNegative ? "-" : ""
    let (hours, minute) = minutes.quotientAndRemainder(dividingBy: 60)
    return sign + hours.decimalText + ":" + Self.padded(Int(minute), to: 2) + ":" + field
  }

  /// ``plainText`` in 64-bit arithmetic, for exact seconds whose numerator fits in 64 bits and
  /// denominator in 60 (the common case, issue 51: most of a date line's cost was this text
  /// in `DateNatural`'s arrays); `nil` for any other value. The same text: its seconds'
  /// digits are ``DateRational/magnitudeSignificand(digits:)``'s, by long division, written
  /// as ``secondsField(_:_:)`` writes them.
  private var smallPlainText: String? {
    var bytes: [UInt8] = []
    guard appendSmallPlainText(to: &bytes) else { return nil }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends ``plainText``'s bytes to `bytes` (the answer line's, without a string).
  package func appendPlainText(to bytes: inout [UInt8]) {
    if !appendSmallPlainText(to: &bytes) { bytes.append(contentsOf: generalPlainText.utf8) }
  }

  /// Appends ``smallPlainText`` to `bytes` and returns `true`; `false`, appending nothing, for
  /// a value it does not take.
  private func appendSmallPlainText(to bytes: inout [UInt8]) -> Bool {
    guard !seconds.isRounded, let numerator = seconds.numerator.uint128,
      numerator <= UInt128(UInt64.max), let denominator = seconds.denominator.uint128,
      denominator < 1 << 60
    else { return false }
    let (whole, part) = UInt64(numerator).quotientAndRemainder(dividingBy: UInt64(denominator))
    var (minutes, second) = whole.quotientAndRemainder(dividingBy: 60)
    // All on the stack and appended once, without an array for the digits or the field (issue
    // 51): the 34 significant digits first, then the text — a sign, at most 20 digits of hours,
    // `:MM:` and the seconds' field (at most `00.`, 18 zeros and 34 digits).
    let count = DateRational.roundedDigits
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { buffer in
      var field: (leading: Int, count: Int)?
      if part != 0 {
        let digits = UnsafeMutableBufferPointer(rebasing: buffer[..<count])
        let leading = Self.writeSignificantDigits(
          second, plus: part, over: UInt64(denominator), into: digits)
        // Below 60, the seconds round at most to 60 (6 × 10^33 × 10^-32): a minute more.
        if leading == 1, digits[0] == UInt8(ascii: "6"),
          digits.dropFirst().allSatisfy({ $0 == UInt8(ascii: "0") })
        {
          minutes += 1
          second = 0
        } else {
          field = (leading, count)
        }
      }
      let (hours, minute) = minutes.quotientAndRemainder(dividingBy: 60)
      let start = count
      var end = start
      if seconds.isNegative {
        buffer[end] = UInt8(ascii: "-")
        end += 1
      }
      end = DateDifference.writeDecimal(Int(hours), into: buffer, at: end)
      buffer[end] = UInt8(ascii: ":")
      buffer[end + 1] = UInt8(ascii: "0") + UInt8(minute / 10)
      buffer[end + 2] = UInt8(ascii: "0") + UInt8(minute % 10)
      buffer[end + 3] = UInt8(ascii: ":")
      end += 4
      if let field {
        end = Self.writeSecondsField(
          UnsafeBufferPointer(rebasing: buffer[..<field.count]), leading: field.leading,
          into: buffer, at: end)
      } else {
        buffer[end] = UInt8(ascii: "0") + UInt8(second / 10)
        buffer[end + 1] = UInt8(ascii: "0") + UInt8(second % 10)
        end += 2
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<end]))
    }
    return true
  }

  /// Writes the 34 significant digits (ASCII) of `whole + part / denominator` (`whole` below
  /// 60, `part` below `denominator` and not zero, `denominator` below 2^60), rounded half to
  /// even, to `digits` (34 bytes), and returns the power of ten of the first:
  /// ``DateRational/magnitudeSignificand(digits:)`` by long division.
  private static func writeSignificantDigits(
    _ whole: UInt64, plus part: UInt64, over denominator: UInt64,
    into buffer: UnsafeMutableBufferPointer<UInt8>
  ) -> Int {
    let count = DateRational.roundedDigits
    var leading = 0
    var end = 0
    var remainder = part
    if whole >= 10 {
      buffer[0] = UInt8(ascii: "0") + UInt8(whole / 10)
      buffer[1] = UInt8(ascii: "0") + UInt8(whole % 10)
      end = 2
      leading = 1
    } else if whole >= 1 {
      buffer[0] = UInt8(ascii: "0") + UInt8(whole)
      end = 1
    } else {
      // The fraction's leading zeros are not significant.
      leading = -1
      while remainder * 10 < denominator {
        remainder *= 10
        leading -= 1
      }
    }
    // Up to 19 digits a division, as DateRational's `significand(_:over:digits:)` divides: one
    // hardware division a chunk, where a digit at a time took 34.
    while end < count {
      let chunk = Swift.min(19, count - end)
      let (quotient, rest) = denominator.dividingFullWidth(
        remainder.multipliedFullWidth(by: DateRational.powerOfTen(chunk)))
      remainder = rest
      var value = quotient
      var index = end + chunk
      while index > end {
        index -= 1
        buffer[index] = UInt8(ascii: "0") + UInt8(value % 10)
        value /= 10
      }
      end += chunk
    }
    let twice = remainder * 2
    // An ASCII digit is odd when its digit is.
    if twice > denominator || (twice == denominator && buffer[count - 1] & 1 == 1) {
      var index = count - 1
      while index >= 0, buffer[index] == UInt8(ascii: "9") {
        buffer[index] = UInt8(ascii: "0")
        index -= 1
      }
      if index >= 0 {
        buffer[index] += 1
      } else {
        // 10^34: the significand 10^33, one power of ten more.
        buffer[0] = UInt8(ascii: "1")
        leading += 1
      }
    }
    return leading
  }

  /// Writes ``secondsField(_:_:)`` for the ASCII significant `digits` whose first is at the
  /// power of ten `leading` to `buffer` at `start` (which lies after `digits`), and returns
  /// where it ends.
  private static func writeSecondsField(
    _ digits: UnsafeBufferPointer<UInt8>, leading: Int,
    into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int
  ) -> Int {
    var last = digits.count
    while last > 1, digits[last - 1] == UInt8(ascii: "0") { last -= 1 }
    let integerCount = leading + 1
    let zero = UInt8(ascii: "0")
    var end = start
    func put(_ byte: UInt8) {
      buffer[end] = byte
      end += 1
    }
    if integerCount >= last {
      for _ in 0..<Swift.max(0, 2 - integerCount) { put(zero) }
      for index in 0..<last { put(digits[index]) }
      for _ in 0..<(integerCount - last) { put(zero) }
    } else if integerCount <= 0 {
      put(zero)
      put(zero)
      put(UInt8(ascii: "."))
      for _ in 0..<(-integerCount) { put(zero) }
      for index in 0..<last { put(digits[index]) }
    } else {
      if integerCount < 2 { put(zero) }
      for index in 0..<integerCount { put(digits[index]) }
      put(UInt8(ascii: "."))
      for index in integerCount..<last { put(digits[index]) }
    }
    return end
  }

  /// The seconds `digits × 10^exponent` (below 60) as two integer digits and the fraction's
  /// significant digits: `08`, `34.2857…`, `00.5`.
  private static func secondsField(_ digits: String, _ exponent: Int) -> String {
    guard !digits.isEmpty else { return "00" }
    var significant = Array(digits)
    var power = exponent
    while significant.count > 1, significant.last == "0" {
      significant.removeLast()
      power += 1
    }
    // The value is significant × 10^power; the integer part has count + power digits.
    let integerCount = significant.count + power
    if power >= 0 {
      let integer = String(significant) + String(repeating: "0", count: power)
      return String(repeating: "0", count: max(0, 2 - integer.count)) + integer
    }
    if integerCount <= 0 {
      return "00." + String(repeating: "0", count: -integerCount) + String(significant)
    }
    let integer = String(significant[..<integerCount])
    return String(repeating: "0", count: max(0, 2 - integer.count)) + integer + "."
      + String(significant[integerCount...])
  }

  /// `:exact`'s pieces: the seconds as a fraction in lowest terms (`3600/7`, `90`).
  package var exactSecondsFraction: String { seconds.fractionText }

  /// `:exact`'s pieces: the seconds as a decimal with the repeating part in brackets
  /// (`514.(285714)`; a rounded value: its 34 digits).
  package var exactSecondsDecimal: String {
    seconds.isRounded ? Self.plainDecimal(seconds) : seconds.repeatingDecimalText()
  }

  /// What `:exact` shows for a duration (SPEC §13): `3600/7 s = 514.(285714) s`, `90 s`, and for
  /// a rounded value `≈ 1.414213562373095048801688724209698 s`.
  package var exactText: String {
    if seconds.isRounded { return "≈ " + exactSecondsDecimal + " s" }
    if seconds.isInteger { return exactSecondsFraction + " s" }
    return exactSecondsFraction + " s = " + exactSecondsDecimal + " s"
  }

  /// The duration in `unit`: `8:30 in h` is 8.5.
  package func converted(to unit: TimeUnit) -> DateNumber {
    DateNumber(DateRational.dividing(seconds, by: DateRational(unit.seconds))!)
  }

  /// ``displayText``.
  package var description: String { displayText }

  /// `whole` seconds as `H:MM:SS`.
  private static func clock(_ whole: DateNatural) -> String {
    let (minutes, second) = whole.quotientAndRemainder(dividingBy: 60)
    let (hours, minute) = minutes.quotientAndRemainder(dividingBy: 60)
    return hours.decimalText + ":" + padded(Int(minute), to: 2) + ":" + padded(Int(second), to: 2)
  }

  private static func padded(_ value: Int, to width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }

  /// A rounded value's 34 digits as a plain decimal, without trailing zeros.
  static func plainDecimal(_ value: DateRational) -> String {
    guard
      let (coefficient, exponent) = value.magnitudeSignificand(digits: DateRational.roundedDigits)
    else { return "0" }
    var digits = Array(coefficient.decimalText)
    var power = exponent
    while digits.count > 1, digits.last == "0" {
      digits.removeLast()
      power += 1
    }
    let sign = value.isNegative ? "-" : ""
    if power >= 0 { return sign + String(digits) + String(repeating: "0", count: power) }
    let integerCount = digits.count + power
    if integerCount <= 0 {
      return sign + "0." + String(repeating: "0", count: -integerCount) + String(digits)
    }
    return sign + String(digits[..<integerCount]) + "." + String(digits[integerCount...])
  }
}

/// A unit that `in` converts a duration to (SPEC §13): `h`, `min`, `s`, `d`, `w`.
package enum TimeUnit: String, Hashable, Sendable, CaseIterable {
  case hours = "h"
  case minutes = "min"
  case seconds = "s"
  case days = "d"
  case weeks = "w"

  /// The seconds in one unit.
  package var seconds: Int {
    switch self {
    case .hours: 3600
    case .minutes: 60
    case .seconds: 1
    case .days: 86_400
    case .weeks: 604_800
    }
  }
}

/// The number of a date line (SPEC §13: a conversion, `8:30 in h`, or a duration ÷ a duration),
/// or a number operand (`$N` of a number line, `mr`): exact as ``TimeSpan``'s seconds are.
package struct DateNumber: Hashable, Sendable, CustomStringConvertible {
  var value: DateRational

  init(_ value: DateRational) { self.value = value }

  /// A decimal's exact value; `isRounded` marks a value that depends on a rounded step (rule
  /// 15), so that every step on it rounds to 34 digits.
  package init(_ decimal: Decimal34, isRounded: Bool = false) {
    value = DateRational(decimal, isRounded: isRounded)
  }

  /// An integer.
  package init(_ integer: Int) { value = DateRational(integer) }

  /// The value rounded once, half to even, to 34 significant digits: what a display format
  /// renders (`DisplayFormat.text(for:)`), and what another mode's `$N` receives.
  package var decimal: Decimal34 { value.decimal }

  /// ``decimal`` in `DateNatural`'s arithmetic alone, without the 64-bit path (package-visible
  /// so that a test compares the two).
  package var generalDecimal: Decimal34 { value.generalDecimal }

  /// Whether the value depends on a rounded step (rule 15).
  package var isRounded: Bool { value.isRounded }

  /// `:exact`'s pieces: the fraction in lowest terms (`17/2`, `-3`).
  package var exactFraction: String { value.fractionText }

  /// `:exact`'s pieces: the decimal with its repeating part in brackets (`0.1(6)`); for a
  /// rounded value its 34 digits.
  package var exactDecimal: String {
    value.isRounded ? TimeSpan.plainDecimal(value) : value.repeatingDecimalText()
  }

  /// The plain decimal, 34 significant digits at most (what `--plain` shows).
  package var description: String { TimeSpan.plainDecimal(value) }
}
