import CalcDecimal
import CalcTestSupport
import CalculatorEngine
import Testing

/// SPEC §3 for a script's output: a computed value written without grouping (the plain format
/// and a locale's ungrouped one) in one buffer, two digits at a time, up to 34 digits and 8
/// zeros after the point. Expected texts worked out by hand; the property compares the
/// ungrouped path with the grouped one, separators taken out.
@Suite struct UngroupedDisplayTests {
  struct Row: CustomTestStringConvertible, Sendable {
    let coefficient: UInt128
    let exponent: Int
    let isNegative: Bool
    let plain: String
    let display: String
    var testDescription: String { "\(isNegative ? "-" : "")\(coefficient)e\(exponent)" }
  }

  static let rows: [Row] = [
    // A division's 34 digits: all of them plain, 8 fraction digits rounded otherwise.
    Row(
      coefficient: 1_763_667_142_857_142_857_142_857_142_857_143, exponent: -30, isNegative: false,
      plain: "1763.667142857142857142857142857143", display: "1763.66714286"),
    // A sum held with 34 digits: the fraction's trailing zeros go.
    Row(
      coefficient: 1_323_690_000_000_000_000_000_000_000_000_000, exponent: -30, isNegative: false,
      plain: "1323.69", display: "1323.69"),
    Row(
      coefficient: 2_500_000_000_000_000_000_000_000_000_000_000, exponent: -33, isNegative: true,
      plain: "-2.5", display: "-2.5"),
    // No fraction left: no point.
    Row(
      coefficient: 1_000_000_000_000_000_000_000_000_000_000_000, exponent: -33, isNegative: false,
      plain: "1", display: "1"),
    // Zeros between the point and the digits, down to 10^-8.
    Row(
      coefficient: 1_234_567_890_123_456_789_012, exponent: -29, isNegative: false,
      plain: "0.00000001234567890123456789012", display: "0.00000001"),
    // The low 19 digits written whole (zeros included) when more digits remain above them.
    Row(
      coefficient: 18_446_744_073_709_551_616, exponent: -10, isNegative: false,
      plain: "1844674407.3709551616", display: "1844674407.37095516"),
    Row(
      coefficient: 10_000_000_000_000_000_000_000, exponent: -20, isNegative: false,
      plain: "100", display: "100"),
    Row(
      coefficient: 100_000_000_000_000_000_005, exponent: -21, isNegative: false,
      plain: "0.100000000000000000005", display: "0.1"),
    // An integer: its digits, then zeros.
    Row(
      coefficient: 12_345_678_901_234_567_890_123, exponent: 5, isNegative: true,
      plain: "-1234567890123456789012300000", display: "-1234567890123456789012300000"),
  ]

  /// The plain format's symbols with `decimal` as the separator, in `precision`.
  static func format(decimal: String, precision: DisplayFormat.Precision) -> DisplayFormat {
    DisplayFormat(
      localeIdentifier: "test", decimalSeparator: decimal, groupingSeparator: "", groupingSize: 0,
      secondaryGroupingSize: 0, minusSign: "-",
      digits: ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"], precision: precision)
  }

  @Test(arguments: rows) func valuesAreWrittenAsTheRulesSay(_ row: Row) {
    let value = Decimal34(
      coefficient: row.coefficient, exponent: row.exponent, isNegative: row.isNegative)
    #expect(DisplayFormat.plain.text(for: value) == row.plain)
    #expect(DisplayFormat(localeIdentifier: "en_US").ungrouped.text(for: value) == row.display)
    // A separator of two bytes (U+066B) moves the integer digits further.
    #expect(
      Self.format(decimal: "\u{66B}", precision: .exact).text(for: value)
        == row.plain.replacingOccurrences(".", with: "\u{66B}"))
    #expect(
      Self.format(decimal: ",", precision: .display).text(for: value)
        == row.display.replacingOccurrences(".", with: ","))
  }

  @Test func ungroupedTextIsTheGroupedTextWithoutSeparators() {
    var random = SplitMix64(state: 0x0A9_9E7)
    let grouped = DisplayFormat(
      localeIdentifier: "en_US", decimalSeparator: ".", groupingSeparator: ",", groupingSize: 3,
      secondaryGroupingSize: 0, minusSign: "-",
      digits: ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"], precision: .exact)
    for _ in 0..<TestSize.count(short: 5_000, long: 200_000) {
      let digits = random.int(1...34)
      var coefficient: UInt128 = 0
      for _ in 0..<digits { coefficient = coefficient * 10 + UInt128(random.int(0...9)) }
      if coefficient == 0 { coefficient = 1 }
      let length = String(coefficient).count
      // Magnitudes from 10^-8 up to below 10^34: positional notation.
      let exponent = random.int((-8 - length + 1)...(33 - length + 1))
      let value = Decimal34(
        coefficient: coefficient, exponent: exponent, isNegative: random.chance(30))
      let english = DisplayFormat(localeIdentifier: "en_US")
      #expect(
        DisplayFormat.plain.text(for: value)
          == grouped.text(for: value).replacingOccurrences(",", with: ""),
        "\(coefficient)e\(exponent)")
      #expect(
        english.ungrouped.text(for: value)
          == english.text(for: value).replacingOccurrences(",", with: ""),
        "\(coefficient)e\(exponent)")
    }
  }
}

extension String {
  /// This text with every `target` replaced by `replacement` (without Foundation).
  fileprivate func replacingOccurrences(_ target: Character, with replacement: String) -> String {
    var result = ""
    for character in self {
      if character == target { result += replacement } else { result.append(character) }
    }
    return result
  }
}
