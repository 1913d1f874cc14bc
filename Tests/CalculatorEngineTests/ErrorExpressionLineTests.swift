import CalcTestSupport
import CalculatorEngine
import Testing

/// SPEC §3.1 "After an error: the calculation that failed, with the key that triggered it", in
/// all three modes: every error path of each brain (division, mod, shift counts, functions'
/// domains, overflow, brackets, an operator completing a pending operation, a repeated `=`),
/// with the exact display and expression line (en_US); then rule 14: the keys that leave the
/// error leave the line too.
@Suite struct ErrorExpressionLineTests {
  /// A row: keys from a fresh calculator, the display and the exact expression line after them.
  typealias Row = DisplayLineRow

  static let format = DisplayLineRow.format

  static func state(_ keys: String) throws -> Calculator { try DisplayLineRow.state(keys) }

  static let divide = "Cannot divide by zero"
  static let undefined = "Result is undefined"
  static let notDefined = "Result not defined"
  static let invalid = "Invalid input"
  /// An entry of 32 digits with the largest exponent: 10^10031 rounded, beyond Scientific
  /// mode's limit.
  static let huge = String(repeating: "9", count: 32) + "exp9999"
  /// Ten `m+`: a memory of 10^9999 becomes 1.1·10^10000.
  static let tenfold = String(repeating: " m+", count: 10)

  static let standard: [Row] = [
    Row("1/0=", divide, "1 ÷ 0 ="), Row("7/0+", divide, "7 ÷ 0 +"), Row("9~@", invalid, "√(-9)"),
    Row("0/0=", undefined, "0 ÷ 0 ="), Row("5/0*", divide, "5 ÷ 0 ×"),
    Row("0r", divide, "1/(0)"), Row("2+9~@", invalid, "2 + √(-9)"),
    Row("2+0r=", divide, "2 + 1/(0)"), Row("1/0==", divide, "1 ÷ 0 ="),
  ]

  static let scientific: [Row] = [
    // `=` completing the operation, alone and after brackets and precedence.
    Row("sci 1/0=", divide, "1 ÷ 0 ="), Row("sci 0/0=", undefined, "0 ÷ 0 ="),
    Row("sci 1+2*3/0=", divide, "1 + 2 × 3 ÷ 0 ="), Row("sci (1/0=", divide, "(1 ÷ 0) ="),
    Row("sci 1+(2/0=", divide, "1 + (2 ÷ 0) ="), Row("sci 4~yroot2=", invalid, "-4 yroot 2 ="),
    Row("sci 0logy0=", invalid, "0 log base 0 ="),
    Row("sci 1exp9999*10=", "Overflow", "1E9999 × 10 ="),
    Row("sci 2^1exp9999=", "Overflow", "2 ^ 1E9999 ="),
    // A repeated `=` that fails shows the operation it tried.
    Row("sci 1exp4000^2==", "Overflow", "1E8000 ^ 2 ="),
    // An operator or `)` completing a pending operation.
    Row("sci 7/0+", divide, "7 ÷ 0 +"), Row("sci 1+2/0+", divide, "1 + 2 ÷ 0 +"),
    Row("sci (1/0)", divide, "(1 ÷ 0)"), Row("sci 2(3/0)", divide, "2 × (3 ÷ 0)"),
    Row("sci 2/0(", divide, "2 ÷ 0 × ("),
    // Functions outside their domain.
    Row("sci 9~@", invalid, "√(-9)"), Row("sci 0r", divide, "1/(0)"),
    Row("sci 90tan", invalid, "tan₀(90)"), Row("sci 90sec", divide, "sec₀(90)"),
    Row("sci 1atanh", divide, "tanh⁻¹(1)"), Row("sci 0ln", invalid, "ln(0)"),
    Row("sci 2+90tan", invalid, "2 + tan₀(90)"), Row("sci (2+0r)", divide, "(2 + 1/(0)"),
    Row("sci 1exp5000 pow10", "Overflow", "10^(1E5000)"),
    // An entry beyond the limits, failing as a key ends it.
    Row("sci \(huge)+", "Overflow", "1E10031 +"), Row("sci \(huge)=", "Overflow", "1E10031 ="),
    Row("sci 2+\(huge)=", "Overflow", "2 + 1E10031 ="),
    Row("sci \(huge)sin", "Overflow", "sin₀(1E10031)"),
    Row("sci \(huge)ms", "Overflow", "1E10031"),
    // A memory summed past the limits: the `m+` that reaches them shows Overflow with the line
    // as it was (`MemoryLimitTests`), and the keys after it are ignored.
    Row("sci 1exp9999 ms\(tenfold) mr", "Overflow", ""),
    Row("sci 2+1exp9999 ms\(tenfold) mr", "Overflow", "2 +"),
    // Keys while the error shows leave the line (rule 14).
    Row("sci 1/0==", divide, "1 ÷ 0 ="), Row("sci 1/0= +", divide, "1 ÷ 0 ="),
  ]

