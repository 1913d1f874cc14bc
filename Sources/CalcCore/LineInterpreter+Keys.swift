import CalculatorEngine

/// A line of keys: its notes, its trace and its display around the session's door
/// (``performKeys(_:references:line:output:note:)``).
extension LineInterpreter {
  /// Applies a line of keys and prints the display, or with ``trace`` one line per key; keys
  /// that a person probably did not mean get notes (``keyNotes(for:after:line:)``), and
  /// ``showedAnError`` says whether the line showed an error. `keys` start at index 0, and
  /// `references` hold N of each `$N` among them; `line` is the key text, for the columns of
  /// notes; `mode` is the session's mode before the line; `mayHoldModeKeys` is false when the
  /// keys are known to hold no mode key (digits and operators alone); `mayNeedNotes` is the
  /// script reader's check (``KeyText/keys(in:startingIn:writingOver:references:)``), with no
  /// operation pending before the line and with one: `false` spares the line
  /// ``mayNeedNotes(_:isPending:startsOnAnUntouchedZero:)-([Key],_,_)``;
  /// `note` is the line's note (SPEC §11), applied with its keys as one change.
  ///
  /// Inlined into its callers as far as a line that needs no note and no trace goes, a script's
  /// line, which then takes fewer instructions (Documentation/Performance.md#a-scripts-line); the
  /// rest is
  /// ``applyKeysWithNotesOrTrace(_:references:line:output:needsNotes:followsKeyLine:note:)``.
  @inline(__always)
  package mutating func applyKeys(
    _ keys: ArraySlice<Key>, references: [Int],
    line: UnsafeBufferPointer<UInt8>?, output: OutputBuffer, mode: Key.Mode,
    mayHoldModeKeys: Bool = true,
    mayNeedNotes scanned: (ifIdle: Bool, ifPending: Bool) = (true, true), note: String? = nil
  ) throws(LineError) {
    // The state before the line, for notes and the trace only: a copy of the calculator is a
    // good part of a short line's cost, so the common line makes none (and has no optional
    // state to carry, which the compiler copies about).
    // Programmer mode's lines: the case rule's notes and refusals first (SPEC §10), and the
    // replay for notes when a run of digits may go past the word (SPEC §5).
    // A pattern match a key, not `contains(_:)`: through the collection's generic `==` that
    // test cost a fifteenth of a script's line.
    // Not looked for in a line of digits and operators alone (`mayHoldModeKeys` false).
    let programmer =
      mode == .programmer
      || (mayHoldModeKeys
        && keys.contains { if case .mode(.programmer) = $0 { true } else { false } })
    if programmer, let line { notes += try caseRuleNotes(for: keys, line: line) }
    let isPending = (factsAfterKeys ?? stateFacts).isPending
    let startsOnAnUntouchedZero = keys.first?.isBinaryOperator == true && showsUntouchedZero
    // The reader's answer first: `false` is exact, as the check's own is. A line that starts
    // with a number while an operation is pending may replace a number the line before ended
    // with (SPEC v5 §5) — only while that number is still being typed, as `keyNotes` asks: a
    // till's lines (`12+`, `7-`, …) end on an operator and are not replayed for it (the replay
    // made each such line about six times the cost of the line itself).
    let needsNotes =
      startsOnAnUntouchedZero
      || ((isPending ? scanned.ifPending : scanned.ifIdle)
        && LineInterpreter.mayNeedNotes(
          keys, isPending: isPending, startsOnAnUntouchedZero: false,
          leftToRight: !notedLeftToRight, mode: mode)
        && mayNeedNotesAfterAll(keys, isPending: isPending, mode: mode))
      || (isPending && keys.first?.startsANumber == true && followsKeyLine
        && session.state.isTypingANumber)
      || (programmer && LineInterpreter.hasDigitRun(keys, atLeast: 3))
    guard needsNotes || context.trace else {
      try performKeys(keys, references: references, line: line, output: output, note: note)
      // Keys without a mode key leave the mode as it was.
      let facts = appendDisplay(to: output, mode: mayHoldModeKeys ? nil : mode)
      // No note due: no error passed on the way either (mayNeedNotes is exact when false).
      showedAnError = facts.showsError
      factsAfterKeys = facts
      return
    }
    try applyKeysWithNotesOrTrace(
      keys, references: references, line: line, output: output, needsNotes: needsNotes,
      followsKeyLine: followsKeyLine, note: note)
  }

