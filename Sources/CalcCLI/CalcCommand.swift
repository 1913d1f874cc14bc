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
      script line (FILE:LINE:COLUMN: message on stderr), 66 unreadable file.
      """,
    version: "calc \(version)"
  )

  // Unconditional: key text may start with '-' (`--keys -5=`).
  @Option(
    name: .long, parsing: .unconditional,
    help: ArgumentHelp("Apply KEYS and print the display.", valueName: "KEYS"))
  var keys: String?

  @Flag(name: .long, help: "Print one line per key: its button title and the display after it.")
  var trace = false

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Locale of the display, e.g. de_DE (default: LC_ALL, LC_NUMERIC or LANG).", valueName: "ID"))
  var locale: String?

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
    Invocation(keys: keys, trace: trace, locale: locale, files: files)
  }

  public func run() throws {
    let status = invocation.run()
    if status != 0 { throw ExitCode(status) }
  }
}

/// What calc was asked to do, however the arguments were parsed.
public struct Invocation: Hashable, Sendable {
  public var keys: String?
  public var trace = false
  public var locale: String?
  public var files: [String] = []

  public init(keys: String? = nil, trace: Bool = false, locale: String? = nil, files: [String] = [])
  {
    self.keys = keys
    self.trace = trace
    self.locale = locale
    self.files = files
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
    let format = DisplayFormat(localeIdentifier: identifier)
    let style = Style.forOutput(STDOUT_FILENO, environment: environment)
    var interpreter = LineInterpreter(format: format, trace: trace, style: style)
    let output = OutputBuffer(fd: STDOUT_FILENO)
    if let keys {
      return Self.runKeys(keys, interpreter: &interpreter, output: output, errors: errors)
    } else if files.isEmpty && isTerminal(STDIN_FILENO) {
      var repl = REPL(interpreter: interpreter, environment: environment)
      return repl.run()
    } else {
      signal(SIGPIPE, SIG_DFL)
      var runner = BatchRunner(interpreter: interpreter, output: output, errors: errors)
      return runner.run(paths: files.isEmpty ? ["-"] : files)
    }
  }

  /// `--keys`: one key line; its display, or its trace.
  private static func runKeys(
    _ keys: String, interpreter: inout LineInterpreter, output: OutputBuffer, errors: OutputBuffer
  ) -> Int32 {
    do throws(LineError) {
      var copy = keys
      let result: Result<Int, LineError> = copy.withUTF8 { bytes in
        do throws(LineError) {
          return .success(try interpreter.runKeys(bytes, output: &output.bytes))
        } catch {
          return .failure(error)
        }
      }
      // Text without keys (empty, or only a comment) still shows the display, like bc's 0.
      if try result.get() == 0 { interpreter.appendDisplay(to: &output.bytes) }
      output.flush()
      return interpreter.timeline.calculator.brain.isError
        ? ExitStatus.errorDisplayed : ExitStatus.success
    } catch {
      errors.write("calc: --keys: \(error.message)\n")
      errors.flush()
      return ExitStatus.dataError
    }
  }
}

extension CalcCommand {
  /// Runs calc with the process's arguments.
  ///
  /// The everyday invocations — `--keys KEYS`, with `--trace` and `--locale ID` — are recognised
  /// by ``quickParse(_:)``; everything else (help, files, errors, completion scripts) goes through
  /// ArgumentParser, whose reflection costs about 9 million instructions of start-up in a
  /// statically linked binary: more than everything else calc does for `--keys 12+3=`.
  public static func runMain() {
    guard let invocation = quickParse(Array(CommandLine.arguments.dropFirst())) else {
      main()
      return
    }
    Glibc.exit(invocation.run())
  }

  /// The command for `arguments` if they are only `--keys KEYS` (or `--keys=KEYS`), `--trace`
  /// and `--locale ID` (or `--locale=ID`, ID not starting with `-`), each at most once; `nil`
  /// for anything else, which ArgumentParser then parses. Where both parse, they agree (tested).
  public static func quickParse(_ arguments: [String]) -> Invocation? {
    var keys: String?
    var locale: String?
    var trace = false
    var index = 0
    func value(_ name: String, _ current: String?, dashed: Bool) -> String?? {
      let argument = arguments[index]
      guard current == nil else { return .none }
      if argument.hasPrefix(name + "=") {
        index += 1
        return .some(String(argument.dropFirst(name.count + 1)))
      }
      guard argument == name, index + 1 < arguments.count,
        dashed || !arguments[index + 1].hasPrefix("-")
      else { return .none }
      index += 2
      return .some(arguments[index - 1])
    }
    while index < arguments.count {
      let argument = arguments[index]
      if argument == "--trace" && !trace {
        trace = true
        index += 1
      } else if argument.hasPrefix("--keys") {
        guard case .some(let found) = value("--keys", keys, dashed: true) else { return nil }
        keys = found
      } else if argument.hasPrefix("--locale") {
        guard case .some(let found) = value("--locale", locale, dashed: false) else { return nil }
        locale = found
      } else {
        return nil
      }
    }
    guard let keys else { return nil }
    return Invocation(keys: keys, trace: trace, locale: locale)
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
