import ArgumentParser
import CalculatorEngine

#if canImport(Glibc)
  import Glibc
#endif

/// The `calc` command line: `--keys`, scripts, or the REPL.
public struct CalcCommand: ParsableCommand {
  public static let version = "0.1.0"

  public static let configuration = CommandConfiguration(
    commandName: "calc",
    abstract: "A pocket calculator with time travel, for the terminal and for scripts.",
    discussion: """
      With a terminal on standard input, calc starts an interactive session (type :help). \
      Otherwise it runs standard input, or the FILEs, as scripts: each line of keys prints the \
      display, and lines starting with ':' are commands (:history, :goto N, :undo, ...).

      Keys: 0-9 . + - * / = % ~ (+/-) c (AC) ce (CE) < (backspace) @ (square root) q (square) \
      r (1/x) ms mr m+ m- mc (memory); also − × ÷ ± √ ² ac m−, in any case.

      Exit status: 0 success, 1 the final display is an error, 64 usage error, 65 a rejected \
      script line (FILE:LINE:COLUMN: message on stderr), 66 unreadable file, 74 output could \
      not be written.
      """,
    version: "calc \(version)"
  )

  // Unconditional: key text may start with '-' (`--keys -5=`).
  @Option(
    name: [.customShort("k"), .long], parsing: .unconditional,
    help: ArgumentHelp("Apply KEYS and print the display.", valueName: "KEYS"))
  var keys: String?

  @Flag(name: .long, help: "Print one line per key: its button title and the display after it.")
  var trace = false

  @Flag(
    name: .long,
    help: "Print plain numbers for scripts: no grouping, '.', up to 34 significant digits.")
  var plain = false

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

  @Argument(help: ArgumentHelp("Scripts to run; - is standard input.", valueName: "FILE"))
  var files: [String] = []

  public init() {}

  public func validate() throws {
    if keys != nil && !files.isEmpty {
      throw ValidationError("--keys cannot be combined with script files.")
    }
  }

  /// What the parsed arguments ask for.
  public var invocation: Invocation {
    Invocation(
      keys: keys, trace: trace, plain: plain, locale: locale, files: files, resume: resume,
      journal: !noJournal)
  }

  public func run() throws {
    let status = runReturningStatus()
    if status != 0 { throw ExitCode(status) }
  }

  /// Does what the parsed arguments ask for and returns the exit status.
  ///
  /// `arguments` are the bytes of the arguments that were parsed, as the system passed them:
  /// file names and key text are taken from them (``Invocation/takeBytes(from:)``); `nil` when
  /// the arguments did not come from the process (tests), and their UTF-8 is used instead.
  func runReturningStatus(arguments: [[UInt8]]? = nil) -> Int32 {
    guard listLocales else {
      var invocation = self.invocation
      if let arguments { invocation.takeBytes(from: arguments) }
      return invocation.run()
    }
    let output = OutputBuffer(fd: STDOUT_FILENO)
    for identifier in LocaleSetting.knownIdentifiers { output.write(identifier + "\n") }
    return output.exitStatus(ExitStatus.success, errors: OutputBuffer(fd: STDERR_FILENO))
  }
}

/// What calc was asked to do, however the arguments were parsed.
public struct Invocation: Hashable, Sendable {
  public var keys: String?
  public var trace = false
  /// Plain numbers for scripts (``DisplayFormat/plain``) instead of the locale's display.
  public var plain = false
  public var locale: String?
  public var files: [String] = []
  /// Start from the last REPL session (`--resume`).
  public var resume = false
  /// Whether a REPL keeps a journal (`--no-journal` turns it off).
  public var journal = true
  /// The bytes of ``keys`` as the system passed them, which need not be UTF-8; `nil`: its UTF-8.
  var keyBytes: [UInt8]?
  /// The names of ``files`` as the system passed them, byte for byte; `nil`: their UTF-8.
  var fileNames: [FileName]?

