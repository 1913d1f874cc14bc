import CalcTestSupport
import Foundation
import Testing

@testable import CalcCLI

/// `:vary` and `:find` write a formula line as `:lines` does (SPEC §12): with `fx` only where
/// another mode is in force before it.
@Suite struct FormulaLedgerTests {
  @Test func inFormulaModeTheLineIsWrittenAsTyped() throws {
    try expectScript(
      ["--mode", "formula", "--plain", "-"], stdin: "2^3\n$1+1\n:vary 1 2 | 3^2\n:find 9\n",
      stdout: "8\n9\n"
        + "  branch  line 1    after 1   after 2\n"
        + "▶      1  2^3       8         9\n"
        + "       2  2         2         3\n"
        + "       3  3^2       9         10\n"
        + "  branch  line  step  keys  display\n"
        + "       1     2     3  $1+1  9\n"
        + "       3     1     2  3^2   9\n")
  }

  @Test func afterAnotherModeTheLineKeepsItsModeWord() throws {
    try expectScript(
      ["--plain", "-"], stdin: "sci 1+2=\nfx 2^3\n:vary 2 2\n:find 8\n",
      stdout: "3\n8\n"
        + "  branch  line 2    after 2\n"
        + "▶      1  fx 2^3    8\n"
        + "       2  2         2\n"
        + "  branch  line  step  keys    display\n"
        + "       1     2     6  fx 2^3  8\n")
  }
}
