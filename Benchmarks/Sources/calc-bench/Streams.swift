// The Scientific, Programmer and three-mode key streams of SPEC §7's history-memory figure, and
// their rows: apply rate against the seed's model, bytes per key (one branch, and one branch
// per 1,000 keys: the densest tree SPEC allows), and for the Scientific and Programmer streams `:goto` against its target, 50 µs
// plus the replay of 16 of the stream's keys.

import CalcDecimal
import CalcTestSupport
import CalculatorEngine

/// A Scientific stretch of `terms` terms, as a person types one: numbers of 1–4 digits or a
/// constant, now and then an exponent, a function, an angle unit or brackets (up to
/// ``mixedBracketDepth`` deep), binary operators, `=`, and the memory keys; after `=`, AC now
/// and then.
func scientificStretch(
  terms: Int, into keys: inout [Key], random: inout SplitMix64
) {
  let ops: [Key] =
    Key.Op.allCases.map { .op($0) }
    + Key.Binary.allCases.map { .scientific(.binary($0)) }
  let functions = Key.Function.allCases
  let memories = Key.Memory.allCases
  var depth = 0
  for _ in 0..<terms {
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
    if random.chance(4) { keys.append(.memory(memories[random.below(memories.count)])) }
    if depth > 0, random.chance(30) {
      keys.append(.scientific(.bracket(.close)))
      depth -= 1
    }
    if random.chance(15) {
      keys.append(.equal)
      if random.chance(25) { keys.append(.command(.clear)) }
    } else {
      keys.append(ops[random.below(ops.count)])
    }
  }
  keys.append(.equal)
}

/// A Programmer stretch of `terms` terms: numbers of 1–6 digits of the radix (hex digits in
/// HEX), now and then a radix or word-size change, `not`, a rotate, a bit key, the memory keys,
/// brackets; bitwise operators, shifts, `+ − × ÷ mod`, `=`; after `=`, AC now and then.
func programmerStretch(
  terms: Int, into keys: inout [Key], radix: inout Key.Radix,
  wordSize: inout Key.WordSize, random: inout SplitMix64
) {
  let ops: [Key] =
    Key.Op.allCases.map { .op($0) } + [.scientific(.binary(.mod))]
    + Key.Bitwise.allCases.map { .programmer(.bitwise($0)) }
    + Key.Shift.allCases.map { .programmer(.shift($0)) }
  let memories = Key.Memory.allCases
  var depth = 0
  for _ in 0..<terms {
    if random.chance(5) {
      radix = Key.Radix.allCases[random.below(4)]
      keys.append(.programmer(.radix(radix)))
    }
    if random.chance(2) {
      wordSize = Key.WordSize.allCases[random.below(4)]
      keys.append(.programmer(.wordSize(wordSize)))
    }
    if depth < mixedBracketDepth, random.chance(15) {
      keys.append(.scientific(.bracket(.open)))
      depth += 1
    }
    for _ in 0..<(1 + random.below(6)) {
      let digit = random.below(Int(radix.base))
      keys.append(
        digit < 10
          ? .digit(Key.Digit(digit)!)
          : .programmer(.hexDigit(Key.HexDigit(rawValue: UInt8(digit - 10))!)))
    }
    if random.chance(8) { keys.append(.programmer(.not)) }
    if random.chance(6) {
      keys.append(.programmer(.rotate(Key.Rotate.allCases[random.below(4)])))
    }
    if random.chance(3) {
      keys.append(.programmer(.bit(Key.Bit(random.below(wordSize.bits))!)))
    }
    if random.chance(5) { keys.append(.memory(memories[random.below(memories.count)])) }
    if depth > 0, random.chance(30) {
      keys.append(.scientific(.bracket(.close)))
      depth -= 1
    }
    if random.chance(15) {
      keys.append(.equal)
      if random.chance(25) { keys.append(.command(.clear)) }
    } else {
      keys.append(ops[random.below(ops.count)])
    }
  }
  keys.append(.equal)
}

/// A pure Scientific stream: `sci`, then stretches of 5–24 terms (``scientificStretch``).
func scientificStream(count: Int, seed: UInt64) -> [Key] {
  var random = SplitMix64(state: seed)
  var keys: [Key] = [.mode(.scientific)]
  keys.reserveCapacity(count + 256)
  while keys.count < count {
    scientificStretch(terms: 5 + random.below(20), into: &keys, random: &random)
  }
  keys.removeLast(keys.count - count)
  return keys
}

