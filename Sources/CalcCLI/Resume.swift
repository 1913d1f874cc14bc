import CalcCore
import CalculatorEngine

#if canImport(Glibc)
  import Glibc
#endif

/// A session rebuilt from a REPL journal (``Journal``), for `:resume` and `calc --resume`.
///
/// The journal is replayed into a fresh ``Session`` line by line, through ``ScriptLine`` and
/// ``Session/perform(_:)`` as `:load` replays a file, without formatting a display for each
/// line: that is what makes resuming faster than running the journal as a script. A journal
/// whose last line was cut short (the machine stopped, or the disk filled, while it was being
/// written), or that holds a line which cannot be replayed, gives back everything before that
/// line, and ``damage`` says so.
///
/// Checksums (see ``Journal``) are verified as the lines come: replaying stops before the first
/// line whose checksum does not match, or that has none once an earlier line had one (a line
/// without a checksum is accepted, as before, only while none has been seen: older journals,
/// hand-written scripts). Each checksum covers every byte before it, so a damaged byte is found
/// at the first checksum after it; a line ending in `\r` (its `\r` is not seen here) is damaged
/// in that sense too. Lines without checksums before the first line with one are vouched for
/// only by it: when it does not match, they go with it (calc writes every line of a journal
/// with a checksum, so such lines are a damaged comment, or a line split by a damaged byte). A
/// record of several lines (`:load`, `:resume`) counts only once its last line is verified:
/// when replaying stops inside one, or the journal ends before its last line, the session is
/// given back as it was before the record's first line. That costs no copy: the session before
/// a record is kept while the record replays, and a record starts with `:reset`, which drops
/// the history instead of changing it.
public struct ResumedSession: Sendable {
  /// The session as the journal left it.
  public let session: Session
  /// The journal it came from.
  public let path: String
  /// What could not be restored, as a sentence, or `nil` when the whole journal was replayed.
  public let damage: String?
  /// A note when the journal was written before SPEC rule 18 (its first line names no format,
  /// as ``Journal/header`` does): its numbers were typed when they still continued across
  /// lines.
  public let note: String?

  /// The note for a journal written before SPEC rule 18.
  static let olderFormatNote =
    "the journal was written before numbers stopped continuing across lines; each of its lines "
    + "now starts a new number"

  /// The most recently written journal in `directory` other than `ownPath` whose calc has
  /// ended and that holds a session, replayed; newer ones that a running calc still writes
  /// (``Journal/owner(of:)``) and newer ones that hold no session — empty, a header alone
  /// (``Journal/holdsNoSession(_:)-(String)``), or lines that replay to nothing — are skipped,
  /// and ``skipped`` says so (SPEC §8).
  ///
  /// Throws, changing nothing, when there is no folder or no earlier journal (or every one is
  /// still open or holds no session), or when the journal cannot be read or replays nothing.
  ///
  /// - Complexity: O(n log n) in the journals of the folder, then O(m) in the journals
  ///   replayed.
  public static func latest(in directory: String?, excluding ownPath: String?) throws(LineError)
    -> ResumedSession
  {
    guard let directory else {
      throw LineError("no earlier session to resume: neither XDG_STATE_HOME nor HOME is set")
    }
    var open: [Int32] = []
    var empty = 0
    for path in Journal.journals(in: directory) where path != ownPath {
      if let pid = Journal.owner(of: path) {
        open.append(pid)
        continue
      }
      if Journal.holdsNoSession(path) {
        empty += 1
        continue
      }
      var resumed = try ResumedSession(journal: path)
      // Lines that leave nothing (a `--resume` of nothing, journaled by an older calc).
      if resumed.damage == nil, resumed.session.history.isEmpty, resumed.session.kept == nil {
        empty += 1
        continue
      }
      if !open.isEmpty || empty > 0 {
        resumed.skipped =
          skippedSentence(open: open, empty: empty)
          + (open.count + empty == 1
            ? "; resuming the one before" : "; resuming the one before them")
      }
      return resumed
    }
    guard open.isEmpty, empty == 0 else {
      let which: String
      switch (open.count, empty) {
      case (1, 0): which = "the only one is still open in process \(open[0])"
      case (_, 0): which = "all \(open.count) are still open, in processes \(listed(open))"
      case (0, 1): which = "the only journal is empty"
      case (0, _): which = "all \(empty) journals are empty"
      default:
        which =
          "\(open.count == 1 ? "1 is" : "\(open.count) are") still open (\(processes(open))), and "
          + "\(empty == 1 ? "1 journal is" : "\(empty) journals are") empty"
      }
      throw LineError("no earlier session to resume: \(which)")
    }
    throw LineError("no earlier session to resume in '\(TextEscaping.escaped(directory))'")
  }

