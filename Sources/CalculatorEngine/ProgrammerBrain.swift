import CalcDecimal

/// Programmer mode's calculation (SPEC §10): integers in two's complement in a word of 8 to 64
/// bits, four radixes, bitwise operators, shifts and rotates, brackets and precedence, key for
/// key as Windows Calculator's engine computes them.
///
/// The transitions follow Windows' `CCalcEngine` in integer mode, as ``ScientificBrain`` does
/// in Scientific mode (the same precedence stack, brackets, `=` repeat and expression line),
/// with values held as `Int64`: every value is the word's bits read as signed (sign-extended to
/// 64 bits), so a word-size key truncates and re-reads the bits, and every result wraps to the
/// word. It differs from Windows where SPEC §10 decides: the line always equals the result,
/// each shift and rotate is named on the line, rule 14 holds while an error is shown, and a
/// word-size key during an error clears it and sets the size. Keys that Windows would silently
/// ignore (`.`, `%`, a digit the radix lacks) are rejected before they reach a brain
/// (``Calculator/firstKeyOutOfMode(in:)``); pressed on a bare brain they do nothing.
///
/// Memory keys belong to ``Calculator``, which passes what they need.
public struct ProgrammerBrain: Hashable, Sendable {
  /// A binary operator, with Windows' precedence.
  public enum Operator: UInt8, Hashable, Sendable {
    case plus, minus, multiply, divide, mod, leftShift, rightShift, logicalRightShift
    case and, or, xor, nand, nor

    /// `or xor` 0, `and nand nor` 1, `+ −` 2, `× ÷ mod lsh rsh rshl` 3 (`NPrecedenceOfOp`).
    var precedence: Int {
      switch self {
      case .or, .xor: 0
      case .and, .nand, .nor: 1
      case .plus, .minus: 2
      case .multiply, .divide, .mod, .leftShift, .rightShift, .logicalRightShift: 3
      }
    }

