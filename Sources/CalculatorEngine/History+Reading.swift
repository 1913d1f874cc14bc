import CalcDecimal

// Reading a history: what a session, a listing and the front end ask of it.
extension History {
  /// The number of keys on the current branch, from the start.
  public var count: Int { branches[current].count }

  /// Whether no key has been recorded on any branch.
  public var isEmpty: Bool { branches[0].codes.isEmpty }

  /// Whether the position is at the end of the current branch.
  public var isAtEnd: Bool { position == count }

  /// The number of branches: 0 for an empty history, else 1 or more.
  public var branchCount: Int { isEmpty ? 0 : branches.count }

  /// The number of keys recorded on all branches, each branch's own keys once.
  ///
  /// - Complexity: O(number of branches).
  public var recordedCount: Int { branches.reduce(0) { $0 + $1.codes.count } }

  /// The number of the current branch (1 for an empty history).
  public var currentBranch: Int { current + 1 }

  /// What a person needs to know about a branch.
  public struct BranchInfo: Hashable, Sendable {
    /// The branch's number, 1 or more.
    public let number: Int
    /// The number of the branch it leaves; `nil` for branch 1.
    public let parent: Int?
    /// The step where it leaves its parent: the last step they share.
    public let fork: Int
    /// The number of keys on the branch, from the start.
    public let count: Int

    /// A description of a branch with the given parts.
    package init(number: Int, parent: Int?, fork: Int, count: Int) {
      self.number = number
      self.parent = parent
      self.fork = fork
      self.count = count
    }
  }

  /// The branch numbered `number`, which must be within `1...branchCount`.
  public func branch(_ number: Int) -> BranchInfo {
    let branch = branches[number - 1]
    return BranchInfo(
      number: number, parent: branch.parent < 0 ? nil : branch.parent + 1, fork: branch.fork,
      count: branch.count)
  }

  /// The key that led to `step` on the current branch, for `step` within `1...count` (a `$N`
  /// key without its N: ``referencedLine(at:)``).
  ///
  /// - Complexity: O(log b), b the number of branches the current one passes through.
  public func key(at step: Int) -> Key {
    let owner = owner(of: step)
    // Read in place: a copy of the branch retained and released each of its arrays (about 750
    // instructions a call).
    return branches[owner].key(at: step - branches[owner].fork - 1)
  }

  /// The formula line that led to `step` on the current branch (within `1...count`), as it
  /// was recorded (SPEC §12); `nil` when that key is no formula.
  ///
  /// - Complexity: O(log b + log f), b the number of branches the current one passes through,
  ///   f the formula lines of the branch that owns the step.
  public func formulaStep(at step: Int) -> FormulaStep? {
    let branch = branches[owner(of: step)]
    return branch.formulas.isEmpty ? nil : branch.formulas[step - branch.fork - 1]
  }

  /// The date line that led to `step` on the current branch (within `1...count`), as it was
  /// recorded (SPEC §13); `nil` when that key is no date line.
  ///
  /// - Complexity: O(log b + log d), b the number of branches the current one passes through,
  ///   d the date lines of the branch that owns the step.
  public func dateStep(at step: Int) -> DateStep? {
    let branch = branches[owner(of: step)]
    return branch.dates.isEmpty ? nil : branch.dates[step - branch.fork - 1]
  }

  /// How many date steps the current branch keeps of its own.
  var dateStepCount: Int { branches[current].dates.count }

  /// Where the current branch keeps the step of the date line that ends it, if its last key
  /// is one (``dateStep(ordinal:)``): for a line just applied at the branch's end
  /// (``LineEndIndex``).
  var lastDateOrdinal: Int? {
    let branch = branches[current]
    guard branch.codes.last == Key.dateLineCode else { return nil }
    return branch.dates.count - 1
  }

  /// The date step at `ordinal` among the current branch's own (``lastDateOrdinal``).
  ///
  /// - Complexity: O(1).
  func dateStep(ordinal: Int) -> DateStep {
    branches[current].dates[ordinal: ordinal]
  }

  /// The value of the date step at `ordinal` among the current branch's own: read in place,
  /// without a copy of the step's texts (each a reference to count, often far in memory).
  ///
  /// - Complexity: O(1).
  func dateValue(ordinal: Int) -> DateValue {
    branches[current].dates[ordinal: ordinal].value
  }