/// A pure Programmer stream: `prog`, then stretches of 5–24 terms (``programmerStretch``).
func programmerStream(count: Int, seed: UInt64) -> [Key] {
  var random = SplitMix64(state: seed)
  var keys: [Key] = [.mode(.programmer)]
  keys.reserveCapacity(count + 256)
  var radix = Key.Radix.dec
  var wordSize = Key.WordSize.qword
  while keys.count < count {
    programmerStretch(
      terms: 5 + random.below(20), into: &keys, radix: &radix, wordSize: &wordSize,
      random: &random)
  }
  keys.removeLast(keys.count - count)
  return keys
}

/// The three modes mixed: a Standard stretch (``keyStream(count:seed:)``, 20–59 keys), then a
/// Scientific or a Programmer one, each after its mode key; back to `std` four times in five.
func threeModeStream(count: Int, seed: UInt64) -> [Key] {
  var random = SplitMix64(state: seed)
  var keys: [Key] = []
  keys.reserveCapacity(count + 256)
  var wordSize = Key.WordSize.qword
  var mode = Key.Mode.standard
  while keys.count < count {
    if mode != .programmer {
      // Standard's keys are keys of Scientific mode too.
      keys += keyStream(count: 20 + random.below(40), seed: random.next())
    }
    if random.chance(50) {
      keys.append(.mode(.scientific))
      scientificStretch(terms: 5 + random.below(20), into: &keys, random: &random)
      mode = .scientific
    } else {
      keys.append(.mode(.programmer))
      var radix = Key.Radix.dec
      programmerStretch(
        terms: 5 + random.below(20), into: &keys, radix: &radix, wordSize: &wordSize,
        random: &random)
      mode = .programmer
    }
    if random.chance(80) {
      keys.append(.mode(.standard))
      mode = .standard
    }
  }
  keys.removeLast(keys.count - count)
  return keys
}

/// One stream's figures (SPEC §7).
struct StreamRow {
  var name: String
  var share: Double
  var apply: Double
  var seedApply: Double
  var bytesPerKey: Double
  var treeBytesPerKey: Double
  /// The branches of the tree: one per 1,000 keys (``densestBranchCount(keys:lines:)``).
  var treeBranches: Int
  var breakdown: History.StorageBreakdown
  var treeBreakdown: History.StorageBreakdown
  /// `:goto`'s median and the median replay of 16 keys, in µs (Scientific and Programmer).
  var goto: (median: Double, worst: Double, replay16: Double)?
  /// `:goto`'s median on the tree, in µs: jumps within a random branch (Scientific and
  /// Programmer), where a branch's first interval may replay its parent's keys.
  var treeGoto: Double?

  /// The `:goto` target: 50 µs plus the replay of 16 keys.
  var gotoTarget: Double? { goto.map { 50 + $0.replay16 } }
  var met: Bool {
    apply >= seedApply && bytesPerKey <= 2 && treeBytesPerKey <= 2
      && (goto.map { $0.median <= 50 + $0.replay16 } ?? true)
  }
}

/// Microseconds taken by each of `count` `:goto`s to a random step of a random branch of the
/// session's tree (the `:branch` before it not timed).
@inline(never) func timeTreeJumps(_ session: inout Session, count: Int, random: inout SplitMix64)
  -> [Double]
{
  var micros: [Double] = []
  micros.reserveCapacity(count)
  for _ in 0..<count {
    let branch = 1 + random.below(session.history.branchCount)
    try! session.perform(.branch(branch))
    let step = random.below(session.history.count + 1)
    let start = now()
    try! session.perform(.goto(.step(step)))
    let end = now()
    consume(session.state)
    micros.append(Double(end - start) / 1e3)
  }
  return micros
}

/// Microseconds taken to replay 16 keys from each of `count` random steps of the session's
/// current branch: the state there from the history, then the keys pressed as a jump replays
/// them (a line's first key after ``Calculator/startLine()``).
@inline(never) func timeReplays(_ session: Session, count: Int, random: inout SplitMix64)
  -> [Double]
{
  let history = session.history
  var micros: [Double] = []
  guard history.count > 16 else { return [0] }
  for _ in 0..<count {
    let start = random.below(history.count - 16)
    var state = history.state(at: start)
    let keys = (start + 1...start + 16).map { (history.key(at: $0), history.startsLine(at: $0)) }
    let begin = now()
    for (key, startsLine) in keys {
      if startsLine { state.startLine() }
      state.press(key)
    }
    let end = now()
    consume(state)
    micros.append(Double(end - begin) / 1e3)
  }
  return micros
}

