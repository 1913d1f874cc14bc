import CalcDecimal

/// Scientific mode's calculation (SPEC §9): precedence, brackets, functions, exponent entry and
/// F-E, key for key as Windows Calculator's engine computes them.
///
/// The state and the transitions follow Windows' `CCalcEngine` (microsoft/calculator,
/// `src/CalcManager/CEngine/scicomm.cpp`), whose variables are named in the comments, and its
/// expression line follows Windows' `CHistoryCollector` (`History.cpp`), token for token. It
/// differs where SPEC §9 decides: the result is always the calculation the expression line
/// shows (replacing a waiting operator by one of lower precedence resolves as if the new one
/// had been typed; the implied × after `)` is a typed ×), rule 14 holds while an
/// error is shown, percent with nothing pending is Y/100, and F-E is turned off by AC and CE.
///
/// Memory keys and the angle unit belong to ``Calculator``, which passes what they need.
public struct ScientificBrain: Hashable, Sendable {
  /// A binary operator, with Windows' precedence.
  public enum Operator: UInt8, Hashable, Sendable {
    case plus, minus, multiply, divide, mod, power, root, logBase

    /// `+ −` 2, `× ÷ mod` 3, `^ yroot logy` 4 (`NPrecedenceOfOp`).
    var precedence: Int {
      switch self {
      case .plus, .minus: 2
      case .multiply, .divide, .mod: 3
      case .power, .root, .logBase: 4
      }
    }

    /// How the expression line writes it: `+`, `×`, `Mod`, `^`, `yroot`, `log base`.
    public var title: String {
      switch self {
      case .plus: "+"
      case .minus: "-"
      case .multiply: "×"
      case .divide: "÷"
      case .mod: "Mod"
      case .power: "^"
      case .root: "yroot"
      case .logBase: "log base"
      }
    }

    init(_ op: Key.Op) {
      switch op {
      case .plus: self = .plus
      case .minus: self = .minus
      case .multiply: self = .multiply
      case .divide: self = .divide
      }
    }

    init(_ binary: Key.Binary) {
      switch binary {
      case .power: self = .power
      case .root: self = .root
      case .mod: self = .mod
      case .logBase: self = .logBase
      }
    }
  }

  /// What the last key that counts was (`m_nLastCom`), as far as the rules ask.
  enum LastKey: UInt8, Hashable, Sendable {
    case none, digit, point, binary, function, sign, open, close, equals, other
  }

  /// A pending operation or a bracket's mark on the precedence stack (`m_precedenceVals`,
  /// `m_nPrecOp`; a `nil` operator marks a bracket), or what a bracket saved (`m_parenVals`,
  /// `m_nOp`).
  struct Pending: Hashable, Sendable {
    var value: Decimal34
    var op: Operator?
  }

  /// A piece of the expression line (Windows' history tokens).
  public enum Token: Hashable, Sendable {
    /// The space on either side of an operator.
    case space
    /// A binary operator.
    case op(Operator)
    /// A number, and whether F-E wrote it in scientific notation.
    case operand(Decimal34, exponential: Bool)
    /// `(`.
    case open
    /// `)`.
    case close
    /// A function's name, `sin₀`, `fact`, `negate`…, with its opening bracket unless its operand
    /// is in brackets already.
    case function(FunctionName, bracket: Bool)
    /// The closing `=`.
    case equals
  }

  /// A function as the expression line names it: the key, and the unit for trigonometry.
  public struct FunctionName: Hashable, Sendable {
    public let key: Key
    public let unit: AngleUnit

