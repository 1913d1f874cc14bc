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
/// The code is split by job, as swift-collections splits `Heap`: this file declares the type
/// and the layout of its storage; History+Storage.swift grows a branch's room and finds its
/// snapshots; History+Reading.swift answers every question (states, lines, steps, storage);
/// History+Changing.swift holds the changes only ``Session`` makes (lines, branches, moves,
/// notes); History+Marks.swift the restart marks; History+Invariants.swift the checks that
/// internal checks run after every change.
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
    /// The formula lines among ``codes`` (SPEC §12), by their index there: each one step.
    var formulas = IndexedSteps<FormulaStep>()
    /// The date lines among ``codes`` (SPEC §13), by their index there: each one step.
    var dates = IndexedSteps<DateStep>()
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
      // As a buffer that does not mutate: the mutable one's append is its thunk (8 instructions).
      codes.append(contentsOf: UnsafeBufferPointer(lineCodes))
      markLineEnd(at: codes.count - 1)
    }

    /// ``appendLine(_:)`` of a line of one code (a date line's): without the
    /// general append of a buffer (about 90 instructions for one code).
    @inline(__always)
    mutating func appendLine(code: UInt8) {
      reserveRoom(for: 1)
      codes.append(code)
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
      guard code != Key.formulaCode else { return .formula }
      guard code != Key.dateLineCode else { return .dateLine }
      return Key(code: code)!
    }

    /// Appends the own key at `index` to `keys`, a `$N` key with its N.
    @inline(__always)
    func appendKey(at index: Int, to keys: inout TypedKeys) {
      let code = codes[index]
      if code == Key.referenceCode {
        keys.appendReference(references[index]!.line)
      } else if code == Key.formulaCode {
        keys.appendFormula(formulas[index]!.text)
      } else if code == Key.dateLineCode {
        keys.appendDateLine(dates[index]!.text)
      } else {
        keys.append(Key(code: code)!)
      }
    }

    /// Appends the own keys in `range` to `keys` at once, decoded from their codes, and returns
    /// `true`; returns `false`, appending nothing, when one of them is `$N`, a formula or a
    /// date line (whose text or N ``appendKey(at:to:)`` adds).
    func appendPlainKeys(_ range: ClosedRange<Int>, to keys: inout TypedKeys) -> Bool {
      codes.withUnsafeBufferPointer { codes in
        let part = UnsafeBufferPointer(rebasing: codes[range])
        for code in part where code >= Key.dateLineCode { return false }
        keys.appendKeys(decoding: part)
        return true
      }
    }

    /// Presses the own key at `index` on `state`: a `$N` key recalls what it recalled.
    @inline(__always)
    func press(at index: Int, _ state: inout State) {
      switch step(at: index) {
      case .key(let key): state.press(key)
      case .recall(let recalled): state.recall(recalled)
      case .formula(let step): state.apply(formula: step)
      case .date(let step): state.apply(date: step)
      }
    }

    /// What the own key at `index` does when it is replayed: a key pressed, or what a `$N` key
    /// recalled.
    @inline(__always)
    func step(at index: Int) -> Calculator.Step {
      let code = codes[index]
      if code == Key.referenceCode { return .recall(references[index]!.recalled) }
      if code == Key.formulaCode { return .formula(formulas[index]!) }
      if code == Key.dateLineCode { return .date(dates[index]!) }
      return .key(Key(code: code)!)
    }

    /// Replays the own keys at `range` on `state`, each line starting where one starts
    /// (``Calculator/replay(_:startsLine:step:)``).
    ///
    /// Keys that are all plain (no `$N`, formula or date line) are pressed a line at a time as
    /// the history applied them (``Calculator/press(each:startingLine:)``: a typed number's
    /// digits at once), decoded into a buffer on the stack first (``replayPlain(_:on:)``).
    /// - Complexity: O(n) in the number of keys.
    @inline(__always)
    func replay(_ range: Range<Int>, on state: inout State) {
      guard !range.isEmpty else { return }
      if references.isEmpty, formulas.isEmpty, dates.isEmpty, replayPlain(range, on: &state) {
        return
      }
      // Closures over `self`, not the partially applied methods, each of which copied the
      // branch (a retain of each of its arrays) into its context at every call.
      state.replay(range, startsLine: { self.startsLine(at: $0) }, step: { self.step(at: $0) })
    }

    /// Replays the own keys at `range` (not empty) on `state` a line at a time, as
    /// ``replay(_:on:)`` does, and returns `true`; returns `false`, `state` untouched, when one
    /// of the codes is not a plain key's (`$N`, a formula, a date line).
    /// - Complexity: O(n) in the number of keys.
    @inline(never)
    func replayPlain(_ range: Range<Int>, on state: inout State) -> Bool {
      withUnsafeTemporaryAllocation(of: Key.self, capacity: range.count) { keys in
        let base = range.lowerBound
        let decoded = codes.withUnsafeBufferPointer { codes in
          for index in range {
            let code = codes[index]
            guard code < Key.dateLineCode else { return false }
            (keys.baseAddress.unsafelyUnwrapped + (index - base))
              .initialize(to: Key(code: code).unsafelyUnwrapped)
          }
          return true
        }
        guard decoded else { return false }
        // A line at a time: no line starts after the first key of a piece.
        var start = base
        while start < range.upperBound {
          let end = firstLineEnd(in: start..<range.upperBound).map { $0 + 1 } ?? range.upperBound
          state.press(
            each: UnsafeBufferPointer(rebasing: keys[(start - base)..<(end - base)]),
            startingLine: startsLine(at: start))
          start = end
        }
        return true
      }
    }
  }

  /// A light snapshot (see the storage notes above): the small state after its restart, and how
  /// far back the restart lies.
  struct Light: Hashable, Sendable {
    /// The memory register, angle unit and word size after the restart.
    var memory: Number?
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
      if state.mode == .scientific { return 3 }
      if let programmer = state.programmer { return 4 + programmer.radix.rawValue }
      return nil
    }
    if code == scientificCode, state.mode == .scientific { return 1 }
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
      || code &- Key.angle(.degrees).code <= Key.mode(.formula).code &- Key.angle(.degrees).code
      || code == Key.formulaCode || code == Key.dateLineCode || code == Key.mode(.date).code
      || code &- Key.programmer(.radix(.hex)).code <= Key.programmer(.wordSize(.byte)).code
        &- Key.programmer(.radix(.hex)).code
  }

  /// ``changesLightState(_:)`` by the key the code decodes to.
  static func changesLightState(decoding code: UInt8) -> Bool {
    if code == Key.formulaCode || code == Key.dateLineCode { return true }
    guard code != Key.referenceCode, let key = Key(code: code)
    else { return false }
    switch key {
    case .memory(let memory): return memory != .recall
    case .angle, .mode, .programmer(.radix), .programmer(.wordSize), .formula, .dateLine:
      return true
    case .digit, .dot, .op, .equal, .command, .unary, .reference, .scientific, .programmer:
      return false
    }
  }

  /// The last restart among the current branch's own keys: the branch, the own offset after the
  /// key, and its light snapshot (``Light/back`` still 0).
  var lastRestart: (branch: Int, offset: Int, light: Light)?

  /// A `$N` key as a branch holds it: N as typed, and the value (or error) it recalled.
  struct Reference: Hashable, Sendable {
    var line: Int
    var recalled: Calculator.Recalled
  }

  /// Every branch, in the order they were made; the first always exists (empty only while the
  /// whole history is).
  var branches: [Branch] = [Branch(parent: -1, fork: 0, snapshots: [.initial])]
  /// The index of the current branch in ``branches``.
  var current = 0
  /// The indices of the branches the current branch passes through, from the first to itself:
  /// their forks increase, except that a branch leaving the first at 0 has fork 0 like it.
  var path: [Int] = [0]

  /// The position on the current branch: the number of keys applied, 0 through ``count``.
  public internal(set) var position = 0

  /// The calculator at ``position``.
  public internal(set) var state = State.initial

  /// The own offset on the current branch where the last line ended with a settled Scientific
  /// state (``ScientificBrain/isSettled``), and that branch; `nil` if it did not.
  var settledEnd: (branch: Int, offset: Int)?

  /// An empty history at position 0.
  public init() {}
}

