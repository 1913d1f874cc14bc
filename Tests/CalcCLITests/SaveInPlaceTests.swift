import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `:save` to a file written in place (it has other hard links): the old contents stay
/// recoverable until the new ones are complete, and a failure says the file is unchanged.
@Suite struct SaveInPlaceTests {
  /// A script of `count` keys that saves to `s.calc`.
  static func saving(keys count: Int) -> String {
    String(repeating: "1+", count: count / 2) + "\n:save s.calc\n"
  }

  /// The inode of the file at `path` and its number of links.
  static func identity(_ path: String) -> (inode: ino_t, links: nlink_t)? {
    var information = stat()
    guard stat(path, &information) == 0 else { return nil }
    return (information.st_ino, information.st_nlink)
  }

  @Test func aSaveInPlaceThatFailsPutsTheOldContentsBack() throws {
    try withTemporaryDirectory { directory in
      let old = "# the old session\n12+3=\n"
      let target = try Script.write(old, to: "s.calc", in: directory)
      let other = directory.appendingPathComponent("other.calc").path
      try #require(link(target.path, other) == 0)
      let before = try #require(Self.identity(target.path))
      try Script.write(Self.saving(keys: 4000), to: "script", in: directory)
      // Files of at most 1 KB: the backup (the old 23 bytes) fits, the new session does not.
      let run = try Script.shell("ulimit -f 1; exec \"$CALC\" script", in: directory)
      #expect(
        run.stderr == "script:2:7: cannot save 's.calc': File too large; 's.calc' is unchanged\n")
      #expect(run.status == 65)
      #expect(try Script.read("s.calc", in: directory) == old)
      let after = try #require(Self.identity(target.path))
      #expect(after.inode == before.inode && after.links == 2, "the hard link is kept")
      #expect(try Script.listing(directory) == ["other.calc", "s.calc", "script"])
    }
  }

  @Test func aSaveInPlaceThatWorksLeavesNoBackup() throws {
    try withTemporaryDirectory { directory in
      let target = try Script.write("old\n", to: "s.calc", in: directory)
      try #require(link(target.path, directory.appendingPathComponent("other.calc").path) == 0)
      let run = try Script.runInProcess("7*6=\n:save s.calc\n", in: directory)
      #expect(run.status == 0)
      #expect(try Script.read("other.calc", in: directory).contains("7*6=\n"))
      #expect(try Script.listing(directory) == ["other.calc", "s.calc"])
    }
  }

  /// Whether this process may mount a tmpfs (root, with the capability).
  static let canMount: Bool = {
    guard geteuid() == 0 else { return false }
    let probe = NSTemporaryDirectory() + "calc-mount-probe-\(getpid())"
    guard mkdir(probe, 0o700) == 0 else { return false }
    defer { rmdir(probe) }
    guard mount("tmpfs", probe, "tmpfs", 0, "size=64k") == 0 else { return false }
    umount2(probe, Int32(MNT_DETACH))
    return true
  }()

  /// Runs `body` in a folder on a new 64 KiB tmpfs, unmounted afterwards.
  static func onSmallDisk(_ body: (URL) throws -> Void) throws {
    try withTemporaryDirectory { directory in
      let disk = directory.appendingPathComponent("disk")
      try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: false)
      try #require(mount("tmpfs", disk.path, "tmpfs", 0, "size=64k,mode=0755") == 0)
      defer { umount2(disk.path, Int32(MNT_DETACH)) }
      try body(disk)
    }
  }

  /// Fills the disk at `folder` with a file `filler` until writing fails; returns its size.
  @discardableResult
  static func fill(_ folder: URL, leaving spare: Int = 0) -> Int {
    let path = folder.appendingPathComponent("filler").path
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    defer { close(fd) }
    let block = [UInt8](repeating: 0x41, count: 512)
    var total = 0
    while block.withUnsafeBytes({ write(fd, $0.baseAddress!, $0.count) }) > 0 { total += 512 }
    if spare > 0 { ftruncate(fd, off_t(max(0, total - spare))) }
    return total
  }

  @Test(.enabled(if: canMount, "needs root to mount a small tmpfs"))
  func aSaveInPlaceOnAFullDiskLeavesTheOldContents() throws {
    try Self.onSmallDisk { disk in
      let old = String(repeating: "12+3=\n", count: 200)  // 1,200 bytes: a block
      let target = try Script.write(old, to: "s.calc", in: disk)
      let other = disk.appendingPathComponent("other.calc").path
      try #require(link(target.path, other) == 0)
      // Room for the backup (a page) and not for the new session (about 40 KB).
      Self.fill(disk, leaving: 6000)
      let run = try Script.runInProcess(Self.saving(keys: 20000), in: disk)
      #expect(
        run.stderr
          == "<stdin>:2:7: cannot save 's.calc': No space left on device; 's.calc' is unchanged\n")
      #expect(run.status == 65)
      #expect(try Script.read("s.calc", in: disk) == old)
      #expect(try Script.read("other.calc", in: disk) == old, "the other name sees the same file")
      #expect(Self.identity(target.path)?.links == 2)
      #expect(try Script.listing(disk) == ["filler", "other.calc", "s.calc"], "no backup is left")
    }
  }

  @Test(.enabled(if: canMount, "needs root to mount a small tmpfs"))
  func aSaveInPlaceWithNoRoomForTheBackupTouchesNothing() throws {
    try Self.onSmallDisk { disk in
      let old = String(repeating: "12+3=\n", count: 200)
      let target = try Script.write(old, to: "s.calc", in: disk)
      try #require(link(target.path, disk.appendingPathComponent("other.calc").path) == 0)
      Self.fill(disk)
      let run = try Script.runInProcess("7*6=\n:save s.calc\n", in: disk)
      #expect(
        run.stderr
          == "<stdin>:2:7: cannot save 's.calc': No space left on device; 's.calc' is unchanged\n")
      #expect(try Script.read("s.calc", in: disk) == old)
      #expect(try Script.listing(disk) == ["filler", "other.calc", "s.calc"])
    }
  }
}
