import CalcCore

/// The REPL's journal: opened as the REPL starts, and the start-up line, which offers `:resume`
/// when an earlier journal is there.
extension REPL {
  /// This run's journal, unless `--no-journal`; a folder that is unknown (no `HOME`) or cannot
  /// be made is reported on `errors`, once, like any later write error, and the session goes on.
  mutating func openJournal(errors: OutputBuffer) -> Journal? {
    guard keepsJournal else { return nil }
    guard let directory = interpreter.host.journalDirectory else {
      errors.write(
        "calc: journal: neither XDG_STATE_HOME nor HOME is set; this session is not journaled\n")
      errors.flush()
      return nil
    }
    let journal = Journal(directory: directory) { message in
      errors.write(message + "\n")
      errors.flush()
    }
    // The same interpreter, with this run's journal to pass over at `:resume`.
    interpreter.host.ownJournal = journal?.path
    return journal
  }

  /// ``startupLine``, or ``startupLineWithResume`` when an earlier session can be resumed.
  var startupLine: String {
    guard !resumes, let directory = interpreter.host.journalDirectory,
      !Journal.journals(in: directory).isEmpty
    else { return REPL.startupLine }
    return REPL.startupLineWithResume
  }
}
