import CalcDecimal

/// A button of the calculator: the book's `CalculatorButtonItem`, grouped by mode.
///
/// The book's `Op` also held `=`; here equals is its own case so that a pending operator can never
/// be `=`. CE, backspace, the unary keys and the memory keys are the rest of Windows Calculator's
/// Standard keypad, which the book did not have. Every key has one canonical spelling
/// (``canonical``), used wherever keys are written as text, and a ``title`` shown to a person. A
/// key fits in one byte (``code``: 0 through 174, ``referenceCode`` for `$N`, ``formulaCode`` for a
/// formula and ``dateLineCode`` for a date line), which is how
/// histories store it.
public enum Key: Hashable, Sendable {
  // Standard mode's keypad, and the keys of every mode.

  /// A digit key, `0` through `9`.
  case digit(Digit)
  /// The decimal point, `.`: on a fresh number it gives `0.`, and a second one is ignored.
  case dot
  /// An arithmetic operator: `+`, `-`, `×` or `÷`.
  case op(Op)
  /// Equals, `=`: computes the pending operation, or repeats the last one.
  case equal
  /// A key that acts on the calculator rather than on a number's digits: AC, +/-, %, CE, ⌫.
  case command(Command)
  /// A key that acts at once on the value in the display: √, x², 1/x.
  case unary(Unary)
  /// A key of the memory register: MS, MR, M+, M−, MC.
  case memory(Memory)
  /// The angle unit of trigonometric functions (DEG, RAD, GRAD): a key of Standard and
  /// Scientific mode, where it persists (SPEC §9).
  case angle(AngleUnit)
  /// A switch of mode: `std`, `sci` or `prog` (it clears the calculation like AC).
  case mode(Mode)
  /// `$N` (SPEC §11): recalls the value after line N of the branch, as `mr` recalls the memory.
  ///
  /// N is not part of the key, which would make every key 16 bytes instead of 2
  /// (`KeyTests.keyIsTwoBytes`): keys as typed keep it beside the keys
  /// (``TypedKeys``), and a history beside the key's code. The session resolves it when the line
  /// is applied (a bare calculator does nothing for it). Not in ``allKeys``: its ``code`` is
  /// ``referenceCode``. Its ``canonical`` spelling and ``title`` are `$`, without N.
  ///
  /// The shape of a key that is a whole line with a payload beside it (a formula's or a date's
  /// text, SPEC §12, §13): one code, its payload kept beside the keys as N is.
  case reference
  /// A formula line of formula mode (SPEC §12): one step, its text kept beside the keys
  /// (``TypedKeys/formulas``) and in a history beside the key's code, as `$N`'s N is. The
  /// session compiles it into Scientific keys when the line is applied (a bare calculator does
  /// nothing for it). Not in ``allKeys``: its ``code`` is ``formulaCode``; its ``canonical``
  /// spelling and ``title`` are `ƒ`, without the text.
  case formula
  /// A date line of date mode (SPEC §13): one step, its text kept beside the keys as a
  /// formula's is (``TypedKeys/formulas`` holds the texts of both, in order). The session reads
  /// and calculates it when the line is applied (a bare calculator does nothing for it). Not in
  /// ``allKeys``: its ``code`` is ``dateLineCode``; its ``canonical`` spelling and ``title``
  /// are `δ`, without the text.
  case dateLine

  // The keypads of the other modes, one case each: a switch that ignores a mode's keys says so
  // in one line.

  /// A key of Scientific mode's keypad (SPEC §9); brackets and `mod` are Programmer mode's too.
  case scientific(Scientific)
  /// A key of Programmer mode's keypad (SPEC §10).
  case programmer(Programmer)

  /// A key that Scientific mode adds to Standard mode's keypad.
  public enum Scientific: Hashable, Sendable {
    /// An opening or closing bracket (Programmer mode has them too).
    case bracket(Bracket)
    /// A binary operator of its own (xʸ, ʸ√x, mod, logᵧx; Programmer mode has mod).
    case binary(Binary)
    /// A function of the value in the display (sin, log, n!, …).
    case function(Function)
    /// A constant that replaces the display, π or e.
    case constant(Constant)
    /// `exp`, which starts the exponent of the number being typed.
    case exponent
    /// `F-E`, which toggles scientific notation for computed values.
    case fixedToExponential
  }

