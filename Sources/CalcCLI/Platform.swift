import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The calls calc makes to the system, in one place (as ArgumentParser's `Platform`): writing
/// all of a buffer, waiting for a descriptor, the message of an `errno`, terminals.
///
/// calc targets Linux (glibc); other systems are not supported.
enum Platform {
  /// How writing a buffer ended.
  enum WriteResult: Equatable {
    /// Every byte was written.
    case written
    /// The reader went away (`EPIPE`); nothing more can be written.
    case closed
    /// Another error, as a person reads it (`No space left on device`).
    case failed(String)
  }

  /// Writes all of `bytes` to `fd`: a write interrupted by a signal (`EINTR`) is retried, a
  /// descriptor that is not ready (`EAGAIN`: a non-blocking pipe whose reader is slow) is waited
  /// for, never taken for a closed one.
  ///
  /// - Complexity: O(n) in the bytes, in as few `write(2)` calls as the descriptor takes.
  static func writeAll(_ bytes: [UInt8], to fd: Int32) -> WriteResult {
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

  /// Waits until `fd` is ready for `events` (`POLLIN`, `POLLOUT`), or a signal arrives.
  static func wait(for fd: Int32, events: Int32) {
    var descriptor = pollfd(fd: fd, events: Int16(events), revents: 0)
    _ = poll(&descriptor, 1, -1)
  }

  /// The message of the error number `code`, as `strerror(3)` gives it: `No such file or
  /// directory`.
  static func errorMessage(_ code: Int32) -> String { String(cString: strerror(code)) }

  /// Whether `fd` is a terminal.
  static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }
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
