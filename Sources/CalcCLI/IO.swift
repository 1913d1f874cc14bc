import CalculatorEngine
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the interpreter's output goes: bytes gathered in a buffer and written to a file
/// descriptor as it fills, so that a script's million displays cost a few hundred `write` calls
/// and a command's long listing (`:history`) needs no more memory than the buffer.
///
/// Without a descriptor (``init()``) it keeps everything in ``bytes``: for tests, and for
/// programs that embed the interpreter.
///
/// A descriptor that is not ready (`EAGAIN`: a non-blocking pipe whose reader is slow) is waited
/// for, never taken for a closed one. A reader that went away (`EPIPE`) stops the output quietly;
/// any other error (`No space left on device`, a closed descriptor) is kept in ``failure`` for
/// the caller to report.
public final class OutputBuffer {
  private(set) var fd: Int32?
  /// While set, output is held until it is known to fit on the screen, or else goes through
  /// the pager (the REPL sets it for each line; ``endPaging()`` ends it).
  var pager: Pager?
  /// Pending output; front ends append to it directly.
  public internal(set) var bytes: [UInt8] = []
  /// Set when the reader of the descriptor went away (EPIPE); later output is dropped.
  private(set) var isClosed = false
  /// Why output could not be written, e.g. `No space left on device`; later output is dropped.
  private(set) var failure: String?

  /// Output gathered in ``bytes``, never written anywhere.
  public init() {
    fd = nil
  }

  init(fd: Int32) {
    self.fd = fd
    bytes.reserveCapacity(1 << 16)
  }

  /// What was gathered, as text (for output kept in memory).
  public var text: String { String(decoding: bytes, as: UTF8.self) }

  /// Whether output has stopped, because the reader went away or because of a write error.
  var hasStopped: Bool { isClosed || failure != nil }

  func write(_ text: String) {
    bytes.append(contentsOf: text.utf8)
  }

  /// Flushes once a good amount is pending; long listings call it after each row.
  func flushIfFull() {
    if let pager, pager.isHolding {
      pager.review(self)
    } else if bytes.count >= 1 << 15 {
      flush()
    }
  }

  /// Writes out the rest of a line's output: to the pager, then waits for it to finish; or to
  /// the terminal, if it fit on the screen.
  func endPaging() {
    guard let pager else { return flush() }
    if pager.isHolding { pager.review(self) }
    flush()
    self.pager = nil
    pager.finish(self)
  }

  /// Sends later output to `fd` as if newly opened (to the pager and back).
  func redirect(to fd: Int32) {
    self.fd = fd
    isClosed = false
    failure = nil
  }

  /// Writes out everything pending.
  func flush() {
    guard let fd else { return }
    defer { bytes.removeAll(keepingCapacity: true) }
    guard !hasStopped else { return }
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { raw in
        Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
      }
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
        isClosed = true
        return
      default:
        failure = String(cString: strerror(errno))
        return
      }
    }
  }

  /// `status`, unless output failed: then `calc: write error: REASON` on `errors` and 74.
  func exitStatus(_ status: Int32, errors: OutputBuffer) -> Int32 {
    flush()
    guard let failure else { return status }
    errors.write("calc: write error: \(failure)\n")
    errors.flush()
    return ExitStatus.ioError
  }
}

