import CalculatorEngine

/// The book's `CalculatorModel`, kept as it was: the reference that `History` is tested and
/// measured against.
///
/// Moving the slider calls ``keepHistory(upTo:)``, which recomputes the brain by replaying every
/// key before the index from a fresh calculator: simple and obviously right, and O(n) per jump.
public struct SeedCalculatorModel: Sendable {
  /// The calculator after ``history`` (the book's `brain`, with the memory beside it).
  public private(set) var brain = Calculator.initial
  /// The keys applied.
  public private(set) var history: [CalculatorButtonItem] = []
  /// The keys after the slider, kept so that the slider can go forward again.
  public private(set) var temporaryKept: [CalculatorButtonItem] = []
  /// The slider's value, 0 through ``totalCount``.
  public private(set) var slidingIndex = 0

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
  public mutating func apply(_ item: CalculatorButtonItem) {
    brain = brain.apply(item)
    history.append(item)
    temporaryKept.removeAll()
    slidingIndex = totalCount
  }

  /// Moves the slider to `index` (0 through ``totalCount``; any other index traps) and replays
  /// the keys before it.
  ///
  /// - Complexity: O(n) in ``totalCount``.
  public mutating func keepHistory(upTo index: Int) {
    let total = history + temporaryKept
    history = Array(total[..<index])
    temporaryKept = Array(total[index...])
    brain = Calculator.initial.applying(history)
    slidingIndex = index
  }
}
