import CalcTestSupport
import CalculatorEngine
import Testing

/// `:edit`, `:insert` and `:delete` read the old branch in place, and once the replay meets the
/// old branch they apply the later lines of plain keys straight from its codes
/// (`History.applyLines(of:starts:_:)`). The new branch must be what retyping its lines gives:
/// the same lines and notes, the same state at every position (the snapshots included), and the
/// reported displays those of its lines; on streams whose `AC`, `=` and memory keys make the
/// two meet, with `$N` lines (replayed from the new state), forks inside lines, Scientific lines
/// and notes.
@Suite struct RewriteInPlaceTests {

  /// A line of the stream: ``RewriteOldDisplaysTests/line(_:number:)``'s, or now and then one
  /// that switches to Scientific mode (and back) around a number.
  static func line(_ random: inout SplitMix64, number: Int) -> TypedKeys {
    guard random.chance(4) else { return RewriteOldDisplaysTests.line(&random, number: number) }
    var keys = TypedKeys()
    keys.append(.mode(random.chance(50) ? .scientific : .standard))
    keys.append(.digit(Key.Digit(rawValue: UInt8(1 + random.below(9)))!))
    if random.chance(50) { keys.append(.command(.clear)) }
    keys.append(.digit(Key.Digit(rawValue: UInt8(random.below(10)))!))
    keys.append(random.chance(30) ? .equal : .op(Key.Op.allCases[random.below(4)]))
    return keys
  }

  /// The checks of a rewritten session: its invariants, the state at every position against a
  /// replay of the prefix, and against a session that typed the same lines afresh.
  static func expectRetyped(
    _ session: Session, results: [Session.Rewrite.Result], every stride: Int = 1, _ comment: String
  ) throws {
    let history = session.history
    history._checkInvariants()
    // The state at each position (a snapshot and a replay) is the prefix replayed key by key.
    var replayed: [History.State] = []
    history.forEachStep { _, _, state in replayed.append(state) }
    for position in Swift.stride(from: 0, through: history.count, by: stride) {
      let state = history.state(at: position)
      #expect(state == replayed[position], "position \(position): \(comment)")
      #expect(state.display == replayed[position].display, "position \(position): \(comment)")
    }
    // Retyped: the same lines, the same states, the same displays.
    let lines = history.lines()
    var retyped = Session()
    for line in lines { try retyped.perform(.keys(line.keys)) }
    #expect(retyped.history.lines().map(\.keys) == lines.map(\.keys), "\(comment)")
    #expect(retyped.history.count == history.count, "\(comment)")
    var position = 0
    retyped.history.forEachStep { _, _, state in
      #expect(state == replayed[position], "position \(position) retyped: \(comment)")
      #expect(state.display == replayed[position].display, "position \(position): \(comment)")
      position += 1
    }
    // The results are the new lines' displays, after each of the last lines.
    let displays = history.displays(after: lines[...].suffix(results.count))
    #expect(results.map(\.new) == displays, "\(comment)")
    #expect(results.map(\.step) == lines.suffix(results.count).map(\.end), "\(comment)")
  }

  /// 40 random sessions and changes (80 with `CALC_LONG_TESTS=1`); the floors of changes
  /// checked and of changes that meet the old branch are fractions of that (50 and 20 at 80).
  @Test func aChangedPastIsWhatRetypingGives() throws {
    var random = SplitMix64(state: 0xB_017_C0DE5)
    var (checked, longSame) = (0, 0)
    let rounds = TestSize.count(short: 40, long: 80)
    for _ in 0..<rounds {
      var session = Session()
      let count = 2 + random.below(100)
      for number in 1...count {
        try session.perform(.keys(Self.line(&random, number: number)))
        if random.chance(5) { try session.perform(.note(line: number, text: "n\(number)")) }
      }
      // A second branch now and then, from inside a line or its end: the old lines cross a fork.
      if random.chance(30) {
        let lines = session.history.lines()
        let at = random.below(lines.count)
        try session.perform(.goto(.step(lines[at].start + 1 + random.below(lines[at].keys.count))))
        for number in (at + 2)...(at + 2 + random.below(40)) {
          try session.perform(.keys(Self.line(&random, number: number)))
        }
      }
      let lines = session.history.lines()
      let number = 1 + random.below(lines.count)
      let (command, firstLater): (Session.Command, Int)
      switch random.below(4) {
      case 0, 1:
        command = .edit(
          line: number, keys: RewriteOldDisplaysTests.variant(of: lines[number - 1].keys, &random))
        firstLater = number
      case 2:
        command = .insert(line: number, keys: Self.line(&random, number: number))
        firstLater = number - 1
      default:
        command = .delete(line: number)
        firstLater = number
      }
      let comment = "\(command) after \(lines.map { KeyText.text(of: $0.keys) })"
      guard case .rewrote(let rewrite) = try? session.perform(command), !rewrite.isUnchanged,
        rewrite.newBranch != nil
      else { continue }
      try Self.expectRetyped(session, results: rewrite.results, comment)
      // The later lines keep their notes, as they keep their keys but for their `$N`.
      let now = session.history.lines()
      let later = lines[firstLater...]
      #expect(now.suffix(later.count).map(\.note) == later.map(\.note), "\(comment)")
      checked += 1
      // The two met for good when the last displays are the old ones.
      if rewrite.results.count > 5, rewrite.results.suffix(5).allSatisfy({ $0.old == $0.new }) {
        longSame += 1
      }
    }
    #expect(checked > rounds * 5 / 8, "\(checked) of \(rounds) changes checked")
    #expect(longSame > rounds / 4, "many changes meet the old branch (\(longSame))")
  }

  /// A long branch of lines that start afresh (`AC`): the replay meets it after the edited line,
  /// and the 5,000 lines after it, more than an interval of snapshots, come from its codes.
  @Test func aLongBranchMetAfterTheEditIsWhatRetypingGives() throws {
    var random = SplitMix64(state: 0x5_EED_ED17)
    var session = Session()
    for number in 1...5_000 {
      var keys = TypedKeys()
      keys.append(.command(.clear))
      // No memory key: the edited line's would keep the two apart.
      for key in RewriteOldDisplaysTests.line(&random, number: number).keys {
        if case .memory = key { continue }
        if !key.isReference { keys.append(key) }
      }
      try session.perform(.keys(keys))
    }
    try session.perform(.note(line: 4_321, text: "kept"))
    let before = session.history.lines()
    guard
      case .rewrote(let rewrite) = try session.perform(
        .edit(line: 2, keys: [.digit(Key.Digit(rawValue: 7)!)]))
    else {
      Issue.record("no rewrite")
      return
    }
    #expect(rewrite.results.count == 4_999)
    #expect(rewrite.results.dropFirst().allSatisfy { $0.old == $0.new })
    try Self.expectRetyped(session, results: rewrite.results, every: 97, "edit of line 2")
    #expect(session.history.lines().map(\.note) == before.map(\.note))
    #expect(session.history.lines()[2...].map(\.keys) == before[2...].map(\.keys))
  }
}
