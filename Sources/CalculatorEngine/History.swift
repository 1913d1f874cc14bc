import CalcDecimal

/// Every line of keys a session applied, as a tree of branches that is never pruned, and a
/// position on the current branch: the book's history and slider, with jumps that do not replay
/// from the start and a past that typing never throws away.
///
/// A *branch* is a path from the start: the keys of the branch it leaves up to its fork, then its
/// own keys. Branch 1 holds the first line of keys; applying keys before the end of the current
/// branch starts a new branch there, numbered after the last, and keeps the old future where it
/// was. Positions count keys along the current branch, from 0 through ``count``.
///
/// Only ``Session`` changes a history; everything here that is public reads it.
///
/// Storage: each branch holds only the keys after its fork, one byte each (the key's
/// ``Key/code``) and one bit each that marks the last key of a line, and a snapshot of
/// the state at its fork and after every ``snapshotInterval`` of its own keys. So the state at any
/// position on any branch is a snapshot and fewer than ``snapshotInterval`` replayed keys, or
/// fewer than twice as many after a *light* snapshot.
///
/// A light snapshot keeps a Scientific or Programmer state small: instead of the state at its
/// step (a boxed brain with its expression line, about 1.5 KB), it holds the state after the
/// last key before that step that started its mode's calculation afresh (AC in Scientific or
/// Programmer mode, `sci`, `prog`), as long as that key lies fewer than ``snapshotInterval`` keys
/// back: that state is Standard mode's fresh one with the memory, angle unit and word size (a
/// ``Light``, 32 bytes) plus a *prelude* of at most three keys that rebuild it exactly: the
/// restart is the last of its line, or no key after it in the line changes those (the
/// invariants check every snapshot against a replay). A branch's first snapshot, at its fork, may be light too, with its
/// restart among the parent's own keys before the fork (and no memory, angle, radix or
/// word-size key between); else, in Scientific or Programmer mode, it may be a 32-byte marker,
/// "the parent's state at the fork", when rebuilding that state replays fewer than
/// ``snapshotInterval`` keys (``Light/init(atForkBack:)``): either way a jump replays fewer than
/// twice ``snapshotInterval`` keys. Any other snapshot is kept whole.
///
/// Besides its snapshots, a branch keeps a *restart mark* (``Mark``, 10 bytes and the memory
/// register when it changed) after each restart of Scientific or Programmer mode that lies at
/// least ``markSpacing`` keys after the mark before: a jump replays from the last mark before its
/// step when that lies after the start of its interval's snapshot, so on a stream that restarts
/// now and then it replays the keys since the last restart rather than up to twice an interval
/// (Scientific `:goto` 522 → 151 µs, calc-bench `--streams`). A *settling* mark does the same
/// where a Scientific line starts a new number and its operator right after a settled `=`
/// (``ScientificBrain/isSettled``): from the number's operator on, the state is the one a
/// fresh calculation reaches, so the mark stands at the line's start for the steps after those
/// keys (Scientific `:goto` 124 → 56 µs at 10,000,000 keys, calc-bench `--streams`). The
/// densest tree SPEC §7 allows (one branch per 1,000 keys) keeps under 2 bytes a key in every
/// stream (calc-bench `--streams`; `LightSnapshotTests.denseTreeStorageIsUnderTwoBytesPerKey`
/// at a small size).
public struct History: Sendable {
  /// What a position holds: the calculator after the keys before it, memory included.
  public typealias State = Calculator

  /// How many keys lie between two snapshots of a branch: a jump replays fewer keys than this.
  public static let snapshotInterval = 384

  /// The most own keys a branch may hold for its unused room to be given back when it is left
  /// (``Branch/trimRoom()``): 16 intervals.
  static let trimLimit = 16 * snapshotInterval

  /// One branch: where it leaves its parent, and its own keys and snapshots.
  struct Branch: Sendable {
    /// The index of the branch it leaves; -1 for the first branch.
    var parent: Int
    /// The position on the parent where this branch's own keys start.
    var fork: Int
    /// The branch's own keys, after ``fork``, as their codes.
    var codes: [UInt8] = []
    /// Bit `i % 64` of word `i / 64` is set when own key `i` is the last of a line (Programmer
    /// mode's keys need every bit of a code byte: 173 keys).
    var lineEnds: [UInt64] = []
    /// The whole snapshots, in order: while ``lights`` is empty, `snapshots[i]` is the state
    /// after `fork + i × snapshotInterval` keys of the branch.
    var snapshots: [State] = []
    /// The light snapshots, in order of their ``Light/slot``: snapshot `i` is the light one whose
    /// slot is `i`, else the whole one after the others (`snapshots[i − lights before i]`). One
    /// array, so that a branch of Standard mode grows by a word only.
    var lights: [Light] = []

    /// The number of snapshots, whole and light.
    var snapshotCount: Int { snapshots.count + lights.count }
    /// The branch's restart marks (``History/Mark``), in order of their own offsets: where a
    /// jump may start its replay instead of the interval's snapshot.
    var marks: [History.Mark] = []
    /// The marks' states, encoded (``History/Mark/byte``).
    var markBytes: [UInt8] = []
    /// The `$N` keys among ``codes`` (SPEC §11), by their index there: N as typed, and what the
    /// key recalled when its line was applied (the branch below it never changes).
    var references: [Int: Reference] = [:]
    /// The notes of the branch's own lines (SPEC §11), by the index of each line's last key.
    var notes: [Int: String] = [:]

    /// The number of keys on the branch, from the start: its fork plus its own keys.
    var count: Int { fork + codes.count }

    /// Whether the own key at `index` is the first of a line: the branch's first key, or the key
    /// after a line's last.
    func startsLine(at index: Int) -> Bool {
      index == 0 || endsLine(at: index - 1)
    }

    /// Whether the own key at `index` is the last of a line.
    @inline(__always)
    func endsLine(at index: Int) -> Bool {
      lineEnds[index >> 6] & (1 << UInt64(index & 63)) != 0
    }

    /// Appends a line's codes and marks its last key as a line's end, in one access to the
    /// branch (two accesses checked the storage's uniqueness twice a line); room is made as
    /// ``reserveRoom(for:)`` makes it, in the same access.
    @inline(__always)
    mutating func appendLine(_ lineCodes: UnsafeMutableBufferPointer<UInt8>) {
      reserveRoom(for: lineCodes.count)
      codes.append(contentsOf: lineCodes)
      markLineEnd(at: codes.count - 1)
    }

    /// Marks the own key at `index`, the last stored, as the last of a line.
    @inline(__always)
    mutating func markLineEnd(at index: Int) {
      let word = index >> 6
      while lineEnds.count <= word { lineEnds.append(0) }
      lineEnds[word] |= 1 << UInt64(index & 63)
    }

    /// The own key at `index` (a `$N` key without its N: ``references``).
    @inline(__always)
    func key(at index: Int) -> Key {
      let code = codes[index]
      guard code != Key.referenceCode else { return .reference }
      return Key(code: code)!
    }

    /// Appends the own key at `index` to `keys`, a `$N` key with its N.
    @inline(__always)
    func appendKey(at index: Int, to keys: inout TypedKeys) {
      let code = codes[index]
      if code == Key.referenceCode {
        keys.appendReference(references[index]!.line)
      } else {
        keys.append(Key(code: code)!)
      }
    }

    /// Presses the own key at `index` on `state`: a `$N` key recalls what it recalled.
    @inline(__always)
    func press(at index: Int, _ state: inout State) {
      switch step(at: index) {
      case .key(let key): state.press(key)
      case .recall(let recalled): state.recall(recalled)
      }
    }

    /// What the own key at `index` does when it is replayed: a key pressed, or what a `$N` key
    /// recalled.
    @inline(__always)
    func step(at index: Int) -> Calculator.Step {
      let code = codes[index]
      if code == Key.referenceCode { return .recall(references[index]!.recalled) }
      return .key(Key(code: code)!)
    }

    /// Replays the own keys at `range` on `state`, each line starting where one starts
    /// (``Calculator/replay(_:startsLine:step:)``).
    /// - Complexity: O(n) in the number of keys.
    @inline(__always)
    func replay(_ range: Range<Int>, on state: inout State) {
      state.replay(range, startsLine: startsLine(at:), step: step(at:))
    }
  }

