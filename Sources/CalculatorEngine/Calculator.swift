import CalcDecimal

/// The whole calculator: the current mode's calculation (``Machine``: ``CalculatorBrain``, the
/// book's state machine, or ``ScientificBrain``), the memory register and the angle unit beside
/// it.
///
/// This is the state that a history snapshots and time travel restores. ``press(_:)`` is the
/// reducer, the one `switch` over keys, working in place; ``apply(_:)`` is the same as a pure
/// function from a state and a key to the next.
public struct Calculator: Hashable, Sendable {
  /// The calculation of the current mode: one case a mode, so that a state holds exactly one
  /// brain (the others are boxed so that Standard mode's state stays small).
  public enum Machine: Hashable, Sendable {
    /// Standard mode's calculation.
    case standard(CalculatorBrain)
    /// Scientific mode's calculation.
    indirect case scientific(ScientificBrain)
    /// Programmer mode's calculation.
    indirect case programmer(ProgrammerBrain)

    /// A fresh calculation in `mode`; Programmer mode's in a word of `wordSize`.
    public static func initial(
      _ mode: Key.Mode, wordSize: Key.WordSize = .qword
    ) -> Machine {
      switch mode {
      case .standard: .standard(.initial)
      case .scientific: .scientific(.initial)
      case .programmer: .programmer(ProgrammerBrain(wordSize: wordSize))
      }
    }
  }

  /// The calculation of the current mode.
  ///
  /// Stored as Standard mode's brain, unboxed, beside a slot for the boxed brains of the other
  /// modes (``Boxed``; Standard's brain is ``CalculatorBrain/initial`` while the slot holds
  /// one): an enum with Standard's brain as a payload made every key copy the brain out of the
  /// enum and write it back through the generic value witnesses, 2.2 times the cost of a key
  /// (calc-bench's apply row). The sum is this property.
  public private(set) var machine: Machine {
    get {
      switch boxed {
      case .none: .standard(standardBrain)
      case .scientific(let box): .scientific(box.brain)
      case .programmer(let box): .programmer(box.brain)
      }
    }
    set {
      switch newValue {
      case .standard(let brain):
        boxed = .none
        standardBrain = brain
      case .scientific(let brain):
        standardBrain = .initial
        boxed = .scientific(Box(brain))
      case .programmer(let brain):
        standardBrain = .initial
        boxed = .programmer(Box(brain))
      }
    }
  }
  /// Standard mode's brain; ``CalculatorBrain/initial`` in the other modes.
  private var standardBrain: CalculatorBrain
  /// The brain of Scientific or Programmer mode, boxed so that Standard mode's state stays
  /// small; `.none` in Standard mode.
  private var boxed = Boxed.none

  /// The slot for the boxed brains.
  private enum Boxed: Hashable, Sendable {
    case none
    case scientific(Box<ScientificBrain>)
    case programmer(Box<ProgrammerBrain>)
  }

  /// A boxed brain of Scientific or Programmer mode, a value: equal and hashed as its brain,
  /// and copied before a change while another state shares it (``changeBoxed(_:_:)``).
  ///
  /// A class rather than an `indirect` case: a key changes the brain in place while the box is
  /// not shared, where an `indirect` case copied the brain out of its box and into a new one at
  /// every key (an allocation and a copy of about 300 bytes with their retains and releases).
  /// The same size: a header of two words and the brain.
  private final class Box<Brain: Hashable & Sendable>: Hashable, @unchecked Sendable {
    /// The brain; changed only while the box is not shared, so that a box is a value.
    ///
    /// Without the runtime's exclusivity check: only ``Calculator`` reaches a box, and it
    /// changes the brain only through ``changeBoxed(_:_:)`` on a box no other state shares
    /// (with the check, the seed's model paid about 170 instructions more a key of calc-bench's
    /// Scientific stream, `--streams` under callgrind).
    @exclusivity(unchecked) var brain: Brain

    init(_ brain: Brain) { self.brain = brain }

