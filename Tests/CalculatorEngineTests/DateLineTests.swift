import CalcDecimal
import CalcTestSupport
import CalculatorEngine
import Testing

/// SPEC §13's examples and rules for a date line, one by one: what each line shows, what it
/// records, and what it rejects (with the column and the reason).
@Suite struct DateLineTests {
  static let today = CivilDate(year: 2026, month: 12, day: 1)!
  static let english = DisplayFormat(localeIdentifier: "en_US")

  /// A ledger of earlier lines for `$N`: $1 a date, $2 a duration, $3 a duration, $4 a number,
  /// $5 a difference, $6 a fault; $7 and later do not exist yet.
  static func reference(_ line: Int) throws(LineError) -> DateValue {
    switch line {
    case 1: return .date(CivilDate(year: 2026, month: 12, day: 1)!)
    case 2: return .duration(TimeSpan(hours: 1, minutes: 30))
    case 3: return .duration(TimeSpan(hours: 8, minutes: 30))
    case 4: return .number(DateNumber(Decimal34(coefficient: 5, exponent: 0)))
    case 5:
      return .difference(
        DateDifference(
          between: CivilDate(year: 2019, month: 7, day: 31)!,
          and: CivilDate(year: 2019, month: 12, day: 30)!))
    case 6: return .fault(.dateOutOfBound)
    case 8: return .date(CivilDate(year: 2027, month: 1, day: 4)!)
    default: throw LineError("$\(line) refers to line \(line); this is line 7")
    }
  }

  static func context(memory: DateNumber? = nil) -> DateLine.Context {
    DateLine.Context(today: today, memory: memory, reference: reference)
  }

  static func shown(_ text: String, _ format: DisplayFormat = english) throws -> String {
    try DateLine(text, in: context()).value.text(in: format)
  }

  static func rejection(_ text: String) -> LineError? {
    do {
      _ = try DateLine(text, in: context())
      return nil
    } catch {
      return error
    }
  }

  // MARK: - What lines show