  /// A light snapshot (see the storage notes above): the small state after its restart, and how
  /// far back the restart lies.
  struct Light: Hashable, Sendable {
    /// The memory register, angle unit and word size after the restart.
    var memory: Decimal34?
    var angleUnit: AngleUnit
    var wordSize: Key.WordSize
    /// 1 `sci`, 2 `prog`, 3 `sci` then AC, 4 + a radix's raw value `prog`, the radix and AC: the
    /// keys that rebuild the state after the restart from Standard mode's fresh one; 0
    /// (``atForkPrelude``) for a branch's first snapshot that is its parent's state at the fork.
    var prelude: UInt8
    /// The keys between the restart and the snapshot's step (for a branch's first snapshot,
    /// keys of its parent before the fork); for a snapshot at the fork (``isAtFork``), the keys
    /// that rebuilding the parent's state there replays.
    var back: UInt16
    /// The snapshot's index among the branch's snapshots.
    var slot: UInt32 = 0

    /// The light snapshot of `state`, the state right after a restart, with `prelude`.
    init(_ state: State, prelude: UInt8, back: Int = 0) {
      memory = state.memory
      angleUnit = state.angleUnit
      wordSize = state.wordSize
      self.prelude = prelude
      self.back = UInt16(back)
    }

    /// The prelude of a snapshot at a branch's fork (``init(atForkBack:)``).
    static let atForkPrelude: UInt8 = 0

    /// A branch's first snapshot kept as "the parent's state at the fork": rebuilt from the
    /// parent's snapshot before the fork and a replay of `back` keys (fewer than
    /// ``History/snapshotInterval``), 32 bytes instead of a whole state.
    init(atForkBack back: Int) {
      memory = nil
      angleUnit = State.initial.angleUnit
      wordSize = State.initial.wordSize
      prelude = Self.atForkPrelude
      self.back = UInt16(back)
    }

    /// Whether this is a branch's first snapshot kept as its parent's state at the fork: its
    /// ``state`` is not its own (``History/state(at:on:)`` resolves it).
    var isAtFork: Bool { prelude == Self.atForkPrelude }

    /// The state after the restart; for a snapshot at a fork (``isAtFork``), a placeholder.
    var state: State {
      var state = State(memory: memory, angleUnit: angleUnit, wordSize: wordSize)
      switch prelude {
      case Self.atForkPrelude:
        // A placeholder: the parent's state at the fork replaces it.
        break
      case 1:
        state.press(.mode(.scientific))
      case 2:
        state.press(.mode(.programmer))
      case 3:
        state.press(.mode(.scientific))
        state.press(.command(.clear))
      default:
        state.press(.mode(.programmer))
        state.press(.programmer(.radix(Key.Radix(rawValue: prelude - 4)!)))
        state.press(.command(.clear))
      }
      return state
    }
  }

  /// The prelude (``Light/prelude``) after a restart coded `code` in `state`'s mode: AC in
  /// Scientific or Programmer mode, `sci`, `prog`; `nil` for any other key or mode.
  static func prelude(after code: UInt8, _ state: State) -> UInt8? {
    if code == clearCode {
      if state.scientific != nil { return 3 }
      if let programmer = state.programmer { return 4 + programmer.radix.rawValue }
      return nil
    }
    if code == scientificCode, state.scientific != nil { return 1 }
    if code == scientificCode &+ 1, state.programmer != nil { return 2 }
    return nil
  }

  /// Whether the key coded `code` may change the memory, the angle unit, the radix or the word
  /// size (or is a mode key; `mr` only reads the memory): a light snapshot may not reach back
  /// across one without a replay.
  ///
  /// By the codes' ranges (`ms`, `m+ m- mc`, the angle and mode keys, the radix and word-size
  /// keys), without decoding the key: ``noteRestart(in:at:)`` asks this of most keys of every
  /// line of Scientific and Programmer mode (``changesLightState(decoding:)`` is the same by
  /// the key; `RecordingPathTests.changesLightStateByCodeIsByKey` compares them).
  @inline(__always)
  static func changesLightState(_ code: UInt8) -> Bool {
    // Unsigned differences: one comparison a range.
    return code == Key.memory(.store).code
      || code &- Key.memory(.add).code <= Key.memory(.clear).code &- Key.memory(.add).code
      || code &- Key.angle(.degrees).code <= Key.mode(.programmer).code &- Key.angle(.degrees).code
      || code &- Key.programmer(.radix(.hex)).code <= Key.programmer(.wordSize(.byte)).code
        &- Key.programmer(.radix(.hex)).code
  }

  /// ``changesLightState(_:)`` by the key the code decodes to.
  static func changesLightState(decoding code: UInt8) -> Bool {
    guard code != Key.referenceCode, let key = Key(code: code)
    else { return false }
    switch key {
    case .memory(let memory): return memory != .recall
    case .angle, .mode, .programmer(.radix), .programmer(.wordSize): return true
    case .digit, .dot, .op, .equal, .command, .unary, .reference, .scientific, .programmer:
      return false
    }
  }

  /// The last restart among the current branch's own keys: the branch, the own offset after the
  /// key, and its light snapshot (``Light/back`` still 0).
  private var lastRestart: (branch: Int, offset: Int, light: Light)?

  /// A `$N` key as a branch holds it: N as typed, and the value (or error) it recalled.
  struct Reference: Hashable, Sendable {
    var line: Int
    var recalled: Calculator.Recalled
  }

  /// Every branch, in the order they were made; the first always exists (empty only while the
  /// whole history is).
  private(set) var branches: [Branch] = [Branch(parent: -1, fork: 0, snapshots: [.initial])]
  /// The index of the current branch in ``branches``.
  private(set) var current = 0
  /// The indices of the branches the current branch passes through, from the first to itself:
  /// their forks increase, except that a branch leaving the first at 0 has fork 0 like it.
  private var path: [Int] = [0]

  /// The position on the current branch: the number of keys applied, 0 through ``count``.
  public private(set) var position = 0

  /// The calculator at ``position``.
  public private(set) var state = State.initial

  /// An empty history at position 0.
  public init() {}

  // MARK: - Reading

  /// The number of keys on the current branch, from the start.
  public var count: Int { branches[current].count }

  /// Whether no key has been recorded on any branch.
  public var isEmpty: Bool { branches[0].codes.isEmpty }

  /// Whether the position is at the end of the current branch.
  public var isAtEnd: Bool { position == count }

  /// The number of branches: 0 for an empty history, else 1 or more.
  public var branchCount: Int { isEmpty ? 0 : branches.count }

  /// The number of keys recorded on all branches, each branch's own keys once.
  ///
  /// - Complexity: O(number of branches).
  public var recordedCount: Int { branches.reduce(0) { $0 + $1.codes.count } }

  /// The number of the current branch (1 for an empty history).
  public var currentBranch: Int { current + 1 }

  /// What a person needs to know about a branch.
  public struct BranchInfo: Hashable, Sendable {
    /// The branch's number, 1 or more.
    public let number: Int
    /// The number of the branch it leaves; `nil` for branch 1.
    public let parent: Int?
    /// The step where it leaves its parent: the last step they share.
    public let fork: Int
    /// The number of keys on the branch, from the start.
    public let count: Int

    /// A description of a branch with the given parts.
    public init(number: Int, parent: Int?, fork: Int, count: Int) {
      self.number = number
      self.parent = parent
      self.fork = fork
      self.count = count
    }
  }

  /// The branch numbered `number`, which must be within `1...branchCount`.
  public func branch(_ number: Int) -> BranchInfo {
    let branch = branches[number - 1]
    return BranchInfo(
      number: number, parent: branch.parent < 0 ? nil : branch.parent + 1, fork: branch.fork,
      count: branch.count)
  }

  /// The key that led to `step` on the current branch, for `step` within `1...count` (a `$N`
  /// key without its N: ``referencedLine(at:)``).
  ///
  /// - Complexity: O(log b), b the number of branches the current one passes through.
  public func key(at step: Int) -> Key {
    let branch = branches[owner(of: step)]
    return branch.key(at: step - branch.fork - 1)
  }

  /// N of the `$N` key that led to `step` on the current branch (within `1...count`); `nil`
  /// when that key is no `$N`.
  ///
  /// - Complexity: O(log b), b the number of branches the current one passes through.
  public func referencedLine(at step: Int) -> Int? {
    let branch = branches[owner(of: step)]
    return branch.references.isEmpty ? nil : branch.references[step - branch.fork - 1]?.line
  }

