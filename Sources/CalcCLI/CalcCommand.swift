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
      With a terminal on standard input, calc starts an interactive session (type :help).
      Otherwise it runs standard input, or the FILEs, as scripts: each line of keys prints the
      display; lines starting with ':' are commands (:history, :goto N, :undo, ...).

      Keys: 0-9 . + - * / = % ~ (+/-) c (AC) e (CE) < (backspace); also − × ÷ ± C E.

      Exit status: 0 success, 1 the final display is an error, 64 usage error,
      65 a rejected script line (FILE:LINE:COLUMN: message on stderr), 66 unreadable file.
      """,
    version: "calc \(version)"
  )

  @Option(name: .long, help: ArgumentHelp("Apply KEYS and print the display.", valueName: "KEYS"))
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

  public func run() throws {
    let environment = Environment.current
    let identifier = LocaleSetting.identifier(option: locale, environment: environment)
    if locale != nil, !LocaleSetting.isKnown(identifier) {
      throw ValidationError("unknown locale '\(identifier)'.")
    }
    let format = DisplayFormat(localeIdentifier: identifier)
    let style = Style.forOutput(STDOUT_FILENO, environment: environment)
    var interpreter = LineInterpreter(format: format, trace: trace, style: style)
    let output = OutputBuffer(fd: STDOUT_FILENO)
    let errors = OutputBuffer(fd: STDERR_FILENO)
    let status: Int32
    if let keys {
      status = Self.runKeys(keys, interpreter: &interpreter, output: output, errors: errors)
    } else if files.isEmpty && isTerminal(STDIN_FILENO) {
      var repl = REPL(interpreter: interpreter, environment: environment)
      status = repl.run()
    } else {
      signal(SIGPIPE, SIG_DFL)
      var runner = BatchRunner(interpreter: interpreter, output: output, errors: errors)
      status = runner.run(paths: files.isEmpty ? ["-"] : files)
    }
    if status != 0 { throw ExitCode(status) }
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
      return interpreter.timeline.brain.isError ? ExitStatus.errorDisplayed : ExitStatus.success
    } catch {
      errors.write("calc: --keys: \(error.message)\n")
      errors.flush()
      return ExitStatus.dataError
    }
  }
}

/// The process environment, read without Foundation's `ProcessInfo` (which costs start-up time).
enum Environment {
  static var current: [String: String] {
    var result: [String: String] = [:]
    var pointer = environ
    while let entry = pointer.pointee {
      let text = String(cString: entry)
      if let equals = text.firstIndex(of: "=") {
        result[String(text[..<equals])] = String(text[text.index(after: equals)...])
      }
      pointer += 1
    }
    return result
  }
}
