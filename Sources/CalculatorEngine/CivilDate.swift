/// A day of the proleptic Gregorian calendar from 1601-01-01 to 9999-12-31, without a time of
/// day or a time zone (SPEC §13): the dates of date mode, the range of Windows' Date Calculation.
///
/// A date is its day number, the days since 1601-01-01 (day 0, a Monday) up to 3,067,670
/// (9999-12-31); comparing dates compares day numbers. Additions clamp the day to the month's
/// end and return `nil` for a date outside the range (`Date out of Bound`).
package struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Days since 1601-01-01.
  package let dayNumber: Int

  /// The day numbers of the range: 1601-01-01 through 9999-12-31.
  package static let dayNumbers: ClosedRange<Int> = 0...3_067_670
  /// 1601-01-01.
  package static let first = CivilDate(uncheckedDayNumber: 0)
  /// 9999-12-31.
  package static let last = CivilDate(uncheckedDayNumber: 3_067_670)
  /// The years of the range.
  package static let years: ClosedRange<Int> = 1601...9999

  private init(uncheckedDayNumber: Int) { dayNumber = uncheckedDayNumber }

  /// The date with day number `dayNumber`; `nil` outside the range.
  package init?(dayNumber: Int) {
    guard Self.dayNumbers.contains(dayNumber) else { return nil }
    self.dayNumber = dayNumber
  }

  /// The date `year-month-day`; `nil` when there is no such date or it is outside the range.
  package init?(year: Int, month: Int, day: Int) {
    guard Self.years.contains(year), (1...12).contains(month),
      (1...Self.daysIn(month: month, of: year)).contains(day)
    else { return nil }
    dayNumber = Self.days(year: year, month: month, day: day)
  }

  /// Whether `year` has 29 February.
  package static func isLeap(_ year: Int) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
  }

  /// How many days `month` (1 to 12) has in `year`.
  package static func daysIn(month: Int, of year: Int) -> Int {
    switch month {
    case 2: isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// The day number of a valid `year-month-day` (H. Hinnant's `days_from_civil`, shifted to
  /// 1601-01-01).
  static func days(year: Int, month: Int, day: Int) -> Int {
    // Years start on 1 March, so that the leap day is the last of a year.
    // Unsigned and unchecked, as ``components``: y ≥ 1600, no negative years, no overflow.
    let y = UInt(month <= 2 ? year - 1 : year)
    let era = y / 400
    let yearOfEra = y &- era &* 400
    let shifted = UInt(month > 2 ? month - 3 : month + 9)
    let dayOfYear = (153 &* shifted &+ 2) / 5 &+ UInt(day) &- 1
    let dayOfEra = yearOfEra &* 365 &+ yearOfEra / 4 &- yearOfEra / 100 &+ dayOfYear
    // 1601-01-01 is day 584,694 from 0000-03-01.
    return Int(era &* 146_097 &+ dayOfEra) - 584_694
  }

  /// The year, month (1 to 12) and day (1 to 31) (H. Hinnant's `civil_from_days`).
  package var components: (year: Int, month: Int, day: Int) {
    // Unsigned and unchecked: the day number is in the range, so nothing is negative or
    // overflows, and a division by a constant is a multiplication without a sign's fix-up.
    let days = UInt(dayNumber) &+ 584_694
    let era = days / 146_097
    let dayOfEra = days &- era &* 146_097
    let yearOfEra =
      (dayOfEra &- dayOfEra / 1460 &+ dayOfEra / 36524 &- dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra &- (365 &* yearOfEra &+ yearOfEra / 4 &- yearOfEra / 100)
    let shiftedMonth = (5 &* dayOfYear &+ 2) / 153
    let day = dayOfYear &- (153 &* shiftedMonth &+ 2) / 5 &+ 1
    let month = shiftedMonth < 10 ? shiftedMonth &+ 3 : shiftedMonth &- 9
    let year = yearOfEra &+ era &* 400 &+ (month <= 2 ? 1 : 0)
    return (Int(year), Int(month), Int(day))
  }

  /// The day of the week.
  package var weekday: Weekday {
    // 1601-01-01 was a Monday.
    Weekday(rawValue: (dayNumber + 1) % 7)!
  }

  package static func < (a: CivilDate, b: CivilDate) -> Bool { a.dayNumber < b.dayNumber }

  /// The days from this date to `other`: negative when `other` is earlier.
  package func days(to other: CivilDate) -> Int { other.dayNumber - dayNumber }

  /// The date `count` days later (earlier when negative); `nil` outside the range.
  package func adding(days count: Int) -> CivilDate? {
    let (sum, overflow) = dayNumber.addingReportingOverflow(count)
    return overflow ? nil : CivilDate(dayNumber: sum)
  }

  /// The date `count` months later (earlier when negative), its day clamped to the month's last
  /// (2008-01-31 + 1 month is 2008-02-29); `nil` outside the range.
  package func adding(months count: Int) -> CivilDate? {
    // No months: the date itself, without its components worked out and back (an offset of
    // days alone, or of years alone, adds 0 months or years).
    if count == 0 { return self }
    let (year, month, day) = components
    let (months, overflow) = (year * 12 + month - 1).addingReportingOverflow(count)
    guard !overflow else { return nil }
    let newYear = months >= 0 ? months / 12 : (months - 11) / 12
    let newMonth = months - newYear * 12 + 1
    guard Self.years.contains(newYear) else { return nil }
    return CivilDate(
      year: newYear, month: newMonth, day: min(day, Self.daysIn(month: newMonth, of: newYear)))
  }

  /// The date `count` years later (earlier when negative), 29 February clamped to 28 February;
  /// `nil` outside the range.
  package func adding(years count: Int) -> CivilDate? {
    let (months, overflow) = count.multipliedReportingOverflow(by: 12)
    return overflow ? nil : adding(months: months)
  }

  /// ISO 8601: `2004-09-11` (what `--plain`, the expression line and the recorded line show).
  package var isoText: String {
    // Ten ASCII bytes: a small string, kept inside the value.
    var bytes: [UInt8] = []
    bytes.reserveCapacity(10)
    appendISOText(to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends ``isoText``'s ten ASCII bytes to `bytes` (the answer line's, without a string).
  package func appendISOText(to bytes: inout [UInt8]) {
    // Written on the stack and appended once: byte by byte, each append checked the array's
    // uniqueness and room (about 200 instructions a date).
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 10) { text in
      writeISOText(into: text.baseAddress!)
      bytes.append(contentsOf: UnsafeBufferPointer(text))
    }
  }

  /// Appends ``isoText``'s ten ASCII bytes to `writer` (the one-pass reader's normalised text).
  func appendISOText(to writer: ByteWriter) {
    writer.append(upTo: 10) { text in
      writeISOText(into: text)
      return 10
    }
  }

  /// Writes ``isoText``'s ten ASCII bytes at `text`.
  @inline(__always)
  func writeISOText(into text: UnsafeMutablePointer<UInt8>) {
    let (year, month, day) = components
    let zero = UInt8(ascii: "0")
    let dash = UInt8(ascii: "-")
    text[0] = zero + UInt8(year / 1000)
    text[1] = zero + UInt8(year / 100 % 10)
    text[2] = zero + UInt8(year / 10 % 10)
    text[3] = zero + UInt8(year % 10)
    text[4] = dash
    text[5] = zero + UInt8(month / 10)
    text[6] = zero + UInt8(month % 10)
    text[7] = dash
    text[8] = zero + UInt8(day / 10)
    text[9] = zero + UInt8(day % 10)
  }

  /// Windows' long date with the weekday, in English: `Saturday, September 11, 2004`.
  package var longText: String {
    let (year, month, day) = components
    return weekday.name + ", " + Self.monthNames[month - 1] + " " + String(day) + ", "
      + String(year)
  }

  /// ``isoText``.
  package var description: String { isoText }

  /// The English names of the months, January first.
  package static let monthNames = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
  ]

  /// The date that `text` writes in ISO form, `2026-12-01` or `2026-12-1` (the whole text, no
  /// blanks); throws, with the column and the reason, for anything else
  /// (`no such date: February has 28 days in 2026`).
  package init(iso text: String) throws(LineError) {
    let bytes = Array(text.utf8)
    var index = 0
    guard
      let date = try bytes.withUnsafeBufferPointer({ buffer throws(LineError) in
        try Self.scan(buffer, at: &index)
      }), index == bytes.count
    else {
      // Up to `index` the text is ASCII digits and `-`: bytes are characters there.
      throw LineError("a date is written YYYY-MM-DD, such as 2026-12-01", column: index + 1)
    }
    self = date
  }

  /// The date written `YYYY-MM-DD` at `start` of `bytes`, not followed by a digit, when it is
  /// one of the range; `nil` for anything else (``scan(_:at:)`` reads it, and says why). Most
  /// dates are written so: read at once, without the general reader's loops (about 260
  /// instructions a date).
  static func scanISO(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> CivilDate? {
    guard start >= 0, bytes.count - start >= 10 else { return nil }
    func digit(_ offset: Int) -> Int? {
      let value = Int(bytes[start + offset]) &- 0x30
      return value >= 0 && value <= 9 ? value : nil
    }
    guard bytes[start + 4] == UInt8(ascii: "-"), bytes[start + 7] == UInt8(ascii: "-"),
      start + 10 == bytes.count || digit(10) == nil,
      let y0 = digit(0), let y1 = digit(1), let y2 = digit(2), let y3 = digit(3),
      let m0 = digit(5), let m1 = digit(6), let d0 = digit(8), let d1 = digit(9)
    else { return nil }
    return CivilDate(
      year: ((y0 * 10 + y1) * 10 + y2) * 10 + y3, month: m0 * 10 + m1, day: d0 * 10 + d1)
  }

  /// Reads a date `Y-M-D` (ASCII digits and two `-`, no blanks) at `index` of `bytes`, moving
  /// `index` past it; `nil` (with `index` unmoved) when the text there does not have that shape.
  /// Throws for that shape when it is no date of the range: a year of other than 4 digits, a
  /// month or day of more than 2, no such month or day, a year before 1601.
  static func scan(_ bytes: UnsafeBufferPointer<UInt8>, at index: inout Int) throws(LineError)
    -> CivilDate?
  {
    if let date = scanISO(bytes, at: index) {
      index += 10
      return date
    }
    func digits(from start: Int) -> Int {
      var end = start
      while end < bytes.count, bytes[end] >= UInt8(ascii: "0"), bytes[end] <= UInt8(ascii: "9") {
        end += 1
      }
      return end
    }
    let start = index
    let yearEnd = digits(from: start)
    guard yearEnd > start, yearEnd < bytes.count, bytes[yearEnd] == UInt8(ascii: "-") else {
      return nil
    }
    let monthEnd = digits(from: yearEnd + 1)
    guard monthEnd > yearEnd + 1, monthEnd < bytes.count, bytes[monthEnd] == UInt8(ascii: "-")
    else { return nil }
    let dayEnd = digits(from: monthEnd + 1)
    guard dayEnd > monthEnd + 1 else { return nil }
    func number(_ range: Range<Int>) -> Int {
      bytes[range].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }
    guard yearEnd - start == 4 else {
      throw LineError("a year has 4 digits: 2026-12-01", column: start + 1)
    }
    guard monthEnd - yearEnd - 1 <= 2 else {
      throw LineError("a month has 1 or 2 digits: 2026-12-01", column: yearEnd + 2)
    }
    guard dayEnd - monthEnd - 1 <= 2 else {
      throw LineError("a day has 1 or 2 digits: 2026-12-01", column: monthEnd + 2)
    }
    let (year, month, day) = (
      number(start..<yearEnd), number(yearEnd + 1..<monthEnd), number(monthEnd + 1..<dayEnd)
    )
    guard years.contains(year) else {
      throw LineError("dates run from 1601-01-01 to 9999-12-31", column: start + 1)
    }
    guard (1...12).contains(month) else {
      throw LineError("no such date: a year has 12 months", column: yearEnd + 2)
    }
    let last = daysIn(month: month, of: year)
    guard (1...last).contains(day) else {
      let reason =
        day == 0
        ? "days start at 1"
        : monthNames[month - 1] + " has " + String(last) + " days"
          + (month == 2 ? " in " + String(year) : "")
      throw LineError("no such date: " + reason, column: monthEnd + 2)
    }
    index = dayEnd
    return CivilDate(year: year, month: month, day: day)
  }
}

/// A day of the week.
package enum Weekday: Int, Hashable, Sendable, CaseIterable {
  case sunday, monday, tuesday, wednesday, thursday, friday, saturday

  /// Its English name: `Saturday`.
  package var name: String {
    switch self {
    case .sunday: "Sunday"
    case .monday: "Monday"
    case .tuesday: "Tuesday"
    case .wednesday: "Wednesday"
    case .thursday: "Thursday"
    case .friday: "Friday"
    case .saturday: "Saturday"
    }
  }
}

/// An offset of date mode: `1y 2m 3w 4d`, each unit at most once, in that order, each 0 to 999
/// (SPEC §13). A unit that was not written is `nil` (it counts as 0).
package struct DateOffset: Hashable, Sendable, CustomStringConvertible {
  package var years: Int?
  package var months: Int?
  /// Weeks (calc's addition: 7 days each).
  package var weeks: Int?
  package var days: Int?

  /// The largest count of a unit.
  package static let maximumCount = 999

  package init(years: Int? = nil, months: Int? = nil, weeks: Int? = nil, days: Int? = nil) {
    (self.years, self.months, self.weeks, self.days) = (years, months, weeks, days)
  }

  /// The days that the weeks and days make.
  package var totalDays: Int { (weeks ?? 0) * 7 + (days ?? 0) }

  /// Sets the count of the unit at `place` in an offset's order (``DateWord/offsetUnit(_:)``:
  /// y 0, m 1, w 2, d 3).
  mutating func set(_ count: Int, place: Int) {
    switch place {
    case 0: years = count
    case 1: months = count
    case 2: weeks = count
    default: days = count
    }
  }

  /// `date` plus the offset as Windows adds: the years, then the months, then the days (weeks
  /// as 7 days), each step clamping the day to its month's end; `nil` when a step leaves the
  /// range (`Date out of Bound`).
  package func added(to date: CivilDate) -> CivilDate? {
    date.adding(years: years ?? 0)?.adding(months: months ?? 0)?.adding(days: totalDays)
  }

  /// `date` minus the offset as Windows subtracts: the days (weeks as 7 days), then the
  /// months, then the years — so that adding and subtracting are not inverses
  /// (`2008-01-31 + 1m 1d` is 2008-03-01, `2008-03-01 - 1m 1d` is 2008-01-29); `nil` when a
  /// step leaves the range.
  package func subtracted(from date: CivilDate) -> CivilDate? {
    date.adding(days: -totalDays)?.adding(months: -(months ?? 0))?.adding(years: -(years ?? 0))
  }

  /// The units as written, lower case, one blank between them: `1y 2m 3w 4d`.
  package var description: String {
    var text: [UInt8] = []
    appendText(to: &text)
    return String(decoding: text, as: UTF8.self)
  }

  /// Appends ``description``'s ASCII bytes to `text` (a date line's normalised text, issue 51:
  /// without an array of the units or a string).
  func appendText(to text: inout [UInt8]) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.maximumTextCount) { buffer in
      let count = writeText(into: buffer.baseAddress!)
      text.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<count]))
    }
  }

  /// Appends ``description``'s ASCII bytes to `writer` (the one-pass reader's normalised text).
  func appendText(to writer: ByteWriter) {
    writer.append(upTo: Self.maximumTextCount) { writeText(into: $0) }
  }

  /// The longest ``description``: four counts of three digits, their units and three blanks.
  private static var maximumTextCount: Int { 19 }

  /// Writes ``description``'s ASCII bytes at `text`, and returns how many.
  @inline(__always)
  private func writeText(into text: UnsafeMutablePointer<UInt8>) -> Int {
    var count = 0
    func part(_ number: Int?, _ unit: Unicode.Scalar) {
      guard let number else { return }
      if count > 0 {
        text[count] = UInt8(ascii: " ")
        count += 1
      }
      // A count is 0 to 999.
      if number >= 100 {
        text[count] = UInt8(ascii: "0") + UInt8(number / 100)
        count += 1
      }
      if number >= 10 {
        text[count] = UInt8(ascii: "0") + UInt8(number / 10 % 10)
        count += 1
      }
      text[count] = UInt8(ascii: "0") + UInt8(number % 10)
      text[count + 1] = UInt8(ascii: unit)
      count += 2
    }
    part(years, "y")
    part(months, "m")
    part(weeks, "w")
    part(days, "d")
    return count
  }

}
