import CalculatorEngine

/// The simplest model of a session that could be right, for property tests of `Session`: a list
/// of branches, each a parent, a fork and its keys, and the state found by replaying from the
/// start with the book's model. Every operation is a direct reading of SPEC §4, and of §11 for
/// `$N` references (resolved by replaying the branch's lines in order) and line notes.
public struct SessionModel: Sendable {
  /// A branch: the branch it left and where (none and 0 for branch 1), its own keys, and where
  /// each of its lines ends (as counts of its own keys).
  public struct Branch: Hashable, Sendable {
    public var parent: Int?
    public var fork: Int
    public var keys: TypedKeys
    public var lineEnds: [Int]
    /// The notes of the branch's own lines, by where each ends (a count of its own keys).
    public var notes: [Int: String] = [:]
  }

  /// Every branch, branch N at index N − 1.
  public private(set) var branches: [Branch] = []
  /// The current branch's number (1 while there is none).
  public private(set) var current = 1
  /// The position on the current branch.
  public private(set) var position = 0
  /// The other session of the last reset (SPEC §4), one level deep: none or one (an array, so
  /// that a model can hold a model), whose own ``kept`` is empty.
  public private(set) var kept: [SessionModel] = []
  /// Whether ``kept`` holds the session the reset replaced (the replacement is current), rather
  /// than the replacement (the replaced session was restored).
  public private(set) var keptIsReplaced = false
  /// Whether the last change restored the replaced session: `redo` then restores the
  /// replacement wherever the position is.
  public private(set) var isRightAfterRestore = false
  /// How many restores were made, to tell a restore from a move.
  private var restores = 0

  public init() {}

  /// Every key of branch `number` from the start.
  public func keys(ofBranch number: Int) -> TypedKeys {
    let branch = branches[number - 1]
    guard let parent = branch.parent else { return branch.keys }
    return keys(ofBranch: parent).extracting(0..<branch.fork) + branch.keys
  }

  /// The keys of the current branch from the start.
  public var keys: TypedKeys { branches.isEmpty ? [] : keys(ofBranch: current) }

  /// The number of keys on the current branch.
  public var count: Int {
    branches.isEmpty ? 0 : branches[current - 1].fork + branches[current - 1].keys.count
  }

  /// The calculator at the position: the book's model replaying the branch up to it.
  public var state: Calculator {
    if keys.hasReferences { return stateRecalling }
    var seed = SeedCalculatorModel()
    // The branch's lines, split where lines start on it (SPEC rule 18).
    let starts = boundaries.filter { $0 < count }
    for (index, start) in starts.enumerated() {
      let end = index + 1 < starts.count ? starts[index + 1] : count
      seed.apply(line: Array(keys[start..<end]))
    }
    seed.keepHistory(upTo: position)
    return seed.brain
  }

  /// The calculator at the position, replayed line by line from the start with each `$N` key
  /// recalling what the replay showed after line N (SPEC §11).
  private var stateRecalling: Calculator {
    var calculator = Calculator.initial
    var after: [Calculator.Recalled] = []
    let first = firstLineNumber
    for line in lines {
      var references = line.keys.references.makeIterator()
      for (offset, key) in line.keys.enumerated() {
        if line.start + offset == position { return calculator }
        if offset == 0 { calculator.startLine() }
        if case .reference = key {
          calculator.recall(after[references.next()! - first])
        } else {
          calculator.press(key)
        }
      }
      after.append(Calculator.Recalled(calculator))
    }
    return calculator
  }

  /// The number of lines before a line entered at `step`: the line ends before it, and the
  /// part of a line before it (SPEC §11).
  public func linesBefore(_ step: Int) -> Int {
    step == 0 ? 0 : boundaries.filter { $0 > 0 && $0 < step }.count + 1
  }

  /// The number of the current branch's first line: 0 when it is the mode line, a lone mode key
  /// (SPEC §11), else 1.
  public var firstLineNumber: Int {
    guard let first = lines.first, first.keys.count == 1, case .mode = first.keys[0] else {
      return 1
    }
    return 0
  }

  /// The number of a line entered at `step` once it is entered: one more than the lines before
  /// it (the part of a line before it one of them), less one when the first of them is the mode
  /// line (SPEC §11).
  public func numberOfLine(enteredAt step: Int) -> Int {
    let modeLine =
      step > 0 && (step == 1 || boundaries.contains(1))
      && { if case .mode = keys[0] { true } else { false } }()
    return linesBefore(step) + (modeLine ? 0 : 1)
  }

