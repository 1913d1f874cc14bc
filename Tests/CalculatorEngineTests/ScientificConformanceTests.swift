import CalculatorEngine
import Foundation
import Testing

/// Every row of `shared/scientific/scientific-cases.tsv` (copied to Fixtures/; `.ci/run` checks
/// the copy), each run as `sci` followed by the row's keys, as the file's header says.
@Suite struct ScientificConformanceTests {
  static let rows = ConformanceTests.cases("scientific-cases.tsv")

  @Test func fixtureHasEveryRow() {
    #expect(Self.rows.count == 652)
  }

  @Test(arguments: rows) func scientificRow(_ row: DisplayCase) throws {
    #expect(
      try display("sci " + row.keys, format: DisplayFormat(localeIdentifier: "en_US"))
        == row.expected)
  }
}
