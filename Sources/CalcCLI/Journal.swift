import CalcCore
import CalculatorEngine

#if canImport(Glibc)
  import Glibc
#endif

/// The REPL's journal: every accepted line that changes the session, appended to a calc script
/// as it is accepted, so that a crash or `kill -9` loses nothing (SPEC §6).
///
/// Journals live in `$XDG_STATE_HOME/calc/` (default `~/.local/state/calc/`), a folder of mode
/// 0700, one file of mode 0600 per REPL run, named by its start time and process id so that two
/// REPLs at once never share one. The file is created with the first line that changes the
/// session, so a run that changes nothing leaves none behind. Each line is one `write(2)`:
/// once it returns, the line survives the process. A journal that cannot be written is
/// reported once; the session goes on without it.
///
/// A journal belongs to its session until the session ends (SPEC §8): calc takes an exclusive
/// `flock(2)` on it when it creates it and holds it until ``close()`` or the end of the process
/// (a `kill -9` included, when the kernel drops it). Pruning (``prune(_:keeping:own:)``) removes
/// only journals whose lock it can take, and `:resume` skips locked ones (``owner(of:)``),
/// naming the process from the id in the journal's name. A lock that cannot be taken (a file
/// system without locks) is reported once; other calcs then keep the journal while a process
/// of that id exists (`JournalLockTests`). A journal that holds no session — empty, or its
/// header alone (``holdsNoSession(_:)``) — is skipped by `:resume` and removed by pruning.
///
/// What is written is decided by ``LineInterpreter``: for each change it performs, the script
/// lines that replay it exactly (``lines(for:change:after:)``), taken by ``record(_:)``.
///
/// Each line carries a checksum, so that a resume never takes damaged or half-written lines
/// for a state the user saw. It is a trailing comment, one space, `#`, `crc` (or `crc+`), one
/// space and eight lowercase hexadecimal digits, so the journal stays a calc script:
///
/// ```
/// # calc journal, format 3 # crc 2be62890
/// 12+3= # crc eba0e26d
/// :goto 2 # crc 47c1e3df
/// :reset load # crc+ 2b52d679
/// # calc session, format 3: 1 branch, at step 5 of 5 on branch 1 # crc+ 5c6dfec3
/// 12+3= # crc+ 034e3dd2
/// :goto 5 # crc 84fcec77
/// ```
///
/// (The header, then `12+3=`, `:goto 2`, then a `:load` of a file holding `12+3=`.) The first
/// line names the journal's format (``header``), a record of its own written with the first
/// change; a journal without it was written before SPEC rule 18 and is resumed with a note. The number is the CRC-32
/// (``CRC32``) of every byte of the file before the comment's `#`: all earlier lines with their
/// newlines, then this line's text and the one space before `#`. A `#` starts a comment in key
/// text and, after a blank, in command and comment lines, so `calc JOURNAL` reads the checksums
/// as the comments they are.
///
/// Each ``append(_:)`` is one *record*, the changes of one accepted line, written with one
/// `write(2)`: usually one line; `:load` and `:resume` write `:reset load` or `:reset resume`
/// and a whole session, which a resume replays as one change that `:undo` can take back, like
/// the one recorded (SPEC §4; ``SessionScript/forEachRecordLine(of:change:leaving:_:)``). Every
/// line of a record but its last is marked `crc+` (the record continues), its last `crc`. A
/// resume (``ResumedSession``) keeps a record only once its last line is read and verified, so a
/// record torn at a line boundary is not half replayed.
///
/// An append that fails (a full disk: a short write, then `ENOSPC`) is cut off again with
/// `ftruncate` to the size before it, and the report says so if that fails too; a journal whose
/// first append fails is removed, as if nothing had been written.
public final class Journal {
  /// The first line of every journal: its format, that of session scripts
  /// (``SessionScript/format``, 3 since SPEC v4). Formats 2 and 3 are replayed with SPEC rule 18
  /// (each line starts by ending the number being typed); a journal without this line was
  /// written before rule 18, and is resumed with a note; one that names a later format is
  /// refused (``SessionScript/origin(ofFirstLine:)``).
  public static let header = "# calc journal, format \(SessionScript.format)"

  /// How many finished journals are kept: older ones are removed when a REPL starts and when
  /// it writes its first line; those still locked by a running calc are kept besides, and do
  /// not count (``prune(_:keeping:own:)``).
  public static let kept = 20
  /// The ending of journal file names.
  static let suffix = ".calc"

  /// The folder of the journals.
  public let directory: String
  /// This run's journal file; it exists once a line was written.
  public let path: String
  private var fd: Int32 = -1
  /// The size of the file: the bytes of the records written whole.
  private var size: off_t = 0
  /// The CRC-32 of those bytes, where the next line's checksum goes on from.
  private var checksum = CRC32()
  /// Set once writing failed: nothing more is tried.
  public private(set) var isBroken = false
  /// Where problems are reported, once.
  private let report: (String) -> Void

