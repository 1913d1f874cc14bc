import ArgumentParser
import CalcCore
import CalculatorEngine

#if canImport(Glibc)
  import Glibc
#endif

/// The `calc` command line: `--keys`, scripts, or the REPL.
public struct CalcCommand: ParsableCommand {
  public static let version = "0.1.0"

  /// What `--version` says after the version: calc's licence and those of what the binary
  /// links (README.md, "Licence"; the text is LICENSE).
  public static let licence = """
    License GPL-3.0-or-later: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
    This is free software: you are free to change and redistribute it.
    There is NO WARRANTY, to the extent permitted by law.
    The binary links GNU readline (GPL-3.0-or-later) and swift-argument-parser (Apache-2.0).
    """

  public static let configuration = CommandConfiguration(
    commandName: "calc",
    abstract: "A pocket calculator with time travel, for the terminal and for scripts.",
    discussion: """
      With a terminal on standard input, calc starts an interactive session (type :help). \
      Otherwise it runs standard input, or the FILEs, as scripts: each line of keys prints the \
      display, and lines starting with ':' are commands (:history, :goto N, :undo, ...).

      Example: calc -k '12+3=' prints 15; printf '12+\\n3=\\n' | calc prints 12, then 15.

      Keys: 0-9 . + - * / = % ~ (+/-) c (AC) ce (CE) < (backspace) @ (square root) q (square) \
      r (1/x) ms mr m+ m- mc (memory); also − × ÷ ± √ ² ac m−, in any case.

      Exit status: 0 success, 1 a key line showed an error (at its end, or on the way: \
      50/0*100=), 64 usage error, 65 a rejected script line (FILE:LINE:COLUMN: message on \
      stderr), 66 unreadable file, 74 output could not be written; when several apply, the \
      first of 74, 66, 65, 1. The REPL exits 0 unless output failed. Notes (calc: note: ...) \
      change no status; -q silences them.
      """,
    version: "calc \(version)\n\(licence)"
  )

  // Unconditional: key text may start with '-' (`--keys -5=`).
  @Option(
    name: [.customShort("k"), .long], parsing: .unconditional,
    help: ArgumentHelp("Apply KEYS and print the display.", valueName: "KEYS"))
  var keys: String?

  @Flag(
    name: .long,
    help: "Print one line per key: its button title, the display after it and the expression line.")
  var trace = false

  @Flag(
    name: .long,
    help: "Print plain numbers for scripts: no grouping, '.', up to 34 significant digits.")
  var plain = false

  @Flag(
    name: .long,
    help:
      "Print the display a terminal shows (grouped) even when output is not a terminal.")
  var display = false

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Locale of the display, e.g. de_DE (default: LC_ALL, LC_NUMERIC or LANG).", valueName: "ID"))
  var locale: String?

  @Flag(name: .long, help: "List the locale identifiers that --locale accepts, and exit.")
  var listLocales = false

  @Flag(
    name: .long,
    help: "Start from the last interactive session (its journal); also before --keys or FILEs.")
  var resume = false

  @Flag(name: .long, help: "Keep no journal of this interactive session.")
  var noJournal = false

  @Flag(
    name: .long,
    help: "At the terminal, show no live display of what Enter would give while you type.")
  var noLive = false

  @Flag(
    name: .long,
    help: "In scripts, report a rejected line and go on; a rejected key line prints the display.")
  var keepGoing = false

  @Flag(name: [.short, .long], help: "Write no notes (about keys probably not meant).")
  var quiet = false

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Start in MODE: standard, scientific or programmer (the key sci or prog on a line of its own).",
      valueName: "MODE"))
  var mode: String?

  @Argument(help: ArgumentHelp("Scripts to run; - is standard input.", valueName: "FILE"))
  var files: [String] = []

  public init() {}

  public func validate() throws {
    if keys != nil && !files.isEmpty {
      throw ValidationError("--keys cannot be combined with script files.")
    }
    if display && plain {
      throw ValidationError("--display and --plain cannot be combined.")
    }
    if let mode, Invocation.mode(named: mode) == nil {
      throw ValidationError(
        "--mode is standard, scientific or programmer, not '\(ArgumentText.shown(mode))'.")
    }
  }

  /// What the parsed arguments ask for.
  public var invocation: Invocation {
    Invocation(
      keys: keys, trace: trace, plain: plain, display: display, locale: locale, files: files,
      resume: resume, journal: !noJournal, live: !noLive, keepGoing: keepGoing, quiet: quiet,
      mode: mode.flatMap(Invocation.mode(named:)) ?? .standard)
  }

  public func run() throws {
    let status = runReturningStatus()
    if status != 0 { throw ExitCode(status) }
  }

  /// Does what the parsed arguments ask for and returns the exit status.
  func runReturningStatus() -> Int32 {
    guard listLocales else { return invocation.run() }
    let output = OutputBuffer(fd: STDOUT_FILENO)
    for identifier in LocaleSetting.knownIdentifiers { output.write(identifier + "\n") }
    return output.exitStatus(ExitStatus.success, errors: OutputBuffer(fd: STDERR_FILENO))
  }
}

