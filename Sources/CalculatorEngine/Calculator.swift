import CalcDecimal

/// The whole calculator: the current mode's calculation (its ``Machine``, one case a mode), the
/// memory register, the angle unit and the word size beside it.
///
/// This is the state that a history snapshots and time travel restores. ``press(_:)`` is the
/// reducer, the one `switch` over keys, working in place; ``apply(_:)`` is the same as a pure
/// function from a state and a key to the next.
///
/// Every question whose answer depends on the mode — what the display shows, whether it shows
/// an error, the expression line, what a key does, how `mr` and `$N` recall, the memory's bounds,
/// the keypad — is a `switch` over the machine with no `default:`, so that a new mode is a new
/// case and the compiler lists every place it must answer. No reader gets another mode's state:
/// ``standard``, ``scientific`` and ``programmer`` are `nil` outside their mode.
public struct Calculator: Hashable, Sendable {
  /// The calculation of the current mode: one case a mode, each holding that mode's state and
  /// nothing of another's.
  ///
  /// Standard mode's brain is held unboxed and changed as if in place: a change moves it out of
  /// the case and back (``changeStandard(memory:angleUnit:_:)``: a move, without a copy, a retain
  /// or a release), once a key, once for a line's keys (``press(each:startingLine:)``) and once
  /// for the keys a jump replays. The larger brains of the other modes are boxed (``Box``), so
  /// that Standard mode's state stays small, and changed in place while the box is not shared.
  enum Machine: Hashable, Sendable {
    /// Standard mode's calculation.
    case standard(CalculatorBrain)
    /// Scientific mode's calculation.
    case scientific(Box<ScientificBrain>)
    /// Programmer mode's calculation.
    case programmer(Box<ProgrammerBrain>)
    /// Formula mode's calculation (SPEC §12): the Scientific keypad that a formula's compiled
    /// keys ran on, and that `c`, the memory and angle keys act on between formulas.
    case formula(Box<ScientificBrain>)
    /// Date mode's calculation (SPEC §13): the last date line's value and text.
    case date(Box<DateBrain>)

    /// A fresh calculation in `mode`; Programmer mode's in a word of `wordSize`.
    static func initial(_ mode: Key.Mode, wordSize: Key.WordSize) -> Machine {
      switch mode {
      case .standard: .standard(.initial)
      case .scientific: .scientific(Box(.initial))
      case .programmer: .programmer(Box(ProgrammerBrain(wordSize: wordSize)))
      case .formula: .formula(Box(.initial))
      case .date: .date(Box(.initial))
      }
    }

    /// Changes Standard mode's brain by `body`, with the memory and the angle unit, and returns
    /// `true`; in the other modes returns `false` and does nothing. When `body` returns a
    /// machine (a mode key's), it replaces this one.
    ///
    /// The brain is moved out of the case and back, not copied: its boxed expression line, if
    /// any, is neither retained nor released, and the machine is reinitialized, not assigned
    /// over.
    @inline(__always)
    mutating func changeStandard(
      memory: inout Number?, angleUnit: inout AngleUnit,
      _ body: (inout CalculatorBrain, inout Number?, inout AngleUnit) -> Machine?
    ) -> Bool {
      // The case first, so that another mode's key does not move the enum out and back; then
      // every case by a move (a `switch` that bound only one case and reinitialized the rest
      // as they were copied the brain and released the old enum).
      guard case .standard = self else { return false }
      switch consume self {
      case .standard(var brain):
        if let next = body(&brain, &memory, &angleUnit) {
          self = next
        } else {
          self = .standard(brain)
        }
        return true
      case .scientific(let box):
        self = .scientific(box)
        return false
      case .programmer(let box):
        self = .programmer(box)
        return false
      case .formula(let box):
        self = .formula(box)
        return false
      case .date(let box):
        self = .date(box)
        return false
      }
    }

    /// Changes the boxed brain of Scientific or Programmer mode in place (a copy of it first
    /// while another state shares its box): `scientific` in Scientific mode, `programmer` in
    /// Programmer mode, nothing in Standard mode.
    @inline(__always)
    mutating func changeBoxed(
      _ scientific: (inout ScientificBrain) -> Void, _ programmer: (inout ProgrammerBrain) -> Void
    ) {
      // Out of the case by a move, so that an unshared box is referenced once; Standard's case
      // first, so that its brain is not moved out and back for nothing.
      if case .standard = self { return }
      switch consume self {
      case .standard(let brain):
        self = .standard(brain)
      case .scientific(var box):
        if !isKnownUniquelyReferenced(&box) { box = Box(box.brain) }
        scientific(&box.brain)
        self = .scientific(box)
      case .programmer(var box):
        if !isKnownUniquelyReferenced(&box) { box = Box(box.brain) }
        programmer(&box.brain)
        self = .programmer(box)
      case .formula(var box):
        if !isKnownUniquelyReferenced(&box) { box = Box(box.brain, formula: box.formula) }
        let line = box.brain.shownLine
        scientific(&box.brain)
        // The formula's own expression line stays while the keypad's is the one it left
        // (`ms`, `m+`, an angle key); `c`, `mr` and the like show the keypad's again.
        if box.formula != nil, !box.brain.shownLine.isIdentical(to: line) { box.formula = nil }
        self = .formula(box)
      case .date(let box):
        // Date mode has no keypad brain: its lines are steps of their own.
        self = .date(box)
      }
    }