  /// The second look at a line of `keys` that the scan says may need notes: the scan again,
  /// assuming that no key shows an error, and if that says no, whether a key does
  /// (``showsAnError(_:from:)``). A line that the scan says yes to only for the errors it might
  /// show (any `×` may overflow) is pressed once more, which costs less than the replay for
  /// notes: a 2 MB Scientific line of brackets spent 78% of its instructions in that replay
  /// (Documentation/Performance.md).
  ///
  /// - Complexity: O(n) in the number of keys, and the cost of their arithmetic.
  @inline(never)
  private func mayNeedNotesAfterAll(
    _ keys: ArraySlice<Key>, isPending: Bool, mode: Key.Mode
  ) -> Bool {
    LineInterpreter.mayNeedNotes(
      keys, isPending: isPending, startsOnAnUntouchedZero: false,
      leftToRight: !notedLeftToRight, mode: mode, errorsPossible: false)
      || LineInterpreter.showsAnError(keys, from: session.state)
  }

  /// The rest of ``applyKeys(_:references:line:output:mode:mayHoldModeKeys:mayNeedNotes:note:)``,
  /// for a line that needs notes (`needsNotes`) or is traced; `followsKeyLine` says whether the
  /// line before it applied keys (not a move, which a person means).
  @inline(never)
  private mutating func applyKeysWithNotesOrTrace(
    _ keys: ArraySlice<Key>, references: [Int],
    line: UnsafeBufferPointer<UInt8>?, output: OutputBuffer, needsNotes: Bool,
    followsKeyLine: Bool, note: String?
  ) throws(LineError) {
    let keys = TypedKeys(Array(keys), references: references)
    let before = session.state
    // The replay for notes comes first and lets go of its states before the line is applied, so
    // that a long line's expression line is held once at a time, not twice.
    let found =
      needsNotes
      ? keyNotes(
        for: keys, after: before, line: line, leftToRight: !notedLeftToRight,
        followsKeyLine: followsKeyLine) : nil
    try performKeys(
      keys.keys[...], references: keys.references, line: line, output: output, note: note)
    var passedAnError = false
    if let found {
      notes += found.notes
      passedAnError = found.passedAnError
      // Standard mode's left-to-right note: once a run, at the first such line (SPEC v5 §5).
      if let leftToRight = found.leftToRight {
        notes.append(leftToRight)
        notedLeftToRight = true
      }
    }
    let facts = stateFacts
    showedAnError = passedAnError || facts.showsError
    factsAfterKeys = facts
    guard context.trace else {
      appendDisplay(to: output)
      return
    }
    // The states in between are not kept by the session: replaying the line from the state
    // before it gives them, as the session itself computed them.
    var state = before
    state.startLine()
    // The keys as the session applied them: `$N` recalls what the line recorded.
    var recalls = session.history.lastKeysRecalls(keys.count)
    var references = keys.references.makeIterator()
    for key in keys {
      if case .reference = key {
        state.recall(recalls.removeFirst())
        output.bytes.append(UInt8(ascii: "$"))
        output.bytes.append(contentsOf: String(references.next()!).utf8)
      } else {
        state = state.apply(key)
        output.bytes.append(contentsOf: key.title.utf8)
      }
      output.bytes.append(UInt8(ascii: "\t"))
      format.append(state, to: &output.bytes)
      output.bytes.append(UInt8(ascii: "\t"))
      format.appendExpression(state, to: &output.bytes)
      output.bytes.append(UInt8(ascii: "\n"))
      // The output of a line waits for its effects to be recorded (the REPL's journal) when
      // it goes to a terminal; a script's trace is written out as it goes.
      if !context.showsExpression { output.flushIfFull() }
    }
  }
  /// The facts of the state as it is (see ``StateFacts``).
  var stateFacts: StateFacts {
    let state = session.state
    return StateFacts(
      showsError: state.isError, isPending: state.isPending, mode: state.mode)
  }

  /// Whether the display shows a 0 that nobody typed.
  var showsUntouchedZero: Bool { session.state.showsUntouchedZero }

  /// Appends the display and a newline; with ``showsExpression``, the expression line above it
  /// when it is not empty. Returns the facts of the state, read on the way.
  ///
  /// Inlined: called, it took a copy of the whole interpreter, and of the state and the format
  /// to pass them on (`memcpy`, every script line: Documentation/Performance.md#a-scripts-line).
  /// `mode`, when given, is the state's mode, known to the caller; `showsNoError`, that the
  /// state shows no error and waits for no operand (``Listing/writeDisplay(_:format:style:showsExpression:to:mode:showsNoError:)``).
  @discardableResult @inline(__always)
  package func appendDisplay(
    to output: OutputBuffer, mode: Key.Mode? = nil, showsNoError: Bool = false
  ) -> StateFacts {
    // Static: a display per key line is the hot path of a script, and needs no listing.
    Listing.writeDisplay(
      session.state, format: format, style: style,
      showsExpression: context.showsExpression, to: output, mode: mode,
      showsNoError: showsNoError)
  }

  /// The listings of the session as it is, in this interpreter's format and style.
  package var listing: Listing {
    Listing(
      history: session.history, format: format, style: style,
      isStopped: { [host] output in output.hasStopped || host.isInterrupted() })
  }
}