  /// Which newer journals `:resume` skipped, as a sentence: `the newest session is still open
  /// in process 1234; resuming the one before`, `the newest journal is empty; resuming the one
  /// before`; `nil` when it took the newest.
  public fileprivate(set) var skipped: String? = nil

  /// `the newest session is still open in process 1234`, `the 2 newest sessions are still open
  /// in processes 1234 and 5678`.
  static func stillOpenSentence(_ pids: [Int32]) -> String {
    pids.count == 1
      ? "the newest session is still open in process \(pids[0])"
      : "the \(pids.count) newest sessions are still open in processes \(listed(pids))"
  }

  /// What was skipped, `open` the processes of journals still open and `empty` the number of
  /// journals that hold no session: ``stillOpenSentence(_:)``, `the newest journal is empty`,
  /// `the 2 newest journals are empty`, or both: `the 3 newest journals were skipped: 1 still
  /// open (process 1234), 2 empty`.
  static func skippedSentence(open: [Int32], empty: Int) -> String {
    switch (open.count, empty) {
    case (_, 0): stillOpenSentence(open)
    case (0, 1): "the newest journal is empty"
    case (0, _): "the \(empty) newest journals are empty"
    default:
      "the \(open.count + empty) newest journals were skipped: \(open.count) still open "
        + "(\(processes(open))), \(empty) empty"
    }
  }

  /// `process 1234`, `processes 1234 and 5678`.
  private static func processes(_ pids: [Int32]) -> String {
    (pids.count == 1 ? "process " : "processes ") + listed(pids)
  }

  /// `1`, `1 and 2`, `1, 2 and 3`.
  private static func listed(_ pids: [Int32]) -> String {
    let names = pids.map(String.init)
    guard names.count > 1 else { return names.first ?? "" }
    return names.dropLast().joined(separator: ", ") + " and " + names.last!
  }