  /// The key that led to `step` on the current branch as text: its title, `$N` for a reference.
  ///
  /// - Complexity: O(log b), b the number of branches the current one passes through.
  public func keyTitle(at step: Int) -> String {
    referencedLine(at: step).map { "$\($0)" } ?? key(at: step).title
  }

  /// Whether the key that leads to `step` (1 through ``count``) on the current branch is the
  /// first of a line, where the calculator starts the line (``Calculator/startLine()``).
  public func startsLine(at step: Int) -> Bool {
    let branch = branches[owner(of: step)]
    return branch.startsLine(at: step - branch.fork - 1)
  }

  /// Calls `body` with the keys of each line of the current branch up to the position, in
  /// order: the lines as they were entered, the last one cut at the position when it lies inside
  /// a line. Replaying them line by line from a fresh calculator gives ``state``.
  ///
  /// - Complexity: O(position × log b), b the number of branches the current one passes
  ///   through.
  public func forEachLine(
    upToPosition body: (TypedKeys) throws -> Void
  ) rethrows {
    var line = TypedKeys()
    for step in stride(from: 1, through: position, by: 1) {
      if startsLine(at: step), !line.isEmpty {
        try body(line)
        line.removeAll(keepingCapacity: true)
      }
      let branch = branches[owner(of: step)]
      branch.appendKey(at: step - branch.fork - 1, to: &line)
    }
    if !line.isEmpty { try body(line) }
  }

  /// The calculator at `position` on the current branch, which must be within `0...count`.
  ///
  /// - Complexity: O(``snapshotInterval`` + log b), b the number of branches the current one
  ///   passes through: neither the length of the history nor the number of branches matters.
  public func state(at position: Int) -> State {
    position == 0 ? .initial : state(at: position, on: owner(of: position))
  }

  /// The calculator at the end of branch `number` (within `1...branchCount`).
  ///
  /// - Complexity: O(``snapshotInterval``).
  public func stateAtEnd(ofBranch number: Int) -> State {
    let index = number - 1
    return state(at: branches[index].count, on: index)
  }

  /// The last `limit` keys (or fewer, near the start) of branch `number`, in order.
  ///
  /// - Complexity: O(`limit` + the depth of the branch in the tree).
  public func lastKeys(ofBranch number: Int, limit: Int) -> TypedKeys {
    var places: [(branch: Int, index: Int)] = []
    var index = number - 1
    var end = branches[index].count
    while places.count < limit, end > 0, index >= 0 {
      let branch = branches[index]
      var step = end
      while places.count < limit, step > branch.fork {
        places.append((index, step - branch.fork - 1))
        step -= 1
      }
      end = step
      index = branch.parent
    }
    var keys = TypedKeys()
    for place in places.reversed() { branches[place.branch].appendKey(at: place.index, to: &keys) }
    return keys
  }

  /// Calls `body` with each line of branch `number`'s own keys (those after its fork), in order.
  ///
  /// - Complexity: O(n) in the number of the branch's own keys.
  public func forEachOwnLine(
    ofBranch number: Int, _ body: (TypedKeys) throws -> Void
  ) rethrows {
    try forEachOwnLine(ofBranch: number) { keys, _ in try body(keys) }
  }

  /// Calls `body` with each line of branch `number`'s own keys (those after its fork), in order,
  /// and its note (SPEC §11), if it has one.
  ///
  /// - Complexity: O(n) in the number of the branch's own keys.
  public func forEachOwnLine(
    ofBranch number: Int, _ body: (TypedKeys, String?) throws -> Void
  ) rethrows {
    let branch = branches[number - 1]
    var line = TypedKeys()
    for index in branch.codes.indices {
      branch.appendKey(at: index, to: &line)
      if branch.endsLine(at: index) {
        try body(line, branch.notes.isEmpty ? nil : branch.notes[index])
        line.removeAll(keepingCapacity: true)
      }
    }
  }

  /// Calls `body` for every step of the current branch from 0 through ``count``, with the key
  /// that led there (none at 0) and the calculator there.
  ///
  /// - Complexity: O(n) in the length of the branch; memory O(1).
  public func forEachStep(_ body: (Int, Key?, State) throws -> Void) rethrows {
    try forEachStep(in: 0...count, body)
  }

  /// Calls `body` for each of `steps` on the current branch (within `0...count`), in order, with
  /// the key that led there (none at 0) and the calculator there.
  ///
  /// - Complexity: O(``snapshotInterval`` + log b + m), m the number of steps, b the number of
  ///   branches the current one passes through; memory O(1).
  public func forEachStep(
    in steps: ClosedRange<Int>, _ body: (Int, Key?, State) throws -> Void
  ) rethrows {
    precondition(steps.lowerBound >= 0 && steps.upperBound <= count, "steps out of range")
    var step = steps.lowerBound
    var state = state(at: step)
    try body(step, step == 0 ? nil : key(at: step), state)
    // The path's branches own consecutive runs of steps; those before `step` are skipped.
    for (depth, index) in path.enumerated() {
      let branch = branches[index]
      let end = min(
        depth + 1 < path.count ? branches[path[depth + 1]].fork : branch.count, steps.upperBound)
      while step < end {
        let index = step - branch.fork
        let key = branch.key(at: index)
        if branch.startsLine(at: index) { state.startLine() }
        branch.press(at: index, &state)
        step += 1
        try body(step, key, state)
      }
    }
  }

  /// One input line of the current branch: the position before it and its keys.
  public struct Line: Hashable, Sendable {
    /// The position where the line starts: the number of keys before it.
    public let start: Int
    /// The line's keys, as typed.
    public let keys: TypedKeys
    /// The line's note (SPEC §11); `nil` without one, and for the part of a parent's line
    /// before a fork, which has none of its own.
    public var note: String? = nil
    /// The position after the line's last key.
    public var end: Int { start + keys.count }
  }

  /// The input lines of the whole current branch, kept future included, in order (SPEC §4,
  /// `:lines`): a line ends where it was entered, and a fork is a line boundary, so the part of
  /// a parent's line before the fork is a line of its own.
  ///
  /// - Complexity: O(n) in the length of the branch.
  public func lines() -> [Line] { lines(along: path) }

  /// The input lines of branch `number` (within `1...branchCount`), as ``lines()`` gives them
  /// for the current branch.
  ///
  /// - Complexity: O(n) in the length of the branch.
  public func lines(ofBranch number: Int) -> [Line] {
    var path: [Int] = []
    var index = number - 1
    while index >= 0 {
      path.append(index)
      index = branches[index].parent
    }
    return lines(along: Array(path.reversed()))
  }

  /// Where the line of a branch that ends at step `end` is kept: the branch that owns its last
  /// key and that key's index among the branch's own keys. Lines of several branches with the
  /// same start and place are one line, shared (SPEC §11, `:find`).
  public struct LinePlace: Hashable, Sendable {
    public let branch: Int
    public let index: Int
  }

  /// The place of each line of branch `number` (as ``lines(ofBranch:)`` lists them).
  ///
  /// - Complexity: O(n) in the length of the branch.
  public func linePlaces(ofBranch number: Int) -> [LinePlace] {
    var path: [Int] = []
    var walk = number - 1
    while walk >= 0 {
      path.append(walk)
      walk = branches[walk].parent
    }
    path.reverse()
    var places: [LinePlace] = []
    var step = 0
    var last: LinePlace?
    for (depth, index) in path.enumerated() {
      let branch = branches[index]
      let end = depth + 1 < path.count ? branches[path[depth + 1]].fork : branch.count
      while step < end {
        let own = step - branch.fork
        if branch.startsLine(at: own), let place = last { places.append(place) }
        last = LinePlace(branch: index + 1, index: own)
        step += 1
      }
    }
    if let last { places.append(last) }
    return places
  }

  /// The lines along `path` (branch indices from the first), as ``lines()`` describes them.
  private func lines(along path: [Int]) -> [Line] {
    var lines: [Line] = []
    var keys = TypedKeys()
    var start = 0
    var step = 0
    var note: String?
    for (depth, index) in path.enumerated() {
      let branch = branches[index]
      let end = depth + 1 < path.count ? branches[path[depth + 1]].fork : branch.count
      while step < end {
        let own = step - branch.fork
        if branch.startsLine(at: own), !keys.isEmpty {
          lines.append(Line(start: start, keys: keys, note: note))
          keys.removeAll(keepingCapacity: true)
          start = step
        }
        branch.appendKey(at: own, to: &keys)
        // Only a line's real end holds its note: a part cut by a fork has none.
        note =
          branch.endsLine(at: own) && !branch.notes.isEmpty
          ? branch.notes[own] : nil
        step += 1
      }
    }
    if !keys.isEmpty { lines.append(Line(start: start, keys: keys, note: note)) }
    return lines
  }

