import CalcCore
import Foundation
import Testing

/// `:exact [L]` (SPEC v5 §6, issue 48): the whole value of the display or of line L's result.
@Suite struct ExactCommandTests {
  /// The spec's examples, and an integer as itself, after a line of keys.
  @Test(arguments: [
    ("1/3=", "1/3 = 0.(3)"), ("1/6=", "1/6 = 0.1(6)"), ("22/7=", "22/7 = 3.(142857)"),
    ("12+3=", "15"), ("-5/2=", "-5/2 = -2.5"), ("sci 1/3*3-1=", "0"),
    ("3@", "≈ 1.732050807568877293527446341505872 (√ at step 2)"),
    ("sci 1+3@=", "≈ 2.732050807568877293527446341505872 (√ at step 5)"),
  ])
  func theDisplaysValue(_ keys: String, _ expected: String) throws {
    let run = try InProcess.run(["-"], stdin: Data("\(keys)\n:exact\n".utf8))
    #expect(run.stdout.split(separator: "\n").last.map(String.init) == expected)
    #expect(run.status == 0)
  }

  /// Line L's result, whatever the display shows; a value carried from a rounded one names the
  /// step that rounded it; a line that does not exist is an error.
  @Test func aLinesResult() throws {
    try expectScript(
      ["-"], stdin: "1/3=\n2@\n+1=\n5*2=\n:exact 1\n:exact 3\n:exact 4\n:exact\n:exact 5\n",
      stdout: "0.33333333\n1.41421356\n2.41421356\n10\n1/3 = 0.(3)\n"
        + "≈ 2.414213562373095048801688724209698 (√ at step 6)\n10\n10\n",
      stderr: "<stdin>:9:8: no line 5 (lines: 1…4)\n", status: 65)
  }

  /// A rounded value recalled by `mr`, `$N` or a formula's `ans` or `mr` names the step that
  /// rounded it, not the recall (issue 48); a sum into the memory keeps the first rounding.
  @Test(arguments: [
    (["sci", "2@=", "ms", "c", "mr*3="], "≈ 4.242640687119285146405066172629094 (√ at step 3)"),
    (["2@=", "ms", "c", "mr*3="], "≈ 4.242640687119285146405066172629094 (√ at step 2)"),
    (["sci", "2@=", "c", "$1*3="], "≈ 4.242640687119285146405066172629094 (√ at step 3)"),
    (["2@=", "c", "5+$1="], "≈ 6.414213562373095048801688724209698 (√ at step 2)"),
    (
      ["2@=", "m+", "1/3=", "m+", "c", "mr="], "≈ 1.747546895706428382135022057543031 (√ at step 2)"
    ),
    (["fx", "sqrt(2)", "ans*3"], "≈ 4.242640687119285146405066172629094 (√ at step 2)"),
    (["sci 2@= ms", "fx", "3*mr"], "≈ 4.242640687119285146405066172629094 (√ at step 3)"),
    (["sci 2@= ms", "c 3@="], "≈ 1.732050807568877293527446341505872 (√ at step 8)"),
    (["sci 5!="], "120"), (["sci 2.5!="], "≈ 3.323350970447842551184064031264647 (n! at step 5)"),
  ])
  func aRecallNamesTheStepThatRounded(_ lines: [String], _ expected: String) throws {
    let script = (lines + [":exact"]).joined(separator: "\n") + "\n"
    let run = try InProcess.run(["--plain", "-"], stdin: Data(script.utf8))
    #expect(run.stdout.split(separator: "\n").last.map(String.init) == expected, "\(lines)")
  }

  /// A period longer than 1,000 digits: its first 1,000, the bracket left open.
  @Test func aLongPeriodIsCut() throws {
    let run = try InProcess.run(["-"], stdin: Data("1/1019=\n:exact\n".utf8))
    let text = try #require(run.stdout.split(separator: "\n").last.map(String.init))
    #expect(text.hasPrefix("1/1019 = 0.(000981354"))
    #expect(text.hasSuffix("… (period longer than 1,000 digits)"))
    let period = text.drop { $0 != "(" }.dropFirst().prefix { $0 != "…" }
    #expect(period.count == 1000)
  }

  /// Programmer mode: the four radixes; an error has no value.
  @Test func programmerModeAndErrors() throws {
    try expectScript(
      ["-"], stdin: "prog 255\n:exact\n", stdout: "255\nHEX FF\nDEC 255\nOCT 377\nBIN 11111111\n")
    try expectScript(
      ["-"], stdin: "1/0=\n:exact\n", stdout: "Cannot divide by zero\n",
      stderr: "<stdin>:2:7: the display shows Cannot divide by zero: no value\n", status: 65)
  }

  /// `:help exact` explains it, and the command table lists it (so Tab completes it).
  @Test func helpAndCompletion() throws {
    #expect(CommandSpec.all.contains { $0.name == "exact" })
    let run = try InProcess.run(["-"], stdin: Data(":help exact\n".utf8))
    #expect(run.stdout.contains(":exact [L]"))
    #expect(run.stdout.contains("0.1(6)"))
  }
}
