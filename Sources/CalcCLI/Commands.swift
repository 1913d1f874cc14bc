import CalculatorEngine
import Foundation

/// A line command, as typed after `:`.
public struct CommandInfo: Sendable {
  public let name: String
  public let arguments: String
  public let summary: String

  /// Every command, in the order `:help` lists them; Tab completion uses the names.
  public static let all: [CommandInfo] = [
    CommandInfo(
      name: "history", arguments: "[K|N..M]",
      summary: "list this branch's steps: all, the last K, or N to M"),
    CommandInfo(
      name: "tape", arguments: "", summary: "the completed calculations, like a paper tape"),
    CommandInfo(name: "goto", arguments: "N|+K|-K", summary: "move to step N, or K steps on/back"),
    CommandInfo(name: "undo", arguments: "[K]", summary: "go back K lines (default 1)"),
    CommandInfo(name: "redo", arguments: "[K]", summary: "go forward K lines (default 1)"),
    CommandInfo(name: "branches", arguments: "", summary: "list every branch; ▶ marks this one"),
    CommandInfo(name: "branch", arguments: "N", summary: "switch to branch N, at its end"),
    CommandInfo(name: "keys", arguments: "", summary: "print the applied keys as key text"),
    CommandInfo(
      name: "copy", arguments: "", summary: "put the display's number on the terminal's clipboard"),
    CommandInfo(name: "save", arguments: "FILE", summary: "save every branch as a calc script"),
    CommandInfo(name: "load", arguments: "FILE", summary: "replace the session with a saved one"),
    CommandInfo(name: "resume", arguments: "", summary: "bring back the last session you left"),
    CommandInfo(name: "reset", arguments: "", summary: "empty the history, every branch"),
    CommandInfo(name: "pad", arguments: "", summary: "draw the keypad with each button's key"),
    CommandInfo(name: "help", arguments: "", summary: "keys and commands (also help)"),
    CommandInfo(
      name: "quit", arguments: "", summary: "leave calc (also :q, :exit, quit, exit, Ctrl-D)"),
  ]
}

/// What a command line asks for, its argument checked: a change for the session, or something
/// the front end does itself.
enum LineCommand {
  case session(Session.Command)
  case history(HistorySteps)
  case tape
  case branches
  case keys
  case copy
  case save(path: FileName)
  case load(path: FileName)
  case resume
  case pad
  case help
  case quit

  /// The command `command` names, with its argument parsed; throws for an unknown name or a
  /// bad argument, at its column.
  init(_ command: ScriptLine.Command) throws(LineError) {
    func noArgument() throws(LineError) {
      guard command.argument.isEmpty else {
        throw LineError(
          ":\(command.name) takes no argument, not '\(TextEscaping.escaped(command.argument))'",
          column: command.argumentColumn)
      }
    }
    switch command.name {
    case "history": self = .history(try LineCommand.historySteps(command))
    case "tape":
      try noArgument()
      self = .tape
    case "goto": self = .session(.goto(try LineCommand.gotoTarget(command)))
    case "undo": self = .session(.undo(try LineCommand.count(command)))
    case "redo": self = .session(.redo(try LineCommand.count(command)))
    case "branches":
      try noArgument()
      self = .branches
    case "branch": self = .session(.branch(try LineCommand.branchNumber(command)))
    case "keys":
      try noArgument()
      self = .keys
    case "copy":
      try noArgument()
      self = .copy
    case "save": self = .save(path: try LineCommand.file(command))
    case "load": self = .load(path: try LineCommand.file(command))
    case "resume":
      try noArgument()
      self = .resume
    case "reset":
      try noArgument()
      self = .session(.reset)
    case "pad":
      try noArgument()
      self = .pad
    case "help":
      try noArgument()
      self = .help
    case "quit", "q", "exit":
      try noArgument()
      self = .quit
    case "":
      throw LineError("missing command name after ':' (try :help)", column: command.column)
    default:
      throw LineError(
        "unknown command ':\(TextEscaping.escaped(command.name))' (try :help)",
        column: command.column)
    }
  }