/// What calc was asked to do, however the arguments were parsed.
///
/// Its strings are argument text (``ArgumentText``): the key text, the FILEs and the locale keep
/// every byte the system passed, and are taken back as bytes where they are used, so that
/// `calc $'caf\xe9.calc'` reads that file and no other.
public struct Invocation: Hashable, Sendable {
  public var keys: String?
  public var trace = false
  /// Plain numbers for scripts (``DisplayFormat/plain``) instead of the locale's display.
  public var plain = false
  /// The terminal's display (grouped) wherever the output goes (`--display`); without it, an
  /// output stream that is not a terminal gets numbers without grouping (SPEC §3).
  public var display = false
  public var locale: String?
  public var files: [String] = []
  /// Start from the last REPL session (`--resume`).
  public var resume = false
  /// Whether a REPL keeps a journal (`--no-journal` turns it off).
  public var journal = true
  /// Whether the REPL shows the live display while a line is typed (`--no-live` turns it off).
  public var live = true
  /// Whether a script goes on after a rejected line (`--keep-going`).
  public var keepGoing = false
  /// Whether notes are silenced (`-q`, `--quiet`).
  public var quiet = false
  /// The mode to start in (`--mode`).
  public var mode = Key.Mode.standard

  /// The mode `name` names, in any case: `standard` (`std`), `scientific` (`sci`) or
  /// `programmer` (`prog`).
  public static func mode(named name: String) -> Key.Mode? {
    switch name.lowercased() {
    case "standard", "std": .standard
    case "scientific", "sci": .scientific
    case "programmer", "prog": .programmer
    default: nil
    }
  }

  public init(
    keys: String? = nil, trace: Bool = false, plain: Bool = false, display: Bool = false,
    locale: String? = nil, files: [String] = [], resume: Bool = false, journal: Bool = true,
    live: Bool = true, keepGoing: Bool = false, quiet: Bool = false,
    mode: Key.Mode = .standard
  ) {
    self.live = live
    self.mode = mode
    self.keys = keys
    self.trace = trace
    self.plain = plain
    self.display = display
    self.locale = locale
    self.files = files
    self.resume = resume
    self.journal = journal
    self.keepGoing = keepGoing
    self.quiet = quiet
  }

  /// Does it: `--keys`, the REPL on a terminal, or scripts. Returns the exit status.
  public func run(environment: Environment = .process) -> Int32 {
    run(environment: environment, streams: .process)
  }

