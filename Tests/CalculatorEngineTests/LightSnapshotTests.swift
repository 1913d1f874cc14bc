import CalcTestSupport
import CalculatorEngine
import Testing

/// History's light snapshots (SPEC §7's history memory): a Scientific or Programmer state kept
/// as the state after the last AC, `sci` or `prog`, rebuilt exactly wherever a jump lands, on a
/// branch and at forks.
@Suite struct LightSnapshotTests {

  /// A row: a first line, a line repeated until the branch passes three snapshot intervals,
  /// and how many of the branch's snapshots are light.
  struct Row: Sendable, CustomTestStringConvertible {
    let name: String
    let first: [Key]
    let repeated: [Key]
    /// Whether every snapshot after the first is light (else only the first interval's, within
    /// an interval of the first line's `sci`).
    let light: Bool
    var testDescription: String { name }
  }

  static let rows: [Row] = [
    Row(
      name: "Scientific, AC in each line",
      first: [.mode(.scientific)],
      repeated: [
        .scientific(.bracket(.open)), .digit(.one), .op(.plus), .digit(.two),
        .scientific(.bracket(.close)), .op(.multiply),
        .digit(.three), .scientific(.function(.cube)), .equal, .command(.clear), .digit(.four),
        .scientific(.binary(.power)), .digit(.two), .equal,
      ], light: true),
    Row(
      name: "Scientific, sci in each line after m+, memory and angle kept",
      first: [.digit(.seven), .memory(.store), .angle(.radians)],
      repeated: [
        .digit(.two), .memory(.add), .mode(.scientific), .digit(.one), .op(.plus),
        .memory(.recall), .scientific(.function(.abs)), .op(.multiply), .digit(.two), .equal,
      ], light: true),
    Row(
      name: "Programmer HEX, BYTE, AC in each line",
      first: [.mode(.programmer), .programmer(.wordSize(.byte)), .programmer(.radix(.hex))],
      repeated: [
        .programmer(.hexDigit(.a)), .digit(.five), .programmer(.bitwise(.xor)),
        .programmer(.hexDigit(.f)), .equal, .command(.clear),
        .digit(.three), .programmer(.shift(.left)), .digit(.two), .equal,
        .programmer(.rotate(.left)), .programmer(.not),
      ], light: true),
    Row(
      name: "Programmer, prog in each line, DWORD kept",
      first: [.mode(.programmer), .programmer(.wordSize(.dword))],
      repeated: [
        .mode(.programmer), .digit(.nine), .programmer(.bitwise(.and)), .digit(.six), .op(.minus),
        .digit(.eight), .equal, .programmer(.bit(Key.Bit(31)!)),
      ], light: true),
    Row(
      // Each line starts with |x| of the last result, not a number: no settling restart mark
      // (`SettlingMarkTests`). A square root, not a cube root: the cube root's power series
      // took two thirds of the jumps' replays in a debug build (3.1 s of one test).
      name: "Scientific without AC or a mode key after the first: whole snapshots",
      first: [.mode(.scientific)],
      repeated: [
        .scientific(.function(.abs)), .op(.plus), .digit(.two), .unary(.squareRoot),
        .op(.multiply),
        .digit(.three),
        .equal,
      ], light: false),
  ]

  /// The session of a row: its first line, then the repeated line until the branch holds more
  /// than three intervals of keys.
  static func session(_ row: Row) throws -> Session {
    var session = Session()
    try session.perform(.keys(row.first[...]))
    while session.history.count <= 3 * History.snapshotInterval {
      try session.perform(.keys(row.repeated[...]))
    }
    return session
  }

  /// The states along the current branch, by replaying its keys from the start.
  static func replayed(_ history: History) -> [History.State] {
    var states = [History.State.initial]
    var state = History.State.initial
    for step in stride(from: 1, through: history.count, by: 1) {
      if history.startsLine(at: step) { state.startLine() }
      state.press(history.key(at: step))
      states.append(state)
    }
    return states
  }

  /// The steps checked: around each snapshot, and every 41st.
  static func steps(_ count: Int) -> [Int] {
    let interval = History.snapshotInterval
    return (0...count).filter { step in
      step % 41 == 0 || [0, 1, interval - 1].contains(step % interval) || step == count
    }
  }

  @Test(arguments: rows) func jumpsLandOnTheReplay(_ row: Row) throws {
    var session = try Self.session(row)
    let history = session.history
    let snapshots = history.count / History.snapshotInterval + 1
    let parts = history.storageBreakdown
    #expect(parts.lightSnapshots == (row.light ? snapshots - 1 : 1))
    #expect(parts.wholeSnapshots == (row.light ? 1 : snapshots - 1))
    let states = Self.replayed(history)
    for step in Self.steps(history.count) {
      try session.perform(.goto(.step(step)))
      #expect(session.state == states[step], "step \(step)")
    }
    session.history._checkInvariants()
  }

