import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Messages say what happened (issue 46): a `$N` is quoted as typed, `:lines` speaks of lines,
/// a failed write of a new file does not call it unchanged, and a note with bytes that are not
/// UTF-8 is rejected with its column, as key text is (SPEC §8, §11).
@Suite struct MessagesSayWhatHappenedTests {
  @Test func aReferenceIsQuotedAsTyped() throws {
    try expectScript(
      ["--keep-going", "-"],
      stdin: "12+3=\n$99999999999999999999*2=\n$007=\n:edit 1 $99999999999999999999\n"
        + ":insert 1 2+$05=\n",
      stdout: "15\n15\n15\n",
      stderr: "<stdin>:2:1: $99999999999999999999 refers to line 99999999999999999999; this is "
        + "line 2 (a line can use only the lines before it) at column 1\n"
        + "<stdin>:3:1: $007 refers to line 7; this is line 2 (a line can use only the lines "
        + "before it) at column 1\n"
        + "<stdin>:4:7: $99999999999999999999 refers to line 99999999999999999999; this is "
        + "line 1 (a line can use only the lines before it)\n"
        + "<stdin>:5:9: $05 refers to line 5; this is line 1 (a line can use only the lines "
        + "before it)\n",
      status: 65)
  }

  @Test func linesSpeaksOfLines() throws {
    try expectScript(
      ["--keep-going", "-"], stdin: "12+3=\n:lines 0\n:lines x\n:history 0\n",
      stdout: "15\n",
      stderr: "<stdin>:2:8: :lines takes a number of lines from 1, not '0'\n"
        + "<stdin>:3:8: :lines takes K (the last K lines) or N..M (lines N to M), not 'x'\n"
        + "<stdin>:4:10: :history takes a number of steps from 1, not '0'\n",
      status: 65)
  }

  /// On a read-only file system, a new file is not "unchanged": there was none. An existing
  /// one is.
  @Test(.enabled(if: SaveInPlaceTests.canMount, "needs root to mount a read-only tmpfs"))
  func aFailedSaveOfANewFileSaysNoneWasMade() throws {
    try withTemporaryDirectory { directory in
      let disk = directory.appendingPathComponent("ro")
      try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: false)
      try #require(mount("tmpfs", disk.path, "tmpfs", 0, "size=64k,mode=0755") == 0)
      defer { umount2(disk.path, Int32(MNT_DETACH)) }
      try Script.write("old\n", to: "old.calc", in: disk)
      try #require(
        mount("tmpfs", disk.path, "tmpfs", UInt(MS_REMOUNT | MS_RDONLY), "size=64k,mode=0755")
          == 0)
      let run = try Script.runInProcess(
        "12+3=\n:save ro/new.calc\n:tape csv ro/new.csv\n:save ro/old.calc\n"
          + ":save ro/nofolder/new.calc\n",
        arguments: ["--keep-going"], in: directory)
      #expect(
        run.stderr
          == "<stdin>:2:7: cannot save 'ro/new.calc': Read-only file system; 'ro/new.calc' was "
          + "not created\n"
          + "<stdin>:3:7: cannot write 'ro/new.csv': Read-only file system; 'ro/new.csv' was not "
          + "created\n"
          + "<stdin>:4:7: cannot save 'ro/old.calc': Read-only file system; 'ro/old.calc' is "
          + "unchanged\n"
          + "<stdin>:5:7: cannot save 'ro/nofolder/new.calc': No such file or directory; "
          + "'ro/nofolder/new.calc' was not created\n")
      #expect(try Script.read("old.calc", in: disk) == "old\n")
    }
  }

  /// A note's bytes that are not UTF-8 reject the line at their column, wherever the note is
  /// given; the line changes nothing. Key text says the same of such a byte.
  @Test func aNoteThatIsNotUTF8IsRejectedWithItsColumn() throws {
    let lines: [[UInt8]] = [
      Array("12+3= # r".utf8) + [0xFF] + Array("nt".utf8),
      Array(":note 1 a".utf8) + [0xC3],
      Array(":edit 1 5= # x".utf8) + [0x80],
      Array(":insert 1 7=  #  y".utf8) + [0xFE],
      Array("1".utf8) + [0xFF],
      Array(":lines".utf8),
    ]
    let run = try InProcess.run(
      ["--keep-going", "-"],
      stdin: Data(Array("12+3=\n".utf8) + lines.joined(separator: [10]) + [10]),
      environment: posixLocale)
    #expect(
      run.stderr
        == "<stdin>:2:10: invalid UTF-8 byte \\x{FF} at column 10 (in the note)\n"
        + "<stdin>:3:10: invalid UTF-8 byte \\x{C3} at column 10 (in the note)\n"
        + "<stdin>:4:15: invalid UTF-8 byte \\x{80} at column 15 (in the note)\n"
        + "<stdin>:5:19: invalid UTF-8 byte \\x{FE} at column 19 (in the note)\n"
        + "<stdin>:6:2: invalid UTF-8 byte \\x{FF} at column 2\n")
    #expect(run.stdout.hasSuffix("  line  step  keys   display\n▶    1     1  12+3=  15\n"))
    #expect(run.status == 65)
  }

  /// A file (`:load`, `--resume`) with such a note is refused at that line, as with such a key.
  @Test func aFileWithANoteThatIsNotUTF8IsRefusedAtItsLine() throws {
    try withTemporaryDirectory { directory in
      let bytes = Array("12+3=\n*2= # caf".utf8) + [0xE9] + [10]
      try Data(bytes).write(to: directory.appendingPathComponent("f.calc"))
      let run = try Script.runInProcess(":load f.calc\n", in: directory)
      #expect(
        run.stderr
          == "<stdin>:1:7: cannot load 'f.calc': f.calc:2:10: invalid UTF-8 byte \\x{E9} at "
          + "column 10 (in the note)\n")
      #expect(run.status == 65)
    }
  }
}
