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
/// Lines are the same whatever the sizes of the reads that deliver them (SPEC §8): a line split
/// between reads — inside a two-letter key, a multi-byte character or a `\r\n` — is put back
/// together before it is handed on. A UTF-8 byte order mark at the start of the input is skipped,
/// even when it arrives over several reads. A key line that runs past a chunk is checked as it
/// arrives (``ScriptLine/PrefixCheck``): at a byte that is no key whatever follows, it is handed on
/// at once (and rejected there by the interpreter) without reading the rest, so `/dev/zero` or a
/// gigabyte of bad bytes is refused after one chunk.
public final class LineReader {
  /// The longest line accepted, in bytes, not counting its line end (`\n` or `\r\n`): 16 MiB,
  /// room for a 10,000,000-key line.
  public static let lineLimit = 1 << 24

  /// The error for a line longer than ``lineLimit``.
  static let tooLongMessage = "line longer than the limit of 16,777,216 bytes"

  /// The error for ``Failure/acceptedRejectedPrefix``.
  static let disagreementMessage =
    "internal error: this line was found bad while it was read, but the start of it was "
    + "accepted; the rest of the input was not run (please report this)"

  /// Why reading stopped before the end of the input.
  public enum Failure: Equatable, Sendable {
    /// The system refused, e.g. `Is a directory`.
    case unreadable(String)
    /// A line is longer than ``LineReader/lineLimit``; it was not handed on.
    case lineTooLong
    /// Ctrl-C (``Interruption``) while waiting for input.
    case interrupted
    /// A long line was handed on early because the check found a byte that is no key, but the
    /// caller accepted it: the check and the parser disagree, a bug to report. The rest of the
    /// line was not read.
    case acceptedRejectedPrefix
  }

  /// Where the bytes come from: a descriptor, or (for tests and the fuzz target) a function
  /// that fills a buffer as `read(2)` would.
  private enum Source {
    case descriptor(Int32)
    case function((UnsafeMutableRawBufferPointer) -> Int)
  }

  private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

  private let source: Source
  /// The longest line this reader accepts (``lineLimit`` unless a test asks for less).
  private let maximumLength: Int
  private var buffer: [UInt8]
  private var start = 0
  private var end = 0
  private var atEOF = false
  /// How many bytes of a byte order mark have been read at the start of the input; `nil` once
  /// the question is settled.
  private var byteOrderMarkSeen: Int? = 0
  /// A line that runs past the end of the buffer is gathered here.
  private var carry: [UInt8] = []

  /// Why reading stopped early, if it did.
  public private(set) var failure: Failure?

  /// Called before each read that may wait for input: a coprocess gets its answers before calc
  /// waits for the next question.
  var willRead: (() -> Void)?

  /// A reader of `fd` that asks for up to `chunkSize` bytes at a time and refuses lines longer
  /// than `lineLimit`.
  public init(fd: Int32, chunkSize: Int = 1 << 16, lineLimit: Int = LineReader.lineLimit) {
    source = .descriptor(fd)
    buffer = [UInt8](repeating: 0, count: chunkSize)
    maximumLength = lineLimit
  }

  /// A reader of the bytes that `read` puts in the buffer it is given, returning their count
  /// (0 at the end of the input), as `read(2)` does: for tests of the read sizes.
  public init(
    chunkSize: Int = 1 << 16, lineLimit: Int = LineReader.lineLimit,
    read: @escaping (UnsafeMutableRawBufferPointer) -> Int
  ) {
    source = .function(read)
    buffer = [UInt8](repeating: 0, count: chunkSize)
    maximumLength = lineLimit
  }

