// calc-bench's Scientific row (SPEC §7, issue 37 item 1): 100,000 lines of sin, ln, x^y with a
// decimal exponent and √ at 34 digits, written by Benchmarks/gensci.py, through the `calc`
// binary against apcalc (`/usr/bin/calc -p < sci.apc`) and mpmath
// (`python3 Benchmarks/mpmath-lines.py sci.py`), each peer `absent` when it is not installed.
// The figure is the ratio of CPU times (user + system of the child, from wait4), medians of
// alternating runs; wall times are printed beside them. The slowest key is timed in process.
// SPEC §7 (v5): calc against the correctly rounded MPFR floor (Benchmarks/mpfr-cr-floor.c, built
// with `cc -O2 … -lmpfr -lgmp -lm`; `absent` without libmpfr-dev), wall medians of alternating
// runs to /dev/null and to a pipe, as the script rows are measured (Scripts.swift).

import CalcDecimal
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What the Scientific row measured; a peer's figures are `nil` when it is absent.
struct ScientificFigures {
  /// Median CPU and wall seconds of calc, apcalc and mpmath over the same lines.
  var calc: (cpu: Double, wall: Double)
  var apcalc: (cpu: Double, wall: Double)?
  var mpmath: (cpu: Double, wall: Double)?
  /// Runs of each program.
  var runs: Int
  /// The slowest single key of the in-process sweep, in microseconds, and which it was.
  var slowestMicros: Double
  var slowestKey: String

  /// calc against the MPFR floor, to /dev/null and to a pipe (`nil`: the floor is absent).
  var floorNull: ScriptFigure
  var floorPipe: ScriptFigure

  var apcalcRatio: Double? { apcalc.map { calc.cpu / $0.cpu } }
  var mpmathRatio: Double? { mpmath.map { calc.cpu / $0.cpu } }
}

/// The folder of the benchmark inputs: `Benchmarks` in the current directory, else the one this
/// source file is in (Benchmarks/Sources/calc-bench/Scientific.swift: three folders up).
func benchmarksDirectory() -> String {
  let here = FileManager.default.currentDirectoryPath + "/Benchmarks"
  if FileManager.default.fileExists(atPath: here + "/gensci.py") { return here }
  return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path
}

/// CPU seconds (user + system) and wall seconds of running `argv` with standard input from
/// `input` and standard output to /dev/null; `nil` if it could not be run or did not exit 0.
func cpuRun(_ argv: [String], input: String = "/dev/null") -> (cpu: Double, wall: Double)? {
  let inputFD = open(input, O_RDONLY | O_CLOEXEC)
  guard inputFD >= 0 else { return nil }
  defer { close(inputFD) }
  let outputFD = open("/dev/null", O_WRONLY | O_CLOEXEC)
  guard outputFD >= 0 else { return nil }
  defer { close(outputFD) }
  let start = clockSeconds()
  guard let pid = spawnChild(argv, input: inputFD, output: outputFD, closing: []) else {
    return nil
  }
  var status: Int32 = 0
  var usage = rusage()
  while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
  let wall = clockSeconds() - start
  guard status == 0 else { return nil }
  func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
  return (seconds(usage.ru_utime) + seconds(usage.ru_stime), wall)
}

