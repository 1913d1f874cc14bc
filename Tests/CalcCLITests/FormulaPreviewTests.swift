import CalculatorEngine
import Foundation
import Testing

@testable import CalcCLI
@testable import CalcCore

/// The live row of a formula line (SPEC §12): it previews the result, closes open brackets,
/// ignores a trailing operator, sign, `e` or an unfinished name, and shows an error only for
/// what more typing cannot fix; in process, through ``LineInterpreter/preview(of:format:)``
/// and the REPL's cache (``PreviewCache``), which must agree.
@Suite struct FormulaPreviewTests {
  /// An interpreter in formula mode after `lines`.
  private func interpreter(after lines: [String]) throws -> LineInterpreter {
    var interpreter = LineInterpreter(context: .init(format: .posix), host: .withFiles)
    for line in ["fx"] + lines { try interpreter.run(line, output: OutputBuffer()) }
    return interpreter
  }

  @Test(arguments: [
    // A whole formula: its result, under the formula normalised.
    ("2^3", [String](), LivePreview.result(expression: "2 ^ 3 =", display: "8")),
    ("5*-2", [], .result(expression: "5 × −2 =", display: "-10")),
    ("2pi", [], .result(expression: "2π =", display: "6.28318531")),
    ("1/0+5", [], .result(expression: "1 ÷ 0 + 5 =", display: "Cannot divide by zero")),
    ("ans*2", ["3+4"], .result(expression: "$1 × 2 =", display: "14")),
    ("$1+1", ["3+4"], .result(expression: "$1 + 1 =", display: "8")),
    ("3*4.5 m+", [], .result(expression: "3 × 4.5 =", display: "13.5")),
    // Open brackets closed; a trailing operator, sign, `e` or unfinished name ignored.
    ("2*(3+4", [], .result(expression: "2 × (3 + 4) =", display: "14")),
    ("sqrt(16", [], .result(expression: "sqrt(16) =", display: "4")),
    ("2*(3+", [], .result(expression: "2 × (3) =", display: "6")),
    ("2^", [], .result(expression: "2 =", display: "2")),
    ("5*-", [], .result(expression: "5 =", display: "5")),
    ("1.5e-", [], .result(expression: "1.5 =", display: "1.5")),
    ("2*si", [], .result(expression: "2 =", display: "2")),
    ("2+sin", [], .result(expression: "2 =", display: "2")),
    ("2+sin(", [], .result(expression: "2 =", display: "2")),
    ("log(8,", [], .result(expression: "log(8) =", display: "0.90308999")),
    ("10 mo", [], .result(expression: "10 =", display: "10")),
    ("(1+2)*(3", [], .result(expression: "(1 + 2) × (3) =", display: "9")),
    ("2*(3+4 ms", [], .result(expression: "2 × (3 + 4) =", display: "14")),
    ("2*(3+4 # a note", [], .result(expression: "2 × (3 + 4) =", display: "14")),
    // Nothing left: the state as it is.
    ("si", ["7"], .result(expression: "7 =", display: "7")),
    // What more typing cannot fix: the error Enter gives.
    ("2 3", [], .error("two numbers in a row at column 3; write 2*3")),
    ("2 3+", [], .error("two numbers in a row at column 3; write 2*3")),
    ("sinx", [], .error("unknown name 'sinx' at column 1 (sin(x)?)")),
    ("1+2)", [], .error("unbalanced ) at column 4")),
    ("ans", [], .error("ans: no earlier result")),
  ])
  func previewOfAFormula(line: String, before: [String], expected: LivePreview) throws {
    let interpreter = try interpreter(after: before)
    #expect(interpreter.preview(of: Array(line.utf8)) == expected)
    var cache = PreviewCache()
    #expect(
      cache.preview(of: Array(line.utf8), interpreter: interpreter, format: .posix) == expected)
  }

  /// Typing a formula key by key: every prefix previews what it means so far.
  @Test func typingAFormula() throws {
    let interpreter = try interpreter(after: [])
    var cache = PreviewCache()
    var rows: [String] = []
    for end in 1..."2^(1+2)".count {
      let line = Array("2^(1+2)".prefix(end).utf8)
      let preview = cache.preview(of: line, interpreter: interpreter, format: .posix)
      rows.append(preview?.row(width: 80) ?? "")
    }
    #expect(
      rows == [
        "2 =   2", "2 =   2", "2 =   2", "2 ^ (1) =   2", "2 ^ (1) =   2", "2 ^ (1 + 2) =   8",
        "2 ^ (1 + 2) =   8",
      ])
  }

  /// A formula's preview changes nothing: the session is as it was.
  @Test func thePreviewChangesNothing() throws {
    let interpreter = try interpreter(after: ["3+4"])
    let (count, position) = (
      interpreter.session.history.count, interpreter.session.history.position
    )
    #expect(
      interpreter.preview(of: Array("ans*2+sqrt(".utf8))
        == .result(expression: "$1 × 2 =", display: "14"))
    #expect(interpreter.session.history.count == count)
    #expect(interpreter.session.history.position == position)
    #expect(interpreter.format.text(for: interpreter.session.state) == "7")
  }
}
