import Foundation
import Testing

/// Helpers for end-to-end tests that run scripts through the built `calc` binary.
enum Script {
  /// Runs calc with `script` on standard input, in `directory`, without the caller's locale
  /// variables (so the display is en_US_POSIX's) unless `environment` sets them.
  static func run(
    _ script: String, arguments: [String] = [], in directory: URL? = nil,
    environment: [String: String?] = [:]
  ) throws -> CalcRun {
    try CalcProcess.run(
      arguments, stdin: Data(script.utf8),
      environment: posixLocale.merging(environment) { $1 }, directory: directory)
  }

  /// Runs `script` on standard input in process (``InProcess``), with `arguments`, without the
  /// caller's locale variables unless `environment` sets them: ``run(_:arguments:in:environment:)``
  /// without the binary, for everything that needs no process of its own (`directory` stands for
  /// the current directory, see ``InProcess``).
  static func runInProcess(
    _ script: String, arguments: [String] = [], in directory: URL? = nil,
    environment: [String: String?] = [:], sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> CalcRun {
    try InProcess.run(
      arguments, stdin: Data(script.utf8), environment: posixLocale.merging(environment) { $1 },
      directory: directory, sourceLocation: sourceLocation)
  }

  /// Writes `text` to `name` in `directory` and returns its URL.
  @discardableResult
  static func write(_ text: String, to name: String, in directory: URL) throws -> URL {
    let url = directory.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url
  }

  /// The text of `name` in `directory`.
  static func read(_ name: String, in directory: URL) throws -> String {
    String(decoding: try Data(contentsOf: directory.appendingPathComponent(name)), as: UTF8.self)
  }

  /// The names in `directory`, sorted.
  static func listing(_ directory: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
  }

  /// Runs `command` with `/bin/sh -c` in `directory`, with `$CALC` naming the built binary.
  static func shell(_ command: String, in directory: URL) throws -> CalcRun {
    var environment = posixLocale
    environment["CALC"] = CalcProcess.binary.path
    return try CalcProcess.run(
      ["-c", command], environment: environment, directory: directory,
      executable: URL(fileURLWithPath: "/bin/sh"))
  }
}

/// The environment for a test that must not depend on the caller's locale settings.
let posixLocale: [String: String?] = ["LC_ALL": nil, "LC_NUMERIC": nil, "LANG": nil]
