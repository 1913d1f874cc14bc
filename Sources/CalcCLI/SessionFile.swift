import CalculatorEngine

#if canImport(Glibc)
  import Glibc
#endif

/// Sessions saved by `:save` and read by `:load`: calc scripts in the format of
/// ``SessionScript``, every branch with its lines as typed, then `:branch` and `:goto` back to
/// where the session was.
enum SessionFile {
  /// Writes `history` to `path` atomically: to a temporary file beside it, flushed to disk, then
  /// renamed over it, so that a reader sees the old file or the new one, never a part.
  static func save(_ history: History, to path: String) throws(LineError) {
    func failure(_ code: Int32) -> LineError {
      LineError("cannot save '\(TextEscaping.escaped(path))': \(String(cString: strerror(code)))")
    }
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { String(path[...$0]) } ?? ""
    var template = Array((directory + ".calc-save-XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { throw failure(errno) }
    let temporary = String(
      decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var ok = false
    defer { if !ok { unlink(temporary) } }
    // mkstemp creates mode 0600; a session file gets the usual 0666 less the umask.
    let mask = umask(0)
    umask(mask)
    fchmod(fd, 0o666 & ~mask)
    let bytes = Array(SessionScript.text(of: history).utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else {
        let code = errno
        close(fd)
        throw failure(code)
      }
      offset += written
    }
    guard fsync(fd) == 0, close(fd) == 0 else { throw failure(errno) }
    guard rename(temporary, path) == 0 else { throw failure(errno) }
    ok = true
  }

  /// Replays the session file at `path` into a fresh session.
  ///
  /// Each line is parsed as a script line; its keys and session commands (`:goto`, `:undo`,
  /// `:redo`, `:branch`, `:reset`) are performed on the fresh session, which is returned only
  /// if every line was accepted. Throws, naming the file, line and column, if the file cannot be
  /// read or holds a line that is neither.
  static func load(_ path: String) throws(LineError) -> Session {
    let shownPath = TextEscaping.escaped(path)
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw LineError("cannot load '\(shownPath)': \(String(cString: strerror(errno)))")
    }
    defer { close(fd) }
    var session = Session()
    var failure: LineError?
    var lineNumber = 0
    let reader = LineReader(fd: fd)
    reader.forEachLine { line in
      lineNumber += 1
      do throws(LineError) {
        try perform(line, on: &session)
        return true
      } catch {
        failure = LineError(
          "cannot load '\(shownPath)': \(shownPath):\(lineNumber):\(error.column): \(error.message)"
        )
        return false
      }
    }
    if let failure { throw failure }
    if let reason = reader.failure { throw LineError("cannot load '\(shownPath)': \(reason)") }
    return session
  }

  /// Performs one line of a session file on `session`.
  static func perform(_ line: UnsafeBufferPointer<UInt8>, on session: inout Session)
    throws(LineError)
  {
    let parsed: ScriptLine
    do {
      parsed = try ScriptLine(line)
    } catch {
      throw LineError(error.description, column: error.column)
    }
    let command: Session.Command
    let column: Int
    switch parsed {
    case .blank: return
    case .keys(let keys): (command, column) = (.keys(keys), 1)
    case .command(let parsed):
      guard case .session(let change) = try LineCommand(parsed) else {
        throw LineError(
          ":\(TextEscaping.escaped(parsed.name)) cannot be used in a session file",
          column: parsed.column)
      }
      (command, column) = (change, parsed.argumentColumn)
    }
    do {
      try session.perform(command)
    } catch {
      throw LineError(error.description, column: column)
    }
  }

  /// `~/x` with the home directory in front, as a shell would.
  static func expandingTilde(_ path: String) -> String {
    guard path == "~" || path.hasPrefix("~/"), let home = Environment.process["HOME"] else {
      return path
    }
    return home + path.dropFirst()
  }
}