  /// Calls `body` with each line (without its `\n`, nor a `\r` before it) until the input ends,
  /// `body` returns false, or reading fails (see ``failure``).
  ///
  /// A long key line found bad while it arrives is handed to `body` as far as it has arrived,
  /// and reading stops there; `body` is expected to reject it.
  /// - Complexity: O(n) in the bytes read.
  public func forEachLine(_ body: (UnsafeBufferPointer<UInt8>) -> Bool) {
    var check = ScriptLine.PrefixCheck()
    while true {
      if start == end {
        if atEOF || !fill() { break }
      }
      let newline = buffer.withUnsafeBufferPointer { all in
        all[start..<end].firstIndex(of: UInt8(ascii: "\n"))
      }
      guard let newline else {
        // One byte over the limit may be the `\r` of a `\r\n`.
        guard carry.count + (end - start) <= maximumLength + 1 else {
          failure = .lineTooLong
          return
        }
        carry.append(contentsOf: buffer[start..<end])
        start = end
        let rejected = carry.withUnsafeBufferPointer { check.rejection(in: $0) != nil }
        if rejected {
          if carry.withUnsafeBufferPointer({ body($0) }) { failure = .acceptedRejectedPrefix }
          return
        }
        continue
      }
      let keepGoing: Bool
      if carry.isEmpty {
        guard newline - start <= maximumLength + 1 else {
          failure = .lineTooLong
          return
        }
        keepGoing = buffer.withUnsafeBufferPointer { all in
          handOn(all[start..<newline], body)
        }
      } else {
        guard carry.count + (newline - start) <= maximumLength + 1 else {
          failure = .lineTooLong
          return
        }
        carry.append(contentsOf: buffer[start..<newline])
        keepGoing = carry.withUnsafeBufferPointer { all in handOn(all[...], body) }
        carry.removeAll(keepingCapacity: false)
        check = ScriptLine.PrefixCheck()
      }
      start = newline + 1
      if failure != nil || !keepGoing { return }
    }
    if !carry.isEmpty {
      _ = carry.withUnsafeBufferPointer { all in handOn(all[...], body) }
      carry.removeAll()
    }
  }

  /// Calls `body` with `line` without a `\r` at its end; a line that is still longer than
  /// the reader's limit is not handed on, and sets ``failure``.
  private func handOn(
    _ line: Slice<UnsafeBufferPointer<UInt8>>, _ body: (UnsafeBufferPointer<UInt8>) -> Bool
  ) -> Bool {
    let trimmed = line.last == UInt8(ascii: "\r") ? line.dropLast() : line
    guard trimmed.count <= maximumLength else {
      failure = .lineTooLong
      return false
    }
    return body(UnsafeBufferPointer(rebasing: trimmed))
  }

  /// Reads the next chunk; false at the end of the input, on an error or on Ctrl-C.
  private func fill() -> Bool {
    willRead?()
    while true {
      start = 0
      end = 0
      let count = buffer.withUnsafeMutableBytes { raw in
        switch source {
        case .descriptor(let fd): return read(fd, raw.baseAddress!, raw.count)
        case .function(let read): return read(raw)
        }
      }
      if count > 0 {
        end = count
        skipByteOrderMark()
        if start < end { return true }
        continue
      }
      if count == 0 {
        atEOF = true
        // A start of a byte order mark and nothing after it: those bytes are the input.
        if let seen = byteOrderMarkSeen, seen > 0 {
          carry.append(contentsOf: LineReader.byteOrderMark[..<seen])
        }
        byteOrderMarkSeen = nil
        return false
      }
      switch errno {
      case EINTR, EAGAIN, EWOULDBLOCK:
        if Interruption.isRequested {
          failure = .interrupted
          atEOF = true
          return false
        }
        if errno != EINTR, case .descriptor(let fd) = source { wait(for: fd, events: POLLIN) }
      default:
        failure = .unreadable(String(cString: strerror(errno)))
        atEOF = true
        return false
      }
    }
  }

  /// Skips the bytes of a byte order mark at the start of the input, however the reads split it;
  /// bytes that turn out not to be one are given back, as the start of the first line.
  private func skipByteOrderMark() {
    guard var seen = byteOrderMarkSeen else { return }
    while start < end, seen < 3, buffer[start] == LineReader.byteOrderMark[seen] {
      start += 1
      seen += 1
    }
    if seen == 3 {
      byteOrderMarkSeen = nil
    } else if start < end {
      carry.append(contentsOf: LineReader.byteOrderMark[..<seen])
      byteOrderMarkSeen = nil
    } else {
      byteOrderMarkSeen = seen
    }
  }
}

/// Whether `fd` is a terminal.
func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }
