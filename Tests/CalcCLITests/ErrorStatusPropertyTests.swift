import CalcTestSupport
import CalculatorEngine
import Foundation
import Testing

@testable import CalcCLI

/// Issue 45's property (SPEC v5 §5): for random key lines in every mode, `calc --keys` exits 1
/// exactly when its trace shows an error on the way or at the end — an error at the end, or
/// one that a later key left without clearing it on purpose (AC, CE or a mode key, rule 14;
/// SPEC §9: a mode key clears like AC). In process; 150 lines a mode, 4,000 with
/// `CALC_LONG_TESTS=1`.
@Suite struct ErrorStatusPropertyTests {
  /// Key text pieces of each mode, weighted toward what shows errors: zeros, `/`, `=`.
  static let pieces: [Key.Mode: [String]] = [
    .standard: [
      "0", "0", "0", "1", "2", "9", "12", ".", "+", "-", "*", "/", "/", "=", "=", "%", "~", "c",
      "ce", "<", "@", "q", "r", "ms", "mr", "m+", "m-", "mc", "99999999", "sci", "std", "/ 0 =",
    ],
    .scientific: [
      "0", "0", "0", "1", "2", "9", ".", "+", "-", "*", "/", "/", "=", "=", "~", "c", "ce", "<",
      "@", "r", "(", ")", "^", "yroot", "mod", "logy", "sin", "ln", "log", "!", "exp", "pi",
      "tan", "90", "acos", "ms", "mr", "std", "sci", "/ 0 =",
    ],
    .programmer: [
      "0", "0", "0", "1", "2", "9", "64", "+", "-", "*", "/", "/", "=", "=", "~", "c", "ce", "<",
      "(", ")", "and", "or", "xor", "not", "lsh", "rsh", "rshl", "rol", "rorc", "mod", "bit3",
      "hex", "dec", "oct", "byte", "qword", "ms", "mr", "prog", "std", "/ 0 =", "lsh 64 =",
    ],
  ]

  static func option(_ mode: Key.Mode) -> String {
    switch mode {
    case .standard: "standard"
    case .scientific: "scientific"
    case .programmer: "programmer"
    case .formula: "formula"
    case .date: "date"
    }
  }

  static let errors = Set(CalculationError.allCases.map(\.message))

  @Test(arguments: [Key.Mode.standard, .scientific, .programmer])
  func statusIsOneExactlyWhenTheTraceShowsAnError(mode: Key.Mode) throws {
    var random = SplitMix64(
      state: 0x45E0 &+ UInt64(mode == .standard ? 0 : mode == .scientific ? 1 : 2))
    let pieces = Self.pieces[mode]!
    var withError = 0
    var checked = 0
    for _ in 0..<TestSize.count(short: 150, long: 4_000) {
      let line = (0..<random.int(1...14)).map { _ in pieces[random.below(pieces.count)] }
        .joined(separator: " ")
      let arguments = ["-q", "--mode", Self.option(mode), "-k", line]
      let run = try InProcess.run(arguments, environment: posixLocale)
      // A line the keypad refuses (a hex digit outside HEX) is no key line: 65.
      guard run.status != 65 else { continue }
      let trace = try InProcess.run(["--trace"] + arguments, environment: posixLocale)
      #expect(trace.status == run.status, "\(line)")
      // Each row: the key's title, the display after it, the expression line.
      let rows = trace.stdout.split(separator: "\n").map {
        $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      }
      var shows = false
      var showing = false
      for row in rows where row.count >= 2 {
        let isError = Self.errors.contains(row[1])
        if showing, !isError, !["AC", "CE", "std", "sci", "prog"].contains(row[0]) {
          shows = true
        }
        showing = isError
      }
      if showing { shows = true }
      checked += 1
      if shows { withError += 1 }
      #expect(
        run.status == (shows ? 1 : 0),
        "calc --mode \(Self.option(mode)) -k '\(line)'\n\(trace.stdout)")
    }
    #expect(checked >= 100 && withError >= 10, "checked \(checked), with an error \(withError)")
  }
}