    /// `sin₀`, `cos₉⁻¹`, `sinh`, `log`, `10^`, `√`, `sqr`, `cube`, `cuberoot`, `fact`, `1/`,
    /// `negate`, …
    public var text: String {
      switch key {
      case .function(let function):
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

  // MARK: - State (Windows' names in brackets)

  /// The number being typed (`m_input`), meaningful while ``isTyping``.
  public private(set) var input = ScientificEntry.empty
  /// Whether a number is being typed (`m_bRecord`).
  public private(set) var isTyping = false
  /// The current value (`m_currentVal`).
  var current = Decimal34.zero
  /// The left operand of the pending operation (`m_lastVal`).
  var last = Decimal34.zero
  /// The right operand that a repeated `=` uses (`m_holdVal`).
  var hold = Decimal34.zero
  /// The pending operator (`m_nOpCode`).
  var op: Operator?
  /// The operator that ran last (`m_nPrevOpCode`).
  var previousOp: Operator?
  /// The key before the one being pressed (`m_nLastCom`) and the one being pressed
  /// (`m_nTempCom`).
  var lastKey = LastKey.none
  var thisKey = LastKey.none
  /// The precedence stack, at most 25 deep (`m_precedenceVals`, `m_nPrecOp`).
  var pending: [Pending] = []
  /// The open brackets, at most 25 (`m_parenVals`, `m_nOp`).
  var brackets: [Pending] = []
  /// Whether ``op`` waits for its right operand (`m_bChangeOp`).
  var changeOp = false
  /// Whether no `=` came since the last operator (`m_bNoPrevEqu`).
  var noPreviousEquals = true
  /// Whether the last operator pushed the pending one onto ``pending`` (calc's own: what
  /// replacing it by one of lower precedence undoes).
  var lastOperatorPushed = false
  /// The error shown, if any (`m_bError`).
  public private(set) var error: CalculatorBrain.CalculationError?
  /// Whether F-E is on (`m_nFE`).
  public private(set) var isExponential = false
  /// The expression being collected (`CHistoryCollector`'s tokens and indices).
  var tokens = ExpressionTokens()
  var lastOperandStart = -1
  var lastOperatorStart = -1
  var operandStarts: [Int] = []
  var lastOperandIsBracketed = false
  /// The expression line on screen: the tokens when Windows last showed them.
  public private(set) var shownLine = ExpressionTokens()

  /// The most brackets open at once, and the depth of the precedence stack (`MAXPRECDEPTH`).
  public static let maximumDepth = 25

  /// The brain right after switching to Scientific mode: `0`, no number being typed (SPEC §9).
  public static let initial = ScientificBrain()

  /// The heap bytes of a boxed brain: the box (a header of two words and the value) and each
  /// array's storage (a header of four words and its capacity), and the expression lines' chunks
  /// (``ExpressionTokens/heapBytes``, the shown line's counted as if it shared none).
  var heapBytes: Int {
    16 + MemoryLayout<ScientificBrain>.stride
      + 32 * 3 + (pending.capacity + brackets.capacity) * MemoryLayout<Pending>.stride
      + tokens.heapBytes + shownLine.heapBytes
      + operandStarts.capacity * MemoryLayout<Int>.stride
  }

  /// The number of brackets open.
  public var openBrackets: Int { brackets.count }

  /// Whether a new number (digits and points) and the binary operator after it leave this brain
  /// exactly as they leave ``initial``: a finished calculation (after `=`, no error), with
  /// nothing typed, pending or open, F-E off and an empty line. What it keeps (the result, the
  /// operator and operand a repeated `=` uses) the new number and operator overwrite
  /// (``pushOperator(_:)`` clears ``hold``); a history takes a restart mark there (``History``'s
  /// settling marks).
  var isSettled: Bool {
    error == nil && !isTyping && !isExponential && !changeOp && previousOp == nil
      && thisKey != .close && pending.isEmpty && brackets.isEmpty && tokens.isEmpty
      && lastOperandStart == -1 && lastOperatorStart == -1 && operandStarts.isEmpty
      && !lastOperandIsBracketed
  }

  /// What the display shows.
  public var display: CalculatorBrain.Display {
    if let error { return .error(error) }
    if isTyping { return .scientificEntry(input) }
    return isExponential ? .exponential(current) : .value(current)
  }

  /// The value in the display, or `nil` while an error is shown.
  public var displayedValue: Decimal34? {
    if error != nil { return nil }
    return isTyping ? input.value : current
  }

  /// Whether an operation waits for its right operand or a bracket is open; never while an
  /// error is shown, since no key but a digit, a bit key, AC or CE then acts (rule 14), as in
  /// Standard mode.
  public var isPending: Bool {
    error == nil && ((changeOp && op != nil) || !pending.isEmpty || !brackets.isEmpty)
  }

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
      case .op, .equal, .command, .unary, .memory, .bracket, .binary, .function, .constant,
        .exponent, .fixedToExponential, .angle, .mode, .reference, .hexDigit, .radix, .wordSize,
        .bitwise,
        .not, .shift, .rotate, .bit:
        return
      }
    }
    if thisKey == .close, key.startsAnOperand {
      // The × that a digit or point right after `)` implies is pressed, then the key.
      press(.op(.multiply), unit: unit)
      press(key, unit: unit)
      return
    }
    let isSetting: Bool
    switch key {
    case .command(.backspace), .exponent, .fixedToExponential, .angle, .memory(.store),
      .memory(.add), .memory(.subtract), .memory(.clear), .reference:
      isSetting = true
    case .digit, .dot, .op, .equal, .command, .unary, .memory, .bracket, .binary, .function,
      .constant, .mode, .hexDigit, .radix, .wordSize, .bitwise, .not, .shift, .rotate, .bit:
      isSetting = false
    }
    if !isSetting {
      lastKey = thisKey
      thisKey = LastKey(key)
    }
    if !noPreviousEquals { shownLine = ExpressionTokens() }
    // Toggle between typing and showing a value.
    if isTyping {
      let ends: Bool
      switch key {
      case .op, .binary, .unary, .function, .command(.percent), .fixedToExponential, .constant,
        .equal, .memory, .bracket, .angle:
        ends = true
      case .digit, .dot, .command, .exponent, .mode, .reference, .hexDigit, .radix, .wordSize,
        .bitwise, .not,
        .shift, .rotate, .bit:
        ends = false
      }
      if ends {
        isTyping = false
        guard let value = bounded(input.value) else {
          showFailedEntry(key, unit: unit)
          return
        }
        current = value
      }
    } else if case .digit = key {
      startTyping()
    } else if case .dot = key {
      startTyping()
    }
    switch key {
    case .digit(let digit):
      if !input.append(digit.value) {
        forget()
        return
      }
    case .dot:
      if !input.appendPoint() { forget() }
    case .op(let op): binary(Operator(op))
    case .binary(let kind): binary(Operator(kind))
    case .function(let function):
      apply(FunctionName(key: key, unit: unit)) { x in
        ScientificBrain.evaluate(function, x, unit: unit)
      }
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
    case .equal: equals()
    case .bracket(.open): openBracket()
    case .bracket(.close): closeBracket()
    case .constant(let constant):
      addLastOperatorToLine()
      current = constant == .pi ? Decimal34.pi : Decimal34.e
    case .exponent:
      if isTyping { _ = input.beginExponent() }
    case .fixedToExponential: isExponential.toggle()
    case .memory, .angle, .mode, .reference: break
    case .hexDigit, .radix, .wordSize, .bitwise, .not, .shift, .rotate, .bit:
      // Not keys of Scientific mode: a session never presses one here.
      forget()
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
    current = value
  }