  /// Does it with `streams` for standard input, output and error: the process's, or memory
  /// (``StandardStreams/memory(input:)``), where `--keys` and scripts run in process exactly as
  /// they do in their own (the REPL needs a terminal). Returns the exit status.
  ///
  /// `directory`, when given, stands for the current directory: relative names of scripts and
  /// of `:save`, `:load` and `:tape csv` files are taken in it (tests run in process there).
  public func run(
    environment: Environment, streams: StandardStreams, directory: String? = nil
  ) -> Int32 {
    let identifier = LocaleSetting.identifier(option: locale, environment: environment)
    let errors = streams.errors
    if locale != nil, !LocaleSetting.isKnown(identifier) {
      errors.write(
        "calc: unknown locale '\(ArgumentText.shown(locale ?? identifier))' (e.g. en_US, de_DE)\n")
      errors.flush()
      return ExitStatus.usage
    }
    // Grouping is for a person: each stream is grouped only when it is a terminal (SPEC §3).
    let outputIsTerminal = streams.outputIsTerminal
    let localeFormat = DisplayFormat(localeIdentifier: identifier)
    func format(terminal: Bool) -> DisplayFormat {
      plain ? .plain : terminal || display ? localeFormat : localeFormat.ungrouped
    }
    let style =
      streams.isProcess ? Style.forOutput(STDOUT_FILENO, environment: environment) : .plain
    let output = streams.output
    let isInteractive = keys == nil && files.isEmpty && streams.inputIsTerminal
    var context = LineInterpreter.Context(
      format: format(terminal: outputIsTerminal), trace: trace, style: style,
      showsExpression: isInteractive && outputIsTerminal, outputIsTerminal: outputIsTerminal,
      isInteractive: isInteractive)
    context.noteFormat = format(terminal: streams.errorsAreTerminal)
    context.startMode = mode
    var host = LineInterpreter.Host.system(environment: environment, directory: directory)
    // Ctrl-C is the process's: a run in memory is never interrupted.
    if !streams.isProcess { host.isInterrupted = { false } }
    var interpreter = LineInterpreter(context: context, host: host)
    if resume && !isInteractive {
      // Without a terminal, the resumed session is where the keys or scripts start, quietly.
      do throws(LineError) {
        let resumed = try ResumedSession.latest(in: host.journalDirectory, excluding: nil)
        interpreter = LineInterpreter(context: context, host: host, session: resumed.session)
        if let stillOpen = resumed.stillOpen { errors.write("calc: --resume: \(stillOpen)\n") }
        if let damage = resumed.damage { errors.write("calc: --resume: \(damage)\n") }
        if let note = resumed.note, !quiet { errors.write("calc: --resume: note: \(note)\n") }
      } catch {
        errors.write("calc: --resume: \(error.message)\n")
        errors.flush()
        return ExitStatus.noInput
      }
      errors.flush()
    }
    if streams.isProcess {
      if !streams.inputIsTerminal || !files.isEmpty || keys != nil {
        // A reader that goes away ends calc quietly, as it does other filters.
        signal(SIGPIPE, SIG_DFL)
      }
      // A file that grows past `ulimit -f` is a write error to report, not a reason to die.
      signal(SIGXFSZ, SIG_IGN)
    }
    // A resumed session keeps its own mode.
    if !isInteractive && !resume { _ = interpreter.enterStartMode() }
    if let keys {
      // `--keys`: a one-line script of keys alone, its messages without a file's location.
      var runner = LineRunner(
        interpreter: interpreter, output: output, errors: errors, source: .keys(option: "--keys"),
        isQuiet: quiet)
      if case .failed(let status)? = runner.run(ArgumentText.bytes(of: keys), number: 1) {
        return runner.fail(status)
      }
      return runner.finish()
    } else if isInteractive {
      var repl = REPL(
        interpreter: interpreter, environment: environment, keepsJournal: journal,
        resumes: resume, isQuiet: quiet, showsPreview: live)
      return repl.run()
    } else {
      var runner = BatchRunner(
        runner: LineRunner(
          interpreter: interpreter, output: output, errors: errors,
          source: .script(name: "<stdin>"), keepsGoing: keepGoing, isQuiet: quiet),
        standardInput: streams.input)
      runner.directory = WorkingDirectory(directory)
      let names = files.map { FileName(ArgumentText.bytes(of: $0)) }
      return runner.run(names: names.isEmpty ? [FileName("-")] : names)
    }
  }
}

/// The standard streams of a run: the process's own, or memory, where tests and embedders run
/// `--keys` and scripts in process.
public struct StandardStreams {
  /// What standard input (a script named `-`) reads.
  var input: BatchRunner.ScriptInput
  /// Standard output.
  public let output: OutputBuffer
  /// Standard error.
  public let errors: OutputBuffer
  /// Whether standard input is a terminal (the REPL runs then).
  public var inputIsTerminal = false
  /// Whether standard output is a terminal: numbers grouped, `:copy`'s sequence.
  public var outputIsTerminal = false
  /// Whether standard error is a terminal: notes' numbers grouped.
  public var errorsAreTerminal = false
  /// Whether these are the process's: its signal dispositions are set, colours follow the
  /// terminal and Ctrl-C interrupts.
  public let isProcess: Bool

  /// The process's standard streams.
  public static var process: StandardStreams {
    var streams = StandardStreams(
      input: .descriptor(STDIN_FILENO), output: OutputBuffer(fd: STDOUT_FILENO),
      errors: OutputBuffer(fd: STDERR_FILENO), isProcess: true)
    streams.inputIsTerminal = Platform.isTerminal(STDIN_FILENO)
    streams.outputIsTerminal = Platform.isTerminal(STDOUT_FILENO)
    streams.errorsAreTerminal = Platform.isTerminal(STDERR_FILENO)
    return streams
  }

