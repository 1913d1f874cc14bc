import Foundation
import Testing

@testable import CalculatorEngine

/// SPEC §1: every guess of the key-text module's one table reaches a person the same way through
/// `--keys` and a script, and the line is rejected (status 65) without a change.
@Suite struct HintsThroughTheBinaryTests {
  /// The table's words and characters, each in key text that holds it, with its hint.
  static var cases: [(text: String, hint: String)] {
    KeyText.wordGuesses.sorted { $0.key < $1.key }.map { ("1+" + $0.key, $0.value) }
      + KeyText.characterGuesses.sorted { $0.key < $1.key }.map {
        ("1" + String(UnicodeScalar($0.key)), $0.value)
      }
  }

  @Test func everyGuessInTheTableIsGivenByKeysAndByScripts() throws {
    #expect(Self.cases.count >= 20)
    for (text, hint) in Self.cases {
      let keys = try CalcProcess.run(["-k", text], environment: posixLocale)
      #expect(keys.stdout == "", "\(text)")
      #expect(keys.stderr.hasPrefix("calc: --keys: unknown key '"), "\(text): \(keys.stderr)")
      #expect(keys.stderr.hasSuffix(" (\(hint))\n"), "\(text): \(keys.stderr)")
      #expect(keys.status == 65, "\(text)")
      let script = try Script.run("7\n" + text + "\n")
      #expect(script.stdout == "7\n", "\(text)")
      #expect(script.stderr.hasPrefix("<stdin>:2:"), "\(text): \(script.stderr)")
      #expect(script.stderr.hasSuffix(" (\(hint))\n"), "\(text): \(script.stderr)")
      #expect(script.status == 65, "\(text)")
    }
  }
}
