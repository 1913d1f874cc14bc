import Foundation
import Testing

@testable import CalcCLI

/// Runs calc in this process, through the same ``Invocation`` and ``LineRunner`` the binary
/// uses, with standard input, output and error in memory (``StandardStreams/memory(input:)``):
/// the default for tests of scripts and `--keys`, which need no process of their own.
///
/// The arguments are parsed as the binary parses them (attached `-k12+3=` separated, then
/// ``CalcCommand/quickParse(_:)``); the environment is the test process's with `NO_COLOR=1` and
/// the caller's changes (a `nil` value removes a variable), as ``CalcProcess`` gives the binary.
/// No signal disposition is changed and Ctrl-C is never seen. A `directory` stands for the current
/// directory: relative names of scripts and of `:save`, `:load` and `:tape csv` files are taken
/// in it, and messages name them as given (`Files.system(in:)`), as the binary started there.
/// What needs a process — argv bytes, exit codes of usage errors, signals, stdio buffering, the
/// journal's locks, the pty — stays with ``CalcProcess``.
enum InProcess {
  /// Runs calc with `arguments` and `stdin`, in `directory`; what it wrote and its exit status.
  static func run(
    _ arguments: [String], stdin: Data = Data(), environment: [String: String?] = [:],
    directory: URL? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> CalcRun {
    let separated = CalcCommand.separatingAttachedKeys(arguments)
    let invocation = try #require(
      CalcCommand.quickParse(separated), "calc \(arguments) parses quickly",
      sourceLocation: sourceLocation)
    var variables = ProcessInfo.processInfo.environment
    variables["NO_COLOR"] = "1"
    for (name, value) in environment { variables[name] = value }
    let streams = StandardStreams.memory(input: Array(stdin))
    let status = invocation.run(
      environment: Environment(variables), streams: streams, directory: directory?.path)
    return CalcRun(stdout: streams.output.text, stderr: streams.errors.text, status: status)
  }
}

/// Runs calc in process (``InProcess``) with `arguments` and `stdin`, without the caller's locale
/// variables unless `environment` sets them, and expects exactly `stdout`, `stderr` and `status`,
/// reported at the caller's line: ``expectRun(_:stdin:environment:directory:stdout:stderr:status:sourceLocation:)``
/// without the binary.
func expectScript(
  _ arguments: [String], stdin: String = "", environment: [String: String?] = [:],
  directory: URL? = nil, stdout: String, stderr: String = "", status: Int32 = 0,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let run = try InProcess.run(
    arguments, stdin: Data(stdin.utf8), environment: posixLocale.merging(environment) { $1 },
    directory: directory, sourceLocation: sourceLocation)
  #expect(run.stdout == stdout, "stdout of calc \(arguments)", sourceLocation: sourceLocation)
  #expect(run.stderr == stderr, "stderr of calc \(arguments)", sourceLocation: sourceLocation)
  #expect(run.status == status, "status of calc \(arguments)", sourceLocation: sourceLocation)
}
