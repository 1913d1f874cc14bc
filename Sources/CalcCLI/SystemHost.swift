@_exported import CalcCore

extension LineInterpreter.Host {
  /// The process's own: `HOME` and the journal folder from `environment`, the Ctrl-C
  /// flag that the REPL's signal handler sets, the clipboard's route from `TMUX` and `STY`, and
  /// the machine's files.
  public static func system(environment: Environment) -> Self {
    Self(
      home: environment["HOME"], journalDirectory: Journal.directory(environment: environment),
      isInterrupted: { Interruption.isRequested },
      clipboard: Clipboard(environment: environment), files: .system)
  }
}
