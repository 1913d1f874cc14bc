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
public final class OutputBuffer {
  private(set) var fd: Int32?
  /// While set, output is held until it is known to fit on the screen, or else goes through
  /// the pager (the REPL sets it for each line; ``endPaging()`` ends it).
  var pager: Pager?
  /// Pending output; front ends append to it directly.
  public internal(set) var bytes: [UInt8] = []
  /// Set when the reader of the descriptor went away (EPIPE); later output is dropped.
  private(set) var isClosed = false

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
  }

  /// Writes out everything pending.
  func flush() {
    guard let fd else { return }
    defer { bytes.removeAll(keepingCapacity: true) }
    guard !isClosed else { return }
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { raw in
        Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        isClosed = true
        return
      }
      offset += written
    }
  }
}

/// Reads a file descriptor line by line in large chunks, without copying lines that lie within
/// one chunk: memory stays bounded by the longest line, not the input.
final class LineReader {
  private let fd: Int32
  private var buffer: [UInt8]
  private var start = 0
  private var end = 0
  private var atEOF = false
  /// A line that runs past the end of the buffer is gathered here.
  private var carry: [UInt8] = []

  /// Why reading failed, if it did (e.g. `Is a directory`).
  private(set) var failure: String?

  init(fd: Int32, chunkSize: Int = 1 << 16) {
    self.fd = fd
    buffer = [UInt8](repeating: 0, count: chunkSize)
  }

  /// Calls `body` with each line (without its `\n`, nor a `\r` before it) until the input ends or
  /// `body` returns false.
  func forEachLine(_ body: (UnsafeBufferPointer<UInt8>) -> Bool) {
    while true {
      if start == end {
        if atEOF || !fill() { break }
      }
      let newline = buffer.withUnsafeBufferPointer { all in
        all[start..<end].firstIndex(of: UInt8(ascii: "\n"))
      }
      guard let newline else {
        carry.append(contentsOf: buffer[start..<end])
        start = end
        continue
      }
      let keepGoing: Bool
      if carry.isEmpty {
        keepGoing = buffer.withUnsafeBufferPointer { all in
          body(UnsafeBufferPointer(rebasing: LineReader.trimmed(all[start..<newline])))
        }
      } else {
        carry.append(contentsOf: buffer[start..<newline])
        keepGoing = carry.withUnsafeBufferPointer { all in
          body(UnsafeBufferPointer(rebasing: LineReader.trimmed(all[...])))
        }
        carry.removeAll(keepingCapacity: false)
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

  /// Reads the next chunk; false at the end of the input or on an error.
  private func fill() -> Bool {
    start = 0
    end = 0
    while true {
      let count = buffer.withUnsafeMutableBytes { raw in read(fd, raw.baseAddress!, raw.count) }
      if count > 0 {
        end = count
        return true
      }
      if count < 0 && errno == EINTR { continue }
      if count < 0 { failure = String(cString: strerror(errno)) }
      atEOF = true
      return false
    }
  }
}

/// Whether `fd` is a terminal.
func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }
