import CalculatorEngine
import Foundation
import Testing

/// Every row of `shared/conformance/standard-cases.tsv` (copied to Fixtures/ so the package
/// stands alone; `fixtureMatchesShared` keeps the copy honest).
@Suite struct ConformanceTests {
  static let fixture = testsDirectory.appendingPathComponent("Fixtures/standard-cases.tsv")

  static let cases: [DisplayCase] = {
    let text = try! String(contentsOf: fixture, encoding: .utf8)
    return text.split(separator: "\n", omittingEmptySubsequences: true).compactMap { line in
      guard !line.hasPrefix("#") else { return nil }
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      return DisplayCase(
        keys: String(fields[0]), expected: String(fields[1]), origin: String(fields[2]))
    }
  }()

  @Test func fixtureHasEveryRow() {
    #expect(Self.cases.count == 300)
  }

  @Test func fixtureMatchesShared() throws {
    let shared = testsDirectory.appendingPathComponent(
      "../../../shared/conformance/standard-cases.tsv")
    try #require(
      FileManager.default.fileExists(atPath: shared.path),
      "shared/ is beside the repository on every machine of this project")
    #expect(try Data(contentsOf: shared) == Data(contentsOf: Self.fixture))
  }

  @Test(arguments: cases) func row(_ row: DisplayCase) throws {
    #expect(try display(row.keys, format: DisplayFormat(localeIdentifier: "en_US")) == row.expected)
  }
}
