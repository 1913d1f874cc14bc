// calc-bench: measures the session engine (Session and its History) against the book's replay
// model (SeedCalculatorModel) in one run, on one deterministic key stream, for SPEC §7: one
// branch of N keys, then the same number of keys spread over one branch per 1,000 keys (the
// densest tree SPEC §7 allows) with random forks.
//
// A package of its own (Benchmarks/Package.swift); from the repository's folder:
//
//   swift run -c release --package-path Benchmarks calc-bench [--keys N] [--seed S]
//   swift run -c release --package-path Benchmarks calc-bench [--keys N] [--seed S] \
//     --write-journal FILE
//   swift run -c release --package-path Benchmarks calc-bench --scientific   (Scientific.swift)
//   swift run -c release --package-path Benchmarks calc-bench --ledger       (Ledger.swift)
//   swift run -c release --package-path Benchmarks calc-bench --streams      (Streams.swift)
//   swift run -c release --package-path Benchmarks calc-bench --numbers      (Numbers.swift)
//   swift run -c release --package-path Benchmarks calc-bench --formulas     (Formulas.swift)
//   swift run -c release --package-path Benchmarks calc-bench --dates        (Dates.swift)
//
// (--scientific: only the Scientific row; --ledger: only the :vary and 5M :edit rows; --streams:
// only the four streams' rows; --goto: only the :goto rows, Standard's and the streams';
// --numbers: only Number against Decimal34; --formulas: only the
// formula rows, which a full run leaves out; --dates: only the date rows, also left out.)
//
// The last line printed is the machine-readable summary; everything above it is for people.
//
// `:history` of a 1,000,001-step session is measured on the real `calc` binary (found beside
// calc-bench or in the repository's `.build/release`, so build it first: `swift build -c release`
// in the repository's folder; or `--calc PATH`): its peak resident memory (`ru_maxrss` from
// wait4) running the session's script with `:history` at the end, and without it for comparison.
// With --write-journal, it only writes the stream as a REPL journal (the resume benchmark in
// Documentation/Performance.md times `calc --resume` against running that journal as a script).

import CalcCLI
import CalcDecimal
import CalcTestSupport
import CalculatorEngine
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

// MARK: - Options

/// `calc` beside this executable if there is one, else `.build/release/calc` of the repository
/// this source file is in (Benchmarks/Sources/calc-bench/main.swift: four folders up).
func defaultCalc() -> String {
  let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("calc").path
  if FileManager.default.isExecutableFile(atPath: beside) { return beside }
  var repository = URL(fileURLWithPath: #filePath)
  for _ in 0..<4 { repository.deleteLastPathComponent() }
  return repository.appendingPathComponent(".build/release/calc").path
}

/// The command line: `--keys N` (default 10,000,000) and `--seed S` for the key stream.
struct Options {
  var keyCount = 10_000_000
  var seed: UInt64 = 0x5EED_CA1C
  /// The `calc` binary for the `:history` memory measurement: one beside calc-bench, else the
  /// repository's release build (`swift build -c release` or `make` in the repository's folder;
  /// calc-bench is a package of its own, Benchmarks/Package.swift, that does not build calc).
  var calc = defaultCalc()
  var journalPath: String?
  /// `--long-lines`: only SPEC §7's long-line figures, then exit.
  var longLinesOnly = false
  /// `--scientific`: only the Scientific row against apcalc and mpmath, then exit.
  var scientificOnly = false
  /// `--scripts`: only the script rows against bc and the C floor (Scripts.swift), then exit.
  var scriptsOnly = false
  /// `--script-lines N`, `--script-runs R`: lines of each script set (1,000,000 by default) and
  /// alternating runs of each comparison (31).
  var scriptLines = 1_000_000
  var scriptRuns = 31
  /// `--ledger`: only the `:vary` and 5,000,000-key `:edit` rows (Ledger.swift), then exit.
  var ledgerOnly = false
  /// `--streams`: only the four streams' rows (Streams.swift), then exit.
  var streamsOnly = false
  /// `--goto`: only the `:goto` rows (Standard on one branch and on the densest tree, then the
  /// Scientific and Programmer streams' rows), then exit.
  var gotoOnly = false
  /// `--verbose`: where each stream's history memory goes.
  var verbose = false
  /// `--stream-runs N`: apply runs of each stream (best of N; 3 by default).
  var streamRuns = 3
  /// `--numbers`: only `Number` against `Decimal34` (Numbers.swift), then exit.
  var numbersOnly = false
  /// `--baseline PATH`: a second calc binary measured with the first, then exit (Baseline.swift).
  var baseline: String?
  /// `--formulas`: only the formula rows (Formulas.swift), then exit; `--formula-runs N`
  /// alternating runs of each (7).
  var formulasOnly = false
  var formulaRuns = 7
  /// `--dates`: only the date rows (Dates.swift), then exit; `--date-runs N` alternating runs of
  /// each (5), `--date-lines N` lines in each (100,000).
  var datesOnly = false
  var dateRuns = 5
  var dateLines = 100_000

  init(_ arguments: [String]) {
    var rest = arguments.dropFirst()
    while let argument = rest.popFirst() {
      switch argument {
      case "--keys":
        guard let text = rest.popFirst(), let value = Int(text.filter { $0 != "_" }), value > 0
        else { Options.fail("--keys needs a positive number") }
        keyCount = value
      case "--seed":
        guard let text = rest.popFirst(), let value = UInt64(text) else {
          Options.fail("--seed needs a number")
        }
        seed = value
      case "--calc":
        guard let path = rest.popFirst() else { Options.fail("--calc needs a path") }
        calc = path
      case "--baseline":
        guard let path = rest.popFirst() else { Options.fail("--baseline needs a path") }
        baseline = path
      case "--write-journal":
        guard let path = rest.popFirst() else { Options.fail("--write-journal needs a file") }
        journalPath = path
      case "--long-lines":
        longLinesOnly = true
      case "--scientific":
        scientificOnly = true
      case "--ledger":
        ledgerOnly = true
      case "--scripts":
        scriptsOnly = true
      case "--script-lines", "--script-runs":
        guard let text = rest.popFirst(), let value = Int(text.filter { $0 != "_" }), value > 0
        else { Options.fail("\(argument) needs a positive number") }
        if argument == "--script-lines" { scriptLines = value } else { scriptRuns = value }
      case "--streams":
        streamsOnly = true
      case "--goto":
        gotoOnly = true
      case "--verbose":
        verbose = true
      case "--numbers":
        numbersOnly = true
      case "--formulas":
        formulasOnly = true
      case "--formula-runs":
        guard let text = rest.popFirst(), let value = Int(text), value > 0 else {
          Options.fail("--formula-runs needs a positive number")
        }
        formulaRuns = value
      case "--dates":
        datesOnly = true
      case "--date-runs", "--date-lines":
        guard let text = rest.popFirst(), let value = Int(text.filter { $0 != "_" }), value > 0
        else { Options.fail("\(argument) needs a positive number") }
        if argument == "--date-runs" { dateRuns = value } else { dateLines = value }
      case "--stream-runs":
        guard let text = rest.popFirst(), let value = Int(text), value > 0 else {
          Options.fail("--stream-runs needs a positive number")
        }
        streamRuns = value
      case "-h", "--help":
        print(
          "usage: calc-bench [--keys N] [--seed S] [--calc PATH] [--write-journal FILE]"
            + " [--long-lines] [--scientific] [--scripts] [--script-lines N] [--script-runs R] [--ledger] [--streams] [--goto] [--stream-runs N] [--verbose] [--numbers] [--formulas] [--formula-runs N] [--dates] [--date-runs N] [--date-lines N] [--baseline PATH]"
        )
        exit(0)
      default:
        Options.fail("unknown argument '\(argument)'")
      }
    }
  }

  static func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("calc-bench: \(message)\n".utf8))
    exit(2)
  }
}

