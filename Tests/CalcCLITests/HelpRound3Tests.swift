import CalculatorEngine
import Foundation
import Testing

@testable import CalcCLI
@testable import CalcCore

/// Issue 45 (SPEC v5 §6): `:help` names every key and command of the current mode, the slider
/// keys, `$N` and notes, and in Scientific mode that a function follows its number; `:help
/// TOPIC` says more about a command, `keys`, `slider` and `ledger`.
@Suite struct HelpRound3Tests {
  static let modes: [Key.Mode] = [.standard, .scientific, .programmer]

  /// Whether `text` holds `word` with no letter or digit right before or after it.
  static func names(_ text: String, _ word: String) -> Bool {
    var rest = Substring(text)
    while let range = rest.range(of: word) {
      let before =
        range.lowerBound > text.startIndex ? text[text.index(before: range.lowerBound)] : " "
      let after = range.upperBound < text.endIndex ? text[range.upperBound] : " "
      if !(before.isLetter || before.isNumber) && !(after.isLetter || after.isNumber) {
        return true
      }
      rest = text[range.upperBound...]
    }
    return false
  }

  /// The keys that `mode`'s keypad takes (hex digits as in HEX).
  static func keys(of mode: Key.Mode) -> [Key] {
    Key.allKeys.filter {
      var keypad = Keypad(mode: mode, radix: .hex)
      return keypad.press($0) == nil
    }
  }

  /// The spellings `:help` must show for `key`: its key text, or for runs of keys the run's.
  static func spelling(_ key: Key) -> String {
    switch key {
    case .digit: "0-9"
    case .programmer(.hexDigit): "A B C D E F"
    case .programmer(.bit): "bit0…bit63"
    case .op(.multiply): "*"
    default: key.canonical
    }
  }

  @Test(arguments: modes) func helpNamesEveryKeyOfTheMode(_ mode: Key.Mode) {
    let help = HelpText.help(style: .plain, mode: mode)
    // The key of the mode itself, which starts it afresh, is not one to learn here.
    for key in Self.keys(of: mode) where key != .mode(mode) {
      #expect(Self.names(help, Self.spelling(key)), "\(mode): \(key.canonical)")
    }
    // And no key of another mode as if it were one.
    if mode == .programmer {
      for absent in ["@ (√)", "q (x²)", "r (1/x)", "%", "sin"] {
        #expect(!help.contains(absent), "\(absent)")
      }
    }
  }

  @Test(arguments: modes) func helpNamesEveryCommandTheSliderNotesAndReferences(
    _ mode: Key.Mode
  ) {
    let help = HelpText.help(style: .plain, mode: mode)
    for command in CommandSpec.all {
      #expect(help.contains("  " + command.usage), "\(command.name)")
    }
    for word in ["$N", "# text", "Alt-←", "Alt-→", "Alt-↑", "Alt-↓", "PgUp", "PgDn", "note: …"] {
      #expect(help.contains(word), "\(word)")
    }
    for topic in ["keys", "slider", "ledger"] { #expect(help.contains(":help \(topic)")) }
    #expect(help.contains("a function follows its number: 30sin") == (mode == .scientific))
  }

  @Test func helpTopicsSayMore() throws {
    for command in CommandSpec.all {
      // `:help keys` is the keys' topic; `:help :keys` the command's.
      for topic in [command.name, ":" + command.name] where topic != "keys" {
        let text = try HelpText.topic(topic, style: .plain, mode: .standard, columns: nil)
        #expect(text.hasPrefix(command.usage + "\n"), "\(topic)")
        #expect(text.contains(command.summary))
        if !command.details.isEmpty { #expect(text.contains(command.details)) }
      }
    }
    let slider = try HelpText.topic("slider", style: .plain, mode: .standard, columns: nil)
    for function in Readline.sliderFunctions { #expect(slider.contains(function.name)) }
    for word in ["Alt-←", "Alt-→", "Alt-↑", "Alt-↓", "PgUp", "PgDn", "$if calc"] {
      #expect(slider.contains(word))
    }
    let ledger = try HelpText.topic("ledger", style: .plain, mode: .standard, columns: nil)
    for word in ["$N", ":find", ":vary", ":note", "# text", ":edit"] {
      #expect(ledger.contains(word), "\(word)")
    }
    for mode in Self.modes {
      let keys = try HelpText.topic("keys", style: .plain, mode: mode, columns: nil)
      for key in Self.keys(of: mode) where key != .mode(mode) {
        let spelled: String
        switch key {
        case .digit: spelled = "0-9"
        case .programmer(.hexDigit): spelled = "A-F"
        case .programmer(.bit): spelled = "bit0…bit63"
        default: spelled = key.canonical
        }
        #expect(Self.names(keys, spelled), "\(mode): \(spelled)")
      }
    }
  }

  @Test func helpTopicsThroughScriptsAndTheirErrors() throws {
    let run = try InProcess.run(
      ["-"], stdin: Data("prog\n:help keys\n".utf8), environment: posixLocale)
    #expect(run.stdout.hasPrefix("0\nKeys of Programmer mode, as key text (and their buttons):\n"))
    #expect(run.stdout.contains("  and (AND)  "))
    #expect(run.status == 0)
    try expectScript(
      ["-"], stdin: ":help frob\n", stdout: "",
      stderr: "<stdin>:1:7: no help on 'frob' (topics: keys, slider, ledger, or a command: "
        + ":help edit)\n", status: 65)
    // The live row names :help's topics as it names any command's argument.
    let interpreter = LineInterpreter(format: .posix)
    #expect(
      interpreter.preview(of: Array(":help".utf8))
        == .summary(":help [TOPIC] — keys and commands (also help); :help TOPIC says more"))
  }
}

/// Issue 45: README.md's first paragraph, and the one after the first example, name all three
/// keypads.
@Suite struct ReadmeNamesTheKeypadsTests {
  @Test func theFirstParagraphsNameEveryKeypad() throws {
    let readme = String(
      decoding: try Data(contentsOf: repositoryRoot.appendingPathComponent("README.md")),
      as: UTF8.self)
    let paragraphs = readme.components(separatedBy: "\n\n").filter {
      !$0.hasPrefix("#") && !$0.hasPrefix("```")
    }
    for paragraph in paragraphs.prefix(2) {
      for keypad in ["Standard", "Scientific", "Programmer"] {
        #expect(paragraph.contains(keypad), "\(paragraph)")
      }
    }
  }
}
