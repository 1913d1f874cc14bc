import CalculatorEngine

#if canImport(Glibc)
  import Glibc
#endif

/// A file name as the system takes it: bytes, which need not be UTF-8.
///
/// A name typed or read from a script is passed to the system exactly as it came, so that a name
/// that is not UTF-8 names that file and no other.
struct FileName: Hashable, Sendable {
  let bytes: [UInt8]

  init(_ bytes: some Sequence<UInt8>) {
    self.bytes = Array(bytes)
  }

  init(_ text: String) {
    bytes = Array(text.utf8)
  }

  /// The name for messages: control and invisible characters escaped (`\u{1B}`), bytes that are
  /// not UTF-8 as `\x{FF}`.
  var shown: String {
    var result = ""
    var index = 0
    while index < bytes.count {
      var iterator = bytes[index...].makeIterator()
      var decoder = UTF8()
      if case .scalarValue(let scalar) = decoder.decode(&iterator) {
        result += TextEscaping.escaped(String(scalar))
        index += UTF8.width(scalar)
      } else {
        result += "\\x{\(String(bytes[index], radix: 16, uppercase: true))}"
        index += 1
      }
    }
    return result
  }

  /// The name with `~` or a leading `~/` replaced by `home`, as a shell would.
  func expandingTilde(home: String?) -> FileName {
    let slash = UInt8(ascii: "/")
    guard let home, bytes.first == UInt8(ascii: "~"), bytes.count == 1 || bytes[1] == slash
    else { return self }
    return FileName(Array(home.utf8) + bytes.dropFirst())
  }

  /// The folder part, up to and including the last `/`; empty for a name without one.
  var folder: FileName {
    FileName(bytes[..<(bytes.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0)])
  }

  /// Calls `body` with the name as a C string. The name must hold no NUL byte.
  func withCString<T>(_ body: (UnsafePointer<CChar>) -> T) -> T {
    (bytes + [0]).withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
    }
  }
}

/// Writing a file so that nothing but the file is touched: `:save`'s write path.
///
/// The target is found by following symbolic links, so a link keeps pointing at the file it
/// named. Only a regular file (or no file yet) is written; a directory, a FIFO or a device is
/// refused. The new contents go to a temporary file beside the target, flushed to disk, then
/// renamed over it with the old file's permissions and owner, so that a reader sees the old file
/// or the new one, never a part. A file with other hard links, or owned by someone else (whose
/// ownership a new file could not keep), is rewritten in place instead, which keeps its links,
/// owner and permissions. In place, the old contents stay recoverable until the new ones are
/// complete: they are first copied to a backup file beside the target (`.calc-backup-PID-XXXXXX`,
/// flushed to disk), and if writing the new contents fails (a full disk) the old ones are
/// written back; only if that fails too is the backup kept, and the failure names it. The
/// temporary file is removed on every failure, and those that a killed calc left behind in that
/// folder are removed by the next save there; a backup is never removed but by the save that
/// made it, since it may hold the only copy.
enum SafeFile {
  /// Why a write failed, as a person reads it (`Is a directory`), and what became of the target.
  struct Failure: Error {
    let reason: String
    /// `nil` when the target is as it was; else the backup holding its old contents, which
    /// could not be written back.
    var backup: FileName? = nil
  }

  /// The prefix of temporary files; the process id follows, so that a stale one is recognised.
  static let temporaryPrefix = ".calc-save-"
  /// The prefix of the backup of a file written in place; the process id follows.
  static let backupPrefix = ".calc-backup-"

  /// Writes `contents` to `name` as described above.
  static func write(_ contents: [UInt8], to name: FileName) throws(Failure) {
    guard !name.bytes.contains(0) else { throw Failure(reason: "file name holds a NUL byte") }
    let target = try resolvingLinks(name)
    var information = stat()
    let exists = target.withCString { stat($0, &information) } == 0
    if !exists && errno != ENOENT { throw .system(errno) }
    if exists {
      if let refusal = FileKind(mode: information.st_mode).refusal {
        throw Failure(reason: refusal)
      }
    }
    if exists && (information.st_nlink > 1 || information.st_uid != geteuid() && geteuid() != 0) {
      try writeInPlace(contents, to: target, identity: information)
    } else {
      try replace(target, with: contents, keeping: exists ? information : nil)
    }
  }

  /// `name` with every symbolic link along its last component followed.
  private static func resolvingLinks(_ name: FileName) throws(Failure) -> FileName {
    var current = name
    for _ in 0..<40 {
      var information = stat()
      guard current.withCString({ lstat($0, &information) }) == 0 else {
        if errno == ENOENT { return current }
        throw .system(errno)
      }
      guard FileKind(mode: information.st_mode) == .symbolicLink else { return current }
      var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
      let count = current.withCString { path in
        buffer.withUnsafeMutableBufferPointer { raw in
          raw.withMemoryRebound(to: CChar.self) { readlink(path, $0.baseAddress!, raw.count) }
        }
      }
      guard count > 0 else { throw .system(errno) }
      let link = buffer[..<count]
      current =
        link.first == UInt8(ascii: "/") ? FileName(link) : FileName(current.folder.bytes + link)
    }
    throw .system(ELOOP)
  }

  /// Writes `contents` to a temporary file beside `target`, then renames it over `target`.
  private static func replace(_ target: FileName, with contents: [UInt8], keeping old: stat?)
    throws(Failure)
  {
    let folder = target.folder
    removeStaleTemporaryFiles(in: folder)
    var template = folder.bytes + Array("\(temporaryPrefix)\(getpid())-XXXXXX".utf8) + [0]
    let fd = template.withUnsafeMutableBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { mkstemp($0.baseAddress!) }
    }
    guard fd >= 0 else { throw .system(errno) }
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    let temporary = FileName(template.dropLast())
    var isDone = false
    defer {
      if !isDone { _ = temporary.withCString { unlink($0) } }
    }
    do throws(Failure) {
      if let old {
        // Owner first: changing it can clear the set-id bits that the mode then restores.
        if old.st_uid != geteuid() || old.st_gid != getegid() {
          _ = fchown(fd, old.st_uid, old.st_gid)  // where permitted
        }
        guard fchmod(fd, old.st_mode & 0o7777) == 0 else { throw .system(errno) }
      } else {
        // mkstemp creates mode 0600; a new file gets the usual 0666 less the umask.
        let mask = umask(0)
        umask(mask)
        guard fchmod(fd, 0o666 & ~mask) == 0 else { throw .system(errno) }
      }
      try writeAll(contents, to: fd)
      guard fsync(fd) == 0 else { throw .system(errno) }
    } catch {
      close(fd)
      throw error
    }
    guard close(fd) == 0 else { throw .system(errno) }
    let renamed = temporary.withCString { from in target.withCString { to in rename(from, to) } }
    guard renamed == 0 else { throw .system(errno) }
    isDone = true
    syncFolder(folder)
  }

  /// Rewrites the regular file `target` (as `identity` describes it) in place, with a backup of
  /// its old contents until the new ones are on disk (see ``SafeFile``).
  private static func writeInPlace(_ contents: [UInt8], to target: FileName, identity: stat)
    throws(Failure)
  {
    // O_NONBLOCK: if the name now leads to a FIFO, opening it must not wait for a reader.
    // Read and write: the old contents are read for the backup.
    let fd = target.withCString { open($0, O_RDWR | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC) }
    guard fd >= 0 else { throw .system(errno) }
    defer { close(fd) }
    var now = stat()
    guard fstat(fd, &now) == 0 else { throw .system(errno) }
    guard now.st_dev == identity.st_dev, now.st_ino == identity.st_ino else {
      throw Failure(reason: "the file changed while it was being saved")
    }
    guard fcntl(fd, F_SETFL, 0) == 0 else { throw .system(errno) }
    let old = try readAll(fd)
    let backup = try makeBackup(of: old, beside: target)
    do throws(Failure) {
      try writeAll(contents, to: fd)
      guard ftruncate(fd, off_t(contents.count)) == 0, fsync(fd) == 0 else {
        throw .system(errno)
      }
    } catch {
      // The old contents go back over the blocks they had, which needs no new space.
      let restored =
        (try? writeAll(old, to: fd)) != nil && ftruncate(fd, off_t(old.count)) == 0
        && fsync(fd) == 0
      guard restored else { throw Failure(reason: error.reason, backup: backup) }
      _ = backup.withCString { unlink($0) }
      throw error
    }
    _ = backup.withCString { unlink($0) }
  }

  /// The whole contents of the regular file open at `fd`, read from its start.
  private static func readAll(_ fd: Int32) throws(Failure) -> [UInt8] {
    var contents: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes {
        pread(fd, $0.baseAddress!, $0.count, off_t(contents.count))
      }
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else { throw .system(errno) }
      guard count > 0 else { return contents }
      contents.append(contentsOf: chunk[..<count])
    }
  }

  /// A new file beside `target` holding `contents`, flushed to disk: `.calc-backup-PID-XXXXXX`,
  /// mode 0600. Throws, leaving no file, when it cannot be made whole.
  private static func makeBackup(of contents: [UInt8], beside target: FileName)
    throws(Failure) -> FileName
  {
    var template =
      target.folder.bytes + Array("\(backupPrefix)\(getpid())-XXXXXX".utf8) + [0]
    let fd = template.withUnsafeMutableBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { mkstemp($0.baseAddress!) }
    }
    guard fd >= 0 else { throw .system(errno) }
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    let backup = FileName(template.dropLast())
    do throws(Failure) {
      try writeAll(contents, to: fd)
      guard fsync(fd) == 0 else { throw .system(errno) }
    } catch {
      close(fd)
      _ = backup.withCString { unlink($0) }
      throw error
    }
    close(fd)
    return backup
  }

  /// Writes all of `contents` to `fd` from offset 0 (`pwrite`, so that a retry after a failure
  /// starts again at the beginning).
  private static func writeAll(_ contents: [UInt8], to fd: Int32) throws(Failure) {
    var offset = 0
    while offset < contents.count {
      let written = contents.withUnsafeBytes {
        pwrite(fd, $0.baseAddress! + offset, $0.count - offset, off_t(offset))
      }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { throw .system(errno) }
      offset += written
    }
  }

  /// Flushes the folder's entry for the renamed file to disk (best effort).
  private static func syncFolder(_ folder: FileName) {
    let path = folder.bytes.isEmpty ? FileName(".") : folder
    let fd = path.withCString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
    guard fd >= 0 else { return }
    _ = fsync(fd)
    close(fd)
  }

  /// Removes `.calc-save-PID-XXXXXX` files in `folder` that belong to this user and were left by
  /// a calc that no longer runs (killed while saving).
  static func removeStaleTemporaryFiles(in folder: FileName) {
    let path = folder.bytes.isEmpty ? FileName(".") : folder
    guard let directory = path.withCString({ opendir($0) }) else { return }
    defer { closedir(directory) }
    let prefix = Array(temporaryPrefix.utf8)
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        Array(raw.prefix { $0 != 0 })
      }
      guard name.starts(with: prefix) else { continue }
      // PID-XXXXXX: the process id, a dash, six characters from mkstemp.
      let rest = name.dropFirst(prefix.count)
      guard let dash = rest.firstIndex(of: UInt8(ascii: "-")), name.count - dash - 1 == 6,
        let pid = Int32(String(decoding: rest[..<dash], as: UTF8.self)), pid > 0,
        pid != getpid(), kill(pid, 0) != 0, errno == ESRCH
      else { continue }
      let file = FileName(folder.bytes + name)
      var information = stat()
      guard file.withCString({ lstat($0, &information) }) == 0,
        FileKind(mode: information.st_mode) == .regular, information.st_uid == geteuid()
      else { continue }
      _ = file.withCString { unlink($0) }
    }
  }
}

extension SafeFile.Failure {
  /// The failure for the system error `code`, e.g. `No space left on device`.
  static func system(_ code: Int32) -> Self {
    Self(reason: Platform.errorMessage(code))
  }
}