  /// Replays the journal at `path`.
  ///
  /// Throws when the journal cannot be opened, or when nothing of it can be restored: its first
  /// line is damaged or cut short, the record that starts there is, or the first line with a
  /// checksum does not match the lines without one before it.
  ///
  /// - Complexity: O(n) in the size of the journal.
  public init(journal path: String) throws(LineError) {
    self.path = path
    let shownPath = TextEscaping.escaped(path)
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw LineError("cannot resume '\(shownPath)': \(Platform.errorMessage(errno))")
    }
    defer { close(fd) }
    let tornLine = ResumedSession.tornLine(fd)
    // A first line that names a format later than this calc's.
    var newer: LineError?
    var replay = SessionScript.Replay()
    var lineNumber = 0
    var problem: String?
    var checksum = CRC32()
    // Whether a line with a checksum was read: from then on, every line needs one.
    var isChecked = false
    // The session before the record being replayed and the record's first line, while the
    // record's last line has not been read.
    var record: (session: Session, line: Int)?
    // Whether the first line with a checksum did not match the lines without one before it.
    var isPrefixDamaged = false
    let reader = LineReader(fd: fd)
    reader.forEachLine { line in
      lineNumber += 1
      guard lineNumber != tornLine else {
        problem = "was cut short"
        return false
      }
      var text = line
      let comment = Journal.checksumComment(of: line)
      if let comment {
        checksum.update(UnsafeBufferPointer(rebasing: line[..<comment.start]))
        guard checksum.value == comment.checksum else {
          problem = "is damaged (its checksum does not match)"
          if !isChecked, lineNumber > 1 {
            isPrefixDamaged = true
            let before =
              lineNumber == 2 ? "line 1, which has" : "lines 1–\(lineNumber - 1), which have"
            problem = "is damaged (its checksum does not match; it covers \(before) none)"
          }
          return false
        }
        checksum.update(UnsafeBufferPointer(rebasing: line[comment.start...]))
        isChecked = true
        text = UnsafeBufferPointer(rebasing: line[..<comment.start])
        if comment.continues, record == nil { record = (replay.session, lineNumber) }
      } else {
        guard !isChecked else {
          problem = "is damaged (it has no checksum)"
          return false
        }
        checksum.update(line)
      }
      // The reader hands lines without their newline; the checksum goes on over it.
      checksum.update(UInt8(ascii: "\n"))
      if lineNumber == 1 {
        do throws(LineError) {
          _ = try SessionScript.origin(ofFirstLine: text)
        } catch {
          newer = error
          return false
        }
      }
      do throws(LineError) {
        try replay.perform(text, other: SessionFileReplay.refusal)
      } catch {
        problem = "cannot be replayed (column \(error.column): \(error.message))"
        return false
      }
      if comment?.continues == false { record = nil }
      return true
    }
    if let newer { throw LineError("cannot resume '\(shownPath)': \(newer.message)") }
    // Whether the first line names a format (``Journal/header``): else the journal was written
    // before SPEC rule 18.
    let isCurrentFormat: Bool
    if case .format = replay.origin { isCurrentFormat = true } else { isCurrentFormat = false }
    if problem == nil, let reason = reader.failure {
      lineNumber += 1
      problem = "cannot be read (\(reason))"
    }
    // What went wrong, as the subject of a sentence: a line, or a record left unfinished.
    let what: String
    if let problem {
      what = lineNumber == 1 ? "first line \(problem)" : "line \(lineNumber) \(problem)"
    } else if let record {
      let lines = record.line == lineNumber ? "line " : "lines \(record.line)–"
      what = "change at \(lines)\(lineNumber) was cut short"
    } else {
      self.session = replay.session
      damage = nil
      note = isCurrentFormat ? nil : ResumedSession.olderFormatNote
      return
    }
    // A record that is not whole goes as a whole: the session as it was before it.
    let firstLost = isPrefixDamaged ? 1 : record?.line ?? lineNumber
    let inRecord = problem != nil && record != nil && firstLost < lineNumber
    guard firstLost > 1 else {
      let whole = inRecord ? ", in the change that starts at its first line" : ""
      throw LineError("cannot resume '\(shownPath)': its \(what)\(whole)")
    }
    self.session = record?.session ?? replay.session
    note = isCurrentFormat ? nil : ResumedSession.olderFormatNote
    let before = inRecord ? "line \(firstLost), where the change it belongs to starts" : "it"
    damage = "the journal's \(what): restored the session as it was before \(before)"
  }

  /// The number of the journal's last line if it lacks its newline, else `nil`.
  ///
  /// Each journal line is written whole with its newline, in one `write(2)`: a last line
  /// without one was torn, and its keys may be only some of the line's.
  ///
  /// - Complexity: O(1) when the file ends in a newline; else O(n) in its size.
  private static func tornLine(_ fd: Int32) -> Int? {
    var information = stat()
    guard fstat(fd, &information) == 0, information.st_size > 0 else { return nil }
    var last: UInt8 = 0
    guard pread(fd, &last, 1, information.st_size - 1) == 1, last != UInt8(ascii: "\n") else {
      return nil
    }
    var newlines = 0
    _ = Platform.readChunks(fd, fromStart: true) { chunk in
      newlines += chunk.lazy.filter { $0 == UInt8(ascii: "\n") }.count
    }
    return newlines + 1
  }

  /// `resumed 9 keys on 2 branches, at step 5 of 7 on branch 2`.
  public var summary: String {
    let history = session.history
    let count = history.recordedCount
    let keys = count == 1 ? "1 key" : "\(count) keys"
    if history.isEmpty { return "resumed an empty session" }
    guard history.branchCount > 1 else {
      return "resumed \(keys), at step \(history.position) of \(history.count)"
    }
    return
      "resumed \(keys) on \(history.branchCount) branches, at step \(history.position) of "
      + "\(history.count) on branch \(history.currentBranch)"
  }
}
