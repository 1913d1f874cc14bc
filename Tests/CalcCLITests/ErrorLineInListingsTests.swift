import Foundation
import Testing

/// SPEC §3.1 after an error, through the front end: `:history` and `:tape` read the engine's
/// expression line, so that a failed `=` in Scientific and Programmer modes shows the
/// calculation that failed with its `=`, in the listings as on the screen; a failed `=` is a
/// tape row as in Standard mode (`:tape csv` in DEC); and no "not finished" note follows an
/// error, since nothing waits for `=` then (rule 14).
@Suite struct ErrorLineInListingsTests {
  @Test func programmerHistoryAndTapeShowTheFailedCalculation() throws {
    try expectScript(
      ["-"], stdin: "prog\nhex F/0=\n7 mod 0=\n2+3=\n:history 3..6\n:tape\n:tape csv\n",
      stdout: "0\nCannot divide by zero\nResult is undefined\n5\n"
        + "  step  key  expression  display\n"
        + "     3  F                F\n"
        + "     4  ÷    F ÷         F\n"
        + "     5  0    F ÷         0\n"
        + "     6  =    F ÷ 0 =     Cannot divide by zero\n"
        + "[━━━━━━━━━━━━━━●] 14/14\n"
        + " 6  F ÷ 0 = Cannot divide by zero\n10  7 Mod 0 = Result is undefined\n14  2 + 3 = 5\n"
        + "step,expression,result,note\n6,15 ÷ 0 =,Cannot divide by zero,\n"
        + "10,7 Mod 0 =,Result is undefined,\n14,2 + 3 =,5,\n",
      status: 1)
  }

  @Test func scientificHistoryAndTapeShowTheFailedCalculation() throws {
    try expectScript(
      ["-"], stdin: "sci\n2*(3/0=\n:history 7..8\n:tape\n",
      stdout: "0\nCannot divide by zero\n"
        + "  step  key  expression     display\n"
        + "     7  0    2 × (3 ÷       0\n"
        + "▶    8  =    2 × (3 ÷ 0) =  Cannot divide by zero\n"
        + "[━━━━━━━━●] 8/8\n"
        + "8  2 × (3 ÷ 0) = Cannot divide by zero\n",
      status: 1)
  }

  /// An operator that failed leaves no operation waiting: no note, in any mode.
  @Test(arguments: ["7/0+", "sci 7/0+", "sci 1+(2/0)", "prog 7/0+", "prog 5 lsh 64 and"])
  func noPendingNoteAfterAnError(_ keys: String) throws {
    let display = keys.hasSuffix("and") ? "Result not defined" : "Cannot divide by zero"
    try expectScript(["-k", keys], stdout: display + "\n", stderr: "", status: 1)
  }
}
