import CalcCLI
import CalcTestSupport
import CalculatorEngine
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The journal never claims a state the user did not see (issue 17): every journal line carries
/// the CRC-32 of every byte before it, a record of several lines (`:load`, `:resume`) counts
/// only whole, a failed append is cut off again, and `calc --resume` stops before damage.
///
/// The checksums are recomputed here with a plain bitwise CRC-32, independently of ``CRC32``.
@Suite struct JournalIntegrityTests {
  // MARK: - Helpers

  /// CRC-32 (IEEE) a bit at a time: the reference for the table-driven one.
  static func referenceCRC32(_ bytes: some Sequence<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }

  /// One line of a journal file, checked against the reference CRC-32.
  struct CheckedLine: Equatable {
    /// The line without its checksum comment (nor the space before it).
    var text: String
    /// Whether it is marked `crc+`: its record goes on after it.
    var continues: Bool
  }

  /// The lines of the journal `bytes`, each checked to end in ` # crc ` or ` # crc+ ` and eight
  /// lowercase hexadecimal digits that are the CRC-32 of every byte before its `#`.
  static func checkedLines(_ bytes: [UInt8]) -> [CheckedLine] {
    var lines: [CheckedLine] = []
    var start = 0
    while start < bytes.count {
      let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
      let line = String(decoding: bytes[start..<end], as: UTF8.self)
      let match = line.wholeMatch(of: /(.*) # crc(\+?) ([0-9a-f]{8})/)
      guard let match else {
        Issue.record("line without a checksum comment: \(line)")
        return lines
      }
      let text = String(match.1)
      let hash = start + text.utf8.count + 1
      let expected = referenceCRC32(bytes[..<hash])
      #expect(UInt32(match.3, radix: 16) == expected, "\(line)")
      lines.append(CheckedLine(text: text, continues: !match.2.isEmpty))
      start = end + 1
    }
    return lines
  }

  /// The journal `bytes` without its first line (``Journal/header``), its checksums computed
  /// again: a journal as calc wrote it before journals named their format.
  static func olderFormat(_ bytes: [UInt8]) -> [UInt8] {
    var older: [UInt8] = []
    var start = (bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count - 1) + 1
    while start < bytes.count {
      let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
      let line = String(decoding: bytes[start..<end], as: UTF8.self)
      let match = line.wholeMatch(of: /(.*) # crc(\+?) ([0-9a-f]{8})/)
      guard let match else {
        Issue.record("line without a checksum comment: \(line)")
        return older
      }
      older += Array("\(match.1) ".utf8)
      let checksum = String(referenceCRC32(older), radix: 16)
      let digits = String(repeating: "0", count: 8 - checksum.count) + checksum
      older += Array("# crc\(match.2) \(digits)\n".utf8)
      start = end + 1
    }
    return older
  }

  /// `text` with the checksum comments removed: the journal as it was before it had them.
  static func strippingChecksums(_ text: String) -> String {
    text.replacing(/\ # crc\+? [0-9a-f]{8}\n/, with: "\n")
  }

  /// A journal in `folder` of `lines` typed into a REPL's interpreter, as the REPL writes it
  /// (rejected lines and lines that change nothing write nothing); returns its path and the
  /// session after each record (the first: the empty session).
  static func makeJournal(_ lines: [String], in folder: String) throws -> (
    path: String, states: [Session]
  ) {
    let journal = try #require(Journal(directory: folder) { Issue.record("\($0)") })
    var interpreter = LineInterpreter(
      context: .init(format: .plain),
      host: .init(journalDirectory: folder, ownJournal: journal.path, files: .system))
    var states = [interpreter.session]
    for line in lines {
      guard let effect = try? interpreter.run(line, output: OutputBuffer()).effect else { continue }
      func size() -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: journal.path))?[.size] as? Int) ?? 0
      }
      let before = size()
      #expect(journal.record([effect]))
      // A change that records nothing (a move that stays) is no record.
      if size() != before {
        states.append(interpreter.session)
      }
    }
    journal.close()
    return (journal.path, states)
  }

  /// Whether two sessions are the same: the same script and the same calculator.
  static func same(_ a: Session, _ b: Session) -> Bool {
    SessionScript.text(of: a.history) == SessionScript.text(of: b.history) && a.state == b.state
  }

  private func bytes(of path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  /// Replaces the contents of the file at `path` with `bytes`, without `fsync`: the test reads
  /// it back at once, and `Data.write` syncs each of the hundreds of damaged copies to disk.
  private func write(_ bytes: [UInt8], to path: String) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    try #require(fd >= 0, "open \(path): errno \(errno)")
    defer { close(fd) }
    let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    try #require(written == bytes.count, "write \(path): \(written) of \(bytes.count) bytes")
  }

  private func stateFolder(_ directory: URL) -> String {
    directory.appendingPathComponent(".local/state/calc").path
  }

  /// Runs calc without a terminal, with `HOME` in `directory` and no `XDG_STATE_HOME`.
  private func run(_ arguments: [String], in directory: URL, stdin: String = "") throws -> CalcRun {
    try InProcess.run(
      arguments, stdin: Data(stdin.utf8),
      environment: ["HOME": directory.path, "XDG_STATE_HOME": nil], directory: directory)
  }

  /// A session file of a few branches, with the memory set, for `:load`.
  private func writeSessionFile(in directory: URL) throws -> String {
    let path = directory.appendingPathComponent("s.calc").path
    try "7*6=\nms\n:goto 2\n+1=\n:goto 1\n9@\n:branch 2\n".write(
      toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  // MARK: - The checksum

  @Test func crc32MatchesTheCheckValueAndTheBitwiseReference() {
    #expect(CRC32(Array("123456789".utf8)).value == 0xCBF4_3926)
    #expect(Self.referenceCRC32(Array("123456789".utf8)) == 0xCBF4_3926)
    #expect(CRC32([UInt8]()).value == 0)
    var random = SplitMix64(state: 17)
    for length in [1, 2, 3, 7, 8, 9, 100, 1000] {
      let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      #expect(CRC32(bytes).value == Self.referenceCRC32(bytes))
      // Carried over in pieces, a byte at a time or in buffers, it is the same.
      var running = CRC32()
      let cut = length / 3
      bytes[..<cut].withUnsafeBufferPointer { running.update($0) }
      for byte in bytes[cut...] { running.update(byte) }
      #expect(running.value == Self.referenceCRC32(bytes))
    }
  }

  @Test func checksumCommentsAreFoundOnlyInTheirExactForm() {
    /// `start checksum continues`, or `nil`.
    func comment(_ line: String) -> String? {
      var copy = line
      let found = copy.withUTF8 { Journal.checksumComment(of: $0) }
      return found.map { "\($0.start) \(String($0.checksum, radix: 16)) \($0.continues)" }
    }
    #expect(comment("12+3= # crc a59d85cd") == "6 a59d85cd false")
    #expect(comment(":reset # crc+ d6b07f13") == "7 d6b07f13 true")
    #expect(comment(" # crc 00000000") == "1 0 false")
    for line in [
      "12+3=", "12+3= # crc A59D85CD", "12+3= # crc a59d85c", "12+3=# crc a59d85cd",
      "12+3= #crc a59d85cd", "12+3= # crc  a59d85cd", "12+3= # crc+a59d85cd", "# crc a59d85cd",
      "12+3= # crc a59d85cd ", "12+3= # CRC a59d85cd", "12+3= # crc- a59d85cd",
    ] {
      #expect(comment(line) == nil, "\(line)")
    }
  }

  // MARK: - What the journal holds

  @Test func everyJournalLineCarriesTheChecksumOfAllBytesBeforeIt() throws {
    try withTemporaryDirectory { directory in
      let file = try writeSessionFile(in: directory)
      let folder = directory.appendingPathComponent("calc").path
      let (path, _) = try Self.makeJournal(
        [
          "12+3=", "*2=", ":keys", ":goto -1", ":undo", ":undo 9", "12x", ":redo", ":branch 1",
          "ms", ":load \(file)", "+1=", ":reset", "5",
        ], in: folder)
      let lines = Self.checkedLines(try bytes(of: path))
      var loading = LineInterpreter(context: .init(format: .plain), host: .withFiles)
      try loading.run(":load \(file)", output: OutputBuffer())
      var loaded = [":reset load"]
      SessionScript.forEachLine(of: loading.session.history) { loaded.append($0) }
      #expect(loaded.count == 14)
      #expect(
        lines.map(\.text)
          == [Journal.header]
          + ["12+3=", "*2=", ":goto 7", ":goto 5", ":goto 0", ":goto 5", ":branch 1", "ms"]
          + loaded + ["+1=", ":reset", "5"])
      // Only the lines of the :load record before its last say that it goes on; the header is
      // a record of its own.
      let continuing = lines.enumerated().filter(\.element.continues).map(\.offset)
      #expect(continuing == Array(9..<(9 + loaded.count - 1)), "\(lines)")
    }
  }

  @Test func aJournalWithChecksumsRunsAsAScript() throws {
    try withTemporaryDirectory { directory in
      let file = try writeSessionFile(in: directory)
      let folder = directory.appendingPathComponent("calc").path
      let (path, states) = try Self.makeJournal(
        [
          "12+3=", "ms", ":goto 2", "*4=", ":branch 1", ":load \(file)", ":goto 3", ":reset",
          "6*7=",
        ],
        in: folder)
      let journal = try String(contentsOfFile: path, encoding: .utf8)
      // The checksums are comments to a script: the same output with them as without them.
      let plain = directory.appendingPathComponent("plain.calc").path
      try Self.strippingChecksums(journal).write(toFile: plain, atomically: true, encoding: .utf8)
      let withChecksums = try run([path, "-"], in: directory, stdin: ":keys\n")
      let without = try run([plain, "-"], in: directory, stdin: ":keys\n")
      #expect(withChecksums.status == 0)
      #expect(withChecksums.stderr == "")
      #expect(withChecksums.stdout == without.stdout)
      #expect(withChecksums.stdout.hasSuffix("\n42\n6*7=\n"), "\(withChecksums)")
      // And resuming it gives the live session.
      let resumed = try ResumedSession(journal: path)
      #expect(resumed.damage == nil)
      #expect(Self.same(resumed.session, try #require(states.last)))
    }
  }

  // MARK: - Damage

  /// The lines typed for the damage tests: single-line records around a `:load` record.
  static let damageLines = ["12+3=", "*2=", "ms", ":goto 3", "+4=", "c", "mr+1="]

  @Test func aFlippedByteStopsTheResumeBeforeTheDamagedLine() throws {
    try withTemporaryDirectory { directory in
      let (path, _) = try Self.makeJournal(Self.damageLines, in: stateFolder(directory))
      var bytes = try bytes(of: path)
      // Line 5 (after the header) is `:goto 3 # crc …`: make it `:goto 2`, which would replay
      // without a complaint.
      let lineStarts = [0] + bytes.indices.filter { bytes[$0] == UInt8(ascii: "\n") }.map { $0 + 1 }
      let fourth = lineStarts[4]
      #expect(bytes[fourth..<(fourth + 7)] == ArraySlice(":goto 3".utf8))
      bytes[fourth + 6] ^= 0x01
      try write(bytes, to: path)

      let resumed = try run(["--resume", "-"], in: directory, stdin: ":keys\nmr\n")
      #expect(resumed.stdout == "12+3=\n*2=\nms\n30\n")
      #expect(
        resumed.stderr
          == "calc: --resume: the journal's line 5 is damaged (its checksum does not match): "
          + "restored the session as it was before it\n")
      #expect(resumed.status == 0)
      // The same through --keys.
      let keys = try run(["--resume", "-k", "+1="], in: directory)
      #expect(keys.stdout == "31\n")
      #expect(keys.status == 0)
    }
  }

  /// A journal with one bit flipped resumes to the session as it was before the damaged record,
  /// and says so (one bit of every other byte by default; every bit of every byte with
  /// `CALC_LONG_TESTS=1`).
  @Test func singleBitFlipsStopAtOrBeforeTheirLine() throws {
    try withTemporaryDirectory { directory in
      let file = try writeSessionFile(in: directory)
      let folder = directory.appendingPathComponent("calc").path
      let (path, states) = try Self.makeJournal(
        ["12+3=", "*2=", ":goto 2", ":load \(file)", "m+", ":branch 1", "4="], in: folder)
      let original = try bytes(of: path)
      let lines = Self.checkedLines(original)
      // Which record each byte belongs to (its line's, the newline included); the header's is
      // -1, the first change's 0.
      var recordOfByte: [Int] = []
      var record = -1
      var lineIndex = 0
      for byte in original {
        recordOfByte.append(record)
        if byte == UInt8(ascii: "\n") {
          if !lines[lineIndex].continues { record += 1 }
          lineIndex += 1
        }
      }
      #expect(record == states.count - 1)
      var flips = 0
      for offset in original.indices where TestSize.isLong || offset % 2 == 0 {
        // Every bit of every byte with `CALC_LONG_TESTS=1` (about 40 s in a debug build on two
        // busy cores); by default one bit of every other byte, a different bit each time, so
        // that all eight bits are flipped every 16 bytes.
        for bit in TestSize.isLong ? Array(0..<8) : [offset / 2 % 8] {
          var damaged = original
          damaged[offset] ^= 1 << bit
          try write(damaged, to: path)
          let record = recordOfByte[offset]
          let context = "byte \(offset) bit \(bit), record \(record + 1)"
          flips += 1
          guard let resumed = try? ResumedSession(journal: path) else {
            // Only the header can leave nothing to restore.
            #expect(record == -1, "\(context)")
            continue
          }
          // Even a header whose comment is damaged is no longer vouched for by its own
          // checksum, and the next line's, which covers it, does not match.
          #expect(record != -1, "\(context): \(resumed.damage ?? "")")
          #expect(resumed.damage != nil, "\(context)")
          #expect(Self.same(resumed.session, states[record]), "\(context): \(resumed.damage ?? "")")
        }
      }
      #expect(flips == (TestSize.isLong ? original.count * 8 : (original.count + 1) / 2))
    }
  }

  @Test func aLineWithoutItsChecksumAfterCheckedLinesIsDamaged() throws {
    try withTemporaryDirectory { directory in
      let (path, _) = try Self.makeJournal(Self.damageLines, in: stateFolder(directory))
      var text = try String(contentsOfFile: path, encoding: .utf8)
      // A line added by hand at the end, and one whose comment is gone.
      text += "99=\n"
      try text.write(toFile: path, atomically: false, encoding: .utf8)
      var resumed = try ResumedSession(journal: path)
      #expect(
        resumed.damage
          == "the journal's line 9 is damaged (it has no checksum): restored the session as it "
          + "was before it")
      let lines = text.split(separator: "\n").map(String.init)
      let stripped = lines.enumerated().map { index, line in
        index == 5 ? Self.strippingChecksums(line + "\n").dropLast() : Substring(line)
      }
      try (stripped.joined(separator: "\n") + "\n").write(
        toFile: path, atomically: false, encoding: .utf8)
      resumed = try ResumedSession(journal: path)
      #expect(
        resumed.damage
          == "the journal's line 6 is damaged (it has no checksum): restored the session as it "
          + "was before it")
      #expect(resumed.session.history.position == 3)
    }
  }

  @Test func aFirstLineSplitByADamagedByteIsNotReplayed() throws {
    try withTemporaryDirectory { directory in
      let (path, _) = try Self.makeJournal(["12*3*4=", "+1="], in: stateFolder(directory))
      // With a header, the first change's line is checked after a checked line: without its
      // checksum, it is damaged, and the session before it is restored.
      var current = try bytes(of: path)
      let star = try #require(current.firstIndex(of: UInt8(ascii: "*")))
      current[star] ^= 0x20
      try write(current, to: path)
      let restored = try ResumedSession(journal: path)
      #expect(
        restored.damage
          == "the journal's line 2 is damaged (it has no checksum): restored the session as it "
          + "was before it")
      #expect(restored.session.history.position == 0)
      // A journal of the older form (checksums, no header) starts with unchecked lines.
      let original = Self.olderFormat(
        try bytes(of: path).enumerated().map { index, byte in
          index == star ? byte ^ 0x20 : byte
        })
      let stars = original.indices.filter { original[$0] == UInt8(ascii: "*") }
      #expect(stars.count == 2)
      // `*` with its bit 5 flipped is a newline: `12` becomes a line of its own, without a
      // checksum, which only the checksum of the line after it vouches for.
      var damaged = original
      damaged[stars[0]] ^= 0x20
      try write(damaged, to: path)
      #expect(
        throws: LineError(
          "cannot resume '\(path)': its line 2 is damaged (its checksum does not match; it covers "
            + "line 1, which has none)")
      ) { try ResumedSession(journal: path) }
      damaged[stars[1]] ^= 0x20
      try write(damaged, to: path)
      let run = try run(["--resume", "-k", "1"], in: directory)
      #expect(run.stdout == "")
      #expect(
        run.stderr
          == "calc: --resume: cannot resume '\(path)': its line 3 is damaged (its checksum does "
          + "not match; it covers lines 1–2, which have none)\n")
      #expect(run.status == 66)
      // A first line whose checksum comment is damaged is not kept either.
      damaged = original
      let hash = try #require(original.firstIndex(of: UInt8(ascii: "#")))
      damaged[hash + 2] ^= 0x01
      try write(damaged, to: path)
      #expect(
        throws: LineError(
          "cannot resume '\(path)': its line 2 is damaged (its checksum does not match; it covers "
            + "line 1, which has none)")
      ) { try ResumedSession(journal: path) }
    }
  }

  @Test func journalsWithoutChecksumsStillResume() throws {
    try withTemporaryDirectory { directory in
      let (path, states) = try Self.makeJournal(Self.damageLines, in: stateFolder(directory))
      let text = try String(contentsOfFile: path, encoding: .utf8)
      try Self.strippingChecksums(text).write(toFile: path, atomically: false, encoding: .utf8)
      let resumed = try ResumedSession(journal: path)
      #expect(resumed.damage == nil)
      #expect(Self.same(resumed.session, try #require(states.last)))
    }
  }

  // MARK: - Records of many lines

  @Test func aRecordTornAtALineBoundaryIsNotHalfReplayed() throws {
    try withTemporaryDirectory { directory in
      let file = try writeSessionFile(in: directory)
      let (path, states) = try Self.makeJournal(
        ["12+3=", "*2=", ":load \(file)"], in: stateFolder(directory))
      let original = try bytes(of: path)
      let ends = original.indices.filter { original[$0] == UInt8(ascii: "\n") }.map { $0 + 1 }
      #expect(ends.count == 17)  // the header, 2 lines, then :reset and the session's 13 lines
      // Cut after each line of the :load record but its last.
      for kept in 4..<ends.count {
        try write(Array(original[..<ends[kept - 1]]), to: path)
        let resumed = try ResumedSession(journal: path)
        let lines = kept == 4 ? "line 4" : "lines 4–\(kept)"
        #expect(
          resumed.damage
            == "the journal's change at \(lines) was cut short: restored the session as it was "
            + "before it")
        #expect(Self.same(resumed.session, states[2]), "\(kept) lines")
      }
      // Torn inside a line of the record: the whole record goes too.
      try write(Array(original[..<(ends[7] - 5)]), to: path)
      var resumed = try ResumedSession(journal: path)
      #expect(
        resumed.damage
          == "the journal's line 8 was cut short: restored the session as it was before line 4, "
          + "where the change it belongs to starts")
      #expect(Self.same(resumed.session, states[2]))
      // Damaged inside the record: the same.
      var damaged = original
      damaged[ends[6] + 1] ^= 0x01
      try write(damaged, to: path)
      resumed = try ResumedSession(journal: path)
      #expect(
        resumed.damage
          == "the journal's line 8 is damaged (its checksum does not match): restored the session "
          + "as it was before line 4, where the change it belongs to starts")
      #expect(Self.same(resumed.session, states[2]))
      // Whole, it is the loaded session.
      try write(original, to: path)
      resumed = try ResumedSession(journal: path)
      #expect(resumed.damage == nil)
      #expect(Self.same(resumed.session, states[3]))

      // Through calc --resume: the state before the :load, and the message on stderr.
      try write(Array(original[..<ends[7]]), to: path)
      let run = try run(["--resume", "-"], in: directory, stdin: ":keys\n+1=\n")
      #expect(run.stdout == "12+3=\n*2=\n31\n")
      #expect(
        run.stderr
          == "calc: --resume: the journal's change at lines 4–8 was cut short: restored the "
          + "session as it was before it\n")
      #expect(run.status == 0)
    }
  }

  @Test func aTornFirstRecordLeavesTheEmptySessionOrNothingToResume() throws {
    try withTemporaryDirectory { directory in
      let file = try writeSessionFile(in: directory)
      let (path, _) = try Self.makeJournal([":load \(file)", "1+1="], in: stateFolder(directory))
      let current = try bytes(of: path)
      let currentEnds = current.indices.filter { current[$0] == UInt8(ascii: "\n") }.map { $0 + 1 }
      // After the header: the session as it was before the first change, the empty one.
      try write(Array(current[..<currentEnds[4]]), to: path)
      let empty = try run(["--resume", "-k", "1"], in: directory)
      #expect(empty.stdout == "1\n")
      #expect(
        empty.stderr
          == "calc: --resume: the journal's change at lines 2–5 was cut short: restored the "
          + "session as it was before it\n")
      #expect(empty.status == 0)
      // A journal of the older form has nothing before its first change.
      let original = Self.olderFormat(current)
      let ends = original.indices.filter { original[$0] == UInt8(ascii: "\n") }.map { $0 + 1 }
      try write(Array(original[..<ends[3]]), to: path)
      let run = try run(["--resume", "-k", "1"], in: directory)
      #expect(run.stdout == "")
      #expect(
        run.stderr
          == "calc: --resume: cannot resume '\(path)': its change at lines 1–4 was cut short\n")
      #expect(run.status == 66)
    }
  }

  // MARK: - A full disk

  /// Mounts a tmpfs of `size` at `path` (the tests that call this are enabled only if
  /// ``SaveInPlaceTests/canMount``).
  private func mountTmpfs(at path: String, size: String) throws {
    let mounted = mount("tmpfs", path, "tmpfs", 0, "size=\(size),mode=0755") == 0
    try #require(mounted, "cannot mount a tmpfs: \(String(cString: strerror(errno)))")
  }

  private func fileSize(_ path: String) -> Int? {
    var information = stat()
    guard stat(path, &information) == 0 else { return nil }
    return Int(information.st_size)
  }

  private func journalNames(in folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter {
      $0.hasSuffix(".calc")
    }.sorted()
  }

  /// calc on a pseudo-terminal in `directory` (its `HOME`), once its prompt is shown.
  private func startCalc(in directory: URL, state: String) throws -> TerminalSession {
    let inputrc = directory.appendingPathComponent(".inputrc")
    if !FileManager.default.fileExists(atPath: inputrc.path) {
      try "".write(to: inputrc, atomically: true, encoding: .utf8)
    }
    let calc = try TerminalSession(
      directory: directory,
      environment: ["HOME": directory.path, "NO_COLOR": "1", "XDG_STATE_HOME": state])
    try calc.wait(for: "the prompt") { $0.lines.last == "calc> " }
    return calc
  }

  /// Runs `body` with a REPL whose journals are on a new 64 KiB tmpfs (`state`), after its
  /// first line `12+3=`, in a folder that holds `big.calc`: a session bigger than the disk
  /// (5,000 lines, about 100 KB in the journal). The tmpfs is unmounted afterwards.
  private func withFullDisk(_ body: (URL, String, TerminalSession) throws -> Void) throws {
    try withTemporaryDirectory { directory in
      let state = directory.appendingPathComponent("state").path
      try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
      try mountTmpfs(at: state, size: "64k")
      defer { umount2(state, Int32(MNT_DETACH)) }
      try String(repeating: "1+1=\n", count: 5_000).write(
        to: directory.appendingPathComponent("big.calc"), atomically: true, encoding: .utf8)
      let calc = try startCalc(in: directory, state: state)
      try calc.type("12+3=\r")
      try calc.waitForLastLines(["15", "calc> "])
      try body(directory, state, calc)
    }
  }

  /// Types `:load big.calc` and waits for the journal's `report`, the display and a prompt.
  private func loadBig(in calc: TerminalSession, reporting report: String) throws {
    try calc.type(":load big.calc\r")
    try calc.wait(for: "the journal's report, the display and a prompt") { calc in
      calc.text.contains(report) && calc.lines.suffix(2) == ["2", "calc> "]
    }
  }

  @Test(.enabled(if: SaveInPlaceTests.canMount, "needs root to mount a small tmpfs"))
  func aFullDiskCutsTheFailedAppendOffAndResumesWhatWasSeen() throws {
    try withFullDisk { directory, state, calc in
      try calc.type("*2=\r")
      try calc.waitForLastLines(["30", "calc> "])
      let folder = state + "/calc"
      let names = journalNames(in: folder)
      #expect(names.count == 1)
      let path = folder + "/" + (names.first ?? "")
      let before = try #require(fileSize(path))

      try loadBig(
        in: calc,
        reporting: "calc: journal: cannot write '\(path)': No space left on device; the session "
          + "goes on without it")
      // The session goes on, unjournaled; the report is not repeated.
      try calc.type("+1=\r")
      try calc.waitForLastLines(["3", "calc> "])
      try calc.type(":quit\r")
      #expect(try calc.waitForExit() == 0)
      #expect(calc.text.components(separatedBy: "calc: journal:").count == 2)

      // Nothing of the :load is left: the journal is as it was before it, whole.
      #expect(fileSize(path) == before)
      #expect(
        Self.checkedLines(try bytes(of: path)).map(\.text) == [Journal.header, "12+3=", "*2="])
      let resumed = try InProcess.run(
        ["--resume", "-"], stdin: Data(":keys\n".utf8),
        environment: ["HOME": directory.path, "XDG_STATE_HOME": state])
      #expect(resumed.stdout == "12+3=\n*2=\n")
      #expect(resumed.stderr == "")
      #expect(resumed.status == 0)

      // A session whose first change does not fit leaves no journal behind, so the earlier
      // session is still the one resumed.
      let second = try startCalc(in: directory, state: state)
      try second.type(":load big.calc\r")
      try second.wait(for: "the journal's report, the display and a prompt") { calc in
        calc.text.contains("calc: journal: cannot write")
          && calc.lines.suffix(2) == ["2", "calc> "]
      }
      try second.type(":quit\r")
      #expect(try second.waitForExit() == 0)
      #expect(journalNames(in: folder) == names)
      let again = try InProcess.run(
        ["--resume", "-k", "+1="], environment: ["HOME": directory.path, "XDG_STATE_HOME": state])
      #expect(again.stdout == "31\n")
    }
  }

  /// Runs `chattr` with `arguments`; whether it succeeded.
  private func chattr(_ arguments: [String]) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
    process.arguments = arguments
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }

  @Test(.enabled(if: SaveInPlaceTests.canMount, "needs root to mount a small tmpfs"))
  func aCutOffThatFailsIsReportedAndTheTornRecordIsNotResumed() throws {
    try withFullDisk { directory, state, calc in
      let folder = state + "/calc"
      let path = folder + "/" + (journalNames(in: folder).first ?? "")
      // An append-only file can grow but not be cut back: ftruncate fails (EPERM).
      guard chattr(["+a", path]) else {
        try calc.type(":quit\r")
        _ = try calc.waitForExit()
        try Test.cancel("chattr +a does not work on this tmpfs: the failed cut-off cannot be made")
      }
      defer { _ = chattr(["-a", path]) }
      try loadBig(
        in: calc,
        reporting: "calc: journal: cannot write '\(path)': No space left on device, nor cut off "
          + "the part written (Operation not permitted); the session goes on without it")
      try calc.type(":quit\r")
      #expect(try calc.waitForExit() == 0)

      // The part written stays, but it is an unfinished record: resuming passes over it.
      let resumed = try InProcess.run(
        ["--resume", "-"], stdin: Data(":keys\n".utf8),
        environment: ["HOME": directory.path, "XDG_STATE_HOME": state])
      #expect(resumed.stdout == "12+3=\n")
      #expect(resumed.status == 0)
      let cutShort = try #require(
        resumed.stderr.wholeMatch(
          of: /calc: --resume: the journal's (.*): restored the session as it was before (.*)\n/))
      #expect(
        (cutShort.1.hasPrefix("line ") && cutShort.1.hasSuffix(" was cut short")
          && cutShort.2 == "line 3, where the change it belongs to starts")
          || (cutShort.1.hasPrefix("change at lines 3–") && cutShort.2 == "it"),
        "\(resumed.stderr)")
    }
  }
}