    /// A fresh Scientific calculation, as the mode key `sci` starts one: the box of formula
    /// mode's calculation is reused when no other state shares it (a formula line after a
    /// formula line allocates no box for its keypad).
    @inline(__always)
    mutating func startFormula() {
      switch consume self {
      case .formula(var box) where isKnownUniquelyReferenced(&box):
        // Made afresh rather than copied from `.initial`: no retains of a shared value.
        box.brain = ScientificBrain()
        box.formula = nil
        self = .scientific(box)
      case .standard, .scientific, .programmer, .formula, .date:
        self = .scientific(Box(.initial))
      }
    }

    /// Date mode's calculation as `brain`: the box reused when no other state shares it (a
    /// script's date line after a date line allocates no box; issue 51).
    @inline(__always)
    mutating func setDate(_ brain: DateBrain) {
      switch consume self {
      case .date(var box) where isKnownUniquelyReferenced(&box):
        box.brain = brain
        self = .date(box)
      case .standard, .scientific, .programmer, .formula, .date:
        self = .date(Box(brain))
      }
    }

    /// Scientific mode's calculation as formula mode's, the expression line showing `text`
    /// (the box kept when no other state shares it); any other mode's as it is.
    @inline(__always)
    mutating func endFormula(_ text: String) {
      switch consume self {
      case .scientific(var box):
        if isKnownUniquelyReferenced(&box) {
          box.formula = text
        } else {
          box = Box(box.brain, formula: text)
        }
        self = .formula(box)
      case .standard(let brain): self = .standard(brain)
      case .programmer(let box): self = .programmer(box)
      case .formula(let box): self = .formula(box)
      case .date(let box): self = .date(box)
      }
    }
  }

  /// A boxed brain of Scientific or Programmer mode, a value: equal and hashed as its brain,
  /// and copied before a change while another state shares it (``Machine/changeBoxed(_:_:)``).
  ///
  /// A class rather than an `indirect` case: a key changes the brain in place while the box is
  /// not shared, where an `indirect` case copied the brain out of its box and into a new one at
  /// every key (an allocation and a copy of about 300 bytes with their retains and releases).
  /// The same size: a header of two words and the brain.
  final class Box<Brain: Hashable & Sendable>: Hashable, @unchecked Sendable {
    /// The brain; changed only while the box is not shared, so that a box is a value.
    ///
    /// Without the runtime's exclusivity check: only ``Calculator`` reaches a box, and it
    /// changes the brain only through ``Machine/changeBoxed(_:_:)`` on a box no other state
    /// shares (with the check, the seed's model paid about 170 instructions more a key of
    /// calc-bench's Scientific stream, `--streams` under callgrind).
    @exclusivity(unchecked) var brain: Brain
    /// In formula mode, the canonical text of the formula whose keys left ``brain`` as it is
    /// (SPEC §12): the expression line shows the formula normalised instead of the keypad's
    /// line; `nil` in the other modes and once a key changes the keypad's line.
    @exclusivity(unchecked) var formula: String?

    init(_ brain: Brain, formula: String? = nil) {
      self.brain = brain
      self.formula = formula
    }

    static func == (left: Box, right: Box) -> Bool {
      left === right || (left.brain == right.brain && left.formula == right.formula)
    }

    func hash(into hasher: inout Hasher) { hasher.combine(brain) }
  }

  /// The calculation of the current mode.
  private(set) var machine: Machine
  /// The memory register; `nil` while it is empty (which differs from holding 0: `mr` and `mc`
  /// do nothing then).
  public private(set) var memory: Number?
  /// The unit of trigonometric functions; it persists across modes and AC (SPEC §9).
  public private(set) var angleUnit = AngleUnit.degrees
  /// Programmer mode's word size; it persists across modes and AC (SPEC §10). In Programmer
  /// mode it follows the brain's.
  public private(set) var wordSize = Key.WordSize.qword

  /// Programmer mode's radix; DEC in the other modes (a mode key to Programmer starts in DEC).
  public var radix: Key.Radix { keypad.radix }

  /// A fresh calculator: `0`, nothing pending, an empty memory.
  public static let initial = Calculator(brain: .initial, memory: nil)

  /// A calculator in Standard mode in the given state.
  package init(brain: CalculatorBrain, memory: Number? = nil) {
    self.machine = .standard(brain)
    self.memory = memory
  }

  /// Standard mode's fresh calculation with the given memory, angle unit and word size: the
  /// small state a history's light snapshot rebuilds from (``History``).
  init(memory: Number?, angleUnit: AngleUnit, wordSize: Key.WordSize) {
    self.machine = .standard(.initial)
    self.memory = memory
    self.angleUnit = angleUnit
    self.wordSize = wordSize
  }

  /// Whether the two calculators are the same state to the last digit, so that the same keys
  /// give the same displays after either: `==` takes `1.50` and `1.5` for one number, which
  /// displays differently. Known only for the states a Standard-mode line ends in, an operator
  /// pending or a result after `=`, with the memory; `false` for any other, which may be the
  /// same (`:edit` then replays on, `Session`).
  package func isIdentical(to other: Calculator) -> Bool {
    guard case .standard(let brain) = machine, case .standard(let otherBrain) = other.machine,
      angleUnit == other.angleUnit, wordSize == other.wordSize,
      History.identical(memory, other.memory)
    else { return false }
    return brain.isIdentical(to: otherBrain)
  }

  // MARK: - Reading, one switch a question

