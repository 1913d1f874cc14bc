import CalculatorEngine
import Foundation
import Testing

/// Every row of `shared/programmer/programmer-cases.tsv` (copied to Fixtures/), each run as `prog`
/// followed by the row's keys on one line of a session, as the file's header says: the display
/// and the four radix rows (HEX, DEC, OCT, BIN; empty while an error shows).
@Suite struct ProgrammerConformanceTests {
  /// A row: the keys, the display, the four radix rows and where the row comes from.
  struct Row: CustomTestStringConvertible, Sendable {
    let keys: String
    let display: String
    let radixRows: [String]
    let origin: String
    var testDescription: String { "\(origin): \(keys) → \(display)" }
  }

  static let rows: [Row] = {
    let url = testsDirectory.appendingPathComponent("Fixtures/programmer-cases.tsv")
    let text = try! String(contentsOf: url, encoding: .utf8)
    return text.split(separator: "\n", omittingEmptySubsequences: true).compactMap { line in
      guard !line.hasPrefix("#") else { return nil }
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      return Row(
        keys: fields[0], display: fields[1], radixRows: Array(fields[2...5]), origin: fields[6])
    }
  }()

  /// The state after `prog` and `keys`, applied as a session applies a line.
  static func state(after keys: String) throws -> Calculator {
    var session = Session()
    try session.perform(.keys(try KeyText.keys(in: "prog " + keys)))
    return session.state
  }

  /// The four radix rows of `state`, as the panel shows them in en_US; empty while an error
  /// shows.
  static func radixRows(of state: Calculator, format: DisplayFormat) -> [String] {
    guard let programmer = state.programmer, let value = programmer.value else {
      return ["", "", "", ""]
    }
    return format.radixRows(value, wordSize: programmer.wordSize)
  }

  @Test func fixtureHasEveryRow() {
    #expect(Self.rows.count == 581)
  }

  @Test(arguments: rows) func programmerRow(_ row: Row) throws {
    let format = DisplayFormat(localeIdentifier: "en_US")
    let state = try Self.state(after: row.keys)
    #expect(format.text(for: state) == row.display)
    #expect(Self.radixRows(of: state, format: format) == row.radixRows)
  }
}