  /// The step `:goto N|+K|-K` names; whether the branch has it is the session's to say.
  private static func gotoTarget(_ command: ScriptLine.Command) throws(LineError) -> Session.Target
  {
    let argument = command.argument
    guard !argument.isEmpty else {
      throw LineError(":goto needs a step: N, +K or -K", column: command.argumentColumn)
    }
    let sign = argument.first == "+" ? 1 : argument.first == "-" ? -1 : 0
    let digits = sign == 0 ? Substring(argument) : argument.dropFirst()
    guard let amount = wholeNumber(digits) else {
      throw LineError(
        ":goto takes a step N, +K or -K, not '\(TextEscaping.escaped(argument))'",
        column: command.argumentColumn)
    }
    return sign == 0 ? .step(amount) : .offset(sign * amount)
  }

  /// The `[K]` of `:undo` and `:redo`: a whole number of lines, 1 by default.
  private static func count(_ command: ScriptLine.Command) throws(LineError) -> Int {
    if command.argument.isEmpty { return 1 }
    guard let count = wholeNumber(Substring(command.argument)) else {
      throw LineError(
        ":\(command.name) takes a number of lines, not "
          + "'\(TextEscaping.escaped(command.argument))'",
        column: command.argumentColumn)
    }
    return count
  }

  /// The `[K|N..M]` of `:history`; whether the branch has those steps is checked when it runs.
  private static func historySteps(_ command: ScriptLine.Command) throws(LineError)
    -> HistorySteps
  {
    let argument = command.argument
    if argument.isEmpty { return .all }
    let parts = argument.split(separator: "..", maxSplits: 1, omittingEmptySubsequences: false)
    let numbers = parts.map(wholeNumber)
    switch (numbers.count, numbers.first ?? nil, numbers.last ?? nil) {
    case (1, let count?, _) where count > 0:
      return .last(count)
    case (1, 0?, _):
      throw LineError(
        ":history takes a number of steps from 1, not '0'", column: command.argumentColumn)
    case (2, let first?, let last?):
      return .range(first, last)
    default:
      throw LineError(
        ":history takes K (the last K steps) or N..M (steps N to M), not "
          + "'\(TextEscaping.escaped(argument))'",
        column: command.argumentColumn)
    }
  }

  /// The `N` of `:branch`.
  private static func branchNumber(_ command: ScriptLine.Command) throws(LineError) -> Int {
    guard !command.argument.isEmpty else {
      throw LineError(
        ":branch needs a branch number (see :branches)", column: command.argumentColumn)
    }
    guard let number = wholeNumber(Substring(command.argument)) else {
      throw LineError(
        ":branch takes a branch number, not '\(TextEscaping.escaped(command.argument))'",
        column: command.argumentColumn)
    }
    return number
  }

  /// ASCII digits that fit in an `Int`; `nil` for anything else.
  private static func wholeNumber(_ text: Substring) -> Int? {
    guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    return Int(text)
  }

  private static func file(_ command: ScriptLine.Command) throws(LineError) -> FileName {
    guard !command.argument.isEmpty else {
      throw LineError(":\(command.name) needs a file name", column: command.argumentColumn)
    }
    return FileName(command.argumentBytes).expandingTilde(home: Environment.process["HOME"])
  }
}

/// Which steps of the current branch `:history` lists.
enum HistorySteps: Hashable {
  /// Every step, from 0.
  case all
  /// The last K steps (every step if the branch has no more).
  case last(Int)
  /// Steps N through M.
  case range(Int, Int)

  /// The steps of a branch of `count` keys, or why there are none such.
  ///
  /// A range must run forwards and lie within `0...count`; the last K steps are all of them when
  /// there are fewer.
  func steps(count: Int, position: Int) throws(LineError) -> ClosedRange<Int> {
    switch self {
    case .all:
      return 0...count
    case .last(let steps):
      return max(0, count - steps + 1)...count
    case .range(let first, let last):
      guard first <= last else {
        throw LineError("steps \(first)..\(last) run backwards (write \(last)..\(first))")
      }
      guard last <= count else {
        throw LineError(
          SessionError.stepOutOfRange(.step(last), from: position, valid: 0...count).description)
      }
      return first...last
    }
  }
}

