import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A small xterm screen: turns what calc and readline write to a terminal into the text a person
/// would see. It knows the controls readline uses with `TERM=xterm` (cursor moves, erasing,
/// insert mode, line wrap) and ignores colours and modes. Lines that scroll off the top are kept.
struct TerminalScreen {
  private(set) var columns: Int
  private(set) var rows: Int
  private var cells: [[Character]]
  private var scrolledOff: [String] = []
  private var row = 0
  private var column = 0
  private var wrapPending = false
  private var insertMode = false
  private var state = State.ground
  private var sequence: [UInt8] = []
  private var character: [UInt8] = []

  private enum State {
    case ground, escape, escapeIntermediate, controlSequence, osc, oscEscape
  }

  init(columns: Int, rows: Int) {
    self.columns = columns
    self.rows = rows
    cells = Array(repeating: Self.blankRow(columns), count: rows)
  }

  /// The screen after the window changed size, as xterm does it: rows are cut or padded on
  /// the right; fewer rows push the top ones off (into the scrollback) as far as the cursor
  /// needs, more rows are added below.
  mutating func resize(columns: Int, rows: Int) {
    cells = cells.map { row in
      row.count >= columns
        ? Array(row[..<columns]) : row + Array(repeating: " ", count: columns - row.count)
    }
    while cells.count > rows {
      if row > 0 {
        scrolledOff.append(Self.trimmed(cells.removeFirst()))
        row -= 1
      } else {
        cells.removeLast()
      }
    }
    while cells.count < rows { cells.append(Self.blankRow(columns)) }
    self.columns = columns
    self.rows = rows
    column = min(column, columns - 1)
    wrapPending = false
  }

  private static func blankRow(_ columns: Int) -> [Character] {
    Array(repeating: " ", count: columns)
  }

  /// Every line so far, oldest first, up to the cursor's line. Trailing blanks are removed,
  /// except that the cursor's line runs at least to the cursor, so a prompt keeps its space.
  var lines: [String] {
    scrolledOff + cells[..<row].map(Self.trimmed) + [cursorLine]
  }

  /// The rows below the cursor's line, trailing blanks removed: what calc draws below the
  /// input (the slider's rows).
  var rowsBelowCursor: [String] {
    cells[(row + 1)...].map(Self.trimmed)
  }

  /// Every row of the screen, top to bottom, trailing blanks removed (the scrollback not
  /// included).
  var screenRows: [String] { cells.map(Self.trimmed) }

  /// The lines that scrolled off the top, oldest first.
  var scrollback: [String] { scrolledOff }

  /// The cursor's row on the screen, from 0 at the top.
  var cursorRow: Int { row }

  private var cursorLine: String {
    let text = Self.trimmed(cells[row])
    let end = wrapPending ? columns : column
    return text.count >= end ? text : text + String(repeating: " ", count: end - text.count)
  }

  private static func trimmed(_ cells: [Character]) -> String {
    String(cells[..<(cells.lastIndex { $0 != " " }.map { $0 + 1 } ?? 0)])
  }