  /// The expression line after an entry beyond the limits failed as `key` ended it (SPEC §3.1:
  /// the calculation that failed, with the key that triggered it): the entry with the operator
  /// or `=` after it, or inside the function; alone for any other key (`1E10031 +`,
  /// `2 + 1E10031 =`, `sin₀(1E10031)`).
  private mutating func showFailedEntry(_ key: Key, unit: AngleUnit) {
    addOperandToLine(input.value, shown: true)
    switch key {
    case .op(let op): addOperatorToLine(Operator(op))
    case .binary(let kind): addOperatorToLine(Operator(kind))
    case .equal:
      tokens.append(.equals)
      shownLine = tokens
    case .function, .unary: addFunctionToLine(FunctionName(key: key, unit: unit))
    case .digit, .dot, .command, .memory, .bracket, .constant, .exponent, .fixedToExponential,
      .angle, .mode, .reference, .hexDigit, .radix, .wordSize, .bitwise, .not, .shift, .rotate,
      .bit:
      break
    }
  }

  /// Recalls `value` into the display, as `mr` does: like typing it; a value beyond the limits
  /// shows Overflow with the line as it was, as Standard's `mr` (no memory key stores one in
  /// this mode: `m+` and `m-` fail at the limits, `MemoryLimitTests`).
  mutating func recall(_ value: Decimal34) {
    guard error == nil, bounded(value) != nil else { return }
    lastKey = thisKey
    thisKey = .other
    if !noPreviousEquals { shownLine = ExpressionTokens() }
    isTyping = false
    addLastOperatorToLine()
    current = value
  }

