import Foundation
import Testing

/// calc in shell scripts (SPEC §3 plain output, §5): `--plain` for `--keys`, `--trace` and
/// scripts, `-k`, and the hint for a FILE that is really key text; in process (``InProcess``), and
/// through the built binary where a shell, a current directory or a usage error is involved.
@Suite struct ScriptFriendlyOutputTests {
  /// Runs calc in process (``InProcess``) with `arguments`, without the caller's locale
  /// variables unless `environment` sets them.
  private func calc(
    _ arguments: String..., environment: [String: String?] = [:],
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> CalcRun {
    try InProcess.run(
      arguments, environment: posixLocale.merging(environment) { $1 },
      sourceLocation: sourceLocation)
  }

  @Test(arguments: [
    ("1000+234=", "1234"),
    ("2/3=", "0.6666666666666666666666666666666667"),
    ("99999999999*99999999999=", "9999999999800000000001"),
    ("1234.50", "1234.50"),
    ("0.~", "-0."),
    ("7.555*3~=", "-22.665"),
    ("1/3/1000000000=", "3.333333333333333333333333333333333E-10"),
    ("1000000000000000*1000000000000000*10000=", "1E34"),
  ])
  func plainKeys(keys: String, display: String) throws {
    let run = try calc("--plain", "--keys", keys)
    #expect(run.stdout == display + "\n")
    #expect(run.stderr == "")
    #expect(run.status == 0)
  }

  @Test func plainErrorsAreTheUsualTexts() throws {
    let run = try calc("--plain", "-k", "1/0=")
    #expect(run.stdout == "Cannot divide by zero\n")
    #expect(run.status == 1)
  }

  /// SPEC §3's example: the output of `--plain` is a number the shell can compute with.
  @Test func plainOutputIsANumberForTheShell() throws {
    try withTemporaryDirectory { directory in
      let run = try Script.shell(
        #"x=$("$CALC" --plain -k 1000+234=); echo $((x + 1))"#, in: directory)
      #expect(run.stdout == "1235\n")
      #expect(run.status == 0)
    }
  }

  /// The locale's symbols do not reach plain output, whether from `--locale` or the environment.
  @Test func plainIgnoresTheLocale() throws {
    #expect(try calc("--plain", "--locale", "de_DE", "-k", "1234.5*2=").stdout == "2469\n")
    let run = try calc("-k", "1234.25*2=", "--plain", environment: ["LANG": "fr_FR.UTF-8"])
    #expect(run.stdout == "2468.5\n")
    // An unknown --locale is still a usage error.
    #expect(try calc("--plain", "--locale", "xx_NOPE", "-k", "1").status == 64)
  }

  @Test func plainTrace() throws {
    let run = try calc("--plain", "--trace", "-k", "1000*2/3=")
    #expect(
      run.stdout
        == "1\t1\t\n0\t10\t\n0\t100\t\n0\t1000\t\n×\t1000\t1000 ×\n2\t2\t1000 ×\n"
        + "÷\t2000\t2000 ÷\n3\t3\t2000 ÷\n=\t666.6666666666666666666666666666667\t2000 ÷ 3 =\n")
    #expect(run.status == 0)
  }

  @Test func plainScript() throws {
    try withTemporaryDirectory { directory in
      try Script.write("1000+234=\n*1000=\n2/3=\n1/0=\n", to: "s.calc", in: directory)
      let run = try Script.runInProcess("", arguments: ["--plain", "s.calc"], in: directory)
      #expect(
        run.stdout
          == "1234\n1234000\n0.6666666666666666666666666666666667\nCannot divide by zero\n")
      #expect(run.status == 1)
      let piped = try Script.runInProcess("1000+234=\n:goto 4\n", arguments: ["--plain"])
      #expect(piped.stdout == "1234\n1000\n")
    }
  }

  @Test func shortK() throws {
    let run = try calc("-k", "12+3=")
    #expect(run.stdout == "15\n")
    #expect(run.stderr == "")
    #expect(run.status == 0)
    #expect(try calc("-k", "-5=").stdout == "-5\n")
    #expect(try calc("--trace", "-k", "1+").stdout == "1\t1\t\n+\t1\t1 +\n")
    #expect(try calc("-k", "1000+234=").stdout == "1234\n")
    #expect(try calc("--display", "-k", "1000+234=").stdout == "1,234\n")
  }

