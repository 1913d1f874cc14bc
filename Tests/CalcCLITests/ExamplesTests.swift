import Foundation
import Testing

/// The scripts in `Examples/`, run in process (``InProcess``) in that folder: each `NAME.calc`
/// must print exactly `NAME.out`, write `NAME.err` (nothing if absent) to standard error, and
/// exit with `NAME.status` (0 if absent).
@Suite struct ExamplesTests {
  /// `Examples/` in the package, found from this file's path.
  static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // CalcCLITests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // the package
    .appendingPathComponent("Examples")

  /// The names of the example scripts, without `.calc`, sorted.
  static let names: [String] = {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return files.filter { $0.hasSuffix(".calc") }.map { String($0.dropLast(5)) }.sorted()
  }()

  /// The text of `NAME.extension` in `Examples/`, or `nil` if there is no such file.
  static func expected(_ name: String, _ extension: String) throws -> String? {
    let url = directory.appendingPathComponent("\(name).\(`extension`)")
    guard FileManager.default.fileExists(atPath: url.path) else { return nil }
    return String(decoding: try Data(contentsOf: url), as: UTF8.self)
  }

  /// The worked example of Documentation/Ledger.md (the README's ledger example) shows the
  /// script without its comment lines and exactly what it prints (`ledger-invoice.out`).
  @Test func theLedgerDocumentShowsTheInvoiceExampleAsItRuns() throws {
    let document = String(
      decoding: try Data(
        contentsOf: Self.directory.deletingLastPathComponent()
          .appendingPathComponent("Documentation/Ledger.md")), as: UTF8.self)
    let blocks = document.components(separatedBy: "```\n")
    let script = try #require(try Self.expected("ledger-invoice", "calc"))
    let lines = script.split(separator: "\n", omittingEmptySubsequences: false)
      .filter { !$0.hasPrefix("#") }.joined(separator: "\n")
    // The first block is the script, the second what it prints.
    let index = try #require(blocks.firstIndex { $0.hasPrefix("1200+350+89=") })
    #expect(blocks[index] == lines.drop { $0 == "\n" })
    #expect(blocks[index + 2] == (try Self.expected("ledger-invoice", "out")))
  }

  /// The worked example of Documentation/Dates.md shows `date-plan.calc` without its comment
  /// lines and exactly what it prints (`date-plan.out`).
  @Test func theDatesDocumentShowsThePlanExampleAsItRuns() throws {
    let document = String(
      decoding: try Data(
        contentsOf: Self.directory.deletingLastPathComponent()
          .appendingPathComponent("Documentation/Dates.md")), as: UTF8.self)
    let blocks = document.components(separatedBy: "```\n")
    let script = try #require(try Self.expected("date-plan", "calc"))
    let lines = script.split(separator: "\n", omittingEmptySubsequences: false)
      .filter { !$0.hasPrefix("#") }.joined(separator: "\n")
    let index = try #require(blocks.firstIndex { $0.hasPrefix("date\n2027-01-04") })
    #expect(blocks[index] == lines.drop { $0 == "\n" })
    #expect(blocks[index + 2] == (try Self.expected("date-plan", "out")))
  }

  @Test func thereAreAtLeastSixExamples() {
    #expect(Self.names.count >= 6, "found \(Self.names) in \(Self.directory.path)")
  }

  @Test(arguments: names) func example(_ name: String) throws {
    let run = try InProcess.run(
      ["\(name).calc"], environment: posixLocale, directory: Self.directory)
    let output = try #require(try Self.expected(name, "out"), "\(name).calc has no \(name).out")
    #expect(run.stdout == output)
    #expect(run.stderr == (try Self.expected(name, "err") ?? ""))
    var status: Int32 = 0
    if let text = try Self.expected(name, "status") {
      status = try #require(
        Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)),
        "\(name).status is not a number")
    }
    #expect(run.status == status)
  }

  /// `session.calc` is exactly what `:save` writes for the session it holds.
  @Test func sessionIsWhatSaveWrites() throws {
    try withTemporaryDirectory { temporary in
      let saved = temporary.appendingPathComponent("session.calc")
      let run = try InProcess.run(
        [], stdin: Data(":load session.calc\n:save \(saved.path)\n".utf8),
        environment: posixLocale, directory: Self.directory)
      #expect(run.stderr == "")
      #expect(run.status == 0)
      let original = try Data(contentsOf: Self.directory.appendingPathComponent("session.calc"))
      #expect(try Data(contentsOf: saved) == original)
    }
  }

  /// Running the examples must not leave files behind (no `:save` into `Examples/`).
  @Test func examplesWriteNoFiles() throws {
    let before = try Script.listing(Self.directory)
    for name in Self.names {
      _ = try InProcess.run(["\(name).calc"], environment: posixLocale, directory: Self.directory)
    }
    #expect(try Script.listing(Self.directory) == before)
  }
}
