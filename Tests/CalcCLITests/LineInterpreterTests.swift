import CalcCLI
import CalcTestSupport
import CalculatorEngine
import Foundation
import Testing

/// The shared line interpreter, driven as a library: properties that need many sessions.
@Suite struct LineInterpreterTests {
  /// What a session is: every key, the position, and the calculator there.
  struct Snapshot: Equatable {
    let keys: [CalculatorButtonItem]
    let position: Int
    let calculator: Calculator

    init(_ interpreter: LineInterpreter) {
      keys = Array(interpreter.timeline.keys)
      position = interpreter.timeline.position
      calculator = interpreter.timeline.calculator
    }
  }

  /// Runs `lines`, which must all be accepted, and returns what they printed.
  @discardableResult
  static func run(_ lines: String..., in interpreter: inout LineInterpreter) throws -> String {
    var output: [UInt8] = []
    for line in lines { try interpreter.run(line, output: &output) }
    return String(decoding: output, as: UTF8.self)
  }

  /// Save then load is identity, kept future included, for random sessions.
  @Test func saveThenLoadRestoresKeysPositionAndFuture() throws {
    try withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("session.calc").path
      var random = SplitMix64(state: 0x5A7E_10AD)
      for round in 0..<500 {
        let count = random.int(0...600)
        let keys = (0..<count).map { _ in
          CalculatorButtonItem.allKeys[random.below(CalculatorButtonItem.allKeys.count)]
        }
        var saved = LineInterpreter(format: .posix)
        try Self.run(KeyText.text(of: keys), ":goto \(random.int(0...count))", in: &saved)
        try Self.run(":save \(path)", in: &saved)
        var loaded = LineInterpreter(format: .posix)
        let shown = try Self.run(":load \(path)", in: &loaded)
        #expect(Snapshot(loaded) == Snapshot(saved), "round \(round): \(KeyText.text(of: keys))")
        #expect(shown == saved.display + "\n")
      }
    }
  }

  /// A rejected line — a bad key, a bad argument, a `:load` of a missing or malformed file —
  /// throws and leaves the session exactly as it was.
  @Test func aRejectedLineChangesNothing() throws {
    try withTemporaryDirectory { directory in
      let bad = directory.appendingPathComponent("bad.calc")
      try Data("12+\n3x=\n".utf8).write(to: bad)
      var interpreter = LineInterpreter(format: .posix)
      try Self.run("7*6=", "8+", ":goto 5", in: &interpreter)
      let before = Snapshot(interpreter)
      let rejected = [
        "12+3x", ":goto 9", ":undo x", ":frob", ":load \(bad.path)",
        ":load \(directory.appendingPathComponent("missing.calc").path)",
      ]
      for line in rejected {
        var output: [UInt8] = []
        #expect(throws: LineError.self, "\(line)") {
          try interpreter.run(line, output: &output)
        }
        #expect(output.isEmpty, "\(line)")
        #expect(Snapshot(interpreter) == before, "\(line)")
      }
    }
  }

  /// The malformed file's error names the file, its line and column.
  @Test func aBadSessionFileIsReportedAtItsLineAndColumn() throws {
    try withTemporaryDirectory { directory in
      let bad = directory.appendingPathComponent("bad.calc")
      try Data("12+\n3x=\n".utf8).write(to: bad)
      var interpreter = LineInterpreter(format: .posix)
      var output: [UInt8] = []
      #expect(
        throws: LineError(
          "cannot load '\(bad.path)': \(bad.path):2:2: unknown key 'x' at column 2", column: 7)
      ) {
        try interpreter.run(":load \(bad.path)", output: &output)
      }
    }
  }
}