  @Test func kWithAFileIsAUsageError() throws {
    // A usage error: ArgumentParser's, through the binary.
    let run = try CalcProcess.run(["-k", "1+1=", "script.calc"], environment: posixLocale)
    #expect(run.stdout == "")
    #expect(run.stderr.contains("--keys cannot be combined with script files"))
    #expect(run.status == 64)
  }

  // MARK: - A FILE that is key text

  @Test func missingFileThatReadsAsKeysGetsAHint() throws {
    try withTemporaryDirectory { directory in
      let run = try Script.runInProcess("", arguments: ["12+3="], in: directory)
      #expect(run.stdout == "")
      #expect(
        run.stderr
          == "calc: cannot read '12+3=': No such file or directory (to press keys: calc -k '12+3=')\n"
      )
      #expect(run.status == 66)
      let spaced = try Script.runInProcess("", arguments: ["2 * 3 ="], in: directory)
      #expect(
        spaced.stderr
          == "calc: cannot read '2 * 3 =': No such file or directory (to press keys: calc -k '2 * 3 =')\n"
      )
    }
  }

  @Test(arguments: ["nope.calc", "x+1", "1,5", "# only a comment", " ", "sub/12"])
  func noHintForANameThatIsNotKeyText(name: String) throws {
    try withTemporaryDirectory { directory in
      let run = try Script.runInProcess("", arguments: [name], in: directory)
      #expect(run.stderr == "calc: cannot read '\(name)': No such file or directory\n")
      #expect(run.status == 66)
    }
  }

  /// The hint is for a name that does not exist; one that exists but cannot be read is named
  /// as it is.
  @Test func noHintForAnExistingName() throws {
    try withTemporaryDirectory { directory in
      try FileManager.default.createDirectory(
        at: directory.appendingPathComponent("123"), withIntermediateDirectories: false)
      let run = try Script.runInProcess("", arguments: ["123"], in: directory)
      #expect(run.stderr == "calc: cannot read '123': Is a directory\n")
      #expect(run.status == 66)
    }
  }

  /// A key-text name is echoed escaped in the hint too: a comment may hold anything.
  @Test func hintEscapesControlCharacters() throws {
    try withTemporaryDirectory { directory in
      let run = try Script.runInProcess("", arguments: ["1+1= #\u{1B}[31m"], in: directory)
      #expect(
        run.stderr
          == "calc: cannot read '1+1= #\\u{1B}[31m': No such file or directory"
          + " (to press keys: calc -k '1+1= #\\u{1B}[31m')\n")
    }
  }

  /// Standard mode's everyday transitions write over a state that holds no box until the
  /// process makes one (an operator, `=`), and the answer line reads the value where the state
  /// holds it: a fresh process (no box yet) gives what the same lines give after a fraction too
  /// large for the value made a box, and what the process of the tests gives, in either
  /// precision. Errors and fractions on the way; a process, because the tests' own may have made
  /// a box long before.
  @Test func everydayLinesAnswerAlikeBeforeAndAfterABox() throws {
    let lines = [
      "12+3=", "123.45*6.7=", "1/0=", "7/3=", "0-2.5*4=", "5-5=", "0/0=", "99999999/7=",
      "1/3+", "2=", "9@", "1+2.25@=", "0.5*0.5==", "9999999999999999*9999999999999999=",
    ].joined(separator: "\n")
    // 1/4294967311: a denominator above 2^32, a fraction in a box.
    let script = lines + "\n1/4294967311=\n" + lines + "\n"
    for arguments in [["--plain"], []] {
      let run = try CalcProcess.run(arguments, stdin: Data(script.utf8), environment: posixLocale)
      let answers = run.stdout.split(separator: "\n", omittingEmptySubsequences: false)
      let count = lines.split(separator: "\n").count
      #expect(answers.count == 2 * count + 2)
      #expect(answers[..<count] == answers[(count + 1)..<(2 * count + 1)], "\(arguments)")
      let inProcess = try InProcess.run(
        arguments, stdin: Data(script.utf8), environment: posixLocale)
      #expect(run.stdout == inProcess.stdout, "\(arguments)")
      #expect(run.status == 1)
    }
  }
}
