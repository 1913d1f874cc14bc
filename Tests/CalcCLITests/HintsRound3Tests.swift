import CalcTestSupport
import CalculatorEngine
import Foundation
import Testing

@testable import CalcCLI
@testable import CalcCore

/// Issue 45's hints (SPEC v5 §5): a command given to `--keys`, a number with a radix prefix,
/// and `--resume` with nothing to resume.
@Suite struct HintsRound3Tests {
  @Test func aCommandGivenAsKeysSaysWhereCommandsRun() throws {
    try expectScript(
      ["-k", ":lines"], stdout: "",
      stderr: "calc: --keys: unknown key ':' at column 1 (commands run in scripts and the REPL: "
        + "printf ':lines\\n' | calc --resume)\n", status: 65)
    try expectScript(
      ["-k", "12+3= :goto 3"], stdout: "",
      stderr: "calc: --keys: unknown key ':' at column 7 (commands run in scripts and the REPL: "
        + "printf ':goto 3\\n' | calc --resume)\n", status: 65)
    // A quote in the command is quoted for the shell.
    try expectScript(
      ["-k", ":note 1 it's"], stdout: "",
      stderr: "calc: --keys: unknown key ':' at column 1 (commands run in scripts and the REPL: "
        + "printf ':note 1 it'\\''s\\n' | calc --resume)\n", status: 65)
    // In formula and date mode too (their lines are no key text).
    try expectScript(
      ["-e", ":lines"], stdout: "",
      stderr: "calc: -e: unknown key ':' at column 1 (commands run in scripts and the REPL: "
        + "printf ':lines\\n' | calc --resume)\n", status: 65)
    try expectScript(
      ["--mode", "date", "-k", " :pad"], stdout: "",
      stderr: "calc: --keys: unknown key ':' at column 2 (commands run in scripts and the REPL: "
        + "printf ':pad\\n' | calc --resume)\n", status: 65)
    // The hint's command does what it says.
    try withTemporaryDirectory { directory in
      let state = directory.appendingPathComponent("state").path
      let environment: [String: String?] = ["HOME": directory.path, "XDG_STATE_HOME": state]
      try expectScript(
        ["--resume", "-"], stdin: ":lines\n", environment: environment, stdout: "no lines\n",
        stderr: "calc: note: no session to resume; starting afresh\n")
    }
    // In a script a `:` line is a command, as ever.
    try expectScript(["-"], stdin: "12+3=\n:keys\n", stdout: "15\n12+3=\n")
  }

  @Test(arguments: [
    ("prog 0xFF", 7, "hex FF"), ("prog 0xff+1=", 7, "hex FF"), ("prog 0b1010", 7, "bin 1010"),
    ("prog 10+0o17=", 10, "oct 17"), ("prog hex 0x7F_FF", 11, "hex 7FFF"),
    ("0xFF", 2, "prog hex FF"), ("sci 0b11", 6, "prog bin 11"),
  ])
  func aRadixPrefixNamesTheRadixKey(keys: String, column: Int, hint: String) throws {
    let letter = Array(keys)[column - 1]
    try expectScript(
      ["-k", keys], stdout: "",
      stderr: "calc: --keys: unknown key '\(letter)' at column \(column) (\(hint))\n", status: 65)
    // The same in a script and with --mode.
    try expectScript(
      ["-"], stdin: "\(keys)\n", stdout: "",
      stderr: "<stdin>:1:\(column): unknown key '\(letter)' at column \(column) (\(hint))\n",
      status: 65)
  }

  @Test func theHintForAnExIsUnchanged() throws {
    try expectScript(
      ["-k", "10x2="], stdout: "", stderr: "calc: --keys: unknown key 'x' at column 3 (× is '*')\n",
      status: 65)
  }

  /// `--resume` with no session to resume starts afresh with a note and runs the keys or files;
  /// `-q` silences the note; a journal that cannot be read is still an error.
  @Test func resumeWithNothingToResumeStartsAfresh() throws {
    try withTemporaryDirectory { directory in
      let state = directory.appendingPathComponent("state").path
      let environment: [String: String?] = ["HOME": directory.path, "XDG_STATE_HOME": state]
      let note = "calc: note: no session to resume; starting afresh\n"
      try expectScript(
        ["--resume", "-k", "12+3="], environment: environment, stdout: "15\n", stderr: note)
      try expectScript(
        ["--resume", "-q", "-k", "12+3="], environment: environment, stdout: "15\n")
      try expectScript(
        ["--resume", "-"], stdin: "2*3=\n", environment: environment, stdout: "6\n", stderr: note)
      _ = try Script.write("7*6=\n", to: "s.calc", in: directory)
      try expectScript(
        ["--resume", "s.calc"], environment: environment, directory: directory, stdout: "42\n",
        stderr: note)
      // The start mode applies to the fresh session, as without --resume.
      try expectScript(
        ["--resume", "--mode", "scientific", "-k", "2^10="], environment: environment,
        stdout: "1024\n", stderr: note)
      // Without HOME or XDG_STATE_HOME there is nothing to resume either.
      try expectScript(
        ["--resume", "-k", "1="], environment: ["HOME": nil, "XDG_STATE_HOME": nil],
        stdout: "1\n",
        stderr: "calc: note: no session to resume (neither XDG_STATE_HOME nor HOME is set); "
          + "starting afresh\n")
    }
  }
}
