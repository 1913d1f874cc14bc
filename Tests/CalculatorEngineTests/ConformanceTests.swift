import CalculatorEngine
import Foundation
import Testing

/// Every row of `shared/conformance/standard-cases.tsv` and `unary-memory-cases.tsv` (copied to
/// Fixtures/ so the package stands alone; `.ci/run` checks that the copies still match
/// `../shared`).
@Suite struct ConformanceTests {
  /// The rows of a fixture: keys, expected display (en_US), origin; `#` lines are comments.
  static func cases(_ name: String) -> [DisplayCase] {
    let url = testsDirectory.appendingPathComponent("Fixtures/\(name)")
    let text = try! String(contentsOf: url, encoding: .utf8)
    return text.split(separator: "\n", omittingEmptySubsequences: true).compactMap { line in
      guard !line.hasPrefix("#") else { return nil }
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      return DisplayCase(
        keys: String(fields[0]), expected: String(fields[1]), origin: String(fields[2]))
    }
  }

  static let standard = cases("standard-cases.tsv")
  static let unaryMemory = cases("unary-memory-cases.tsv")

  @Test func fixturesHaveEveryRow() {
    #expect(Self.standard.count == 300)
    #expect(Self.unaryMemory.count == 83)
  }

  @Test(arguments: standard) func standardRow(_ row: DisplayCase) throws {
    #expect(try display(row.keys, format: DisplayFormat(localeIdentifier: "en_US")) == row.expected)
  }

  @Test(arguments: unaryMemory) func unaryMemoryRow(_ row: DisplayCase) throws {
    #expect(try display(row.keys, format: DisplayFormat(localeIdentifier: "en_US")) == row.expected)
  }
}
