import CalcCore

#if canImport(Glibc)
  import Glibc
#endif

/// The REPL's history file (`~/.calc_history`): made private, checked before it is read, and
/// appended to under a lock so that two calcs sharing it lose none of each other's lines.
///
/// readline reads the file and keeps the lines in memory (``Readline``); this is the file's
/// side.
enum HistoryFile {
  /// How many lines the history file keeps.
  static let limit = 1000

  /// Prepares the history file at `path` for readline to read; returns a warning when it cannot
  /// be used.
  ///
  /// The file is created with mode 0600, and an existing one is made 0600. It is opened without
  /// waiting and checked first: a FIFO or a directory is refused.
  static func prepare(_ path: String) -> String? {
    let name = FileName(path)
    let fd = open(path, O_RDWR | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      return "history file '\(name.shown)' cannot be used: \(Platform.errorMessage(errno))"
    }
    defer { close(fd) }
    var information = stat()
    guard fstat(fd, &information) == 0, FileKind(mode: information.st_mode) == .regular else {
      return "history file '\(name.shown)' is not a regular file; history is not saved"
    }
    if information.st_mode & 0o777 != 0o600 { fchmod(fd, 0o600) }
    return nil
  }

  /// Appends `line` to the file at `path`, which keeps its last `limit` lines.
  ///
  /// The file is changed under an exclusive lock, appended to and shortened in place. A file
  /// that cannot be opened, or is not a regular file, is left alone.
  /// - Complexity: O(size of the file), which holds at most `limit` lines.
  static func append(_ line: [UInt8], to path: String, limit: Int) {
    let fd = open(path, O_RDWR | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return }
    defer { close(fd) }
    var information = stat()
    guard fstat(fd, &information) == 0, FileKind(mode: information.st_mode) == .regular,
      flock(fd, LOCK_EX) == 0
    else { return }
    var contents: [UInt8] = []
    _ = Platform.readChunks(fd) { contents.append(contentsOf: $0) }
    if let last = contents.last, last != UInt8(ascii: "\n") { contents.append(10) }
    contents += line + [10]
    var lines = contents.count(where: { $0 == UInt8(ascii: "\n") })
    var start = 0
    while lines > limit, let newline = contents[start...].firstIndex(of: UInt8(ascii: "\n")) {
      start = newline + 1
      lines -= 1
    }
    let kept = contents[start...]
    guard Platform.writeFully(Array(kept), to: fd, fromStart: true) == nil else { return }
    if start > 0 { ftruncate(fd, off_t(kept.count)) }
  }
}