/// Waits until `fd` is ready for `events` (`POLLIN`, `POLLOUT`), or a signal arrives.
private func wait(for fd: Int32, events: Int32) {
  var descriptor = pollfd(fd: fd, events: Int16(events), revents: 0)
  _ = poll(&descriptor, 1, -1)
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

/// Reads a file descriptor line by line in large chunks, without copying lines that lie within
/// one chunk: memory stays bounded by ``lineLimit``, not the input.
///
/// A UTF-8 byte order mark at the start of the input is skipped. A key line that runs past a
/// chunk is checked as it arrives: at its first byte that is no key it is handed on at once
/// (and rejected there by the interpreter) without reading the rest, so `/dev/zero` or a gigabyte
/// of bad bytes is refused after one chunk.
final class LineReader {
  /// The longest line accepted, in bytes: 16 MiB, room for a 10,000,000-key line.
  static let lineLimit = 1 << 24

  /// The error for a line longer than ``lineLimit``.
  static let tooLongMessage = "line longer than the limit of 16,777,216 bytes"

  /// Why reading stopped before the end of the input.
  enum Failure: Equatable {
    /// The system refused, e.g. `Is a directory`.
    case unreadable(String)
    /// A line is longer than ``LineReader/lineLimit``; it was not handed on.
    case lineTooLong
    /// Ctrl-C (``Interruption``) while waiting for input.
    case interrupted
  }

  private let fd: Int32
  private var buffer: [UInt8]
  private var start = 0
  private var end = 0
  private var atEOF = false
  private var isFirstChunk = true
  /// A line that runs past the end of the buffer is gathered here.
  private var carry: [UInt8] = []

  /// Why reading stopped early, if it did.
  private(set) var failure: Failure?

  /// Called before each read that may wait for input: a coprocess gets its answers before calc
  /// waits for the next question.
  var willRead: (() -> Void)?

  init(fd: Int32, chunkSize: Int = 1 << 16) {
    self.fd = fd
    buffer = [UInt8](repeating: 0, count: chunkSize)
  }

  /// Calls `body` with each line (without its `\n`, nor a `\r` before it) until the input ends,
  /// `body` returns false, or a line is too long (see ``failure``).
  ///
  /// A long key line found bad while it arrives is handed to `body` up to its first bad
  /// character, and reading stops there.
  func forEachLine(_ body: (UnsafeBufferPointer<UInt8>) -> Bool) {
    var check = LongLineCheck()
    while true {
      if start == end {
        if atEOF || !fill() { break }
      }
      let newline = buffer.withUnsafeBufferPointer { all in
        all[start..<end].firstIndex(of: UInt8(ascii: "\n"))
      }
      guard let newline else {
        guard carry.count + (end - start) <= LineReader.lineLimit else {
          failure = .lineTooLong
          return
        }
        carry.append(contentsOf: buffer[start..<end])
        start = end
        if let rejected = check.rejectedPrefix(of: carry) {
          _ = carry.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[..<rejected])) }
          return
        }
        continue
      }
      let keepGoing: Bool
      if carry.isEmpty {
        keepGoing = buffer.withUnsafeBufferPointer { all in
          body(UnsafeBufferPointer(rebasing: LineReader.trimmed(all[start..<newline])))
        }
      } else {
        guard carry.count + (newline - start) <= LineReader.lineLimit else {
          failure = .lineTooLong
          return
        }
        carry.append(contentsOf: buffer[start..<newline])
        keepGoing = carry.withUnsafeBufferPointer { all in
          body(UnsafeBufferPointer(rebasing: LineReader.trimmed(all[...])))
        }
        carry.removeAll(keepingCapacity: false)
        check = LongLineCheck()
      }
      start = newline + 1
      if !keepGoing { return }
    }
    if !carry.isEmpty {
      _ = carry.withUnsafeBufferPointer { all in
        body(UnsafeBufferPointer(rebasing: LineReader.trimmed(all[...])))
      }
      carry.removeAll()
    }
  }

  private static func trimmed(_ line: Slice<UnsafeBufferPointer<UInt8>>)
    -> Slice<UnsafeBufferPointer<UInt8>>
  {
    line.last == UInt8(ascii: "\r") ? line.dropLast() : line
  }

  /// Reads the next chunk; false at the end of the input, on an error or on Ctrl-C.
  private func fill() -> Bool {
    start = 0
    end = 0
    willRead?()
    while true {
      let count = buffer.withUnsafeMutableBytes { raw in read(fd, raw.baseAddress!, raw.count) }
      if count > 0 {
        end = count
        if isFirstChunk, buffer.starts(with: [0xEF, 0xBB, 0xBF]), count >= 3 { start = 3 }
        isFirstChunk = false
        if start < end { return true }
        continue
      }
      if count == 0 {
        atEOF = true
        return false
      }
      switch errno {
      case EINTR, EAGAIN, EWOULDBLOCK:
        if Interruption.isRequested {
          failure = .interrupted
          atEOF = true
          return false
        }
        if errno != EINTR { wait(for: fd, events: POLLIN) }
      default:
        failure = .unreadable(String(cString: strerror(errno)))
        atEOF = true
        return false
      }
    }
  }
}

/// Checks a key line that is still arriving, a chunk at a time, so that a bad one is rejected
/// at its first bad character instead of after the whole line has been read.
///
/// Each byte is checked once. A command line (`:`…) is left to the interpreter: only its length
/// is limited.
private struct LongLineCheck {
  /// Bytes before this offset are valid key text without a comment.
  private var checked = 0
  /// Nothing more to check: a command line, or a comment has started.
  private var isDone = false

  /// The length of the prefix of `line` to hand on when `line` (a prefix of a whole line)
  /// already holds a character that is no key, or `nil`.
  mutating func rejectedPrefix(of line: [UInt8]) -> Int? {
    guard !isDone else { return nil }
    return line.withUnsafeBufferPointer { all in
      if checked == 0 {
        guard let first = all.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }) else { return nil }
        if ScriptLine.isCommand(UnsafeBufferPointer(rebasing: all[first...])) {
          isDone = true
          return nil
        }
      }
      // Up to the last complete UTF-8 character: a chunk may end inside one.
      var complete = all.count
      var back = 0
      while back < 3, complete > checked, all[complete - 1] & 0xC0 == 0x80 {
        complete -= 1
        back += 1
      }
      if complete > checked, all[complete - 1] >= 0xC0 { complete -= 1 }
      let piece = UnsafeBufferPointer(rebasing: all[checked..<complete])
      do {
        try KeyText.scan(piece) { _ in }
      } catch {
        return complete
      }
      if piece.contains(UInt8(ascii: "#")) { isDone = true }
      checked = complete
      return nil
    }
  }
}

/// Whether `fd` is a terminal.
func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }
