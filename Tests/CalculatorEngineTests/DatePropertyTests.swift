import CalcTestSupport
import CalculatorEngine
import Foundation
import Testing

/// Date mode against its oracles (SPEC §13, issue 50): the independent model of §13 in
/// CalcTestSupport (`DateModel`) over random dates and offsets across 1601–9999, month ends and
/// 29 February oversampled; and, for day numbers and weekdays, Python's proleptic Gregorian
/// calendar (`Fixtures/date-reference.tsv`, written by `Scripts/date-reference.py`).
///
/// There is no property "add then subtract is the identity": Windows' orders (years, months,
/// days to add; days, months, years to subtract) make it false (`2008-01-31 + 1m 1d` is
/// 2008-03-01, and `2008-03-01 - 1m 1d` is 2008-01-29).
@Suite struct DatePropertyTests {
  static var context: DateLine.Context {
    DateLine.Context(today: CivilDate(year: 2026, month: 12, day: 1)!)
  }
  static let english = DisplayFormat(localeIdentifier: "en_US")

  static func engine(_ day: DateModel.Day) -> CivilDate {
    CivilDate(year: day.year, month: day.month, day: day.day)!
  }

  static func shown(_ text: String) throws -> String {
    try DateLine(text, in: context).value.text(in: english)
  }

  // MARK: - The model

  @Test func differencesMatchTheModel() throws {
    let seed = UInt64.random(in: 0...UInt64.max)
    var random = SplitMix64(state: seed)
    for _ in 0..<TestSize.count(short: 150, long: 20_000) {
      let a = DateModel.randomDay(&random)
      let b = DateModel.randomPartner(of: a, &random)
      let line = "\(a) to \(b)"
      let expected = DateModel.differenceText(a, b)
      let shown = try Self.shown(line)
      #expect(shown == expected, "seed \(seed): \(line)")
      guard shown == expected else { return }
      // The parts, added back to the earlier date as the pivot added them, reach the later one.
      let difference = DateDifference(between: Self.engine(a), and: Self.engine(b))
      let start = Swift.min(Self.engine(a), Self.engine(b))
      let reached = start.adding(years: difference.years)?.adding(months: difference.months)?
        .adding(days: 7 * difference.weeks + difference.days)
      #expect(reached == Swift.max(Self.engine(a), Self.engine(b)), "seed \(seed): \(line)")
      #expect(difference.totalDays == abs(DateModel.ordinal(b) - DateModel.ordinal(a)))
    }
  }

  @Test func offsetsMatchTheModel() throws {
    let seed = UInt64.random(in: 0...UInt64.max)
    var random = SplitMix64(state: seed)
    for _ in 0..<TestSize.count(short: 300, long: 40_000) {
      let date = DateModel.randomDay(&random)
      let offset = DateModel.randomOffset(&random)
      let adding = random.chance(50)
      let line = "\(date) \(adding ? "+" : "-") \(offset.text)"
      let moved = adding ? DateModel.add(offset, to: date) : DateModel.subtract(offset, from: date)
      let expected = moved.map(DateModel.longText) ?? "Date out of Bound"
      let read = try DateLine(line, in: Self.context)
      #expect(read.value.text(in: Self.english) == expected, "seed \(seed): \(line)")
      // The expression line reads back to the same value.
      #expect(try DateLine(read.normalizedText, in: Self.context).value == read.value)
    }
  }

  @Test func theModelCountsTheSpecExamples() {
    let day = DateModel.Day.init
    #expect(
      DateModel.differenceText(day(2019, 7, 31), day(2019, 12, 30))
        == "4 months, 4 weeks, 2 days (152 days)")
    #expect(
      DateModel.differenceText(day(2004, 6, 3), day(2005, 10, 14))
        == "1 year, 4 months, 1 week, 4 days (498 days)")
    #expect(
      DateModel.differenceText(day(1601, 1, 1), day(9999, 12, 31))
        == "8398 years, 11 months, 4 weeks, 2 days (3067670 days)")
    #expect(DateModel.add(.init(months: 1, days: 1), to: day(2008, 1, 31)) == day(2008, 3, 1))
    #expect(
      DateModel.subtract(.init(months: 1, days: 1), from: day(2008, 3, 1)) == day(2008, 1, 29))
    #expect(DateModel.longText(day(2004, 9, 11)) == "Saturday, September 11, 2004")
  }

  /// Every row of the shared table that the model can answer, answered by the model too: the
  /// model is checked against Windows' vectors, not only against the engine.
  @Test func theModelAnswersTheSharedRows() throws {
    var answered = 0
    for row in DateCasesTests.rows {
      let words = row.keys.split(separator: " ")
      guard words.count >= 3, let a = Self.modelDay(words[0]) else { continue }
      if words[1] == "to", words.count == 3, let b = Self.modelDay(words[2]) {
        #expect(DateModel.differenceText(a, b) == row.expected, "\(row.keys)")
        answered += 1
      } else if words[1] == "+" || words[1] == "-" {
        var offset = DateModel.Offset()
        for word in words[2...] {
          let count = Int(word.dropLast())!
          switch word.last {
          case "y": offset.years = count
          case "m": offset.months = count
          case "w": offset.weeks = count
          default: offset.days = count
          }
        }
        let moved =
          words[1] == "+" ? DateModel.add(offset, to: a) : DateModel.subtract(offset, from: a)
        #expect(
          (moved.map(DateModel.longText) ?? "Date out of Bound") == row.expected, "\(row.keys)")
        answered += 1
      }
    }
    #expect(answered == 116)
  }

  static func modelDay(_ text: Substring) -> DateModel.Day? {
    let parts = text.split(separator: "-").compactMap { Int($0) }
    guard parts.count == 3 else { return nil }
    return DateModel.Day(parts[0], parts[1], parts[2])
  }

  // MARK: - Python's calendar

  struct Reference: Sendable, CustomTestStringConvertible {
    let iso: String
    let dayNumber: Int
    let weekday: String
    var testDescription: String { "\(iso) \(dayNumber) \(weekday)" }
  }

  static let references: [Reference] = {
    let url = testsDirectory.appendingPathComponent("Fixtures/date-reference.tsv")
    let text = try! String(contentsOf: url, encoding: .utf8)
    return text.split(separator: "\n").compactMap { line in
      guard !line.hasPrefix("#") else { return nil }
      let fields = line.split(separator: "\t")
      return Reference(
        iso: String(fields[0]), dayNumber: Int(fields[1])!, weekday: String(fields[2]))
    }
  }()

  @Test func dayNumbersAndWeekdaysMatchPython() throws {
    #expect(Self.references.count == 700)
    for reference in Self.references {
      let date = try CivilDate(iso: reference.iso)
      #expect(date.dayNumber == reference.dayNumber, "\(reference.iso)")
      #expect(date.weekday.name == reference.weekday, "\(reference.iso)")
      #expect(CivilDate(dayNumber: reference.dayNumber)?.isoText == reference.iso)
      // The model counts the same days.
      let day = Self.modelDay(Substring(reference.iso))!
      #expect(DateModel.ordinal(day) == reference.dayNumber, "model: \(reference.iso)")
      #expect(DateModel.weekdayNames[DateModel.weekday(day)] == reference.weekday)
    }
    // Differences of day numbers are the days between: every consecutive pair, as a line.
    for (a, b) in zip(Self.references, Self.references.dropFirst()).prefix(60) {
      let difference = DateDifference(
        between: try CivilDate(iso: a.iso), and: try CivilDate(iso: b.iso))
      #expect(difference.totalDays == b.dayNumber - a.dayNumber)
    }
  }

  /// Day numbers and dates convert both ways, and the weekday steps by one: every day under
  /// CALC_LONG_TESTS=1, every 97th (and the first and last 400) otherwise.
  @Test func dayNumbersRoundTrip() {
    let step = TestSize.count(short: 97, long: 1)
    var numbers = Array(stride(from: 0, through: CivilDate.dayNumbers.upperBound, by: step))
    if step > 1 {
      numbers += Array(0..<400)
      numbers += Array(CivilDate.dayNumbers.upperBound - 399...CivilDate.dayNumbers.upperBound)
    }
    var previous: (number: Int, weekday: Weekday)?
    for number in numbers {
      let date = CivilDate(dayNumber: number)!
      let (year, month, day) = date.components
      #expect(CivilDate(year: year, month: month, day: day) == date)
      // The next day is the next weekday.
      if let previous, previous.number + 1 == number {
        #expect(date.weekday.rawValue == (previous.weekday.rawValue + 1) % 7)
      }
      previous = (number, date.weekday)
    }
    #expect(CivilDate(dayNumber: -1) == nil)
    #expect(CivilDate(dayNumber: CivilDate.dayNumbers.upperBound + 1) == nil)
    #expect(CivilDate.first.isoText == "1601-01-01")
    #expect(CivilDate.last.isoText == "9999-12-31")
  }

  /// A date's ISO text reads back as the date (``CivilDate/init(iso:)``: `YYYY-MM-DD` is read
  /// at once, other shapes by the general reader), in every shape the reader takes; a date
  /// that is not one of the calendar is rejected with its reason, whichever reader sees it.
  @Test func isoTextsReadBack() throws {
    let step = TestSize.count(short: 389, long: 7)
    for number in stride(from: 0, through: CivilDate.dayNumbers.upperBound, by: step) {
      let date = CivilDate(dayNumber: number)!
      #expect(try CivilDate(iso: date.isoText) == date, "\(date.isoText)")
      let (year, month, day) = date.components
      #expect(try CivilDate(iso: "\(year)-\(month)-\(day)") == date, "\(date.isoText)")
    }
    for (text, message) in [
      ("2026-02-29", "no such date: February has 28 days in 2026"),
      ("2026-13-01", "no such date: a year has 12 months"),
      ("2026-04-31", "no such date: April has 30 days"),
      ("2026-01-00", "no such date: days start at 1"),
      ("1600-12-31", "dates run from 1601-01-01 to 9999-12-31"),
      ("2026-01-011", "a day has 1 or 2 digits: 2026-12-01"),
    ] {
      do {
        let date = try CivilDate(iso: text)
        Issue.record("\(text) read as \(date.isoText)")
      } catch {
        #expect(error.message == message, "\(text)")
      }
    }
  }

  // MARK: - Durations

  /// Durations against integer milliseconds: sums, differences, products and quotients by
  /// integers, shown as the display shows them (milliseconds rounded half to even).
  @Test func durationsMatchIntegerMilliseconds() throws {
    let seed = UInt64.random(in: 0...UInt64.max)
    var random = SplitMix64(state: seed)
    func text(_ milliseconds: Int) -> String {
      let sign = milliseconds < 0 ? "-" : ""
      let value = abs(milliseconds)
      let (hours, rest) = value.quotientAndRemainder(dividingBy: 3_600_000)
      let minutes = rest / 60_000
      let seconds = rest % 60_000 / 1000
      let fraction = value % 1000
      func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
      let fractionText = fraction == 0 ? "" : "." + String(String(fraction + 1000).dropFirst())
      return "\(sign)\(hours):\(two(minutes)):\(two(seconds))\(fractionText)"
    }
    for _ in 0..<TestSize.count(short: 200, long: 20_000) {
      let a = random.int(0...400_000_000) * (random.chance(20) ? -1 : 1)
      let b = random.int(0...400_000_000)
      let k = random.int(1...1000)
      let (op, expected): (String, Int)
      switch random.below(4) {
      case 0: (op, expected) = ("+ \(text(b))", a + b)
      case 1: (op, expected) = ("- \(text(b))", a - b)
      case 2: (op, expected) = ("* \(k)", a * k)
      default:
        // Half to even, in integers.
        let (quotient, remainder) = abs(a).quotientAndRemainder(dividingBy: k)
        let up = 2 * remainder > k || (2 * remainder == k && quotient % 2 == 1)
        (op, expected) = ("/ \(k)", (quotient + (up ? 1 : 0)) * (a < 0 ? -1 : 1))
      }
      let line = "\(text(a)) \(op)"
      #expect(try Self.shown(line) == text(expected), "seed \(seed): \(line)")
    }
  }
}
