import CalculatorEngine
import Testing

/// A line of keys as a script applies it (``Session/perform(_:)`` with `.keys`, no `$N`): the
/// keypad check rides on the pass that encodes the keys, and the keys are pressed a run at a
/// time. Each row gives the lines before, the line, and either the display after it or the
/// index of the key the line is refused for (the session unchanged then).
@Suite struct CheckedLineTests {
  struct Row: CustomTestStringConvertible, Sendable {
    let before: [String]
    let line: String
    /// The display after the line, `posix`; `nil` when the line is refused.
    let display: String?
    /// The index of the refused key; `nil` when the line is applied.
    let rejectedAt: Int?
    var testDescription: String { "\(before.joined(separator: " | ")) | \(line)" }
  }

  static let rows: [Row] = [
    Row(before: [], line: "123.45*6.7=", display: "827.115", rejectedAt: nil),
    Row(before: ["12+3"], line: "=", display: "15", rejectedAt: nil),
    // AC and `=`: Standard's keys whose codes' or (16 | 15) reaches the first code beyond
    // Standard's take the whole check, and pass it.
    Row(before: [], line: "5c2+3=", display: "5", rejectedAt: nil),
    // A line that turns Scientific mode on and then uses its keys: the whole check, passed.
    Row(before: [], line: "sci(1+2)*3=", display: "9", rejectedAt: nil),
    Row(before: ["sci"], line: "2^3=", display: "8", rejectedAt: nil),
    // Scientific keys in Standard mode, Programmer keys outside Programmer mode: refused.
    Row(before: ["5"], line: "1+(2)=", display: nil, rejectedAt: 2),
    Row(before: ["5"], line: "1+bit3", display: nil, rejectedAt: 2),
    Row(before: ["sci"], line: "7and1=", display: nil, rejectedAt: 1),
    // In Programmer mode the line takes the whole check first.
    Row(before: ["prog", "hex"], line: "A+1=", display: "B", rejectedAt: nil),
    Row(before: ["prog"], line: "A+1=", display: nil, rejectedAt: 0),
  ]

  @Test(arguments: rows) func line(_ row: Row) throws {
    var session = Session()
    for line in row.before {
      try session.perform(.keys(try KeyText.keys(in: line, startingIn: session.mode)))
    }
    let before = session.state
    let count = session.history.count
    let keys = try KeyText.keys(in: row.line, startingIn: session.mode)
    do throws(SessionError) {
      try session.perform(.keys(keys))
      #expect(row.rejectedAt == nil)
      if let display = row.display {
        #expect(DisplayFormat.posix.text(for: session.state) == display)
      }
      // The same state as pressing the keys one by one.
      #expect(session.state == before.applying(line: keys))
      #expect(session.history.count == count + keys.count)
    } catch {
      #expect(error.rejectedKeyIndex == row.rejectedAt)
      #expect(error == before.keyRejection(in: keys))
      #expect(session.state == before)
      #expect(session.history.count == count)
    }
    session.history._checkInvariants()
  }

  /// A line longer than ``History/snapshotInterval`` keys: the snapshot taken within it holds
  /// the state after its own keys, which a jump back to it shows.
  @Test func longLineSnapshots() throws {
    var session = Session()
    try session.perform(.keys(try KeyText.keys(in: "7+")))
    let text = String(repeating: "1+", count: 300) + "1="
    let keys = try KeyText.keys(in: text)
    try session.perform(.keys(keys))
    #expect(DisplayFormat.posix.text(for: session.state) == "308")
    for step in [History.snapshotInterval - 1, History.snapshotInterval, 500] {
      try session.perform(.goto(.step(step)))
      let replayed = Calculator.initial.applying(
        line: try KeyText.keys(in: "7+")
      ).applying(Array(keys.prefix(step - 2)))
      #expect(session.state == replayed, "step \(step)")
    }
    session.history._checkInvariants()
  }
}