  /// N of the `$N` key that led to `step` on the current branch (within `1...count`); `nil`
  /// when that key is no `$N`.
  ///
  /// - Complexity: O(log b), b the number of branches the current one passes through.
  public func referencedLine(at step: Int) -> Int? {
    let branch = branches[owner(of: step)]
    return branch.references.isEmpty ? nil : branch.references[step - branch.fork - 1]?.line
  }

  /// The key that led to `step` on the current branch as text: its title, `$N` for a reference.
  ///
  /// - Complexity: O(log b), b the number of branches the current one passes through.
  public func keyTitle(at step: Int) -> String {
    if let formula = formulaStep(at: step) { return formula.text }
    if let date = dateStep(at: step) { return date.text }
    return referencedLine(at: step).map { "$\($0)" } ?? key(at: step).title
  }

  /// Whether the key that leads to `step` (1 through ``count``) on the current branch is the
  /// first of a line, where the calculator starts the line (``Calculator/startLine()``).
  public func startsLine(at step: Int) -> Bool {
    let branch = branches[owner(of: step)]
    return branch.startsLine(at: step - branch.fork - 1)
  }

  /// Calls `body` with the keys of each line of the current branch up to the position, in
  /// order: the lines as they were entered, the last one cut at the position when it lies inside
  /// a line. Replaying them line by line from a fresh calculator gives ``state``.
  ///
  /// - Complexity: O(position × log b), b the number of branches the current one passes
  ///   through.
  package func forEachLine(
    upToPosition body: (TypedKeys) throws -> Void
  ) rethrows {
    var line = TypedKeys()
    for step in stride(from: 1, through: position, by: 1) {
      if startsLine(at: step), !line.isEmpty {
        try body(line)
        line.removeAll(keepingCapacity: true)
      }
      let branch = branches[owner(of: step)]
      branch.appendKey(at: step - branch.fork - 1, to: &line)
    }
    if !line.isEmpty { try body(line) }
  }

  /// The calculator at `position` on the current branch, which must be within `0...count`.
  ///
  /// - Complexity: O(``snapshotInterval`` + log b), b the number of branches the current one
  ///   passes through: neither the length of the history nor the number of branches matters.
  public func state(at position: Int) -> State {
    position == 0 ? .initial : state(at: position, on: owner(of: position))
  }

  /// The calculator at the end of branch `number` (within `1...branchCount`).
  ///
  /// - Complexity: O(``snapshotInterval``).
  package func stateAtEnd(ofBranch number: Int) -> State {
    let index = number - 1
    return state(at: branches[index].count, on: index)
  }

  /// The last `limit` keys (or fewer, near the start) of branch `number`, in order.
  ///
  /// - Complexity: O(`limit` + the depth of the branch in the tree).
  package func lastKeys(ofBranch number: Int, limit: Int) -> TypedKeys {
    var places: [(branch: Int, index: Int)] = []
    var index = number - 1
    var end = branches[index].count
    while places.count < limit, end > 0, index >= 0 {
      let branch = branches[index]
      var step = end
      while places.count < limit, step > branch.fork {
        places.append((index, step - branch.fork - 1))
        step -= 1
      }
      end = step
      index = branch.parent
    }
    var keys = TypedKeys()
    for place in places.reversed() { branches[place.branch].appendKey(at: place.index, to: &keys) }
    return keys
  }

  /// Calls `body` with each line of branch `number`'s own keys (those after its fork), in order.
  ///
  /// - Complexity: O(n) in the number of the branch's own keys.
  package func forEachOwnLine(
    ofBranch number: Int, _ body: (TypedKeys) throws -> Void
  ) rethrows {
    try forEachOwnLine(ofBranch: number) { keys, _ in try body(keys) }
  }

  /// Calls `body` with each line of branch `number`'s own keys (those after its fork), in order,
  /// and its note (SPEC §11), if it has one.
  ///
  /// - Complexity: O(n) in the number of the branch's own keys.
  package func forEachOwnLine(
    ofBranch number: Int, _ body: (TypedKeys, String?) throws -> Void
  ) rethrows {
    let branch = branches[number - 1]
    var line = TypedKeys()
    for index in branch.codes.indices {
      branch.appendKey(at: index, to: &line)
      if branch.endsLine(at: index) {
        try body(line, branch.notes.isEmpty ? nil : branch.notes[index])
        line.removeAll(keepingCapacity: true)
      }
    }
  }

