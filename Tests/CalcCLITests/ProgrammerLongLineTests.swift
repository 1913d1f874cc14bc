import CalcTestSupport
import CalculatorEngine
import Foundation
import Testing

@testable import CalcCLI
@testable import CalcCore

/// A long Programmer key line run by `calc` (SPEC §7, "Long lines"), as
/// `RobustnessTests.aLongKeyLineStillWorks` runs a Standard one.
@Suite struct ProgrammerLongKeyLineTests {
  /// 5,000 pieces of the benchmark's mix (70,000 keys) by default, 50,000 with
  /// `CALC_LONG_TESTS=1`; before Programmer's expression line was shared (a copy per key), 64 KB
  /// of it took 3 s in a release build.
  @Test func aLongProgrammerKeyLineStillWorks() throws {
    let pieces = TestSize.count(short: 5_000, long: 50_000)
    let line = String(repeating: "1+2*((3+4)*5)+", count: pieces) + "1=\n"
    // `:goto -1` steps back over `=`, to the last operand typed.
    try expectScript(
      ["--mode", "programmer", "-"], stdin: line + ":goto -1\n",
      stdout: "\(71 * pieces + 1)\n1\n")
  }
}

/// The live display of a long Programmer line: its expression line is cut to the row's width
/// from its tokens' end, as Scientific's is, instead of written whole at every key.
@Suite struct ProgrammerLongLinePreviewTests {
  @Test(arguments: [1, 12, 39, 79])
  func theCutRowIsTheRowOfTheWholeLine(width: Int) throws {
    let format = DisplayFormat(localeIdentifier: "en_US")
    var interpreter = LineInterpreter(context: .init(format: format), host: .withFiles)
    try interpreter.run("prog hex", output: OutputBuffer())
    let line = Array((String(repeating: "1+2*((3+4)*5) rol+", count: 500) + "1").utf8)
    var cache = PreviewCache(interval: 8)
    let preview = cache.preview(of: line, interpreter: interpreter, format: format, width: width)
    let cut = try #require(preview)
    let whole = try #require(interpreter.preview(of: line))
    guard case .result(let expression, _) = cut else {
      Issue.record("\(cut)")
      return
    }
    #expect(expression.hasPrefix("…"))
    #expect(cut.row(width: width) == whole.row(width: width))
  }
}
