import CalcDecimal

/// A calculator session: its ``History`` and the one door through which it changes.
///
/// Every change is a ``Command`` passed to ``perform(_:)``, which reduces it in one `switch` and
/// returns what happened, for a front end to show (and to record). A command that cannot be
/// done throws a ``SessionError`` and changes nothing.
///
/// `reset` and `load` replace the whole session and keep the one they replaced, one level deep
/// (SPEC §4, ``Kept``): `undo` where there is nothing left to undo restores it, and `redo`
/// right after (or where there is nothing left to redo) restores the replacement again.
public struct Session: Sendable {
  /// The keys, branches and position, and the calculator there.
  public internal(set) var history = History()

  /// The other session of the last replacement, one level deep: the session it replaced (while
  /// the replacement is current), or the replacement (after `undo` restored the replaced
  /// one); `nil` when nothing was replaced. Its own ``kept`` is always `nil`.
  public internal(set) var kept: Kept?

  /// Whether the last change was an `undo` that restored the replaced session: `redo` then
  /// restores the replacement wherever the position is. A change that changes nothing (a move
  /// to where the position is) leaves it set.
  package internal(set) var isRightAfterRestore = false

  /// The ends of the current branch's lines, for resolving `$N` without counting the lines from
  /// the start (SPEC §11); `nil` until a line with a reference needs it (see ``LineEndIndex``).
  var lineEndIndex: LineEndIndex?

  /// The date `today` stands for in a date line (SPEC §13): the front end sets it from the
  /// clock (or `CALC_TODAY`) before a line is applied; the engine reads no clock. While it is
  /// `nil` (a session read from a file by `:load`), a date line with `today` is rejected.
  package var today: CivilDate?

  /// An empty session: no keys, position 0, a fresh calculator, nothing kept.
  public init() {}

  /// What replaced a session: `:reset`, `:load` or `:resume`.
  public enum Replacement: Hashable, Sendable {
    case reset, load, resume

    /// `:reset`, `:load`, `:resume`: the command as typed.
    public var command: String {
      switch self {
      case .reset: ":reset"
      case .load: ":load"
      case .resume: ":resume"
      }
    }
  }

  /// The session kept by the last replacement (SPEC §4): shared, not copied, by copies of the
  /// session, so that a replacement and a restore cost O(1).
  public final class Kept: Sendable {
    /// The kept session, at its position; its own ``Session/kept`` is `nil`.
    public let session: Session
    /// What replaced it, or what it replaced.
    public let replacement: Replacement
    /// Whether it is the session the replacement replaced (the replacement is current; `undo`
    /// restores it), rather than the replacement (the replaced session was restored; `redo`
    /// restores it).
    public let isReplaced: Bool

    init(session: Session, replacement: Replacement, isReplaced: Bool) {
      self.session = session
      self.replacement = replacement
      self.isReplaced = isReplaced
    }
  }

  /// The step where the replacement's own history starts, for `undo`: 0, or 1 when the first
  /// line of the current branch is a lone mode key (the `--mode` line after `:reset`).
  ///
  /// - Complexity: O(log b), b the number of branches the current one passes through.
  var replacementStart: Int {
    guard history.count >= 1, case .mode = history.key(at: 1) else { return 0 }
    return history.count == 1 || history.startsLine(at: 2) ? 1 : 0
  }

  /// The calculator at the position (lent, not copied: a script reads it for every line).
  public var state: History.State { _read { yield history.state } }

  /// The mode at the position: ``state``'s, without lending the whole state to another module
  /// (which copied it, for a script once or twice a line).
  public var mode: Key.Mode { history.state.mode }

  /// Reserves room for about `keys` more keys, so that a long script does not grow the
  /// history's storage step by step (``History/reserveCapacity(forKeys:)``): a capacity hint
  /// that changes nothing a session shows, saves or compares, and so not a ``Command``.
  /// - Complexity: O(n) in the current branch's own keys, when its storage moves.
  package mutating func reserveCapacity(forKeys keys: Int) {
    history.reserveCapacity(forKeys: keys)
  }

  /// A change to a session.
  public enum Command: Sendable {
    /// Applies a line of keys at the position: one change, the unit of `undo`. Before the end
    /// of the current branch it starts a new branch, keeping the old future.
    ///
    /// A slice, so that lines cut from one larger array need no copies; ``keys(_:)-swift.type.method``
    /// takes an array. `references` holds N of each `$N` key, in order (``TypedKeys``).
    case keys(ArraySlice<Key>, references: [Int] = [])

    /// Applies a line of keys given as an array; see ``keys(_:references:)``.
    public static func keys(_ keys: [Key]) -> Command { .keys(keys[...]) }

    /// Applies a line of keys as typed, `$N` keys with their N; see ``keys(_:references:)``.
    /// A line that holds a formula (SPEC §12) is ``keysWithNote(_:note:)`` with no note, the
    /// case that carries the formula's text.
    public static func keys(_ keys: TypedKeys) -> Command {
      keys.hasFormulas
        ? .keysWithNote(keys, note: "") : .keys(keys.keys[...], references: keys.references)
    }
    /// Applies a line of keys, as ``keys(_:references:)``, and gives the line it makes the
    /// note (SPEC §11: `1200+350+89=  # rent`; an empty note is none): one change, journaled
    /// and saved with its note. (Boxed, so that the common command, keys alone, stays small.)
    indirect case keysWithNote(TypedKeys, note: String)
    /// Moves key by key along the current branch: to a step, or by a number of steps.
    case goto(Target)
    /// Moves back over this many lines (the line the position is in counts as the first).
    case undo(Int)
    /// Moves forward to the end of the next this many lines of the current branch.
    case redo(Int)
    /// Makes the branch with this number current, at its end.
    case branch(Int)
    /// Empties the session, keeping the one it replaces (see ``load(_:by:)``).
    case reset
    /// Replaces the session with another, for instance one rebuilt from a saved script;
    /// `by` names the command that did it, for `undo`'s message. (Boxed, so that a command
    /// stays a word and a tag: applying keys is the common case.)
    ///
    /// Like `reset`, it keeps the session it replaces (its own kept session is dropped: one
    /// level), unless that holds no keys: then the kept session stays as it was, or, when
    /// there is none, the new session comes whole, with its own kept session (a `--resume`
    /// continues where the earlier session ended).
    indirect case load(Session, by: Replacement = .load)
    /// Replaces line L (from 1, of ``History/lines()``) of the current branch with these keys
    /// and replays every later line after it, as typed, on a new branch from where line L
    /// starts (SPEC §4); the old branch stays. The same keys change nothing; no keys delete the
    /// line. The line keeps its note unless `note` sets or removes it (SPEC §11); an edit that
    /// changes only the note acts as ``note(line:text:)``.
    indirect case edit(line: Int, keys: TypedKeys, note: NoteChange = .keep)
    /// Puts a new line before line L (1 through n + 1), replaying the later lines after it on a
    /// new branch; L = n + 1 extends the branch at its end, like typing there. The new line has
    /// `note` as its note (SPEC §11; `nil` or empty: none).
    indirect case insert(line: Int, keys: TypedKeys, note: String? = nil)
    /// Deletes line L, replaying the later lines without it on a new branch; deleting the last
    /// line moves to where it starts, like `undo`, its keys kept as the future.
    case delete(line: Int)
    /// Sets the note of line L of the current branch (SPEC §11), or removes it (`nil`): no
    /// calculation, no branch, and not a change that `undo` takes back. Every branch that shares
    /// the line shares the note; the part of a parent's line before a fork has none of its own.
    indirect case note(line: Int, text: String?)
    /// Replays the current branch once for each alternative keys of line L, as `edit` would
    /// (each on its own branch, reusing one that holds it already), and stays where it was
    /// (SPEC §11, `:vary`). An alternative that would be refused is reported in its row.
    indirect case vary(line: Int, alternatives: [TypedKeys])
  }

  /// What an `edit` does to the line's note (SPEC §11): `:edit L KEYS` keeps it, `# TEXT`
  /// after the keys sets it, `#` alone removes it.
  public enum NoteChange: Hashable, Sendable {
    case keep
    case set(String)
    case remove
  }

