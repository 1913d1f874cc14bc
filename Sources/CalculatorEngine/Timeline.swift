/// Every key applied to a calculator, and a position in them that can move anywhere: the book's
/// history and slider, with jumps that do not replay from the start.
///
/// Keys before ``position`` are applied; keys after it are the kept future (the book's
/// `temporaryKept`), which ``move(to:)`` and ``redo(_:)`` can return to and which ``apply(_:)``
/// discards. The invariant: ``calculator`` always equals replaying the first ``position`` keys on
/// a fresh calculator — memory included.
///
/// Keys are stored as one byte each, with a snapshot of the calculator every ``checkpointInterval``
/// keys, so a jump replays fewer than ``checkpointInterval`` keys wherever it lands.
public struct Timeline: Sendable {
  /// How many keys lie between two snapshots: a jump replays fewer keys than this.
  public static let checkpointInterval = 256

  /// Every recorded key's ``CalculatorButtonItem/code``, applied ones and kept future.
  private var codes: [UInt8] = []
  /// `checkpoints[i]` is the calculator after the first `i × checkpointInterval` keys, for every such
  /// prefix of `codes`.
  private var checkpoints: [Calculator] = [.initial]

  /// The number of keys applied: 0 through ``count``.
  public private(set) var position = 0

  /// The calculator after the applied keys.
  public private(set) var calculator = Calculator.initial

  /// An empty timeline at position 0.
  public init() {}

  /// A timeline holding `keys`, at `position` (default: the end).
  ///
  /// Throws ``TimelineError/positionOutOfRange(_:valid:)`` unless `0 ≤ position ≤ count`.
  /// - Complexity: O(n) in the number of keys.
  public init(keys: some Sequence<CalculatorButtonItem>, position: Int? = nil)
    throws(TimelineError)
  {
    for key in keys { apply(key) }
    if let position { try move(to: position) }
  }

  /// The number of keys recorded, applied and kept.
  public var count: Int { codes.count }

  /// Whether no key is recorded.
  public var isEmpty: Bool { codes.isEmpty }

  /// Whether the position is at the end, with no kept future.
  public var isAtEnd: Bool { position == codes.count }

  /// Every recorded key in order: the applied ones, then the kept future.
  public var keys: LazyMapCollection<[UInt8], CalculatorButtonItem> {
    codes.lazy.map { CalculatorButtonItem(code: $0)! }
  }

  /// The key at `index`, which must be below ``count``.
  public func key(at index: Int) -> CalculatorButtonItem {
    CalculatorButtonItem(code: codes[index])!
  }

  /// Applies `key` at the current position, discarding the kept future first.
  ///
  /// - Complexity: amortized O(1); O(kept future) when there is one to discard.
  public mutating func apply(_ key: CalculatorButtonItem) {
    if position < codes.count { discardFuture() }
    calculator = calculator.apply(key)
    if codes.count == codes.capacity { Timeline.grow(&codes) }
    codes.append(key.code)
    position += 1
    if position % Timeline.checkpointInterval == 0 {
      if checkpoints.count == checkpoints.capacity { Timeline.grow(&checkpoints) }
      checkpoints.append(calculator)
    }
  }

  /// Applies each of `keys` in turn.
  ///
  /// - Complexity: O(n) in the number of keys.
  public mutating func apply(_ keys: some Sequence<CalculatorButtonItem>) {
    for key in keys { apply(key) }
  }

  /// Moves to `position`, keeping every key.
  ///
  /// Throws, changing nothing, unless `0 ≤ position ≤ count`.
  /// - Complexity: O(``checkpointInterval``), whatever the position and the count.
  public mutating func move(to position: Int) throws(TimelineError) {
    guard (0...codes.count).contains(position) else {
      throw .positionOutOfRange(position, valid: 0...codes.count)
    }
    calculator = self.calculator(at: position)
    self.position = position
  }

  /// Moves back `steps` keys, stopping at 0; a negative `steps` does not move.
  ///
  /// - Complexity: O(``checkpointInterval``).
  public mutating func undo(_ steps: Int = 1) {
    try! move(to: position - min(max(steps, 0), position))
  }

  /// Moves forward `steps` keys, stopping at the end; a negative `steps` does not move.
  ///
  /// - Complexity: O(``checkpointInterval``).
  public mutating func redo(_ steps: Int = 1) {
    try! move(to: position + min(max(steps, 0), codes.count - position))
  }

  /// Empties the timeline.
  public mutating func reset() {
    self = Timeline()
  }

  /// The calculator after the first `position` keys, which must be within `0...count`.
  ///
  /// - Complexity: O(``checkpointInterval``).
  public func calculator(at position: Int) -> Calculator {
    let checkpoint = position / Timeline.checkpointInterval
    var calculator = checkpoints[checkpoint]
    for code in codes[(checkpoint * Timeline.checkpointInterval)..<position] {
      calculator = calculator.apply(CalculatorButtonItem(code: code)!)
    }
    return calculator
  }

  /// Calls `body` for every position from 0 through ``count`` with the key that led there (none
  /// at 0) and the calculator there.
  ///
  /// - Complexity: O(n) in the number of keys.
  public func forEachStep(_ body: (Int, CalculatorButtonItem?, Calculator) -> Void) {
    var calculator = Calculator.initial
    body(0, nil, calculator)
    for (index, code) in codes.enumerated() {
      let key = CalculatorButtonItem(code: code)!
      calculator = calculator.apply(key)
      body(index + 1, key, calculator)
    }
  }

  /// Reserves storage for `count` keys in all, so that recording them does not reallocate.
  ///
  /// - Complexity: O(n) in the number of keys recorded, which move if the storage grows.
  public mutating func reserveCapacity(_ count: Int) {
    codes.reserveCapacity(count)
    checkpoints.reserveCapacity(count / Timeline.checkpointInterval + 1)
  }

  /// The bytes of storage the timeline holds for its keys and snapshots (allocated capacity).
  public var storageBytes: Int {
    codes.capacity + checkpoints.capacity * MemoryLayout<Calculator>.stride
  }

  /// Makes room in a full `array` for a quarter more elements.
  ///
  /// `append` alone doubles the capacity, which can leave almost as much unused storage as
  /// there are keys: 2.2 bytes per key at 10,000,000 keys, over the 2 that SPEC §7 allows.
  /// Growing by a quarter bounds the slack to 25% (1.64 bytes per key at worst, with the
  /// snapshots) and keeps appending amortized O(1): each byte is copied about four times in all.
  @inline(never)
  private static func grow<Element>(_ array: inout [Element]) {
    array.reserveCapacity(max(array.count + array.count / 4, 64))
  }

  private mutating func discardFuture() {
    codes.removeSubrange(position...)
    checkpoints.removeSubrange((position / Timeline.checkpointInterval + 1)...)
  }
}

/// A position that a timeline does not have.
public enum TimelineError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The position asked for, and the positions the timeline has: `0...count`.
  case positionOutOfRange(Int, valid: ClosedRange<Int>)

  /// `position 12 is out of range 0…9`.
  public var description: String {
    switch self {
    case .positionOutOfRange(let position, let valid):
      "position \(position) is out of range \(valid.lowerBound)…\(valid.upperBound)"
    }
  }
}