/// The mode, radix and word size a stream's line is typed on: the calculator's keypad as its
/// public API shows it (`mode`, `radix`, `wordSize`), followed through a line's mode, radix and
/// word-size keys, as the engine's keypad follows them (the stream's keys are all accepted).
struct StreamKeypad {
  var mode = Key.Mode.standard
  var radix = Key.Radix.dec
  var wordSize = Key.WordSize.qword

  /// Follows the mode, radix and word-size keys of `line`.
  mutating func follow(_ line: ArraySlice<Key>) {
    for key in line {
      switch key {
      case .mode(let next):
        if next == .programmer { radix = .dec }
        mode = next
      case .programmer(.radix(let next)): radix = next
      case .programmer(.wordSize(let next)): wordSize = next
      default: break
      }
    }
  }
}

/// As ``recordTree(_:total:branches:random:)``, for a stream whose lines need a mode (and in
/// Programmer mode a radix and word size): where a branch starts in another, a line of the
/// mode, radix and word-size keys that the next line needs comes first (`prog`, the radix, the
/// word size, and the mode when it is another).
@inline(never) func recordModalTree(
  _ lines: [ArraySlice<Key>], total: Int, branches: Int,
  random: inout SplitMix64
) -> Session {
  // The keypad each line needs: the one after the lines before it.
  var keypads: [StreamKeypad] = []
  keypads.reserveCapacity(lines.count)
  var keypad = StreamKeypad()
  for line in lines {
    keypads.append(keypad)
    keypad.follow(line)
  }
  var session = Session()
  var next = 0
  for number in 1...branches {
    if number > 1 {
      try! session.perform(.branch(1 + random.below(session.history.branchCount)))
      try! session.perform(.goto(.step(random.below(session.history.count))))
    }
    var applied = 0
    while applied < total / branches {
      if number > 1 && applied == 0 || next == 0 {
        let needed = keypads[next]
        let have = session.state
        // The word size persists across modes: a later `prog` line's bit keys need it.
        if have.mode != needed.mode || have.wordSize != needed.wordSize
          || (needed.mode == .programmer && have.radix != needed.radix)
        {
          var preamble: [Key] = [
            .mode(.programmer), .programmer(.radix(needed.radix)),
            .programmer(.wordSize(needed.wordSize)),
          ]
          if needed.mode != .programmer { preamble.append(.mode(needed.mode)) }
          try! session.perform(.keys(preamble[...]))
        }
      }
      try! session.perform(.keys(lines[next]))
      applied += lines[next].count
      next = (next + 1) % lines.count
    }
  }
  return session
}

/// The number of branches of the densest tree SPEC §7's history-memory figure allows for `keys`
/// keys, "at most one branch per 1,000 keys" (10,000 at 10,000,000 keys), and at most one per
/// two of the `lines` (each branch gets whole lines).
func densestBranchCount(keys: Int, lines: Int) -> Int {
  max(1, min(keys / 1_000, lines / 2))
}

/// The row of `keys`: apply (best of `runs`, taking turns with the seed's model), memory on one
/// branch and on the densest tree (one branch per 1,000 keys, random forks), and with `goto` the jumps and the replay of 16 keys.
func streamRow(
  _ name: String, keys: [Key], runs: Int, goto: Bool, seed: UInt64
) -> StreamRow {
  let keyLines = lines(of: keys)
  var session = Session()
  var seedModel = SeedCalculatorModel()
  var ours = Double.infinity
  var theirs = Double.infinity
  for _ in 0..<runs {
    session = Session()
    seedModel = SeedCalculatorModel()
    ours = min(ours, seconds { session = record(keyLines) }.wall)
    theirs = min(theirs, seconds { seedModel = seedRecord(keys) }.wall)
  }
  consume(seedModel.brain)
  var random = SplitMix64(state: seed)
  let treeBranches = densestBranchCount(keys: keys.count, lines: keyLines.count)
  var tree = recordModalTree(
    keyLines, total: keys.count, branches: treeBranches, random: &random)
  let share =
    Double(keys.filter { !$0.isStandardKey }.count) / Double(max(1, keys.count))
  var row = StreamRow(
    name: name, share: share, apply: Double(keys.count) / ours,
    seedApply: Double(keys.count) / theirs,
    bytesPerKey: Double(session.history.storageBytes) / Double(session.history.recordedCount),
    treeBytesPerKey: Double(tree.history.storageBytes) / Double(tree.history.recordedCount),
    treeBranches: treeBranches,
    breakdown: session.history.storageBreakdown, treeBreakdown: tree.history.storageBreakdown)
  consume(tree.state)
  if goto { row.treeGoto = median(timeTreeJumps(&tree, count: 2_000, random: &random)) }
  tree = Session()
  if goto {
    let jumps = timeJumps(&session, count: 2_000, acrossBranches: false, random: &random)
    let replays = timeReplays(session, count: 2_000, random: &random)
    row.goto = (median(jumps), jumps.max() ?? 0, median(replays))
  }
  return row
}

