import CalcDecimal

/// A binary operator of the calculator, and how the expression line writes it: the one table of
/// operator titles for every mode (Standard mode's `+ - × ÷` are its first four).
///
/// One table of precedence too, as Windows' engine has one for both modes (`NPrecedenceOfOp`):
/// which operators a mode has is the mode's (its keys), how tightly each binds is not.
package enum BinaryOperator: UInt8, Hashable, Sendable, CaseIterable {
  /// Standard mode's four, then `mod`: `+`, `-`, `×`, `÷`, `Mod`.
  case plus, minus, multiply, divide, mod
  /// Scientific mode's own: xʸ, ʸ√x and logᵧx.
  case power, root, logBase
  /// Programmer mode's shifts: left, arithmetic right, logical right.
  case leftShift, rightShift, logicalRightShift
  /// Programmer mode's bitwise operators.
  case and, or, xor, nand, nor

  /// Standard mode's operator `op`.
  package init(_ op: Key.Op) {
    switch op {
    case .plus: self = .plus
    case .minus: self = .minus
    case .multiply: self = .multiply
    case .divide: self = .divide
    }
  }

  /// Scientific mode's own operator `binary` (`mod` is Programmer mode's too).
  package init(_ binary: Key.Binary) {
    switch binary {
    case .power: self = .power
    case .root: self = .root
    case .mod: self = .mod
    case .logBase: self = .logBase
    }
  }

  /// Programmer mode's bitwise operator `bitwise`.
  package init(_ bitwise: Key.Bitwise) {
    switch bitwise {
    case .and: self = .and
    case .or: self = .or
    case .xor: self = .xor
    case .nand: self = .nand
    case .nor: self = .nor
    }
  }

  /// Programmer mode's shift `shift`.
  package init(_ shift: Key.Shift) {
    switch shift {
    case .left: self = .leftShift
    case .right: self = .rightShift
    case .logicalRight: self = .logicalRightShift
    }
  }

  /// How tightly the operator binds (`NPrecedenceOfOp`): `or xor` 0, `and nand nor` 1, `+ −` 2,
  /// `× ÷ mod lsh rsh rshl` 3, `^ yroot logy` 4; a higher level first, equal levels left to
  /// right (SPEC §9, §10).
  package var precedence: Int {
    switch self {
    case .or, .xor: 0
    case .and, .nand, .nor: 1
    case .plus, .minus: 2
    case .multiply, .divide, .mod, .leftShift, .rightShift, .logicalRightShift: 3
    case .power, .root, .logBase: 4
    }
  }

  /// How the expression line writes it: `+`, `-`, `×`, `÷`, `Mod`, `^`, `yroot`, `log base`,
  /// `Lsh`, `Rsh`, `RshL` (SPEC §10: each shift by its own name), `AND`, `OR`, `XOR`, `NAND`, `NOR`.
  package var title: String {
    switch self {
    case .plus: "+"
    case .minus: "-"
    case .multiply: "×"
    case .divide: "÷"
    case .mod: "Mod"
    case .power: "^"
    case .root: "yroot"
    case .logBase: "log base"
    case .leftShift: "Lsh"
    case .rightShift: "Rsh"
    case .logicalRightShift: "RshL"
    case .and: "AND"
    case .or: "OR"
    case .xor: "XOR"
    case .nand: "NAND"
    case .nor: "NOR"
    }
  }
}

/// What a mode gives the operator engine (``OperatorStack``), as Windows configures its one
/// `CCalcEngine` for Scientific and Programmer mode (precision, radix, integer mode): the type
/// of its values, what its operators compute, and how the expression line holds an operand.
///
/// A value of the rules travels with the stack (``OperatorStack/rules``) and holds what the
/// arithmetic and the line read besides the values: Programmer mode's word size, Scientific
/// mode's F-E. The stack never looks inside a value, so a mode's values can change type (exact
/// fractions, SPEC §2 rule 15) without a change to the stack.
package protocol OperatorRules: Hashable, Sendable {
  /// A value of the mode: a 34-digit decimal, a word's bits.
  associatedtype Value: Hashable & Sendable
  /// An operand as the expression line holds it; trivial (no references), as the line's
  /// chunks hold their tokens' bytes (``TokenLine``).
  associatedtype Operand: Hashable & Sendable
  /// A function as the expression line names it (`sin₀`, `RoLC`); trivial, as ``Operand``.
  associatedtype Function: Hashable & Sendable

  /// The value of a fresh calculation, and of an empty bracket.
  static var zero: Value { get }

  /// `left op right`, within the mode's bounds, or the error it meets (`DoOperation`).
  func operate(_ op: BinaryOperator, _ left: Value, _ right: Value)
    -> Outcome<Value>

  /// `value` as the expression line holds it now.
  func operand(_ value: Value) -> Operand
}

