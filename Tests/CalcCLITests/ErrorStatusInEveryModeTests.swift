import CalcTestSupport
import CalculatorEngine
import Foundation
import Testing

@testable import CalcCLI
@testable import CalcCore

/// Issue 45, defect 1 (SPEC v5 §5): a key line that showed an error exits 1 in **every** mode —
/// calc 0.4's Programmer mode exited 0 for `prog 100/0=` (its notes and trace path read
/// Standard mode's brain). Every mode × every error it can show, through `--keys` (with the mode
/// key on the line and with `--mode`), a script file, standard input, `--trace` and
/// `--keep-going`.
@Suite struct ErrorStatusInEveryModeTests {
  /// A line of keys in `mode` (without its mode key) that shows `display` at its end, or went
  /// past an error on the way (`passed`).
  struct Row: Sendable, CustomTestStringConvertible {
    var mode: Key.Mode
    var keys: String
    var display: String
    var passed = false
    var testDescription: String { "\(Self.key(mode)) \(keys)" }

    static func key(_ mode: Key.Mode) -> String {
      switch mode {
      case .standard: "std"
      case .scientific: "sci"
      case .programmer: "prog"
      case .formula: "fx"
      case .date: "date"
      }
    }

    static func option(_ mode: Key.Mode) -> String {
      switch mode {
      case .standard: "standard"
      case .scientific: "scientific"
      case .programmer: "programmer"
      case .formula: "formula"
      case .date: "date"
      }
    }

    /// The keys with the mode key first.
    var line: String { "\(Self.key(mode)) \(keys)" }
  }

  /// Every error each mode can show, and one passed on the way (SPEC §2 rule 14, §9, §10): the
  /// three-digit runs make Programmer lines take the notes path, where calc 0.4 went wrong.
  static let rows: [Row] = [
    Row(mode: .standard, keys: "100/0=", display: "Cannot divide by zero"),
    Row(mode: .standard, keys: "0/0=", display: "Result is undefined"),
    Row(mode: .standard, keys: "9~@", display: "Invalid input"),
    Row(mode: .standard, keys: "9999999999999999qqq", display: "Overflow"),
    Row(mode: .standard, keys: "100/0=5=", display: "5", passed: true),
    Row(mode: .scientific, keys: "100/0=", display: "Cannot divide by zero"),
    Row(mode: .scientific, keys: "0/0=", display: "Result is undefined"),
    Row(mode: .scientific, keys: "9~@", display: "Invalid input"),
    Row(mode: .scientific, keys: "10^10000=", display: "Overflow"),
    Row(mode: .scientific, keys: "100/0=5=", display: "5", passed: true),
    Row(mode: .programmer, keys: "100/0=", display: "Cannot divide by zero"),
    Row(mode: .programmer, keys: "1/0=", display: "Cannot divide by zero"),
    Row(mode: .programmer, keys: "000/0=", display: "Result is undefined"),
    Row(mode: .programmer, keys: "100 mod 0=", display: "Result is undefined"),
    Row(mode: .programmer, keys: "100 lsh 64=", display: "Result not defined"),
    Row(mode: .programmer, keys: "1 lsh 1~=", display: "Result not defined"),
    Row(mode: .programmer, keys: "100/0=5=", display: "5", passed: true),
    // A bit key starts afresh, a radix or word-size key clears and goes on (SPEC §10): the
    // error is passed, not cleared on purpose as by AC, CE or a mode key.
    Row(mode: .programmer, keys: "100/0= bit3", display: "8", passed: true),
    Row(mode: .programmer, keys: "100/0= hex F", display: "F", passed: true),
    Row(mode: .programmer, keys: "100/0= byte 5", display: "5", passed: true),
    // Formulas (SPEC §12): a formula's result is its first error.
    Row(mode: .formula, keys: "100/0", display: "Cannot divide by zero"),
    Row(mode: .formula, keys: "0/0", display: "Result is undefined"),
    Row(mode: .formula, keys: "sqrt(-9)", display: "Invalid input"),
    Row(mode: .formula, keys: "10^10000", display: "Overflow"),
    Row(mode: .formula, keys: "1/0+5", display: "Cannot divide by zero"),
  ]