  mutating func feed<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
    for byte in bytes { feed(byte) }
  }

  private mutating func feed(_ byte: UInt8) {
    switch state {
    case .ground:
      ground(byte)
    case .escape:
      switch byte {
      case UInt8(ascii: "["):
        sequence = []
        state = .controlSequence
      case UInt8(ascii: "]"):
        state = .osc
      case 0x20...0x2F:
        state = .escapeIntermediate  // e.g. ESC ( B: a character set, one more byte
      case UInt8(ascii: "M"):
        if row > 0 { row -= 1 }
        state = .ground
      default:
        state = .ground  // ESC = and ESC > (keypad modes), ESC 7 and ESC 8, ...
      }
    case .escapeIntermediate:
      state = .ground
    case .controlSequence:
      if (0x40...0x7E).contains(byte) {
        controlSequence(final: byte)
        state = .ground
      } else {
        sequence.append(byte)
      }
    case .osc:
      if byte == 0x07 { state = .ground } else if byte == 0x1B { state = .oscEscape }
    case .oscEscape:
      state = byte == UInt8(ascii: "\\") ? .ground : .osc
    }
  }

  private mutating func ground(_ byte: UInt8) {
    switch byte {
    case 0x1B:
      character = []
      state = .escape
    case UInt8(ascii: "\r"):
      column = 0
      wrapPending = false
    case UInt8(ascii: "\n"), 0x0B, 0x0C:
      lineFeed()
    case 0x08:
      if wrapPending { wrapPending = false } else if column > 0 { column -= 1 }
    case UInt8(ascii: "\t"):
      column = min(columns - 1, (column / 8 + 1) * 8)
    case 0x00..<0x20, 0x7F:
      break  // the bell and other controls show nothing
    default:
      character.append(byte)
      let length =
        character[0] < 0x80 ? 1 : character[0] < 0xE0 ? 2 : character[0] < 0xF0 ? 3 : 4
      if character.count >= length {
        put(Character(String(decoding: character, as: UTF8.self)))
        character = []
      }
    }
  }

  private mutating func put(_ character: Character) {
    if wrapPending {
      column = 0
      lineFeed()
      wrapPending = false
    }
    if insertMode {
      cells[row].insert(character, at: column)
      cells[row].removeLast()
    } else {
      cells[row][column] = character
    }
    if column == columns - 1 { wrapPending = true } else { column += 1 }
  }

  private mutating func lineFeed() {
    wrapPending = false
    if row == rows - 1 {
      scrolledOff.append(Self.trimmed(cells[0]))
      cells.removeFirst()
      cells.append(Self.blankRow(columns))
    } else {
      row += 1
    }
  }

  private mutating func controlSequence(final: UInt8) {
    if sequence.first.map({ (0x3C...0x3F).contains($0) }) == true {
      return  // private modes such as ?2004h (bracketed paste) and ?1034h (meta key)
    }
    let numbers = String(decoding: sequence, as: UTF8.self).split(
      separator: ";", omittingEmptySubsequences: false
    ).map { Int($0) }
    func number(_ index: Int, default value: Int = 1) -> Int {
      guard index < numbers.count, let number = numbers[index], number > 0 else { return value }
      return number
    }
    wrapPending = false
    switch final {
    case UInt8(ascii: "A"): row = max(0, row - number(0))
    case UInt8(ascii: "B"): row = min(rows - 1, row + number(0))
    case UInt8(ascii: "C"): column = min(columns - 1, column + number(0))
    case UInt8(ascii: "D"): column = max(0, column - number(0))
    case UInt8(ascii: "G"): column = min(columns, number(0)) - 1
    case UInt8(ascii: "d"): row = min(rows, number(0)) - 1
    case UInt8(ascii: "H"), UInt8(ascii: "f"):
      row = min(rows, number(0)) - 1
      column = min(columns, number(1)) - 1
    case UInt8(ascii: "K"):
      eraseLine(number(0, default: 0))
    case UInt8(ascii: "J"):
      let mode = number(0, default: 0)
      eraseLine(mode)
      let others = mode == 0 ? row + 1..<rows : mode == 1 ? 0..<row : 0..<rows
      for index in others { cells[index] = Self.blankRow(columns) }
    case UInt8(ascii: "P"):
      let count = min(number(0), columns - column)
      cells[row].removeSubrange(column..<column + count)
      cells[row].append(contentsOf: Array(repeating: " ", count: count))
    case UInt8(ascii: "@"):
      let count = min(number(0), columns - column)
      cells[row].insert(contentsOf: Array(repeating: " ", count: count), at: column)
      cells[row].removeLast(count)
    case UInt8(ascii: "X"):
      for index in column..<min(columns, column + number(0)) { cells[row][index] = " " }
    case UInt8(ascii: "h"), UInt8(ascii: "l"):
      if numbers.contains(4) { insertMode = final == UInt8(ascii: "h") }
    default:
      break  // m (colours) and the rest change no text
    }
  }

  private mutating func eraseLine(_ mode: Int) {
    let range = mode == 0 ? column..<columns : mode == 1 ? 0..<column + 1 : 0..<columns
    for index in range where index < columns { cells[row][index] = " " }
  }
}

/// Why a terminal session failed.
struct TerminalError: Error, CustomStringConvertible {
  let description: String
}

/// The built `calc` running on a pseudo-terminal of its own, as in a terminal window.
///
/// calc is started with `posix_spawn` (no Swift code runs in the child) as the leader of a new
/// session that opens the pty's slave, which makes the pty its controlling terminal: Ctrl-C
/// typed on the master sends it SIGINT, as a terminal would. Its environment is exactly the one
/// given (plus `TERM=xterm` and `LANG=C.UTF-8`), so the real home and history are never used.
final class TerminalSession {
  static let columns = 100
  static let rows = 40

  let pid: pid_t
  private let master: Int32
  /// Everything calc wrote, escape sequences and all.
  private(set) var output: [UInt8] = []
  private(set) var screen: TerminalScreen
  private var isClosed = false
  private var status: Int32?

