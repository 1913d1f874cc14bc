import CalcDecimal

/// Scientific mode's calculation (SPEC §9): precedence, brackets, functions, exponent entry and
/// F-E, key for key as Windows Calculator's engine computes them.
///
/// The precedence, brackets, repeated `=` and the expression line are the operator engine's
/// (``OperatorStack``, shared with Programmer mode) under Scientific mode's rules
/// (``ScientificRules``: 34-digit decimals within 10^±10000, F-E); what is Scientific mode's own
/// is here: the number being typed (``ScientificEntry``), the functions and constants, percent,
/// and rule 14's table. It differs from Windows where SPEC §9 decides: the result is always the
/// calculation the expression line shows (the implied × after `)` is a typed ×), rule 14 holds
/// while an error is shown, percent with nothing pending is Y/100, and F-E is turned off by AC
/// and CE.
///
/// Memory keys and the angle unit belong to ``Calculator``, which passes what they need.
package struct ScientificBrain: Hashable, Sendable {
  /// A piece of the expression line (Windows' history tokens).
  package typealias Token = OperatorToken<ScientificOperand, FunctionName>

  /// A function as the expression line names it: the key, and the unit for trigonometry.
  package struct FunctionName: Hashable, Sendable {
    package let key: Key
    package let unit: AngleUnit

    /// `sin₀`, `cos₉⁻¹`, `sinh`, `log`, `10^`, `√`, `sqr`, `cube`, `cuberoot`, `fact`, `1/`,
    /// `negate`, …
    package var text: String {
      switch key {
      case .scientific(.function(let function)):
        switch function {
        case .cube: return "cube"
        case .cubeRoot: return "cuberoot"
        case .log: return "log"
        case .ln: return "ln"
        case .pow10: return "10^"
        case .pow2: return "2^"
        case .powE: return "e^"
        case .abs: return "abs"
        case .floor: return "floor"
        case .ceiling: return "ceil"
        case .dms: return "dms"
        case .degrees: return "degrees"
        case .factorial: return "fact"
        case .sin, .cos, .tan, .sec, .csc, .cot, .asin, .acos, .atan, .asec, .acsc, .acot:
          let mark =
            switch unit {
            case .degrees: "₀"
            case .radians: "ᵣ"
            case .grads: "₉"
            }
          return Self.inverted(function.canonical, mark: mark)
        case .sinh, .cosh, .tanh, .sech, .csch, .coth, .asinh, .acosh, .atanh, .asech, .acsch,
          .acoth:
          return Self.inverted(function.canonical, mark: "")
        }
      case .unary(.squareRoot): return "√"
      case .unary(.square): return "sqr"
      case .unary(.reciprocal): return "1/"
      default: return "negate"
      }
    }

    /// `name` with the unit's `mark`, and an inverse function (`asin`) written `sin⁻¹`.
    ///
    /// The name is the key's canonical spelling, a literal: the case name through `"\(…)"` goes
    /// through the runtime's reflection, which scans every conformance in the binary the first
    /// time.
    private static func inverted(_ name: String, mark: String) -> String {
      name.hasPrefix("a") ? String(name.dropFirst()) + mark + "⁻¹" : name + mark
    }
  }

  // MARK: - State

  /// The precedence stack, brackets, the current value and the expression line.
  var stack = OperatorStack(ScientificRules())
  /// The number being typed (`m_input`), meaningful while ``isTyping``.
  package private(set) var input = ScientificEntry.empty
  /// Whether a number is being typed (`m_bRecord`).
  package private(set) var isTyping = false

  /// The most brackets open at once, and the depth of the precedence stack (`MAXPRECDEPTH`).
  package static let maximumDepth = 25

  /// The brain right after switching to Scientific mode: `0`, no number being typed (SPEC §9).
  package static let initial = ScientificBrain()

  /// The error shown, if any (`m_bError`).
  package var error: CalculationError? { stack.error }
  /// Whether F-E is on (`m_nFE`).
  package var isExponential: Bool { stack.rules.isExponential }
  /// The expression line on screen.
  package var shownLine: ExpressionTokens { stack.shownLine }
  /// The number of brackets open.
  package var openBrackets: Int { stack.openBrackets }

  /// The heap bytes of a boxed brain: the box (a header of two words, the value and a formula's
  /// text, SPEC §12) and the stack's arrays and lines (``OperatorStack/heapBytes``).
  var heapBytes: Int {
    16 + MemoryLayout<ScientificBrain>.stride + MemoryLayout<String?>.stride + stack.heapBytes
  }

  /// Whether a new number (digits and points) and the binary operator after it leave this brain
  /// exactly as they leave ``initial``: a finished calculation (after `=`, no error), with
  /// nothing typed, pending or open, F-E off and an empty line (``OperatorStack/isSettled``).
  /// What it keeps (the result, the operator and operand a repeated `=` uses) the new number
  /// and operator overwrite; a history takes a restart mark there (``History``'s settling
  /// marks).
  var isSettled: Bool { !isTyping && !isExponential && stack.isSettled }

  /// What the display shows.
  package var display: Display {
    if let error { return .error(error) }
    if isTyping { return .scientificEntry(input) }
    return isExponential ? .exponential(stack.current) : .value(stack.current)
  }

  /// The value in the display, or `nil` while an error is shown.
  package var displayedValue: Number? {
    if error != nil { return nil }
    return isTyping ? Number(input.value) : stack.current
  }

  /// Whether an operation waits for its right operand or a bracket is open; never while an
  /// error is shown, since no key but a digit, a bit key, AC or CE then acts (rule 14), as in
  /// Standard mode.
  package var isPending: Bool { stack.isPending }

  // MARK: - Keys

  /// Presses `key`. Memory keys other than `mr` and the angle keys come here only to end the
  /// entry (``endEntry()``); `mr` comes as ``recall(_:)``.
  mutating func press(_ key: Key, unit: AngleUnit) {
    if error != nil {
      // Rule 14: a digit or the point starts a new calculation, AC and CE clear.
      switch key {
      case .digit, .dot:
        clear()
      case .command(.clear), .command(.clearEntry):
        clear()
        return
      case .op, .equal, .command, .unary, .memory, .angle, .mode, .reference, .formula, .dateLine,
        .scientific,
        .programmer:
        return
      }
    }
    if stack.thisKey == .close, key.startsANumber {
      // The × that a digit or point right after `)` implies is pressed, then the key.
      press(.op(.multiply), unit: unit)
      press(key, unit: unit)
      return
    }
    let isSetting: Bool
    switch key {
    case .command(.backspace), .angle, .memory(.store), .memory(.add), .memory(.subtract),
      .memory(.clear), .reference, .formula, .dateLine, .scientific(.exponent),
      .scientific(.fixedToExponential):
      isSetting = true
    case .digit, .dot, .op, .equal, .command, .unary, .memory, .mode, .scientific, .programmer:
      isSetting = false
    }
    stack.count(isSetting ? nil : KeyKind(scientific: key))
    // Toggle between typing and showing a value.
    if isTyping {
      let ends: Bool
      switch key {
      case .scientific(.exponent):
        ends = false
      case .op, .unary, .command(.percent), .equal, .memory, .angle, .scientific:
        ends = true
      case .digit, .dot, .command, .mode, .reference, .formula, .dateLine, .programmer:
        ends = false
      }
      if ends {
        isTyping = false
        guard let value = bounded(Number(input.value)) else {
          showFailedEntry(key, unit: unit)
          return
        }
        stack.current = value
      }
    } else if case .digit = key {
      startTyping()
    } else if case .dot = key {
      startTyping()
    }
    switch key {
    case .digit(let digit):
      if !input.append(digit.value) {
        stack.forget()
        return
      }
    case .dot:
      if !input.appendPoint() { stack.forget() }
    case .op(let op): stack.binary(BinaryOperator(op))
    case .unary(let unary):
      apply(FunctionName(key: key, unit: unit)) { x in
        switch unary {
        case .squareRoot:
          Number.squareRoot(x).map { .success($0) } ?? .failure(.invalidInput)
        case .square: .success(x * x)
        case .reciprocal:
          Number.dividing(.one, by: x).map { .success($0) } ?? .failure(.divideByZero)
        }
      }
    case .command(.percent): percent()
    case .command(.flip): flip()
    case .command(.clear): clear()
    case .command(.clearEntry): clearEntry()
    case .command(.backspace):
      if isTyping { input.removeLast() }
    case .equal: stack.equals()
    case .memory, .angle, .mode, .reference, .formula, .dateLine: break
    case .scientific(let scientific): press(scientific, key, unit: unit)
    case .programmer:
      // Not keys of Scientific mode: a session never presses one here.
      stack.forget()
    }
  }

  /// Presses `key`, a key of Scientific mode's own (the whole key: `whole`).
  @inline(__always)
  private mutating func press(_ key: Key.Scientific, _ whole: Key, unit: AngleUnit) {
    switch key {
    case .binary(let kind): stack.binary(BinaryOperator(kind))
    case .function(let function):
      apply(FunctionName(key: whole, unit: unit)) { x in
        ScientificBrain.evaluate(function, x, unit: unit)
      }
    case .bracket(.open): stack.openBracket()
    case .bracket(.close): stack.closeBracket()
    case .constant(let constant):
      stack.replaceOperand(with: Number(rounded: constant == .pi ? Decimal34.pi : Decimal34.e))
    case .exponent:
      if isTyping { _ = input.beginExponent() }
    case .fixedToExponential: stack.rules.isExponential.toggle()
    }
  }

  /// Ends the number being typed, as `ms`, `m+`, `m-`, `mc` and a new line do.
  mutating func endEntry() {
    guard error == nil, isTyping, !input.isEmpty else { return }
    isTyping = false
    guard let value = bounded(Number(input.value)) else {
      // A memory key or a new line ended it: the entry alone.
      showFailedEntry(.memory(.store), unit: .degrees)
      return
    }
    stack.current = value
  }

  /// The expression line after an entry beyond the limits failed as `key` ended it (SPEC §3.1:
  /// the calculation that failed, with the key that triggered it): the entry with the operator
  /// or `=` after it, or inside the function; alone for any other key (`1E10031 +`,
  /// `2 + 1E10031 =`, `sin₀(1E10031)`).
  private mutating func showFailedEntry(_ key: Key, unit: AngleUnit) {
    stack.addOperandToLine(Number(input.value), shown: true)
    switch key {
    case .op(let op): stack.addOperatorToLine(BinaryOperator(op))
    case .scientific(.binary(let kind)): stack.addOperatorToLine(BinaryOperator(kind))
    case .equal: stack.addEqualsToLine()
    case .unary, .scientific(.function): stack.addFunctionToLine(FunctionName(key: key, unit: unit))
    case .digit, .dot, .command, .memory, .angle, .mode, .reference, .formula, .dateLine,
      .scientific,
      .programmer:
      break
    }
  }

  /// Recalls `value` into the display, as `mr` does: like typing it; a value beyond the limits
  /// shows Overflow with the line as it was, as Standard's `mr` (no memory key stores one in
  /// this mode: `m+` and `m-` fail at the limits, `MemoryLimitTests`).
  mutating func recall(_ value: Number) {
    guard error == nil, bounded(value) != nil else { return }
    isTyping = false
    stack.recall(value)
  }

  private mutating func startTyping() {
    isTyping = true
    input = .empty
    stack.startNumber()
  }

  /// Everything cleared, as AC does (`IDC_CLEAR`); F-E off (SPEC §9).
  private mutating func clear() {
    self = ScientificBrain()
    isTyping = true
  }

  /// The entry cleared, as CE does (`IDC_CENTR`): brackets and pending operations stay; F-E off.
  private mutating func clearEntry() {
    input = .empty
    isTyping = true
    stack.rules.isExponential = false
    stack.addLastOperatorToLine()
  }

  // MARK: - Functions

  /// A function of the value in the display; on success the answer is the current value.
  private mutating func apply(
    _ name: FunctionName, _ function: (Number) -> Result<Number, FunctionError>
  ) {
    stack.beginFunction(name)
    if case .scientific(.function(let key)) = name.key, key.trig != nil,
      stack.current.magnitudeExponent.map({ $0 >= 100 }) == true
    {
      stack.current = .zero
      stack.fail(.invalidInput)
      return
    }
    switch function(stack.current) {
    case .success(let value):
      if let value = bounded(value) { stack.current = value }
    case .failure(let error):
      stack.fail(CalculationError(error))
    }
  }

  /// `%`: Y/100 with nothing pending or × ÷ pending, else X·Y/100 (SPEC §9).
  private mutating func percent() {
    stack.takeLeftOperandAfterOperator()
    let y = stack.current
    let result: Number
    if let (op, x) = stack.waitingOperation, op != .multiply, op != .divide {
      result = y.percent(of: x)
    } else {
      result = y.percent
    }
    guard let value = bounded(result) else { return }
    stack.current = value
    stack.addLastOperatorToLine()
    stack.addOperandToLine(value, shown: true)
  }

  /// `~` on a value (on an entry it flips the entry's sign).
  private mutating func flip() {
    if isTyping {
      input.toggleSign()
      return
    }
    stack.beginFunction(FunctionName(key: .command(.flip), unit: .degrees))
    stack.current = -stack.current
  }

  /// The value of a function key.
  static func evaluate(_ function: Key.Function, _ x: Number, unit: AngleUnit)
    -> Result<Number, FunctionError>
  {
    if let trig = function.trig { return x.applying { Decimal34.trig(trig, $0, unit: unit) } }
    switch function {
    case .cube: return Number.cube(x)
    case .cubeRoot: return Number.cubeRoot(x)
    case .log: return x.applying(Decimal34.log10)
    case .ln: return x.applying(Decimal34.ln)
    case .pow10: return Number.powerOfTen(x)
    case .pow2: return Number.powerOfTwo(x)
    case .powE: return x.applying(Decimal34.exp)
    case .abs: return .success(x.magnitude)
    case .floor: return .success(x.floor)
    case .ceiling: return .success(x.ceiling)
    case .dms: return x.applying(Decimal34.dms)
    case .degrees: return x.applying(Decimal34.degrees)
    case .factorial: return Number.factorial(x)
    case .sin, .cos, .tan, .sec, .csc, .cot, .asin, .acos, .atan, .asec, .acsc, .acot, .sinh,
      .cosh, .tanh, .sech, .csch, .coth, .asinh, .acosh, .atanh, .asech, .acsch, .acoth:
      return .failure(.invalidInput)
    }
  }

  // MARK: - Errors

  /// `value` within Scientific mode's limits, or `nil` after failing with Overflow
  /// (``ScientificRules/bounded(_:)``).
  private mutating func bounded(_ value: Number) -> Number? {
    guard ScientificRules.bounded(value) else {
      stack.fail(.overflow)
      return nil
    }
    return value
  }

  /// Shows `error`, as a `$N` recall of a line that ended in it does (SPEC §11).
  mutating func showError(_ error: CalculationError) { stack.fail(error) }
}