  /// Where `goto` moves.
  public enum Target: Hashable, Sendable {
    /// Step N of the current branch.
    case step(Int)
    /// K steps forward (positive) or back (negative) from the position.
    case offset(Int)
  }

  /// A command that was performed, with what it changed: what an observer (a journal, a
  /// screen) is told about.
  public struct Effect: Sendable {
    /// The command, as given to ``Session/perform(_:)``.
    public let command: Command
    /// What it changed.
    public let change: Change

    /// The effect of `command`, which changed `change`.
    public init(command: Command, change: Change) {
      self.command = command
      self.change = change
    }
  }

  /// What a command did.
  public enum Change: Hashable, Sendable {
    /// A line of this many keys was applied; `newBranch` is the branch it started, if any.
    case applied(keys: Int, newBranch: Int?)
    /// The position moved (possibly by nothing, at an end).
    case moved(from: Int, to: Int)
    /// Another branch became current.
    case switched(branch: Int)
    /// The session was emptied.
    case reset
    /// The session was replaced; `isWhole` when the new session came whole, with its own kept
    /// session (it replaced one that held nothing, and kept nothing: see
    /// ``Command/load(_:by:)``).
    case loaded(isWhole: Bool)
    /// `undo` restored the replaced session, or `redo` the replacement (``Restore``).
    case restored(Restore)
    /// A line of the past was edited, inserted or deleted (``Rewrite``).
    ///
    /// Boxed, so that a change is a few words and copying one (an effect per line of a script)
    /// needs no more than a retain.
    indirect case rewrote(Rewrite)
    /// The note of this line (from 1) was set or removed; `isUnchanged` when it already was so.
    case noted(line: Int, isUnchanged: Bool)
    /// A line was varied: the table of its alternatives (``Ledger/Variation``).
    indirect case varied(Ledger.Variation)
  }

  /// What a restore did: which replacement, and in which direction.
  public struct Restore: Hashable, Sendable {
    /// The command that made the replacement.
    public let replacement: Replacement
    /// Whether the session before the replacement came back (`undo`), rather than the
    /// replacement (`redo`).
    public let isReplaced: Bool
  }

  /// What an `edit`, `insert` or `delete` did.
  public struct Rewrite: Hashable, Sendable {
    /// Which of the three it was.
    public enum Kind: Hashable, Sendable {
      case edited, inserted, deleted
    }
    /// Whether the line was edited, inserted or deleted.
    public let kind: Kind
    /// The line, from 1, as the command named it.
    public let line: Int
    /// The line's number on the branch after the change, as `:lines` lists it: ``line``, or 0
    /// when an edit or insertion of line 1 made it the mode line (SPEC §11).
    package let listedLine: Int
    /// The number, on the branch after the change, of the line whose display is the first of
    /// ``results``: the edited line, or the line after an inserted one, or the line that took a
    /// deleted one's place (the mode line's number 0 counted, SPEC §11); result `i` is of line
    /// `firstResultLine + i`.
    package let firstResultLine: Int
    /// The branch that was current before.
    package let fromBranch: Int
    /// The branch it made, or `nil`: the same keys (nothing changed), a line added at the end
    /// (the branch grew), or the last line deleted (the position moved back).
    public let newBranch: Int?
    /// Whether the keys were the line's own: nothing was done.
    public let isUnchanged: Bool
    /// The displays after the lines from the changed one on, old and new, paired line by line,
    /// with the step on the new branch where each new one is shown; a line with no counterpart
    /// (an inserted one) has no pair.
    public let results: [Result]

    /// One line's display before and after the change.
    public struct Result: Hashable, Sendable {
      /// The step on the new branch where the line ends.
      public let step: Int
      /// The display after the line before the change.
      public let old: Display
      /// The display after the line now.
      public let new: Display
    }
  }

  /// Does `command` and says what changed; throws, changing nothing, when it cannot be done.
  ///
  /// - Complexity: `keys`: O(n) in the keys. `goto`, `undo`, `redo`, `branch`: independent of
  ///   the length of the history and, but for `branch` (the depth of the branch in the tree), of
  ///   the number of branches; `undo` and `redo` also scan the lines they cross. `reset`, `load`,
  ///   and a restore by `undo` or `redo`: O(1) but for a move of the kept session.
  @discardableResult
  public mutating func perform(_ command: Command) throws(SessionError) -> Change {
    // A script's line, the common command, straight to the history (as ``reduce(_:)`` does it)
    // from a small function: the rest's frame, its saved registers and its `switch` cost 35
    // instructions a script line (`123.45*6.7=`, callgrind).
    switch command {
    case .keys(let keys, let references)
    where !isRightAfterRestore && !keys.isEmpty && references.isEmpty && lineEndIndex == nil
      && history.state.dateValue == nil:
      return .applied(keys: keys.count, newBranch: try history.apply(checkedLine: keys))
    case .keys, .keysWithNote, .goto, .undo, .redo, .branch, .reset, .load, .edit, .insert, .delete,
      .vary, .note:
      return try performAny(command)
    }
  }

  /// Applies `keys`, a line that holds a formula and no date line, without a note: what
  /// ``perform(_:)`` does with ``Command/keysWithNote(_:note:)`` and an empty note, without
  /// boxing the command (issue 49: a script's formula line, the common one).
  ///
  /// - Complexity: as ``perform(_:)``.
  package mutating func perform(formulaLine keys: TypedKeys) throws(SessionError) -> Change {
    guard !isRightAfterRestore, keys.hasFormulas else {
      return try performAny(.keysWithNote(keys, note: ""))
    }
    return try applyFormulaLine(keys)
  }

  /// Applies `text`, a date line (``KeyText/commonDateLine(in:)``), as a line of its key
  /// alone when one pass reads and calculates it (``DateLine/onePass(_:reference:)``, each
  /// `$N` resolved as ``dateSteps(for:after:memory:)`` resolves it): what
  /// ``perform(formulaLine:)`` does with the keys a line's reader makes of it, without making
  /// them, resolving them and reading their formulas (issue 51: a script's common date line).
  /// Date mode's keypad takes a date line's key in every mode.
  ///
  /// Returns `nil`, changing nothing, for a line one pass declines (`today`, `mr`, a `$N` of a
  /// difference, a fault, any rejection) and right after a restore: ``perform(_:)`` decides
  /// what such a line does, and gives its errors. Without `mayReferToLines` (the text holds no
  /// `$`, ``KeyText/commonDateLine(in:)``) no line end is read, and a `$N` is declined.
  /// - Complexity: O(n) in the length of the line, and the cost of its exact arithmetic;
  ///   O(p × log b) more, the position p, for a `$N` when the session has not kept the line
  ///   ends of this branch.
  package mutating func perform(commonDateLine text: String, mayReferToLines: Bool = true)
    -> Change?
  {
    var scratch = DateScratch()
    return perform(commonDateLine: text, mayReferToLines: mayReferToLines, reusing: &scratch)
  }

  /// ``perform(commonDateLine:mayReferToLines:)`` with the one-pass reader's arrays taken
  /// from `scratch` and left there for the next line (a script's, ``LineInterpreter``'s).
  ///
  /// - Complexity: as ``perform(commonDateLine:mayReferToLines:)``.
  package mutating func perform(
    commonDateLine text: String, mayReferToLines: Bool = true, reusing scratch: inout DateScratch
  ) -> Change? {
    var text = text
    return text.withUTF8 {
      perform(commonDateLine: $0, mayReferToLines: mayReferToLines, reusing: &scratch)
    }
  }

