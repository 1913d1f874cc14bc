/// The calculation's state: the book's enum state machine, extended for a pocket calculator's
/// rules (repeated `=`, percent in context, CE, backspace, unary keys, exact errors).
///
/// ``Calculator/apply(_:)`` pairs it with the memory register and holds the one `switch` over
/// keys (the book's reducer); the transitions here are pure functions from a state to the next.
/// Calculation never throws: dividing by zero, a square root of a negative number or overflowing
/// leads to the ``error(_:)`` state, which a digit, `.`, AC or CE leaves and every other key
/// ignores.
///
/// Magnitudes are bounded: a result of 10^100 or more is ``CalculationError/overflow``, and a
/// nonzero result below 10^-100 becomes 0.
public enum CalculatorBrain: Hashable, Sendable {
  /// Typing or showing the left operand. `repeating` is the operation that `=` repeats, if any
  /// (set by `=`; kept by digits, `.`, percent, sign change, CE and backspace; gone after an
  /// operator, AC or an error).
  case left(Operand, repeating: Operation?)
  /// A left operand and an operator, waiting for the right operand; the display shows the left.
  case leftOp(left: Decimal34, op: CalculatorButtonItem.Op)
  /// A left operand, an operator, and the right operand being typed or computed.
  case leftOpRight(left: Decimal34, op: CalculatorButtonItem.Op, right: Operand)
  /// A calculation failed; the display shows its message.
  case error(CalculationError)

  /// A fresh calculator, showing `0` (the book's `.left("0")`).
  public static let initial = CalculatorBrain.left(.entry(.zero), repeating: nil)

  /// The number in the display: one being typed, or a computed one.
  public enum Operand: Hashable, Sendable {
    /// A number being typed: shown as typed, and digits append to it.
    case entry(Entry)
    /// A result, a percentage or a sign-changed value: a digit starts a new number.
    case value(Decimal34)

    /// The operand's exact value.
    public var value: Decimal34 {
      switch self {
      case .entry(let entry): entry.value
      case .value(let value): value
      }
    }
  }

  /// An operator and its right operand, as repeated by `=`.
  public struct Operation: Hashable, Sendable {
    /// The operator that `=` applies.
    public let op: CalculatorButtonItem.Op
    /// The right operand that `=` applies it with, the same at every repetition.
    public let operand: Decimal34

    /// The operation `x op operand`, for whatever left operand `x` the display holds.
    public init(op: CalculatorButtonItem.Op, operand: Decimal34) {
      self.op = op
      self.operand = operand
    }
  }

  /// Why a calculation failed.
  public enum CalculationError: Hashable, Sendable, CaseIterable {
    /// A nonzero number divided by zero.
    case divideByZero
    /// Zero divided by zero.
    case undefined
    /// The square root of a negative number.
    case invalidInput
    /// A result of magnitude 10^100 or more.
    case overflow

    /// The text shown in the display.
    public var message: String {
      switch self {
      case .divideByZero: "Cannot divide by zero"
      case .undefined: "Result is undefined"
      case .invalidInput: "Invalid input"
      case .overflow: "Overflow"
      }
    }
  }

  /// Whether the display shows an error.
  public var isError: Bool {
    if case .error = self { true } else { false }
  }

  /// The value in the display, or `nil` while an error is shown.
  public var displayedValue: Decimal34? {
    switch self {
    case .left(let operand, _), .leftOpRight(_, _, let operand): operand.value
    case .leftOp(let left, _): left
    case .error: nil
    }
  }

  // MARK: - Transitions, one per key kind

  /// A digit or the point: extends the entry being typed, or starts a new one.
  func typing(fresh: Entry, _ extend: (Entry) -> Entry) -> CalculatorBrain {
    switch self {
    case .left(.entry(let entry), let repeating): .left(.entry(extend(entry)), repeating: repeating)
    case .left(.value, let repeating): .left(.entry(fresh), repeating: repeating)
    case .leftOp(let left, let op): .leftOpRight(left: left, op: op, right: .entry(fresh))
    case .leftOpRight(let left, let op, .entry(let entry)):
      .leftOpRight(left: left, op: op, right: .entry(extend(entry)))
    case .leftOpRight(let left, let op, .value):
      .leftOpRight(left: left, op: op, right: .entry(fresh))
    case .error: .left(.entry(fresh), repeating: nil)
    }
  }

  func applyOperator(_ op: CalculatorButtonItem.Op) -> CalculatorBrain {
    switch self {
    case .left(let operand, _): .leftOp(left: operand.value, op: op)
    case .leftOp(let left, _): .leftOp(left: left, op: op)
    case .leftOpRight(let left, let pending, let right):
      CalculatorBrain.calculate(left, pending, right.value) { .leftOp(left: $0, op: op) }
    case .error: self
    }
  }

  func applyEqual() -> CalculatorBrain {
    let operation: Operation
    let left: Decimal34
    switch self {
    case .left(let operand, nil): return .left(.value(operand.value), repeating: nil)
    case .left(let operand, let repeating?):
      (left, operation) = (operand.value, repeating)
    case .leftOp(let value, let op):
      (left, operation) = (value, Operation(op: op, operand: value))
    case .leftOpRight(let value, let op, let right):
      (left, operation) = (value, Operation(op: op, operand: right.value))
    case .error: return self
    }
    return CalculatorBrain.calculate(left, operation.op, operation.operand) {
      .left(.value($0), repeating: operation)
    }
  }

  func applyClearEntry() -> CalculatorBrain {
    switch self {
    case .left(_, let repeating): .left(.entry(.zero), repeating: repeating)
    case .leftOp(let left, let op), .leftOpRight(let left, let op, _):
      .leftOpRight(left: left, op: op, right: .entry(.zero))
    case .error: .initial
    }
  }