/// The Scientific row: writes the inputs with `python3 Benchmarks/gensci.py` in `directory`,
/// then runs calc, apcalc and mpmath in turns, `runs` times each; `nil` when calc or python3
/// cannot run.
func measureScientific(calc: String, runs: Int, directory: String) -> ScientificFigures? {
  let benchmarks = benchmarksDirectory()
  guard let python = onPath("python3"), FileManager.default.isExecutableFile(atPath: calc)
  else { return nil }
  // gensci.py writes into the current directory.
  let previous = FileManager.default.currentDirectoryPath
  guard FileManager.default.changeCurrentDirectoryPath(directory) else { return nil }
  let written = cpuRun([python, benchmarks + "/gensci.py"]) != nil
  _ = FileManager.default.changeCurrentDirectoryPath(previous)
  guard written else { return nil }
  let sci = directory + "/sci"
  let apcalcPath = "/usr/bin/calc"
  let hasApcalc = FileManager.default.isExecutableFile(atPath: apcalcPath) && apcalcPath != calc
  let hasMpmath = cpuRun([python, "-c", "import mpmath"]) != nil
  var calcTimes: [(cpu: Double, wall: Double)] = []
  var apcalcTimes: [(cpu: Double, wall: Double)] = []
  var mpmathTimes: [(cpu: Double, wall: Double)] = []
  for _ in 0..<runs {
    if let time = cpuRun([calc, "--plain", "--mode", "scientific", sci + ".calc"]) {
      calcTimes.append(time)
    }
    if hasApcalc, let time = cpuRun([apcalcPath, "-p"], input: sci + ".apc") {
      apcalcTimes.append(time)
    }
    if hasMpmath, let time = cpuRun([python, benchmarks + "/mpmath-lines.py", sci + ".py"]) {
      mpmathTimes.append(time)
    }
  }
  guard !calcTimes.isEmpty else { return nil }
  func medians(_ times: [(cpu: Double, wall: Double)]) -> (cpu: Double, wall: Double)? {
    times.isEmpty ? nil : (median(times.map(\.cpu)), median(times.map(\.wall)))
  }
  // The MPFR floor: built here, then calc and it in turns, to /dev/null and to a pipe.
  let floor = directory + "/mpfr-cr-floor"
  var hasFloor = false
  if let cc = onPath("cc") {
    hasFloor =
      cpuRun([
        cc, "-O2", "-o", floor, benchmarks + "/mpfr-cr-floor.c", "-lmpfr", "-lgmp", "-lm",
      ]) != nil && FileManager.default.isExecutableFile(atPath: floor)
  }
  let calcArguments = [calc, "--plain", "--mode", "scientific", sci + ".calc"]
  func versusFloor(_ name: String, field: String, toPipe: Bool) -> ScriptFigure {
    var calcRuns: [(wall: Double, cpu: Double)] = []
    var floorRuns: [(wall: Double, cpu: Double)] = []
    for _ in 0..<max(runs, 11) {
      if let time = scriptRun(calcArguments, input: "/dev/null", toPipe: toPipe) {
        calcRuns.append(time)
      }
      if hasFloor, let time = scriptRun([floor], input: sci + ".py", toPipe: toPipe) {
        floorRuns.append(time)
      }
    }
    func medians(_ times: [(wall: Double, cpu: Double)]) -> (wall: Double, cpu: Double)? {
      times.count == max(runs, 11) ? (median(times.map(\.wall)), median(times.map(\.cpu))) : nil
    }
    func spread(_ times: [(wall: Double, cpu: Double)]) -> (fastest: Double, slowest: Double)? {
      times.count == max(runs, 11) ? (times.map(\.wall).min()!, times.map(\.wall).max()!) : nil
    }
    return ScriptFigure(
      name: name, field: field, target: 1.5, calc: medians(calcRuns),
      peer: hasFloor ? medians(floorRuns) : nil, calcSpread: spread(calcRuns),
      peerSpread: hasFloor ? spread(floorRuns) : nil)
  }
  let floorNull = versusFloor("Scientific vs MPFR, null", field: "sci_null_vs_mpfr", toPipe: false)
  let floorPipe = versusFloor("Scientific vs MPFR, pipe", field: "sci_vs_mpfr", toPipe: true)
  let slowest = slowestScientificKey(lines: sci + ".calc")
  return ScientificFigures(
    calc: medians(calcTimes)!, apcalc: medians(apcalcTimes), mpmath: medians(mpmathTimes),
    runs: runs, slowestMicros: slowest.micros, slowestKey: slowest.key, floorNull: floorNull,
    floorPipe: floorPipe)
}

/// A decimal as gensci.py writes it (`5.2472`).
func benchDecimal(_ text: Substring) -> Decimal34? {
  var coefficient: UInt128 = 0
  var exponent = 0
  var afterPoint = false
  for byte in text.utf8 {
    if byte == UInt8(ascii: ".") {
      afterPoint = true
      continue
    }
    guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
    coefficient = coefficient * 10 + UInt128(byte - UInt8(ascii: "0"))
    if afterPoint { exponent -= 1 }
  }
  return Decimal34(coefficient: coefficient, exponent: exponent)
}

