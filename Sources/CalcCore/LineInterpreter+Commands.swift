import CalculatorEngine

extension LineInterpreter {
  /// Runs a `:command` line: one case per command, each in a function of its own.
  mutating func runCommand(_ command: ScriptLine.Directive, output: OutputBuffer)
    throws(LineError) -> Outcome
  {
    switch try ParsedCommand(command) {
    case .session(let change):
      try runSessionCommand(change, at: command, output: output)
    case .editLine(let number):
      // Run as a line (a script, or a line that does not exist): the keys are missing, and the
      // session command's reader says so; line 0, the mode line, cannot be edited at all.
      let lines = session.history.lines()
      if number == 0, History.firstLineNumber(of: lines) == 0 {
        throw LineError(
          SessionError.modeLineFixed("edit", last: lines.count - 1).description,
          column: command.argumentColumn)
      }
      _ = try CommandSpec.sessionCommand(command)
      throw LineError(":edit needs the line's keys", column: command.argumentColumn)
    case .find(let text):
      writeFound(text, to: output)
    case .lines(let which):
      let lines = session.history.lines()
      // Line 0 is the mode line when there is one (SPEC §11).
      let first = History.firstLineNumber(of: lines)
      let numbers = try atArgument(command) { () throws(LineError) in
        try which.lines(last: lines.count - 1 + first, first: first)
      }
      listing.writeLines(numbers, of: lines, to: output)
    case .history(let which):
      let history = session.history
      let steps = try atArgument(command) { () throws(LineError) in
        try which.steps(count: history.count, position: history.position)
      }
      listing.writeHistory(steps, to: output)
    case .tape(let request):
      try writeTape(request, at: command, output: output)
    case .branches:
      listing.writeBranches(to: output)
    case .keys:
      writeKeys(to: output)
    case .copy(let step):
      try appendCopy(at: step, to: output)
    case .save(let name, let replacing):
      try save(to: name, replacing: replacing, at: command, output: output)
    case .load(let name):
      try load(name, at: command, output: output)
    case .resume:
      try resume(at: command, output: output)
    case .pad:
      let pad = HelpText.pad(
        style: style, mode: session.state.mode, programmer: session.state.programmer)
      output.write(output.columns.map { HelpText.narrowed(pad, toFit: $0) } ?? pad)
    case .help:
      output.write(HelpText.help(style: style, mode: session.state.mode, columns: output.columns))
    case .quit:
      return .quit
    }
    return .proceed
  }

  /// A session command (`:goto`, `:undo`, `:edit L KEYS`, …): performed, what it rewrote or
  /// restored said, then the display.
  private mutating func runSessionCommand(
    _ change: Session.Command, at command: ScriptLine.Directive, output: OutputBuffer
  ) throws(LineError) {
    switch try perform(change, at: command) {
    case .rewrote(let rewrite):
      output.write(Terminal.message(rewriteMessage(rewrite), width: output.columns) + "\n")
    case .restored(let restore):
      output.write(
        style.dim(Terminal.message(restoredMessage(restore), width: output.columns)) + "\n")
    case .varied(let variation):
      // It stays where it was: the table alone (SPEC §11).
      writeVariation(variation, to: output)
      return
    case .applied, .moved, .switched, .reset, .loaded, .noted:
      break
    }
    appendDisplay(to: output)
  }

  /// `:tape [csv] [K|N..M] [FILE]`: the tape, as rows or CSV, to the output or (CSV) to a file
  /// of the host's.
  private func writeTape(
    _ request: TapeRequest, at command: ScriptLine.Directive, output: OutputBuffer
  ) throws(LineError) {
    let history = session.history
    let steps = try atArgument(command) { () throws(LineError) in
      try request.steps.steps(count: history.position, position: history.position)
    }
    guard request.isCSV else { return listing.writeTape(steps, to: output) }
    guard let file = request.file else { return listing.writeTapeCSV(steps, to: output) }
    let path = inScriptFolder(file)
    let csv = OutputBuffer()
    listing.writeTapeCSV(steps, to: csv)
    try write(csv.bytes, to: path, verb: "write", at: command)
    output.write(style.dim("wrote the tape to \(path.shown)") + "\n")
  }

  /// Writes `bytes` to the host's file `path`; a failure says what is left of the file.
  private func write(
    _ bytes: [UInt8], to path: FileName, verb: String, at command: ScriptLine.Directive
  ) throws(LineError) {
    do {
      try host.files.write(bytes, path)
    } catch {
      let outcome =
        error.backup.map { "its old contents are in '\($0.shown)'" }
        ?? "'\(path.shown)' is unchanged"
      throw LineError(
        "cannot \(verb) '\(path.shown)': \(error.reason); \(outcome)",
        column: command.argumentColumn)
    }
  }

  /// `:keys`: one line per input line (SPEC rule 18), so that the output rebuilds the same
  /// display; an empty line when there are none.
  private func writeKeys(to output: OutputBuffer) {
    var wrote = false
    session.history.forEachLine(upToPosition: { line in
      output.write(KeyText.text(of: line) + "\n")
      output.flushIfFull()
      wrote = true
    })
    if !wrote { output.write("\n") }
  }

