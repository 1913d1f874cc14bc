import CalcTestSupport
import CalculatorEngine
import Testing

/// A jump's replay presses a branch's plain keys a line at a time, a typed number's digits at
/// once (``History/Branch/replayPlain(_:on:)``): the state at every step must still be the
/// replay of the prefix key by key, a line starting (SPEC rule 18) wherever one starts — also
/// where a line ends in the middle of a number and the next line goes on with digits, where a
/// mode key changes the mode inside a line, and on a branch with `$N` keys (the general path).
@Suite struct ReplayRunTests {
  /// The state at each step of the current branch, pressed key by key from a fresh calculator.
  static func keyByKey(_ history: History) -> [History.State] {
    var state = History.State.initial
    var states = [state]
    for step in stride(from: 1, through: history.count, by: 1) {
      if history.startsLine(at: step) { state.startLine() }
      state = state.apply(history.key(at: step))
      states.append(state)
    }
    return states
  }

  /// Random lines of digits, points, operators, `=`, unary keys, memory keys, AC and now and
  /// then a mode key (`sci`, `std`), many of them ending inside a number.
  static func randomLines(count: Int, seed: UInt64, modes: Bool) -> [[Key]] {
    var random = SplitMix64(state: seed)
    let others: [Key] = [
      .op(.plus), .op(.minus), .op(.multiply), .op(.divide), .equal, .unary(.squareRoot),
      .command(.flip), .command(.percent), .command(.clear), .command(.clearEntry),
      .command(.backspace), .memory(.add), .memory(.recall), .memory(.store),
    ]
    var lines: [[Key]] = []
    for _ in 0..<count {
      var line: [Key] = []
      for _ in 0..<(1 + random.below(6)) {
        if modes, random.chance(3) {
          line.append(.mode(random.chance(50) ? .scientific : .standard))
        } else if random.chance(60) {
          line.append(random.chance(10) ? .dot : .digit(Key.Digit(random.below(10))!))
        } else {
          line.append(others[random.below(others.count)])
        }
      }
      lines.append(line)
    }
    return lines
  }

  /// 400 random lines (700 with `CALC_LONG_TESTS=1`), about 1,400 keys (2,450): over three
  /// snapshot intervals either way.
  @Test(arguments: [(UInt64(1), false), (2, false), (3, true), (4, true)])
  func everyStepIsTheKeyByKeyReplay(seed: UInt64, modes: Bool) throws {
    var session = Session()
    // Over three snapshot intervals, so that jumps replay from snapshots (and marks).
    let count = TestSize.count(short: 400, long: 700)
    for line in Self.randomLines(count: count, seed: seed, modes: modes) {
      try session.perform(.keys(line))
    }
    #expect(session.history.count > 3 * History.snapshotInterval)
    let expected = Self.keyByKey(session.history)
    for step in stride(from: session.history.count, through: 0, by: -1) {
      try session.perform(.goto(.step(step)))
      #expect(session.state == expected[step], "step \(step)")
    }
  }

  /// Two lines that split a number: the jump to the second line's end shows the second
  /// number alone (a replay that typed the digits across the line's end would show `1234`).
  @Test func aNumberSplitAcrossLinesStaysTwoNumbers() throws {
    var session = Session()
    let first: [Key] = [.digit(.one), .digit(.two)]
    let second: [Key] = [.digit(.three), .digit(.four)]
    for _ in 0..<(History.snapshotInterval / 4) {
      try session.perform(.keys(first))
      try session.perform(.keys(second))
    }
    let plus: [Key] = [.op(.plus)]
    try session.perform(.keys(plus))
    let end = session.history.count
    try session.perform(.goto(.step(1)))
    try session.perform(.goto(.step(end - 1)))
    #expect(DisplayFormat.posix.text(for: session.state) == "34")
    try session.perform(.goto(.step(end)))
    #expect(DisplayFormat.posix.text(for: session.state) == "34")
  }

  /// A branch with a `$N` key replays through the general path: the same states.
  @Test func aBranchWithAReferenceLandsOnTheReplay() throws {
    var session = Session()
    let five: [Key] = [.digit(.five), .equal]
    try session.perform(.keys(five))
    for line in Self.randomLines(count: 200, seed: 9, modes: false) {
      try session.perform(.keys(line))
    }
    let clear: [Key] = [.command(.clear)]
    try session.perform(.keys(clear))
    try session.perform(
      .keys(TypedKeys([.digit(.two), .op(.plus), .reference, .equal], references: [1])))
    for line in Self.randomLines(count: 200, seed: 10, modes: false) {
      try session.perform(.keys(line))
    }
    var states: [History.State] = []
    for step in 0...session.history.count {
      try session.perform(.goto(.step(step)))
      states.append(session.state)
    }
    // Twice the same jumps, from elsewhere: the same states.
    for step in stride(from: session.history.count, through: 0, by: -7) {
      try session.perform(.goto(.step(step)))
      #expect(session.state == states[step], "step \(step)")
    }
  }
}
