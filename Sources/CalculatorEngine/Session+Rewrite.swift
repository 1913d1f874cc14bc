import CalcDecimal

// Changing the past (SPEC §4, §11): `:edit`, `:insert` and `:delete` rewrite a line and replay the
// lines after it on a new branch; `:vary` does so once for each alternative. ``Session/perform(_:)``
// reaches them through its one `switch`.
extension Session {
  /// Edits, inserts or deletes line `number` (see ``Command/edit(line:keys:)``).
  ///
  /// - Complexity: O(n) in the length of the branch from line `number` on.
  mutating func rewrite(
    _ number: Int, _ kind: Rewrite.Kind, _ keys: TypedKeys
  ) throws(SessionError) -> Change {
    let lines = history.lines()
    // Line 0 is the mode line when there is one (SPEC §11): it stays, and nothing goes before it.
    let first = History.firstLineNumber(of: lines)
    let count = lines.count - 1 + first
    if number == 0, first == 0 { throw .modeLineFixed(SessionError.verb(kind), last: count) }
    let last = kind == .inserted ? count + 1 : count
    guard number >= 1, number <= last else {
      throw kind == .inserted
        ? .cannotInsert(number, count: count) : .unknownLine(number, count: count)
    }
    let index = number - first
    let from = history.currentBranch
    let startState =
      history.state(at: index < lines.count ? lines[index].start : history.count)
    var keypad = startState.keypad
    if let (out, reason) = Calculator.firstRejectedKey(in: keys.keys, keypad: &keypad) {
      throw SessionError(rejecting: keys[out], at: out, reason)
    }
    // The new line may refer to the lines before it only (SPEC §11).
    for target in keys.allReferences where target < 1 || target >= number {
      throw Session.referenceError(target, line: number, first: first)
    }
    // A lone mode key that becomes the branch's first line is its mode line, line 0.
    let listed = index == 0 && kind != .deleted && History.isModeLine(keys.keys[...]) ? 0 : number
    // Until the later lines' numbers are known (below), the results are of the line itself.
    var firstResultLine = listed
    if kind == .edited, lines[index].keys == keys {
      return .rewrote(
        Rewrite(
          kind: kind, line: number, listedLine: listed, firstResultLine: firstResultLine,
          fromBranch: from, newBranch: nil,
          isUnchanged: true,
          results: []))
    }
    let start = index < lines.count ? lines[index].start : history.count
    // The lines after the change, as typed, and the old lines they are paired with.
    let later = lines[(kind == .inserted ? index : index + 1)...]
    if kind == .deleted, later.isEmpty {
      history.move(to: start)
      return .rewrote(
        Rewrite(
          kind: kind, line: number, listedLine: listed, firstResultLine: firstResultLine,
          fromBranch: from, newBranch: nil,
          isUnchanged: false,
          results: []))
    }
    // The first line of the new branch, which is line 0 if it is the mode line: a change of
    // line 1 can make or unmake one, and the numbers of the later lines' references follow.
    let newFirst =
      index > 0
      ? lines[0].keys.keys[...]
      : kind == .deleted ? later.first?.keys.keys[...] ?? [] : keys.keys[...]
    let shift = (History.isModeLine(newFirst) ? 0 : 1) - first
    // A later line M is line M + shift after an edit, M + 1 + shift after an insertion and
    // M - 1 + shift after a deletion; the results start at the edited line, or at the line after
    // the inserted one (line L before), or at the one after the deleted one (line L + 1 before).
    switch kind {
    case .edited: break
    case .inserted: firstResultLine = number + 1 + shift
    case .deleted: firstResultLine = number + shift
    }
    // A reference's new number: `:insert` moves the lines from line L down a line and `:delete`
    // those after it up one, and the references to the lines that move follow them (SPEC §11).
    func moved(_ target: Int) -> Int {
      let moves =
        switch kind {
        case .edited: 0
        case .inserted: target >= number ? 1 : 0
        case .deleted: target > number ? -1 : 0
        }
      return target + moves + shift
    }
    // A later line is never replayed with keys skipped (SPEC §4): a change after which one
    // would be rejected (a `std` before Scientific keys, the `sci` line before them deleted)
    // is refused, naming it. Only the mode decides, and it follows the mode keys alone.
    // By index, each line's keys read in place: a `Line` copied out a line cost a retain and a
    // release.
    for at in later.indices {
      if let (out, reason) = Calculator.firstRejectedKey(
        in: later[at].keys.keys, keypad: &keypad)
      {
        if reason == .scientificKey {
          throw .laterLineRejected(kind, line: number, later: at + first, key: later[at].keys[out])
        }
        throw .laterLineKeyRejected(
          kind, line: number, later: at + first, key: later[at].keys[out], reason: reason)
      }
      // A later line that refers to a deleted line would have nothing to recall, and one that
      // refers to a line that becomes the mode line, no result.
      guard later[at].keys.hasReferences || later[at].keys.hasFormulas else { continue }
      for target in later[at].keys.allReferences {
        if kind == .deleted, target == number {
          throw .referencedLineDeleted(line: number, by: at + first)
        }
        if moved(target) < 1 {
          throw .laterLineReferencesModeLine(kind, line: number, later: at + first)
        }
      }
    }
    // The later lines as they are replayed, their references renumbered: read one at a time
    // (a list of them all copied each line's keys, five arrays retained and released a line).
    let renumbers = kind != .edited || shift != 0
    func replayed(_ at: Int) -> TypedKeys {
      let keys = later[at].keys
      return renumbers && (keys.hasReferences || keys.hasFormulas) ? keys.renumbered(moved) : keys
    }
    // The old lines from line L on (for a deletion, from the line after it), whose displays the
    // results pair with the new ones.
    let oldLines = kind == .deleted ? later : lines[index...]
    // An edit that another branch already holds, with the same lines before and after it,
    // reuses that branch (SPEC §4, §11's `:vary`) instead of making its twin.
    if kind == .edited,
      let existing = existingBranch(
        keyCount: lines[..<index].reduce(keys.count) { $0 + $1.keys.count }
          + later.reduce(0) { $0 + $1.keys.count },
        holding: { lines[..<index].map(\.keys) + [keys] + later.indices.map(replayed) })
    {
      let old = history.displays(after: oldLines)
      history.switchTo(branch: existing)
      let newLines = history.lines().suffix(later.count + 1)
      let new = history.displays(after: newLines)
      let results = zip(zip(newLines.map(\.end), new), old).map { pair, old in
        Rewrite.Result(step: pair.0, old: old, new: pair.1)
      }
      return .rewrote(
        Rewrite(
          kind: kind, line: number, listedLine: listed, firstResultLine: firstResultLine,
          fromBranch: from, newBranch: existing,
          isUnchanged: false,
          results: results))
    }
    // A later line refused below leaves the session as it was: position included.
    let before = self
    // The old displays, replayed line by line beside the new lines as they are applied: once
    // the state after a new line is the state after its old line to the last digit
    // (`Calculator.isIdentical(to:)`), the later lines, the same keys, show what they showed,
    // and their old displays are the new ones, not replayed (calc-bench's edits of the Standard
    // stream meet the old branch after two lines: Documentation/Performance.md, "`:edit` meets
    // the old branch"). A line with `$N` or a formula may recall what changed: it is replayed
    // from the new state before it.
    var oldReplay = History.LineReplay(history, from: oldLines.first?.start ?? start)
    // Whether the replay met the new lines at the last line paired.
    var met = false
    history.move(to: start)
    var made: Int?
    // The new lines' displays, each paired with its old line's as the line is applied: an
    // edit's new line with the old one it replaces, an inserted one with none.
    var results: [Rewrite.Result] = []
    results.reserveCapacity(oldLines.count)
    var newLine = kind == .inserted ? -1 : 0
    // Where the lines of the new branch end, for the references of the lines replayed on it:
    // those before line L are the current branch's.
    var lineEnds = lines[..<index].map(\.end)
    // Every reference was checked above: resolving one fails only for its kind (a date line's
    // date or duration in another mode, SPEC §13), which refuses the change. A formula is compiled
    // again (SPEC §12); one that no longer compiles (`ans` with no earlier result, `mr` with an
    // empty memory) refuses the change, and the session is left as it was (`before`).
    func apply(_ keys: TypedKeys, line later: Int) throws(SessionError) -> (Int?, Display) {
      var recalls: [Calculator.Recalled] = []
      var steps: [FormulaStep] = []
      var dates: [DateStep] = []
      do throws(SessionError) {
        // A `$N` of a line that now shows a date or a duration in another mode, or `ms` after
        // one (SPEC §13): the only references that can fail here.
        if keys.hasReferences {
          recalls = try Session.recalls(
            of: keys.references, after: LineEndIndex.Preceding(lineEnds[...]), in: history)
        }
        if Session.storesInMemory(keys.keys) {
          try Session.checkDateMemory(keys, state: history.state)
        }
      } catch {
        self = before
        throw .date(
          LineError(
            "cannot \(SessionError.verb(kind)) line \(number): line \(later) would then be "
              + "rejected (\(error.description))"))
      }
      if keys.hasFormulas {
        do throws(SessionError) {
          steps = try formulaSteps(
            for: keys, after: LineEndIndex.Preceding(lineEnds[...]), memory: history.state.memory)
          dates = try dateSteps(
            for: keys, after: LineEndIndex.Preceding(lineEnds[...]), memory: history.state.memory)
        } catch {
          self = before
          throw .formula(
            FormulaError(
              "cannot \(SessionError.verb(kind)) line \(number): line \(later) would then be "
                + "rejected (\(error.description))", column: 1))
        }
      }
      // The display after the line, where the position now is: no replay to find it again.
      // Read by the history as it applies the line: read here, through this function's
      // captured `self`, it copied the whole history a line.
      let (branch, display) = history.applyShowing(
        line: keys.keys[...], references: keys.references, recalls: recalls, formulas: steps,
        dates: dates)
      lineEnds.append(history.position)
      return (branch, display)
    }
    // Pairs the display after the new line just applied with its old line's, if it has one.
    // Inlined by hand: a nested function here captured `history` (see `apply`).
    if !keys.isEmpty {
      let (branch, display) = try apply(keys, line: number)
      made = branch
      if newLine >= 0, newLine < oldLines.count {
        let old = oldReplay.display(after: oldLines[oldLines.startIndex + newLine])
        met = oldReplay.state.isIdentical(to: history.state)
        results.append(Rewrite.Result(step: history.position, old: old, new: display))
      }
      newLine += 1
      // An edited line keeps its note (SPEC §11); `note` changes it.
      if kind == .edited, let note = lines[index].note {
        history.setNote(note, ofLineEndingAt: history.position)
      }
    }
    // By index: a `Line` and its keys copied out a line cost a retain and a release each.
    for at in later.indices {
      let offset = at - later.startIndex
      // Before a new line with `$N` or a formula, the replay goes on from the new state.
      if met, later[at].keys.hasReferences || later[at].keys.hasFormulas {
        oldReplay.resume(from: history.state)
        met = false
      }
      let (branch, display) = try apply(
        replayed(at), line: number + offset + (kind == .deleted ? 0 : 1))
      if newLine >= 0, newLine < oldLines.count {
        // The old line read in place: bound to a name, a `Line` was copied (its keys' arrays
        // retained and released) a line.
        if met {
          oldReplay.skip(to: oldLines[oldLines.startIndex + newLine].end)
          results.append(Rewrite.Result(step: history.position, old: display, new: display))
        } else {
          let old = oldReplay.display(after: oldLines[oldLines.startIndex + newLine])
          met = oldReplay.state.isIdentical(to: history.state)
          results.append(Rewrite.Result(step: history.position, old: old, new: display))
        }
      }
      newLine += 1
      made = made ?? branch
      if let note = later[at].note {
        history.setNote(note, ofLineEndingAt: history.position)
      }
    }
    return .rewrote(
      Rewrite(
        kind: kind, line: number, listedLine: listed, firstResultLine: firstResultLine,
        fromBranch: from, newBranch: made,
        isUnchanged: false,
        results: results))
  }

