// calc-bench --baseline PATH: a second calc binary (the build before a change) measured in the
// same run as the first (`--calc`, the build after it), for the script rows (everyday and mixed,
// to a pipe and to /dev/null) and the Scientific lines (to /dev/null and to a pipe). Each round
// runs calc, the baseline and each row's peers in turn (A B P… A B P…), so that both builds see
// the same machine; the rows print each program's median wall time (CPU in brackets) and its
// fastest–slowest run, calc over the baseline, and each build's SPEC §7 figure against each peer
// with its target (by wall time, as SPEC §7 sets them; the CPU ratio beside it) — whether every
// figure is met before and after, in one run (issue 48). `--script-lines N` cuts the script
// sets; `--script-runs R` sets the rounds (11 by default here).

import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// One program of a baseline row: its name and how it is run.
struct BaselineProgram {
  var name: String
  var argv: [String]
  var input: String
}

/// One row measured with the baseline: the times of calc, of the baseline and of each peer.
struct BaselineRow {
  /// What is measured (`everyday, to a pipe`).
  var name: String
  /// Each peer's SPEC §7 target (calc's and the baseline's median over the peer's), by name.
  var targets: [(peer: String, field: String, target: Double)]
  /// Each program's runs, wall and CPU seconds, in the order calc, baseline, then the peers;
  /// `nil` for a program that failed a run (a figure is left out rather than flattered).
  var times: [(name: String, runs: [(wall: Double, cpu: Double)]?)]

  /// The median wall and CPU seconds of the program `name`.
  func medians(_ name: String) -> (wall: Double, cpu: Double)? {
    guard let runs = times.first(where: { $0.name == name })?.runs, !runs.isEmpty else {
      return nil
    }
    return (median(runs.map(\.wall)), median(runs.map(\.cpu)))
  }
}

/// Runs `programs` in turns, `runs` rounds, to a pipe or to /dev/null (``scriptRun``).
/// - Complexity: O(runs × the programs' times).
func interleaved(_ programs: [BaselineProgram], runs: Int, toPipe: Bool) -> [(
  name: String, runs: [(wall: Double, cpu: Double)]?
)] {
  var times = programs.map { _ in [(wall: Double, cpu: Double)]() }
  var failed = programs.map { _ in false }
  for _ in 0..<runs {
    for (index, program) in programs.enumerated() where !failed[index] {
      if let time = scriptRun(program.argv, input: program.input, toPipe: toPipe) {
        times[index].append(time)
      } else {
        failed[index] = true
      }
    }
  }
  return programs.indices.map { (programs[$0].name, failed[$0] ? nil : times[$0]) }
}

