import CalcTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Edges that must never lose or misread anything (SPEC §5, §8; issue 13): write errors, a
/// coprocess, hostile input, `:save`'s targets, and what reaches the terminal.
@Suite struct RobustnessTests {
  // MARK: - Write errors

  @Test func writeErrorsAreReportedWithStatus74() throws {
    try withTemporaryDirectory { directory in
      try Script.write("1+1=\n", to: "s.calc", in: directory)
      for command in [
        "\"$CALC\" --keys 1= >/dev/full", "\"$CALC\" s.calc >/dev/full",
        "echo 2*3= | \"$CALC\" >/dev/full", "\"$CALC\" --help >/dev/full",
        "\"$CALC\" --version >/dev/full", "\"$CALC\" --list-locales >/dev/full",
        "\"$CALC\" --generate-completion-script bash >/dev/full",
      ] {
        let run = try Script.shell(command, in: directory)
        #expect(run.stderr == "calc: write error: No space left on device\n", "\(command)")
        #expect(run.status == 74, "\(command)")
      }
      let closed = try Script.shell("\"$CALC\" --keys 1= >&-", in: directory)
      #expect(closed.stderr == "calc: write error: Bad file descriptor\n")
      #expect(closed.status == 74)
    }
  }

  @Test func aReaderThatGoesAwayEndsCalcQuietly() throws {
    try withTemporaryDirectory { directory in
      try Script.write(String(repeating: "1+1=\n", count: 200_000), to: "s.calc", in: directory)
      let run = try Script.shell("\"$CALC\" s.calc | head -1", in: directory)
      #expect(run.stdout == "2\n")
      #expect(run.stderr == "")
    }
  }

