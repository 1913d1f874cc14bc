import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Messages say what happened (issue 46): a `$N` is quoted as typed, `:lines` speaks of lines,
/// a failed write of a new file does not call it unchanged, and a note with bytes that are not
/// UTF-8 is rejected with its column, as key text is (SPEC §8, §11).
@Suite struct MessagesSayWhatHappenedTests {
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