// MARK: - Deterministic key stream

/// A stream that looks like someone using a calculator: numbers of 1–8 digits (a quarter with a
/// point), binary operators, `=`, and now and then `%`, `+/-`, `⌫`, `CE`, `AC`, `√`, `x²`, `1/x`
/// and the memory keys, so that every transition of the calculator, including exact division,
/// square roots and error states, is exercised.
func keyStream(count: Int, seed: UInt64) -> [Key] {
  var random = SplitMix64(state: seed)
  var keys: [Key] = []
  keys.reserveCapacity(count + 16)
  let ops: [Key] = Key.Op.allCases.map { .op($0) }
  let unaries = Key.Unary.allCases
  let memories = Key.Memory.allCases
  while keys.count < count {
    if random.chance(2) { keys.append(.command(.clear)) }
    let digits = 1 + random.below(8)
    let point = random.chance(25) ? random.below(digits + 1) : -1
    for index in 0..<digits {
      if index == point { keys.append(.dot) }
      keys.append(.digit(Key.Digit(random.below(10))!))
    }
    if random.chance(4) { keys.append(.command(.backspace)) }
    if random.chance(3) { keys.append(.command(.clearEntry)) }
    if random.chance(5) { keys.append(.command(.flip)) }
    if random.chance(5) { keys.append(.command(.percent)) }
    if random.chance(6) { keys.append(.unary(unaries[random.below(unaries.count)])) }
    if random.chance(8) { keys.append(.memory(memories[random.below(memories.count)])) }
    keys.append(random.chance(20) ? .equal : ops[random.below(ops.count)])
  }
  keys.removeLast(keys.count - count)
  return keys
}

/// A stream that mixes the modes: Standard stretches as ``keyStream(count:seed:)`` makes them,
/// and Scientific ones (after `sci`, until `std`) of bracketed expressions up to
/// ``mixedBracketDepth`` deep, with the Scientific operators, functions, constants, `exp` and the
/// angle units.
func mixedStream(count: Int, seed: UInt64) -> [Key] {
  var random = SplitMix64(state: seed)
  var keys: [Key] = []
  keys.reserveCapacity(count + 64)
  let ops: [Key] =
    Key.Op.allCases.map { .op($0) }
    + Key.Binary.allCases.map {
      .scientific(.binary($0))
    }
  let functions = Key.Function.allCases
  while keys.count < count {
    // A Standard stretch, then a Scientific one.
    keys += keyStream(count: 20 + random.below(40), seed: random.next())
    keys.append(.mode(.scientific))
    var depth = 0
    for _ in 0..<(5 + random.below(20)) {
      if depth < mixedBracketDepth, random.chance(30) {
        keys.append(.scientific(.bracket(.open)))
        depth += 1
      }
      if random.chance(10) {
        keys.append(.scientific(.constant(random.chance(50) ? .pi : .euler)))
      } else {
        for _ in 0..<(1 + random.below(4)) {
          keys.append(.digit(Key.Digit(random.below(10))!))
        }
        if random.chance(5) {
          keys += [.scientific(.exponent), .digit(Key.Digit(random.below(10))!)]
        }
      }
      if random.chance(25) {
        keys.append(.scientific(.function(functions[random.below(functions.count)])))
      }
      if random.chance(3) { keys.append(.angle(AngleUnit.allCases[random.below(3)])) }
      if depth > 0, random.chance(30) {
        keys.append(.scientific(.bracket(.close)))
        depth -= 1
      }
      keys.append(random.chance(15) ? .equal : ops[random.below(ops.count)])
    }
    keys.append(.equal)
    if random.chance(80) { keys.append(.mode(.standard)) }
  }
  keys.removeLast(keys.count - count)
  return keys
}

/// The deepest brackets of the mixed stream.
let mixedBracketDepth = 3

/// The stream cut into lines as a person would type them: each ends after an operator or `=`.
/// The lines are slices of the stream, as the seed's keys are its elements: neither side pays
/// for a copy of its input.
func lines(of keys: [Key]) -> [ArraySlice<Key>] {
  var lines: [ArraySlice<Key>] = []
  var start = 0
  for (index, key) in keys.enumerated() {
    switch key {
    case .op, .equal, .scientific(.binary), .programmer(.bitwise), .programmer(.shift):
      lines.append(keys[start...index])
      start = index + 1
    case .digit, .dot, .command, .unary, .memory, .scientific(.bracket), .scientific(.function),
      .scientific(.constant), .scientific(.exponent),
      .scientific(.fixedToExponential), .angle, .mode, .programmer(.hexDigit), .programmer(.radix),
      .programmer(.wordSize), .programmer(.not), .programmer(.rotate), .programmer(.bit),
      .reference, .formula, .dateLine:
      break
    }
  }
  if start < keys.count { lines.append(keys[start...]) }
  return lines
}

// MARK: - Measuring

