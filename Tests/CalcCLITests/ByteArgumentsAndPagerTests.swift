import CalcTestSupport
import Foundation
import Testing

@testable import CalcCLI
@testable import CalcCore

#if canImport(Glibc)
  import Glibc
#endif

/// File operands and `--keys` taken byte for byte from the command line (SPEC §8), and a
/// `$PAGER` that cannot be run or fails (SPEC §6): issue 17, items 4 and 5.
@Suite struct ByteArgumentsAndPagerTests {
  // MARK: - Arguments as bytes

  /// The bytes of `text`, where `\xNN` stands for the byte 0xNN: `bytes(#"caf\xE9.calc"#)`.
  private static func bytes(_ text: String) -> [UInt8] {
    var result: [UInt8] = []
    var rest = Array(text.utf8)[...]
    while let byte = rest.popFirst() {
      if byte == UInt8(ascii: "\\"), rest.first == UInt8(ascii: "x"), rest.count >= 3,
        let value = UInt8(String(decoding: rest.dropFirst().prefix(2), as: UTF8.self), radix: 16)
      {
        result.append(value)
        rest = rest.dropFirst(3)
      } else {
        result.append(byte)
      }
    }
    return result
  }

  /// Runs the built calc in `directory` with `arguments` written as in ``bytes(_:)``, each passed
  /// byte for byte (through `printf` with every byte in octal), and `stdin`.
  private func calc(_ arguments: [String], stdin: String = "", in directory: URL) throws
    -> CalcRun
  {
    let words = arguments.map { argument in
      let octal = Self.bytes(argument).map {
        #"\"# + String(Int($0) + 0o1000, radix: 8).dropFirst()
      }
      return #""$(printf '"# + octal.joined() + #"')""#
    }
    return try CalcProcess.run(
      ["-c", #""$CALC" "# + words.joined(separator: " ")], stdin: Data(stdin.utf8),
      environment: posixLocale.merging(["CALC": CalcProcess.binary.path]) { $1 },
      directory: directory, executable: URL(fileURLWithPath: "/bin/sh"))
  }

  /// Creates the file `name` (written as in ``bytes(_:)``) in `directory`, holding `text`.
  private func create(_ name: String, holding text: String, in directory: URL) throws {
    let path = Array(directory.path.utf8) + [UInt8(ascii: "/")] + Self.bytes(name) + [0]
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

  /// `caf\xE9.calc` (é in Latin-1, not UTF-8) is read, not `caf\u{FFFD}.calc` beside it, which
  /// is what ArgumentParser's decoding makes of the name; that one is read when it is named.
  @Test func aFileNamedInLatin1IsReadByItsBytes() throws {
    try withTemporaryDirectory { directory in
      try create(#"caf\xE9.calc"#, holding: "12+3=\n", in: directory)
      try create("caf\u{FFFD}.calc", holding: "99=\n", in: directory)
      let run = try calc([#"caf\xE9.calc"#], in: directory)
      #expect(run.stdout == "15\n")
      #expect(run.stderr == "")
      #expect(run.status == 0)
      let other = try calc([#"caf\xEF\xBF\xBD.calc"#], in: directory)
      #expect(other.stdout == "99\n")
    }
  }

  @Test(arguments: [
    [#"caf\xE9.calc"#], ["--plain", "--", "-", #"caf\xE9.calc"#],
    ["--locale=de_DE", #"caf\xE9.calc"#],
  ])
  func aMissingFileNamedInLatin1IsNamedEscapedAndNoOtherFileIsRead(arguments: [String]) throws {
    try withTemporaryDirectory { directory in
      try create("caf\u{FFFD}.calc", holding: "99=\n", in: directory)
      let run = try calc(arguments, in: directory)
      #expect(run.stdout == "")
      #expect(run.stderr == "calc: cannot read 'caf\\x{E9}.calc': No such file or directory\n")
      #expect(run.status == 66)
    }
  }

  /// A script in a folder whose name is not UTF-8 loads its neighbours from that folder.
  @Test func aScriptInAFolderNamedInLatin1LoadsFromThatFolder() throws {
    try withTemporaryDirectory { directory in
      let path = Array(directory.path.utf8) + Self.bytes(#"/d\xE9"#) + [0]
      let made = path.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { mkdir($0.baseAddress!, 0o755) }
      }
      try #require(made == 0)
      try create(#"d\xE9/a.calc"#, holding: ":load s.calc\n", in: directory)
      try create(#"d\xE9/s.calc"#, holding: "7\n", in: directory)
      let run = try calc([#"d\xE9/a.calc"#], in: directory)
      #expect(run.stdout == "7\n")
      #expect(run.stderr == "")
    }
  }

  /// Names that ArgumentParser's decoding would make alike (0xFE, 0xFF and U+FFFD itself), and a
  /// name holding U+10FFFF (a scalar of the range that stands for bytes inside calc), each name
  /// the file of its own bytes, in every form an operand takes.
  @Test(arguments: [
    ([#"\xFF"#, #"\xEF\xBF\xBD"#, #"\xFE"#, #"\xF4\x8F\xBF\xBF"#], "2\n3\n1\n4\n"),
    (["--plain", "--", "-k", #"-\xFF"#, "--", "--plain"], "5\n6\n7\n8\n"),
    (["--locale", "de_DE", #"\xFF"#, "--locale=de_DE", #"\xFE"#], "2\n1\n"),
    ([#"\xFF"#, "--plain", "-", "--", "-", #"\xFE"#], "2\n9\n1\n"),
    (["--no-journal", "--", #"\xEF\xBF\xBD"#], "3\n"),
  ])
  func eachOperandIsTheFileOfItsOwnBytes(arguments: [String], stdout: String) throws {
    try withTemporaryDirectory { directory in
      let files = [
        (#"\xFE"#, 1), (#"\xFF"#, 2), (#"\xEF\xBF\xBD"#, 3), (#"\xF4\x8F\xBF\xBF"#, 4),
        ("-k", 5), (#"-\xFF"#, 6), ("--", 7), ("--plain", 8),
      ]
      for (name, value) in files { try create(name, holding: "\(value)=\n", in: directory) }
      let run = try calc(arguments, stdin: "9=\n", in: directory)
      #expect(run.stdout == stdout, "\(arguments)")
      #expect(run.stderr == "", "\(arguments)")
      #expect(run.status == 0, "\(arguments)")
    }
  }

  /// Key text that is not UTF-8 names its byte, in every form of the option; U+10FFFF is a
  /// character, not a byte.
  @Test(arguments: [
    (["-k", #"\xFF"#], #"invalid UTF-8 byte \x{FF} at column 1"#),
    (["--keys", #"1+\xFF"#], #"invalid UTF-8 byte \x{FF} at column 3"#),
    ([#"--keys=12\xFF"#], #"invalid UTF-8 byte \x{FF} at column 3"#),
    ([#"-k=\xFF"#], #"invalid UTF-8 byte \x{FF} at column 1"#),
    (["--keys", #"-\xFF"#], #"invalid UTF-8 byte \x{FF} at column 2"#),
    (["-k", #"\xC3"#, "--no-journal"], #"invalid UTF-8 byte \x{C3} at column 1"#),
    (["--plain", "-k", #"\xE9t\xE9"#], #"invalid UTF-8 byte \x{E9} at column 1"#),
    (["-k", #"\xF4\x8F\xBF\xBF"#], #"unknown key '\u{10FFFF}' at column 1"#),
  ])
  func keysThatAreNotUTF8NameTheirByte(arguments: [String], message: String) throws {
    try withTemporaryDirectory { directory in
      let run = try calc(arguments, in: directory)
      #expect(run.stderr == "calc: --keys: \(message)\n", "\(arguments)")
      #expect(run.stdout == "")
      #expect(run.status == 65)
    }
  }

  /// A repeated `--keys` is a usage error (SPEC §5), whatever the bytes of either.
  @Test func aRepeatedKeysIsAUsageError() throws {
    try withTemporaryDirectory { directory in
      let run = try calc(["-k", #"\xFF"#, "--keys", "1+2="], in: directory)
      #expect(run.stdout == "")
      #expect(
        run.stderr == "calc: --keys (-k) may be given once; put all the keys in one: -k '12+3='\n")
      #expect(run.status == 64)
    }
  }

  /// ArgumentParser's errors, and calc's own about an option's value, show a byte that is not
  /// UTF-8 as `\x{FF}`.
  @Test(arguments: [
    ([#"--bogus\xFF"#], "calc: Unknown option '--bogus\\x{FF}'"),
    ([#"-\xFF"#], "calc: Unknown option '-\\x{FF}'"),
    (["--locale", #"\xFF"#, "-k", "1"], "calc: unknown locale '\\x{FF}' (e.g. en_US, de_DE)"),
    (["--locale", #"de\xFF"#, "--", "-"], "calc: unknown locale 'de\\x{FF}' (e.g. en_US, de_DE)"),
  ])
  func messagesShowTheBytesOfArguments(arguments: [String], firstLine: String) throws {
    try withTemporaryDirectory { directory in
      let run = try calc(arguments, in: directory)
      #expect(run.stderr.split(separator: "\n").first.map(String.init) == firstLine)
      #expect(run.stdout == "")
      #expect(run.status == 64)
    }
  }

  /// Argument text: every byte string has one string, whose bytes are the bytes again; and so
  /// is every part of it cut at a scalar, which is how a parser cuts `--keys=VALUE`.
  @Test func argumentTextKeepsEveryByte() {
    var random = SplitMix64(state: 4)
    // Bytes that make valid, cut, overlong and surrogate sequences, and U+10FF80–U+10FFFF.
    let pieces: [[UInt8]] = [
      [0x41], [0x3D], [0x2D], [0xC3], [0xA9], [0xE2], [0x88], [0x92], [0xED], [0xA0], [0x80],
      [0xF4], [0x8F], [0xBE], [0xBF], [0xFF], [0xC0], [0xAF], [0xF0], [0x9F], [0x98],
      Array("\u{10FF80}".utf8), Array("\u{10FFFF}".utf8), Array("\u{FFFD}".utf8),
    ]
    var samples: [[UInt8]] = (0...255).map { [UInt8($0)] }
    for _ in 0..<5000 {
      samples.append((0..<random.int(0...8)).flatMap { _ in pieces[random.below(pieces.count)] })
    }
    for bytes in samples {
      let text = ArgumentText.string(bytes)
      #expect(ArgumentText.bytes(of: text) == bytes, "\(bytes)")
      // The system's argument (a raw buffer, not generic) gets the same string, byte for byte.
      let raw = bytes.withUnsafeBytes { ArgumentText.string($0) }
      #expect(Array(raw.utf8) == Array(text.utf8), "\(bytes)")
      // A whole string's bytes (not generic) are those of the same text as a substring.
      #expect(ArgumentText.bytes(of: Substring(text)) == bytes, "\(bytes)")
      let scalars = text.unicodeScalars
      for cut in scalars.indices {
        let before = ArgumentText.bytes(of: String(scalars[..<cut]))
        let after = ArgumentText.bytes(of: String(scalars[cut...]))
        #expect(before + after == bytes, "\(bytes) cut at \(cut)")
      }
      // UTF-8 without the reserved range is its plain string; nothing else is.
      let plain = String(validating: bytes, as: UTF8.self)
      let isPlain = plain.map { !$0.unicodeScalars.contains { $0.value >= 0x10_FF80 } } ?? false
      #expect((text == plain) == isPlain, "\(bytes)")
    }
  }

  /// Random argument lists (50; 4,000 with `CALC_LONG_TESTS=1`: ArgumentParser takes a few
  /// milliseconds a parse), some with bytes that are not UTF-8: ArgumentParser and the quick
  /// parser reach the same decisions on the argument text as on the decoded arguments, and each
  /// value they find is the bytes of an argument, or of its part after the first `=`.
  @Test func theParsersDecideAlikeOnArgumentText() {
    let words = [
      "--keys", "-k", "--keys=", "--keys=1+", "-k=2", "--trace", "--plain", "--locale",
      "--locale=de_DE", "de_DE", "12+3=", "", "-", "--", "file", "-5=", "--resume",
      "--no-journal", "=", #"\xFF"#, #"\xEF\xBF\xBD"#, #"1\xFF="#, #"--keys=\xFE"#, #"-k=\xC3"#,
      #"-\xFF"#, #"\xF4\x8F\xBF\xBF"#, #"--locale=\xFF"#, #"=\xFF"#,
    ].map(Self.bytes)
    var random = SplitMix64(state: 17)
    var accepted = 0
    let count = TestSize.count(short: 50, long: 4000)
    for _ in 0..<count {
      let bytes = (0..<random.int(0...5)).map { _ in words[random.below(words.count)] }
      let decoded = bytes.map { String(decoding: $0, as: UTF8.self) }
      let text = bytes.map(ArgumentText.string)
      let label = "\(decoded) (seed 17)"
      /// Whether `value`'s bytes are an argument or its part after the first `=`.
      func isPlaced(_ value: String) -> Bool {
        let valueBytes = ArgumentText.bytes(of: value)
        return bytes.contains { argument in
          argument == valueBytes
            || argument.firstIndex(of: UInt8(ascii: "=")).map {
              Array(argument[($0 + 1)...]) == valueBytes
            } ?? false
        }
      }
      /// `invocation` with its argument text decoded as ArgumentParser would have decoded it.
      func lossy(_ invocation: Invocation) -> Invocation {
        var result = invocation
        func decode(_ value: String) -> String {
          String(decoding: ArgumentText.bytes(of: value), as: UTF8.self)
        }
        result.keys = invocation.keys.map(decode)
        result.locale = invocation.locale.map(decode)
        result.files = invocation.files.map(decode)
        return result
      }
      let quick = CalcCommand.quickParse(text)
      #expect(quick.map(lossy) == CalcCommand.quickParse(decoded), "\(label)")
      let parsed = try? CalcCommand.parse(text).invocation
      #expect(parsed.map(lossy) == (try? CalcCommand.parse(decoded).invocation), "\(label)")
      guard let parsed else { continue }
      accepted += 1
      for value in parsed.files + [parsed.keys, parsed.locale].compactMap({ $0 }) {
        #expect(isPlaced(value), "\(value) in \(label)")
      }
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
      try enter(
        ":load long.calc", in: calc,
        expect: ["loaded 4000 keys at step 4000 from long.calc", "2,000 +", "2,000"])
      let script = try Script.run(
        ":load long.calc\n:history\n", arguments: ["--display"], in: directory)
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