  /// Calls `body` for every step of the current branch from 0 through ``count``, with the key
  /// that led there (none at 0) and the calculator there.
  ///
  /// - Complexity: O(n) in the length of the branch; memory O(1).
  public func forEachStep(_ body: (Int, Key?, State) throws -> Void) rethrows {
    try forEachStep(in: 0...count, body)
  }

  /// Calls `body` for each of `steps` on the current branch (within `0...count`), in order, with
  /// the key that led there (none at 0) and the calculator there.
  ///
  /// - Complexity: O(``snapshotInterval`` + log b + m), m the number of steps, b the number of
  ///   branches the current one passes through; memory O(1).
  public func forEachStep(
    in steps: ClosedRange<Int>, _ body: (Int, Key?, State) throws -> Void
  ) rethrows {
    precondition(steps.lowerBound >= 0 && steps.upperBound <= count, "steps out of range")
    var step = steps.lowerBound
    var state = state(at: step)
    try body(step, step == 0 ? nil : key(at: step), state)
    // The path's branches own consecutive runs of steps; those before `step` are skipped.
    for (depth, index) in path.enumerated() {
      let branch = branches[index]
      let end = min(
        depth + 1 < path.count ? branches[path[depth + 1]].fork : branch.count, steps.upperBound)
      while step < end {
        let index = step - branch.fork
        let key = branch.key(at: index)
        if branch.startsLine(at: index) { state.startLine() }
        branch.press(at: index, &state)
        step += 1
        try body(step, key, state)
      }
    }
  }

  /// One input line of the current branch: the position before it and its keys.
  public struct Line: Hashable, Sendable {
    /// The position where the line starts: the number of keys before it.
    public let start: Int
    /// The line's keys, as typed.
    public let keys: TypedKeys
    /// The line's note (SPEC §11); `nil` without one, and for the part of a parent's line
    /// before a fork, which has none of its own.
    public var note: String? = nil
    /// The position after the line's last key.
    public var end: Int { start + keys.count }
  }

  /// The input lines of the whole current branch, kept future included, in order (SPEC §4,
  /// `:lines`): a line ends where it was entered, and a fork is a line boundary, so the part of
  /// a parent's line before the fork is a line of its own.
  ///
  /// - Complexity: O(n) in the length of the branch.
  public func lines() -> [Line] { lines(along: path) }

  /// The line of the current branch that ends at step `end` (a line's end, within
  /// `1...count`), as ``lines()`` lists it but without its note: the keys back to the first
  /// that starts a line.
  ///
  /// - Complexity: O(k × log b) in the line's k keys, b the number of branches the current one
  ///   passes through.
  package func line(endingAt end: Int) -> Line {
    var start = end - 1
    while start > 0, !startsLine(at: start + 1) { start -= 1 }
    var keys = TypedKeys()
    for step in start + 1...end {
      let branch = branches[owner(of: step)]
      branch.appendKey(at: step - branch.fork - 1, to: &keys)
    }
    return Line(start: start, keys: keys)
  }

  /// Where each line of the current branch starts, as ``lines()`` lists the lines, and then
  /// ``count``: line `i` holds the keys of steps `starts[i] + 1 ... starts[i + 1]`. A fork is
  /// a line boundary, so each line's keys are one branch's. `[0]` for an empty history.
  ///
  /// What `:edit` reads instead of ``lines()``: one array of positions, with each line's keys
  /// read when needed (``readLine(from:to:into:)``), rather than an array of keys a line
  /// allocated, listed and released (Documentation/Performance.md, "`:edit` reads the old
  /// branch in place").
  ///
  /// - Complexity: O(n / 64 + l + b) for n keys in l lines along b branches.
  package func lineStarts() -> [Int] {
    var starts: [Int] = []
    var step = 0
    for (depth, index) in path.enumerated() {
      let end = depth + 1 < path.count ? branches[path[depth + 1]].fork : branches[index].count
      let fork = branches[index].fork
      while step < end {
        starts.append(step)
        if let last = branches[index].firstLineEnd(in: (step - fork)..<(end - fork)) {
          step = fork + last + 1
        } else {
          step = end
        }
      }
    }
    starts.append(step)
    return starts
  }

