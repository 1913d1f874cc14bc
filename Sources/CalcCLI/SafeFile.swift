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
/// running calc nor the folder's owner is refused — whichever component of the path it is, a
/// link to a folder included (`/tmp/x/evildir/f.calc`) — and so is a dangling link (calc never
/// creates the file a link names); the message names the link. The name is walked one
/// component at a time, each opened relative to the folder before it (``resolve(_:)``): a
/// folder is opened with `O_NOFOLLOW | O_DIRECTORY` once `fstatat` found it to be one, and a
/// link is judged against the folder it sits in (held open, so it cannot be swapped), read
/// with `readlinkat` and its target walked in its place, up to 40 links. Everything after
/// that happens in the last folder, held open: the replacement is written beside the file
/// there and renamed over it with `renameat`, so that the rename replaces the file, never a
/// link, which keeps pointing at it (`SaveThroughLinksTests`).
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
    /// Whether there was no file by that name: nothing was created (and nothing is
    /// "unchanged").
    var isNewFile = false
  }

  /// The prefix of temporary files; the process id follows, so that a stale one is recognised.
  static let temporaryPrefix = ".calc-save-"
  /// The prefix of the backup of a file written in place; the process id follows.
  static let backupPrefix = ".calc-backup-"

  /// Where a name led (``resolve(_:)``): the folder of the file, open (`O_PATH`), the file's
  /// name in it, that folder's path as the name spelled it (for messages), and what `lstat`
  /// says of the file — `nil` when there is none yet.
  private struct Target {
    let folder: Int32
    let name: [UInt8]
    let folderPath: [UInt8]
    let identity: stat?
  }

  /// Writes `contents` to `name` as described above.
  static func write(_ contents: [UInt8], to name: FileName) throws(Failure) {
    guard !name.bytes.contains(0) else { throw Failure(reason: "file name holds a NUL byte") }
    let target = try resolve(name)
    defer { close(target.folder) }
    guard let identity = target.identity else {
      do throws(Failure) {
        try replace(target, with: contents, keeping: nil)
      } catch {
        var failure = error
        failure.isNewFile = true
        throw failure
      }
      return
    }
    if let refusal = FileKind(mode: identity.st_mode).refusal {
      throw Failure(reason: refusal)
    }
    if identity.st_nlink > 1 || identity.st_uid != geteuid() && geteuid() != 0 {
      try writeInPlace(contents, to: target, identity: identity)
    } else {
      try replace(target, with: contents, keeping: identity)
    }
  }

  /// The components of `path` between its slashes, last first (a stack to walk), without the
  /// empty ones.
  private static func components(_ path: [UInt8]) -> [[UInt8]] {
    path.split(separator: UInt8(ascii: "/")).map { Array($0) }.reversed()
  }

  /// Walks `name` one component at a time from the working folder (or `/`), each opened
  /// relative to the one before, every symbolic link followed where the protected-symlinks rule
  /// allows (see ``SafeFile``): the last folder, open, and the file in it.
  ///
  /// Throws, naming the link, for a link that the rule refuses or that leads to no file; a
  /// missing folder on the way is `No such file or directory`, as the system says.
  ///
  /// - Complexity: O(c + k) system calls in the components c and the links k (at most 40).
  private static func resolve(_ name: FileName) throws(Failure) -> Target {
    let slash = UInt8(ascii: "/")
    let isAbsolute = name.bytes.first == slash
    var folder = open(isAbsolute ? "/" : ".", Platform.pathOnly | O_DIRECTORY | O_CLOEXEC)
    guard folder >= 0 else { throw .system(errno) }
    var folderPath: [UInt8] = isAbsolute ? [slash] : []
    var pending = components(name.bytes)
    // `sub/`: the name must be a folder, which is refused when it is one.
    let isFolderName = name.bytes.count > 1 && name.bytes.last == slash
    // The links whose targets are being walked, with the size of `pending` before each
    // target's components: the innermost is named if its target leads nowhere.
    var followed: [(name: [UInt8], target: [UInt8], base: Int)] = []
    var links = 0
    do throws(Failure) {
      guard !pending.isEmpty else {
        // `/` itself.
        var information = stat()
        guard fstatat(folder, ".", &information, AT_SYMLINK_NOFOLLOW) == 0 else {
          throw .system(errno)
        }
        return Target(folder: folder, name: Array(".".utf8), folderPath: [], identity: information)
      }
      while let component = pending.popLast() {
        let isLast = pending.isEmpty
        let shown = folderPath + component
        var information = stat()
        guard
          FileName(component).withCString({ fstatat(folder, $0, &information, AT_SYMLINK_NOFOLLOW) }
          ) == 0
        else {
          let code = errno
          while let link = followed.last, pending.count < link.base { followed.removeLast() }
          if code == ENOENT, let link = followed.last {
            throw Failure(
              reason: "'\(FileName(link.name).shown)' is a dangling symbolic link (to "
                + "'\(FileName(link.target).shown)'); calc does not create the file a link names")
          }
          guard code == ENOENT else { throw .system(code) }
          guard isLast else {
            // A folder on the way is missing: so is the file.
            var failure = Failure.system(code)
            failure.isNewFile = true
            throw failure
          }
          guard !isFolderName else { throw .system(EISDIR) }
          return Target(folder: folder, name: component, folderPath: folderPath, identity: nil)
        }
        switch FileKind(mode: information.st_mode) {
        case .symbolicLink:
          var folderInformation = stat()
          guard fstat(folder, &folderInformation) == 0 else { throw .system(errno) }
          if let refusal = Platform.protectedLinkRefusal(link: information, in: folderInformation) {
            throw Failure(
              reason: "'\(FileName(shown).shown)' is \(refusal); calc does not write through it")
          }
          links += 1
          guard links <= 40 else { throw .system(ELOOP) }
          var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
          let count = FileName(component).withCString { path in
            buffer.withUnsafeMutableBufferPointer { raw in
              raw.withMemoryRebound(to: CChar.self) {
                readlinkat(folder, path, $0.baseAddress!, raw.count)
              }
            }
          }
          guard count > 0 else { throw .system(errno) }
          let target = Array(buffer[..<count])
          followed.append((shown, target, pending.count))
          // The target is walked in the link's place: from `/`, or from the link's folder.
          if target.first == slash {
            let root = open("/", Platform.pathOnly | O_DIRECTORY | O_CLOEXEC)
            guard root >= 0 else { throw .system(errno) }
            close(folder)
            folder = root
            folderPath = [slash]
          }
          pending += components(target)
          if pending.isEmpty {
            // A link to `/`.
            pending = [Array(".".utf8)]
          }
        case .directory where !isLast:
          // Opened as the folder it was found to be: a link put there meanwhile is refused.
          let next = FileName(component).withCString {
            openat(folder, $0, Platform.pathOnly | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
          }
          guard next >= 0 else { throw .system(errno) }
          close(folder)
          folder = next
          folderPath = shown + [slash]
        case _ where !isLast:
          throw .system(ENOTDIR)
        case .directory:
          return Target(
            folder: folder, name: component, folderPath: folderPath, identity: information)
        default:
          guard !isFolderName else { throw .system(ENOTDIR) }
          return Target(
            folder: folder, name: component, folderPath: folderPath, identity: information)
        }
      }
      preconditionFailure("a walk ends at its last component")
    } catch {
      close(folder)
      throw error
    }
  }

  /// Writes `contents` to a temporary file beside `target`, then renames it over `target`.
  private static func replace(_ target: Target, with contents: [UInt8], keeping old: stat?)
    throws(Failure)
  {
    removeStaleTemporaryFiles(in: target.folder)
    let (fd, temporary) = try makeFile(in: target.folder, prefix: "\(temporaryPrefix)\(getpid())-")
    var isDone = false
    defer {
      if !isDone { _ = temporary.withCString { unlinkat(target.folder, $0, 0) } }
    }
    do throws(Failure) {
      if let old {
        // Owner first: changing it can clear the set-id bits that the mode then restores.
        if old.st_uid != geteuid() || old.st_gid != getegid() {
          _ = fchown(fd, old.st_uid, old.st_gid)  // where permitted
        }
        guard fchmod(fd, old.st_mode & 0o7777) == 0 else { throw .system(errno) }
      } else {
        // A new file gets the usual 0666 less the umask (it was made 0600).
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
    let name = FileName(target.name)
    if let old {
      // The rename must replace the file that was found, and nothing else.
      var now = stat()
      guard name.withCString({ fstatat(target.folder, $0, &now, AT_SYMLINK_NOFOLLOW) }) == 0,
        now.st_dev == old.st_dev, now.st_ino == old.st_ino
      else { throw Failure(reason: "the file changed while it was being saved") }
    }
    let renamed = temporary.withCString { from in
      name.withCString { to in renameat(target.folder, from, target.folder, to) }
    }
    guard renamed == 0 else { throw .system(errno) }
    isDone = true
    syncFolder(target.folder)
  }

  /// A new file in `folder` (open), named `prefix` and six random letters and digits, mode
  /// 0600, open for reading and writing: `mkstemp` relative to a folder.
  private static func makeFile(in folder: Int32, prefix: String) throws(Failure) -> (
    fd: Int32, name: FileName
  ) {
    let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)
    for _ in 0..<100 {
      let name = FileName(Array(prefix.utf8) + (0..<6).map { _ in letters.randomElement()! })
      let fd = name.withCString {
        openat(folder, $0, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
      }
      if fd >= 0 { return (fd, name) }
      guard errno == EEXIST else { throw .system(errno) }
    }
    throw .system(EEXIST)
  }

  /// Rewrites the regular file `target` (as `identity` describes it) in place, with a backup of
  /// its old contents until the new ones are on disk (see ``SafeFile``).
  private static func writeInPlace(_ contents: [UInt8], to target: Target, identity: stat)
    throws(Failure)
  {
    // O_NONBLOCK: if the name now leads to a FIFO, opening it must not wait for a reader.
    // Read and write: the old contents are read for the backup.
    let fd = FileName(target.name).withCString {
      openat(target.folder, $0, O_RDWR | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
    }
    guard fd >= 0 else { throw .system(errno) }
    defer { close(fd) }
    var now = stat()
    guard fstat(fd, &now) == 0 else { throw .system(errno) }
    guard now.st_dev == identity.st_dev, now.st_ino == identity.st_ino else {
      throw Failure(reason: "the file changed while it was being saved")
    }
    guard fcntl(fd, F_SETFL, 0) == 0 else { throw .system(errno) }
    let old = try readAll(fd)
    let backup = try makeBackup(of: old, in: target.folder)
    let removeBackup = { _ = backup.withCString { unlinkat(target.folder, $0, 0) } }
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
      guard restored else {
        throw Failure(reason: error.reason, backup: FileName(target.folderPath + backup.bytes))
      }
      removeBackup()
      throw error
    }
    removeBackup()
  }

  /// The whole contents of the regular file open at `fd`, read from its start.
  private static func readAll(_ fd: Int32) throws(Failure) -> [UInt8] {
    var contents: [UInt8] = []
    if let code = Platform.readChunks(fd, fromStart: true, { contents.append(contentsOf: $0) }) {
      throw .system(code)
    }
    return contents
  }

  /// A new file in `folder` (open) holding `contents`, flushed to disk: its name,
  /// `.calc-backup-PID-XXXXXX`, mode 0600. Throws, leaving no file, when it cannot be made whole.
  private static func makeBackup(of contents: [UInt8], in folder: Int32) throws(Failure)
    -> FileName
  {
    let (fd, backup) = try makeFile(in: folder, prefix: "\(backupPrefix)\(getpid())-")
    do throws(Failure) {
      try writeAll(contents, to: fd)
      guard fsync(fd) == 0 else { throw .system(errno) }
    } catch {
      close(fd)
      _ = backup.withCString { unlinkat(folder, $0, 0) }
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

  /// Flushes the entry for the renamed file in `folder` (open) to disk (best effort).
  private static func syncFolder(_ folder: Int32) {
    let fd = openat(folder, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return }
    _ = fsync(fd)
    close(fd)
  }

  /// Removes `.calc-save-PID-XXXXXX` files in `folder` (open) that belong to this user and were
  /// left by a calc that no longer runs (killed while saving).
  private static func removeStaleTemporaryFiles(in folder: Int32) {
    let fd = openat(folder, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return }
    guard let directory = fdopendir(fd) else {
      close(fd)
      return
    }
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
      let file = FileName(name)
      var information = stat()
      guard file.withCString({ fstatat(folder, $0, &information, AT_SYMLINK_NOFOLLOW) }) == 0,
        FileKind(mode: information.st_mode) == .regular, information.st_uid == geteuid()
      else { continue }
      _ = file.withCString { unlinkat(folder, $0, 0) }
    }
  }
}

extension SafeFile.Failure {
  /// The failure for the system error `code`, e.g. `No space left on device`.
  static func system(_ code: Int32) -> Self {
    Self(reason: Platform.errorMessage(code))
  }
}
