import CalcTestSupport
import CalculatorEngine
import Foundation
import Testing

/// `Timeline` against the book's model (`SeedCalculatorModel`), which replays from scratch and is
/// obviously right: whatever a session does, both must agree on everything a person can see.
///
/// The random tests are reproducible: every sequence has its own seed, printed in any failure.
/// `TIMELINE_TEST_SEED=<seed> swift test --filter TimelineTests` replays that one sequence.
@Suite struct TimelineTests {
  // MARK: - Randomness

  /// The seeded generator (SplitMix64), with the key distribution these tests want, so that a
  /// failing sequence can be replayed from the seed in its message.
  struct Random: RandomNumberGenerator {
    var generator: SplitMix64

    init(state: UInt64) {
      generator = SplitMix64(state: state)
    }

    var state: UInt64 { generator.state }

    mutating func next() -> UInt64 { generator.next() }

    mutating func int(_ range: ClosedRange<Int>) -> Int { generator.int(range) }

    mutating func chance(_ percent: Int) -> Bool { generator.chance(percent) }

    /// A key, weighted so that numbers have several digits and every other key, including the
    /// rare ones that reach the error, percent and backspace paths, occurs in every few dozen.
    mutating func key() -> CalculatorButtonItem {
      Random.weightedKeys[int(0...(Random.weightedKeys.count - 1))]
    }

    /// Each key as many times as its weight: a draw is one index, which matters in a debug build.
    static let weightedKeys: [CalculatorButtonItem] = {
      let weights: [(CalculatorButtonItem, Int)] =
        CalculatorButtonItem.Digit.allCases.map { (.digit($0), 4) }
        + CalculatorButtonItem.Op.allCases.map { (.op($0), 4) }
        + [
          (.dot, 5), (.equal, 7), (.command(.percent), 4), (.command(.flip), 4),
          (.command(.clear), 2), (.command(.clearEntry), 3), (.command(.backspace), 5),
        ]
        + CalculatorButtonItem.Unary.allCases.map { (.unary($0), 2) }
        + CalculatorButtonItem.Memory.allCases.map { (.memory($0), 2) }
      return weights.flatMap { key, weight in Array(repeating: key, count: weight) }
    }()
  }

  /// The seed of sequence `index`: distinct, and scattered so that neighbours share nothing.
  static func sequenceSeed(_ index: Int) -> UInt64 {
    var mixer = Random(state: 0x7133_11E5 &+ UInt64(index))
    return mixer.next()
  }

  // MARK: - Model check

  /// One operation of a random session, kept for failure messages (formatted only on failure:
  /// building strings for every step would dominate a debug run).
  enum Operation: CustomStringConvertible {
    case apply(CalculatorButtonItem)
    case move(Int, kind: String)
    case undo(Int)
    case redo(Int)

    var description: String {
      switch self {
      case .apply(let key): "apply \(key.canonical)"
      case .move(let target, let kind): "\(kind) to \(target)"
      case .undo(let steps): "undo(\(steps))"
      case .redo(let steps): "redo(\(steps))"
      }
    }
  }

  /// A timeline and the seed model driven by the same operations, compared after each one.
  struct Pair {
    var timeline = Timeline()
    var seed = SeedCalculatorModel()
    /// Names the sequence in failure messages.
    let sequenceSeed: UInt64
    /// Every operation so far, newest last.
    var log: [Operation] = []
    /// Reused display buffers, so that comparing displays allocates nothing.
    var display: [UInt8] = []
    var seedDisplay: [UInt8] = []

    init(sequenceSeed: UInt64) { self.sequenceSeed = sequenceSeed }

    mutating func apply(_ key: CalculatorButtonItem) {
      log.append(.apply(key))
      timeline.apply(key)
      seed.apply(key)
    }