  static let programmer: [Row] = [
    Row("prog 1/0=", divide, "1 ÷ 0 ="), Row("prog 0/0=", undefined, "0 ÷ 0 ="),
    Row("prog 7 mod 0=", undefined, "7 Mod 0 ="), Row("prog 7/0+", divide, "7 ÷ 0 +"),
    Row("prog 1 lsh 64=", notDefined, "1 Lsh 64 ="),
    Row("prog 1 lsh 1~=", notDefined, "1 Lsh -1 ="),
    Row("prog byte 1 rsh 8=", notDefined, "1 Rsh 8 ="),
    Row("prog 1 rshl 64+", notDefined, "1 RshL 64 +"),
    Row("prog 5 lsh 70 and", notDefined, "5 Lsh 70 AND"),
    Row("prog 1 or 2 lsh 64=", notDefined, "1 OR 2 Lsh 64 ="),
    Row("prog hex F/0=", divide, "F ÷ 0 ="), Row("prog (1/0)", divide, "(1 ÷ 0)"),
    Row("prog (2 mod 0)", undefined, "(2 Mod 0)"), Row("prog (1/0=", divide, "(1 ÷ 0) ="),
    Row("prog 1+(2/0=", divide, "1 + (2 ÷ 0) ="), Row("prog 2/0(", divide, "2 ÷ 0 × ("),
    // A repeated `=` that fails: the word shrank under the shift count.
    Row("prog 1 lsh 40 = byte =", notDefined, "0 Lsh 40 ="),
    Row("prog 1/0==", divide, "1 ÷ 0 ="), Row("prog 1/0= +", divide, "1 ÷ 0 ="),
    Row("prog 1/0= not", divide, "1 ÷ 0 ="),
  ]

  @Test(arguments: standard + scientific + programmer) func lineAfterAnError(_ row: Row) throws {
    let state = try Self.state(row.keys)
    #expect(Self.format.text(for: state) == row.display)
    #expect(Self.format.expression(for: state) == row.line)
    #expect(state.isError)
  }

  /// Rule 14: the keys that leave the error (operators, `=`, `~`, NOT, `(`, `)`, backspace,
  /// memory keys) leave the display and the expression line as they were, in every mode.
  @Test(arguments: standard + scientific + programmer) func ignoredKeysLeaveTheLine(_ row: Row)
    throws
  {
    let failed = try Self.state(row.keys)
    let mode = failed.mode
    var ignored = ["+", "*", "=", "~", "<", "ms", "m+", "m-"]
    switch mode {
    case .standard: ignored += ["@", "r"]
    case .scientific: ignored += ["(", ")", "sin", "^", "mod"]
    case .programmer: ignored += ["(", ")", "not", "rol", "and", "lsh", "mod"]
    case .formula, .date: return  // No row is in formula or date mode.
    }
    for text in ignored {
      let after = failed.applying(try KeyText.keys(in: text, startingIn: mode))
      #expect(Self.format.text(for: after) == row.display, "\(row.keys) \(text)")
      #expect(Self.format.expression(for: after) == row.line, "\(row.keys) \(text)")
    }
    // A digit starts afresh, with an empty line.
    let fresh = failed.applying(try KeyText.keys(in: "5", startingIn: mode))
    #expect(Self.format.text(for: fresh) == "5")
    #expect(Self.format.expression(for: fresh) == "")
  }

  /// While an error shows no operation is pending, whatever the failed calculation left on its
  /// stack: nothing waits for `=` (so no "not finished" note), as in Standard mode.
  @Test(arguments: ["sci 7/0+", "sci (1/0)", "sci 1+(2/0=", "prog 7/0+", "prog (5 mod 0)"])
  func nothingIsPendingWhileAnErrorShows(_ keys: String) throws {
    let state = try Self.state(keys)
    #expect(state.isError)
    if let scientific = state.scientific {
      #expect(!scientific.isPending)
    } else {
      #expect(state.programmer?.isPending == false)
    }
  }
}
