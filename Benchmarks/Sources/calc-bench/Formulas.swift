// calc-bench's formula rows (SPEC §12, issue 49 "Speed and limits"), `--formulas`:
// - 100,000 lines of Benchmarks/gensci.py's functions (sin in radians, ln, x^y, √) as formulas
//   (`sin(5.2472)`, `ln(3.1)`, `2.5^1.25`, `sqrt(7.04)`), run by `calc --plain --mode formula`,
//   against the same lines as key text (`sci.calc`, run by `calc --plain --mode scientific`), in
//   one run, taking turns: the ratio of the CPU medians (user + system, from wait4), target
//   ≤ 1.2× ("a formula costs its compile plus its keys"). Both print the same 100,001 lines,
//   which is checked.
// - a 4 MB formula line (bracketed, every function kind, nesting 2), run by `calc --plain FILE`
//   in formula mode: its wall time and peak memory (/usr/bin/time -f %M), targets SPEC §7's 4 s
//   and 256 MB; and a 4 MB line of nested brackets, which must be rejected at the nesting limit
//   (status 65, the message naming 24) without a crash.

import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What the formula rows measured.
struct FormulaFigures {
  /// Median CPU and wall seconds of the key-text lines and of the formula lines.
  var keys: (cpu: Double, wall: Double)
  var formulas: (cpu: Double, wall: Double)
  /// Alternating runs of each.
  var runs: Int
  /// Whether both printed the same lines (the last run of each).
  var sameOutput: Bool
  /// The 4 MB formula line: its bytes, wall seconds, peak bytes and exit status; `nil` when
  /// it could not be run.
  var long: (bytes: Int, seconds: Double, peak: Int?, status: Int32)?
  /// The 4 MB nested line: its exit status and the first line of its standard error.
  var deep: (status: Int32, message: String)?

  var ratio: Double { formulas.cpu / keys.cpu }
  var ratioMet: Bool { ratio <= 1.2 }
  var longMet: Bool {
    guard let long else { return false }
    return long.status == 0 && long.seconds <= 4 && (long.peak ?? .max) <= 256 << 20
  }
  var deepMet: Bool {
    guard let deep else { return false }
    return deep.status == 65 && deep.message.contains("24")
  }
}

/// A key-text line of gensci.py's `sci.calc` written as a formula (`5.2472sin` → `sin(5.2472)`,
/// `ln`, `x^y=` → `x^y`, `x@` → `sqrt(x)`); other lines (`rad`) as they are.
func formulaLine(_ line: Substring) -> String {
  if line.hasSuffix("sin") { return "sin(\(line.dropLast(3)))" }
  if line.hasSuffix("ln") { return "ln(\(line.dropLast(2)))" }
  if line.hasSuffix("@") { return "sqrt(\(line.dropLast()))" }
  if line.hasSuffix("=") { return String(line.dropLast()) }
  return String(line)
}

/// A formula line of about `bytes` bytes: a sum of bracketed terms of every kind gensci.py
/// uses, nested 2 deep, ending in `1`.
func longFormula(bytes: Int) -> String {
  let unit = "sin(0.5)+2^(1/2)*3-sqrt(4)/5+ln(2)*(1+2*(3-1))-"
  return String(repeating: unit, count: bytes / unit.utf8.count) + "1"
}

/// A line of about `bytes` bytes of brackets nested as deep as it goes: `((((…1…))))`.
func deepFormula(bytes: Int) -> String {
  String(repeating: "(", count: bytes / 2) + "1" + String(repeating: ")", count: bytes / 2)
}

/// The exit status, wall seconds and the first line of standard error of `argv`, its output
/// dropped; `nil` when it cannot be run.
func formulaRun(_ argv: [String]) -> (status: Int32, seconds: Double, message: String)? {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: argv[0])
  process.arguments = Array(argv.dropFirst())
  process.standardInput = FileHandle.nullDevice
  process.standardOutput = FileHandle.nullDevice
  let errors = Pipe()
  process.standardError = errors
  let start = clockSeconds()
  guard (try? process.run()) != nil else { return nil }
  let data = errors.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  let message = String(decoding: data, as: UTF8.self).split(separator: "\n").first ?? ""
  return (process.terminationStatus, clockSeconds() - start, String(message))
}

/// The standard output of `argv` run on `input`; `nil` when it cannot be run.
func formulaOutput(_ argv: [String]) -> Data? {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: argv[0])
  process.arguments = Array(argv.dropFirst())
  process.standardInput = FileHandle.nullDevice
  let output = Pipe()
  process.standardOutput = output
  process.standardError = FileHandle.nullDevice
  guard (try? process.run()) != nil else { return nil }
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return data
}