    /// An absolute move, which may be out of range: then the timeline must throw, naming the
    /// valid range, and change nothing, and the seed (which has no such check) is left alone.
    mutating func move(to target: Int, kind: String) -> Bool {
      log.append(.move(target, kind: kind))
      let inRange = (0...timeline.count).contains(target)
      let before = timeline
      do {
        try timeline.move(to: target)
        guard inRange else { return fail("move(to: \(target)) did not throw") }
        seed.keepHistory(upTo: target)
      } catch {
        let expected = TimelineError.positionOutOfRange(target, valid: 0...before.count)
        guard !inRange, error == expected else {
          return fail(
            "move(to: \(target)) threw \(error), expected \(inRange ? "no error" : "\(expected)")")
        }
        guard sameState(timeline, before) else { return fail("a failed move changed the timeline") }
      }
      return true
    }

    mutating func undo(_ steps: Int) {
      log.append(.undo(steps))
      let target = seed.slidingIndex - min(max(steps, 0), seed.slidingIndex)
      timeline.undo(steps)
      seed.keepHistory(upTo: target)
    }

    mutating func redo(_ steps: Int) {
      log.append(.redo(steps))
      let target = seed.slidingIndex + min(max(steps, 0), seed.totalCount - seed.slidingIndex)
      timeline.redo(steps)
      seed.keepHistory(upTo: target)
    }

    /// Compares everything observable; records an issue and returns false at the first
    /// difference, so that one bug gives one message.
    ///
    /// After every step: the brain, position, count, and the keys where a step can change them
    /// (the last key, both sides of the position). With `display`, also both displays; with
    /// `allKeys`, every key. The caller asks for both after every jump and at the end, for the
    /// display every few applies and for all keys every few dozen: comparing all keys after each
    /// of ~10⁶ steps would make the test quadratic, and the display, a pure function of the
    /// brain compared first, is the costliest part of a step in a debug build.
    mutating func check(display checksDisplay: Bool = true, allKeys: Bool = true) -> Bool {
      guard timeline.calculator == seed.brain else {
        return fail("brain \(timeline.calculator) ≠ seed's \(seed.brain)")
      }
      guard timeline.position == seed.slidingIndex, timeline.position == seed.history.count else {
        return fail("position \(timeline.position) ≠ seed's \(seed.slidingIndex)")
      }
      guard timeline.count == seed.totalCount else {
        return fail("count \(timeline.count) ≠ seed's \(seed.totalCount)")
      }
      guard timeline.isAtEnd == seed.temporaryKept.isEmpty,
        timeline.isEmpty == (seed.totalCount == 0)
      else { return fail("isAtEnd/isEmpty disagree with the seed") }
      if let last = seed.history.last, timeline.key(at: timeline.position - 1) != last {
        return fail("key before the position differs from the seed's \(last)")
      }
      if let next = seed.temporaryKept.first, timeline.key(at: timeline.position) != next {
        return fail("key after the position differs from the seed's \(next)")
      }
      if let last = seed.temporaryKept.last, timeline.key(at: timeline.count - 1) != last {
        return fail("last kept key differs from the seed's \(last)")
      }
      if allKeys {
        // By index: iterating `keys` generically costs a metadata lookup per key when unoptimized.
        for index in 0..<timeline.count {
          let expected =
            index < seed.history.count
            ? seed.history[index] : seed.temporaryKept[index - seed.history.count]
          guard timeline.key(at: index) == expected else {
            return fail("key \(index) is \(timeline.key(at: index)), seed's is \(expected)")
          }
        }
      }
      guard checksDisplay else { return true }
      display.removeAll(keepingCapacity: true)
      seedDisplay.removeAll(keepingCapacity: true)
      DisplayFormat.posix.append(timeline.calculator.brain, to: &display)
      DisplayFormat.posix.append(seed.brain.brain, to: &seedDisplay)
      guard display == seedDisplay else {
        return fail(
          "display \(String(decoding: display, as: UTF8.self))"
            + " ≠ seed's \(String(decoding: seedDisplay, as: UTF8.self))")
      }
      return true
    }

