import CArguments
import CalcCore
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension Environment {
  /// The process's environment: a variable's bytes as UTF-8, each byte that is not UTF-8 as
  /// U+FFFD, as `String(cString:)` gives them; decoded from the buffer, which is the code that
  /// decoding the arguments runs anyway, not more of the standard library's at every start
  /// (Documentation/Performance.md).
  public static let process = Environment { name in
    getenv(name).map {
      String(decoding: UnsafeRawBufferPointer(start: $0, count: strlen($0)), as: UTF8.self)
    }
  }
}

extension Terminal {
  /// The terminal's size on `fd`, or `nil` if it is not a terminal or does not say.
  static func size(of fd: Int32) -> (rows: Int, columns: Int)? {
    guard Platform.isTerminal(fd) else { return nil }
    var size = winsize()
    guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0 else {
      return nil
    }
    return (Int(size.ws_row), Int(size.ws_col))
  }
}

extension Style {
  /// Colours for output to `fd` in `environment` (see no-color.org).
  static func forOutput(_ fd: Int32, environment: Environment) -> Style {
    let term = environment["TERM"] ?? ""
    return Style(
      isEnabled: Platform.isTerminal(fd) && !term.isEmpty && term != "dumb"
        && (environment["NO_COLOR"] ?? "").isEmpty)
  }
}

extension Clipboard {
  /// The route for a process started in `environment`: tmux when `TMUX` is set, screen when
  /// `STY` is, else the terminal.
  init(environment: Environment) {
    if let tmux = environment["TMUX"], !tmux.isEmpty {
      self = .tmux(load: {
        Platform.run(["tmux", "load-buffer", "-w", "-"], input: Array($0.utf8))
      })
    } else if let screen = environment["STY"], !screen.isEmpty {
      self = .screen
    } else {
      self = .terminal
    }
  }
}

extension OutputBuffer {
  /// Output written to `fd` as the buffer fills, with ``Platform/writeAll(_:to:)``.
  convenience init(fd: Int32) {
    self.init(fd: fd, writer: Platform.writeAll)
  }
}

/// The calls calc makes to the system, in one place (as ArgumentParser's `Platform`): writing
/// all of a buffer, waiting for a descriptor, the message of an `errno`, terminals.
///
/// calc targets Linux (glibc); other systems are not supported.
enum Platform {
  /// Has glibc's allocator serve blocks of up to 32 MB from its heap from the start, not from
  /// `mmap(2)` regions of their own: a history's arrays grow by doubling, and each new size
  /// taken from fresh mapped pages cost a page fault a page (about 2.4 µs each on the virtual
  /// machine calc-bench runs on) where the heap reuses the pages the smaller sizes freed. glibc
  /// raises its threshold on its own to the size of each such block it frees, up to the same
  /// 32 MB. 13% fewer page faults and about 3% less time for calc-bench's 100,000 date lines;
  /// an everyday script's faults are the same (Documentation/Performance.md, "Date lines,
  /// session 16"). Left as it is where `GLIBC_TUNABLES` is set, and with any other C library.
  static func tuneAllocator() {
    guard getenv("GLIBC_TUNABLES") == nil else { return }
    _ = calc_set_mmap_threshold(32 << 20)
  }

  /// Asks the kernel for transparent huge pages where a date script's history grows: glibc's
  /// heap takes 64 MB of room ahead of what it uses, and that room from the first 2 MB boundary
  /// above the heap's end is advised (`madvise(MADV_HUGEPAGE)`), so that a history growing into
  /// it takes one fault for a page of 2 MB where it took one for each 4 KB page (about 2 µs each
  /// on the virtual machine calc-bench runs on: calc-bench's 100,000 date lines took 3,362 page
  /// faults and take 273; Documentation/Performance.md, "Date lines, session 19"). Called for a
  /// run that starts in date mode alone (Documentation/Decisions.md). A script that stays below
  /// the boundary keeps the memory it had; one that touches a page past it holds the whole 2 MB
  /// page. Room taken beyond the 64 MB, and blocks of 32 MB or more (`mmap(2)` regions of their
  /// own), are not advised. Nothing is done where `GLIBC_TUNABLES` is set (as
  /// ``tuneAllocator()``) or with another C library; a kernel without huge pages does not take
  /// the advice, and one set to `never` takes it and gives none.
  static func adviseHugePagesForScripts() {
    guard getenv("GLIBC_TUNABLES") == nil else { return }
    _ = calc_advise_heap(64 << 20)
  }