  public init(
    keys: String? = nil, trace: Bool = false, plain: Bool = false, locale: String? = nil,
    files: [String] = [], resume: Bool = false, journal: Bool = true
  ) {
    self.keys = keys
    self.trace = trace
    self.plain = plain
    self.locale = locale
    self.files = files
    self.resume = resume
    self.journal = journal
  }

  /// Does it: `--keys`, the REPL on a terminal, or scripts. Returns the exit status.
  public func run(environment: Environment = .process) -> Int32 {
    let identifier = LocaleSetting.identifier(option: locale, environment: environment)
    let errors = OutputBuffer(fd: STDERR_FILENO)
    if locale != nil, !LocaleSetting.isKnown(identifier) {
      errors.write(
        "calc: unknown locale '\(TextEscaping.escaped(identifier))' (e.g. en_US, de_DE)\n")
      errors.flush()
      return ExitStatus.usage
    }
    let format = plain ? DisplayFormat.plain : DisplayFormat(localeIdentifier: identifier)
    let style = Style.forOutput(STDOUT_FILENO, environment: environment)
    let output = OutputBuffer(fd: STDOUT_FILENO)
    let isInteractive = keys == nil && files.isEmpty && Platform.isTerminal(STDIN_FILENO)
    let context = LineInterpreter.Context(
      format: format, trace: trace, style: style, showsExpression: isInteractive,
      outputIsTerminal: Platform.isTerminal(STDOUT_FILENO))
    let host = LineInterpreter.Host.system(environment: environment)
    var interpreter = LineInterpreter(context: context, host: host)
    if resume && !isInteractive {
      // Without a terminal, the resumed session is where the keys or scripts start, quietly.
      do throws(LineError) {
        let resumed = try ResumedSession.latest(in: host.journalDirectory, excluding: nil)
        interpreter = LineInterpreter(context: context, host: host, session: resumed.session)
        if let damage = resumed.damage { errors.write("calc: --resume: \(damage)\n") }
      } catch {
        errors.write("calc: --resume: \(error.message)\n")
        errors.flush()
        return ExitStatus.noInput
      }
      errors.flush()
    }
    if !Platform.isTerminal(STDIN_FILENO) || !files.isEmpty || keys != nil {
      // A reader that goes away ends calc quietly, as it does other filters.
      signal(SIGPIPE, SIG_DFL)
    }
    // A file that grows past `ulimit -f` is a write error to report, not a reason to die.
    signal(SIGXFSZ, SIG_IGN)
    if let keys {
      return Self.runKeys(
        keyBytes ?? Array(keys.utf8), interpreter: &interpreter, output: output, errors: errors)
    } else if isInteractive {
      var repl = REPL(
        interpreter: interpreter, environment: environment, keepsJournal: journal,
        resumes: resume)
      return repl.run()
    } else {
      var runner = BatchRunner(interpreter: interpreter, output: output, errors: errors)
      let names = fileNames ?? files.map(FileName.init)
      return runner.run(names: names.isEmpty ? [FileName("-")] : names)
    }
  }

  /// `--keys`: one key line (its bytes, which need not be UTF-8); its display, or its trace.
  private static func runKeys(
    _ keys: [UInt8], interpreter: inout LineInterpreter, output: OutputBuffer,
    errors: OutputBuffer
  ) -> Int32 {
    do throws(KeyTextError) {
      var parsed: [CalculatorButtonItem] = []
      try KeyText.scan(keys) { parsed.append($0) }
      // Text without keys (empty, or only a comment) still shows the display, like bc's 0.
      if parsed.isEmpty {
        interpreter.appendDisplay(to: output)
      } else {
        interpreter.applyKeys(parsed, output: output)
      }
      let status =
        interpreter.session.state.brain.isError
        ? ExitStatus.errorDisplayed : ExitStatus.success
      return output.exitStatus(status, errors: errors)
    } catch {
      errors.write("calc: --keys: \(error.description)\n")
      errors.flush()
      return ExitStatus.dataError
    }
  }
}