/// Nanoseconds on the monotonic clock.
@inline(__always) func now() -> UInt64 {
  var spec = timespec()
  clock_gettime(CLOCK_MONOTONIC, &spec)
  return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Nanoseconds of CPU time used by this thread: unlike the wall clock, it does not count time
/// spent waiting for a core, which tells a busy machine from a slow engine.
@inline(__always) func threadCPUTime() -> UInt64 {
  var spec = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
  return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Wall-clock and CPU seconds taken by `body`.
func seconds(_ body: () -> Void) -> (wall: Double, cpu: Double) {
  let (start, cpuStart) = (now(), threadCPUTime())
  body()
  let (end, cpuEnd) = (now(), threadCPUTime())
  return (Double(end - start) / 1e9, Double(cpuEnd - cpuStart) / 1e9)
}

/// The best of `runs` timings of `body`, each after `prepare`: wall time, and CPU time.
func best(of runs: Int, prepare: () -> Void, _ body: () -> Void) -> (wall: Double, cpu: Double) {
  var result = (wall: Double.infinity, cpu: Double.infinity)
  for _ in 0..<runs {
    prepare()
    let time = seconds(body)
    result = (min(result.wall, time.wall), min(result.cpu, time.cpu))
  }
  return result
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  let middle = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Resident set size in bytes, from /proc/self/statm (0 where there is none).
func residentBytes() -> Int {
  guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
    return 0
  }
  let fields = text.split(separator: " ")
  guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
  return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// A session recording `lines` from empty. The timed loops live in functions on local
/// variables: on a global (top-level) variable every call would pay a dynamic exclusivity
/// check.
@inline(never) func record(_ lines: [ArraySlice<Key>]) -> Session {
  var session = Session()
  for line in lines { try! session.perform(.keys(line)) }
  return session
}

/// The seed model after `keys`.
@inline(never) func seedRecord(_ keys: [Key]) -> SeedCalculatorModel {
  var seed = SeedCalculatorModel()
  for key in keys { seed.apply(key) }
  return seed
}

/// Keeps the optimizer from dropping work whose result is otherwise unused.
nonisolated(unsafe) var sink = 0
@inline(never) func consume(_ state: History.State) { sink &+= state.hashValue & 1 }
@inline(never) func consume(_ count: Int) { sink &+= count & 1 }

func fixed(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }

func grouped(_ value: Int) -> String {
  let digits = Array(String(value))
  var text = ""
  for (index, digit) in digits.enumerated() {
    if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
    text.append(digit)
  }
  return text
}

// MARK: - Run

let options = Options(CommandLine.arguments)
let keyCount = options.keyCount
print("calc-bench: \(grouped(keyCount)) keys, stream seed \(options.seed)")
if options.streamsOnly {
  // And Standard's stream, for its bytes per key on the densest tree beside the others'.
  let rows =
    measureStreams(keyCount: keyCount, seed: options.seed, runs: options.streamRuns)
    + [
      streamRow(
        "Standard", keys: keyStream(count: keyCount, seed: options.seed), runs: options.streamRuns,
        goto: false, seed: options.seed ^ 0x6074)
    ]
  printStreams(rows, verbose: true)
  print("calc-bench:" + streamsSummary(rows))
  exit(0)
}
if options.gotoOnly {
  // The Standard rows as the whole run takes them (the same keys, sessions and first jumps; the
  // tree's forks differ, the whole run's live rows drawing from the same random numbers
  // before it), then the Scientific and Programmer rows as `--streams` takes them.
  let gotoKeys = keyStream(count: keyCount, seed: options.seed)
  let gotoLines = lines(of: gotoKeys)
  var oneBranch = record(gotoLines)
  var gotoRandom = SplitMix64(state: options.seed ^ 0x60_70)
  let oneJumps = timeJumps(&oneBranch, count: 2_000, acrossBranches: false, random: &gotoRandom)
  oneBranch = Session()
  let branches = densestBranchCount(keys: keyCount, lines: gotoLines.count)
  var gotoTree = recordTree(
    gotoLines, total: keyCount, branches: branches, random: &gotoRandom)
  let treeJumps = timeJumps(&gotoTree, count: 2_000, acrossBranches: true, random: &gotoRandom)
  print(
    "goto: one branch median \(fixed(median(oneJumps), 2)) µs; \(branches) branches"
      + " (:branch + :goto) median \(fixed(median(treeJumps), 2)) µs;"
      + " tree \(fixed(Double(gotoTree.history.storageBytes) / Double(gotoTree.history.recordedCount), 3)) bytes/key"
  )
  gotoTree = Session()
  streamKeyCount = keyCount
  let rows = [
    streamRow(
      "Scientific", keys: scientificStream(count: keyCount, seed: options.seed ^ 0x5C15),
      runs: 1, goto: true, seed: options.seed ^ 0x6070),
    streamRow(
      "Programmer", keys: programmerStream(count: keyCount, seed: options.seed ^ 0x960),
      runs: 1, goto: true, seed: options.seed ^ 0x6071),
  ]
  print(
    "calc-bench: goto_us=\(fixed(median(oneJumps), 2)) tree_goto_us=\(fixed(median(treeJumps), 2))"
      + streamsSummary(rows))
  exit(0)
}
if options.numbersOnly {
  let rows = measureNumbers()
  printNumbers(rows)
  print("calc-bench:" + numbersSummary(rows))
  exit(0)
}
if let baseline = options.baseline {
  let runs = options.scriptRuns == 31 ? 11 : options.scriptRuns
  let rows = measureBaseline(
    calc: options.calc, baseline: baseline, lines: options.scriptLines, runs: runs)
  printBaseline(
    rows, calc: options.calc, baseline: baseline, lines: options.scriptLines, runs: runs)
  exit(0)
}
/// The formula rows (Formulas.swift), through the binary.
if options.formulasOnly {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("calc-bench-fx-\(getpid())")
  try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  let figures = measureFormulas(
    calc: options.calc, runs: options.formulaRuns, directory: directory.path)
  try? FileManager.default.removeItem(at: directory)
  printFormulas(figures)
  print("calc-bench:" + formulasSummary(figures))
  exit(0)
}
/// The date rows (Dates.swift), through the binary and in process.
if options.datesOnly {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("calc-bench-dates-\(getpid())")
  try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  let figures = measureDates(
    calc: options.calc, runs: options.dateRuns, lines: options.dateLines, seed: options.seed,
    directory: directory.path)
  try? FileManager.default.removeItem(at: directory)
  printDates(figures)
  print("calc-bench:" + datesSummary(figures))
  exit(0)
}
/// The Scientific row (Scientific.swift), measured before the big streams exist.
if options.ledgerOnly {
  let times = timeLedger(seed: options.seed)
  printLedger(times)
  printLedgerTargets(times)
  print("calc-bench:" + ledgerSummary(times))
  exit(0)
}

/// The script rows (Scripts.swift), measured before the big streams exist.
let scripts =
  options.scientificOnly || options.longLinesOnly
  ? nil : measureScripts(calc: options.calc, lines: options.scriptLines, runs: options.scriptRuns)
if options.scriptsOnly {
  printScripts(scripts)
  print("targets (SPEC §7)")
  printScriptTargets(scripts)
  print("calc-bench:" + scriptsSummary(scripts))
  exit(0)
}

let scientificDirectory = FileManager.default.temporaryDirectory
  .appendingPathComponent("calc-bench-sci-\(getpid())")
try? FileManager.default.createDirectory(at: scientificDirectory, withIntermediateDirectories: true)
let scientific = measureScientific(
  calc: options.calc, runs: 11, directory: scientificDirectory.path)
try? FileManager.default.removeItem(at: scientificDirectory)
if options.scientificOnly {
  printScientific(scientific)
  printScientificTargets(scientific)
  print("calc-bench:" + scientificSummary(scientific))
  exit(0)
}

// MARK: - :history through the binary
//
// Measured first, while calc-bench itself is small: Linux counts the memory of the process that
// spawns a child in the child's peak (ru_maxrss is recorded at exec), so later, with the 10M-key
// histories in memory, every child would seem to take as much as calc-bench.

/// Starts `argv` with `input` as its standard input and `output` as its standard output,
/// closing `closing` (the other ends of pipes) in the child; its process id, or `nil`.
func spawnChild(_ argv: [String], input: Int32, output: Int32, closing: [Int32]) -> pid_t? {
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_adddup2(&actions, input, 0)
  posix_spawn_file_actions_adddup2(&actions, output, 1)
  for fd in closing { posix_spawn_file_actions_addclose(&actions, fd) }
  let arguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
  defer { for argument in arguments { free(argument) } }
  var pid: pid_t = 0
  return posix_spawn(&pid, argv[0], &actions, nil, arguments, environ) == 0 ? pid : nil
}

/// The peak resident memory in bytes of `calc` running `script` (a file) as its standard input,
/// and the lines it printed; `nil` if it could not be run or did not succeed (``calcSucceeded``).
func peakMemory(calc: String, script: String) -> (bytes: Int, lines: Int)? {
  let input = open(script, O_RDONLY | O_CLOEXEC)
  guard input >= 0 else { return nil }
  defer { close(input) }
  var ends: [Int32] = [0, 0]
  guard pipe(&ends) == 0 else { return nil }
  let child = spawnChild(
    [calc, "--plain", "-q"], input: input, output: ends[1], closing: [ends[0]])
  close(ends[1])
  defer { close(ends[0]) }
  guard let pid = child else { return nil }
  // Read (and count) everything, so that calc is never held up by a full pipe.
  var lines = 0
  var buffer = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let count = read(ends[0], &buffer, buffer.count)
    if count < 0 && errno == EINTR { continue }
    guard count > 0 else { break }
    for byte in buffer[..<count] where byte == UInt8(ascii: "\n") { lines += 1 }
  }
  var status: Int32 = 0
  var usage = rusage()
  while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
  guard calcSucceeded(status) else { return nil }
  return (usage.ru_maxrss * 1024, lines)
}

/// Whether calc's wait status says it ran to the end: it exited with 0, or with 1, which says
/// that a key line showed an error (SPEC §5; a random key stream divides by zero now and then).
func calcSucceeded(_ status: Int32) -> Bool {
  status & 0x7f == 0 && (status >> 8) & 0xff <= 1
}

let historySteps = 1_000_000
let historyKeys = keyStream(count: historySteps, seed: options.seed)
let historyDirectory = FileManager.default.temporaryDirectory
  .appendingPathComponent("calc-bench-\(getpid())")
try? FileManager.default.createDirectory(at: historyDirectory, withIntermediateDirectories: true)
let sessionScript = lines(of: historyKeys).map { KeyText.text(of: TypedKeys(Array($0))) }
  .joined(separator: "\n")
let withoutHistory = historyDirectory.appendingPathComponent("session.calc").path
let withHistory = historyDirectory.appendingPathComponent("history.calc").path
guard
  FileManager.default.createFile(
    atPath: withoutHistory, contents: Data((sessionScript + "\n").utf8)),
  FileManager.default.createFile(
    atPath: withHistory, contents: Data((sessionScript + "\n:history\n").utf8))
else { Options.fail("cannot write the :history scripts in \(historyDirectory.path)") }
let sessionLines = lines(of: historyKeys).count
let benchResidentAtSpawn = residentBytes()
let sessionPeak = peakMemory(calc: options.calc, script: withoutHistory)
let historyPeak = peakMemory(calc: options.calc, script: withHistory)
try? FileManager.default.removeItem(at: historyDirectory)
/// The header, a row per step and the slider after the displays of the session's lines.
let historyComplete =
  historyPeak.map { $0.lines == sessionLines + 1 + (historySteps + 1) + 1 } ?? false

// MARK: - Long lines (SPEC §7), through the binary
//
// A 2 MB key line of the arithmetic mix in each mode, run by `calc --plain FILE`: its wall time
// and peak memory (ru_maxrss from wait4), both linear in the line's length. Measured here too,
// while calc-bench is small (see above).

/// A line of about `bytes` bytes of the benchmark's arithmetic mix, ending with `=`: `1+`, `*`
/// and `%` in Standard mode, and brackets too in Scientific mode.
func longLine(bytes: Int, scientific: Bool) -> String {
  longLine(bytes: bytes, mode: scientific ? .scientific : .standard)
}

/// A line of about `bytes` bytes of the arithmetic mix in `mode`: Programmer mode's has no `%`
/// (it holds integers); date mode's adds durations.
func longLine(bytes: Int, mode: Key.Mode) -> String {
  let piece =
    switch mode {
    case .standard: "1+2*3%+"
    case .scientific: "1+2*((3+4)*5)%+"
    case .programmer: "1+2*((3+4)*5)+"
    case .formula: "1+2*((3+4)*5)%+"
    case .date: "1:00+0:30*2+"
    }
  // A date line ends with a duration (SPEC §13), a key line with `1=`.
  return String(repeating: piece, count: max(1, bytes / piece.utf8.count))
    + (mode == .date ? "0:01" : "1=")
}

/// The wall time and peak memory of running `argv` with its output read (and dropped) until it
/// ends; `nil` if it could not be run or did not succeed.
func timedRun(_ argv: [String]) -> (seconds: Double, bytes: Int)? {
  guard let run = measuredRun(argv), calcSucceeded(run.status) else { return nil }
  return (run.seconds, run.bytes)
}

let longLineBytes = 2 << 20
let longLineDirectory = FileManager.default.temporaryDirectory
  .appendingPathComponent("calc-bench-lines-\(getpid())")
try? FileManager.default.createDirectory(at: longLineDirectory, withIntermediateDirectories: true)
/// Standard's run, then Scientific's, then Programmer's: each the best of three.
let longLineModes: [Key.Mode] = [.standard, .scientific, .programmer]
let longLineRuns: [(seconds: Double, bytes: Int)?] = longLineModes.map { mode in
  let name =
    switch mode {
    case .standard: "standard"
    case .scientific: "scientific"
    case .programmer: "programmer"
    case .formula: "formula"
    case .date: "date"
    }
  let path = longLineDirectory.appendingPathComponent("\(name).calc").path
  guard
    FileManager.default.createFile(
      atPath: path, contents: Data((longLine(bytes: longLineBytes, mode: mode) + "\n").utf8))
  else { return nil }
  // Programmer mode's line is quadratic today (its expression line is a plain array): one run,
  // stopped after 20 s by timeout(1), which gives "none".
  let timeLimit = mode == .programmer ? ["/usr/bin/timeout", "20"] : []
  let argv = timeLimit + [options.calc, "--plain", "--mode", name, path]
  let count = mode == .programmer ? 1 : 3
  let runs = (0..<count).compactMap { _ in timedRun(argv) }
  guard runs.count == count else { return nil }
  return (runs.map(\.seconds).min()!, runs.map(\.bytes).min()!)
}
try? FileManager.default.removeItem(at: longLineDirectory)
if options.longLinesOnly {
  printLongLines(keystrokes: [false, true].map { timeLongLineKeystrokes(scientific: $0) })
  exit(0)
}

// MARK: - Against bc, and big sessions, through the binary (issue 23, SPEC §7)
//
// Also measured before the big histories exist. Each figure is wall time of spawned processes,
// calc's beside bc's in the same run, alternating the two.

/// The monotonic clock, in seconds.
func clockSeconds() -> Double { Double(now()) / 1e9 }

/// The peak resident memory of `argv` alone, in bytes, as `/usr/bin/time -f %M` reports it; `nil`
/// without `/usr/bin/time`. Not ``measuredRun(_:input:)``'s `ru_maxrss`: a child spawned from
/// calc-bench counts calc-bench's own pages at its `exec`, and `time` is small when it forks.
func childPeak(_ argv: [String]) -> Int? {
  let time = "/usr/bin/time"
  guard FileManager.default.isExecutableFile(atPath: time) else { return nil }
  let report = versusDirectory.appendingPathComponent("peak.txt").path
  guard let run = measuredRun([time, "-o", report, "-f", "%M"] + argv), run.status == 0,
    let text = try? String(contentsOfFile: report, encoding: .utf8),
    let kilobytes = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
  else { return nil }
  return kilobytes * 1024
}

/// The wall time of running `argv` with its standard input from `input` and its output read
/// (and dropped) until it ends; `nil` if it could not be run.
func spawnTime(_ argv: [String], input: String = "/dev/null") -> Double? {
  measuredRun(argv, input: input)?.seconds
}

/// The wall time, peak memory (`ru_maxrss`) and wait status of running `argv` with its standard
/// input from `input` and its output read (and dropped) until it ends; `nil` if it could not be
/// run.
func measuredRun(_ argv: [String], input: String = "/dev/null") -> (
  seconds: Double, bytes: Int, status: Int32
)? {
  let inputFD = open(input, O_RDONLY | O_CLOEXEC)
  guard inputFD >= 0 else { return nil }
  defer { close(inputFD) }
  var ends: [Int32] = [0, 0]
  guard pipe(&ends) == 0 else { return nil }
  let start = clockSeconds()
  let child = spawnChild(argv, input: inputFD, output: ends[1], closing: [ends[0]])
  close(ends[1])
  defer { close(ends[0]) }
  guard let pid = child else { return nil }
  var buffer = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let count = read(ends[0], &buffer, buffer.count)
    if count < 0 && errno == EINTR { continue }
    guard count > 0 else { break }
  }
  var status: Int32 = 0
  var usage = rusage()
  while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
  return (clockSeconds() - start, usage.ru_maxrss * 1024, status)
}

/// The time from writing `second` to `argv`'s standard input, once `first` has been answered
/// with a line, to the `rows`th line of the answer to `second` (then it is killed): how long a
/// person waits for the first screenful of a command.
func answerTime(_ argv: [String], first: String, second: String, rows: Int) -> Double? {
  var input: [Int32] = [0, 0]
  var output: [Int32] = [0, 0]
  guard pipe(&input) == 0, pipe(&output) == 0 else { return nil }
  let child = spawnChild(
    argv, input: input[0], output: output[1], closing: [input[1], output[0]])
  close(input[0])
  close(output[1])
  guard let pid = child else {
    close(input[1])
    close(output[0])
    return nil
  }
  defer {
    close(input[1])
    close(output[0])
    kill(pid, SIGKILL)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
  }
  func send(_ text: String) {
    _ = text.utf8CString.withUnsafeBufferPointer { write(input[1], $0.baseAddress, $0.count - 1) }
  }
  var buffer = [UInt8](repeating: 0, count: 1 << 16)
  /// Reads until `count` more lines have come; false at the end of the output.
  func awaitLines(_ count: Int) -> Bool {
    var seen = 0
    while seen < count {
      let got = read(output[0], &buffer, buffer.count)
      if got < 0 && errno == EINTR { continue }
      guard got > 0 else { return false }
      for byte in buffer[..<got] where byte == UInt8(ascii: "\n") { seen += 1 }
    }
    return true
  }
  send(first)
  guard awaitLines(1) else { return nil }
  let start = clockSeconds()
  send(second)
  guard awaitLines(rows) else { return nil }
  return clockSeconds() - start
}

/// The first executable `name` on `PATH`.
func onPath(_ name: String) -> String? {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  return path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
}

let bc = onPath("bc")
let calcRuns = FileManager.default.isExecutableFile(atPath: options.calc)
let versusDirectory = FileManager.default.temporaryDirectory
  .appendingPathComponent("calc-bench-versus-\(getpid())")
try? FileManager.default.createDirectory(at: versusDirectory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: versusDirectory) }
/// How many times each figure against bc and of the big session is measured (alternating the
/// programs); the figure is the median: issue 23 asks for at least 30.
let versusRuns = 31
var startupRatio: Double?
var startupTimes: (calc: Double, bc: Double)?
/// Start-up's peak memory, calc's and bc's (medians of 5, through `/usr/bin/time`), bytes.
var startupPeaks: (calc: Int, bc: Int)?
/// Drops `path`'s pages from the page cache (written back first), so that the next run reads
/// them as an exec of a binary on disk does.
///
/// A start's peak memory depends on how the binary's file entered the page cache: the same
/// calc peaked at 2,668 KB just after `cp` wrote it, and at 2,148–2,264 KB once its pages had
/// been dropped and read back by a run (Documentation/Performance.md, "Start-up memory and the
/// page cache"). bc's binary is read, not written, before a benchmark: both are put in that
/// state before the start-up runs.
func dropFromPageCache(_ path: String) {
  let fd = open(path, O_RDONLY | O_CLOEXEC)
  guard fd >= 0 else { return }
  defer { close(fd) }
  _ = fsync(fd)
  _ = posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_DONTNEED))
}

