import CalculatorEngine

/// What a key does, as the notes and the interpreter ask it (SPEC §5).
extension Key {
  /// Whether the key starts or continues a number being typed: a digit or the point.
  var startsANumber: Bool {
    switch self {
    case .digit, .dot, .hexDigit: true
    case .op, .equal, .command, .unary, .memory, .bracket, .binary, .function, .constant,
      .exponent, .fixedToExponential, .angle, .mode, .reference, .radix, .wordSize, .bitwise, .not,
      .shift,
      .rotate, .bit:
      false
    }
  }

  /// Whether the key clears an error on purpose: AC, CE, a mode key (SPEC §5, §9); any other
  /// key that leaves an error goes past it.
  var clearsOnPurpose: Bool {
    switch self {
    case .command(.clear), .command(.clearEntry), .mode: true
    case .digit, .dot, .op, .equal, .command, .unary, .memory, .bracket, .binary, .function,
      .constant, .exponent, .fixedToExponential, .angle, .hexDigit, .radix, .wordSize, .bitwise,
      .not, .shift, .rotate, .bit, .reference:
      false
    }
  }

  /// Whether the key goes on with a number being typed: a digit, the point, `~`, backspace or
  /// `exp` (the typed number's key text, for notes: `1.5exp`).
  var continuesANumber: Bool {
    switch self {
    case .digit, .dot, .hexDigit, .exponent, .command(.flip), .command(.backspace): true
    case .op, .equal, .command, .unary, .memory, .bracket, .binary, .function, .constant,
      .fixedToExponential, .angle, .mode, .reference, .radix, .wordSize, .bitwise, .not, .shift,
      .rotate, .bit:
      false
    }
  }

  /// Whether the key's answer may be a value rounded to 34 digits (SPEC §2 rule 15): an
  /// operator or `=` that computes, a unary key or function, a constant, a recall.
  var mayRound: Bool {
    switch self {
    case .op, .equal, .unary, .binary, .function, .constant, .memory(.recall), .reference,
      .command(.percent), .bracket(.close):
      true
    case .digit, .dot, .command, .memory, .bracket, .exponent, .fixedToExponential, .angle, .mode,
      .hexDigit, .radix, .wordSize, .bitwise, .not, .shift, .rotate, .bit:
      false
    }
  }

  /// Whether the key, an operator or `=`, computes the operation pending before it.
  var computesPending: Bool {
    switch self {
    case .op, .equal, .binary, .bitwise, .shift: true
    case .digit, .dot, .command, .unary, .memory, .bracket, .function, .constant, .exponent,
      .fixedToExponential, .angle, .mode, .hexDigit, .radix, .wordSize, .not, .rotate, .bit,
      .reference:
      false
    }
  }

  /// The key's title in a note's prose: `−` for subtract (as SPEC §5 writes it), else its
  /// button title.
  var noteTitle: String {
    if case .op(.minus) = self { "−" } else { title }
  }

  /// Whether the key is a binary operator: `+ - × ÷`, or one of Scientific mode's (`^`, …).
  var isBinaryOperator: Bool {
    switch self {
    case .op, .binary, .bitwise, .shift: true
    case .digit, .dot, .equal, .command, .unary, .memory, .bracket, .function, .constant,
      .exponent, .fixedToExponential, .angle, .mode, .hexDigit, .radix, .wordSize, .not, .rotate,
      .bit, .reference:
      false
    }
  }
}