extension LineInterpreter {
  /// Runs a `:command` line.
  mutating func runCommand(_ command: ScriptLine.Command, output: OutputBuffer)
    throws(LineError) -> Outcome
  {
    switch try LineCommand(command) {
    case .session(let change):
      try perform(change, at: command)
      appendDisplay(to: output)
    case .history(let which):
      let history = session.history
      let steps = try atArgument(command) { () throws(LineError) in
        try which.steps(count: history.count, position: history.position)
      }
      appendHistory(steps, to: output)
    case .tape:
      appendTape(to: output)
    case .branches:
      appendBranches(to: output)
    case .keys:
      let history = session.history
      let keys = (0..<history.position).lazy.map { history.key(at: $0 + 1) }
      output.write(KeyText.text(of: keys) + "\n")
    case .copy:
      try appendCopy(to: output)
    case .save(let name):
      let path = inScriptFolder(name)
      try atArgument(command) { () throws(LineError) in
        try SessionFile.save(session.history, to: path)
      }
      output.write(style.dim(savedMessage(path: path) + "\n"))
    case .load(let name):
      let path = inScriptFolder(name)
      let loaded = try atArgument(command) { () throws(LineError) in
        try SessionFile.load(path)
      }
      try perform(.load(loaded), at: command)
      appendDisplay(to: output)
    case .resume:
      let resumed = try ResumedSession.latest(in: journalDirectory, excluding: ownJournal)
      try perform(.load(resumed.session), at: command)
      output.write(style.dim(resumed.summary + "\n"))
      if let damage = resumed.damage { output.write(style.dim(damage + "\n")) }
      appendDisplay(to: output)
    case .pad:
      output.write(HelpText.pad(style: style))
    case .help:
      output.write(HelpText.help(style: style))
    case .quit:
      return .quit
    }
    return .proceed
  }

  /// `path` taken from ``scriptFolder`` if it is relative and a script file is running.
  private func inScriptFolder(_ path: FileName) -> FileName {
    guard let scriptFolder, path.bytes.first != UInt8(ascii: "/") else { return path }
    return FileName(Array(scriptFolder.utf8) + path.bytes)
  }

  /// Performs `change`, reporting what the session refuses at the command's argument.
  private mutating func perform(_ change: Session.Command, at command: ScriptLine.Command)
    throws(LineError)
  {
    do {
      try perform(change)
    } catch {
      throw LineError(error.description, column: command.argumentColumn)
    }
  }

  /// Runs `body`, reporting its errors at the command's argument (the file name).
  private func atArgument<T>(_ command: ScriptLine.Command, _ body: () throws(LineError) -> T)
    throws(LineError) -> T
  {
    do {
      return try body()
    } catch {
      throw LineError(error.message, column: command.argumentColumn)
    }
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

  /// Pads `text` with spaces to `width` characters, on the right or (with `left`) the left.
  private static func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return left ? padding + text : text + padding
  }

  /// `→ branch 2`, `→ branches 2, 5`: the branches that leave the current one at a step.
  private static func forkMark(_ branches: [Int]) -> String {
    (branches.count == 1 ? "→ branch " : "→ branches ")
      + branches.map(String.init).joined(separator: ", ")
  }