if calcRuns, let bc {
  // SPEC §7: bc reads a file holding `12+3`.
  let bcInput = versusDirectory.appendingPathComponent("startup.bc").path
  try? "12+3\n".write(toFile: bcInput, atomically: true, encoding: .utf8)
  // Both binaries as read from disk, then one untimed run each to read them back.
  dropFromPageCache(options.calc)
  dropFromPageCache(bc)
  _ = spawnTime([options.calc, "-k", "12+3="])
  _ = spawnTime([bc, "-q", bcInput])
  var calcTimes: [Double] = []
  var bcTimes: [Double] = []
  for _ in 0..<51 {
    if let time = spawnTime([options.calc, "-k", "12+3="]) { calcTimes.append(time) }
    if let time = spawnTime([bc, "-q", bcInput]) { bcTimes.append(time) }
  }
  if !calcTimes.isEmpty, !bcTimes.isEmpty {
    startupTimes = (median(calcTimes), median(bcTimes))
    startupRatio = median(calcTimes) / median(bcTimes)
  }
  var calcPeaks: [Int] = []
  var bcPeaks: [Int] = []
  for _ in 0..<5 {
    if let peak = childPeak([options.calc, "-k", "12+3="]) { calcPeaks.append(peak) }
    if let peak = childPeak([bc, "-q", bcInput]) { bcPeaks.append(peak) }
  }
  if !calcPeaks.isEmpty, !bcPeaks.isEmpty {
    startupPeaks = (calcPeaks.sorted()[calcPeaks.count / 2], bcPeaks.sorted()[bcPeaks.count / 2])
  }
}