  /// A key that Programmer mode adds to Standard mode's keypad (besides Scientific mode's
  /// brackets and `mod`).
  public enum Programmer: Hashable, Sendable {
    /// A hex digit, `A` through `F` (upper case in key text).
    case hexDigit(HexDigit)
    /// The radix of the display and of typed digits.
    case radix(Radix)
    /// The word size.
    case wordSize(WordSize)
    /// A bitwise binary operator.
    case bitwise(Bitwise)
    /// `not`, the bitwise complement of the value in the display.
    case not
    /// A shift, a binary operator whose right operand is the count.
    case shift(Shift)
    /// A rotate of the value in the display by one bit.
    case rotate(Rotate)
    /// `bitN`, which flips bit N (0 through 63) of the value in the display.
    case bit(Bit)
  }

  /// Whether the key is `$N`.
  public var isReference: Bool {
    if case .reference = self { true } else { false }
  }

  /// Whether the key is a formula line (``formula``).
  public var isFormula: Bool {
    if case .formula = self { true } else { false }
  }

  /// Whether the key is a date line (``dateLine``).
  public var isDateLine: Bool {
    if case .dateLine = self { true } else { false }
  }

  /// Whether the key is a whole line with a text beside it: a formula or a date line.
  public var hasText: Bool {
    switch self {
    case .formula, .dateLine: true
    case .digit, .dot, .op, .equal, .command, .unary, .memory, .angle, .mode, .reference,
      .scientific, .programmer:
      false
    }
  }

  /// The one ``code`` of every ``dateLine`` key: 0xFD, below ``formulaCode``.
  package static let dateLineCode: UInt8 = 0xFD

  /// The one ``code`` of every ``formula`` key: 0xFE, below ``referenceCode``.
  package static let formulaCode: UInt8 = 0xFE

  /// The one ``code`` of every ``reference`` key: 0xFF, above every other key's code (the
  /// Programmer keys end at 173).
  public static let referenceCode: UInt8 = 0xFF

  /// A decimal digit key.
  public enum Digit: UInt8, CaseIterable, Sendable {
    /// The digits in order of value: the raw value of each is its ``value``.
    case zero, one, two, three, four, five, six, seven, eight, nine

    /// The digit's numeric value, 0 through 9.
    public var value: UInt8 { rawValue }

    /// The digit with the given value; `nil` unless `value` is 0 through 9.
    public init?(_ value: Int) {
      guard (0...9).contains(value) else { return nil }
      self = Digit(rawValue: UInt8(value))!
    }
  }

  /// A binary arithmetic operator.
  public enum Op: UInt8, CaseIterable, Sendable {
    /// Add, subtract, multiply and divide, in the order of their ``Key/code``s.
    case plus, minus, multiply, divide

    /// The button title, as the expression line writes the operator (the one table,
    /// ``BinaryOperator/title``): `+`, `-`, `×`, `÷`.
    public var title: String { BinaryOperator(self).title }
  }

  /// A key that acts on the calculator rather than on a number's digits.
  public enum Command: UInt8, CaseIterable, Sendable {
    /// `AC`: clears everything, including the remembered operation.
    case clear
    /// `+/-`: changes the sign of the current value.
    case flip
    /// `%`: turns the current value into a percentage, in the context of the pending operator.
    case percent
    /// `CE`: sets the current entry to 0 and keeps the pending operation.
    case clearEntry
    /// `⌫`: removes the last typed character of an entry.
    case backspace
  }

  /// A key that replaces the value in the display by a function of it.
  public enum Unary: UInt8, CaseIterable, Sendable {
    /// `√`: the square root, correctly rounded; `Invalid input` for a negative value.
    case squareRoot
    /// `x²`: the square.
    case square
    /// `1/x`: the reciprocal; `Cannot divide by zero` for 0.
    case reciprocal
  }

  /// A key of the memory register.
  public enum Memory: UInt8, CaseIterable, Sendable {
    /// `MS`: stores the value in the display.
    case store
    /// `MR`: recalls the stored value into the display; nothing while the memory is empty.
    case recall
    /// `M+`: adds the value in the display to the memory (an empty memory counts as 0).
    case add
    /// `M−`: subtracts the value in the display from the memory.
    case subtract
    /// `MC`: empties the memory; nothing while it is empty.
    case clear
  }