  /// Writes all of `bytes` to `fd`: a write interrupted by a signal (`EINTR`) is retried, a
  /// descriptor that is not ready (`EAGAIN`: a non-blocking pipe whose reader is slow) is waited
  /// for, never taken for a closed one.
  ///
  /// - Complexity: O(n) in the bytes, in as few `write(2)` calls as the descriptor takes.
  static func writeAll(_ bytes: [UInt8], to fd: Int32) -> OutputBuffer.WriteResult {
    bytes.withUnsafeBufferPointer { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
        if written >= 0 {
          offset += written
          continue
        }
        switch errno {
        case EINTR:
          continue
        case EAGAIN, EWOULDBLOCK:
          wait(for: fd, events: POLLOUT)
        case EPIPE:
          return .closed
        default:
          return .failed(errorMessage(errno))
        }
      }
      return .written
    }
  }

  /// Writes all of `bytes` to the file open at `fd` — from its start with `pwrite` when
  /// `fromStart` (so that a retry after a failure starts again at the beginning), else at the
  /// file's offset with `write` — retrying a write that a signal interrupts (`EINTR`): the one
  /// such loop for files (journals, the history file, `:save`) and readline's terminal.
  ///
  /// Returns `nil` when every byte was written, else the `errno` of the write that failed or
  /// wrote nothing.
  ///
  /// - Complexity: O(n) in the bytes.
  static func writeFully(_ bytes: [UInt8], to fd: Int32, fromStart: Bool = false) -> Int32? {
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { raw in
        fromStart
          ? pwrite(fd, raw.baseAddress! + offset, raw.count - offset, off_t(offset))
          : write(fd, raw.baseAddress! + offset, raw.count - offset)
      }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { return errno }
      offset += written
    }
    return nil
  }

  /// Reads the file open at `fd` to its end in chunks of 64 KiB — from its start with `pread`
  /// when `fromStart`, else from the file's offset with `read` — retrying a read that a signal
  /// interrupts (`EINTR`), and gives `body` each chunk.
  ///
  /// Returns `nil` at the end of the file, else the `errno` of the read that failed.
  ///
  /// - Complexity: O(n) in the file's size, in memory of one chunk.
  static func readChunks(
    _ fd: Int32, fromStart: Bool = false, _ body: (ArraySlice<UInt8>) -> Void
  ) -> Int32? {
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    var offset: off_t = 0
    while true {
      let count = chunk.withUnsafeMutableBytes { raw in
        fromStart
          ? pread(fd, raw.baseAddress!, raw.count, offset) : read(fd, raw.baseAddress!, raw.count)
      }
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else { return errno }
      guard count > 0 else { return nil }
      body(chunk[..<count])
      offset += off_t(count)
    }
  }

  /// Waits until `fd` is ready for `events` (`POLLIN`, `POLLOUT`), or a signal arrives.
  static func wait(for fd: Int32, events: Int32) {
    var descriptor = pollfd(fd: fd, events: Int16(events), revents: 0)
    _ = poll(&descriptor, 1, -1)
  }

  /// The message of the error number `code`, as `strerror(3)` gives it: `No such file or
  /// directory`.
  static func errorMessage(_ code: Int32) -> String { String(cString: strerror(code)) }

  /// The size in bytes of the regular file open as `fd`; `nil` for a pipe, a terminal, a device
  /// or when `fstat` fails.
  static func regularFileSize(_ fd: Int32) -> Int? {
    var status = stat()
    guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
    return Int(status.st_size)
  }

  /// Whether `fd` is a terminal.
  static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

  /// Opens `/dev/null` on each of descriptors 0, 1 and 2 that is closed (SPEC §8), so that no
  /// file calc opens later (a journal, a saved file) becomes its standard input, output or
  /// error: standard input reads nothing, and output and error are opened read-only, so that
  /// writing there still fails as a write error (status 74) instead of vanishing.
  ///
  /// Called first thing at start, before any file is opened. One `fcntl(F_GETFD)` a
  /// descriptor; nothing more when all three are open.
  static func openClosedStandardDescriptors() {
    for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) < 0 && errno == EBADF {
      // The lowest free descriptor is `fd` itself, as the ones below it are open by now.
      let opened = open("/dev/null", O_RDONLY)
      guard opened >= 0, opened != fd else { continue }
      _ = dup2(opened, fd)
      close(opened)
    }
  }

  // MARK: - Symbolic links in shared folders

  /// Linux's `O_PATH`, which Swift's Glibc does not export: an open that only locates the file
  /// (for `fstat`), without reading, writing, or a FIFO's or device's side effects.
  static let pathOnly: Int32 = 0o10_000_000

  /// Why the kernel's rule for shared folders (`fs.protected_symlinks`) would not follow the
  /// symbolic link that `link` (its `lstat`) describes, which sits in the folder that `folder`
  /// (its `fstat`) describes; `nil` when it would.
  ///
  /// The rule, applied whatever the kernel's setting: a link in a folder that is sticky and
  /// world-writable (`/tmp`) is followed only when it is owned by the user following it (the
  /// effective user) or by the folder's owner.
  static func protectedLinkRefusal(link: stat, in folder: stat) -> String? {
    guard link.st_uid != geteuid() else { return nil }
    let shared = folder.st_mode & S_ISVTX != 0 && folder.st_mode & S_IWOTH != 0
    guard shared, link.st_uid != folder.st_uid else { return nil }
    return "a symbolic link in a sticky, world-writable folder, owned by neither you nor the "
      + "folder's owner"
  }

  // MARK: - Journal locks

  /// What came of trying to lock a file.
  enum LockOutcome: Equatable {
    /// The lock is ours, until the descriptor is closed.
    case taken
    /// Another open file holds a lock that conflicts (a running calc's journal).
    case held
    /// The file system takes no locks (`ENOLCK`, `EOPNOTSUPP`…), as a person reads it.
    case unsupported(String)
  }

  /// Tries to lock the whole file open at `fd` with `flock(2)`, without waiting: `exclusive`
  /// (`LOCK_EX`) as a journal's owner and a pruner take it, else shared (`LOCK_SH`) to find out
  /// whether an owner holds it. A signal during the call retries it.
  ///
  /// The lock belongs to the open file: it lasts until every descriptor of it is closed, or
  /// the process ends (a `kill -9` included).
  static func tryLock(_ fd: Int32, exclusive: Bool) -> LockOutcome {
    while true {
      if flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) == 0 { return .taken }
      switch errno {
      case EINTR: continue
      case EWOULDBLOCK: return .held
      default: return .unsupported(errorMessage(errno))
      }
    }
  }

  /// Locks the file open at `fd` exclusively, as ``tryLock(_:exclusive:)``, waiting up to about
  /// 50 ms while another calc holds it: a calc looking at the journals (`:resume`, pruning)
  /// holds its lock only for a moment.
  static func lockForLife(_ fd: Int32) -> LockOutcome {
    var outcome = tryLock(fd, exclusive: true)
    for _ in 0..<50 where outcome == .held {
      usleep(1000)
      outcome = tryLock(fd, exclusive: true)
    }
    return outcome
  }

  /// Whether the process `pid` exists (it may be another program that got the number since).
  static func processExists(_ pid: Int32) -> Bool {
    pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
  }
}

