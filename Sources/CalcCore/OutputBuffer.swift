import CalculatorEngine

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
/// the caller to report. The write itself is the injected ``writer`` (CalcCLI's
/// `Platform.writeAll`): this module makes no system call.
public final class OutputBuffer {
  /// How writing a buffer ended.
  public enum WriteResult: Equatable, Sendable {
    /// Every byte was written.
    case written
    /// The reader went away (`EPIPE`); nothing more can be written.
    case closed
    /// Another error, as a person reads it (`No space left on device`).
    case failed(String)
  }

  /// Writes all of a buffer to a descriptor, retrying what the system interrupts.
  package typealias Writer = ([UInt8], Int32) -> WriteResult

  package private(set) var fd: Int32?
  /// Writes pending bytes to ``fd``.
  private let writer: Writer?
  /// While set, output is held until it is known to fit on the screen, or else goes through
  /// the pager (the REPL sets it for each line; ``endPaging()`` ends it).
  ///
  /// This and the two flags below skip the run-time exclusivity check as ``bytes`` does: a
  /// script's line reads all three once (``flushIfFull()``, ``hasStopped``).
  @exclusivity(unchecked) package var pager: (any OutputPager)?
  /// The width of the terminal this output is read on, when it is one (the REPL sets it for
  /// each line): listings are cut to it, `:help` wrapped, `:pad` narrowed (SPEC §6). `nil`
  /// for files, pipes and tests that do not ask, where nothing is cut.
  ///
  /// Without the run-time exclusivity check, as ``bytes``: a script's line reads it once (date
  /// mode's fitting, ``Listing``), and the check cost about 80 instructions an everyday line
  /// (Documentation/Performance.md).
  @exclusivity(unchecked) public var columns: Int?
  /// Pending output; front ends append to it directly.
  ///
  /// Without the run-time exclusivity check that a class's stored property otherwise gets at
  /// every access: a script appends to it two or three times a line, and the check cost more
  /// than the append. An output buffer belongs to one thread, and no access to `bytes` calls
  /// code that could reach the same buffer while it is being changed.
  @exclusivity(unchecked) public package(set) var bytes: [UInt8] = []
  /// Set when the reader of the descriptor went away (EPIPE); later output is dropped.
  @exclusivity(unchecked) package private(set) var isClosed = false
  /// Why output could not be written, e.g. `No space left on device`; later output is dropped.
  @exclusivity(unchecked) private(set) var failure: String?

  /// Output gathered in ``bytes``, never written anywhere.
  public init() {
    fd = nil
    writer = nil
  }

  /// Output written to `fd` by `writer` as the buffer fills.
  package init(fd: Int32, writer: @escaping Writer) {
    self.fd = fd
    self.writer = writer
    bytes.reserveCapacity(1 << 16)
  }

  /// What was gathered, as text (for output kept in memory).
  public var text: String { String(decoding: bytes, as: UTF8.self) }

  /// Whether output has stopped, because the reader went away or because of a write error.
  package var hasStopped: Bool { isClosed || failure != nil }

  package func write(_ text: String) {
    bytes.append(contentsOf: text.utf8)
  }

  /// Writes a row of a listing and a newline, cut with `…` to ``columns`` when set.
  func writeRow(_ row: String) {
    write((columns.map { Terminal.cut(row, width: $0) } ?? row) + "\n")
  }

  /// Flushes once a good amount is pending; long listings call it after each row, a script
  /// after each line (inlined: a call a line cost more than the test).
  @inline(__always)
  package func flushIfFull() {
    if let pager, pager.isHolding {
      pager.review(self)
    } else if bytes.count >= 1 << 15 {
      flush()
    }
  }

  /// Writes out the rest of a line's output: to the pager, then waits for it to finish; or to
  /// the terminal, if it fit on the screen.
  package func endPaging() {
    guard let pager else { return flush() }
    if pager.isHolding { pager.review(self) }
    flush()
    self.pager = nil
    pager.finish(self)
  }

  /// Sends later output to `fd` as if newly opened (to the pager and back).
  package func redirect(to fd: Int32) {
    self.fd = fd
    isClosed = false
    failure = nil
  }

  /// Writes out everything pending.
  package func flush() {
    guard let fd, let writer else { return }
    defer { bytes.removeAll(keepingCapacity: true) }
    guard !hasStopped else { return }
    switch writer(bytes, fd) {
    case .written: break
    case .closed: isClosed = true
    case .failed(let reason): failure = reason
    }
  }

  /// `status`, unless output failed: then `calc: write error: REASON` on `errors` and 74.
  package func exitStatus(_ status: Int32, errors: OutputBuffer) -> Int32 {
    flush()
    guard let failure else { return status }
    errors.write("calc: write error: \(failure)\n")
    errors.flush()
    return ExitStatus.ioError
  }
}

/// Where a line's long output goes instead of the screen: CalcCLI's `Pager`, which holds output
/// until it is known not to fit and then starts the pager program.
package protocol OutputPager: AnyObject {
  /// Whether output is still held, not yet known to fit or not.
  var isHolding: Bool { get }
  /// Looks at what `output` holds: starts the pager once it will not fit on the screen.
  func review(_ output: OutputBuffer)
  /// Waits for the pager, if one was started, and gives `output` its descriptor back.
  func finish(_ output: OutputBuffer)
}