  /// Replaces `keys` with the keys of the line of the current branch from `start` to `end` (two
  /// neighbours of ``lineStarts()``), and returns its note, as ``lines()`` gives the line.
  ///
  /// - Complexity: O(k + log b) for the line's k keys, b the branches of the current path.
  package func readLine(from start: Int, to end: Int, into keys: inout TypedKeys) -> String? {
    keys.removeAll(keepingCapacity: true)
    let index = owner(of: start + 1)
    let fork = branches[index].fork
    let first = start - fork
    let last = end - fork - 1
    if !branches[index].appendPlainKeys(first...last, to: &keys) {
      for own in first...last { branches[index].appendKey(at: own, to: &keys) }
    }
    guard !branches[index].notes.isEmpty, branches[index].endsLine(at: last) else { return nil }
    return branches[index].notes[last]
  }

  /// The first of the current branch's keys at positions `start..<end` (the key at position p
  /// leads to step p + 1) whose ``Key/code`` is `code` or more; `nil` when there is none.
  ///
  /// - Complexity: O(n + log b) for the n keys scanned.
  package func firstKey(from start: Int, to end: Int, codeAtLeast code: UInt8) -> Int? {
    var position = start
    while position < end {
      let index = owner(of: position + 1)
      let depth = path.lastIndex(of: index)!
      let fork = branches[index].fork
      let segmentEnd = min(
        end, depth + 1 < path.count ? branches[path[depth + 1]].fork : branches[index].count)
      let found = branches[index].codes.withUnsafeBufferPointer { codes -> Int? in
        for own in (position - fork)..<(segmentEnd - fork) where codes[own] >= code {
          return own + fork
        }
        return nil
      }
      if let found { return found }
      position = segmentEnd
    }
    return nil
  }

  /// The input lines of branch `number` (within `1...branchCount`), as ``lines()`` gives them
  /// for the current branch.
  ///
  /// - Complexity: O(n) in the length of the branch.
  public func lines(ofBranch number: Int) -> [Line] {
    var path: [Int] = []
    var index = number - 1
    while index >= 0 {
      path.append(index)
      index = branches[index].parent
    }
    return lines(along: Array(path.reversed()))
  }

  /// Where the line of a branch that ends at step `end` is kept: the branch that owns its last
  /// key and that key's index among the branch's own keys. Lines of several branches with the
  /// same start and place are one line, shared (SPEC §11, `:find`).
  package struct LinePlace: Hashable, Sendable {
    package let branch: Int
    package let index: Int
  }

  /// The place of each line of branch `number` (as ``lines(ofBranch:)`` lists them).
  ///
  /// - Complexity: O(n) in the length of the branch.
  package func linePlaces(ofBranch number: Int) -> [LinePlace] {
    var path: [Int] = []
    var walk = number - 1
    while walk >= 0 {
      path.append(walk)
      walk = branches[walk].parent
    }
    path.reverse()
    var places: [LinePlace] = []
    var step = 0
    var last: LinePlace?
    for (depth, index) in path.enumerated() {
      let branch = branches[index]
      let end = depth + 1 < path.count ? branches[path[depth + 1]].fork : branch.count
      while step < end {
        let own = step - branch.fork
        if branch.startsLine(at: own), let place = last { places.append(place) }
        last = LinePlace(branch: index + 1, index: own)
        step += 1
      }
    }
    if let last { places.append(last) }
    return places
  }

  /// The lines along `path` (branch indices from the first), as ``lines()`` describes them.
  func lines(along path: [Int]) -> [Line] {
    var lines: [Line] = []
    var keys = TypedKeys()
    var start = 0
    var step = 0
    var note: String?
    for (depth, index) in path.enumerated() {
      let branch = branches[index]
      let end = depth + 1 < path.count ? branches[path[depth + 1]].fork : branch.count
      while step < end {
        let own = step - branch.fork
        if branch.startsLine(at: own), !keys.isEmpty {
          lines.append(Line(start: start, keys: keys, note: note))
          keys.removeAll(keepingCapacity: true)
          start = step
        }
        // The keys to the line's end, or to the end of this part of the path, at once when
        // none is `$N`, a formula or a date line: appended a key at a time, each append checked
        // the array's uniqueness and room (Documentation/Performance.md, "`:edit` meets the old
        // branch").
        var last = own
        let lastOwn = end - branch.fork - 1
        while last < lastOwn, !branch.endsLine(at: last) { last += 1 }
        if !branch.appendPlainKeys(own...last, to: &keys) {
          for index in own...last { branch.appendKey(at: index, to: &keys) }
        }
        // Only a line's real end holds its note: a part cut by a fork has none.
        note =
          branch.endsLine(at: last) && !branch.notes.isEmpty
          ? branch.notes[last] : nil
        step += last - own + 1
      }
    }
    if !keys.isEmpty { lines.append(Line(start: start, keys: keys, note: note)) }
    return lines
  }