/// Ctrl-C while a line runs: the REPL's SIGINT handler sets it, long loops check it.
///
/// An atomic flag is all a signal handler may touch; the line that sees it stops, and the REPL
/// puts the session back as it was before the line.
enum Interruption {
  private static let flag = Atomic<Bool>(false)

  /// Whether Ctrl-C was pressed since the last ``reset()``.
  static var isRequested: Bool { flag.load(ordering: .relaxed) }

  /// Called from the signal handler.
  static func request() { flag.store(true, ordering: .relaxed) }

  /// Clears the flag before a line runs; returns whether it was set.
  @discardableResult
  static func reset() -> Bool { flag.exchange(false, ordering: .relaxed) }
}

/// What kind of file a `stat` mode names: the one check that calc makes before it reads or
/// writes a file it did not create.
enum FileKind: Equatable {
  case regular
  case directory
  case fifo
  case device
  case socket
  case symbolicLink
  case other

  /// The kind of the file whose `st_mode` is `mode`.
  init(mode: mode_t) {
    switch mode & S_IFMT {
    case S_IFREG: self = .regular
    case S_IFDIR: self = .directory
    case S_IFIFO: self = .fifo
    case S_IFCHR, S_IFBLK: self = .device
    case S_IFSOCK: self = .socket
    case S_IFLNK: self = .symbolicLink
    default: self = .other
    }
  }

