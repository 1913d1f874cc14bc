// calc-bench's date rows (SPEC §7 v5 "Dates", §13; issue 51), `--dates`:
// - 100,000 date lines of mixed forms (differences, offsets, durations, conversions, plain dates
//   and `$N` uses of earlier lines), written here from a seed, run by
//   `calc --plain --mode date`, against 100,000 everyday lines (`123.45*6.7=`, `calc --plain`),
//   in one run, taking turns: the ratio of the CPU medians (user + system, from wait4), target
//   ≤ 3×.
// - the slowest single date line, in process (a LineInterpreter in date mode, each line the
//   fastest of three runs so that a busy machine does not count): a few thousand of the most
//   expensive forms (differences across the whole range, offsets of 999y 999m 999w 999d,
//   durations with brackets 24 deep, long-digit divisions, `$N` uses), target ≤ 1 ms.
// - a 4 MB date line (a sum of durations), run by `calc --plain --mode date FILE`: its wall time
//   and peak memory (/usr/bin/time -f %M), targets SPEC §7's 4 s and 256 MB; and a 4 MB line of
//   nested brackets, which must be rejected at the nesting limit (status 65, naming 24).

import CalcCLI
import CalcCore
import CalcTestSupport
import CalculatorEngine
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What the date rows measured.
struct DateFigures {
  /// Median CPU and wall seconds of the everyday lines and of the date lines.
  var everyday: (cpu: Double, wall: Double)
  var dates: (cpu: Double, wall: Double)
  /// Alternating runs of each, and the lines in each run.
  var runs: Int
  var lines: Int
  /// The slowest date line in process, in microseconds, which it was, and how many were timed.
  var slowestMicros: Double
  var slowestLine: String
  var timedLines: Int
  /// The 4 MB duration line: its bytes, wall seconds, peak bytes and exit status.
  var long: (bytes: Int, seconds: Double, peak: Int?, status: Int32)?
  /// The 4 MB nested line: its exit status and the first line of its standard error.
  var deep: (status: Int32, message: String)?

  var ratio: Double { dates.cpu / everyday.cpu }
  var ratioMet: Bool { ratio <= 3 }
  var slowestMet: Bool { slowestMicros <= 1_000 }
  var longMet: Bool {
    guard let long else { return false }
    return long.status == 0 && long.seconds <= 4 && (long.peak ?? .max) <= 256 << 20
  }
  var deepMet: Bool {
    guard let deep else { return false }
    return deep.status == 65 && deep.message.contains("24")
  }
}

/// A random ISO date with its year in `years` (days up to 28, or to the month's end where the
/// month allows, so that month ends are met).
func benchDate(_ random: inout SplitMix64, years: ClosedRange<Int> = 1601...9999) -> String {
  let year = years.lowerBound + random.below(years.count)
  let month = 1 + random.below(12)
  let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
  let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
  let day = 1 + random.below(lengths[month - 1])
  func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
  return "\(year)-\(two(month))-\(two(day))"
}

/// An offset of up to four units (`1y 2m 3w 4d`, each 0–999, at least one).
func benchOffset(_ random: inout SplitMix64) -> String {
  var parts: [String] = []
  for unit in ["y", "m", "w", "d"] where random.below(2) == 0 {
    parts.append("\(random.below(1_000))\(unit)")
  }
  return parts.isEmpty ? "\(random.below(1_000))d" : parts.joined(separator: " ")
}

/// A random duration `H:MM[:SS[.f]]` (1 to 3 digits after the point).
func benchDuration(_ random: inout SplitMix64) -> String {
  func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
  var text = "\(random.below(100)):\(two(random.below(60)))"
  if random.below(2) == 0 {
    text += ":\(two(random.below(60)))"
    if random.below(2) == 0 { text += ".\(random.below(1_000))" }
  }
  return text
}

