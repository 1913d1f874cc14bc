import CalculatorEngine

/// Notes, never silence (SPEC §5): where keys do something a person probably did not mean, the
/// interpreter still does what they say, and adds a note to the line's result.
extension LineInterpreter {
  /// Whether a line of `keys` may need a note or may pass an error on the way (an error shown
  /// and then left by a digit or `.`, rule 14): a run of more digits than an entry holds; a unary key
  /// followed directly by a digit, `.` or `(`; a second `.` in a run of digits; an operator
  /// directly after the same one; a first key that is a binary operator acting on a 0 nobody
  /// typed (`startsOnAnUntouchedZero`, which the caller works out only for such a key); or a
  /// digit or `.` after a key that may have shown an error. `isPending` says whether an
  /// operation is pending before the line.
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
    _ keys: [Key], isPending: Bool, startsOnAnUntouchedZero: Bool
  ) -> Bool {
    mayNeedNotes(keys[...], isPending: isPending, startsOnAnUntouchedZero: startsOnAnUntouchedZero)
  }

  /// ``mayNeedNotes(_:isPending:startsOnAnUntouchedZero:)-([Key],_,_)`` of
  /// a slice of keys (a script's line, read over the keys of the line before).
  ///
  /// - Complexity: O(n) in the number of keys.
  static func mayNeedNotes(
    _ keys: ArraySlice<Key>, isPending: Bool, startsOnAnUntouchedZero: Bool
  ) -> Bool {
    if startsOnAnUntouchedZero { return true }
    return keys.withUnsafeBufferPointer {
      mayNeedNotes(scanning: $0, isPending: isPending)
    }
  }

  /// The scan of ``mayNeedNotes(_:isPending:startsOnAnUntouchedZero:)-([Key],_,_)``
  /// over the keys' memory: an array's iterator checked its bounds at every key.
  private static func mayNeedNotes(
    scanning keys: UnsafeBufferPointer<Key>, isPending: Bool
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
    // One switch a key, over the key's kind first (a jump table): this runs for every line a
    // script applies. Most keys are digits, which change nothing while nothing is armed.
    for key in keys {
      let operatorBefore = operatorCode
      operatorCode = 0xFF
      switch key {
      case .digit, .programmer(.hexDigit):
        if armed { return true }
        continue
      case .programmer(.bitwise), .programmer(.shift):
        if isPending { mayShowError = true } else { isPending = true }
      case .programmer(.not), .programmer(.rotate), .programmer(.bit):
        mayShowError = true
        pointTyped = false
        armed = true
        continue
      case .programmer(.radix), .programmer(.wordSize):
        break
      case .dot:
        if armed || pointTyped { return true }
        pointTyped = true
        continue
      case .op(let op):
        if operatorBefore == op.rawValue { return true }
        operatorCode = op.rawValue
        if isPending { mayShowError = true } else { isPending = true }
      case .scientific(.binary(let binary)):
        if operatorBefore == 0x10 | binary.rawValue { return true }
        operatorCode = 0x10 | binary.rawValue
        if isPending { mayShowError = true } else { isPending = true }
      case .equal:
        mayShowError = true
      case .unary, .scientific(.function):
        mayShowError = true
        pointTyped = false
        // A digit, `.` or `(` right after it: the unary key's note.
        armed = true
        continue
      case .command(let command):
        switch command {
        case .percent: mayShowError = true
        case .clear: (mayShowError, isPending) = (false, false)
        case .clearEntry: mayShowError = false
        case .flip, .backspace:
          // They leave the number being typed as it is, point included.
          armed = mayShowError
          continue
        }
      case .memory(let memory):
        switch memory {
        case .add, .subtract: mayShowError = true
        case .store: break
        case .recall, .clear:
          // With the memory empty they do nothing, and the number being typed goes on, its
          // point included (`1.mc.5`: the second point is ignored).
          if memory == .recall { mayShowError = true }
          armed = mayShowError
          continue
        }
      case .scientific(.bracket(let bracket)):
        switch bracket {
        case .close: mayShowError = true
        case .open:
          if armed { return true }
          // After a number, `(` implies a × (Scientific mode), which computes what is pending.
          if isPending { mayShowError = true } else { isPending = true }
        }
      case .mode:
        (mayShowError, isPending) = (false, false)
      case .reference:
        // Like MR: it may recall an error, and a digit after it starts a new number.
        mayShowError = true
        armed = true
        continue
      case .scientific(.constant), .angle:
        break
      case .scientific(.exponent), .scientific(.fixedToExponential):
        // They leave the number being typed as it is, point included.
        armed = mayShowError
        continue
      }
      pointTyped = false
      armed = mayShowError
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
        .programmer(.bit), .reference:
        digits = 0
      case .command, .memory, .scientific(.exponent), .scientific(.fixedToExponential), .angle,
        .programmer(.hexDigit):
        break
      }
      if case .unary = key { previousIsUnary = true } else { previousIsUnary = false }
    }
    return false
  }

  /// The notes for a line of `keys` applied to `before` (the state before the line), whose key
  /// text is `line` (for columns), and whether the line passed an error on the way (an error
  /// it showed, then left by a digit or `.` without AC or CE: SPEC §5's exit status 1).
  ///
  /// The notes: digits an entry ignored; a unary key whose answer the next digit discarded, or
  /// that acted on a 0 nobody typed before a `(`; an error the line went past; a second decimal
  /// point ignored; an operator that replaced the same operator; a first key that is a binary
  /// operator acting on a 0 nobody typed. An error that a unary key's note already explains
  /// (`ln 2`: ln of 0, then `2`) gets no note of its own, but still counts as passed.
  ///
  /// - Complexity: O(n) in the keys: the line is replayed once.
  func keyNotes(
    for keys: TypedKeys, after before: Calculator,
    line: UnsafeBufferPointer<UInt8>?
  ) -> (notes: [LineNote], passedAnError: Bool) {
    let columns = line.map { KeyText.columns(in: $0, startingIn: before.mode) } ?? []
    func column(_ index: Int) -> Int { index < columns.count ? columns[index] : index + 1 }
    let format = context.noteFormat
    var notes: [LineNote] = []
    var passedAnError = false
    var state = before
    state.startLine()
    // What the line's `$N` keys recall (SPEC §11); a line that refers to no earlier line is
    // refused when it is applied, and gets no notes.
    guard let recalls = try? session.recalls(forLine: keys) else { return ([], false) }
    var recall = 0
    if let first = keys.first, first.isBinaryOperator, state.showsUntouchedZero {
      notes.append(
        LineNote(
          message: "the line starts with \(first.title); if it held $N, quote it with '…'",
          column: column(0)))
    }
    var ignored: (first: Int, count: Int, capacity: Int)?
    func flushIgnored() {
      guard let run = ignored else { return }
      notes.append(
        LineNote(
          message: "an entry holds \(run.capacity) digits; "
            + "\(run.count) more \(run.count == 1 ? "was" : "were") ignored "
            + "(column \(column(run.first)))",
          column: column(run.first)))
      ignored = nil
    }
    // The digits a Programmer entry ignored: where they start, how many, the first eight.
    var ignoredInWord: (first: Int, count: Int, digits: String, word: ProgrammerBrain)?
    func flushIgnoredInWord() {
      guard let run = ignoredInWord else { return }
      let size = run.word.wordSize
      let holds =
        run.word.radix == .dec
        ? "\(-(Int128(1) << (size.bits - 1))) to \((Int128(1) << (size.bits - 1)) - 1)"
        : "\(size.bits) bits"
      let digits =
        run.count == 1
        ? "the \(run.digits) at column \(column(run.first)) was"
        : run.count <= 8
          ? "the \(run.digits) from column \(column(run.first)) were"
          : "\(run.count) digits from column \(column(run.first)) were"
      notes.append(
        LineNote(
          message: "a \(size.title) holds \(holds); \(digits) ignored", column: column(run.first)))
      ignoredInWord = nil
    }
    // The error this line showed and has not left yet: the key that showed it, the note's text
    // for it, and whether a unary key's note already explains it.
    var shownError: (index: Int, text: String, isExplained: Bool)?
    for (index, key) in keys.enumerated() {
      let prior = state
      if case .reference = key {
        state.recall(recalls[recall])
        recall += 1
      } else {
        state.press(key)
      }
      if case .digit = key, state == prior, let capacity = prior.fullEntryCapacity {
        ignored = ignored.map { ($0.first, $0.count + 1, capacity) } ?? (index, 1, capacity)
        continue
      }
      flushIgnored()
      if key.startsANumber, state == prior, let programmer = prior.programmer,
        programmer.isTyping, programmer.error == nil, programmer.input.magnitude != 0
      {
        // Programmer mode: typing stops where the value would no longer fit the word (SPEC §5).
        ignoredInWord =
          ignoredInWord.map {
            ($0.first, $0.count + 1, $0.count < 8 ? $0.digits + key.canonical : $0.digits, $0.word)
          } ?? (index, 1, key.canonical, programmer)
        continue
      }
      flushIgnoredInWord()
      if prior.isError {
        guard !state.isError, let error = shownError else { continue }
        shownError = nil
        // AC, CE and a mode key clear an error on purpose; a digit or `.` goes past it.
        guard key.startsANumber else { continue }
        passedAnError = true
        if !error.isExplained {
          notes.append(
            LineNote(
              message: "\(error.text); the keys after it started a new calculation",
              column: column(error.index)))
        }
        continue
      }
      if state.isError {
        let expression = format.expression(for: state)
        shownError = (
          index,
          "\(format.text(for: state)) at column \(column(index))"
            + (expression.isEmpty ? "" : " (\(expression))"),
          false
        )
      }
      switch key {
      case .dot:
        if prior.typedEntryHasPoint {
          notes.append(
            LineNote(
              message: "a number has one decimal point; the '.' at column \(column(index)) "
                + "was ignored",
              column: column(index)))
        }
      case .op, .scientific(.binary):
        guard index > 0, keys[index - 1] == key else { break }
        var hint = ""
        if case .op(.multiply) = key {
          hint = prior.mode == .scientific ? " (xʸ is ^)" : " (xʸ is ^ in Scientific mode)"
        }
        notes.append(
          LineNote(
            message: "the second \(key.title) replaced the first\(hint)", column: column(index)))
      case .unary, .scientific(.function), .programmer(.not), .programmer(.rotate),
        .programmer(.bit):
        guard index + 1 < keys.count else { break }
        let next = keys[index + 1]
        if next.startsANumber {
          let number = keys[(index + 1)...].prefix(while: \.startsANumber)
          let typed = KeyText.text(of: number)
          notes.append(
            LineNote(
              message:
                "\(key.title) acted on \(format.text(for: prior)) and \(typed) started "
                + "a new number (\(key.title) acts on the number before it: \(typed)"
                + "\(key.canonical))",
              column: column(index + 1)))
        } else if case .scientific(.bracket(.open)) = next, prior.showsUntouchedZero {
          // `sin(30)`: the number in the brackets, when they hold just one.
          let inside = keys[(index + 2)...].prefix(while: \.startsANumber)
          let closes =
            index + 2 + inside.count < keys.count
            && keys[index + 2 + inside.count] == .scientific(.bracket(.close))
          let number =
            !inside.isEmpty && closes ? KeyText.text(of: inside) + key.canonical + ", or " : ""
          notes.append(
            LineNote(
              message: "\(key.title) acted on \(format.text(for: prior)) (\(key.title) acts on "
                + "the number before it: \(number)(…)\(key.canonical))",
              column: column(index)))
        } else {
          break
        }
        if state.isError { shownError?.isExplained = true }
      case .reference:
        // `$3 5`: the digits after a reference start a new number (SPEC §11, like §5's note).
        guard index + 1 < keys.count, keys[index + 1].startsANumber, !prior.isError else { break }
        let number = keys[(index + 1)...].prefix(while: \.startsANumber)
        notes.append(
          LineNote(
            message: "$\(keys.references[recall - 1]) recalled \(format.text(for: state)) and "
              + "\(KeyText.text(of: number)) started a new number",
            column: column(index + 1)))
      case .digit, .equal, .command, .memory, .scientific(.bracket), .scientific(.constant),
        .scientific(.exponent), .scientific(.fixedToExponential), .angle, .mode,
        .programmer(.hexDigit), .programmer(.radix), .programmer(.wordSize),
        .programmer(.bitwise), .programmer(.shift):
        break
      }
    }
    flushIgnored()
    flushIgnoredInWord()
    return (notes, passedAnError)
  }

  /// `12 + 3 is not finished; add = to compute it` when an operation is still pending, for the
  /// end of the input; `nil` otherwise.
  package var pendingNote: String? {
    let state = session.state
    let format = context.noteFormat
    // Only a pending line is written out: a finished one may be megabytes long.
    guard state.isPending else { return nil }
    let isTyping = state.isTypingPendingOperand
    var shown = format.expression(for: state)
    if isTyping { shown += " " + format.text(for: state) }
    return "\(shown) is not finished; add = to compute it"
  }
}