// A 2,000,000-key session: `:load` of it, and the first screenful (40 rows) of `:history` and
// `:tape` after it, each from the command written (once the load has answered) to the
// listing's 40th row.
let bigKeys = keyStream(count: 2_000_000, seed: options.seed &+ 2)
let bigSession = versusDirectory.appendingPathComponent("big.calc").path
try! lines(of: bigKeys).map { KeyText.text(of: TypedKeys(Array($0))) }.joined(separator: "\n")
  .appending("\n")
  .write(toFile: bigSession, atomically: true, encoding: .utf8)
func bigScript(_ name: String, _ text: String) -> String {
  let path = versusDirectory.appendingPathComponent(name).path
  try! text.write(toFile: path, atomically: true, encoding: .utf8)
  return path
}
let loadOnly = bigScript("load.calc", ":load \(bigSession)\n")
var loadSeconds: Double?
var historyFirstMs: Double?
var tapeFirstMs: Double?
if calcRuns {
  var loads: [Double] = []
  var histories: [Double] = []
  var tapes: [Double] = []
  for _ in 0..<versusRuns {
    if let time = spawnTime([options.calc], input: loadOnly) { loads.append(time) }
    if let time = answerTime(
      [options.calc], first: ":load \(bigSession)\n", second: ":history\n", rows: 41)
    {
      histories.append(time)
    }
    if let time = answerTime(
      [options.calc], first: ":load \(bigSession)\n", second: ":tape\n", rows: 40)
    {
      tapes.append(time)
    }
  }
  if !loads.isEmpty {
    loadSeconds = median(loads)
    if !histories.isEmpty { historyFirstMs = median(histories) * 1000 }
    if !tapes.isEmpty { tapeFirstMs = median(tapes) * 1000 }
  }
}

let keys = keyStream(count: keyCount, seed: options.seed)

/// Writes `keys` as a REPL journal would hold them, typed a line at a time, with a `:goto` to a
/// random earlier step of the current branch every 1,430 lines, so that the next line starts a
/// new branch (about 1,000 branches for 10,000,000 keys).
func writeJournal(_ keys: [Key], to path: String, seed: UInt64) {
  var random = SplitMix64(state: seed ^ 0x10_0524)
  var text = ""
  var position = 0
  for (index, line) in lines(of: keys).enumerated() {
    if index % 1430 == 1429 {
      position = random.int(0...position)
      SessionScript.forEachLine(performing: .goto(.step(position))) { text += $0 + "\n" }
    }
    SessionScript.forEachLine(performing: .keys(line)) { text += $0 + "\n" }
    position += line.count
  }
  guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
    Options.fail("cannot write '\(path)'")
  }
  print("journal: \(grouped(keys.count)) keys, \(grouped(text.utf8.count)) bytes, in \(path)")
}

if let path = options.journalPath {
  writeJournal(keys, to: path, seed: options.seed)
  exit(0)
}
var histogram = [Int](repeating: 0, count: Key.allKeys.count)
for key in keys { histogram[Int(key.code)] += 1 }
print(
  "stream: "
    + Key.allKeys.map { key in
      "\(key.title) \(fixed(100 * Double(histogram[Int(key.code)]) / Double(keyCount), 1))%"
    }.joined(separator: "  "))

