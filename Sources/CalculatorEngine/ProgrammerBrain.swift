import CalcDecimal

/// Programmer mode's calculation (SPEC §10): integers in two's complement in a word of 8 to 64
/// bits, four radixes, bitwise operators, shifts and rotates, brackets and precedence, key for
/// key as Windows Calculator's engine computes them.
///
/// The precedence stack, brackets, the repeated `=` and the expression line are the operator
/// engine's (``OperatorStack``, shared with Scientific mode, as Windows' `CCalcEngine` serves
/// both) under Programmer mode's rules (``ProgrammerRules``), with values held as `Int64`: every
/// value is the word's bits read as signed (sign-extended to 64 bits), so a word-size key
/// truncates and re-reads the bits, and every result wraps to the word. What is Programmer
/// mode's own is here: the number being typed in a radix, the carry, `not`, rotates and bit
/// keys, and rule 14's table. It differs from Windows where SPEC §10 decides: the line always equals the result,
/// each shift and rotate is named on the line, rule 14 holds while an error is shown, and a
/// word-size key during an error clears it and sets the size. Keys that Windows would silently
/// ignore (`.`, `%`, a digit the radix lacks) are rejected before they reach a brain
/// (``Calculator/firstKeyOutOfMode(in:)``); pressed on a bare brain they do nothing.
///
/// Memory keys belong to ``Calculator``, which passes what they need.
package struct ProgrammerBrain: Hashable, Sendable {
  /// A function of the value in the display, as the expression line names it.
  package enum Function: UInt8, Hashable, Sendable {
    case not, negate, rotateLeft, rotateRight, rotateLeftThroughCarry, rotateRightThroughCarry

    /// `NOT`, `negate`, `RoL`, `RoR`, `RoLC`, `RoRC`.
    package var title: String {
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

  /// A piece of the expression line (Windows' history tokens): an operand is the word's bits
  /// read as signed, shown in the radix of the moment.
  package typealias Token = OperatorToken<Int64, Function>

  /// The number being typed: its magnitude and, in DEC, its sign.
  package struct Entry: Hashable, Sendable {
    /// The digits typed, as a number (in DEC the magnitude, else the bits).
    package var magnitude: UInt64 = 0
    /// Whether `~` made a DEC entry negative.
    package var isNegative = false
  }

  /// The precedence stack, brackets, the current value and the expression line, with the word
  /// size (``ProgrammerRules``).
  var stack: OperatorStack<ProgrammerRules>
  /// The number being typed while ``isTyping``.
  package private(set) var input = Entry()
  /// The radix of the display and of typed digits.
  package private(set) var radix = Key.Radix.dec
  /// The rotate-through-carry bit (`m_carryBit`): cleared by AC, a mode switch and a digit that
  /// starts afresh after an error; kept by CE, radix and word-size keys.
  package private(set) var carry = false
  /// Whether a number is being typed (`m_bRecord`).
  package private(set) var isTyping = false

  /// The deepest brackets and pending operations nest (Windows' `MAXPRECDEPTH`).
  package static let maximumDepth = 25

  /// A fresh calculation: DEC, QWORD, `0`, the carry clear.
  package static let initial = ProgrammerBrain()

  /// A fresh calculation with the given word size, as the key `prog` leaves it.
  package init(wordSize: Key.WordSize = .qword) {
    stack = OperatorStack(ProgrammerRules(wordSize: wordSize))
  }

  /// The word size.
  package var wordSize: Key.WordSize { stack.rules.wordSize }
  /// The error shown, if any.
  package var error: CalculationError? { stack.error }
  /// The expression line as shown.
  package var shownLine: ProgrammerTokens { stack.shownLine }
  /// The number of brackets open.
  package var openBrackets: Int { stack.openBrackets }

  /// The heap bytes of a boxed brain: the box (a header of two words, the value and a formula's
  /// text, SPEC §12) and the stack's arrays and lines (``OperatorStack/heapBytes``).
  var heapBytes: Int {
    16 + MemoryLayout<ProgrammerBrain>.stride + MemoryLayout<String?>.stride + stack.heapBytes
  }

  /// The value in the display, the word's bits read as signed; `nil` while an error is shown.
  package var value: Int64? {
    if error != nil { return nil }
    return isTyping ? entryValue : stack.current
  }

  /// What the display shows.
  package var display: Display {
    if let error { return .error(error) }
    // A DEC entry made negative before its digits shows `0`, as Windows shows it.
    return .programmer(
      ProgrammerValue(
        value: isTyping ? entryValue : stack.current, radix: radix, wordSize: wordSize))
  }

  /// The value in the display as a decimal, or `nil` while an error is shown.
  package var displayedValue: Number? {
    value.map { Number(Int($0)) }
  }

  /// Whether an operation waits for its right operand or a bracket is open; never while an
  /// error is shown, since no key but a digit, a bit key, AC or CE then acts (rule 14), as in
  /// Standard mode.
  package var isPending: Bool { stack.isPending }

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
      case .digit, .programmer(.hexDigit), .programmer(.bit):
        clear()
        isTyping = false
      case .command(.clear), .command(.clearEntry):
        clear()
        return
      case .programmer(.radix), .programmer(.wordSize):
        let carry = carry
        clear()
        self.carry = carry
      case .dot, .op, .equal, .command, .unary, .memory, .angle, .mode, .reference, .formula,
        .dateLine,
        .scientific,
        .programmer:
        return
      }
    }
    if stack.thisKey == .close, key.startsANumber {
      // The × that a digit right after `)` implies is pressed, then the key (SPEC §9).
      press(.op(.multiply))
      press(key)
      return
    }
    let isSetting: Bool
    switch key {
    case .command(.backspace), .memory(.store), .memory(.add), .memory(.subtract),
      .memory(.clear), .angle, .reference, .formula, .dateLine, .scientific(.exponent),
      .scientific(.fixedToExponential), .programmer(.radix), .programmer(.wordSize):
      isSetting = true
    case .digit, .dot, .op, .equal, .command, .unary, .memory, .mode, .scientific, .programmer:
      isSetting = false
    }
    stack.count(isSetting ? nil : KeyKind(programmer: key, radix: radix))
    // Toggle between typing and showing a value.
    if isTyping {
      let ends: Bool
      switch key {
      case .scientific(.exponent), .programmer(.hexDigit):
        ends = false
      case .op, .equal, .memory, .unary, .angle, .scientific, .programmer:
        ends = true
      case .command(.flip):
        ends = radix != .dec
      case .digit, .dot, .command, .mode, .reference, .formula, .dateLine:
        ends = false
      }
      if ends {
        isTyping = false
        stack.current = entryValue
      }
    } else {
      switch key {
      case .digit, .programmer(.hexDigit): startTyping()
      case .dot, .op, .equal, .command, .unary, .memory, .angle, .mode, .reference, .formula,
        .dateLine,
        .scientific,
        .programmer:
        break
      }
    }
    switch key {
    case .digit(let digit): type(digit.value)
    case .op(let op): stack.binary(BinaryOperator(op))
    case .command(.flip):
      if isTyping {
        // On a 0 (after AC or CE, or typed) it does nothing, as rule 9 says (SPEC §10, v5:
        // `prog c~5` → `5`, as Windows and the other modes).
        if input.magnitude != 0 { input.isNegative.toggle() }
      } else {
        apply(.negate) { value, _ in 0 &- value }
      }
    case .command(.clear): clear()
    case .command(.clearEntry): clearEntry()
    case .command(.backspace):
      if isTyping { input.magnitude /= radix.base }
    case .equal: stack.equals()
    case .scientific(.binary(.mod)): stack.binary(.mod)
    case .scientific(.bracket(.open)): stack.openBracket()
    case .scientific(.bracket(.close)): stack.closeBracket()
    case .programmer(let programmer): press(programmer)
    case .dot, .command(.percent), .unary, .scientific:
      // Not keys of Programmer mode: a session never presses one here.
      stack.forget()
    case .memory, .angle, .mode, .reference, .formula, .dateLine:
      // `$N` is resolved by the session and recalled as `mr` (``recall(_:)``).
      break
    }
  }

  /// Presses `key`, a key of Programmer mode's own.
  @inline(__always)
  private mutating func press(_ key: Key.Programmer) {
    switch key {
    case .hexDigit(let digit): type(digit.value)
    case .bitwise(let bitwise): stack.binary(BinaryOperator(bitwise))
    case .shift(let shift): stack.binary(BinaryOperator(shift))
    case .not: apply(.not) { value, _ in ~value }
    case .rotate(let rotate):
      apply(Function(rotate)) { value, brain in brain.rotate(value, rotate) }
    case .bit(let bit):
      // Like a unary key, on the left operand after an operator; the result is a new operand.
      guard bit.number < wordSize.bits else {
        stack.forget()
        return
      }
      stack.takeLeftOperandAfterOperator()
      stack.replaceOperand(with: Self.wrap(stack.current ^ (1 << Int64(bit.number)), wordSize))
    case .radix(let radix): self.radix = radix
    case .wordSize(let size):
      stack.rules.wordSize = size
      stack.current = Self.wrap(stack.current, size)
    }
  }

  /// Ends the number being typed, as `ms`, `m+`, `m-`, `mc` and a new line do.
  mutating func endEntry() {
    guard error == nil, isTyping else { return }
    isTyping = false
    stack.current = entryValue
  }

  /// Recalls `value` into the display, as `mr` does: truncated toward zero and wrapped to the
  /// word (SPEC §10: memory holds exact values, shown truncated to the current word).
  mutating func recall(_ value: Number) {
    guard error == nil else { return }
    isTyping = false
    // Truncated exactly first: a fraction just below an integer stays below it.
    let truncated = value.isNegative ? value.ceiling : value.floor
    stack.recall(Self.wrap(Self.truncatedBits(truncated.decimalValue), wordSize))
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
      stack.forget()
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
      stack.forget()
      return
    }
    input.magnitude = next
  }

  private mutating func startTyping() {
    isTyping = true
    input = Entry()
    stack.startNumber()
  }

  /// Everything cleared, as AC does: the carry too; radix and word size kept.
  private mutating func clear() {
    self = ProgrammerBrain(wordSize: wordSize, radix: radix)
    isTyping = true
  }

  private init(wordSize: Key.WordSize, radix: Key.Radix) {
    self.init(wordSize: wordSize)
    self.radix = radix
  }

  /// The entry cleared, as CE does: brackets, pending operations and the carry stay.
  private mutating func clearEntry() {
    input = Entry()
    isTyping = true
    stack.addLastOperatorToLine()
  }

  // MARK: - Functions

  /// A function of the value in the display (the left operand right after an operator).
  private mutating func apply(
    _ function: Function, _ body: (Int64, inout ProgrammerBrain) -> Int64
  ) {
    stack.beginFunction(function)
    stack.current = Self.wrap(body(stack.current, &self), wordSize)
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

  /// Shows `error`, as a `$N` key that recalls a line ending in it does (SPEC §11); an error
  /// already shown stays.
  mutating func showError(_ error: CalculationError) { stack.fail(error) }
}

