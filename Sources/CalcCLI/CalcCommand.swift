import ArgumentParser
import CalcCore
import CalculatorEngine

#if canImport(Glibc)
  import Glibc
#endif

/// The `calc` command line: `--keys`, scripts, or the REPL.
public struct CalcCommand: ParsableCommand {
  /// The version number (``Version/number``).
  public static let version = Version.number

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

      Example: calc -k '12+3=' prints 15; calc -e '5*-2' prints -10; printf '12+\\n3=\\n' | calc prints 12, then 15.

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

  // Unconditional, as for --keys: a formula may start with '-' (`-e -2^2`).
  @Option(
    name: [.customShort("e"), .customLong("formula")], parsing: .unconditionalSingleValue,
    help: ArgumentHelp(
      "Apply FORMULA in formula mode and print the result: -e '5*-2' prints -10.",
      valueName: "FORMULA"))
  var formula: [String] = []

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
      "Start in MODE: standard, scientific, programmer, formula or date (the key sci, prog, fx "
        + "or date on a line of its own).",
      valueName: "MODE"))
  var mode: String?

  @Argument(help: ArgumentHelp("Scripts to run; - is standard input.", valueName: "FILE"))
  var files: [String] = []

  public init() {}

  public func validate() throws {
    if keys != nil && !files.isEmpty {
      throw ValidationError("--keys cannot be combined with script files.")
    }
    if formula.count > 1 {
      throw ValidationError("-e takes one formula.")
    }
    if !formula.isEmpty && keys != nil {
      throw ValidationError("-e cannot be combined with --keys.")
    }
    if !formula.isEmpty && !files.isEmpty {
      throw ValidationError("-e cannot be combined with script files.")
    }
    if display && plain {
      throw ValidationError("--display and --plain cannot be combined.")
    }
    if let mode, Invocation.mode(named: mode) == nil {
      throw ValidationError(
        "--mode is standard, scientific, programmer, formula or date, not "
          + "'\(ArgumentText.shown(mode))'.")
    }
  }

  /// What the parsed arguments ask for.
  public var invocation: Invocation {
    var invocation = Invocation(
      keys: keys, trace: trace, plain: plain, display: display, locale: locale, files: files,
      resume: resume, journal: !noJournal, live: !noLive, keepGoing: keepGoing, quiet: quiet,
      mode: mode.flatMap(Invocation.mode(named:)) ?? .standard)
    invocation.formula = formula.first
    return invocation
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
