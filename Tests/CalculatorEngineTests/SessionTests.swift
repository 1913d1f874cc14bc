import CalcTestSupport
import CalculatorEngine
import Foundation
import Testing

/// `Session` and its `History` against `SessionModel` (CalcTestSupport): a list of branches
/// replayed by the book's model, which is slow and obviously right.
///
/// The random sessions are reproducible: each has its own seed, printed in any failure.
/// `SESSION_TEST_SEED=<seed> swift test --filter SessionTests` replays that one session.
@Suite struct SessionTests {

  static func keys(_ text: String) -> TypedKeys { try! KeyText.keys(in: text) }

  /// A session after `lines`, each a key line or a command line as in a script.
  static func session(_ operations: [SessionOperation]) throws -> Session {
    var session = Session()
    for operation in operations {
      try session.perform(operation.command)
      session.history._checkInvariants()
    }
    return session
  }

  static func display(_ session: Session) -> String {
    DisplayFormat.posix.text(for: session.state)
  }

  // MARK: - Against the model

  /// What the session and the model disagree on, or `nil`.
  static func difference(_ session: Session, _ model: SessionModel) -> String? {
    let history = session.history
    if history.position != model.position {
      return "position \(history.position) ≠ \(model.position)"
    }
    if history.count != model.count { return "count \(history.count) ≠ \(model.count)" }
    if history.branchCount != model.branches.count {
      return "\(history.branchCount) branches ≠ \(model.branches.count)"
    }
    if !model.branches.isEmpty, history.currentBranch != model.current {
      return "branch \(history.currentBranch) ≠ \(model.current)"
    }
    for (index, branch) in model.branches.enumerated() {
      let info = history.branch(index + 1)
      if info.parent != branch.parent || info.fork != branch.fork
        || info.count != branch.fork + branch.keys.count
      {
        return "branch \(index + 1): \(info) ≠ \(branch.parent as Any) at \(branch.fork)"
      }
    }
    if session.state != model.state { return "state \(session.state) ≠ \(model.state)" }
    // Each line's keys, `$N` as typed, and its note (SPEC §11).
    let lines = history.lines()
    let modelLines = model.lines
    if lines.map(\.keys) != modelLines.map(\.keys) {
      return "lines \(lines.map { KeyText.text(of: $0.keys) }) ≠ "
        + "\(modelLines.map { KeyText.text(of: $0.keys) })"
    }
    let modelNotes = model.lineNotes
    for (index, line) in lines.enumerated() where line.note != modelNotes[index] {
      return "line \(index + 1)'s note \(line.note ?? "none") ≠ \(modelNotes[index] ?? "none")"
    }
    // The kept session of a replacement (SPEC §4), one level deep.
    if session.isRightAfterRestore != model.isRightAfterRestore {
      return "right after a restore: \(session.isRightAfterRestore) ≠ \(model.isRightAfterRestore)"
    }
    switch (session.kept, model.kept.first) {
    case (nil, nil): return nil
    case (let kept?, let keptModel?):
      if kept.isReplaced != model.keptIsReplaced {
        return "kept is the replaced one: \(kept.isReplaced) ≠ \(model.keptIsReplaced)"
      }
      if kept.session.kept != nil { return "the kept session keeps one too" }
      return difference(kept.session, keptModel).map { "kept: " + $0 }
    case (let kept, _):
      return "kept \(kept == nil ? "nothing" : "a session") ≠ the model's"
    }
  }

