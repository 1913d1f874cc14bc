import CalcDecimal

// Changing a history: what only ``Session`` does, each change followed by the invariants' check
// under internal checks (History+Invariants.swift).
extension History {
  /// Reserves room for about `keys` more keys on the current branch, so that applying them
  /// does not grow its storage step by step: a capacity hint, as `Array.reserveCapacity(_:)`,
  /// that changes no state, position or branch (a script read from a file of known size gives
  /// its size: each key takes at least a byte of text).
  ///
  /// Room that is never used is address space only, and a branch that is left while it holds
  /// few keys gives it back (``Branch/trimRoom()``).
  /// - Complexity: O(n) in the current branch's own keys, when its storage moves.
  mutating func reserveCapacity(forKeys keys: Int) {
    guard keys > 0, position == count else { return }
    branches[current].reserveCapacity(forKeys: keys)
  }

  /// Applies a line of keys as ``apply(line:references:recalls:formulas:dates:)`` does, and
  /// returns the display after it with the new branch's number (`:edit`'s replay reads both).
  /// - Complexity: O(n) in the number of keys, amortized.
  mutating func applyShowing(
    line keys: ArraySlice<Key>, references: [Int] = [],
    recalls: [Calculator.Recalled] = [], formulas: [FormulaStep] = [], dates: [DateStep] = []
  ) -> (newBranch: Int?, display: Display) {
    let branch = apply(
      line: keys, references: references, recalls: recalls, formulas: formulas, dates: dates)
    return (branch, state.display)
  }

