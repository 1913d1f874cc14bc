import CalculatorEngine
import Foundation
import Testing

/// SPEC §4's "format 2 and older are read as before" for line numbers: a file or journal of
/// format 2 (or the older header) counts a lone mode key first line as line 1, as calc did
/// before the mode line became line 0 (SPEC §11), through `calc FILE`, `:load` and `--resume`;
/// the same commands in format 3 and in a hand-written script count it as line 0. The expected
/// branches, keys and displays are what main at c333ab4 (which counted the old way) printed for
/// the same files.
@Suite struct OldLineNumberingTests {
  /// A branch that starts with a lone `sci`, then an edit, an insertion and a deletion.
  static let body = """
    sci
    12+3=
    *2=
    -1=
    *3=
    :edit 3 *4=
    :insert 3 +5=
    :delete 4

    """

  /// The headers that count the mode line as line 1.
  static let oldHeaders = [
    "# calc session, format 2: 1 branch, at step 15 of 15 on branch 1\n",
    "# calc session: 1 branch, at step 15 of 15 on branch 1\n",
  ]

  /// `:branches` and `:keys` after the old numbering: lines 3 and 4 were `*2=` and `*4=`
  /// (c333ab4's output).
  static let asBefore = """
      branch  leaves  steps  display  last keys
           1             15  87       sci12+3=×2=-1=×3=
           2  1 at 6     15  177      sci12+3=×4=-1=×3=
           3  1 at 6     18  237      sci12+3=+5=×4=-1=×3=
    ▶      4  3 at 9     15  57       sci12+3=+5=-1=×3=
    sci
    12+3=
    +5=
    -1=
    *3=

    """

  /// `:branches` and `:keys` after today's numbering: lines 3 and 4 were `-1=` and `*4=`
  /// (c333ab4's output for the same script with each line number one higher).
  static let numberedFromZero = """
      branch  leaves   steps  display  last keys
           1              15  87       sci12+3=×2=-1=×3=
           2  1 at 9      15  360      sci12+3=×2=×4=×3=
           3  1 at 9      18  420      sci12+3=×2=+5=×4=×3=
    ▶      4  3 at 12     15  105      sci12+3=×2=+5=×3=
    sci
    12+3=
    *2=
    +5=
    *3=

    """

  /// `calc FILE`: the same displays as c333ab4; the summaries name the changed line as
  /// `:lines` lists it today (c333ab4 said lines 3, 3 and 4: the file's numbers).
  @Test(arguments: oldHeaders)
  func calcFileReplaysAnOldFileAsBefore(header: String) throws {
    try withTemporaryDirectory { directory in
      try (header + Self.body + ":branches\n:keys\n").write(
        to: directory.appendingPathComponent("old.calc"), atomically: true, encoding: .utf8)
      try expectScript(
        ["old.calc"], directory: directory,
        stdout: "0\n15\n30\n29\n87\n"
          + "branch 2 (from branch 1): line 2 changed; 3 results changed: 30 → 60 (step 9), "
          + "29 → 59 (step 12), 87 → 177 (step 15)\n177\n"
          + "branch 3 (from branch 2): line 2 inserted; 3 results changed: 60 → 80 (step 12), "
          + "59 → 79 (step 15), 177 → 237 (step 18)\n237\n"
          + "branch 4 (from branch 3): line 3 deleted; 2 results changed: 79 → 19 (step 12), "
          + "237 → 57 (step 15)\n57\n" + Self.asBefore)
    }
  }

  /// `:load` of a format-2 file and of one with the older header: c333ab4's session.
  @Test(arguments: oldHeaders)
  func loadReplaysAnOldFileAsBefore(header: String) throws {
    try withTemporaryDirectory { directory in
      try (header + Self.body).write(
        to: directory.appendingPathComponent("old.calc"), atomically: true, encoding: .utf8)
      let note =
        header.hasPrefix("# calc session:")
        ? "<stdin>:1:7: note: 'old.calc' was saved before numbers stopped continuing across "
          + "lines; each of its lines now starts a new number\n" : ""
      try expectScript(
        ["-"], stdin: ":load old.calc\n:branches\n:keys\n", directory: directory,
        stdout: "57\n" + Self.asBefore, stderr: note)
    }
  }

