import CalcCLI
import CalcTestSupport
import CalculatorEngine
import Foundation
import Testing

/// Input is read the same however it arrives (SPEC §8, issue 17): the lines ``LineReader``
/// hands on, and what the interpreter makes of them, do not depend on the sizes of the reads.
@Suite struct LineReaderTests {
  // MARK: - Helpers

  /// The lines `reader` hands on, and why it stopped; `accept` says whether a line is taken.
  static func lines(
    of reader: LineReader, accept: (UnsafeBufferPointer<UInt8>) -> Bool = { _ in true }
  ) -> (lines: [[UInt8]], failure: LineReader.Failure?) {
    var lines: [[UInt8]] = []
    reader.forEachLine { line in
      lines.append(Array(line))
      return accept(line)
    }
    return (lines, reader.failure)
  }

  /// A reader of `bytes` whose reads deliver `sizes` bytes in turn (cycling), never more than
  /// the buffer holds.
  static func reader(
    of bytes: [UInt8], sizes: [Int], chunkSize: Int = 1 << 16,
    lineLimit: Int = LineReader.lineLimit
  ) -> LineReader {
    var offset = 0
    var turn = 0
    return LineReader(chunkSize: chunkSize, lineLimit: lineLimit) { buffer in
      let size = min(sizes[turn % sizes.count], buffer.count, bytes.count - offset)
      turn += 1
      guard size > 0 else { return 0 }
      bytes.withUnsafeBytes { source in
        buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<offset + size]))
      }
      offset += size
      return size
    }
  }

  /// `bytes` split as a script's lines: at `\n`, without a `\r` before it, the last line kept
  /// if it is not empty.
  static func split(_ bytes: [UInt8]) -> [[UInt8]] {
    var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
      $0.last == UInt8(ascii: "\r") ? Array($0.dropLast()) : Array($0)
    }
    if lines.last == [] { lines.removeLast() }
    return lines
  }

  /// What the interpreter prints for `lines`, stopping at the first rejected one (as a script).
  static func results(of reader: LineReader) -> String {
    var interpreter = LineInterpreter(format: DisplayFormat(localeIdentifier: "en_US_POSIX"))
    let output = OutputBuffer()
    var lineNumber = 0
    var rejected = ""
    reader.forEachLine { line in
      lineNumber += 1
      do throws(LineError) {
        _ = try interpreter.run(line, output: output)
        return true
      } catch {
        rejected = "\(lineNumber):\(error.column): \(error.message)\n"
        return false
      }
    }
    return output.text + rejected + "\(String(describing: reader.failure))\n"
  }

  /// A script with every key spelling, memory keys, bare words, a comment, CRLF and LF line
  /// ends and a BOM-like character inside a comment.
  static let everySpelling =
    "\u{FEFF}12+3=\r\n5ms c 12mr\n5m+m+ c mr\r\n7m-M\u{2212}mc 2ce3ac4c\n9\u{221A}\u{00B1}4\u{00B2}\r\n"
    + "1\u{2212}2\u{00D7}3\u{00F7}4=\n50+20%=\n2r~<@q=\n  # a comment \u{FEFF}\r\nHELP\r\n"
    + "CE1ac2MS3Mr\n:goto 3\r\n1.5m+mr mr\n"

  // MARK: - Read sizes

  @Test(arguments: [1, 2, 3, 7, 4096, 65536])
  func everyReadSizeGivesTheSameLinesAndResults(size: Int) {
    let bytes = Array(Self.everySpelling.utf8)
    let once = Self.results(of: Self.reader(of: bytes, sizes: [bytes.count]))
    #expect(once.contains("15\n"))
    #expect(
      Self.lines(of: Self.reader(of: bytes, sizes: [size])).lines
        == Self.split(Array(bytes.dropFirst(3))))
    #expect(Self.results(of: Self.reader(of: bytes, sizes: [size])) == once)
    // The same with the buffer itself that small.
    #expect(Self.results(of: Self.reader(of: bytes, sizes: [size], chunkSize: size)) == once)
  }

  @Test(arguments: [1, 2, 3, 7, 4096, 65536])
  func aBoundaryAtEveryOffsetOfEveryKeyChangesNothing(size: Int) {
    // A long line of every spelling, shifted by 0…15 blanks so that each spelling and each
    // `\r\n` meets a read boundary; read whole, it is the reference.
    let keys =
      "5ms c 12mr m+ m- m\u{2212} mc ce ac c MS Mr 1\u{2212}2\u{00D7}3\u{00F7}4= 9\u{221A} 4\u{00B2} "
    // 40 spellings long with `CALC_LONG_TESTS=1`, 10 by default: every offset is met either way.
    let line = String(repeating: keys, count: TestSize.count(short: 10, long: 40)) + "="
    for shift in 0..<16 {
      let text = String(repeating: " ", count: shift) + line + "\r\n2*21=\r\n"
      let bytes = Array(text.utf8)
      let once = Self.results(of: Self.reader(of: bytes, sizes: [bytes.count]))
      #expect(once.hasSuffix("42\nnil\n"), "\(once)")
      let pieces = Self.results(of: Self.reader(of: bytes, sizes: [size, 1, size + 1]))
      #expect(pieces == once, "shift \(shift)")
    }
  }

  @Test func randomReadSizesGiveTheLinesOfSplit() {
    var random = SplitMix64(state: 8)
    let pieces = PrefixCheckPieces.all
    for _ in 0..<TestSize.count(short: 300, long: 10_000) {
      var bytes: [UInt8] = []
      for _ in 0..<random.int(0...40) {
        bytes += random.chance(10) ? [UInt8(ascii: "\n")] : pieces[random.below(pieces.count)]
      }
      let sizes = (0..<8).map { _ in random.int(1...9) }
      // Every line taken: the reader hands on split's lines, however the reads cut them…
      let all = Self.lines(of: Self.reader(of: bytes, sizes: sizes), accept: { _ in true })
      let reference = Self.lines(of: Self.reader(of: bytes, sizes: [bytes.count + 1]))
      if all.failure == nil {
        #expect(all.lines == reference.lines)
      }
      // …and with lines parsed as a script would, an early refusal is one the parser agrees
      // with: never a silent end of input.
      let parsed = Self.lines(of: Self.reader(of: bytes, sizes: sizes)) { line in
        (try? ScriptLine(line)) != nil
      }
      #expect(parsed.failure != .acceptedRejectedPrefix)
    }
  }

  // MARK: - Limits and the byte order mark

  /// Found by the fuzz target: a bad line whose last byte so far is a `\r` is handed on early
  /// with that `\r` (it may be the `\r` of a `\r\n`), and rejected where the whole line is.
  @Test func aLineRejectedEarlyMayEndInTheCarriageReturnOfItsEnd() {
    let bytes: [UInt8] = [0, 0, 0, 0x0B, 13, 13, 13, 13, 13, 13, 13]
    let read = Self.lines(of: Self.reader(of: bytes, sizes: [11]), accept: { _ in false })
    #expect(read.lines == [bytes], "the line as far as it arrived, its last \\r included")
    #expect(read.failure == nil)
    #expect(throws: KeyTextError.self) { try ScriptLine(String(decoding: bytes, as: UTF8.self)) }
  }

  /// Found by the fuzz target: input that is only a `\r` is one empty line.
  @Test func aLoneCarriageReturnIsOneEmptyLine() {
    for size in [1, 2] {
      let read = Self.lines(of: Self.reader(of: [13], sizes: [size]))
      #expect(read.lines == [[]])
      #expect(read.failure == nil)
    }
  }

  @Test func aByteOrderMarkSplitAcrossReadsIsSkipped() {
    let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("12+3=\n".utf8)
    for size in 1...3 {
      #expect(Self.lines(of: Self.reader(of: bytes, sizes: [size])).lines == [Array("12+3=".utf8)])
    }
    // The start of one, then something else: those bytes are the line's.
    let almost: [UInt8] = [0xEF, 0xBB] + Array("x\n".utf8)
    #expect(Self.lines(of: Self.reader(of: almost, sizes: [1])).lines == [[0xEF, 0xBB, 0x78]])
    #expect(Self.lines(of: Self.reader(of: [0xEF], sizes: [1])).lines == [[0xEF]])
  }

  @Test func aLineAtTheLimitIsAcceptedWithCRLFAsWithLF() {
    // The real 16 MiB limit with CALC_LONG_TESTS=1; a small one otherwise (same code path).
    let limit = TestSize.isLong ? LineReader.lineLimit : 4099
    let line = [UInt8](repeating: UInt8(ascii: "1"), count: limit)
    for size in [7, 1 << 16] {
      for end in [[UInt8(ascii: "\n")], [UInt8(ascii: "\r"), UInt8(ascii: "\n")], []] {
        let read = Self.lines(
          of: Self.reader(of: line + end, sizes: [size], lineLimit: limit))
        #expect(read.failure == nil)
        #expect(read.lines.map(\.count) == [limit])
      }
      let over = Self.lines(
        of: Self.reader(of: line + Array("1\r\n".utf8), sizes: [size], lineLimit: limit))
      #expect(over.failure == .lineTooLong)
      #expect(over.lines.isEmpty)
    }
  }
}