  /// Whether `keys`, entered as line `number`, refer to a line that is not before it.
  public static func refersAhead(_ keys: TypedKeys, asLine number: Int) -> Bool {
    keys.references.contains { $0 < 1 || $0 >= number }
  }

  /// The calculator at `step` of the current branch (within `0...count`).
  public func state(at step: Int) -> Calculator {
    var copy = self
    copy.position = step
    return copy.state
  }

  /// Whether a line of `keys` applied to `state` is rejected (SPEC §9): the calculator,
  /// replayed key by key from the line's start, is in Standard mode when a key that only
  /// Scientific mode has comes.
  public static func rejects(
    _ keys: some Sequence<Key>, after state: Calculator
  ) -> Bool {
    var state = state
    state.startLine()
    for key in keys {
      if state.mode == .standard, key.isScientificOnly { return true }
      state.press(key)
    }
    return false
  }

  /// Applies a line of keys (at least one): at the end of the current branch it grows it;
  /// before the end it starts a new branch, leaving the branch that recorded the key at the
  /// position (branch 1 at position 0).
  public mutating func apply(line: TypedKeys) {
    precondition(!line.isEmpty)
    if branches.isEmpty {
      branches.append(Branch(parent: nil, fork: 0, keys: [], lineEnds: []))
    } else if position < count {
      var parent = current
      while position > 0, position <= branches[parent - 1].fork {
        parent = branches[parent - 1].parent!
      }
      if position == 0 { parent = 1 }
      branches.append(Branch(parent: parent, fork: position, keys: [], lineEnds: []))
      current = branches.count
    }
    branches[current - 1].keys.append(contentsOf: line)
    branches[current - 1].lineEnds.append(branches[current - 1].keys.count)
    position = count
  }

  /// Moves to `step`; false, changing nothing, when the branch has no such step.
  public mutating func goto(_ step: Int) -> Bool {
    guard (0...count).contains(step) else { return false }
    position = step
    return true
  }

  /// Where lines start and end on the current branch: 0, its end, the forks of the branches it
  /// passes through, and the line ends of each of them up to where the current branch leaves it.
  public var boundaries: [Int] {
    guard !branches.isEmpty else { return [0] }
    var result: Set<Int> = [0, count]
    var number = current
    var segmentEnd = count
    while true {
      let branch = branches[number - 1]
      result.insert(branch.fork)
      for end in branch.lineEnds where branch.fork + end <= segmentEnd {
        result.insert(branch.fork + end)
      }
      guard let parent = branch.parent else { break }
      segmentEnd = branch.fork
      number = parent
    }
    return result.sorted()
  }

  /// Moves back `lines` lines, stopping at 0; one line back from the start of a replacement
  /// (step 0, or the end of a first line that is a lone mode key) restores the session it
  /// replaced, and stops there.
  public mutating func undo(_ lines: Int) {
    for _ in 0..<lines {
      if !kept.isEmpty, keptIsReplaced, position <= replacementStart {
        restore()
        return
      }
      position = boundaries.last { $0 < position } ?? 0
    }
  }

  /// Moves forward `lines` lines, stopping at the end; right after a restore, or one line
  /// forward from the end, it restores the replacement, and stops there.
  public mutating func redo(_ lines: Int) {
    for index in 0..<lines {
      if !kept.isEmpty, !keptIsReplaced, (isRightAfterRestore && index == 0) || position == count {
        restore()
        return
      }
      position = boundaries.first { $0 > position } ?? count
    }
  }

  /// Where a replacement's own lines start: 1 when the first line of the current branch is a
  /// lone mode key, else 0.
  var replacementStart: Int {
    guard let first = keys.first, case .mode = first, boundaries.contains(1) else { return 0 }
    return 1
  }

  /// Swaps the current session and the kept one.
  private mutating func restore() {
    var left = self
    left.kept = []
    left.isRightAfterRestore = false
    let (other, wasReplaced, count) = (kept[0], keptIsReplaced, restores)
    self = other
    kept = [left]
    keptIsReplaced = !wasReplaced
    isRightAfterRestore = wasReplaced
    restores = count + 1
  }

  /// Makes branch `number` current at its end; false, changing nothing, if there is none.
  public mutating func branch(_ number: Int) -> Bool {
    guard (1...max(1, branches.count)).contains(number), !branches.isEmpty else { return false }
    current = number
    position = count
    return true
  }

