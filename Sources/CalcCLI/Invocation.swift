import CalcCore
import CalculatorEngine

#if canImport(Glibc)
  import Glibc
#endif

/// What calc was asked to do, however the arguments were parsed.
///
/// Its strings are argument text (``ArgumentText``): the key text, the FILEs and the locale keep
/// every byte the system passed, and are taken back as bytes where they are used, so that
/// `calc $'caf\xe9.calc'` reads that file and no other.
public struct Invocation: Hashable, Sendable {
  public var keys: String?
  /// A formula to apply in formula mode (`-e`, `--formula`: SPEC §12), as `--keys` applies keys.
  public var formula: String?
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

  /// The mode `name` names, in any case: `standard` (`std`), `scientific` (`sci`),
  /// `programmer` (`prog`), `formula` (`fx`) or `date`.
  public static func mode(named name: String) -> Key.Mode? {
    switch name.lowercased() {
    case "standard", "std": .standard
    case "scientific", "sci": .scientific
    case "programmer", "prog": .programmer
    case "formula", "fx": .formula
    case "date": .date
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

  /// How the messages of ``ResumedSession/latest(in:excluding:)`` start when there is no
  /// session to resume (no folder, no journal, every one still open), which `--resume` with keys
  /// or scripts takes as a fresh start.
  static let nothingToResume = "no earlier session to resume"

  /// Does it: `--keys`, the REPL on a terminal, or scripts. Returns the exit status; `--keys`
  /// exits the process with it instead, its session left to the exit.
  public func run(environment: Environment = .process) -> Int32 {
    run(environment: environment, streams: .process)
  }

  /// Does it with `streams` for standard input, output and error: the process's, or memory
  /// (``StandardStreams/memory(input:)``), where `--keys` and scripts run in process exactly as
  /// they do in their own (the REPL needs a terminal). Returns the exit status; with the
  /// process's streams, `--keys` exits the process with it instead, its session left to the exit.
  ///
  /// `directory`, when given, stands for the current directory: relative names of scripts and
  /// of `:save`, `:load` and `:tape csv` files are taken in it (tests run in process there).
  public func run(
    environment: Environment, streams: StandardStreams, directory: String? = nil
  ) -> Int32 {
    // `-e FORMULA` is `--mode formula --keys FORMULA`; after a resumed session, whatever its
    // mode, the formula's line starts with `fx` (SPEC §12).
    let keys = keys ?? formula.map { resume ? "fx " + $0 : $0 }
    let mode = formula == nil ? mode : .formula
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
    if resume && !isInteractive,
      let status = resumeQuietly(&interpreter, context: context, host: host, errors: errors)
    {
      return status
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
    // Each way of running in a function of its own: one frame held all three ways' runners and
    // interpreters (16 KB of stack, four pages a `--keys` start touched; Documentation/
    // Performance.md, "Start-up, session 20").
    if let keys {
      return runKeys(keys, interpreter: interpreter, streams: streams)
    } else if isInteractive {
      return runREPL(interpreter: interpreter, environment: environment)
    } else {
      return runScripts(
        interpreter: interpreter, startingIn: mode, streams: streams, directory: directory)
    }
  }

  /// `--resume` without a terminal: the latest session becomes `interpreter`'s, quietly, or
  /// with nothing to resume the keys or scripts start afresh. Returns the exit status when a
  /// journal cannot be read, else nil. A function of its own, so that `run`'s frame holds no
  /// second interpreter for starts that do not resume.
  @inline(never)
  private func resumeQuietly(
    _ interpreter: inout LineInterpreter, context: LineInterpreter.Context,
    host: LineInterpreter.Host, errors: OutputBuffer
  ) -> Int32? {
    // Without a terminal, the resumed session is where the keys or scripts start, quietly.
    do throws(LineError) {
      let resumed = try ResumedSession.latest(in: host.journalDirectory, excluding: nil)
      interpreter = LineInterpreter(context: context, host: host, session: resumed.session)
      if let skipped = resumed.skipped { errors.write("calc: --resume: \(skipped)\n") }
      if let damage = resumed.damage { errors.write("calc: --resume: \(damage)\n") }
      if let note = resumed.note, !quiet { errors.write("calc: --resume: note: \(note)\n") }
    } catch {
      // Nothing to resume is no error: the keys or scripts run on a fresh session (SPEC v5
      // §5); a journal that cannot be read is one.
      guard error.message.hasPrefix(Self.nothingToResume) else {
        errors.write("calc: --resume: \(error.message)\n")
        errors.flush()
        return ExitStatus.noInput
      }
      // Why, when it is more than an empty folder: `the only one is still open in process 12`.
      let reason = error.message.dropFirst(Self.nothingToResume.count)
      let why = reason.hasPrefix(": ") ? " (\(reason.dropFirst(2)))" : ""
      if !quiet { errors.write("calc: note: no session to resume\(why); starting afresh\n") }
      _ = interpreter.enterStartMode()
    }
    errors.flush()
    return nil
  }

  /// `--keys`: a one-line script of keys alone, its messages without a file's location. With
  /// the process's streams it exits the process with the status.
  @inline(never)
  private func runKeys(
    _ keys: String, interpreter: consuming LineInterpreter, streams: StandardStreams
  ) -> Int32 {
    var runner = LineRunner(
      interpreter: interpreter, output: streams.output, errors: streams.errors,
      source: .keys(option: formula == nil ? "--keys" : "-e"), isQuiet: quiet)
    let status: Int32
    if case .failed(let failure)? = runner.run(ArgumentText.bytes(of: keys), number: 1) {
      status = runner.fail(failure)
    } else {
      status = runner.finish()
    }
    // The process's run ends here, its runner left to the exit as a script's is below:
    // taking the session and the host apart runs code from pages a start would not otherwise
    // map in (Documentation/Performance.md, "Start-up, session 13").
    if streams.isProcess { Glibc.exit(status) }
    return status
  }

  /// The REPL, on a terminal.
  @inline(never)
  private func runREPL(
    interpreter: consuming LineInterpreter, environment: Environment
  ) -> Int32 {
    var repl = REPL(
      interpreter: interpreter, environment: environment, keepsJournal: journal,
      resumes: resume, isQuiet: quiet, showsPreview: live)
    return repl.run()
  }

  /// Scripts: the files named, or standard input.
  @inline(never)
  private func runScripts(
    interpreter: consuming LineInterpreter, startingIn mode: Key.Mode, streams: StandardStreams,
    directory: String?
  ) -> Int32 {
    var runner = BatchRunner(
      runner: LineRunner(
        interpreter: interpreter, output: streams.output, errors: streams.errors,
        source: .script(name: "<stdin>"), keepsGoing: keepGoing, isQuiet: quiet),
      standardInput: streams.input)
    runner.directory = WorkingDirectory(directory)
    runner.advisesHugePages =
      streams.isProcess && !resume && Invocation.historyTakesHugePages(in: mode)
    let names = files.map { FileName(ArgumentText.bytes(of: $0)) }
    let status = runner.run(names: names.isEmpty ? [FileName("-")] : names)
    // The process exits right after (``CalcCommand/runMain()``): its session, every step of
    // the scripts' history, is left to the exit rather than taken apart (freeing the
    // recorded steps cost about 514 instructions a formula line: Documentation/Performance.md,
    // "Formula lines after fx6").
    if streams.isProcess { Invocation.leftToExit = runner }
    return status
  }

  /// Whether a script that starts in `mode` has its history's room advised for huge pages
  /// (``Platform/adviseHugePagesForScripts()``): date mode's, whose line's step takes 88 bytes and
  /// whose pages' faults were a tenth of a date script's time. A script of keys gained nothing in
  /// its median, and its slowest run over its fastest rose from 1.38–1.45× to 1.67–1.86×
  /// (Documentation/Decisions.md). Each mode answers: a new one is asked.
  static func historyTakesHugePages(in mode: Key.Mode) -> Bool {
    switch mode {
    case .date: true
    case .standard, .scientific, .programmer, .formula: false
    }
  }

  /// The batch runner of the process's own run, kept until it exits: see
  /// ``run(environment:streams:directory:)``.
  nonisolated(unsafe) private static var leftToExit: BatchRunner?
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
