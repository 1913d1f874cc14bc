import CalculatorEngine

#if canImport(Glibc)
  import Glibc
#endif

/// Sessions saved by `:save` and read by `:load`: calc scripts in the format of
/// ``SessionScript``, every branch with its lines as typed, then `:branch` and `:goto` back to
/// where the session was.
enum SessionFile {
  /// Writes `history` to `path`, touching nothing else (see ``SafeFile``).
  static func save(_ history: History, to path: FileName) throws(LineError) {
    do {
      try SafeFile.write(Array(SessionScript.text(of: history).utf8), to: path)
    } catch {
      let outcome =
        error.backup.map { "its old contents are in '\($0.shown)'" }
        ?? "'\(path.shown)' is unchanged"
      throw LineError("cannot save '\(path.shown)': \(error.reason); \(outcome)")
    }
  }

  /// Replays the session file at `path` into a fresh session.
  ///
  /// Each line is parsed as a script line; its keys and session commands (`:goto`, `:undo`,
  /// `:redo`, `:branch`, `:reset`) are performed on the fresh session, which is returned only
  /// if every line was accepted, with whether it is in the format written before SPEC rule 18
  /// (``SessionScript/Replay/isOlderFormat``). Throws, naming the file, line and column, if the
  /// file cannot be read or holds a line that is neither; a file whose first line names a
  /// later format than this calc writes is refused as a whole (`cannot load 'f.calc': written
  /// by a newer calc (format 4; …)`).
  static func load(_ path: FileName) throws(LineError) -> (session: Session, isOlderFormat: Bool) {
    let shownPath = path.shown
    guard !path.bytes.contains(0) else {
      throw LineError("cannot load '\(shownPath)': file name holds a NUL byte")
    }
    let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC) }
    guard fd >= 0 else {
      throw LineError("cannot load '\(shownPath)': \(Platform.errorMessage(errno))")
    }
    defer { close(fd) }
    var replay = SessionScript.Replay()
    var failure: LineError?
    var lineNumber = 0
    let reader = LineReader(fd: fd)
    reader.forEachLine { line in
      lineNumber += 1
      if lineNumber == 1 {
        // A file from a newer calc is refused as a whole, not at a line of it.
        do throws(LineError) {
          _ = try SessionScript.origin(ofFirstLine: line)
        } catch {
          failure = LineError("cannot load '\(shownPath)': \(error.message)")
          return false
        }
      }
      do throws(LineError) {
        try replay.perform(line, other: refusal)
        return true
      } catch {
        let place = Diagnostic(
          file: shownPath, line: lineNumber, column: error.column, error.message)
        failure = LineError("cannot load '\(shownPath)': \(place.text)")
        return false
      }
    }
    if let failure { throw failure }
    switch reader.failure {
    case nil: break
    case .unreadable(let reason): throw LineError("cannot load '\(shownPath)': \(reason)")
    case .lineTooLong:
      let place = Diagnostic(file: shownPath, line: lineNumber + 1, LineReader.tooLongMessage)
      throw LineError("cannot load '\(shownPath)': \(place.text)")
    case .interrupted: throw LineError("cannot load '\(shownPath)': interrupted")
    case .acceptedRejectedPrefix:
      let place = Diagnostic(file: shownPath, line: lineNumber, LineReader.disagreementMessage)
      throw LineError("cannot load '\(shownPath)': \(place.text)")
    }
    return (replay.session, replay.isOlderFormat)
  }

  /// Why a directive that is not a session command cannot be in a session file: the error it
  /// has anywhere (an unknown command, a bad argument), or else that it is no session command.
  static func refusal(_ directive: ScriptLine.Directive) -> LineError {
    do {
      _ = try LineCommand(directive)
    } catch {
      return error
    }
    return SessionScript.Replay.notASessionCommand(directive)
  }
}
