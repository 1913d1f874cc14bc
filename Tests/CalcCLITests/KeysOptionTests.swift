import CalcCLI
import Foundation
import Testing

/// `calc --keys KEYS`, `--trace`, `--locale`, `--help`, `--version` and usage errors (SPEC §1, §3,
/// §5): in process (``InProcess``), and through the built binary for what ArgumentParser answers.
@Suite struct KeysOptionTests {
  /// Runs calc in process (``InProcess``) with `arguments` and no locale variables unless
  /// `environment` sets them.
  private func calc(
    _ arguments: String..., environment: [String: String?] = [:],
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> CalcRun {
    try InProcess.run(
      arguments, environment: posixLocale.merging(environment) { $1 },
      sourceLocation: sourceLocation)
  }

  /// Runs the built binary with `arguments` and no locale variables: for what ArgumentParser
  /// answers (help, version, usage errors), which needs the process's exit.
  private func binary(_ arguments: String...) throws -> CalcRun {
    try CalcProcess.run(arguments, environment: posixLocale)
  }

  @Test func printsTheDisplay() throws {
    let run = try InProcess.run(["--keys", "12+3="])
    #expect(run.stdout == "15\n")
    #expect(run.stderr == "")
    #expect(run.status == 0)
  }

  @Test(arguments: [
    ("007", "7"),
    ("1+2*", "3"),
    ("1+2*3=", "9"),
    ("13+", "13"),
    ("5+*3=", "15"),
    ("4+=", "8"),
    ("8*2==", "32"),
    ("2+3=4=", "7"),
    ("2+3=*2=", "10"),
    ("50+20%=", "60"),
    ("6*6%=", "0.36"),
    ("6~9", "-69"),
    ("0.~", "-0."),
    ("12+5ce2=", "14"),
    ("1.23<", "1.2"),
    ("1..2", "1.2"),
    ("2/3=", "0.66666667"),
    ("1/3/1000000000=", "3.33333333E-10"),
    ("99999999999*99999999999=", "9,999,999,999,800,000,000,001"),
    ("0.1+0.2=", "0.3"),
    ("1234.50", "1,234.50"),
    ("1/0=5+1=", "6"),
  ])
  func specExamples(keys: String, display: String) throws {
    // What a terminal shows (--display): grouped.
    let run = try calc("--display", "--keys", keys)
    #expect(run.stdout == display + "\n")
    // Nothing but notes (`1+2*` is not finished), which NotesTests checks.
    #expect(run.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("calc: note: ") })
    // An error passed on the way counts as one shown (SPEC §5): `1/0=5+1=` exits 1.
    #expect(run.status == (keys.contains("/0") ? 1 : 0))
  }

  @Test func aliasesSpacesAndComments() throws {
    let run = try calc("--keys", "1 2\t× 3 − 6 ÷ 5 = # the rest is a comment: x")
    #expect(run.stdout == "6\n")
    #expect(run.status == 0)
    #expect(try calc("--keys", "9±C 4CE2").stdout == "2\n")
  }

  @Test func textWithoutKeysShowsTheFreshDisplay() throws {
    #expect(try calc("--keys", "").stdout == "0\n")
    #expect(try calc("--keys", "  # only a comment").stdout == "0\n")
  }

  @Test func traceShowsEveryKey() throws {
    let run = try calc("--trace", "--keys", "12+3=")
    #expect(run.stdout == "1\t1\t\n2\t12\t\n+\t12\t12 +\n3\t3\t12 +\n=\t15\t12 + 3 =\n")
    #expect(run.stderr == "")
    #expect(run.status == 0)
  }

  @Test func traceUsesButtonTitles() throws {
    let run = try calc("--keys", "9*~/3%ce<c", "--trace")
    #expect(
      run.stdout
        == "9\t9\t\n×\t9\t9 ×\n+/-\t-9\t9 × negate(9)\n÷\t-81\t-81 ÷\n3\t3\t-81 ÷\n"
        + "%\t0.03\t-81 ÷ 0.03\nCE\t0\t-81 ÷\n⌫\t0\t-81 ÷\nAC\t0\t\n")
    #expect(run.status == 0)
  }