  /// `--resume` of a format-2 journal: c333ab4's session.
  @Test func resumeReplaysAFormatTwoJournalAsBefore() throws {
    try withTemporaryDirectory { directory in
      let folder = directory.appendingPathComponent(".local/state/calc")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try ("# calc journal, format 2\n" + Self.body).write(
        to: folder.appendingPathComponent("20261125T000000.000000Z-1.calc"), atomically: true,
        encoding: .utf8)
      try expectScript(
        ["--resume", "-"], stdin: ":branches\n:keys\n",
        environment: ["HOME": directory.path, "XDG_STATE_HOME": nil], stdout: Self.asBefore)
    }
  }

  /// Format 3 and a hand-written script count the mode line as line 0, through `calc FILE`
  /// and `:load`.
  @Test(arguments: ["# calc session, format 3: 1 branch, at step 15 of 15 on branch 1\n", ""])
  func formatThreeAndHandWrittenScriptsNumberTheModeLineZero(header: String) throws {
    try withTemporaryDirectory { directory in
      try (header + Self.body).write(
        to: directory.appendingPathComponent("new.calc"), atomically: true, encoding: .utf8)
      try expectScript(
        ["-"], stdin: ":load new.calc\n:branches\n:keys\n", directory: directory,
        stdout: "105\n" + Self.numberedFromZero)
      try (header + Self.body + ":branches\n:keys\n").write(
        to: directory.appendingPathComponent("run.calc"), atomically: true, encoding: .utf8)
      try expectScript(
        ["run.calc"], directory: directory,
        stdout: "0\n15\n30\n29\n87\n"
          + "branch 2 (from branch 1): line 3 changed; 2 results changed: 29 → 120 (step 12), "
          + "87 → 360 (step 15)\n360\n"
          + "branch 3 (from branch 2): line 3 inserted; 2 results changed: 120 → 140 (step 15), "
          + "360 → 420 (step 18)\n420\n"
          + "branch 4 (from branch 3): line 4 deleted; 1 result changed: 420 → 105 (step 15)\n"
          + "105\n" + Self.numberedFromZero)
    }
  }

  /// What an old file did to its line 1, the mode line, today's numbering keeps from happening
  /// (SPEC §11): refused, naming the file's line and why, with nothing after it replayed.
  @Test(
    arguments: [
      (":edit 1 std", 7, "change it"), (":delete 1", 9, "change it"),
      (":insert 1 5=", 9, "put a line before it"), (":note 1 mode", 7, "change it"),
    ] as [(String, Int, String)])
  func changingTheModeLineOfAnOldFileIsRefused(line: String, column: Int, why: String) throws {
    let name = line.dropFirst().prefix { $0 != " " }
    let message =
      ":\(name) 1 names the mode line (sci), which a file of format 2 or older counts as line "
      + "1: calc now numbers it 0 and keeps it, so this file cannot \(why) (SPEC §11)"
    try withTemporaryDirectory { directory in
      try ("# calc session, format 2: x\nsci\n12+3=\n" + line + "\n*2=\n").write(
        to: directory.appendingPathComponent("old.calc"), atomically: true, encoding: .utf8)
      try expectScript(
        ["old.calc"], directory: directory, stdout: "0\n15\n",
        stderr: "old.calc:4:\(column): \(message)\n", status: 65)
      try expectScript(
        ["-"], stdin: ":load old.calc\n", directory: directory, stdout: "",
        stderr: "<stdin>:1:7: cannot load 'old.calc': old.calc:4:\(column): \(message)\n",
        status: 65)
    }
  }

  /// A refusal that names a line of an old file gives the file's number beside today's; one
  /// in the keys does not.
  @Test(
    arguments: [
      (":edit 10 5=", "4:8: no line 9 (this branch has line 1) (the file's :edit 10, "),
      (
        ":edit 2",
        "4:8: :edit 1 needs the line's keys after the number: :edit 1 12+4= "
          + "(or :delete 1) (the file's :edit 2, "
      ),
      (":vary 12 5=", "4:7: no line 11 (this branch has line 1) (the file's :vary 12, "),
      (":edit 2 5x=", "4:10: unknown key 'x' at column 10 (× is '*')\n"),
    ] as [(String, String)])
  func aRefusalNamesTheFilesNumber(line: String, stderr: String) throws {
    try withTemporaryDirectory { directory in
      try ("# calc session, format 2: x\nsci\n12+3=\n" + line + "\n").write(
        to: directory.appendingPathComponent("old.calc"), atomically: true, encoding: .utf8)
      let why = stderr.hasSuffix("\n") ? "" : "which counts the mode line as line 1)\n"
      try expectScript(
        ["old.calc"], directory: directory, stdout: "0\n15\n",
        stderr: "old.calc:" + stderr + why, status: 65)
    }
  }
}