  static let displays: [(String, String)] = [
    // Dates: ISO, one-digit month and day, today, the long form with the weekday.
    ("2026-12-01", "Tuesday, December 1, 2026"),
    ("2026-12-1", "Tuesday, December 1, 2026"),
    ("2026-1-5", "Monday, January 5, 2026"),
    ("today", "Tuesday, December 1, 2026"),
    ("TODAY + 1d", "Wednesday, December 2, 2026"),
    ("1601-01-01", "Monday, January 1, 1601"),
    ("9999-12-31", "Friday, December 31, 9999"),
    // Differences.
    ("2019-07-31 to 2019-12-30", "4 months, 4 weeks, 2 days (152 days)"),
    ("2019-12-30 to 2019-07-31", "4 months, 4 weeks, 2 days (152 days)"),
    ("2026-12-01 to 2026-12-02", "1 day"),
    ("2026-12-01 to 2026-12-07", "6 days"),
    ("2026-12-01 to 2026-12-08", "1 week (7 days)"),
    ("2026-12-01 to 2026-12-01", "Same dates"),
    ("today to 2027-01-01", "1 month (31 days)"),
    ("2026-12-01 + 1m to 2026-12-01", "1 month (31 days)"),
    ("2024-02-29 to 2028-02-29", "4 years (1461 days)"),
    ("2024-02-29 to 2025-02-28", "1 year (365 days)"),
    // Offsets: blanks optional, units in any case, weeks, Windows' orders.
    ("2004-05-14 + 120d", "Saturday, September 11, 2004"),
    ("2004-05-14+120D", "Saturday, September 11, 2004"),
    ("2008-01-31+1m1d", "Saturday, March 1, 2008"),
    ("2008-01-31 + 1M 1D", "Saturday, March 1, 2008"),
    ("2008-03-01 - 1m 1d", "Tuesday, January 29, 2008"),
    ("2008-01-31 + 1m", "Friday, February 29, 2008"),
    ("2026-12-01 + 0d", "Tuesday, December 1, 2026"),
    ("2026-12-01 + 2w - 1d", "Monday, December 14, 2026"),
    ("(2026-12-01) + 1y", "Wednesday, December 1, 2027"),
    ("2024-02-29 + 1y 1m", "Friday, March 28, 2025"),
    ("2026-12-01 - 0999y", "Date out of Bound"),
    // Out of the range: an error of calculation, shown.
    ("9999-12-31 + 1d", "Date out of Bound"),
    ("1601-01-01 - 1d", "Date out of Bound"),
    ("9999-12-31 + 1d - 1d", "Date out of Bound"),
    ("9999-12-31 + 1d to 2026-01-01", "Date out of Bound"),
    // Durations.
    ("1:30+0:45:30", "2:15:30"),
    ("1:30 + 0:45:30", "2:15:30"),
    ("4:45/2", "2:22:30"),
    ("8:30*5", "42:30:00"),
    ("5*8:30", "42:30:00"),
    ("0:45-1:00", "-0:15:00"),
    ("-0:15", "-0:15:00"),
    ("-(0:15)", "-0:15:00"),
    ("- -0:15", "0:15:00"),
    ("1:00/7", "0:08:34.286"),
    ("1:00 + 2:00 * 3", "7:00:00"),
    ("(1:00 + 2:00) * 3", "9:00:00"),
    ("1:00 - 0:30 - 0:15", "0:15:00"),
    ("8:00 / 2 / 2", "2:00:00"),
    ("0:00:00.5*3", "0:00:01.500"),
    ("0:00:00.25", "0:00:00.250"),
    ("0:00:00.1 + 0:00:00.2", "0:00:00.300"),
    ("0:00:01/3", "0:00:00.333"),
    ("0:00:00.001/2", "0:00:00"),
    ("0:00:00.003/2", "0:00:00.002"),
    ("0:00:00.005/2", "0:00:00.002"),
    ("-0:00:00.001/4", "0:00:00"),
    ("1000000:00*1000", "1000000000:00:00"),
    ("007:05", "7:05:00"),
    ("2.5*1:00", "2:30:00"),
    (".5*1:00", "0:30:00"),
    ("1:00/0", "Cannot divide by zero"),
    ("0:00/0", "Result is undefined"),
    ("1:00/(0:30-0:30)", "Cannot divide by zero"),
    ("1:00/0 + 1:00", "Cannot divide by zero"),
    // Numbers: a duration ÷ a duration, conversions.
    ("1:00/0:20", "3"),
    ("2:00/0:45", "2.66666667"),
    ("(1:00/0:20)*0:10", "0:30:00"),
    ("8:30 in h", "8.5"),
    ("8:30 in H", "8.5"),
    ("1:30 in min", "90"),
    ("0:01:30 in s", "90"),
    ("36:00 in d", "1.5"),
    ("84:00 in w", "0.5"),
    ("1:00/7 in s", "514.28571429"),
    ("1:00 + 0:30 in h", "1.5"),
    ("2026-01-01 to 2026-01-15 in w", "2"),
    ("1:00/0 in h", "Cannot divide by zero"),
    // $N: a whole operand of its kind; a fault shows itself (rule 14).
    ("$1 + 90d", "Monday, March 1, 2027"),
    ("$1 to $8", "1 month, 3 days (34 days)"),
    ("$3 in h", "8.5"),
    ("8:30*$4", "42:30:00"),
    ("$2 + $3", "10:00:00"),
    ("$2/$3", "0.17647059"),
    ("$5", "4 months, 4 weeks, 2 days (152 days)"),
    ("$5 in d", "152"),
    ("$4", "5"),
    ("$6", "Date out of Bound"),
    ("$6 + 1d", "Date out of Bound"),
    ("$6 * 2", "Date out of Bound"),
    ("$1 to $6", "Date out of Bound"),
  ]

  @Test(arguments: displays) func display(_ row: (String, String)) throws {
    #expect(try Self.shown(row.0) == row.1)
  }