extension Invocation {
  /// Takes the bytes of ``keys`` and of ``files`` from `arguments`, the arguments they were
  /// parsed from as the system passed them, which need not be UTF-8.
  ///
  /// The parsers see the arguments decoded (`String(decoding:as:)`: a byte that is not UTF-8
  /// becomes U+FFFD), so two different names can look the same to them. Each value is found
  /// again at its place (``places(in:)``) and taken from the bytes there if they decode to
  /// exactly the value parsed — compared as UTF-8, since equal strings may differ in their bytes
  /// (`é` and `e` + U+0301). A FILE not found at its place is taken from the next argument that
  /// decodes to it, else from its own UTF-8; key text not found there, from its UTF-8.
  mutating func takeBytes(from arguments: [[UInt8]]) {
    let places = Self.places(in: arguments)
    /// Whether `bytes` decode to `value`.
    func decode(_ bytes: some Collection<UInt8>, to value: String) -> Bool {
      String(decoding: bytes, as: UTF8.self).utf8.elementsEqual(value.utf8)
    }
    if let keys {
      let found = places.keys.map { arguments[$0.index][$0.offset...] }
      keyBytes = found.flatMap { decode($0, to: keys) ? Array($0) : nil } ?? Array(keys.utf8)
    }
    if places.files.count == files.count,
      zip(places.files, files).allSatisfy({ decode(arguments[$0], to: $1) })
    {
      fileNames = places.files.map { FileName(arguments[$0]) }
      return
    }
    var next = 0
    fileNames = files.map { file in
      guard let index = arguments[next...].firstIndex(where: { decode($0, to: file) }) else {
        return FileName(file)
      }
      next = index + 1
      return FileName(arguments[index])
    }
  }

  /// Where ``CalcCommand/quickParse(_:)`` and ArgumentParser find the key text (the argument,
  /// and where its value starts in it) and the FILEs, in a list of arguments that they accept.
  ///
  /// `--keys`, `-k` and `--locale` take the value after `=` in their own argument, or if there is
  /// none (or it is empty) the next argument; `-` and arguments that do not start with `-`, and
  /// every argument after the first `--`, are FILEs. Key text given more than once is taken from
  /// its last place, as ArgumentParser does.
  static func places(in arguments: [[UInt8]]) -> (
    keys: (index: Int, offset: Int)?, files: [Int]
  ) {
    let dash = UInt8(ascii: "-")
    var keys: (index: Int, offset: Int)?
    var files: [Int] = []
    var index = 0
    var isAfterTerminator = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      guard !isAfterTerminator, argument.count > 1, argument[0] == dash else {
        files.append(index - 1)
        continue
      }
      if argument.elementsEqual("--".utf8) {
        isAfterTerminator = true
        continue
      }
      let equals = argument.firstIndex(of: UInt8(ascii: "="))
      let name = argument[..<(equals ?? argument.endIndex)]
      // An empty value after `=` counts as none: the next argument is the value.
      let attached = equals.flatMap { $0 + 1 < argument.count ? $0 + 1 : nil }
      if name.elementsEqual("--keys".utf8) || name.elementsEqual("-k".utf8) {
        if let attached {
          keys = (index - 1, attached)
        } else if index < arguments.count {
          keys = (index, 0)
          index += 1
        }
      } else if name.elementsEqual("--locale".utf8), attached == nil {
        index += 1
      }
    }
    return (keys, files)
  }
}

extension CalcCommand {
  /// Runs calc with the process's arguments.
  ///
  /// The everyday invocations — `--keys KEYS` (`-k KEYS`), with `--trace`, `--plain` and
  /// `--locale ID` — are recognised by ``quickParse(_:)``; everything else (help, files, errors,
  /// `--list-locales`) goes through ArgumentParser, whose reflection costs about 9 million
  /// instructions of start-up in a statically linked binary: more than everything else calc
  /// does for `--keys 12+3=`. Completion scripts are calc's own (``CompletionScript``).
  ///
  /// The parsers see the arguments decoded as UTF-8 (a byte that is not UTF-8 becomes U+FFFD);
  /// file names and key text are then taken from the bytes the system passed, so that
  /// `calc $'caf\xe9.calc'` reads that file and no other.
  public static func runMain() {
    let bytes = processArgumentBytes()
    let arguments = bytes.map { String(decoding: $0, as: UTF8.self) }
    if let status = CompletionScript.run(arguments) { Glibc.exit(status) }
    guard var invocation = quickParse(arguments) else {
      Glibc.exit(runParsed(arguments, bytes: bytes))
    }
    invocation.takeBytes(from: bytes)
    Glibc.exit(invocation.run())
  }

