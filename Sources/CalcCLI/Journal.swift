import CalculatorEngine

#if canImport(Glibc)
  import Glibc
#endif

/// The REPL's journal: every accepted line that changes the session, appended to a calc script
/// as it is accepted, so that a crash or `kill -9` loses nothing (SPEC §6).
///
/// Journals live in `$XDG_STATE_HOME/calc/` (default `~/.local/state/calc/`), a folder of mode
/// 0700, one file of mode 0600 per REPL run, named by its start time and process id so that two
/// REPLs at once never share one. The file is created with the first line that changes the
/// session, so a run that changes nothing leaves none behind. Each line is one `write(2)`:
/// once it returns, the line survives the process. A journal that cannot be written is
/// reported once; the session goes on without it.
///
/// What is written is decided by ``LineInterpreter``: for each change it performs, the script
/// lines that replay it exactly (``lines(for:change:after:)``), taken by ``record(_:)``.
public final class Journal {
  /// How many journals are kept: older ones are removed when a REPL starts.
  public static let kept = 20
  /// The ending of journal file names.
  static let suffix = ".calc"

  /// The folder of the journals.
  public let directory: String
  /// This run's journal file; it exists once a line was written.
  public let path: String
  private var fd: Int32 = -1
  /// Set once writing failed: nothing more is tried.
  public private(set) var isBroken = false
  /// Where problems are reported, once.
  private let report: (String) -> Void

  /// The journal folder for `environment`: `$XDG_STATE_HOME/calc` when that is an absolute
  /// path, else `$HOME/.local/state/calc`; `nil` when neither is known.
  public static func directory(environment: Environment) -> String? {
    if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
      return state + "/calc"
    }
    guard let home = environment["HOME"], !home.isEmpty else { return nil }
    return home + "/.local/state/calc"
  }

  /// A journal for this run in `directory`, which is created (mode 0700) if need be; older
  /// journals beyond ``kept`` are removed. Returns `nil`, after reporting why, when the folder
  /// cannot be made.
  public init?(directory: String, report: @escaping (String) -> Void) {
    self.directory = directory
    self.report = report
    path = directory + "/" + Journal.fileName()
    guard Journal.makeDirectory(directory) else {
      report(
        "calc: journal: cannot create '\(TextEscaping.escaped(directory))': "
          + "\(String(cString: strerror(errno))); this session is not journaled")
      return nil
    }
    Journal.prune(directory, keeping: Journal.kept)
  }

  deinit { close() }

  /// Appends `lines`, each followed by a newline, in one `write(2)`.
  ///
  /// Returns false, having reported it the first time, when the journal cannot be written.
  @discardableResult
  public func append(_ lines: [String]) -> Bool {
    guard !isBroken else { return false }
    guard !lines.isEmpty else { return true }
    if fd < 0 {
      fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o600)
      guard fd >= 0 else { return fail() }
      // The umask can only narrow 0600; make sure nothing widened it.
      fchmod(fd, 0o600)
      // Ours is now the newest: with it, the last `kept` sessions stay.
      Journal.prune(directory, keeping: Journal.kept)
    }
    var bytes: [UInt8] = []
    for line in lines {
      bytes.append(contentsOf: line.utf8)
      bytes.append(UInt8(ascii: "\n"))
    }
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { raw in
        write(fd, raw.baseAddress! + offset, raw.count - offset)
      }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { return fail() }
      offset += written
    }
    return true
  }

  /// Appends the records of `effects` (each line's ``LineInterpreter/LineResult/effect``), in
  /// one write; consecutive moves are recorded as the one `:goto` they came to.
  ///
  /// The REPL calls this after each accepted line and before printing its output.
  @discardableResult
  public func record(_ effects: [Session.Effect]) -> Bool {
    var lines: [String] = []
    for effect in Journal.coalescingMoves(effects) {
      // A replaced session is the one the command carried: the journal needs no other.
      guard case .load(let loaded) = effect.command else {
        lines += Journal.lines(for: effect.command, change: effect.change, after: Session())
        continue
      }
      lines += Journal.lines(for: effect.command, change: effect.change, after: loaded)
    }
    return append(lines)
  }

  /// `effects` with each run of consecutive moves made one move, from where the first started
  /// to where the last ended (none if that is where it started): the slider's many small moves
  /// are one record.
  static func coalescingMoves(_ effects: [Session.Effect]) -> [Session.Effect] {
    var result: [Session.Effect] = []
    for effect in effects {
      guard case .moved(_, let to) = effect.change, let last = result.last,
        case .moved(let from, _) = last.change
      else {
        result.append(effect)
        continue
      }
      result[result.count - 1] = Session.Effect(
        command: .goto(.step(to)), change: .moved(from: from, to: to))
    }
    return result
  }

  /// Flushes the journal to the disk and closes it.
  public func close() {
    guard fd >= 0 else { return }
    fsync(fd)
    Glibc.close(fd)
    fd = -1
  }

  private func fail() -> Bool {
    let reason = String(cString: strerror(errno))
    isBroken = true
    if fd >= 0 {
      Glibc.close(fd)
      fd = -1
    }
    report(
      "calc: journal: cannot write '\(TextEscaping.escaped(path))': \(reason); "
        + "the session goes on without it")
    return false
  }

  // MARK: - The folder

  /// `20261122T014930.123456Z-4242.calc`: sortable by start time, unique per process.
  private static func fileName() -> String {
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
  private static func makeDirectory(_ directory: String) -> Bool {
    var information = stat()
    if stat(directory, &information) == 0 {
      guard information.st_mode & S_IFMT == S_IFDIR else {
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
      guard stat(path, &information) == 0, information.st_mode & S_IFMT == S_IFREG else {
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

  /// The journal record of `command`, which `change` says was performed and left `session`:
  /// ``SessionScript/forEachRecordLine(of:change:leaving:_:)``'s lines, as one string joined by
  /// newlines (a replaced session of millions of lines is written without an array of them), or
  /// nothing for a change that changed nothing.
  ///
  /// - Complexity: O(n) in the keys of a line, or of the whole session for a replacement.
  static func lines(for command: Session.Command, change: Session.Change, after session: Session)
    -> [String]
  {
    var record: String?
    SessionScript.forEachRecordLine(of: command, change: change, leaving: session) { line in
      if record == nil {
        record = line
      } else {
        record! += "\n"
        record! += line
      }
    }
    return record.map { [$0] } ?? []
  }

  /// Removes all but the `count` most recent journals in `directory`.
  static func prune(_ directory: String, keeping count: Int) {
    for path in journals(in: directory).dropFirst(count) { unlink(path) }
  }
}
