import CalculatorEngine

/// What a key does, as the notes and the interpreter ask it (SPEC §5); what the engine asks too
/// (``Key/startsANumber``, ``Key/isBinaryOperator``) lives in the engine.
extension Key {
  /// Whether the key clears an error on purpose: AC, CE, a mode key (SPEC §5, §9); any other
  /// key that leaves an error goes past it.
  var clearsOnPurpose: Bool {
    switch self {
    case .command(.clear), .command(.clearEntry), .mode: true
    case .digit, .dot, .op, .equal, .command, .unary, .memory, .angle, .reference, .formula,
      .dateLine,
      .scientific,
      .programmer:
      false
    }
  }

  /// Whether the key goes on with a number being typed: a digit, the point, `~`, backspace or
  /// `exp` (the typed number's key text, for notes: `1.5exp`).
  var continuesANumber: Bool {
    switch self {
    case .digit, .dot, .programmer(.hexDigit), .scientific(.exponent), .command(.flip),
      .command(.backspace):
      true
    case .op, .equal, .command, .unary, .memory, .angle, .mode, .reference, .formula, .dateLine,
      .scientific,
      .programmer:
      false
    }
  }

  /// Whether the key's answer may be a value rounded to 34 digits (SPEC §2 rule 15): an
  /// operator or `=` that computes, a unary key or function, a constant, a recall.
  var mayRound: Bool {
    switch self {
    case .op, .equal, .unary, .scientific(.binary), .scientific(.function),
      .scientific(.constant), .memory(.recall), .reference, .formula, .dateLine, .command(.percent),
      .scientific(.bracket(.close)):
      true
    case .digit, .dot, .command, .memory, .angle, .mode, .scientific, .programmer:
      false
    }
  }

  /// Whether the key, an operator or `=`, computes the operation pending before it.
  var computesPending: Bool {
    switch self {
    case .op, .equal, .scientific(.binary), .programmer(.bitwise), .programmer(.shift): true
    case .digit, .dot, .command, .unary, .memory, .angle, .mode, .reference, .formula, .dateLine,
      .scientific,
      .programmer:
      false
    }
  }

  /// The key's title in a note's prose: `−` for subtract (as SPEC §5 writes it), else its
  /// button title.
  var noteTitle: String {
    if case .op(.minus) = self { "−" } else { title }
  }
}
