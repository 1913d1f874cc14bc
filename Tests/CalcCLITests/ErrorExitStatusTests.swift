import CalculatorEngine
import Foundation
import Testing

/// A script or `--keys` that ends showing an error exits 1 in every mode (SPEC §5): the status
/// reads the current mode's error state (``Calculator/isError``), never another mode's. `prog
/// 100/0=` exited 0 while the front end read Standard mode's brain in Programmer mode (issue 47).
@Suite struct ErrorExitStatusTests {
  @Test(arguments: ["", "sci ", "prog "])
  func anErrorShownAtTheEndExitsOneInEveryMode(mode: String) throws {
    let keys = try InProcess.run(["-k", mode + "100/0="])
    #expect(keys.stdout == "Cannot divide by zero\n", "calc -k '\(mode)100/0='")
    #expect(keys.status == 1, "calc -k '\(mode)100/0='")
    let script = try InProcess.run([], stdin: Data((mode + "100/0=\n").utf8))
    #expect(script.stdout == "Cannot divide by zero\n", "'\(mode)100/0=' on stdin")
    #expect(script.status == 1, "'\(mode)100/0=' on stdin")
  }
}
