import CalculatorEngine

/// The scan that spares a line the replay for notes (SPEC §5): one pass over its keys, which says
/// whether a note may be due (``keyNotes(for:after:line:leftToRight:followsKeyLine:)`` then finds
/// out) or surely is not.
extension LineInterpreter {
  /// Whether a line of `keys` may need a note or may pass an error on the way (an error shown
  /// and then left by a digit or `.`, rule 14): a run of more digits than an entry holds; a unary key
  /// followed directly by a digit, `.` or `(`; a second `.` in a run of digits; an operator
  /// directly after an operator (the same one, or another: `5*-2`); a first key that is a binary
  /// operator acting on a 0 nobody typed (`startsOnAnUntouchedZero`, which the caller works out
  /// only for such a key); a digit or `.` after a key that may have shown an error; `~` before
  /// any digit with a digit after it (`~5`); `pi`, `euler` or `mr` while a number is typed, and
  /// any `$N`; `exp` followed by an operator or by more than its digits; a `−` whose left operand
  /// may be a rounded value (a result of `÷`, a unary key, a recall), or a value from before the
  /// line (SPEC v5 §5's equal operands, `3@q-3=`); and, with `leftToRight` (Standard mode, until
  /// the note was given once), a `×` or `÷` that may compute a pending `+` or `−`.
  /// `isPending` says whether an operation is pending before the line; `mode` is the mode the
  /// line starts in.
  ///
  /// One cheap scan of the keys, so that the common line pays almost nothing more: a key may show
  /// an error only if it computes, and an operator computes only while an operation is pending
  /// (`123.45*6.7=` is never replayed: its only computing key, `=`, has no digit after it).
  /// `false` is exact (no note is due); `true` means the line is replayed to find out. The
  /// state is passed as two flags, not as a `Calculator`: reading the session's state into an
  /// argument copied it, a good part of a short line's cost.
  ///
  /// - Complexity: O(n) in the number of keys.
  static func mayNeedNotes(
    _ keys: [Key], isPending: Bool, startsOnAnUntouchedZero: Bool,
    leftToRight: Bool = true, mode: Key.Mode = .standard, errorsPossible: Bool = true
  ) -> Bool {
    mayNeedNotes(
      keys[...], isPending: isPending, startsOnAnUntouchedZero: startsOnAnUntouchedZero,
      leftToRight: leftToRight, mode: mode, errorsPossible: errorsPossible)
  }

  /// ``mayNeedNotes(_:isPending:startsOnAnUntouchedZero:leftToRight:mode:)-([Key],_,_,_,_)``
  /// of a slice of keys (a script's line, read over the keys of the line before).
  ///
  /// With `errorsPossible` false the scan assumes that no key shows an error: its `false` then
  /// says that a note can be due only if an error is shown on the way, which
  /// ``showsAnError(_:from:)`` finds out for less than the replay for notes costs.
  ///
  /// - Complexity: O(n) in the number of keys.
  static func mayNeedNotes(
    _ keys: ArraySlice<Key>, isPending: Bool, startsOnAnUntouchedZero: Bool,
    leftToRight: Bool = true, mode: Key.Mode = .standard, errorsPossible: Bool = true
  ) -> Bool {
    if startsOnAnUntouchedZero { return true }
    return keys.withUnsafeBufferPointer {
      mayNeedNotes(
        scanning: $0, isPending: isPending, leftToRight: leftToRight,
        standard: mode == .standard, errorsPossible: errorsPossible)
    }
  }

  /// Whether `keys`, pressed from `state` as a line (a line start first), show an error on the
  /// way, at any key: a line whose scan is due only to errors it might show
  /// (``mayNeedNotes(_:isPending:startsOnAnUntouchedZero:leftToRight:mode:errorsPossible:)-(ArraySlice<Key>,_,_,_,_,_)``
  /// with `errorsPossible` false says no) needs the replay for notes only then. The keys hold no
  /// `$N`, formula or date line (the scan says yes to those).
  ///
  /// - Complexity: O(n) in the number of keys, and the cost of their arithmetic: the line's
  ///   keys pressed once more, without the replay's comparisons, copies and texts.
  static func showsAnError(_ keys: ArraySlice<Key>, from state: Calculator) -> Bool {
    var state = state
    state.startLine()
    for key in keys {
      state.press(key)
      if state.isError { return true }
    }
    return false
  }