  /// Applies `bytes` when they are a common key line (``KeyText/commonKeyLine(in:codes:)``) that
  /// the state takes as a line (Standard mode, no operation pending) at the end of the branch:
  /// what ``perform(_:)`` does with the line's keys, in one change of the state and without
  /// making the keys (`CommonKeyLineTests`). Returns `nil`, changing nothing, for any other
  /// line, which the general reader then reads.
  ///
  /// - Complexity: O(n) in the number of bytes.
  package mutating func perform(commonKeyLine bytes: UnsafeBufferPointer<UInt8>) -> Change? {
    // Two numbers of at most 16 bytes, an operator, `%` and `=`.
    guard bytes.count <= CommonKeyLine.longest, !isRightAfterRestore else { return nil }
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: CommonKeyLine.longest) {
      codes -> Change? in
      guard let line = KeyText.commonKeyLine(in: bytes, codes: codes.baseAddress.unsafelyUnwrapped)
      else { return nil }
      let keepsLineEnds = lineEndIndex != nil
      let extends = keepsLineEnds && lineEndsExtend
      guard
        history.apply(
          commonLine: line, codes: UnsafeBufferPointer(rebasing: codes[..<line.count]))
      else { return nil }
      if keepsLineEnds { keepLineEnds(after: nil, extends: extends) }
      return .applied(keys: line.count, newBranch: nil)
    }
  }

  /// ``perform(commonDateLine:mayReferToLines:reusing:)-(String,_,_)`` of the line's bytes
  /// (``KeyText/commonDateLine(in:)``): read where they lie, and kept in the step inline when
  /// they can be (``DateText``), no string made for them.
  ///
  /// - Complexity: as ``perform(commonDateLine:mayReferToLines:)``.
  package mutating func perform(
    commonDateLine bytes: UnsafeBufferPointer<UInt8>, mayReferToLines: Bool,
    reusing scratch: inout DateScratch
  ) -> Change? {
    perform(
      commonDateLine: bytes, mayReferToLines: mayReferToLines, reusing: &scratch, shapeOnly: false)
  }

  /// ``perform(commonDateLine:mayReferToLines:reusing:)-(UnsafeBufferPointer<UInt8>,_,_)`` of
  /// `line`, a script's line in date mode as it was read, when it is a line of a common shape
  /// (``DateShape/step(of:reference:)``); `nil`, changing nothing, for any other line. Such a
  /// line is a common date line as it is (``KeyText/commonDateLine(in:)`` gives it whole: it
  /// starts with a digit, `$` or `(`, and holds no note and no trailing blank), and may refer
  /// to lines only when it starts with `$`: the look at the line is spared (about 140
  /// instructions a date line, Documentation/Performance.md, "Date lines by their shape,
  /// session 18").
  ///
  /// - Complexity: as ``perform(commonDateLine:mayReferToLines:)``.
  package mutating func perform(
    shapedDateLine line: UnsafeBufferPointer<UInt8>, reusing scratch: inout DateScratch
  ) -> Change? {
    perform(
      commonDateLine: line, mayReferToLines: line.first == UInt8(ascii: "$"), reusing: &scratch,
      shapeOnly: true)
  }

  /// A common date line (`shapeOnly` false) or one of a common shape alone.
  private mutating func perform(
    commonDateLine bytes: UnsafeBufferPointer<UInt8>, mayReferToLines: Bool,
    reusing scratch: inout DateScratch, shapeOnly: Bool
  ) -> Change? {
    guard !isRightAfterRestore else { return nil }
    guard
      let step = commonDateStep(
        bytes, mayReferToLines: mayReferToLines, reusing: &scratch, shapeOnly: shapeOnly)
    else { return nil }
    // Not through `keepingLineEnds(_:)`: a closure would copy the step it passes on.
    let extends = lineEndsExtend
    let made = history.apply(dateLine: step)
    // The line's step is the branch's last: its ordinal known, not read from the codes; and
    // the history's facts given to the index, not the history (`LineEndIndex.append`).
    if extends, made == nil, lineEndIndex?.knowsFirstKey == true {
      let (end, branch, count, branchCount) =
        (history.position, history.currentBranch, history.count, history.branchCount)
      lineEndIndex?.append(
        end, lastDateOrdinal: history.dateStepCount - 1, branch: branch, count: count,
        branchCount: branchCount)
      #if CALC_INTERNAL_CHECKS
        precondition(
          lineEndIndex!.isValid(for: history)
            && history.lastDateOrdinal == history.dateStepCount - 1)
      #endif
    } else {
      keepLineEnds(after: made, extends: extends, lastDateOrdinal: history.dateStepCount - 1)
    }
    return .applied(keys: 1, newBranch: made)
  }

  /// The step of `text` read and calculated in one pass, each `$N` resolved after the line
  /// ends that ``lineEndIndex`` keeps (made valid first) when `mayReferToLines`, else declined;
  /// `nil` where one pass declines. The line ends that a `$N` reads are let go of within the
  /// closure, before the line is applied. Inlined: called, the step it returned was moved
  /// through one more frame (about 50 instructions a date line, 1% of its time; "Date lines by
  /// their shape, session 18"). One closure for both kinds of line, so that the reader is
  /// specialised for it once.
  @inline(__always)
  private mutating func commonDateStep(
    _ bytes: UnsafeBufferPointer<UInt8>, mayReferToLines: Bool, reusing scratch: inout DateScratch,
    shapeOnly: Bool
  ) -> DateStep? {
    if mayReferToLines, lineEndIndex?.isValid(for: history) != true {
      lineEndIndex = LineEndIndex(history)
    }
    var base: Int?
    // The closure does not escape: it reads the history in place (a copy of it, in a
    // context on the heap, cost hundreds of instructions a line). The line ends before the
    // line are looked up for each `$N`, not kept in an optional for every line (destroying
    // it went through the optional's generic witness, about 85 instructions a line).
    return DateStep.onePass(bytes, reusing: &scratch, shapeOnly: shapeOnly) { number in
      guard mayReferToLines else { return nil }
      // A line at the end of the branch (a script's): the line ends read in place, and the
      // value from the step the index recorded for line N, as `History.dateReference` reads
      // it, without the collection of the line ends (`LineEndIndex.linesBeforeEnd(_:)`).
      if let lines = self.lineEndIndex!.linesBeforeEnd(self.history.position) {
        let first =
          base
          ?? History.dateReferenceBase(
            firstEndsAtOne: lines.firstEndsAtOne, firstKeyIsModeKey: lines.firstKeyIsModeKey,
            in: &self.history)
        base = first
        // Out of range: declined here, and the general reader says why.
        guard number >= 1, number - first < lines.count else { return nil }
        if let ordinal = self.lineEndIndex!.recordedDateOrdinal(ofLine: number - first) {
          #if CALC_INTERNAL_CHECKS
            let preceding = self.lineEndIndex!.before(self.history.position)
            precondition(
              (try? History.dateReference(number, after: preceding, base: first, in: &self.history))
                == History.dateValue(ordinal: ordinal, in: &self.history))
          #endif
          return History.dateValue(ordinal: ordinal, in: &self.history)
        }
      }
      let preceding = self.lineEndIndex!.before(self.history.position)
      let first = base ?? History.dateReferenceBase(after: preceding, in: &self.history)
      base = first
      // `inout`, so that the history is read where it is: passed or called on, it was copied
      // for each `$N` (about 230 instructions, and as many to destroy the copy).
      return try? History.dateReference(number, after: preceding, base: first, in: &self.history)
    }
  }

  /// ``perform(_:)`` for any command.
  @inline(never)
  private mutating func performAny(_ command: Command) throws(SessionError) -> Change {
    guard isRightAfterRestore else { return try reduce(command) }
    let (position, branch) = (history.position, history.currentBranch)
    let change = try reduce(command)
    if isRightAfterRestore {
      switch change {
      case .restored(let restore) where restore.isReplaced: break
      case .moved(let from, let to) where from == to: break
      case .applied(0, _): break
      case .rewrote(let rewrite) where rewrite.isUnchanged: break
      // A note is no calculation: the restore stays the last change.
      case .noted: break
      // `:delete` of the last line at its own start: its keys stay as the kept future, and
      // nothing moves.
      case .rewrote(let rewrite)
      where rewrite.newBranch == nil && history.position == position
        && history.currentBranch == branch:
        break
      // A session that came whole brings its own.
      case .loaded(isWhole: true): break
      case .applied, .moved, .switched, .reset, .loaded, .restored, .rewrote, .varied:
        isRightAfterRestore = false
      }
    }
    return change
  }

  /// Does `command` (see ``perform(_:)``).
  @inline(__always)
  private mutating func reduce(_ command: Command) throws(SessionError) -> Change {
    switch command {
    case .keys(let keys, let references):
      guard !keys.isEmpty else { return .applied(keys: 0, newBranch: nil) }
      if Session.storesInMemory(keys) { try Session.checkDateMemory(keys, state: history.state) }
      // A script's line: checked as it is applied, in one pass over its keys.
      if references.isEmpty, lineEndIndex == nil {
        return .applied(keys: keys.count, newBranch: try history.apply(checkedLine: keys))
      }
      if let error = Calculator.keyRejection(in: keys, keypad: history.state.keypad) {
        throw error
      }
      guard !references.isEmpty else {
        return .applied(
          keys: keys.count,
          newBranch: applyKeepingLineEnds(keys, references: [], recalls: []))
      }
      if lineEndIndex?.isValid(for: history) != true { lineEndIndex = LineEndIndex(history) }
      let recalls = try Session.recalls(
        of: references, after: lineEndIndex.unsafelyUnwrapped.before(history.position),
        in: history)
      return .applied(
        keys: keys.count,
        newBranch: applyKeepingLineEnds(keys, references: references, recalls: recalls))
    case .keysWithNote(let keys, let note):
      let change =
        keys.hasFormulas
        ? try applyFormulaLine(keys)
        : try reduce(.keys(keys.keys[...], references: keys.references))
      // No keys make no line: no note either. The line just applied is new (its keys were
      // appended) and has no note yet: an empty note leaves it so, without a look-up.
      if !keys.isEmpty, !note.isEmpty { noteLineAtPosition(note) }
      return change
    case .goto(let target):
      let valid = 0...history.count
      let (step, overflow) =
        switch target {
        case .step(let step): (step, false)
        case .offset(let offset): history.position.addingReportingOverflow(offset)
        }
      guard !overflow, valid.contains(step) else {
        throw .stepOutOfRange(target, from: history.position, valid: valid)
      }
      return move(to: step)
    case .undo(let count):
      guard count >= 0 else { throw .negativeCount(count) }
      // An undo that finds nothing to undo past the replacement's start restores the session
      // it replaced, and the lines still to undo go with it.
      if let kept, kept.isReplaced {
        let (step, left) = history.lineStart(back: count, floor: replacementStart)
        if left > 0 { return restore(kept, leavingAt: step) }
        return move(to: step)
      }
      return move(to: history.lineStart(back: count))
    case .redo(let count):
      guard count >= 0 else { throw .negativeCount(count) }
      // Right after the restore, or finding nothing to redo: the replacement comes back.
      if let kept, !kept.isReplaced, count > 0 {
        if isRightAfterRestore { return restore(kept, leavingAt: history.position) }
        let (step, left) = history.lineEndCounting(forward: count)
        if left > 0 { return restore(kept, leavingAt: step) }
        return move(to: step)
      }
      return move(to: history.lineEnd(forward: count))
    case .branch(let number):
      guard number >= 1, number <= history.branchCount else {
        throw .unknownBranch(number, count: history.branchCount)
      }
      history.switchTo(branch: number)
      return .switched(branch: number)
    case .reset:
      replace(with: Session(), by: .reset)
      return .reset
    case .load(let session, let replacement):
      return .loaded(isWhole: replace(with: session, by: replacement))
    case .edit(let line, let keys, let noteChange):
      guard !keys.isEmpty else { return try perform(.delete(line: line)) }
      let text: String?
      switch noteChange {
      case .keep: return try rewrite(line, .edited, keys)
      case .set(let note): text = note.isEmpty ? nil : note
      case .remove: text = nil
      }
      let lines = history.lines()
      let first = History.firstLineNumber(of: lines)
      if line >= 1, line - first < lines.count, lines[line - first].keys == keys {
        return try reduce(.note(line: line, text: text))
      }
      // A new line, even in place of the part of a parent's line before a fork, has its own.
      let change = try rewrite(line, .edited, keys)
      // The edited line is where line L was on the branch now current, and ends where it was
      // entered.
      history.setNote(text, ofLineEndingAt: history.lines()[line - first].end)
      return change
    case .insert(let line, let keys, let note):
      guard !keys.isEmpty else { throw .emptyInsert }
      guard let note, !note.isEmpty else { return try rewrite(line, .inserted, keys) }
      let first = History.firstLineNumber(of: history.lines())
      let change = try rewrite(line, .inserted, keys)
      // The new line is where line L was (or the branch's new last line), as for an edit.
      history.setNote(note, ofLineEndingAt: history.lines()[line - first].end)
      return change
    case .delete(let line):
      return try rewrite(line, .deleted, [])
    case .vary(let number, let alternatives):
      return .varied(try vary(number, alternatives))
    case .note(let number, let text):
      let lines = history.lines()
      let index = try Session.index(ofLine: number, in: lines, for: "set the note of")
      let line = lines[index]
      guard history.endsLine(at: line.end) else {
        throw .noteOnForkedPart(
          line: number, branch: history.currentBranch,
          parent: history.owningBranch(of: line.end))
      }
      let text = text.flatMap { $0.isEmpty ? nil : $0 }
      guard line.note != text else { return .noted(line: number, isUnchanged: true) }
      history.setNote(text, ofLineEndingAt: line.end)
      return .noted(line: number, isUnchanged: false)
    }
  }

  /// What each `$N` recalls, in order, given the N of each (`references`), for a line entered
  /// after the lines of the current branch that end at `lineEnds`; throws for a reference to the
  /// line itself, a later line, line 0 or a line that does not exist. The first of those lines
  /// is line 0 when it is the mode line (a lone mode key ending at step 1:
  /// ``History/isModeLine(_:)``), else line 1.
  ///
  /// - Complexity: O(r × (``History/snapshotInterval`` + log b)), r the references.
  static func recalls(
    of references: [Int], after lineEnds: LineEndIndex.Preceding, in history: History
  ) throws(SessionError) -> [Calculator.Recalled] {
    var recalls: [Calculator.Recalled] = []
    var first: Int?
    for number in references {
      let base =
        first
        ?? (lineEnds.count > 0 && lineEnds[0] == 1
          && History.isModeLine(CollectionOfOne(history.key(at: 1))) ? 0 : 1)
      first = base
      let line = lineEnds.count + base
      guard number >= 1, number < line else {
        throw Session.referenceError(number, line: line, first: base)
      }
      // The line just before is the common case: its value is the calculator at the position.
      let end = lineEnds[number - base]
      let state = end == history.position ? history.state : history.state(at: end)
      if let value = state.dateValue {
        // A date line's value in another mode (SPEC §13).
        do throws(LineError) {
          switch try value.numberInOtherModes(line: number) {
          case .number(let number):
            recalls.append(
              .value(number.isRounded ? Number(rounded: number.decimal) : Number(number.decimal)))
          case .fault(.dateOutOfBound): recalls.append(.error(.dateOutOfBound))
          case .fault(.calculation(let error)): recalls.append(.error(error))
          }
        } catch {
          throw .date(error)
        }
        continue
      }
      recalls.append(Calculator.Recalled(state))
    }
    return recalls
  }

  /// Whether `keys` press `ms`, `m+` or `m-` before a key that leaves date mode's numbers
  /// (``checkDateMemory(_:state:)`` looks at the state only then: most lines store nothing).
  @inline(__always)
  static func storesInMemory(_ keys: some Collection<Key>) -> Bool {
    for key in keys {
      switch key {
      case .memory(.store), .memory(.add), .memory(.subtract): return true
      case .mode, .dateLine, .formula: return false
      case .digit, .dot, .op, .equal, .command, .unary, .memory, .angle, .reference, .scientific,
        .programmer:
        continue
      }
    }
    return false
  }

  /// Throws when `keys`, applied on `state` in date mode, store a date or a duration in the
  /// memory with `ms`, `m+` or `m-` (SPEC §13: the memory holds numbers).
  static func checkDateMemory(
    _ keys: some Collection<Key>, state: Calculator
  ) throws(SessionError) {
    guard storesInMemory(keys), let value = state.dateValue, let kind = value.kind,
      kind == .date || kind == .duration
    else { return }
    for key in keys {
      switch key {
      case .memory(.store), .memory(.add), .memory(.subtract):
        throw .date(
          LineError(
            "memory holds numbers: the display holds a \(kind.rawValue) (write a number line, "
              + "such as 8:30 in h, first)"))
      case .mode, .dateLine, .formula: return
      case .digit, .dot, .op, .equal, .command, .unary, .memory, .angle, .reference, .scientific,
        .programmer:
        continue
      }
    }
  }

  /// The value of line `number` for a date line's `$N` (SPEC §13), the line being entered
  /// after the lines that end at `lineEnds`: a date line's value as it is, another mode's
  /// number (or error) as a number (or the error). Throws, with the message a person can act
  /// on, for a line that the line may not refer to.
  static func dateReference(
    _ number: Int, after lineEnds: LineEndIndex.Preceding, in history: History
  ) throws(LineError) -> DateValue {
    try history.dateReference(
      number, after: lineEnds, base: history.dateReferenceBase(after: lineEnds))
  }
}

