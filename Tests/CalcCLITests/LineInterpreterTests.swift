import CalcCLI
import CalcTestSupport
import CalculatorEngine
import Foundation
import Testing

/// The shared line interpreter, driven as a library: properties that need many sessions.
@Suite struct LineInterpreterTests {
  /// What a session is: every branch with its parent, fork and lines, the current branch, the
  /// position, and the calculator there.
  struct Snapshot: Equatable, CustomStringConvertible {
    let branches: [History.BranchInfo]
    let lines: [[String]]
    let current: Int
    let position: Int
    let state: History.State

    init(_ session: Session) {
      let history = session.history
      let numbers = history.isEmpty ? [] : Array(1...history.branchCount)
      branches = numbers.map { history.branch($0) }
      lines = numbers.map { number in
        var own: [String] = []
        history.forEachOwnLine(ofBranch: number) { own.append(KeyText.text(of: $0)) }
        return own
      }
      current = history.currentBranch
      position = history.position
      state = session.state
    }

    init(_ interpreter: LineInterpreter) { self.init(interpreter.session) }

    var description: String { "branch \(current) at \(position): \(branches) \(lines)" }
  }

  /// Runs `lines`, which must all be accepted, and returns what they printed.
  @discardableResult
  static func run(_ lines: String..., in interpreter: inout LineInterpreter) throws -> String {
    let output = OutputBuffer()
    for line in lines { try interpreter.run(line, output: output) }
    return output.text
  }

  /// A random session: `steps` random operations through the interpreter, the rejected ones
  /// dropped as a script would have them reported.
  static func randomSession(seed: UInt64, steps: Int) -> LineInterpreter {
    var random = SplitMix64(state: seed)
    var interpreter = LineInterpreter(context: .init(format: .posix), host: .withFiles)
    var model = SessionModel()
    for _ in 0..<steps {
      let operation = SessionOperation.random(for: model, using: &random)
      let output = OutputBuffer()
      if (try? interpreter.run(operation.description, output: output)) != nil {
        _ = model.perform(operation)
      }
    }
    return interpreter
  }

  /// Replaying what `:save` writes, line by line as a script, is identity on 120 random
  /// sessions (10,000 with `CALC_LONG_TESTS=1`): the same branches with the same numbers, forks,
  /// lines, the same current branch, position and calculator.
  @Test(arguments: 0..<4) func replayingTheSavedScriptIsIdentity(shard: Int) throws {
    for index in stride(from: shard, to: TestSize.count(short: 120, long: 10_000), by: 4) {
      let saved = Self.randomSession(seed: 0x5A7E_0000 &+ UInt64(index), steps: 30)
      var replayed = LineInterpreter(context: .init(format: .posix), host: .withFiles)
      let output = OutputBuffer()
      for line in SessionScript.text(of: saved.session.history).split(separator: "\n") {
        try replayed.run(String(line), output: output)
      }
      #expect(Snapshot(replayed) == Snapshot(saved), "session \(index)")
    }
  }

