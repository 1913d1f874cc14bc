import CalcTestSupport
import CalculatorEngine
import Testing

/// The date lines read by their shape (`DateShape.step(of:reference:)`, issue 51) against the
/// one-pass reader (`DateLine.onePass`), which `DateLineOnePassTests` checks against the tree:
/// where the shape reads a line, the one-pass reader reads it too, to the same value, recorded
/// text and normalised text; the lines it declines go on to that reader.
@Suite struct DateShapeTests {
  /// `DateLineOnePassTests`'s earlier lines: `$1` a date, `$2` a duration, `$3` a number, `$4`
  /// a difference, `$5` a fault, `$6` a number beyond rule 14's limits, `$7` a duration with a
  /// fraction, `$8` zero; `$9` and beyond, and `$0`, refused.
  static var context: DateLine.Context { DateLineOnePassTests.referenceContext }

  /// The step of `text` by its shape, its `$N` resolved in ``context``.
  static func shape(_ text: String) -> DateStep? {
    var copy = text
    let reference = context.reference!
    return copy.withUTF8 { DateShape.step(of: $0) { try? reference($0) } }
  }

  /// Whether the shape's step of `text`, where it reads one, is the one-pass reader's line.
  static func agrees(_ text: String) -> Bool {
    guard let step = shape(text) else { return true }
    guard let line = DateLine.onePass(text, reference: context.reference) else { return false }
    return step.value == line.value && step.text == line.recordedText
      && step.normalizedText == line.normalizedText
  }