  /// Runs one random session of `steps` operations, comparing after each; returns the most
  /// branches it had and its longest branch, for the coverage check.
  static func runRandomSession(seed: UInt64, steps: Int) -> (
    branches: Int, longest: Int, restores: Int, references: Int, notes: Int
  ) {
    var random = SplitMix64(state: seed)
    var session = Session()
    // Built with internal checks (one pass of `.ci/run`), the history checks itself after every
    // change; otherwise it is checked once, at the end of each session.
    defer { if !History.internalChecksAreEnabled { session.history._checkInvariants() } }
    var model = SessionModel()
    var log: [String] = []
    var mostBranches = 0
    var longest = 0
    var restores = 0
    // Accepted lines with `$N` keys, and notes set (SPEC §11).
    var (references, notes) = (0, 0)
    for _ in 0..<steps {
      let operation = SessionOperation.random(for: model, using: &random)
      log.append(operation.description)
      let before = session
      let accepted = model.perform(operation)
      do {
        if case .restored = try session.perform(operation.command) { restores += 1 }
        if !accepted {
          Issue.record("seed \(seed): \(operation) was accepted; log: \(log)")
          return (mostBranches, longest, restores, references, notes)
        }
      } catch {
        if accepted {
          Issue.record("seed \(seed): \(operation) threw \(error); log: \(log)")
          return (mostBranches, longest, restores, references, notes)
        }
        let (was, now) = (before.history, session.history)
        if was.position != now.position || was.currentBranch != now.currentBranch
          || was.branchCount != now.branchCount || was.count != now.count
          || before.state != session.state
        {
          Issue.record("seed \(seed): a rejected \(operation) changed the session")
        }
      }
      if accepted {
        switch operation {
        case .keys(let keys), .edit(_, let keys, _), .insert(_, let keys):
          if keys.contains(where: \.isReference) { references += 1 }
        case .note(_, let text): if text != nil { notes += 1 }
        case .goto, .offset, .undo, .redo, .branch, .reset, .delete: break
        }
      }
      if let difference = difference(session, model) {
        Issue.record("seed \(seed): after \(operation): \(difference); log: \(log)")
        return (mostBranches, longest, restores, references, notes)
      }
      // After every edit, accepted or refused, the session saves and loads back the same.
      switch operation {
      case .edit, .insert, .delete, .note:
        if let loss = roundTripLoss(session) {
          Issue.record("seed \(seed): after \(operation): \(loss); log: \(log)")
          return (mostBranches, longest, restores, references, notes)
        }
      case .keys, .goto, .offset, .undo, .redo, .branch, .reset: break
      }
      mostBranches = max(mostBranches, model.branches.count)
      longest = max(longest, model.count)
    }
    if let loss = roundTripLoss(session) {
      Issue.record("seed \(seed): at the end: \(loss); log: \(log)")
    }
    if let loss = wholeRoundTripLoss(session) {
      Issue.record("seed \(seed): at the end, whole: \(loss); log: \(log)")
    }
    return (mostBranches, longest, restores, references, notes)
  }

  /// What writing `session` whole (``SessionScript/forEachLine(ofWhole:_:)``, what the journal
  /// writes for a `--resume`) and replaying it loses, or `nil`: the kept session of a
  /// replacement too, and whether a `redo` would restore it right away.
  static func wholeRoundTripLoss(_ session: Session) -> String? {
    let text = SessionScript.text(ofWhole: session)
    let (loaded, stop) = SessionScript.replay(Array(text.utf8))
    if let stop {
      return "the script stops at its line \(stop.line) (\(stop.error?.message ?? "torn")):\n"
        + text
    }
    if SessionScript.text(ofWhole: loaded) != text {
      return "written again, it differs:\n\(SessionScript.text(ofWhole: loaded))\nfrom\n\(text)"
    }
    if loaded.isRightAfterRestore != session.isRightAfterRestore || loaded.state != session.state {
      return "the state or the restore differ"
    }
    return nil
  }