/// The rows with the baseline: writes the inputs (gen.py, cut to `lines` lines, and gensci.py)
/// in a temporary folder, builds the floors there, and measures each row `runs` rounds; `nil`
/// when python3 or either binary cannot run.
/// - Complexity: O(runs × lines).
func measureBaseline(calc: String, baseline: String, lines: Int, runs: Int) -> [BaselineRow]? {
  let files = FileManager.default
  guard let python = onPath("python3"), files.isExecutableFile(atPath: calc),
    files.isExecutableFile(atPath: baseline)
  else { return nil }
  let directory = files.temporaryDirectory.appendingPathComponent("calc-bench-baseline-\(getpid())")
    .path
  try? files.createDirectory(atPath: directory, withIntermediateDirectories: true)
  defer { try? files.removeItem(atPath: directory) }
  let benchmarks = benchmarksDirectory()
  // gen.py and gensci.py write into the current directory.
  let previous = files.currentDirectoryPath
  guard files.changeCurrentDirectoryPath(directory) else { return nil }
  let written =
    cpuRun([python, benchmarks + "/gen.py"]) != nil
    && cpuRun([python, benchmarks + "/gensci.py"]) != nil
  _ = files.changeCurrentDirectoryPath(previous)
  guard written else { return nil }
  let (std, mix, sci) = (directory + "/std", directory + "/mix", directory + "/sci")
  if lines < 1_000_000 {
    for (file, header) in [
      (std + ".calc", 0), (std + ".bc", 1), (std + ".expr", 0), (mix + ".calc", 0),
      (mix + ".bc", 1), (mix + ".expr", 0),
    ] {
      guard keepFirstLines(file, lines, header: header) else { return nil }
    }
  }
  /// Builds `source` with `cc -O2` (and `libraries`) as `name`; its path, or `nil`.
  func build(_ source: String, _ name: String, _ libraries: [String] = []) -> String? {
    guard let cc = onPath("cc") else { return nil }
    let program = directory + "/" + name
    guard cpuRun([cc, "-O2", "-o", program, benchmarks + "/" + source] + libraries) != nil,
      files.isExecutableFile(atPath: program)
    else { return nil }
    return program
  }
  let dec128 = build("dec128-floor.c", "dec128-floor")
  let mpfr = build("mpfr-cr-floor.c", "mpfr-cr-floor", ["-lmpfr", "-lgmp", "-lm"])
  let bc = onPath("bc")
  /// One row: calc and the baseline with `arguments`, and the peers that are present.
  func row(
    _ name: String, arguments: [String], peers: [(BaselineProgram?, field: String, target: Double)],
    toPipe: Bool
  ) -> BaselineRow {
    let present = peers.compactMap { $0.0 }
    let programs =
      [
        BaselineProgram(name: "calc", argv: [calc] + arguments, input: "/dev/null"),
        BaselineProgram(name: "baseline", argv: [baseline] + arguments, input: "/dev/null"),
      ] + present
    return BaselineRow(
      name: name,
      targets: peers.map { ($0.0?.name ?? "absent", $0.field, $0.target) },
      times: interleaved(programs, runs: runs, toPipe: toPipe))
  }
  let bcStd = bc.map {
    BaselineProgram(name: "bc", argv: [$0, "-q", std + ".bc"], input: "/dev/null")
  }
  let bcMix = bc.map {
    BaselineProgram(name: "bc", argv: [$0, "-q", mix + ".bc"], input: "/dev/null")
  }
  let dec128Std = dec128.map { BaselineProgram(name: "dec128", argv: [$0], input: std + ".expr") }
  let dec128Mix = dec128.map { BaselineProgram(name: "dec128", argv: [$0], input: mix + ".expr") }
  let mpfrSci = mpfr.map { BaselineProgram(name: "mpfr", argv: [$0], input: sci + ".py") }
  let sciArguments = ["--plain", "--mode", "scientific", sci + ".calc"]
  return [
    row(
      "everyday, to a pipe", arguments: [std + ".calc"],
      peers: [(bcStd, "script_vs_bc", 0.35), (dec128Std, "std_vs_dec128", 2.0)], toPipe: true),
    row(
      "everyday, to /dev/null", arguments: [std + ".calc"],
      peers: [(bcStd, "script_null_vs_bc", 0.35), (dec128Std, "std_null_vs_dec128", 2.0)],
      toPipe: false),
    row(
      "mixed, to a pipe", arguments: ["--plain", mix + ".calc"],
      peers: [(bcMix, "mix_vs_bc", 0.5), (dec128Mix, "mix_vs_dec128", 2.0)], toPipe: true),
    row(
      "mixed, to /dev/null", arguments: ["--plain", mix + ".calc"],
      peers: [(bcMix, "mix_null_vs_bc", 0.5), (dec128Mix, "mix_null_vs_dec128", 2.0)],
      toPipe: false),
    row(
      "Scientific, to /dev/null", arguments: sciArguments,
      peers: [(mpfrSci, "sci_null_vs_mpfr", 1.5)], toPipe: false),
    row(
      "Scientific, to a pipe", arguments: sciArguments,
      peers: [(mpfrSci, "sci_vs_mpfr", 1.5)], toPipe: true),
  ]
}

/// The rows as people read them: each program's median and spread, calc over the baseline, and
/// each build's figure against each peer with its target.
func printBaseline(_ rows: [BaselineRow]?, calc: String, baseline: String, lines: Int, runs: Int) {
  guard let rows else {
    print("baseline: not measured (needs python3 and both calc binaries)")
    return
  }
  print(
    "baseline: calc \(calc) against the baseline \(baseline), \(grouped(lines)) script lines,"
      + " 100,000 Scientific lines; wall medians of \(runs) rounds taken in turns"
      + " (CPU in brackets, then the fastest–slowest run)")
  for row in rows {
    print("  \(row.name)")
    for (name, runs) in row.times {
      guard let runs, let medians = row.medians(name) else {
        print("    \(name): a run failed")
        continue
      }
      let walls = runs.map(\.wall)
      print(
        "    \(name) \(fixed(medians.wall, 3)) s (\(fixed(medians.cpu, 3)));"
          + " \(fixed(walls.min()!, 3))–\(fixed(walls.max()!, 3))"
          + " (slowest/fastest \(fixed(walls.max()! / walls.min()!, 2))×)")
    }
    if let after = row.medians("calc"), let before = row.medians("baseline") {
      print(
        "    calc / baseline: wall \(fixed(after.wall / before.wall, 2))×,"
          + " CPU \(fixed(after.cpu / before.cpu, 2))×")
    }
    for (peer, field, target) in row.targets {
      guard let peerTime = row.medians(peer) else {
        print("    \(field) ≤ \(fixed(target, 2))×: absent")
        continue
      }
      let figures = ["calc", "baseline"].map { build in
        guard let time = row.medians(build) else { return "\(build) absent" }
        let ratio = time.wall / peerTime.wall
        return "\(build) \(fixed(ratio, 2))× \(ratio <= target ? "met" : "MISSED")"
          + " (CPU \(fixed(time.cpu / peerTime.cpu, 2))×)"
      }
      print("    \(field) ≤ \(fixed(target, 2))×: \(figures.joined(separator: ", "))")
    }
  }
}