  /// The display after each of `lines` (lines of the current branch, in order, from
  /// ``lines()``).
  ///
  /// - Complexity: O(``snapshotInterval`` + m), m the steps from the first line's start to the
  ///   last line's end.
  public func displays(after lines: ArraySlice<Line>) -> [CalculatorBrain.Display] {
    guard let first = lines.first, let last = lines.last else { return [] }
    var displays: [CalculatorBrain.Display] = []
    displays.reserveCapacity(lines.count)
    var next = lines.startIndex
    forEachStep(in: first.start...last.end) { step, _, state in
      while next < lines.endIndex, lines[next].end == step {
        displays.append(state.display)
        next += 1
      }
    }
    return displays
  }

  /// The steps where the lines of the current branch up to `step` end, in order: each line end
  /// at or before `step`, and `step` itself when it lies inside a line (once a line is entered
  /// there, that part is a line of its own). Line N ends at element N − 1; the count is the
  /// number of the line that a line entered at `step` would be, less one (SPEC §11).
  ///
  /// - Complexity: O(`step` × log b), b the number of branches the current one passes through.
  public func lineEnds(upTo step: Int) -> [Int] {
    var ends: [Int] = []
    guard step > 0 else { return ends }
    for start in stride(from: 2, through: step, by: 1) where startsLine(at: start) {
      ends.append(start - 1)
    }
    ends.append(step)
    return ends
  }

  /// What a `$N` key recalls after the line of the current branch that ends at `end`: the
  /// value there, or its error.
  ///
  /// - Complexity: O(``snapshotInterval`` + log b), as ``state(at:)``.
  public func recalled(atLineEnd end: Int) -> Calculator.Recalled {
    Calculator.Recalled(state(at: end))
  }

  /// The number of the branch that owns the key leading to `step` (1 through ``count``) on the
  /// current branch: the branch whose line holds it.
  public func owningBranch(of step: Int) -> Int { owner(of: step) + 1 }

  /// The note of the line of the current branch that ends at `end` (1 through ``count``), if
  /// it ends there for real (``endsLine(at:)``) and has one.
  public func note(ofLineEndingAt end: Int) -> String? {
    let branch = branches[owner(of: end)]
    let own = end - branch.fork - 1
    guard !branch.notes.isEmpty, branch.endsLine(at: own) else { return nil }
    return branch.notes[own]
  }

  /// What the `$N` keys among the last `count` keys before the position recalled, in order:
  /// for a front end that shows a line it just applied key by key (`--trace`).
  ///
  /// - Complexity: O(`count` × log b).
  public func lastKeysRecalls(_ count: Int) -> [Calculator.Recalled] {
    var recalls: [Calculator.Recalled] = []
    for step in stride(from: max(1, position - count + 1), through: position, by: 1) {
      let branch = branches[owner(of: step)]
      if let reference = branch.references[step - branch.fork - 1] {
        recalls.append(reference.recalled)
      }
    }
    return recalls
  }

  /// Whether any line of any branch has a note (SPEC §11).
  ///
  /// - Complexity: O(number of branches).
  public var hasNotes: Bool { branches.contains { !$0.notes.isEmpty } }

  /// Whether the line of the current branch that ends at `end` ends there for real, where it
  /// was entered, rather than being the part of a parent's line before a fork: only such a line
  /// has a note of its own.
  public func endsLine(at end: Int) -> Bool {
    let branch = branches[owner(of: end)]
    return branch.endsLine(at: end - branch.fork - 1)
  }

  /// For the current branch: each step where another branch leaves it, with those branches'
  /// numbers in order.
  ///
  /// A branch leaves at its fork when it forks from the current branch's path there; a branch
  /// that the current one passes through leaves where the current path turns off it.
  /// - Complexity: O(number of branches).
  public func forksOnCurrentBranch() -> [Int: [Int]] {
    var forks: [Int: [Int]] = [:]
    var pathDepth = [Int](repeating: -1, count: branches.count)
    for (depth, index) in path.enumerated() { pathDepth[index] = depth }
    for (index, branch) in branches.enumerated() where pathDepth[index] < 0 {
      guard branch.parent >= 0 else { continue }
      let parentDepth = pathDepth[branch.parent]
      guard parentDepth >= 0 else { continue }
      // Beyond the point where the path turns off the parent, the branch is not a neighbour.
      if parentDepth + 1 < path.count, branch.fork > branches[path[parentDepth + 1]].fork {
        continue
      }
      forks[branch.fork, default: []].append(index + 1)
    }
    for depth in 0..<(path.count - 1) {
      forks[branches[path[depth + 1]].fork, default: []].append(path[depth] + 1)
    }
    return forks.mapValues { $0.sorted() }
  }

  /// The bytes of storage the history holds: keys, snapshots and bookkeeping (allocated
  /// capacity), and the boxes and arrays of Scientific and Programmer snapshots
  /// (``storageBreakdown``'s total).
  ///
  /// - Complexity: O(s) in the number of snapshots.
  public var storageBytes: Int { storageBreakdown.total }

  /// Where a history's storage goes (``History/storageBreakdown``), in bytes of allocated
  /// capacity: what calc-bench's verbose rows print.
  public struct StorageBreakdown: Hashable, Sendable {
    /// The key codes, one byte each.
    public var keys = 0
    /// The line-end bits, in 64-bit words.
    public var lineEnds = 0
    /// Whole snapshots: their number, and their bytes with the boxed brains' heap.
    public var wholeSnapshots = 0
    public var wholeSnapshotBytes = 0
    /// Light snapshots (``History``'s storage notes): their number, and their bytes with the
    /// restarts that say how to rebuild them.
    public var lightSnapshots = 0
    public var lightSnapshotBytes = 0
    /// Restart marks (``History``'s `Mark`): their number, and their bytes with the encoded
    /// states and the arrays' headers.
    public var marks = 0
    public var markBytes = 0
    /// The branches' records, the current path and each array's header.
    public var branches = 0
    /// The number of branches.
    public var branchCount = 0

    /// The sum of the parts.
    public var total: Int {
      keys + lineEnds + wholeSnapshotBytes + lightSnapshotBytes + markBytes + branches
    }

    /// `keys 10,240,000, line ends 1,600,000, …` with the share of each.
    public var description: String {
      func part(_ name: String, _ bytes: Int) -> String {
        let share = total == 0 ? 0 : (1000 * bytes + total / 2) / total
        return "\(name) \(bytes) (\(share / 10).\(share % 10)%)"
      }
      return [
        part("keys", keys), part("line ends", lineEnds),
        part("\(wholeSnapshots) whole snapshots", wholeSnapshotBytes),
        part("\(lightSnapshots) light snapshots", lightSnapshotBytes),
        part("\(marks) restart marks", markBytes),
        part("\(branchCount) branches", branches),
      ].joined(separator: ", ")
    }
  }

  /// Where the storage goes: ``storageBytes`` in parts.
  ///
  /// - Complexity: O(s) in the number of snapshots.
  public var storageBreakdown: StorageBreakdown {
    var parts = StorageBreakdown()
    parts.branchCount = branches.count
    parts.branches =
      branches.capacity * MemoryLayout<Branch>.stride + path.capacity * MemoryLayout<Int>.stride
    for branch in branches {
      // Each allocated array also has a header of four words (its class, reference count, count
      // and capacity) beside its storage; an empty array allocates nothing.
      parts.branches +=
        32
        * [branch.codes.capacity, branch.lineEnds.capacity, branch.snapshots.capacity]
        .filter { $0 > 0 }.count
      parts.keys += branch.codes.capacity
      parts.lineEnds += branch.lineEnds.capacity * 8
      // Unused capacity is counted with the whole snapshots.
      parts.wholeSnapshots += branch.snapshots.count
      parts.wholeSnapshotBytes += branch.snapshots.capacity * MemoryLayout<State>.stride
      // A Scientific or Programmer state lives in a box of its own, with arrays (counted for
      // each snapshot, as if none shared a box with the one before).
      for snapshot in branch.snapshots {
        if let scientific = snapshot.scientific {
          parts.wholeSnapshotBytes += scientific.heapBytes
        }
        if let programmer = snapshot.programmer {
          parts.wholeSnapshotBytes += programmer.heapBytes
        }
      }
      // The light snapshots, with their array's header.
      if branch.lights.capacity > 0 {
        parts.lightSnapshots += branch.lights.count
        parts.lightSnapshotBytes += 32 + branch.lights.capacity * MemoryLayout<Light>.stride
      }
      // The restart marks and their states, with their arrays' headers.
      parts.marks += branch.marks.count
      if branch.marks.capacity > 0 {
        parts.markBytes += 32 + branch.marks.capacity * MemoryLayout<Mark>.stride
      }
      if branch.markBytes.capacity > 0 { parts.markBytes += 32 + branch.markBytes.capacity }
    }
    return parts
  }

