#if canImport(Glibc)
  import Glibc
#endif

/// Output longer than the screen, shown through `$PAGER` (the REPL's long listings: `:history`,
/// `:branches`, `:help`, …).
///
/// While a line runs, its output is held (``OutputBuffer/pager``) and its screen rows counted —
/// long lines wrap, escape sequences take no room — until it needs more rows than the terminal
/// has above the prompt: then the pager is started and everything, held and still to come, is
/// written to it as it is produced. Output that fits is written to the terminal at the end of
/// the line as usual. At most a screenful is ever held, so memory stays bounded however long
/// the listing.
final class Pager {
  /// The shell command that pages: `$PAGER`; if it is unset, `less -FRX` when `less` is on the
  /// `PATH`. `nil` when there is none (`PAGER` set but empty, or no `less`).
  static func command(environment: Environment) -> String? {
    if let pager = environment["PAGER"] {
      return pager.allSatisfy({ $0 == " " || $0 == "\t" }) ? nil : pager
    }
    let path = environment["PATH"] ?? ""
    for directory in path.split(separator: ":") where access("\(directory)/less", X_OK) == 0 {
      return "less -FRX"
    }
    return nil
  }

  /// The terminal's size on `fd`, or `nil` if it is not a terminal or does not say.
  static func screenSize(of fd: Int32) -> (rows: Int, columns: Int)? {
    guard Platform.isTerminal(fd) else { return nil }
    var size = winsize()
    guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0 else {
      return nil
    }
    return (Int(size.ws_row), Int(size.ws_col))
  }

  private let command: String
  /// Rows output may fill and still leave the prompt on the screen with it.
  private let rowLimit: Int
  private let columns: Int
  /// The output's rows so far (a line not yet ended counts once it has a character).
  private var rows = 0
  private var column = 0
  /// Where the counter is in an escape sequence, which takes no room on the screen.
  private var escape = Escape.none
  private enum Escape {
    case none
    /// After `ESC`.
    case start
    /// In `ESC [ … final`: colours.
    case controlSequence
    /// In `ESC ] … BEL`: e.g. the clipboard (OSC 52).
    case operatingSystemCommand
  }
  /// How much of the held output has been counted.
  private var counted = 0
  /// The pager's process and the write end of the pipe to it, once started.
  private var child: (pid: pid_t, input: Int32)?
  /// Where the output went before the pager.
  private var terminal: Int32?
  /// Set once the output is known to need no pager (or the pager could not be started).
  private var isPlain = false

  /// A pager running `command` for a screen of `rows` × `columns`.
  init(command: String, rows: Int, columns: Int) {
    self.command = command
    rowLimit = rows - 1
    self.columns = columns
  }

  /// Whether output is still held, its length undecided.
  var isHolding: Bool { child == nil && !isPlain }

  /// Counts what `output` holds that has not been counted yet; starts the pager and sends it
  /// there when it is too long for the screen.
  func review(_ output: OutputBuffer) {
    for byte in output.bytes[counted...] { count(byte) }
    counted = output.bytes.count
    guard rows > rowLimit else { return }
    guard let started = start() else {
      isPlain = true
      return
    }
    child = started
    terminal = output.fd
    output.redirect(to: started.input)
    output.flush()
  }

  /// Ends the pager after the output is flushed: closes its input and waits for it to leave,
  /// then sends `output` back to the terminal.
  func finish(_ output: OutputBuffer) {
    guard let child, let terminal else { return }
    close(child.input)
    var status: Int32 = 0
    while waitpid(child.pid, &status, 0) < 0 && errno == EINTR {}
    output.redirect(to: terminal)
    self.child = nil
  }

  /// Adds one byte of output to the row count.
  private func count(_ byte: UInt8) {
    switch escape {
    case .none:
      break
    case .start:
      escape =
        byte == UInt8(ascii: "[")
        ? .controlSequence : byte == UInt8(ascii: "]") ? .operatingSystemCommand : .none
      return
    case .controlSequence:
      if byte >= 0x40 && byte <= 0x7E { escape = .none }
      return
    case .operatingSystemCommand:
      // Ends at BEL, or at the ESC of `ESC \`, whose `\` then ends that escape.
      if byte == 0x07 { escape = .none }
      if byte == 0x1B { escape = .start }
      return
    }
    switch byte {
    case 0x1B:
      escape = .start
    case UInt8(ascii: "\n"):
      if column == 0 { rows += 1 }
      column = 0
    case UInt8(ascii: "\t"):
      advance(by: 8 - column % 8)
    case 0x80..<0xC0:
      break  // a UTF-8 continuation byte: the character was counted at its first byte
    default:
      advance(by: 1)
    }
  }

  private func advance(by width: Int) {
    if column == 0 || column + width > columns {
      rows += 1
      column = 0
    }
    column += width
  }

  /// Starts `sh -c COMMAND` reading from a new pipe; `nil` if it cannot be started.
  private func start() -> (pid: pid_t, input: Int32)? {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { return nil }
    // Neither end may leak into other children; the pager gets the read end as its input.
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
    // calc ignores SIGPIPE while it pages (a pager quit early is a closed pipe, not an end);
    // the pager gets the default back.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var defaults = sigset_t()
    sigemptyset(&defaults)
    sigaddset(&defaults, SIGPIPE)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))
    let words: [String] = ["sh", "-c", command]
    let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environ)
    close(ends[0])
    guard result == 0 else {
      close(ends[1])
      return nil
    }
    return (pid, ends[1])
  }
}