  @Test func traceOfAnErrorThatIsCleared() throws {
    let run = try calc("--trace", "--keys", "1/0=5")
    #expect(
      run.stdout == "1\t1\t\n÷\t1\t1 ÷\n0\t0\t1 ÷\n=\tCannot divide by zero\t1 ÷ 0 =\n5\t5\t\n")
    // The trace shows the error, and so do the note and the status (SPEC §5).
    #expect(
      run.stderr
        == "calc: note: Cannot divide by zero at column 4 (1 ÷ 0 =); the keys after it started "
        + "a new calculation\n")
    #expect(run.status == 1)
  }

  /// SPEC §1: `e` is no key, so calc's own scientific output is rejected, not misread as CE
  /// (`1E40*2=` used to print 80).
  @Test(arguments: [
    ("1E40*2=", "unknown key 'E' at column 2"), ("1e5*2=", "unknown key 'e' at column 2"),
    ("3.33333333E-10", "unknown key 'E' at column 11"),
  ])
  func scientificNotationIsRejected(keys: String, message: String) throws {
    let run = try calc("--keys", keys)
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "calc: --keys: \(message) (CE is 'ce'; in Scientific mode the constant e is 'euler', "
        + "and a number in scientific notation is typed with exp: sci 1exp40)\n")
    #expect(run.status == 65)
  }

  /// SPEC §9: in Standard mode a Scientific key is an error that says to type `sci` first, and
  /// the whole line is rejected, even after `std` on the same line.
  @Test(arguments: [
    ("(1+2)*3=", "'(' is a key of Scientific mode (type sci first) at column 1"),
    ("2^10=", "'^' is a key of Scientific mode (type sci first) at column 2"),
    ("sci 1+2 std 3 sin", "'sin' is a key of Scientific mode (type sci first) at column 15"),
  ])
  func scientificKeysNeedScientificMode(keys: String, message: String) throws {
    let run = try calc("--keys", keys)
    #expect(run.stdout == "")
    #expect(run.stderr == "calc: --keys: \(message)\n")
    #expect(run.status == 65)
  }

  /// SPEC §9's first example through the whole front end (in process): precedence in
  /// Scientific mode.
  @Test func scientificModeThroughTheFrontEnd() throws {
    let run = try calc("--keys", "sci 1+2*3=")
    #expect(run.stdout == "7\n")
    #expect(run.status == 0)
    let std = try calc("--keys", "1+2*3=")
    #expect(std.stdout == "9\n")
  }

  @Test func twoLetterKeySplitByASpace() throws {
    let run = try calc("--keys", "5m s")
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "calc: --keys: unknown key 'm' at column 2 (the memory keys are ms, mr, m+, m- and mc)\n"
    )
    #expect(run.status == 65)
  }

  /// The rest of the Standard keypad through the binary: √, x², 1/x and memory, in any case.
  @Test(arguments: [
    ("9@", "3"), ("2√", "1.41421356"), ("√2", "2"), ("5q", "25"), ("3²", "9"), ("4r", "0.25"),
    ("4R", "0.25"),
    ("3*4.5=m+2*7=m+mr", "27.5"), ("5MS C 2+MR=", "7"), ("5ms3m− c mr", "2"),
    ("9~@", "Invalid input"),
  ])
  func keypadKeys(keys: String, display: String) throws {
    let run = try calc("--keys", keys)
    #expect(run.stdout == display + "\n")
    // Nothing but notes (`√2`: √ acted on 0), which NotesTests checks.
    #expect(run.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("calc: note: ") })
    #expect(run.status == (display == "Invalid input" ? 1 : 0))
  }

  /// `--trace` with every kind of key: digits, point, operators, `=`, memory, sign change,
  /// percent, unary keys on a value and in error, backspace, CE and AC; the third column is the
  /// expression line (SPEC §3.1, §5).
  @Test func traceOfEveryKindOfKey() throws {
    let run = try calc("--trace", "-k", "1.5*4=ms~%@qr<ce9m+mr+mc m-=c")
    #expect(
      run.stdout == """
        1\t1\t
        .\t1.\t
        5\t1.5\t
        ×\t1.5\t1.5 ×
        4\t4\t1.5 ×
        =\t6\t1.5 × 4 =
        MS\t6\t1.5 × 4 =
        +/-\t-6\tnegate(6)
        %\t-0.06\t-0.06
        √\tInvalid input\t√(-0.06)
        x²\tInvalid input\t√(-0.06)
        1/x\tInvalid input\t√(-0.06)
        ⌫\tInvalid input\t√(-0.06)
        CE\t0\t
        9\t9\t
        M+\t9\t
        MR\t15\t
        +\t15\t15 +
        MC\t15\t15 +
        M−\t15\t15 +
        =\t30\t15 + 15 =
        AC\t0\t

        """)
    #expect(run.status == 0)
  }

  /// The issue's example: `calc --trace --keys "2+3=@="`.
  @Test func traceShowsTheExpressionColumn() throws {
    let run = try calc("--trace", "--keys", "2+3=@=")
    #expect(
      run.stdout
        == "2\t2\t\n+\t2\t2 +\n3\t3\t2 +\n=\t5\t2 + 3 =\n√\t2.23606798\t√(5)\n"
        + "=\t5.23606798\t√(5) + 3 =\n")
  }

  @Test func traceShowsKeypadTitles() throws {
    let run = try calc("--trace", "--keys", "9@qr ms mr m+ m- mc")
    #expect(
      run.stdout
        == "9\t9\t\n√\t3\t√(9)\nx²\t9\tsqr(√(9))\n1/x\t0.11111111\t1/(sqr(√(9)))\n"
        + "MS\t0.11111111\t1/(sqr(√(9)))\nMR\t0.11111111\t\nM+\t0.11111111\t\n"
        + "M−\t0.11111111\t\nMC\t0.11111111\t\n")
    #expect(run.status == 0)
  }

  @Test func unknownKeyNamesItsColumn() throws {
    let run = try calc("--keys", "12+x3=")
    #expect(run.stdout == "")
    #expect(run.stderr == "calc: --keys: unknown key 'x' at column 4 (× is '*')\n")
    #expect(run.status == 65)
  }

  @Test func unknownKeyWithTraceAppliesNothing() throws {
    let run = try calc("--trace", "--keys", "12+3=x")
    #expect(run.stdout == "")
    #expect(run.stderr == "calc: --keys: unknown key 'x' at column 6 (× is '*')\n")
    #expect(run.status == 65)
  }

  @Test func columnsCountCharactersNotBytes() throws {
    let run = try calc("--keys", "1×÷x")
    #expect(run.stderr == "calc: --keys: unknown key 'x' at column 4 (× is '*')\n")
    #expect(run.status == 65)
  }

  @Test func theDecimalSeparatorOfTheLocaleIsNoKey() throws {
    let run = try calc("--locale", "de_DE", "--keys", "1,5")
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "calc: --keys: unknown key ',' at column 2 (key text uses '.' for the decimal point)\n")
    #expect(run.status == 65)
  }

  @Test func commandsAreNotKeys() throws {
    let run = try calc("--keys", ":history")
    #expect(
      run.stderr
        == "calc: --keys: unknown key ':' at column 1 (commands run in scripts and the REPL: "
        + "printf ':history\\n' | calc --resume)\n")
    #expect(run.status == 65)
  }

  @Test func controlCharactersAreEscaped() throws {
    let run = try calc("--keys", "12\u{1B}[31m")
    #expect(run.stdout == "")
    #expect(run.stderr == "calc: --keys: unknown key '\\u{1B}' at column 3\n")
    #expect(!run.stderr.contains("\u{1B}"))
    #expect(run.status == 65)
  }

  @Test func invisibleCharactersAreEscaped() throws {
    let run = try calc("--keys", "1\u{200B}")
    #expect(run.stderr == "calc: --keys: unknown key '\\u{200B}' at column 2\n")
    #expect(run.status == 65)
  }

  @Test func finalErrorDisplayExitsWithOne() throws {
    let run = try calc("--keys", "1/0=")
    #expect(run.stdout == "Cannot divide by zero\n")
    #expect(run.stderr == "")
    #expect(run.status == 1)
    let undefined = try calc("--keys", "0/0=")
    #expect(undefined.stdout == "Result is undefined\n")
    #expect(undefined.status == 1)
    #expect(try calc("--keys", "1/0=+").stdout == "Cannot divide by zero\n")
  }

  @Test func unknownOptionIsAUsageError() throws {
    let run = try binary("--bogus")
    #expect(run.stdout == "")
    #expect(run.stderr.contains("Unknown option '--bogus'"))
    #expect(run.status == 64)
  }

  @Test func keysWithAFileIsAUsageError() throws {
    let run = try binary("--keys", "1+1=", "script.calc")
    #expect(run.stdout == "")
    #expect(run.stderr.contains("--keys cannot be combined with script files"))
    #expect(run.status == 64)
  }

  @Test func keysWithoutAValueIsAUsageError() throws {
    let run = try binary("--keys")
    #expect(run.stdout == "")
    #expect(run.status == 64)
  }

  @Test func helpMentionsTheExitStatuses() throws {
    let run = try binary("--help")
    #expect(run.status == 0)
    #expect(run.stderr == "")
    // Too many options for one usage line: ArgumentParser lists them below it.
    #expect(run.stdout.contains("USAGE: calc [<options>] [<FILE> ...]"))
    for option in [
      "-k, --keys <KEYS>", "--trace", "--plain", "--display", "--locale <ID>", "--list-locales",
      "--resume", "--no-journal", "--no-live", "--keep-going", "-q, --quiet", "--mode <MODE>",
    ] {
      #expect(run.stdout.contains(option), "\(option)")
    }
    // ArgumentParser wraps the discussion to the terminal's width: compare it unwrapped.
    let text = run.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(
      text.contains(
        "Exit status: 0 success, 1 a key line showed an error (at its end, or on the way: "
          + "50/0*100=), 64 usage error"))
    #expect(text.contains("when several apply, the first of 74, 66, 65, 1."))
    #expect(text.contains("The REPL exits 0 unless output failed."))
    #expect(text.contains("65 a rejected script line (FILE:LINE:COLUMN: message on stderr)"))
    #expect(text.contains("66 unreadable file, 74 output could not be written"))
    #expect(text.contains("Example: calc -k '12+3=' prints 15"))
    #expect(text.contains("the display after it and the expression line"))
    #expect(run.stdout.contains("--trace"))
    #expect(run.stdout.contains("--locale <ID>"))
  }

  @Test func version() throws {
    let run = try binary("--version")
    #expect(run.stdout == "calc \(CalcCommand.version)\n\(CalcCommand.licence)\n")
    #expect(run.stdout.contains("License GPL-3.0-or-later"))
    #expect(run.stdout.contains("GNU readline (GPL-3.0-or-later)"))
    #expect(run.stdout.contains("swift-argument-parser (Apache-2.0)"))
    #expect(run.stderr == "")
    #expect(run.status == 0)
  }

  // MARK: - Locale (SPEC §3)

  @Test func localeOption() throws {
    #expect(try calc("--display", "--locale", "de_DE", "--keys", "1234.5").stdout == "1.234,5\n")
    #expect(try calc("--display", "--locale", "de_DE", "--keys", "1234.50").stdout == "1.234,50\n")
    #expect(try calc("--display", "--locale", "de_DE", "--keys", "2/3=").stdout == "0,66666667\n")
    #expect(try calc("--display", "--locale", "en_US", "--keys", "1234.5").stdout == "1,234.5\n")
  }

  @Test func frenchGroupsWithANarrowNoBreakSpace() throws {
    let run = try calc("--display", "--locale", "fr_FR", "--keys", "1234.5")
    #expect(run.stdout == "1\u{202F}234,5\n")
  }

  @Test func localeOptionWinsOverTheEnvironment() throws {
    let run = try calc(
      "--display", "--locale", "de_DE", "--keys", "1234.5", environment: ["LC_ALL": "fr_FR"])
    #expect(run.stdout == "1.234,5\n")
  }

  @Test func localeOptionDropsTheEncoding() throws {
    #expect(
      try calc("--display", "--locale", "de_DE.UTF-8", "--keys", "1234.5").stdout == "1.234,5\n")
  }

  @Test func langWithEncoding() throws {
    let run = try calc("--display", "--keys", "1234.5", environment: ["LANG": "de_DE.UTF-8"])
    #expect(run.stdout == "1.234,5\n")
    #expect(run.status == 0)
  }

  @Test func langWithModifier() throws {
    let run = try calc("--display", "--keys", "1234.5", environment: ["LANG": "de_DE@euro"])
    #expect(run.stdout == "1.234,5\n")
  }

  @Test func lcAllWinsOverLang() throws {
    let run = try calc(
      "--display", "--keys", "1234.5", environment: ["LC_ALL": "fr_FR", "LANG": "de_DE"])
    #expect(run.stdout == "1\u{202F}234,5\n")
  }

  @Test func lcNumericWinsOverLang() throws {
    let run = try calc(
      "--display", "--keys", "1234.5",
      environment: ["LC_NUMERIC": "de_DE.UTF-8", "LANG": "fr_FR.UTF-8"])
    #expect(run.stdout == "1.234,5\n")
  }

  @Test func emptyLcAllIsSkipped() throws {
    let run = try calc(
      "--display", "--keys", "1234.5", environment: ["LC_ALL": "", "LANG": "de_DE"])
    #expect(run.stdout == "1.234,5\n")
  }

  @Test func cLocaleIsPosix() throws {
    let run = try calc(
      "--display", "--keys", "1234.5", environment: ["LC_ALL": "C", "LANG": "de_DE"])
    #expect(run.stdout == "1,234.5\n")
    let posix = try calc("--display", "--keys", "1234.5", environment: ["LANG": "POSIX"])
    #expect(posix.stdout == "1,234.5\n")
  }

  @Test func noLocaleSettingIsPosix() throws {
    #expect(try calc("--display", "--keys", "1234.5").stdout == "1,234.5\n")
  }

  @Test func unknownLocaleInTheEnvironmentFallsBackQuietly() throws {
    let run = try calc("--display", "--keys", "1234.5", environment: ["LANG": "xx_NOPE"])
    #expect(run.stdout == "1,234.5\n")
    #expect(run.stderr == "")
    #expect(run.status == 0)
  }

  /// Values that crashed Foundation or ICU (SIGSEGV, SIGILL) before identifiers from the
  /// environment were checked: each must fall back to en_US_POSIX quietly.
  @Test(arguments: [
    "abcdefghijkl", "é", "3J1TWDtkwtDDb_", "S5SUkCnD8zRA", "tws8phP= 9nhF", "jU2JgJngKtFI3@",
    "6kfaqDeMqG 3om", "ü", "日本", "ñ_ES", "€", "é_FR", String(repeating: "a", count: 40),
    "\u{1B}]0;x\u{07}", "de_DE\u{A0}", "x.y.z@@", "_", "__", "en_",
  ])
  func oddLangFallsBackToPosix(_ value: String) throws {
    for variable in ["LANG", "LC_ALL", "LC_NUMERIC"] {
      let run = try calc("--display", "--keys", "1234.5", environment: [variable: value])
      #expect(run.stdout == "1,234.5\n", "\(variable)=\(value)")
      #expect(run.stderr == "")
      #expect(run.status == 0)
    }
  }

  @Test func knownLocalesWithScriptsAndVariantsStillWork() throws {
    #expect(
      try calc("--display", "--keys", "1234.5", environment: ["LANG": "sr_Latn_RS"]).stdout
        == "1.234,5\n")
    #expect(
      try calc("--display", "--keys", "1234.5", environment: ["LANG": "de_CH.UTF-8"]).stdout
        == "1’234.5\n")
  }

  @Test func outputThatIsNotATerminalIsNotGroupedButKeepsTheDecimalSeparator() throws {
    #expect(try calc("--keys", "1234.5").stdout == "1234.5\n")
    #expect(try calc("--keys", "1234.50").stdout == "1234.50\n")
    #expect(try calc("--locale", "de_DE", "--keys", "1234.5").stdout == "1234,5\n")
    #expect(try calc("--locale", "fr_FR", "--keys", "1234.5").stdout == "1234,5\n")
    #expect(
      try calc("--keys", "99999999999*99999999999=").stdout == "9999999999800000000001\n")
    #expect(
      try calc("--plain", "--keys", "2/3=").stdout == "0.6666666666666666666666666666666667\n")
    // The shell example of SPEC §3: the number is one a script can read.
    let shell = try Script.shell(
      "y=$(\"$CALC\" -k 1000+234=); echo \"$y $((y+1))\"",
      in: FileManager.default.temporaryDirectory)
    #expect(shell.stdout == "1234 1235\n")
  }

  @Test func displayWithPlainIsAUsageError() throws {
    let run = try binary("--display", "--plain", "--keys", "1")
    #expect(run.stdout == "")
    #expect(run.stderr.hasPrefix("calc: --display and --plain cannot be combined.\n"))
    #expect(run.status == 64)
  }

  @Test(arguments: ["de-DE", "de_de", "DE_de", "de-de", "de_DE.UTF-8", "de-DE.utf8"])
  func localeNamesInBcp47AndAnyCaseNameTheSameLocale(_ name: String) throws {
    #expect(try calc("--display", "--locale", name, "--keys", "1234.5").stdout == "1.234,5\n")
    let environment = try calc("--display", "--keys", "1234.5", environment: ["LANG": name])
    #expect(environment.stdout == "1.234,5\n")
  }

  @Test func unknownLocaleOptionIsAUsageError() throws {
    let run = try calc("--locale", "xx_NOPE", "--keys", "1")
    #expect(run.stdout == "")
    #expect(run.stderr.contains("unknown locale 'xx_NOPE'"))
    #expect(run.status == 64)
  }
}