  // MARK: - Changing (for Session only)

  /// Reserves room for about `keys` more keys on the current branch, so that applying them
  /// does not grow its storage step by step: a capacity hint, as `Array.reserveCapacity(_:)`,
  /// that changes no state, position or branch (a script read from a file of known size gives
  /// its size: each key takes at least a byte of text).
  ///
  /// Room that is never used is address space only, and a branch that is left while it holds
  /// few keys gives it back (``Branch/trimRoom()``).
  /// - Complexity: O(n) in the current branch's own keys, when its storage moves.
  mutating func reserveCapacity(forKeys keys: Int) {
    guard keys > 0, position == count else { return }
    branches[current].reserveCapacity(forKeys: keys)
  }

  /// Applies a line of keys at the position, starting a new branch there first unless the
  /// position is at the end of the current branch; the position moves to the end of the line.
  ///
  /// Returns the number of the new branch, if one was made. `keys` must not be empty; `recalls`
  /// holds what each of its `$N` keys recalls, in order (``Session`` resolves them), and
  /// `references` the N of each.
  /// - Complexity: O(n) in the number of keys, amortized.
  mutating func apply(
    line keys: ArraySlice<Key>, references: [Int] = [],
    recalls: [Calculator.Recalled] = []
  ) -> Int? {
    defer { _checkInvariantsIfEnabled() }
    let made = startBranchUnlessAtEnd()
    branches[current].reserveRoom(for: keys.count)
    // A countdown rather than a division by the interval at every key.
    var untilSnapshot =
      History.snapshotInterval - branches[current].codes.count % History.snapshotInterval
    // The codes go to a buffer on the stack and into the branch in one append: appending them
    // one by one would check the storage's uniqueness and capacity at every key.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: keys.count) { codes in
      var index = 0
      let ownStart = branches[current].codes.count
      // The common line holds no `$N`: it is pressed a run at a time, as a script's line is
      // (``apply(checkedLine:)``).
      guard !references.isEmpty else {
        keys.withUnsafeBufferPointer { keys in
          _ = Key.codes(of: keys, into: codes)
          while index < keys.count {
            let end = min(keys.count, index + untilSnapshot)
            // Rule 18: the line starts by ending the number still being typed.
            state.press(
              each: UnsafeBufferPointer(rebasing: keys[index..<end]), startingLine: index == 0)
            untilSnapshot -= end - index
            index = end
            if untilSnapshot == 0 {
              appendSnapshot(at: ownStart + index)
              untilSnapshot = History.snapshotInterval
            }
          }
        }
        branches[current].appendLine(codes)
        // Once a line, not at every key: Standard mode's keys pay nothing for light snapshots.
        if state.mode != .standard { noteRestart(in: UnsafeBufferPointer(codes), at: ownStart) }
        return
      }
      // Rule 18: the line starts by ending the number still being typed.
      state.startLine()
      var recall = 0
      for key in keys {
        if case .reference = key {
          state.recall(recalls[recall])
          branches[current].references[ownStart + index] = Reference(
            line: references[recall], recalled: recalls[recall])
          recall += 1
        } else {
          state.press(key)
        }
        codes[index] = key.code
        index += 1
        untilSnapshot -= 1
        if untilSnapshot == 0 {
          appendSnapshot(at: ownStart + index)
          untilSnapshot = History.snapshotInterval
        }
      }
      branches[current].appendLine(codes)
      // Once a line, not at every key: Standard mode's keys pay nothing for light snapshots.
      if state.mode != .standard { noteRestart(in: UnsafeBufferPointer(codes), at: ownStart) }
    }
    position = branches[current].count
    return made
  }

  /// Applies a line of keys without `$N` as ``apply(line:references:recalls:)`` does, after
  /// checking it as a session checks a line (``Calculator/keyRejection(in:keypad:)``): throws
  /// that rejection, changing nothing, when a key may not be pressed.
  ///
  /// Outside Programmer mode the check rides on the pass that encodes the keys: only a key
  /// beyond Standard's (code 29 on) needs the keypad, and a line without one is not checked
  /// again; in Programmer mode the line takes the whole check first. The keys are pressed a run at a time (``Calculator/press(each:)``), a run ending
  /// where a snapshot is due, rather than in one call a key. `keys` must not be empty.
  /// - Complexity: O(n) in the number of keys, amortized.
  mutating func apply(checkedLine keys: ArraySlice<Key>) throws(SessionError)
    -> Int?
  {
    let keypad = state.keypad
    // In Programmer mode every key needs the keypad: the whole check first.
    let checkedWhole = keypad.mode == .programmer
    if checkedWhole, let error = Calculator.keyRejection(in: keys, keypad: keypad) { throw error }
    defer { _checkInvariantsIfEnabled() }
    let applied = keys.withUnsafeBufferPointer { keys -> Int?? in
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: keys.count) { codes -> Int?? in
        // Codes 0 through 28 are Standard's keys, pressable in every mode but Programmer; a
        // `$N` key (code 0xFF), which a line without references does not hold, would only take
        // the whole check.
        // The or of the codes, compared once after the loop: a test a key, with the first code
        // beyond Standard's computed for it, cost 40 instructions a script line (callgrind).
        // It is at least the highest code; a line of Standard's keys whose or reaches 29 (AC
        // and `=`: 16 | 15) takes the whole check, which passes it.
        let all = Key.codes(of: keys, into: codes)
        if all >= History.firstCodeBeyondStandard, !checkedWhole,
          Calculator.keyRejection(in: keys, keypad: keypad) != nil
        {
          return Int??.none
        }
        let made = position < count ? startBranch() : nil
        // The room for the codes is made as they are appended (`appendLine`): an access to the
        // branch fewer.
        let ownStart = branches[current].codes.count
        var untilSnapshot = History.snapshotInterval - ownStart % History.snapshotInterval
        var start = 0
        while start < keys.count {
          let end = min(keys.count, start + untilSnapshot)
          // Rule 18: the line starts by ending the number still being typed.
          state.press(
            each: UnsafeBufferPointer(rebasing: keys[start..<end]), startingLine: start == 0)
          untilSnapshot -= end - start
          if untilSnapshot == 0 {
            appendSnapshot(at: ownStart + end)
            untilSnapshot = History.snapshotInterval
          }
          start = end
        }
        branches[current].appendLine(codes)
        // Once a line, not at every key: Standard mode's keys pay nothing for light snapshots.
        if state.mode != .standard { noteRestart(in: UnsafeBufferPointer(codes), at: ownStart) }
        return Int??.some(made)
      }
    }
    guard let made = applied else {
      // Rejected: the check again, for its error (a rare path).
      throw Calculator.keyRejection(in: keys, keypad: keypad).unsafelyUnwrapped
    }
    position = branches[current].count
    return made
  }

  /// The first code of a key outside Standard mode's (``Key/code``).
  static var firstCodeBeyondStandard: UInt8 { Key.scientific(.bracket(.open)).code }

  /// Starts a new branch at the position unless the position is at the end of the current
  /// branch (where a line then grows it); returns the number of the new branch, if one was
  /// made.
  private mutating func startBranchUnlessAtEnd() -> Int? {
    position < count ? startBranch() : nil
  }

  /// Starts a new branch at the position, which is before the end of the current branch;
  /// returns its number. Not inlined: a script's lines, at the end, do not start one.
  @inline(never)
  private mutating func startBranch() -> Int {
    let parent = position == 0 ? 0 : owner(of: position)
    path.removeSubrange((path.firstIndex(of: parent)! + 1)...)
    var branch = Branch(parent: parent, fork: position)
    if let light = forkLight(parent: parent, at: position) {
      branch.appendLight(light)
    } else if state.mode != .standard, let back = forkBack(parent: parent, at: position) {
      branch.appendLight(Light(atForkBack: back))
    } else {
      branch.appendSnapshot(state)
    }
    branches[current].trimRoom()
    branches.append(branch)
    current = branches.count - 1
    path.append(current)
    return current + 1
  }

  /// The code of AC, and of `sci` (`prog`'s is the next).
  static var clearCode: UInt8 { Key.command(.clear).code }
  static var scientificCode: UInt8 { Key.mode(.scientific).code }

  /// Remembers the last restart among `codes`, the line just applied at own offset `start` of
  /// the current branch (the state after it), when no key after it in the line changed the
  /// memory, the angle unit, the radix, the word size or the mode: then the state keeps what
  /// the restart left, and its light snapshot is the state's.
  ///
  /// - Complexity: O(n) in the line's keys.
  @inline(never)
  private mutating func noteRestart(in codes: UnsafeBufferPointer<UInt8>, at start: Int) {
    let afterSettled = settledEnd.map { $0.branch == current && $0.offset == start } ?? false
    settledEnd = state.scientific?.isSettled == true ? (current, start + codes.count) : nil
    var index = codes.count - 1
    while index >= 0 {
      let code = codes[index]
      if let prelude = History.prelude(after: code, state) {
        let light = Light(state, prelude: prelude)
        lastRestart = (current, start + index + 1, light)
        branches[current].appendMark(at: start + index + 1, light)
        return
      }
      if History.changesLightState(code) { return }
      index -= 1
    }
    // No restart, and no key that changes the memory, the angle unit or the mode: a line of
    // Scientific mode after a settled one that starts with a number and an operator settles as
    // after `sci` (``ScientificBrain/isSettled``).
    if afterSettled, state.scientific != nil, let settling = History.settlingKeys(codes) {
      branches[current].appendMark(at: start, Light(state, prelude: 1), settling: settling)
    }
  }

  /// The own offset on the current branch where the last line ended with a settled Scientific
  /// state (``ScientificBrain/isSettled``), and that branch; `nil` if it did not.
  private var settledEnd: (branch: Int, offset: Int)?

  /// The keys of a number and the binary operator after it at the start of `codes`, when
  /// fewer than ``markSpacing``; `nil` if the line starts otherwise. The number starts with a
  /// digit or a point, which clears the entry a settled state keeps (a constant first would
  /// not); digits, points, constants and `exp` follow.
  static func settlingKeys(_ codes: UnsafeBufferPointer<UInt8>) -> Int? {
    // Digits and the point; after the first key, π, e and `exp` too.
    func isNumber(_ code: UInt8, first: Bool) -> Bool {
      code <= Key.dot.code
        || (!first
          && code &- Key.scientific(.constant(.pi)).code <= Key.scientific(.exponent).code
            &- Key.scientific(.constant(.pi)).code)
    }
    var index = 0
    while index < codes.count, index < markSpacing - 1, isNumber(codes[index], first: index == 0) {
      index += 1
    }
    guard index > 0, index < codes.count else { return nil }
    let code = codes[index]
    let isOperator =
      code &- Key.op(.plus).code <= Key.op(.divide).code &- Key.op(.plus).code
      || code &- Key.scientific(.binary(.power)).code <= Key.scientific(.binary(.logBase)).code
        &- Key.scientific(.binary(.power)).code
    return isOperator ? index + 1 : nil
  }

  /// The light snapshot for a branch that leaves branch index `parent` at `position` (the state
  /// now): its restart the last among the parent's own keys before the fork, fewer than
  /// ``snapshotInterval`` keys back with no mode key between; `nil` for a state of Standard mode
  /// or without one.
  ///
  /// - Complexity: O(``snapshotInterval``) to find the restart; where a key between it and the
  ///   fork may have changed the memory, the angle unit, the radix or the word size, the state
  ///   at the restart is replayed: O(``snapshotInterval``) keys more.
  private func forkLight(parent: Int, at position: Int) -> Light? {
    guard state.mode != .standard else { return nil }
    let branch = branches[parent]
    // The parent's own keys 0..<end lead up to the fork.
    let end = position - branch.fork
    var index = end - 1
    var changed = false
    while index >= max(0, end - History.snapshotInterval) {
      let code = branch.codes[index]
      // With no mode key between the restart and the fork, the restart's mode is the state's.
      if History.prelude(after: code, state) != nil {
        // Without a key between that changed what a light state keeps, it is the state's.
        let restart = changed ? self.state(at: branch.fork + index + 1, on: parent) : state
        guard let prelude = History.prelude(after: code, restart) else { return nil }
        let light = Light(restart, prelude: prelude, back: end - index - 1)
        return !changed || light.state == restart ? light : nil
      }
      if History.changesLightState(code) {
        if code &- History.scientificCode &+ 1 < 3 { return nil }
        changed = true
      }
      index -= 1
    }
    return nil
  }

  /// The keys that rebuilding the state at `position` on branch index `parent` replays, when
  /// fewer than ``snapshotInterval``: then a branch that leaves there keeps its first snapshot
  /// as a marker (``Light/init(atForkBack:)``) and a jump on it replays fewer than twice
  /// ``snapshotInterval`` keys, as after a light snapshot; `nil` otherwise.
  ///
  /// - Complexity: O(log s), s the parent's light snapshots.
  private func forkBack(parent: Int, at position: Int) -> Int? {
    let back = replayCost(at: position, on: parent)
    return back < History.snapshotInterval ? back : nil
  }

  /// The number of keys that ``state(at:on:)`` replays to rebuild the state at `position` on
  /// branch index `index` (a light snapshot's prelude not counted): from the interval's
  /// snapshot, or from the last restart mark (``Mark``) when that lies after it.
  ///
  /// - Complexity: O(log s + log m), s the branch's light snapshots, m its marks.
  func replayCost(at position: Int, on index: Int) -> Int {
    let branch = branches[index]
    let offset = position - branch.fork
    let cost =
      offset % History.snapshotInterval
      + branch.back(ofSnapshot: offset / History.snapshotInterval)
    guard let mark = branch.lastMark(atOrBefore: offset) else { return cost }
    return min(cost, offset - mark.offset)
  }

  /// Appends the snapshot after `offset` own keys of the current branch (the state): light when
  /// the state is boxed and the last restart lies fewer than ``snapshotInterval`` keys back.
  private mutating func appendSnapshot(at offset: Int) {
    if state.mode != .standard, var restart = lastRestart, restart.branch == current,
      offset - restart.offset < History.snapshotInterval
    {
      restart.light.back = UInt16(offset - restart.offset)
      branches[current].appendLight(restart.light)
    } else {
      branches[current].appendSnapshot(state)
    }
  }

  /// Sets the note of the line of the current branch that ends at `end` (a real line end,
  /// ``endsLine(at:)``), or removes it when `note` is `nil`. Every branch that shares the line
  /// shares its note.
  mutating func setNote(_ note: String?, ofLineEndingAt end: Int) {
    defer { _checkInvariantsIfEnabled() }
    let index = owner(of: end)
    let own = end - branches[index].fork - 1
    precondition(branches[index].endsLine(at: own), "not a line's end")
    branches[index].notes[own] = note
  }

  /// Moves to `position` on the current branch, which must be within `0...count`.
  ///
  /// - Complexity: O(``snapshotInterval`` + log b), as ``state(at:)``.
  mutating func move(to position: Int) {
    defer { _checkInvariantsIfEnabled() }
    state = state(at: position)
    self.position = position
  }

  /// Where `count` lines back from the position begin (stopping at 0): the start of the line
  /// the position is in or has just finished, then of the line before it, and so on.
  ///
  /// A line starts at 0, after the last key of a line, and where the current branch leaves
  /// another (its first line starts there even when the line it left goes on).
  /// - Complexity: O(keys crossed / 64 + log b).
  func lineStart(back count: Int) -> Int {
    var target = position
    var left = count
    while left > 0, target > 0 {
      target = previousBoundary(before: target)
      left -= 1
    }
    return target
  }

  /// Where `count` lines back from the position begin, stopping at `floor` (a line start, or
  /// above the position), and how many of the `count` were left when it stopped there.
  ///
  /// - Complexity: O(keys crossed / 64 + log b).
  func lineStart(back count: Int, floor: Int) -> (step: Int, left: Int) {
    var target = position
    var left = count
    while left > 0, target > floor {
      target = previousBoundary(before: target)
      left -= 1
    }
    return (target, left)
  }

  /// Where `count` lines forward from the position end, stopping at the end of the branch, and
  /// how many of the `count` were left when it stopped there.
  ///
  /// - Complexity: O(keys crossed / 64 + log b).
  func lineEndCounting(forward count: Int) -> (step: Int, left: Int) {
    var target = position
    var left = count
    while left > 0, target < self.count {
      target = nextBoundary(after: target)
      left -= 1
    }
    return (target, left)
  }

  /// Where the `count`th line forward from the position ends, stopping at the end of the branch.
  ///
  /// - Complexity: O(keys crossed / 64 + log b).
  func lineEnd(forward count: Int) -> Int {
    var target = position
    var left = count
    while left > 0, target < self.count {
      target = nextBoundary(after: target)
      left -= 1
    }
    return target
  }

  /// Makes branch `number` (within `1...branchCount`) current, at its end.
  ///
  /// - Complexity: O(``snapshotInterval`` + the depth of the branch in the tree).
  mutating func switchTo(branch number: Int) {
    defer { _checkInvariantsIfEnabled() }
    if number - 1 != current { branches[current].trimRoom() }
    current = number - 1
    path.removeAll(keepingCapacity: true)
    var index = current
    while index >= 0 {
      path.append(index)
      index = branches[index].parent
    }
    path.reverse()
    move(to: count)
  }

  // MARK: - Internals

  /// The index of the branch on the current path that owns the key leading to `step` (≥ 1):
  /// the last branch of the path whose fork lies before `step`.
  private func owner(of step: Int) -> Int {
    var low = 0
    var high = path.count - 1
    // Invariant: branches[path[low]].fork < step (the first branch's fork is 0).
    while low < high {
      let middle = (low + high + 1) / 2
      if branches[path[middle]].fork < step { low = middle } else { high = middle - 1 }
    }
    return path[low]
  }

  /// The state at `position` (a step the branch at `index` owns, or its fork).
  private func state(at position: Int, on index: Int) -> State {
    let branch = branches[index]
    let offset = position - branch.fork
    var (state, start) = branch.snapshot(offset / History.snapshotInterval)
    if let mark = branch.lastMark(atOrBefore: offset), mark.offset > start {
      // A restart after the snapshot's start (``Mark``): the replay starts there.
      state = branch.markLight(mark.index).state
      start = mark.offset
    } else if start < 0 {
      if start == Int.min {
        // A first snapshot that is the parent's state at the fork, fewer than an interval of
        // the parent's keys after its own snapshot.
        state = self.state(at: branch.fork, on: branch.parent)
      } else {
        // A first snapshot whose restart lies among the parent's own keys before the fork.
        let parent = branches[branch.parent]
        parent.replay(
          (branch.fork - parent.fork + start)..<(branch.fork - parent.fork), on: &state)
      }
      start = 0
    }
    branch.replay(start..<offset, on: &state)
    return state
  }

  /// The line start before `step` (≥ 1) on the current path.
  private func previousBoundary(before step: Int) -> Int {
    let branch = branches[owner(of: step)]
    // Own keys at indices 0..<(step − fork − 1) lead to the steps before `step`.
    let end = step - branch.fork - 1
    if let index = branch.lastLineEnd(before: end) {
      return branch.fork + index + 1
    }
    return branch.fork
  }

  /// The line end after `step` (< count) on the current path.
  private func nextBoundary(after step: Int) -> Int {
    let index = owner(of: step + 1)
    let branch = branches[index]
    let depth = path.lastIndex(of: index)!
    let segmentEnd = depth + 1 < path.count ? branches[path[depth + 1]].fork : branch.count
    let start = step - branch.fork
    let end = segmentEnd - branch.fork
    if let found = branch.firstLineEnd(in: start..<end) {
      return step + found - start + 1
    }
    return segmentEnd
  }
}