  func applyFlip() -> CalculatorBrain {
    switch self {
    case .left(let operand, let repeating): .left(operand.flipped, repeating: repeating)
    case .leftOp(let left, let op): .leftOpRight(left: left, op: op, right: .value(-left))
    case .leftOpRight(let left, let op, let right):
      .leftOpRight(left: left, op: op, right: right.flipped)
    case .error: self
    }
  }

  func applyPercent() -> CalculatorBrain {
    switch self {
    case .left(let operand, let repeating):
      return CalculatorBrain.bounded(operand.value.percent) {
        .left(.value($0), repeating: repeating)
      }
    case .leftOp(let left, let op):
      return CalculatorBrain.percent(of: left, left: left, op: op)
    case .leftOpRight(let left, let op, let right):
      return CalculatorBrain.percent(of: right.value, left: left, op: op)
    case .error:
      return self
    }
  }

  func applyBackspace() -> CalculatorBrain {
    switch self {
    case .left(.entry(let entry), let repeating):
      .left(.entry(entry.removingLast()), repeating: repeating)
    case .leftOpRight(let left, let op, .entry(let entry)):
      .leftOpRight(left: left, op: op, right: .entry(entry.removingLast()))
    case .left(.value, _), .leftOp, .leftOpRight(_, _, .value), .error: self
    }
  }

  /// √, x² or 1/x on the value in the display; the answer takes its place as a computed value.
  ///
  /// A pending operation stays pending, with the answer as its right operand; after `=` the
  /// answer replaces the result and the remembered operation stays.
  func applyUnary(_ unary: CalculatorButtonItem.Unary) -> CalculatorBrain {
    switch self {
    case .left(let operand, let repeating):
      CalculatorBrain.unary(unary, operand.value) { .left(.value($0), repeating: repeating) }
    case .leftOp(let left, let op):
      CalculatorBrain.unary(unary, left) { .leftOpRight(left: left, op: op, right: .value($0)) }
    case .leftOpRight(let left, let op, let right):
      CalculatorBrain.unary(unary, right.value) {
        .leftOpRight(left: left, op: op, right: .value($0))
      }
    case .error: self
    }
  }

  /// The state with a typed entry turned into a computed value, so that the next digit starts a
  /// new number (what `ms`, `m+`, `m-` and `mc` do to the calculation).
  func endingEntry() -> CalculatorBrain {
    switch self {
    case .left(.entry(let entry), let repeating): .left(.value(entry.value), repeating: repeating)
    case .leftOpRight(let left, let op, .entry(let entry)):
      .leftOpRight(left: left, op: op, right: .value(entry.value))
    case .left(.value, _), .leftOp, .leftOpRight(_, _, .value), .error: self
    }
  }

  /// The state with `value` in the display as a computed value: the right operand if an
  /// operator is pending (what `mr` does).
  func recalling(_ value: Decimal34) -> CalculatorBrain {
    switch self {
    case .left(_, let repeating): .left(.value(value), repeating: repeating)
    case .leftOp(let left, let op), .leftOpRight(let left, let op, _):
      .leftOpRight(left: left, op: op, right: .value(value))
    case .error: self
    }
  }

  // MARK: - Arithmetic

  /// `unary(x)`, passed to `next` unless it is an error.
  private static func unary(
    _ unary: CalculatorButtonItem.Unary, _ x: Decimal34, _ next: (Decimal34) -> CalculatorBrain
  ) -> CalculatorBrain {
    switch unary {
    case .squareRoot:
      guard let root = Decimal34.squareRoot(x) else { return .error(.invalidInput) }
      return bounded(root, next)
    case .square:
      return bounded(x * x, next)
    case .reciprocal:
      return calculate(Decimal34(coefficient: 1, exponent: 0), .divide, x, next)
    }
  }

  /// `Y%` as a right operand: X·Y/100 with `+` or `-` pending, Y/100 with `×` or `÷`.
  private static func percent(of y: Decimal34, left x: Decimal34, op: CalculatorButtonItem.Op)
    -> CalculatorBrain
  {
    let right: Decimal34
    switch op {
    case .plus, .minus: right = (x * y).percent
    case .multiply, .divide: right = y.percent
    }
    return bounded(right) { .leftOpRight(left: x, op: op, right: .value($0)) }
  }

  /// `x op y`, passed to `next` unless it is an error.
  private static func calculate(
    _ x: Decimal34, _ op: CalculatorButtonItem.Op, _ y: Decimal34,
    _ next: (Decimal34) -> CalculatorBrain
  ) -> CalculatorBrain {
    let result: Decimal34
    switch op {
    case .plus: result = x + y
    case .minus: result = x - y
    case .multiply: result = x * y
    case .divide:
      guard let quotient = Decimal34.dividing(x, by: y) else {
        return .error(x.isZero ? .undefined : .divideByZero)
      }
      result = quotient
    }
    return bounded(result, next)
  }

  /// Applies the calculator's magnitude bounds: overflow at 10^100, zero below 10^-100.
  static func bounded(_ value: Decimal34, _ next: (Decimal34) -> CalculatorBrain)
    -> CalculatorBrain
  {
    guard let magnitude = value.magnitudeExponent else { return next(value) }
    if magnitude >= 100 { return .error(.overflow) }
    if magnitude < -100 { return next(.zero) }
    return next(value)
  }
}

extension CalculatorBrain.Operand {
  /// The operand with its sign changed: an entry keeps being typed, a value stays computed.
  var flipped: CalculatorBrain.Operand {
    switch self {
    case .entry(let entry): .entry(entry.flipped())
    case .value(let value): .value(-value)
    }
  }
}
