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
    // The branch as it was, read in place: where its lines start, and each line's keys read
    // when they are needed, into a buffer that is reused. A list of every line's keys cost
    // about 325 instructions a key to make and release (Documentation/Performance.md, "`:edit`
    // reads the old branch in place").
    let past = history
    let starts = past.lineStarts()
    let lineCount = starts.count - 1
    var buffer = TypedKeys()
    // Line 0 is the mode line when there is one (SPEC §11): it stays, and nothing goes before it.
    let first =
      lineCount > 0 && starts[1] - starts[0] == 1
        && History.isModeLine(CollectionOfOne(past.key(at: 1))) ? 0 : 1
    let count = lineCount - 1 + first
    if number == 0, first == 0 { throw .modeLineFixed(SessionError.verb(kind), last: count) }
    let last = kind == .inserted ? count + 1 : count
    guard number >= 1, number <= last else {
      throw kind == .inserted
        ? .cannotInsert(number, count: count) : .unknownLine(number, count: count)
    }
    let index = number - first
    let from = history.currentBranch
    // Where line L starts (the end of the branch for a line inserted after the last).
    let start = starts[index]
    let startState = history.state(at: start)
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
    // Line L as it was, and its note.
    var oldKeys = TypedKeys()
    let oldNote =
      index < lineCount
      ? past.readLine(from: start, to: starts[index + 1], into: &oldKeys) : nil
    if kind == .edited, oldKeys == keys {
      return .rewrote(
        Rewrite(
          kind: kind, line: number, listedLine: listed, firstResultLine: firstResultLine,
          fromBranch: from, newBranch: nil,
          isUnchanged: true,
          results: []))
    }
    // The lines after the change, by their index in `starts`.
    let later = (kind == .inserted ? index : index + 1)..<lineCount
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
    let newFirstLine: Int? = index > 0 ? 0 : kind == .deleted ? later.first : nil
    let newFirst =
      newFirstLine.map { starts[$0 + 1] - starts[$0] == 1 ? [past.key(at: starts[$0] + 1)] : [] }
      ?? keys.keys
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
    // Standard mode's keys (codes below 29) are checked only in Programmer, formula and date
    // mode, and change no keypad: in any other mode the lines up to the next other key pass
    // unread, found by a scan of the codes.
    var checked = later.lowerBound
    while checked < later.upperBound {
      if keypad.mode != .programmer, keypad.mode != .formula, keypad.mode != .date {
        guard
          let beyond = past.firstKey(
            from: starts[checked], to: past.count, codeAtLeast: History.firstCodeBeyondStandard)
        else { break }
        // The line that holds it: the last that starts at or before it (most often this one).
        var high = starts[checked + 1] > beyond ? checked : later.upperBound - 1
        while checked < high {
          let middle = (checked + high + 1) / 2
          if starts[middle] <= beyond { checked = middle } else { high = middle - 1 }
        }
      }
      _ = past.readLine(from: starts[checked], to: starts[checked + 1], into: &buffer)
      if let (out, reason) = Calculator.firstRejectedKey(in: buffer.keys, keypad: &keypad) {
        if reason == .scientificKey {
          throw .laterLineRejected(kind, line: number, later: checked + first, key: buffer[out])
        }
        throw .laterLineKeyRejected(
          kind, line: number, later: checked + first, key: buffer[out], reason: reason)
      }
      // A later line that refers to a deleted line would have nothing to recall, and one that
      // refers to a line that becomes the mode line, no result.
      for target in buffer.allReferences {
        if kind == .deleted, target == number {
          throw .referencedLineDeleted(line: number, by: checked + first)
        }
        if moved(target) < 1 {
          throw .laterLineReferencesModeLine(kind, line: number, later: checked + first)
        }
      }
      checked += 1
    }
    // A later line as it is replayed, its references renumbered.
    let renumbers = kind != .edited || shift != 0
    func replayed(_ keys: TypedKeys) -> TypedKeys {
      renumbers && (keys.hasReferences || keys.hasFormulas) ? keys.renumbered(moved) : keys
    }
    // The old lines from line L on (for a deletion, from the line after it), by their index in
    // `starts`, whose displays the results pair with the new ones.
    let oldLines = (kind == .deleted ? index + 1 : index)..<lineCount
    // An edit that another branch already holds, with the same lines before and after it,
    // reuses that branch (SPEC §4, §11's `:vary`) instead of making its twin. The lines are
    // listed only when a branch has as many keys.
    if kind == .edited,
      let existing = existingBranch(
        keyCount: past.count - (starts[index + 1] - start) + keys.count,
        holding: {
          let lines = past.lines()
          return lines[..<index].map(\.keys) + [keys]
            + lines[(index + 1)...].map { replayed($0.keys) }
        })
    {
      let oldDisplays = history.displays(after: past.lines()[oldLines])
      history.switchTo(branch: existing)
      let newLines = history.lines().suffix(later.count + 1)
      let new = history.displays(after: newLines)
      let results = zip(zip(newLines.map(\.end), new), oldDisplays).map { pair, old in
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
    var oldReplay = History.LineReplay(
      history, from: oldLines.isEmpty ? start : starts[oldLines.lowerBound])
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
    var lineEnds = Array(starts[1..<(index + 1)])
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
        let paired = oldLines.lowerBound + newLine
        _ = past.readLine(from: starts[paired], to: starts[paired + 1], into: &buffer)
        let old = oldReplay.display(from: starts[paired], keys: buffer)
        met = oldReplay.state.isIdentical(to: history.state)
        results.append(Rewrite.Result(step: history.position, old: old, new: display))
      }
      newLine += 1
      // An edited line keeps its note (SPEC §11); `note` changes it.
      if kind == .edited, let note = oldNote {
        history.setNote(note, ofLineEndingAt: history.position)
      }
    }
    // Each later line read into the reused buffer, applied, and paired with its old line (the
    // same line of the old branch, unless an edit to no keys paired them otherwise).
    var at = later.lowerBound
    while at < later.upperBound {
      // Once the replay has met the old branch, the later lines of plain keys are the old
      // ones: applied straight from the old branch's codes, a run of lines of one branch at a
      // time, each showing what it showed (Documentation/Performance.md, "`:edit` reads the old
      // branch in place"). Not past a `$N`, a formula or a date line (which may recall what
      // changed, and are replayed as before), nor in or into date mode (where `ms` may be
      // refused).
      if met, oldLines.lowerBound + newLine == at, history.state.mode != .date {
        // The branch that owns the line (a fork is a line boundary), and where its part of the
        // old path ends.
        let owner = past.owner(of: starts[at] + 1)
        let depth = past.path.lastIndex(of: owner)!
        let segmentEnd =
          depth + 1 < past.path.count
          ? past.branches[past.path[depth + 1]].fork : past.branches[owner].count
        let plainEnd =
          past.firstKey(from: starts[at], to: segmentEnd, codeAtLeast: Key.mode(.date).code)
          ?? segmentEnd
        var runEnd = at
        while runEnd < later.upperBound, starts[runEnd + 1] <= plainEnd { runEnd += 1 }
        if runEnd > at {
          history.applyLines(of: past.branches[owner], starts: starts[at...runEnd]) {
            position, display in
            lineEnds.append(position)
            results.append(Rewrite.Result(step: position, old: display, new: display))
          }
          oldReplay.skip(to: starts[runEnd])
          newLine += runEnd - at
          at = runEnd
          continue
        }
      }
      let note = past.readLine(from: starts[at], to: starts[at + 1], into: &buffer)
      // Before a new line with `$N` or a formula, the replay goes on from the new state.
      if met, buffer.hasReferences || buffer.hasFormulas {
        oldReplay.resume(from: history.state)
        met = false
      }
      let (branch, display) = try apply(
        replayed(buffer), line: number + at - later.lowerBound + (kind == .deleted ? 0 : 1))
      if newLine >= 0, newLine < oldLines.count {
        let paired = oldLines.lowerBound + newLine
        if met {
          oldReplay.skip(to: starts[paired + 1])
          results.append(Rewrite.Result(step: history.position, old: display, new: display))
        } else {
          if paired != at {
            _ = past.readLine(from: starts[paired], to: starts[paired + 1], into: &buffer)
          }
          let old = oldReplay.display(from: starts[paired], keys: buffer)
          met = oldReplay.state.isIdentical(to: history.state)
          results.append(Rewrite.Result(step: history.position, old: old, new: display))
        }
      }
      newLine += 1
      made = made ?? branch
      if let note {
        history.setNote(note, ofLineEndingAt: history.position)
      }
      at += 1
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
