import CalcDecimal

/// The whole calculator: the calculation (``CalculatorBrain``, the book's state machine, or in
/// Scientific mode ``ScientificBrain``), the memory register and the angle unit beside it.
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
  /// Scientific mode's calculation, boxed so that Standard mode's state stays small; `.none` in
  /// Standard mode, where ``brain`` calculates.
  private var scientificSlot: ScientificSlot = .none
  /// The unit of trigonometric functions; it persists across modes and AC (SPEC §9).
  public private(set) var angleUnit = AngleUnit.degrees

  /// A fresh calculator: `0`, nothing pending, an empty memory.
  public static let initial = Calculator(brain: .initial, memory: nil)

  /// A calculator in the given state.
  public init(brain: CalculatorBrain, memory: Decimal34? = nil) {
    self.brain = brain
    self.memory = memory
  }

  /// A box for the Scientific brain.
  private enum ScientificSlot: Hashable, Sendable {
    case none
    indirect case some(ScientificBrain)
  }

  /// Scientific mode's calculation; `nil` in Standard mode.
  public var scientific: ScientificBrain? {
    if case .some(let brain) = scientificSlot { brain } else { nil }
  }

  /// The mode: Standard or Scientific.
  public var mode: CalculatorButtonItem.Mode {
    if case .some = scientificSlot { .scientific } else { .standard }
  }

  /// What the display shows, in either mode.
  public var display: CalculatorBrain.Display {
    if case .some(let scientific) = scientificSlot { scientific.display } else { brain.display }
  }

  /// The value in the display, or `nil` while an error is shown.
  public var displayedValue: Decimal34? {
    if case .some(let scientific) = scientificSlot {
      scientific.displayedValue
    } else {
      brain.displayedValue
    }
  }

  /// Whether the display shows an error.
  public var isError: Bool {
    if case .error = display { true } else { false }
  }

  /// The expression line, in either mode.
  public var expressionLine: ExpressionLine {
    if case .some(let scientific) = scientificSlot {
      .scientific(scientific.shownLine)
    } else {
      .standard(brain.expressionLine)
    }
  }

  /// The calculation that pressing `key` completes, as the expression line writes it with its
  /// `=` (a paper tape's row, without the result); `nil` for keys that complete none. In
  /// Scientific mode only `=` completes one (and not while an error is shown or when it fails).
  public func completedCalculation(by key: CalculatorButtonItem) -> ExpressionLine? {
    guard case .some(let scientific) = scientificSlot else {
      return brain.completedCalculation(by: key).map { .standard($0) }
    }
    guard case .equal = key, scientific.error == nil else { return nil }
    let after = apply(key)
    guard let done = after.scientific, done.error == nil else { return nil }
    return .scientific(done.shownLine)
  }

  /// Whether F-E is on (Scientific mode only).
  public var isExponential: Bool { scientific?.isExponential ?? false }

  /// The index of the first key of `keys` that Standard mode does not have, pressed in
  /// Standard mode when the line is applied from this state (mode keys in the line count);
  /// `nil` when every key may be pressed.
  ///
  /// - Complexity: O(n) in the number of keys.
  public func firstKeyOutOfMode(in keys: some Collection<CalculatorButtonItem>) -> Int? {
    var mode = self.mode
    return Calculator.firstKeyOutOfMode(in: keys, mode: &mode)
  }

  /// The index of the first key of `keys` that Standard mode does not have, pressed in
  /// Standard mode when the line is applied in `mode`; `nil` when every key may be pressed, and
  /// then `mode` is the mode after the line.
  ///
  /// The mode is a function of the last mode key alone (a switch always switches, even while an
  /// error is shown), so a run of lines can be checked without replaying them: what an edit of
  /// the past does before it replays the later lines (SPEC §4).
  /// - Complexity: O(n) in the number of keys.
  public static func firstKeyOutOfMode(
    in keys: some Collection<CalculatorButtonItem>, mode: inout CalculatorButtonItem.Mode
  ) -> Int? {
    var scientific = mode == .scientific
    defer { mode = scientific ? .scientific : .standard }
    var index = 0
    // One switch a key: this runs for every line a script applies.
    for key in keys {
      switch key {
      case .digit, .dot, .op, .equal, .command, .unary, .memory, .angle, .reference:
        break
      case .mode(let mode):
        scientific = mode == .scientific
      case .bracket, .binary, .function, .constant, .exponent, .fixedToExponential:
        if !scientific { return index }
      }
      index += 1
    }
    return nil
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
    if case .some(var scientific) = scientificSlot {
      if case .mode(.standard) = key {
        brain = .initial
        scientificSlot = .none
        return
      }
      // Let go of the box first, so that the brain's arrays change in place when nothing else
      // (a snapshot) holds them.
      scientificSlot = .none
      pressScientific(key, &scientific)
      scientificSlot = .some(scientific)
      return
    }
    switch key {
    case .digit(let digit):
      brain.replace(with: brain.typing(fresh: Entry(digit)) { $0.appending(digit) })
    case .dot: brain.replace(with: brain.typing(fresh: .zeroPoint) { $0.appendingPoint() })
    case .op(let op): brain.replace(with: brain.applyOperator(op))
    case .equal: brain.replace(with: brain.applyEqual())
    case .command(.clear): brain = .initial
    case .command(.clearEntry): brain.replace(with: brain.applyClearEntry())
    case .command(.flip): brain.replace(with: brain.applyFlip())
    case .command(.percent): brain.replace(with: brain.applyPercent())
    case .command(.backspace): brain.replace(with: brain.applyBackspace())
    case .unary(let unary): brain.replace(with: brain.applyUnary(unary))
    case .mode(.scientific):
      brain = .initial
      scientificSlot = .some(.initial)
    case .mode(.standard): brain = .initial
    case .angle(let unit):
      // Kept for Scientific mode; like `ms`, the key ends a typed entry.
      guard !brain.isError else { return }
      angleUnit = unit
      brain = brain.endingEntry()
    case .reference:
      // Resolved by the session, which calls `recall(_:)` instead (SPEC §11).
      return
    case .bracket, .binary, .function, .constant, .exponent, .fixedToExponential:
      // Not a Standard key: a session never presses one here (its line is rejected, and an
      // edit of the past that would replay one here is refused); pressed on a bare calculator,
      // it does nothing.
      return
    case .memory(let memoryKey):
      guard let shown = brain.displayedValue else { return }
      switch memoryKey {
      case .store:
        memory = shown
      case .recall:
        guard let memory else { return }
        // A value stored in Scientific mode may be outside Standard's range (SPEC §9).
        if let magnitude = memory.magnitudeExponent, magnitude >= 100 {
          brain = brain.overflowingMemory()
        } else {
          brain = brain.recalling(
            memory.magnitudeExponent.map { $0 < -100 } == true ? .zero : memory)
        }
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

  /// What a `$N` key recalls (SPEC §11): the value after line N, or the error it ended in.
  public enum Recalled: Hashable, Sendable {
    /// The exact value in the display after the line.
    case value(Decimal34)
    /// The error the line ended in.
    case error(CalculatorBrain.CalculationError)

    /// What `state` has in its display: its value, or its error.
    public init(_ state: Calculator) {
      if let value = state.displayedValue {
        self = .value(value)
      } else if case .error(let error) = state.display {
        self = .error(error)
      } else {
        self = .value(.zero)
      }
    }
  }

  /// Presses a resolved `$N` key: recalls `recalled` exactly as `mr` recalls the memory (it
  /// ends a typed entry, becomes the right operand of a pending operation, never multiplies;
  /// ignored while an error is shown), or shows the error it holds (SPEC §11, rule 14).
  ///
  /// A value goes through `mr` itself, with the memory lent for the key, so that every mode
  /// recalls it as its `mr` does (Scientific's range, Programmer's word).
  public mutating func recall(_ recalled: Recalled) {
    guard !isError else { return }
    switch recalled {
    case .value(let value):
      let memory = self.memory
      self.memory = value
      press(.memory(.recall))
      self.memory = memory
    case .error(let error):
      if case .some(var scientific) = scientificSlot {
        scientificSlot = .none
        scientific.showError(error)
        scientificSlot = .some(scientific)
      } else {
        brain = .error(error, line: brain.expressionLine)
      }
    }
  }

  /// Presses `key` in Scientific mode (the switch to Standard mode is ``press(_:)``'s).
  private mutating func pressScientific(
    _ key: CalculatorButtonItem, _ scientific: inout ScientificBrain
  ) {
    switch key {
    case .mode:
      scientific = .initial
    case .angle(let unit):
      guard scientific.error == nil else { return }
      angleUnit = unit
      scientific.press(key, unit: unit)
    case .memory(let memoryKey):
      guard let shown = scientific.displayedValue else { return }
      switch memoryKey {
      case .store:
        memory = shown
      case .recall:
        guard let memory else { return }
        scientific.recall(memory)
        return
      case .add, .subtract:
        let sum = (memory ?? .zero) + (memoryKey == .add ? shown : -shown)
        memory = sum
      case .clear:
        guard memory != nil else { return }
        memory = nil
      }
      scientific.endEntry()
    case .reference:
      return
    case .digit, .dot, .op, .equal, .command, .unary, .bracket, .binary, .function, .constant,
      .exponent, .fixedToExponential:
      scientific.press(key, unit: angleUnit)
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
    if case .some(var scientific) = scientificSlot {
      guard scientific.isTyping, !scientific.input.isEmpty else { return }
      scientificSlot = .none
      scientific.endEntry()
      scientificSlot = .some(scientific)
      return
    }
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

/// An expression line of either mode.
public enum ExpressionLine: Hashable, Sendable {
  /// Standard mode's: `12 + 3 =`, `√(9)`.
  case standard(CalculatorBrain.Line)
  /// Scientific mode's tokens: `1 + (2 - 3) =`, `sin₀(30)`.
  case scientific(ExpressionTokens)
}
