// calc-bench's script rows (SPEC §7): the everyday set (`123.45*6.7=`) and the mixed set (sums,
// 34-digit divisions by primes, products, percent), both written by Benchmarks/gen.py, through
// the `calc` binary against `bc -q`, each to a pipe (read by calc-bench) and to /dev/null; the
// everyday set against the v4 C floor (Benchmarks/floor.c, `./floor < std.expr`, to /dev/null);
// and (SPEC §7 v5) both sets against the decimal128 floor (Benchmarks/dec128-floor.c, GCC's
// `_Decimal128` with block I/O, `./dec128-floor < std.expr`), both ways. Each figure is the ratio
// of the median wall times of runs that alternate the programs run by run (A B A B …); CPU times
// (user + system of the child, from wait4) and the spread of each program's runs (fastest and
// slowest) are printed beside them. bc, cc or python3 missing gives `absent`.

import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// One comparison of the script rows: calc's and the peer's median times, and the target ratio.
struct ScriptFigure {
  /// What is compared, as people read it (`everyday, to a pipe`).
  var name: String
  /// The field of the summary line (`script_vs_bc`).
  var field: String
  /// The largest ratio SPEC §7 allows.
  var target: Double
  /// Median wall and CPU seconds of calc and of the peer; `nil` when the peer is absent or a run
  /// failed.
  var calc: (wall: Double, cpu: Double)?
  var peer: (wall: Double, cpu: Double)?
  /// The fastest and slowest wall seconds of calc's runs and of the peer's.
  var calcSpread: (fastest: Double, slowest: Double)?
  var peerSpread: (fastest: Double, slowest: Double)?
  /// calc's wall seconds, run by run, in the order they ran.
  var calcWalls: [Double] = []

  /// calc's median wall time over the peer's; `nil` when either is missing.
  var ratio: Double? {
    guard let calc, let peer, peer.wall > 0 else { return nil }
    return calc.wall / peer.wall
  }
}

/// What the script rows measured.
struct ScriptFigures {
  /// Lines in each set and runs of each program.
  var lines: Int
  var runs: Int
  var figures: [ScriptFigure]

  /// calc's slowest run over its fastest, the worst of the everyday and mixed sets to /dev/null
  /// (SPEC §7 v5: ≤ 1.5× on a quiet machine); `nil` when a run failed.
  var calcSpread: Double? {
    worst(spreadFigures.map { $0.calcSpread.map { $0.slowest / $0.fastest } })
  }

  /// The decimal128 floor's slowest run over its fastest in the same turns, the worse of the two
  /// sets: how much the machine itself varied while calc's spread was measured (a C program's
  /// runs vary too, in this machine's slow spells); `nil` when a run failed.
  var floorSpread: Double? {
    worst(spreadFigures.map { $0.peerSpread.map { $0.slowest / $0.fastest } })
  }

  /// How many of calc's runs in those figures took more than 1.5× the fastest of their set, and
  /// how many runs there were.
  var calcSlowRuns: (slow: Int, runs: Int) {
    spreadFigures.reduce((slow: 0, runs: 0)) { sum, figure in
      guard let fastest = figure.calcWalls.min() else { return sum }
      let slow = figure.calcWalls.filter { $0 > 1.5 * fastest }.count
      return (sum.slow + slow, sum.runs + figure.calcWalls.count)
    }
  }

  /// The figures the spread is taken over: the everyday and mixed sets to /dev/null.
  private var spreadFigures: [ScriptFigure] {
    figures.filter { ["std_null_vs_dec128", "mix_null_vs_dec128"].contains($0.field) }
  }

  /// The largest of `spreads`; `nil` when there are none or one is missing.
  private func worst(_ spreads: [Double?]) -> Double? {
    guard !spreads.isEmpty, spreads.allSatisfy({ $0 != nil }) else { return nil }
    return spreads.compactMap { $0 }.max()
  }
}

/// Wall and CPU seconds (user + system of the child) of running `argv` with standard input from
/// `input` and standard output to a pipe that is read until it ends (`toPipe`) or to /dev/null;
/// `nil` if it could not be run or did not exit 0.
func scriptRun(_ argv: [String], input: String, toPipe: Bool) -> (wall: Double, cpu: Double)? {
  let inputFD = open(input, O_RDONLY | O_CLOEXEC)
  guard inputFD >= 0 else { return nil }
  defer { close(inputFD) }
  var ends: [Int32] = [-1, -1]
  if toPipe {
    guard pipe(&ends) == 0 else { return nil }
  } else {
    ends[1] = open("/dev/null", O_WRONLY | O_CLOEXEC)
    guard ends[1] >= 0 else { return nil }
  }
  let start = clockSeconds()
  let child = spawnChild(
    argv, input: inputFD, output: ends[1], closing: toPipe ? [ends[0]] : [])
  close(ends[1])
  defer { if toPipe { close(ends[0]) } }
  guard let pid = child else { return nil }
  if toPipe {
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = read(ends[0], &buffer, buffer.count)
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
    }
  }
  var status: Int32 = 0
  var usage = rusage()
  while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
  let wall = clockSeconds() - start
  guard status == 0 else { return nil }
  func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
  return (wall, seconds(usage.ru_utime) + seconds(usage.ru_stime))
}