  /// Standard mode's calculation; `nil` in the other modes.
  package var standard: CalculatorBrain? {
    if case .standard(let brain) = machine { brain } else { nil }
  }

  /// Scientific mode's calculation, and formula mode's (a Scientific keypad); `nil` in the
  /// other modes.
  package var scientific: ScientificBrain? {
    switch machine {
    case .scientific(let box), .formula(let box): box.brain
    case .standard, .programmer, .date: nil
    }
  }

  /// Programmer mode's calculation; `nil` in the other modes.
  package var programmer: ProgrammerBrain? {
    if case .programmer(let box) = machine { box.brain } else { nil }
  }

  /// The mode.
  public var mode: Key.Mode {
    switch machine {
    case .standard: .standard
    case .scientific: .scientific
    case .programmer: .programmer
    case .formula: .formula
    case .date: .date
    }
  }

  /// Date mode's value when the display shows it (``Display/date(_:)``: not a fault), read
  /// without the display's box; `nil` in the other modes.
  var shownDateValue: DateValue? {
    guard case .date(let box) = machine else { return nil }
    if case .fault = box.brain.value { return nil }
    return box.brain.value
  }

  /// What the display shows, in any mode.
  public var display: Display {
    switch machine {
    case .standard(let brain): brain.display
    case .scientific(let box), .formula(let box): box.brain.display
    case .programmer(let box): box.brain.display
    case .date(let box):
      switch box.brain.value {
      // An error of calculation is shown as every mode shows one (rule 14).
      case .fault(.dateOutOfBound): .error(.dateOutOfBound)
      case .fault(.calculation(let error)): .error(error)
      case .date, .difference, .duration, .number: .date(DateDisplay(value: box.brain.value))
      }
    }
  }

  /// The value in the display, or `nil` while an error is shown.
  public var displayedValue: Number? {
    switch machine {
    case .standard(let brain): brain.displayedValue
    case .scientific(let box), .formula(let box): box.brain.displayedValue
    case .programmer(let box): box.brain.displayedValue
    case .date(let box): box.brain.value.number
    }
  }

  /// Whether a number the calculation holds — the display's, or an operand waiting for an
  /// operator — is a value that a step rounded (SPEC §2 rule 15): a step from here may carry
  /// that rounding rather than make one (`:exact`'s "the step that rounded it").
  package var holdsRoundedOperand: Bool {
    if displayedValue?.isRounded == true { return true }
    switch machine {
    case .standard(let brain):
      switch brain {
      case .leftOp(let left, _), .leftOpRight(let left, _, _): return left.number.isRounded
      case .left(_, let repeating, _): return repeating?.operand.isRounded == true
      case .equalled(_, let operation, _, _): return operation.operand.isRounded
      case .error: return false
      }
    case .scientific(let box), .formula(let box): return box.brain.stack.holdsRoundedOperand
    case .programmer: return false
    case .date(let box): return box.brain.value.number?.isRounded == true
    }
  }

  /// Whether the display shows an error: the current mode's error state, whatever the mode
  /// (what decides a script's exit status, SPEC §5; `ErrorStateTests`).
  public var isError: Bool {
    // By the case, without the brain: a script asks after every line.
    switch machine {
    case .standard(.error): true
    case .standard: false
    case .scientific(let box), .formula(let box): box.brain.error != nil
    case .programmer(let box): box.brain.error != nil
    case .date(let box):
      if case .fault = box.brain.value { true } else { false }
    }
  }

  /// Whether an operation waits for its right operand (or a bracket is open); never while an
  /// error is shown.
  public var isPending: Bool {
    switch machine {
    case .standard(let brain): brain.isPending
    case .scientific(let box), .formula(let box): box.brain.isPending
    case .programmer(let box): box.brain.isPending
    case .date: false
    }
  }

  /// ``isError`` and ``isPending`` together, Standard mode's by one look at its case: a script
  /// asks both after every line, and two calls cost its everyday line 16 instructions
  /// more (Documentation/Performance.md).
  package var errorAndPending: (isError: Bool, isPending: Bool) {
    switch machine {
    case .standard(.error): (true, false)
    case .standard(.leftOp), .standard(.leftOpRight): (false, true)
    case .standard(.left), .standard(.equalled): (false, false)
    case .scientific, .programmer, .formula, .date: (isError, isPending)
    }
  }

  /// The expression line, in any mode.
  package var expressionLine: ExpressionLine {
    switch machine {
    case .standard(let brain): .standard(brain.expressionLine)
    case .scientific(let box): .scientific(box.brain.shownLine)
    case .formula(let box):
      if let text = box.formula, let line = Formula.expressionLine(ofCanonical: text) {
        .formula(line)
      } else {
        .scientific(box.brain.shownLine)
      }
    case .programmer(let box):
      .programmer(box.brain.shownLine, radix: box.brain.radix, wordSize: box.brain.wordSize)
    case .date(let box): .date(box.brain.line)
    }
  }

  /// The calculation that pressing `key` completes, as the expression line writes it with its
  /// `=` (a paper tape's row, without the result); `nil` for keys that complete none. In
  /// Scientific and Programmer modes only `=` completes one, a failed one too (`1 ÷ 0 =`, as
  /// in Standard mode), and not while an error is shown (`=` then does nothing).
  package func completedCalculation(by key: Key) -> ExpressionLine? {
    switch machine {
    case .standard(let brain):
      return brain.completedCalculation(by: key).map { .standard($0) }
    case .scientific(let box), .formula(let box):
      guard case .equal = key, box.brain.error == nil else { return nil }
      return apply(key).expressionLine
    case .programmer(let box):
      guard case .equal = key, box.brain.error == nil else { return nil }
      return apply(key).expressionLine
    case .date:
      return nil
    }
  }

