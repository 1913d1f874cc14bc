import CalcCore
import CalculatorEngine

#if canImport(Glibc)
  import Glibc
#endif

/// The journals' folder: names, listing, pruning, and whose a journal is.
extension Journal {
  /// `20261122T014930.123456Z-4242.calc`: sortable by start time, unique per process.
  static func fileName() -> String {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    var seconds = now.tv_sec
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let micros = String(now.tv_nsec / 1000)
    let date =
      "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T"
      + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))."
      + String(repeating: "0", count: 6 - micros.count) + micros + "Z"
    return "\(date)-\(getpid())\(suffix)"
  }

  /// Creates `directory` and any missing parents with mode 0700; an existing folder of ours is
  /// narrowed to 0700.
  static func makeDirectory(_ directory: String) -> Bool {
    var information = stat()
    if stat(directory, &information) == 0 {
      guard FileKind(mode: information.st_mode) == .directory else {
        errno = ENOTDIR
        return false
      }
      if information.st_uid == geteuid() && information.st_mode & 0o777 != 0o700 {
        chmod(directory, 0o700)
      }
      return true
    }
    if let slash = directory.lastIndex(of: "/"), slash != directory.startIndex {
      guard makeDirectory(String(directory[..<slash])) else { return false }
    }
    return mkdir(directory, 0o700) == 0 || errno == EEXIST
  }

  /// The journals in `directory`, most recently written first (file name, then modification
  /// time, breaks ties). Only names of the form calc gives its journals are listed.
  public static func journals(in directory: String) -> [String] {
    guard let folder = opendir(directory) else { return [] }
    defer { closedir(folder) }
    var found: [(path: String, modified: timespec)] = []
    while let entry = readdir(folder) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard isJournalName(name) else { continue }
      let path = directory + "/" + name
      var information = stat()
      guard stat(path, &information) == 0, FileKind(mode: information.st_mode) == .regular else {
        continue
      }
      found.append((path, information.st_mtim))
    }
    return found.sorted { a, b in
      if a.modified.tv_sec != b.modified.tv_sec { return a.modified.tv_sec > b.modified.tv_sec }
      if a.modified.tv_nsec != b.modified.tv_nsec { return a.modified.tv_nsec > b.modified.tv_nsec }
      return a.path > b.path
    }.map(\.path)
  }

  /// Whether `name` is a journal's: `YYYYMMDDTHHMMSS.ffffffZ-PID.calc`.
  static func isJournalName(_ name: String) -> Bool {
    let bytes = Array(name.utf8)
    guard bytes.count > 25, name.hasSuffix(suffix) else { return false }
    func digits(_ range: Range<Int>) -> Bool {
      bytes[range].allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
    return digits(0..<8) && bytes[8] == UInt8(ascii: "T") && digits(9..<15)
      && bytes[15] == UInt8(ascii: ".") && digits(16..<22) && bytes[22] == UInt8(ascii: "Z")
      && bytes[23] == UInt8(ascii: "-") && digits(24..<(bytes.count - suffix.utf8.count))
  }

  /// Removes all but the `count` most recent finished journals in `directory`, and every
  /// journal that holds no session (``holdsNoSession(_:)-(Int32)``), except those that a
  /// running calc still writes (SPEC §8): locked journals are neither removed nor counted
  /// against `count` — but for `own`, the journal of the calc that prunes, which is one of the
  /// `count` (it is the newest, and will be a finished one).
  ///
  /// Each journal is looked at under a shared lock (``Platform/tryLock(_:exclusive:)``), which
  /// fails while its calc holds its own; one to remove is removed only while this calc holds
  /// its exclusive lock, so that no session takes it meanwhile. On a file system without
  /// locks, a journal whose process (the id in its name) still exists counts as locked. A
  /// journal that holds no session is removed only once that process is gone too: its calc
  /// may have just created it, and be about to lock it.
  ///
  /// - Complexity: O(n log n) in the journals of the folder, and a read of at most
  ///   ``sessionlessSize`` bytes of each.
  static func prune(_ directory: String, keeping count: Int, own: String? = nil) {
    var finished = 0
    for path in journals(in: directory) {
      if path == own {
        finished += 1
        continue
      }
      let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
      guard fd >= 0 else { continue }
      defer { Glibc.close(fd) }
      let pid = processID(ofJournal: path)
      let isLocked: Bool
      switch Platform.tryLock(fd, exclusive: false) {
      case .held: continue  // a running calc's
      case .unsupported:
        if Platform.processExists(pid) { continue }
        isLocked = false
      case .taken: isLocked = true
      }
      if holdsNoSession(fd) {
        guard !Platform.processExists(pid) else { continue }
      } else if finished < count {
        finished += 1
        continue
      }
      // From the shared lock to the exclusive one: refused while another calc looks at it.
      if isLocked, Platform.tryLock(fd, exclusive: true) != .taken { continue }
      unlink(path)
    }
  }

  /// The size up to which a journal is read to see whether it holds a session
  /// (``holdsNoSession(_:)-(Int32)``): a larger one does.
  static let sessionlessSize = 4096

  /// Whether the journal open at `fd` holds no session (SPEC §8): it is empty (its calc ended
  /// between creating it and writing its first line) or holds only comments and blank lines
  /// (its header alone). `:resume` skips such a journal and pruning removes it.
  ///
  /// - Complexity: O(1) system calls, reading at most ``sessionlessSize`` bytes.
  static func holdsNoSession(_ fd: Int32) -> Bool {
    var information = stat()
    guard fstat(fd, &information) == 0 else { return false }
    guard information.st_size > 0 else { return true }
    guard information.st_size <= sessionlessSize else { return false }
    var bytes = [UInt8](repeating: 0, count: Int(information.st_size))
    let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, 0) }
    guard count == bytes.count else { return false }
    func isBlank(_ byte: UInt8) -> Bool {
      byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }
    return bytes.split(separator: UInt8(ascii: "\n")).allSatisfy { line in
      line.first(where: { !isBlank($0) }).map { $0 == UInt8(ascii: "#") } ?? true
    }
  }

  /// Whether the journal at `path` holds no session (``holdsNoSession(_:)-(Int32)``); false
  /// when it cannot be opened.
  public static func holdsNoSession(_ path: String) -> Bool {
    let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { return false }
    defer { Glibc.close(fd) }
    return holdsNoSession(fd)
  }

  /// The process id of the running calc that still writes the journal at `path`, or `nil` when
  /// none does (or the journal is gone).
  ///
  /// A running calc holds a lock on its journal (``append(_:)``); this tries a shared lock, for
  /// a moment, to see whether one is held. The id is the one in the journal's name: the calc
  /// that created a journal is the only one that writes it. On a file system without locks, the
  /// journal counts as open while a process of that id exists.
  public static func owner(of path: String) -> Int32? {
    let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { Glibc.close(fd) }
    let pid = processID(ofJournal: path)
    switch Platform.tryLock(fd, exclusive: false) {
    case .taken: return nil
    case .held: return pid
    case .unsupported: return Platform.processExists(pid) ? pid : nil
    }
  }

  /// The process id in a journal's name (`…Z-4242.calc`), or 0 when the name holds none.
  static func processID(ofJournal path: String) -> Int32 {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    guard isJournalName(name), let dash = name.lastIndex(of: "-") else { return 0 }
    return Int32(name[name.index(after: dash)...].dropLast(suffix.count)) ?? 0
  }
}