// Apply with recording, ours a line at a time and the seed a key at a time, best of a few runs
// each, taken in turns so that a busy machine slows both alike; every run starts empty (growing
// its storage as a session would; nothing reserved). Memory is read around our first run, before
// freed buffers of later runs muddle it.
let keyLines = lines(of: keys)
let applyRuns = 5
var session = Session()
var seed = SeedCalculatorModel()
var residentGrowth = 0
var applyTime = (wall: Double.infinity, cpu: Double.infinity)
var seedApplyTime = (wall: Double.infinity, cpu: Double.infinity)
for run in 0..<applyRuns {
  session = Session()
  seed = SeedCalculatorModel()
  if run == 0 { residentGrowth = residentBytes() }
  let ours = seconds { session = record(keyLines) }
  if run == 0 { residentGrowth = residentBytes() - residentGrowth }
  let theirs = seconds { seed = seedRecord(keys) }
  applyTime = (min(applyTime.wall, ours.wall), min(applyTime.cpu, ours.cpu))
  seedApplyTime = (min(seedApplyTime.wall, theirs.wall), min(seedApplyTime.cpu, theirs.cpu))
}
consume(session.state)
let applyRate = Double(keyCount) / applyTime.wall
let applyCPURate = Double(keyCount) / applyTime.cpu
let bytesPerKey = Double(session.history.storageBytes) / Double(session.history.recordedCount)

// The mixed Standard/Scientific stream: the same keys count, recorded a line at a time; its
// memory is read from the process's resident size, which includes the Scientific states' heap.
let mixedKeys = mixedStream(count: keyCount, seed: options.seed ^ 0x5C1)
let mixedLines = lines(of: mixedKeys)
var mixedSession = Session()
var mixedTime = (wall: Double.infinity, cpu: Double.infinity)
var mixedResident = 0
for run in 0..<3 {
  mixedSession = Session()
  let before = run == 0 ? residentBytes() : 0
  let time = seconds { mixedSession = record(mixedLines) }
  if run == 0 { mixedResident = residentBytes() - before }
  mixedTime = (min(mixedTime.wall, time.wall), min(mixedTime.cpu, time.cpu))
}
consume(mixedSession.state)
let mixedRate = Double(keyCount) / mixedTime.wall
let mixedBytesPerKey =
  Double(mixedSession.history.storageBytes) / Double(mixedSession.history.recordedCount)
let mixedShare =
  Double(mixedKeys.filter { if case .scientific = $0 { true } else { false } }.count)
  / Double(max(1, mixedKeys.count))

// Ours: jumps to random positions, each timed on its own.
var random = SplitMix64(state: options.seed ^ 0x60_70)
let gotoCount = 2_000

/// Microseconds taken by each of `count` jumps to random steps: of the current branch, or with
/// `acrossBranches` of a random branch (`:branch` then `:goto`, timed together).
@inline(never) func timeJumps(
  _ session: inout Session, count: Int, acrossBranches: Bool, random: inout SplitMix64
) -> [Double] {
  var micros: [Double] = []
  micros.reserveCapacity(count)
  for _ in 0..<count {
    let branch =
      acrossBranches
      ? 1 + random.below(session.history.branchCount) : session.history.currentBranch
    let step = random.below(session.history.branch(branch).count + 1)
    let start = now()
    if acrossBranches { try! session.perform(.branch(branch)) }
    try! session.perform(.goto(.step(step)))
    let end = now()
    consume(session.state)
    micros.append(Double(end - start) / 1e3)
  }
  return micros
}

let gotoMicros = timeJumps(&session, count: gotoCount, acrossBranches: false, random: &random)
let gotoMedian = median(gotoMicros)
let gotoWorst = gotoMicros.max() ?? 0

// The REPL's live display and slider (SPEC §6, §7): the render path from a keystroke to the
// text of its frame, in this session of `keyCount` keys, at 80 columns. A keystroke at the end
// of a 1,000-key line: the preview of the whole line (parsed, applied to a copy of the state,
// formatted, fitted) and the frame around it. A slider move: the move through the session's
// door, the prompt, the bar, the live row and the frame. readline's own redraw of the input
// and the terminal's write are not part of it (Documentation/REPL.md, "The live display").
@inline(never) func timeLiveRows(
  _ session: Session, line: [UInt8], moves: Int, random: inout SplitMix64
) -> (keystroke: [Double], move: [Double]) {
  let interpreter = LineInterpreter(
    context: LineInterpreter.Context(format: DisplayFormat(localeIdentifier: "en_US")),
    session: session)
  var rows = LiveRows(interpreter: interpreter, format: interpreter.format)
  var keystroke: [Double] = []
  for end in stride(from: max(1, line.count - 300), through: line.count, by: 1) {
    keystroke.append(timeKeystroke(&rows, typed: Array(line[..<end])))
  }
  var move: [Double] = []
  for _ in 0..<moves {
    let slider = SliderMove.allCases[random.below(SliderMove.allCases.count)]
    let start = now()
    let (_, prompt, bar) = rows.move(slider, columns: 80)
    let frame = LiveRows.frame(
      [rows.current(width: 79), bar], cursorRow: 0, lastRow: 0, cursorColumn: prompt.count)
    let stop = now()
    consume(frame.utf8.count)
    move.append(Double(stop - start) / 1e3)
  }
  return (keystroke, move)
}

/// The microseconds from a keystroke that leaves `typed` on the input line (80 columns, after a
/// 6-column prompt) to the frame that draws its live row.
@inline(never) func timeKeystroke(_ rows: inout LiveRows, typed: [UInt8]) -> Double {
  let end = typed.count
  let start = now()
  let row = rows.preview(typed, width: 79)
  let frame = LiveRows.frame(
    row.map { [$0] } ?? [], cursorRow: 0, lastRow: (end + 6) / 80, cursorColumn: (end + 6) % 80)
  let stop = now()
  consume(frame.utf8.count)
  return Double(stop - start) / 1e3
}

let liveLine = Array(
  KeyText.text(of: TypedKeys(keyStream(count: 1_000, seed: options.seed ^ 0x11FE))).utf8)
var liveSession = session
try! liveSession.perform(.goto(.step(random.below(liveSession.history.count + 1))))
let liveTimes = timeLiveRows(liveSession, line: liveLine, moves: 2_000, random: &random)
let liveMedian = median(liveTimes.keystroke)
let moveMedian = median(liveTimes.move)

// The live display while keys are added at the end of a 32,000-character line (SPEC §7), in
// each mode, in a fresh session: the render path of the last 300 keystrokes, as above.
@inline(never) func timeLongLineKeystrokes(scientific: Bool) -> [Double] {
  var interpreter = LineInterpreter(
    context: LineInterpreter.Context(format: DisplayFormat(localeIdentifier: "en_US")))
  if scientific { try! interpreter.run("sci", output: OutputBuffer()) }
  let line = Array(longLine(bytes: 32_000, scientific: scientific).utf8)
  var rows = LiveRows(interpreter: interpreter, format: interpreter.format)
  // The line typed up to where the measurement starts (the REPL previews every keystroke).
  _ = rows.preview(Array(line[..<(line.count - 300)]), width: 79)
  var times: [Double] = []
  for end in (line.count - 299)...line.count {
    times.append(timeKeystroke(&rows, typed: Array(line[..<end])))
  }
  return times
}

let longLineKeystrokes = [false, true].map { timeLongLineKeystrokes(scientific: $0) }

/// The long lines' rows: the runs through the binary and the keystrokes' times.
func printLongLines(keystrokes: [[Double]]) {
  print("long lines (SPEC §7): a \(grouped(longLineBytes))-byte key line through \(options.calc)")
  for (name, run) in zip(["Standard", "Scientific", "Programmer"], longLineRuns) {
    print(
      "  \(name): "
        + (run.map {
          "\(fixed($0.seconds, 2)) s, peak memory \(fixed(Double($0.bytes) / 1_048_576, 1)) MB"
        } ?? "not measured"))
  }
  for (name, times) in zip(["Standard", "Scientific"], keystrokes) {
    print(
      "  a keystroke at the end of a 32,000-character \(name) line: median"
        + " \(fixed(median(times), 1)) µs, worst \(fixed(times.max() ?? 0, 1)) µs")
  }
}

