import ArgumentParser
import CArguments
import CalcCore
import CalculatorEngine

#if canImport(Glibc)
  import Glibc
#endif

/// The entry of the process: a fast path for everyday arguments (``quickParse(_:)``),
/// ArgumentParser for the rest (help, usage errors).
extension CalcCommand {
  /// Runs calc with the process's arguments.
  ///
  /// The everyday invocations — `--keys KEYS` (`-k KEYS`), FILEs, standard input or the REPL,
  /// with the options that change how they run — are recognised by ``quickParse(_:)``;
  /// everything else (help, `--version`, `--list-locales`, errors) goes through ArgumentParser,
  /// whose reflection costs many times what calc does for `--keys 12+3=` at start-up in a
  /// statically linked binary (Documentation/Performance.md#start-up).
  /// Completion scripts are calc's own (``CompletionScript``).
  ///
  /// The parsers see the arguments as argument text (``ArgumentText``), which keeps every byte
  /// the system passed: each value they find, whole argument or the part after `=`, is taken
  /// back as exactly the bytes it came from, whatever form of the option gave it.
  ///
  /// First of all, a closed standard descriptor gets `/dev/null`
  /// (``Platform/openClosedStandardDescriptors()``), before any file is opened, and the
  /// allocator is tuned for growing arrays (``Platform/tuneAllocator()``).
  public static func runMain() {
    Platform.openClosedStandardDescriptors()
    Platform.tuneAllocator()
    let given = processArguments()
    let arguments = separatingAttachedKeys(given)
    if let status = CompletionScript.run(arguments) { Glibc.exit(status) }
    guard let invocation = quickParse(arguments) else { Glibc.exit(runParsed(arguments)) }
    // The arguments are left to the exit, not taken apart before it: destroying an array of
    // strings runs the standard library's value witnesses for String and Character, code from
    // pages of its own that a start maps in (Documentation/Performance.md, "Start-up, session
    // 13").
    withExtendedLifetime((given, arguments)) { Glibc.exit(invocation.run()) }
  }

  /// Whether `text` starts with `prefix` (ASCII, no carriage return), as `hasPrefix(_:)`
  /// compares them, character by character, read from the bytes where they settle it.
  ///
  /// A byte that differs, or the end of `text`, settles it, as does an ASCII byte after the
  /// prefix: no character in the prefix has a canonical equivalent but itself, and no ASCII
  /// scalar joins the one before it except a line feed after a carriage return. A scalar after
  /// the prefix that is not ASCII (a combining mark, in `--\u{301}x`) may join its last
  /// character: then `hasPrefix(_:)` decides. Comparing characters runs the standard library's
  /// grapheme breaking, code from pages of its own that a start maps in
  /// (Documentation/Performance.md, "Start-up, session 13").
  ///
  /// - Complexity: O(*m*) in the length of `prefix`, when the byte after it is ASCII.
  package static func startsWith(_ text: Substring, ascii prefix: String) -> Bool {
    var bytes = text.utf8.makeIterator()
    for byte in prefix.utf8 {
      guard bytes.next() == byte else { return false }
    }
    guard let next = bytes.next() else { return true }
    return next < 0x80 || text.hasPrefix(prefix)
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
      if argument == "-k" || argument == "--keys" || argument == "--locale" || argument == "-e"
        || argument == "--formula"
      {
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
      if argument.hasPrefix("-e"), argument.count > 2, !argument.hasPrefix("-e=") {
        result += ["-e", String(argument.dropFirst(2))]
        continue
      }
      result.append(argument)
    }
    return result
  }

  /// The process's arguments after the program's name, as argument text: from the bytes the
  /// system passed (`CommandLine.arguments` has them decoded, with U+FFFD for bytes that are not
  /// UTF-8). They are read as CArguments kept them before `main` (`CommandLine.unsafeArgv`, the
  /// same vector, is a lazy global of the standard library, whose first use touched a page of
  /// its code for nothing else: Documentation/Performance.md).
  static func processArguments() -> [String] {
    let count = Int(calc_argc())
    guard count > 1, let vector = calc_argv() else { return [] }
    return (1..<count).map { index in
      guard let argument = vector[index] else { return "" }
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
      if startsWith(name, ascii: "--"), let equals = name.firstIndex(of: "=") {
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
      case "--formula" where invocation.formula == nil, "-e" where invocation.formula == nil:
        guard let formula = value(dashed: true) else { return nil }
        invocation.formula = formula
      case "--locale" where invocation.locale == nil:
        guard let locale = value(dashed: false) else { return nil }
        invocation.locale = locale
      case "--mode" where mode == nil:
        guard let named = value(dashed: false), let chosen = Invocation.mode(named: named)
        else { return nil }
        mode = chosen
      default:
        // A FILE: `-` (standard input) or a name that cannot be taken for an option.
        guard attached == nil, name == "-" || !(name.isEmpty || startsWith(name, ascii: "-")) else {
          return nil
        }
        invocation.files.append(String(name))
      }
    }
    invocation.mode = mode ?? .standard
    // `--keys` or `-e` with FILEs, and `-e` with `--keys`, are usage errors, which
    // ArgumentParser reports.
    let takesLine = invocation.keys != nil || invocation.formula != nil
    guard !(takesLine && !invocation.files.isEmpty),
      invocation.keys == nil || invocation.formula == nil
    else { return nil }
    return invocation
  }
}
