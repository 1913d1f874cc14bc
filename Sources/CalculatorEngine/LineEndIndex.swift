/// The ends of every line of a history's current branch, in order, so that a `$N` key (SPEC
/// §11) finds line N's end by a lookup rather than by counting the lines from the start.
///
/// It is valid while the current branch, its length and the number of branches are those it was
/// made for (a branch's line ends never change once recorded, and anything that changes which
/// keys the current branch holds changes one of the three); ``Session`` extends it when a line
/// grows the branch at its end and drops it otherwise, and when it replaces its history.
///
/// For each line it records after it was made, it also keeps where the history keeps the step
/// of the date line that ends it, if one does (``History/lastDateOrdinal``): a `$N` of that
/// line reads the step's value at once, without a search or a replay (issue 51;
/// ``Session/dateReference(_:after:in:)``). A branch's steps never change once recorded.
struct LineEndIndex: Sendable {
  /// The current branch it was made for.
  private var branch: Int
  /// That branch's length then.
  private var count: Int
  /// The number of branches then.
  private var branchCount: Int
  /// The end of each line of the branch, in order; the last is the branch's end. Nothing a
  /// line while each line is one key (a date script's; ``RunPrefixed``).
  private var ends: RunPrefixed<Int>
  /// The index in ``ends`` of the first line whose ordinal ``ordinals`` holds: the lines
  /// recorded by ``append(_:in:)``, not those found when it was made.
  private var ordinalsStart: Int
  /// For each line from ``ordinalsStart`` on, in order, the ordinal of the date step that
  /// ends it among the branch's (``History/dateStep(ordinal:)``), or none for a line that ends
  /// otherwise (-1; one that does not fit 32 bits is asked of the history): nothing a line
  /// while the lines end with consecutive steps (a date script's; ``RunPrefixed``), four
  /// bytes a line after.
  private var ordinals: RunPrefixed<Int32>
  /// Whether the branch's first key is a mode key (``History/isModeLine(_:)``), which decides
  /// the number of line 1 (``History/dateReferenceBase(after:)``); `nil` before the branch has
  /// a key. Kept, so that a `$N` does not look the key up (hundreds of instructions a line).
  private var firstKeyIsModeKey: Bool?

  /// The line ends of `history`'s current branch.
  ///
  /// - Complexity: O(n × log b), n the length of the branch, b the branches it passes through.
  init(_ history: History) {
    branch = history.currentBranch
    count = history.count
    branchCount = history.branchCount
    ends = RunPrefixed(history.lineEnds(upTo: history.count))
    ordinalsStart = ends.count
    ordinals = RunPrefixed()
    firstKeyIsModeKey = Self.firstKeyIsModeKey(in: history)
  }

  /// Whether `history`'s first key on the current branch is a mode key; `nil` when it has none.
  private static func firstKeyIsModeKey(in history: History) -> Bool? {
    history.count >= 1 ? History.isModeLine(CollectionOfOne(history.key(at: 1))) : nil
  }

  /// Whether it still describes `history`'s current branch.
  @inline(__always)
  func isValid(for history: History) -> Bool {
    branch == history.currentBranch && count == history.count
      && branchCount == history.branchCount
  }

  /// Records a line that ends at `end`, the new end of `history`'s current branch, applied at
  /// the end of the branch this index describes; `lastDateOrdinal`, when given, is
  /// ``History/lastDateOrdinal``, known to the caller (a date line's door: read from the codes
  /// just written, it cost a date script about 1.5% of its time).
  @inline(__always)
  mutating func append(_ end: Int, lastDateOrdinal: Int? = nil, in history: History) {
    assert(lastDateOrdinal == nil || lastDateOrdinal == history.lastDateOrdinal)
    append(
      end, lastDateOrdinal: lastDateOrdinal ?? history.lastDateOrdinal,
      branch: history.currentBranch, count: history.count, branchCount: history.branchCount)
    if firstKeyIsModeKey == nil { firstKeyIsModeKey = Self.firstKeyIsModeKey(in: history) }
  }

  /// ``append(_:lastDateOrdinal:in:)`` given what it reads of the history — its current branch,
  /// its length and its number of branches after the line — once the branch's first key is
  /// known (``knowsFirstKey``). Passed the history while the index changed, a caller copied it
  /// (241 bytes, every line of a script once it has used `$N`; Documentation/Performance.md,
  /// "Date lines, session 19").
  @inline(__always)
  mutating func append(
    _ end: Int, lastDateOrdinal: Int?, branch: Int, count: Int, branchCount: Int
  ) {
    ends.append(end)
    ordinals.append(lastDateOrdinal.flatMap { Int32(exactly: $0) }.map(Int.init) ?? -1)
    (self.branch, self.count, self.branchCount) = (branch, count, branchCount)
  }