  /// Streams in memory: standard input reads `input`; what is written is kept in ``output``
  /// and ``errors`` (``OutputBuffer/text``); none is a terminal.
  public static func memory(input: [UInt8] = []) -> StandardStreams {
    StandardStreams(
      input: .bytes(input), output: OutputBuffer(), errors: OutputBuffer(), isProcess: false)
  }
}

extension CalcCommand {
  /// Runs calc with the process's arguments.
  ///
  /// The everyday invocations — `--keys KEYS` (`-k KEYS`), FILEs, standard input or the REPL,
  /// with the options that change how they run — are recognised by ``quickParse(_:)``;
  /// everything else (help, `--version`, `--list-locales`, errors) goes through ArgumentParser,
  /// whose reflection costs about 10 million instructions of start-up in a statically linked
  /// binary: more than twenty times what calc does for `--keys 12+3=`
  /// (Documentation/Performance.md).
  /// Completion scripts are calc's own (``CompletionScript``).
  ///
  /// The parsers see the arguments as argument text (``ArgumentText``), which keeps every byte
  /// the system passed: each value they find, whole argument or the part after `=`, is taken
  /// back as exactly the bytes it came from, whatever form of the option gave it.
  public static func runMain() {
    let arguments = separatingAttachedKeys(processArguments())
    if let status = CompletionScript.run(arguments) { Glibc.exit(status) }
    guard let invocation = quickParse(arguments) else { Glibc.exit(runParsed(arguments)) }
    Glibc.exit(invocation.run())
  }