/// `count` date lines of mixed forms from `seed`, none out of range and none mixing kinds:
/// differences, offsets (dates from 2800 to 8800, so that 999y 999m 999w 999d stays inside),
/// durations, conversions, plain dates, and `$N` uses of earlier lines of the right kind.
/// - Complexity: O(count).
func dateLines(count: Int, seed: UInt64) -> [String] {
  var random = SplitMix64(state: seed)
  var lines: [String] = []
  lines.reserveCapacity(count)
  var dateRows: [Int] = []  // lines (1-based) whose value is a date
  var durationRows: [Int] = []
  let units = ["h", "min", "s", "d", "w"]
  for number in 1...count {
    let pick = random.below(20)
    switch pick {
    case 0..<4:
      lines.append("\(benchDate(&random)) to \(benchDate(&random))")
    case 4..<8:
      let sign = random.below(2) == 0 ? "+" : "-"
      lines.append(
        "\(benchDate(&random, years: 2800...8800)) \(sign) \(benchOffset(&random))")
      dateRows.append(number)
    case 8..<10:
      lines.append(benchDate(&random, years: 1601...9990))
      dateRows.append(number)
    case 10..<12:
      lines.append("\(benchDuration(&random))+\(benchDuration(&random))")
      durationRows.append(number)
    case 12:
      lines.append("(\(benchDuration(&random))+\(benchDuration(&random)))*\(1 + random.below(9))")
      durationRows.append(number)
    case 13:
      lines.append("\(benchDuration(&random))/\(1 + random.below(99))")
      durationRows.append(number)
    case 14..<16:
      lines.append("\(benchDuration(&random)) in \(units[random.below(units.count)])")
    case 16 where dateRows.count >= 2:
      let first = dateRows[random.below(dateRows.count)]
      let second = dateRows[random.below(dateRows.count)]
      lines.append("$\(first) to $\(second)")
    case 17 where !dateRows.isEmpty:
      // 999 days keep any date of these lines (up to 9990 at most 1,105 years on) in range.
      lines.append("$\(dateRows[random.below(dateRows.count)]) + \(random.below(1_000))d")
    case 18 where !durationRows.isEmpty:
      lines.append(
        "$\(durationRows[random.below(durationRows.count)]) in \(units[random.below(units.count)])"
      )
    case 19 where !durationRows.isEmpty:
      lines.append("$\(durationRows[random.below(durationRows.count)])*2")
    default:
      lines.append("\(benchDate(&random)) to \(benchDate(&random))")
    }
  }
  return lines
}

/// The most expensive date lines this benchmark knows, a few thousand of them: differences across
/// the whole range, offsets of 999y 999m 999w 999d both ways (from month ends), durations nested
/// 24 deep, divisions that need all 34 digits, large conversions; the first line is a date and
/// the second a duration, which the `$N` lines use (each line is run three times: `$1` is the
/// date, `$4` the duration).
func expensiveDateLines(seed: UInt64) -> [String] {
  var random = SplitMix64(state: seed)
  var lines = ["8999-12-31", "9999:59:59.999/7"]
  let nested =
    String(repeating: "(", count: 24) + "1:00:00.001"
    + String(repeating: "+0:00:01)*3", count: 24)
  for _ in 0..<500 {
    let early = "1601-01-\(10 + random.below(19))"
    let late = "9999-12-\(10 + random.below(19))"
    lines.append("\(early) to \(late)")
    lines.append("\(late) to \(early)")
    lines.append("\(benchDate(&random, years: 2800...2900)) - 999y 999m 999w 999d")
    lines.append("\(benchDate(&random, years: 7000...7100)) + 999y 999m 999w 999d")
    lines.append(nested)
    lines.append("9999:59:59.999/\(7 + random.below(90))*\(3 + random.below(90))")
    lines.append("(9999:59:59.999*999+0:00:00.001)/0:00:07 ")
    lines.append("9999:59:59.999/7 in w")
    lines.append("$1 to 1601-01-01")
    lines.append("$1 - 999y 999m 999w 999d")
    lines.append("$4*3/7 in s")
  }
  return lines
}

