import CalcCore
import CalculatorEngine

#if canImport(Glibc)
  import Glibc
#endif

/// Writing a file so that nothing but the file is touched: `:save`'s write path (and `:tape csv
/// FILE`'s).
///
/// A symbolic link is followed only where the kernel's rule for shared folders
/// (`fs.protected_symlinks`) would follow it, whatever the kernel's setting (SPEC §8): a link
/// that sits in a sticky, world-writable folder (such as `/tmp`) and is owned by neither the user
/// running calc nor the folder's owner is refused, and so is a dangling link (calc never creates
/// the file a link names); the message names the link. Each link of a chain is checked with
/// `lstat` and read with `readlink`; the target is then opened through the name without
/// `O_CREAT` (`O_PATH`: no side effects, even on a FIFO) and must be the file the chain led to.
/// The replacement is written beside that file, in the folder of the path the chain resolved
/// to, so that the rename replaces the file, never the link, which keeps pointing at it. Only the
/// links of the last component are checked this way; links among the folders of the path are
/// the kernel's business (`SaveThroughLinksTests`).
///
/// Only a regular file (or no file yet) is written; a directory, a FIFO or a device is
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
    guard let target = try resolvingLinks(name) else {
      try replace(name, with: contents, keeping: nil)
      return
    }
    // The file the chain led to, opened through the name without creating anything.
    let fd = name.withCString { open($0, Platform.pathOnly | O_CLOEXEC) }
    guard fd >= 0 else { throw .system(errno) }
    var information = stat()
    let isStated = fstat(fd, &information) == 0
    let code = errno
    close(fd)
    guard isStated else { throw .system(code) }
    guard information.st_dev == target.identity.st_dev,
      information.st_ino == target.identity.st_ino
    else { throw Failure(reason: "the file changed while it was being saved") }
    if let refusal = FileKind(mode: information.st_mode).refusal {
      throw Failure(reason: refusal)
    }
    if information.st_nlink > 1 || information.st_uid != geteuid() && geteuid() != 0 {
      try writeInPlace(contents, to: target.path, identity: information)
    } else {
      try replace(target.path, with: contents, keeping: information)
    }
  }

  /// The file `name` leads to, every symbolic link of its last component followed where the
  /// protected-symlinks rule allows (see ``SafeFile``): the path it resolved to and what `stat`
  /// says of it; `nil` when `name` itself names nothing yet.
  ///
  /// Throws, naming the link, for a link that the rule refuses or that leads to no file.
  ///
  /// - Complexity: O(k) system calls in the links of the chain (at most 40).
  private static func resolvingLinks(_ name: FileName) throws(Failure)
    -> (path: FileName, identity: stat)?
  {
    var current = name
    var lastLink: (name: FileName, target: [UInt8])?
    for _ in 0..<40 {
      var information = stat()
      guard current.withCString({ lstat($0, &information) }) == 0 else {
        guard errno == ENOENT, let lastLink else {
          if errno == ENOENT { return nil }
          throw .system(errno)
        }
        throw Failure(
          reason: "'\(lastLink.name.shown)' is a dangling symbolic link (to "
            + "'\(FileName(lastLink.target).shown)'); calc does not create the file a link names")
      }
      guard FileKind(mode: information.st_mode) == .symbolicLink else {
        return (current, information)
      }
      if let refusal = Platform.protectedLinkRefusal(link: information, in: current.folder) {
        throw Failure(reason: "'\(current.shown)' is \(refusal); calc does not write through it")
      }
      var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
      let count = current.withCString { path in
        buffer.withUnsafeMutableBufferPointer { raw in
          raw.withMemoryRebound(to: CChar.self) { readlink(path, $0.baseAddress!, raw.count) }
        }
      }
      guard count > 0 else { throw .system(errno) }
      let link = Array(buffer[..<count])
      lastLink = (current, link)
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
    if let old {
      // The rename must replace the file that was opened, and nothing else.
      var now = stat()
      guard target.withCString({ lstat($0, &now) }) == 0, now.st_dev == old.st_dev,
        now.st_ino == old.st_ino
      else { throw Failure(reason: "the file changed while it was being saved") }
    }
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
    if let code = Platform.readChunks(fd, fromStart: true, { contents.append(contentsOf: $0) }) {
      throw .system(code)
    }
    return contents
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
    if let code = Platform.writeFully(contents, to: fd, fromStart: true) { throw .system(code) }
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