extension History {
  /// The number of the first line after the lines that end at `lineEnds`, less their count:
  /// 0 when the first line is a mode line (a script's mode line is line 0, SPEC §4), else 1.
  /// The same for every `$N` of a line: worked out once a line (a key looked up).
  func dateReferenceBase(after lineEnds: LineEndIndex.Preceding) -> Int {
    dateReferenceBase(
      firstEndsAtOne: lineEnds.count > 0 && lineEnds[0] == 1,
      firstKeyIsModeKey: lineEnds.firstKeyIsModeKey)
  }

  /// ``dateReferenceBase(after:)`` of line ends whose first is at step 1 or not
  /// (`firstEndsAtOne`; false when there is none), the branch's first key a mode key or not
  /// when known (`firstKeyIsModeKey`).
  func dateReferenceBase(firstEndsAtOne: Bool, firstKeyIsModeKey: Bool?) -> Int {
    guard firstEndsAtOne else { return 1 }
    #if CALC_INTERNAL_CHECKS
      if let known = firstKeyIsModeKey {
        precondition(known == History.isModeLine(CollectionOfOne(key(at: 1))))
      }
    #endif
    return firstKeyIsModeKey ?? History.isModeLine(CollectionOfOne(key(at: 1))) ? 0 : 1
  }