  /// `:save FILE` and `:save! FILE`: the session as a script, to a file of the host's. At the
  /// REPL, a file this session neither saved nor loaded is replaced only by `:save!`.
  private mutating func save(
    to name: FileName, replacing: Bool, at command: ScriptLine.Directive, output: OutputBuffer
  ) throws(LineError) {
    let path = inScriptFolder(name)
    if context.isInteractive, !replacing, let existing = host.files.identity(path),
      !knownFiles.contains(existing)
    {
      throw LineError(
        "'\(path.shown)' exists, and this session did not save or load it; "
          + "to replace it: :save! \(path.shown)",
        column: command.argumentColumn)
    }
    try write(
      Array(SessionScript.text(of: session.history).utf8), to: path, verb: "save", at: command)
    if let saved = host.files.identity(path) { knownFiles.insert(saved) }
    output.write(style.dim(savedMessage(path: path) + "\n"))
  }

  /// `:load FILE`: the session replayed from a file of the host's replaces this one (undoably).
  private mutating func load(
    _ name: FileName, at command: ScriptLine.Directive, output: OutputBuffer
  ) throws(LineError) {
    let path = inScriptFolder(name)
    let loaded = try atArgument(command) { () throws(LineError) in
      try host.files.load(path)
    }
    try perform(.load(loaded.session), at: command)
    if let identity = host.files.identity(path) { knownFiles.insert(identity) }
    if context.isInteractive { output.write(style.dim(loadedMessage(path: path) + "\n")) }
    if loaded.isOlderFormat {
      notes.append(
        LineNote(
          message: "'\(path.shown)' was saved before numbers stopped continuing across "
            + "lines; each of its lines now starts a new number",
          column: command.argumentColumn))
    }
    appendDisplay(to: output)
  }

  /// `:resume`: the last earlier session in the host's journals replaces this one (undoably).
  private mutating func resume(at command: ScriptLine.Directive, output: OutputBuffer)
    throws(LineError)
  {
    let resumed = try host.files.resume(host.journalDirectory, host.ownJournal)
    try perform(.load(resumed.session, by: .resume), at: command)
    if let stillOpen = resumed.stillOpen { output.write(style.dim(stillOpen + "\n")) }
    output.write(style.dim(resumed.summary + "\n"))
    if let damage = resumed.damage { output.write(style.dim(damage + "\n")) }
    if let note = resumed.note { notes.append(LineNote(message: note, column: 1)) }
    appendDisplay(to: output)
  }

  /// `path` with `~` expanded from the host's home, then taken from the context's script
  /// folder if it is relative and a script file is running.
  private func inScriptFolder(_ name: FileName) -> FileName {
    let path = name.expandingTilde(home: host.home)
    guard let scriptFolder = context.scriptFolder, path.bytes.first != UInt8(ascii: "/") else {
      return path
    }
    return FileName(scriptFolder.bytes + path.bytes)
  }

  /// Performs `change`, reporting what the session refuses at the command's argument.
  @discardableResult
  private mutating func perform(_ change: Session.Command, at command: ScriptLine.Directive)
    throws(LineError) -> Session.Change
  {
    do {
      return try perform(change)
    } catch {
      throw LineError(error.description, column: command.argumentColumn)
    }
  }

  /// Runs `body`, reporting its errors at the command's argument (the file name).
  private func atArgument<T>(_ command: ScriptLine.Directive, _ body: () throws(LineError) -> T)
    throws(LineError) -> T
  {
    do {
      return try body()
    } catch {
      throw LineError(error.message, column: command.argumentColumn)
    }
  }

  /// What an `:edit`, `:insert` or `:delete` changed (SPEC §4): `branch 4 (from branch 2):
  /// line 3 changed; 2 results changed: 1,645 → 1,654 (step 12), 19,740 → 19,848 (step 16)`,
  /// listing at most three results, then `… and N more`.
  func rewriteMessage(_ rewrite: Session.Rewrite) -> String {
    if rewrite.isUnchanged { return "nothing changed" }
    let line = "line \(rewrite.line)"
    // A lone mode key made line 1 the mode line, line 0 (SPEC §11).
    let isModeLine = rewrite.listedLine != rewrite.line
    if rewrite.kind == .deleted, rewrite.newBranch == nil {
      return "\(line) deleted: back to step \(session.history.position), its keys kept as the "
        + "future (like :undo)"
    }
    if rewrite.kind == .inserted, rewrite.newBranch == nil {
      return "\(line) inserted\(isModeLine ? " as the mode line (line 0)" : "") at the end of "
        + "branch \(rewrite.fromBranch)"
    }
    let what =
      switch rewrite.kind {
      case .edited: "\(line) changed\(isModeLine ? ", now the mode line (line 0)" : "")"
      case .inserted: "\(line) inserted\(isModeLine ? " as the mode line (line 0)" : "")"
      case .deleted: "\(line) deleted"
      }
    let prefix =
      rewrite.newBranch.map { "branch \($0) (from branch \(rewrite.fromBranch)): " } ?? ""
    let changed = rewrite.results.lazy.map { result in
      (old: self.format.text(for: result.old), new: self.format.text(for: result.new), result.step)
    }.filter { $0.old != $0.new }
    let count = changed.count
    guard count > 0 else { return prefix + what + "; no results changed" }
    let shown = changed.prefix(3).map { "\($0.old) → \($0.new) (step \($0.2))" }
    let more = count > 3 ? ", … and \(count - 3) more" : ""
    return prefix + what + "; \(count) result\(count == 1 ? "" : "s") changed: "
      + shown.joined(separator: ", ") + more
  }

