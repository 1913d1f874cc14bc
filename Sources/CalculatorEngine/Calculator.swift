import CalcDecimal

/// The whole calculator: the calculation (``CalculatorBrain``, the book's state machine) and the
/// memory register beside it.
///
/// This is the state that a history snapshots and time travel restores. ``press(_:)`` is the
/// reducer, the one `switch` over keys, working in place; ``apply(_:)`` is the same as a pure
/// function from a state and a key to the next.
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

  /// The calculator after pressing `key`: the book's reducer, a pure function of the state and
  /// the key (see ``press(_:)``, which does the same in place).
  public func apply(_ key: CalculatorButtonItem) -> Calculator {
    var next = self
    next.press(key)
    return next
  }

  /// Presses `key`: the one `switch` over keys.
  ///
  /// Memory keys are ignored while an error is shown. `ms`, `m+`, `m-` and `mc` end a typed
  /// entry but leave the calculation otherwise as it is; `mr` and `mc` do nothing while the
  /// memory is empty. In place, because a state is large (the expression line's terms are part
  /// of it) and copying it whole at every key was most of the cost of applying keys.
  public mutating func press(_ key: CalculatorButtonItem) {
    switch key {
    case .digit(let digit): brain = brain.typing(fresh: Entry(digit)) { $0.appending(digit) }
    case .dot: brain = brain.typing(fresh: .zeroPoint) { $0.appendingPoint() }
    case .op(let op): brain = brain.applyOperator(op)
    case .equal: brain = brain.applyEqual()
    case .command(.clear): brain = .initial
    case .command(.clearEntry): brain = brain.applyClearEntry()
    case .command(.flip): brain = brain.applyFlip()
    case .command(.percent): brain = brain.applyPercent()
    case .command(.backspace): brain = brain.applyBackspace()
    case .unary(let unary): brain = brain.applyUnary(unary)
    case .memory(let memoryKey):
      guard let shown = brain.displayedValue else { return }
      switch memoryKey {
      case .store:
        memory = shown
      case .recall:
        guard let memory else { return }
        brain = brain.recalling(memory)
        return
      case .add, .subtract:
        let sum = (memory ?? .zero) + (memoryKey == .add ? shown : -shown)
        // A memory that would overflow shows Overflow and keeps its value, like a result would.
        guard let magnitude = sum.magnitudeExponent, magnitude >= 100 else {
          memory = sum.magnitudeExponent.map { $0 < -100 } == true ? .zero : sum
          brain = brain.endingEntry()
          return
        }
        brain = brain.overflowingMemory()
        return
      case .clear:
        guard memory != nil else { return }
        memory = nil
      }
      brain = brain.endingEntry()
    }
  }

  /// Starts a line of keys (SPEC rule 18: a number never continues on the next line): the number
  /// still being typed is ended, as `ms` ends it, so that the next digit starts a new one; the
  /// display, the expression line, a pending operation and the memory are left as they are.
  ///
  /// A `0` that nobody typed (a fresh calculator, after AC or CE) is no number being typed, and
  /// stays as it is: so the first line of a session, or a line after `c`, behaves exactly as a
  /// single line always did.
  public mutating func startLine() {
    // Only a typed entry changes; every other state is left untouched, without a copy (this
    // runs before every line of a script).
    switch brain {
    case .left(.entry(let entry), _, _), .leftOpRight(_, _, .entry(let entry)):
      if entry != .zero { brain = brain.endingEntry() }
    case .left(.value, _, _), .leftOp, .leftOpRight(_, _, .value), .error: return
    }
  }

  /// The calculator after a line of `keys`: ``startLine()``, then each key in turn.
  ///
  /// - Complexity: O(n) in the number of keys.
  public func applying(line keys: some Sequence<CalculatorButtonItem>) -> Calculator {
    var next = self
    next.startLine()
    for key in keys { next.press(key) }
    return next
  }

  /// The calculator after pressing each of `keys` in turn, starting from this one, as within one
  /// line (no line starts between them).
  ///
  /// - Complexity: O(n) in the number of keys.
  public func applying(_ keys: some Sequence<CalculatorButtonItem>) -> Calculator {
    keys.reduce(self) { $0.apply($1) }
  }
}