  /// The display after each of `lines` (lines of the current branch, in order, from
  /// ``lines()``).
  ///
  /// Each line is replayed at once, not a step at a time: a line of plain keys pressed from its
  /// list as the history applied it (``Calculator/press(each:startingLine:)``), any other as a
  /// run of its branch's keys (``Branch/replay(_:on:)``, as a snapshot is rebuilt).
  ///
  /// - Complexity: O(``snapshotInterval`` + m + l × log b), m the steps from the first line's
  ///   start to the last line's end, l the lines, b the branches the current one passes
  ///   through.
  package func displays(after lines: ArraySlice<Line>) -> [Display] {
    guard let first = lines.first else { return [] }
    var displays: [Display] = []
    displays.reserveCapacity(lines.count)
    var state = state(at: first.start)
    var position = first.start
    var line = lines.startIndex
    while line < lines.endIndex {
      // The branch that owns the next key, bound once for all the lines it owns: a `Branch`
      // copied (or captured by the replay's closures) a line retained each of its arrays, which
      // cost more than a short line's keys.
      let index = owner(of: position + 1)
      let branch = branches[index]
      while line < lines.endIndex {
        let end = lines[line].end
        // A line's keys are one branch's (a fork is a line boundary); a line that runs past a
        // fork goes on a key at a time.
        let stop: Int
        if owner(of: end) == index {
          stop = end
        } else if owner(of: position + 1) == index {
          stop = position + 1
        } else {
          break
        }
        let keys = lines[line].keys
        if stop == end, position == lines[line].start, !keys.hasReferences, !keys.hasFormulas {
          // A line of plain keys is pressed from its list as the history applied it
          // (``Calculator/press(each:startingLine:)``: a typed number's digits at once), not
          // decoded and pressed a key at a time.
          let startsLine = branch.startsLine(at: position - branch.fork)
          keys.keys.withUnsafeBufferPointer { state.press(each: $0, startingLine: startsLine) }
        } else {
          branch.replay((position - branch.fork)..<(stop - branch.fork), on: &state)
        }
        position = stop
        guard position == end else { break }
        displays.append(state.display)
        line += 1
      }
    }
    return displays
  }

  /// A replay of lines of the current branch one at a time, for the display after each: what
  /// `:edit` pairs with the new lines as it applies them (``Session``), so that it can stop
  /// replaying the old lines where the two meet and let the rest go by (``skip(_:)``).
  ///
  /// It keeps the branches and the path as they were when it started: the history may go on to
  /// a new branch meanwhile. Each line gives the display ``History/displays(after:)`` gives.
  package struct LineReplay {
    /// The branches and the current branch's path when the replay started.
    private let branches: [Branch]
    private let path: [Int]
    /// The calculator after the lines replayed so far (before those skipped since the last
    /// ``resume(from:)``).
    package private(set) var state: State
    /// The step the replay has reached: the end of the last line replayed or skipped.
    private var position: Int

    /// A replay of the current branch of `history` from step `start`, a line's start.
    ///
    /// - Complexity: O(``History/snapshotInterval``), as ``History/state(at:)``.
    package init(_ history: History, from start: Int) {
      branches = history.branches
      path = history.path
      state = history.state(at: start)
      position = start
    }

    /// The index of the branch that owns the key leading to `step`, as ``History/owner(of:)``.
    private func owner(of step: Int) -> Int {
      History.owner(of: step, branches: branches, path: path)
    }

    /// Replays `line`, the line after those replayed or skipped so far, and returns the display
    /// after it: a line of plain keys pressed from its list, any other as its branch's keys,
    /// a branch at a time, as ``History/displays(after:)`` does.
    ///
    /// - Complexity: O(k + log b), k the line's keys.
    package mutating func display(after line: Line) -> Display {
      display(from: line.start, keys: line.keys)
    }

    /// Replays the line from `start` with `keys`, as ``display(after:)`` replays a ``Line``:
    /// for keys read into a buffer that is reused (``History/readLine(from:to:into:)``).
    ///
    /// - Complexity: O(k + log b), k the line's keys.
    package mutating func display(from start: Int, keys: TypedKeys) -> Display {
      let end = start + keys.count
      if position == start, !keys.hasReferences, !keys.hasFormulas {
        let index = owner(of: position + 1)
        if owner(of: end) == index {
          let branch = branches[index]
          let startsLine = branch.startsLine(at: position - branch.fork)
          keys.keys.withUnsafeBufferPointer { state.press(each: $0, startingLine: startsLine) }
          position = end
          return state.display
        }
      }
      while position < end {
        let index = owner(of: position + 1)
        let branch = branches[index]
        let stop = min(end, index == path.last ? end : branches[nextOnPath(after: index)].fork)
        branch.replay((position - branch.fork)..<(stop - branch.fork), on: &state)
        position = stop
      }
      return state.display
    }

    /// The branch after `index` on the path.
    private func nextOnPath(after index: Int) -> Int {
      path[path.firstIndex(of: index)! + 1]
    }

    /// Passes over the line after those replayed or skipped so far, which ends at `end`,
    /// without replaying it: ``state`` stays as it was until ``resume(from:)`` gives the state
    /// after the lines skipped.
    package mutating func skip(to end: Int) { position = end }

    /// Goes on from `state`, the state after the lines replayed and skipped so far.
    package mutating func resume(from state: State) { self.state = state }
  }

