@testable import CalcCLI
@testable import CalcCore

extension LineInterpreter.Host {
  /// A host with the machine's files (``Files/system``) and nothing else, for tests that save,
  /// load and resume real files in a temporary folder.
  static var withFiles: Self { Self(files: .system) }
}