  /// A bracket of Scientific mode.
  public enum Bracket: UInt8, CaseIterable, Sendable {
    /// `(`: opens a level (at most 25).
    case open
    /// `)`: closes one; ignored when none is open.
    case close
  }

  /// A binary operator that only Scientific mode has; it binds tighter than × and ÷, except
  /// `mod`, which binds like them.
  public enum Binary: UInt8, CaseIterable, Sendable {
    /// `xʸ` (key text `^`).
    case power
    /// `ʸ√x` (`yroot`): x to the power 1/y.
    case root
    /// `mod`: the floored remainder; x mod 0 is x.
    case mod
    /// `logᵧx` (`logy`): the logarithm of x to base y.
    case logBase
  }

  /// A function key of Scientific mode, acting at once on the value in the display.
  public enum Function: UInt8, CaseIterable, Sendable {
    case sin, cos, tan, sec, csc, cot, asin, acos, atan, asec, acsc, acot
    case sinh, cosh, tanh, sech, csch, coth, asinh, acosh, atanh, asech, acsch, acoth
    case cube, cubeRoot, log, ln, pow10, pow2, powE, abs, floor, ceiling, dms, degrees, factorial

    /// The trigonometric or hyperbolic function this key computes, if it is one.
    package var trig: TrigFunction? {
      rawValue <= Function.acoth.rawValue ? TrigFunction(rawValue: rawValue) : nil
    }
  }

  /// A constant key of Scientific mode.
  public enum Constant: UInt8, CaseIterable, Sendable {
    /// `π` (`pi`).
    case pi
    /// `e` (`euler`).
    case euler
  }

  /// The calculator's modes: its three keypads, formulas and dates.
  public enum Mode: UInt8, CaseIterable, Sendable {
    /// Windows' Standard keypad: keys act in the order typed.
    case standard
    /// Windows' Scientific keypad: precedence, brackets and functions (SPEC §9).
    case scientific
    /// Windows' Programmer keypad: integers in a word, radixes, bitwise keys (SPEC §10).
    case programmer
    /// Formula mode (SPEC §12): a line is a formula, compiled to Scientific keys and run on
    /// Scientific mode's keypad as one step.
    case formula
    /// Date mode (SPEC §13): a line is a date, a difference, an offset or a duration
    /// calculation, read and calculated as one step. Its key's code is 174, after the
    /// Programmer keys (the other mode keys' codes come before them).
    case date
  }

  /// A hex digit key of Programmer mode.
  public enum HexDigit: UInt8, CaseIterable, Sendable {
    /// The digits 10 through 15: the raw value of each is its value less 10.
    case a, b, c, d, e, f

    /// The digit's value, 10 through 15.
    public var value: UInt8 { 10 + rawValue }
  }

  /// A radix of Programmer mode.
  public enum Radix: UInt8, CaseIterable, Sendable {
    /// Hexadecimal, octal, binary and decimal.
    case hex, dec, oct, bin

    /// The base: 16, 10, 8 or 2.
    public var base: UInt64 {
      switch self {
      case .hex: 16
      case .dec: 10
      case .oct: 8
      case .bin: 2
      }
    }
  }

  /// A word size of Programmer mode.
  public enum WordSize: UInt8, CaseIterable, Sendable {
    /// 64, 32, 16 and 8 bits.
    case qword, dword, word, byte

    /// The number of bits: 64, 32, 16 or 8.
    public var bits: Int {
      switch self {
      case .qword: 64
      case .dword: 32
      case .word: 16
      case .byte: 8
      }
    }

    /// The name shown to a person: `QWORD`, `DWORD`, `WORD`, `BYTE`.
    public var title: String {
      switch self {
      case .qword: "QWORD"
      case .dword: "DWORD"
      case .word: "WORD"
      case .byte: "BYTE"
      }
    }
  }

  /// A bitwise binary operator of Programmer mode.
  public enum Bitwise: UInt8, CaseIterable, Sendable {
    /// AND, OR, XOR, NAND and NOR.
    case and, or, xor, nand, nor
  }

  /// A shift of Programmer mode.
  public enum Shift: UInt8, CaseIterable, Sendable {
    /// Left, arithmetic right (the sign copied in) and logical right (zeros in).
    case left, right, logicalRight
  }

