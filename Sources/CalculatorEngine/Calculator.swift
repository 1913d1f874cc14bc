/// The whole calculator: the calculation (``CalculatorBrain``, the book's state machine) and the
/// memory register beside it.
///
/// This is the state that a history snapshots and time travel restores. ``apply(_:)`` is the
/// reducer: the one `switch` over keys, a pure function from a state and a key to the next.
public struct Calculator: Hashable, Sendable {
  /// The calculation: operands, pending operator, remembered operation, or an error.
  public private(set) var brain: CalculatorBrain
  /// The memory register; `nil` while it is empty (which differs from holding 0: `mr` and `mc`
  /// do nothing then).
  public private(set) var memory: Decimal34?

  /// A fresh calculator: `0`, nothing pending, an empty memory.
  public static let initial = Calculator(brain: .initial, memory: nil)

  /// A calculator in the given state.
  public init(brain: CalculatorBrain, memory: Decimal34? = nil) {
    self.brain = brain
    self.memory = memory
  }

  /// The calculator after pressing `key`.
  ///
  /// Memory keys are ignored while an error is shown. `ms`, `m+`, `m-` and `mc` end a typed
  /// entry but leave the calculation otherwise as it is; `mr` and `mc` do nothing while the
  /// memory is empty.
  public func apply(_ key: CalculatorButtonItem) -> Calculator {
    var next = self
    switch key {
    case .digit(let digit): next.brain = brain.typing(fresh: Entry(digit)) { $0.appending(digit) }
    case .dot: next.brain = brain.typing(fresh: .zeroPoint) { $0.appendingPoint() }
    case .op(let op): next.brain = brain.applyOperator(op)
    case .equal: next.brain = brain.applyEqual()
    case .command(.clear): next.brain = .initial
    case .command(.clearEntry): next.brain = brain.applyClearEntry()
    case .command(.flip): next.brain = brain.applyFlip()
    case .command(.percent): next.brain = brain.applyPercent()
    case .command(.backspace): next.brain = brain.applyBackspace()
    case .unary(let unary): next.brain = brain.applyUnary(unary)
    case .memory(let memoryKey):
      guard let shown = brain.displayedValue else { return self }
      switch memoryKey {
      case .store: next.memory = shown
      case .recall:
        guard let memory else { return self }
        next.brain = brain.recalling(memory)
        return next
      case .add, .subtract:
        let sum = (memory ?? .zero) + (memoryKey == .add ? shown : -shown)
        // A memory that would overflow shows Overflow and keeps its value, like a result would.
        guard let magnitude = sum.magnitudeExponent, magnitude >= 100 else {
          next.memory = sum.magnitudeExponent.map { $0 < -100 } == true ? .zero : sum
          next.brain = brain.endingEntry()
          return next
        }
        next.brain = brain.overflowingMemory()
        return next
      case .clear:
        guard memory != nil else { return self }
        next.memory = nil
      }
      next.brain = next.brain.endingEntry()
    }
    return next
  }

  /// The calculator after pressing each of `keys` in turn, starting from this one.
  ///
  /// - Complexity: O(n) in the number of keys.
  public func applying(_ keys: some Sequence<CalculatorButtonItem>) -> Calculator {
    keys.reduce(self) { $0.apply($1) }
  }
}