  /// Varies line `number` (see ``Command/vary(line:alternatives:)``): each alternative as an
  /// edit from the current branch and position, which are restored after each.
  ///
  /// - Complexity: O(a × n): a alternatives, each an edit of the n keys from line `number` on.
  mutating func vary(
    _ number: Int, _ alternatives: [TypedKeys]
  ) throws(SessionError) -> Ledger.Variation {
    let lines = history.lines()
    let index = try Session.index(ofLine: number, in: lines, for: "vary")
    let (branch, position) = (history.currentBranch, history.position)
    var rows = [
      Ledger.Variation.Row(
        branch: branch, keys: lines[index].keys,
        displays: history.displays(after: lines[index...]), error: nil)
    ]
    for keys in alternatives {
      do throws(SessionError) {
        guard !keys.isEmpty else { throw .emptyInsert }
        // An edit reports the display after line L and every later line: the row's.
        guard case .rewrote(let rewrite) = try rewrite(number, .edited, keys),
          !rewrite.isUnchanged
        else {
          rows.append(rows[0])
          continue
        }
        rows.append(
          Ledger.Variation.Row(
            branch: history.currentBranch, keys: keys, displays: rewrite.results.map(\.new),
            error: nil))
      } catch {
        rows.append(Ledger.Variation.Row(branch: nil, keys: keys, displays: [], error: error))
      }
      if history.currentBranch != branch { history.switchTo(branch: branch) }
      if history.position != position { history.move(to: position) }
    }
    return Ledger.Variation(line: number, rows: rows)
  }

  /// The branch other than the current one whose lines hold exactly the keys of `expected`,
  /// line by line, if there is one. `expected` (of `keyCount` keys in all) is made only when a
  /// branch has that many keys: most edits find none, and the list of every line's keys is not
  /// made for them.
  ///
  /// - Complexity: O(b + m × n): b branches, m of them as long as `expected`, of n keys.
  func existingBranch(keyCount: Int, holding expected: () -> [TypedKeys]) -> Int? {
    var lines: [TypedKeys]?
    for number in 1...history.branchCount
    where number != history.currentBranch && history.branch(number).count == keyCount {
      if lines == nil { lines = expected() }
      if history.lines(ofBranch: number).map(\.keys) == lines { return number }
    }
    return nil
  }

}