  /// Whether the branch's first key is known (``History/isModeLine(_:)`` of it): once the
  /// branch has a key.
  var knowsFirstKey: Bool { firstKeyIsModeKey != nil }

  /// The ends of the lines before a line entered at `step` (as ``History/lineEnds(upTo:)``
  /// gives them): the line ends before `step`, then `step` itself, the end of the line or of
  /// the part of a line before it.
  ///
  /// - Complexity: O(log n), n the lines of the branch.
  func before(_ step: Int) -> Preceding {
    guard step > 0 else { return Preceding([]) }
    var (low, high) = (0, ends.count)
    // A line entered at the end of the branch, a script's: every end is before it, or every
    // end but the last, which is the step itself (the ends increase). Not searched: the search
    // read about 17 ends a line, far apart in a long script.
    let count = ends.count
    if count > 0 {
      let last = ends[count - 1]
      if last < step {
        low = high
      } else if last == step {
        low = high - 1
        high = low
      }
    }
    while low < high {
      let middle = (low + high) / 2
      if ends[middle] < step { low = middle + 1 } else { high = middle }
    }
    return Preceding(
      ends.prefix(low), ordinals: ordinals.prefix(low - ordinalsStart), from: ordinalsStart,
      then: step, firstKeyIsModeKey: firstKeyIsModeKey)
  }

  /// What ``before(_:)`` of `step` holds, read in place, when `step` ends the last line this
  /// index records — a line entered at the end of the branch, as a script's lines are: the
  /// number of lines before it (``Preceding``'s `count`), whether the first of them ends at
  /// step 1, and whether the branch's first key is a mode key, when known; `nil` for any other
  /// step. Made for each `$N` of a date line, the collection's two slices cost about 300
  /// instructions with their release (Documentation/Performance.md, "Date lines, session
  /// 19").
  @inline(__always)
  func linesBeforeEnd(_ step: Int) -> (count: Int, firstEndsAtOne: Bool, firstKeyIsModeKey: Bool?)?
  {
    let count = ends.count
    guard count > 0, ends[count - 1] == step else { return nil }
    return (count, ends[0] == 1, firstKeyIsModeKey)
  }

  /// The ordinal of the date step that ends line `index` (0 the first) among the branch's
  /// (``History/dateStep(ordinal:)``), when this index recorded it (``append(_:lastDateOrdinal:in:)``);
  /// `nil` when the history is to be asked: what ``Preceding/dateOrdinal(at:)`` gives, and for
  /// the last line too.
  @inline(__always)
  func recordedDateOrdinal(ofLine index: Int) -> Int? {
    let offset = index - ordinalsStart
    guard offset >= 0, offset < ordinals.count else { return nil }
    let ordinal = ordinals[offset]
    return ordinal < 0 ? nil : ordinal
  }

  /// The ends of the lines before a line, in order: line ends, and the end of the last one.
  struct Preceding: RandomAccessCollection {
    private let ends: RunPrefixed<Int>
    private let last: Int?
    /// The ordinals of the date steps that end the lines from index ``ordinalsStart`` on (see
    /// ``LineEndIndex``).
    private let ordinals: RunPrefixed<Int32>
    private let ordinalsStart: Int
    /// Whether the branch's first key is a mode key, when known (``LineEndIndex``'s).
    let firstKeyIsModeKey: Bool?

    /// `ends`, then `last` when given; no ordinals known.
    init(_ ends: ArraySlice<Int>, then last: Int? = nil) {
      self.init(
        RunPrefixed(slice: ends), ordinals: RunPrefixed(), from: 0, then: last)
    }

    /// `ends`, then `last` when given; `ordinals` those of the lines from index `start` on.
    init(
      _ ends: RunPrefixed<Int>, ordinals: RunPrefixed<Int32>,
      from start: Int,
      then last: Int? = nil,
      firstKeyIsModeKey: Bool? = nil
    ) {
      self.ends = ends
      self.last = last
      self.ordinals = ordinals
      self.ordinalsStart = start
      self.firstKeyIsModeKey = firstKeyIsModeKey
    }

    /// The ordinal of the date step that ends the line at `index`, when one was recorded
    /// (``History/dateStep(ordinal:)``); `nil` when the history is to be asked.
    func dateOrdinal(at index: Int) -> Int? {
      let offset = index - ordinalsStart
      guard offset >= 0, offset < ordinals.count else { return nil }
      let ordinal = ordinals[offset]
      return ordinal < 0 ? nil : ordinal
    }

    var startIndex: Int { 0 }
    var endIndex: Int { ends.count + (last == nil ? 0 : 1) }
    subscript(index: Int) -> Int {
      index < ends.count ? ends[index] : last.unsafelyUnwrapped
    }
  }
}
