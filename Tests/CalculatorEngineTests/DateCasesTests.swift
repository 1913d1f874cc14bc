import CalculatorEngine
import Foundation
import Testing

/// Every row of `shared/date/date-cases.tsv` (copied to Fixtures/ so the package stands alone;
/// `.ci/run` checks that the copy still matches `../shared`): the line read in date mode, and
/// the display in en_US (SPEC §13).
@Suite struct DateCasesTests {
  static let rows = ConformanceTests.cases("date-cases.tsv")

  /// The context of the rows: none of them uses `today`, the memory or `$N`.
  static var context: DateLine.Context {
    DateLine.Context(today: CivilDate(year: 2026, month: 12, day: 1)!)
  }

  @Test func fixtureHasEveryRow() {
    #expect(Self.rows.count == 130)
  }

  @Test(arguments: rows) func row(_ row: DisplayCase) throws {
    let line = try DateLine(row.keys, in: Self.context)
    #expect(line.value.text(in: DisplayFormat(localeIdentifier: "en_US")) == row.expected)
  }
}