  /// Empties everything, keeping the session it replaces; an empty session is not kept (what
  /// was kept stays).
  public mutating func reset() {
    guard !branches.isEmpty else {
      if kept.isEmpty { self = SessionModel() }
      return
    }
    var old = self
    old.kept = []
    old.isRightAfterRestore = false
    let count = restores
    self = SessionModel()
    kept = [old]
    keptIsReplaced = true
    restores = count
  }

  /// The input lines of the current branch: where each starts and its keys (SPEC §4, `:lines`).
  public var lines: [(start: Int, keys: TypedKeys)] {
    let cuts = boundaries
    let keys = self.keys
    return zip(cuts, cuts.dropFirst()).map { ($0, keys.extracting($0..<$1)) }
  }

  /// What `:edit`, `:insert` and `:delete` do.
  public enum Rewrite: Sendable {
    case edit, insert, delete
  }

  /// Edits, inserts or deletes line `number` as SPEC §4 reads: the new branch starts where the
  /// line starts and holds the new line and every later line as typed, by retyping them there;
  /// the same keys change nothing; deleting the last line moves to where it starts. False,
  /// changing nothing, for a line the branch does not have, a new line that is rejected where
  /// it goes, or a change after which a later line would be rejected on replay.
  public mutating func rewrite(
    _ kind: Rewrite, line number: Int, keys: TypedKeys
  ) -> Bool {
    let lines = self.lines
    // Line 0, the mode line, stays (SPEC §11): lines are numbered from `first`.
    let first = firstLineNumber
    let lineCount = lines.count - 1 + first
    let last = kind == .insert ? lineCount + 1 : lineCount
    guard (1...max(1, last)).contains(number), number <= last else { return false }
    if kind == .insert, keys.isEmpty { return false }
    if kind == .edit, keys.isEmpty { return rewrite(.delete, line: number, keys: []) }
    let index = number - first
    let start = index < lines.count ? lines[index].start : self.count
    if Self.refersAhead(keys, asLine: number) { return false }
    let laterIndices = (kind == .insert ? index : index + 1)..<lines.count
    // The new branch's first line, line 0 when it is a lone mode key.
    let newFirst =
      index > 0
      ? lines[0].keys
      : kind == .delete ? (laterIndices.first.map { lines[$0].keys } ?? []) : keys
    let newFirstNumber: Int
    if newFirst.count == 1, case .mode = newFirst[0] {
      newFirstNumber = 0
    } else {
      newFirstNumber = 1
    }
    // References move with the lines they name (SPEC §11); one to a deleted line, or to a line
    // that becomes the mode line, refuses.
    func renumber(_ keys: TypedKeys) -> TypedKeys? {
      var refused = false
      let result = keys.renumbered { n in
        // The line it names, by index, in the new branch.
        var target = n - first
        switch kind {
        case .edit: break
        case .insert: if target >= index { target += 1 }
        case .delete:
          if target == index { refused = true }
          if target > index { target -= 1 }
        }
        if target + newFirstNumber < 1 { refused = true }
        return target + newFirstNumber
      }
      return refused ? nil : result
    }
    var later: [TypedKeys] = []
    for line in laterIndices {
      guard let keys = renumber(lines[line].keys) else { return false }
      later.append(keys)
    }
    let laterNotes = laterIndices.map { note(atIndex: $0) }
    let editedNote = kind == .edit ? note(atIndex: index) : nil
    let replayed = (keys.isEmpty ? [] : [keys]) + later
    // Every new and later line replayed in turn: none may be rejected (SPEC §4), but for the
    // last line deleted, which is only moved before.
    var state = state(at: start)
    if !(kind == .delete && later.isEmpty) {
      for line in replayed {
        if Self.rejects(line, after: state) { return false }
        state = state.applying(line: line)
      }
    }
    if kind == .edit, lines[index].keys == keys { return true }
    if kind == .delete, later.isEmpty {
      position = start
      return true
    }
    // An edit that another branch holds already, line for line, reuses it (SPEC §4).
    if kind == .edit {
      let expected = lines[..<index].map(\.keys) + [keys] + later
      for number in branches.indices.map({ $0 + 1 }) where number != current {
        var other = self
        other.current = number
        other.position = other.count
        if other.lines.map(\.keys) == expected {
          current = number
          position = self.count
          return true
        }
      }
    }
    position = start
    if !keys.isEmpty {
      apply(line: keys)
      noteLastLine(editedNote)
    }
    for (line, note) in zip(later, laterNotes) {
      apply(line: line)
      noteLastLine(note)
    }
    return true
  }