    static func == (left: Box, right: Box) -> Bool { left === right || left.brain == right.brain }

    func hash(into hasher: inout Hasher) { hasher.combine(brain) }
  }

  /// Changes the brain of the boxed mode in place (a copy of it first while another state
  /// shares its box): `scientific` in Scientific mode, `programmer` in Programmer mode, nothing
  /// in Standard mode.
  @inline(__always)
  private mutating func changeBoxed(
    _ scientific: (inout ScientificBrain) -> Void, _ programmer: (inout ProgrammerBrain) -> Void
  ) {
    switch boxed {
    case .none:
      return
    case .scientific(var box):
      // Out of the slot first, so that an unshared box is referenced once.
      boxed = .none
      if !isKnownUniquelyReferenced(&box) { box = Box(box.brain) }
      scientific(&box.brain)
      boxed = .scientific(box)
    case .programmer(var box):
      boxed = .none
      if !isKnownUniquelyReferenced(&box) { box = Box(box.brain) }
      programmer(&box.brain)
      boxed = .programmer(box)
    }
  }
  /// The memory register; `nil` while it is empty (which differs from holding 0: `mr` and `mc`
  /// do nothing then).
  public private(set) var memory: Decimal34?
  /// The unit of trigonometric functions; it persists across modes and AC (SPEC §9).
  public private(set) var angleUnit = AngleUnit.degrees
  /// Programmer mode's word size; it persists across modes and AC (SPEC §10). In Programmer
  /// mode it follows the brain's.
  public private(set) var wordSize = Key.WordSize.qword

  /// A fresh calculator: `0`, nothing pending, an empty memory.
  public static let initial = Calculator(brain: .initial, memory: nil)

  /// A calculator in Standard mode in the given state.
  public init(brain: CalculatorBrain, memory: Decimal34? = nil) {
    self.standardBrain = brain
    self.memory = memory
  }

  /// Standard mode's fresh calculation with the given memory, angle unit and word size: the
  /// small state a history's light snapshot rebuilds from (``History``).
  init(memory: Decimal34?, angleUnit: AngleUnit, wordSize: Key.WordSize) {
    self.standardBrain = .initial
    self.memory = memory
    self.angleUnit = angleUnit
    self.wordSize = wordSize
  }

  /// Standard mode's calculation; ``CalculatorBrain/initial`` in the other modes.
  public var brain: CalculatorBrain {
    standardBrain
  }

  /// Scientific mode's calculation; `nil` in the other modes.
  public var scientific: ScientificBrain? {
    if case .scientific(let box) = boxed { box.brain } else { nil }
  }

  /// Programmer mode's calculation; `nil` in the other modes.
  public var programmer: ProgrammerBrain? {
    if case .programmer(let box) = boxed { box.brain } else { nil }
  }

  /// The mode.
  public var mode: Key.Mode {
    switch boxed {
    case .none: .standard
    case .scientific: .scientific
    case .programmer: .programmer
    }
  }

  /// What the display shows, in any mode.
  public var display: CalculatorBrain.Display {
    // Over the slot, not ``machine``: that sum copies Standard's brain into an enum first, and
    // a script asks for the display after every line.
    switch boxed {
    case .none: standardBrain.display
    case .scientific(let box): box.brain.display
    case .programmer(let box): box.brain.display
    }
  }

  /// The value in the display, or `nil` while an error is shown.
  public var displayedValue: Decimal34? {
    switch boxed {
    case .none: standardBrain.displayedValue
    case .scientific(let box): box.brain.displayedValue
    case .programmer(let box): box.brain.displayedValue
    }
  }

  /// Whether the display shows an error.
  public var isError: Bool {
    guard case .none = boxed else {
      if case .error = display { return true } else { return false }
    }
    return standardBrain.isError
  }

  /// The expression line, in any mode.
  public var expressionLine: ExpressionLine {
    switch machine {
    case .standard(let brain): .standard(brain.expressionLine)
    case .scientific(let scientific): .scientific(scientific.shownLine)
    case .programmer(let programmer):
      .programmer(programmer.shownLine, radix: programmer.radix, wordSize: programmer.wordSize)
    }
  }