/// The same through the whole front end, every door that reads in pieces: a file and `--resume`
/// in process (``InProcess``, real descriptors), standard input in process (in memory, read in
/// 64 KiB pieces as from a pipe), and a pipe through the binary.
@Suite struct ReadSizeThroughTheBinaryTests {
  /// `lines` copies of `line` (LF or CRLF), then `mr`, and what calc prints last for them.
  static func memoryScript(lines: Int, lineEnd: String) -> (script: String, last: String) {
    let script = String(repeating: "3*4.5=m+" + lineEnd, count: lines) + "mr" + lineEnd
    // 13.5 per line, as calc writes it to a pipe: not grouped.
    let tenths = 135 * lines
    let whole = String(tenths / 10)
    return (script, tenths % 10 == 0 ? whole : "\(whole).\(tenths % 10)")
  }

  /// A 1 MiB and a 3 MiB script with `CALC_LONG_TESTS=1`; about 128 KiB (two reads and a bit)
  /// otherwise.
  @Test(
    arguments: TestSize.isLong
      ? [("1 MiB", 116_509, "\n"), ("3 MiB", 314_573, "\r\n")]
      : [("about 128 KiB", 13_500, "\r\n")])
  func largeScriptsWithMemoryKeysRunWhole(size: String, lines: Int, lineEnd: String) throws {
    try withTemporaryDirectory { directory in
      let (script, last) = Self.memoryScript(lines: lines, lineEnd: lineEnd)
      let url = try Script.write(script, to: "memory.calc", in: directory)
      let run = try InProcess.run([url.path], environment: posixLocale)
      #expect(run.stderr == "", "\(size)")
      #expect(run.status == 0)
      #expect(run.stdout.hasSuffix("\n13.5\n\(last)\n"), "\(size)")
      #expect(run.stdout.utf8.count(where: { $0 == UInt8(ascii: "\n") }) == lines + 1)
      // The same script through a pipe (the smaller one: the binary is a debug build here).
      guard lines < 200_000 else { return }
      let piped = try Script.shell("cat memory.calc | \"$CALC\" | tail -n 1", in: directory)
      #expect(piped.stdout == last + "\n")
    }
  }