  /// Does `operation`; false, changing nothing, when the session must refuse it.
  ///
  /// A change, but for a restore by `undo`, ends ``isRightAfterRestore``; one that changes
  /// nothing (a move to the position, an edit to the same keys) leaves it.
  public mutating func perform(_ operation: SessionOperation) -> Bool {
    if case .note(let line, let text) = operation { return note(line: line, text) }
    let before = (branches, current, position, restores)
    let accepted = performWithoutTheFlag(operation)
    if accepted, restores == before.3 {
      var changed = branches != before.0 || current != before.1 || position != before.2
      switch operation {
      case .branch, .reset: changed = true
      case .keys, .goto, .offset, .undo, .redo, .edit, .insert, .delete, .note: break
      }
      if changed { isRightAfterRestore = false }
    }
    return accepted
  }

  private mutating func performWithoutTheFlag(_ operation: SessionOperation) -> Bool {
    switch operation {
    case .keys(let keys):
      if Self.rejects(keys, after: state) { return false }
      if Self.refersAhead(keys, asLine: numberOfLine(enteredAt: position)) { return false }
      apply(line: keys)
    case .goto(let step): return goto(step)
    case .offset(let offset): return goto(position + offset)
    case .undo(let lines): undo(lines)
    case .redo(let lines): redo(lines)
    case .branch(let number): return branch(number)
    case .reset: reset()
    case .edit(let line, let keys, let note):
      let lines = self.lines
      // Only the note changes: as `note` (SPEC §11).
      let first = firstLineNumber
      if note != .keep, !keys.isEmpty, line >= 1, line - first < lines.count,
        lines[line - first].keys == keys
      {
        return self.note(line: line, note.text)
      }
      guard rewrite(.edit, line: line, keys: keys) else { return false }
      // The edited line is where line L was.
      if note != .keep, !keys.isEmpty { _ = self.note(atIndex: line - first, note.text) }
      return true
    case .insert(let line, let keys): return rewrite(.insert, line: line, keys: keys)
    case .delete(let line): return rewrite(.delete, line: line, keys: [])
    case .note: return false
    }
    return true
  }

  /// The branch that holds line `number`'s end as one of its own line ends, and that end (a
  /// count of its own keys); `nil` for the part of a parent's line before a fork.
  private func owner(ofLine index: Int) -> (branch: Int, end: Int)? {
    owner(of: lines[index])
  }

  /// ``owner(ofLine:)`` of a line of ``lines``, given the line.
  private func owner(of line: (start: Int, keys: TypedKeys)) -> (branch: Int, end: Int)? {
    let end = line.start + line.keys.count
    var branch = current
    while branches[branch - 1].fork >= end, let parent = branches[branch - 1].parent {
      branch = parent
    }
    let own = end - branches[branch - 1].fork
    return branches[branch - 1].lineEnds.contains(own) ? (branch, own) : nil
  }

  /// The note of line `number` of the current branch (from 1; 0 is the mode line), if it has
  /// one.
  public func note(ofLine number: Int) -> String? {
    note(atIndex: number - firstLineNumber)
  }

  /// The note of the line at `index` of ``lines``, if it has one.
  private func note(atIndex index: Int) -> String? {
    owner(ofLine: index).flatMap { branches[$0.branch - 1].notes[$0.end] }
  }

  /// The note of each line of ``lines``, in order: ``note(ofLine:)`` of every line, with
  /// ``lines`` worked out once rather than twice a line.
  public var lineNotes: [String?] {
    lines.map { line in owner(of: line).flatMap { branches[$0.branch - 1].notes[$0.end] } }
  }

  /// Sets or removes (`nil`) the note of line `number`; false for a line the branch does not
  /// have, the mode line, or the part of a parent's line before a fork.
  public mutating func note(line number: Int, _ text: String?) -> Bool {
    guard number >= 1 else { return false }
    return note(atIndex: number - firstLineNumber, text)
  }

  /// Sets or removes the note of the line at `index` of ``lines``, as ``note(line:_:)``.
  private mutating func note(atIndex index: Int, _ text: String?) -> Bool {
    guard index >= 0, index < lines.count, let (branch, end) = owner(ofLine: index) else {
      return false
    }
    branches[branch - 1].notes[end] = text
    return true
  }