  /// A rotate of Programmer mode.
  public enum Rotate: UInt8, CaseIterable, Sendable {
    /// Left and right within the word, then left and right through the carry bit.
    case left, right, leftThroughCarry, rightThroughCarry
  }

  /// A bit of the bit keypad, 0 through 63.
  public struct Bit: Hashable, Sendable {
    /// The bit's number, 0 through 63.
    public let number: UInt8

    /// The bit `number`; `nil` unless it is 0 through 63.
    public init?(_ number: Int) {
      guard (0...63).contains(number) else { return nil }
      self.number = UInt8(number)
    }

    /// Every bit, 0 through 63.
    public static let all: [Bit] = (0...63).map { Bit($0)! }
  }

  /// The keys of Standard mode, in the order of their ``code``s.
  package static let standardKeys: [Key] =
    Digit.allCases.map { .digit($0) } + [.dot] + Op.allCases.map { .op($0) } + [.equal]
    + Command.allCases.map { .command($0) } + Unary.allCases.map { .unary($0) }
    + Memory.allCases.map { .memory($0) }

  /// The keys that only Scientific mode has, then the angle and mode keys, in the order of
  /// their ``code``s (after the Standard keys).
  package static let scientificKeys: [Key] =
    Scientific.allKeys.map { .scientific($0) } + AngleUnit.allCases.map { .angle($0) }
    + Mode.allCases.filter { $0 != .date }.map { .mode($0) }

  /// The keys that only Programmer mode has, in the order of their ``code``s (after the
  /// Scientific keys and the mode keys).
  package static let programmerKeys: [Key] = Programmer.allKeys.map { .programmer($0) }

  /// Every key, in the order of their ``code``s.
  public static let allKeys: [Key] =
    standardKeys + scientificKeys + programmerKeys + [.mode(.date)]

  /// Whether the key belongs to Scientific mode only: in Standard mode it is an error (SPEC
  /// §9). The angle units and the mode keys belong to both.
  package var isScientificOnly: Bool {
    if case .scientific = self { true } else { false }
  }

  /// Whether the key belongs to Programmer mode only (SPEC §10).
  package var isProgrammerOnly: Bool {
    if case .programmer = self { true } else { false }
  }

  /// Whether the key starts or continues a number being typed: a digit, the point, a hex digit.
  ///
  /// Right after `)` such a key implies a × (SPEC §9). Windows makes the bracket the left
  /// operand of a new ×, dropping whatever was pending (`1+(2)3=` → 6, `2(3)4=` → 12). calc presses
  /// `*` itself before the key, as Windows does for an omitted × before `(`, so that the result is
  /// the calculation the line shows: a pending operation that binds less tightly waits
  /// (`1+(2)3=` → 7), one that binds as tightly or more runs first (`2(3)4=` and `2*(1+2)4=` → 24,
  /// `2^(1)3=` → 6), and an error it gives is shown until the key, which then starts a new
  /// calculation (rule 14), exactly as after a typed `*`. Both modes with brackets imply × the
  /// same way, through their own operator key.
  @inlinable
  package var startsANumber: Bool {
    switch self {
    case .digit, .dot, .programmer(.hexDigit): true
    case .op, .equal, .command, .unary, .memory, .angle, .mode, .reference, .formula,
      .dateLine, .scientific, .programmer:
      false
    }
  }

  /// Whether the key is a binary operator: `+ - × ÷`, or one of Scientific or Programmer mode's
  /// (`^`, `mod`, `and`, `lsh`, …).
  @inlinable
  package var isBinaryOperator: Bool {
    switch self {
    case .op, .scientific(.binary), .programmer(.bitwise), .programmer(.shift): true
    case .digit, .dot, .equal, .command, .unary, .memory, .angle, .mode, .reference, .formula,
      .dateLine, .scientific, .programmer:
      false
    }
  }

  /// The key's one-byte code: its index in ``allKeys``, or ``referenceCode`` for `$N`.
  public var code: UInt8 {
    switch self {
    case .digit(let digit): digit.rawValue
    case .dot: 10
    case .op(let op): 11 + op.rawValue
    case .equal: 15
    case .command(let command): 16 + command.rawValue
    case .unary(let unary): 21 + unary.rawValue
    case .memory(let memory): 24 + memory.rawValue
    case .scientific(let key): key.code
    case .angle(let unit): 76 + unit.rawValue
    case .mode(.date): 174
    case .mode(let mode): 79 + mode.rawValue
    case .reference: Key.referenceCode
    case .formula: Key.formulaCode
    case .dateLine: Key.dateLineCode
    case .programmer(let key): key.code
    }
  }

