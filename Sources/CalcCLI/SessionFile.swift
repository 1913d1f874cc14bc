import CalcCore
import CalculatorEngine

#if canImport(Glibc)
  import Glibc
#endif

/// Sessions read by `:load` from the file system: calc scripts in the format of
/// ``SessionScript``, every branch with its lines as typed, then `:branch` and `:goto` back to
/// where the session was (the interpreter writes them through its host's ``Files``).
enum SessionFile {
  /// Replays the session file at `path` into a fresh session (see ``SessionFileReplay``).
  ///
  /// Throws, naming the file (as `shownPath`, else as `path` is shown), line and column, if the
  /// file cannot be read or is refused.
  static func load(_ path: FileName, shownPath: String? = nil) throws(LineError) -> (
    session: Session, isOlderFormat: Bool
  ) {
    let shownPath = shownPath ?? path.shown
    guard !path.bytes.contains(0) else {
      throw LineError("cannot load '\(shownPath)': file name holds a NUL byte")
    }
    let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC) }
    guard fd >= 0 else {
      throw LineError("cannot load '\(shownPath)': \(Platform.errorMessage(errno))")
    }
    defer { close(fd) }
    var replay = SessionFileReplay(shownPath: shownPath)
    let reader = LineReader(fd: fd)
    reader.forEachLine { line in replay.perform(line) }
    if let failure = replay.failure { throw failure }
    let lineNumber = replay.lineNumber
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
    return replay.result
  }
}

extension Files {
  /// The machine's file system: `stat` for identities, ``SafeFile/write(_:to:)`` for writes,
  /// ``SessionFile/load(_:)`` for `:load`, and the journals (``ResumedSession/latest(in:excluding:)``)
  /// for `:resume`.
  public static let system = Files(
    identity: { FileIdentity(of: $0) },
    write: { bytes, name throws(WriteFailure) in
      do throws(SafeFile.Failure) {
        try SafeFile.write(bytes, to: name)
      } catch {
        throw WriteFailure(reason: error.reason, backup: error.backup, isNewFile: error.isNewFile)
      }
    },
    load: { name throws(LineError) in try SessionFile.load(name) },
    resume: { directory, own throws(LineError) in
      let resumed = try ResumedSession.latest(in: directory, excluding: own)
      return Resumption(
        session: resumed.session, skipped: resumed.skipped, damage: resumed.damage,
        note: resumed.note)
    })
}
