import CArguments
import Foundation
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

  /// The allocator's tunable (``Platform/tuneAllocator()``) is set with glibc, and is no call
  /// that fails silently: `mallopt` says 1 when it took the value.
  @Test func theAllocatorsThresholdIsSetWithGlibc() {
    #if canImport(Glibc)
      #expect(calc_set_mmap_threshold(32 << 20) == 1)
    #else
      #expect(calc_set_mmap_threshold(32 << 20) == 0)
    #endif
  }

  /// The heap's room for a date script's history is advised for huge pages
  /// (``Platform/adviseHugePagesForScripts()``) in calc's own run, once it reads a script that
  /// starts in date mode: while the built binary waits for the second line of its standard
  /// input, a mapping of its heap carries the kernel's `hg` flag (`/proc/PID/smaps`). A kernel
  /// without transparent huge pages takes no such advice: then no mapping carries it. A script
  /// of keys is not advised.
  @Test func aDateScriptsHeapIsAdvisedForHugePages() throws {
    let kernelHasHugePages = access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) == 0
    let date = try Self.advisedWhileReading(["--plain", "--mode", "date"], line: "2024-01-01")
    #expect(date.answer == "2024-01-01\n")
    #expect(date.advised == kernelHasHugePages)
    let keys = try Self.advisedWhileReading(["--plain"], line: "1+2=")
    #expect(keys.answer == "3\n")
    #expect(!keys.advised)
  }

  /// Runs the built binary with `arguments` and `line` on standard input, and reads whether a
  /// mapping of it is advised for huge pages once it has answered the line, before its input
  /// ends; returns the answer too.
  static func advisedWhileReading(_ arguments: [String], line: String) throws -> (
    answer: String, advised: Bool
  ) {
    let process = Process()
    process.executableURL = CalcProcess.binary
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.filter { $0.key != "GLIBC_TUNABLES" }
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    defer { process.waitUntilExit() }
    input.fileHandleForWriting.write(Data((line + "\n").utf8))
    // The answer is written before calc reads again: by then the script has started.
    var answer = Data()
    while !answer.contains(UInt8(ascii: "\n")) {
      let more = output.fileHandleForReading.availableData
      if more.isEmpty { break }
      answer += more
    }
    // Read to its end: a file of /proc has no size for String(contentsOfFile:) to go by.
    let smaps = String(
      decoding: FileHandle(forReadingAtPath: "/proc/\(process.processIdentifier)/smaps")?
        .readDataToEndOfFile() ?? Data(), as: UTF8.self)
    try input.fileHandleForWriting.close()
    let advised = smaps.split(separator: "\n").contains {
      $0.hasPrefix("VmFlags:") && $0.split(separator: " ").contains("hg")
    }
    return (String(decoding: answer, as: UTF8.self), advised)
  }

  @Test func errnoMessages() {
    #expect(Platform.errorMessage(ENOENT) == "No such file or directory")
    #expect(Platform.errorMessage(ENOSPC) == "No space left on device")
  }

  /// (A reader that went away, `.closed`, is tested through the binary, in `RobustnessTests`:
  /// here it would need SIGPIPE ignored, which every process the other tests start would
  /// inherit.)
  /// The one retry loop for files: everything written from the start (a shorter file's rest
  /// overwritten), read back in 64 KiB chunks, and a bad descriptor's errno for both.
  @Test(arguments: [0, 1, 65_536, 150_001])
  func filesAreWrittenAndReadWhole(size: Int) throws {
    try withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("f").path
      let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
      try #require(fd >= 0)
      defer { close(fd) }
      let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7) }
      #expect(Platform.writeFully(Array(repeating: 9, count: 3), to: fd) == nil)
      #expect(Platform.writeFully(bytes, to: fd, fromStart: true) == nil)
      var read: [UInt8] = []
      var chunks = 0
      #expect(
        Platform.readChunks(fd, fromStart: true) {
          read += $0; chunks += 1
        } == nil)
      let expected = size >= 3 ? bytes : bytes + [UInt8](repeating: 9, count: 3 - size)
      #expect(read == expected)
      #expect(chunks == (expected.count + 65_535) / 65_536)
    }
    #expect(Platform.writeFully([1], to: -1) == EBADF)
    #expect(
      Platform.readChunks(-1) { _ in Issue.record("no chunk from a bad descriptor") } == EBADF)
  }

  @Test func writeAllWritesEverythingAndReportsErrors() {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    #expect(Platform.writeAll(Array("12\n".utf8), to: ends[1]) == .written)
    var buffer = [UInt8](repeating: 0, count: 8)
    #expect(read(ends[0], &buffer, 8) == 3)
    close(ends[0])
    close(ends[1])
    // -1 is never a descriptor: a closed one's number may be reused at once by a test running
    // beside this one (CI saw the write succeed on it).
    #expect(Platform.writeAll([1], to: -1) == .failed("Bad file descriptor"))
    #expect(Platform.writeAll([], to: -1) == .written, "nothing to write is no error")
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

/// The system host's journal folder, worked out from the environment when asked for (a run that
/// never asks builds no path): `$XDG_STATE_HOME/calc` when that is absolute, else
/// `$HOME/.local/state/calc`, else none; setting it replaces what the environment gives.
struct SystemHostJournalFolderTests {
  @Test(
    arguments: [
      (["HOME": "/home/a", "XDG_STATE_HOME": "/state"], "/state/calc"),
      (["HOME": "/home/a", "XDG_STATE_HOME": "relative"], "/home/a/.local/state/calc"),
      (["HOME": "/home/a"], "/home/a/.local/state/calc"),
      (["HOME": ""], nil),
      ([:], nil),
    ] as [([String: String], String?)])
  func fromTheEnvironment(values: [String: String], folder: String?) {
    var host = LineInterpreter.Host.system(environment: Environment(values))
    #expect(host.journalDirectory == folder)
    host.journalDirectory = "/elsewhere"
    #expect(host.journalDirectory == "/elsewhere")
  }
}
