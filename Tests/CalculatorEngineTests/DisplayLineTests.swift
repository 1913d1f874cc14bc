import CalcTestSupport
import CalculatorEngine
import Testing

/// `DisplayFormat.appendLine`, a script's answer line: the display and a newline, the short
/// path (a value of at most 8 fraction digits and 19 digits, or one that rounds to such in the
/// display's precision) written in one buffer. Expected texts worked out by hand; the property
/// compares the line with the general path's display and a newline.
@Suite struct DisplayLineTests {
  /// The calculator after the keys of `text`, from the start.
  static func calculator(after text: String) throws -> Calculator {
    Calculator.initial.applying(try KeyText.keys(in: text))
  }

  static func line(_ calculator: Calculator, in format: DisplayFormat) -> String {
    var bytes: [UInt8] = []
    format.appendLine(calculator, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Keys, then the line in POSIX ungrouped (a script's output: the display's precision), plain
  /// (every digit) and German ungrouped.
  static let rows: [(keys: String, posix: String, plain: String, german: String)] = [
    ("123.45*6.7=", "827.115\n", "827.115\n", "827,115\n"),
    ("0-2.5=", "-2.5\n", "-2.5\n", "-2,5\n"),
    ("1/4=", "0.25\n", "0.25\n", "0,25\n"),
    ("7/2=", "3.5\n", "3.5\n", "3,5\n"),
    ("5-5=", "0\n", "0\n", "0\n"),
    ("1.50+1.50=", "3\n", "3\n", "3\n"),
    // A sum keeps 34 digits (8422208 and 27 zeros): the zeros dropped, it is short.
    ("83811.14+410.94=", "84222.08\n", "84222.08\n", "84222,08\n"),
    ("36049.31-3658.17=", "32391.14\n", "32391.14\n", "32391,14\n"),
    ("0.125+0.875=", "1\n", "1\n", "1\n"),
    ("999999999999.99+0.01=", "1000000000000\n", "1000000000000\n", "1000000000000\n"),
    ("99999999/100000000=", "0.99999999\n", "0.99999999\n", "0,99999999\n"),
    ("12345678*100000000=", "1234567800000000\n", "1234567800000000\n", "1234567800000000\n"),
    // A 34-digit quotient: rounded to 8 fraction digits, or every digit.
    (
      "1/3=", "0.33333333\n", "0." + String(repeating: "3", count: 34) + "\n",
      "0,33333333\n"
    ),
    (
      "0-2/3=", "-0.66666667\n", "-0." + String(repeating: "6", count: 33) + "7\n",
      "-0,66666667\n"
    ),
    // Below 10^-8: scientific notation.
    ("0.00000001/2=", "5E-9\n", "5E-9\n", "5E-9\n"),
    // An entry, not a computed value; an error.
    ("12.50", "12.50\n", "12.50\n", "12,50\n"),
    ("1/0=", "Cannot divide by zero\n", "Cannot divide by zero\n", "Cannot divide by zero\n"),
    // Standard's other states that show a computed value: after an operator (a fraction), a
    // unary key on the left operand, and on the right one.
    (
      "1/7+", "0.14285714\n", "0." + String(repeating: "142857", count: 5) + "1429\n",
      "0,14285714\n"
    ),
    ("9@", "3\n", "3\n", "3\n"),
    ("1+2.25@", "1.5\n", "1.5\n", "1,5\n"),
  ]

  @Test func linesWorkedOutByHand() throws {
    let german = DisplayFormat(localeIdentifier: "de_DE").ungrouped
    for row in Self.rows {
      let calculator = try Self.calculator(after: row.keys)
      #expect(Self.line(calculator, in: DisplayFormat.posix.ungrouped) == row.posix, "\(row.keys)")
      #expect(Self.line(calculator, in: .plain) == row.plain, "\(row.keys)")
      #expect(Self.line(calculator, in: german) == row.german, "\(row.keys)")
    }
  }

  /// Random lines of sums, products and quotients (ending with `=`, an operator or `√`): the
  /// line is the display and a newline, in
  /// formats ungrouped and grouped, with ASCII and Arabic digits, in either precision.
  @Test func theLineIsTheDisplayAndANewline() throws {
    let formats: [DisplayFormat] = [
      .posix, DisplayFormat.posix.ungrouped, .plain, DisplayFormat(localeIdentifier: "de_DE"),
      DisplayFormat(localeIdentifier: "de_DE").ungrouped, DisplayFormat(localeIdentifier: "en_US"),
      DisplayFormat(localeIdentifier: "ar_EG"), DisplayFormat(localeIdentifier: "sv_SE").ungrouped,
    ]
    var random = SplitMix64(state: 0x11E5)
    func number() -> String {
      let digits = (0..<(1 + random.below(12))).map { _ in String(random.below(10)) }.joined()
      guard random.below(2) == 0 else { return digits }
      let point = random.below(digits.count + 1)
      return String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
    }
    let operators = ["+", "-", "*", "/"]
    for _ in 0..<TestSize.count(short: 300, long: 20_000) {
      var text = (random.below(4) == 0 ? "0-" : "") + number()
      for _ in 0..<(1 + random.below(3)) {
        text += operators[random.below(operators.count)] + number()
      }
      // Mostly `=`; else an operator or a square root after the last operand (Standard's
      // other states that show a computed value).
      text += ["=", "=", "+", "@"][random.below(4)]
      let calculator = try Self.calculator(after: text)
      for format in formats {
        #expect(Self.line(calculator, in: format) == format.text(for: calculator) + "\n", "\(text)")
      }
    }
  }
}
