import CalculatorEngine

/// Notes, never silence (SPEC §5): where keys do something a person probably did not mean, the
/// interpreter still does what they say, and adds a note to the line's result.
extension LineInterpreter {
  /// Whether a line of `keys` may need a note: one with more digits than an entry holds between
  /// two keys that end an entry (it may hold a run of digits that an entry ignored), or a unary
  /// key followed directly by a digit. One cheap scan of the keys, so that the common line pays
  /// almost nothing more, and a long line of short numbers is not replayed a second time.
  ///
  /// - Complexity: O(n) in the keys.
  static func mayNeedNotes(_ keys: [CalculatorButtonItem]) -> Bool {
    // A run of more digits than an entry holds needs more keys than that.
    if keys.count > Entry.maximumDigits { return mayNeedNotes(long: keys) }
    var previousIsUnary = false
    for key in keys {
      if previousIsUnary, key.startsANumber { return true }
      if case .unary = key { previousIsUnary = true } else { previousIsUnary = false }
    }
    return false
  }

  /// ``mayNeedNotes(_:)`` for a line longer than an entry's digits: apart, so that the short
  /// line's scan stays as it was.
  @inline(never)
  private static func mayNeedNotes(long keys: [CalculatorButtonItem]) -> Bool {
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
      case .op, .equal, .binary, .bracket, .function, .constant, .mode, .unary:
        digits = 0
      case .command, .memory, .exponent, .fixedToExponential, .angle:
        break
      }
      if case .unary = key { previousIsUnary = true } else { previousIsUnary = false }
    }
    return false
  }

  /// The notes for a line of `keys` applied to `before` (the state before the line), whose key
  /// text is `line` (for columns): digits an entry ignored, and a unary key whose answer the
  /// next digit discarded.
  ///
  /// - Complexity: O(n) in the keys: the line is replayed once.
  func keyNotes(
    for keys: [CalculatorButtonItem], after before: Calculator,
    line: UnsafeBufferPointer<UInt8>?
  ) -> [LineNote] {
    let columns = line.map { KeyText.columns(in: $0) } ?? []
    func column(_ index: Int) -> Int { index < columns.count ? columns[index] : index + 1 }
    var notes: [LineNote] = []
    var state = before
    state.startLine()
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
    for (index, key) in keys.enumerated() {
      let prior = state
      state.press(key)
      if case .digit = key, state == prior, let capacity = prior.fullEntryCapacity {
        ignored = ignored.map { ($0.first, $0.count + 1, capacity) } ?? (index, 1, capacity)
        continue
      }
      flushIgnored()
      guard case .unary = key, index + 1 < keys.count, keys[index + 1].startsANumber,
        !prior.isError
      else { continue }
      let number = keys[(index + 1)...].prefix(while: \.startsANumber)
      let typed = KeyText.text(of: number)
      notes.append(
        LineNote(
          message:
            "\(key.title) acted on \(context.noteFormat.text(for: prior)) and \(typed) started "
            + "a new number (\(key.title) acts on the number before it: \(typed)"
            + "\(key.canonical))",
          column: column(index + 1)))
    }
    flushIgnored()
    return notes
  }

  /// `12 + 3 is not finished; add = to compute it` when an operation is still pending, for the
  /// end of the input; `nil` otherwise.
  var pendingNote: String? {
    let state = session.state
    let format = context.noteFormat
    // Only a pending line is written out: a finished one may be megabytes long.
    let isTyping: Bool
    if let scientific = state.scientific {
      guard scientific.isPending else { return nil }
      isTyping = scientific.isTyping
    } else {
      guard state.brain.isPending else { return nil }
      isTyping = state.brain.isTypingRightOperand
    }
    var shown = format.expression(for: state)
    if isTyping { shown += " " + format.text(for: state) }
    return "\(shown) is not finished; add = to compute it"
  }
}

extension CalculatorButtonItem {
  /// Whether the key starts or continues a number being typed: a digit or the point.
  var startsANumber: Bool {
    switch self {
    case .digit, .dot: true
    case .op, .equal, .command, .unary, .memory, .bracket, .binary, .function, .constant,
      .exponent, .fixedToExponential, .angle, .mode:
      false
    }
  }
}

extension Calculator {
  /// How many digits the entry being typed holds, when it is full (a further digit is
  /// ignored): 16 in Standard mode, 32 in Scientific mode; `nil` when no full entry is typed.
  var fullEntryCapacity: Int? {
    if let scientific {
      let input = scientific.input
      return scientific.isTyping && !input.hasExponent
        && input.digitCount >= ScientificEntry.maximumDigits ? ScientificEntry.maximumDigits : nil
    }
    return brain.isTypingAFullEntry ? Entry.maximumDigits : nil
  }
}