  /// ``dateReferenceBase(after:)`` of `history`, which is `inout` only to be read in place: a
  /// method called on the history a closure captures copied it (about 230 instructions a `$N`,
  /// and as many to destroy the copy; Documentation/Performance.md, "Date lines by their
  /// shape, session 18").
  static func dateReferenceBase(
    after lineEnds: LineEndIndex.Preceding, in history: inout History
  ) -> Int {
    history.dateReferenceBase(after: lineEnds)
  }

  /// ``dateReferenceBase(firstEndsAtOne:firstKeyIsModeKey:)`` of `history`, `inout` only to be
  /// read in place (as ``dateReferenceBase(after:in:)``).
  static func dateReferenceBase(
    firstEndsAtOne: Bool, firstKeyIsModeKey: Bool?, in history: inout History
  ) -> Int {
    history.dateReferenceBase(firstEndsAtOne: firstEndsAtOne, firstKeyIsModeKey: firstKeyIsModeKey)
  }

  /// ``dateValue(ordinal:)`` of `history`, `inout` only to be read in place (as
  /// ``dateReferenceBase(after:in:)``).
  static func dateValue(ordinal: Int, in history: inout History) -> DateValue {
    history.dateValue(ordinal: ordinal)
  }

  /// ``Session/dateReference(_:after:in:)`` in `history`, with the lines'
  /// ``dateReferenceBase(after:)``, `base`. `history` is `inout` only to be read in place, not
  /// copied (``Session``'s common date line); it is not changed.
  static func dateReference(
    _ number: Int, after lineEnds: LineEndIndex.Preceding, base: Int, in history: inout History
  ) throws(LineError) -> DateValue {
    try history.dateReference(number, after: lineEnds, base: base)
  }

  /// ``Session/dateReference(_:after:in:)`` in this history, with the lines'
  /// ``dateReferenceBase(after:)``, `base`.
  func dateReference(_ number: Int, after lineEnds: LineEndIndex.Preceding, base: Int)
    throws(LineError) -> DateValue
  {
    let line = lineEnds.count + base
    guard number >= 1, number < line else {
      throw LineError(Session.referenceError(number, line: line, first: base).description)
    }
    // A line that ends with a date line (its last key: the keys a date line's text follows
    // come first) left that line's value, which its step keeps: read where the index recorded
    // it, else looked up; not replayed from a snapshot (issue 51). The line's end is not read
    // for an ordinal: in a long script it is far in memory (a cache miss a `$N`).
    if let ordinal = lineEnds.dateOrdinal(at: number - base) {
      #if CALC_INTERNAL_CHECKS
        let end = lineEnds[number - base]
        precondition(dateStep(ordinal: ordinal) == dateStep(at: end))
        precondition(dateValue(ordinal: ordinal) == state(at: end).dateValue)
      #endif
      return dateValue(ordinal: ordinal)
    }
    let end = lineEnds[number - base]
    if let step = dateStep(at: end) {
      #if CALC_INTERNAL_CHECKS
        precondition(step.value == state(at: end).dateValue)
      #endif
      return step.value
    }
    let state = end == position ? self.state : self.state(at: end)
    if let value = state.dateValue { return value }
    switch Calculator.Recalled(state) {
    case .value(let value): return .number(DateNumber(number: value))
    case .error(.dateOutOfBound): return .fault(.dateOutOfBound)
    case .error(let error): return .fault(.calculation(error))
    }
  }
}

extension Session {

  /// The date lines of `keys`, a line entered after the lines of the current branch that end
  /// at `lineEnds`, with `memory` in the register: each read and calculated, `today` the
  /// session's ``today``, its `$N` resolved (SPEC §13); throws for a line that is rejected.
  ///
  /// - Complexity: O(n) in the length of the lines, and the cost of their arithmetic.
  func dateSteps(
    for keys: TypedKeys, after preceding: LineEndIndex.Preceding, memory: Number?
  ) throws(SessionError) -> [DateStep] {
    var steps: [DateStep] = []
    let history = history
    var index = 0
    for key in keys.keys where key.hasText {
      defer { index += 1 }
      guard key.isDateLine else { continue }
      // A line read and calculated in one pass needs nothing of the session.
      if let line = keys.readDateLine(at: index) {
        steps.append(DateStep(line))
        continue
      }
      let text = keys.formulas[index]
      if today == nil, DateLine.mayMentionToday(text),
        DateLine.replacingToday(in: text, with: .first) != text
      {
        throw .date(
          LineError("today: no date is known here (write the date, such as 2026-12-01)"))
      }
      // A line without `$` makes no reference: its context captures no copy of the history
      // (about 600 instructions a date line).
      var context = DateLine.Context(
        today: today ?? .first, memory: memory.map { DateNumber(number: $0) })
      if text.utf8.contains(UInt8(ascii: "$")) {
        context.reference = { (number: Int) throws(LineError) -> DateValue in
          try Session.dateReference(number, after: preceding, in: history)
        }
        // Its `$N` resolved, a common line is calculated in one pass rather than from the
        // tree its reader kept (issue 51: about 900 instructions a `$N` line of calc-bench's
        // date mix; Documentation/Performance.md, "Date lines, session 11").
        if let line = DateLine.onePass(text, reference: context.reference) {
          steps.append(DateStep(line))
          continue
        }
      }
      do throws(LineError) {
        // The syntax the line's reader read, if it kept it: the line is not read twice.
        let line =
          if let syntax = keys.readDateSyntax(at: index) {
            try DateLine(text, syntax: syntax, in: context)
          } else {
            try DateLine(text, in: context)
          }
        steps.append(DateStep(line))
      } catch {
        throw .date(error)
      }
    }
    return steps
  }