  /// Sets the note of the line that ends at the position (the one just applied).
  private mutating func noteLastLine(_ text: String?) {
    guard let text else { return }
    let own = position - branches[current - 1].fork
    branches[current - 1].notes[own] = text
  }
}

/// One random operation of a session, as a command for `Session` and as the script line that
/// does it.
public enum SessionOperation: Sendable, CustomStringConvertible {
  case keys(TypedKeys)
  case goto(Int)
  case offset(Int)
  case undo(Int)
  case redo(Int)
  case branch(Int)
  case reset
  case edit(Int, TypedKeys, Session.NoteChange = .keep)
  case insert(Int, TypedKeys)
  case delete(Int)
  case note(Int, String?)

  /// The script line, e.g. `12+3=` or `:goto 4`, as the engine's session-script writer
  /// spells the command (``SessionScript/forEachLine(performing:_:)``).
  public var description: String {
    var line = ""
    SessionScript.forEachLine(performing: command) { line = $0 }
    return line
  }

  /// The same change as a session command.
  public var command: Session.Command {
    switch self {
    case .keys(let keys): .keys(keys)
    case .goto(let step): .goto(.step(step))
    case .offset(let offset): .goto(.offset(offset))
    case .undo(let lines): .undo(lines)
    case .redo(let lines): .redo(lines)
    case .branch(let number): .branch(number)
    case .reset: .reset
    case .edit(let line, let keys, let note): .edit(line: line, keys: keys, note: note)
    case .insert(let line, let keys): .insert(line: line, keys: keys)
    case .delete(let line): .delete(line: line)
    case .note(let line, let text): .note(line: line, text: text)
    }
  }

  /// A random operation for a session like `model`: mostly key lines and moves, sometimes a
  /// branch switch, a step or branch that does not exist, a long line, or a reset; edits,
  /// insertions and deletions of lines, often of mode lines.
  ///
  /// The keys mix both modes (``randomKey(using:)`` for Standard's alone): lines of `sci` or
  /// `std` alone, and Scientific keys — brackets, `sin`, `mod`, π, `exp`, F-E, the angle units —
  /// which Standard mode rejects, so that edits move lines across modes and some are refused.
  public static func random(for model: SessionModel, using random: inout SplitMix64)
    -> SessionOperation
  {
    let count = model.count
    /// `keys` with, now and then, a `$N` key put in: mostly to an earlier line, sometimes to
    /// line 0 or one that is not before it, to be refused (SPEC §11).
    func referring(_ keys: [Key], before number: Int) -> TypedKeys {
      var keys = TypedKeys(keys)
      guard random.chance(20) else { return keys }
      let target =
        random.chance(85) && number > 1
        ? random.int(1...(number - 1)) : random.int(0...(number + 1))
      keys.insertReference(target, at: random.int(0...keys.count))
      return keys
    }
    /// Mostly no change to a line's note; sometimes one that sets or removes it.
    func noteChange() -> Session.NoteChange {
      switch random.below(10) {
      case 0: .set("changed")
      case 1: .remove
      default: .keep
      }
    }
    /// A short line of random keys, or a mode line.
    func shortLine(asLine number: Int) -> TypedKeys {
      if random.chance(25) { return TypedKeys(modeLine(using: &random)) }
      return referring(
        (0..<random.int(1...6)).map { _ in randomMixedKey(using: &random) }, before: number)
    }
    // Sometimes a line number past the end, to be refused.
    let lines = model.lines
    let lineCount = lines.count
    // Line 0 is the mode line when there is one (SPEC §11).
    let first = model.firstLineNumber
    /// A line number, often one of a line that switches mode when there is one.
    func lineNumber(past: Int) -> Int {
      let modeLines = lines.indices.filter { index in
        lines[index].keys.contains { if case .mode = $0 { true } else { false } }
      }
      if !modeLines.isEmpty, random.chance(35) {
        return modeLines[random.below(modeLines.count)] + first
      }
      return random.int(0...(lineCount + past))
    }
    switch random.below(100) {
    case 0..<34:
      if random.chance(12) { return .keys(TypedKeys(modeLine(using: &random))) }
      let interval = History.snapshotInterval
      let isLong = random.chance(3)
      let length = isLong ? random.int((interval / 2)...(interval + 40)) : random.int(1...8)
      // A long line of both modes' keys is rejected in Standard mode: most are Standard's.
      if isLong, random.chance(70) {
        return .keys(TypedKeys((0..<length).map { _ in randomKey(using: &random) }))
      }
      return .keys(
        referring(
          (0..<length).map { _ in randomMixedKey(using: &random) },
          before: model.numberOfLine(enteredAt: model.position)))
    case 34..<37:
      // Now and then the line's own keys: nothing changes.
      let line = lineNumber(past: 1)
      if random.chance(20), line >= 1, line - first < lineCount {
        return .edit(line, lines[line - first].keys, noteChange())
      }
      return .edit(line, shortLine(asLine: line), noteChange())
    case 37..<39:
      let line = lineNumber(past: 2)
      return .insert(line, shortLine(asLine: line))
    case 39..<41: return .delete(lineNumber(past: 1))
    case 41..<55: return .goto(random.int(0...(count + (random.chance(10) ? 3 : 0))))
    case 55..<62: return .offset(random.int(-(model.position + 2)...(count - model.position + 2)))
    case 62..<75: return .undo(random.chance(80) ? 1 : random.int(0...4))
    case 75..<85: return .redo(random.chance(80) ? 1 : random.int(0...4))
    case 85..<96: return .branch(random.int(1...(model.branches.count + 1)))
    case 96..<99:
      let notes = ["rent, March", "VAT # 19%", "total"]
      return .note(
        lineNumber(past: 1), random.chance(25) ? nil : notes[random.below(notes.count)])
    default: return .reset
    }
  }