/// Keeps the first `lines` lines of the file at `path` (and `header` more: bc's `scale=34`).
/// - Complexity: O(size of the file).
func keepFirstLines(_ path: String, _ lines: Int, header: Int = 0) -> Bool {
  guard let data = FileManager.default.contents(atPath: path) else { return false }
  var seen = 0
  var end = data.count
  for (offset, byte) in data.enumerated() where byte == UInt8(ascii: "\n") {
    seen += 1
    if seen == lines + header {
      end = offset + 1
      break
    }
  }
  return FileManager.default.createFile(atPath: path, contents: data.prefix(end))
}

/// The script rows: writes the inputs with `python3 Benchmarks/gen.py` in `directory` (cut to
/// their first `lines` lines), builds the floor there with `cc -O2`, then runs each comparison
/// `runs` times, calc and its peer taking turns; `nil` when calc or python3 cannot run.
/// - Complexity: O(runs × lines).
func measureScripts(calc: String, lines: Int, runs: Int, directory: String) -> ScriptFigures? {
  let benchmarks = benchmarksDirectory()
  guard let python = onPath("python3"), FileManager.default.isExecutableFile(atPath: calc)
  else { return nil }
  // gen.py writes into the current directory.
  let previous = FileManager.default.currentDirectoryPath
  guard FileManager.default.changeCurrentDirectoryPath(directory) else { return nil }
  let written = cpuRun([python, benchmarks + "/gen.py"]) != nil
  _ = FileManager.default.changeCurrentDirectoryPath(previous)
  guard written else { return nil }
  let std = directory + "/std"
  let mix = directory + "/mix"
  if lines < 1_000_000 {
    for (file, header) in [
      (std + ".calc", 0), (std + ".bc", 1), (std + ".expr", 0),
      (mix + ".calc", 0), (mix + ".bc", 1), (mix + ".expr", 0),
    ] {
      guard keepFirstLines(file, lines, header: header) else { return nil }
    }
  }
  /// Builds `source` in Benchmarks with `cc -O2` as `name` in `directory`; whether it worked.
  func build(_ source: String, _ name: String) -> Bool {
    guard let cc = onPath("cc") else { return false }
    let program = directory + "/" + name
    return cpuRun([cc, "-O2", "-o", program, benchmarks + "/" + source]) != nil
      && FileManager.default.isExecutableFile(atPath: program)
  }
  let floor = directory + "/floor"
  let hasFloor = build("floor.c", "floor")
  let dec128 = directory + "/dec128-floor"
  let hasDec128 = build("dec128-floor.c", "dec128-floor")
  let bc = onPath("bc")
  /// Runs calc and the peer in turns and keeps their medians.
  func compare(
    _ name: String, field: String, target: Double, calc calcArguments: [String],
    calcInput: String = "/dev/null", peer: [String]?, peerInput: String = "/dev/null",
    toPipe: Bool
  ) -> ScriptFigure {
    var calcTimes: [(wall: Double, cpu: Double)] = []
    var peerTimes: [(wall: Double, cpu: Double)] = []
    for _ in 0..<runs {
      if let time = scriptRun([calc] + calcArguments, input: calcInput, toPipe: toPipe) {
        calcTimes.append(time)
      }
      if let peer, let time = scriptRun(peer, input: peerInput, toPipe: toPipe) {
        peerTimes.append(time)
      }
    }
    func medians(_ times: [(wall: Double, cpu: Double)]) -> (wall: Double, cpu: Double)? {
      // A failed run leaves the figure out rather than flattering it.
      times.count == runs ? (median(times.map(\.wall)), median(times.map(\.cpu))) : nil
    }
    func spread(_ times: [(wall: Double, cpu: Double)]) -> (fastest: Double, slowest: Double)? {
      times.count == runs ? (times.map(\.wall).min()!, times.map(\.wall).max()!) : nil
    }
    return ScriptFigure(
      name: name, field: field, target: target, calc: medians(calcTimes),
      peer: peer == nil ? nil : medians(peerTimes), calcSpread: spread(calcTimes),
      peerSpread: peer == nil ? nil : spread(peerTimes), calcWalls: calcTimes.map(\.wall))
  }
  let bcStd = bc.map { [$0, "-q", std + ".bc"] }
  let bcMix = bc.map { [$0, "-q", mix + ".bc"] }
  let figures = [
    compare(
      "everyday, to a pipe     ", field: "script_vs_bc", target: 0.35,
      calc: [std + ".calc"], peer: bcStd, toPipe: true),
    compare(
      "everyday, to /dev/null  ", field: "script_null_vs_bc", target: 0.35,
      calc: [std + ".calc"], peer: bcStd, toPipe: false),
    compare(
      "mixed, to a pipe        ", field: "mix_vs_bc", target: 0.5,
      calc: ["--plain", mix + ".calc"], peer: bcMix, toPipe: true),
    compare(
      "mixed, to /dev/null     ", field: "mix_null_vs_bc", target: 0.5,
      calc: ["--plain", mix + ".calc"], peer: bcMix, toPipe: false),
    compare(
      "everyday vs the C floor ", field: "script_vs_floor", target: 2.5,
      calc: [std + ".calc"], peer: hasFloor ? [floor] : nil, peerInput: std + ".expr",
      toPipe: false),
    // SPEC §7 (v5): the decimal128 floor, both ways.
    compare(
      "everyday vs dec128, pipe", field: "std_vs_dec128", target: 2.0,
      calc: [std + ".calc"], peer: hasDec128 ? [dec128] : nil, peerInput: std + ".expr",
      toPipe: true),
    compare(
      "everyday vs dec128, null", field: "std_null_vs_dec128", target: 2.0,
      calc: [std + ".calc"], peer: hasDec128 ? [dec128] : nil, peerInput: std + ".expr",
      toPipe: false),
    compare(
      "mixed vs dec128, pipe   ", field: "mix_vs_dec128", target: 2.0,
      calc: ["--plain", mix + ".calc"], peer: hasDec128 ? [dec128] : nil,
      peerInput: mix + ".expr", toPipe: true),
    compare(
      "mixed vs dec128, null   ", field: "mix_null_vs_dec128", target: 2.0,
      calc: ["--plain", mix + ".calc"], peer: hasDec128 ? [dec128] : nil,
      peerInput: mix + ".expr", toPipe: false),
  ]
  return ScriptFigures(lines: lines, runs: runs, figures: figures)
}