  /// The scan of ``mayNeedNotes(_:isPending:startsOnAnUntouchedZero:leftToRight:mode:)-([Key],_,_,_,_)``
  /// over the keys' memory: an array's iterator checked its bounds at every key.
  private static func mayNeedNotes(
    scanning keys: UnsafeBufferPointer<Key>, isPending: Bool, leftToRight: Bool,
    standard: Bool, errorsPossible: Bool
  ) -> Bool {
    // A run of more digits than an entry holds needs more keys than that; a longer line is
    // scanned for such a run apart, so that a long line of short numbers is not replayed.
    if keys.count > Entry.maximumDigits, mayNeedNotes(long: keys) { return true }
    var isPending = isPending
    // Whether a key since the last AC, CE or mode key may have shown an error.
    var mayShowError = false
    // Whether a digit or `.` now needs the replay: after a key that may have shown an error, or
    // right after a unary key. While it is false, so is `mayShowError`.
    var armed = false
    var pointTyped = false
    // The key before, if it was an operator: its code (0xFF for any other key).
    var operatorCode: UInt8 = 0xFF
    // Whether a number is being typed (its digits, point, sign and exponent so far), and
    // whether any was typed on the line.
    var typing = false
    var typedANumber = false
    // `~` before any digit of a number: a digit after it starts a new number (`~5`).
    var flippedNothing = false
    // Inside an exponent (after `exp`): how many of its digits.
    var exponentDigits = -1
    // Whether the display may hold a rounded value (of `÷`, `×`, a unary key, a recall …).
    var mayBeRounded = false
    // Whether a `+` or `−` may be pending (before the line: unknown, so yes) — Standard mode's
    // left-to-right note.
    var additivePending = isPending
    var standard = standard
    // One switch a key, over the key's kind first (a jump table): this runs for every line a
    // script applies. Most keys are digits, which change nothing while nothing is armed.
    for key in keys {
      let operatorBefore = operatorCode
      operatorCode = 0xFF
      switch key {
      case .digit, .programmer(.hexDigit):
        if armed || flippedNothing { return true }
        if exponentDigits >= 0 {
          exponentDigits += 1
          if exponentDigits > ScientificEntry.maximumExponentDigits { return true }
        }
        typing = true
        typedANumber = true
        continue
      case .programmer(.bitwise), .programmer(.shift):
        if operatorBefore != 0xFF { return true }
        operatorCode = 0x20
        if isPending { mayShowError = errorsPossible } else { isPending = true }
      case .programmer(.not), .programmer(.rotate), .programmer(.bit):
        // A bit key starts afresh after an error, as a digit does (SPEC §10).
        if case .programmer(.bit) = key, mayShowError { return true }
        mayShowError = errorsPossible
        pointTyped = false
        armed = true
        (typing, flippedNothing, exponentDigits) = (false, false, -1)
        continue
      case .programmer(.radix), .programmer(.wordSize):
        // They clear an error and go on (SPEC §10): the error is passed.
        if mayShowError { return true }
      case .dot:
        if armed || pointTyped || flippedNothing { return true }
        pointTyped = true
        typing = true
        typedANumber = true
        continue
      case .op(let op):
        if operatorBefore != 0xFF || exponentDigits >= 0 { return true }
        operatorCode = op.rawValue
        switch op {
        case .plus: additivePending = true
        case .minus:
          if mayBeRounded || !typedANumber { return true }
          additivePending = true
        case .multiply, .divide:
          if leftToRight, standard, additivePending { return true }
          additivePending = false
          mayBeRounded = true
        }
        if isPending { mayShowError = errorsPossible } else { isPending = true }
      case .scientific(.binary(let binary)):
        if operatorBefore != 0xFF || exponentDigits >= 0 { return true }
        operatorCode = 0x10 | binary.rawValue
        mayBeRounded = true
        if isPending { mayShowError = errorsPossible } else { isPending = true }
      case .equal:
        mayShowError = errorsPossible
        additivePending = false
      case .unary, .scientific(.function):
        mayShowError = errorsPossible
        mayBeRounded = true
        pointTyped = false
        // A digit, `.` or `(` right after it: the unary key's note.
        armed = true
        (typing, flippedNothing, exponentDigits) = (false, false, -1)
        continue
      case .command(let command):
        switch command {
        case .percent:
          mayShowError = errorsPossible
          mayBeRounded = true
        case .clear:
          (mayShowError, isPending, additivePending) = (false, false, false)
        case .clearEntry: mayShowError = false
        case .flip, .backspace:
          // They leave the number being typed as it is, point included; `~` before any digit
          // does nothing to a 0 nobody typed, and a digit after it starts a new number.
          if command == .flip, !typing { flippedNothing = true }
          armed = mayShowError
          continue
        }
      case .memory(let memory):
        switch memory {
        case .add, .subtract: mayShowError = errorsPossible
        case .store: break
        case .recall, .clear:
          // `mr` replaces a number being typed (SPEC v5 §5).
          if memory == .recall {
            if typing { return true }
            mayShowError = errorsPossible
            mayBeRounded = true
          }
          // With the memory empty they do nothing, and the number being typed goes on, its
          // point included (`1.mc.5`: the second point is ignored).
          armed = mayShowError
          continue
        }
      case .scientific(.bracket(let bracket)):
        switch bracket {
        case .close: mayShowError = errorsPossible
        case .open:
          // Right after `exp` too: `exp(2)` is a formula's eˣ (SPEC §12).
          if armed || exponentDigits == 0 { return true }
          // After a number, `(` implies a × (Scientific mode), which computes what is pending.
          if isPending { mayShowError = errorsPossible } else { isPending = true }
        }
      case .mode(let mode):
        (mayShowError, isPending, additivePending) = (false, false, false)
        standard = mode == .standard
      case .reference, .formula, .dateLine:
        // Like MR: it may recall an error or replace a number being typed, and a digit after
        // it starts a new number.
        return true
      case .scientific(.constant):
        // π and e replace a number being typed (SPEC v5 §5).
        if typing { return true }
        mayBeRounded = true
      case .angle:
        break
      case .scientific(.exponent):
        exponentDigits = 0
        armed = mayShowError
        continue
      case .scientific(.fixedToExponential):
        // It leaves the number being typed as it is, point included.
        armed = mayShowError
        continue
      }
      pointTyped = false
      armed = mayShowError
      (typing, flippedNothing, exponentDigits) = (false, false, -1)
    }
    return false
  }