  /// Whether F-E is on (Scientific mode only).
  public var isExponential: Bool {
    switch machine {
    case .standard, .programmer, .date: false
    case .scientific(let box), .formula(let box): box.brain.isExponential
    }
  }

  /// What may be pressed: the mode, and in Programmer mode the radix and the word size.
  package var keypad: Keypad {
    switch machine {
    case .standard: Keypad(mode: .standard, radix: .dec, wordSize: wordSize)
    case .scientific: Keypad(mode: .scientific, radix: .dec, wordSize: wordSize)
    case .formula: Keypad(mode: .formula, radix: .dec, wordSize: wordSize)
    case .date: Keypad(mode: .date, radix: .dec, wordSize: wordSize)
    case .programmer(let box):
      Keypad(mode: .programmer, radix: box.brain.radix, wordSize: wordSize)
    }
  }

  /// How many digits the entry being typed holds, when it is full (a further digit is ignored):
  /// 16 in Standard mode, 32 in Scientific mode; `nil` when no full entry is typed, and in
  /// Programmer mode, whose typing stops at the word (SPEC §10).
  package var fullEntryCapacity: Int? {
    switch machine {
    case .standard(let brain):
      return brain.isTypingAFullEntry ? Entry.maximumDigits : nil
    case .scientific(let box), .formula(let box):
      let input = box.brain.input
      return box.brain.isTyping && !input.hasExponent
        && input.digitCount >= ScientificEntry.maximumDigits ? ScientificEntry.maximumDigits : nil
    case .programmer, .date:
      return nil
    }
  }

  /// Whether the display shows a 0 that nobody typed: a fresh calculator, or one after AC or
  /// CE (a typed `0` reads the same in Standard mode, where an entry of `0` is that 0).
  package var showsUntouchedZero: Bool {
    switch machine {
    case .standard(let brain):
      switch brain {
      case .left(.entry(let entry), _, _), .leftOpRight(_, _, .entry(let entry)):
        return entry == .zero
      case .left(.value, _, _), .leftOp, .leftOpRight(_, _, .value), .error, .equalled:
        return false
      }
    case .scientific(let box), .formula(let box):
      let scientific = box.brain
      return scientific.isTyping ? scientific.input.isEmpty : scientific == .initial
    case .programmer(let box):
      // Typed digits, or a 0 that no calculation left (AC, CE, a fresh mode).
      let programmer = box.brain
      return programmer.isTyping
        ? programmer.input.magnitude == 0
        : programmer.value == 0 && programmer.shownLine.isEmpty && !programmer.isPending
    case .date(let box):
      return box.brain == .initial
    }
  }

  /// Whether a number is being typed that already holds a decimal point (and, in Scientific
  /// mode, no exponent): a `.` now is ignored. Never in Programmer mode, which has no point.
  package var typedEntryHasPoint: Bool {
    switch machine {
    case .standard(let brain):
      switch brain {
      case .left(.entry(let entry), _, _), .leftOpRight(_, _, .entry(let entry)):
        return entry.hasPoint
      case .left(.value, _, _), .leftOp, .leftOpRight(_, _, .value), .error, .equalled:
        return false
      }
    case .scientific(let box), .formula(let box):
      let input = box.brain.input
      return box.brain.isTyping && input.hasPoint && !input.hasExponent
    case .programmer, .date:
      return false
    }
  }

  /// Whether a number is being typed (digits, a point or an exponent, not a 0 nobody typed in
  /// Scientific mode); in Standard mode a typed entry, `0` included.
  package var isTypingANumber: Bool {
    switch machine {
    case .standard(let brain):
      switch brain {
      case .left(.entry, _, _), .leftOpRight(_, _, .entry): return true
      case .left(.value, _, _), .leftOp, .leftOpRight(_, _, .value), .error, .equalled:
        return false
      }
    case .scientific(let box), .formula(let box):
      return box.brain.isTyping && !box.brain.input.isEmpty
    case .programmer(let box):
      return box.brain.isTyping && box.brain.error == nil
    case .date:
      return false
    }
  }

  /// Whether an exponent being typed holds all its digits (Scientific mode): a further digit
  /// is ignored.
  package var typesAFullExponent: Bool {
    switch machine {
    case .standard, .programmer, .date:
      return false
    case .scientific(let box), .formula(let box):
      let input = box.brain.input
      return box.brain.isTyping && input.hasExponent
        && Int(input.exponentDigitCount) >= ScientificEntry.maximumExponentDigits
    }
  }

  /// Whether the right operand of a pending operation is being typed (Standard mode), or a
  /// number is being typed (the other modes): what a note about an unfinished line writes
  /// after the expression line.
  package var isTypingPendingOperand: Bool {
    switch machine {
    case .standard(let brain): brain.isTypingRightOperand
    case .scientific(let box), .formula(let box): box.brain.isTyping
    case .programmer(let box): box.brain.isTyping
    case .date: false
    }
  }

  // MARK: - The keypad's check

  /// The index of the first key of `keys` that may not be pressed when the line is applied from
  /// this state (mode, radix and word-size keys in the line count); `nil` when every key may be
  /// pressed.
  ///
  /// - Complexity: O(n) in the number of keys.
  package func firstKeyOutOfMode(in keys: some Collection<Key>) -> Int? {
    var keypad = self.keypad
    return Calculator.firstRejectedKey(in: keys, keypad: &keypad)?.index
  }

