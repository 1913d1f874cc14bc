import CalcTestSupport
import Foundation
import Testing

@testable import CalcCLI

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
