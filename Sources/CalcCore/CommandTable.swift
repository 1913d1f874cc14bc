import CalculatorEngine

/// One command of the REPL and of scripts, as the command table declares it: the one list of
/// commands, from which parsing, `:help`, Tab completion, the man page's test and the fuzz
/// target's list of commands that touch files all derive.
///
/// Adding a command is a case of the engine's ``CommandName`` (the one list of command words),
/// its row here (``row(_:)`` switches over every name), and a case in ``ParsedCommand`` with its
/// handler in ``LineInterpreter/runCommand(_:output:)``.
///
/// The vocabulary of calc's `Command` types: a *command* is what a person types after `:`
/// (``CommandName`` names it, ``CommandSpec`` declares it, ``ParsedCommand`` is one parsed with its
/// argument); ``Session/Command`` is a typed change to a session, what the commands that change
/// one become; ``Key/Command`` is the book's name for the AC, +/-, %, CE and ⌫
/// keys; `CalcCommand` is the program's command line (ArgumentParser's name for it).
public struct CommandSpec: Sendable {
  /// The kind of argument a command takes.
  public enum Argument: Sendable, Hashable {
    /// Nothing: any argument is refused.
    case none
    /// `[K]`: a number of lines, 1 when left out.
    case count
    /// `N|+K|-K`: a step, or a number of steps on or back.
    case step
    /// `[K|N..M]`: all steps, the last K, or steps N to M.
    case range
    /// `N`: a branch number.
    case branch
    /// `L`: a line number (see `:lines`).
    case line
    /// `L KEYS`: a line number and the keys of a line.
    case lineKeys
    /// `L [TEXT]`: a line number and a text taken whole (`#` is text).
    case lineText
    /// `TEXT`: a text taken whole.
    case text
    /// `L KEYS | KEYS …`: a line number and alternative keys for it.
    case alternatives
    /// `[N]`: a step, the position when left out.
    case optionalStep
    /// `[csv] [K|N..M] [FILE]`: the tape's rows, as a table or as CSV to a file.
    case tape
    /// `FILE`: a file name, passed to the system byte for byte (`~` is expanded by the
    /// interpreter, from its host's home).
    case file

    /// How `:help` shows it: `[K|N..M]`, `FILE`, or nothing.
    public var usage: String {
      switch self {
      case .none: ""
      case .count: "[K]"
      case .step: "N|+K|-K"
      case .range: "[K|N..M]"
      case .branch: "N"
      case .line: "L"
      case .lineKeys: "L KEYS"
      case .lineText: "L [TEXT]"
      case .text: "TEXT"
      case .alternatives: "L KEYS | KEYS …"
      case .optionalStep: "[N]"
      case .tape: "[csv] [K|N..M] [FILE]"
      case .file: "FILE"
      }
    }
  }

  /// The name after `:`, e.g. `history`.
  public let name: String
  /// Other names for the same command (`q`, `exit`).
  public let aliases: [String]
  /// What it takes.
  public let argument: Argument
  /// What it does, for `:help`.
  public let summary: String
  /// The command with its argument parsed (the argument is known to fit ``argument``'s
  /// `.none` already).
  let make: @Sendable (ScriptLine.Directive) throws(LineError) -> ParsedCommand

  /// The name and, where there is one, its argument: `:goto N|+K|-K`.
  public var usage: String {
    ":" + name + (argument.usage.isEmpty ? "" : " " + argument.usage)
  }

  /// Whether `name` (without its `:`) names this command.
  public func isNamed(_ name: String) -> Bool { name == self.name || aliases.contains(name) }

  /// The command named `name` (or one of its aliases), if there is one.
  public static func named(_ name: String) -> CommandSpec? { all.first { $0.isNamed(name) } }

  /// Every command, in the order `:help` lists them: one row per ``CommandName``.
  public static let all: [CommandSpec] = CommandName.allCases.map(row)

  /// The row of the command `name`: one case per name, so a new name cannot lack its row.
  private static func row(_ name: CommandName) -> CommandSpec {
    switch name {
    case .history:
      CommandSpec(name, .range, "list this branch's steps: all, the last K, or N to M") {
        directive throws(LineError) in .history(try HistorySteps(directive))
      }
    case .tape:
      CommandSpec(name, .tape, "calculations and memory keys, like a paper tape (csv: as CSV)") {
        directive throws(LineError) in .tape(try TapeRequest(directive))
      }
    case .lines:
      CommandSpec(name, .range, "list this branch's input lines: all, the last K, or N to M") {
        directive throws(LineError) in .lines(try HistorySteps(directive))
      }
    case .edit:
      CommandSpec(name, .lineKeys, "replace line L; later lines are replayed on a new branch") {
        directive throws(LineError) in
        // `:edit L` alone: at the REPL, line L to edit on the input line (``LineInterpreter/request(for:)``).
        if let line = ScriptLine.Directive.wholeNumber(Substring(directive.argument)) {
          return .editLine(line)
        }
        return try sessionCommand(directive)
      }
    case .insert:
      CommandSpec(
        name, .lineKeys, "put a new line before line L (n+1: at the end)", make: sessionCommand)
    case .delete:
      CommandSpec(
        name, .line, "delete line L; later lines are replayed on a new branch",
        make: sessionCommand)
    case .note:
      CommandSpec(
        name, .lineText, "set line L's note (no TEXT: remove it); no branch, no undo",
        make: sessionCommand)
    case .find:
      CommandSpec(name, .text, "lines on every branch whose note holds TEXT or value is TEXT") {
        directive throws(LineError) in
        guard !directive.argument.isEmpty else {
          throw LineError(
            ":find needs a text or a number: :find rent, :find 1639",
            column: directive.argumentColumn)
        }
        return .find(directive.argument)
      }
    case .vary:
      CommandSpec(
        name, .alternatives, "replay line L with each alternative, on branches; one table",
        make: sessionCommand)
    case .goto:
      CommandSpec(name, .step, "move to step N, or K steps on/back", make: sessionCommand)
    case .undo: CommandSpec(name, .count, "go back K lines (default 1)", make: sessionCommand)
    case .redo: CommandSpec(name, .count, "go forward K lines (default 1)", make: sessionCommand)
    case .branches:
      CommandSpec(name, .none, "list every branch; ▶ marks this one") { _ in .branches }
    case .branch:
      CommandSpec(name, .branch, "switch to branch N, at its end", make: sessionCommand)
    case .keys: CommandSpec(name, .none, "print the applied keys as key text") { _ in .keys }
    case .copy:
      CommandSpec(name, .optionalStep, "put the display's number (at step N) on the clipboard") {
        directive throws(LineError) in
        .copy(step: directive.argument.isEmpty ? nil : try directive.stepNumber())
      }
    case .save:
      CommandSpec(name, .file, "save every branch as a calc script") {
        directive throws(LineError) in .save(path: try fileArgument(directive), replacing: false)
      }
    case .saveReplacing:
      CommandSpec(name, .file, "save, replacing a file this session did not save or load") {
        directive throws(LineError) in .save(path: try fileArgument(directive), replacing: true)
      }
    case .load:
      CommandSpec(name, .file, "replace the session with a saved one") {
        directive throws(LineError) in .load(path: try fileArgument(directive))
      }
    case .resume:
      CommandSpec(name, .none, "bring back the last session you left") { _ in .resume }
    case .reset:
      CommandSpec(name, .none, "empty the history, every branch", make: sessionCommand)
    case .pad: CommandSpec(name, .none, "draw the keypad with each button's key") { _ in .pad }
    case .help: CommandSpec(name, .none, "keys and commands (also help)") { _ in .help }
    case .quit:
      CommandSpec(
        name, aliases: ["q", "exit"], .none, "leave calc (also :q, :exit, quit, exit, Ctrl-D)"
      ) { _ in .quit }
    }
  }

  private init(
    _ name: CommandName, aliases: [String] = [], _ argument: Argument, _ summary: String,
    make: @escaping @Sendable (ScriptLine.Directive) throws(LineError) -> ParsedCommand
  ) {
    self.name = name.rawValue
    self.aliases = aliases
    self.argument = argument
    self.summary = summary
    self.make = make
  }

  /// A directive of the session script (``SessionScript/command(_:)``): the engine parses it,
  /// so that what `:load` reads and what the REPL takes are the same.
  static func sessionCommand(_ directive: ScriptLine.Directive) throws(LineError)
    -> ParsedCommand
  {
    guard let command = try SessionScript.command(directive) else {
      preconditionFailure(":\(directive.name) is in the table as a session command but not one")
    }
    return .session(command)
  }

  /// The `FILE` of `:save` and `:load`, as typed.
  private static func fileArgument(_ directive: ScriptLine.Directive) throws(LineError)
    -> FileName
  {
    guard !directive.argument.isEmpty else {
      throw LineError(":\(directive.name) needs a file name", column: directive.argumentColumn)
    }
    return FileName(directive.argumentBytes)
  }
}

/// What a command line asks for, its argument checked: a change for the session, or something
/// the front end does itself.
enum ParsedCommand {
  case session(Session.Command)
  /// `:edit L` without keys: a request for line L's keys to edit (see
  /// ``LineInterpreter/request(for:)``); run as a line, it is refused for the missing keys.
  case editLine(Int)
  case history(HistorySteps)
  /// `:lines [K|N..M]`: the same argument as `:history`, counting lines.
  case lines(HistorySteps)
  /// `:find TEXT` (SPEC §11).
  case find(String)
  case tape(TapeRequest)
  case branches
  case keys
  /// `:copy [N]`: the display at step N, or at the position.
  case copy(step: Int?)
  /// `replacing`: `:save!`, which replaces a file that this REPL neither saved nor loaded.
  case save(path: FileName, replacing: Bool)
  case load(path: FileName)
  case resume
  case pad
  case help
  case quit

  /// The command `directive` names, with its argument parsed; throws for an unknown name or a
  /// bad argument, at its column.
  init(_ directive: ScriptLine.Directive) throws(LineError) {
    guard !directive.name.isEmpty else {
      throw LineError("missing command name after ':' (try :help)", column: directive.column)
    }
    guard let spec = CommandSpec.named(directive.name) else {
      throw LineError(
        "unknown command ':\(TextEscaping.escaped(directive.name))' (try :help)",
        column: directive.column)
    }
    // `:reset`'s reader (``SessionScript/command(_:)``) takes the journal's `load` and `resume`
    // (what a recorded replacement names) and refuses any other argument itself.
    if spec.argument == .none, spec.name != "reset" { try directive.requireNoArgument() }
    self = try spec.make(directive)
  }
}

/// What `:tape` was asked for: which steps, and whether as CSV, to a file or to the output.
struct TapeRequest {
  var steps: HistorySteps
  var isCSV: Bool
  /// The file for `:tape csv … FILE`.
  var file: FileName?

  /// Parses `[csv] [K|N..M] [FILE]`: `csv` first; then a count or range when the next word is
  /// one; then, for CSV only, the rest as a file name (byte for byte).
  init(_ directive: ScriptLine.Directive) throws(LineError) {
    var bytes = directive.argumentBytes[...]
    var column = directive.argumentColumn
    func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    /// The next word, taken off `bytes` with the blanks after it.
    func nextWord() -> ArraySlice<UInt8> {
      let word = bytes.prefix { !isBlank($0) }
      bytes = bytes.dropFirst(word.count)
      let blanks = bytes.prefix(while: isBlank)
      bytes = bytes.dropFirst(blanks.count)
      column += String(decoding: word, as: UTF8.self).count + blanks.count
      return word
    }
    isCSV = false
    if bytes.prefix(while: { !isBlank($0) }).elementsEqual("csv".utf8) {
      isCSV = true
      _ = nextWord()
    }
    steps = .all
    let first = bytes.prefix { !isBlank($0) }
    if let byte = first.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
      let wordColumn = column
      let word = String(decoding: nextWord(), as: UTF8.self)
      steps = try HistorySteps(
        ScriptLine.Directive(
          name: directive.name, column: directive.column, argument: word,
          argumentColumn: wordColumn))
    }
    file = nil
    if !bytes.isEmpty {
      guard isCSV else {
        throw LineError(
          ":tape takes [csv] [K|N..M] [FILE], and a FILE only after csv, not "
            + "'\(TextEscaping.escaped(String(decoding: bytes, as: UTF8.self)))'",
          column: column)
      }
      file = FileName(Array(bytes))
    }
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

  /// The `[K|N..M]` of `directive`; whether the branch has those steps is checked when it runs.
  init(_ directive: ScriptLine.Directive) throws(LineError) {
    let argument = directive.argument
    if argument.isEmpty {
      self = .all
      return
    }
    let parts = argument.split(separator: "..", maxSplits: 1, omittingEmptySubsequences: false)
    let numbers = parts.map(ScriptLine.Directive.wholeNumber)
    switch (numbers.count, numbers.first ?? nil, numbers.last ?? nil) {
    case (1, let count?, _) where count > 0:
      self = .last(count)
    case (1, 0?, _):
      throw LineError(
        ":\(directive.name) takes a number of steps from 1, not '0'",
        column: directive.argumentColumn)
    case (2, let first?, let last?):
      self = .range(first, last)
    default:
      throw LineError(
        ":\(directive.name) takes K (the last K steps) or N..M (steps N to M), not "
          + "'\(TextEscaping.escaped(argument))'",
        column: directive.argumentColumn)
    }
  }

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

  /// The line numbers of a branch whose lines are numbered `first` (0 after a mode line, else
  /// 1) through `last`, or why there are none such; `first...first` for a branch without lines.
  func lines(last count: Int, first: Int = 1) throws(LineError) -> ClosedRange<Int> {
    switch self {
    case .all:
      return first...max(first, count)
    case .last(let k):
      return max(first, count - k + 1)...max(first, count)
    case .range(let from, let last):
      guard from <= last else {
        throw LineError("lines \(from)..\(last) run backwards (write \(last)..\(from))")
      }
      guard from >= first, last <= count else {
        throw LineError(
          SessionError.unknownLine(from < first ? from : last, count: count).description)
      }
      return from...last
    }
  }
}