  /// Why the line `keys` may not be applied from this state, as a session refuses it; `nil`
  /// when every key may be pressed.
  ///
  /// - Complexity: O(n) in the number of keys.
  package func keyRejection(in keys: some Collection<Key>) -> SessionError? {
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
  package static func firstRejectedKey(
    in keys: some Collection<Key>, keypad: inout Keypad
  ) -> (index: Int, reason: KeyRejection)? {
    var index = 0
    // One switch a key: this runs for every line a script applies. Standard's keys are keys of
    // every mode but Programmer, and need no more look outside it.
    for key in keys {
      switch key {
      case .digit, .op, .equal, .command, .unary, .memory, .dot:
        if keypad.mode == .programmer || keypad.mode == .formula || keypad.mode == .date,
          let reason = keypad.press(key)
        {
          return (index, reason)
        }
      case .reference:
        // `$N` recalls as `mr` does, in every mode (SPEC §11).
        break
      case .formula, .dateLine:
        // A formula (date) line switches to formula (date) mode itself (SPEC §12, §13).
        if let reason = keypad.press(key) { return (index, reason) }
      case .angle, .mode, .scientific, .programmer:
        if let reason = keypad.press(key) { return (index, reason) }
      }
      index += 1
    }
    return nil
  }

  // MARK: - Keys

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
    let wordSize = wordSize
    let isStandard = machine.changeStandard(memory: &memory, angleUnit: &angleUnit) {
      brain, memory, angleUnit in
      // A mode key starts the new mode's calculation afresh (SPEC §9), even while an error is
      // shown.
      if case .mode(let mode) = key { return Machine.initial(mode, wordSize: wordSize) }
      brain.press(key, memory: &memory, angleUnit: &angleUnit)
      return nil
    }
    if !isStandard { pressBoxed(key) }
  }

  /// Presses each of `keys` in turn, as within one line (no line starts between them), after
  /// starting a line when `startingLine` (``startLine()``): the same as ``press(_:)`` for each,
  /// in one call, so that a line pays for a call's set-up once
  /// rather than at every key (History's lines, ``History/apply(checkedLine:)``).
  ///
  /// In Standard mode the brain is moved out of the machine once for the keys up to a mode key,
  /// and a digit or a point is typed with the digits and points after it at once
  /// (``CalculatorBrain/type(fresh:_:thenRun:from:)``): the same state as a key at a time, with
  /// one change of the state for a run (`TypedRunTests`).
  /// - Complexity: O(n) in the number of keys.
  mutating func press(each keys: UnsafeBufferPointer<Key>, startingLine: Bool = false) {
    var index = 0
    var startsLine = startingLine
    repeat {
      // Standard mode's keys leave the word size as it is; another mode's may change it.
      let wordSize = wordSize
      let isStandard = machine.changeStandard(memory: &memory, angleUnit: &angleUnit) {
        brain, memory, angleUnit in
        if startsLine { brain.startLine() }
        while index < keys.count {
          let key = keys[index]
          index += 1
          switch key {
          case .mode(let mode):
            return Machine.initial(mode, wordSize: wordSize)
          case .digit(let digit):
            index = brain.type(
              fresh: Entry(digit), { $0.appending(digit) }, thenRun: keys, from: index)
          case .dot:
            index = brain.type(
              fresh: .zeroPoint, { $0.appendingPoint() }, thenRun: keys, from: index)
          case .op, .equal, .command, .unary, .memory, .scientific, .angle, .reference,
            .formula, .dateLine, .programmer:
            brain.press(key, memory: &memory, angleUnit: &angleUnit)
          }
        }
        return nil
      }
      if !isStandard {
        if startsLine { startLine() }
        if index < keys.count {
          pressBoxed(keys[index])
          index += 1
        }
      }
      startsLine = false
    } while index < keys.count
  }

  /// Whether ``pressCommonLine(_:)`` takes a common key line: in Standard mode with no
  /// operation pending.
  var takesCommonLine: Bool {
    switch machine {
    case .standard(.leftOp), .standard(.leftOpRight): false
    case .standard(.left), .standard(.equalled), .standard(.error): true
    case .scientific, .programmer, .formula, .date: false
    }
  }

  /// Presses a common key line (``CommonKeyLine``) as a line in Standard mode
  /// (``CalculatorBrain/pressCommonLine(_:)``), returning `true`; in another mode, or with an
  /// operation pending, returns `false` and changes nothing. The memory, the angle unit and the
  /// word size are the line's keys' to leave as they are.
  @inline(__always)
  mutating func pressCommonLine(_ line: CommonKeyLine) -> Bool {
    var pressed = false
    _ = machine.changeStandard(memory: &memory, angleUnit: &angleUnit) { brain, _, _ in
      pressed = brain.pressCommonLine(line)
      return nil
    }
    return pressed
  }