  /// Writes the ``code`` of each of `keys` to `codes` (as many), and returns the bitwise or of
  /// them (0 for no keys): at least the highest code, so that an or below `n` says that no code
  /// is `n` or more. What a line's record needs, with one test for the whole line after it
  /// (``History``'s keys beyond Standard's): a test a key, with the first code beyond
  /// Standard's computed for it, cost 40 instructions a line of `123.45*6.7=` on main 8f11f95
  /// (callgrind on 100,000 such lines, the release build).
  /// - Complexity: O(n) in the number of keys.
  @inline(__always)
  static func codes(
    of keys: UnsafeBufferPointer<Key>,
    into codes: UnsafeMutableBufferPointer<UInt8>
  ) -> UInt8 {
    var all: UInt8 = 0
    for index in keys.indices {
      let code = keys[index].code
      codes[index] = code
      all |= code
    }
    return all
  }

  /// The key whose ``code`` is `code`; `nil` for a byte that is no key's code, and for
  /// ``referenceCode``, which needs its line number.
  public init?(code: UInt8) {
    guard Int(code) < Self.allKeys.count else { return nil }
    self = Self.allKeys[Int(code)]
  }

  /// The canonical spelling in key text, ASCII:
  /// `0`…`9 . + - * / = % ~ c ce < @ q r ms mr m+ m- mc`, `deg rad grad std sci prog`, and
  /// Scientific and Programmer mode's (``Scientific/canonical``, ``Programmer/canonical``).
  public var canonical: String {
    switch self {
    case .digit(let digit): String(Character(Unicode.Scalar(48 + digit.rawValue)))
    case .dot: "."
    case .op(.plus): "+"
    case .op(.minus): "-"
    case .op(.multiply): "*"
    case .op(.divide): "/"
    case .equal: "="
    case .command(.clear): "c"
    case .command(.flip): "~"
    case .command(.percent): "%"
    case .command(.clearEntry): "ce"
    case .command(.backspace): "<"
    case .unary(.squareRoot): "@"
    case .unary(.square): "q"
    case .unary(.reciprocal): "r"
    case .memory(.store): "ms"
    case .memory(.recall): "mr"
    case .memory(.add): "m+"
    case .memory(.subtract): "m-"
    case .memory(.clear): "mc"
    case .angle(.degrees): "deg"
    case .angle(.radians): "rad"
    case .angle(.grads): "grad"
    case .mode(.standard): "std"
    case .mode(.scientific): "sci"
    case .mode(.programmer): "prog"
    case .mode(.formula): "fx"
    case .mode(.date): "date"
    case .reference: "$"
    case .formula: "ƒ"
    case .dateLine: "δ"
    case .scientific(let key): key.canonical
    case .programmer(let key): key.canonical
    }
  }

  /// The button title shown to a person:
  /// `0`…`9 . + - × ÷ = AC +/- % CE ⌫ √ x² 1/x MS MR M+ M− MC`, `DEG RAD GRAD std sci prog`, and
  /// Scientific and Programmer mode's (``Scientific/title``, ``Programmer/title``).
  public var title: String {
    switch self {
    case .digit(let digit): String(digit.rawValue)
    case .dot: "."
    case .op(let op): op.title
    case .equal: "="
    case .command(.clear): "AC"
    case .command(.flip): "+/-"
    case .command(.percent): "%"
    case .command(.clearEntry): "CE"
    case .command(.backspace): "⌫"
    case .unary(.squareRoot): "√"
    case .unary(.square): "x²"
    case .unary(.reciprocal): "1/x"
    case .memory(.store): "MS"
    case .memory(.recall): "MR"
    case .memory(.add): "M+"
    case .memory(.subtract): "M−"
    case .memory(.clear): "MC"
    case .angle(.degrees): "DEG"
    case .angle(.radians): "RAD"
    case .angle(.grads): "GRAD"
    case .mode(.standard): "std"
    case .mode(.scientific): "sci"
    case .mode(.programmer): "prog"
    case .mode(.formula): "fx"
    case .mode(.date): "date"
    case .reference: "$"
    case .formula: "ƒ"
    case .dateLine: "δ"
    case .scientific(let key): key.title
    case .programmer(let key): key.title
    }
  }
}