  /// The process's arguments after the program's name, as the bytes the system passed.
  static func processArgumentBytes() -> [[UInt8]] {
    let count = Int(CommandLine.argc)
    guard count > 1 else { return [] }
    return (1..<count).map { index in
      guard let argument = CommandLine.unsafeArgv[index] else { return [] }
      return Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
    }
  }

  /// Parses `arguments` with ArgumentParser and runs them; returns the exit status.
  ///
  /// ArgumentParser's own messages (help, version, completion scripts, usage errors) are written
  /// here instead of by its `main()`, so that they get what calc's own output gets: an argument
  /// echoed in an error (`calc $'-\e]0;title\a'`) has its control and invisible characters
  /// escaped, and a failed write is reported with status 74.
  ///
  /// `bytes` are the arguments as the system passed them (see ``Invocation/takeBytes(from:)``);
  /// `nil` when `arguments` did not come from the process.
  static func runParsed(_ arguments: [String], bytes: [[UInt8]]? = nil) -> Int32 {
    let errors = OutputBuffer(fd: STDERR_FILENO)
    let message: String
    let status: Int32
    do {
      var command = try parseAsRoot(arguments)
      if let calc = command as? CalcCommand { return calc.runReturningStatus(arguments: bytes) }
      try command.run()  // help: throws its message, like the errors
      return ExitStatus.success
    } catch {
      message = fullMessage(for: error)
      status = exitCode(for: error).rawValue
    }
    let text = TextEscaping.escapedKeepingNewlines(message) + (message.isEmpty ? "" : "\n")
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

  /// The command for `arguments` if they are only `--keys KEYS`, `-k KEYS` or `--keys=KEYS`,
  /// `--trace`, `--plain` and `--locale ID` or `--locale=ID`, each at most once; `nil` for
  /// anything else, which ArgumentParser then parses.
  ///
  /// A value after `=` must not be empty, and an `ID` given as an argument of its own must not
  /// start with `-` (ArgumentParser calls both a missing value); `KEYS` may start with `-` but
  /// must not be `--`, which ends the options for ArgumentParser.
  /// Where this answers, ArgumentParser gives the same invocation: `ArgumentAgreementTests` runs
  /// a table of argument lists, and seeded random ones, through both.
  public static func quickParse(_ arguments: [String]) -> Invocation? {
    var invocation = Invocation()
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
      switch name {
      case "--trace" where attached == nil && !invocation.trace:
        invocation.trace = true
      case "--plain" where attached == nil && !invocation.plain:
        invocation.plain = true
      case "--keys" where invocation.keys == nil, "-k" where invocation.keys == nil:
        guard let keys = value(dashed: true) else { return nil }
        invocation.keys = keys
      case "--locale" where invocation.locale == nil:
        guard let locale = value(dashed: false) else { return nil }
        invocation.locale = locale
      default:
        return nil
      }
    }
    return invocation.keys == nil ? nil : invocation
  }
}

/// Environment variables, looked up one at a time.
///
/// The process's are read with `getenv`: building a dictionary of the whole environment costs
/// a measurable part of start-up in a statically linked binary.
public struct Environment: Sendable {
  private let lookup: @Sendable (String) -> String?

  /// The process's environment.
  public static let process = Environment { name in getenv(name).map { String(cString: $0) } }

  /// An environment holding just `values`, for tests.
  public init(_ values: [String: String]) {
    lookup = { values[$0] }
  }

  private init(lookup: @escaping @Sendable (String) -> String?) {
    self.lookup = lookup
  }

  /// The value of the variable `name`, or `nil` when it is unset.
  public subscript(name: String) -> String? { lookup(name) }
}