/// The slowest line of `lines` in a LineInterpreter in date mode, each the fastest of three
/// runs, in microseconds; `nil` when a line is rejected (a fault of this benchmark).
/// - Complexity: O(lines).
func slowestDateLine(_ lines: [String]) -> (micros: Double, line: String)? {
  var interpreter = LineInterpreter(
    context: LineInterpreter.Context(format: DisplayFormat(localeIdentifier: "en_US")))
  guard (try? interpreter.run("date", output: OutputBuffer())) != nil else { return nil }
  var slowest = (micros: 0.0, line: "none")
  for line in lines {
    var best = Double.infinity
    for _ in 0..<3 {
      let output = OutputBuffer()
      let start = now()
      let result = try? interpreter.run(line, output: output)
      let stop = now()
      guard let result, !result.showedAnError else { return nil }
      consume(output.bytes.count)
      best = min(best, Double(stop - start) / 1e3)
    }
    if best > slowest.micros { slowest = (best, line) }
  }
  return slowest
}

/// A date line of about `bytes` bytes: a sum of durations, ending in `0:01`.
func longDateLine(bytes: Int) -> String {
  let unit = "1:30+0:45:30-(0:15*2)+"
  return String(repeating: unit, count: bytes / unit.utf8.count) + "0:01"
}

/// The date rows: writes the inputs in `directory`, runs the two `runs` times each in turns,
/// times the expensive lines in process, then runs the long lines; `nil` when calc cannot run,
/// a run fails or an expensive line is rejected.
func measureDates(calc: String, runs: Int, lines count: Int, seed: UInt64, directory: String)
  -> DateFigures?
{
  guard FileManager.default.isExecutableFile(atPath: calc) else { return nil }
  let everydayPath = directory + "/everyday.calc"
  let datesPath = directory + "/dates.calc"
  let everyday = String(repeating: "123.45*6.7=\n", count: count)
  let dates = dateLines(count: count, seed: seed).joined(separator: "\n") + "\n"
  guard FileManager.default.createFile(atPath: everydayPath, contents: Data(everyday.utf8)),
    FileManager.default.createFile(atPath: datesPath, contents: Data(dates.utf8))
  else { return nil }
  let everydayArguments = [calc, "--plain", everydayPath]
  let dateArguments = [calc, "--plain", "--mode", "date", datesPath]
  var everydayTimes: [(wall: Double, cpu: Double)] = []
  var dateTimes: [(wall: Double, cpu: Double)] = []
  for _ in 0..<runs {
    if let time = scriptRun(everydayArguments, input: "/dev/null", toPipe: false) {
      everydayTimes.append(time)
    }
    if let time = scriptRun(dateArguments, input: "/dev/null", toPipe: false) {
      dateTimes.append(time)
    }
  }
  // A failed run (a date line rejected: status 1) leaves the figure out.
  guard everydayTimes.count == runs, dateTimes.count == runs else {
    FileHandle.standardError.write(Data("calc-bench: a script run failed\n".utf8))
    return nil
  }
  let expensive = expensiveDateLines(seed: seed ^ 0xDA7E)
  guard let slowest = slowestDateLine(expensive) else {
    FileHandle.standardError.write(Data("calc-bench: an expensive date line was rejected\n".utf8))
    return nil
  }
  let longPath = directory + "/long.calc"
  let deepPath = directory + "/deep.calc"
  let longText = longDateLine(bytes: 4 << 20)
  var long: (bytes: Int, seconds: Double, peak: Int?, status: Int32)?
  if FileManager.default.createFile(atPath: longPath, contents: Data((longText + "\n").utf8)),
    let run = formulaRun([calc, "--plain", "--mode", "date", longPath])
  {
    var peak: Int?
    let report = directory + "/peak.txt"
    if FileManager.default.isExecutableFile(atPath: "/usr/bin/time"),
      formulaRun([
        "/usr/bin/time", "-o", report, "-f", "%M", calc, "--plain", "--mode", "date", longPath,
      ]) != nil,
      let text = try? String(contentsOfFile: report, encoding: .utf8),
      let kilobytes = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
    {
      peak = kilobytes * 1024
    }
    long = (longText.utf8.count, run.seconds, peak, run.status)
  }
  var deep: (status: Int32, message: String)?
  let deepText =
    String(repeating: "(", count: 2 << 20) + "1:00" + String(repeating: ")", count: 2 << 20)
  if FileManager.default.createFile(atPath: deepPath, contents: Data((deepText + "\n").utf8)),
    let run = formulaRun([calc, "--plain", "--mode", "date", deepPath])
  {
    deep = (run.status, run.message)
  }
  func medians(_ times: [(wall: Double, cpu: Double)]) -> (cpu: Double, wall: Double) {
    (median(times.map(\.cpu)), median(times.map(\.wall)))
  }
  return DateFigures(
    everyday: medians(everydayTimes), dates: medians(dateTimes), runs: runs, lines: count,
    slowestMicros: slowest.micros, slowestLine: slowest.line, timedLines: expensive.count,
    long: long, deep: deep)
}