  /// The steps where the lines of the current branch up to `step` end, in order: each line end
  /// at or before `step`, and `step` itself when it lies inside a line (once a line is entered
  /// there, that part is a line of its own). Line N ends at element N − 1; the count is the
  /// number of the line that a line entered at `step` would be, less one (SPEC §11).
  ///
  /// - Complexity: O(`step` × log b), b the number of branches the current one passes through.
  package func lineEnds(upTo step: Int) -> [Int] {
    var ends: [Int] = []
    guard step > 0 else { return ends }
    for start in stride(from: 2, through: step, by: 1) where startsLine(at: start) {
      ends.append(start - 1)
    }
    ends.append(step)
    return ends
  }

  /// What a `$N` key recalls after the line of the current branch that ends at `end`: the
  /// value there, or its error.
  ///
  /// - Complexity: O(``snapshotInterval`` + log b), as ``state(at:)``.
  package func recalled(atLineEnd end: Int) -> Calculator.Recalled {
    Calculator.Recalled(state(at: end))
  }

  /// The number of the branch that owns the key leading to `step` (1 through ``count``) on the
  /// current branch: the branch whose line holds it.
  package func owningBranch(of step: Int) -> Int { owner(of: step) + 1 }

  /// The note of the line of the current branch that ends at `end` (1 through ``count``), if
  /// it ends there for real (``endsLine(at:)``) and has one.
  public func note(ofLineEndingAt end: Int) -> String? {
    let branch = branches[owner(of: end)]
    let own = end - branch.fork - 1
    guard !branch.notes.isEmpty, branch.endsLine(at: own) else { return nil }
    return branch.notes[own]
  }

  /// What the `$N` keys among the last `count` keys before the position recalled, in order:
  /// for a front end that shows a line it just applied key by key (`--trace`).
  ///
  /// - Complexity: O(`count` × log b).
  package func lastKeysRecalls(_ count: Int) -> [Calculator.Recalled] {
    var recalls: [Calculator.Recalled] = []
    for step in stride(from: max(1, position - count + 1), through: position, by: 1) {
      let branch = branches[owner(of: step)]
      if let reference = branch.references[step - branch.fork - 1] {
        recalls.append(reference.recalled)
      }
    }
    return recalls
  }

  /// Whether any line of any branch has a note (SPEC §11).
  ///
  /// - Complexity: O(number of branches).
  package var hasNotes: Bool { branches.contains { !$0.notes.isEmpty } }

  /// Whether any line of any branch is a formula line (SPEC §12): its script is format 4.
  ///
  /// - Complexity: O(number of branches).
  /// A date line (SPEC §13) makes it format 4 too.
  package var hasFormulas: Bool {
    branches.contains { !$0.formulas.isEmpty || !$0.dates.isEmpty }
  }