  /// The journal folder for `environment`: `$XDG_STATE_HOME/calc` when that is an absolute
  /// path, else `$HOME/.local/state/calc`; `nil` when neither is known.
  public static func directory(environment: Environment) -> String? {
    if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
      return concatenated(state, "/calc")
    }
    guard let home = environment["HOME"], !home.isEmpty else { return nil }
    return concatenated(home, "/.local/state/calc")
  }

  /// `head` and then `tail`, put together from their UTF-8: the string `head + tail` is, without
  /// the standard library's appending of strings, which a start would run for this alone
  /// (Documentation/Performance.md).
  static func concatenated(_ head: String, _ tail: String) -> String {
    String(decoding: Array(head.utf8) + Array(tail.utf8), as: UTF8.self)
  }

  /// A journal for this run in `directory`, which is created (mode 0700) if need be; older
  /// journals beyond ``kept`` are removed. Returns `nil`, after reporting why, when the folder
  /// cannot be made.
  public init?(directory: String, report: @escaping (String) -> Void) {
    self.directory = directory
    self.report = report
    path = directory + "/" + Journal.fileName()
    guard Journal.makeDirectory(directory) else {
      report(
        "calc: journal: cannot create '\(TextEscaping.escaped(directory))': "
          + "\(Platform.errorMessage(errno)); this session is not journaled")
      return nil
    }
    Journal.prune(directory, keeping: Journal.kept)
  }

  deinit { close() }

  /// Appends `lines` as one record, each line (and each line within one of them: a loaded
  /// session comes as one string) followed by its checksum comment and a newline, in one
  /// `write(2)`.
  ///
  /// Returns false, having reported it the first time, when the journal cannot be written; the
  /// bytes of a failed append are cut off again (see ``Journal``).
  ///
  /// - Complexity: O(n) in the bytes written.
  @discardableResult
  public func append(_ lines: [String]) -> Bool {
    guard !isBroken else { return false }
    guard !lines.isEmpty else { return true }
    var bytes: [UInt8] = []
    var running = checksum
    if fd < 0 {
      // A new journal names its format in its first line, a record of its own written with
      // the first change.
      var header = Journal.header
      header.withUTF8 {
        Journal.appendLine($0, continues: false, to: &bytes, checksum: &running)
      }
      fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o600)
      guard fd >= 0 else { return fail() }
      // The umask can only narrow 0600; make sure nothing widened it.
      fchmod(fd, 0o600)
      // Ours until the session ends: pruning and resuming leave a locked journal alone.
      switch Platform.lockForLife(fd) {
      case .taken: break
      case .held:
        reportUnlocked("another process holds a lock on it")
      case .unsupported(let reason):
        reportUnlocked(reason)
      }
      // Ours is now the newest: with it, the last `kept` sessions stay.
      Journal.prune(directory, keeping: Journal.kept, own: path)
    }
    for (index, line) in lines.enumerated() {
      var text = line
      text.withUTF8 { utf8 in
        var start = 0
        while true {
          let end = utf8[start...].firstIndex(of: UInt8(ascii: "\n")) ?? utf8.count
          Journal.appendLine(
            UnsafeBufferPointer(rebasing: utf8[start..<end]),
            continues: end < utf8.count || index < lines.count - 1, to: &bytes,
            checksum: &running)
          guard end < utf8.count else { break }
          start = end + 1
        }
      }
    }
    guard Platform.writeFully(bytes, to: fd) == nil else { return fail() }
    size += off_t(bytes.count)
    checksum = running
    return true
  }

  /// Appends `line`, the space and checksum comment, and a newline to `bytes`, carrying
  /// `checksum` over all of it; `continues` marks a line that is not its record's last.
  ///
  /// - Complexity: O(n) in the length of the line.
  private static func appendLine(
    _ line: UnsafeBufferPointer<UInt8>, continues: Bool, to bytes: inout [UInt8],
    checksum: inout CRC32
  ) {
    let start = bytes.count
    bytes.append(contentsOf: line)
    bytes.append(UInt8(ascii: " "))
    bytes.withUnsafeBufferPointer { checksum.update(UnsafeBufferPointer(rebasing: $0[start...])) }
    let value = checksum.value
    let comment = bytes.count
    bytes.append(contentsOf: continues ? Journal.continuingMark : Journal.lastMark)
    for shift in stride(from: 28, through: 0, by: -4) {
      bytes.append(hexDigits[Int((value >> UInt32(shift)) & 0xF)])
    }
    bytes.append(UInt8(ascii: "\n"))
    bytes.withUnsafeBufferPointer {
      checksum.update(UnsafeBufferPointer(rebasing: $0[comment...]))
    }
  }

  /// The comment of a record's last line, up to its digits.
  private static let lastMark = Array("# crc ".utf8)
  /// The comment of a line that its record goes on after, up to its digits.
  private static let continuingMark = Array("# crc+ ".utf8)
  /// The digits of a checksum, by their value.
  private static let hexDigits = Array("0123456789abcdef".utf8)

  /// A journal line's checksum comment: where its `#` is, the checksum, and whether the
  /// record goes on after the line (`crc+`).
  public struct ChecksumComment: Hashable, Sendable {
    /// The offset of the `#`: the checksum covers the file's bytes before it.
    public let start: Int
    /// The CRC-32 it states.
    public let checksum: UInt32
    /// Whether the line's record goes on after it (`crc+`), rather than ending with it.
    public let continues: Bool
  }

  /// The checksum comment that `line` (without its newline) ends with, or `nil` when it ends
  /// otherwise: ` # crc ` or ` # crc+ ` and eight lowercase hexadecimal digits, exactly.
  public static func checksumComment(of line: UnsafeBufferPointer<UInt8>) -> ChecksumComment? {
    let count = line.count
    guard count >= 15 else { return nil }
    var value: UInt32 = 0
    for index in (count - 8)..<count {
      let byte = line[index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte &- UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte &- UInt8(ascii: "a") &+ 10
      default: return nil
      }
      value = value << 4 | UInt32(digit)
    }
    func matches(_ mark: [UInt8], at start: Int) -> Bool {
      guard start > 0, line[start - 1] == UInt8(ascii: " ") else { return false }
      for (offset, byte) in mark.enumerated() where line[start + offset] != byte { return false }
      return true
    }
    if matches(lastMark, at: count - 8 - lastMark.count) {
      return ChecksumComment(start: count - 14, checksum: value, continues: false)
    }
    if count >= 16, matches(continuingMark, at: count - 8 - continuingMark.count) {
      return ChecksumComment(start: count - 15, checksum: value, continues: true)
    }
    return nil
  }

  /// Appends the records of `effects` (each line's ``LineInterpreter/LineResult/effect``), in
  /// one write; consecutive moves are recorded as the one `:goto` they came to.
  ///
  /// The REPL calls this after each accepted line and before printing its output.
  @discardableResult
  public func record(_ effects: [Session.Effect]) -> Bool {
    var lines: [String] = []
    for effect in Journal.coalescingMoves(effects) {
      // A replaced session is the one the command carried: the journal needs no other.
      lines += Journal.lines(for: effect.command, change: effect.change, after: Session())
    }
    return append(lines)
  }

  /// `effects` with each run of consecutive moves made one move, from where the first started
  /// to where the last ended (none if that is where it started): the slider's many small moves
  /// are one record.
  static func coalescingMoves(_ effects: [Session.Effect]) -> [Session.Effect] {
    var result: [Session.Effect] = []
    for effect in effects {
      guard case .moved(_, let to) = effect.change, let last = result.last,
        case .moved(let from, _) = last.change
      else {
        result.append(effect)
        continue
      }
      result[result.count - 1] = Session.Effect(
        command: .goto(.step(to)), change: .moved(from: from, to: to))
    }
    return result
  }

  /// Flushes the journal to the disk and closes it.
  public func close() {
    guard fd >= 0 else { return }
    fsync(fd)
    Glibc.close(fd)
    fd = -1
  }

  /// Reports, once per journal (it is created once), that its lock could not be taken: other
  /// calcs then go by its process id (``owner(of:)``).
  private func reportUnlocked(_ reason: String) {
    report(
      "calc: journal: cannot lock '\(TextEscaping.escaped(path))': \(reason); other calcs keep "
        + "it while process \(getpid()) runs")
  }

  /// Gives up on the journal after a failed open or write (the reason is in `errno`): the
  /// part of the record written is cut off, back to ``size`` (a journal that held nothing is
  /// removed), and the failure reported.
  private func fail() -> Bool {
    let reason = Platform.errorMessage(errno)
    isBroken = true
    var cutOff = ""
    if fd >= 0 {
      // Only a journal this append created can be empty: it goes, as if never written.
      let done = size == 0 ? unlink(path) == 0 || errno == ENOENT : ftruncate(fd, size) == 0
      if !done { cutOff = ", nor cut off the part written (\(Platform.errorMessage(errno)))" }
      Glibc.close(fd)
      fd = -1
    }
    report(
      "calc: journal: cannot write '\(TextEscaping.escaped(path))': \(reason)\(cutOff); "
        + "the session goes on without it")
    return false
  }

  /// The journal record of `command`, which `change` says was performed and left `session`:
  /// ``SessionScript/forEachRecordLine(of:change:leaving:_:)``'s lines, as one string joined by
  /// newlines (a replaced session of millions of lines is written without an array of them), or
  /// nothing for a change that changed nothing.
  ///
  /// - Complexity: O(n) in the keys of a line, or of the whole session for a replacement.
  static func lines(for command: Session.Command, change: Session.Change, after session: Session)
    -> [String]
  {
    var record: String?
    SessionScript.forEachRecordLine(of: command, change: change, leaving: session) { line in
      if record == nil {
        record = line
      } else {
        record! += "\n"
        record! += line
      }
    }
    return record.map { [$0] } ?? []
  }
}