/// The formula rows: writes the inputs in `directory` (gensci.py's `sci.calc`, then its lines as
/// formulas), runs the two `runs` times each in turns, then the long lines; `nil` when calc or
/// python3 cannot run.
func measureFormulas(calc: String, runs: Int, directory: String) -> FormulaFigures? {
  let benchmarks = benchmarksDirectory()
  guard let python = onPath("python3"), FileManager.default.isExecutableFile(atPath: calc)
  else { return nil }
  let previous = FileManager.default.currentDirectoryPath
  guard FileManager.default.changeCurrentDirectoryPath(directory) else { return nil }
  let written = cpuRun([python, benchmarks + "/gensci.py"]) != nil
  _ = FileManager.default.changeCurrentDirectoryPath(previous)
  let keysPath = directory + "/sci.calc"
  let formulasPath = directory + "/fx.calc"
  guard written, let keyText = try? String(contentsOfFile: keysPath, encoding: .utf8) else {
    return nil
  }
  let formulas = keyText.split(separator: "\n").map(formulaLine).joined(separator: "\n") + "\n"
  guard FileManager.default.createFile(atPath: formulasPath, contents: Data(formulas.utf8))
  else { return nil }
  let keysArguments = [calc, "--plain", "--mode", "scientific", keysPath]
  let formulaArguments = [calc, "--plain", "--mode", "formula", formulasPath]
  var keyTimes: [(wall: Double, cpu: Double)] = []
  var formulaTimes: [(wall: Double, cpu: Double)] = []
  for _ in 0..<runs {
    if let time = scriptRun(keysArguments, input: "/dev/null", toPipe: false) {
      keyTimes.append(time)
    }
    if let time = scriptRun(formulaArguments, input: "/dev/null", toPipe: false) {
      formulaTimes.append(time)
    }
  }
  // A failed run leaves the figure out rather than flattering it.
  guard keyTimes.count == runs, formulaTimes.count == runs else { return nil }
  let keysOutput = formulaOutput(keysArguments)
  let sameOutput = keysOutput != nil && keysOutput == formulaOutput(formulaArguments)
  // The 4 MB lines, in formula mode from the file's first line.
  let longPath = directory + "/long.calc"
  let deepPath = directory + "/deep.calc"
  let longText = longFormula(bytes: 4 << 20)
  var long: (bytes: Int, seconds: Double, peak: Int?, status: Int32)?
  if FileManager.default.createFile(
    atPath: longPath, contents: Data(("fx\n" + longText + "\n").utf8)),
    let run = formulaRun([calc, "--plain", longPath])
  {
    var peak: Int?
    let report = directory + "/peak.txt"
    if FileManager.default.isExecutableFile(atPath: "/usr/bin/time"),
      formulaRun(["/usr/bin/time", "-o", report, "-f", "%M", calc, "--plain", longPath]) != nil,
      let text = try? String(contentsOfFile: report, encoding: .utf8),
      let kilobytes = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
    {
      peak = kilobytes * 1024
    }
    long = (longText.utf8.count, run.seconds, peak, run.status)
  }
  var deep: (status: Int32, message: String)?
  if FileManager.default.createFile(
    atPath: deepPath, contents: Data(("fx\n" + deepFormula(bytes: 4 << 20) + "\n").utf8)),
    let run = formulaRun([calc, "--plain", deepPath])
  {
    deep = (run.status, run.message)
  }
  func medians(_ times: [(wall: Double, cpu: Double)]) -> (cpu: Double, wall: Double) {
    (median(times.map(\.cpu)), median(times.map(\.wall)))
  }
  return FormulaFigures(
    keys: medians(keyTimes), formulas: medians(formulaTimes), runs: runs,
    sameOutput: sameOutput, long: long, deep: deep)
}

/// The rows as people read them, with their targets.
func printFormulas(_ figures: FormulaFigures?) {
  guard let figures else {
    print(
      "Formulas (SPEC §12): not measured (needs python3 and the calc binary, and every run to succeed)"
    )
    return
  }
  print(
    "Formulas: 100,000 lines of sin, ln, x^y, √ (Benchmarks/gensci.py) as formulas and as key"
      + " text, CPU medians of \(figures.runs) alternating runs (wall in brackets)")
  print("  key text \(fixed(figures.keys.cpu, 2)) s (\(fixed(figures.keys.wall, 2)) s)")
  print("  formulas \(fixed(figures.formulas.cpu, 2)) s (\(fixed(figures.formulas.wall, 2)) s)")
  print(
    "  formulas/key text \(fixed(figures.ratio, 2))× (target ≤ 1.2×: "
      + "\(figures.ratioMet ? "met" : "not met")); same output: \(figures.sameOutput ? "yes" : "NO")"
  )
  if let long = figures.long {
    let peak = long.peak.map { "\(fixed(Double($0) / 1_048_576, 1)) MB" } ?? "peak unknown"
    print(
      "  a \(grouped(long.bytes))-byte formula line: \(fixed(long.seconds, 2)) s, \(peak), "
        + "status \(long.status) (target ≤ 4 s and ≤ 256 MB: \(figures.longMet ? "met" : "not met"))"
    )
  } else {
    print("  the 4 MB formula line: not run")
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
func formulasSummary(_ figures: FormulaFigures?) -> String {
  " fx_vs_keys=\(figures.map { fixed($0.ratio, 2) } ?? "absent")"
    + " fx_long_line_s=\(figures?.long.map { fixed($0.seconds, 2) } ?? "absent")"
    + " fx_long_line_mb=\(figures?.long?.peak.map { fixed(Double($0) / 1_048_576, 1) } ?? "absent")"
    + " fx_deep_line_rejected=\(figures.map { $0.deepMet ? "yes" : "no" } ?? "absent")"
}