extension History.Branch {
  /// The index of the last own key before `end` that ends a line, 64 keys at a time.
  func lastLineEnd(before end: Int) -> Int? {
    var index = end
    while index > 0 {
      let word = (index - 1) >> 6
      // The bits of keys word × 64 ..< index.
      let bits =
        index & 63 == 0 ? lineEnds[word] : lineEnds[word] & ((1 << UInt64(index & 63)) - 1)
      if bits != 0 { return word << 6 + 63 - bits.leadingZeroBitCount }
      index = word << 6
    }
    return nil
  }

  /// The index of the first own key in `range` that ends a line, 64 keys at a time.
  func firstLineEnd(in range: Range<Int>) -> Int? {
    var index = range.lowerBound
    while index < range.upperBound {
      let word = index >> 6
      let bits = lineEnds[word] >> UInt64(index & 63)
      if bits != 0 {
        let found = index + bits.trailingZeroBitCount
        return found < range.upperBound ? found : nil
      }
      index = (word + 1) << 6
    }
    return nil
  }

  /// Makes room for `count` more keys, growing the storage by a quarter rather than doubling.
  ///
  /// `append` alone doubles the capacity, which can leave almost as much unused storage as there
  /// are keys: 2.2 bytes per key at 10,000,000 keys, over the 2 that SPEC §7 allows. Growing by a
  /// quarter bounds the slack to 25% and keeps appending amortized O(1).
  @inline(__always)
  mutating func reserveRoom(for count: Int) {
    let needed = codes.count + count
    guard needed > codes.capacity else { return }
    codes.reserveCapacity(max(needed, codes.count + codes.count / 4, 64))
    lineEnds.reserveCapacity((codes.capacity + 63) >> 6)
  }