  /// What saving `session` (``SessionScript``) and replaying the script into a fresh session
  /// loses, or `nil`: every branch (parent, fork, own lines, the calculator at its end), the
  /// current branch, its lines, the keys up to the position, the position and the calculator
  /// there (display, memory, mode, angle unit, F-E) must come back, and the script again.
  static func roundTripLoss(_ session: Session) -> String? {
    let saved = SessionScript.text(of: session.history)
    let (loaded, stop) = SessionScript.replay(Array(saved.utf8))
    if let stop {
      return "the saved script stops at its line \(stop.line) (\(stop.error?.message ?? "torn")):\n"
        + saved
    }
    let (was, now) = (session.history, loaded.history)
    guard now.branchCount == was.branchCount, now.currentBranch == was.currentBranch,
      now.position == was.position, now.count == was.count
    else {
      return
        "loaded branch \(now.currentBranch) of \(now.branchCount) at \(now.position)/\(now.count)"
        + " ≠ \(was.currentBranch) of \(was.branchCount) at \(was.position)/\(was.count)"
    }
    for number in stride(from: 1, through: was.branchCount, by: 1) {
      var (old, new): ([TypedKeys], [TypedKeys]) = ([], [])
      was.forEachOwnLine(ofBranch: number) { old.append($0) }
      now.forEachOwnLine(ofBranch: number) { new.append($0) }
      if now.branch(number) != was.branch(number) || new != old
        || now.stateAtEnd(ofBranch: number) != was.stateAtEnd(ofBranch: number)
      {
        return "branch \(number) differs"
      }
    }
    var (oldKeys, newKeys): ([TypedKeys], [TypedKeys]) = ([], [])
    was.forEachLine(upToPosition: { oldKeys.append($0) })
    now.forEachLine(upToPosition: { newKeys.append($0) })
    if now.lines() != was.lines() || newKeys != oldKeys { return "the lines differ" }
    if loaded.state != session.state { return "state \(loaded.state) ≠ \(session.state)" }
    if SessionScript.text(of: now) != saved { return "saved again, the script differs" }
    return nil
  }

  /// 10,000 sessions with `CALC_LONG_TESTS=1`, 120 otherwise.
  static let sessionCount = TestSize.count(short: 120, long: 10_000)
  static let shards = 4

  /// Random sessions (120; 10,000 with `CALC_LONG_TESTS=1`) mixing key lines of both modes
  /// (mode lines, Scientific keys that Standard mode rejects), `goto`, `undo`, `redo`, `branch`,
  /// `reset`, and edits, insertions and deletions (of mode lines too, some refused because a
  /// later line would be rejected on replay); after each edit, accepted or refused, and at the
  /// end, `:save` then `:load` must give the same session (``roundTripLoss(_:)``), and the
  /// session written whole, what it keeps of a `reset` included, must replay to itself
  /// (``wholeRoundTripLoss(_:)``). `undo` and `redo` across a `reset` restore the session it
  /// replaced and the replacement (SPEC §4), as the model does.
  @Test(arguments: 0..<shards)
  func agreesWithTheModel(shard: Int) {
    if let text = ProcessInfo.processInfo.environment["SESSION_TEST_SEED"] {
      if shard == 0, let seed = UInt64(text) { _ = Self.runRandomSession(seed: seed, steps: 30) }
      return
    }
    var (branched, long, restores, references, notes) = (0, 0, 0, 0, 0)
    for index in stride(from: shard, to: Self.sessionCount, by: Self.shards) {
      let seed = 0x5E55_1011 &+ UInt64(index) &* 0x9E37_79B9
      let coverage = Self.runRandomSession(seed: seed, steps: 30)
      if coverage.branches >= 3 { branched += 1 }
      if coverage.longest > History.snapshotInterval { long += 1 }
      restores += coverage.restores
      references += coverage.references
      notes += coverage.notes
    }
    // The generator's promises, so that a change to it cannot quietly weaken the test.
    #expect(branched > Self.sessionCount / Self.shards / 4, "many sessions have several branches")
    #expect(long > Self.sessionCount / Self.shards / 64, "some sessions cross a snapshot")
    #expect(restores > Self.sessionCount / Self.shards / 20, "undo and redo restore sessions")
    #expect(references > Self.sessionCount / Self.shards / 2, "lines use $N (SPEC §11)")
    // About 30 notes a shard of 100 sessions (22 to 37 in the four shards of 400 sessions): the
    // bound, an eighth of a shard's sessions, is well below, so that the default size does not
    // fail by chance.
    #expect(notes > Self.sessionCount / Self.shards / 8, "lines get notes (SPEC §11)")
  }