  /// Replays keys as a history stores them, the state's mode changing as they go: for each of
  /// `range`, a line starts first where `startsLine` says so, then the key `step` gives is
  /// pressed, or a `$N` key recalls what it recalled (``recall(_:)-(Recalled)``).
  ///
  /// The same as ``startLine()`` and ``press(_:)`` or ``recall(_:)-(Recalled)`` for each, with
  /// Standard mode's brain moved out of the machine once for the keys up to a mode key, as a
  /// line's keys are (``press(each:startingLine:)``): what a jump's replay runs.
  /// - Complexity: O(n) in the number of keys.
  @inline(__always)
  mutating func replay(
    _ range: Range<Int>, startsLine: (Int) -> Bool, step: (Int) -> Step
  ) {
    var index = range.lowerBound
    while index < range.upperBound {
      // Standard mode's keys leave the word size as it is; another mode's may change it.
      let wordSize = wordSize
      let isStandard = machine.changeStandard(memory: &memory, angleUnit: &angleUnit) {
        brain, memory, angleUnit in
        while index < range.upperBound {
          if startsLine(index) { brain.startLine() }
          let current = step(index)
          index += 1
          switch current {
          case .key(.mode(let mode)): return Machine.initial(mode, wordSize: wordSize)
          case .key(let key): brain.press(key, memory: &memory, angleUnit: &angleUnit)
          case .recall(let recalled): Calculator.recall(recalled, on: &brain)
          case .formula(let step):
            // Leaves Standard mode: the rest of the range goes on outside this closure.
            var next = Calculator(memory: memory, angleUnit: angleUnit, wordSize: wordSize)
            next.apply(formula: step)
            memory = next.memory
            return next.machine
          case .date(let step):
            return .date(Box(DateBrain(value: step.value, text: step.lineText)))
          }
        }
        return nil
      }
      if !isStandard {
        if startsLine(index) { startLine() }
        switch step(index) {
        case .key(let key): pressBoxed(key)
        case .recall(let recalled): recall(recalled)
        case .formula(let step): apply(formula: step)
        case .date(let step): apply(date: step)
        }
        index += 1
      }
    }
  }

  /// What a history's step does when it is replayed (``replay(_:startsLine:step:)``).
  enum Step {
    /// Presses the key.
    case key(Key)
    /// A `$N` key: recalls what it recalled when its line was applied.
    case recall(Recalled)
    /// A formula line: its compiled keys, run as one step (SPEC §12).
    case formula(FormulaStep)
    /// A date line: its value, as when it was applied (SPEC §13).
    case date(DateStep)
  }

  /// Presses `key` in Scientific or Programmer mode (``press(_:)``).
  ///
  /// Not inlined: the loops of Standard mode's keys (``press(each:startingLine:)``, a replay)
  /// that call it for another mode's key then stay small enough for Standard's `switch` to be
  /// inlined into them.
  @inline(never)
  private mutating func pressBoxed(_ key: Key) {
    // Memory is the calculator's, whatever the mode: handled once, here; a mode key starts
    // the new mode's calculation afresh (SPEC §9), even while an error is shown.
    switch key {
    case .memory(let memoryKey):
      if case .date(let box) = machine {
        pressDateMemory(memoryKey, on: box.brain)
      } else {
        pressMemory(memoryKey)
      }
      return
    case .mode(let mode):
      machine = Machine.initial(mode, wordSize: wordSize)
      return
    case .reference, .formula, .dateLine:
      // Resolved by the session, which calls `recall(_:)` or `apply(formula:)` instead
      // (SPEC §11, §12).
      return
    case .angle(let unit):
      pressAngle(unit)
      return
    case .digit, .dot, .op, .equal, .command, .unary, .scientific, .programmer:
      break
    }
    // Memory, mode and angle keys are handled above and never come here.
    let unit = angleUnit
    var wordSize = wordSize
    machine.changeBoxed({ $0.press(key, unit: unit) }) {
      $0.press(key)
      wordSize = $0.wordSize
    }
    self.wordSize = wordSize
  }

  /// An angle key in Scientific or Programmer mode: in Scientific mode it sets the unit of
  /// trigonometry and ends a typed entry like `ms`, ignored while an error is shown; it is no
  /// key of Programmer mode.
  private mutating func pressAngle(_ unit: AngleUnit) {
    switch machine {
    case .standard:
      // Standard mode's angle keys are pressed on its brain (``CalculatorBrain/press(_:memory:angleUnit:)``).
      return
    case .scientific(let box), .formula(let box):
      guard box.brain.error == nil else { return }
      angleUnit = unit
      machine.changeBoxed({ $0.press(.angle(unit), unit: unit) }) { _ in }
    case .programmer, .date:
      // Not a Programmer or date mode key: a session never presses one here.
      return
    }
  }

  /// Presses a memory key in date mode (SPEC §13): `ms`, `m+` and `m-` take the number of a
  /// number line or a difference's total days (a session refuses them after a date or a
  /// duration: the memory holds numbers), `mr` shows the memory as a number line, `mc` clears
  /// it; all are ignored while an error is shown, and `mr` while the memory is empty.
  private mutating func pressDateMemory(_ memoryKey: Key.Memory, on brain: DateBrain) {
    if case .fault = brain.value { return }
    let number = brain.value.number
    switch memoryKey {
    case .store:
      if let number { memory = number }
    case .add, .subtract:
      guard let number else { return }
      memory = (memory ?? .zero) + (memoryKey == .add ? number : -number)
    case .clear:
      memory = nil
    case .recall:
      guard let memory else { return }
      // Another mode's number beyond date mode's limits: rule 14 at those limits.
      let value = DateChecker.checked(.number(DateNumber(number: memory)))
      machine = .date(
        Box(DateBrain(value: value, text: DateText(recorded: "mr", normalized: "mr"))))
    }
  }

  // MARK: - Memory and `$N`