  /// 100,000 answers with `CALC_LONG_TESTS=1`, 40,000 by default: 80,000 bytes, more than the
  /// pipe's 64 KiB and calc's 32 KiB flushes, so calc meets `EAGAIN` either way.
  @Test func aSlowReaderOfANonBlockingPipeGetsEverything() throws {
    try withTemporaryDirectory { directory in
      let lines = TestSize.count(short: 40_000, long: 100_000)
      let script = try Script.write(
        String(repeating: "1+1=\n", count: lines), to: "s.calc", in: directory)
      var ends: [Int32] = [0, 0]
      try #require(pipe(&ends) == 0)
      // Kept out of processes that other tests start meanwhile, which would hold it open.
      for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
      _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
      let process = Process()
      process.executableURL = CalcProcess.binary
      process.arguments = [script.path]
      let writer = FileHandle(fileDescriptor: ends[1], closeOnDealloc: false)
      process.standardOutput = writer
      try process.run()
      close(ends[1])
      // Read nothing until calc has filled the pipe and met EAGAIN: until the pipe is full and
      // has stayed so for 50 ms, or what is pending has stopped growing for 0.3 s.
      let capacity = fcntl(ends[0], 1032)  // F_GETPIPE_SZ, which Swift's Glibc does not export
      var pending: Int32 = 0
      var unchanged = 0
      for _ in 0..<2000 {
        usleep(10_000)
        let before = pending
        _ = ioctl(ends[0], UInt(FIONREAD), &pending)
        unchanged = pending > 0 && pending == before ? unchanged + 1 : 0
        if unchanged == 30 || (unchanged == 5 && pending == capacity) { break }
      }
      let output = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true).readDataToEndOfFile()
      process.waitUntilExit()
      #expect(output.count == lines * 2)
      #expect(process.terminationStatus == 0)
    }
  }

  // MARK: - A coprocess

  @Test func aCoprocessGetsEachAnswerBeforeItAsksAgain() throws {
    let process = Process()
    process.executableURL = CalcProcess.binary
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.environment = ["LC_ALL": "C"]
    try process.run()
    defer { process.terminate() }
    func ask(_ question: String) -> String {
      input.fileHandleForWriting.write(Data(question.utf8))
      var answer: [UInt8] = []
      let fd = output.fileHandleForReading.fileDescriptor
      while answer.last != UInt8(ascii: "\n") {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 10_000) == 1 else { return "no answer" }
        var byte: UInt8 = 0
        guard read(fd, &byte, 1) == 1 else { return "end of output" }
        answer.append(byte)
      }
      return String(decoding: answer, as: UTF8.self)
    }
    #expect(ask("12+3=\n") == "15\n")
    #expect(ask(":goto 2\n") == "12\n")
    #expect(ask("*2=\n") == "24\n")
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
  }

  // MARK: - Hostile input

  @Test func devZeroIsRejectedAtItsFirstByteInBoundedMemory() throws {
    try withTemporaryDirectory { directory in
      // 1 GB of address space, and 20 s: before, calc grew by gigabytes without end.
      let limits = "ulimit -v 1000000; exec timeout 20"
      let run = try Script.shell("\(limits) \"$CALC\" /dev/zero", in: directory)
      #expect(run.stderr == "/dev/zero:1:1: unknown key '\\u{0}' at column 1\n")
      #expect(run.status == 65)
      let load = try Script.shell(
        "echo ':load /dev/zero' | { \(limits) \"$CALC\"; }", in: directory)
      #expect(
        load.stderr
          == "<stdin>:1:7: cannot load '/dev/zero': /dev/zero:1:1: unknown key '\\u{0}' at column 1\n"
      )
      #expect(load.status == 65)
    }
  }

  @Test func aLongLineIsRejectedAtItsFirstBadCharacterWithoutReadingTheRest() throws {
    try withTemporaryDirectory { directory in
      // 200,000 ones, an x, then zeros without end: calc must stop at the x.
      let run = try Script.shell(
        "{ head -c 200000 /dev/zero | tr '\\000' 1; printf x; cat /dev/zero; }"
          + " | { ulimit -v 1000000; exec timeout 20 \"$CALC\"; }", in: directory)
      #expect(run.stderr == "<stdin>:1:200001: unknown key 'x' at column 200001 (× is '*')\n")
      #expect(run.status == 65)
    }
  }

  /// A key line one byte over the limit with `CALC_LONG_TESTS=1`; by default a comment line
  /// (`#` then digits), which the reader measures alike but the key check passes over at once:
  /// checking 16 MiB of keys takes seconds in a debug build.
  @Test func aLineLongerThanTheLimitIsAnError() throws {
    try withTemporaryDirectory { directory in
      let url = directory.appendingPathComponent("long.calc")
      var line = [UInt8](repeating: UInt8(ascii: "1"), count: (1 << 24) + 1)
      if !TestSize.isLong { line[0] = UInt8(ascii: "#") }
      try Data(line).write(to: url)
      let run = try InProcess.run([url.path], environment: posixLocale)
      #expect(run.stdout == "")
      #expect(run.stderr == "\(url.path):1:1: line longer than the limit of 16,777,216 bytes\n")
      #expect(run.status == 65)
    }
  }

  /// A key line of a million keys with `CALC_LONG_TESTS=1`, of 100,000 by default (a million
  /// keys take about 10 s in a debug build).
  @Test func aLongKeyLineStillWorks() throws {
    let additions = TestSize.count(short: 50_000, long: 500_000)
    let line = String(repeating: "1+", count: additions) + "=\n"
    let run = try Script.runInProcess(line + ":goto -1\n")
    #expect(run.stdout == "\(2 * additions)\n\(additions)\n")
    #expect(run.status == 0)
  }

  @Test func aByteOrderMarkAtTheStartOfAScriptIsSkipped() throws {
    try withTemporaryDirectory { directory in
      let url = try Script.write("\u{FEFF}12+3=\n:keys\n", to: "bom.calc", in: directory)
      let run = try InProcess.run([url.path], environment: posixLocale)
      #expect(run.stdout == "15\n12+3=\n")
      #expect(run.status == 0)
      // Anywhere else it is no key, and shown escaped.
      let later = try Script.runInProcess("1\u{FEFF}\n")
      #expect(later.stderr == "<stdin>:1:2: unknown key '\\u{FEFF}' at column 2\n")
    }
  }

  // MARK: - :save touches nothing but its target

  private func mode(_ path: String) -> mode_t {
    var information = stat()
    return stat(path, &information) == 0 ? information.st_mode & 0o7777 : 0
  }

  private func isSymbolicLink(_ path: String) -> Bool {
    var information = stat()
    return lstat(path, &information) == 0 && information.st_mode & S_IFMT == S_IFLNK
  }

  @Test func saveWritesThroughASymbolicLinkAndKeepsTheFilesMode() throws {
    try withTemporaryDirectory { directory in
      let target = try Script.write("old\n", to: "target.calc", in: directory)
      try #require(chmod(target.path, 0o600) == 0)
      let link = directory.appendingPathComponent("link.calc").path
      try #require(symlink("target.calc", link) == 0)
      let run = try Script.runInProcess("12+3=\n:save link.calc\n", in: directory)
      #expect(run.stdout == "15\nsaved 5 keys at step 5 to link.calc\n")
      #expect(isSymbolicLink(link))
      #expect(try Script.read("target.calc", in: directory).contains("12+3="))
      #expect(mode(target.path) == 0o600)
      #expect(try Script.listing(directory) == ["link.calc", "target.calc"])
    }
  }

  @Test func saveKeepsHardLinksAndTheOwner() throws {
    try withTemporaryDirectory { directory in
      let target = try Script.write("old\n", to: "s.calc", in: directory)
      let other = directory.appendingPathComponent("other.calc").path
      try #require(link(target.path, other) == 0)
      // As root, also an owner that a new file would not have.
      let owner: uid_t = geteuid() == 0 ? 65534 : geteuid()
      try #require(chown(target.path, owner, getegid()) == 0)
      let run = try Script.runInProcess("7*6=\n:save s.calc\n", in: directory)
      #expect(run.status == 0)
      #expect(try Script.read("other.calc", in: directory).contains("7*6="))
      var information = stat()
      #expect(stat(target.path, &information) == 0)
      #expect(information.st_nlink == 2)
      #expect(information.st_uid == owner)
    }
  }

  @Test func saveRefusesFIFOsAndDirectories() throws {
    try withTemporaryDirectory { directory in
      let fifo = directory.appendingPathComponent("fifo").path
      try #require(mkfifo(fifo, 0o644) == 0)
      try FileManager.default.createDirectory(
        at: directory.appendingPathComponent("sub"), withIntermediateDirectories: false)
      let cases = [
        // No device here: a calc that got this wrong would replace /dev/null, as root.
        ("fifo", "not a regular file (a FIFO)"), ("sub", "Is a directory"),
        (".", "Is a directory"),
      ]
      for (name, reason) in cases {
        let run = try Script.runInProcess("12\n:save \(name)\n", in: directory)
        #expect(
          run.stderr == "<stdin>:2:7: cannot save '\(name)': \(reason); '\(name)' is unchanged\n")
        #expect(run.status == 65)
      }
      var information = stat()
      #expect(stat(fifo, &information) == 0 && information.st_mode & S_IFMT == S_IFIFO)
      #expect(try Script.listing(directory) == ["fifo", "sub"])
    }
  }

  @Test func aFailedSaveLeavesNoTemporaryFileAndTheOldFile() throws {
    try withTemporaryDirectory { directory in
      try Script.write("old\n", to: "s.calc", in: directory)
      // Files of at most 1 KB: writing a 4,000-key session fails with EFBIG.
      let keys = String(repeating: "1+", count: 2000)
      try Script.write("\(keys)\n:save s.calc\n", to: "script", in: directory)
      let run = try Script.shell("ulimit -f 1; exec \"$CALC\" script", in: directory)
      #expect(
        run.stderr == "script:2:7: cannot save 's.calc': File too large; 's.calc' is unchanged\n")
      #expect(run.status == 65)
      #expect(try Script.listing(directory) == ["s.calc", "script"])
      #expect(try Script.read("s.calc", in: directory) == "old\n")
    }
  }

  @Test func saveRemovesTemporaryFilesOfCalcsThatNoLongerRun() throws {
    try withTemporaryDirectory { directory in
      // 4194305 is above Linux's largest process id: no such process can run.
      let stale = ".calc-save-4194305-a1B2c3"
      let live = ".calc-save-\(getpid())-a1B2c3"
      for name in [stale, live, ".calc-save-other"] {
        try Script.write("", to: name, in: directory)
      }
      let run = try Script.runInProcess("1\n:save s.calc\n", in: directory)
      #expect(run.status == 0)
      #expect(try Script.listing(directory) == [live, ".calc-save-other", "s.calc"].sorted())
    }
  }

  @Test func fileNamesArePassedByteForByte() throws {
    try withTemporaryDirectory { directory in
      var script = Data("1\n:save caf".utf8)
      script.append(0xE9)  // é in Latin-1: not UTF-8
      script.append(contentsOf: Data(".calc\n".utf8))
      let run = try InProcess.run(
        [], stdin: script, environment: posixLocale, directory: directory)
      #expect(run.stdout == "1\nsaved 1 key at step 1 to caf\\x{E9}.calc\n")
      let name = directory.path + "/caf\u{E9}.calc"
      var information = stat()
      #expect(stat(name, &information) != 0)  // not the UTF-8 name…
      let raw = Array((directory.path + "/caf").utf8) + [0xE9] + Array(".calc".utf8) + [0]
      let exists = raw.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { stat($0.baseAddress!, &information) == 0 }
      }
      #expect(exists)  // …but exactly the bytes given
      let nul = try InProcess.run(
        [], stdin: Data("1\n:save a\u{0}b\n".utf8), environment: posixLocale, directory: directory)
      #expect(
        nul.stderr
          == "<stdin>:2:7: cannot save 'a\\u{0}b': file name holds a NUL byte; 'a\\u{0}b' is unchanged\n"
      )
    }
  }

  // MARK: - Nothing raw reaches the terminal

  @Test func argumentErrorsAreEscaped() throws {
    let run = try CalcProcess.run(["-\u{1B}]0;PWNED\u{07}"])
    #expect(run.stderr.hasPrefix("calc: Unknown option '-\\u{1B}]0;PWNED\\u{7}'\n"))
    #expect(!run.stderr.contains("\u{1B}") && !run.stderr.contains("\u{07}"))
    #expect(run.status == 64)
  }

  @Test(arguments: [
    ("\u{A0}", "\\u{A0}"), ("\u{202F}", "\\u{202F}"), ("\u{FEFF}", "\\u{FEFF}"),
    ("\u{200B}", "\\u{200B}"), ("\u{202E}", "\\u{202E}"), ("\u{2066}", "\\u{2066}"),
    ("\u{3164}", "\\u{3164}"), ("\u{1B}", "\\u{1B}"), ("\u{85}", "\\u{85}"),
  ])
  func invisibleCharactersAreEscapedInMessages(_ character: String, _ shown: String) throws {
    let keys = try InProcess.run(["--keys", "1" + character])
    #expect(keys.stderr == "calc: --keys: unknown key '\(shown)' at column 2\n")
    let command = try Script.runInProcess(":go\(character)to 1\n")
    #expect(command.stderr == "<stdin>:1:1: unknown command ':go\(shown)to' (try :help)\n")
  }
}
