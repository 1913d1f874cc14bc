import CalculatorEngine
import Foundation

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

  /// Writes `timeline` to `path` atomically: to a temporary file beside it, then renamed over it.
  static func save(_ timeline: Timeline, to path: String) throws(LineError) {
    do {
      try Data(text(of: timeline).utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw LineError("cannot save '\(TextEscaping.escaped(path))': \(reason(error))")
    }
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
        if let name = commandName(line), !loadableCommands.contains(name) {
          throw LineError(":\(TextEscaping.escaped(name)) cannot be used in a session file")
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

  /// The name of the command on `line`, or `nil` for a key, blank or comment line.
  private static func commandName(_ line: UnsafeBufferPointer<UInt8>) -> String? {
    let text = String(decoding: line, as: UTF8.self).drop { $0 == " " || $0 == "\t" }
    guard text.first == ":" else { return nil }
    return String(text.dropFirst().prefix { $0 != " " && $0 != "\t" })
  }

  /// `~/x` with the home directory in front, as a shell would.
  static func expandingTilde(_ path: String) -> String {
    guard path == "~" || path.hasPrefix("~/"),
      let home = ProcessInfo.processInfo.environment["HOME"]
    else { return path }
    return home + path.dropFirst()
  }

  private static func reason(_ error: any Error) -> String {
    if let posix = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError,
      posix.domain == NSPOSIXErrorDomain
    {
      return String(cString: strerror(Int32(posix.code)))
    }
    return (error as NSError).localizedDescription
  }
}
