import CalculatorEngine

/// The book's `CalculatorModel`, kept as it was: the reference that `History` is tested and
/// measured against.
///
/// Moving the slider calls ``keepHistory(upTo:)``, which recomputes the brain by replaying every
/// key before the index from a fresh calculator: simple and obviously right, and O(n) per jump.
/// Since SPEC rule 18 it also knows where lines start (``apply(line:)``), and starts a line
/// there when it replays (``Calculator/startLine()``); keys applied one by one with
/// ``apply(_:)`` are all of one line, as in the book.
public struct SeedCalculatorModel: Sendable {
  /// The calculator after ``history`` (the book's `brain`, with the memory beside it).
  public private(set) var brain = Calculator.initial
  /// The keys applied.
  public private(set) var history: [Key] = []
  /// The keys after the slider, kept so that the slider can go forward again.
  public private(set) var temporaryKept: [Key] = []
  /// The slider's value, 0 through ``totalCount``.
  public private(set) var slidingIndex = 0
  /// The indices (in ``history`` followed by ``temporaryKept``) of the keys that start a line.
  public private(set) var lineStarts: Set<Int> = []

  /// A fresh calculator with an empty history, the slider at 0.
  public init() {}

  /// The number of keys applied and kept.
  public var totalCount: Int { history.count + temporaryKept.count }

  /// The applied keys' titles, joined: `98-3+2×4`.
  ///
  /// - Complexity: O(n) in the number of applied keys.
  public var historyDetail: String { history.map(\.title).joined() }

  /// Applies `item`, forgets the kept keys and moves the slider to the end.
  ///
  /// - Complexity: amortized O(1), plus O(kept keys) when there are any to forget.
  public mutating func apply(_ item: Key) {
    brain = brain.apply(item)
    history.append(item)
    if !temporaryKept.isEmpty {
      temporaryKept.removeAll()
      lineStarts = lineStarts.filter { $0 < history.count }
    }
    slidingIndex = totalCount
  }

  /// Applies a line of keys (at least one): starts a line, then applies each key.
  public mutating func apply(line items: [Key]) {
    temporaryKept.removeAll()
    lineStarts = lineStarts.filter { $0 < history.count }
    lineStarts.insert(history.count)
    brain.startLine()
    for item in items { apply(item) }
  }

  /// Moves the slider to `index` (0 through ``totalCount``; any other index traps) and replays
  /// the keys before it.
  ///
  /// - Complexity: O(n) in ``totalCount``.
  public mutating func keepHistory(upTo index: Int) {
    let total = history + temporaryKept
    history = Array(total[..<index])
    temporaryKept = Array(total[index...])
    brain = Calculator.initial
    for (position, item) in history.enumerated() {
      if lineStarts.contains(position) { brain.startLine() }
      brain.press(item)
    }
    slidingIndex = index
  }
}