  /// Starts calc with `arguments` in `directory` with `environment` (which should hold `HOME`);
  /// with `standardOutput`, calc's standard output is that file (created or truncated), as in
  /// `calc > FILE`, and only its standard input and error are the terminal; the descriptors in
  /// `closed` (1, 2) are closed, as `calc >&- 2>&-` starts it.
  init(
    directory: URL, environment: [String: String], arguments: [String] = [],
    standardOutput: String? = nil, closed: [Int32] = [], columns: Int = TerminalSession.columns,
    rows: Int = TerminalSession.rows
  ) throws {
    screen = TerminalScreen(columns: columns, rows: rows)
    var master: Int32 = 0
    var slave: Int32 = 0
    var size = winsize(
      ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
    guard openpty(&master, &slave, nil, nil, &size) == 0 else {
      throw TerminalError(description: "openpty: \(String(cString: strerror(errno)))")
    }
    // Keep the pty out of processes that other tests start meanwhile.
    _ = fcntl(master, F_SETFD, FD_CLOEXEC)
    _ = fcntl(slave, F_SETFD, FD_CLOEXEC)
    defer { close(slave) }  // calc has its own; when it exits, reading the master fails (EIO)
    var name = [CChar](repeating: 0, count: 256)
    let nameError = ttyname_r(slave, &name, name.count)
    guard nameError == 0 else {
      close(master)
      throw TerminalError(description: "ttyname_r: \(String(cString: strerror(nameError)))")
    }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    guard let changeDirectory = Self.fileAction(SpawnChangeDirectory.self, "addchdir_np") else {
      close(master)
      throw TerminalError(description: "posix_spawn_file_actions_addchdir_np is missing")
    }
    _ = changeDirectory(&actions, directory.path)
    // Opened after setsid, without O_NOCTTY: the pty becomes calc's controlling terminal.
    posix_spawn_file_actions_addopen(&actions, 0, name, O_RDWR, 0)
    if let standardOutput {
      posix_spawn_file_actions_addopen(
        &actions, 1, standardOutput, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    } else {
      posix_spawn_file_actions_adddup2(&actions, 0, 1)
    }
    posix_spawn_file_actions_adddup2(&actions, 0, 2)
    for fd in closed { posix_spawn_file_actions_addclose(&actions, fd) }
    if let closeFrom = Self.fileAction(SpawnCloseFrom.self, "addclosefrom_np") {
      _ = closeFrom(&actions, 3)
    }

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // Test threads may block or ignore signals; calc must start with the defaults.
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    let setSession: Int32 = 0x80  // POSIX_SPAWN_SETSID, which Swift's Glibc does not export
    posix_spawnattr_setflags(
      &attributes, Int16(setSession | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    var variables = environment
    variables["TERM"] = variables["TERM"] ?? "xterm"
    variables["LANG"] = variables["LANG"] ?? "C.UTF-8"
    let binary = CalcProcess.binary.path
    let argv = ([binary] + arguments).map { strdup($0) } + [nil]
    let envp = variables.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, binary, &actions, &attributes, argv, envp)
    SpawnLog.record(CalcProcess.binary, pid: pid)
    guard result == 0 else {
      close(master)
      throw TerminalError(
        description: "posix_spawn \(binary): \(String(cString: strerror(result)))")
    }
    self.pid = pid
    self.master = master
  }

  deinit {
    if status == nil {
      kill(pid, SIGKILL)
      var status: Int32 = 0
      while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }
    close(master)
  }

  private typealias SpawnChangeDirectory =
    @convention(c) (
      UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>
    ) -> Int32
  private typealias SpawnCloseFrom =
    @convention(c) (
      UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32
    ) -> Int32

  /// A glibc `posix_spawn_file_actions_…_np` function, which Swift's Glibc does not export.
  private static func fileAction<Function>(_ type: Function.Type, _ suffix: String) -> Function? {
    guard let symbol = dlsym(nil, "posix_spawn_file_actions_" + suffix) else { return nil }
    return unsafeBitCast(symbol, to: type)
  }

  /// How many lines at the top ``lines`` leaves out: calc's start-up line, once a test has seen
  /// it (`REPLTests.startCalc`), so that the tests compare what happens after it.
  var skippedLines = 0

  /// The screen's lines (see ``TerminalScreen/lines``) after the first ``skippedLines``.
  var lines: [String] { Array(screen.lines.dropFirst(skippedLines)) }

  /// The output as text, escape sequences included.
  var text: String { String(decoding: output, as: UTF8.self) }

  /// Types `keys` once readline is reading: the terminal is in its non-canonical mode, so that
  /// nothing is echoed or edited by the terminal driver instead.
  func type(_ keys: String, timeout: Duration = .seconds(10)) throws {
    try wait(for: "readline to read input", timeout: timeout) { $0.isReadingKeys }
    var bytes = Array(keys.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR { continue }
        throw TerminalError(description: "write: \(String(cString: strerror(errno)))")
      }
      bytes = bytes.dropFirst(written)
    }
  }

  /// Changes the window's size, as dragging its corner does: the screen is cut or extended
  /// first (``TerminalScreen/resize(columns:rows:)``), then the pty gets the new size and the
  /// kernel sends calc SIGWINCH.
  func resize(columns: Int, rows: Int) throws {
    while pump(milliseconds: 20) {}
    screen.resize(columns: columns, rows: rows)
    var size = winsize(
      ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
    guard ioctl(master, UInt(TIOCSWINSZ), &size) == 0 else {
      throw TerminalError(description: "TIOCSWINSZ: \(String(cString: strerror(errno)))")
    }
  }

  /// Whether the terminal is in readline's mode (a pty master reports its slave's settings).
  private var isReadingKeys: Bool {
    var settings = termios()
    return tcgetattr(master, &settings) == 0 && settings.c_lflag & UInt32(ICANON) == 0
  }

  /// Waits until the screen shows exactly `expected` (see ``TerminalScreen/lines``).
  func waitForScreen(_ expected: [String], timeout: Duration = .seconds(10)) throws {
    try wait(for: "the screen\n" + expected.joined(separator: "\n"), timeout: timeout) {
      $0.lines == expected
    }
  }

  /// Waits until the screen's last lines are `expected`.
  func waitForLastLines(_ expected: [String], timeout: Duration = .seconds(10)) throws {
    try wait(for: "the last lines\n" + expected.joined(separator: "\n"), timeout: timeout) {
      Array($0.lines.suffix(expected.count)) == expected
    }
  }

  /// Waits for calc to exit, reads the rest of its output, and returns its exit status.
  func waitForExit(timeout: Duration = .seconds(10)) throws -> Int32 {
    try wait(for: "calc to exit", timeout: timeout) { $0.hasExited }
    // What calc wrote is in the terminal already. (Waiting for the end of file instead could
    // take long: a process that another test starts meanwhile may have inherited the slave.)
    while pump(milliseconds: 50) {}
    let status = status!
    guard status & 0x7F == 0 else {
      throw TerminalError(description: "calc was killed by signal \(status & 0x7F)\n" + report)
    }
    return (status >> 8) & 0xFF
  }

  /// Whether calc is still running.
  var isRunning: Bool { !hasExited }

  private var hasExited: Bool {
    if status != nil { return true }
    var value: Int32 = 0
    if waitpid(pid, &value, WNOHANG) == pid { status = value }
    return status != nil
  }

  /// Reads and renders calc's output until `condition` holds, or throws after `timeout`.
  func wait(
    for what: String, timeout: Duration = .seconds(10), _ condition: (TerminalSession) -> Bool
  ) throws {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while !condition(self) {
      guard clock.now < deadline else {
        throw TerminalError(description: "timed out waiting for \(what)\n" + report)
      }
      if !pump(milliseconds: 20), hasExited, !condition(self) {
        throw TerminalError(description: "calc exited while waiting for \(what)\n" + report)
      }
    }
  }

  /// Reads what arrives within `milliseconds`; false if nothing did. Once the terminal is
  /// closed, nothing can arrive: it returns after a millisecond, so that a wait for calc's exit
  /// (which comes right after it closed the terminal) sees it soon.
  private func pump(milliseconds: Int32) -> Bool {
    if isClosed {
      usleep(1000)
      return false
    }
    var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
    guard poll(&descriptor, 1, milliseconds) > 0 else { return false }
    var buffer = [UInt8](repeating: 0, count: 8192)
    let count = read(master, &buffer, buffer.count)
    if count > 0 {
      output.append(contentsOf: buffer[..<count])
      screen.feed(buffer[..<count])
      return true
    }
    if count == 0 || (errno != EINTR && errno != EAGAIN) {
      isClosed = true  // EIO: calc and everything it started have closed the terminal
    }
    return false
  }

  /// The screen and the raw output, for failure messages.
  var report: String {
    let screenText = lines.map { "|" + $0 + "|" }.joined(separator: "\n")
    let raw = String(text.unicodeScalars.suffix(2000).map { $0.escaped(asASCII: true) }.joined())
    return "screen (| marks the ends of lines):\n\(screenText)\noutput: \(raw)"
  }
}
