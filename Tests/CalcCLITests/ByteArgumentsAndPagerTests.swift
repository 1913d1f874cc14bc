import CalcTestSupport
import Foundation
import Testing

@testable import CalcCLI

#if canImport(Glibc)
  import Glibc
#endif

/// File operands and `--keys` taken byte for byte from the command line (SPEC §8), and a
/// `$PAGER` that cannot be run or fails (SPEC §6): issue 17, items 4 and 5.
@Suite struct ByteArgumentsAndPagerTests {
  // MARK: - Arguments as bytes

  /// Creates the file `name` (bytes, which need not be UTF-8) in `directory`, holding `text`.
  private func create(_ name: [UInt8], holding text: String, in directory: URL) throws {
    let path = Array(directory.path.utf8) + [UInt8(ascii: "/")] + name + [0]
    let fd = path.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) {
        open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
      }
    }
    try #require(fd >= 0)
    defer { close(fd) }
    let bytes = Array(text.utf8)
    #expect(write(fd, bytes, bytes.count) == bytes.count)
  }

  /// `caf\xE9.calc`: é in Latin-1, not UTF-8.
  private static let latin1Name = Array("caf".utf8) + [0xE9] + Array(".calc".utf8)

  /// The name that the Latin-1 one decodes to: U+FFFD in place of its byte.
  private static let replacementName = "caf\u{FFFD}.calc"

  @Test func aFileNamedInLatin1IsReadByItsBytes() throws {
    try withTemporaryDirectory { directory in
      try create(Self.latin1Name, holding: "12+3=\n", in: directory)
      try Script.write("99=\n", to: Self.replacementName, in: directory)
      let run = try Script.shell(#""$CALC" "$(printf 'caf\351.calc')""#, in: directory)
      #expect(run.stdout == "15\n")
      #expect(run.stderr == "")
      #expect(run.status == 0)
      // The name with U+FFFD is another file, read when it is named.
      let other = try Script.shell(#""$CALC" "$(printf 'caf\357\277\275.calc')""#, in: directory)
      #expect(other.stdout == "99\n")
    }
  }

  @Test func aMissingFileNamedInLatin1IsNamedEscapedAndNoOtherFileIsRead() throws {
    try withTemporaryDirectory { directory in
      try Script.write("99=\n", to: Self.replacementName, in: directory)
      for command in [
        #""$CALC" "$(printf 'caf\351.calc')""#,
        #""$CALC" --plain -- - "$(printf 'caf\351.calc')" </dev/null"#,
      ] {
        let run = try Script.shell(command, in: directory)
        #expect(run.stdout == "", "\(command)")
        #expect(
          run.stderr == "calc: cannot read 'caf\\x{E9}.calc': No such file or directory\n",
          "\(command)")
        #expect(run.status == 66, "\(command)")
      }
    }
  }

  /// A script in a folder whose name is not UTF-8 loads its neighbours from that folder.
  @Test func aScriptInAFolderNamedInLatin1LoadsFromThatFolder() throws {
    try withTemporaryDirectory { directory in
      let folder = Array("d".utf8) + [0xE9]
      let path = Array(directory.path.utf8) + [UInt8(ascii: "/")] + folder + [0]
      let made = path.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { mkdir($0.baseAddress!, 0o755) }
      }
      try #require(made == 0)
      let slash = [UInt8(ascii: "/")]
      try create(folder + slash + Array("a.calc".utf8), holding: ":load s.calc\n", in: directory)
      try create(folder + slash + Array("s.calc".utf8), holding: "7\n", in: directory)
      let run = try Script.shell(#""$CALC" "$(printf 'd\351/a.calc')""#, in: directory)
      #expect(run.stdout == "7\n")
      #expect(run.stderr == "")
    }
  }

  @Test(arguments: [
    (#"-k "$(printf '\377')""#, "FF", 1), (#"--keys "$(printf '1+\377')""#, "FF", 3),
    (#""--keys=$(printf '12\377')""#, "FF", 3), (#"-k "$(printf '\303')" --no-journal"#, "C3", 1),
    (#"--plain -k "$(printf '\351t\351')""#, "E9", 1),
  ])
  func keysThatAreNotUTF8NameTheirByte(arguments: String, byte: String, column: Int) throws {
    try withTemporaryDirectory { directory in
      let run = try Script.shell(#""$CALC" "# + arguments, in: directory)
      #expect(
        run.stderr == "calc: --keys: invalid UTF-8 byte \\x{\(byte)} at column \(column)\n",
        "\(arguments)")
      #expect(run.stdout == "")
      #expect(run.status == 65)
    }
  }

  /// The bytes of `text`, with `\u{FFFD}` standing for the byte 0xFF (not UTF-8).
  private static func bytes(_ text: String) -> [UInt8] {
    text.unicodeScalars.flatMap { $0 == "\u{FFFD}" ? [0xFF] : Array(String($0).utf8) }
  }

  /// Where names that decode alike come from: the argument at their own place.
  @Test func namesThatDecodeAlikeAreTakenFromTheirPlace() throws {
    let cases: [(arguments: [[UInt8]], files: [[UInt8]])] = [
      // The locale's 0xFF and the file's U+FFFD both decode to U+FFFD.
      ([Self.bytes("--locale"), [0xFF], Array("\u{FFFD}".utf8)], [Array("\u{FFFD}".utf8)]),
      ([Self.bytes("--locale"), Array("\u{FFFD}".utf8), [0xFF]], [[0xFF]]),
      // After `--`, `-k` is a file; `é` and `e` + U+0301 are equal strings, not equal names.
      (
        [
          Self.bytes("--locale"), Array("é".utf8), Self.bytes("--"), Self.bytes("-k"),
          Array("e\u{301}".utf8),
        ], [Self.bytes("-k"), Array("e\u{301}".utf8)]
      ),
      (
        [[0xFF], Self.bytes("--plain"), Array("\u{FFFD}".utf8), [0xFF]],
        [[0xFF], Array("\u{FFFD}".utf8), [0xFF]]
      ),
    ]
    for (arguments, files) in cases {
      let decoded = arguments.map { String(decoding: $0, as: UTF8.self) }
      var invocation = try CalcCommand.parse(decoded).invocation
      invocation.takeBytes(from: arguments)
      #expect(invocation.fileNames?.map(\.bytes) == files, "\(decoded)")
    }
    var keys = try #require(CalcCommand.quickParse(["--locale", "\u{FFFD}", "-k", "\u{FFFD}"]))
    keys.takeBytes(from: [Self.bytes("--locale"), [0xFF], Self.bytes("-k"), [0xEF, 0xBF, 0xBD]])
    #expect(keys.keyBytes == [0xEF, 0xBF, 0xBD])
  }

  /// Random argument lists (300; 4,000 with `CALC_LONG_TESTS=1`: ArgumentParser takes about
  /// 10 ms a parse): wherever ArgumentParser accepts one, the places found for its key text and
  /// FILEs hold exactly what it parsed.
  @Test func placesAgreeWithArgumentParser() {
    let words = [
      "--keys", "-k", "--keys=", "--keys=1+", "-k=2", "--trace", "--plain", "--locale",
      "--locale=de_DE", "de_DE", "12+3=", "", "-", "--", "file", "-5=", "--resume",
      "--no-journal", "\u{FFFD}", "=",
    ]
    var random = SplitMix64(state: 17)
    var accepted = 0
    let count = TestSize.count(short: 300, long: 4000)
    for _ in 0..<count {
      let arguments = (0..<random.int(0...5)).map { _ in words[random.below(words.count)] }
      guard let parsed = try? CalcCommand.parse(arguments).invocation else { continue }
      accepted += 1
      let bytes = arguments.map { Array($0.utf8) }
      let places = Invocation.places(in: bytes)
      #expect(places.files.map { arguments[$0] } == parsed.files, "\(arguments) (seed 17)")
      let keys = places.keys.map { String(decoding: bytes[$0.index][$0.offset...], as: UTF8.self) }
      #expect(keys == parsed.keys, "\(arguments) (seed 17)")
    }
    #expect(accepted > count / 10)
  }

  // MARK: - A pager that cannot be run or fails

  /// A REPL session in `directory` with `PAGER` set to `pager`, past its start-up line.
  private func startCalc(in directory: URL, pager: String) throws -> TerminalSession {
    try "".write(
      to: directory.appendingPathComponent(".inputrc"), atomically: true, encoding: .utf8)
    let calc = try TerminalSession(
      directory: directory,
      environment: [
        "HOME": directory.path, "NO_COLOR": "1", "PAGER": pager,
        "PATH": directory.path + ":/usr/bin:/bin",
      ])
    try calc.wait(for: "the start-up line and a prompt") { calc in
      calc.lines.count == 2 && calc.lines[1] == "calc> "
    }
    calc.skippedLines = 1
    return calc
  }

  /// The `:history` listing after `keys`, as a script prints it.
  private func listing(_ keys: String, in directory: URL) throws -> [String] {
    let run = try Script.run(keys + "\n:history\n", in: directory)
    return run.stdout.split(separator: "\n").dropFirst().map(String.init)
  }

  /// Types `line` and waits for the screen to end with it, `output` and the prompt.
  private func enter(_ line: String, in calc: TerminalSession, expect output: [String]) throws {
    try calc.type(line + "\r")
    try calc.waitForLastLines(["calc> " + line] + output + ["calc> "], timeout: .seconds(30))
  }

  @Test(arguments: [
    ("false", "failed (exit status 1)"),
    ("/nonexistent/pager", "not run (No such file or directory)"),
    ("/nonexistent/pager -R", "not run (No such file or directory)"),
    ("/nonexistent/pager 2>/dev/null", "not run (command not found)"),
    ("exit 3;", "failed (exit status 3)"),
  ])
  func aPagerThatCannotRunOrFailsLeavesTheWholeOutputOnTheScreen(pager: String, why: String)
    throws
  {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory, pager: pager)
      // 42 rows: more than the 40 of the screen.
      let keys = String(repeating: "1+", count: 20)
      try enter(keys, in: calc, expect: ["20 +", "20"])
      let note = "calc: note: pager '\(pager)' \(why); output follows"
      try enter(":history", in: calc, expect: [note] + listing(keys, in: directory))
      // The session goes on, and pages again (failing again) the next time.
      try enter("1=", in: calc, expect: ["20 + 1 =", "21"])
      try enter(":history", in: calc, expect: [note] + listing(keys + "1=", in: directory))
      try calc.type(":quit\r")
      #expect(try calc.waitForExit() == 0)
    }
  }

  /// A pager that fails after the pipe to it has filled (more output than it holds): the whole
  /// output still follows the note, and the listing is not cut short.
  @Test func aPagerThatFailsOnALongListingLosesNothing() throws {
    try withTemporaryDirectory { directory in
      // Reads one line, then fails: calc meets a closed pipe in the middle of the listing.
      let pager = try Script.write(
        "#!/bin/sh\nIFS= read -r line\nexit 2\n", to: "fails.sh", in: directory)
      chmod(pager.path, 0o755)
      // Found on PATH, so that the note fits on one row of the screen.
      let calc = try startCalc(in: directory, pager: "fails.sh")
      let line = String(repeating: "1+", count: 50) + "\n"
      try Script.write(String(repeating: line, count: 40), to: "long.calc", in: directory)
      try enter(":load long.calc", in: calc, expect: ["2,000 +", "2,000"])
      let script = try Script.run(":load long.calc\n:history\n", in: directory)
      let rows = script.stdout.split(separator: "\n").dropFirst().map(String.init)
      #expect(rows.joined(separator: "\n").utf8.count > 65536)
      let note = "calc: note: pager 'fails.sh' failed (exit status 2); output follows"
      try enter(":history", in: calc, expect: [note] + rows)
      try enter("5=", in: calc, expect: ["2,000 + 5 =", "2,005"])
    }
  }

  /// A pager quit with status 0 after a part of the listing (`q` in less) is no failure:
  /// nothing more is written, and there is no note.
  @Test func aPagerQuitEarlyIsNoFailure() throws {
    try withTemporaryDirectory { directory in
      let pager = try Script.write(
        "#!/bin/sh\nIFS= read -r line\nprintf 'first| %s\\n' \"$line\"\n", to: "first.sh",
        in: directory)
      chmod(pager.path, 0o755)
      let calc = try startCalc(in: directory, pager: pager.path)
      let keys = String(repeating: "1+", count: 20)
      try enter(keys, in: calc, expect: ["20 +", "20"])
      let header = try listing(keys, in: directory)[0]
      try enter(":history", in: calc, expect: ["first| \(header)"])
      #expect(!calc.text.contains("note:"))
    }
  }
}