  /// The calculation that pressing `key` completes, as the expression line writes it with its
  /// `=` (a paper tape's row, without the result); `nil` for keys that complete none. In
  /// Scientific and Programmer modes only `=` completes one, a failed one too (`1 ÷ 0 =`, as
  /// in Standard mode), and not while an error is shown (`=` then does nothing).
  public func completedCalculation(by key: Key) -> ExpressionLine? {
    switch machine {
    case .standard(let brain):
      return brain.completedCalculation(by: key).map { .standard($0) }
    case .scientific(let scientific):
      guard case .equal = key, scientific.error == nil else { return nil }
      guard let done = apply(key).scientific else { return nil }
      return .scientific(done.shownLine)
    case .programmer(let programmer):
      guard case .equal = key, programmer.error == nil else { return nil }
      let after = apply(key)
      guard after.programmer != nil else { return nil }
      return after.expressionLine
    }
  }

  /// Whether F-E is on (Scientific mode only).
  public var isExponential: Bool { scientific?.isExponential ?? false }

  /// What may be pressed: the mode, and in Programmer mode the radix and the word size.
  public var keypad: Keypad {
    // Over the slot: asking for ``programmer`` copied its brain out of the box, once a line.
    switch boxed {
    case .none: Keypad(mode: .standard, radix: .dec, wordSize: wordSize)
    case .scientific: Keypad(mode: .scientific, radix: .dec, wordSize: wordSize)
    case .programmer(let box):
      Keypad(mode: .programmer, radix: box.brain.radix, wordSize: wordSize)
    }
  }

  /// The index of the first key of `keys` that may not be pressed when the line is applied from
  /// this state (mode, radix and word-size keys in the line count); `nil` when every key may be
  /// pressed.
  ///
  /// - Complexity: O(n) in the number of keys.
  public func firstKeyOutOfMode(in keys: some Collection<Key>) -> Int? {
    var keypad = self.keypad
    return Calculator.firstRejectedKey(in: keys, keypad: &keypad)?.index
  }

  /// Why the line `keys` may not be applied from this state, as a session refuses it; `nil`
  /// when every key may be pressed.
  ///
  /// - Complexity: O(n) in the number of keys.
  public func keyRejection(in keys: some Collection<Key>) -> SessionError? {
    Calculator.keyRejection(in: keys, keypad: keypad)
  }

  /// Why the line `keys` may not be applied on `keypad`, as a session refuses it; `nil` when
  /// every key may be pressed (``keyRejection(in:)``, given only the keypad, so that a session
  /// checks a line without lending its whole state).
  ///
  /// - Complexity: O(n) in the number of keys.
  static func keyRejection(
    in keys: some Collection<Key>, keypad: Keypad
  ) -> SessionError? {
    var keypad = keypad
    guard let (index, reason) = Calculator.firstRejectedKey(in: keys, keypad: &keypad) else {
      return nil
    }
    return SessionError(
      rejecting: keys[keys.index(keys.startIndex, offsetBy: index)], at: index, reason)
  }

  /// The first key of `keys` that may not be pressed when the line is applied on `keypad`, and
  /// why; `nil` when every key may be pressed, and then `keypad` is the keypad after the line.
  ///
  /// The keypad is a function of the mode, radix and word-size keys alone (they always act,
  /// even while an error is shown), so a run of lines can be checked without replaying them:
  /// what an edit of the past does before it replays the later lines (SPEC §4).
  /// - Complexity: O(n) in the number of keys.
  public static func firstRejectedKey(
    in keys: some Collection<Key>, keypad: inout Keypad
  ) -> (index: Int, reason: KeyRejection)? {
    var index = 0
    // One switch a key: this runs for every line a script applies. Standard's keys are keys of
    // every mode but Programmer, and need no more look outside it.
    for key in keys {
      switch key {
      case .digit, .op, .equal, .command, .unary, .memory, .dot:
        if keypad.mode == .programmer, let reason = keypad.press(key) { return (index, reason) }
      case .reference:
        // `$N` recalls as `mr` does, in every mode (SPEC §11).
        break
      case .bracket, .binary, .function, .constant, .exponent, .fixedToExponential, .angle, .mode,
        .hexDigit, .radix, .wordSize, .bitwise, .not, .shift, .rotate, .bit:
        if let reason = keypad.press(key) { return (index, reason) }
      }
      index += 1
    }
    return nil
  }