  /// Appends `:history` of `steps` (within `0...count`): each step of the current branch with
  /// its key, the expression so far and the display, the current step marked, the kept future
  /// labelled, the steps where other branches leave marked with their numbers, and a slider of
  /// the whole branch.
  ///
  /// Rows are written out as they are made (``OutputBuffer/flushIfFull()``), and stop early when
  /// ``isListingStopped(_:)`` says so.
  /// - Complexity: O(m + ``History/snapshotInterval``) for m steps, in two passes (the first
  ///   measures the columns); beyond the output buffer, memory stays O(number of branches)
  ///   however long the history.
  func appendHistory(_ steps: ClosedRange<Int>, to output: OutputBuffer) {
    let history = session.history
    guard !history.isEmpty else {
      output.write("no history\n")
      return
    }
    let forks = history.forksOnCurrentBranch()
    var widths = (step: max(4, String(history.count).count), expression: 10, display: 7)
    forEachHistoryRow(steps, output: output) { _, _, expression, display in
      widths.expression = max(widths.expression, expression.count)
      widths.display = max(widths.display, display.count)
    }
    let pad = LineInterpreter.pad
    let header =
      "  \(pad("step", widths.step, true))  key  \(pad("expression", widths.expression, false))"
      + "  display"
    output.write(style.dim(header) + "\n")
    forEachHistoryRow(steps, output: output) { step, key, expression, display in
      var line =
        "\(pad(String(step), widths.step, true))  \(pad(key, 3, false))  "
        + "\(pad(expression, widths.expression, false))  "
      let mark = forks[step].map { "  " + LineInterpreter.forkMark($0) } ?? ""
      if step > history.position {
        line = "  " + style.dim(line + pad(display, widths.display, false) + "  (kept)" + mark)
      } else if step == history.position {
        line =
          style.marker("▶ ") + line
          + (mark.isEmpty ? display : pad(display, widths.display, false) + mark)
      } else {
        line = "  " + line + (mark.isEmpty ? display : pad(display, widths.display, false) + mark)
      }
      while line.last == " " { line.removeLast() }
      output.write(line + "\n")
      output.flushIfFull()
    }
    guard !isListingStopped(output) else { return }
    output.write(slider() + "\n")
  }

  /// Whether a long listing should stop before its next row: its reader went away (a pager that
  /// was quit, `| head`), its output failed, or Ctrl-C was pressed (the REPL then drops the
  /// line's output and reports it).
  ///
  /// The one place a listing asks.
  func isListingStopped(_ output: OutputBuffer) -> Bool {
    output.hasStopped || Interruption.isRequested
  }

  /// Calls `body` for each of `steps` with its number, key title, expression (cut to its last 60
  /// characters) and display, until ``isListingStopped(_:)``.
  private func forEachHistoryRow(
    _ steps: ClosedRange<Int>, output: OutputBuffer, _ body: (Int, String, String, String) -> Void
  ) {
    struct Stopped: Error {}
    let expressionWidth = 60
    var expression = ""
    var expressionLength = 0
    var isCut = false
    // The expression at the first step shown is cut from the keys before it: starting one more
    // than `expressionWidth` keys earlier gives the same text as starting from step 0.
    let start = max(0, steps.lowerBound - expressionWidth - 1)
    try? session.history.forEachStep(in: start...steps.upperBound) { step, key, state in
      if let key {
        expression += key.title
        expressionLength += key.title.count
        if expressionLength > expressionWidth * 2 {
          // Keep the string short so that each row costs O(1), not O(step).
          expression = String(expression.suffix(expressionWidth))
          expressionLength = expressionWidth
          isCut = true
        }
      }
      guard step >= steps.lowerBound else { return }
      guard !isListingStopped(output) else { throw Stopped() }
      let shown =
        isCut || expressionLength > expressionWidth
        ? "…" + String(expression.suffix(expressionWidth - 1)) : expression
      body(step, key?.title ?? "", shown, format.text(for: state.brain))
    }
  }

  /// Appends `:tape`: every calculation completed on the current branch up to the position, one
  /// row each — the step where it completed (so that `:goto` returns there), the calculation as
  /// the expression line writes it, and its result: `4  1 + 2 = 3`.
  ///
  /// Rows are written out as they are made, and stop early when ``isListingStopped(_:)``.
  /// - Complexity: O(position), in one pass; memory O(1) beyond the output.
  func appendTape(to output: OutputBuffer) {
    let history = session.history
    let width = String(history.position).count
    var previous = History.State.initial
    var rows = 0
    struct End: Error {}
    try? history.forEachStep { step, key, state in
      guard step <= history.position, !isListingStopped(output) else { throw End() }
      defer { previous = state }
      guard let key, let line = previous.brain.completedCalculation(by: key) else { return }
      rows += 1
      let number = String(step)
      output.write(String(repeating: " ", count: width - number.count) + number + "  ")
      format.append(line, to: &output.bytes)
      output.bytes.append(UInt8(ascii: " "))
      format.append(state.brain, to: &output.bytes)
      output.bytes.append(UInt8(ascii: "\n"))
      output.flushIfFull()
    }
    if rows == 0 { output.write("no calculations\n") }
  }

