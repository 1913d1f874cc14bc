import CalculatorEngine
import Testing

@testable import CalcCore

/// A key line of at most `LineInterpreter.shortLine` bytes is read over the keys of the line
/// before; a longer one is parsed by `ScriptLine`. Both give the same display, notes, errors and
/// trailing-comment note.
///
/// Lines in POSIX, read in Standard mode.
@Suite struct ShortKeyLineTests {
  /// Lines run one after the other: each once as it is (short) and once padded with blanks past
  /// `shortLine` (long), in two interpreters that must agree line by line.
  static let lines = [
    "123.45*6.7=", "1+2", "=", "5..5=", "2++3=", "+4=", "$1+1=", "1/0=", "7  # seven",
    "12x3", "99999999999999999999+1=", "c", "8@2=",
  ]

  @Test func shortAndLongLinesAgree() {
    var short = LineInterpreter(format: .posix)
    var long = LineInterpreter(format: .posix)
    for line in Self.lines {
      // The blanks go after the last key, before any comment: the keys and their columns stay
      // the same.
      let keyText = line.prefix { $0 != "#" }
      let padded =
        String(keyText) + String(repeating: " ", count: LineInterpreter.shortLine)
        + String(line.dropFirst(keyText.count))
      #expect(padded.utf8.count > LineInterpreter.shortLine)
      let (shortText, shortOutcome) = Self.run(line, in: &short)
      let (longText, longOutcome) = Self.run(padded, in: &long)
      #expect(shortText == longText, "\(line)")
      #expect(shortOutcome == longOutcome, "\(line)")
    }
    // The lines with their notes (the trailing comment's): the same.
    #expect(Self.run(":lines", in: &short) == Self.run(":lines", in: &long))
    #expect(Self.run(":lines", in: &short).0.contains("seven"))
  }

  /// The display, and the notes or the error with its column, of `line`.
  static func run(_ line: String, in interpreter: inout LineInterpreter) -> (String, String) {
    let output = OutputBuffer()
    do {
      let result = try interpreter.run(line, output: output)
      let notes = result.notes.map { "\($0.column): \($0.message)" }
      return (output.text, notes.joined(separator: "\n") + " error shown: \(result.showedAnError)")
    } catch {
      return (output.text, "\(error.column): \(error.message)")
    }
  }
}
