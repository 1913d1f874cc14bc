/// A button of the calculator, named after the book's `CalculatorButtonItem`.
///
/// The book's `Op` also held `=`; here equals is its own case so that a pending operator can never
/// be `=`. CE, backspace, the unary keys and the memory keys are the rest of Windows Calculator's
/// Standard keypad, which the book did not have. Every key has one canonical spelling
/// (``canonical``), used wherever keys are written as text, and a ``title`` shown to a person. A
/// key fits in one byte (``code``, below 0x80), which is how histories store it.
public enum CalculatorButtonItem: Hashable, Sendable {
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
    /// Add, subtract, multiply and divide, in the order of their ``CalculatorButtonItem/code``s.
    case plus, minus, multiply, divide

    /// The button title: `+`, `-`, `×`, `÷`.
    public var title: String {
      switch self {
      case .plus: "+"
      case .minus: "-"
      case .multiply: "×"
      case .divide: "÷"
      }
    }
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

  /// Every key, in the order of their ``code``s.
  public static let allKeys: [CalculatorButtonItem] =
    Digit.allCases.map { .digit($0) } + [.dot] + Op.allCases.map { .op($0) } + [.equal]
    + Command.allCases.map { .command($0) } + Unary.allCases.map { .unary($0) }
    + Memory.allCases.map { .memory($0) }

  /// The key's one-byte code: its index in ``allKeys``.
  public var code: UInt8 {
    switch self {
    case .digit(let digit): digit.rawValue
    case .dot: 10
    case .op(let op): 11 + op.rawValue
    case .equal: 15
    case .command(let command): 16 + command.rawValue
    case .unary(let unary): 21 + unary.rawValue
    case .memory(let memory): 24 + memory.rawValue
    }
  }

  /// The key whose ``code`` is `code`; `nil` for a byte that is no key's code.
  public init?(code: UInt8) {
    guard Int(code) < Self.allKeys.count else { return nil }
    self = Self.allKeys[Int(code)]
  }

  /// The canonical spelling in key text, one or two ASCII characters:
  /// `0`…`9 . + - * / = % ~ c ce < @ q r ms mr m+ m- mc`.
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
    }
  }

  /// The button title shown to a person:
  /// `0`…`9 . + - × ÷ = AC +/- % CE ⌫ √ x² 1/x MS MR M+ M− MC`.
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
    }
  }
}

extension CalculatorButtonItem: CustomStringConvertible {
  /// The button title.
  public var description: String { title }
}
