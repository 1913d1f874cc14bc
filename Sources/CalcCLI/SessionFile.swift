import CalculatorEngine

#if canImport(Glibc)
  import Glibc
#endif

/// Sessions saved by `:save` and read by `:load`: calc scripts holding every key of the timeline,
/// then `:goto N` back to the saved step.
enum SessionFile {
  /// The commands a session file may hold; anything with effects outside the timeline is refused.
  static let loadableCommands: Set<String> = ["goto", "undo", "redo", "reset"]

  /// The text of a session file for `timeline`.
  ///
  /// - Complexity: O(n) in the number of keys.
  static func text(of timeline: Timeline) -> String {
    "# calc session: \(timeline.count) keys, at step \(timeline.position)\n"
      + KeyText.text(of: timeline.keys) + "\n:goto \(timeline.position)\n"
  }

  /// Writes `timeline` to `path` atomically: to a temporary file beside it, flushed to disk, then
  /// renamed over it, so that a reader sees the old file or the new one, never a part.
  static func save(_ timeline: Timeline, to path: String) throws(LineError) {
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
    let bytes = Array(text(of: timeline).utf8)
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

  /// Replays the session file at `path` into a fresh timeline.
  ///
  /// Throws, naming the file, line and column, if the file cannot be read or holds a line that
  /// is not keys or a timeline command.
  static func load(_ path: String, format: DisplayFormat) throws(LineError) -> Timeline {
    let shownPath = TextEscaping.escaped(path)
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw LineError("cannot load '\(shownPath)': \(String(cString: strerror(errno)))")
    }
    defer { close(fd) }
    var interpreter = LineInterpreter(format: format)
    var scratch: [UInt8] = []
    var failure: LineError?
    var lineNumber = 0
    let reader = LineReader(fd: fd)
    reader.forEachLine { line in
      lineNumber += 1
      do throws(LineError) {
        if let (name, column) = command(in: line), !loadableCommands.contains(name) {
          throw LineError(
            ":\(TextEscaping.escaped(name)) cannot be used in a session file", column: column)
        }
        try interpreter.run(line, output: &scratch)
        scratch.removeAll(keepingCapacity: true)
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
    return interpreter.timeline
  }

  /// The name of the command on `line` and the column of its `:`, or `nil` for a key, blank or
  /// comment line.
  private static func command(in line: UnsafeBufferPointer<UInt8>) -> (String, Int)? {
    let full = String(decoding: line, as: UTF8.self)
    let text = full.drop { $0 == " " || $0 == "\t" }
    guard text.first == ":" else { return nil }
    return (
      String(text.dropFirst().prefix { $0 != " " && $0 != "\t" }), full.count - text.count + 1
    )
  }

  /// `~/x` with the home directory in front, as a shell would.
  static func expandingTilde(_ path: String) -> String {
    guard path == "~" || path.hasPrefix("~/"), let home = Environment.process["HOME"] else {
      return path
    }
    return home + path.dropFirst()
  }
}