  /// Each shape, as calc-bench's date lines write them and normalised, is read by its shape
  /// (the point of it), to the one-pass reader's line.
  @Test func commonShapesAreReadByTheirShape() throws {
    let lines = [
      "2165-08-15", "9708-10-08 to 2516-07-22", "8603-09-14 + 552y", "7146-06-13 - 487m 3d",
      "2008-01-31 + 1m 1d", "2008-03-01 - 1m 1d", "2024-02-29 + 1y", "3000-01-31 + 0y 0m 0w 0d",
      "3:42+63:44", "1:02 + 3:04", "17:50:09.5+9:24:00.125", "007:05+0:30", "0:00+0:00",
      "65:55:08 in min", "34:55 in h", "1:00:00.001 in s", "9999999:59:59.999 in w",
      "0012:00 in d", "1601-01-01", "9999-12-31 - 999y 999m 999w 999d", "$1 to $1",
      "$1 + 10d", "$1 - 1y 2m", "$2 in min", "$7 in s", "$2*2", "$7*3", "$2*02", "34:55/94",
      "1:00:00.5 / 3", "0:10/007", "(1:30+0:45)*3", "(01:30 + 0:45:10.25) * 12", "(0:00+0:00)*0",
    ]
    for text in lines {
      let step = try #require(Self.shape(text), "\(text)")
      let line = try #require(
        DateLine.onePass(text, reference: Self.context.reference), "\(text)")
      #expect(step.value == line.value, "\(text)")
      #expect(step.text == text, "\(text)")
      #expect(step.normalizedText == line.normalizedText, "\(text)")
    }
    #expect(Self.shape("3:42+63:44")?.normalizedText == "3:42 + 63:44")
    #expect(Self.shape("007:05+0:30")?.normalizedText == "7:05 + 0:30")
    #expect(Self.shape("0012:00 in d")?.normalizedText == "12:00 in d")
    #expect(Self.shape("$2*2")?.normalizedText == "$2 * 2")
    #expect(Self.shape("34:55/94")?.normalizedText == "34:55 / 94")
    #expect(Self.shape("(01:30+0:45)*3")?.normalizedText == "(1:30 + 0:45) * 3")
    #expect(
      Self.shape("2024-02-29 + 1y")?.value == .date(CivilDate(year: 2025, month: 2, day: 28)!))
  }

  /// Lines of other shapes, lines not written as normalised (dates) and lines out of the
  /// range are declined, for the one-pass reader and the tree.
  @Test func otherLinesAreDeclined() {
    for text in [
      "", "2024", "2024-1-5", "2024-01-05 ", "2024-01-05  to 2024-02-01",
      "2024-01-05 TO 2024-02-01",
      "2024-01-05 to 2024-02-01 in d", "2024-01-05 + 05d", "2024-01-05 + 1000d",
      "2024-01-05 + 1d 1y",
      "2024-01-05 + 1d  2d", "2024-01-05 + 1D", "2024-01-05 + 1.5d", "2024-01-05 +1d",
      "9999-12-31 + 1d", "1601-01-01 - 1d", "2024-02-30", "1600-12-31", "2024-13-01",
      "2024-01-05 + 1d + 1d", "1:60+1:00", "1:00:60+1:00", "1:00:00.1234+1:00", "1:00.5+1:00",
      "1:00+1:00+1:00", "1:00 +1:00", "1:00+ 1:00", "12345678:00+1:00", "1:0+1:00", "1:00 in m",
      "1:00 in H", "1:00 in mins", "1:00  in h", "1:00 in", "1:00*2", "1:00-0:30", "(1:00+1:00)",
      "1:00:00.+1:00", "2024-01-05\t+ 1d", "$2 to $1", "$1 to $4", "$3 in h", "$4 in d",
      "$1*2", "$3*2", "$4*2", "$5 in h", "$6*2", "$9 + 1d", "$0 + 1d", "$01 + 1d", "$1+1d",
      "$1 + 1d + 1d", "$2 * 2", "$2*2.5", "$2*-2", "$1  to $1", "$1 to", "$", "$2*1234567890",
      "1:00/0", "1:00/1234567890", "1:00/2.5", "1:00 /2", "(1:00+1:00)",
      "(1:00+1:00)*2*2", "(1:00+1:00) *2", "(1:00*2)*2", "1:00*2/2", "(1:00+1:00)*0:30",
    ] {
      #expect(Self.shape(text) == nil, "\(text)")
    }
  }

  /// Random lines near the shapes — leading zeros, odd blanks, units out of order or of other
  /// spellings, fields out of range, dates at the ends of the range — agree with the one-pass
  /// reader; most of the well-formed ones are read by their shape.
  @Test func randomLinesAgree() {
    let seed = UInt64.random(in: 0...UInt64.max)
    var random = SplitMix64(state: seed)
    var read = 0
    let count = TestSize.count(short: 3_000, long: 200_000)
    for _ in 0..<count {
      let text = Self.randomLine(&random)
      let agrees = Self.agrees(text)
      #expect(agrees, "seed \(seed): \(text)")
      guard agrees else { break }
      if Self.shape(text) != nil { read += 1 }
    }
    #expect(read > count / 4, "seed \(seed): \(read) of \(count) read by their shape")
  }

  /// A random line of one of the shapes, now and then written otherwise.
  static func randomLine(_ random: inout SplitMix64) -> String {
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    func date() -> String {
      let year =
        random.below(8) == 0 ? [1600, 1601, 9999, 10000][random.below(4)] : random.int(1601...9999)
      let month = random.below(16) == 0 ? random.int(0...13) : random.int(1...12)
      let day = random.below(4) == 0 ? random.int(28...32) : random.int(1...28)
      return "\(year)-\(two(month))-\(two(day))"
    }
    func count() -> String {
      switch random.below(12) {
      case 0: return "0\(random.below(100))"
      case 1: return "\(random.int(1000...1200))"
      default: return "\(random.below(1000))"
      }
    }
    func offset() -> String {
      var units = ["y", "m", "w", "d"].filter { _ in random.below(2) == 0 }
      if units.isEmpty { units = ["d"] }
      if random.below(12) == 0 { units.shuffle(using: &random) }
      if random.below(16) == 0 { units[0] = ["Y", "M", "x", "min", "h"][random.below(5)] }
      let blank = random.below(16) == 0 ? "  " : " "
      return units.map { count() + $0 }.joined(separator: blank)
    }
    func duration() -> String {
      let hours = random.below(10) == 0 ? "\(random.below(1_000_000_000))" : "\(random.below(100))"
      let zeros = random.below(8) == 0 ? "00" : ""
      let minutes = random.below(12) == 0 ? random.int(60...99) : random.below(60)
      var text = zeros + hours + ":" + two(minutes)
      if random.below(2) == 0 {
        let seconds = random.below(12) == 0 ? random.int(60...99) : random.below(60)
        text += ":" + two(seconds)
        if random.below(2) == 0 {
          text += "." + String(random.below(100_000)).prefix(random.int(0...4))
        }
      } else if random.below(16) == 0 {
        text += ".5"
      }
      return text
    }
    let units = ["h", "min", "s", "d", "w", "m", "H", "mins", "hours"]
    func unit() -> String { units[random.below(8) < 6 ? random.below(5) : random.int(5...8)] }
    func reference() -> String { "$\(random.int(0...10))" }
    func operand() -> String {
      let spaced = random.below(2) == 0
      let symbol = ["*", "/", "+", "x"][random.below(8) < 6 ? random.below(2) : random.int(2...3)]
      let number = random.below(12) == 0 ? "0\(random.below(10))" : "\(random.below(1000))"
      return (spaced ? " \(symbol) " : symbol) + number
    }
    switch random.below(12) {
    case 0: return date()
    case 1: return "\(date()) to \(date())"
    case 2: return "\(date()) \(random.below(2) == 0 ? "+" : "-") \(offset())"
    case 3:
      let plus = ["+", " + ", " +", "+ ", "  +  ", "-"][
        random.below(8) < 6 ? random.below(2) : random.int(2...5)]
      return duration() + plus + duration()
    case 4: return "\(duration()) in \(unit())"
    case 5: return "\(reference()) to \(reference())"
    case 6: return "\(reference()) \(random.below(2) == 0 ? "+" : "-") \(offset())"
    case 7: return "\(reference()) in \(unit())"
    case 8: return "\(reference())*\(random.below(8) == 0 ? "0" : "")\(random.below(1000))"
    case 9: return duration() + operand()
    case 10: return "(\(duration())\(random.below(2) == 0 ? "+" : " + ")\(duration()))" + operand()
    default:
      // A shape with something after it.
      return [date(), "\(duration())+\(duration())"][random.below(2)]
        + ["", " ", "*2", " in d", "x"][random.below(5)]
    }
  }
}