// Ours, as a tree: the same number of keys on one branch per 1,000 keys (10,000 at 10,000,000
// keys: the densest SPEC §7 allows). Each branch after the first starts at a random step of a
// random earlier branch and gets its share of the stream's lines.
let branchCount = densestBranchCount(keys: keyCount, lines: keyLines.count)

/// A session of `total` keys (about) from `lines`, on `branches` branches with random forks.
@inline(never) func recordTree(
  _ lines: [ArraySlice<Key>], total: Int, branches: Int,
  random: inout SplitMix64
) -> Session {
  var session = Session()
  var next = 0
  for number in 1...branches {
    if number > 1 {
      try! session.perform(.branch(1 + random.below(session.history.branchCount)))
      try! session.perform(.goto(.step(random.below(session.history.count))))
    }
    var applied = 0
    while applied < total / branches {
      try! session.perform(.keys(lines[next]))
      applied += lines[next].count
      next = (next + 1) % lines.count
    }
  }
  return session
}

var tree = recordTree(keyLines, total: keyCount, branches: branchCount, random: &random)
let treeKeys = tree.history.recordedCount
let treeBytesPerKey = Double(tree.history.storageBytes) / Double(treeKeys)
let treeMicros = timeJumps(&tree, count: gotoCount, acrossBranches: true, random: &random)
let treeMedian = median(treeMicros)
let treeWorst = treeMicros.max() ?? 0
// Wherever a jump lands, the state must be the replay of the branch's prefix.
for _ in 0..<20 {
  let branch = 1 + random.below(tree.history.branchCount)
  try! tree.perform(.branch(branch))
  let step = random.below(tree.history.count + 1)
  try! tree.perform(.goto(.step(step)))
  var replayed = History.State.initial
  // Line starts applied (SPEC rule 18): each line starts by ending the number being typed.
  for index in 0..<step {
    if tree.history.startsLine(at: index + 1) { replayed.startLine() }
    replayed = replayed.apply(tree.history.key(at: index + 1))
  }
  guard replayed == tree.state else {
    Options.fail("tree: branch \(branch) step \(step) is not the replay of its keys")
  }
}

// The seed: the same keys through the book's model, then a handful of jumps at full size.
consume(seed.brain)
let seedApplyRate = Double(keyCount) / seedApplyTime.wall
let seedApplyCPURate = Double(keyCount) / seedApplyTime.cpu
let seedGotoCount = 5
var seedGotoMicros: [Double] = []
for _ in 0..<seedGotoCount {
  let target = random.below(seed.totalCount + 1)
  seedGotoMicros.append(1e6 * seconds { seed.keepHistory(upTo: target) }.wall)
  consume(seed.brain)
}
let seedGotoMedian = median(seedGotoMicros)
// The seed keeps `history + temporaryKept`, one Key per key: its stride is what
// an array spends per element (array capacity slack ignored, in the seed's favour).
let seedBytesPerKey = MemoryLayout<Key>.stride

// Both models must agree wherever they are: check at the seed's last jump.
try! session.perform(.goto(.step(seed.slidingIndex)))
guard session.state == seed.brain else {
  Options.fail("timeline and seed disagree at position \(seed.slidingIndex)")
}

// The Scientific, Programmer, mixed and three-mode streams (Streams.swift).
let streamRows = measureStreams(keyCount: keyCount, seed: options.seed, runs: options.streamRuns)

// MARK: - Report

if sink == -1 { print(sink) }  // Never true; reading `sink` keeps the consumed work alive.
let mega = 1e6
print("")
print(
  "apply with recording (best of \(applyRuns); ours a line at a time, the seed a key at a time)")
print(
  "  ours  Session.perform(.keys)    \(fixed(applyRate / mega, 1)) M keys/s"
    + "  (\(fixed(1e9 / applyRate, 1)) ns/key; CPU time: \(fixed(applyCPURate / mega, 1)) M keys/s)"
)
print(
  "  seed  SeedCalculatorModel.apply \(fixed(seedApplyRate / mega, 1)) M keys/s"
    + "  (\(fixed(1e9 / seedApplyRate, 1)) ns/key; CPU time: \(fixed(seedApplyCPURate / mega, 1))"
    + " M keys/s)")
print("  ratio ours/seed               \(fixed(applyRate / seedApplyRate, 2))×")
if applyCPURate > 1.15 * applyRate {
  print("  (wall-clock rate well below the CPU-time rate: the machine was busy)")
}
print(
  "mixed Standard/Scientific stream (brackets up to \(mixedBracketDepth) deep;"
    + " \(fixed(100 * mixedShare, 0))% Scientific-only keys)")
print(
  "  ours  Session.perform(.keys)    \(fixed(mixedRate / mega, 1)) M keys/s"
    + "  (\(fixed(1e9 / mixedRate, 1)) ns/key)")
print(
  "  memory: storageBytes \(grouped(mixedSession.history.storageBytes)) (Scientific boxes"
    + " included) = \(fixed(mixedBytesPerKey, 3)) bytes/key; resident growth"
    + " \(grouped(mixedResident)) bytes")
print("goto anywhere in \(grouped(keyCount)) keys")
print(
  "  ours  perform(.goto)     median \(fixed(gotoMedian, 2)) µs over \(gotoCount) jumps,"
    + " worst \(fixed(gotoWorst, 1)) µs")
print(
  "  seed  keepHistory(upTo:) median \(fixed(seedGotoMedian, 0)) µs over \(seedGotoCount) jumps")
print("  ratio seed/ours               \(fixed(seedGotoMedian / gotoMedian, 0))×")
print("the REPL's live display in \(grouped(keyCount)) keys (render path, 80 columns)")
print(
  "  a keystroke on a \(liveLine.count)-byte line of 1,000 keys: median"
    + " \(fixed(liveMedian, 1)) µs, worst \(fixed(liveTimes.keystroke.max() ?? 0, 1)) µs")
print(
  "  a slider move: median \(fixed(moveMedian, 1)) µs over \(liveTimes.move.count) moves,"
    + " worst \(fixed(liveTimes.move.max() ?? 0, 1)) µs")
printLongLines(keystrokes: longLineKeystrokes)
print("goto anywhere on \(branchCount) branches of \(grouped(treeKeys)) keys in all")
print(
  "  ours  perform(.branch) + perform(.goto) median \(fixed(treeMedian, 2)) µs over \(gotoCount)"
    + " jumps, worst \(fixed(treeWorst, 1)) µs")
print("history memory")
print(
  "  ours  storageBytes \(grouped(session.history.storageBytes)) for"
    + " \(grouped(session.history.recordedCount)) keys = \(fixed(bytesPerKey, 3)) bytes/key"
    + " (1 per key + a \(MemoryLayout<History.State>.stride)-byte state every"
    + " \(History.snapshotInterval) keys + capacity slack)")
print(
  "        on \(branchCount) branches: \(grouped(tree.history.storageBytes)) for"
    + " \(grouped(treeKeys)) keys = \(fixed(treeBytesPerKey, 3)) bytes/key")
print(
  "        resident growth (/proc/self/statm): \(grouped(residentGrowth)) bytes"
    + " = \(fixed(Double(residentGrowth) / Double(keyCount), 3)) bytes/key"
    + " in the first run (touched pages, including buffers freed while growing)")
print(
  "  seed  MemoryLayout<Key>.stride = \(seedBytesPerKey) bytes/key"
    + " (history + temporaryKept arrays)")
