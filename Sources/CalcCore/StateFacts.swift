import CalcDecimal
import CalculatorEngine

/// What a key line needs to know of the state (its notes, its exit status), read where the
/// display is written or where `self` is not `inout`: read in a mutating method, the session's
/// state was copied first, a good part of a short line's cost
/// (Documentation/Performance.md#a-scripts-line).
package struct StateFacts {
  /// Whether the display shows an error.
  package var showsError: Bool
  /// Whether an operation is pending (or, in Scientific mode, a bracket is open).
  package var isPending: Bool
  /// The mode: the next line's keys are read in it.
  package var mode: Key.Mode

  /// The facts given.
  package init(showsError: Bool, isPending: Bool, mode: Key.Mode) {
    self.showsError = showsError
    self.isPending = isPending
    self.mode = mode
  }
}

/// The facts of a state that the notes, the interpreter and the listings ask (SPEC §5).
extension Calculator {
  // Each fact below is asked of the current mode's own brain, in an exhaustive switch over the
  // machine, so that a new mode answers the compiler: ``brain`` is Standard mode's alone, and
  // reading it in another mode answered for a fresh Standard calculator (calc 0.4's Programmer
  // errors exited 0, issue 45).

  /// How many digits the entry being typed holds, when it is full (a further digit is
  /// ignored): 16 in Standard mode, 32 in Scientific mode; `nil` when no full entry is typed
  /// (always in Programmer mode, whose limit is the word's).
  var fullEntryCapacity: Int? {
    switch machine {
    case .standard(let brain):
      return brain.isTypingAFullEntry ? Entry.maximumDigits : nil
    case .scientific(let scientific):
      let input = scientific.input
      return scientific.isTyping && !input.hasExponent
        && input.digitCount >= ScientificEntry.maximumDigits ? ScientificEntry.maximumDigits : nil
    case .programmer:
      return nil
    }
  }

  /// Whether the display shows a 0 that nobody typed: a fresh calculator, or one after AC or
  /// CE (a typed `0` reads the same in Standard mode, where an entry of `0` is that 0).
  var showsUntouchedZero: Bool {
    switch machine {
    case .standard(let brain):
      switch brain {
      case .left(.entry(let entry), _, _), .leftOpRight(_, _, .entry(let entry)):
        return entry == .zero
      case .left(.value, _, _), .leftOp, .leftOpRight(_, _, .value), .error, .equalled:
        return false
      }
    case .scientific(let scientific):
      return scientific.isTyping ? scientific.input.isEmpty : scientific == .initial
    case .programmer(let programmer):
      // Typed digits, or a 0 that no calculation left (AC, CE, a fresh mode).
      return programmer.isTyping
        ? programmer.input.magnitude == 0
        : programmer.value == 0 && programmer.shownLine.isEmpty && !programmer.isPending
    }
  }

  /// Whether an operation waits for its right operand (or, in Scientific mode, a bracket is
  /// open).
  var isPendingOperation: Bool {
    // By the mode first: asking for the Programmer brain copied it out of its box, a check
    // after every line of a script.
    switch mode {
    case .standard: brain.isPending
    case .scientific: scientific?.isPending ?? false
    case .programmer: programmer?.isPending ?? false
    }
  }

  /// Whether a number is being typed (digits, a point or an exponent, not a 0 nobody typed in
  /// Scientific mode); in Standard mode a typed entry, `0` included.
  var isTypingANumber: Bool {
    switch machine {
    case .standard(let brain):
      switch brain {
      case .left(.entry, _, _), .leftOpRight(_, _, .entry): return true
      case .left(.value, _, _), .leftOp, .leftOpRight(_, _, .value), .error, .equalled:
        return false
      }
    case .scientific(let scientific):
      return scientific.isTyping && !scientific.input.isEmpty
    case .programmer(let programmer):
      return programmer.isTyping && programmer.error == nil
    }
  }

  /// Whether an exponent being typed holds all its digits (Scientific mode): a further digit
  /// is ignored.
  var typesAFullExponent: Bool {
    switch machine {
    case .standard, .programmer:
      return false
    case .scientific(let scientific):
      return scientific.isTyping && scientific.input.hasExponent
        && Int(scientific.input.exponentDigitCount) >= ScientificEntry.maximumExponentDigits
    }
  }

  /// Whether the display shows an error: the current mode's own error state.
  var showsError: Bool {
    switch machine {
    case .standard(let brain): brain.isError
    case .scientific(let scientific): scientific.error != nil
    case .programmer(let programmer): programmer.error != nil
    }
  }

  /// Whether a number is being typed that already holds a decimal point (and, in Scientific
  /// mode, no exponent): a `.` now is ignored. Never in Programmer mode, which has no point.
  var typedEntryHasPoint: Bool {
    switch machine {
    case .standard(let brain):
      switch brain {
      case .left(.entry(let entry), _, _), .leftOpRight(_, _, .entry(let entry)):
        return entry.hasPoint
      case .left(.value, _, _), .leftOp, .leftOpRight(_, _, .value), .error, .equalled:
        return false
      }
    case .scientific(let scientific):
      return scientific.isTyping && scientific.input.hasPoint && !scientific.input.hasExponent
    case .programmer:
      return false
    }
  }
}

extension Decimal34 {
  /// Whether the value holds all 34 significant digits, as a value rounded to them does (SPEC
  /// §2 rule 15): the mark the note on equal operands looks for.
  var isRounded: Bool {
    coefficient >= 1_000_000_000_000_000_000_000_000_000_000_000
  }
}
