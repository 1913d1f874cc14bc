import CalcDecimal

extension History {
  /// Whether the mutators check the invariants after every change: built with
  /// `-Xswiftc -DCALC_INTERNAL_CHECKS` (one pass of `.ci/run` does it), as swift-collections'
  /// `COLLECTIONS_INTERNAL_CHECKS`.
  package static var internalChecksAreEnabled: Bool {
    #if CALC_INTERNAL_CHECKS
      true
    #else
      false
    #endif
  }

  /// With internal checks (``internalChecksAreEnabled``), ``_checkInvariants()`` while the
  /// history holds at most 20,000 keys (the full check replays every branch, so a history of
  /// millions of keys, as the benchmark's, would take hours); nothing otherwise.
  @inline(__always)
  func _checkInvariantsIfEnabled() {
    #if CALC_INTERNAL_CHECKS
      if recordedCount <= 20_000 { _checkInvariants() }
    #endif
  }

  /// Checks every invariant of the history, trapping on the first that fails; does nothing in a
  /// release build. The mutators call it when built with internal checks; tests call it where a
  /// history is built by other means (a replayed journal).
  ///
  /// Positions in range; each branch's parent, fork and snapshots (one per interval, each equal
  /// to a replay); the current path; the state at the position equal to a replay of the branch's
  /// prefix.
  /// - Complexity: O(n) in the number of keys on all branches, times their depth.
  package func _checkInvariants() {
    #if DEBUG
      precondition(!branches.isEmpty && branches[0].parent == -1 && branches[0].fork == 0)
      for (index, branch) in branches.enumerated() {
        precondition(index == 0 || !branch.codes.isEmpty, "branch \(index + 1) has no keys")
        if index > 0 {
          precondition((0..<index).contains(branch.parent), "branch \(index + 1): parent")
          let parent = branches[branch.parent]
          precondition(
            branch.fork < parent.count
              && (branch.fork > parent.fork || (branch.parent == 0 && branch.fork == 0)),
            "branch \(index + 1): fork \(branch.fork) outside its parent's own keys")
        }
        if !branch.codes.isEmpty {
          precondition(
            branch.endsLine(at: branch.codes.count - 1), "branch \(index + 1) ends inside a line")
        }
        precondition(
          branch.codes.indices.allSatisfy { at in
            let code = branch.codes[at]
            if code == Key.formulaCode { return branch.formulas[at] != nil }
            if code == Key.dateLineCode { return branch.dates[at] != nil }
            return code == Key.referenceCode
              ? branch.references[at] != nil : Key(code: code) != nil
          }, "branch \(index + 1): a byte that is no key")
        precondition(
          branch.notes.keys.allSatisfy { branch.endsLine(at: $0) },
          "branch \(index + 1): a note that is not at a line's end")
        precondition(
          branch.snapshotCount == branch.codes.count / History.snapshotInterval + 1,
          "branch \(index + 1): one snapshot per interval")
        precondition(
          zip(branch.lights, branch.lights.dropFirst()).allSatisfy { $0.slot < $1.slot }
            && (branch.lights.last.map { Int($0.slot) < branch.snapshotCount } ?? true),
          "branch \(index + 1): lights in order of their slots")
        // Each snapshot (rebuilt, for a light one) at the own offset it stands for.
        var snapshotAt: [Int: History.State] = [:]
        // Each restart mark's state at its own offset, in order, within the branch's keys.
        var markAt: [Int: History.State] = [:]
        precondition(
          zip(branch.marks, branch.marks.dropFirst()).allSatisfy { $0.offset < $1.offset }
            && (branch.marks.last.map { Int($0.offset) <= branch.codes.count } ?? true),
          "branch \(index + 1): marks in order of their offsets")
        for at in branch.marks.indices {
          // A settling mark's state is the state after its settling keys.
          var state = branch.markLight(at).state
          let offset = Int(branch.marks[at].offset)
          let settling = branch.settling(ofMark: at)
          precondition(settling < History.markSpacing, "branch \(index + 1): settling keys")
          for key in offset..<offset + settling {
            if branch.startsLine(at: key) { state.startLine() }
            branch.press(at: key, &state)
          }
          markAt[offset + settling] = state
        }
        precondition(
          branch.lights.allSatisfy { !$0.isAtFork || $0.slot == 0 },
          "branch \(index + 1): a snapshot at the fork after the first")
        if branch.startsAtFork {
          // The parent's state at the fork, fewer than an interval of keys away.
          let back = Int(branch.lights[0].back)
          precondition(
            index > 0 && back == replayCost(at: branch.fork, on: branch.parent)
              && back < History.snapshotInterval,
            "branch \(index + 1): the snapshot at the fork replays \(back) keys")
          snapshotAt[0] = self.state(at: branch.fork, on: index)
        }
        for at in (branch.startsAtFork ? 1 : 0)..<branch.snapshotCount {
          let (state, offset) = branch.snapshot(at)
          precondition(
            offset > (at - 1) * History.snapshotInterval,
            "branch \(index + 1): snapshot \(at)'s restart")
          if offset < 0 {
            // Restarted among the parent's own keys: the state at the restart on the parent.
            let parent = branches[branch.parent]
            precondition(
              at == 0 && branch.fork + offset > parent.fork
                && state == self.state(at: branch.fork + offset, on: branch.parent),
              "branch \(index + 1): the fork's light snapshot")
          } else {
            snapshotAt[offset] = state
          }
        }
        // Replay the branch from the start along its own ancestry.
        var ancestry: [Int] = []
        var walk = index
        while walk >= 0 {
          ancestry.append(walk)
          walk = branches[walk].parent
        }
        var state = State.initial
        var step = 0
        for (depth, at) in ancestry.reversed().enumerated() {
          let own = branches[at]
          let end =
            depth + 1 < ancestry.count
            ? branches[ancestry[ancestry.count - depth - 2]].fork : own.count
          while step < end {
            if at == index, let snapshot = snapshotAt.removeValue(forKey: step - own.fork) {
              precondition(snapshot == state, "branch \(index + 1): snapshot at step \(step)")
            }
            if at == index, let mark = markAt.removeValue(forKey: step - own.fork) {
              precondition(mark == state, "branch \(index + 1): mark at step \(step)")
            }
            if own.startsLine(at: step - own.fork) { state.startLine() }
            own.press(at: step - own.fork, &state)
            step += 1
          }
        }
        if let snapshot = snapshotAt.removeValue(forKey: branch.count - branch.fork) {
          precondition(snapshot == state, "branch \(index + 1): last snapshot")
        }
        if let mark = markAt.removeValue(forKey: branch.count - branch.fork) {
          precondition(mark == state, "branch \(index + 1): last mark")
        }
        precondition(snapshotAt.isEmpty, "branch \(index + 1): a snapshot off the branch")
        precondition(markAt.isEmpty, "branch \(index + 1): a mark off the branch")
      }
      var expectedPath: [Int] = []
      var walk = current
      while walk >= 0 {
        expectedPath.append(walk)
        walk = branches[walk].parent
      }
      precondition(path == expectedPath.reversed(), "the current path")
      precondition((0...count).contains(position), "position \(position) outside 0…\(count)")
      var replayed = State.initial
      for step in 0..<position {
        if startsLine(at: step + 1) { replayed.startLine() }
        let branch = branches[owner(of: step + 1)]
        branch.press(at: step - branch.fork, &replayed)
      }
      precondition(state == replayed, "the state at position \(position) is not its replay")
    #endif
  }
}