  /// What a `$N` key recalls (SPEC §11): the value after line N, or the error it ended in.
  public enum Recalled: Hashable, Sendable {
    /// The exact value in the display after the line.
    case value(Number)
    /// The error the line ended in.
    case error(CalculationError)

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
    let isStandard = machine.changeStandard(memory: &memory, angleUnit: &angleUnit) { brain, _, _ in
      Calculator.recall(recalled, on: &brain)
      return nil
    }
    if !isStandard {
      machine.changeBoxed({ Calculator.recall(recalled, on: &$0) }) {
        Calculator.recall(recalled, on: &$0)
      }
    }
  }

  /// Presses a resolved `$N` key on `brain` (``recall(_:)-(Recalled)``).
  static func recall<Brain: ModeBrain>(_ recalled: Recalled, on brain: inout Brain) {
    guard !brain.isError else { return }
    switch recalled {
    case .value(let value): brain.recall(value)
    case .error(let error): brain.showError(error)
    }
  }

  /// Presses a memory key in Scientific or Programmer mode (Standard mode's are pressed on its
  /// brain, ``CalculatorBrain/press(_:memory:angleUnit:)``).
  private mutating func pressMemory(_ memoryKey: Key.Memory) {
    var memory = memory
    machine.changeBoxed({ Calculator.pressMemory(memoryKey, on: &$0, memory: &memory) }) {
      Calculator.pressMemory(memoryKey, on: &$0, memory: &memory)
    }
    self.memory = memory
  }

  /// Presses a memory key on `brain`, in any mode (SPEC rule 17).
  ///
  /// Ignored while an error is shown; `ms`, `m+`, `m-` and `mc` end a typed entry; `mr` and `mc`
  /// do nothing while the memory is empty. Each mode's range is kept (``ModeBrain``): a recalled
  /// value or a sum beyond it shows Overflow (the memory keeps its value); in Standard mode a
  /// value below 10^-100 is 0.
  static func pressMemory<Brain: ModeBrain>(
    _ memoryKey: Key.Memory, on brain: inout Brain, memory: inout Number?
  ) {
    guard let shown = brain.displayedValue else { return }
    // A Scientific entry beyond the limits fails as the key ends it, storing nothing.
    if memoryKey != .recall, Brain.overflows(shown) { return brain.endEntry() }
    switch memoryKey {
    case .store:
      memory = shown
    case .recall:
      guard let memory else { return }
      brain.recall(memory)
      return
    case .add, .subtract:
      let sum = (memory ?? .zero) + (memoryKey == .add ? shown : -shown)
      if Brain.overflows(sum) {
        // A memory that would overflow shows Overflow and keeps its value, like a result would.
        brain.showMemoryOverflow()
        return
      }
      memory = Brain.bounded(sum)
    case .clear:
      guard memory != nil else { return }
      memory = nil
    }
    brain.endEntry()
  }