    func fail(_ message: String) -> Bool {
      let seedText = "0x" + String(sequenceSeed, radix: 16)
      let recent = log.suffix(12).map(\.description).joined(separator: "; ")
      Issue.record(
        """
        sequence seed \(seedText), step \(log.count): \(message)
          last operations: \(recent)
          keys: \(KeyText.text(of: seed.history + seed.temporaryKept)) at \(seed.slidingIndex)
          replay: TIMELINE_TEST_SEED=\(seedText) swift test --filter TimelineTests
        """)
      return false
    }
  }

  /// Whether two timelines are indistinguishable from outside.
  static func sameState(_ a: Timeline, _ b: Timeline) -> Bool {
    a.calculator == b.calculator && a.position == b.position && a.count == b.count
      && a.keys.elementsEqual(b.keys)
  }

  /// What a random session covered, for checking the generator's promises.
  struct Coverage {
    var keys = Set<CalculatorButtonItem>()
    var longest = 0
    var jumps = 0
    var failedMoves = 0
    var applies = 0
    var discards = 0
    var errors = 0
    /// Jumps that landed exactly on a snapshot after the first (position 256, 512).
    var checkpointLandings = 0
  }

  /// One random session: keys up to a random length (0…600: 12% of the sessions are longer
  /// than a checkpoint interval and a quarter of those cross the second checkpoint), interleaved
  /// with jumps of every kind, and checked after every step.
  static func runSequence(seed sequenceSeed: UInt64, into coverage: inout Coverage) {
    var random = Random(state: sequenceSeed)
    var pair = Pair(sequenceSeed: sequenceSeed)
    let isLong = random.chance(12)
    let length = isLong ? random.int(257...600) : random.int(0...48)
    // Both models replay on every jump (the seed from scratch, the timeline from a checkpoint,
    // slow in a debug build), so a session gets a handful of them whatever its length: enough
    // to land on every side of the checkpoints, yet linear overall.
    let jumpPercent = length == 0 ? 50 : min(40, (isLong ? 600 : 250) / length)
    var operations = 0
    var appliesSinceDisplayCheck = 0
    var appliesSinceKeysCheck = 0
    guard pair.check() else { return }
    while pair.timeline.count < length && operations < 3 * length + 8 {
      operations += 1
      let count = pair.timeline.count
      let position = pair.timeline.position
      if !random.chance(jumpPercent) {
        let key = random.key()
        coverage.keys.insert(key)
        coverage.applies += 1
        if position < count { coverage.discards += 1 }
        pair.apply(key)
        appliesSinceDisplayCheck += 1
        appliesSinceKeysCheck += 1
        if pair.timeline.calculator.brain.isError { coverage.errors += 1 }
      } else {
        coverage.jumps += 1
        appliesSinceDisplayCheck = 16
        appliesSinceKeysCheck = 128
        switch random.int(0...9) {
        case 0...2:
          // Anywhere, with the ends and both sides of snapshots likelier than by chance.
          let interval = Timeline.checkpointInterval
          let nearSnapshot = random.int(-1...1)
          let target =
            switch random.int(0...6) {
            case 0: 0
            case 1: count
            case 2, 3: min(count, max(0, (count / interval) * interval + nearSnapshot))
            case 4: min(count, interval * random.int(1...2) + nearSnapshot)
            default: random.int(0...count)
            }
          if target > 0 && target % interval == 0 { coverage.checkpointLandings += 1 }
          guard pair.move(to: target, kind: "move") else { return }
        case 3:
          let target = position + random.int(-40...40)
          if !(0...count).contains(target) { coverage.failedMoves += 1 }
          guard pair.move(to: target, kind: "relative move") else { return }
        case 4:
          coverage.failedMoves += 1
          let target = random.chance(50) ? count + random.int(1...3) : -random.int(1...3)
          guard pair.move(to: target, kind: "out-of-range move") else { return }
        case 5, 6:
          pair.undo(random.chance(20) ? random.int(-2...(position + 3)) : random.int(0...30))
        default:
          pair.redo(random.chance(20) ? random.int(-2...(count + 3)) : random.int(0...30))
        }
      }
      let display = appliesSinceDisplayCheck >= 16
      let allKeys = appliesSinceKeysCheck >= 128
      if display { appliesSinceDisplayCheck = 0 }
      if allKeys { appliesSinceKeysCheck = 0 }
      guard pair.check(display: display, allKeys: allKeys) else { return }
    }
    guard pair.check() else { return }
    coverage.longest = max(coverage.longest, pair.timeline.count)
  }