  /// Applies a line that holds a formula (SPEC §12): each formula is read, its `ans` resolved
  /// to the nearest earlier line that computed a value, written canonically and compiled into
  /// Scientific keys, whose `$N` are resolved as a line's; the line is then one change, each
  /// formula one step. Throws, changing nothing, for a key the keypad lacks, a bad `$N`, a
  /// formula that cannot be read or compiled, `ans` without an earlier result and `mr` while
  /// the memory is empty.
  ///
  /// - Complexity: O(n) in the size of the formulas, and the cost of their keys.
  private mutating func applyFormulaLine(_ keys: TypedKeys) throws(SessionError) -> Change {
    if let error = Calculator.keyRejection(in: keys, keypad: history.state.keypad) {
      throw error
    }
    // A line whose formulas use neither `$N` nor `ans` reads no line end: the index is not
    // made for it, nor looked in (about 650 instructions a formula line: Documentation/
    // Performance.md, "Formula lines after fx6").
    let needsLineEnds = keys.mayNeedLineEnds
    if needsLineEnds, lineEndIndex?.isValid(for: history) != true {
      lineEndIndex = LineEndIndex(history)
    }
    let (recalls, steps, dates) = try resolve(formulaLine: keys, readingLineEnds: needsLineEnds)
    if Session.storesInMemory(keys) { try Session.checkDateMemory(keys, state: history.state) }
    return .applied(
      keys: keys.count,
      newBranch: applyKeepingLineEnds(
        keys.keys[...], references: keys.references, recalls: recalls, formulas: steps,
        dates: dates))
  }

  /// What the `$N` keys of `keys`, a formula or date line at the position, recall, its
  /// formulas' steps (``formulaSteps(for:after:memory:)``) and its date lines'
  /// (``dateSteps(for:after:memory:)``), with ``lineEndIndex`` valid when `readingLineEnds`
  /// (else none is read: ``TypedKeys/mayNeedLineEnds`` is `false`).
  ///
  /// A function of its own, so that the line ends it reads (a slice of ``lineEndIndex``'s) are
  /// let go of before the line is applied: held across ``applyKeepingLineEnds(_:references:recalls:formulas:dates:)``,
  /// they made its append copy every line end of the branch, once a line (O(n²) in a script).
  /// - Complexity: O(n) in the size of the formulas.
  @inline(never)
  private func resolve(formulaLine keys: TypedKeys, readingLineEnds: Bool) throws(SessionError)
    -> ([Calculator.Recalled], [FormulaStep], [DateStep])
  {
    let preceding =
      readingLineEnds
      ? lineEndIndex.unsafelyUnwrapped.before(history.position) : LineEndIndex.Preceding([])
    // A line without a date line (the common formula line) gathers no date texts.
    return (
      try Session.recalls(of: keys.references, after: preceding, in: history),
      try formulaSteps(for: keys, after: preceding, memory: history.state.memory),
      keys.keys.contains(where: \.isDateLine)
        ? try dateSteps(for: keys, after: preceding, memory: history.state.memory) : []
    )
  }

  /// The calculator that `keys`, a line holding formulas, would leave were it applied at the
  /// position — without applying it: what the REPL's live row shows (SPEC §12). Throws what
  /// applying it would throw.
  ///
  /// - Complexity: as applying the line; O(p × log b) more, the position p, when the session
  ///   has not kept the line ends of this branch.
  package func state(afterFormulaLine keys: TypedKeys) throws(SessionError) -> Calculator {
    if let error = Calculator.keyRejection(in: keys, keypad: history.state.keypad) {
      throw error
    }
    let index =
      lineEndIndex.flatMap { $0.isValid(for: history) ? $0 : nil } ?? LineEndIndex(history)
    let preceding = index.before(history.position)
    var recalls = try Session.recalls(of: keys.references, after: preceding, in: history)
      .makeIterator()
    var steps = try formulaSteps(for: keys, after: preceding, memory: history.state.memory)
      .makeIterator()
    var dates = try dateSteps(for: keys, after: preceding, memory: history.state.memory)
      .makeIterator()
    if Session.storesInMemory(keys) { try Session.checkDateMemory(keys, state: history.state) }
    var state = history.state
    state.startLine()
    for key in keys {
      switch key {
      case .reference: state.recall(recalls.next() ?? .value(.zero))
      case .formula: if let step = steps.next() { state.apply(formula: step) }
      case .dateLine: if let step = dates.next() { state.apply(date: step) }
      case .digit, .dot, .op, .equal, .command, .unary, .memory, .angle, .mode, .scientific,
        .programmer:
        state.press(key)
      }
    }
    return state
  }

  /// The formulas of `keys`, a line entered after the lines of the current branch that end at
  /// `lineEnds`, with `memory` in the register: each read, its `ans` resolved, written
  /// canonically and compiled, its `$N` resolved (SPEC §12); throws as
  /// ``applyFormulaLine(_:)`` does.
  ///
  /// - Complexity: O(n) in the size of the formulas.
  func formulaSteps(
    for keys: TypedKeys, after preceding: LineEndIndex.Preceding, memory: Number?
  ) throws(SessionError) -> [FormulaStep] {
    var steps: [FormulaStep] = []
    // `withReadFormula(at:_:)` counts in the texts of formulas and date lines together; it keeps the
    // read formulas only while the line holds no date line (``TypedKeys/appendDateLine(_:)``),
    // and then the two counts agree. The texts are read where they are, not gathered first.
    var textIndex = -1
    var index = -1
    for key in keys.keys where key.hasText {
      textIndex += 1
      guard key.isFormula else { continue }
      index += 1
      let text = keys.formulas[textIndex]
      // A formula the line's reader compiled needs nothing of the session: no `ans`, `$N` or
      // `mr`.
      if let compiled = keys.compiledFormula(at: index) {
        steps.append(
          FormulaStep(
            text: compiled.canonicalText, keys: TypedKeys(compiled.keys), recalls: []))
        continue
      }
      do throws(FormulaError) {
        // The kept formula is lent, not copied.
        if let step = try keys.withReadFormula(
          at: index,
          { formula throws(FormulaError) in
            try formulaStep(formula, text: text, after: preceding, memory: memory)
          })
        {
          steps.append(step)
        } else {
          steps.append(
            try formulaStep(Formula(text), text: text, after: preceding, memory: memory))
        }
      } catch {
        throw .formula(error)
      }
    }
    return steps
  }

  /// The step of `formula`, read from `text`, in a line entered after the lines that end at
  /// `preceding`, with `memory` in the register: its `ans` resolved, written canonically and
  /// compiled, its `$N` resolved; throws as ``formulaSteps(for:after:memory:)`` does.
  ///
  /// - Complexity: O(n) in the size of the formula.
  private func formulaStep(
    _ formula: borrowing Formula, text: String, after preceding: LineEndIndex.Preceding,
    memory: Number?
  ) throws(FormulaError) -> FormulaStep {
    let answer = formula.usesAnswer ? answerLine(after: preceding) : nil
    if let column = formula.memoryColumn, memory == nil {
      throw FormulaError("mr: the memory is empty", column: column)
    }
    let compiled = try formula.keys(answer: answer)
    let formulaRecalls: [Calculator.Recalled]
    do throws(SessionError) {
      formulaRecalls = try Session.recalls(of: compiled.references, after: preceding, in: history)
    } catch {
      let dollar = text.utf8.firstIndex(of: UInt8(ascii: "$")).map {
        text.utf8.distance(from: text.utf8.startIndex, to: $0)
      }
      throw FormulaError(
        error.description, column: FormulaError.column(of: dollar ?? 0, in: text))
    }
    return FormulaStep(
      text: try formula.canonicalText(answer: answer), keys: compiled, recalls: formulaRecalls)
  }