    /// How the expression line writes it: `+`, `×`, `Mod`, `Lsh`, `RshL`, `AND`, `NOR`, ….
    public var title: String {
      switch self {
      case .plus: "+"
      case .minus: "-"
      case .multiply: "×"
      case .divide: "÷"
      case .mod: "Mod"
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

  /// A function of the value in the display, as the expression line names it.
  public enum Function: UInt8, Hashable, Sendable {
    case not, negate, rotateLeft, rotateRight, rotateLeftThroughCarry, rotateRightThroughCarry

    /// `NOT`, `negate`, `RoL`, `RoR`, `RoLC`, `RoRC`.
    public var title: String {
      switch self {
      case .not: "NOT"
      case .negate: "negate"
      case .rotateLeft: "RoL"
      case .rotateRight: "RoR"
      case .rotateLeftThroughCarry: "RoLC"
      case .rotateRightThroughCarry: "RoRC"
      }
    }
  }

  /// A piece of the expression line (Windows' history tokens).
  public enum Token: Hashable, Sendable {
    /// The space on either side of an operator.
    case space
    /// A binary operator.
    case op(Operator)
    /// A number, the word's bits read as signed; shown in the radix of the moment.
    case operand(Int64)
    /// `(`.
    case open
    /// `)`.
    case close
    /// A function's name with its opening bracket, unless its operand is in brackets already.
    case function(Function, bracket: Bool)
    /// The closing `=`.
    case equals
  }

  /// What the last key that counts was (`m_nLastCom`), as far as the rules ask.
  enum LastKey: UInt8, Hashable, Sendable {
    case none, digit, binary, function, sign, open, close, equals, other
  }

  /// A pending operation or a bracket's mark on the precedence stack.
  struct Pending: Hashable, Sendable {
    var value: Int64
    var op: Operator?
  }

  /// The number being typed: its magnitude and, in DEC, its sign.
  public struct Entry: Hashable, Sendable {
    /// The digits typed, as a number (in DEC the magnitude, else the bits).
    public var magnitude: UInt64 = 0
    /// Whether `~` made a DEC entry negative.
    public var isNegative = false
  }

  /// The radix of the display and of typed digits.
  public private(set) var radix = Key.Radix.dec
  /// The word size.
  public private(set) var wordSize = Key.WordSize.qword
  /// The rotate-through-carry bit (`m_carryBit`): cleared by AC, a mode switch and a digit that
  /// starts afresh after an error; kept by CE, radix and word-size keys.
  public private(set) var carry = false
  /// The number being typed while ``isTyping``.
  public private(set) var input = Entry()
  /// Whether a number is being typed (`m_bRecord`).
  public private(set) var isTyping = false
  /// The value in the display when not typing (`m_currentVal`).
  var current: Int64 = 0
  /// The left operand of the pending operation (`m_lastVal`).
  var last: Int64 = 0
  /// The right operand that `=` repeats (`m_holdVal`).
  var hold: Int64 = 0
  var op: Operator?
  var previousOp: Operator?
  var lastKey = LastKey.none
  var thisKey = LastKey.none
  var pending: [Pending] = []
  var brackets: [Pending] = []
  var changeOp = false
  var noPreviousEquals = true
  var lastOperatorPushed = false
  /// The error shown, if any.
  public private(set) var error: CalculatorBrain.CalculationError?
  var tokens = ProgrammerTokens()
  var lastOperandStart = -1
  var lastOperatorStart = -1
  var operandStarts: [Int] = []
  var lastOperandIsBracketed = false
  /// The expression line as shown.
  public private(set) var shownLine = ProgrammerTokens()

  /// The deepest brackets and pending operations nest (Windows' `MAXPRECDEPTH`).
  public static let maximumDepth = 25

  /// A fresh calculation: DEC, QWORD, `0`, the carry clear.
  public static let initial = ProgrammerBrain()

  /// A fresh calculation with the given word size, as the key `prog` leaves it.
  public init(wordSize: Key.WordSize = .qword) {
    self.wordSize = wordSize
  }

  /// The heap bytes of a boxed brain: the box, each array's storage, and the expression lines'
  /// chunks (``TokenLine/heapBytes``, the shown line's counted as if it shared none).
  var heapBytes: Int {
    16 + MemoryLayout<ProgrammerBrain>.stride + 32 * 3
      + (pending.capacity + brackets.capacity) * MemoryLayout<Pending>.stride
      + tokens.heapBytes + shownLine.heapBytes
      + operandStarts.capacity * MemoryLayout<Int>.stride
  }

  /// The number of brackets open.
  public var openBrackets: Int { brackets.count }

  /// The value in the display, the word's bits read as signed; `nil` while an error is shown.
  public var value: Int64? {
    if error != nil { return nil }
    return isTyping ? entryValue : current
  }

  /// What the display shows.
  public var display: CalculatorBrain.Display {
    if let error { return .error(error) }
    // A DEC entry made negative before its digits shows `0`, as Windows shows it.
    return .programmer(
      ProgrammerValue(value: isTyping ? entryValue : current, radix: radix, wordSize: wordSize))
  }

  /// The value in the display as a decimal, or `nil` while an error is shown.
  public var displayedValue: Decimal34? {
    value.map { Decimal34(coefficient: UInt128($0.magnitude), exponent: 0, isNegative: $0 < 0) }
  }

  /// Whether an operation waits for its right operand or a bracket is open; never while an
  /// error is shown, since no key but a digit, a bit key, AC or CE then acts (rule 14), as in
  /// Standard mode.
  public var isPending: Bool {
    error == nil && ((changeOp && op != nil) || !pending.isEmpty || !brackets.isEmpty)
  }

  /// The value of the typed entry.
  var entryValue: Int64 {
    if radix == .dec && input.isNegative {
      return Self.wrap(0 &- input.magnitude, wordSize)
    }
    return Self.wrap(input.magnitude, wordSize)
  }

  /// The bits `bits` of a word of `size`, read as signed and sign-extended to 64 bits.
  static func wrap(_ bits: UInt64, _ size: Key.WordSize) -> Int64 {
    let shift = UInt64(64 - size.bits)
    return Int64(bitPattern: bits << shift) >> Int64(shift)
  }

  /// `value` wrapped to a word of `size`.
  static func wrap(_ value: Int64, _ size: Key.WordSize) -> Int64 {
    wrap(UInt64(bitPattern: value), size)
  }

  /// The word's bits of `value`, as an unsigned number below 2^bits.
  static func pattern(_ value: Int64, _ size: Key.WordSize) -> UInt64 {
    let bits = UInt64(bitPattern: value)
    return size.bits == 64 ? bits : bits & ((1 << UInt64(size.bits)) - 1)
  }

  // MARK: - Keys

  /// Presses `key`. Memory keys come here only as ``endEntry()`` and ``recall(_:)``; keys of
  /// other modes, `.`, `%` and digits the radix lacks do nothing.
  mutating func press(_ key: Key) {
    if error != nil {
      // Rule 14: a digit or a bit key starts afresh (the carry cleared), AC and CE clear, a
      // radix or word-size key clears and sets; every other key leaves the error.
      switch key {
      case .digit, .hexDigit, .bit:
        clear()
        isTyping = false
      case .command(.clear), .command(.clearEntry):
        clear()
        return
      case .radix, .wordSize:
        let size = wordSize
        let radix = radix
        let carry = carry
        clear()
        self.wordSize = size
        self.radix = radix
        self.carry = carry
      case .dot, .op, .equal, .command, .unary, .memory, .bracket, .binary, .function, .constant,
        .exponent, .fixedToExponential, .angle, .mode, .reference, .bitwise, .not, .shift, .rotate:
        return
      }
    }
    if thisKey == .close, key.startsAnOperand {
      // The × that a digit right after `)` implies is pressed, then the key (SPEC §9).
      press(.op(.multiply))
      press(key)
      return
    }
    let isSetting: Bool
    switch key {
    case .command(.backspace), .radix, .wordSize, .memory(.store), .memory(.add),
      .memory(.subtract), .memory(.clear), .angle, .exponent, .fixedToExponential, .reference:
      isSetting = true
    case .digit, .dot, .op, .equal, .command, .unary, .memory, .bracket, .binary, .function,
      .constant, .mode, .hexDigit, .bitwise, .not, .shift, .rotate, .bit:
      isSetting = false
    }
    if !isSetting {
      lastKey = thisKey
      thisKey = LastKey(key, radix: radix)
    }
    if !noPreviousEquals { shownLine = [] }
    // Toggle between typing and showing a value.
    if isTyping {
      let ends: Bool
      switch key {
      case .op, .binary, .bitwise, .shift, .not, .rotate, .bit, .equal, .memory, .bracket,
        .radix, .wordSize, .unary, .function, .constant, .fixedToExponential, .angle:
        ends = true
      case .command(.flip):
        ends = radix != .dec
      case .digit, .hexDigit, .dot, .command, .exponent, .mode, .reference:
        ends = false
      }
      if ends {
        isTyping = false
        current = entryValue
      }
    } else {
      switch key {
      case .digit, .hexDigit: startTyping()
      case .dot, .op, .equal, .command, .unary, .memory, .bracket, .binary, .function, .constant,
        .exponent, .fixedToExponential, .angle, .mode, .reference, .radix, .wordSize, .bitwise,
        .not, .shift, .rotate, .bit:
        break
      }
    }
    switch key {
    case .digit(let digit): type(digit.value)
    case .hexDigit(let digit): type(digit.value)
    case .op(let op): binary(Operator(op))
    case .binary(.mod): binary(.mod)
    case .bitwise(let bitwise): binary(Operator(bitwise))
    case .shift(let shift): binary(Operator(shift))
    case .not: apply(.not) { value, _ in ~value }
    case .rotate(let rotate):
      apply(Function(rotate)) { value, brain in brain.rotate(value, rotate) }
    case .bit(let bit):
      // Like a unary key, on the left operand after an operator; the result is a new operand.
      guard bit.number < wordSize.bits else {
        forget()
        return
      }
      if lastKey == .binary { current = last }
      addLastOperatorToLine()
      current = Self.wrap(current ^ (1 << Int64(bit.number)), wordSize)
    case .command(.flip):
      if isTyping {
        input.isNegative.toggle()
      } else {
        apply(.negate) { value, _ in 0 &- value }
      }
    case .command(.clear): clear()
    case .command(.clearEntry): clearEntry()
    case .command(.backspace):
      if isTyping { input.magnitude /= radix.base }
    case .equal: equals()
    case .bracket(.open): openBracket()
    case .bracket(.close): closeBracket()
    case .radix(let radix): self.radix = radix
    case .wordSize(let size):
      wordSize = size
      current = Self.wrap(current, size)
    case .dot, .command(.percent), .unary, .binary, .function, .constant, .exponent,
      .fixedToExponential:
      // Not keys of Programmer mode: a session never presses one here.
      forget()
    case .memory, .angle, .mode, .reference:
      // `$N` is resolved by the session and recalled as `mr` (``recall(_:)``).
      break
    }
  }

  /// Ends the number being typed, as `ms`, `m+`, `m-`, `mc` and a new line do.
  mutating func endEntry() {
    guard error == nil, isTyping else { return }
    isTyping = false
    current = entryValue
  }

  /// Recalls `value` into the display, as `mr` does: truncated toward zero and wrapped to the
  /// word (SPEC §10: memory holds exact values, shown truncated to the current word).
  mutating func recall(_ value: Decimal34) {
    guard error == nil else { return }
    lastKey = thisKey
    thisKey = .other
    if !noPreviousEquals { shownLine = [] }
    isTyping = false
    addLastOperatorToLine()
    current = Self.wrap(Self.truncatedBits(value), wordSize)
  }

  /// The integer part of `value` modulo 2^64, as bits.
  static func truncatedBits(_ value: Decimal34) -> UInt64 {
    var coefficient = value.coefficient
    var exponent = Int(value.exponent)
    while exponent < 0 {
      if coefficient == 0 { break }
      coefficient /= 10
      exponent += 1
    }
    // 10^64 is a multiple of 2^64: larger exponents leave 0.
    var bits = UInt64(truncatingIfNeeded: coefficient)
    for _ in 0..<min(max(exponent, 0), 64) { bits = bits &* 10 }
    if exponent >= 64 { bits = 0 }
    return value.isNegative ? 0 &- bits : bits
  }

  /// Types `digit` (its value below the radix): refused where the value would no longer fit the
  /// word — in DEC at the signed limit, in the other radixes at the width (SPEC §10).
  private mutating func type(_ digit: UInt8) {
    let base = radix.base
    guard UInt64(digit) < base else {
      forget()
      return
    }
    let (shifted, overflow) = input.magnitude.multipliedReportingOverflow(by: base)
    let (next, carried) = shifted.addingReportingOverflow(UInt64(digit))
    let limit: UInt64
    let bits = UInt64(wordSize.bits)
    if radix == .dec {
      limit = input.isNegative ? 1 << (bits - 1) : (1 << (bits - 1)) - 1
    } else {
      limit = bits == 64 ? .max : (1 << bits) - 1
    }
    guard !overflow, !carried, next <= limit else {
      forget()
      return
    }
    input.magnitude = next
  }

  /// The key pressed was found to do nothing: the next key does not see it as the last one.
  private mutating func forget() {
    thisKey = lastKey
  }

  private mutating func startTyping() {
    isTyping = true
    input = Entry()
    if lastKey != .close { addLastOperatorToLine() }
  }

  /// Everything cleared, as AC does: the carry too; radix and word size kept.
  private mutating func clear() {
    self = ProgrammerBrain(wordSize: wordSize, radix: radix)
    isTyping = true
  }

  private init(wordSize: Key.WordSize, radix: Key.Radix) {
    self.wordSize = wordSize
    self.radix = radix
  }

  /// The entry cleared, as CE does: brackets, pending operations and the carry stay.
  private mutating func clearEntry() {
    input = Entry()
    isTyping = true
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
          if pending.count < ProgrammerBrain.maximumDepth {
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
    changeOp = true
  }

  // MARK: - Functions

  /// A function of the value in the display (the left operand right after an operator).
  private mutating func apply(
    _ function: Function, _ body: (Int64, inout ProgrammerBrain) -> Int64
  ) {
    if lastKey == .binary { current = last }
    if lastOperandStart == -1 { addOperandToLine(current) }
    addFunctionToLine(function)
    current = Self.wrap(body(current, &self), wordSize)
  }

  /// `value` rotated by one bit within the word, the carry versions through ``carry``.
  private mutating func rotate(_ value: Int64, _ rotate: Key.Rotate) -> Int64 {
    let bits = UInt64(wordSize.bits)
    let word = Self.pattern(value, wordSize)
    let top: UInt64 = 1 << (bits - 1)
    let result: UInt64
    switch rotate {
    case .left: result = word << 1 | (word & top != 0 ? 1 : 0)
    case .right: result = word >> 1 | (word & 1 != 0 ? top : 0)
    case .leftThroughCarry:
      result = word << 1 | (carry ? 1 : 0)
      carry = word & top != 0
    case .rightThroughCarry:
      result = word >> 1 | (carry ? top : 0)
      carry = word & 1 != 0
    }
    return Self.wrap(result, wordSize)
  }

  // MARK: - Brackets and equals

  private mutating func openBracket() {
    guard brackets.count < ProgrammerBrain.maximumDepth,
      pending.count < ProgrammerBrain.maximumDepth
    else {
      forget()
      return
    }
    var afterOperator = lastKey == .binary
    switch lastKey {
    case .digit, .function, .close:
      // An omitted × (Windows presses it itself, after which the last key is the bracket).
      if !noPreviousEquals { shownLine = [] }
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
    if pending.count < ProgrammerBrain.maximumDepth {
      pending.append(Pending(value: 0, op: nil))
    }
    last = 0
    if afterOperator { current = 0 }
    thisKey = .none
    op = nil
    changeOp = false
  }

  private mutating func closeBracket() {
    guard !brackets.isEmpty,
      !(pending.count >= ProgrammerBrain.maximumDepth && pending.last?.op != nil)
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
      if !noPreviousEquals { shownLine = [] }
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

  /// Runs the pending operation, or repeats it after a first `=`.
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

  /// `last op x`, wrapped to the word; on an error, `x`.
  private mutating func operate(_ op: Operator?, _ x: Int64, _ last: Int64) -> Int64 {
    guard let op else { return x }
    let bits = wordSize.bits
    let result: Int64
    switch op {
    case .plus: result = last &+ x
    case .minus: result = last &- x
    case .multiply: result = last &* x
    case .divide:
      guard x != 0 else {
        fail(last == 0 ? .undefined : .divideByZero)
        return x
      }
      result = last.dividedReportingOverflow(by: x).partialValue
    case .mod:
      guard x != 0 else {
        fail(.undefined)
        return x
      }
      result = last.remainderReportingOverflow(dividingBy: x).partialValue
    case .leftShift, .rightShift, .logicalRightShift:
      guard x >= 0, x < Int64(bits) else {
        fail(.notDefined)
        return x
      }
      switch op {
      case .leftShift: result = Int64(bitPattern: UInt64(bitPattern: last) << UInt64(x))
      case .rightShift: result = last >> x
      default: result = Int64(bitPattern: Self.pattern(last, wordSize) >> UInt64(x))
      }
    case .and: result = last & x
    case .or: result = last | x
    case .xor: result = last ^ x
    case .nand: result = ~(last & x)
    case .nor: result = ~(last | x)
    }
    return Self.wrap(result, wordSize)
  }

  /// Shows `error`, as a `$N` key that recalls a line ending in it does (SPEC §11); an error
  /// already shown stays.
  mutating func showError(_ error: CalculatorBrain.CalculationError) { fail(error) }

  private mutating func fail(_ error: CalculatorBrain.CalculationError) {
    guard self.error == nil else { return }
    self.error = error
  }

  // MARK: - The expression line (CHistoryCollector)

  private mutating func addOperandToLine(_ value: Int64, shown: Bool = false) {
    tokens.append(.operand(value))
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

  private mutating func addFunctionToLine(_ function: Function) {
    let start = max(0, min(lastOperandStart, tokens.count))
    tokens.insert(.function(function, bracket: !lastOperandIsBracketed), at: start)
    if !lastOperandIsBracketed { tokens.append(.close) }
    shownLine = tokens
    lastOperandIsBracketed = false
    lastOperatorStart = -1
  }

  private mutating func truncateLine(from index: Int) {
    if index >= 0, index < tokens.count { tokens.removeSubrange(from: index) }
  }

  private mutating func pushOperandStart(_ index: Int) {
    if operandStarts.count < ProgrammerBrain.maximumDepth { operandStarts.append(index) }
  }

  private mutating func popOperandStart() {
    if let start = operandStarts.popLast() { lastOperandStart = start }
  }

  /// Brackets around what follows the innermost open operand.
  private mutating func encloseInBrackets() {
    let start = operandStarts.last ?? 0
    tokens.insert(.open, at: max(0, min(start, tokens.count)))
    tokens.append(.close)
  }

  private mutating func resetLine() {
    tokens = []
    lastOperandStart = -1
    lastOperatorStart = -1
    operandStarts = []
    lastOperandIsBracketed = false
  }

  /// What Windows' `CheckAndAddLastBinOpToHistory` does when a new operand starts.
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

/// A value of Programmer mode as the display shows it: the word's bits in a radix.
public struct ProgrammerValue: Hashable, Sendable {
  /// The word's bits read as signed.
  public var value: Int64
  /// The radix shown.
  public var radix: Key.Radix
  /// The word size.
  public var wordSize: Key.WordSize

  /// A value shown in `radix` in a word of `wordSize`.
  public init(
    value: Int64, radix: Key.Radix, wordSize: Key.WordSize
  ) {
    self.value = value
    self.radix = radix
    self.wordSize = wordSize
  }

  /// The digits of the radix alone, as `--plain` and pipes show them (SPEC §10): the signed
  /// value in DEC (`-5`), the word's bits in HEX (upper case), OCT and BIN (`75BCD15`, `111`).
  public var plainDigits: String {
    if radix == .dec { return String(value) }
    return String(ProgrammerBrain.pattern(value, wordSize), radix: Int(radix.base), uppercase: true)
  }
}

extension ProgrammerBrain.Operator {
  init(_ op: Key.Op) {
    switch op {
    case .plus: self = .plus
    case .minus: self = .minus
    case .multiply: self = .multiply
    case .divide: self = .divide
    }
  }

  init(_ bitwise: Key.Bitwise) {
    switch bitwise {
    case .and: self = .and
    case .or: self = .or
    case .xor: self = .xor
    case .nand: self = .nand
    case .nor: self = .nor
    }
  }

  init(_ shift: Key.Shift) {
    switch shift {
    case .left: self = .leftShift
    case .right: self = .rightShift
    case .logicalRight: self = .logicalRightShift
    }
  }
}

extension ProgrammerBrain.Function {
  init(_ rotate: Key.Rotate) {
    switch rotate {
    case .left: self = .rotateLeft
    case .right: self = .rotateRight
    case .leftThroughCarry: self = .rotateLeftThroughCarry
    case .rightThroughCarry: self = .rotateRightThroughCarry
    }
  }
}

extension ProgrammerBrain.LastKey {
  init(_ key: Key, radix: Key.Radix) {
    switch key {
    case .digit, .hexDigit: self = .digit
    case .op, .binary, .bitwise, .shift: self = .binary
    case .not, .rotate, .unary, .function: self = .function
    case .command(.flip): self = radix == .dec ? .sign : .function
    case .bracket(.open): self = .open
    case .bracket(.close): self = .close
    case .equal: self = .equals
    case .dot, .command, .memory, .constant, .exponent, .fixedToExponential, .angle, .mode,
      .reference, .radix, .wordSize, .bit:
      self = .other
    }
  }
}
