/// calc's version, which `--version` (``CalcCommand/version``) and the REPL's start-up line show:
/// here, below both, so that the REPL does not reach back into the command line that starts it.
enum Version {
  /// The version number (`0.1.0`).
  static let number = "0.1.0"
}