  static let sequenceCount = 10_000
  static let shards = 8

  /// ≥ 10,000 random sessions, in shards so that they run in parallel.
  @Test(arguments: 0..<shards)
  func agreesWithSeedModel(shard: Int) {
    var coverage = Coverage()
    if let text = ProcessInfo.processInfo.environment["TIMELINE_TEST_SEED"] {
      let hex = text.hasPrefix("0x")
      if shard == 0, let seed = UInt64(hex ? String(text.dropFirst(2)) : text, radix: hex ? 16 : 10)
      {
        Self.runSequence(seed: seed, into: &coverage)
      }
      return
    }
    for index in stride(from: shard, to: Self.sequenceCount, by: Self.shards) {
      Self.runSequence(seed: Self.sequenceSeed(index), into: &coverage)
    }
    // The generator's promises, so that a change to it cannot quietly weaken the test.
    #expect(coverage.keys == Set(CalculatorButtonItem.allKeys), "every key occurs")
    #expect(coverage.longest > 2 * Timeline.checkpointInterval, "sessions cross both checkpoints")
    #expect(coverage.jumps > 2_000 && coverage.checkpointLandings > 5)
    #expect(coverage.failedMoves > 100 && coverage.discards > 100 && coverage.errors > 100)
  }

  // MARK: - Other properties

  /// A random timeline of `length` keys, at a random position.
  static func randomTimeline(_ random: inout Random, length: Int) -> Timeline {
    var timeline = Timeline()
    for _ in 0..<length { timeline.apply(random.key()) }
    try! timeline.move(to: random.int(0...length))
    return timeline
  }

  @Test func undoThenRedoIsIdentity() {
    var random = Random(state: 0xC0FF_EE00)
    for round in 0..<150 {
      let timeline = Self.randomTimeline(&random, length: random.int(0...600))
      for _ in 0..<10 {
        let steps = random.chance(10) ? timeline.position : random.int(0...timeline.position)
        var moved = timeline
        moved.undo(steps)
        #expect(moved.position == timeline.position - steps, "round \(round)")
        moved.redo(steps)
        #expect(Self.sameState(moved, timeline), "round \(round): undo(\(steps)) then redo")
      }
    }
  }