  /// The note for an error passed on the way says which key showed it, in every mode.
  @Test func thePassedErrorHasItsNote() throws {
    try expectScript(
      ["--mode", "programmer", "-k", "1/0= hex F"], stdout: "F\n",
      stderr: "calc: note: Cannot divide by zero at column 4 (1 ÷ 0 =); the keys after it "
        + "started a new calculation\n", status: 1)
    // AC, CE and a mode key clear it on purpose: no note, status 0.
    for keys in ["1/0= c 5", "1/0= ce 5", "1/0= prog 5", "1/0= std 5"] {
      try expectScript(["--mode", "programmer", "-k", keys], stdout: "5\n")
    }
  }

  @Test(arguments: rows) func throughKeys(_ row: Row) throws {
    let withKey = try InProcess.run(["-q", "-k", row.line], environment: posixLocale)
    #expect(withKey.stdout == row.display + "\n")
    #expect(withKey.status == 1, "calc -k '\(row.line)'")
    let withOption = try InProcess.run(
      ["-q", "--mode", Row.option(row.mode), "-k", row.keys], environment: posixLocale)
    #expect(withOption.stdout == row.display + "\n")
    #expect(withOption.status == 1, "calc --mode \(Row.option(row.mode)) -k '\(row.keys)'")
  }

  @Test(arguments: rows) func throughAScriptFileAndStandardInput(_ row: Row) throws {
    try withTemporaryDirectory { directory in
      // The error on the script's first line, which a later line leaves: still status 1.
      _ = try Script.write("\(row.line)\nc\n", to: "error.calc", in: directory)
      let file = try InProcess.run(
        ["-q", "error.calc"], environment: posixLocale, directory: directory)
      #expect(file.stdout == "\(row.display)\n0\n")
      #expect(file.status == 1, "a script file of '\(row.line)'")
      let stdin = try InProcess.run(
        ["-q", "-"], stdin: Data("\(row.line)\n".utf8), environment: posixLocale)
      #expect(stdin.stdout == "\(row.display)\n")
      #expect(stdin.status == 1, "standard input of '\(row.line)'")
      let started = try InProcess.run(
        ["-q", "--mode", Row.option(row.mode), "error.calc"], environment: posixLocale,
        directory: directory)
      #expect(started.status == 1, "--mode \(Row.option(row.mode)) and a script file")
    }
  }

  @Test(arguments: rows) func throughTraceAndKeepGoing(_ row: Row) throws {
    let trace = try InProcess.run(["-q", "--trace", "-k", row.line], environment: posixLocale)
    let last = trace.stdout.split(separator: "\n").last.map {
      $0.split(separator: "\t", omittingEmptySubsequences: false)
    }
    #expect(last.map { $0.count > 1 ? String($0[1]) : "" } == row.display)
    #expect(trace.status == 1, "calc --trace -k '\(row.line)'")
    let keepGoing = try InProcess.run(
      ["-q", "--keep-going", "-"], stdin: Data("\(row.line)\n2x\n".utf8),
      environment: posixLocale)
    // 65 for the rejected line takes precedence; without it, 1.
    #expect(keepGoing.status == 65)
    let keepGoingAlone = try InProcess.run(
      ["-q", "--keep-going", "-"], stdin: Data("\(row.line)\n".utf8), environment: posixLocale)
    #expect(keepGoingAlone.stdout == "\(row.display)\n")
    #expect(keepGoingAlone.status == 1, "calc --keep-going of '\(row.line)'")
  }

  /// The interpreter itself says so, whichever path the line takes (the fast one, or the notes
  /// and trace one).
  @Test(arguments: rows) func throughTheInterpreter(_ row: Row) throws {
    for trace in [false, true] {
      var interpreter = LineInterpreter(format: .posix, trace: trace)
      let result = try interpreter.run(row.line, output: OutputBuffer())
      #expect(result.showedAnError, "trace \(trace): \(row.line)")
    }
  }
}
