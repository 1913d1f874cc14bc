import CalcCLI
import CalculatorEngine
import Foundation
import Testing

/// Documentation/calc.1, the man page `make install` installs: `mandoc -T lint` finds nothing at
/// warning level or above, and the rendered page describes every key, option and exit status.
///
/// mandoc is needed (`apt-get install mandoc`; `.ci/run` installs it): without it the suite is
/// skipped with that reason in a plain `swift test`, and fails under `CI=true`, where a skip would
/// hide an unchecked page.
@Suite(
  .enabled(
    if: toolOnPath("mandoc") != nil || runningUnderCI,
    "mandoc is not installed (apt-get install mandoc): the man page is unchecked"))
struct ManPageTests {
  static let page = repositoryRoot.appendingPathComponent("Documentation/calc.1")

  /// `mandoc` on `PATH`, or a recorded failure naming the package to install.
  private func mandoc() -> URL? {
    if let mandoc = toolOnPath("mandoc") { return mandoc }
    Issue.record("mandoc is not installed (apt-get install mandoc): the man page is unchecked")
    return nil
  }

  /// The page as `man` shows it, without the overstrikes that make bold and underline.
  private func rendered() throws -> String? {
    guard let mandoc = mandoc() else { return nil }
    let run = try CalcProcess.run(
      ["-T", "utf8", "-O", "width=200", Self.page.path], executable: mandoc)
    #expect(run.status == 0)
    var text: [Character] = []
    for character in run.stdout {
      if character == "\u{8}" { _ = text.popLast() } else { text.append(character) }
    }
    return String(text)
  }

  /// The lines of the section titled `title`.
  private func section(_ title: String, of text: String) -> [Substring] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard let start = lines.firstIndex(of: Substring(title)) else { return [] }
    let rest = lines[(start + 1)...]
    let end = rest.firstIndex { !$0.isEmpty && !$0.hasPrefix(" ") } ?? rest.endIndex
    return Array(rest[..<end])
  }

  @Test func lintFindsNothing() throws {
    guard let mandoc = mandoc() else { return }
    let run = try CalcProcess.run(
      ["-T", "lint", "-W", "warning", Self.page.path], executable: mandoc)
    #expect(run.stdout == "")
    #expect(run.stderr == "")
    #expect(run.status == 0)
  }

  /// The KEYS table has a row with each key's canonical spelling and button title (SPEC §1).
  @Test func keysTableListsEveryKey() throws {
    guard let text = try rendered() else { return }
    let rows = section("KEYS", of: text).map { $0.split(whereSeparator: \.isWhitespace) }
    #expect(!rows.isEmpty)
    for key in Key.allKeys {
      if case .programmer(.bit) = key { continue }
      guard case .digit = key else {
        let row = rows.first {
          $0.contains(Substring(key.canonical)) && $0.contains(Substring(key.title))
        }
        #expect(row != nil, "no row for \(key.canonical) \(key.title)")
        continue
      }
    }
    #expect(rows.contains { $0.first == "digits" && $0.contains("0–9") })
    #expect(rows.contains { $0.contains("bit0–bit63") })
  }

  @Test func describesOptionsCommandsExitStatusesAndSeeAlso() throws {
    guard let text = try rendered() else { return }
    for option in [
      "-k keys, --keys keys", "--trace", "--plain", "--locale id", "--list-locales", "--resume",
      "--no-journal",
    ] {
      #expect(text.contains(option), "\(option)")
    }
    let commands = section("REPL COMMANDS", of: text).joined(separator: "\n")
    for command in CommandSpec.all {
      #expect(commands.contains(":" + command.name), ":\(command.name)")
      // Each form of its own (`:tape csv!`) too.
      for word in command.argument.words {
        #expect(commands.contains(":\(command.name) \(word) "), ":\(command.name) \(word)")
      }
    }
    #expect(commands.contains(":quit, :q, :exit"))
    let statuses = section("EXIT STATUS", of: text).compactMap { $0.split(separator: " ").first }
    #expect(statuses.filter { Int($0) != nil } == ["0", "1", "64", "65", "66", "74"])
    #expect(section("SEE ALSO", of: text).joined().contains("bc(1)"))
    #expect(section("FILES", of: text).joined().contains("~/.calc_history"))
    #expect(section("FILES", of: text).joined().contains("~/.local/state/calc/"))
    #expect(text.contains("CALC_HISTORY"))
  }

  /// The examples are true: each `$ calc …` line's output is what the built calc prints.
  @Test func examplesAreTrue() throws {
    guard let text = try rendered() else { return }
    let examples = section("EXAMPLES", of: text).map { $0.trimmingCharacters(in: .whitespaces) }
    var checked = 0
    for (index, line) in examples.enumerated() where line.hasPrefix("$ calc ") {
      let expected = examples[(index + 1)...].prefix { !$0.isEmpty && !$0.hasPrefix("$") }
      let shell = try Script.shell(
        String(line.dropFirst(2)).replacingOccurrences(of: "calc ", with: "\"$CALC\" "),
        in: repositoryRoot)
      let actual = shell.stdout.split(separator: "\n").map {
        $0.replacingOccurrences(of: "\t", with: " ").split(separator: " ").joined(separator: " ")
      }
      #expect(actual == expected.map { $0.split(separator: " ").joined(separator: " ") }, "\(line)")
      checked += 1
    }
    #expect(checked >= 4)
  }
}
