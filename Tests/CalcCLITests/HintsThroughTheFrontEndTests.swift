import Foundation
import Testing

@testable import CalculatorEngine

/// SPEC §1: every guess of the key-text module's one table reaches a person the same way through
/// `--keys` and a script, and the line is rejected (status 65) without a change.
@Suite struct HintsThroughTheFrontEndTests {
  /// The table's words and characters, each in key text that holds it, with its hint.
  static var cases: [(text: String, hint: String)] {
    KeyText.wordGuesses.sorted { $0.key < $1.key }.map { ("1+" + $0.key, $0.value) }
      + KeyText.characterGuesses.sorted { $0.key < $1.key }.map {
        ("1" + String(UnicodeScalar($0.key)), $0.value)
      }
  }

  @Test func theTableHasTheGuessesOfSpecSection1() {
    #expect(Self.cases.count >= 20)
  }

  /// Through `--keys`, in process: one run per guess, in parallel.
  @Test(arguments: cases.map(\.text)) func everyGuessIsGivenByKeys(_ text: String) throws {
    let hint = try #require(Self.cases.first { $0.text == text }?.hint)
    let keys = try InProcess.run(["-k", text], environment: posixLocale)
    #expect(keys.stdout == "", "\(text)")
    #expect(keys.stderr.hasPrefix("calc: --keys: unknown key '"), "\(text): \(keys.stderr)")
    #expect(keys.stderr.hasSuffix(" (\(hint))\n"), "\(text): \(keys.stderr)")
    #expect(keys.status == 65, "\(text)")
  }

  /// Through a script: every guess, one line each, in one run that keeps going, each rejected
  /// line answered with the unchanged display.
  @Test func everyGuessIsGivenByAScript() throws {
    let cases = Self.cases
    let script = try Script.runInProcess(
      "7\n" + cases.map { $0.text + "\n" }.joined(), arguments: ["--keep-going"])
    #expect(script.stdout == String(repeating: "7\n", count: cases.count + 1))
    let messages = script.stderr.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(messages.count == cases.count + 1)
    for (index, (text, hint)) in cases.enumerated() where index < messages.count {
      #expect(messages[index].hasPrefix("<stdin>:\(index + 2):"), "\(text): \(messages[index])")
      #expect(messages[index].hasSuffix(" (\(hint))"), "\(text): \(messages[index])")
    }
    #expect(script.status == 65)
  }
}
