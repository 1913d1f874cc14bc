import CalcDecimal

/// The calculation's state: the book's enum state machine, extended for a pocket calculator's
/// rules (repeated `=`, percent in context, CE, backspace, unary keys, exact errors) and with
/// what the expression line (SPEC §3.1) shows.
///
/// The brain says what is on screen: ``display`` is what the display shows (an entry as typed,
/// a computed value, or an error) and ``expressionLine`` what the expression line holds;
/// ``DisplayFormat`` only renders them.
///
/// ``Calculator`` holds it as its machine's Standard case, with the memory register beside it;
/// the one `switch` over Standard mode's keys (the book's reducer) is
/// `press(_:memory:angleUnit:)`, in Calculator.swift, and the transitions here are pure
/// functions from a state to the next.
/// Calculation never throws: dividing by zero, a square root of a negative number or overflowing
/// leads to the ``error(_:line:)`` state, which a digit, `.`, AC or CE leaves and every other key
/// ignores.
///
/// Magnitudes are bounded: a result of 10^100 or more is ``CalculationError/overflow``, and a
/// nonzero result below 10^-100 becomes 0.
package enum CalculatorBrain: Hashable, Sendable {
  /// Typing or showing the left operand. `repeating` is the operation that `=` repeats, if any
  /// (set by `=`; kept by digits, `.`, percent, sign change, unary keys, CE and backspace; gone
  /// after an operator, AC or an error). `line` is the expression line.
  case left(Operand, repeating: Operation?, line: Line)
  /// A left operand and an operator, waiting for the right operand; the display shows the left.
  case leftOp(left: Value, op: Key.Op)
  /// A left operand, an operator, and the right operand being typed or computed.
  case leftOpRight(left: Value, op: Key.Op, right: Operand)
  /// A calculation failed; the display shows its message, `line` the calculation that failed.
  case error(CalculationError, line: Line)
  /// Right after an `=` that applied an operation (`12 + 3 =`, and each repetition): the
  /// result, the operation that `=` repeats, and the terms the expression line shows on either
  /// side of its operator.
  ///
  /// The same as `.left(.value(.plain(result)), repeating: operation, line:
  /// .operation(left: left, op: operation.op, right: right, closing: .equals))`, which no key
  /// leads to any more: this state holds no box, where that line's box was allocated at every
  /// `=` of a script and freed by the next line's first digit (about 330 instructions of a
  /// script's line of 3,800, Documentation/Performance.md). The size of a state is unchanged
  /// (`BrainStorageTests`).
  case equalled(result: Number, operation: Operation, left: Term, right: Term)

  /// A fresh calculator, showing `0` with an empty expression line (the book's `.left("0")`).
  package static let initial = CalculatorBrain.left(.entry(.zero), repeating: nil, line: .empty)

  /// The number in the display: one being typed, or a computed one.
  package enum Operand: Hashable, Sendable {
    /// A number being typed: shown as typed, and digits append to it.
    case entry(Entry)
    /// A result, a percentage, a unary answer, a sign-changed or recalled value: a digit starts
    /// a new number.
    case value(Value)

    /// The operand's exact value.
    ///
    /// Inlined, as ``term`` is: called, the two cost `=` about 50 instructions a script line
    /// (Documentation/Performance.md, issue 51).
    @inline(__always)
    package var number: Number {
      switch self {
      case .entry(let entry): Number(entry.value)
      case .value(let value): value.number
      }
    }

    /// How the operand reads in the expression line: a typed number stands for itself.
    @inline(__always)
    package var term: Term {
      switch self {
      case .entry(let entry): .typed(Number(entry.value))
      case .value(let value): value.term
      }
    }

    /// The operand's ``number`` and ``term`` together: a typed number is made once, where
    /// reading the two made it twice (an operator and `=` a script line:
    /// Documentation/Performance.md, issue 51).
    package var asValue: Value {
      switch self {
      case .entry(let entry):
        let number = Number(entry.value)
        return Value(number: number, term: .typed(number))
      case .value(let value):
        return value
      }
    }
  }

  /// A computed number and how it reads in the expression line.
  package struct Value: Hashable, Sendable {
    /// The exact value.
    package let number: Number
    /// How the expression line writes it: `√(9)` for the 3 that `9@` gives.
    package let term: Term

    /// A value that reads as itself, such as a result.
    package static func plain(_ number: Number) -> Value {
      Value(number: number, term: .plain(number))
    }

    /// `number`, written in the expression line as `term`.
    package init(number: Number, term: Term) {
      self.number = number
      self.term = term
    }

    /// Whether the two are the same number and term to the last digit.
    func isIdentical(to other: Value) -> Bool {
      History.identical(number, other.number) && term.isIdentical(to: other.term)
    }
  }

  /// A number in the expression line, with the unary keys and sign changes applied to it:
  /// `√(√(256))`, `sqr(3)`, `1/(4)`, `negate(5)`.
  ///
  /// The wrappers are packed two bits each, so a term has a fixed size; past
  /// ``maximumStoredWrappers`` levels of nesting the outer ones are counted (up to 255) but not
  /// kept, and the expression line shows them as `…(…)`.
  package struct Term: Hashable, Sendable {
    /// The number the wrappers apply to, as the display would show it.
    package let base: Number
    /// Wrapper `i` (innermost first) in bits `2i` and `2i+1`, the typed flag in bit 54, the depth
    /// in bits 56–63: one word, because terms are copied with every key.
    private let packed: UInt64

    /// How many wrappers a term keeps.
    package static let maximumStoredWrappers = 27
    private static let typedBit: UInt64 = 1 << 54
    private static let depthShift: UInt64 = 56

    /// How many wrappers were applied, saturating at 255.
    package var depth: UInt8 { UInt8(truncatingIfNeeded: packed >> Term.depthShift) }
    /// Whether the number was typed or recalled rather than computed: a right operand that reads
    /// as itself is left out of the expression line until `=` completes the operation.
    package var isTyped: Bool { packed & Term.typedBit != 0 }

    /// A unary function in the expression line.
    package enum Wrapper: UInt8, Hashable, Sendable, CaseIterable {
      case squareRoot, square, reciprocal, negate

      /// The function's name as written before its parenthesis.
      package var prefix: String {
        switch self {
        case .squareRoot: "√"
        case .square: "sqr"
        case .reciprocal: "1/"
        case .negate: "negate"
        }
      }

      init(_ unary: Key.Unary) {
        switch unary {
        case .squareRoot: self = .squareRoot
        case .square: self = .square
        case .reciprocal: self = .reciprocal
        }
      }
    }

    /// A computed number that reads as itself.
    package static func plain(_ number: Number) -> Term {
      Term(base: number, packed: 0)
    }

    /// A typed or recalled number.
    package static func typed(_ number: Number) -> Term {
      Term(base: number, packed: typedBit)
    }

    private init(base: Number, packed: UInt64) {
      self.base = base
      self.packed = packed
    }

    /// Whether the two are the same base, to the last digit, in the same wrappers.
    func isIdentical(to other: Term) -> Bool {
      packed == other.packed && History.identical(base, other.base)
    }

    /// The term inside one more wrapper.
    package func wrapped(_ wrapper: Wrapper) -> Term {
      let index = Int(depth)
      var packed = self.packed
      if index < Term.maximumStoredWrappers { packed |= UInt64(wrapper.rawValue) << (2 * index) }
      if depth < .max { packed += 1 << Term.depthShift }
      return Term(base: base, packed: packed)
    }

    /// The stored wrappers, innermost first: at most ``maximumStoredWrappers``.
    package var wrappers: [Wrapper] {
      (0..<min(Int(depth), Term.maximumStoredWrappers)).map { index in
        Wrapper(rawValue: UInt8((packed >> (2 * index)) & 3))!
      }
    }

    /// Whether the expression line shows the term as a right operand before `=`.
    package var isShownAsRightOperand: Bool { depth > 0 || !isTyped }
  }

  /// The expression line of states that do not derive it from their operands.
  package enum Line: Hashable, Sendable {
    /// Nothing: at the start, while typing a first number, after AC.
    case empty
    /// A computed value on its own: `√(9)`, `negate(5)`, `0.1`.
    case term(Term)
    /// An operation: `12 + 3 =` after `=`, `13 =`, `1 ÷ 0 =` after an error, `2 + √(-9)`.
    ///
    /// Boxed: unboxed it would double the size of every state, while it is seldom held: a
    /// state holds it after `=` with nothing to repeat (`13 =`), an error, or a unary key in a
    /// chain; the state after an `=` that applied an operation holds its terms instead
    /// (``CalculatorBrain/equalled(result:operation:left:right:)``), and makes it only when asked
    /// for its ``CalculatorBrain/expressionLine``.
    indirect case operation(
      left: Term, op: Key.Op?, right: Term?, closing: Closing)
  }

  /// What ends an operation in the expression line.
  package enum Closing: Hashable, Sendable {
    /// Nothing: the operation is still open.
    case none
    /// `=`.
    case equals
    /// An operator that completed the operation and failed.
    case op(Key.Op)
  }

  /// An operator and its right operand, as repeated by `=`.
  package struct Operation: Hashable, Sendable {
    /// The operator that `=` applies.
    package let op: Key.Op
    /// The right operand that `=` applies it with, the same at every repetition.
    package let operand: Number

    /// The operation `x op operand`, for whatever left operand `x` the display holds.
    package init(op: Key.Op, operand: Number) {
      self.op = op
      self.operand = operand
    }
  }

  /// Why a calculation failed (``CalculatorEngine/CalculationError``, every mode's).
  package typealias CalculationError = CalculatorEngine.CalculationError

  /// Whether the two are the same state to the last digit (``Calculator/isIdentical(to:)``):
  /// known for an operator pending on a value and for a result after `=`, `false` for any
  /// other state.
  func isIdentical(to other: CalculatorBrain) -> Bool {
    switch (self, other) {
    case (.leftOp(let left, let op), .leftOp(let otherLeft, let otherOp)):
      return op == otherOp && left.isIdentical(to: otherLeft)
    case (
      .equalled(let result, let operation, let left, let right),
      .equalled(let otherResult, let otherOperation, let otherLeft, let otherRight)
    ):
      return operation.op == otherOperation.op
        && History.identical(operation.operand, otherOperation.operand)
        && History.identical(result, otherResult) && left.isIdentical(to: otherLeft)
        && right.isIdentical(to: otherRight)
    default:
      return false
    }
  }

  /// Whether the display shows an error.
  package var isError: Bool {
    if case .error = self { true } else { false }
  }

  /// Whether an operation is pending: an operator was pressed and `=` has not finished it.
  package var isPending: Bool {
    switch self {
    case .leftOp, .leftOpRight: true
    case .left, .error, .equalled: false
    }
  }

  /// Whether the right operand of a pending operation is being typed.
  package var isTypingRightOperand: Bool {
    if case .leftOpRight(_, _, .entry) = self { true } else { false }
  }

  /// Whether a number is being typed that holds as many digits as an entry can
  /// (``Entry/maximumDigits``): a further digit is ignored.
  package var isTypingAFullEntry: Bool {
    switch self {
    case .left(.entry(let entry), _, _), .leftOpRight(_, _, .entry(let entry)):
      entry.digitCount >= Entry.maximumDigits
    case .left, .leftOp, .leftOpRight, .error, .equalled: false
    }
  }

  /// What the display shows (``CalculatorEngine/Display``, every mode's).
  package typealias Display = CalculatorEngine.Display

  /// What the display shows (SPEC §3): the right operand once there is one, else the left
  /// operand; the error while one is shown.
  package var display: Display {
    switch self {
    case .left(.entry(let entry), _, _), .leftOpRight(_, _, .entry(let entry)):
      .entry(entry)
    case .left(.value(let value), _, _), .leftOpRight(_, _, .value(let value)),
      .leftOp(let value, _):
      .value(value.number)
    case .equalled(let result, _, _, _):
      .value(result)
    case .error(let error, _):
      .error(error)
    }
  }

  /// What the expression line shows (SPEC §3.1): `12 +`, `12 + 3 =`, `√(9)`, `1 ÷ 0 =`;
  /// ``Line/empty`` at the start and while typing a first number.
  ///
  /// With an operator pending, the left operand and the operator, and the right operand once it
  /// is computed (``Term/isShownAsRightOperand``), not while it is typed; in every other state,
  /// the line the state holds.
  package var expressionLine: Line {
    switch self {
    case .left(_, _, let line), .error(_, let line):
      line
    case .leftOp(let left, let op), .leftOpRight(let left, let op, .entry):
      .operation(left: left.term, op: op, right: nil, closing: .none)
    case .leftOpRight(let left, let op, .value(let right)):
      .operation(
        left: left.term, op: op, right: right.term.isShownAsRightOperand ? right.term : nil,
        closing: .none)
    case .equalled(_, let operation, let left, let right):
      .operation(left: left, op: operation.op, right: right, closing: .equals)
    }
  }

  /// The state in the general form of its case: ``equalled(result:operation:left:right:)`` as the
  /// `.left` state it stands for (with its expression line boxed), any other state as it is;
  /// for the keys that seldom follow `=`, whose transitions then need no case of their own.
  var general: CalculatorBrain {
    guard case .equalled(let result, let operation, _, _) = self else { return self }
    return .left(.value(.plain(result)), repeating: operation, line: expressionLine)
  }

  /// The value in the display, or `nil` while an error is shown.
  package var displayedValue: Number? {
    switch display {
    case .entry(let entry): Number(entry.value)
    case .value(let value), .exponential(let value): value
    case .scientificEntry(let entry): Number(entry.value)
    case .programmer(let shown): Number(Int(shown.value))
    case .date(let shown): shown.value.number
    case .error: nil
    }
  }

  /// The calculation that pressing `key` in this state completes, as the expression line
  /// writes it with its `=` (a paper tape's row, without the result): `1 + 2 =` for `*` after
  /// `1+2`, `3 × 3 =` for `=` after `3*3`, `13 =` for `=` after `13`; `nil` for any other key, and
  /// for every key while an error is shown.
  package func completedCalculation(by key: Key) -> Line? {
    switch key {
    case .equal:
      guard !isError else { return nil }
      let done = applyEqual()
      switch done {
      case .left(_, _, let line), .error(_, let line): return line
      case .equalled: return done.expressionLine
      case .leftOp, .leftOpRight: return nil
      }
    case .op:
      guard case .leftOpRight(let left, let op, let right) = self else { return nil }
      return .operation(left: left.term, op: op, right: right.term, closing: .equals)
    case .digit, .dot, .command, .unary, .memory, .scientific, .angle, .mode, .reference, .formula,
      .dateLine,
      .programmer:
      return nil
    }
  }

  // MARK: - Transitions, one per key kind

  /// Replaces the state with `next`, the state a key leads to.
  ///
  /// The same as `self = next`, but a state without a boxed expression line or a boxed
  /// fraction (``holdsNumberBox``) holds no reference, and writing over it then needs no
  /// release: the compiler's general destroy of the enum (a call that works out the case again)
  /// cost about as much as the rest of a key's transition, and most keys replace such a state.
  /// Inlined: called, it cost `=` about 20 instructions a script line
  /// (Documentation/Performance.md, issue 51).
  @inline(__always)
  mutating func replace(with next: consuming CalculatorBrain) {
    switch self {
    case .left(_, _, .operation), .error(_, .operation):
      self = next
    case .left(_, _, .empty), .left(_, _, .term), .leftOp, .leftOpRight, .error(_, .empty),
      .error(_, .term), .equalled:
      if holdsNumberBox {
        self = next
      } else {
        overwrite(with: next)
      }
    }
  }

  /// Whether a number of a state without a boxed expression line is a fraction too large to
  /// live inside it (``Number``'s box, a reference): such a state is not written over without a
  /// release. A few tests of the numbers' forms.
  @inline(__always)
  package var holdsNumberBox: Bool {
    // No number of this process holds a box before the first is made (the everyday case).
    guard Number.mayHoldBoxes else { return false }
    switch self {
    case .left(let operand, let repeating, let line):
      return operand.holdsBox || repeating?.operand.holdsBox == true || line.holdsBox
    case .leftOp(let left, _): return left.holdsBox
    case .leftOpRight(let left, _, let right): return left.holdsBox || right.holdsBox
    case .error(_, let line): return line.holdsBox
    case .equalled(let result, let operation, let left, let right):
      return result.holdsBox || operation.operand.holdsBox || left.base.holdsBox
        || right.base.holdsBox
    }
  }

  /// Writes `next` over a state that holds no boxed expression line, without releasing
  /// anything: every payload of such a state is plain data (numbers, flags, cases without
  /// payloads), which BrainStorageTests checks type by type.
  @inline(__always)
  private mutating func overwrite(with next: consuming CalculatorBrain) {
    var moved: CalculatorBrain? = consume next
    withUnsafeMutablePointer(to: &self) { $0.initialize(to: moved.take().unsafelyUnwrapped) }
  }

  /// Types a digit or the point, in place: the same as `self = typing(fresh:_:)`.
  ///
  /// The state is moved out and the next one built from its parts: a `switch` over `self` that
  /// binds part of a payload copies the payload (the `.left` case's through the runtime's generic
  /// tuple copy, about 230 instructions, since a ``Number`` may hold a reference), where a move
  /// copies nothing and the parts left out are released as `self = next` would.
  @inline(__always)
  mutating func type(fresh: Entry, _ extend: (Entry) -> Entry) {
    switch consume self {
    case .leftOpRight(let left, let op, .entry(let entry)):
      self = .leftOpRight(left: left, op: op, right: .entry(extend(entry)))
    case .leftOp(let left, let op):
      self = .leftOpRight(left: left, op: op, right: .entry(fresh))
    case .left(.entry(let entry), let repeating, .empty):
      self = .left(.entry(extend(entry)), repeating: repeating, line: .empty)
    case .equalled(_, let operation, _, _):
      // A script's next line starts so.
      self = .left(.entry(fresh), repeating: operation, line: .empty)
    case let other:
      self = other.typing(fresh: fresh, extend)
    }
  }

  /// Types the digits and points at the start of `keys[start...]` into the entry being typed,
  /// in one write of the state, and returns the index of the first key after them; in a state
  /// that holds no entry being typed, types nothing and returns `start`.
  ///
  /// The same as pressing each of them in turn: after a digit or a point the state holds an
  /// entry being typed, and a further digit or point only extends that entry (``type(fresh:_:)``),
  /// so a run of them is one change of the state rather than one a key (a script's `123.45`).
  /// - Complexity: O(n) in the length of the run.
  @inline(__always)
  mutating func type(
    run keys: UnsafeBufferPointer<Key>, from start: Int
  ) -> Int {
    var end = start
    /// `entry` with the run typed after it.
    @inline(__always)
    func extended(_ entry: Entry) -> Entry {
      var entry = entry
      while end < keys.count {
        switch keys[end] {
        case .digit(let digit): entry = entry.appending(digit)
        case .dot: entry = entry.appendingPoint()
        case .op, .equal, .command, .unary, .memory, .scientific, .angle, .mode, .reference,
          .formula, .dateLine,
          .programmer:
          return entry
        }
        end += 1
      }
      return entry
    }
    // Moved out and back, as in ``type(fresh:_:)``.
    switch consume self {
    case .leftOpRight(let left, let op, .entry(let entry)):
      self = .leftOpRight(left: left, op: op, right: .entry(extended(entry)))
    case .left(.entry(let entry), let repeating, .empty):
      self = .left(.entry(extended(entry)), repeating: repeating, line: .empty)
    case let other:
      self = other
    }
    return end
  }

  /// Types a digit or the point and then the digits and points at the start of
  /// `keys[start...]`, in one move of the state, and returns the index of the first key after
  /// them: the same as ``type(fresh:_:)`` followed by ``type(run:from:)``, which each moved the
  /// state out and back (a `.left` state's release of its parts, about 125 instructions, each
  /// time).
  ///
  /// After a digit or a point the state always holds an entry being typed with no expression
  /// line of its own, so the run extends that entry.
  /// - Complexity: O(n) in the length of the run.
  @inline(__always)
  mutating func type(
    fresh: Entry, _ extend: (Entry) -> Entry, thenRun keys: UnsafeBufferPointer<Key>,
    from start: Int
  ) -> Int {
    var end = start
    /// `entry` with the run typed after it.
    @inline(__always)
    func extended(_ entry: Entry) -> Entry {
      var entry = entry
      while end < keys.count {
        switch keys[end] {
        case .digit(let digit): entry = entry.appending(digit)
        case .dot: entry = entry.appendingPoint()
        case .op, .equal, .command, .unary, .memory, .scientific, .angle, .mode, .reference,
          .formula, .dateLine, .programmer:
          return entry
        }
        end += 1
      }
      return entry
    }
    // Until the process makes a box, a result or an operator waiting for its right operand is
    // plain data: it is written over without a release (a move released its parts, about 125
    // instructions), and its payload, a small tuple, is read without the generic copy.
    if !Number.mayHoldBoxes {
      switch self {
      case .equalled(_, let operation, _, _):
        // A script's next line starts so.
        overwrite(with: .left(.entry(extended(fresh)), repeating: operation, line: .empty))
        return end
      case .leftOp(let left, let op):
        overwrite(with: .leftOpRight(left: left, op: op, right: .entry(extended(fresh))))
        return end
      case .left, .leftOpRight, .error:
        break
      }
    }
    switch consume self {
    case .leftOpRight(let left, let op, .entry(let entry)):
      self = .leftOpRight(left: left, op: op, right: .entry(extended(extend(entry))))
    case .leftOp(let left, let op):
      self = .leftOpRight(left: left, op: op, right: .entry(extended(fresh)))
    case .left(.entry(let entry), let repeating, .empty):
      self = .left(.entry(extended(extend(entry))), repeating: repeating, line: .empty)
    case .equalled(_, let operation, _, _):
      // A script's next line starts so.
      self = .left(.entry(extended(fresh)), repeating: operation, line: .empty)
    case let other:
      self = other.typing(fresh: fresh, extend)
      return type(run: keys, from: start)
    }
    return end
  }

  /// A digit or the point: extends the entry being typed, or starts a new one.
  func typing(fresh: Entry, _ extend: (Entry) -> Entry) -> CalculatorBrain {
    switch self {
    case .left(.entry(let entry), let repeating, _):
      .left(.entry(extend(entry)), repeating: repeating, line: .empty)
    case .left(.value, let repeating, _): .left(.entry(fresh), repeating: repeating, line: .empty)
    case .equalled(_, let operation, _, _):
      .left(.entry(fresh), repeating: operation, line: .empty)
    case .leftOp(let left, let op): .leftOpRight(left: left, op: op, right: .entry(fresh))
    case .leftOpRight(let left, let op, .entry(let entry)):
      .leftOpRight(left: left, op: op, right: .entry(extend(entry)))
    case .leftOpRight(let left, let op, .value):
      .leftOpRight(left: left, op: op, right: .entry(fresh))
    case .error: .left(.entry(fresh), repeating: nil, line: .empty)
    }
  }

  /// An operator key, in place: the same as `self = applyOperator(op)`, with the state moved
  /// out and the next one built from its parts (as in ``type(fresh:_:)``).
  @inline(__always)
  mutating func pressOperator(_ op: Key.Op) {
    // Until the process makes a box, a number being typed with no expression line (a script
    // line's first operand) is plain data: written over without a release, as in
    // ``type(run:from:fresh:_:)``. Moved out, the state was destroyed through the enum's outlined
    // destroy, about 140 instructions a script line (Documentation/Performance.md, issue 51).
    // Only the typed entry is bound: binding the whole operand copied the `.left` payload
    // through the runtime's generic tuple copy.
    if !Number.mayHoldBoxes, case .left(.entry(let entry), _, .empty) = self {
      overwrite(with: .leftOp(left: Operand.entry(entry).asValue, op: op))
      return
    }
    switch consume self {
    case .left(let operand, _, _):
      self = .leftOp(left: Value(number: operand.number, term: operand.term), op: op)
    case .equalled(let result, _, _, _):
      self = .leftOp(left: .plain(result), op: op)
    case .leftOp(let left, _):
      self = .leftOp(left: left, op: op)
    case let other:
      self = other.applyOperator(op)
    }
  }

  func applyOperator(_ op: Key.Op) -> CalculatorBrain {
    switch self {
    case .left(let operand, _, _):
      return .leftOp(left: Value(number: operand.number, term: operand.term), op: op)
    case .equalled(let result, _, _, _):
      return .leftOp(left: .plain(result), op: op)
    case .leftOp(let left, _):
      return .leftOp(left: left, op: op)
    case .leftOpRight(let left, let pending, let right):
      return CalculatorBrain.calculate(
        left.number, pending, right.number,
        line: .operation(left: left.term, op: pending, right: right.term, closing: .op(op))
      ) {
        .leftOp(left: .plain($0), op: op)
      }
    case .error:
      return self
    }
  }

  /// `=`, in place: the same as `replace(with: applyEqual())`.
  ///
  /// Until the process makes a box, an operation whose right operand is being typed (a script
  /// line's `123.45*6.7=`) is plain data, as in ``pressOperator(_:)``: its parts are read
  /// where they are and the result written over it without a release. Through
  /// ``applyEqual()`` the state's numbers were copied and destroyed by their outlined functions
  /// (Documentation/Performance.md). An error takes the general path.
  @inline(__always)
  mutating func pressEqual() {
    if !Number.mayHoldBoxes, case .leftOpRight(let left, let op, .entry(let entry)) = self {
      let right = Number(entry.value)
      if case .value(let result) = CalculatorBrain.outcome(left.number, op, right) {
        overwrite(
          with: .equalled(
            result: result, operation: Operation(op: op, operand: right), left: left.term,
            right: .typed(right)))
        return
      }
    }
    replace(with: applyEqual())
  }

  /// Presses a common key line (``CommonKeyLine``) as a line, returning `true`: the same state
  /// as ``startLine()`` and its keys one at a time (`CommonKeyLineTests`), in one write of the
  /// state. With an operation pending the line's first number would be its right operand: then
  /// it returns `false` and changes nothing.
  ///
  /// Any other state is left as its first digit leaves it: a number being typed is ended by the
  /// line's start, and a digit replaces a value, a result or an error, and extends only an
  /// untouched `0`, which gives the digit itself.
  @inline(__always)
  mutating func pressCommonLine(_ line: CommonKeyLine) -> Bool {
    guard !isPending else { return false }
    let left = Number(line.left.value)
    if !line.percent {
      // `=` on the typed right operand, as ``pressEqual()`` does it.
      let right = Number(line.right.value)
      if case .value(let result) = CalculatorBrain.outcome(left, line.op, right) {
        replace(
          with: .equalled(
            result: result, operation: Operation(op: line.op, operand: right), left: .typed(left),
            right: .typed(right)))
        return true
      }
    }
    replace(
      with: .leftOpRight(
        left: Value(number: left, term: .typed(left)), op: line.op, right: .entry(line.right)))
    if line.percent { replace(with: applyPercent()) }
    pressEqual()
    return true
  }

  func applyEqual() -> CalculatorBrain {
    let operation: Operation
    let left: Term
    let right: Term
    let x: Number
    switch self {
    case .left(let operand, nil, _):
      let line = Line.operation(left: operand.term, op: nil, right: nil, closing: .equals)
      return .left(.value(.plain(operand.number)), repeating: nil, line: line)
    case .left(let operand, let repeating?, _):
      (x, left, operation) = (operand.number, operand.term, repeating)
      right = .plain(repeating.operand)
    case .equalled(let result, let repeating, _, _):
      (x, left, operation) = (result, .plain(result), repeating)
      right = .plain(repeating.operand)
    case .leftOp(let value, let op):
      (x, left, operation) = (value.number, value.term, Operation(op: op, operand: value.number))
      right = .plain(value.number)
    case .leftOpRight(let value, let op, let operand):
      (x, left, right) = (value.number, value.term, operand.term)
      operation = Operation(op: op, operand: operand.number)
    case .error:
      return self
    }
    // The line is boxed only for an error: the result's state holds its terms.
    switch CalculatorBrain.outcome(x, operation.op, operation.operand) {
    case .value(let result):
      return .equalled(result: result, operation: operation, left: left, right: right)
    case .failure(let error):
      return .error(
        error, line: .operation(left: left, op: operation.op, right: right, closing: .equals))
    }
  }

  func applyClearEntry() -> CalculatorBrain {
    switch self {
    case .left(_, let repeating, _): .left(.entry(.zero), repeating: repeating, line: .empty)
    case .equalled(_, let repeating, _, _): .left(.entry(.zero), repeating: repeating, line: .empty)
    case .leftOp(let left, let op), .leftOpRight(let left, let op, _):
      .leftOpRight(left: left, op: op, right: .entry(.zero))
    case .error: .initial
    }
  }

  func applyFlip() -> CalculatorBrain {
    switch self {
    case .left(.entry(let entry), let repeating, let line):
      return .left(.entry(entry.flipped()), repeating: repeating, line: line)
    case .left(.value(let value), let repeating, _):
      let negated = value.negated
      return .left(.value(negated), repeating: repeating, line: .term(negated.term))
    case .equalled:
      return general.applyFlip()
    case .leftOp(let left, let op):
      return .leftOpRight(left: left, op: op, right: .value(Value.plain(left.number).negated))
    case .leftOpRight(let left, let op, .entry(let entry)):
      return .leftOpRight(left: left, op: op, right: .entry(entry.flipped()))
    case .leftOpRight(let left, let op, .value(let value)):
      return .leftOpRight(left: left, op: op, right: .value(value.negated))
    case .error:
      return self
    }
  }

  func applyPercent() -> CalculatorBrain {
    switch self {
    case .left(let operand, let repeating, let line):
      return CalculatorBrain.bounded(operand.number.percent, line: line) {
        .left(.value(.plain($0)), repeating: repeating, line: .term(.plain($0)))
      }
    case .equalled:
      return general.applyPercent()
    case .leftOp(let left, let op):
      return CalculatorBrain.percent(of: left.number, left: left, op: op)
    case .leftOpRight(let left, let op, let right):
      return CalculatorBrain.percent(of: right.number, left: left, op: op)
    case .error:
      return self
    }
  }

  func applyBackspace() -> CalculatorBrain {
    switch self {
    case .left(.entry(let entry), let repeating, let line):
      return .left(.entry(entry.removingLast()), repeating: repeating, line: line)
    case .leftOpRight(let left, let op, .entry(let entry)):
      return .leftOpRight(left: left, op: op, right: .entry(entry.removingLast()))
    case .left(.value(let value), let repeating, .operation(_, _?, _, .equals)):
      // After an `=` that calculated something, ⌫ clears the expression line (SPEC §3.1).
      return .left(.value(value), repeating: repeating, line: .empty)
    case .equalled(let result, let repeating, _, _):
      return .left(.value(.plain(result)), repeating: repeating, line: .empty)
    case .left(.value, _, _), .leftOp, .leftOpRight(_, _, .value), .error:
      return self
    }
  }

  /// √, x² or 1/x on the value in the display; the answer takes its place as a computed value.
  ///
  /// A pending operation stays pending, with the answer as its right operand; after `=` the
  /// answer replaces the result and the remembered operation stays.
  func applyUnary(_ unary: Key.Unary) -> CalculatorBrain {
    let wrapper = Term.Wrapper(unary)
    switch self {
    case .equalled:
      return general.applyUnary(unary)
    case .left(let operand, let repeating, _):
      let term = operand.term.wrapped(wrapper)
      return CalculatorBrain.unary(unary, operand.number, line: .term(term)) {
        .left(.value(Value(number: $0, term: term)), repeating: repeating, line: .term(term))
      }
    case .leftOp(let left, let op):
      // The right operand starts from the number shown, whatever the left operand's term.
      let term = Term.plain(left.number).wrapped(wrapper)
      return CalculatorBrain.unary(
        unary, left.number, line: .operation(left: left.term, op: op, right: term, closing: .none)
      ) {
        .leftOpRight(left: left, op: op, right: .value(Value(number: $0, term: term)))
      }
    case .leftOpRight(let left, let op, let right):
      let term = right.term.wrapped(wrapper)
      return CalculatorBrain.unary(
        unary, right.number, line: .operation(left: left.term, op: op, right: term, closing: .none)
      ) {
        .leftOpRight(left: left, op: op, right: .value(Value(number: $0, term: term)))
      }
    case .error:
      return self
    }
  }

  /// The state with a typed entry turned into a computed value, so that the next digit starts a
  /// new number (what `ms`, `m+`, `m-` and `mc` do to the calculation); the expression line is
  /// left as it is.
  func endingEntry() -> CalculatorBrain {
    switch self {
    case .left(.entry(let entry), let repeating, let line):
      .left(
        .value(Value(number: Number(entry.value), term: .typed(Number(entry.value)))),
        repeating: repeating, line: line)
    case .leftOpRight(let left, let op, .entry(let entry)):
      .leftOpRight(
        left: left, op: op,
        right: .value(Value(number: Number(entry.value), term: .typed(Number(entry.value)))))
    case .left(.value, _, _), .leftOp, .leftOpRight(_, _, .value), .error, .equalled: self
    }
  }

  /// Starts a line of keys (SPEC rule 18, ``Calculator/startLine()``): a number being typed is
  /// ended as `ms` ends it, except a `0` that nobody typed; every other state is left as it is.
  mutating func startLine() {
    // The question first: a `switch` over `self` whose cases change `self` copies it.
    if isTypingANumber { self = endingEntry() }
  }

  /// Whether a number is being typed: an entry that is not a `0` nobody typed.
  private var isTypingANumber: Bool {
    switch self {
    case .left(.entry(let entry), _, _), .leftOpRight(_, _, .entry(let entry)): entry != .zero
    case .left(.value, _, _), .leftOp, .leftOpRight(_, _, .value), .error, .equalled: false
    }
  }

  /// The state with `number` in the display as a computed value that reads as if typed: the
  /// right operand if an operator is pending (what `mr` does).
  func recalling(_ number: Number) -> CalculatorBrain {
    let value = Value(number: number, term: .typed(number))
    switch self {
    case .left(_, let repeating, _): return .left(.value(value), repeating: repeating, line: .empty)
    case .equalled(_, let repeating, _, _):
      return .left(.value(value), repeating: repeating, line: .empty)
    case .leftOp(let left, let op), .leftOpRight(let left, let op, _):
      return .leftOpRight(left: left, op: op, right: .value(value))
    case .error: return self
    }
  }

  /// The state showing the error that `m+` or `m-` met, with the expression line as it was.
  func overflowingMemory() -> CalculatorBrain {
    .error(.overflow, line: expressionLine)
  }

  // MARK: - Arithmetic

  /// `unary(x)`, passed to `next` unless it is an error, which shows `line`.
  private static func unary(
    _ unary: Key.Unary, _ x: Number, line: @autoclosure () -> Line,
    _ next: (Number) -> CalculatorBrain
  ) -> CalculatorBrain {
    switch unary {
    case .squareRoot:
      guard let root = Number.squareRoot(x) else { return .error(.invalidInput, line: line()) }
      return bounded(root, line: line(), next)
    case .square:
      return bounded(x * x, line: line(), next)
    case .reciprocal:
      return calculate(.one, .divide, x, line: line(), next)
    }
  }

  /// `Y%` as a right operand: X·Y/100 with `+` or `-` pending, Y/100 with `×` or `÷`.
  private static func percent(of y: Number, left: Value, op: Key.Op)
    -> CalculatorBrain
  {
    let right: Number
    switch op {
    case .plus, .minus: right = y.percent(of: left.number)
    case .multiply, .divide: right = y.percent
    }
    return bounded(right, line: .operation(left: left.term, op: op, right: nil, closing: .none)) {
      .leftOpRight(left: left, op: op, right: .value(.plain($0)))
    }
  }

  /// What a calculation gives: a value within the calculator's bounds, or an error.
  private enum Outcome {
    case value(Number)
    case failure(CalculationError)
  }

  /// `x op y` within the calculator's bounds (``bounded(_:line:_:)``), or the error it meets.
  ///
  /// Inlined: called, it cost `=` about 25 instructions a script line
  /// (Documentation/Performance.md, issue 51).
  @inline(__always)
  private static func outcome(
    _ x: Number, _ op: Key.Op, _ y: Number
  ) -> Outcome {
    let result: Number
    switch op {
    case .plus: result = x + y
    case .minus: result = x - y
    case .multiply: result = x * y
    case .divide:
      guard let quotient = Number.dividing(x, by: y) else {
        return .failure(x.isZero ? .undefined : .divideByZero)
      }
      result = quotient
    }
    // Within 10^-100 ... 10^100 by the exponent alone, the everyday result skips the count.
    if result.magnitudeIsSurelyWithin(-100, 99) { return .value(result) }
    guard let magnitude = result.magnitudeExponent else { return .value(result) }
    if magnitude >= 100 { return .failure(.overflow) }
    return .value(magnitude < -100 ? result.zeroOfItsKind : result)
  }

  /// `x op y`, passed to `next` unless it is an error, which shows `line` (made only then: a
  /// chain's operator and a percent would box it at every key).
  private static func calculate(
    _ x: Number, _ op: Key.Op, _ y: Number, line: @autoclosure () -> Line,
    _ next: (Number) -> CalculatorBrain
  ) -> CalculatorBrain {
    switch outcome(x, op, y) {
    case .value(let result): next(result)
    case .failure(let error): .error(error, line: line())
    }
  }

  /// Applies the calculator's magnitude bounds: overflow at 10^100, zero below 10^-100.
  static func bounded(
    _ value: Number, line: @autoclosure () -> Line, _ next: (Number) -> CalculatorBrain
  ) -> CalculatorBrain {
    if value.magnitudeIsSurelyWithin(-100, 99) { return next(value) }
    guard let magnitude = value.magnitudeExponent else { return next(value) }
    if magnitude >= 100 { return .error(.overflow, line: line()) }
    if magnitude < -100 { return next(value.zeroOfItsKind) }
    return next(value)
  }
}

extension CalculatorBrain.Operand {
  /// Whether the operand's value or term holds a boxed fraction.
  @inline(__always)
  var holdsBox: Bool {
    switch self {
    case .entry: false
    case .value(let value): value.holdsBox
    }
  }
}

extension CalculatorBrain.Line {
  /// Whether the line holds a boxed fraction, for a line that is not a boxed operation (which
  /// is a reference anyway).
  @inline(__always)
  var holdsBox: Bool {
    switch self {
    case .empty, .operation: false
    case .term(let term): term.base.holdsBox
    }
  }
}

extension Number {
  /// Zero, exact or rounded as the value is: what a result below Standard mode's range becomes.
  var zeroOfItsKind: Number { isRounded ? Number(rounded: .zero) : .zero }
}

extension CalculatorBrain.Value {
  /// Whether the number or the term's base holds a boxed fraction.
  @inline(__always)
  var holdsBox: Bool { number.holdsBox || term.base.holdsBox }

  /// The value with its sign changed, written `negate(…)`.
  var negated: CalculatorBrain.Value {
    CalculatorBrain.Value(number: -number, term: term.wrapped(.negate))
  }
}