extension Key {
  /// Whether the key is one of Standard mode's (the book's keypad).
  var isStandardKey: Bool {
    switch self {
    case .digit, .dot, .op, .equal, .command, .unary, .memory: true
    case .scientific, .angle, .mode,
      .reference, .formula, .dateLine, .programmer:
      false
    }
  }
}

/// The streams' rows, for people: rates against the seed's, bytes per key with their parts, and
/// `:goto` against 50 µs plus the replay of 16 keys.
func printStreams(_ rows: [StreamRow], verbose: Bool) {
  let mega = 1e6
  print(
    "streams of \(grouped(streamKeyCount)) keys (SPEC §7: history ≤ 2 bytes/key on one branch"
      + " and on one branch per 1,000 keys; apply ≥ the seed's model; Scientific :goto ≤ 50 µs + 16 keys' replay)"
  )
  for row in rows {
    print(
      "  \(row.name) (\(fixed(100 * row.share, 0))% non-Standard keys):"
        + " apply \(fixed(row.apply / mega, 2)) M keys/s (seed \(fixed(row.seedApply / mega, 2)),"
        + " target ≥ seed); \(fixed(row.bytesPerKey, 3)) bytes/key,"
        + " on \(grouped(row.treeBranches)) branches"
        + " \(fixed(row.treeBytesPerKey, 3)) (target ≤ 2)")
    if let goto = row.goto {
      print(
        "    :goto median \(fixed(goto.median, 2)) µs, worst \(fixed(goto.worst, 1)) µs"
          + " (target ≤ 50 + \(fixed(goto.replay16, 2)) µs, the median replay of 16 keys);"
          + " on the tree \(fixed(row.treeGoto ?? 0, 2)) µs")
    }
    if verbose {
      for (label, parts) in [
        ("one branch", row.breakdown), ("\(grouped(row.treeBranches)) branches", row.treeBreakdown),
      ] {
        print("    \(label): \(parts.description)")
      }
    }
  }
}

/// The keys of each stream: `--keys`, as the Standard rows.
nonisolated(unsafe) var streamKeyCount = 10_000_000

/// The four streams' rows: Scientific, Programmer, mixed (Standard/Scientific) and three-mode,
/// each applied `runs` times (the best taken).
func measureStreams(keyCount: Int, seed: UInt64, runs: Int) -> [StreamRow] {
  streamKeyCount = keyCount
  return [
    streamRow(
      "Scientific", keys: scientificStream(count: keyCount, seed: seed ^ 0x5C15), runs: runs,
      goto: true, seed: seed ^ 0x6070),
    streamRow(
      "Programmer", keys: programmerStream(count: keyCount, seed: seed ^ 0x960), runs: runs,
      goto: true, seed: seed ^ 0x6071),
    streamRow(
      "mixed std/sci", keys: mixedStream(count: keyCount, seed: seed ^ 0x5C1), runs: runs,
      goto: false, seed: seed ^ 0x6072),
    streamRow(
      "three-mode", keys: threeModeStream(count: keyCount, seed: seed ^ 0x3D0), runs: runs,
      goto: false, seed: seed ^ 0x6073),
  ]
}

/// The streams' fields for the summary line.
func streamsSummary(_ rows: [StreamRow]) -> String {
  let names = ["sci", "prog", "mixed2", "mixed3", "std"]
  return zip(names, rows).map { name, row in
    " \(name)_apply=\(fixed(row.apply / 1e6, 2)) \(name)_seed_apply=\(fixed(row.seedApply / 1e6, 2))"
      + " \(name)_bytes_per_key=\(fixed(row.bytesPerKey, 3))"
      + " \(name)_tree_bytes_per_key=\(fixed(row.treeBytesPerKey, 3))"
      + (row.goto.map {
        " \(name)_goto_us=\(fixed($0.median, 2)) \(name)_goto_target_us=\(fixed(50 + $0.replay16, 2))"
      } ?? "")
  }.joined()
}
