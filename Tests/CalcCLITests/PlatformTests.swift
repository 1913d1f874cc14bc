import Testing

@testable import CalcCLI
@testable import CalcCore

#if canImport(Glibc)
  import Glibc
#endif

/// The calls to the system in one place: file kinds, errno messages, the write-all loop, and
/// the one printer of messages about input.
@Suite struct PlatformTests {
  @Test func fileKindsAndWhyTheyAreRefused() {
    #expect(FileKind(mode: S_IFREG | 0o644) == .regular)
    #expect(FileKind(mode: S_IFREG).refusal == nil)
    #expect(FileKind(mode: S_IFDIR | 0o755).refusal == "Is a directory")
    #expect(FileKind(mode: S_IFIFO).refusal == "not a regular file (a FIFO)")
    #expect(FileKind(mode: S_IFCHR).refusal == "not a regular file (a device)")
    #expect(FileKind(mode: S_IFBLK) == .device)
    #expect(FileKind(mode: S_IFSOCK).refusal == "not a regular file (a socket)")
    #expect(FileKind(mode: S_IFLNK) == .symbolicLink)
  }

  @Test func errnoMessages() {
    #expect(Platform.errorMessage(ENOENT) == "No such file or directory")
    #expect(Platform.errorMessage(ENOSPC) == "No space left on device")
  }

  /// (A reader that went away, `.closed`, is tested through the binary, in `RobustnessTests`:
  /// here it would need SIGPIPE ignored, which every process the other tests start would
  /// inherit.)
  @Test func writeAllWritesEverythingAndReportsErrors() {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    #expect(Platform.writeAll(Array("12\n".utf8), to: ends[1]) == .written)
    var buffer = [UInt8](repeating: 0, count: 8)
    #expect(read(ends[0], &buffer, 8) == 3)
    close(ends[0])
    close(ends[1])
    #expect(Platform.writeAll([1], to: ends[1]) == .failed("Bad file descriptor"))
    #expect(Platform.writeAll([], to: ends[1]) == .written, "nothing to write is no error")
  }

  @Test func diagnosticsStartWithAPlaceOrWithCalc() {
    #expect(
      Diagnostic("cannot read 'x': No such file or directory").text
        == "calc: cannot read 'x': No such file or directory")
    #expect(
      Diagnostic(file: "a.calc", line: 2, column: 3, "unknown key 'x' at column 3 (× is '*')").text
        == "a.calc:2:3: unknown key 'x' at column 3 (× is '*')")
    #expect(
      Diagnostic(file: "<stdin>", line: 9, "line too long").text == "<stdin>:9:1: line too long")
  }
}