  /// The calculator after pressing `key`: the book's reducer, a pure function of the state and
  /// the key (see ``press(_:)``, which does the same in place).
  public func apply(_ key: Key) -> Calculator {
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
  public mutating func press(_ key: Key) {
    // Standard mode, the common case, takes one switch over the key: a switch over the key's
    // kind first, then over the mode, cost a tenth of a key (195 against 178 instructions).
    guard case .none = boxed else { return pressBoxed(key) }
    pressStandard(key)
  }

  /// Presses each of `keys` in turn, as within one line (no line starts between them): the
  /// same as ``press(_:)`` for each, in one call, so that a line pays for a call's set-up once
  /// rather than at every key (History's lines, ``History/apply(checkedLine:)``).
  ///
  /// In Standard mode the digits and points after a digit or a point are typed into its entry
  /// at once (``CalculatorBrain/type(run:from:)``): the same state as a key at a time, with one
  /// change of the state for a run (`TypedRunTests`).
  /// - Complexity: O(n) in the number of keys.
  mutating func press(each keys: UnsafeBufferPointer<Key>) {
    var index = 0
    while index < keys.count {
      let key = keys[index]
      index += 1
      guard case .none = boxed else {
        pressBoxed(key)
        continue
      }
      pressStandard(key)
      switch key {
      case .digit, .dot:
        if index < keys.count { index = standardBrain.type(run: keys, from: index) }
      case .op, .equal, .command, .unary, .memory, .bracket, .binary, .function, .constant,
        .exponent, .fixedToExponential, .angle, .mode, .reference, .hexDigit, .radix, .wordSize,
        .bitwise, .not, .shift, .rotate, .bit:
        break
      }
    }
  }

  /// Presses `key` in Scientific or Programmer mode (``press(_:)``).
  private mutating func pressBoxed(_ key: Key) {
    // Memory is the calculator's, whatever the mode: handled once, here; a mode key starts
    // the new mode's calculation afresh (SPEC §9), even while an error is shown.
    switch key {
    case .memory(let memoryKey):
      pressMemory(memoryKey)
      return
    case .mode(let mode):
      machine = Machine.initial(mode, wordSize: wordSize)
      return
    case .reference:
      // Resolved by the session, which calls `recall(_:)` instead (SPEC §11).
      return
    case .angle(let unit):
      pressAngle(unit)
      return
    case .digit, .dot, .op, .equal, .command, .unary, .bracket, .binary, .function, .constant,
      .exponent, .fixedToExponential, .hexDigit, .radix, .wordSize, .bitwise, .not, .shift, .rotate,
      .bit:
      break
    }
    // Memory, mode and angle keys are handled above and never come here.
    let unit = angleUnit
    var wordSize = wordSize
    changeBoxed({ $0.press(key, unit: unit) }) {
      $0.press(key)
      wordSize = $0.wordSize
    }
    self.wordSize = wordSize
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
  /// A value goes through `mr`'s own recall, so that every mode recalls it as its `mr` does
  /// (Standard's range, Scientific's, Programmer's word: truncated toward zero and wrapped).
  public mutating func recall(_ recalled: Recalled) {
    guard !isError else { return }
    switch recalled {
    case .value(let value):
      recall(value)
    case .error(let error):
      guard case .none = boxed else {
        return changeBoxed({ $0.showError(error) }) { $0.showError(error) }
      }
      standardBrain = .error(error, line: standardBrain.expressionLine)
    }
  }

  /// Presses a memory key, in any mode.
  ///
  /// Ignored while an error is shown; `ms`, `m+`, `m-` and `mc` end a typed entry; `mr` and `mc`
  /// do nothing while the memory is empty. Standard mode's range is kept: a recalled value or a
  /// sum of 10^100 or more shows Overflow (the memory keeps its value), a value below 10^-100
  /// is 0.
  private mutating func pressMemory(_ memoryKey: Key.Memory) {
    guard let shown = displayedValue else { return }
    let bounded = mode == .standard
    // A Scientific entry beyond the limits fails as the key ends it, storing nothing.
    if memoryKey != .recall, overflows(shown) { return endEntry() }
    switch memoryKey {
    case .store:
      memory = shown
    case .recall:
      guard let memory else { return }
      recall(memory)
      return
    case .add, .subtract:
      let sum = (memory ?? .zero) + (memoryKey == .add ? shown : -shown)
      if overflows(sum) {
        // A memory that would overflow shows Overflow and keeps its value, like a result would.
        showMemoryOverflow()
        return
      }
      memory = bounded && sum.magnitudeExponent.map { $0 < -100 } == true ? .zero : sum
    case .clear:
      guard memory != nil else { return }
      memory = nil
    }
    endEntry()
  }

  /// Whether `value` is a result the current mode shows as Overflow: from 10^100 in Standard
  /// mode (below 10^-100 is 0 there), from 10^10000 and nonzero below 10^-9999 in Scientific
  /// mode (SPEC §9); never in Programmer mode, whose memory holds exact values (SPEC §10).
  private func overflows(_ value: Decimal34) -> Bool {
    guard let magnitude = value.magnitudeExponent else { return false }
    switch mode {
    case .standard: return magnitude >= 100
    case .scientific: return magnitude >= 10000 || magnitude < -9999
    case .programmer: return false
    }
  }

  /// Shows Overflow with the expression line as it was, as `m+` or `m-` summing past the
  /// mode's limits does; the memory keeps its value.
  private mutating func showMemoryOverflow() {
    switch machine {
    case .standard(let brain):
      machine = .standard(brain.overflowingMemory())
    case .scientific(var scientific):
      machine = .standard(.initial)
      scientific.showError(.overflow)
      machine = .scientific(scientific)
    case .programmer:
      // Programmer memory holds exact values and never overflows (``overflows(_:)``).
      return
    }
  }

  /// Recalls `value` into the display of the current mode, as `mr` does.
  private mutating func recall(_ value: Decimal34) {
    guard case .none = boxed else {
      return changeBoxed({ $0.recall(value) }) { $0.recall(value) }
    }
    // A value stored in Scientific mode may be outside Standard's range (SPEC §9).
    if let magnitude = value.magnitudeExponent, magnitude >= 100 {
      machine = .standard(brain.overflowingMemory())
    } else {
      machine = .standard(
        brain.recalling(value.magnitudeExponent.map { $0 < -100 } == true ? .zero : value))
    }
  }

  /// Ends the number being typed, as `ms` does, in any mode.
  private mutating func endEntry() {
    guard case .none = boxed else {
      return changeBoxed({ $0.endEntry() }) { $0.endEntry() }
    }
    standardBrain = standardBrain.endingEntry()
  }

  /// An angle key: it sets the unit of Scientific mode's trigonometry, in Standard and
  /// Scientific mode, and ends a typed entry like `ms`; ignored while an error is shown.
  private mutating func pressAngle(_ unit: AngleUnit) {
    switch boxed {
    case .none:
      guard !standardBrain.isError else { return }
      angleUnit = unit
      standardBrain = standardBrain.endingEntry()
    case .scientific(let box):
      guard box.brain.error == nil else { return }
      angleUnit = unit
      changeBoxed({ $0.press(.angle(unit), unit: unit) }) { _ in }
    case .programmer:
      // Not a Programmer key: a session never presses one here.
      return
    }
  }

  /// Presses `key` in Standard mode, in place: each transition's result replaces the
  /// brain directly, as the book's reducer does (a function returning the next brain made every
  /// key copy it through memory: calc-bench's apply fell from 28.7 to 24.5 M keys/s).
  @inline(__always)
  private mutating func pressStandard(_ key: Key) {
    switch key {
    case .digit(let digit):
      standardBrain.type(fresh: Entry(digit)) { $0.appending(digit) }
    case .dot:
      standardBrain.type(fresh: .zeroPoint) { $0.appendingPoint() }
    case .op(let op): standardBrain.replace(with: standardBrain.applyOperator(op))
    case .equal: standardBrain.replace(with: standardBrain.applyEqual())
    case .command(.clear): standardBrain = .initial
    case .command(.clearEntry): standardBrain.replace(with: standardBrain.applyClearEntry())
    case .command(.flip): standardBrain.replace(with: standardBrain.applyFlip())
    case .command(.percent): standardBrain.replace(with: standardBrain.applyPercent())
    case .command(.backspace): standardBrain.replace(with: standardBrain.applyBackspace())
    case .unary(let unary): standardBrain.replace(with: standardBrain.applyUnary(unary))
    // Memory is the calculator's, whatever the mode; a mode key starts the new mode's
    // calculation afresh (SPEC §9), even while an error is shown.
    case .memory(let memoryKey): pressMemory(memoryKey)
    case .mode(let mode): machine = Machine.initial(mode, wordSize: wordSize)
    case .angle(let unit): pressAngle(unit)
    case .reference:
      // Resolved by the session, which calls `recall(_:)` instead (SPEC §11).
      return
    case .bracket, .binary, .function, .constant, .exponent, .fixedToExponential, .hexDigit,
      .radix, .wordSize, .bitwise, .not, .shift, .rotate, .bit:
      // Not a Standard key: a session never presses one here (its line is rejected, and an
      // edit of the past that would replay one here is refused); pressed on a bare calculator,
      // it does nothing.
      return
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
    switch boxed {
    case .none:
      switch standardBrain {
      case .left(.entry(let entry), _, _), .leftOpRight(_, _, .entry(let entry)):
        if entry != .zero { standardBrain = standardBrain.endingEntry() }
      case .left(.value, _, _), .leftOp, .leftOpRight(_, _, .value), .error, .equalled: return
      }
    case .scientific(let box):
      guard box.brain.isTyping, !box.brain.input.isEmpty else { return }
      changeBoxed({ $0.endEntry() }) { _ in }
    case .programmer(let box):
      guard box.brain.isTyping else { return }
      changeBoxed({ _ in }) { $0.endEntry() }
    }
  }

  /// The calculator after a line of `keys`: ``startLine()``, then each key in turn.
  ///
  /// - Complexity: O(n) in the number of keys.
  public func applying(line keys: some Sequence<Key>) -> Calculator {
    var next = self
    next.startLine()
    for key in keys { next.press(key) }
    return next
  }

  /// The calculator after pressing each of `keys` in turn, starting from this one, as within one
  /// line (no line starts between them).
  ///
  /// - Complexity: O(n) in the number of keys.
  public func applying(_ keys: some Sequence<Key>) -> Calculator {
    keys.reduce(self) { $0.apply($1) }
  }
}

/// An expression line of either mode.
public enum ExpressionLine: Hashable, Sendable {
  /// Standard mode's: `12 + 3 =`, `√(9)`.
  case standard(CalculatorBrain.Line)
  /// Scientific mode's tokens: `1 + (2 - 3) =`, `sin₀(30)`.
  case scientific(ExpressionTokens)
  /// Programmer mode's tokens, with the radix and word size its operands are shown in:
  /// `5 + 4 =`, `RoLC(5)`.
  case programmer(
    ProgrammerTokens, radix: Key.Radix,
    wordSize: Key.WordSize)
}