  /// A line that switches mode: `sci` or `std`, now and then with an angle unit or F-E after it.
  public static func modeLine(using random: inout SplitMix64) -> [Key] {
    let mode: Key = random.chance(50) ? .mode(.scientific) : .mode(.standard)
    guard random.chance(25) else { return [mode] }
    let after: [Key] = [.angle(.radians), .angle(.degrees), .scientific(.fixedToExponential)]
    return [mode, after[random.below(after.count)]]
  }

  /// A key of either mode, weighted as ``randomKey(using:)`` for Standard's keys, with the
  /// mode keys and a choice of Scientific keys (brackets, `sin`, `mod`, π, `exp`, F-E, the angle
  /// units) one key in eight or so.
  public static func randomMixedKey(using random: inout SplitMix64) -> Key {
    if random.chance(12) { return mixedKeys[random.below(mixedKeys.count)] }
    return randomKey(using: &random)
  }

  /// The keys ``randomMixedKey(using:)`` draws from: one trig function, and otherwise cheap
  /// ones, since the model replays from the start at every step and a 34-digit `cos`, `log` or
  /// `^` costs a test build dearly (with them, `SessionTests` took half again as long).
  private static let mixedKeys: [Key] = [
    .scientific(.bracket(.open)), .scientific(.bracket(.open)), .scientific(.bracket(.close)),
    .scientific(.bracket(.close)), .scientific(.function(.sin)),
    .scientific(.function(.abs)), .scientific(.function(.floor)), .scientific(.function(.cube)),
    .scientific(.binary(.mod)), .scientific(.binary(.mod)),
    .scientific(.constant(.pi)), .scientific(.exponent), .scientific(.fixedToExponential),
    .angle(.radians), .angle(.degrees), .angle(.grads), .mode(.scientific),
    .mode(.standard), .digit(.one), .digit(.two), .digit(.three), .op(.plus), .op(.multiply),
    .equal,
  ]

  /// A key, weighted so that numbers have several digits and every other key, including the
  /// rare ones that reach the error, percent and backspace paths, comes every few dozen keys.
  public static func randomKey(using random: inout SplitMix64) -> Key {
    weightedKeys[random.below(weightedKeys.count)]
  }

  private static let weightedKeys: [Key] = Key.standardKeys
    .flatMap { key -> [Key] in
      switch key {
      case .digit, .op: [key, key, key, key]
      case .equal: Array(repeating: key, count: 7)
      case .dot, .command, .unary, .memory: [key, key, key]
      case .scientific, .angle, .mode,
        .programmer, .reference, .formula, .dateLine:
        []
      }
    }
}

extension Session.NoteChange {
  /// The note it leaves: the text it sets, or none.
  var text: String? {
    switch self {
    case .keep, .remove: nil
    case .set(let text): text
    }
  }
}
