/// The difference between two dates as Windows' Date Calculation counts it (SPEC §13): years,
/// months, weeks and days by the greedy pivot, and the total days.
///
/// From the earlier date, the years are the largest count that, added to it (the day clamped
/// to the month's end), does not pass the later date — an addition that would leave the range
/// counts as passing it; from the date that reached, the months, the same way; from there, the
/// weeks; the days left are the days. `2019-07-31 to 2019-12-30` is 4 months (31 July + 4
/// months is 30 November: 5 months would pass), 4 weeks and 2 days, 152 days in all.
package struct DateDifference: Hashable, Sendable, CustomStringConvertible {
  package var years: Int { Int(counts.years) }
  package var months: Int { Int(counts.months) }
  package var weeks: Int { Int(counts.weeks) }
  package var days: Int { Int(counts.days) }
  /// The days between the dates (never negative): the line's number for `$N` in other modes.
  package var totalDays: Int { Int(counts.totalDays) }

  /// The five counts, each in 32 bits (the range's 8,398 years and 3,067,670 days fit): 20
  /// bytes, where five `Int`s took 40 and every date line's value with them (`DateValue`, a
  /// step's first 48 bytes).
  private let counts: Counts

  private struct Counts: Hashable, Sendable {
    var years: Int32
    var months: Int32
    var weeks: Int32
    var days: Int32
    var totalDays: Int32
  }

  /// The difference between `a` and `b`, in either order.
  package init(between a: CivilDate, and b: CivilDate) {
    let (start, later) = a <= b ? (a, b) : (b, a)
    let totalDays = start.days(to: later)
    // In the calendar's fields, not day numbers: each date's year, month and day are worked out
    // once, and a pivot is compared field by field (a date's fields order as it does). From
    // the earlier date, neither count can leave the range (the pivot never passes `end`).
    let (startYear, startMonth, startDay) = start.components
    let end = later.components
    func passes(_ date: (year: Int, month: Int, day: Int)) -> Bool {
      date > end
    }
    // `start` plus `years` years, its day clamped to the month's end.
    func afterYears(_ years: Int) -> (year: Int, month: Int, day: Int) {
      let year = startYear + years
      return (year, startMonth, min(startDay, CivilDate.daysIn(month: startMonth, of: year)))
    }
    // Each count starts at the calendar's estimate, which never falls short (a count one larger
    // lands in a later year or month than `end`), and steps down while the pivot passes `end`.
    var years = end.year - startYear
    while years > 0, passes(afterYears(years)) { years -= 1 }
    let pivot = afterYears(years)
    // The pivot plus `months` months (not negative), its day clamped to the month's end.
    func afterMonths(_ months: Int) -> (year: Int, month: Int, day: Int) {
      let count = pivot.year * 12 + pivot.month - 1 + months
      let (year, month) = (count / 12, count % 12 + 1)
      return (year, month, min(pivot.day, CivilDate.daysIn(month: month, of: year)))
    }
    var months = (end.year - pivot.year) * 12 + end.month - pivot.month
    while months > 0, passes(afterMonths(months)) { months -= 1 }
    let reached = afterMonths(months)
    let rest =
      start.dayNumber + totalDays
      - CivilDate.days(year: reached.year, month: reached.month, day: reached.day)
    counts = Counts(
      years: Int32(years), months: Int32(months), weeks: Int32(rest / 7), days: Int32(rest % 7),
      totalDays: Int32(totalDays))
  }

  /// The units that are not 0, largest first, singular exactly at 1: `["1 year", "4 months",
  /// "1 week", "4 days"]`; empty for the same dates.
  package var parts: [String] {
    [(years, "year"), (months, "month"), (weeks, "week"), (days, "day")].compactMap {
      count, unit in count == 0 ? nil : Self.counted(count, unit)
    }
  }

  /// `498 days`: the total, when the display shows it beside ``parts`` (there are years, months
  /// or weeks); `nil` when the difference is days alone (1 to 6) or none.
  package var totalText: String? {
    years == 0 && months == 0 && weeks == 0 ? nil : Self.counted(totalDays, "day")
  }

  /// The display: `1 year, 4 months, 1 week, 4 days (498 days)`, `6 days`, `1 day`,
  /// `Same dates`; numbers are never grouped (`3067670 days`, as Windows).
  package var text: String {
    var bytes: [UInt8] = []
    appendText(to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends ``text``'s ASCII bytes to `bytes` (the answer line's, without building strings).
  package func appendText(to bytes: inout [UInt8]) {
    guard totalDays > 0 else {
      bytes.append(contentsOf: "Same dates".utf8)
      return
    }
    // Written on the stack and appended once: byte by byte, each append checked the array's
    // uniqueness and capacity (issue 51: with the duration's, 405 instructions a line of
    // calc-bench's date mix; Documentation/Performance.md, "Date lines, session 11"). Four
    // parts of at most 2 + 20 + 1 + 5 + 1 bytes and the total of at most 2 + 20 + 1 + 3 + 1 + 1:
    // 144.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 192) { buffer in
      var end = 0
      func put(_ byte: UInt8) {
        buffer[end] = byte
        end += 1
      }
      func counted(_ count: Int, _ unit: StaticString) {
        end = Self.writeDecimal(count, into: buffer, at: end)
        put(UInt8(ascii: " "))
        let letters = UnsafeBufferPointer(start: unit.utf8Start, count: unit.utf8CodeUnitCount)
        for letter in letters { put(letter) }
        if count != 1 { put(UInt8(ascii: "s")) }
      }
      func part(_ count: Int, _ unit: StaticString) {
        guard count != 0 else { return }
        if end > 0 {
          put(UInt8(ascii: ","))
          put(UInt8(ascii: " "))
        }
        counted(count, unit)
      }
      part(years, "year")
      part(months, "month")
      part(weeks, "week")
      part(days, "day")
      if years != 0 || months != 0 || weeks != 0 {
        put(UInt8(ascii: " "))
        put(UInt8(ascii: "("))
        counted(totalDays, "day")
        put(UInt8(ascii: ")"))
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<end]))
    }
  }

  /// Writes the decimal digits of `value` (not negative) at `start` of `buffer`, as
  /// ``appendDecimal(_:to:)`` appends them; returns the index after them.
  static func writeDecimal(
    _ value: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int
  )
    -> Int
  {
    // Counted first, then written from the last digit back: a division by the constant 10 is
    // a multiplication, where dividing by a power of ten that varies was a division a digit.
    var digits = 1
    var bound: UInt = 10
    while digits < 19, UInt(value) >= bound {
      digits += 1
      bound &*= 10
    }
    var rest = UInt(value)
    let end = start + digits
    var index = end
    repeat {
      index -= 1
      buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
      rest /= 10
    } while index > start
    return end
  }

  /// The decimal digits of `value` (not negative), as `String(value)` writes them.
  static func appendDecimal(_ value: Int, to writer: ByteWriter) {
    writer.append(upTo: 20) { text in
      writeDecimal(value, into: UnsafeMutableBufferPointer(start: text, count: 20), at: 0)
    }
  }

  /// ``text``.
  package var description: String { text }

  private static func counted(_ count: Int, _ unit: String) -> String {
    String(count) + " " + unit + (count == 1 ? "" : "s")
  }
}
