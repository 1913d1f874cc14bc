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
    case .why(let number):
      try writeWhy(number, at: command, output: output)
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
    case .exact(let line):
      try writeExact(line: line, at: command, output: output)
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
        style: style, mode: session.state.mode, programmer: session.state.programmer,
        columns: output.columns)
      output.write(output.columns.map { HelpText.narrowed(pad, toFit: $0) } ?? pad)
    case .help(let topic?):
      let text = try atArgument(command) { () throws(LineError) in
        try HelpText.topic(
          topic, style: style, mode: session.state.mode, columns: output.columns)
      }
      output.write(text)
    case .help(nil):
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
      // Its rows after the first indented under its first word's column, two in: one report.
      output.write(
        Terminal.message(rewriteMessage(rewrite), width: output.columns, hanging: 2) + "\n")
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

  /// `:tape [csv|csv!] [K|N..M] [FILE]`: the tape, as rows or CSV, to the output or (CSV) to a
  /// file of the host's. At the REPL, an existing file this session did not write (nor save,
  /// nor load) is replaced only by `:tape csv!`, as `:save` does it (SPEC §8). CSV to a
  /// terminal has the notes escaped, as every listing does; to a file or a pipe it keeps them.
  private mutating func writeTape(
    _ request: TapeRequest, at command: ScriptLine.Directive, output: OutputBuffer
  ) throws(LineError) {
    let history = session.history
    let steps = try atArgument(command) { () throws(LineError) in
      try request.steps.steps(count: history.position, position: history.position)
    }
    guard request.isCSV else { return listing.writeTape(steps, to: output) }
    guard let file = request.file else {
      return listing.writeTapeCSV(steps, to: output, escapingText: context.outputIsTerminal)
    }
    let path = inScriptFolder(file)
    if context.isInteractive, !request.isReplacing, let existing = host.files.identity(path),
      !knownFiles.contains(existing)
    {
      // The same command with `csv!`, as typed after `csv`.
      let rest = command.argument.dropFirst(3).drop { $0 == " " || $0 == "\t" }
      throw LineError(
        "'\(path.shown)' exists, and this session did not write it; to replace it: "
          + ":tape csv! \(TextEscaping.escaped(String(rest)))",
        column: command.argumentColumn)
    }
    let csv = OutputBuffer()
    listing.writeTapeCSV(steps, to: csv)
    try write(csv.bytes, to: path, verb: "write", at: command)
    if let written = host.files.identity(path) { knownFiles.insert(written) }
    output.write(style.dim("wrote the tape to \(path.shown)") + "\n")
  }

  /// Writes `bytes` to the host's file `path`; a failure says what is left of the file: nothing
  /// made (there was none), the file unchanged, or the backup holding its old contents.
  private func write(
    _ bytes: [UInt8], to path: FileName, verb: String, at command: ScriptLine.Directive
  ) throws(LineError) {
    do {
      try host.files.write(bytes, path)
    } catch {
      let outcome =
        error.backup.map { "its old contents are in '\($0.shown)'" }
        ?? (error.isNewFile ? "'\(path.shown)' was not created" : "'\(path.shown)' is unchanged")
      throw LineError(
        "cannot \(verb) '\(path.shown)': \(error.reason); \(outcome)",
        column: command.argumentColumn)
    }
  }

  /// `:keys`: one line per input line (SPEC rule 18), so that the output rebuilds the same
  /// display; an empty line when there are none.
  private func writeKeys(to output: OutputBuffer) {
    var wrote = false
    var modes = KeyText.ModeTracker()
    session.history.forEachLine(upToPosition: { line in
      output.write(modes.text(of: line) + "\n")
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
    if let skipped = resumed.skipped { output.write(style.dim(skipped + "\n")) }
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
      // A `$N` of the command's keys is quoted as typed.
      var references: [Int] = []
      if case .edit(_, let keys, _) = change { references = keys.references }
      if case .insert(_, let keys, _) = change { references = keys.references }
      throw LineError(
        error.description(typedIn: Substring(command.argument), references: references),
        column: command.argumentColumn)
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
  /// listing at most three results, then `… and N more`; when dates moved (SPEC §13), every
  /// one of them in ISO form (`3 dates moved: 2027-01-04 → 2027-02-01 (step 2), …`), then how
  /// many other results changed.
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
    // The results that show another text (SPEC §4 counts those), each pair written into two
    // reused buffers and compared as bytes: a text is made only for the three listed. The
    // errors' report (``errorsMessage(_:differing:)``) looks at every pair whose display
    // differs, which a pair whose text is the same may still do (the same digits shown).
    var oldBytes: [UInt8] = []
    var newBytes: [UInt8] = []
    var count = 0
    var shown: [String] = []
    var differing: [Int] = []
    for (index, result) in rewrite.results.enumerated() {
      oldBytes.removeAll(keepingCapacity: true)
      newBytes.removeAll(keepingCapacity: true)
      format.append(result.old, to: &oldBytes)
      format.append(result.new, to: &newBytes)
      if oldBytes != newBytes {
        count += 1
        differing.append(index)
        if shown.count < 3 {
          shown.append(
            "\(String(decoding: oldBytes, as: UTF8.self)) → "
              + "\(String(decoding: newBytes, as: UTF8.self)) (step \(result.step))")
        }
      } else if result.old != result.new {
        differing.append(index)
      }
    }
    guard count > 0 else { return prefix + what + "; no results changed" }
    // Every date that moved, in ISO form (SPEC §13: a changed start date moves every
    // deadline), then how many other results changed.
    func isoDate(_ display: Display) -> String? {
      if case .date(let shown) = display, case .date(let date) = shown.value {
        date.isoText
      } else {
        nil
      }
    }
    let moved = rewrite.results.compactMap { result -> String? in
      guard let old = isoDate(result.old), let new = isoDate(result.new), old != new else {
        return nil
      }
      return "\(old) → \(new) (step \(result.step))"
    }
    if !moved.isEmpty {
      let others = count - moved.count
      return prefix + what + "; \(moved.count) date\(moved.count == 1 ? "" : "s") moved: "
        + moved.joined(separator: ", ")
        + (others > 0 ? "; \(others) other result\(others == 1 ? "" : "s") changed" : "")
        + errorsMessage(rewrite, differing: differing)
    }
    let more = count > 3 ? ", … and \(count - 3) more" : ""
    return prefix + what + "; \(count) result\(count == 1 ? "" : "s") changed: "
      + shown.joined(separator: ", ") + more + errorsMessage(rewrite, differing: differing)
  }

  /// What an edit's report adds when lines now show an error (issue 45): `; now showing an
  /// error: line 1, line 2 (on the way)` — a line whose result is now an error, or whose result
  /// hides an error it went past (a `$N` of an error line, rule 14); at most three, then `… and N
  /// more`. Empty when none does. `differing` holds the indices of the results whose displays
  /// differ, in order.
  ///
  /// - Complexity: O(d) in the d differing results, plus the replay of at most
  ///   ``errorCheckLimit`` of their lines (and, when one of those has a `$N`, a scan of the
  ///   branch's line ends up to it).
  private func errorsMessage(_ rewrite: Session.Rewrite, differing: [Int]) -> String {
    var found: [String] = []
    var checked = 0
    var lineEnds: [Int]?
    // The state at the end of the line replayed last, which is where the next line starts when
    // the two are consecutive: no replay from a snapshot for it.
    var carried: (end: Int, state: Calculator)?
    for index in differing {
      let result = rewrite.results[index]
      let number = rewrite.firstResultLine + index
      if case .error = result.new {
        if case .error = result.old { continue }
        found.append("line \(number)")
      } else if checked < Self.errorCheckLimit {
        checked += 1
        if passesAnError(
          endingAt: result.step, number: number, lineEnds: &lineEnds, carried: &carried)
        {
          found.append("line \(number) (on the way)")
        }
      }
    }
    guard !found.isEmpty else { return "" }
    let more = found.count > 3 ? ", … and \(found.count - 3) more" : ""
    return "; now showing an error: " + found.prefix(3).joined(separator: ", ") + more
  }

  /// How many changed lines an edit's report replays to find an error passed on the way.
  static let errorCheckLimit = 1_000

  /// Whether line `number` of the current branch, which ends at step `end`, shows an error and
  /// goes on past it (a digit starts afresh, rule 14) — its own, or one that a `$N` recalled —
  /// so that its result hides it. `lineEnds` keeps the branch's line ends once a `$N` needs
  /// them; `carried` is the state at the end of the line replayed before, used when this line
  /// starts there, and becomes the state at this line's end when it passes no error.
  ///
  /// - Complexity: O(k) in the line's keys, plus a replay from the nearest snapshot when the
  ///   line does not start where `carried` ends; the first `$N` also scans the branch.
  private func passesAnError(
    endingAt end: Int, number: Int, lineEnds: inout [Int]?,
    carried: inout (end: Int, state: Calculator)?
  ) -> Bool {
    let history = session.history
    let line = history.line(endingAt: end)
    var state: Calculator
    if let carried, carried.end == line.start {
      state = carried.state
    } else {
      state = history.state(at: line.start)
    }
    carried = nil
    state.startLine()
    var references = line.keys.references.makeIterator()
    var shown = false
    for key in line.keys {
      let priorIsError = state.isError
      if case .reference = key {
        if lineEnds == nil { lineEnds = history.lineEnds(upTo: history.count) }
        let ends = lineEnds ?? []
        // Line N ends at `ends[N - first]`: 0 is the mode line when there is one (SPEC §11).
        let first =
          ends.first.map { History.isModeLine(history.line(endingAt: $0).keys) } == true
          ? 0 : 1
        guard let target = references.next(), target - first >= 0, target < number,
          target - first < ends.count
        else { return false }
        let recalled = history.recalled(atLineEnd: ends[target - first])
        if case .error = recalled { shown = true }
        state.recall(recalled)
      } else {
        state.press(key)
      }
      if state.isError {
        if !priorIsError { shown = true }
      } else if shown {
        return true
      }
    }
    carried = (end, state)
    return false
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
