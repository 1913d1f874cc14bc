import CalcTestSupport
import Testing

@testable import CalculatorEngine

/// A long Programmer key line (SPEC §7, "Long lines"): its expression line is a ``TokenLine``
/// shared between the brain, its shown line and history's snapshots, so a key costs the same at
/// the end of the line as at its start; these check that the shared line still says and
/// computes what the keys do.
@Suite struct ProgrammerLongLineTests {
  /// The benchmark's Programmer mix (calc-bench's `longLine(bytes:mode:)`), and how the
  /// expression line writes one piece of it.
  static let piece = "1+2*((3+4)*5)+"
  static let written = "1 + 2 × ((3 + 4) × 5) + "

  /// 2,000 pieces (28,000 keys) by default, 50,000 with `CALC_LONG_TESTS=1`.
  static let pieces = TestSize.count(short: 2_000, long: 50_000)

  @Test func aLongLineOfTheMixComputesAndShowsItsWholeExpression() throws {
    let pending = try ProgrammerModeTests.session(String(repeating: Self.piece, count: Self.pieces))
    // A line waiting for its operand ends with the operator, without the space (`1 +`).
    let shown = String(repeating: Self.written, count: Self.pieces)
    #expect(ProgrammerModeTests.english.expression(for: pending.state) == String(shown.dropLast()))
    #expect(DisplayFormat.plain.text(for: pending.state) == "\(71 * Self.pieces)")
    let done = try ProgrammerModeTests.session(
      String(repeating: Self.piece, count: Self.pieces) + "1=")
    #expect(ProgrammerModeTests.english.expression(for: done.state) == shown + "1 =")
    #expect(DisplayFormat.plain.text(for: done.state) == "\(71 * Self.pieces + 1)")
  }

  @Test func replacingAnOperatorByOneOfHigherPrecedenceOnALongLineBracketsAllBeforeIt() throws {
    // `1-2+*3-`: `+` replaced by `×` brackets the whole line before it, each time.
    let count = Self.pieces
    let session = try ProgrammerModeTests.session(String(repeating: "1-2+*3-", count: count))
    // Each piece opens one more bracket at the start: `((1 - 2) × 3 - 1 - 2) × 3 -`.
    let expected =
      String(repeating: "(", count: count) + String(repeating: "1 - 2) × 3 - ", count: count)
    var value: Int64 = (1 - 2) * 3
    for _ in 1..<count { value = (value &- 1 &- 2) &* 3 }
    #expect(
      ProgrammerModeTests.english.expression(for: session.state) == String(expected.dropLast()))
    #expect(DisplayFormat.plain.text(for: session.state) == "\(value)")
  }
}