  /// What an `:undo` or `:redo` that restored a whole session says (SPEC §4): `restored the
  /// session before :reset: 3 branches, 41 keys` (the session now current), `restored the
  /// session after :load: 1 branch, 5 keys`, `… after :reset: no keys`.
  func restoredMessage(_ restore: Session.Restore) -> String {
    let history = session.history
    let count = history.recordedCount
    let branches = history.branchCount
    let size =
      count == 0
      ? "no keys"
      : "\(branches == 1 ? "1 branch" : "\(branches) branches"), "
        + (count == 1 ? "1 key" : "\(count) keys")
    let when = restore.isReplaced ? "before" : "after"
    return "restored the session \(when) \(restore.replacement.command): \(size)"
  }

  /// `loaded 9 keys at step 5 from s.calc`, with the branches when there are several.
  private func loadedMessage(path: FileName) -> String {
    let history = session.history
    let count = history.recordedCount
    let keys = count == 1 ? "1 key" : "\(count) keys"
    guard history.branchCount > 1 else {
      return "loaded \(keys) at step \(history.position) from \(path.shown)"
    }
    return
      "loaded \(keys) on \(history.branchCount) branches, at step \(history.position) of branch "
      + "\(history.currentBranch), from \(path.shown)"
  }

  /// `saved 9 keys at step 5 to s.calc`, with the branches when there are several.
  private func savedMessage(path: FileName) -> String {
    let history = session.history
    let count = history.recordedCount
    let keys = count == 1 ? "1 key" : "\(count) keys"
    let file = path.shown
    guard history.branchCount > 1 else {
      return "saved \(keys) at step \(history.position) to \(file)"
    }
    return
      "saved \(keys) on \(history.branchCount) branches, at step \(history.position) of branch "
      + "\(history.currentBranch), to \(file)"
  }

  /// Appends `:copy`: the display's plain number (no grouping, `.`, every digit) put on the
  /// clipboard by the host's route (``Clipboard``), and a line that says what was done.
  ///
  /// Throws, changing nothing, while an error is shown or when the output is no terminal.
  func appendCopy(at step: Int?, to output: OutputBuffer) throws(LineError) {
    let history = session.history
    if let step, step > history.count {
      throw LineError(
        SessionError.stepOutOfRange(.step(step), from: history.position, valid: 0...history.count)
          .description)
    }
    let brain = step.map { history.state(at: $0) } ?? session.state
    guard !brain.isError else { throw LineError("nothing to copy: the display shows an error") }
    let text = DisplayFormat.plain.text(for: brain)
    guard context.outputIsTerminal else {
      throw LineError(
        "cannot copy \(text): the output is not a terminal (:copy uses the terminal's clipboard)")
    }
    let copy = host.clipboard.copy(text)
    output.write(copy.sequence)
    output.write(
      style.dim(Terminal.message("\(text) \(copy.report)", width: output.columns)) + "\n")
  }
}

/// What a line asks of the front end before it runs, instead of running.
public enum LineRequest: Equatable, Sendable {
  /// `:edit L` without keys, line L existing: its keys (as key text) to edit on the input line,
  /// which the front end then runs as `:edit L KEYS` (or `:delete L` when emptied).
  case editLine(Int, keys: String)
}

extension LineInterpreter {
  /// What `line` asks of the REPL before it runs, or `nil` for a line to run as it is: the
  /// command table decides (``ParsedCommand/editLine(_:)``), the loop reads the answer.
  ///
  /// - Complexity: O(n) in the lines of the current branch, for `:edit L`; else O(1).
  package func request(for line: ScriptLine?) -> LineRequest? {
    guard case .directive(let directive)? = line,
      case .editLine(let number)? = try? ParsedCommand(directive)
    else { return nil }
    let lines = session.history.lines()
    // Line 0, the mode line, cannot be edited: the line runs, and says so.
    let first = History.firstLineNumber(of: lines)
    guard number >= 1, number - first < lines.count else { return nil }
    let toEdit = lines[number - first]
    // The prefilled line holds the note (SPEC §11): kept, changed or removed with it.
    return .editLine(
      number, keys: KeyText.text(of: toEdit.keys) + (toEdit.note.map { "  # " + $0 } ?? ""))
  }
}