  /// The key pressed was found to do nothing: the next key does not see it as the last one
  /// (`HandleErrorCommand`).
  private mutating func forget() {
    thisKey = lastKey
  }

  private mutating func startTyping() {
    isTyping = true
    input = .empty
    if lastKey != .close { addLastOperatorToLine() }
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
    isExponential = false
    addLastOperatorToLine()
  }

  // MARK: - Binary operators

  private mutating func binary(_ new: Operator) {
    if lastKey == .binary {
      let replaced = op
      if let replaced, new.precedence < replaced.precedence, lastOperatorPushed,
        let top = pending.last, top.op != nil
      {
        // calc's own rule (SPEC §9): undo the push of the operator being replaced and type
        // the new one, so that the result is what the line shows.
        pending.removeLast()
        op = top.op
        last = top.value
        truncateLine(from: lastOperatorStart)
        popOperandStart()
        lastOperatorStart = -1
        lastOperatorPushed = false
        pushOperator(new)
        return
      }
      var inversion = false
      if let previousOp, let replaced, replaced.precedence <= previousOp.precedence,
        new.precedence > previousOp.precedence
      {
        inversion = true
        self.previousOp = nil
      }
      op = new
      truncateLine(from: lastOperatorStart)
      if inversion { encloseInBrackets() }
      addOperatorToLine(new)
      return
    }
    pushOperator(new)
  }

  /// An operator typed after an operand (the main path of Windows' binary operators).
  private mutating func pushOperator(_ new: Operator) {
    if lastOperandStart == -1 { addOperandToLine(current) }
    lastOperatorPushed = false
    if changeOp {
      var pendingOp = op
      while true {
        if let waiting = pendingOp, new.precedence > waiting.precedence {
          if pending.count < ScientificBrain.maximumDepth {
            pending.append(Pending(value: last, op: waiting))
            pushOperandStart(lastOperandStart)
            lastOperatorPushed = true
          }
          break
        }
        let ran = pendingOp
        current = operate(pendingOp, current, last)
        previousOp = pendingOp
        guard let top = pending.last, let topOp = top.op else { break }
        pending.removeLast()
        op = topOp
        pendingOp = topOp
        last = top.value
        if (ran?.precedence ?? 0) <= topOp.precedence { encloseInBrackets() }
        popOperandStart()
      }
    }
    last = current
    op = new
    addOperatorToLine(new)
    noPreviousEquals = true
    // Unread until the next `=` sets it (``resolveTop()``): cleared, so that the state after a
    // new number and its operator is the same whatever `=` held before (``isSettled``).
    hold = .zero
    changeOp = true
  }

  // MARK: - Functions