  /// `:save` then `:load` through real files is identity too, and `:load` prints the display
  /// (30 random sessions; 200 with `CALC_LONG_TESTS=1`).
  @Test func saveThenLoadIsIdentity() throws {
    try withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("session.calc").path
      for index in 0..<TestSize.count(short: 30, long: 200) {
        var saved = Self.randomSession(seed: 0x10AD_0000 &+ UInt64(index), steps: 30)
        try Self.run(":save \(path)", in: &saved)
        var loaded = LineInterpreter(context: .init(format: .posix), host: .withFiles)
        try Self.run("1+1=", in: &loaded)
        let shown = try Self.run(":load \(path)", in: &loaded)
        #expect(Snapshot(loaded) == Snapshot(saved), "session \(index)")
        #expect(shown == saved.display + "\n")
      }
    }
  }

  /// A rejected line — a bad key, a bad argument, a `:load` of a missing or malformed file —
  /// throws and leaves the session exactly as it was.
  @Test func aRejectedLineChangesNothing() throws {
    try withTemporaryDirectory { directory in
      let bad = directory.appendingPathComponent("bad.calc")
      try Data("12+\n:branch 1\n:goto 1\n5\n3x=\n".utf8).write(to: bad)
      var interpreter = LineInterpreter(context: .init(format: .posix), host: .withFiles)
      try Self.run("7*6=", "8+", ":goto 5", "1=", ":goto 2", in: &interpreter)
      let before = Snapshot(interpreter)
      let rejected = [
        "12+3x", ":goto 9", ":undo x", ":frob", ":branch 3", ":branch", ":load \(bad.path)",
        ":history 0", ":history 3..2", ":history 1..99", ":history x", "help me", "quit 2",
        ":load \(directory.appendingPathComponent("missing.calc").path)",
      ]
      for line in rejected {
        let output = OutputBuffer()
        #expect(throws: LineError.self, "\(line)") {
          try interpreter.run(line, output: output)
        }
        #expect(output.bytes.isEmpty, "\(line)")
        #expect(Snapshot(interpreter) == before, "\(line)")
      }
    }
  }

  /// The malformed file's error names the file, its line and column.
  @Test func aBadSessionFileIsReportedAtItsLineAndColumn() throws {
    try withTemporaryDirectory { directory in
      let bad = directory.appendingPathComponent("bad.calc")
      try Data("12+\n3x=\n".utf8).write(to: bad)
      var interpreter = LineInterpreter(context: .init(format: .posix), host: .withFiles)
      let output = OutputBuffer()
      #expect(
        throws: LineError(
          "cannot load '\(bad.path)': \(bad.path):2:2: unknown key 'x' at column 2 (× is '*')",
          column: 7)
      ) {
        try interpreter.run(":load \(bad.path)", output: output)
      }
    }
  }

  /// A session with two forks: `12+3=`, `*2=`; at step 2 `*4=` (branch 2); at step 1 `5=`
  /// (branch 3: the `1` before it is a finished number, rule 18, so it shows 5); back on branch 2
  /// at step 4.
  static func twoForks() throws -> LineInterpreter {
    var interpreter = LineInterpreter(context: .init(format: .posix), host: .withFiles)
    try run(
      "12+3=", "*2=", ":goto 2", "*4=", ":goto 1", "5=", ":branch 2", ":goto 4", in: &interpreter)
    return interpreter
  }

  @Test func branchesOfTwoForks() throws {
    var interpreter = try Self.twoForks()
    #expect(
      try Self.run(":branches", in: &interpreter) == """
          branch  leaves  steps  display  last keys
               1              8  30       12+3=×2=
        ▶      2  1 at 2      5  48       12×4=
               3  1 at 1      3  5        15=

        """)
  }

  @Test func historyOfTwoForks() throws {
    var interpreter = try Self.twoForks()
    #expect(
      try Self.run(":history", in: &interpreter) == """
          step  key  expression  display
             0                   0
             1  1                1        → branch 3
             2  2                12       → branch 1
             3  ×    12 ×        12
        ▶    4  4    12 ×        4
             5  =    12 × 4 =    48       (kept)
        [━━━━●─] 4/5

        """)
    try Self.run(":branch 1", in: &interpreter)
    #expect(
      try Self.run(":history", in: &interpreter) == """
          step  key  expression  display
             0                   0
             1  1                1        → branch 3
             2  2                12       → branch 2
             3  +    12 +        12
             4  3    12 +        3
             5  =    12 + 3 =    15
             6  ×    15 ×        15
             7  2    15 ×        2
        ▶    8  =    15 × 2 =    30
        [━━━━━━━━●] 8/8

        """)
  }

  @Test func undoAndRedoAcrossAFork() throws {
    var interpreter = try Self.twoForks()
    #expect(
      try Self.run(":redo", ":undo", ":undo", ":undo", ":redo", in: &interpreter)
        == "48\n12\n0\n0\n12\n")
    #expect(try Self.run(":redo 9", ":keys", in: &interpreter) == "48\n12\n*4=\n")
  }
}
