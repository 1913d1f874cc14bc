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
    /// `[L]`: a line number, the display when left out.
    case optionalLine
    /// `[csv|csv!] [K|N..M] [FILE]`: the tape's rows, as a table or as CSV, to the output or to
    /// a file (`csv!`: replacing one this session did not write).
    case tape
    /// `FILE`: a file name, passed to the system byte for byte (`~` is expanded by the
    /// interpreter, from its host's home).
    case file
    /// `[TOPIC]`: what `:help` says more about (a command, `keys`, `slider`, `ledger`).
    case topic

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
      case .optionalLine: "[L]"
      case .tape: "[\(words.joined(separator: "|"))] [K|N..M] [FILE]"
      case .file: "FILE"
      case .topic: "[TOPIC]"
      }
    }

    /// The words an argument of this kind may start with, each a form of the command of its
    /// own (`:tape csv`, `:tape csv!`): shown by ``usage``, completed by Tab, listed in the man
    /// page.
    public var words: [String] {
      switch self {
      case .tape: ["csv", "csv!"]
      case .none, .count, .step, .range, .branch, .line, .lineKeys, .lineText, .text,
        .alternatives, .optionalStep, .optionalLine, .file, .topic:
        []
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
  /// What more there is to know, for `:help COMMAND` (``details(of:)``); empty when the
  /// summary says it all.
  public let details: String
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
      CommandSpec(
        name, .tape,
        "calculations and memory keys, like a paper tape (csv: CSV; csv!: replace FILE)"
      ) {
        directive throws(LineError) in .tape(try TapeRequest(directive))
      }
    case .lines:
      CommandSpec(name, .range, "list this branch's input lines: all, the last K, or N to M") {
        directive throws(LineError) in .lines(try HistorySteps(directive))
      }
    case .why:
      CommandSpec(name, .line, "line L's keys, a formula's compiled keys, with the display") {
        directive throws(LineError) in .why(try directive.lineArgument())
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
    case .exact:
      CommandSpec(name, .optionalLine, "the whole value of the display or of line L's result") {
        directive throws(LineError) in
        guard !directive.argument.isEmpty else { return .exact(line: nil) }
        guard let line = ScriptLine.Directive.wholeNumber(Substring(directive.argument)) else {
          throw LineError(
            ":exact takes a line number: :exact 3 (see :lines)", column: directive.argumentColumn)
        }
        return .exact(line: line)
      }
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
    case .help:
      CommandSpec(name, .topic, "keys and commands (also help); :help TOPIC says more") {
        directive in .help(topic: directive.argument.isEmpty ? nil : directive.argument)
      }
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
    self.details = Self.details(of: name)
    self.make = make
  }

  /// What `:help COMMAND` says beyond the summary: one case per name.
  private static func details(of name: CommandName) -> String {
    switch name {
    case .history:
      "each step's key, expression line and display; ▶ marks the position, (kept) the future"
    case .tape:
      "rows of completed calculations with their step: :goto STEP returns to one; "
        + ":tape csv FILE writes step,expression,result,note"
    case .lines:
      "each line's number, first step, keys and display; $N and :edit use these numbers"
    case .why:
      "each key with the expression line and the display after it: a formula's work on the "
        + "Scientific keypad (e.g. :why 3)"
    case .edit:
      "e.g. :edit 2 1300+350+89=; the report lists the results that changed and the lines "
        + "that now show an error; :edit L alone (at the prompt) puts line L on the input line"
    case .insert: "e.g. :insert 2 ms; later $N references are renumbered"
    case .delete:
      "a line that a later $N refers to cannot be deleted; deleting the last line keeps its "
        + "keys as the future, like :undo"
    case .note: "e.g. :note 1 rent, March; a note changes no result and makes no branch"
    case .find:
      "a number may be grouped (1,639) or in the display's form; in Programmer mode also "
        + "0xFF, 0o377, 0b1111"
    case .vary:
      "e.g. :vary 1 1300+350+89= | 1400+350+89=: a row per alternative with the results after "
        + "each line that differs; :branch N adopts one"
    case .goto: "e.g. :goto 0 (the start), :goto -1 (one key back); Alt-← Alt-→ do the same"
    case .undo, .redo:
      "lines are the unit of change; after :reset, :load or :resume, :undo restores the "
        + "session before it"
    case .branches, .branch:
      "typing before the end of a branch starts a new one; nothing is discarded"
    case .keys: "the output, run as a script, rebuilds the same display"
    case .exact:
      "a fraction in lowest terms and its decimal, the repeating part in brackets: 1/6 = 0.1(6); "
        + "a value that a step rounded: ≈ and its 34 digits, and the step (√ at step 4); an "
        + "integer as itself; a period past 1,000 digits is cut; Programmer mode: the four radixes"
    case .copy: "through tmux or screen when calc runs inside one (OSC 52)"
    case .save, .saveReplacing, .load:
      "a session file is a calc script: every branch, then the current branch and position"
    case .resume: "also calc --resume; the last 20 sessions are kept"
    case .reset, .pad, .quit: ""
    case .help:
      "topics: keys, slider, ledger, or a command (:help edit)"
    }
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
  /// `:why L` (SPEC §12): line L's keys, a formula's compiled keys, each with the expression
  /// line and the display after it.
  case why(Int)
  /// `:find TEXT` (SPEC §11).
  case find(String)
  case tape(TapeRequest)
  case branches
  case keys
  /// `:exact [L]` (SPEC §6): the display's value, or line L's result.
  case exact(line: Int?)
  /// `:copy [N]`: the display at step N, or at the position.
  case copy(step: Int?)
  /// `replacing`: `:save!`, which replaces a file that this REPL neither saved nor loaded.
  case save(path: FileName, replacing: Bool)
  case load(path: FileName)
  case resume
  case pad
  /// `:help [TOPIC]`.
  case help(topic: String?)
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