  /// The number of the nearest line before the position, among `lineEnds`, whose result is a
  /// value rather than an error: what `ans` stands for in a formula (SPEC §12); `nil` when there
  /// is none (a mode line, line 0, computes none).
  ///
  /// - Complexity: O(k × ``History/snapshotInterval``), k the lines looked at.
  private func answerLine(after lineEnds: LineEndIndex.Preceding) -> Int? {
    let base =
      lineEnds.count > 0 && lineEnds[0] == 1
        && History.isModeLine(CollectionOfOne(history.key(at: 1))) ? 0 : 1
    var index = lineEnds.count - 1
    while index >= 0, index + base >= 1 {
      let end = lineEnds[index]
      let recalled =
        end == history.position
        ? Calculator.Recalled(history.state) : history.recalled(atLineEnd: end)
      if case .value = recalled { return index + base }
      index -= 1
    }
    return nil
  }

  /// The refusal of `$target` in line `line` of a branch whose first line is `first` (0 with a
  /// mode line).
  static func referenceError(_ target: Int, line: Int, first: Int) -> SessionError {
    target == 0 && first == 0 ? .modeLineReference(line: line) : .badReference(target, line: line)
  }

  /// The index in `lines` (a branch's, from ``History/lines()``) of line `number`, which a
  /// command that changes a line (`verb`: `edit`, `delete`, …) names; throws for line 0 when it
  /// is the mode line, which stays as it is, and for a line the branch does not have.
  static func index(
    ofLine number: Int, in lines: [History.Line], for verb: String
  ) throws(SessionError) -> Int {
    let first = History.firstLineNumber(of: lines)
    let last = lines.count - 1 + first
    if number == 0, first == 0 { throw .modeLineFixed(verb, last: last) }
    guard number >= 1, number <= last else { throw .unknownLine(number, count: last) }
    return number - first
  }

  /// Applies `keys` as a line with `recalls`, keeping ``lineEndIndex`` up to date
  /// (``keepingLineEnds(_:)``).
  @inline(__always)
  mutating func applyKeepingLineEnds(
    _ keys: ArraySlice<Key>, references: [Int], recalls: [Calculator.Recalled],
    formulas: [FormulaStep] = [], dates: [DateStep] = []
  ) -> Int? {
    keepingLineEnds { history in
      history.apply(
        line: keys, references: references, recalls: recalls, formulas: formulas, dates: dates)
    }
  }

  /// Applies a line to the history by `apply`, which returns the number of the branch it
  /// made, if any, keeping ``lineEndIndex`` up to date: extended when the line grows the
  /// current branch at its end, dropped when it starts a branch.
  @inline(__always)
  mutating func keepingLineEnds(_ apply: (inout History) -> Int?) -> Int? {
    let extends = lineEndsExtend
    let made = apply(&history)
    keepLineEnds(after: made, extends: extends)
    return made
  }

  /// Whether a line applied now extends ``lineEndIndex``: it is valid and the position is at
  /// the end of the branch (``keepingLineEnds(_:)``, before the line).
  @inline(__always)
  var lineEndsExtend: Bool {
    lineEndIndex?.isValid(for: history) == true && history.isAtEnd
  }

  /// Keeps ``lineEndIndex`` after a line applied: extended with the line's end when
  /// `extends` (``lineEndsExtend``, before the line) and the line `made` no branch, else
  /// dropped (``keepingLineEnds(_:)``, after the line). `lastDateOrdinal`, when given, is
  /// ``History/lastDateOrdinal`` after the line (``LineEndIndex/append(_:lastDateOrdinal:in:)``).
  @inline(__always)
  mutating func keepLineEnds(after made: Int?, extends: Bool, lastDateOrdinal: Int? = nil) {
    if extends, made == nil {
      lineEndIndex?.append(history.position, lastDateOrdinal: lastDateOrdinal, in: history)
    } else {
      lineEndIndex = nil
    }
  }

  /// What each `$N` key of `keys` would recall, in order, were they applied as a line at the
  /// position; throws as applying them would, for a reference to no earlier line. For a front
  /// end that replays a line before applying it (its notes, its trace).
  ///
  /// - Complexity: O(log n + r × ``History/snapshotInterval``), r references, when the session
  ///   resolved a reference on this branch last (it keeps the line ends); else O(p × log b),
  ///   the position p.
  package func recalls(forLine keys: TypedKeys) throws(SessionError) -> [Calculator.Recalled] {
    guard keys.hasReferences else { return [] }
    if let index = lineEndIndex, index.isValid(for: history) {
      return try Session.recalls(
        of: keys.references, after: index.before(history.position), in: history)
    }
    return try Session.recalls(
      of: keys.references,
      after: LineEndIndex.Preceding(history.lineEnds(upTo: history.position)[...]),
      in: history)
  }

  /// Sets the note of the line that ends at the position — the line just applied — or removes
  /// it (`nil` or empty): what a key line with a trailing comment does after its keys (SPEC
  /// §11, ``Command/keysWithNote(_:note:)``), without numbering the lines. Does nothing where
  /// no line ends at the position (at step 0, or inside a line).
  private mutating func noteLineAtPosition(_ text: String?) {
    let position = history.position
    guard position > 0, history.endsLine(at: position) else { return }
    history.setNote(text.flatMap { $0.isEmpty ? nil : $0 }, ofLineEndingAt: position)
  }

  /// Makes `new` current, keeping this session one level deep (see ``Command/load(_:by:)``);
  /// returns whether `new` came whole, with its own kept session.
  @discardableResult
  private mutating func replace(with new: Session, by replacement: Replacement) -> Bool {
    guard !history.isEmpty else {
      // Nothing worth keeping: what was kept stays, or the new session comes whole.
      guard kept == nil else {
        history = new.history
        lineEndIndex = nil
        isRightAfterRestore = false
        return false
      }
      self = new
      return true
    }
    var old = self
    old.kept = nil
    old.isRightAfterRestore = false
    self = Session()
    history = new.history
    kept = Kept(session: old, replacement: replacement, isReplaced: true)
    return false
  }

  /// Swaps the current session and the kept one: the current one is kept at `step` (a step of
  /// its current branch), the kept one comes back at its position.
  private mutating func restore(_ kept: Kept, leavingAt step: Int) -> Change {
    var left = self
    left.kept = nil
    left.isRightAfterRestore = false
    if step != left.history.position { left.history.move(to: step) }
    history = kept.session.history
    lineEndIndex = nil
    self.kept = Kept(
      session: left, replacement: kept.replacement, isReplaced: !kept.isReplaced)
    isRightAfterRestore = kept.isReplaced
    return .restored(Restore(replacement: kept.replacement, isReplaced: kept.isReplaced))
  }

  private mutating func move(to step: Int) -> Change {
    let from = history.position
    history.move(to: step)
    return .moved(from: from, to: step)
  }
}