extension Key.Scientific {
  /// Every key of Scientific mode's own, in the order of their codes.
  static let allKeys: [Key.Scientific] =
    Key.Bracket.allCases.map { .bracket($0) } + Key.Binary.allCases.map { .binary($0) }
    + Key.Function.allCases.map { .function($0) } + Key.Constant.allCases.map { .constant($0) }
    + [.exponent, .fixedToExponential]

  /// The key's one-byte code (``Key/code``): 29 through 75.
  public var code: UInt8 {
    switch self {
    case .bracket(let bracket): 29 + bracket.rawValue
    case .binary(let binary): 31 + binary.rawValue
    case .function(let function): 35 + function.rawValue
    case .constant(let constant): 72 + constant.rawValue
    case .exponent: 74
    case .fixedToExponential: 75
    }
  }

  /// The canonical spelling in key text: `( ) ^ yroot mod logy sin … acoth cube cbrt log ln pow10
  /// pow2 powe abs floor ceil dms degrees ! pi euler exp fe`.
  public var canonical: String {
    switch self {
    case .bracket(.open): "("
    case .bracket(.close): ")"
    case .binary(.power): "^"
    case .binary(.root): "yroot"
    case .binary(.mod): "mod"
    case .binary(.logBase): "logy"
    case .function(let function): function.canonical
    case .constant(.pi): "pi"
    case .constant(.euler): "euler"
    case .exponent: "exp"
    case .fixedToExponential: "fe"
    }
  }

  /// The button title, as on Windows' keypad: `( ) xʸ ʸ√x mod logᵧx`, the functions'
  /// (``Key/Function/title``), `π e exp F-E`.
  public var title: String {
    switch self {
    case .bracket(.open): "("
    case .bracket(.close): ")"
    case .binary(.power): "xʸ"
    case .binary(.root): "ʸ√x"
    case .binary(.mod): "mod"
    case .binary(.logBase): "logᵧx"
    case .function(let function): function.title
    case .constant(.pi): "π"
    case .constant(.euler): "e"
    case .exponent: "exp"
    case .fixedToExponential: "F-E"
    }
  }
}

extension Key.Programmer {
  /// Every key of Programmer mode's own, in the order of their codes.
  static let allKeys: [Key.Programmer] =
    Key.HexDigit.allCases.map { .hexDigit($0) } + Key.Radix.allCases.map { .radix($0) }
    + Key.WordSize.allCases.map { .wordSize($0) } + Key.Bitwise.allCases.map { .bitwise($0) }
    + [.not] + Key.Shift.allCases.map { .shift($0) } + Key.Rotate.allCases.map { .rotate($0) }
    + Key.Bit.all.map { .bit($0) }

  /// The key's one-byte code (``Key/code``): 83 through 173.
  public var code: UInt8 {
    switch self {
    case .hexDigit(let digit): 83 + digit.rawValue
    case .radix(let radix): 89 + radix.rawValue
    case .wordSize(let size): 93 + size.rawValue
    case .bitwise(let bitwise): 97 + bitwise.rawValue
    case .not: 102
    case .shift(let shift): 103 + shift.rawValue
    case .rotate(let rotate): 106 + rotate.rawValue
    case .bit(let bit): 110 + bit.number
    }
  }

  /// The canonical spelling in key text: `A`…`F hex dec oct bin qword dword word byte and or xor
  /// nand nor not lsh rsh rshl rol ror rolc rorc bit0`…`bit63`.
  public var canonical: String {
    switch self {
    case .hexDigit(let digit): String(Character(Unicode.Scalar(65 + digit.rawValue)))
    case .radix(.hex): "hex"
    case .radix(.dec): "dec"
    case .radix(.oct): "oct"
    case .radix(.bin): "bin"
    case .wordSize(.qword): "qword"
    case .wordSize(.dword): "dword"
    case .wordSize(.word): "word"
    case .wordSize(.byte): "byte"
    case .bitwise(.and): "and"
    case .bitwise(.or): "or"
    case .bitwise(.xor): "xor"
    case .bitwise(.nand): "nand"
    case .bitwise(.nor): "nor"
    case .not: "not"
    case .shift(.left): "lsh"
    case .shift(.right): "rsh"
    case .shift(.logicalRight): "rshl"
    case .rotate(.left): "rol"
    case .rotate(.right): "ror"
    case .rotate(.leftThroughCarry): "rolc"
    case .rotate(.rightThroughCarry): "rorc"
    case .bit(let bit): "bit" + String(bit.number)
    }
  }