/// The script rows measured in a temporary folder that is removed afterwards.
/// - Complexity: O(runs × lines).
func measureScripts(calc: String, lines: Int, runs: Int) -> ScriptFigures? {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("calc-bench-scripts-\(getpid())")
  try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  return measureScripts(calc: calc, lines: lines, runs: runs, directory: directory.path)
}

/// The rows as people read them, each with its target.
func printScripts(_ scripts: ScriptFigures?) {
  guard let scripts else {
    print("scripts (SPEC §7): not measured (needs python3 and the calc binary)")
    return
  }
  print(
    "scripts: \(grouped(scripts.lines)) lines each (Benchmarks/gen.py), wall medians of"
      + " \(scripts.runs) alternating runs (CPU in brackets, then the fastest–slowest run);"
      + " peers bc -q, ./floor < std.expr, ./dec128-floor < std.expr or mix.expr")
  for figure in scripts.figures {
    func time(
      _ time: (wall: Double, cpu: Double)?, _ spread: (fastest: Double, slowest: Double)?
    ) -> String {
      guard let time, let spread else { return "absent" }
      return
        "\(fixed(time.wall, 3)) s (\(fixed(time.cpu, 3)); \(fixed(spread.fastest, 3))–\(fixed(spread.slowest, 3)))"
    }
    let ratio =
      figure.ratio.map {
        "\(fixed($0, 2))× (target ≤ \(fixed(figure.target, 2))×: \($0 <= figure.target ? "met" : "MISSED"))"
      } ?? "absent"
    print(
      "  \(figure.name) calc \(time(figure.calc, figure.calcSpread)),"
        + " peer \(time(figure.peer, figure.peerSpread)): \(ratio)")
  }
  if let spread = scripts.calcSpread {
    print(
      "  calc's slowest run over its fastest, everyday and mixed to /dev/null:"
        + " \(fixed(spread, 2))× (target ≤ 1.5×: \(spread <= 1.5 ? "met" : "MISSED"))")
    let slow = scripts.calcSlowRuns
    print(
      "    runs over 1.5× their set's fastest: \(slow.slow) of \(slow.runs); the decimal128"
        + " floor's slowest over its fastest in the same turns:"
        + " \(scripts.floorSpread.map { "\(fixed($0, 2))×" } ?? "absent")")
  }
}

/// The targets' lines of the closing list.
func printScriptTargets(_ scripts: ScriptFigures?) {
  for figure in scripts?.figures ?? [] {
    let state = figure.ratio.map { $0 <= figure.target ? "met" : "MISSED" } ?? "absent"
    print("  \(figure.field) ≤ \(fixed(figure.target, 2))×  \(state)")
  }
  let spread = scripts?.calcSpread
  print("  script_spread ≤ 1.50×  \(spread.map { $0 <= 1.5 ? "met" : "MISSED" } ?? "absent")")
}

/// The rows' part of the machine-readable summary line.
func scriptsSummary(_ scripts: ScriptFigures?) -> String {
  let fields = [
    "script_vs_bc", "script_null_vs_bc", "mix_vs_bc", "mix_null_vs_bc", "script_vs_floor",
    "std_vs_dec128", "std_null_vs_dec128", "mix_vs_dec128", "mix_null_vs_dec128",
  ]
  return fields.map { field in
    let ratio = scripts?.figures.first { $0.field == field }?.ratio
    return " \(field)=\(ratio.map { fixed($0, 2) } ?? "absent")"
  }.joined() + " script_spread=\(scripts?.calcSpread.map { fixed($0, 2) } ?? "absent")"
    + " floor_spread=\(scripts?.floorSpread.map { fixed($0, 2) } ?? "absent")"
}
