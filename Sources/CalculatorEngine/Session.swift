/// A calculator session: its ``History`` and the one door through which it changes.
///
/// Every change is a ``Command`` passed to ``perform(_:)``, which reduces it in one `switch` and
/// returns what happened, for a front end to show (and to record). A command that cannot be
/// done throws a ``SessionError`` and changes nothing.
public struct Session: Sendable {
  /// The keys, branches and position, and the calculator there.
  public private(set) var history = History()

  /// An empty session: no keys, position 0, a fresh calculator.
  public init() {}

  /// The calculator at the position.
  public var state: History.State { history.state }

  /// A change to a session.
  public enum Command: Sendable {
    /// Applies a line of keys at the position: one change, the unit of `undo`. Before the end
    /// of the current branch it starts a new branch, keeping the old future.
    ///
    /// A slice, so that lines cut from one larger array need no copies; ``keys(_:)-swift.type.method``
    /// takes an array.
    case keys(ArraySlice<CalculatorButtonItem>)

    /// Applies a line of keys given as an array; see ``keys(_:)-swift.enum.case``.
    public static func keys(_ keys: [CalculatorButtonItem]) -> Command { .keys(keys[...]) }
    /// Moves key by key along the current branch: to a step, or by a number of steps.
    case goto(Target)
    /// Moves back over this many lines (the line the position is in counts as the first).
    case undo(Int)
    /// Moves forward to the end of the next this many lines of the current branch.
    case redo(Int)
    /// Makes the branch with this number current, at its end.
    case branch(Int)
    /// Empties the session.
    case reset
    /// Replaces the session with another, for instance one rebuilt from a saved script.
    /// (Boxed, so that a command stays a word and a tag: applying keys is the common case.)
    indirect case load(Session)
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
    /// The session was replaced.
    case loaded
  }

  /// Does `command` and says what changed; throws, changing nothing, when it cannot be done.
  ///
  /// - Complexity: `keys`: O(n) in the keys. `goto`, `undo`, `redo`, `branch`: independent of
  ///   the length of the history and, but for `branch` (the depth of the branch in the tree), of
  ///   the number of branches; `undo` and `redo` also scan the lines they cross. `reset`, `load`:
  ///   O(1).
  @discardableResult
  public mutating func perform(_ command: Command) throws(SessionError) -> Change {
    switch command {
    case .keys(let keys):
      guard !keys.isEmpty else { return .applied(keys: 0, newBranch: nil) }
      return .applied(keys: keys.count, newBranch: history.apply(line: keys))
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
      return move(to: history.lineStart(back: count))
    case .redo(let count):
      guard count >= 0 else { throw .negativeCount(count) }
      return move(to: history.lineEnd(forward: count))
    case .branch(let number):
      guard number >= 1, number <= history.branchCount else {
        throw .unknownBranch(number, count: history.branchCount)
      }
      history.switchTo(branch: number)
      return .switched(branch: number)
    case .reset:
      history = History()
      return .reset
    case .load(let session):
      self = session
      return .loaded
    }
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
    }
  }
}