  /// A function of the value in the display; on success the answer is the current value.
  private mutating func apply(
    _ name: FunctionName, _ function: (Decimal34) -> Result<Decimal34, FunctionError>
  ) {
    if lastKey == .binary { current = last }
    if lastOperandStart == -1 { addOperandToLine(current) }
    addFunctionToLine(name)
    if case .function(let key) = name.key, key.trig != nil,
      current.magnitudeExponent.map({ $0 >= 100 }) == true
    {
      current = .zero
      fail(.invalidInput)
      return
    }
    switch function(current) {
    case .success(let value):
      if let value = bounded(value) { current = value }
    case .failure(let error):
      fail(CalculatorBrain.CalculationError(error))
    }
  }

  /// `%`: Y/100 with nothing pending or × ÷ pending, else X·Y/100 (SPEC §9).
  private mutating func percent() {
    if lastKey == .binary { current = last }
    let hundred = Decimal34(coefficient: 100, exponent: 0)
    let y = current
    let result: Decimal34?
    if changeOp, let op, op != .multiply, op != .divide {
      result = Decimal34.dividing(y * last, by: hundred)
    } else {
      result = Decimal34.dividing(y, by: hundred)
    }
    guard let value = bounded(result ?? .zero) else { return }
    current = value
    addLastOperatorToLine()
    addOperandToLine(current, shown: true)
  }

