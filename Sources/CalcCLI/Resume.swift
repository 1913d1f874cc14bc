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
public struct ResumedSession: Sendable {
  /// The session as the journal left it.
  public let session: Session
  /// The journal it came from.
  public let path: String
  /// What could not be restored, as a sentence, or `nil` when the whole journal was replayed.
  public let damage: String?

  /// The most recently written journal in `directory` other than `ownPath`, replayed.
  ///
  /// Throws, changing nothing, when there is no folder or no earlier journal, or when the
  /// journal cannot be read or replays nothing.
  public static func latest(in directory: String?, excluding ownPath: String?) throws(LineError)
    -> ResumedSession
  {
    guard let directory else {
      throw LineError("no earlier session to resume: neither XDG_STATE_HOME nor HOME is set")
    }
    guard let path = Journal.journals(in: directory).first(where: { $0 != ownPath }) else {
      throw LineError("no earlier session to resume in '\(TextEscaping.escaped(directory))'")
    }
    return try ResumedSession(journal: path)
  }

  /// Replays the journal at `path`.
  ///
  /// - Complexity: O(n) in the size of the journal.
  public init(journal path: String) throws(LineError) {
    self.path = path
    let shownPath = TextEscaping.escaped(path)
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw LineError("cannot resume '\(shownPath)': \(String(cString: strerror(errno)))")
    }
    defer { close(fd) }
    let tornLine = ResumedSession.tornLine(fd)
    var replay = SessionScript.Replay()
    var lineNumber = 0
    var problem: String?
    let reader = LineReader(fd: fd)
    reader.forEachLine { line in
      lineNumber += 1
      guard lineNumber != tornLine else {
        problem = "was cut short"
        return false
      }
      do throws(LineError) {
        try replay.perform(line, other: SessionFile.refusal)
        return true
      } catch {
        problem = "cannot be replayed (column \(error.column): \(error.message))"
        return false
      }
    }
    if problem == nil, let reason = reader.failure {
      lineNumber += 1
      problem = "cannot be read (\(reason))"
    }
    if let problem, lineNumber == 1 {
      throw LineError("cannot resume '\(shownPath)': its first line \(problem)")
    }
    self.session = replay.session
    damage = problem.map {
      "the journal's line \(lineNumber) \($0): restored the session as it was before it"
    }
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
    var offset: off_t = 0
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, offset) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      newlines += buffer[..<count].lazy.filter { $0 == UInt8(ascii: "\n") }.count
      offset += off_t(count)
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

extension REPL {
  /// This run's journal, unless `--no-journal`; a folder that is unknown (no `HOME`) or cannot
  /// be made is reported on `errors`, once, like any later write error, and the session goes on.
  mutating func openJournal(errors: OutputBuffer) -> Journal? {
    guard keepsJournal else { return nil }
    guard let directory = interpreter.host.journalDirectory else {
      errors.write(
        "calc: journal: neither XDG_STATE_HOME nor HOME is set; this session is not journaled\n")
      errors.flush()
      return nil
    }
    let journal = Journal(directory: directory) { message in
      errors.write(message + "\n")
      errors.flush()
    }
    var host = interpreter.host
    host.ownJournal = journal?.path
    interpreter = LineInterpreter(
      context: interpreter.context, host: host, session: interpreter.session)
    return journal
  }

  /// ``startupLine``, with ``resumeHint`` when an earlier session can be resumed.
  var startupLine: String {
    guard !resumes, let directory = interpreter.host.journalDirectory,
      !Journal.journals(in: directory).isEmpty
    else { return REPL.startupLine }
    return REPL.startupLine + REPL.resumeHint
  }
}