  // MARK: - Lines

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
    switch machine {
    case .standard:
      _ = machine.changeStandard(memory: &memory, angleUnit: &angleUnit) { brain, _, _ in
        brain.startLine()
        return nil
      }
    case .scientific(let box), .formula(let box):
      guard box.brain.isTyping, !box.brain.input.isEmpty else { return }
      machine.changeBoxed({ $0.endEntry() }) { _ in }
    case .programmer(let box):
      guard box.brain.isTyping else { return }
      machine.changeBoxed({ _ in }) { $0.endEntry() }
    case .date:
      return
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

extension Calculator {
  /// Applies a date line (SPEC §13): date mode, showing the line's value; the memory, the
  /// angle unit and the word size are kept.
  mutating func apply(date step: DateStep) {
    machine.setDate(DateBrain(value: step.value, text: step.lineText))
  }

  /// Applies a formula line: its compiled keys on a Scientific keypad cleared as by AC, the
  /// memory and the angle unit kept, stopping at the first error; the calculator is then in
  /// formula mode (SPEC §12).
  ///
  /// - Complexity: O(n) in the number of keys.
  mutating func apply(formula step: FormulaStep) {
    // As `applyingFormula(keys:recall:)`, in place: the state is not copied, and the keypad's
    // box is reused while no other state shares it.
    machine.startFormula()
    var recalls = step.recalls.makeIterator()
    press(formulaKeys: step.keys) { _ in recalls.next() ?? .value(.zero) }
    machine.endFormula(step.text)
  }

  /// Calls `body` with the title of each compiled key of `step` and the state after it, as
  /// ``apply(formula:)`` presses them from this state (the `sci` that clears the keypad first
  /// gets no call): the keypad's work inside a formula, for `--trace` and `:why`. The states are
  /// Scientific mode's.
  ///
  /// - Complexity: O(n) in the number of keys, and the cost of `body`.
  package func forEachState(
    applying step: FormulaStep, _ body: (_ title: String, _ state: Calculator) -> Void
  ) {
    var state = self
    state.press(.mode(.scientific))
    var recalls = step.recalls.makeIterator()
    for index in step.keys.indices {
      let key = step.keys[index]
      if key.isReference {
        state.recall(recalls.next() ?? .value(.zero))
      } else {
        state.press(key)
      }
      body(step.keys.title(at: index), state)
      if state.isError { break }
    }
  }
}

extension CalculatorBrain {
  /// Presses `key`, any key but a mode key (which replaces the whole machine:
  /// ``Calculator/press(_:)``), in Standard mode, with the calculator's memory and angle unit:
  /// Standard mode's one `switch` over keys. Each transition's result replaces the brain
  /// directly, as the book's reducer does (a function returning the next brain made every key
  /// copy it through memory: calc-bench's apply fell from 28.7 to 24.5 M keys/s).
  @inline(__always)
  mutating func press(_ key: Key, memory: inout Number?, angleUnit: inout AngleUnit) {
    switch key {
    case .digit(let digit):
      type(fresh: Entry(digit)) { $0.appending(digit) }
    case .dot:
      type(fresh: .zeroPoint) { $0.appendingPoint() }
    case .op(let op): pressOperator(op)
    case .equal: pressEqual()
    case .command(.clear): self = .initial
    case .command(.clearEntry): replace(with: applyClearEntry())
    case .command(.flip): replace(with: applyFlip())
    case .command(.percent): replace(with: applyPercent())
    case .command(.backspace): replace(with: applyBackspace())
    case .unary(let unary): replace(with: applyUnary(unary))
    // Memory is the calculator's, whatever the mode.
    case .memory(let memoryKey): Calculator.pressMemory(memoryKey, on: &self, memory: &memory)
    case .angle(let unit):
      // The unit of Scientific mode's trigonometry, set in Standard mode too; it ends a typed
      // entry like `ms`, and is ignored while an error is shown.
      guard !isError else { return }
      angleUnit = unit
      endEntry()
    case .mode:
      // Handled by ``Calculator``, which replaces the whole machine.
      return
    case .reference, .formula, .dateLine:
      // Resolved by the session, which calls `recall(_:)` or `apply(formula:)` instead.
      return
    case .scientific, .programmer:
      // Not a Standard key: a session never presses one here (its line is rejected, and an
      // edit of the past that would replay one here is refused); pressed on a bare calculator,
      // it does nothing.
      return
    }
  }
}

/// What each mode's brain answers for the keys that ``Calculator`` holds the state of — the
/// memory keys and `$N` (SPEC rule 17, §11) — so that their rules are written once for every
/// mode: a new mode's brain answers these to take part.
protocol ModeBrain {
  /// The value in the display, or `nil` while an error is shown.
  var displayedValue: Number? { get }
  /// Whether the display shows an error.
  var isError: Bool { get }
  /// Ends the number being typed, as `ms` does.
  mutating func endEntry()
  /// Recalls `value` into the display, as `mr` does, within the mode's range.
  mutating func recall(_ value: Number)
  /// Shows `error`, as a `$N` recall of a line that ended in it does.
  mutating func showError(_ error: CalculationError)
  /// Shows Overflow with the expression line as it was, as `m+` or `m-` summing past the
  /// mode's limits does.
  mutating func showMemoryOverflow()
  /// Whether `value` is a result the mode shows as Overflow: what `m+` and `m-` may not store.
  static func overflows(_ value: Number) -> Bool
  /// A sum that `m+` or `m-` stores, within the mode's range (Standard mode: 0 below 10^-100).
  static func bounded(_ value: Number) -> Number
}

extension CalculatorBrain: ModeBrain {
  /// From 10^100 (SPEC rule 14).
  static func overflows(_ value: Number) -> Bool {
    value.magnitudeExponent.map { $0 >= 100 } ?? false
  }

  /// 0 below 10^-100 (SPEC rule 14).
  static func bounded(_ value: Number) -> Number {
    value.magnitudeExponent.map { $0 < -100 } == true ? .zero : value
  }

  mutating func endEntry() { self = endingEntry() }

  /// A value stored in Scientific mode may be outside Standard's range (SPEC §9): from 10^100
  /// it shows Overflow, below 10^-100 it is 0.
  mutating func recall(_ value: Number) {
    if Self.overflows(value) {
      self = overflowingMemory()
    } else {
      self = recalling(Self.bounded(value))
    }
  }

  mutating func showError(_ error: CalculationError) {
    self = .error(error, line: expressionLine)
  }

  mutating func showMemoryOverflow() { self = overflowingMemory() }
}

extension ScientificBrain: ModeBrain {
  /// From 10^10000, and nonzero below 10^-9999 (SPEC §9).
  static func overflows(_ value: Number) -> Bool { !ScientificRules.bounded(value) }

  static func bounded(_ value: Number) -> Number { value }

  var isError: Bool { error != nil }

  mutating func showMemoryOverflow() { showError(.overflow) }
}

extension ProgrammerBrain: ModeBrain {
  /// Never: Programmer mode's memory holds exact values (SPEC §10).
  static func overflows(_ value: Number) -> Bool { false }

  static func bounded(_ value: Number) -> Number { value }

  var isError: Bool { error != nil }

  /// Never called: Programmer mode's memory never overflows (``overflows(_:)``).
  mutating func showMemoryOverflow() {}
}

/// An expression line of either mode.
package enum ExpressionLine: Hashable, Sendable {
  /// Standard mode's: `12 + 3 =`, `√(9)`.
  case standard(CalculatorBrain.Line)
  /// Scientific mode's tokens: `1 + (2 - 3) =`, `sin₀(30)`.
  case scientific(ExpressionTokens)
  /// Programmer mode's tokens, with the radix and word size its operands are shown in:
  /// `5 + 4 =`, `RoLC(5)`.
  case programmer(
    ProgrammerTokens, radix: Key.Radix,
    wordSize: Key.WordSize)
  /// A formula line's: the formula normalised (SPEC §12), `5 × −2 =`.
  case formula(String)
  /// Date mode's: the last date line, normalised (`2019-07-31 to 2019-12-30`).
  case date(String)
}
