/// The ends of every line of a history's current branch, in order, so that a `$N` key (SPEC
/// §11) finds line N's end by a lookup rather than by counting the lines from the start.
///
/// It is valid while the current branch, its length and the number of branches are those it was
/// made for (a branch's line ends never change once recorded, and anything that changes which
/// keys the current branch holds changes one of the three); ``Session`` extends it when a line
/// grows the branch at its end and drops it otherwise, and when it replaces its history.
///
/// It keeps no values: the value a date line left is its step's, which the history keeps
/// (``Session/dateReference(_:after:in:)``).
struct LineEndIndex: Sendable {
  /// The current branch it was made for.
  private var branch: Int
  /// That branch's length then.
  private var count: Int
  /// The number of branches then.
  private var branchCount: Int
  /// The end of each line of the branch, in order; the last is the branch's end.
  private var ends: [Int]

  /// The line ends of `history`'s current branch.
  ///
  /// - Complexity: O(n × log b), n the length of the branch, b the branches it passes through.
  init(_ history: History) {
    branch = history.currentBranch
    count = history.count
    branchCount = history.branchCount
    ends = history.lineEnds(upTo: history.count)
  }

  /// Whether it still describes `history`'s current branch.
  func isValid(for history: History) -> Bool {
    branch == history.currentBranch && count == history.count
      && branchCount == history.branchCount
  }

  /// Records a line that ends at `end`, the new end of `history`'s current branch, applied at
  /// the end of the branch this index describes.
  mutating func append(_ end: Int, in history: History) {
    ends.append(end)
    (branch, count, branchCount) = (history.currentBranch, history.count, history.branchCount)
  }

  /// The ends of the lines before a line entered at `step` (as ``History/lineEnds(upTo:)``
  /// gives them): the line ends before `step`, then `step` itself, the end of the line or of
  /// the part of a line before it.
  ///
  /// - Complexity: O(log n), n the lines of the branch.
  func before(_ step: Int) -> Preceding {
    guard step > 0 else { return Preceding([]) }
    var (low, high) = (0, ends.count)
    while low < high {
      let middle = (low + high) / 2
      if ends[middle] < step { low = middle + 1 } else { high = middle }
    }
    return Preceding(ends[..<low], then: step)
  }

  /// The ends of the lines before a line, in order: line ends, and the end of the last one.
  struct Preceding: RandomAccessCollection {
    private let ends: ArraySlice<Int>
    private let last: Int?

    /// `ends`, then `last` when given.
    init(_ ends: ArraySlice<Int>, then last: Int? = nil) {
      self.ends = ends
      self.last = last
    }

    var startIndex: Int { 0 }
    var endIndex: Int { ends.count + (last == nil ? 0 : 1) }
    subscript(index: Int) -> Int {
      index < ends.count ? ends[ends.startIndex + index] : last.unsafelyUnwrapped
    }
  }
}
