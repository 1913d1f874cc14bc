import Foundation
import Testing

/// SPEC §4, `:tape`: the completed calculations and the memory keys that changed or recalled
/// the memory, `:tape K` and `:tape N..M` counting steps up to the position, and `:tape csv`
/// to the output or, safely, to a file.
@Suite struct TapeTests {
  /// Steps: `1+2*3=` 1–6, `13.5` 7–10, `ms` 11, `22` 12–13, `m+` 14, `mr` 15, `5` 16, `mc` 17,
  /// and a second `mc` (18), which does nothing and is no row.
  static let script = "1+2*3=\n13.5ms\n22m+\nmr\n5mc\nmc\n"
  /// The note that `1+2*3=` on line `line` gets, the first such line of a run (SPEC v5 §5).
  static func leftToRight(line: Int, column: Int = 4) -> String {
    "<stdin>:\(line):\(column): note: Standard mode computes left to right (1 + 2 = 3, then × 3); "
      + "sci and formulas (calc -e) apply precedence\n"
  }

  @Test func memoryKeysAreRowsLikeOnAPrintingCalculator() throws {
    try expectScript(
      ["-"], stdin: Self.script + ":tape\n",
      stdout: "9\n13.5\n22\n35.5\n5\n5\n" + """
         4  1 + 2 = 3
         6  3 × 3 = 9
        11  MS 13.5
        14  M+ 22
        15  MR 35.5
        17  MC

        """, stderr: Self.leftToRight(line: 1))
    // A memory key while an error is shown does nothing: no row.
    try expectScript(
      ["-"], stdin: "1/0=\nms\n:tape\n",
      stdout: "Cannot divide by zero\n" + """
        Cannot divide by zero
        4  1 ÷ 0 = Cannot divide by zero

        """, status: 1)
  }

  /// Issue 22: time travel in every mode. A completed Scientific calculation is a row, written
  /// as its expression line; `:history` shows each step's line; `:goto` crosses a mode switch
  /// and the display follows; `:keys` writes the mode keys.
  @Test func scientificCalculationsAreRowsAndStepsCrossModes() throws {
    try expectScript(
      ["-"], stdin: "sci\n1+2*3=\n2*(3+4)^2=\nstd 1+2*3=\n:tape\n:goto 7\n:keys\n",
      stdout: "0\n7\n98\n9\n" + """
         7  1 + 2 × 3 = 7
        17  2 × (3 + 4) ^ 2 = 98
        22  1 + 2 = 3
        24  3 × 3 = 9
        7
        sci
        1+2*3=

        """, stderr: Self.leftToRight(line: 4, column: 8))
  }

  @Test func stepsCountAsInHistoryUpToThePosition() throws {
    try expectScript(
      ["-"], stdin: Self.script + ":tape 4\n:tape 5..14\n:goto 12\n:tape\n:tape 1..13\n",
      stdout: "9\n13.5\n22\n35.5\n5\n5\n" + "15  MR 35.5\n17  MC\n"
        + " 6  3 × 3 = 9\n11  MS 13.5\n14  M+ 22\n"
        + "2\n" + " 4  1 + 2 = 3\n 6  3 × 3 = 9\n11  MS 13.5\n",
      stderr: Self.leftToRight(line: 1) + "<stdin>:11:7: step 13 is out of range 0…12\n",
      status: 65)
  }

  @Test func csvToTheOutputAndToAFile() throws {
    try withTemporaryDirectory { directory in
      try expectScript(
        ["-"], stdin: "1000+2.5=\n2/3=\nms\n:tape csv\n:tape csv 10..14\n", directory: directory,
        stdout: "1002.5\n0.66666667\n0.66666667\n" + """
          step,expression,result,note
          9,1000 + 2.5 =,1002.5,
          13,2 ÷ 3 =,0.6666666666666666666666666666666667,
          14,MS,0.6666666666666666666666666666666667,
          step,expression,result,note
          13,2 ÷ 3 =,0.6666666666666666666666666666666667,
          14,MS,0.6666666666666666666666666666666667,

          """)
      try expectScript(
        ["-"], stdin: "1000+2.5=\n:tape csv tape.csv\n:tape csv 1..9 part.csv\n",
        directory: directory,
        stdout: "1002.5\nwrote the tape to tape.csv\nwrote the tape to part.csv\n")
      #expect(
        try Script.read("tape.csv", in: directory)
          == "step,expression,result,note\n9,1000 + 2.5 =,1002.5,\n")
      #expect(
        try Script.read("part.csv", in: directory)
          == "step,expression,result,note\n9,1000 + 2.5 =,1002.5,\n")
      // A FILE only after csv.
      try expectScript(
        ["-"], stdin: "1+1=\n:tape 3 x\n", directory: directory, stdout: "2\n",
        stderr:
          "<stdin>:2:9: :tape takes [csv|csv!] [K|N..M] [FILE], and a FILE only after csv, not 'x'\n",
        status: 65)
    }
  }
}