  /// Branches that leave a light-snapshotted branch inside an interval: their first snapshot is
  /// light too when a restart lies within an interval before the fork, and every jump on them
  /// lands on the replay.
  @Test(arguments: rows.filter(\.light)) func forksLandOnTheReplay(_ row: Row) throws {
    var session = try Self.session(row)
    let interval = History.snapshotInterval
    // 505 lies after an m+ and before the next sci in the second row: its light snapshot is
    // found by a replay.
    for fork in [interval + 5, 505, 2 * interval - 1, 2 * interval + row.repeated.count / 2] {
      try session.perform(.branch(1))
      try session.perform(.goto(.step(fork)))
      try session.perform(.keys(row.repeated[...]))
    }
    // Each fork lies a part line after a restart: its first snapshot is light.
    #expect(session.history.storageBreakdown.wholeSnapshots == 1)
    for branch in 2...session.history.branchCount {
      try session.perform(.branch(branch))
      let states = Self.replayed(session.history)
      for step in Self.steps(session.history.count) {
        try session.perform(.goto(.step(step)))
        #expect(session.state == states[step], "branch \(branch) step \(step)")
      }
    }
    session.history._checkInvariants()
  }

  /// A Scientific session that presses AC now and then keeps under 2 bytes a key (SPEC §7);
  /// without the light snapshots it took about 5.
  @Test func scientificStorageIsUnderTwoBytesPerKey() throws {
    let row = Self.rows[0]
    var session = Session()
    try session.perform(.keys(row.first[...]))
    while session.history.count < 6 * History.snapshotInterval {
      try session.perform(.keys(row.repeated[...]))
    }
    let perKey = Double(session.history.storageBytes) / Double(session.history.recordedCount)
    #expect(perKey < 2, "\(perKey) bytes per key")
    let whole = try Self.session(Self.rows[4])
    let wholePerKey = Double(whole.history.storageBytes) / Double(whole.history.recordedCount)
    #expect(wholePerKey > 2, "\(wholePerKey) bytes per key")
  }
  /// Every jump on every branch of `session` lands on the replay of the branch's keys.
  static func expectJumpsLandOnTheReplay(_ session: inout Session) throws {
    for branch in 1...session.history.branchCount {
      try session.perform(.branch(branch))
      let states = Self.replayed(session.history)
      for step in Self.steps(session.history.count) {
        try session.perform(.goto(.step(step)))
        #expect(session.state == states[step], "branch \(branch) step \(step)")
      }
    }
    session.history._checkInvariants()
  }

  /// Branches that fork with no restart before them (a Scientific branch of whole snapshots)
  /// keep their first snapshot as a 32-byte "the parent's state at the fork", down a chain of
  /// such branches, as long as rebuilding the parent's state there replays fewer than an
  /// interval of keys; past that bound the first snapshot is whole.
  @Test func forksWithoutARestartLandOnTheReplay() throws {
    let row = Self.rows[4]
    var session = try Self.session(row)
    let before = session.history.storageBreakdown
    let interval = History.snapshotInterval
    // Branch 1's snapshots at 768 and 1,152 are whole; the one at 384 is light, its restart
    // (`sci`) 383 keys back. (branch to leave, step): 2 leaves 1 16 keys after 768, 3 leaves 2
    // five keys after 2's fork (a chain: 16 + 5 keys to replay), 4 leaves 3 (23); 5 leaves 1
    // at the last step before 1,152 (383 keys to replay); 6 leaves 5 one key later (384: whole)
    // and 7 leaves 1 16 keys after 384 (383 + 16: whole).
    let forks = [
      (1, 2 * interval + 16), (2, 2 * interval + 21), (3, 2 * interval + 23),
      (1, 3 * interval - 1), (5, 3 * interval), (1, interval + 16),
    ]
    for (branch, step) in forks {
      try session.perform(.branch(branch))
      try session.perform(.goto(.step(step)))
      try session.perform(.keys(row.repeated[...]))
    }
    let parts = session.history.storageBreakdown
    #expect(parts.lightSnapshots == before.lightSnapshots + 4)
    #expect(parts.wholeSnapshots == before.wholeSnapshots + 2)
    try Self.expectJumpsLandOnTheReplay(&session)
  }

  /// The densest tree SPEC §7 allows, one branch per 1,000 keys with random forks, of a
  /// Scientific stream that presses AC after about one line in 12 (160 keys), keeps under 2
  /// bytes a key, its forks without a restart before them included.
  @Test func denseTreeStorageIsUnderTwoBytesPerKey() throws {
    let line: [Key] = [
      .scientific(.bracket(.open)), .digit(.one), .op(.plus), .digit(.two),
      .scientific(.bracket(.close)), .op(.multiply),
      .digit(.three), .scientific(.function(.cube)), .equal, .digit(.four),
      .scientific(.binary(.power)), .digit(.two),
      .equal,
    ]
    let branches = 12
    var random = SplitMix64(state: 0x5EED_0F_F0)
    var session = Session()
    try session.perform(.keys([.mode(.scientific)][...]))
    for number in 1...branches {
      if number > 1 {
        try session.perform(.branch(1 + random.below(session.history.branchCount)))
        try session.perform(.goto(.step(1 + random.below(session.history.count - 1))))
      }
      let start = session.history.recordedCount
      while session.history.recordedCount - start < 1_000 {
        try session.perform(.keys((random.chance(8) ? [.command(.clear)] + line : line)[...]))
      }
    }
    let history = session.history
    let perKey = Double(history.storageBytes) / Double(history.recordedCount)
    #expect(perKey < 2, "\(perKey) bytes per key: \(history.storageBreakdown.description)")
    // Only branch 1's first snapshot, of Standard mode, is whole: two forks of this tree lie
    // more than an interval after the last AC, and their first snapshots are the parent's state
    // at the fork (without that they were whole, 1.86 bytes a key).
    #expect(history.storageBreakdown.wholeSnapshots == 1)
    try Self.expectJumpsLandOnTheReplay(&session)
  }
}