  @Test func brainAtEveryPositionIsTheReplay() {
    var random = Random(state: 0xB4A1_2000)
    for round in 0..<25 {
      let timeline = Self.randomTimeline(&random, length: random.int(0...600))
      let keys = Array(timeline.keys)
      var replayed = Calculator.initial
      for position in 0...keys.count {
        if position > 0 { replayed = replayed.apply(keys[position - 1]) }
        #expect(
          timeline.calculator(at: position) == replayed, "round \(round), position \(position)")
      }
      // The incremental replay above leans on `apply` being pure; spot-check from scratch.
      for _ in 0..<5 {
        let position = random.int(0...keys.count)
        #expect(
          timeline.calculator(at: position)
            == Calculator.initial.applying(keys.prefix(position)))
      }
    }
  }

  // MARK: - Units

  static func keys(_ text: String) -> [CalculatorButtonItem] { try! KeyText.keys(in: text) }

  static func display(_ timeline: Timeline) -> String {
    DisplayFormat.posix.text(for: timeline.calculator.brain)
  }

  @Test func emptyTimeline() throws {
    var timeline = Timeline()
    #expect(timeline.isEmpty && timeline.isAtEnd)
    #expect(timeline.count == 0 && timeline.position == 0)
    #expect(timeline.calculator == .initial && Self.display(timeline) == "0")
    #expect(timeline.keys.isEmpty)
    timeline.undo()
    timeline.redo(3)
    try timeline.move(to: 0)
    #expect(timeline.position == 0 && timeline.calculator == .initial)
    #expect(throws: TimelineError.positionOutOfRange(1, valid: 0...0)) {
      try timeline.move(to: 1)
    }
    var steps: [Int] = []
    timeline.forEachStep { position, key, brain in
      steps.append(position)
      #expect(key == nil && brain == .initial)
    }
    #expect(steps == [0])
  }

  @Test func applyInThePastDiscardsTheFuture() throws {
    var timeline = try Timeline(keys: Self.keys("98-3+2*4="))
    var seed = SeedCalculatorModel()
    for key in Self.keys("98-3+2*4=") { seed.apply(key) }
    try timeline.move(to: 4)
    seed.keepHistory(upTo: 4)
    #expect(Self.display(timeline) == "3" && timeline.count == 9 && !timeline.isAtEnd)
    timeline.apply(.op(.multiply))
    seed.apply(.op(.multiply))
    #expect(KeyText.text(of: timeline.keys) == "98-3*")
    #expect(timeline.isAtEnd && timeline.count == 5 && timeline.position == 5)
    #expect(Array(timeline.keys) == seed.history && seed.temporaryKept.isEmpty)
    #expect(timeline.calculator == seed.brain)
    timeline.redo()
    #expect(timeline.position == 5, "the discarded future cannot be redone")
    timeline.apply(Self.keys("2="))
    #expect(Self.display(timeline) == "190")
  }

  @Test func moveOutOfRangeThrowsAndChangesNothing() throws {
    var timeline = try Timeline(keys: Self.keys("12+345-6=="), position: 7)
    let before = timeline
    for target in [12, 11, -1, Int.min, Int.max] {
      let error = #expect(throws: TimelineError.self) { try timeline.move(to: target) }
      #expect(error == .positionOutOfRange(target, valid: 0...10))
      #expect(Self.sameState(timeline, before))
    }
    do {
      try timeline.move(to: 12)
      Issue.record("move(to: 12) did not throw")
    } catch {
      #expect(error.description == "position 12 is out of range 0…10")
      #expect("\(error)" == "position 12 is out of range 0…10")
    }
    try timeline.move(to: 10)
    #expect(timeline.isAtEnd && Self.display(timeline) == "345")
    try timeline.move(to: 0)
    #expect(timeline.calculator == .initial)
  }

  @Test func undoAndRedoClampAtBothEnds() throws {
    var timeline = try Timeline(keys: Self.keys("1+2=3"))
    timeline.redo(5)
    #expect(timeline.position == 5)
    timeline.undo(2)
    #expect(timeline.position == 3 && Self.display(timeline) == "2")
    timeline.undo(100)
    #expect(timeline.position == 0 && timeline.calculator == .initial)
    timeline.undo()
    #expect(timeline.position == 0)
    timeline.redo()
    #expect(timeline.position == 1 && Self.display(timeline) == "1")
    timeline.redo(100)
    #expect(timeline.position == 5 && Self.display(timeline) == "3")
    timeline.undo(0)
    timeline.undo(-3)
    timeline.redo(-3)
    #expect(timeline.position == 5 && timeline.count == 5)
  }

  @Test func resetEmptiesEverything() throws {
    var timeline = try Timeline(keys: Array(repeating: Self.keys("12+"), count: 200).joined())
    try timeline.move(to: 300)
    timeline.reset()
    #expect(timeline.isEmpty && timeline.position == 0 && timeline.calculator == .initial)
    #expect(Self.sameState(timeline, Timeline()))
    timeline.apply(Self.keys("7*6="))
    #expect(Self.display(timeline) == "42" && timeline.count == 4)
  }

  @Test func forEachStepVisitsEveryPosition() throws {
    let keys = Self.keys("12.5*4=~%c9/0=") + Array(repeating: Self.keys("1+"), count: 300).joined()
    let timeline = try Timeline(keys: keys, position: 6)
    var visited: [Int] = []
    var replayed = Calculator.initial
    timeline.forEachStep { position, key, brain in
      visited.append(position)
      #expect(key == (position == 0 ? nil : keys[position - 1]))
      if let key { replayed = replayed.apply(key) }
      #expect(brain == replayed && brain == timeline.calculator(at: position))
    }
    #expect(visited == Array(0...keys.count))
    #expect(timeline.position == 6, "visiting does not move")
  }

  @Test func initWithKeysAndPosition() throws {
    let keys = Self.keys("2*3=+1=")
    let atEnd = try Timeline(keys: keys)
    #expect(atEnd.isAtEnd && atEnd.count == 7 && Self.display(atEnd) == "7")
    #expect(Array(atEnd.keys) == keys && atEnd.key(at: 1) == .op(.multiply))
    let inside = try Timeline(keys: keys, position: 3)
    #expect(inside.position == 3 && inside.count == 7 && Self.display(inside) == "3")
    var applied = Timeline()
    applied.apply(keys)
    try applied.move(to: 3)
    #expect(Self.sameState(inside, applied))
    #expect(throws: TimelineError.positionOutOfRange(8, valid: 0...7)) {
      try Timeline(keys: keys, position: 8)
    }
    let empty = try Timeline(keys: [], position: 0)
    #expect(Self.sameState(empty, Timeline()))
  }

  @Test func checkpointBoundaries() throws {
    // Exactly at, just before and just after the snapshots, where an off-by-one would hide:
    // jump there, apply (discarding the future and the snapshots in it), then record past the
    // snapshots again, and check every position against a replay from scratch.
    let all = CalculatorButtonItem.allKeys
    let keys = (0..<600).map { all[($0 * 7 + $0 / 13) % all.count] }
    let more = (0..<400).map { all[($0 * 11 + 5) % all.count] }
    let timeline = try Timeline(keys: keys)
    for position in [0, 1, 255, 256, 257, 511, 512, 513, 599, 600] {
      var moved = timeline
      try moved.move(to: position)
      #expect(moved.calculator == Calculator.initial.applying(keys.prefix(position)))
      moved.apply(more)
      let expected = Array(keys.prefix(position)) + more
      #expect(moved.count == expected.count && Array(moved.keys) == expected)
      // `brain(at:)` near every snapshot, near the jump and here and there (each call replays
      // up to 255 keys, which adds up in a debug build).
      var replayed = Calculator.initial
      for index in 0...expected.count {
        if index > 0 { replayed = replayed.apply(expected[index - 1]) }
        let offset = index % Timeline.checkpointInterval
        guard offset <= 2 || offset >= 254 || abs(index - position) <= 2 || index % 17 == 0
        else { continue }
        #expect(moved.calculator(at: index) == replayed, "from \(position), at \(index)")
      }
      #expect(moved.calculator == replayed)
    }
  }

  @Test func reservingCapacityChangesNothingVisible() throws {
    var reserved = Timeline()
    reserved.reserveCapacity(1_000)
    let all = CalculatorButtonItem.allKeys
    let keys = (0..<700).map { all[($0 * 5 + 3) % all.count] }
    reserved.apply(keys)
    #expect(Self.sameState(reserved, try Timeline(keys: keys)))
    #expect(reserved.storageBytes >= reserved.count)
  }
}
