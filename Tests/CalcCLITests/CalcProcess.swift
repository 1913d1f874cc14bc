import Foundation
import Testing

/// What a run of the built `calc` binary did.
struct CalcRun: Sendable {
  let stdout: String
  let stderr: String
  let status: Int32
}

/// Runs the built `calc` binary as a process: the real thing, not the library.
enum CalcProcess {
  /// The `calc` executable beside the test bundle (both are in the build's products folder);
  /// `CALC_BINARY` overrides it.
  static let binary: URL = {
    if let path = ProcessInfo.processInfo.environment["CALC_BINARY"] {
      return URL(fileURLWithPath: path)
    }
    return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("calc")
  }()

  /// A built executable of this package, beside the test bundle.
  static func product(_ name: String) -> URL {
    binary.deletingLastPathComponent().appendingPathComponent(name)
  }

  /// Runs calc (or `executable`) with `arguments`, feeding `stdin` (nothing: an empty pipe), in
  /// the current environment plus `environment` (a `nil` value removes a variable), in
  /// `directory`.
  static func run(
    _ arguments: [String], stdin: Data = Data(), environment: [String: String?] = [:],
    directory: URL? = nil, executable: URL = binary
  ) throws -> CalcRun {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    env["NO_COLOR"] = "1"
    for (name, value) in environment { env[name] = value }
    process.environment = env
    if let directory { process.currentDirectoryURL = directory }
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    SpawnLog.record(executable, pid: process.processIdentifier)
    // Read both pipes while writing stdin, so that no side can fill a pipe and block the other.
    let group = DispatchGroup()
    nonisolated(unsafe) var outData = Data()
    nonisolated(unsafe) var errData = Data()
    DispatchQueue.global().async(group: group) {
      outData = output.fileHandleForReading.readDataToEndOfFile()
    }
    DispatchQueue.global().async(group: group) {
      errData = errors.fileHandleForReading.readDataToEndOfFile()
    }
    input.fileHandleForWriting.write(stdin)
    try input.fileHandleForWriting.close()
    group.wait()
    process.waitUntilExit()
    return CalcRun(
      stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self), status: process.terminationStatus)
  }

  /// Runs calc with `script` as standard input.
  static func run(_ arguments: [String] = [], script: String) throws -> CalcRun {
    try run(arguments, stdin: Data(script.utf8))
  }
}

/// A line per process a test starts, appended to the file `CALC_TEST_SPAWN_LOG` names (when it
/// is set): the test's name and the executable's, so that a run can count which tests spawn.
enum SpawnLog {
  /// The file the lines go to, or `nil` when nothing is logged.
  static let path = ProcessInfo.processInfo.environment["CALC_TEST_SPAWN_LOG"]

  /// Notes that the current test started `executable` as process `pid`.
  static func record(_ executable: URL, pid: Int32) {
    guard let path, let handle = FileHandle(forWritingAtPath: path) else { return }
    defer { try? handle.close() }
    let test = Test.current.map { "\($0.id)" } ?? "?"
    handle.seekToEndOfFile()
    handle.write(Data("\(test)\t\(executable.lastPathComponent)\t\(pid)\n".utf8))
  }
}

/// A fresh temporary directory, removed when `body` returns.
func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
    "calc-tests-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  return try body(directory)
}

/// Runs the built calc with `arguments` and `stdin` (in the POSIX locale unless `environment`
/// sets one) and expects exactly `stdout`, `stderr` and `status`, reported at the caller's line:
/// ArgumentParser's `AssertExecuteCommand`, for calc.
func expectRun(
  _ arguments: [String], stdin: String = "", environment: [String: String?] = [:],
  directory: URL? = nil, stdout: String, stderr: String = "", status: Int32 = 0,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let run = try CalcProcess.run(
    arguments, stdin: Data(stdin.utf8), environment: posixLocale.merging(environment) { $1 },
    directory: directory)
  #expect(run.stdout == stdout, "stdout of calc \(arguments)", sourceLocation: sourceLocation)
  #expect(run.stderr == stderr, "stderr of calc \(arguments)", sourceLocation: sourceLocation)
  #expect(run.status == status, "status of calc \(arguments)", sourceLocation: sourceLocation)
}

/// A tmux server of a test's own, on a private socket, with one detached session of `columns` ×
/// `rows` running `command` (a shell command line); ``stop()`` ends it.
///
/// The server keeps every descriptor that starting it gave it: its standard ones are /dev/null
/// and the others (pipes of this test process, some of other tests running at the same time)
/// are closed first, or a reader of those pipes would wait for the server to end.
struct TmuxServer {
  let tmux: URL
  let socket: String
  /// The server's process and its pane's (calc's), ended by ``stop()`` whatever they do with
  /// `kill-server`'s SIGHUP: they inherit the signal mask of the test's thread that started
  /// them, where SIGHUP may be blocked, and would outlive the test.
  private var processes: [pid_t] = []

  /// Whether tmux is on `PATH`; tests that need it are enabled where it is, and under CI.
  static var isAvailable: Bool { toolOnPath("tmux") != nil || runningUnderCI }

  /// Starts the server with its socket in `directory`; throws when tmux is missing.
  init(in directory: URL, columns: Int, rows: Int, command: String) throws {
    guard let tmux = toolOnPath("tmux") else {
      throw CocoaError(
        .executableNotLoadable,
        userInfo: [
          NSLocalizedDescriptionKey: "tmux is not installed (apt-get install tmux)"
        ])
    }
    self.tmux = tmux
    socket = directory.appendingPathComponent("tmux.socket").path
    let start = try CalcProcess.run(
      [
        "-c",
        "i=3; while [ $i -lt 256 ]; do eval \"exec $i>&-\"; i=$((i+1)); done; "
          + "exec \"$0\" -S \"$1\" -f /dev/null new-session -d -x \(columns) -y \(rows) \"$2\" "
          + "</dev/null >/dev/null 2>&1",
        tmux.path, socket, command,
      ], executable: URL(fileURLWithPath: "/bin/bash"))
    guard start.status == 0 else {
      throw CocoaError(
        .executableLoad,
        userInfo: [
          NSLocalizedDescriptionKey: "tmux new-session exited with \(start.status)"
        ])
    }
    let pids = try run(["display-message", "-p", "#{pid} #{pane_pid}"]).stdout
    processes = pids.split(whereSeparator: \.isWhitespace).compactMap { pid_t($0) }
  }

  /// Runs the tmux command `arguments` against this server.
  @discardableResult
  func run(_ arguments: [String]) throws -> CalcRun {
    try CalcProcess.run(["-S", socket] + arguments, executable: tmux)
  }

  /// Ends the server and its session, and then their processes.
  func stop() {
    _ = try? run(["kill-server"])
    for pid in processes.reversed() { kill(pid, SIGKILL) }
  }
}