  /// The keywords' keys, written out as constants, are the keys of their letters in any case
  /// (the lexer packs a word so), and the offset units keep their order.
  @Test func wordKeysAreTheirLetters() {
    let words: [(String, UInt64)] = [
      ("to", DateWord.to), ("in", DateWord.in), ("today", DateWord.today), ("mr", DateWord.mr),
      ("t", DateWord.t), ("h", DateWord.hours), ("min", DateWord.minutes),
      ("s", DateWord.seconds), ("d", DateWord.days), ("w", DateWord.weeks),
    ]
    for (word, key) in words {
      #expect(DateWord.key(word.utf8) == key, "\(word)")
      #expect(DateWord.key(word.uppercased().utf8) == key, "\(word)")
    }
    #expect(
      ["y", "m", "w", "d"].map { DateWord.offsetUnit(DateWord.key($0.utf8)) } == [0, 1, 2, 3])
    #expect(
      ["h", "to", "yy", "dd"].allSatisfy { DateWord.offsetUnit(DateWord.key($0.utf8)) == nil })
  }

  @Test func conversionsFollowTheNumberLocale() throws {
    let german = DisplayFormat(localeIdentifier: "de_DE")
    #expect(try Self.shown("8:30 in h", german) == "8,5")
    // Texts are English in every locale; durations and differences are not grouped.
    #expect(try Self.shown("1000000:00*1000", german) == "1000000000:00:00")
    #expect(try Self.shown("2004-05-14 + 120d", german) == "Saturday, September 11, 2004")
    #expect(try Self.shown("1601-01-01 to 9999-12-31", german).hasSuffix("(3067670 days)"))
  }

  @Test func memoryIsANumberOperand() throws {
    let memory = DateNumber(Decimal34(coefficient: 3, exponent: 0))
    let context = Self.context(memory: memory)
    #expect(try DateLine("8:30*mr", in: context).value.text(in: Self.english) == "25:30:00")
    #expect(try DateLine("1:30/MR", in: context).value.text(in: Self.english) == "0:30:00")
    #expect(throws: LineError("mr: the memory is empty", column: 6)) {
      try DateLine("8:30*mr", in: Self.context())
    }
    #expect(throws: LineError("mr is a number; a duration is needed", column: 8)) {
      try DateLine("8:30 + mr", in: context)
    }
  }

  // MARK: - --plain

  static let plains: [(String, String)] = [
    ("2004-05-14 + 120d", "2004-09-11"),
    ("today", "2026-12-01"),
    ("1:00/7", "0:08:34.28571428571428571428571428571429"),
    ("1:30+0:45:30", "2:15:30"),
    ("0:00:00.5*3", "0:00:01.5"),
    ("0:00:01/3", "0:00:00.3333333333333333333333333333333333"),
    ("0:00:00.001/7", "0:00:00.0001428571428571428571428571428571429"),
    ("0:45-1:00", "-0:15:00"),
    ("100:00:00/3", "33:20:00"),
    ("2:00/0:45", "2.666666666666666666666666666666667"),
    ("2019-07-31 to 2019-12-30", "4 months, 4 weeks, 2 days (152 days)"),
    ("9999-12-31 + 1d", "Date out of Bound"),
  ]

  @Test(arguments: plains) func plain(_ row: (String, String)) throws {
    let value = try DateLine(row.0, in: Self.context()).value
    #expect(value.plainText == row.1)
    #expect(value.text(in: .plain) == row.1)
  }

  /// `--plain`'s text of a duration, by 64-bit long division where the seconds' parts are small
  /// (issue 51), equals the general path's in `DateRational`, for random fractions of a second
  /// — denominators on both sides of the 2^60 the fast path takes — and both signs.
  @Test func plainTextsFastPathEqualsTheGeneralOne() throws {
    var random = SplitMix64(state: 0x51_D47E)
    for round in 0..<TestSize.count(short: 1_500, long: 30_000) {
      let numerator = random.next() % (round % 3 == 0 ? 100 : 1_000_000_000_000)
      let denominator = 1 + random.next() % (round % 2 == 0 ? 1_000 : 5_000_000_000_000_000_000)
      let sign = random.next() % 2 == 0 ? "" : "-"
      let text = "\(sign)0:00:01 * \(numerator) / \(denominator)"
      try expectSamePlainText(text)
    }
    // Ties at the 34th digit (2^-33 has 33 decimals), both parities, and a tiny fraction.
    for power in 33...40 {
      for whole in [0, 1, 9, 10, 11, 59, 61, 3_599] {
        for numerator in [1, 3, 5, 7] {
          try expectSamePlainText("0:00:01 * \(whole) + 0:00:01 * \(numerator) / \(1 << power)")
        }
      }
    }
    try expectSamePlainText("0:00:01 / 1000000000000000000")
    try expectSamePlainText("0:00:01 * 59 + 0:00:01 * 999999999999999999 / 1000000000000000000")
  }

  /// A date line's number rounded to 34 digits by 64-bit long division, where its parts are
  /// small (issue 51), is the general path's, digit for digit: random quotients, whole parts up
  /// to 10^15, denominators on both sides of 2^60, ties at the 34th digit.
  @Test func numbersFastPathEqualsTheGeneralOne() throws {
    var random = SplitMix64(state: 0x51_DEC)
    var lines: [String] = []
    for round in 0..<TestSize.count(short: 1_000, long: 20_000) {
      let numerator = random.next() % (round % 3 == 0 ? 1_000_000_000_000_000 : 1_000)
      let denominator = 1 + random.next() % (round % 2 == 0 ? 1_000 : 5_000_000_000_000_000_000)
      let unit = ["s", "min", "h", "d", "w"][Int(random.next() % 5)]
      lines.append("0:00:01 * \(numerator) / \(denominator) in \(unit)")
    }
    for power in 33...40 {
      for numerator in [1, 3, 5, 7, 10_000_001] {
        lines.append("0:00:01 * \(numerator) / \(1 << power) in s")
      }
    }
    for text in lines {
      guard case .number(let number) = try DateLine(text, in: Self.context()).value else {
        Issue.record("\(text): not a number")
        continue
      }
      let (fast, general) = (number.decimal, number.generalDecimal)
      #expect(
        fast.coefficient == general.coefficient && fast.exponent == general.exponent
          && fast.isNegative == general.isNegative, "\(text)")
    }
  }

  /// Whether a line may hold `today` (so that a line without one reads no clock): every
  /// spelling the line's words take, and nothing that holds no such word.
  @Test func mayMentionTodayFindsEveryToday() {
    for text in ["today", "Today + 1d", "TODAY to 2026-12-01", "1:00 + tOdAy", "ttoday", "xtoday"] {
      #expect(DateLine.mayMentionToday(text), "\(text)")
    }
    for text in ["", "2026-12-01 + 1d", "tod ay", "todday", "toda", "1:30 in h", "$3 to $4"] {
      #expect(!DateLine.mayMentionToday(text), "\(text)")
    }
  }

  /// Expects the duration line `text`'s `--plain` text to be the general path's.
  private func expectSamePlainText(_ text: String) throws {
    guard case .duration(let span) = try DateLine(text, in: Self.context()).value else {
      Issue.record("\(text): not a duration")
      return
    }
    #expect(span.plainText == span.generalPlainText, "\(text)")
  }

  @Test func secondsThatRoundToSixtyCarryAMinute() throws {
    // 59.999…9 s with more than 34 nines rounds to 60 s: one minute more, 00 seconds.
    let nines = String(repeating: "9", count: 40)
    let span = try DateLine("0:00:01 * 59.\(nines)", in: Self.context()).value
    #expect(span.plainText == "0:01:00")
    #expect(span.text(in: Self.english) == "0:01:00")
    let hour = try DateLine("0:00:01 * 3599.\(nines)", in: Self.context()).value
    #expect(hour.plainText == "1:00:00")
  }

  // MARK: - :exact

  @Test func exactSecondsOfADuration() throws {
    guard case .duration(let span) = try DateLine("1:00/7", in: Self.context()).value else {
      Issue.record("1:00/7 is a duration")
      return
    }
    #expect(span.exactText == "3600/7 s = 514.(285714) s")
    #expect(span.exactSecondsFraction == "3600/7")
    #expect(span.exactSecondsDecimal == "514.(285714)")
    #expect(!span.isRounded)
    #expect(TimeSpan(hours: 1, minutes: 30).exactText == "5400 s")
    #expect(
      TimeSpan(isNegative: true, hours: 0, seconds: 1, milliseconds: 500).exactText
        == "-3/2 s = -1.5 s")
    guard case .duration(let sixth) = try DateLine("0:00:01/6", in: Self.context()).value else {
      return
    }
    #expect(sixth.exactText == "1/6 s = 0.1(6) s")
  }

  @Test func aRoundedOperandMakesARoundedDuration() throws {
    let root2 = Decimal34(coefficient: 1_414_213_562_373_095_048_801_688_724_209_698, exponent: -33)
    let context = DateLine.Context(today: Self.today) { _ throws(LineError) in
      .number(DateNumber(root2, isRounded: true))
    }
    guard case .duration(let span) = try DateLine("0:00:01*$1", in: context).value else {
      Issue.record("a duration")
      return
    }
    #expect(span.isRounded)
    #expect(span.exactText == "≈ 1.414213562373095048801688724209698 s")
    // Every later step on it rounds to 34 digits: √2 × √2 is 2 (SPEC §2: `sci 2@q-2=` is 0).
    let squared = try DateLine("0:00:01*$1*$1", in: context).value
    #expect(squared.plainText == "0:00:02")
    guard case .duration(let two) = squared else { return }
    #expect(two.isRounded)
  }

  @Test func exactPartsBeyond120DigitsRound() throws {
    // 11^115 has 120 digits, 11^116 has 121: the 116th division by 11 rounds the seconds to 34
    // digits (SPEC §2, rule 15).
    let exact = "1:00" + String(repeating: "*7/11", count: 115)
    let rounded = exact + "*7/11"
    guard case .duration(let kept) = try DateLine(exact, in: Self.context()).value,
      case .duration(let cut) = try DateLine(rounded, in: Self.context()).value
    else {
      Issue.record("durations")
      return
    }
    #expect(!kept.isRounded)
    #expect(cut.isRounded)
    #expect(cut.exactText.hasPrefix("≈ "))
    #expect(kept.exactSecondsFraction.split(separator: "/").last?.count == 120)
  }

  @Test func overflowAndUnderflow() throws {
    let big = String(repeating: "9", count: 97) + ":00"
    #expect(try Self.shown(big) == "Overflow")
    #expect(try Self.shown(String(repeating: "9", count: 96) + ":00") != "Overflow")
    // Below 10^-100 a nonzero result becomes 0.
    let tiny = "0:00:01" + String(repeating: "/1000000000", count: 12)
    #expect(try DateLine(tiny, in: Self.context()).value.plainText == "0:00:00")
  }

  // MARK: - Recording and the expression line

  static let texts: [(String, String, String)] = [
    // typed, recorded, normalised
    ("2019-07-31   to 2019-12-30", "2019-07-31   to 2019-12-30", "2019-07-31 to 2019-12-30"),
    ("today + 90d", "2026-12-01 + 90d", "2026-12-01 + 90d"),
    ("Today to TODAY", "2026-12-01 to 2026-12-01", "2026-12-01 to 2026-12-01"),
    ("2026-12-1+1Y2m", "2026-12-1+1Y2m", "2026-12-01 + 1y 2m"),
    ("2026-12-01 - 2w 3d", "2026-12-01 - 2w 3d", "2026-12-01 - 2w 3d"),
    ("(1:15+0:45)*3", "(1:15+0:45)*3", "(1:15 + 0:45) * 3"),
    ("-0:15", "-0:15", "-0:15"),
    ("007:05:00.50", "007:05:00.50", "7:05:00.50"),
    ("8:30 IN h", "8:30 IN h", "8:30 in h"),
    ("$1+90d", "$1+90d", "$1 + 90d"),
    ("8:30*mr", "8:30*mr", "8:30 * mr"),
  ]

  @Test(arguments: texts) func recordedAndNormalised(_ row: (String, String, String)) throws {
    let line = try DateLine(row.0, in: Self.context(memory: DateNumber(2)))
    #expect(line.recordedText == row.1)
    #expect(line.normalizedText == row.2)
    // The recorded text reads back to the same value, whatever day it is then.
    let later = DateLine.Context(
      today: CivilDate(year: 2030, month: 6, day: 15)!, memory: DateNumber(2),
      reference: Self.reference)
    #expect(try DateLine(line.recordedText, in: later).value == line.value)
    #expect(try DateLine(line.normalizedText, in: later).value == line.value)
  }

  @Test func kindsAndReferences() throws {
    let cases: [(String, DateKind?)] = [
      ("2026-12-01", .date), ("today - 1d", .date), ("2026-01-01 to 2026-02-01", .difference),
      ("1:00", .duration), ("1:00/0", .duration), ("1:00/0:30", .number), ("1:00 in h", .number),
      ("$4", .number), ("$5", .difference), ("$6", nil), ("$6 + 1d", .date),
      ("2026-01-01 to 2026-02-01 in d", .number),
    ]
    for (text, kind) in cases {
      #expect(try DateLine(text, in: Self.context()).kind == kind, "\(text)")
    }
    #expect(try DateLine("$1 to $8", in: Self.context()).references == [1, 8])
    #expect(try DateLine("($2 + $3) * $4", in: Self.context()).references == [2, 3, 4])
  }

  @Test func referencesAreRenumbered() {
    #expect(
      DateLine.renumberingReferences(in: "$3 to $12 + 1d", { $0 + 1 }) == "$4 to $13 + 1d")
    #expect(DateLine.renumberingReferences(in: "8:30*mr", { $0 + 1 }) == "8:30*mr")
  }

  @Test func numbersForOtherModes() throws {
    #expect(
      try DateValue.difference(
        DateDifference(between: Self.today, and: CivilDate(year: 2027, month: 1, day: 1)!)
      ).numberInOtherModes(line: 3) == .number(DateNumber(31)))
    #expect(
      try DateValue.number(DateNumber(Decimal34(coefficient: 85, exponent: -1)))
        .numberInOtherModes(line: 3)
        == .number(DateNumber(Decimal34(coefficient: 85, exponent: -1))))
    #expect(
      try DateValue.fault(.dateOutOfBound).numberInOtherModes(line: 3) == .fault(.dateOutOfBound))
    #expect(throws: LineError("$3 is a duration; write $3 in h on a line for a number")) {
      try DateValue.duration(TimeSpan(hours: 1)).numberInOtherModes(line: 3)
    }
    #expect(
      throws: LineError("$2 is a date; write $2 to another date on a line for a number of days")
    ) {
      try DateValue.date(Self.today).numberInOtherModes(line: 2)
    }
  }

  // MARK: - Rejections

  static let rejections: [(String, String, Int)] = [
    // Dates that do not exist, or are written otherwise.
    ("2026-02-30", "no such date: February has 28 days in 2026", 9),
    ("2024-02-30", "no such date: February has 29 days in 2024", 9),
    ("2026-04-31", "no such date: April has 30 days", 9),
    ("2026-13-01", "no such date: a year has 12 months", 6),
    ("2026-12-00", "no such date: days start at 1", 9),
    ("1600-12-31", "dates run from 1601-01-01 to 9999-12-31", 1),
    ("26-12-01", "a year has 4 digits: 2026-12-01", 1),
    ("12026-12-01", "a year has 4 digits: 2026-12-01", 1),
    ("2026-012-01", "a month has 1 or 2 digits: 2026-12-01", 6),
    ("2026-12-001", "a day has 1 or 2 digits: 2026-12-01", 9),
    ("12/01/2026", "dates are written YYYY-MM-DD: 2026-12-01", 1),
    ("01.12.2026", "dates are written YYYY-MM-DD: 2026-12-01", 1),
    ("today to 2026-02-30", "no such date: February has 28 days in 2026", 18),
    // D1 - D2, and other mixes of kinds.
    (
      "2019-12-30 - 2019-07-31",
      "a date minus a date: the days between them are 2019-07-31 to 2019-12-30", 12
    ),
    (
      "2026-01-01 + 2026-02-01",
      "a date plus a date: 2026-01-01 to 2026-02-01 counts the days between them", 12
    ),
    (
      "2026-12-01 + 1:00",
      "a date plus a duration is not built: dates have no time of day (add days: + 1d)", 14
    ),
    ("2026-12-01 + 10", "10 needs a unit: 10d, 10w, 10m or 10y", 14),
    ("2026-12-01 + $4", "$4 is a number; an offset is needed (10d)", 14),
    ("2026-12-01 + $5", "$5 is a difference; an offset is needed (10d)", 14),
    ("$2 + 1d", "$2 is a duration; a date is needed", 1),
    ("$4 + 1d", "$4 is a number; a date is needed", 1),
    ("$2 to $1", "$2 is a duration; a date is needed", 1),
    ("$1 to 1:00", "1:00 is a duration; a date is needed", 7),
    ("$1 in h", "$1 is a date; a duration is needed", 1),
    ("$4 in h", "$4 is a number; a duration is needed", 1),
    ("$1 * 2", "$1 is a date; a duration or a number is needed", 1),
    ("$5 + 1:00", "$5 is a difference; a duration is needed", 1),
    ("-2026-12-01", "2026-12-01 is a date; a duration or a number is needed", 2),
    ("1:00 + 2", "2 is a number; a duration is needed", 8),
    ("2 - 1:00", "2 is a number; a duration is needed", 1),
    ("1:00 * 2:00", "a duration times a duration is not built", 6),
    ("2 / 1:00", "a number divided by a duration is not built", 3),
    (
      "2 * 3",
      "a calculation with numbers alone: date lines calculate with dates and durations "
        + "(std or sci calculate numbers)", 1
    ),
    (
      "5",
      "a calculation with numbers alone: date lines calculate with dates and durations "
        + "(std or sci calculate numbers)", 1
    ),
    (
      "$4 * 2",
      "a calculation with numbers alone: date lines calculate with dates and durations "
        + "(std or sci calculate numbers)", 1
    ),
    // Offsets: units, their order, their counts.
    ("2026-12-01 + 1q", "'q' is not a unit of an offset: y, m, w or d (1y 2m 3w 4d)", 15),
    ("2026-12-01 + 10days", "'days' is not a unit of an offset: y, m, w or d (1y 2m 3w 4d)", 16),
    (
      "2026-12-01 + 2h",
      "'h' is not a unit of an offset (y, m, w, d); a duration is written H:MM:SS", 15
    ),
    ("2026-12-01 + 1d 2d", "d twice: each unit of an offset comes once (1y 2m 3w 4d)", 18),
    ("2026-12-01 + 1d 2y", "y after d: an offset's units go y m w d (1y 2m 3w 4d)", 18),
    ("2026-12-01 + 1m2y", "y after m: an offset's units go y m w d (1y 2m 3w 4d)", 17),
    ("2026-12-01 + 1000d", "an offset is at most 999 of a unit (1000d)", 14),
    (
      "2026-12-01 - 99999999999999999999999y",
      "an offset is at most 999 of a unit (99999999999999999999999y)", 14
    ),
    ("2026-12-01 + 1.5d", "an offset counts whole units: 1d, not 1.5d", 14),
    ("2026-12-01 + 1m 3", "3 needs a unit: 3d, 3w, 3m or 3y", 17),
    ("1:00 + 1d", "1:00 is a duration; a date is needed", 1),
    ("2026-12-01 + $4d", "an offset counts a number typed in the line, not $4: such as 10d", 14),
    ("8:30 * 2d", "2d is an offset: it follows a date and + or - (2026-12-01 + 2d)", 8),
    // Times of day, time zones, other calendars.
    ("2026-12-01 10:00", "times of day are not built: a date has no time of day", 12),
    ("2026-12-01T10:00", "times of day are not built: a date has no time of day", 11),
    ("today 10:00", "times of day are not built: a date has no time of day", 7),
    ("10:00 UTC", "time zones are not built: dates have no time of day or time zone", 7),
    ("2026-12-01 + 1d CET", "time zones are not built: dates have no time of day or time zone", 17),
    ("10:00 pm", "times of day are not built: a duration is written H:MM (1:30)", 7),
    (
      "julian 2026-12-01",
      "other calendars are not built: dates are proleptic Gregorian (2026-12-01)", 1
    ),
    (
      "2026-12-01 hijri",
      "other calendars are not built: dates are proleptic Gregorian (2026-12-01)", 12
    ),
    ("tomorrow", "dates are written YYYY-MM-DD (2026-12-01) or today", 1),
    ("now", "times of day are not built: a duration is written H:MM (1:30)", 1),
    // Durations.
    ("1:5", "minutes have two digits: 1:05", 3),
    ("1:60", "minutes are below 60: hours and minutes carry the rest", 3),
    ("1:00:75", "seconds are below 60: hours and minutes carry the rest", 6),
    ("1:00:5", "seconds have two digits: 1:05:09", 6),
    ("1:00:00:00", "a duration is H:MM or H:MM:SS: 1:30 or 1:30:15", 8),
    ("1:30.5", "a fraction of a second follows the seconds: 1:30:00.5", 5),
    ("0:00:01.2345", "a second has 1 to 3 digits after the point (milliseconds): 0:00:01.250", 12),
    ("0:00:01.", "a second has 1 to 3 digits after the point (milliseconds): 0:00:01.250", 8),
    (":30", "a duration starts with its hours: 0:30", 1),
    ("1:00 in m", "m is months; minutes are min (1:30 in min)", 9),
    ("1:00 in days", "in converts to h, min, s, d or w (8:30 in h)", 9),
    ("1:00 in", "in needs a unit: h, min, s, d or w (8:30 in h)", 8),
    ("1:00 in h in h", "in comes once on a line", 11),
    ("1:00 in h 2", "an operator is missing here (+ - * /)", 11),
    // Structure.
    ("", "the line is empty: a date line is a date, such as today", 1),
    ("   ", "the line is empty: a date line is a date, such as today", 1),
    ("2026-12-01 to", "to needs a date after it: 2026-01-01 to 2026-12-01", 14),
    ("to 2026-12-01", "to needs a date before it: 2026-01-01 to 2026-12-01", 1),
    ("2026-01-01 to 2026-02-01 to 2026-03-01", "to comes once on a line", 26),
    ("2026-01-01 2026-02-01", "two dates are joined by to: 2026-01-01 to 2026-12-01", 12),
    ("1:00 +", "+ needs something after it", 7),
    ("* 1:00", "* needs something before it", 1),
    ("(1:00 + 0:30", "a ( without its ): close it", 1),
    ("1:00 + 0:30)", "a ) without its (", 12),
    ("()", "something is missing before )", 2),
    ("(2026-01-01 to 2026-02-01)", "to stands outside brackets", 13),
    ("2(1:00)", "an operator is missing here (+ - * /): nothing multiplies by itself", 2),
    ("1:00 $2", "an operator is missing here (+ - * /): nothing multiplies by itself", 6),
    ("1:00 = ", "a date line needs no =: it is calculated when it is entered", 6),
    ("1:00 % 2", "unexpected '%'", 6),
    ("1:00\u{A0}+ 1:00", "unexpected U+00A0", 5),
    (
      "2026-12-01 + 90d # deadline", "a note starts after the line: 2026-12-01 + 90d  # deadline",
      18
    ),
    ("$", "$ needs the number of a line: $3", 1),
    ("1:00*$1234567890123456789", "$1234567890123456789 refers to no line", 6),
    ("1:00 + $7", "$7 refers to line 7; this is line 7", 8),
    ("std", "std is a mode key: it starts a line", 1),
    ("fe", "fe is not a key of date mode", 1),
    ("ms", "ms is a memory key: it stands alone on its line", 1),
    (
      "hello",
      "unknown word 'hello': a date line holds dates (2026-12-01, today), to, offsets "
        + "(+ 1y 2m 3w 4d), durations (1:30) and in", 1
    ),
  ]

  @Test(arguments: rejections) func rejected(_ row: (String, String, Int)) {
    let error = Self.rejection(row.0)
    #expect(error?.message == row.1)
    #expect(error?.column == row.2)
  }

  @Test func bracketsNestAtMost24Deep() throws {
    let deep = String(repeating: "(", count: 24) + "1:00" + String(repeating: ")", count: 24)
    #expect(try Self.shown(deep + "*2") == "2:00:00")
    let deeper = String(repeating: "(", count: 25) + "1:00" + String(repeating: ")", count: 25)
    #expect(Self.rejection(deeper) == LineError("brackets nest at most 24 deep", column: 25))
    // Brackets that close in between do not count together.
    let sides = String(repeating: "(", count: 20) + "1:00" + String(repeating: ")", count: 20)
    #expect(try Self.shown(sides + "+" + sides) == "2:00:00")
  }

  /// A line as long as a file is read without deep recursion (its runs of operators are flat):
  /// it is calculated or rejected, never a crash.
  @Test func longLinesAreFlat() throws {
    let terms = TestSize.count(short: 1_000, long: 50_000)
    let sum = "0:00:01" + String(repeating: " + 0:00:01", count: terms)
    #expect(try Self.shown(sum) == TimeSpan(hours: 0, seconds: terms + 1).displayText)
    let signs = String(repeating: "-", count: terms) + "0:15"
    #expect(try Self.shown(signs) == "0:15:00")
    #expect(try Self.shown("-" + signs) == "-0:15:00")
    let offsets = "1601-01-01" + String(repeating: " + 1d", count: terms)
    #expect(try Self.shown(offsets) == CivilDate(dayNumber: terms)!.longText)
    let mixed = sum + " + 2026-12-01"
    #expect(Self.rejection(mixed)?.message == "2026-12-01 is a date; a duration is needed")
  }

  @Test func withoutAResolverReferencesAreRejected() {
    #expect(throws: LineError("$1 has no line to refer to here", column: 1)) {
      try DateLine("$1 + 1d", in: DateLine.Context(today: Self.today))
    }
  }

  @Test func isoDatesForFind() throws {
    #expect(try CivilDate(iso: "2027-03-15") == CivilDate(year: 2027, month: 3, day: 15))
    #expect(try CivilDate(iso: "2027-3-5") == CivilDate(year: 2027, month: 3, day: 5))
    #expect(throws: LineError("no such date: February has 28 days in 2027", column: 9)) {
      try CivilDate(iso: "2027-02-29")
    }
    #expect(throws: LineError("a date is written YYYY-MM-DD, such as 2026-12-01", column: 1)) {
      try CivilDate(iso: "1639")
    }
    #expect(throws: LineError("a date is written YYYY-MM-DD, such as 2026-12-01", column: 11)) {
      try CivilDate(iso: "2027-03-15 ")
    }
  }
}