  /// The button title: `A`…`F HEX DEC OCT BIN QWORD DWORD WORD BYTE AND OR XOR NAND NOR NOT Lsh
  /// Rsh RshL RoL RoR RoLC RoRC bit0`…`bit63`.
  public var title: String {
    switch self {
    case .hexDigit(let digit): String(Character(Unicode.Scalar(65 + digit.rawValue)))
    case .radix(.hex): "HEX"
    case .radix(.dec): "DEC"
    case .radix(.oct): "OCT"
    case .radix(.bin): "BIN"
    case .wordSize(let size): size.title
    case .bitwise(.and): "AND"
    case .bitwise(.or): "OR"
    case .bitwise(.xor): "XOR"
    case .bitwise(.nand): "NAND"
    case .bitwise(.nor): "NOR"
    case .not: "NOT"
    case .shift(.left): "Lsh"
    case .shift(.right): "Rsh"
    case .shift(.logicalRight): "RshL"
    case .rotate(.left): "RoL"
    case .rotate(.right): "RoR"
    case .rotate(.leftThroughCarry): "RoLC"
    case .rotate(.rightThroughCarry): "RoRC"
    case .bit(let bit): "bit" + String(bit.number)
    }
  }
}

extension Key.Function {
  /// The key text: `sin`, `acoth`, `cube`, `cbrt`, `pow10`, `powe`, `ceil`, `!`, ….
  ///
  /// Every spelling is a literal: the case name through `"\(self)"` would go through the
  /// runtime's reflection, whose protocol lookups scan every conformance in the binary — 3.2 M
  /// of the 3.8 M instructions of `calc -k 12+3=` when the key table was built that way
  /// (Documentation/Performance.md).
  public var canonical: String {
    switch self {
    case .cube: "cube"
    case .cubeRoot: "cbrt"
    case .log: "log"
    case .ln: "ln"
    case .pow10: "pow10"
    case .pow2: "pow2"
    case .powE: "powe"
    case .abs: "abs"
    case .floor: "floor"
    case .ceiling: "ceil"
    case .dms: "dms"
    case .degrees: "degrees"
    case .factorial: "!"
    case .sin: "sin"
    case .cos: "cos"
    case .tan: "tan"
    case .sec: "sec"
    case .csc: "csc"
    case .cot: "cot"
    case .asin: "asin"
    case .acos: "acos"
    case .atan: "atan"
    case .asec: "asec"
    case .acsc: "acsc"
    case .acot: "acot"
    case .sinh: "sinh"
    case .cosh: "cosh"
    case .tanh: "tanh"
    case .sech: "sech"
    case .csch: "csch"
    case .coth: "coth"
    case .asinh: "asinh"
    case .acosh: "acosh"
    case .atanh: "atanh"
    case .asech: "asech"
    case .acsch: "acsch"
    case .acoth: "acoth"
    }
  }

  /// The button title, as on Windows' keypad: `sin⁻¹`, `x³`, `∛x`, `10ˣ`, `n!`, `⌊x⌋`, ….
  public var title: String {
    switch self {
    case .cube: "x³"
    case .cubeRoot: "∛x"
    case .log: "log"
    case .ln: "ln"
    case .pow10: "10ˣ"
    case .pow2: "2ˣ"
    case .powE: "eˣ"
    case .abs: "|x|"
    case .floor: "⌊x⌋"
    case .ceiling: "⌈x⌉"
    case .dms: "dms"
    case .degrees: "degrees"
    case .factorial: "n!"
    case .asin, .acos, .atan, .asec, .acsc, .acot, .asinh, .acosh, .atanh, .asech, .acsch, .acoth:
      String(canonical.dropFirst()) + "⁻¹"
    case .sin, .cos, .tan, .sec, .csc, .cot, .sinh, .cosh, .tanh, .sech, .csch, .coth:
      canonical
    }
  }
}

extension Key: CustomStringConvertible {
  /// The button title.
  public var description: String { title }
}
