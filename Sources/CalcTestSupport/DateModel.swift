/// An independent model of SPEC §13's date arithmetic, the oracle of the engine's date mode
/// (`CivilDate`, `DateOffset`, `DateDifference`): written from the spec's words, not from the
/// engine, and differently.
///
/// Dates are year, month and day triples compared field by field; a date's ordinal counts the
/// leap years before it and sums month lengths (the engine uses day numbers and H. Hinnant's
/// era arithmetic); adding months walks the months as a count; and the difference counts
/// forward one year, then one month, then one week at a time until the next step would pass
/// the later date (the engine starts from the calendar's estimate and steps down).
public enum DateModel {
  /// A date of the proleptic Gregorian calendar.
  public struct Day: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    public init(_ year: Int, _ month: Int, _ day: Int) {
      (self.year, self.month, self.day) = (year, month, day)
    }

    public static func < (a: Day, b: Day) -> Bool {
      (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    /// `2026-12-01`.
    public var description: String {
      func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
      return "\(year)-\(two(month))-\(two(day))"
    }
  }

  public static let first = Day(1601, 1, 1)
  public static let last = Day(9999, 12, 31)

  public static func isLeap(_ year: Int) -> Bool {
    if year % 400 == 0 { return true }
    if year % 100 == 0 { return false }
    return year % 4 == 0
  }

  public static func length(ofMonth month: Int, in year: Int) -> Int {
    let lengths = [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    return lengths[month - 1]
  }

  /// Leap years from 1 through `year`.
  private static func leapYears(through year: Int) -> Int { year / 4 - year / 100 + year / 400 }

  /// Days from 1601-01-01 to `date`.
  public static func ordinal(_ date: Day) -> Int {
    var days =
      (date.year - 1601) * 365 + leapYears(through: date.year - 1) - leapYears(through: 1600)
    for month in 1..<date.month { days += length(ofMonth: month, in: date.year) }
    return days + date.day - 1
  }

  /// The date `ordinal` days after 1601-01-01; `nil` outside 1601–9999.
  public static func day(ordinal: Int) -> Day? {
    guard ordinal >= 0, ordinal <= self.ordinal(last) else { return nil }
    var year = 1601 + ordinal / 366
    while self.ordinal(Day(year + 1, 1, 1)) <= ordinal { year += 1 }
    var left = ordinal - self.ordinal(Day(year, 1, 1))
    var month = 1
    while left >= length(ofMonth: month, in: year) {
      left -= length(ofMonth: month, in: year)
      month += 1
    }
    return Day(year, month, left + 1)
  }

  /// Monday is 1, Sunday 0 (1601-01-01 was a Monday).
  public static func weekday(_ date: Day) -> Int { (ordinal(date) + 1) % 7 }

  public static let weekdayNames = [
    "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
  ]
  public static let monthNames = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
  ]

  /// `Saturday, September 11, 2004`.
  public static func longText(_ date: Day) -> String {
    "\(weekdayNames[weekday(date)]), \(monthNames[date.month - 1]) \(date.day), \(date.year)"
  }

  /// `date` plus `count` months (negative: minus), the day clamped to the month's last; `nil`
  /// outside 1601–9999.
  public static func adding(months count: Int, to date: Day) -> Day? {
    let months = date.year * 12 + (date.month - 1) + count
    guard months >= 0 else { return nil }
    let year = months / 12
    let month = months - year * 12 + 1
    guard year >= 1601, year <= 9999 else { return nil }
    return Day(year, month, min(date.day, length(ofMonth: month, in: year)))
  }

  public static func adding(years count: Int, to date: Day) -> Day? {
    adding(months: 12 * count, to: date)
  }

  public static func adding(days count: Int, to date: Day) -> Day? {
    day(ordinal: ordinal(date) + count)
  }

  /// An offset's counts.
  public struct Offset: Hashable, Sendable {
    public var years, months, weeks, days: Int?
    public init(years: Int? = nil, months: Int? = nil, weeks: Int? = nil, days: Int? = nil) {
      (self.years, self.months, self.weeks, self.days) = (years, months, weeks, days)
    }

    /// `1y 2m 3w 4d`, units not written left out.
    public var text: String {
      [(years, "y"), (months, "m"), (weeks, "w"), (days, "d")].compactMap { count, unit in
        count.map { "\($0)\(unit)" }
      }.joined(separator: " ")
    }
  }

  /// `date + offset`: years, months, then days (weeks × 7 + days); `nil` out of range.
  public static func add(_ offset: Offset, to date: Day) -> Day? {
    guard let afterYears = adding(years: offset.years ?? 0, to: date),
      let afterMonths = adding(months: offset.months ?? 0, to: afterYears)
    else { return nil }
    return adding(days: 7 * (offset.weeks ?? 0) + (offset.days ?? 0), to: afterMonths)
  }

  /// `date - offset`: days (weeks × 7 + days), months, then years; `nil` out of range.
  public static func subtract(_ offset: Offset, from date: Day) -> Day? {
    guard let afterDays = adding(days: -7 * (offset.weeks ?? 0) - (offset.days ?? 0), to: date),
      let afterMonths = adding(months: -(offset.months ?? 0), to: afterDays)
    else { return nil }
    return adding(years: -(offset.years ?? 0), to: afterMonths)
  }

  /// Windows' difference, counted forward: years, months, weeks, days and the total days.
  public static func difference(_ a: Day, _ b: Day) -> (
    years: Int, months: Int, weeks: Int, days: Int, total: Int
  ) {
    let (start, end) = a < b ? (a, b) : (b, a)
    func fits(_ date: Day?) -> Bool { date.map { $0 <= end } ?? false }
    var years = 0
    while fits(adding(years: years + 1, to: start)) { years += 1 }
    let pivot = adding(years: years, to: start)!
    var months = 0
    while fits(adding(months: months + 1, to: pivot)) { months += 1 }
    var pivot2 = adding(months: months, to: pivot)!
    var weeks = 0
    while let next = adding(days: 7, to: pivot2), next <= end {
      weeks += 1
      pivot2 = next
    }
    let days = ordinal(end) - ordinal(pivot2)
    return (years, months, weeks, days, ordinal(end) - ordinal(start))
  }

  /// Windows' display of the difference: `1 year, 4 months, 1 week, 4 days (498 days)`.
  public static func differenceText(_ a: Day, _ b: Day) -> String {
    let d = difference(a, b)
    if d.total == 0 { return "Same dates" }
    var parts: [String] = []
    for (count, name) in [
      (d.years, "year"), (d.months, "month"), (d.weeks, "week"), (d.days, "day"),
    ]
    where count > 0 {
      parts.append(count == 1 ? "1 \(name)" : "\(count) \(name)s")
    }
    if d.years == 0, d.months == 0, d.weeks == 0 { return parts[0] }
    return parts.joined(separator: ", ") + " (\(d.total) days)"
  }

  /// A random date, with month ends, 29 February and the range's ends oversampled.
  public static func randomDay(_ random: inout SplitMix64) -> Day {
    switch random.below(10) {
    case 0:
      // 29 February of a leap year.
      var year = random.int(1604...9999)
      while !isLeap(year) { year -= 1 }
      return Day(year, 2, 29)
    case 1, 2:
      let year = random.int(1601...9999)
      let month = random.int(1...12)
      return Day(year, month, length(ofMonth: month, in: year) - random.below(3))
    case 3:
      let edge =
        random.chance(50) ? Day(1601, random.int(1...12), 1) : Day(9999, random.int(1...12), 1)
      return Day(edge.year, edge.month, random.int(1...length(ofMonth: edge.month, in: edge.year)))
    default:
      return day(ordinal: random.int(0...ordinal(last)))!
    }
  }

  /// A second date for `date`: near it (within about three years) half of the time.
  public static func randomPartner(of date: Day, _ random: inout SplitMix64) -> Day {
    guard random.chance(50) else { return randomDay(&random) }
    let near = adding(days: random.int(-1100...1100), to: date) ?? date
    guard random.chance(40) else { return near }
    let month = near.month
    return Day(near.year, month, length(ofMonth: month, in: near.year) - random.below(4))
  }

  /// A random offset: each unit present or not, small counts oversampled, 999 sometimes.
  public static func randomOffset(_ random: inout SplitMix64) -> Offset {
    func count() -> Int? {
      guard random.chance(50) else { return nil }
      switch random.below(10) {
      case 0: return 999
      case 1, 2: return random.int(0...999)
      default: return random.int(0...40)
      }
    }
    var offset = Offset(years: count(), months: count(), weeks: count(), days: count())
    if offset == Offset() { offset.days = random.int(0...60) }
    return offset
  }
}
