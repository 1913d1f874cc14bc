import CalcTestSupport
import CalculatorEngine
import Testing

/// SPEC §9's decision on the × that a digit or point right after `)` implies: the result is the
/// calculation that the expression line shows (Windows drops the pending operation instead).
@Suite struct ImpliedMultiplyTests {
  /// Keys from a fresh calculator, the display (en_US) and the expression line after them.
  typealias Row = DisplayLineRow

  static let format = DisplayLineRow.format

  static let rows: [Row] = [
    // SPEC §9's three (Windows: 12, 12, 6).
    Row("sci 2(3)4=", "24", "2 × (3) × 4 ="),
    Row("sci 2*(1+2)4=", "24", "2 × (1 + 2) × 4 ="),
    Row("sci 1+(2)3=", "7", "1 + (2) × 3 ="),
    // A pending operation that binds as tightly or more runs first; one that binds less waits.
    Row("sci 6/(2)3=", "9", "6 ÷ (2) × 3 ="),
    Row("sci 7mod(4)2=", "6", "7 Mod (4) × 2 ="),
    Row("sci 1-(2)3=", "-5", "1 - (2) × 3 ="),
    Row("sci 2^(1)3=", "6", "2 ^ (1) × 3 ="),
    Row("sci 2^(2)3^2=", "36", "2 ^ (2) × 3 ^ 2 ="),
    Row("sci 2+3*(4)5^2=", "302", "2 + 3 × (4) × 5 ^ 2 ="),
    Row("sci 1+2*(3)4-5=", "20", "1 + 2 × (3) × 4 - 5 ="),
    // Nested brackets, and a point after `)`.
    Row("sci 2((3)4)5=", "120", "2 × ((3) × 4) × 5 ="),
    Row("sci (1+(2)3)2=", "14", "(1 + (2) × 3) × 2 ="),
    Row("sci (2)(3)4=", "24", "(2) × (3) × 4 ="),
    Row("sci 2*(3).5=", "3", "2 × (3) × 0.5 ="),
    // Before `=`: the × is on the line, the digit in the display.
    Row("sci 2*(1+2)4", "4", "2 × (1 + 2) ×"),
    // An error the × gives is shown until the key, which starts a new calculation (rule 14).
    Row("sci 1/(0)*", "Cannot divide by zero", "1 ÷ (0) ×"), Row("sci 1/(0)5", "5", ""),
    // After `=`: a new calculation, and a repeated `=` repeats the × that ran last.
    Row("sci 1+2=(3)4=", "12", "(3) × 4 ="),
    Row("sci 2(3)4==", "96", "24 × 4 ="),
  ]

  @Test(arguments: rows) func row(_ row: Row) throws {
    let state = Calculator.initial.applying(try KeyText.keys(in: row.keys))
    #expect(Self.format.text(for: state) == row.display)
    #expect(Self.format.expression(for: state) == row.line)
  }

  /// On random bracketed lines, a digit or point right after a `)` that closed a bracket gives
  /// what `*` typed before it gives: the same display and expression line.
  @Test func impliedIsTyped() throws {
    var random = SplitMix64(state: 32)
    var impliedLines = 0
    let pieces = [
      "1", "2", ".5", "+", "-", "*", "/", "^", "mod", "(", "(", ")", ")", "=", "@", "~",
    ]
    for _ in 0..<TestSize.count(short: 300, long: 20_000) {
      var implied = "sci "
      var typed = "sci "
      var afterClose = false
      var sawImplied = false
      var state = try Calculator.initial.applying(KeyText.keys(in: implied))
      for _ in 0..<Int(random.next() % 24) {
        let piece = pieces[Int(random.next() % UInt64(pieces.count))]
        if afterClose, piece.first.map({ $0.isNumber || $0 == "." }) == true {
          typed += "* "
          sawImplied = true
        }
        // A `)` closes a bracket only when one is open and no error is shown.
        afterClose =
          piece == ")" && (state.scientific?.openBrackets ?? 0) > 0 && !state.isError
        state = state.applying(try KeyText.keys(in: piece))
        implied += piece + " "
        typed += piece + " "
      }
      let a = Calculator.initial.applying(try KeyText.keys(in: implied))
      #expect(a == state)
      let b = Calculator.initial.applying(try KeyText.keys(in: typed))
      #expect(Self.format.text(for: a) == Self.format.text(for: b), "\(implied)")
      #expect(Self.format.expression(for: a) == Self.format.expression(for: b), "\(implied)")
      if sawImplied { impliedLines += 1 }
    }
    // The property is about lines that imply a ×: enough of them must come up.
    #expect(impliedLines >= 20)
  }
}