/// What an operation gives: a value, or the error it meets (an error of calculation is a state,
/// never thrown).
package enum Outcome<Value> {
  /// The result.
  case success(Value)
  /// The error shown instead.
  case failure(CalculationError)
}

/// A piece of an expression line that the operator engine collects (Windows' history tokens).
package enum OperatorToken<Operand: Hashable & Sendable, Function: Hashable & Sendable>:
  Hashable, Sendable
{
  /// The space on either side of an operator.
  case space
  /// A binary operator.
  case op(BinaryOperator)
  /// A number.
  case operand(Operand)
  /// `(`.
  case open
  /// `)`.
  case close
  /// A function's name, with its opening bracket unless its operand is in brackets already.
  case function(Function, bracket: Bool)
  /// The closing `=`.
  case equals
}

extension OperatorToken: LineToken {
  /// Whether this is `(`.
  package var isOpen: Bool {
    if case .open = self { true } else { false }
  }
}

/// What a key that counts was, as far as the operator engine asks (`m_nLastCom`, `m_nTempCom`):
/// each brain says what its keys are.
package enum KeyKind: UInt8, Hashable, Sendable {
  /// No key yet, or a bracket just opened.
  case none
  /// A digit.
  case digit
  /// The decimal point.
  case point
  /// A binary operator.
  case binary
  /// A function of the value in the display (a unary key, percent).
  case function
  /// `~` on a number being typed in DEC or Scientific mode.
  case sign
  /// `(`.
  case open
  /// `)`.
  case close
  /// `=`.
  case equals
  /// Any other key that counts (a constant, `mr`, a clear).
  case other
}

