import CalcDecimal
import Testing

@testable import CalculatorEngine

/// The operator engine that Scientific and Programmer mode share (``OperatorStack``): one
/// precedence table for both (SPEC §9 and §10 list parts of it), and the limits of its stack
/// the same in both modes, as Windows' one `CCalcEngine` has them.
@Suite struct OperatorStackTests {
  /// The calculator after `text` in `mode`.
  static func state(_ text: String, in mode: Key.Mode) throws -> Calculator {
    Calculator.initial.applying(
      [.mode(mode)] + Array(try KeyText.keys(in: text, startingIn: mode)))
  }

  /// SPEC §9: `+ −` < `× ÷ mod` < `^ yroot logy`; SPEC §10: `or xor` < `and nand nor` < `+ −` <
  /// `× ÷ mod lsh rsh rshl`. One table holds both orders.
  @Test func onePrecedenceTableHoldsBothModesOrders() {
    let scientific: [[BinaryOperator]] = [
      [.plus, .minus], [.multiply, .divide, .mod], [.power, .root, .logBase],
    ]
    let programmer: [[BinaryOperator]] = [
      [.or, .xor], [.and, .nand, .nor], [.plus, .minus],
      [.multiply, .divide, .mod, .leftShift, .rightShift, .logicalRightShift],
    ]
    for levels in [scientific, programmer] {
      for (lower, higher) in zip(levels, levels.dropFirst()) {
        for a in lower {
          for b in higher { #expect(a.precedence < b.precedence, "\(a) < \(b)") }
        }
      }
      for level in levels {
        #expect(Set(level.map(\.precedence)).count == 1, "\(level) bind alike")
      }
    }
  }

  /// Both modes take the same expressions of their common keys to the same line and result.
  @Test(arguments: [
    ("1+2*3=", "1 + 2 × 3 =", "7"),
    ("2-3*+4=", "2 - 3 + 4 =", "3"),
    ("1-2+*3=", "(1 - 2) × 3 =", "-3"),
    ("2(3)4=", "2 × (3) × 4 =", "24"),
    ("1+(2)3=", "1 + (2) × 3 =", "7"),
    ("8*2==", "16 × 2 =", "32"),
    ("7 mod 3+1=", "7 Mod 3 + 1 =", "2"),
  ])
  func commonKeysGiveTheSameLineInBothModes(text: String, line: String, result: String) throws {
    let format = DisplayFormat.posix
    for mode in [Key.Mode.scientific, .programmer] {
      let state = try Self.state(text, in: mode)
      #expect(format.expression(for: state) == line, "\(mode)")
      #expect(format.text(for: state) == result, "\(mode)")
    }
  }

  /// With 24 brackets open above a pending operation, the precedence stack is full (25) with a
  /// bracket's mark on top: a 25th `(` opens in both modes, as in Windows' `IDC_OPENP` (the mark
  /// is not pushed), and a 26th does nothing. Programmer mode refused the 25th before its
  /// brain shared the stack. Without a mark of its own, the 25th bracket's `)` (pressed by `=`)
  /// pops the 24th's, and `3=` then gives 8, not 7, in both modes (Windows' quirk, kept).
  @Test func theTwentyFifthBracketOpensInBothModes() throws {
    let opens = String(repeating: "(", count: 24)
    for mode in [Key.Mode.scientific, .programmer] {
      let state = try Self.state("1+2*" + opens, in: mode)
      let brackets = { (state: Calculator) in
        state.scientific?.openBrackets ?? state.programmer?.openBrackets ?? 0
      }
      #expect(brackets(state) == 24, "\(mode)")
      let more = state.applying(try KeyText.keys(in: "(", startingIn: mode))
      #expect(brackets(more) == 25, "\(mode)")
      let most = more.applying(try KeyText.keys(in: "(", startingIn: mode))
      #expect(brackets(most) == 25, "\(mode)")
      let done = most.applying(try KeyText.keys(in: "3=", startingIn: mode))
      #expect(DisplayFormat.posix.text(for: done) == "8", "\(mode)")
    }
  }
}