/// A command that a session cannot do.
public enum SessionError: Error, Hashable, Sendable, CustomStringConvertible {
  /// `goto` to a step the current branch does not have: the target, the position it was asked
  /// from, and the valid steps.
  case stepOutOfRange(Session.Target, from: Int, valid: ClosedRange<Int>)
  /// A branch number that does not exist, and how many branches there are.
  case unknownBranch(Int, count: Int)
  /// A negative number of lines for `undo` or `redo`.
  case negativeCount(Int)
  /// A line number the current branch does not have (for `edit`, `insert`, `delete`), and how
  /// many lines it has.
  case unknownLine(Int, count: Int)
  /// `insert` before a line the current branch does not have (valid: 1 through count + 1).
  case cannotInsert(Int, count: Int)
  /// `insert` with no keys.
  case emptyInsert
  /// A key of Scientific mode in a line applied in Standard mode, and its index in the line.
  case needsScientificMode(Key, index: Int)
  /// A key the keypad lacks in a line (SPEC §10: a Programmer key in another mode, `.` in
  /// Programmer mode, a digit the radix lacks, …), its index in the line, and why.
  case keyRejected(Key, index: Int, reason: KeyRejection)
  /// An `edit`, `insert` or `delete` of line `line` after which the later line `later`
  /// (numbered as the branch is now) would be rejected on replay, at `key`: refused, since a
  /// later line is never replayed with keys skipped (SPEC §4).
  case laterLineRejected(Session.Rewrite.Kind, line: Int, later: Int, key: Key)
  /// A `$N` key in line `line` that refers to no earlier line of the branch (SPEC §11).
  case badReference(Int, line: Int)
  /// A `delete` of line `line`, to which the later line `by` refers (SPEC §11).
  case referencedLineDeleted(line: Int, by: Int)
  /// A `note` of line `line`, which is the part of a line of branch `parent` before the fork
  /// of branch `branch`: that line holds the note.
  case noteOnForkedPart(line: Int, branch: Int, parent: Int)
  /// As ``laterLineRejected(_:line:later:key:)``, for a key rejected for another reason than
  /// being Scientific mode's.
  case laterLineKeyRejected(
    Session.Rewrite.Kind, line: Int, later: Int, key: Key, reason: KeyRejection)
  /// A command that changes a line (`verb`: `edit`, `insert before`, `delete`, `set the note
  /// of`, `vary`) given line 0, the mode line (SPEC §11), which stays; `last` is the number of
  /// the branch's last line.
  case modeLineFixed(String, last: Int)
  /// `$0` in line `line` of a branch whose line 0 is the mode line, which has no result of its
  /// own to recall (SPEC §11).
  case modeLineReference(line: Int)
  /// An `edit`, `insert` or `delete` of line `line` (line 1) that makes a lone mode key the
  /// first line, line 0, to which the later line `later` would then refer.
  case laterLineReferencesModeLine(Session.Rewrite.Kind, line: Int, later: Int)
  /// A formula that cannot be read, compiled or applied (SPEC §12), with its column.
  case formula(FormulaError)
  /// A date line that cannot be read or calculated (SPEC §13), or a `$N` of a date or a
  /// duration in another mode, with its column.
  case date(LineError)

  /// The refusal of `key` at `index` of a line, for `reason`.
  init(rejecting key: Key, at index: Int, _ reason: KeyRejection) {
    self =
      reason == .scientificKey
      ? .needsScientificMode(key, index: index) : .keyRejected(key, index: index, reason: reason)
  }

  /// The index in its line of the key a line was refused for; `nil` for other errors.
  package var rejectedKeyIndex: Int? {
    switch self {
    case .needsScientificMode(_, let index), .keyRejected(_, let index, _): index
    case .stepOutOfRange, .unknownBranch, .negativeCount, .unknownLine, .cannotInsert, .emptyInsert,
      .laterLineRejected, .laterLineKeyRejected, .badReference, .referencedLineDeleted,
      .noteOnForkedPart, .modeLineFixed, .modeLineReference, .laterLineReferencesModeLine,
      .formula, .date:
      nil
    }
  }

  /// The N of the `$N` key a line was refused for (a bad reference); `nil` for other errors.
  package var rejectedReference: Int? {
    switch self {
    case .badReference(let target, _): target
    case .modeLineReference: 0
    case .stepOutOfRange, .unknownBranch, .negativeCount, .unknownLine, .cannotInsert, .emptyInsert,
      .needsScientificMode, .keyRejected, .laterLineRejected, .laterLineKeyRejected,
      .referencedLineDeleted, .noteOnForkedPart, .modeLineFixed, .laterLineReferencesModeLine,
      .formula, .date:
      nil
    }
  }

  /// The description, with the `$N` that a bad reference was refused for quoted as it was
  /// typed in `text` — the line's key text, or a command's argument — rather than as it was
  /// read: `$99999999999999999999 refers to line 99999999999999999999; …` (N past an `Int`
  /// reads as `Int.max`, a line that never exists). `references` holds N of each `$N` of the
  /// keys, in order, as ``TypedKeys/references`` does.
  ///
  /// - Complexity: O(n) in the length of `text`.
  public func description(typedIn text: Substring, references: [Int]) -> String {
    guard case .badReference(let target, let line) = self, target >= 1,
      let nth = references.firstIndex(of: target),
      let typed = KeyText.typedReference(nth, in: text)
    else { return description }
    return SessionError.badReference(String(typed), target: target, line: line)
  }

  /// `$7 refers to line 7; this is line 5 (a line can use only the lines before it)`, `typed`
  /// being the `$N` as typed and `target` its N.
  private static func badReference(_ typed: String, target: Int, line: Int) -> String {
    "\(typed) refers to line \(typed.dropFirst().drop { $0 == "0" }); this is line \(line)"
      + (target >= line ? " (a line can use only the lines before it)" : "")
  }

  /// `edit`, `insert before`, `delete`: what a rewrite of a line does to it.
  static func verb(_ kind: Session.Rewrite.Kind) -> String {
    switch kind {
    case .edited: "edit"
    case .inserted: "insert before"
    case .deleted: "delete"
    }
  }

  /// `step 12 is out of range 0…9`, `no branch 7 (branches: 1…3)`.
  public var description: String {
    switch self {
    case .stepOutOfRange(.step(let step), _, let valid):
      "step \(step) is out of range \(valid.lowerBound)…\(valid.upperBound)"
    case .stepOutOfRange(.offset(let offset), let from, let valid):
      "step \(offset < 0 ? "" : "+")\(offset) from \(from) is out of range "
        + "\(valid.lowerBound)…\(valid.upperBound)"
    case .unknownBranch(let number, 0):
      "no branch \(number): the session has no keys yet"
    case .unknownBranch(let number, 1):
      "no branch \(number) (there is only branch 1)"
    case .unknownBranch(let number, let count):
      "no branch \(number) (branches: 1…\(count))"
    case .negativeCount(let count):
      "cannot move a negative number of lines (\(count))"
    case .unknownLine(let number, 0):
      "no line \(number): this branch has no lines"
    case .unknownLine(let number, 1):
      "no line \(number) (this branch has line 1)"
    case .unknownLine(let number, let count):
      "no line \(number) (lines: 1…\(count))"
    case .cannotInsert(let number, let count):
      "cannot insert before line \(number): the lines are 1…\(count), and \(count + 1) adds one at "
        + "the end"
    case .emptyInsert:
      "nothing to insert: give the line's keys"
    case .needsScientificMode(let key, _):
      "'\(key.canonical)' is a key of Scientific mode (type sci first)"
    case .keyRejected(let key, _, let reason):
      reason.message(for: key)
    case .laterLineKeyRejected(let kind, let line, let later, let key, let reason):
      "cannot \(SessionError.verb(kind)) line \(line): line \(later) would then be rejected "
        + "(\(reason.message(for: key)))"
    case .laterLineRejected(let kind, let line, let later, let key):
      "cannot \(SessionError.verb(kind)) line \(line): line \(later) would then be rejected "
        + "('\(key.canonical)' is a key of Scientific mode)"
    case .badReference(let target, let line) where target < 1:
      "$\(target) refers to no line (lines are numbered from 1); this is line \(line)"
    case .badReference(let target, let line):
      SessionError.badReference("$\(target)", target: target, line: line)
    case .referencedLineDeleted(let line, let by):
      "cannot delete line \(line): line \(by) refers to it ($\(line))"
    case .modeLineFixed(let verb, 0):
      "cannot \(verb) line 0: it is the mode line, which stays (this branch has no other lines)"
    case .modeLineFixed(let verb, let last):
      "cannot \(verb) line 0: it is the mode line, which stays (lines: 1…\(last))"
    case .modeLineReference(let line):
      "$0 refers to the mode line, line 0, which has no result to recall; this is line \(line)"
    case .laterLineReferencesModeLine(let kind, let line, let later):
      "cannot \(SessionError.verb(kind)) line \(line): the first line would then be a lone mode "
        + "key, the mode line (line 0), and line \(later) refers to it"
    case .formula(let error):
      error.message
    case .date(let error):
      error.message
    case .noteOnForkedPart(let line, let branch, let parent):
      "line \(line) is the start of a line of branch \(parent), where branch \(branch) leaves it; "
        + "that line holds the note (:branch \(parent), then :note)"
    }
  }
}