extension OperatorStack where Rules == ScientificRules {
  /// Whether the current value or an operand on the precedence or bracket stack is rounded.
  var holdsRoundedOperand: Bool {
    current.isRounded || (op != nil && last.isRounded) || pending.contains { $0.value.isRounded }
      || brackets.contains { $0.value.isRounded }
  }
}

/// Scientific mode's rules for the operator engine: 34-digit decimals (SPEC §2 rule 15 will make
/// them exact fractions while every step is rational), results within 10^±10000, and operands
/// on the line in scientific notation while F-E is on.
struct ScientificRules: OperatorRules {
  typealias Value = Number
  typealias Operand = ScientificOperand
  typealias Function = ScientificBrain.FunctionName

  /// Whether F-E is on (`m_nFE`): the line writes operands in scientific notation.
  var isExponential = false

  static var zero: Number { .zero }

  /// Whether `value` is within Scientific mode's limits: below 10^10000, and zero or from
  /// 10^-9999 (SPEC §9).
  static func bounded(_ value: Number) -> Bool {
    guard let magnitude = value.magnitudeExponent else { return true }
    return magnitude < 10000 && magnitude >= -9999
  }

  func operate(_ op: BinaryOperator, _ left: Number, _ right: Number)
    -> Outcome<Number>
  {
    let result: Result<Number, FunctionError>
    switch op {
    case .plus: result = .success(left + right)
    case .minus: result = .success(left - right)
    case .multiply: result = .success(left * right)
    case .divide:
      result =
        Number.dividing(left, by: right).map { .success($0) }
        ?? .failure(left.isZero ? .undefined : .divideByZero)
    case .mod: result = Number.floorMod(left, right)
    case .power: result = Number.power(left, right)
    case .root: result = Number.root(left, index: right)
    case .logBase:
      result = Decimal34.log(left.decimalValue, base: right.decimalValue).map {
        Number(rounded: $0)
      }
    case .leftShift, .rightShift, .logicalRightShift, .and, .or, .xor, .nand, .nor:
      // Programmer mode's operators: no key of Scientific mode gives one.
      result = .failure(.invalidInput)
    }
    switch result {
    case .success(let value):
      return Self.bounded(value) ? .success(value) : .failure(.overflow)
    case .failure(let error):
      return .failure(CalculationError(error))
    }
  }

  func operand(_ value: Number) -> ScientificOperand {
    ScientificOperand(value: value, isExponential: isExponential)
  }
}

/// A number on Scientific mode's expression line, and whether F-E wrote it in scientific
/// notation.
///
/// The line's tokens are plain data (``TokenLine`` keeps them as bytes), so an operand keeps no
/// ``Number`` — whose large fractions live in a box — but what its text needs: the number
/// rounded to 34 digits (what `--plain` writes) and on which side of it the exact number lies.
/// That side is enough to round the number once to fewer digits (``shownValue(digits:)``): the
/// display writes operands as it writes the display, from the exact value (SPEC §2 rule 15).
package struct ScientificOperand: Hashable, Sendable {
  /// The number rounded to 34 significant digits (itself for a decimal, exact or rounded).
  package let value: Decimal34
  /// -1, 0 or 1 as the exact number is below, equal to or above ``value``.
  package let excess: Int8
  /// Whether F-E was on when the line took it.
  package let isExponential: Bool

  /// `value`, written in scientific notation when `isExponential`.
  package init(value: Number, isExponential: Bool) {
    if let decimal = value.shortDecimal {
      self.value = decimal
      excess = 0
    } else {
      let rounded = value.decimalValue
      self.value = rounded
      excess = Int8(Number.compare(value, Number(rounded)))
    }
    self.isExponential = isExponential
  }

  /// The value to round to fewer than 34 digits in place of the exact number: ``value``, or,
  /// when ``value`` ends in a 5 that a rounding could meet as a tie while the exact number lies
  /// beside it, ``value`` moved one unit of its 34th digit toward the exact number — which
  /// rounds, at every coarser place, as the exact number does.
  package var valueForRounding: Decimal34 {
    guard excess != 0 else { return value }
    var coefficient = value.coefficient
    var exponent = Int(value.exponent)
    while coefficient % 10 == 0, coefficient != 0 {
      coefficient /= 10
      exponent += 1
    }
    guard coefficient % 10 == 5 else { return value }
    while coefficient < Decimal34.powersOfTen[Decimal34.precision - 1] {
      coefficient *= 10
      exponent -= 1
    }
    coefficient = excess > 0 ? coefficient + 1 : coefficient - 1
    return Decimal34(coefficient: coefficient, exponent: exponent, isNegative: value.isNegative)
  }
}

extension KeyKind {
  /// What Scientific mode's `key` is to the operator engine.
  init(scientific key: Key) {
    switch key {
    case .digit: self = .digit
    case .dot: self = .point
    case .op, .scientific(.binary): self = .binary
    case .unary, .scientific(.function), .command(.percent): self = .function
    case .command(.flip): self = .sign
    case .scientific(.bracket(.open)): self = .open
    case .scientific(.bracket(.close)): self = .close
    case .equal: self = .equals
    case .command, .memory, .angle, .mode, .reference, .formula, .dateLine, .scientific,
      .programmer:
      self = .other
    }
  }
}

extension CalculationError {
  init(_ error: FunctionError) {
    switch error {
    case .invalidInput: self = .invalidInput
    case .divideByZero: self = .divideByZero
    case .undefined: self = .undefined
    case .overflow: self = .overflow
    }
  }
}