  /// Appends `:copy`: the display's plain number (no grouping, `.`, every digit) put on the
  /// terminal's clipboard with OSC 52 (`ESC ] 52 ; c ; base64 BEL`), and a line saying so.
  ///
  /// Throws, changing nothing, while an error is shown or when the output is no terminal.
  func appendCopy(to output: OutputBuffer) throws(LineError) {
    let brain = session.state.brain
    guard !brain.isError else { throw LineError("nothing to copy: the display shows an error") }
    let text = DisplayFormat.plain.text(for: brain)
    guard outputIsTerminal else {
      throw LineError(
        "cannot copy \(text): the output is not a terminal (:copy uses the terminal's clipboard)")
    }
    output.write("\u{1B}]52;c;\(Data(text.utf8).base64EncodedString())\u{07}")
    output.write(style.dim("copied \(text)") + "\n")
  }

  /// `[━━━━━━━●───] 7/10`: the book's slider over the current branch, at most 30 cells wide.
  func slider() -> String {
    let history = session.history
    let count = history.count
    let cells = min(count, 30)
    let filled = count == 0 ? 0 : (history.position * cells + count / 2) / count
    return "[" + String(repeating: "━", count: filled) + "●"
      + String(repeating: "─", count: cells - filled) + "] \(history.position)/\(count)"
  }

  /// Appends `:branches`: for every branch its number, where it leaves the branch it came from
  /// (`1 at 5`: branch 1, after step 5), its length, the display at its end and its last keys;
  /// `▶` marks the current one.
  ///
  /// - Complexity: O(b × (``History/snapshotInterval`` + depth)), b the number of branches.
  func appendBranches(to output: OutputBuffer) {
    let history = session.history
    guard !history.isEmpty else {
      output.write("no branches\n")
      return
    }
    let lastKeysShown = 20
    struct Row {
      let number: String
      let leaves: String
      let steps: String
      let display: String
      let keys: String
    }
    let rows = (1...history.branchCount).map { number in
      let branch = history.branch(number)
      let keys = history.lastKeys(ofBranch: number, limit: lastKeysShown + 1)
      var expression = keys.suffix(lastKeysShown).map(\.title).joined()
      if keys.count > lastKeysShown { expression = "…" + expression }
      return Row(
        number: String(number), leaves: branch.parent.map { "\($0) at \(branch.fork)" } ?? "",
        steps: String(branch.count),
        display: format.text(for: history.stateAtEnd(ofBranch: number).brain), keys: expression)
    }
    let widths = (
      number: 6, leaves: max(6, rows.map(\.leaves.count).max()!),
      steps: max(5, rows.map(\.steps.count).max()!),
      display: max(7, rows.map(\.display.count).max()!)
    )
    let pad = LineInterpreter.pad
    let header =
      "  \(pad("branch", widths.number, true))  \(pad("leaves", widths.leaves, false))"
      + "  \(pad("steps", widths.steps, true))  \(pad("display", widths.display, false))  last keys"
    output.write(style.dim(header) + "\n")
    for (index, row) in rows.enumerated() {
      var line =
        "\(pad(row.number, widths.number, true))  \(pad(row.leaves, widths.leaves, false))"
        + "  \(pad(row.steps, widths.steps, true))  \(pad(row.display, widths.display, false))"
        + "  \(row.keys)"
      line = (index + 1 == history.currentBranch ? style.marker("▶ ") : "  ") + line
      while line.last == " " { line.removeLast() }
      output.write(line + "\n")
      output.flushIfFull()
    }
  }
}