  /// Whether a line longer than an entry's digits holds a run of digits that may overflow an
  /// entry, or a unary key followed directly by a digit: apart from the short line's scan, so
  /// that it stays as it was.
  @inline(never)
  private static func mayNeedNotes(long keys: UnsafeBufferPointer<Key>) -> Bool {
    var digits = 0
    var previousIsUnary = false
    for key in keys {
      if previousIsUnary, key.startsANumber { return true }
      // Digits count until a key that surely ends the entry; any other key (backspace, a sign,
      // an exponent, a memory key) might leave it going, and keeps the count.
      switch key {
      case .digit, .dot:
        digits += 1
        if digits > Entry.maximumDigits { return true }
      case .op, .equal, .scientific(.binary), .scientific(.bracket), .scientific(.function),
        .scientific(.constant), .mode, .unary, .programmer(.radix), .programmer(.wordSize),
        .programmer(.bitwise), .programmer(.not), .programmer(.shift), .programmer(.rotate),
        .programmer(.bit), .reference, .formula, .dateLine:
        digits = 0
      case .command, .memory, .scientific(.exponent), .scientific(.fixedToExponential), .angle,
        .programmer(.hexDigit):
        break
      }
      if case .unary = key { previousIsUnary = true } else { previousIsUnary = false }
    }
    return false
  }
}
