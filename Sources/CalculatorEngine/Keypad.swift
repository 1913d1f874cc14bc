/// What may be pressed: the mode, and in Programmer mode the radix and the word size (SPEC §9,
/// §10). A session refuses a line with a key the keypad lacks, naming the key and the mode,
/// instead of letting the brain ignore it.
package struct Keypad: Hashable, Sendable {
  /// The mode.
  package var mode: Key.Mode
  /// Programmer mode's radix (DEC in the other modes).
  package var radix: Key.Radix
  /// Programmer mode's word size; it persists across modes.
  package var wordSize: Key.WordSize

  /// A keypad in `mode`, with Programmer mode's radix and word size.
  package init(
    mode: Key.Mode, radix: Key.Radix = .dec,
    wordSize: Key.WordSize = .qword
  ) {
    self.mode = mode
    self.radix = radix
    self.wordSize = wordSize
  }

  /// Presses `key`: why it may not be pressed, or `nil` after following a mode, radix or
  /// word-size key. The one switch over keys of the check.
  package mutating func press(_ key: Key) -> KeyRejection? {
    let programmer = mode == .programmer
    // Formula mode's keypad (SPEC §12): formulas, and alone `c`, the memory keys, the angle
    // units and the mode keys.
    if mode == .formula {
      switch key {
      case .command(.clear), .memory, .angle, .mode, .formula, .dateLine:
        break
      case .digit, .dot, .op, .equal, .command, .unary, .reference, .scientific, .programmer:
        return .notInFormula
      }
    }
    // Date mode's keypad (SPEC §13): date lines, and alone the memory keys and the mode keys.
    if mode == .date {
      switch key {
      case .memory, .mode, .formula, .dateLine:
        break
      case .digit, .dot, .op, .equal, .command, .unary, .angle, .reference, .scientific,
        .programmer:
        return .notInDate
      }
    }
    switch key {
    case .digit(let digit):
      if programmer, UInt64(digit.value) >= radix.base { return .notADigit(radix) }
    case .op, .equal, .memory, .reference:
      break
    case .formula:
      // A formula line is read in formula mode, whatever the mode before it (SPEC §12).
      self.mode = .formula
    case .dateLine:
      // A date line is read in date mode, whatever the mode before it (SPEC §13).
      self.mode = .date
    case .command(.percent):
      if programmer { return .integersOnly }
    case .command:
      break
    case .dot:
      if programmer { return .integersOnly }
    case .unary, .angle:
      if programmer { return .notInProgrammer }
    case .mode(let mode):
      if mode == .programmer { radix = .dec }
      self.mode = mode
    case .scientific(let key):
      if mode == .standard { return .scientificKey }
      switch key {
      case .bracket, .binary(.mod):
        // Programmer mode's too (SPEC §10).
        break
      case .binary, .function, .constant, .exponent, .fixedToExponential:
        if programmer { return .notInProgrammer }
      }
    case .programmer(let key):
      if !programmer { return .programmerKey }
      switch key {
      case .hexDigit:
        if radix != .hex { return .hexDigitOutsideHex }
      case .radix(let radix):
        self.radix = radix
      case .wordSize(let size):
        wordSize = size
      case .bit(let bit):
        if Int(bit.number) >= wordSize.bits { return .bitBeyondWord(wordSize) }
      case .bitwise, .not, .shift, .rotate:
        break
      }
    }
    return nil
  }
}

/// Why a key may not be pressed (see ``Keypad/press(_:)``).
public enum KeyRejection: Hashable, Sendable {
  /// A key of Scientific mode, in Standard mode.
  case scientificKey
  /// A key of Programmer mode, in another mode.
  case programmerKey
  /// A key of Standard or Scientific mode that Programmer mode lacks (`@`, `sin`, `deg`, …).
  case notInProgrammer
  /// `.` or `%` in Programmer mode.
  case integersOnly
  /// A digit the radix lacks.
  case notADigit(Key.Radix)
  /// A hex digit outside HEX.
  case hexDigitOutsideHex
  /// A bit key beyond the word.
  case bitBeyondWord(Key.WordSize)
  /// A key pressed alone in formula mode, where a line is a formula (SPEC §12).
  case notInFormula
  /// A key pressed in date mode, where a line is a date line (SPEC §13).
  case notInDate

  /// The sentence saying why `key` may not be pressed: `'sin' is a key of Scientific mode
  /// (type sci first)`, `'8' is not an octal digit`, `bit40: a BYTE has bits 0–7`.
  public func message(for key: Key) -> String {
    let name = "'\(key.canonical)'"
    switch self {
    case .scientificKey: return "\(name) is a key of Scientific mode (type sci first)"
    case .programmerKey: return "\(name) is a key of Programmer mode (type prog first)"
    case .notInProgrammer: return "\(name) is not a key of Programmer mode (type sci first)"
    case .integersOnly:
      return "\(name) is not a key of Programmer mode (Programmer mode holds integers)"
    case .notADigit(let radix):
      let name =
        switch radix {
        case .hex: "a hex"
        case .dec: "a decimal"
        case .oct: "an octal"
        case .bin: "a binary"
        }
      return "'\(key.canonical)' is not \(name) digit"
    case .hexDigitOutsideHex:
      return "\(name) is a hex digit (type hex first)"
    case .bitBeyondWord(let size):
      return "\(key.canonical): a \(size.title) has bits 0–\(size.bits - 1)"
    case .notInFormula:
      return "\(name) is not a key of formula mode (type a formula, or sci for keys)"
    case .notInDate:
      return
        "\(name) is not a key of date mode (type a date line, such as today + 90d, or sci for keys)"
    }
  }
}
