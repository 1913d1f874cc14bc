import CalculatorEngine
import Testing

/// SPEC rule 18: a number never continues on the next line. Each line of keys starts by ending
/// the number still being typed, as `ms` does; everything else carries on.
@Suite struct LineStartTests {
  /// The display after each of `lines`, each performed as one line of keys, with `commands`
  /// (`:goto N` as `goto`) between them where given.
  static func displays(_ lines: [String]) throws -> [String] {
    var session = Session()
    var shown: [String] = []
    for line in lines {
      if line.hasPrefix(":goto ") {
        try session.perform(.goto(.step(Int(line.dropFirst(6))!)))
      } else {
        try session.perform(.keys(try KeyText.keys(in: line)))
      }
      shown.append(DisplayFormat.posix.text(for: session.state))
    }
    return shown
  }

  @Test(arguments: [
    // SPEC §2 rule 18's examples.
    (["100", "50"], ["100", "50"]),
    (["1", "2", "3"], ["1", "2", "3"]),
    (["12+", "3="], ["12", "15"]),
    (["1.50", "~"], ["1.50", "-1.5"]),
    (["12.5", "<"], ["12.5", "12.5"]),
    (["12", "5<"], ["12", "0"]),
    // A pending operation, the repeated operation and the memory carry on.
    (["5+", "3", "="], ["5", "3", "8"]),
    (["2+3=", "="], ["5", "8"]),
    (["5ms", "c", "mr+1="], ["5", "0", "6"]),
    // A computed value is no number being typed: it stays, and keys act on it as before.
    (["2+3=", "~"], ["5", "-5"]),
    (["2+3=", "<"], ["5", "5"]),
    // A 0 that nobody typed (a fresh calculator, AC) is left alone: the first line is as ever.
    (["~5"], ["5"]),
    (["7", "c", "~5"], ["7", "0", "5"]),
    // After time travel into the middle of a number, the next line starts a new number.
    (["1234+1=", ":goto 2", "5="], ["1,235", "12", "5"]),
    (["12+34=", ":goto 4", "5="], ["46", "3", "17"]),
  ])
  func aLineStartsANewNumber(lines: [String], expected: [String]) throws {
    #expect(try Self.displays(lines) == expected, "\(lines)")
  }

  @Test func theDisplayAfterALineIsUnchanged() throws {
    var session = Session()
    try session.perform(.keys(try KeyText.keys(in: "1.50")))
    #expect(DisplayFormat.posix.text(for: session.state) == "1.50")
    #expect(session.history.startsLine(at: 1))
    #expect(!session.history.startsLine(at: 2))
  }

  @Test func keysOfEachLineUpToThePosition() throws {
    var session = Session()
    for line in ["12+", "3=", "*2="] { try session.perform(.keys(try KeyText.keys(in: line))) }
    try session.perform(.goto(.step(6)))
    var lines: [String] = []
    session.history.forEachLine(upToPosition: { lines.append(KeyText.text(of: $0)) })
    #expect(lines == ["12+", "3=", "*"], "the last line cut at the position")
    // Replaying those lines from a fresh calculator gives the state at the position.
    var replayed = Calculator.initial
    session.history.forEachLine(upToPosition: { replayed = replayed.applying(line: $0) })
    #expect(replayed == session.state)
  }
}