  /// A rejected command changes nothing, and says what is valid.
  @Test func rejectedCommandsChangeNothing() throws {
    var session = try Self.session([.keys(Self.keys("12+3=")), .goto(2), .keys(Self.keys("*4="))])
    let before = session.history
    let rejected: [(Session.Command, String)] = [
      (.goto(.step(6)), "step 6 is out of range 0…5"),
      (.goto(.offset(-6)), "step -6 from 5 is out of range 0…5"),
      (.goto(.offset(Int.max)), "step +9223372036854775807 from 5 is out of range 0…5"),
      (.branch(99), "no branch 99 (branches: 1…2)"),
      (.branch(0), "no branch 0 (branches: 1…2)"),
      (.undo(-1), "cannot move a negative number of lines (-1)"),
    ]
    for (command, message) in rejected {
      #expect(throws: SessionError.self) { try session.perform(command) }
      do {
        try session.perform(command)
      } catch {
        #expect(error.description == message)
      }
      #expect(session.history.position == before.position)
      #expect(session.history.currentBranch == before.currentBranch)
      #expect(session.history.branchCount == 2)
      session.history._checkInvariants()
    }
    var empty = Session()
    #expect(throws: SessionError.unknownBranch(1, count: 0)) { try empty.perform(.branch(1)) }
    #expect("\(SessionError.unknownBranch(2, count: 1))" == "no branch 2 (there is only branch 1)")
  }