  /// Applies a line of keys at the position, starting a new branch there first unless the
  /// position is at the end of the current branch; the position moves to the end of the line.
  ///
  /// Returns the number of the new branch, if one was made. `keys` must not be empty; `recalls`
  /// holds what each of its `$N` keys recalls, in order (``Session`` resolves them), and
  /// `references` the N of each.
  /// - Complexity: O(n) in the number of keys, amortized.
  mutating func apply(
    line keys: ArraySlice<Key>, references: [Int] = [],
    recalls: [Calculator.Recalled] = [], formulas: [FormulaStep] = [], dates: [DateStep] = []
  ) -> Int? {
    defer { _checkInvariantsIfEnabled() }
    let made = startBranchUnlessAtEnd()
    branches[current].reserveRoom(for: keys.count)
    // A countdown rather than a division by the interval at every key.
    var untilSnapshot =
      History.snapshotInterval - branches[current].codes.count % History.snapshotInterval
    // The codes go to a buffer on the stack and into the branch in one append: appending them
    // one by one would check the storage's uniqueness and capacity at every key.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: keys.count) { codes in
      var index = 0
      let ownStart = branches[current].codes.count
      // The common line holds no `$N`: it is pressed a run at a time, as a script's line is
      // (``apply(checkedLine:)``).
      guard !references.isEmpty || !formulas.isEmpty || !dates.isEmpty else {
        keys.withUnsafeBufferPointer { keys in
          _ = Key.codes(of: keys, into: codes)
          pressAndRecordLine(keys, codes: codes)
        }
        return
      }
      // Rule 18: the line starts by ending the number still being typed.
      state.startLine()
      var recall = 0
      var formula = 0
      var date = 0
      for key in keys {
        if case .reference = key {
          state.recall(recalls[recall])
          branches[current].references[ownStart + index] = Reference(
            line: references[recall], recalled: recalls[recall])
          recall += 1
        } else if case .formula = key {
          // Read once, as a date line's step is.
          let step = formulas[formula]
          state.apply(formula: step)
          branches[current].formulas.append(step, at: ownStart + index)
          formula += 1
        } else if case .dateLine = key {
          // Read once: each read of the array copied the step (its value and texts).
          let step = dates[date]
          state.apply(date: step)
          branches[current].dates.append(step, at: ownStart + index)
          date += 1
        } else {
          state.press(key)
        }
        codes[index] = key.code
        index += 1
        untilSnapshot -= 1
        if untilSnapshot == 0 {
          appendSnapshot(at: ownStart + index)
          untilSnapshot = History.snapshotInterval
        }
      }
      branches[current].appendLine(codes)
      // Once a line, not at every key: Standard mode's keys pay nothing for light snapshots.
      if state.mode != .standard { noteRestart(in: UnsafeBufferPointer(codes), at: ownStart) }
    }
    position = branches[current].count
    return made
  }

  /// Applies a line of one key, a date line's, with its `step`: what
  /// ``apply(line:references:recalls:formulas:dates:)`` does with `[.dateLine]` and `[step]`,
  /// without the two arrays, the buffer and the loop (issue 51: a script's common date line).
  /// `RecordingPathTests` compares the two.
  /// - Complexity: O(1), amortized.
  mutating func apply(dateLine step: consuming DateStep) -> Int? {
    defer { _checkInvariantsIfEnabled() }
    let made = startBranchUnlessAtEnd()
    branches[current].reserveRoom(for: 1)
    let ownStart = branches[current].codes.count
    // In date mode, as a script's date lines are, a line starts with the state as it is
    // (``Calculator/startLine()`` leaves date mode's): the call is spared (about 40
    // instructions a date line).
    if case .date = state.machine {} else { state.startLine() }
    state.apply(date: step)
    branches[current].dates.append(step, at: ownStart)
    // As the loop's countdown: a snapshot after the key that fills an interval, before the
    // line's code is stored.
    if (ownStart + 1) % History.snapshotInterval == 0 { appendSnapshot(at: ownStart + 1) }
    branches[current].appendLine(code: Key.dateLineCode)
    // What `noteRestart(in:at:)` comes to for the line (about 120 instructions): the state is
    // in date mode now, and the line's code is no restart and changes the light state.
    settledEnd = nil
    position = branches[current].count
    return made
  }

  /// Applies, at the end of the current branch, the lines of `source`'s own keys that start at
  /// `starts` (positions of `source`, each line ending where the next starts; the last element
  /// ends the last line), each as ``apply(line:references:recalls:formulas:dates:)`` applies
  /// the same keys, with its note; calls `body` with the position and the display after each.
  ///
  /// What `:edit` does once its replay meets the old branch (Session+Rewrite.swift): the later
  /// lines are taken from the old branch's codes, not listed as keys and encoded again. The
  /// lines must hold no `$N`, formula or date line (codes below ``Key/dateLineCode``), and
  /// each must lie in `source`'s own keys.
  ///
  /// - Complexity: O(n) in the number of keys, amortized.
  mutating func applyLines(
    of source: Branch, starts: ArraySlice<Int>, _ body: (Int, Display) -> Void
  ) {
    precondition(position == count, "lines are applied at the end of the branch")
    guard starts.count > 1 else { return }
    defer { _checkInvariantsIfEnabled() }
    let all = Key.allKeys
    source.codes.withUnsafeBufferPointer { sourceCodes in
      var line = starts.startIndex
      while line + 1 < starts.endIndex {
        let codes = UnsafeBufferPointer(
          rebasing: sourceCodes[(starts[line] - source.fork)..<(starts[line + 1] - source.fork)])
        withUnsafeTemporaryAllocation(of: Key.self, capacity: codes.count) { keys in
          for index in codes.indices {
            keys.initializeElement(at: index, to: all[Int(codes[index])])
          }
          pressAndRecordLine(
            UnsafeBufferPointer(keys), codes: UnsafeMutableBufferPointer(mutating: codes))
        }
        position = branches[current].count
        let last = starts[line + 1] - source.fork - 1
        if !source.notes.isEmpty, source.endsLine(at: last), let note = source.notes[last] {
          branches[current].notes[position - branches[current].fork - 1] = note
        }
        body(position, state.display)
        line += 1
      }
    }
  }

  /// Applies a line of keys without `$N` as ``apply(line:references:recalls:)`` does, after
  /// checking it as a session checks a line (``Calculator/keyRejection(in:keypad:)``): throws
  /// that rejection, changing nothing, when a key may not be pressed.
  ///
  /// Outside Programmer mode the check rides on the pass that encodes the keys: only a key
  /// beyond Standard's (code 29 on) needs the keypad, and a line without one is not checked
  /// again; in Programmer mode the line takes the whole check first. The keys are pressed a run at a time (``Calculator/press(each:)``), a run ending
  /// where a snapshot is due, rather than in one call a key. `keys` must not be empty.
  /// - Complexity: O(n) in the number of keys, amortized.
  mutating func apply(checkedLine keys: ArraySlice<Key>) throws(SessionError)
    -> Int?
  {
    let keypad = state.keypad
    // In Programmer mode every key needs the keypad: the whole check first.
    let checkedWhole = keypad.mode == .programmer
    if checkedWhole, let error = Calculator.keyRejection(in: keys, keypad: keypad) { throw error }
    defer { _checkInvariantsIfEnabled() }
    let applied = keys.withUnsafeBufferPointer { keys -> Int?? in
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: keys.count) { codes -> Int?? in
        // Codes 0 through 28 are Standard's keys, pressable in every mode but Programmer; a
        // `$N` key (code 0xFF), which a line without references does not hold, would only take
        // the whole check.
        // The or of the codes, compared once after the loop: a test a key, with the first code
        // beyond Standard's computed for it, cost 40 instructions a script line (callgrind).
        // It is at least the highest code; a line of Standard's keys whose or reaches 29 (AC
        // and `=`: 16 | 15) takes the whole check, which passes it.
        let all = Key.codes(of: keys, into: codes)
        if all >= History.firstCodeBeyondStandard, !checkedWhole,
          Calculator.keyRejection(in: keys, keypad: keypad) != nil
        {
          return Int??.none
        }
        let made = position < count ? startBranch() : nil
        // The room for the codes is made as they are appended (`appendLine`): an access to the
        // branch fewer.
        pressAndRecordLine(keys, codes: codes)
        return Int??.some(made)
      }
    }
    guard let made = applied else {
      // Rejected: the check again, for its error (a rare path).
      throw Calculator.keyRejection(in: keys, keypad: keypad).unsafelyUnwrapped
    }
    position = branches[current].count
    return made
  }

  /// Applies a common key line (``CommonKeyLine``) whose codes are `codes` as
  /// ``apply(checkedLine:)`` applies its keys, returning `true`; returns `false`, changing
  /// nothing, unless the position is at the end of the branch and the state takes it
  /// (``Calculator/pressCommonLine(_:)``: Standard mode, no operation pending). Its keys are
  /// Standard's: no check, and no restart to remember. A line within which a snapshot falls
  /// due has its keys made from the codes and pressed as a general line's are, so that the
  /// snapshot holds the state between them.
  /// - Complexity: O(n) in the number of keys, amortized.
  @inline(__always)
  mutating func apply(commonLine line: CommonKeyLine, codes: UnsafeBufferPointer<UInt8>) -> Bool {
    let branch = current
    let ownStart = branches[branch].codes.count
    guard position == branches[branch].fork + ownStart else { return false }
    guard ownStart % History.snapshotInterval + codes.count < History.snapshotInterval else {
      return apply(commonLineAcrossSnapshot: codes)
    }
    guard state.pressCommonLine(line) else { return false }
    defer { _checkInvariantsIfEnabled() }
    branches[branch].appendLine(UnsafeMutableBufferPointer(mutating: codes))
    position += codes.count
    return true
  }

  /// ``apply(commonLine:codes:)`` for a line within which a snapshot falls due: its keys, made
  /// from `codes`, pressed and recorded as ``apply(checkedLine:)`` does (a snapshot falls due
  /// every 384 keys: within about one everyday line in 35). Returns `false`, changing nothing, where the state takes
  /// no common line.
  @inline(never)
  private mutating func apply(commonLineAcrossSnapshot codes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard state.takesCommonLine else { return false }
    defer { _checkInvariantsIfEnabled() }
    let all = Key.allKeys
    withUnsafeTemporaryAllocation(of: Key.self, capacity: codes.count) { keys in
      for index in codes.indices { keys.initializeElement(at: index, to: all[Int(codes[index])]) }
      pressAndRecordLine(
        UnsafeBufferPointer(keys), codes: UnsafeMutableBufferPointer(mutating: codes))
    }
    position = branches[current].count
    return true
  }

  /// Presses a line's `keys`, whose codes are `codes`, and records them at the end of the
  /// current branch: a run at a time (``Calculator/press(each:startingLine:)``), each run ending
  /// where a snapshot is due; then the codes and the line's end in one append, and outside
  /// Standard mode the line's restart marks. Rule 18: the line starts by ending the number
  /// still being typed. The three ways a plain line is applied (a session's line, a script's
  /// line, `:edit`'s met lines) share it; inlined, as the script's line was written out.
  /// - Complexity: O(n) in the number of keys, amortized.
  @inline(__always)
  mutating func pressAndRecordLine(
    _ keys: UnsafeBufferPointer<Key>, codes: UnsafeMutableBufferPointer<UInt8>
  ) {
    let ownStart = branches[current].codes.count
    var untilSnapshot = History.snapshotInterval - ownStart % History.snapshotInterval
    var start = 0
    while start < keys.count {
      let end = min(keys.count, start + untilSnapshot)
      state.press(
        each: UnsafeBufferPointer(rebasing: keys[start..<end]), startingLine: start == 0)
      untilSnapshot -= end - start
      if untilSnapshot == 0 {
        appendSnapshot(at: ownStart + end)
        untilSnapshot = History.snapshotInterval
      }
      start = end
    }
    branches[current].appendLine(codes)
    // Once a line, not at every key: Standard mode's keys pay nothing for light snapshots.
    if state.mode != .standard { noteRestart(in: UnsafeBufferPointer(codes), at: ownStart) }
  }

  /// The first code of a key outside Standard mode's (``Key/code``).
  static var firstCodeBeyondStandard: UInt8 { Key.scientific(.bracket(.open)).code }

  /// Starts a new branch at the position unless the position is at the end of the current
  /// branch (where a line then grows it); returns the number of the new branch, if one was
  /// made.
  mutating func startBranchUnlessAtEnd() -> Int? {
    position < count ? startBranch() : nil
  }

  /// Starts a new branch at the position, which is before the end of the current branch;
  /// returns its number. Not inlined: a script's lines, at the end, do not start one.
  @inline(never)
  mutating func startBranch() -> Int {
    let parent = position == 0 ? 0 : owner(of: position)
    path.removeSubrange((path.firstIndex(of: parent)! + 1)...)
    var branch = Branch(parent: parent, fork: position)
    if let light = forkLight(parent: parent, at: position) {
      branch.appendLight(light)
    } else if state.mode != .standard, let back = forkBack(parent: parent, at: position) {
      branch.appendLight(Light(atForkBack: back))
    } else {
      branch.appendSnapshot(state)
    }
    branches[current].trimRoom()
    branches.append(branch)
    current = branches.count - 1
    path.append(current)
    return current + 1
  }

  /// The code of AC, and of `sci` (`prog`'s is the next).
  static var clearCode: UInt8 { Key.command(.clear).code }
  static var scientificCode: UInt8 { Key.mode(.scientific).code }

  /// Remembers the last restart among `codes`, the line just applied at own offset `start` of
  /// the current branch (the state after it), when no key after it in the line changed the
  /// memory, the angle unit, the radix, the word size or the mode: then the state keeps what
  /// the restart left, and its light snapshot is the state's.
  ///
  /// - Complexity: O(n) in the line's keys.
  @inline(never)
  mutating func noteRestart(in codes: UnsafeBufferPointer<UInt8>, at start: Int) {
    let afterSettled = settledEnd.map { $0.branch == current && $0.offset == start } ?? false
    settledEnd =
      state.mode == .scientific && state.scientific?.isSettled == true
      ? (current, start + codes.count) : nil
    var index = codes.count - 1
    while index >= 0 {
      let code = codes[index]
      if let prelude = History.prelude(after: code, state) {
        let light = Light(state, prelude: prelude)
        lastRestart = (current, start + index + 1, light)
        branches[current].appendMark(at: start + index + 1, light)
        return
      }
      if History.changesLightState(code) { return }
      index -= 1
    }
    // No restart, and no key that changes the memory, the angle unit or the mode: a line of
    // Scientific mode after a settled one that starts with a number and an operator settles as
    // after `sci` (``ScientificBrain/isSettled``).
    if afterSettled, state.mode == .scientific, let settling = History.settlingKeys(codes) {
      branches[current].appendMark(at: start, Light(state, prelude: 1), settling: settling)
    }
  }

  /// The keys of a number and the binary operator after it at the start of `codes`, when
  /// fewer than ``markSpacing``; `nil` if the line starts otherwise. The number starts with a
  /// digit or a point, which clears the entry a settled state keeps (a constant first would
  /// not); digits, points, constants and `exp` follow.
  static func settlingKeys(_ codes: UnsafeBufferPointer<UInt8>) -> Int? {
    // Digits and the point; after the first key, π, e and `exp` too.
    func isNumber(_ code: UInt8, first: Bool) -> Bool {
      code <= Key.dot.code
        || (!first
          && code &- Key.scientific(.constant(.pi)).code <= Key.scientific(.exponent).code
            &- Key.scientific(.constant(.pi)).code)
    }
    var index = 0
    while index < codes.count, index < markSpacing - 1, isNumber(codes[index], first: index == 0) {
      index += 1
    }
    guard index > 0, index < codes.count else { return nil }
    let code = codes[index]
    let isOperator =
      code &- Key.op(.plus).code <= Key.op(.divide).code &- Key.op(.plus).code
      || code &- Key.scientific(.binary(.power)).code <= Key.scientific(.binary(.logBase)).code
        &- Key.scientific(.binary(.power)).code
    return isOperator ? index + 1 : nil
  }

  /// The light snapshot for a branch that leaves branch index `parent` at `position` (the state
  /// now): its restart the last among the parent's own keys before the fork, fewer than
  /// ``snapshotInterval`` keys back with no mode key between; `nil` for a state of Standard mode
  /// or without one.
  ///
  /// - Complexity: O(``snapshotInterval``) to find the restart; where a key between it and the
  ///   fork may have changed the memory, the angle unit, the radix or the word size, the state
  ///   at the restart is replayed: O(``snapshotInterval``) keys more.
  func forkLight(parent: Int, at position: Int) -> Light? {
    guard state.mode != .standard else { return nil }
    let branch = branches[parent]
    // The parent's own keys 0..<end lead up to the fork.
    let end = position - branch.fork
    var index = end - 1
    var changed = false
    while index >= max(0, end - History.snapshotInterval) {
      let code = branch.codes[index]
      // With no mode key between the restart and the fork, the restart's mode is the state's.
      if History.prelude(after: code, state) != nil {
        // Without a key between that changed what a light state keeps, it is the state's.
        let restart = changed ? self.state(at: branch.fork + index + 1, on: parent) : state
        guard let prelude = History.prelude(after: code, restart) else { return nil }
        let light = Light(restart, prelude: prelude, back: end - index - 1)
        return !changed || light.state == restart ? light : nil
      }
      if History.changesLightState(code) {
        if code &- History.scientificCode &+ 1 < 3 { return nil }
        changed = true
      }
      index -= 1
    }
    return nil
  }

  /// The keys that rebuilding the state at `position` on branch index `parent` replays, when
  /// fewer than ``snapshotInterval``: then a branch that leaves there keeps its first snapshot
  /// as a marker (``Light/init(atForkBack:)``) and a jump on it replays fewer than twice
  /// ``snapshotInterval`` keys, as after a light snapshot; `nil` otherwise.
  ///
  /// - Complexity: O(log s), s the parent's light snapshots.
  func forkBack(parent: Int, at position: Int) -> Int? {
    let back = replayCost(at: position, on: parent)
    return back < History.snapshotInterval ? back : nil
  }

  /// The number of keys that ``state(at:on:)`` replays to rebuild the state at `position` on
  /// branch index `index` (a light snapshot's prelude not counted): from the interval's
  /// snapshot, or from the last restart mark (``Mark``) when that lies after it.
  ///
  /// - Complexity: O(log s + log m), s the branch's light snapshots, m its marks.
  func replayCost(at position: Int, on index: Int) -> Int {
    let branch = branches[index]
    let offset = position - branch.fork
    let cost =
      offset % History.snapshotInterval
      + branch.back(ofSnapshot: offset / History.snapshotInterval)
    guard let mark = branch.lastMark(atOrBefore: offset) else { return cost }
    return min(cost, offset - mark.offset)
  }

  /// Appends the snapshot after `offset` own keys of the current branch (the state): light when
  /// the state is boxed and the last restart lies fewer than ``snapshotInterval`` keys back.
  mutating func appendSnapshot(at offset: Int) {
    if state.mode != .standard, var restart = lastRestart, restart.branch == current,
      offset - restart.offset < History.snapshotInterval
    {
      restart.light.back = UInt16(offset - restart.offset)
      branches[current].appendLight(restart.light)
    } else {
      branches[current].appendSnapshot(state)
    }
  }

  /// Sets the note of the line of the current branch that ends at `end` (a real line end,
  /// ``endsLine(at:)``), or removes it when `note` is `nil`. Every branch that shares the line
  /// shares its note.
  mutating func setNote(_ note: String?, ofLineEndingAt end: Int) {
    defer { _checkInvariantsIfEnabled() }
    let index = owner(of: end)
    let own = end - branches[index].fork - 1
    precondition(branches[index].endsLine(at: own), "not a line's end")
    branches[index].notes[own] = note
  }

  /// Moves to `position` on the current branch, which must be within `0...count`.
  ///
  /// - Complexity: O(``snapshotInterval`` + log b), as ``state(at:)``.
  mutating func move(to position: Int) {
    defer { _checkInvariantsIfEnabled() }
    state = state(at: position)
    self.position = position
  }

  /// Where `count` lines back from the position begin (stopping at 0): the start of the line
  /// the position is in or has just finished, then of the line before it, and so on.
  ///
  /// A line starts at 0, after the last key of a line, and where the current branch leaves
  /// another (its first line starts there even when the line it left goes on).
  /// - Complexity: O(keys crossed / 64 + log b).
  func lineStart(back count: Int) -> Int {
    var target = position
    var left = count
    while left > 0, target > 0 {
      target = previousBoundary(before: target)
      left -= 1
    }
    return target
  }

  /// Where `count` lines back from the position begin, stopping at `floor` (a line start, or
  /// above the position), and how many of the `count` were left when it stopped there.
  ///
  /// - Complexity: O(keys crossed / 64 + log b).
  func lineStart(back count: Int, floor: Int) -> (step: Int, left: Int) {
    var target = position
    var left = count
    while left > 0, target > floor {
      target = previousBoundary(before: target)
      left -= 1
    }
    return (target, left)
  }

  /// Where `count` lines forward from the position end, stopping at the end of the branch, and
  /// how many of the `count` were left when it stopped there.
  ///
  /// - Complexity: O(keys crossed / 64 + log b).
  func lineEndCounting(forward count: Int) -> (step: Int, left: Int) {
    var target = position
    var left = count
    while left > 0, target < self.count {
      target = nextBoundary(after: target)
      left -= 1
    }
    return (target, left)
  }

  /// Where the `count`th line forward from the position ends, stopping at the end of the branch.
  ///
  /// - Complexity: O(keys crossed / 64 + log b).
  func lineEnd(forward count: Int) -> Int {
    var target = position
    var left = count
    while left > 0, target < self.count {
      target = nextBoundary(after: target)
      left -= 1
    }
    return target
  }

  /// Makes branch `number` (within `1...branchCount`) current, at its end.
  ///
  /// - Complexity: O(``snapshotInterval`` + the depth of the branch in the tree).
  mutating func switchTo(branch number: Int) {
    defer { _checkInvariantsIfEnabled() }
    if number - 1 != current { branches[current].trimRoom() }
    current = number - 1
    path.removeAll(keepingCapacity: true)
    var index = current
    while index >= 0 {
      path.append(index)
      index = branches[index].parent
    }
    path.reverse()
    move(to: count)
  }
}