/// The rows as people read them, with their targets.
func printDates(_ figures: DateFigures?) {
  guard let figures else {
    print("Dates (SPEC §7, §13): not measured (needs the calc binary, and every run to succeed)")
    return
  }
  print(
    "Dates: \(grouped(figures.lines)) date lines (differences, offsets, durations, conversions,"
      + " $N) against as many everyday lines (123.45*6.7=), CPU medians of \(figures.runs)"
      + " alternating runs (wall in brackets)")
  print("  everyday \(fixed(figures.everyday.cpu, 2)) s (\(fixed(figures.everyday.wall, 2)) s)")
  print("  dates    \(fixed(figures.dates.cpu, 2)) s (\(fixed(figures.dates.wall, 2)) s)")
  print(
    "  dates/everyday \(fixed(figures.ratio, 2))× (target ≤ 3×: "
      + "\(figures.ratioMet ? "met" : "not met"))")
  print(
    "  slowest of \(grouped(figures.timedLines)) expensive date lines in process: "
      + "\(fixed(figures.slowestMicros, 1)) µs, '\(figures.slowestLine.prefix(60))'"
      + " (target ≤ 1 ms: \(figures.slowestMet ? "met" : "not met"))")
  if let long = figures.long {
    let peak = long.peak.map { "\(fixed(Double($0) / 1_048_576, 1)) MB" } ?? "peak unknown"
    print(
      "  a \(grouped(long.bytes))-byte duration line: \(fixed(long.seconds, 2)) s, \(peak), "
        + "status \(long.status) (target ≤ 4 s and ≤ 256 MB: \(figures.longMet ? "met" : "not met"))"
    )
  } else {
    print("  the 4 MB date line: not run")
  }
  if let deep = figures.deep {
    print(
      "  a 4 MB line of nested brackets: status \(deep.status), '\(deep.message)' (rejected at the"
        + " nesting limit: \(figures.deepMet ? "met" : "not met"))")
  } else {
    print("  the 4 MB nested line: not run")
  }
}

/// The rows' part of the machine-readable summary line.
func datesSummary(_ figures: DateFigures?) -> String {
  " dates_vs_everyday=\(figures.map { fixed($0.ratio, 2) } ?? "absent")"
    + " date_slowest_line_us=\(figures.map { fixed($0.slowestMicros, 1) } ?? "absent")"
    + " date_long_line_s=\(figures?.long.map { fixed($0.seconds, 2) } ?? "absent")"
    + " date_long_line_mb=\(figures?.long?.peak.map { fixed(Double($0) / 1_048_576, 1) } ?? "absent")"
    + " date_deep_line_rejected=\(figures.map { $0.deepMet ? "yes" : "no" } ?? "absent")"
}