  /// SPEC §4: an edit, insertion or deletion after which a later line would be rejected on
  /// replay changes nothing and names the first such line (as the branch numbers it now); one
  /// that leaves every later line in a mode that has its keys is made. The first `sci` is the
  /// mode line, line 0 (SPEC §11), which no change touches.
  @Test func changesThatWouldSkipKeysOfALaterLineAreRefused() throws {
    let lines = ["sci", "30sin", "std", "5", "sci", "(2)"].map {
      SessionOperation.keys(Self.keys($0))
    }
    let sin = Key.scientific(.function(.sin))
    let open = Key.scientific(.bracket(.open))
    let table: [(Session.Command, SessionError?)] = [
      (.delete(line: 0), .modeLineFixed("delete", last: 5)),
      (.edit(line: 0, keys: Self.keys("5")), .modeLineFixed("edit", last: 5)),
      (.insert(line: 0, keys: Self.keys("std")), .modeLineFixed("insert before", last: 5)),
      (
        .insert(line: 1, keys: Self.keys("std")),
        .laterLineRejected(.inserted, line: 1, later: 1, key: sin)
      ),
      (
        .edit(line: 4, keys: Self.keys("1")),
        .laterLineRejected(.edited, line: 4, later: 5, key: open)
      ),
      (.delete(line: 4), .laterLineRejected(.deleted, line: 4, later: 5, key: open)),
      (.edit(line: 1, keys: Self.keys("std sin")), .needsScientificMode(sin, index: 1)),
      (.delete(line: 2), nil),
      (.insert(line: 1, keys: Self.keys("rad")), nil),
      (.insert(line: 2, keys: Self.keys("std")), nil),
      (.insert(line: 4, keys: Self.keys("std 7")), nil),
      (.edit(line: 2, keys: Self.keys("sci")), nil),
      (.delete(line: 5), nil),
    ]
    for (command, expected) in table {
      var session = try Self.session(lines)
      let before = SessionScript.text(of: session.history)
      do {
        try session.perform(command)
        #expect(expected == nil, "\(command) was done")
        #expect(SessionTests.roundTripLoss(session) == nil, "\(command)")
      } catch {
        #expect(error == expected, "\(command)")
        #expect(SessionScript.text(of: session.history) == before, "\(command) changed nothing")
      }
    }
    #expect(
      SessionError.laterLineRejected(.deleted, line: 1, later: 2, key: sin).description
        == "cannot delete line 1: line 2 would then be rejected ('sin' is a key of Scientific mode)"
    )
    #expect(
      SessionError.laterLineRejected(.inserted, line: 3, later: 4, key: open).description
        == "cannot insert before line 3: line 4 would then be rejected ('(' is a key of Scientific "
        + "mode)")
    #expect(
      SessionError.laterLineRejected(.edited, line: 1, later: 2, key: sin).description
        == "cannot edit line 1: line 2 would then be rejected ('sin' is a key of Scientific mode)")
  }

  // MARK: - SPEC §4 examples

  @Test func undoMovesByLines() throws {
    var session = try Self.session([.keys(Self.keys("12+3=")), .keys(Self.keys("*2="))])
    #expect(Self.display(session) == "30")
    #expect(try session.perform(.undo(1)) == .moved(from: 8, to: 5))
    #expect(Self.display(session) == "15")
    try session.perform(.undo(1))
    #expect(Self.display(session) == "0")
    try session.perform(.undo(1))
    #expect(session.history.position == 0)
    try session.perform(.redo(1))
    #expect(Self.display(session) == "15")
    try session.perform(.redo(5))
    #expect(Self.display(session) == "30")
    session.history._checkInvariants()
  }

  @Test func undoAfterALineTypedInThePast() throws {
    var session = try Self.session([.keys(Self.keys("12+3=")), .goto(2)])
    #expect(try session.perform(.keys(Self.keys("*4="))) == .applied(keys: 3, newBranch: 2))
    #expect(Self.display(session) == "48")
    try session.perform(.undo(1))
    #expect(Self.display(session) == "12")
    #expect(session.history.position == 2)
    // The line it interrupted started at 0.
    try session.perform(.undo(1))
    #expect(session.history.position == 0)
    // Redo follows the current branch: to its fork, then to the end of its own line.
    try session.perform(.redo(1))
    #expect(session.history.position == 2)
    try session.perform(.redo(1))
    #expect(Self.display(session) == "48")
    session.history._checkInvariants()
  }

  @Test func undoInsideALineGoesToItsStart() throws {
    var session = try Self.session([.keys(Self.keys("12+3=")), .keys(Self.keys("*2=")), .goto(7)])
    try session.perform(.undo(1))
    #expect(session.history.position == 5)
    try session.perform(.goto(.step(7)))
    try session.perform(.redo(1))
    #expect(session.history.position == 8)
    try session.perform(.undo(0))
    #expect(session.history.position == 8)
  }

  @Test func branchesAreNeverDiscarded() throws {
    var session = try Self.session([
      .keys(Self.keys("12+3=")), .goto(2), .keys(Self.keys("*4=")), .goto(0),
      .keys(Self.keys("7")),
    ])
    let history = session.history
    #expect(history.branchCount == 3)
    #expect(history.branch(1) == .init(number: 1, parent: nil, fork: 0, count: 5))
    #expect(history.branch(2) == .init(number: 2, parent: 1, fork: 2, count: 5))
    #expect(history.branch(3) == .init(number: 3, parent: 1, fork: 0, count: 1))
    #expect(history.recordedCount == 9)
    #expect(try session.perform(.branch(1)) == .switched(branch: 1))
    #expect(Self.display(session) == "15")
    try session.perform(.branch(2))
    #expect(Self.display(session) == "48")
    #expect(KeyText.text(of: session.history.lastKeys(ofBranch: 2, limit: 4)) == "2*4=")
    #expect(KeyText.text(of: session.history.lastKeys(ofBranch: 2, limit: 9)) == "12*4=")
    // Typing at the end of a branch grows it; no new branch.
    #expect(try session.perform(.keys(Self.keys("+1="))) == .applied(keys: 3, newBranch: nil))
    #expect(session.history.branch(2).count == 8)
    // A fork inside branch 2's own keys leaves branch 2; before them it leaves branch 1.
    try session.perform(.goto(.step(4)))
    try session.perform(.keys(Self.keys("5=")))
    #expect(session.history.branch(4).parent == 2)
    try session.perform(.branch(2))
    try session.perform(.goto(.step(1)))
    try session.perform(.keys(Self.keys("5=")))
    #expect(session.history.branch(5) == .init(number: 5, parent: 1, fork: 1, count: 3))
    #expect(try session.perform(.reset) == .reset)
    #expect(session.history.isEmpty && session.history.branchCount == 0)
    session.history._checkInvariants()
  }

  @Test func forksOnTheCurrentBranch() throws {
    var session = try Self.session([
      .keys(Self.keys("12+3=")), .goto(2), .keys(Self.keys("*4=")), .goto(4),
      .keys(Self.keys("0=")), .branch(1), .goto(1), .keys(Self.keys("5=")), .branch(2),
    ])
    // On branch 2: branch 1 goes on past step 2, branch 3 leaves at 4; branch 5 does not
    // exist, and branch 4 leaves branch 1 at step 1, which branch 2 shares.
    #expect(session.history.forksOnCurrentBranch() == [1: [4], 2: [1], 4: [3]])
    try session.perform(.branch(1))
    #expect(session.history.forksOnCurrentBranch() == [1: [4], 2: [2]])
  }

  /// Lines longer than the snapshot interval, forks on both sides of a snapshot.
  @Test func snapshotsOnEveryBranch() throws {
    let interval = History.snapshotInterval
    var random = SplitMix64(state: 0x5AA5_0001)
    let long = TypedKeys(
      (0..<(2 * interval + 5)).map { _ in SessionOperation.randomKey(using: &random) })
    var session = try Self.session([
      .keys(long), .goto(interval), .keys(long), .goto(interval + 1), .keys(long),
      .goto(2 * interval), .keys(Self.keys("1")),
    ])
    for branch in 1...session.history.branchCount {
      try session.perform(.branch(branch))
      for step in [0, 1, interval - 1, interval, interval + 1, 2 * interval, session.history.count]
      where step <= session.history.count {
        try session.perform(.goto(.step(step)))
        var replayed = History.State.initial
        for index in 0..<step {
          if session.history.startsLine(at: index + 1) { replayed.startLine() }
          replayed.press(session.history.key(at: index + 1))
        }
        #expect(session.state == replayed, "branch \(branch) step \(step)")
      }
      session.history._checkInvariants()
    }
  }

  /// `forEachStep(in:)` gives the same steps, keys and states as the whole walk, for ranges that
  /// start and end before, on and after snapshots and forks, on every branch.
  @Test func stepsInARangeAreThoseOfTheWholeBranch() throws {
    let interval = History.snapshotInterval
    var random = SplitMix64(state: 0x5AA5_0002)
    let long = TypedKeys(
      (0..<(2 * interval + 5)).map { _ in SessionOperation.randomKey(using: &random) })
    var session = try Self.session([
      .keys(long), .goto(interval), .keys(long), .goto(interval + 1), .keys(long),
    ])
    struct Step: Equatable {
      let step: Int
      let key: Key?
      let state: History.State
    }
    for branch in 1...session.history.branchCount {
      try session.perform(.branch(branch))
      let history = session.history
      var all: [Step] = []
      history.forEachStep { all.append(Step(step: $0, key: $1, state: $2)) }
      #expect(all.map(\.step) == Array(0...history.count))
      let bounds = [0, 1, interval - 1, interval, interval + 1, interval + 2, history.count]
      for lower in bounds where lower <= history.count {
        for upper in bounds where lower <= upper && upper <= history.count {
          var ranged: [Step] = []
          history.forEachStep(in: lower...upper) {
            ranged.append(Step(step: $0, key: $1, state: $2))
          }
          #expect(ranged == Array(all[lower...upper]), "branch \(branch), \(lower)...\(upper)")
        }
      }
    }
  }

  @Test func storageIsAboutOneBytePerKey() throws {
    var random = SplitMix64(state: 0xB17E)
    var session = Session()
    for _ in 0..<2_000 {
      try session.perform(.keys((0..<50).map { _ in SessionOperation.randomKey(using: &random) }))
    }
    let perKey = Double(session.history.storageBytes) / Double(session.history.recordedCount)
    #expect(perKey > 1 && perKey < 2, "\(perKey) bytes per key")
  }

  @Test func eachLineOfABranchIsKept() throws {
    let session = try Self.session([
      .keys(Self.keys("12+3=")), .keys(Self.keys("*2=")), .goto(6), .keys(Self.keys("1")),
      .keys(Self.keys("=")),
    ])
    var lines: [[String]] = []
    for number in 1...session.history.branchCount {
      var own: [String] = []
      session.history.forEachOwnLine(ofBranch: number) { own.append(KeyText.text(of: $0)) }
      lines.append(own)
    }
    #expect(lines == [["12+3=", "*2="], ["1", "="]])
  }

  // MARK: - The script format

  @Test func sessionScriptOfTwoForks() throws {
    let session = try Self.session([
      .keys(Self.keys("12+3=")), .keys(Self.keys("*2=")), .goto(2), .keys(Self.keys("*4=")),
      .goto(1), .keys(Self.keys("5=")), .branch(2), .goto(4),
    ])
    #expect(
      SessionScript.text(of: session.history) == """
        # calc session, format 3: 3 branches, at step 4 of 5 on branch 2
        12+3=
        *2=
        # branch 2 leaves branch 1 at step 2
        :branch 1
        :goto 2
        *4=
        # branch 3 leaves branch 1 at step 1
        :branch 1
        :goto 1
        5=
        :branch 2
        :goto 4

        """)
    #expect(SessionScript.text(of: History()) == "# calc session, format 3: empty\n")
  }

  // MARK: - The script line grammar

  @Test func scriptLines() throws {
    #expect(try ScriptLine("") == .blank)
    #expect(try ScriptLine("  \t# just a comment") == .blank)
    #expect(try ScriptLine(" 12 + 3 = # sum") == .keys(Self.keys("12+3=")))
    // The comment is kept apart: `:edit` reads a note from it (SPEC §11).
    var goto = ScriptLine.Directive(name: "goto", column: 3, argument: "+3", argumentColumn: 10)
    goto.comment = "on"
    #expect(try ScriptLine("  :goto  +3  # on") == .directive(goto))
    var note = ScriptLine.Directive(
      name: "note", column: 1, argument: "2 VAT # 19%", argumentColumn: 7)
    #expect(try ScriptLine(":note 2 VAT # 19% # crc 0badf00d") == .directive(note))
    note.comment = "x"
    #expect(try ScriptLine(":note 2 VAT # 19%") != .directive(note))
    #expect(
      try ScriptLine(":save my#file.calc")
        == .directive(
          .init(name: "save", column: 1, argument: "my#file.calc", argumentColumn: 7)))
    #expect(try ScriptLine(":") == .directive(.init(name: "", column: 1, argumentColumn: 2)))
    #expect(throws: KeyTextError(character: "x", column: 4, hint: "× is '*'")) {
      try ScriptLine("12+x")
    }
  }

  /// `help`, `quit` and `exit` alone on a line are commands; anywhere else they are bad keys.
  @Test func bareWords() throws {
    #expect(try ScriptLine("quit") == .directive(.init(name: "quit", column: 1, argumentColumn: 5)))
    #expect(
      try ScriptLine("  Help  # all of it")
        == .directive(.init(name: "help", column: 3, argumentColumn: 7)))
    #expect(try ScriptLine("EXIT") == .directive(.init(name: "exit", column: 1, argumentColumn: 5)))
    #expect(throws: KeyTextError(character: "h", column: 1)) { try ScriptLine("help me") }
    #expect(throws: KeyTextError(character: "u", column: 2)) { try ScriptLine("quit#x") }
    #expect(throws: KeyTextError(character: "h", column: 3)) { try ScriptLine("1 help") }
    #expect(throws: KeyTextError(character: "u", column: 2)) { try ScriptLine("quitting") }
  }
}