  /// Whether the line of the current branch that ends at `end` ends there for real, where it
  /// was entered, rather than being the part of a parent's line before a fork: only such a line
  /// has a note of its own.
  package func endsLine(at end: Int) -> Bool {
    let branch = branches[owner(of: end)]
    return branch.endsLine(at: end - branch.fork - 1)
  }

  /// For the current branch: each step where another branch leaves it, with those branches'
  /// numbers in order.
  ///
  /// A branch leaves at its fork when it forks from the current branch's path there; a branch
  /// that the current one passes through leaves where the current path turns off it.
  /// - Complexity: O(number of branches).
  package func forksOnCurrentBranch() -> [Int: [Int]] {
    var forks: [Int: [Int]] = [:]
    var pathDepth = [Int](repeating: -1, count: branches.count)
    for (depth, index) in path.enumerated() { pathDepth[index] = depth }
    for (index, branch) in branches.enumerated() where pathDepth[index] < 0 {
      guard branch.parent >= 0 else { continue }
      let parentDepth = pathDepth[branch.parent]
      guard parentDepth >= 0 else { continue }
      // Beyond the point where the path turns off the parent, the branch is not a neighbour.
      if parentDepth + 1 < path.count, branch.fork > branches[path[parentDepth + 1]].fork {
        continue
      }
      forks[branch.fork, default: []].append(index + 1)
    }
    for depth in 0..<(path.count - 1) {
      forks[branches[path[depth + 1]].fork, default: []].append(path[depth] + 1)
    }
    return forks.mapValues { $0.sorted() }
  }

  /// The bytes of storage the history holds: keys, snapshots and bookkeeping (allocated
  /// capacity), and the boxes and arrays of Scientific and Programmer snapshots
  /// (``storageBreakdown``'s total).
  ///
  /// - Complexity: O(s) in the number of snapshots.
  public var storageBytes: Int { storageBreakdown.total }

  /// Where a history's storage goes (``History/storageBreakdown``), in bytes of allocated
  /// capacity: what calc-bench's verbose rows print.
  public struct StorageBreakdown: Hashable, Sendable, CustomStringConvertible {
    /// The key codes, one byte each.
    package var keys = 0
    /// The line-end bits, in 64-bit words.
    package var lineEnds = 0
    /// Whole snapshots: their number, and their bytes with the boxed brains' heap.
    package var wholeSnapshots = 0
    package var wholeSnapshotBytes = 0
    /// Light snapshots (``History``'s storage notes): their number, and their bytes with the
    /// restarts that say how to rebuild them.
    package var lightSnapshots = 0
    package var lightSnapshotBytes = 0
    /// Restart marks (``History``'s `Mark`): their number, and their bytes with the encoded
    /// states and the arrays' headers.
    package var marks = 0
    package var markBytes = 0
    /// The branches' records, the current path and each array's header.
    package var branches = 0
    /// The number of branches.
    package var branchCount = 0

    /// The sum of the parts.
    package var total: Int {
      keys + lineEnds + wholeSnapshotBytes + lightSnapshotBytes + markBytes + branches
    }

    /// `keys 10,240,000, line ends 1,600,000, …` with the share of each.
    public var description: String {
      func part(_ name: String, _ bytes: Int) -> String {
        let share = total == 0 ? 0 : (1000 * bytes + total / 2) / total
        return "\(name) \(bytes) (\(share / 10).\(share % 10)%)"
      }
      return [
        part("keys", keys), part("line ends", lineEnds),
        part("\(wholeSnapshots) whole snapshots", wholeSnapshotBytes),
        part("\(lightSnapshots) light snapshots", lightSnapshotBytes),
        part("\(marks) restart marks", markBytes),
        part("\(branchCount) branches", branches),
      ].joined(separator: ", ")
    }
  }