  /// Reserves room for `keys` more own keys and the whole snapshots between them at once: a
  /// capacity hint (``History/reserveCapacity(forKeys:)``).
  ///
  /// - Complexity: O(n) in the branch's own keys, when the storage moves.
  mutating func reserveCapacity(forKeys keys: Int) {
    codes.reserveCapacity(codes.count + keys)
    lineEnds.reserveCapacity((codes.capacity + 63) >> 6)
    snapshots.reserveCapacity(snapshots.count + keys / History.snapshotInterval + 1)
  }

  /// Gives back the room reserved for keys not typed yet (``reserveRoom(for:)``), for a branch
  /// being left that holds at most ``History/trimLimit`` own keys: copying it costs less than a
  /// jump's replay. A branch of the densest tree SPEC §7 allows (one per 1,000 keys) would keep
  /// about 12% more bytes than its keys otherwise; a longer one keeps its room (at most a
  /// quarter), which saves copying it again each time a line is added after a return to it.
  ///
  /// - Complexity: O(n) in the branch's own keys, at most ``History/trimLimit``.
  mutating func trimRoom() {
    guard codes.count <= History.trimLimit, codes.capacity > codes.count else { return }
    codes = codes.withUnsafeBufferPointer { Array($0) }
    lineEnds = lineEnds.withUnsafeBufferPointer { Array($0) }
    if marks.capacity > marks.count { marks = marks.withUnsafeBufferPointer { Array($0) } }
    if markBytes.capacity > markBytes.count {
      markBytes = markBytes.withUnsafeBufferPointer { Array($0) }
    }
  }

  /// Appends a whole snapshot, growing the array as ``appendLight(_:)`` does.
  mutating func appendSnapshot(_ state: History.State) {
    Self.grow(&snapshots)
    snapshots.append(state)
  }

  /// Appends a light snapshot.
  mutating func appendLight(_ light: History.Light) {
    var light = light
    light.slot = UInt32(snapshotCount)
    Self.grow(&lights)
    lights.append(light)
  }

  /// Makes room for one more element: one at a time up to four, then by a quarter (as
  /// ``reserveRoom(for:)``), so that a branch of a few intervals, as the densest tree SPEC §7
  /// allows has (one branch per 1,000 keys, three snapshots), keeps no unused room.
  @inline(__always)
  static func grow<Element>(_ array: inout [Element]) {
    if array.count == array.capacity {
      array.reserveCapacity(max(array.count + array.count / 4, array.count + 1))
    }
  }

  /// Whether the branch's first snapshot is its parent's state at the fork
  /// (``History/Light/isAtFork``).
  @inline(__always)
  var startsAtFork: Bool {
    guard let first = lights.first else { return false }
    return first.slot == 0 && first.isAtFork
  }

  /// The keys between snapshot `index`'s step and the step whose state it is rebuilt from: 0
  /// for a whole one, ``History/Light/back`` for a light one.
  ///
  /// - Complexity: O(log s), s the light snapshots.
  func back(ofSnapshot index: Int) -> Int {
    var low = 0
    var high = lights.count
    while low < high {
      let middle = (low + high) / 2
      if lights[middle].slot < index { low = middle + 1 } else { high = middle }
    }
    return low < lights.count && lights[low].slot == index ? Int(lights[low].back) : 0
  }

