import CalcTestSupport
import CalculatorEngine
import Testing

/// SPEC §3.1 "Empty … while typing a first number, … when a digit starts a new number after
/// `=`", and "`mr` acts like typing the number it recalls", in all three modes: a new number
/// after a unary key, a sign change, `=`, CE or a radix key with nothing pending empties the
/// line; with an operator pending or a bracket open, the line keeps what the number belongs to;
/// an implied × (SPEC §9) keeps the line it extends. Exact display and line (en_US).
@Suite struct NewNumberLineTests {
  /// A row: keys from a fresh calculator, the display and the exact expression line after them.
  typealias Row = DisplayLineRow

  static let format = DisplayLineRow.format

  static func state(_ keys: String) throws -> Calculator { try DisplayLineRow.state(keys) }

  static let standard: [Row] = [
    Row("9@5", "5", ""), Row("9q5", "5", ""), Row("4r.", "0.", ""), Row("2=5", "5", ""),
    Row("2+3=5", "5", ""), Row("2+3=~5", "5", ""), Row("9@ce", "0", ""),
    Row("9@ 5ms 9@ mr", "5", ""), Row("1/0=5", "5", ""),
    // Pending: the number is the right operand being typed.
    Row("2+9@5", "5", "2 +"), Row("2+9@ 5ms 9@ mr", "5", "2 +"),
    // What it was before the new number, for contrast.
    Row("9@", "3", "√(9)"), Row("2+3=~", "-5", "negate(5)"),
  ]

  static let scientific: [Row] = [
    Row("sci 9@5", "5", ""), Row("sci 9 sin 5", "5", ""), Row("sci 9 cube .", "0.", ""),
    Row("sci 8 cbrt 12", "12", ""), Row("sci 9@5exp2", "5.e+2", ""),
    Row("sci 2=5", "5", ""), Row("sci 13=.5", "0.5", ""), Row("sci 2+3=5", "5", ""),
    Row("sci 2+3=~5", "5", ""), Row("sci ~5", "5", ""), Row("sci 9@ ce", "0", ""),
    Row("sci 1/0=5", "5", ""), Row("sci 9@ 12 rad 3", "3", ""),
    // Constants and `mr` put a computed value in the display, like typing it.
    Row("sci 9@ pi", "3.14159265", ""), Row("sci 9@ euler", "2.71828183", ""),
    Row("sci 2= pi", "3.14159265", ""), Row("sci 9@ 5ms 9@ mr", "5", ""),
    // Pending or bracketed: the line keeps what the number belongs to.
    Row("sci 2+9@5", "5", "2 +"), Row("sci (9@5", "5", "("), Row("sci 2*(9@5", "5", "2 × ("),
    Row("sci 2+9@ pi", "3.14159265", "2 +"), Row("sci (9@ 5ms 9@ mr", "5", "("),
    // The implied × after a function or `)` (SPEC §9) extends the line.
    Row("sci 9@(", "3", "√(9) × ("), Row("sci (2)5", "5", "(2) ×"),
    Row("sci 9@", "3", "√(9)"), Row("sci 9 sin", "0.15643447", "sin₀(9)"),
  ]

  static let programmer: [Row] = [
    Row("prog 9 not 5", "5", ""), Row("prog hex A~1", "1", ""), Row("prog 2=5", "5", ""),
    Row("prog 2+3=5", "5", ""), Row("prog 12 hex 3", "3", ""), Row("prog 9 not hex 3", "3", ""),
    Row("prog 9 not ce", "0", ""), Row("prog 1/0=5", "5", ""), Row("prog 9 not bit3", "-2", ""),
    Row("prog 9 not 5ms 9 not mr", "5", ""), Row("prog 5 rol 3", "3", ""),
    // Pending or bracketed.
    Row("prog 2+9 not 5", "5", "2 +"), Row("prog (9 not 5", "5", "("),
    Row("prog (2)5", "5", "(2) ×"), Row("prog hex 2+A~1", "1", "2 +"),
    Row("prog 9 not", "-10", "NOT(9)"), Row("prog hex A~", "FFFF FFFF FFFF FFF6", "negate(A)"),
  ]

  @Test(arguments: standard + scientific + programmer) func lineOfANewNumber(_ row: Row) throws {
    let state = try Self.state(row.keys)
    #expect(Self.format.text(for: state) == row.display)
    #expect(Self.format.expression(for: state) == row.line)
  }

  /// `$N` (SPEC §11) recalls like `mr`: after a unary key it starts the line afresh.
  @Test(arguments: [
    ("9@ $1", ""), ("sci 9@ $1", ""), ("prog 9 not $1", ""), ("sci 2+9@ $1", "2 +"),
  ])
  func aReferenceActsLikeTypingItsValue(_ keys: String, _ line: String) throws {
    var replay = SessionScript.Replay()
    try replay.perform("2+3=")
    try replay.perform(keys)
    let state = replay.session.state
    #expect(Self.format.text(for: state) == "5")
    #expect(Self.format.expression(for: state) == line)
  }
}