/// The slowest key of the first 2,000 lines of `lines` and of `logy` on the x^y lines' operands,
/// each the fastest of three calls (so that a busy machine does not count), in process.
/// - Complexity: O(lines).
func slowestScientificKey(lines path: String) -> (micros: Double, key: String) {
  guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return (0, "none") }
  var slowest = (micros: 0.0, key: "none")
  func time(_ key: String, _ body: () -> Result<Decimal34, FunctionError>) {
    var best = Double.infinity
    for _ in 0..<3 {
      let start = now()
      let result = body()
      best = min(best, Double(now() - start) / 1000)
      if case .success(let value) = result { consume(value.hashValue) }
    }
    if best > slowest.micros { slowest = (best, key) }
  }
  for line in text.split(separator: "\n").prefix(2_000) {
    if line.hasSuffix("sin"), let x = benchDecimal(line.dropLast(3)) {
      time("\(line)") { Decimal34.trig(.sin, x, unit: .radians) }
    } else if line.hasSuffix("ln"), let x = benchDecimal(line.dropLast(2)) {
      time("\(line)") { Decimal34.ln(x) }
    } else if line.hasSuffix("@"), let x = benchDecimal(line.dropLast()) {
      time("\(line)") { Decimal34.squareRoot(x).map { .success($0) } ?? .failure(.invalidInput) }
    } else if line.hasSuffix("="), let caret = line.firstIndex(of: "^"),
      let x = benchDecimal(line[..<caret]),
      let y = benchDecimal(line[line.index(after: caret)...].dropLast())
    {
      time("\(line)") { Decimal34.power(x, y) }
      time("logy of \(line[..<caret]) and \(line[line.index(after: caret)...].dropLast())") {
        Decimal34.log(x, base: y)
      }
    }
  }
  return slowest
}

/// The row as people read it, with its targets.
func printScientific(_ figures: ScientificFigures?) {
  guard let figures else {
    print("Scientific lines (SPEC §7): not measured (needs python3 and the calc binary)")
    return
  }
  print(
    "Scientific: 100,000 lines of sin, ln, x^y, √ (Benchmarks/gensci.py), CPU medians of"
      + " \(figures.runs) alternating runs (wall in brackets)")
  func row(_ name: String, _ time: (cpu: Double, wall: Double)?) {
    guard let time else {
      print("  \(name) absent")
      return
    }
    print("  \(name) \(fixed(time.cpu, 2)) s (\(fixed(time.wall, 2)) s)")
  }
  row("calc  ", figures.calc)
  row("apcalc", figures.apcalc)
  row("mpmath", figures.mpmath)
  func ratio(_ value: Double?) -> String {
    value.map { "\(fixed($0, 2))× (target ≤ 1.0×: \($0 <= 1 ? "met" : "MISSED"))" } ?? "absent"
  }
  print("  calc/apcalc \(ratio(figures.apcalcRatio))")
  print("  calc/mpmath \(ratio(figures.mpmathRatio))")
  print(
    "  slowest key \(fixed(figures.slowestMicros, 0)) µs, \(figures.slowestKey)"
      + " (target ≤ 1000 µs: \(figures.slowestMicros <= 1000 ? "met" : "MISSED"))")
  for figure in [figures.floorNull, figures.floorPipe] {
    let ratio =
      figure.ratio.map {
        "\(fixed($0, 2))× (target ≤ 1.5×: \($0 <= 1.5 ? "met" : "MISSED"))"
      } ?? "absent"
    let calc = figure.calc.map { "\(fixed($0.wall, 3)) s" } ?? "failed"
    let floor = figure.peer.map { "\(fixed($0.wall, 3)) s" } ?? "absent"
    print("  \(figure.name): calc \(calc), floor \(floor) (wall medians): \(ratio)")
  }
}

/// The Scientific targets' lines of the closing list.
func printScientificTargets(_ figures: ScientificFigures?) {
  for figure in [figures?.floorNull, figures?.floorPipe] {
    let state = figure?.ratio.map { $0 <= 1.5 ? "met" : "MISSED" } ?? "absent"
    print("  \(figure?.field ?? "sci_vs_mpfr") ≤ 1.50×  \(state)")
  }
}

/// The row's part of the machine-readable summary line.
func scientificSummary(_ figures: ScientificFigures?) -> String {
  " sci_vs_apcalc=\(figures?.apcalcRatio.map { fixed($0, 2) } ?? "absent")"
    + " sci_vs_mpmath=\(figures?.mpmathRatio.map { fixed($0, 2) } ?? "absent")"
    + " sci_slowest_key_us=\(figures.map { fixed($0.slowestMicros, 0) } ?? "absent")"
    + " sci_null_vs_mpfr=\(figures?.floorNull.ratio.map { fixed($0, 2) } ?? "absent")"
    + " sci_vs_mpfr=\(figures?.floorPipe.ratio.map { fixed($0, 2) } ?? "absent")"
}