  @Test func aLongLineWithATwoLetterKeyAtTheReadBoundaryRunsWhole() throws {
    // The key `ce` falls on the boundary of the first 64 KiB read; before, calc printed `1`
    // and silently dropped the rest.
    let script =
      String(repeating: " ", count: 65535) + "ce" + String(repeating: "1+", count: 5000)
      + "=\n2*21=\n"
    try expectScript([], stdin: script, stdout: "10000\n42\n")
  }

  @Test(arguments: [
    ("printf '5m'; sleep .05; printf 's\\n'", "5\n"),
    ("printf '1c'; sleep .05; printf 'e2+3=\\r'; sleep .05; printf '\\n'", "5\n"),
    ("printf '\\357'; sleep .05; printf '\\273\\27712+3=\\n'", "15\n"),
    ("printf '4\\342\\210'; sleep .05; printf '\\2221='", "3\n"),
    ("printf 'he'; sleep .05; printf 'lp\\n1+1=\\n'", "2\n"),
  ])
  func aWriterThatSendsALineInPiecesIsReadAsOneLine(writer: String, expected: String) throws {
    try withTemporaryDirectory { directory in
      let run = try Script.shell("{ \(writer); } | \"$CALC\" | tail -n 1", in: directory)
      #expect(run.stdout == expected, "\(writer)")
      #expect(run.stderr == "", "\(writer)")
    }
  }

  /// A journal of a mebibyte with `CALC_LONG_TESTS=1`; about 120 KiB (two reads) otherwise.
  @Test func resumeReadsAJournalOfAMebibyte() throws {
    try withTemporaryDirectory { directory in
      let folder = directory.appendingPathComponent("state/calc")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let lines = TestSize.count(short: 13_500, long: 116_509)
      let (script, last) = Self.memoryScript(lines: lines, lineEnd: "\n")
      try Script.write(
        Journal.header + "\n" + script, to: "20261124T000000.000000Z-1.calc", in: folder)
      try expectScript(
        ["--resume"], stdin: ":goto +0\n",
        environment: ["XDG_STATE_HOME": directory.appendingPathComponent("state").path],
        stdout: last + "\n")
    }
  }
}

/// The pieces of ``PrefixCheckTests`` as bytes, for random scripts.
enum PrefixCheckPieces {
  static let all: [[UInt8]] =
    [
      "0", "1", "9", ".", "+", "=", "%", "~", "<", "@", "q", "r", "\u{2212}", "×", "÷", "±", "√",
      "²", "c", "C", "ce", "ac", "ms", "MS", "mr", "m+", "m-", "m\u{2212}", "mc", " ", "\t", "#",
      "help", "quit", "x", "e", "a", "m", "\r", "\r\n", "\u{FEFF}", ":goto 1", ":keys",
    ].map { Array($0.utf8) } + [[0xFF], [0xE2], [0xE2, 0x88], [0xEF, 0xBB, 0xBF]]
}