  /// Where the storage goes: ``storageBytes`` in parts.
  ///
  /// - Complexity: O(s) in the number of snapshots.
  public var storageBreakdown: StorageBreakdown {
    var parts = StorageBreakdown()
    parts.branchCount = branches.count
    parts.branches =
      branches.capacity * MemoryLayout<Branch>.stride + path.capacity * MemoryLayout<Int>.stride
    for branch in branches {
      // Each allocated array also has a header of four words (its class, reference count, count
      // and capacity) beside its storage; an empty array allocates nothing.
      parts.branches +=
        32
        * [branch.codes.capacity, branch.lineEnds.capacity, branch.snapshots.capacity]
        .filter { $0 > 0 }.count
      parts.keys += branch.codes.capacity
      parts.lineEnds += branch.lineEnds.capacity * 8
      // Unused capacity is counted with the whole snapshots.
      parts.wholeSnapshots += branch.snapshots.count
      parts.wholeSnapshotBytes += branch.snapshots.capacity * MemoryLayout<State>.stride
      // A Scientific or Programmer state lives in a box of its own, with arrays (counted for
      // each snapshot, as if none shared a box with the one before).
      for snapshot in branch.snapshots {
        if let scientific = snapshot.scientific {
          parts.wholeSnapshotBytes += scientific.heapBytes
        }
        if let programmer = snapshot.programmer {
          parts.wholeSnapshotBytes += programmer.heapBytes
        }
      }
      // The light snapshots, with their array's header.
      if branch.lights.capacity > 0 {
        parts.lightSnapshots += branch.lights.count
        parts.lightSnapshotBytes += 32 + branch.lights.capacity * MemoryLayout<Light>.stride
      }
      // The restart marks and their states, with their arrays' headers.
      parts.marks += branch.marks.count
      if branch.marks.capacity > 0 {
        parts.markBytes += 32 + branch.marks.capacity * MemoryLayout<Mark>.stride
      }
      if branch.markBytes.capacity > 0 { parts.markBytes += 32 + branch.markBytes.capacity }
    }
    return parts
  }

  // MARK: - Internals

  /// The index of the branch on the current path that owns the key leading to `step` (≥ 1):
  /// the last branch of the path whose fork lies before `step`.
  func owner(of step: Int) -> Int {
    History.owner(of: step, branches: branches, path: path)
  }

  /// The branch of `path` (indices of `branches`, each forking from the one before) that owns
  /// the key leading to `step` (≥ 1): the last whose fork lies before `step`.
  ///
  /// - Complexity: O(log p) for a path of p branches.
  static func owner(of step: Int, branches: [Branch], path: [Int]) -> Int {
    var low = 0
    var high = path.count - 1
    // Invariant: branches[path[low]].fork < step (the first branch's fork is 0).
    while low < high {
      let middle = (low + high + 1) / 2
      if branches[path[middle]].fork < step { low = middle } else { high = middle - 1 }
    }
    return path[low]
  }

  /// The state at `position` (a step the branch at `index` owns, or its fork).
  func state(at position: Int, on index: Int) -> State {
    let branch = branches[index]
    let offset = position - branch.fork
    var (state, start) = branch.snapshot(offset / History.snapshotInterval)
    if let mark = branch.lastMark(atOrBefore: offset), mark.offset > start {
      // A restart after the snapshot's start (``Mark``): the replay starts there.
      state = branch.markLight(mark.index).state
      start = mark.offset
    } else if start < 0 {
      if start == Int.min {
        // A first snapshot that is the parent's state at the fork, fewer than an interval of
        // the parent's keys after its own snapshot.
        state = self.state(at: branch.fork, on: branch.parent)
      } else {
        // A first snapshot whose restart lies among the parent's own keys before the fork.
        let parent = branches[branch.parent]
        parent.replay(
          (branch.fork - parent.fork + start)..<(branch.fork - parent.fork), on: &state)
      }
      start = 0
    }
    branch.replay(start..<offset, on: &state)
    return state
  }

  /// The line start before `step` (≥ 1) on the current path.
  func previousBoundary(before step: Int) -> Int {
    let branch = branches[owner(of: step)]
    // Own keys at indices 0..<(step − fork − 1) lead to the steps before `step`.
    let end = step - branch.fork - 1
    if let index = branch.lastLineEnd(before: end) {
      return branch.fork + index + 1
    }
    return branch.fork
  }

  /// The line end after `step` (< count) on the current path.
  func nextBoundary(after step: Int) -> Int {
    let index = owner(of: step + 1)
    let branch = branches[index]
    let depth = path.lastIndex(of: index)!
    let segmentEnd = depth + 1 < path.count ? branches[path[depth + 1]].fork : branch.count
    let start = step - branch.fork
    let end = segmentEnd - branch.fork
    if let found = branch.firstLineEnd(in: start..<end) {
      return step + found - start + 1
    }
    return segmentEnd
  }
}