extension History {
  /// Steps kept beside a branch's codes (formula lines, date lines), by the index of their
  /// code, which only grows: the indices in an array in the codes' order, read by a binary
  /// search, and the steps in the same order in chunks.
  ///
  /// Rather than a dictionary: a formula line appended no longer hashes its index, and the
  /// record of 100,000 formula lines is arrays instead of a table with room to spare. The
  /// steps (80 bytes a date line's) in chunks of ``chunkSize`` whose room is reserved whole
  /// from the second on: one array grown by doubling copied every step at each growth and
  /// wrote to twice the memory it keeps (issue 51: a script of 100,000 date lines faulted in
  /// about 8 MB more).
  struct IndexedSteps<Step: Sendable>: Sendable {
    /// The steps a chunk holds; the first grows as an array does, to at most this.
    static var chunkSize: Int { 1024 }
    /// The indices of the steps' codes, increasing. An array, not a ``RunPrefixed``: a branch
    /// keeps two of these, and the run's 40 bytes more made every branch 80 bytes larger (the
    /// densest tree SPEC §7 allows has one branch per 1,000 keys).
    private var indices: [Int] = []
    /// The steps, in the order of ``indices``: step `i` is `chunks[i / chunkSize][i % chunkSize]`.
    private var chunks: [[Step]] = []

    /// Whether no code has a step.
    var isEmpty: Bool { indices.isEmpty }
    /// The number of steps.
    var count: Int { indices.count }

    /// The step at `ordinal` (within `0..<count`), in the order of their codes; lent, not
    /// copied, to a reader of one of its parts.
    subscript(ordinal ordinal: Int) -> Step {
      _read { yield chunks[ordinal / Self.chunkSize][ordinal % Self.chunkSize] }
    }

    /// The step of the code at `index`; `nil` when it has none.
    ///
    /// - Complexity: O(log n) in the number of steps.
    subscript(index: Int) -> Step? {
      var low = 0
      var high = indices.count
      while low < high {
        let middle = (low + high) / 2
        if indices[middle] < index { low = middle + 1 } else { high = middle }
      }
      guard low < indices.count, indices[low] == index else { return nil }
      return chunks[low / Self.chunkSize][low % Self.chunkSize]
    }

    /// Records `step` as the step of the code at `index`, after every code that has one.
    ///
    /// - Complexity: O(1), amortized.
    mutating func append(_ step: consuming Step, at index: Int) {
      precondition(indices.last.map { $0 < index } ?? true, "steps are recorded in order")
      let count = indices.count
      indices.append(index)
      if count % Self.chunkSize != 0 {
        chunks[chunks.count - 1].append(step)
      } else {
        appendChunk(step)
      }
    }

    /// Appends a chunk that holds `step` alone: the first grows as an array does, each later
    /// one has its room reserved whole.
    @inline(never)
    private mutating func appendChunk(_ step: consuming Step) {
      var chunk: [Step] = []
      if !chunks.isEmpty { chunk.reserveCapacity(Self.chunkSize) }
      chunk.append(step)
      chunks.append(chunk)
    }
  }
}