  /// Why a file of this kind is refused where a regular file is needed: `Is a directory`, `not a
  /// regular file (a FIFO)`; `nil` for a regular file.
  var refusal: String? {
    switch self {
    case .regular: nil
    case .directory: "Is a directory"
    case .fifo: "not a regular file (a FIFO)"
    case .device: "not a regular file (a device)"
    case .socket: "not a regular file (a socket)"
    case .symbolicLink, .other: "not a regular file"
    }
  }
}

extension FileIdentity {
  /// The file `name` leads to, or `nil` when there is none (or it cannot be looked at).
  init?(of name: FileName) {
    guard !name.bytes.contains(0) else { return nil }
    var information = stat()
    guard name.withCString({ stat($0, &information) }) == 0 else { return nil }
    self.init(device: UInt64(information.st_dev), inode: UInt64(information.st_ino))
  }
}

extension Platform {
  /// A system error number, as an `Error`.
  struct SystemError: Error {
    let code: Int32
  }

  /// Starts `arguments` (the program is looked up on `PATH`) reading from a new pipe: its process
  /// and the pipe's write end, which the caller writes and closes.
  ///
  /// The child gets `SIGPIPE`'s default action back (calc ignores it while it pages); with
  /// `silenced`, its standard output and error go to `/dev/null`, so that nothing it says lands
  /// on calc's screen. A program that cannot be run (`ENOENT`, `EACCES`, `ENOEXEC`) is a failure.
  static func spawnReadingPipe(_ arguments: [String], silenced: Bool = false) -> Result<
    (pid: pid_t, input: Int32), SystemError
  > {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { return .failure(SystemError(code: errno)) }
    // Neither end may leak into other children; the child gets the read end as its input.
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
    if silenced {
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
      posix_spawn_file_actions_adddup2(&actions, 1, 2)
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var defaults = sigset_t()
    sigemptyset(&defaults)
    sigaddset(&defaults, SIGPIPE)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))
    let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid: pid_t = 0
    // glibc reports a program that cannot be run (ENOENT, EACCES, ENOEXEC) here.
    let result = posix_spawnp(&pid, argv[0]!, &actions, &attributes, argv, environ)
    close(ends[0])
    guard result == 0 else {
      close(ends[1])
      return .failure(SystemError(code: result))
    }
    return .success((pid, ends[1]))
  }

  /// Waits for the process `pid` to end (retrying when a signal interrupts the wait); its wait
  /// status.
  static func waitStatus(of pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return status
  }

  /// Runs `arguments` with `input` on its standard input and its output silenced; whether it
  /// ran and exited with status 0.
  static func run(_ arguments: [String], input: [UInt8]) -> Bool {
    guard case .success(let child) = spawnReadingPipe(arguments, silenced: true) else {
      return false
    }
    // calc ignores SIGPIPE only while it pages: a child that exits without reading must not
    // end calc, so the write's EPIPE is taken as a failure of the child's.
    let previous = signal(SIGPIPE, SIG_IGN)
    let written = writeAll(input, to: child.input)
    signal(SIGPIPE, previous)
    close(child.input)
    let status = waitStatus(of: child.pid)
    return written == .written && status & 0x7f == 0 && (status >> 8) & 0xff == 0
  }
}