/// Programmer mode's rules for the operator engine: integers in two's complement in a word of 8
/// to 64 bits, each result truncated toward zero and wrapped to the word (SPEC §10).
struct ProgrammerRules: OperatorRules {
  typealias Value = Int64
  typealias Operand = Int64
  typealias Function = ProgrammerBrain.Function

  /// The word size: every result wraps to it.
  var wordSize: Key.WordSize

  static var zero: Int64 { 0 }

  func operate(_ op: BinaryOperator, _ left: Int64, _ right: Int64)
    -> Outcome<Int64>
  {
    let result: Int64
    switch op {
    case .plus: result = left &+ right
    case .minus: result = left &- right
    case .multiply: result = left &* right
    case .divide:
      guard right != 0 else { return .failure(left == 0 ? .undefined : .divideByZero) }
      result = left.dividedReportingOverflow(by: right).partialValue
    case .mod:
      guard right != 0 else { return .failure(.undefined) }
      result = left.remainderReportingOverflow(dividingBy: right).partialValue
    case .leftShift, .rightShift, .logicalRightShift:
      guard right >= 0, right < Int64(wordSize.bits) else { return .failure(.notDefined) }
      switch op {
      case .leftShift: result = Int64(bitPattern: UInt64(bitPattern: left) << UInt64(right))
      case .rightShift: result = left >> right
      default:
        result = Int64(bitPattern: ProgrammerBrain.pattern(left, wordSize) >> UInt64(right))
      }
    case .and: result = left & right
    case .or: result = left | right
    case .xor: result = left ^ right
    case .nand: result = ~(left & right)
    case .nor: result = ~(left | right)
    case .power, .root, .logBase:
      // Scientific mode's operators: no key of Programmer mode gives one.
      return .failure(.invalidInput)
    }
    return .success(ProgrammerBrain.wrap(result, wordSize))
  }

  /// The line holds the word's bits read as signed; the radix of the moment shows them.
  func operand(_ value: Int64) -> Int64 { value }
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
  package init(
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

extension KeyKind {
  /// What Programmer mode's `key` is to the operator engine: `~` is a sign change while typing
  /// in DEC, else a function (it negates).
  init(programmer key: Key, radix: Key.Radix) {
    switch key {
    case .digit, .programmer(.hexDigit): self = .digit
    case .op, .scientific(.binary), .programmer(.bitwise), .programmer(.shift): self = .binary
    case .unary, .scientific(.function), .programmer(.not), .programmer(.rotate):
      self = .function
    case .command(.flip): self = radix == .dec ? .sign : .function
    case .scientific(.bracket(.open)): self = .open
    case .scientific(.bracket(.close)): self = .close
    case .equal: self = .equals
    case .dot, .command, .memory, .angle, .mode, .reference, .formula, .dateLine, .scientific,
      .programmer:
      self = .other
    }
  }
}