/// The operator engine of Scientific and Programmer mode (SPEC §9, §10): the precedence stack,
/// brackets, the implied × before `(`, the repeated `=`, operator replacement, errors as states,
/// and the expression line collected as Windows' `CHistoryCollector` collects it — once, for
/// every mode that has precedence, configured by the mode's ``OperatorRules``.
///
/// The state and the transitions follow Windows' `CCalcEngine` (microsoft/calculator,
/// `src/CalcManager/CEngine/scicomm.cpp`), whose variables are named in the comments, and its
/// expression line follows `CHistoryCollector` (`History.cpp`), token for token. It differs where
/// SPEC §9 decides: the result is always the calculation the line shows (replacing a waiting
/// operator by one of lower precedence resolves as if the new one had been typed).
///
/// A brain (``ScientificBrain``, ``ProgrammerBrain``) keeps what is its own — the number being
/// typed, its keys, rule 14's table, its functions — and calls the stack for the rest; a key
/// that counts tells the stack first (``count(_:)``).
package struct OperatorStack<Rules: OperatorRules>: Hashable, Sendable {
  package typealias Value = Rules.Value
  /// A piece of the expression line.
  package typealias Token = OperatorToken<Rules.Operand, Rules.Function>
  /// The expression line.
  package typealias Line = TokenLine<Token>

  /// A pending operation or a bracket's mark on the precedence stack (`m_precedenceVals`,
  /// `m_nPrecOp`; a `nil` operator marks a bracket), or what a bracket saved (`m_parenVals`,
  /// `m_nOp`).
  package struct Pending: Hashable, Sendable {
    var value: Value
    var op: BinaryOperator?
  }

  /// The most brackets open at once, and the depth of the precedence stack (`MAXPRECDEPTH`).
  package static var maximumDepth: Int { 25 }

  // MARK: - State (Windows' names in brackets)

  /// The mode's rules, with what they read besides the values (the word size, F-E).
  package var rules: Rules
  /// The current value (`m_currentVal`).
  package var current: Value
  /// The left operand of the pending operation (`m_lastVal`).
  var last: Value
  /// The right operand that a repeated `=` uses (`m_holdVal`).
  var hold: Value
  /// The precedence stack, at most 25 deep (`m_precedenceVals`, `m_nPrecOp`).
  var pending: [Pending] = []
  /// The open brackets, at most 25 (`m_parenVals`, `m_nOp`).
  var brackets: [Pending] = []
  /// The expression being collected (`CHistoryCollector`'s tokens and indices).
  var tokens = Line()
  var operandStarts: [Int] = []
  var lastOperandStart = -1
  var lastOperatorStart = -1
  /// The expression line on screen: the tokens when Windows last showed them.
  package private(set) var shownLine = Line()
  /// The pending operator (`m_nOpCode`).
  var op: BinaryOperator?
  /// The operator that ran last (`m_nPrevOpCode`).
  var previousOp: BinaryOperator?
  /// The key before the one being pressed (`m_nLastCom`) and the one being pressed
  /// (`m_nTempCom`).
  package var lastKey = KeyKind.none
  package var thisKey = KeyKind.none
  /// Whether ``op`` waits for its right operand (`m_bChangeOp`).
  var changeOp = false
  /// Whether no `=` came since the last operator (`m_bNoPrevEqu`).
  var noPreviousEquals = true
  /// Whether the last operator pushed the pending one onto ``pending`` (calc's own: what
  /// replacing it by one of lower precedence undoes).
  var lastOperatorPushed = false
  var lastOperandIsBracketed = false
  /// The error shown, if any (`m_bError`).
  package private(set) var error: CalculationError?

  /// A fresh calculation under `rules`: `0`, nothing pending.
  package init(_ rules: Rules) {
    self.rules = rules
    current = Rules.zero
    last = Rules.zero
    hold = Rules.zero
  }

  /// The number of brackets open.
  package var openBrackets: Int { brackets.count }

  /// Whether an operation waits for its right operand or a bracket is open; never while an
  /// error is shown, since no key but a digit, a bit key, AC or CE then acts (rule 14), as in
  /// Standard mode.
  package var isPending: Bool {
    error == nil && ((changeOp && op != nil) || !pending.isEmpty || !brackets.isEmpty)
  }

  /// Whether nothing is pending, open or collected and nothing was computed that a new number
  /// and its operator would not overwrite: no error, no operator waiting or remembered, no
  /// bracket, an empty line (``ScientificBrain``'s settled state, after `=`).
  var isSettled: Bool {
    error == nil && !changeOp && previousOp == nil && thisKey != .close && pending.isEmpty
      && brackets.isEmpty && tokens.isEmpty && lastOperandStart == -1 && lastOperatorStart == -1
      && operandStarts.isEmpty && !lastOperandIsBracketed
  }

  /// The heap bytes of the stack's arrays (a header of four words and its capacity each) and of
  /// its lines' chunks (``TokenLine/heapBytes``, the shown line's counted as if it shared none).
  var heapBytes: Int {
    32 * 3 + (pending.capacity + brackets.capacity) * MemoryLayout<Pending>.stride
      + tokens.heapBytes + shownLine.heapBytes + operandStarts.capacity * MemoryLayout<Int>.stride
  }

  // MARK: - Keys

  /// A key that counts as the last key is being pressed: what it was becomes the last key
  /// (`m_nLastCom = m_nTempCom`); a key that only sets something (a memory key, a radix) does not
  /// count. A finished calculation's line leaves the screen at any key after `=`.
  @inline(__always)
  package mutating func count(_ key: KeyKind?) {
    if let key {
      lastKey = thisKey
      thisKey = key
    }
    if !noPreviousEquals { shownLine = Line() }
  }

  /// The key pressed was found to do nothing: the next key does not see it as the last one
  /// (`HandleErrorCommand`).
  @inline(__always)
  package mutating func forget() {
    thisKey = lastKey
  }

  /// A number starts being typed: an operand it replaces leaves the line, except right after
  /// `)`, where the implied × comes first.
  @inline(__always)
  package mutating func startNumber() {
    if lastKey != .close { addLastOperatorToLine() }
  }

  /// A value replaces the current one without a function (a constant, a recalled value, a bit
  /// flipped): what it replaces leaves the line (`CheckAndAddLastBinOpToHistory`).
  @inline(__always)
  package mutating func replaceOperand(with value: Value) {
    addLastOperatorToLine()
    current = value
  }

  /// A value is recalled into the display, as `mr` does (a counting key of no kind of its own):
  /// like a constant, it replaces the current value.
  @inline(__always)
  package mutating func recall(_ value: Value) {
    lastKey = thisKey
    thisKey = .other
    if !noPreviousEquals { shownLine = Line() }
    replaceOperand(with: value)
  }

  /// A function of the value in the display is about to apply: right after an operator it acts
  /// on the left operand, and the line wraps the operand in `name`. The brain then computes the
  /// function of ``current``.
  @inline(__always)
  package mutating func beginFunction(_ name: Rules.Function) {
    if lastKey == .binary { current = last }
    if lastOperandStart == -1 { addOperandToLine(current) }
    addFunctionToLine(name)
  }

  /// The value in the display right after an operator is the left operand (percent's `Y`
  /// there, and what a bit key flips).
  @inline(__always)
  package mutating func takeLeftOperandAfterOperator() {
    if lastKey == .binary { current = last }
  }

  /// The operator waiting for its right operand and its left operand, if one waits.
  package var waitingOperation: (op: BinaryOperator, left: Value)? {
    guard changeOp, let op else { return nil }
    return (op, last)
  }

  /// Shows `error` (`m_bError`); an error already shown stays.
  @inline(__always)
  package mutating func fail(_ error: CalculationError) {
    guard self.error == nil else { return }
    self.error = error
  }

  // MARK: - Binary operators

  /// A binary operator: after another operator it replaces that one (SPEC §9), else it runs
  /// what binds at least as tightly and waits for its right operand.
  package mutating func binary(_ new: BinaryOperator) {
    if lastKey == .binary {
      let replaced = op
      if let replaced, new.precedence < replaced.precedence,
        lastOperatorPushed, let top = pending.last, top.op != nil
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
      if let previousOp, let replaced,
        replaced.precedence <= previousOp.precedence, new.precedence > previousOp.precedence
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
  private mutating func pushOperator(_ new: BinaryOperator) {
    if lastOperandStart == -1 { addOperandToLine(current) }
    lastOperatorPushed = false
    if changeOp {
      var pendingOp = op
      while true {
        if let waiting = pendingOp, new.precedence > waiting.precedence {
          if pending.count < Self.maximumDepth {
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
        if precedence(ran) <= topOp.precedence { encloseInBrackets() }
        popOperandStart()
      }
    }
    last = current
    op = new
    addOperatorToLine(new)
    noPreviousEquals = true
    // Unread until the next `=` sets it (``resolveTop()``): cleared, so that the state after a
    // new number and its operator is the same whatever `=` held before (``isSettled``).
    hold = Rules.zero
    changeOp = true
  }

  /// The precedence of `op`, 0 for none.
  private func precedence(_ op: BinaryOperator?) -> Int {
    op?.precedence ?? 0
  }

  // MARK: - Brackets and equals

  /// `(`: opens a level, after the × it implies after a digit, a point, a function or `)`.
  package mutating func openBracket() {
    if brackets.count >= Self.maximumDepth
      || (pending.count >= Self.maximumDepth && pending.last?.op != nil)
    {
      forget()
      return
    }
    var afterOperator = lastKey == .binary
    switch lastKey {
    case .digit, .point, .function, .close:
      // An omitted × (Windows presses it itself, after which the last key is the bracket).
      if !noPreviousEquals { shownLine = Line() }
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
    if pending.count < Self.maximumDepth {
      pending.append(Pending(value: Rules.zero, op: nil))
    }
    last = Rules.zero
    if afterOperator { current = Rules.zero }
    thisKey = .none
    op = nil
    changeOp = false
  }

  /// `)`: runs what is pending inside the innermost bracket; ignored when none is open, and
  /// (as Windows ignores it) when the precedence stack is full with an operator on top.
  package mutating func closeBracket() {
    closeBracket(evenWhenFull: false)
  }

  /// `)`, or the `)` that `=` presses itself (`evenWhenFull`): that one closes the bracket even
  /// when the precedence stack is full. Closing takes no room on the stack; Windows' engine
  /// ignores it there too, and its `=`, which presses `)` until no bracket is open, then never
  /// ends (found by calc-fuzz: `sci +9((((((((((+9(+9((((((((((+9(=` hung).
  private mutating func closeBracket(evenWhenFull: Bool) {
    guard !brackets.isEmpty,
      evenWhenFull || !(pending.count >= Self.maximumDepth && pending.last?.op != nil)
    else {
      forget()
      return
    }
    if lastKey == .binary { current = last }
    if lastOperandStart == -1 { addOperandToLine(current) }
    current = operate(op, current, last)
    previousOp = op
    while let top = pending.popLast(), let topOp = top.op {
      if precedence(previousOp) <= topOp.precedence { encloseInBrackets() }
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
  package mutating func equals() {
    while !brackets.isEmpty, error == nil {
      // Windows presses `)` itself, with `=`'s last key as the last key.
      thisKey = .close
      if !noPreviousEquals { shownLine = Line() }
      closeBracket(evenWhenFull: true)
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
      if precedence(previousOp) <= precedence(top.op) { encloseInBrackets() }
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

  /// `last op x` under the rules (`DoOperation`, whose operands come the other way round); on
  /// an error, `x`.
  private mutating func operate(_ op: BinaryOperator?, _ x: Value, _ last: Value) -> Value {
    guard let op else { return x }
    switch rules.operate(op, last, x) {
    case .success(let value): return value
    case .failure(let error):
      fail(error)
      return x
    }
  }

  // MARK: - The expression line (CHistoryCollector)

  /// Appends `value` to the line as an operand; `shown` shows the line at once.
  package mutating func addOperandToLine(_ value: Value, shown: Bool = false) {
    tokens.append(.operand(rules.operand(value)))
    lastOperandStart = tokens.count - 1
    if shown { shownLine = tokens }
    lastOperandIsBracketed = false
    lastOperatorStart = -1
  }

  /// Appends `op` with a space on either side; `shows` shows the line at once.
  package mutating func addOperatorToLine(_ op: BinaryOperator, shows: Bool = true) {
    lastOperatorStart = tokens.count
    tokens.append(.space)
    tokens.append(.op(op))
    tokens.append(.space)
    if shows { shownLine = tokens }
    lastOperandStart = -1
  }

  /// Wraps the last operand in `name`, and shows the line.
  package mutating func addFunctionToLine(_ name: Rules.Function) {
    let start = max(0, min(lastOperandStart, tokens.count))
    tokens.insert(.function(name, bracket: !lastOperandIsBracketed), at: start)
    if !lastOperandIsBracketed { tokens.append(.close) }
    shownLine = tokens
    lastOperandIsBracketed = false
    lastOperatorStart = -1
  }

  /// Closes the line with `=` and shows it (an entry that failed as `=` ended it).
  package mutating func addEqualsToLine() {
    tokens.append(.equals)
    shownLine = tokens
  }

  private mutating func truncateLine(from index: Int) {
    tokens.removeSubrange(from: index)
  }

  private mutating func pushOperandStart(_ index: Int) {
    if operandStarts.count < Self.maximumDepth { operandStarts.append(index) }
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
    tokens = Line()
    lastOperandStart = -1
    lastOperatorStart = -1
    operandStarts = []
    lastOperandIsBracketed = false
  }

  /// What Windows' `CheckAndAddLastBinOpToHistory` does when a new operand starts: an operand
  /// that the new one replaces leaves the line (`1 + √(4)` then `5`), and a finished unary
  /// calculation completes its line.
  package mutating func addLastOperatorToLine() {
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