  /// `~` on a value (on an entry it flips the entry's sign).
  private mutating func flip() {
    if isTyping {
      input.toggleSign()
      return
    }
    if lastKey == .binary { current = last }
    if lastOperandStart == -1 { addOperandToLine(current) }
    current = -current
    addFunctionToLine(FunctionName(key: .command(.flip), unit: .degrees))
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

  // MARK: - Brackets and equals

  private mutating func openBracket() {
    if brackets.count >= ScientificBrain.maximumDepth
      || (pending.count >= ScientificBrain.maximumDepth && pending.last?.op != nil)
    {
      forget()
      return
    }
    var afterOperator = lastKey == .binary
    switch lastKey {
    case .digit, .point, .function, .close:
      // An omitted × (Windows presses it itself, after which the last key is the bracket).
      if !noPreviousEquals { shownLine = ExpressionTokens() }
      pushOperator(.multiply)
      lastKey = .open
      afterOperator = false
    case .none, .binary, .sign, .open, .equals, .other: break
    }
    addLastOperatorToLine()
    tokens.append(.open)
    pushOperandStart(tokens.count - 1)
    shownLine = tokens
    lastOperatorStart = -1
    brackets.append(Pending(value: last, op: changeOp ? op : nil))
    if pending.count < ScientificBrain.maximumDepth {
      pending.append(Pending(value: .zero, op: nil))
    }
    last = .zero
    if afterOperator { current = .zero }
    thisKey = .none
    op = nil
    changeOp = false
  }

  private mutating func closeBracket() {
    guard !brackets.isEmpty,
      !(pending.count >= ScientificBrain.maximumDepth && pending.last?.op != nil)
    else {
      forget()
      return
    }
    if lastKey == .binary { current = last }
    if lastOperandStart == -1 { addOperandToLine(current) }
    current = operate(op, current, last)
    previousOp = op
    while let top = pending.popLast(), let topOp = top.op {
      if (previousOp?.precedence ?? 0) <= topOp.precedence { encloseInBrackets() }
      popOperandStart()
      last = top.value
      current = operate(topOp, current, last)
      previousOp = topOp
    }
    tokens.append(.close)
    shownLine = tokens
    popOperandStart()
    lastOperatorStart = -1
    lastOperandIsBracketed = true
    let saved = brackets.removeLast()
    last = saved.value
    op = saved.op
    changeOp = op != nil
  }

  /// `=`: closes the open brackets and runs what is pending; the line then shows the whole
  /// calculation and `=`, a failed one's too (SPEC §3.1: `1 ÷ 0 =`, `(1 ÷ 0) =`).
  private mutating func equals() {
    while !brackets.isEmpty, error == nil {
      // Windows presses `)` itself, with `=`'s last key as the last key.
      thisKey = .close
      if !noPreviousEquals { shownLine = ExpressionTokens() }
      closeBracket()
      lastKey = thisKey
      thisKey = .equals
    }
    if !noPreviousEquals { last = current }
    if lastKey == .binary { current = last }
    if lastOperandStart == -1 { addOperandToLine(current) }
    resolveTop()
    while !pending.isEmpty {
      let top = pending.removeLast()
      op = top.op
      last = top.value
      if (previousOp?.precedence ?? 0) <= (top.op?.precedence ?? 0) { encloseInBrackets() }
      popOperandStart()
      noPreviousEquals = true
      resolveTop()
    }
    tokens.append(.equals)
    shownLine = tokens
    if error == nil {
      resetLine()
      last = current
      previousOp = nil
      pending = []
    }
    changeOp = false
  }

  /// Runs the pending operation, or repeats it after a first `=`
  /// (`ResolveHighestPrecedenceOperation`).
  private mutating func resolveTop() {
    guard let op else { return }
    if noPreviousEquals {
      hold = current
    } else {
      current = hold
      addOperatorToLine(op, shows: false)
      addOperandToLine(current)
    }
    current = operate(op, current, last)
    previousOp = op
    last = current
    noPreviousEquals = false
  }

  // MARK: - Arithmetic

  /// `last op x` (`DoOperation`, whose operands come the other way round); on an error, `x`.
  private mutating func operate(_ op: Operator?, _ x: Decimal34, _ last: Decimal34) -> Decimal34 {
    guard let op else { return x }
    let result: Result<Decimal34, FunctionError>
    switch op {
    case .plus: result = .success(last + x)
    case .minus: result = .success(last - x)
    case .multiply: result = .success(last * x)
    case .divide:
      result =
        Decimal34.dividing(last, by: x).map { .success($0) }
        ?? .failure(last.isZero ? .undefined : .divideByZero)
    case .mod: result = Decimal34.floorMod(last, x)
    case .power: result = Decimal34.power(last, x)
    case .root: result = Decimal34.root(last, index: x)
    case .logBase: result = Decimal34.log(last, base: x)
    }
    switch result {
    case .success(let value): return bounded(value) ?? x
    case .failure(let error):
      fail(CalculatorBrain.CalculationError(error))
      return x
    }
  }

  /// `value` within Scientific mode's limits, or `nil` after failing with Overflow: from
  /// 10^10000, and nonzero below 10^-9999.
  private mutating func bounded(_ value: Decimal34) -> Decimal34? {
    if let magnitude = value.magnitudeExponent, magnitude >= 10000 || magnitude < -9999 {
      fail(.overflow)
      return nil
    }
    return value
  }

  /// Shows `error`, as a `$N` recall of a line that ended in it does (SPEC §11).
  mutating func showError(_ error: CalculatorBrain.CalculationError) { fail(error) }

  private mutating func fail(_ error: CalculatorBrain.CalculationError) {
    guard self.error == nil else { return }
    self.error = error
  }

  // MARK: - The expression line (CHistoryCollector)

  private mutating func addOperandToLine(_ value: Decimal34, shown: Bool = false) {
    tokens.append(.operand(value, exponential: isExponential))
    lastOperandStart = tokens.count - 1
    if shown { shownLine = tokens }
    lastOperandIsBracketed = false
    lastOperatorStart = -1
  }

  private mutating func addOperatorToLine(_ op: Operator, shows: Bool = true) {
    lastOperatorStart = tokens.count
    tokens.append(.space)
    tokens.append(.op(op))
    tokens.append(.space)
    if shows { shownLine = tokens }
    lastOperandStart = -1
  }

  private mutating func addFunctionToLine(_ name: FunctionName) {
    let start = max(0, min(lastOperandStart, tokens.count))
    tokens.insert(.function(name, bracket: !lastOperandIsBracketed), at: start)
    if !lastOperandIsBracketed { tokens.append(.close) }
    shownLine = tokens
    lastOperandIsBracketed = false
    lastOperatorStart = -1
  }

  private mutating func truncateLine(from index: Int) {
    tokens.removeSubrange(from: index)
  }

  private mutating func pushOperandStart(_ index: Int) {
    if operandStarts.count < ScientificBrain.maximumDepth { operandStarts.append(index) }
  }

  private mutating func popOperandStart() {
    if let start = operandStarts.popLast() { lastOperandStart = start }
  }

  /// Brackets around what follows the innermost open operand (`EnclosePrecInversionBrackets`).
  private mutating func encloseInBrackets() {
    let start = operandStarts.last ?? 0
    tokens.insert(.open, at: max(0, min(start, tokens.count)))
    tokens.append(.close)
  }

  private mutating func resetLine() {
    tokens = ExpressionTokens()
    lastOperandStart = -1
    lastOperatorStart = -1
    operandStarts = []
    lastOperandIsBracketed = false
  }

  /// What Windows' `CheckAndAddLastBinOpToHistory` does when a new operand starts: an operand
  /// that the new one replaces leaves the line (`1 + √(4)` then `5`), and a finished unary
  /// calculation completes its line.
  private mutating func addLastOperatorToLine() {
    if changeOp {
      if lastOperandStart != -1 {
        truncateLine(from: lastOperandStart)
        shownLine = tokens
        lastOperandStart = -1
      }
    } else if lastOperandStart != -1, error == nil {
      if (lastKey == .function || lastKey == .sign || lastKey == .close) && brackets.isEmpty {
        resetLine()
      } else {
        truncateLine(from: lastOperandStart)
        shownLine = tokens
        lastOperandStart = -1
      }
    }
    // Nothing left on the line: the new number starts it, and the line is empty while it is
    // typed (SPEC §3.1), as in Standard mode; Windows' engine completes the line into its
    // history here but leaves the finished calculation (`√(9)`, `2 =`) on screen.
    if tokens.isEmpty { shownLine = tokens }
  }
}

extension Key {
  /// Whether the key right after `)` implies a × (SPEC §9): a digit or the point.
  ///
  /// Windows makes the bracket the left operand of a new ×, dropping whatever was pending
  /// (`1+(2)3=` → 6, `2(3)4=` → 12). calc presses `*` itself before the key, as Windows does for
  /// an omitted × before `(`, so that the result is the calculation the line shows: a pending
  /// operation that binds less tightly waits (`1+(2)3=` → 7), one that binds as tightly or more
  /// runs first (`2(3)4=` and `2*(1+2)4=` → 24, `2^(1)3=` → 6), and an error it gives is shown
  /// until the key, which then starts a new calculation (rule 14), exactly as after a typed `*`.
  /// A mode with brackets and precedence (Programmer, SPEC §10) implies × the same way: through
  /// its own operator key, with no path of its own.
  var startsAnOperand: Bool {
    switch self {
    case .digit, .dot, .hexDigit: true
    case .op, .equal, .command, .unary, .memory, .bracket, .binary, .function, .constant,
      .exponent, .fixedToExponential, .angle, .mode, .reference, .radix, .wordSize, .bitwise, .not,
      .shift,
      .rotate, .bit:
      false
    }
  }
}

extension ScientificBrain.LastKey {
  init(_ key: Key) {
    switch key {
    case .digit: self = .digit
    case .dot: self = .point
    case .op, .binary: self = .binary
    case .unary, .function, .command(.percent): self = .function
    case .command(.flip): self = .sign
    case .bracket(.open): self = .open
    case .bracket(.close): self = .close
    case .equal: self = .equals
    case .command, .memory, .constant, .exponent, .fixedToExponential, .angle, .mode, .reference,
      .hexDigit,
      .radix, .wordSize, .bitwise, .not, .shift, .rotate, .bit:
      self = .other
    }
  }
}

extension CalculatorBrain.CalculationError {
  init(_ error: FunctionError) {
    switch error {
    case .invalidInput: self = .invalidInput
    case .divideByZero: self = .divideByZero
    case .undefined: self = .undefined
    case .overflow: self = .overflow
    }
  }
}
