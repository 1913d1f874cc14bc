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

  /// The heap bytes of a boxed brain: the box (a header of two words and the value) and the
  /// stack's arrays and lines (``OperatorStack/heapBytes``).
  var heapBytes: Int { 16 + MemoryLayout<ScientificBrain>.stride + stack.heapBytes }

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
  package var displayedValue: Decimal34? {
    if error != nil { return nil }
    return isTyping ? input.value : stack.current
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
      case .op, .equal, .command, .unary, .memory, .angle, .mode, .reference, .formula, .scientific,
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
      .memory(.clear), .reference, .formula, .scientific(.exponent),
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
      case .digit, .dot, .command, .mode, .reference, .formula, .programmer:
        ends = false
      }
      if ends {
        isTyping = false
        guard let value = bounded(input.value) else {
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
          Decimal34.squareRoot(x).map { .success($0) } ?? .failure(.invalidInput)
        case .square: .success(x * x)
        case .reciprocal:
          Decimal34.dividing(Decimal34(coefficient: 1, exponent: 0), by: x).map { .success($0) }
            ?? .failure(.divideByZero)
        }
      }
    case .command(.percent): percent()
    case .command(.flip): flip()
    case .command(.clear): clear()
    case .command(.clearEntry): clearEntry()
    case .command(.backspace):
      if isTyping { input.removeLast() }
    case .equal: stack.equals()
    case .memory, .angle, .mode, .reference, .formula: break
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
      stack.replaceOperand(with: constant == .pi ? Decimal34.pi : Decimal34.e)
    case .exponent:
      if isTyping { _ = input.beginExponent() }
    case .fixedToExponential: stack.rules.isExponential.toggle()
    }
  }

  /// Ends the number being typed, as `ms`, `m+`, `m-`, `mc` and a new line do.
  mutating func endEntry() {
    guard error == nil, isTyping, !input.isEmpty else { return }
    isTyping = false
    guard let value = bounded(input.value) else {
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
    stack.addOperandToLine(input.value, shown: true)
    switch key {
    case .op(let op): stack.addOperatorToLine(BinaryOperator(op))
    case .scientific(.binary(let kind)): stack.addOperatorToLine(BinaryOperator(kind))
    case .equal: stack.addEqualsToLine()
    case .unary, .scientific(.function): stack.addFunctionToLine(FunctionName(key: key, unit: unit))
    case .digit, .dot, .command, .memory, .angle, .mode, .reference, .formula, .scientific,
      .programmer:
      break
    }
  }

  /// Recalls `value` into the display, as `mr` does: like typing it; a value beyond the limits
  /// shows Overflow with the line as it was, as Standard's `mr` (no memory key stores one in
  /// this mode: `m+` and `m-` fail at the limits, `MemoryLimitTests`).
  mutating func recall(_ value: Decimal34) {
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
    _ name: FunctionName, _ function: (Decimal34) -> Result<Decimal34, FunctionError>
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
    let hundred = Decimal34(coefficient: 100, exponent: 0)
    let y = stack.current
    let result: Decimal34?
    if let (op, x) = stack.waitingOperation, op != .multiply, op != .divide {
      result = Decimal34.dividing(y * x, by: hundred)
    } else {
      result = Decimal34.dividing(y, by: hundred)
    }
    guard let value = bounded(result ?? .zero) else { return }
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
  static func evaluate(_ function: Key.Function, _ x: Decimal34, unit: AngleUnit)
    -> Result<Decimal34, FunctionError>
  {
    if let trig = function.trig { return Decimal34.trig(trig, x, unit: unit) }
    switch function {
    case .cube: return Decimal34.cube(x)
    case .cubeRoot: return Decimal34.cubeRoot(x)
    case .log: return Decimal34.log10(x)
    case .ln: return Decimal34.ln(x)
    case .pow10: return Decimal34.pow10(x)
    case .pow2: return Decimal34.pow2(x)
    case .powE: return Decimal34.exp(x)
    case .abs: return .success(x.isNegative ? -x : x)
    case .floor: return .success(x.floor)
    case .ceiling: return .success(x.ceiling)
    case .dms: return Decimal34.dms(x)
    case .degrees: return Decimal34.degrees(x)
    case .factorial: return Decimal34.factorial(x)
    case .sin, .cos, .tan, .sec, .csc, .cot, .asin, .acos, .atan, .asec, .acsc, .acot, .sinh,
      .cosh, .tanh, .sech, .csch, .coth, .asinh, .acosh, .atanh, .asech, .acsch, .acoth:
      return .failure(.invalidInput)
    }
  }

  // MARK: - Errors

  /// `value` within Scientific mode's limits, or `nil` after failing with Overflow
  /// (``ScientificRules/bounded(_:)``).
  private mutating func bounded(_ value: Decimal34) -> Decimal34? {
    guard ScientificRules.bounded(value) else {
      stack.fail(.overflow)
      return nil
    }
    return value
  }

  /// Shows `error`, as a `$N` recall of a line that ended in it does (SPEC §11).
  mutating func showError(_ error: CalculationError) { stack.fail(error) }
}

/// Scientific mode's rules for the operator engine: 34-digit decimals (SPEC §2 rule 15 will make
/// them exact fractions while every step is rational), results within 10^±10000, and operands
/// on the line in scientific notation while F-E is on.
struct ScientificRules: OperatorRules {
  typealias Value = Decimal34
  typealias Operand = ScientificOperand
  typealias Function = ScientificBrain.FunctionName

  /// Whether F-E is on (`m_nFE`): the line writes operands in scientific notation.
  var isExponential = false

  static var zero: Decimal34 { .zero }

  /// Whether `value` is within Scientific mode's limits: below 10^10000, and zero or from
  /// 10^-9999 (SPEC §9).
  static func bounded(_ value: Decimal34) -> Bool {
    guard let magnitude = value.magnitudeExponent else { return true }
    return magnitude < 10000 && magnitude >= -9999
  }

  func operate(_ op: BinaryOperator, _ left: Decimal34, _ right: Decimal34)
    -> Outcome<Decimal34>
  {
    let result: Result<Decimal34, FunctionError>
    switch op {
    case .plus: result = .success(left + right)
    case .minus: result = .success(left - right)
    case .multiply: result = .success(left * right)
    case .divide:
      result =
        Decimal34.dividing(left, by: right).map { .success($0) }
        ?? .failure(left.isZero ? .undefined : .divideByZero)
    case .mod: result = Decimal34.floorMod(left, right)
    case .power: result = Decimal34.power(left, right)
    case .root: result = Decimal34.root(left, index: right)
    case .logBase: result = Decimal34.log(left, base: right)
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

  func operand(_ value: Decimal34) -> ScientificOperand {
    ScientificOperand(value: value, isExponential: isExponential)
  }
}

/// A number on Scientific mode's expression line, and whether F-E wrote it in scientific
/// notation.
package struct ScientificOperand: Hashable, Sendable {
  /// The number.
  package let value: Decimal34
  /// Whether F-E was on when the line took it.
  package let isExponential: Bool

  /// `value`, written in scientific notation when `isExponential`.
  package init(value: Decimal34, isExponential: Bool) {
    self.value = value
    self.isExponential = isExponential
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
    case .command, .memory, .angle, .mode, .reference, .formula, .scientific, .programmer:
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