print(":history of \(grouped(historySteps + 1)) steps through \(options.calc)")
if let sessionPeak, let historyPeak {
  print(
    "  peak resident memory (wait4 ru_maxrss): \(fixed(Double(historyPeak.bytes) / 1_048_576, 1))"
      + " MB with :history, \(fixed(Double(sessionPeak.bytes) / 1_048_576, 1)) MB for the session"
      + " alone; \(grouped(historyPeak.lines)) lines printed"
      + (historyComplete ? "" : " (NOT the whole listing)"))
  print(
    "        (an upper bound: it includes calc-bench's own"
      + " \(fixed(Double(benchResidentAtSpawn) / 1_048_576, 1)) MB at the spawn)")
} else {
  print("  not measured: could not run it (build it first: swift build -c release)")
}
// :edit of the first line of a long branch (SPEC §7: at most 1 s for 100,000 lines, about
// 1,000,000 keys): every later line is replayed on the new branch.
let editLines = lines(of: historyKeys)
var editSession = Session()
for line in editLines { try! editSession.perform(.keys(line)) }
let editTime = seconds {
  _ = try! editSession.perform(
    .edit(line: 1, keys: TypedKeys(Array(editLines[0])) + (try! KeyText.keys(in: "7"))))
}
print(
  ":edit of line 1 of \(grouped(editLines.count)) lines (\(grouped(historyKeys.count)) keys)")
print("  ours  perform(.edit)  \(fixed(editTime.wall, 3)) s")
let ledgerTimes = timeLedger(seed: options.seed)
printLedger(ledgerTimes)
print("against bc (\(bc ?? "bc: not on PATH")), through \(options.calc), medians")
if let startupTimes, let startupRatio {
  print(
    "  start-up: calc -k 12+3= \(fixed(startupTimes.calc * 1000, 3)) ms,"
      + " bc -q FILE (12+3) \(fixed(startupTimes.bc * 1000, 3)) ms: \(fixed(startupRatio, 2))×"
      + " (51 runs each)")
} else {
  print("  start-up: not measured")
}
if let startupPeaks {
  print(
    "  start-up peak memory: calc \(fixed(Double(startupPeaks.calc) / 1_048_576, 2)) MB,"
      + " bc \(fixed(Double(startupPeaks.bc) / 1_048_576, 2)) MB:"
      + " \(fixed(Double(startupPeaks.calc) / Double(startupPeaks.bc), 2))× (/usr/bin/time, medians of 5)"
  )
}
print("a 2,000,000-key session through \(options.calc) (medians of \(versusRuns))")
if let loadSeconds {
  print(
    "  :load, the whole run             \(fixed(loadSeconds, 3)) s (start-up and exit included)")
  print(
    "  :history, first 40 rows after it \(historyFirstMs.map { fixed($0, 1) } ?? "—") ms;"
      + " :tape \(tapeFirstMs.map { fixed($0, 1) } ?? "—") ms")
} else {
  print("  not measured: could not run it")
}
printScripts(scripts)
printScientific(scientific)
printStreams(streamRows, verbose: options.verbose)
if options.verbose {
  print("  Standard: one branch: \(session.history.storageBreakdown.description)")
  print("    \(branchCount) branches: \(tree.history.storageBreakdown.description)")
}
print("targets (SPEC §7)")
printScriptTargets(scripts)
printScientificTargets(scientific)
// SPEC v5 §7: start-up within 0.75× bc's time and 1.25× its memory (v4's were 1.0× and 2×).
print(
  "  start-up ≤ 0.75× bc     "
    + (startupRatio.map { $0 <= 0.75 ? "met" : "MISSED" } ?? "not measured"))
print(
  "  start-up memory ≤ 1.25× bc "
    + (startupPeaks.map { Double($0.calc) <= 1.25 * Double($0.bc) ? "met" : "MISSED" }
      ?? "not measured"))
print(
  "  :load 2M keys ≤ 1 s     "
    + (loadSeconds.map { $0 <= 1 ? "met" : "MISSED" } ?? "not measured"))
print(
  "  first screenful ≤ 100 ms "
    + (historyFirstMs.map { $0 <= 100 && (tapeFirstMs ?? 0) <= 100 ? "met" : "MISSED" }
      ?? "not measured"))
print("  :edit ≤ 1 s             \(editTime.wall <= 1 ? "met" : "MISSED")")
printLedgerTargets(ledgerTimes)
print(
  "  live row, slider ≤ 2 ms  \(liveMedian <= 2_000 && moveMedian <= 2_000 ? "met" : "MISSED")")
let longLinesMet = longLineRuns.allSatisfy { run in
  run.map { $0.seconds <= 2 && $0.bytes <= 256 << 20 } ?? false
}
print("  2 MB line ≤ 2 s, 256 MB \(longLinesMet ? "met" : "MISSED")")
let longLineKeyMedian = longLineKeystrokes.map(median).max() ?? 0
print("  long-line key ≤ 2 ms    \(longLineKeyMedian <= 2_000 ? "met" : "MISSED")")
print("  goto median ≤ 50 µs     \(gotoMedian <= 50 && treeMedian <= 50 ? "met" : "MISSED")")
print("  apply ≥ seed_apply      \(applyRate >= seedApplyRate ? "met" : "MISSED")")
print("  ≤ 2 bytes per key       \(bytesPerKey <= 2 && treeBytesPerKey <= 2 ? "met" : "MISSED")")
for row in streamRows {
  print("  \(row.name): apply, bytes, goto \(row.met ? "met" : "MISSED")")
}
let historyMB = historyPeak.map { Double($0.bytes) / 1_048_576 }
print(
  "  :history ≤ 64 MB        "
    + (historyMB.map { $0 <= 64 && historyComplete ? "met" : "MISSED" } ?? "not measured"))
let editSummary =
  " edit_s=\(fixed(editTime.wall, 3))"
  + scriptsSummary(scripts)
  + " startup_vs_bc=\(startupRatio.map { fixed($0, 2) } ?? "absent")"
  + " startup_mem_vs_bc=\(startupPeaks.map { fixed(Double($0.calc) / Double($0.bc), 2) } ?? "absent")"
  + " load_2m_s=\(loadSeconds.map { fixed($0, 3) } ?? "absent")"
  + " history_first_ms=\(historyFirstMs.map { fixed($0, 1) } ?? "absent")"
  + " tape_first_ms=\(tapeFirstMs.map { fixed($0, 1) } ?? "absent")"
print(
  "calc-bench: apply=\(fixed(applyRate / mega, 1)) seed_apply=\(fixed(seedApplyRate / mega, 1))"
    + " goto_us=\(fixed(gotoMedian, 2)) seed_goto_us=\(fixed(seedGotoMedian, 0))"
    + " bytes_per_key=\(fixed(bytesPerKey, 3)) seed_bytes_per_key=\(seedBytesPerKey)"
    + " tree_goto_us=\(fixed(treeMedian, 2)) tree_bytes_per_key=\(fixed(treeBytesPerKey, 3))"
    + " history_peak_mb=\(historyMB.map { fixed($0, 1) } ?? "none")" + editSummary
    + ledgerSummary(ledgerTimes)
    + " mixed_apply=\(fixed(mixedRate / mega, 1)) mixed_bytes_per_key=\(fixed(mixedBytesPerKey, 3))"
    + " live_key_us=\(fixed(liveMedian, 1)) slider_move_us=\(fixed(moveMedian, 1))"
    + " long_line_s=\(longLineRuns.prefix(2).map { $0.map { fixed($0.seconds, 2) } ?? "none" }.joined(separator: "/"))"
    + " long_line_mb=\(longLineRuns.prefix(2).map { $0.map { fixed(Double($0.bytes) / 1_048_576, 1) } ?? "none" }.joined(separator: "/"))"
    + " long_line_key_us=\(fixed(longLineKeyMedian, 1))" + scientificSummary(scientific)
    + streamsSummary(streamRows)
    + " prog_long_line_s=\(longLineRuns[2].map { fixed($0.seconds, 2) } ?? "none")"
    + " prog_long_line_mb=\(longLineRuns[2].map { fixed(Double($0.bytes) / 1_048_576, 1) } ?? "none")"
)
