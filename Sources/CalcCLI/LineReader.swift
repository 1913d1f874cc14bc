import CalcCore
import CalculatorEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

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
  /// The chunk read last, in memory of the reader's own: reaching an array's from a class
  /// retained and released it twice a line.
  private let buffer: UnsafeMutableBufferPointer<UInt8>
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

  deinit { buffer.deallocate() }

  /// Called before each read that may wait for input: a coprocess gets its answers before calc
  /// waits for the next question.
  var willRead: (() -> Void)?

  /// A reader of `fd` that asks for up to `chunkSize` bytes at a time and refuses lines longer
  /// than `lineLimit`.
  public init(fd: Int32, chunkSize: Int = 1 << 16, lineLimit: Int = LineReader.lineLimit) {
    source = .descriptor(fd)
    buffer = .allocate(capacity: max(chunkSize, 1))
    buffer.initialize(repeating: 0)
    maximumLength = lineLimit
  }

  /// A reader of the bytes that `read` puts in the buffer it is given, returning their count
  /// (0 at the end of the input), as `read(2)` does: for tests of the read sizes.
  public init(
    chunkSize: Int = 1 << 16, lineLimit: Int = LineReader.lineLimit,
    read: @escaping (UnsafeMutableRawBufferPointer) -> Int
  ) {
    source = .function(read)
    buffer = .allocate(capacity: max(chunkSize, 1))
    buffer.initialize(repeating: 0)
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
      // `memchr`, not `firstIndex(of:)`: the generic search costs seconds on a 16 MiB line in a
      // debug build (the tests').
      let base = buffer.baseAddress!
      let newline: Int? = memchr(base + start, Int32(UInt8(ascii: "\n")), end - start).map {
        UnsafeRawPointer(base).distance(to: UnsafeRawPointer($0))
      }
      guard let newline else {
        // One byte over the limit may be the `\r` of a `\r\n`.
        guard carry.count + (end - start) <= maximumLength + 1 else {
          failure = .lineTooLong
          return
        }
        carry.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<end]))
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
        keepGoing = handOn(UnsafeBufferPointer(buffer)[start..<newline], body)
      } else {
        guard carry.count + (newline - start) <= maximumLength + 1 else {
          failure = .lineTooLong
          return
        }
        carry.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<newline]))
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
      let raw = UnsafeMutableRawBufferPointer(buffer)
      let count: Int
      switch source {
      case .descriptor(let fd): count = read(fd, raw.baseAddress!, raw.count)
      case .function(let read): count = read(raw)
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
        if errno != EINTR, case .descriptor(let fd) = source {
          Platform.wait(for: fd, events: POLLIN)
        }
      default:
        failure = .unreadable(Platform.errorMessage(errno))
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