  /// `arguments` with key text attached to `-k` given as an argument of its own: `-k12+3=` is
  /// `-k 12+3=`, as with other short options of Unix tools (SPEC §5). `-k=KEYS` stays as it is,
  /// and so does everything after `--` and the value of an option that takes one.
  static func separatingAttachedKeys(_ arguments: [String]) -> [String] {
    var result: [String] = []
    result.reserveCapacity(arguments.count + 1)
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if argument == "--" {
        result += arguments[(index - 1)...]
        break
      }
      if argument == "-k" || argument == "--keys" || argument == "--locale" {
        // The next argument is this option's value, whatever it looks like.
        result.append(argument)
        if index < arguments.count {
          result.append(arguments[index])
          index += 1
        }
        continue
      }
      if argument.hasPrefix("-k"), argument.count > 2, !argument.hasPrefix("-k=") {
        result += ["-k", String(argument.dropFirst(2))]
        continue
      }
      result.append(argument)
    }
    return result
  }

  /// The process's arguments after the program's name, as argument text: from the bytes the
  /// system passed (`CommandLine.arguments` has them decoded, with U+FFFD for bytes that are not
  /// UTF-8).
  static func processArguments() -> [String] {
    let count = Int(CommandLine.argc)
    guard count > 1 else { return [] }
    return (1..<count).map { index in
      guard let argument = CommandLine.unsafeArgv[index] else { return "" }
      return ArgumentText.string(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
    }
  }

  /// Parses `arguments` with ArgumentParser and runs them; returns the exit status.
  ///
  /// ArgumentParser's own messages (help, version, completion scripts, usage errors) are written
  /// here instead of by its `main()`, so that they get what calc's own output gets: an argument
  /// echoed in an error (`calc $'-\e]0;title\a'`) has its control and invisible characters
  /// escaped and its bytes that are not UTF-8 shown as `\x{FF}` (`arguments` are argument text,
  /// ``ArgumentText``), and a failed write is reported with status 74.
  static func runParsed(_ arguments: [String]) -> Int32 {
    let errors = OutputBuffer(fd: STDERR_FILENO)
    if repeatsKeys(arguments) {
      errors.write("calc: --keys (-k) may be given once; put all the keys in one: -k '12+3='\n")
      errors.flush()
      return ExitStatus.usage
    }
    let message: String
    let status: Int32
    do {
      var command = try parseAsRoot(arguments)
      if let calc = command as? CalcCommand { return calc.runReturningStatus() }
      try command.run()  // help: throws its message, like the errors
      return ExitStatus.success
    } catch {
      message = fullMessage(for: error)
      status = exitCode(for: error).rawValue
    }
    var shown = ArgumentText.shown(message, keepingNewlines: true)
    // Every message starts with `calc: ` (SPEC §5), ArgumentParser's `Error: ` too.
    if shown.hasPrefix("Error: ") { shown = "calc: " + shown.dropFirst("Error: ".count) }
    let text = shown + (message.isEmpty ? "" : "\n")
    guard status == ExitStatus.success else {
      errors.write(text)
      errors.flush()
      return status
    }
    signal(SIGPIPE, SIG_DFL)
    let output = OutputBuffer(fd: STDOUT_FILENO)
    output.write(text)
    return output.exitStatus(status, errors: errors)
  }

  /// Whether `--keys` (`-k`, `--keys=KEYS`) is given more than once in `arguments` (after
  /// ``separatingAttachedKeys(_:)``), before any `--`: a usage error (SPEC §5), where
  /// ArgumentParser would keep the last silently. The value of `-k`, `--keys` and `--locale` is
  /// passed over, whatever it looks like.
  ///
  /// - Complexity: O(n) in the number of arguments.
  static func repeatsKeys(_ arguments: [String]) -> Bool {
    var count = 0
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if argument == "--" { break }
      if argument == "-k" || argument == "--keys" {
        count += 1
        index += 1
      } else if argument.hasPrefix("--keys=") || argument.hasPrefix("-k=") {
        count += 1
      } else if argument == "--locale" {
        index += 1
      }
    }
    return count > 1
  }

  /// The command for `arguments` if they are only options given at most once — `--keys KEYS`
  /// (`-k KEYS`, `--keys=KEYS`), `--locale ID`, `--mode MODE`, `--trace`, `--plain` or
  /// `--display`, `--resume`, `--no-journal`, `--no-live`, `--keep-going`, `--quiet` (`-q`) —
  /// and FILEs, not both KEYS and FILEs; `nil` for anything else (help, `--version`,
  /// `--list-locales`, `--`, errors), which ArgumentParser then parses.
  ///
  /// A value after `=` must not be empty, and an `ID` or `MODE` given as an argument of its own
  /// must not start with `-` (ArgumentParser calls both a missing value); `KEYS` may start with
  /// `-` but must not be `--`, which ends the options for ArgumentParser. A FILE is `-` or a
  /// non-empty name that does not start with `-`.
  /// Where this answers, ArgumentParser gives the same invocation: `ArgumentAgreementTests` runs
  /// a table of argument lists, and seeded random ones, through both.
  public static func quickParse(_ arguments: [String]) -> Invocation? {
    var invocation = Invocation()
    var mode: Key.Mode?
    var index = 0
    while index < arguments.count {
      var name = arguments[index][...]
      var attached: Substring?
      if name.hasPrefix("--"), let equals = name.firstIndex(of: "=") {
        attached = name[name.index(after: equals)...]
        name = name[..<equals]
      }
      index += 1
      /// The option's value: after `=`, or the next argument (`dashed`: even one like `-5=`).
      func value(dashed: Bool) -> String? {
        if let attached { return attached.isEmpty ? nil : String(attached) }
        guard index < arguments.count, arguments[index] != "--",
          dashed || !arguments[index].hasPrefix("-")
        else { return nil }
        index += 1
        return arguments[index - 1]
      }
      /// Sets a flag given once and without `=`; `false` for anything else.
      func set(_ flag: inout Bool, to value: Bool = true) -> Bool {
        guard attached == nil, flag != value else { return false }
        flag = value
        return true
      }
      switch name {
      case "--trace": guard set(&invocation.trace) else { return nil }
      case "--plain": guard !invocation.display, set(&invocation.plain) else { return nil }
      case "--display": guard !invocation.plain, set(&invocation.display) else { return nil }
      case "--resume": guard set(&invocation.resume) else { return nil }
      case "--no-journal": guard set(&invocation.journal, to: false) else { return nil }
      case "--no-live": guard set(&invocation.live, to: false) else { return nil }
      case "--keep-going": guard set(&invocation.keepGoing) else { return nil }
      case "--quiet", "-q": guard set(&invocation.quiet) else { return nil }
      case "--keys" where invocation.keys == nil, "-k" where invocation.keys == nil:
        guard let keys = value(dashed: true) else { return nil }
        invocation.keys = keys
      case "--locale" where invocation.locale == nil:
        guard let locale = value(dashed: false) else { return nil }
        invocation.locale = locale
      case "--mode" where mode == nil:
        guard let named = value(dashed: false), let chosen = Invocation.mode(named: named)
        else { return nil }
        mode = chosen
      default:
        // A FILE: `-` (standard input) or a name that cannot be taken for an option.
        guard attached == nil, name == "-" || !(name.isEmpty || name.hasPrefix("-")) else {
          return nil
        }
        invocation.files.append(String(name))
      }
    }
    invocation.mode = mode ?? .standard
    // `--keys` with FILEs is a usage error, which ArgumentParser reports.
    return invocation.keys != nil && !invocation.files.isEmpty ? nil : invocation
  }
}
