import CalculatorEngine
import Foundation
import Testing

@testable import CalcCLI
@testable import CalcCore

/// The interpreter's effects as values and its injected host, in process.
@Suite struct InterpreterEffectsTests {
  /// A short description of the effect of a line: `applied 5`, `moved 5→2`, `switched 1`.
  static func effect(_ line: String, in interpreter: inout LineInterpreter) throws -> String? {
    try interpreter.run(line, output: OutputBuffer()).effect.map { effect in
      switch effect.change {
      case .applied(let keys, let newBranch):
        "applied \(keys)" + (newBranch.map { " new \($0)" } ?? "")
      case .moved(let from, let to): "moved \(from)→\(to)"
      case .switched(let branch): "switched \(branch)"
      case .reset: "reset"
      case .loaded: "loaded"
      case .restored(let restore):
        "restored \(restore.isReplaced ? "before" : "after") \(restore.replacement.command)"
      case .rewrote(let rewrite): "rewrote \(rewrite.line)"
      case .noted(let line, _): "noted \(line)"
      case .varied(let variation): "varied \(variation.line)"
      }
    }
  }

  @Test func aLineReturnsWhatItChanged() throws {
    var interpreter = LineInterpreter(context: .init(format: .posix), host: .withFiles)
    #expect(try Self.effect("12+3=", in: &interpreter) == "applied 5")
    #expect(try Self.effect("# a comment", in: &interpreter) == nil)
    #expect(try Self.effect(":history", in: &interpreter) == nil, "a listing changes nothing")
    #expect(try Self.effect(":goto 2", in: &interpreter) == "moved 5→2")
    #expect(try Self.effect("*4=", in: &interpreter) == "applied 3 new 2")
    #expect(try Self.effect(":branch 1", in: &interpreter) == "switched 1")
    #expect(try Self.effect(":undo", in: &interpreter) == "moved 5→0")
    #expect(try Self.effect(":reset", in: &interpreter) == "reset")
    #expect(throws: LineError.self) { try interpreter.run(":goto 9", output: OutputBuffer()) }
  }

  @Test func theJournalRecordsConsecutiveMovesAsOne() throws {
    let moves = [
      Session.Effect(command: .goto(.offset(-1)), change: .moved(from: 9, to: 8)),
      Session.Effect(command: .undo(1), change: .moved(from: 8, to: 5)),
      Session.Effect(
        command: .keys(try KeyText.keys(in: "1")), change: .applied(keys: 1, newBranch: 2)),
      Session.Effect(command: .redo(1), change: .moved(from: 6, to: 6)),
      Session.Effect(command: .goto(.step(3)), change: .moved(from: 6, to: 3)),
      Session.Effect(command: .goto(.step(6)), change: .moved(from: 3, to: 6)),
    ]
    let coalesced: [Session.Change] = Journal.coalescingMoves(moves).map(\.change)
    #expect(
      coalesced == [
        .moved(from: 9, to: 5), .applied(keys: 1, newBranch: 2), .moved(from: 6, to: 6),
      ])
    let lines = Journal.coalescingMoves(moves).flatMap {
      Journal.lines(for: $0.command, change: $0.change, after: Session())
    }
    #expect(lines == [":goto 5", "1"], "a run of moves that ends where it started is no record")
  }

  @Test func fileNamesTakeTheHomeOfTheHost() throws {
    try withTemporaryDirectory { directory in
      var interpreter = LineInterpreter(
        context: .init(format: .posix), host: .init(home: directory.path, files: .system))
      let output = OutputBuffer()
      try interpreter.run("12+3=", output: output)
      try interpreter.run(":save ~/sum.calc", output: output)
      let saved = try String(
        contentsOf: directory.appendingPathComponent("sum.calc"), encoding: .utf8)
      #expect(saved.contains("12+3=\n"))
      var other = LineInterpreter(
        context: .init(format: .posix), host: .init(home: nil, files: .system))
      #expect(throws: LineError.self, "without a home, ~ is a name like any other") {
        try other.run(":load ~/sum.calc", output: OutputBuffer())
      }
    }
  }

  @Test func anInterruptedHostStopsAListing() throws {
    var interpreter = LineInterpreter(
      context: .init(format: .posix), host: .init(isInterrupted: { true }))
    try interpreter.run("1+1+1+1+1=", output: OutputBuffer())
    let output = OutputBuffer()
    try interpreter.run(":history", output: output)
    #expect(!output.text.contains("4 + "), "no row is written once Ctrl-C is pressed")
    let free = LineInterpreter(context: .init(format: .posix), session: interpreter.session)
    var copy = free
    let listed = OutputBuffer()
    try copy.run(":history", output: listed)
    #expect(listed.text.contains("4 + 1 ="))
  }

  /// The engine's list of command words (for the hint "commands start with ':'") is the
  /// command table's, but for the bare words that need no colon.
  @Test func theCommandWordsOfTheHintsAreTheTable() {
    let table = Set(CommandSpec.all.map(\.name).filter { $0.allSatisfy(\.isLetter) })
      .subtracting(ScriptLine.bareWords)
    #expect(Set(KeyText.commandWords) == table)
  }
}