  /// The state of snapshot `index` and the own offset it is at: its step, or for a light one
  /// the step of its restart (below 0 for a branch's first snapshot whose restart lies among
  /// its parent's keys); `Int.min` for a first snapshot at the fork (``startsAtFork``), whose
  /// state is a placeholder.
  @inline(__always)
  func snapshot(_ index: Int) -> (state: History.State, offset: Int) {
    let offset = index * History.snapshotInterval
    if lights.isEmpty { return (snapshots[index], offset) }
    // The first light snapshot at or after `index`.
    var low = 0
    var high = lights.count
    while low < high {
      let middle = (low + high) / 2
      if lights[middle].slot < index { low = middle + 1 } else { high = middle }
    }
    guard low < lights.count, lights[low].slot == index else {
      return (snapshots[index - low], offset)
    }
    let light = lights[low]
    return (light.state, light.isAtFork ? Int.min : offset - Int(light.back))
  }
}

extension History {
  /// Whether the mutators check the invariants after every change: built with
  /// `-Xswiftc -DCALC_INTERNAL_CHECKS` (one pass of `.ci/run` does it), as swift-collections'
  /// `COLLECTIONS_INTERNAL_CHECKS`.
  public static var internalChecksAreEnabled: Bool {
    #if CALC_INTERNAL_CHECKS
      true
    #else
      false
    #endif
  }

  /// With internal checks (``internalChecksAreEnabled``), ``_checkInvariants()`` while the
  /// history holds at most 20,000 keys (the full check replays every branch, so a history of
  /// millions of keys, as the benchmark's, would take hours); nothing otherwise.
  @inline(__always)
  func _checkInvariantsIfEnabled() {
    #if CALC_INTERNAL_CHECKS
      if recordedCount <= 20_000 { _checkInvariants() }
    #endif
  }

  /// Checks every invariant of the history, trapping on the first that fails; does nothing in a
  /// release build. The mutators call it when built with internal checks; tests call it where a
  /// history is built by other means (a replayed journal).
  ///
  /// Positions in range; each branch's parent, fork and snapshots (one per interval, each equal
  /// to a replay); the current path; the state at the position equal to a replay of the branch's
  /// prefix.
  /// - Complexity: O(n) in the number of keys on all branches, times their depth.
  public func _checkInvariants() {
    #if DEBUG
      precondition(!branches.isEmpty && branches[0].parent == -1 && branches[0].fork == 0)
      for (index, branch) in branches.enumerated() {
        precondition(index == 0 || !branch.codes.isEmpty, "branch \(index + 1) has no keys")
        if index > 0 {
          precondition((0..<index).contains(branch.parent), "branch \(index + 1): parent")
          let parent = branches[branch.parent]
          precondition(
            branch.fork < parent.count
              && (branch.fork > parent.fork || (branch.parent == 0 && branch.fork == 0)),
            "branch \(index + 1): fork \(branch.fork) outside its parent's own keys")
        }
        if !branch.codes.isEmpty {
          precondition(
            branch.endsLine(at: branch.codes.count - 1), "branch \(index + 1) ends inside a line")
        }
        precondition(
          branch.codes.indices.allSatisfy { at in
            let code = branch.codes[at]
            return code == Key.referenceCode
              ? branch.references[at] != nil : Key(code: code) != nil
          }, "branch \(index + 1): a byte that is no key")
        precondition(
          branch.notes.keys.allSatisfy { branch.endsLine(at: $0) },
          "branch \(index + 1): a note that is not at a line's end")
        precondition(
          branch.snapshotCount == branch.codes.count / History.snapshotInterval + 1,
          "branch \(index + 1): one snapshot per interval")
        precondition(
          zip(branch.lights, branch.lights.dropFirst()).allSatisfy { $0.slot < $1.slot }
            && (branch.lights.last.map { Int($0.slot) < branch.snapshotCount } ?? true),
          "branch \(index + 1): lights in order of their slots")
        // Each snapshot (rebuilt, for a light one) at the own offset it stands for.
        var snapshotAt: [Int: History.State] = [:]
        // Each restart mark's state at its own offset, in order, within the branch's keys.
        var markAt: [Int: History.State] = [:]
        precondition(
          zip(branch.marks, branch.marks.dropFirst()).allSatisfy { $0.offset < $1.offset }
            && (branch.marks.last.map { Int($0.offset) <= branch.codes.count } ?? true),
          "branch \(index + 1): marks in order of their offsets")
        for at in branch.marks.indices {
          // A settling mark's state is the state after its settling keys.
          var state = branch.markLight(at).state
          let offset = Int(branch.marks[at].offset)
          let settling = branch.settling(ofMark: at)
          precondition(settling < History.markSpacing, "branch \(index + 1): settling keys")
          for key in offset..<offset + settling {
            if branch.startsLine(at: key) { state.startLine() }
            branch.press(at: key, &state)
          }
          markAt[offset + settling] = state
        }
        precondition(
          branch.lights.allSatisfy { !$0.isAtFork || $0.slot == 0 },
          "branch \(index + 1): a snapshot at the fork after the first")
        if branch.startsAtFork {
          // The parent's state at the fork, fewer than an interval of keys away.
          let back = Int(branch.lights[0].back)
          precondition(
            index > 0 && back == replayCost(at: branch.fork, on: branch.parent)
              && back < History.snapshotInterval,
            "branch \(index + 1): the snapshot at the fork replays \(back) keys")
          snapshotAt[0] = self.state(at: branch.fork, on: index)
        }
        for at in (branch.startsAtFork ? 1 : 0)..<branch.snapshotCount {
          let (state, offset) = branch.snapshot(at)
          precondition(
            offset > (at - 1) * History.snapshotInterval,
            "branch \(index + 1): snapshot \(at)'s restart")
          if offset < 0 {
            // Restarted among the parent's own keys: the state at the restart on the parent.
            let parent = branches[branch.parent]
            precondition(
              at == 0 && branch.fork + offset > parent.fork
                && state == self.state(at: branch.fork + offset, on: branch.parent),
              "branch \(index + 1): the fork's light snapshot")
          } else {
            snapshotAt[offset] = state
          }
        }
        // Replay the branch from the start along its own ancestry.
        var ancestry: [Int] = []
        var walk = index
        while walk >= 0 {
          ancestry.append(walk)
          walk = branches[walk].parent
        }
        var state = State.initial
        var step = 0
        for (depth, at) in ancestry.reversed().enumerated() {
          let own = branches[at]
          let end =
            depth + 1 < ancestry.count
            ? branches[ancestry[ancestry.count - depth - 2]].fork : own.count
          while step < end {
            if at == index, let snapshot = snapshotAt.removeValue(forKey: step - own.fork) {
              precondition(snapshot == state, "branch \(index + 1): snapshot at step \(step)")
            }
            if at == index, let mark = markAt.removeValue(forKey: step - own.fork) {
              precondition(mark == state, "branch \(index + 1): mark at step \(step)")
            }
            if own.startsLine(at: step - own.fork) { state.startLine() }
            own.press(at: step - own.fork, &state)
            step += 1
          }
        }
        if let snapshot = snapshotAt.removeValue(forKey: branch.count - branch.fork) {
          precondition(snapshot == state, "branch \(index + 1): last snapshot")
        }
        if let mark = markAt.removeValue(forKey: branch.count - branch.fork) {
          precondition(mark == state, "branch \(index + 1): last mark")
        }
        precondition(snapshotAt.isEmpty, "branch \(index + 1): a snapshot off the branch")
        precondition(markAt.isEmpty, "branch \(index + 1): a mark off the branch")
      }
      var expectedPath: [Int] = []
      var walk = current
      while walk >= 0 {
        expectedPath.append(walk)
        walk = branches[walk].parent
      }
      precondition(path == expectedPath.reversed(), "the current path")
      precondition((0...count).contains(position), "position \(position) outside 0…\(count)")
      var replayed = State.initial
      for step in 0..<position {
        if startsLine(at: step + 1) { replayed.startLine() }
        let branch = branches[owner(of: step + 1)]
        branch.press(at: step - branch.fork, &replayed)
      }
      precondition(state == replayed, "the state at position \(position) is not its replay")
    #endif
  }
}
