import CalculatorEngine
import Testing

/// Every `keys → display` example of SPEC §2 and §3, then at least five more rows of our own for
/// each rule of §2 and each bullet of §3. Every expected display was worked out by hand from the
/// spec's rules (the reasoning is in the comments where it is not obvious), never copied from the
/// engine. Rows of `shared/conformance/standard-cases.tsv` are in ConformanceTests and are not
/// repeated here, except where the spec's own text uses the same example.
@Suite struct SpecExampleTests {
  /// The locale of the spec's examples and of the conformance table.
  static let format = DisplayFormat(localeIdentifier: "en_US")

  // MARK: - The spec's own examples

  static let examples: [DisplayCase] = [
    // §2.1 Start
    DisplayCase(keys: "", expected: "0", origin: "§2.1 example (start)"),
    DisplayCase(keys: "007", expected: "7", origin: "§2.1 example"),
    // §2.2 An operator
    DisplayCase(keys: "1+2*", expected: "3", origin: "§2.2 example"),
    DisplayCase(keys: "1+2*3=", expected: "9", origin: "§2.2 example"),
    DisplayCase(keys: "13+", expected: "13", origin: "§2.2 example"),
    // §2.3 Operator after operator
    DisplayCase(keys: "5+*3=", expected: "15", origin: "§2.3 example"),
    // §2.4 Equals
    DisplayCase(keys: "4+=", expected: "8", origin: "§2.4 example"),
    DisplayCase(keys: "13=", expected: "13", origin: "§2.4 example"),
    // §2.5 Repeated equals
    DisplayCase(keys: "8*2==", expected: "32", origin: "§2.5 example"),
    DisplayCase(keys: "2+3==", expected: "8", origin: "§2.5 example"),
    // §2.6 A digit right after =
    DisplayCase(keys: "1+2=4", expected: "4", origin: "§2.6 example"),
    DisplayCase(keys: "2+3=4=", expected: "7", origin: "§2.6 example"),
    // §2.7 An operator right after =
    DisplayCase(keys: "2+3=*2=", expected: "10", origin: "§2.7 example"),
    // §2.8 Percent
    DisplayCase(keys: "50+20%=", expected: "60", origin: "§2.8 example"),
    DisplayCase(keys: "10-10%=", expected: "9", origin: "§2.8 example"),
    DisplayCase(keys: "6*6%=", expected: "0.36", origin: "§2.8 example"),
    DisplayCase(keys: "10+%", expected: "1", origin: "§2.8 example"),
    DisplayCase(keys: "10%", expected: "0.1", origin: "§2.8 example"),
    // §2.9 Sign change
    DisplayCase(keys: "6~9", expected: "-69", origin: "§2.9 example"),
    DisplayCase(keys: "0.~", expected: "-0.", origin: "§2.9 example"),
    DisplayCase(keys: "9+~=", expected: "0", origin: "§2.9 example"),
    DisplayCase(keys: "2+3=~=", expected: "-2", origin: "§2.9 example"),
    // §2.10 CE and AC
    DisplayCase(keys: "12+5ce2=", expected: "14", origin: "§2.10 example"),
    DisplayCase(keys: "2+3=ce=", expected: "3", origin: "§2.10 example"),
    // §2.11 Backspace
    DisplayCase(keys: "1.23<", expected: "1.2", origin: "§2.11 example"),
    DisplayCase(keys: "1.<", expected: "1", origin: "§2.11 example"),
    DisplayCase(keys: "7<", expected: "0", origin: "§2.11 example"),
    DisplayCase(keys: "2+3=<", expected: "5", origin: "§2.11 example"),
    // §2.12 Decimal point
    DisplayCase(keys: ".", expected: "0.", origin: "§2.12 example (fresh entry)"),
    DisplayCase(keys: "1..2", expected: "1.2", origin: "§2.12 example"),
    // §2.14 Errors (`x/0` and `0/0` are written without their `=` in the text)
    DisplayCase(keys: "9/0=", expected: "Cannot divide by zero", origin: "§2.14 example (x/0)"),
    DisplayCase(keys: "0/0=", expected: "Result is undefined", origin: "§2.14 example (0/0)"),
    DisplayCase(keys: "1/0=5+1=", expected: "6", origin: "§2.14 example"),
    DisplayCase(keys: "1/0=+", expected: "Cannot divide by zero", origin: "§2.14 example"),
    // §2.15 Arithmetic
    DisplayCase(
      keys: "99999999999*99999999999=", expected: "9,999,999,999,800,000,000,001",
      origin: "§2.15 example"),
    DisplayCase(keys: "0.1+0.2=", expected: "0.3", origin: "§2.15 example"),
    // (10^16 − 1)² = 10^32 − 2·10^16 + 1: two 16-digit entries multiply exactly.
    DisplayCase(
      keys: "9999999999999999*9999999999999999=",
      expected: "99,999,999,999,999,980,000,000,000,000,001", origin: "§2.15 (required)"),
    // §3 While typing
    DisplayCase(keys: "1234.50", expected: "1,234.50", origin: "§3 typing example"),
    DisplayCase(keys: ".", expected: "0.", origin: "§3 typing example"),
    DisplayCase(keys: "0.~", expected: "-0.", origin: "§3 typing example"),
    // §3 A computed value
    DisplayCase(keys: "2/3=", expected: "0.66666667", origin: "§3 computed example"),
    DisplayCase(keys: "7.555*3=", expected: "22.665", origin: "§3 computed example"),
    DisplayCase(keys: "1.5*2=", expected: "3", origin: "§3 computed example"),
    // §3 Scientific notation
    DisplayCase(
      keys: "1/3/1000000000=", expected: "3.33333333E-10", origin: "§3 scientific example"),
    // §3 Digits from the exact value (not `…800,000,000,000` as a Double would give)
    DisplayCase(
      keys: "99999999999*99999999999=", expected: "9,999,999,999,800,000,000,001",
      origin: "§3 exact digits example"),
  ]

  @Test(arguments: examples) func specExample(_ row: DisplayCase) throws {
    #expect(try display(row.keys, format: Self.format) == row.expected)
  }

  // MARK: - §2 Calculation rules: our own rows

  static let rule1Start: [DisplayCase] = [
    DisplayCase(keys: "0", expected: "0", origin: "§2.1"),
    DisplayCase(keys: "00", expected: "0", origin: "§2.1"),
    DisplayCase(keys: "0012", expected: "12", origin: "§2.1"),
    DisplayCase(keys: "0100", expected: "100", origin: "§2.1 zeros after a digit stay"),
    DisplayCase(keys: "9876543210", expected: "9,876,543,210", origin: "§2.1"),
    DisplayCase(keys: "5+007", expected: "7", origin: "§2.1 right operand too"),
    DisplayCase(keys: "00.5", expected: "0.5", origin: "§2.1"),
  ]

  static let rule2Operator: [DisplayCase] = [
    DisplayCase(keys: "2*3+", expected: "6", origin: "§2.2"),
    DisplayCase(keys: "2*3+4", expected: "4", origin: "§2.2 next digit replaces the display"),
    DisplayCase(keys: "2*3+4=", expected: "10", origin: "§2.2 no precedence"),
    DisplayCase(keys: "10-4/2=", expected: "3", origin: "§2.2 (10−4)/2"),
    DisplayCase(keys: "1+2+3+4+", expected: "10", origin: "§2.2 chain"),
    DisplayCase(keys: "100/4-5*", expected: "20", origin: "§2.2 chain"),
    DisplayCase(keys: "7-9*", expected: "-2", origin: "§2.2"),
    // The left operand shown after an operator is a computed value (§2.9), shown as one (§3).
    DisplayCase(keys: "12.50+", expected: "12.5", origin: "§2.2 + §3 computed"),
    DisplayCase(keys: "0.~+", expected: "0", origin: "§2.2 + §3 never -0"),
  ]

  static let rule3OperatorAfterOperator: [DisplayCase] = [
    DisplayCase(keys: "5+-3=", expected: "2", origin: "§2.3"),
    DisplayCase(keys: "6*/2=", expected: "3", origin: "§2.3"),
    DisplayCase(keys: "8-+*/4=", expected: "2", origin: "§2.3 last one wins"),
    DisplayCase(keys: "5+*", expected: "5", origin: "§2.3 computes nothing"),
    DisplayCase(keys: "2+3*-1=", expected: "4", origin: "§2.3 (2+3)−1"),
    DisplayCase(keys: "9/*=", expected: "81", origin: "§2.3 + §2.4 9×9"),
    DisplayCase(keys: "50*+10%=", expected: "55", origin: "§2.3 + §2.8 percent of +"),
  ]

  static let rule4Equals: [DisplayCase] = [
    DisplayCase(keys: "=", expected: "0", origin: "§2.4"),
    DisplayCase(keys: "7*=", expected: "49", origin: "§2.4 x op = uses x"),
    DisplayCase(keys: "9-=", expected: "0", origin: "§2.4"),
    DisplayCase(keys: "9/=", expected: "1", origin: "§2.4"),
    DisplayCase(keys: "2.5+=", expected: "5", origin: "§2.4"),
    DisplayCase(keys: "42=", expected: "42", origin: "§2.4 nothing pending"),
    DisplayCase(keys: "1.50=", expected: "1.5", origin: "§2.4 + §3 the value is computed"),
    DisplayCase(keys: "0/5=", expected: "0", origin: "§2.4"),
  ]

  static let rule5RepeatedEquals: [DisplayCase] = [
    DisplayCase(keys: "2*3==", expected: "18", origin: "§2.5 6×3"),
    DisplayCase(keys: "10-3===", expected: "1", origin: "§2.5 7, 4, 1"),
    DisplayCase(keys: "81/3==", expected: "9", origin: "§2.5 27, 9"),
    DisplayCase(keys: "1+==", expected: "3", origin: "§2.5 + §2.4 2, 3"),
    DisplayCase(keys: "2*==", expected: "8", origin: "§2.5 + §2.4 4, 8"),
    DisplayCase(keys: "1+2====", expected: "9", origin: "§2.5 3, 5, 7, 9"),
    DisplayCase(keys: "5-7==", expected: "-9", origin: "§2.5 −2, −9"),
    DisplayCase(keys: "0.5*0.5==", expected: "0.125", origin: "§2.5 0.25, 0.125"),
  ]

  static let rule6DigitAfterEquals: [DisplayCase] = [
    DisplayCase(keys: "1+2=45", expected: "45", origin: "§2.6"),
    DisplayCase(keys: "2*3=5=", expected: "15", origin: "§2.6 5×3"),
    DisplayCase(keys: "10-4=20=", expected: "16", origin: "§2.6 20−4"),
    DisplayCase(keys: "1+2=4==", expected: "8", origin: "§2.6 4+2+2"),
    DisplayCase(keys: "9/3=12=", expected: "4", origin: "§2.6 12÷3"),
    DisplayCase(keys: "1+2=04", expected: "4", origin: "§2.6 never 3.04-style"),
    DisplayCase(keys: "2*5=3==", expected: "75", origin: "§2.6 3×5×5"),
  ]

  static let rule7OperatorAfterEquals: [DisplayCase] = [
    DisplayCase(keys: "2+3=+1=", expected: "6", origin: "§2.7"),
    DisplayCase(keys: "2*5=-3=", expected: "7", origin: "§2.7"),
    DisplayCase(keys: "9/3=*3=", expected: "9", origin: "§2.7"),
    DisplayCase(keys: "1+1=+", expected: "2", origin: "§2.7"),
    DisplayCase(keys: "2+3=*=", expected: "25", origin: "§2.7 + §2.4 5×5"),
    DisplayCase(keys: "8/2=/=", expected: "1", origin: "§2.7 + §2.4 4÷4"),
    DisplayCase(keys: "2+3=*2==", expected: "20", origin: "§2.7 + §2.5 5×2×2"),
  ]

  static let rule8Percent: [DisplayCase] = [
    // With + or − pending: X·Y/100.
    DisplayCase(keys: "200+5%", expected: "10", origin: "§2.8 + shows X·Y/100"),
    DisplayCase(keys: "200+5%=", expected: "210", origin: "§2.8 +"),
    DisplayCase(keys: "200-5%=", expected: "190", origin: "§2.8 −"),
    DisplayCase(keys: "80-25%", expected: "20", origin: "§2.8 − shows X·Y/100"),
    // With × or ÷ pending: Y/100.
    DisplayCase(keys: "200*5%=", expected: "10", origin: "§2.8 ×"),
    DisplayCase(keys: "200/5%=", expected: "4,000", origin: "§2.8 ÷ 200÷0.05"),
    DisplayCase(keys: "8*50%", expected: "0.5", origin: "§2.8 × shows Y/100"),
    // Right after the operator, Y is the left operand.
    DisplayCase(keys: "20+%=", expected: "24", origin: "§2.8 after + 20+4"),
    DisplayCase(keys: "20-%=", expected: "16", origin: "§2.8 after − 20−4"),
    DisplayCase(keys: "20*%=", expected: "4", origin: "§2.8 after × 20×0.2"),
    DisplayCase(keys: "20/%=", expected: "100", origin: "§2.8 after ÷ 20÷0.2"),
    DisplayCase(keys: "20*%", expected: "0.2", origin: "§2.8 after ×"),
    // Nothing pending (also right after =): Y/100.
    DisplayCase(keys: "25%", expected: "0.25", origin: "§2.8 nothing pending"),
    DisplayCase(keys: "3+4=%", expected: "0.07", origin: "§2.8 after ="),
    DisplayCase(keys: "10%%", expected: "0.001", origin: "§2.8 twice"),
    // A percent result is a computed value.
    DisplayCase(keys: "10%5", expected: "5", origin: "§2.8 digit starts a new number"),
    DisplayCase(keys: "50+10%3=", expected: "53", origin: "§2.8 digit replaces the percent"),
    DisplayCase(keys: "10%.5", expected: "0.5", origin: "§2.8 point starts a new number"),
    DisplayCase(keys: "10%<", expected: "0.1", origin: "§2.8 + §2.11 computed"),
    DisplayCase(keys: "50+10%==", expected: "60", origin: "§2.8 + §2.5 50+5+5"),
  ]

  static let rule9SignChange: [DisplayCase] = [
    DisplayCase(keys: "12~3", expected: "-123", origin: "§2.9 typing"),
    DisplayCase(keys: "1.5~", expected: "-1.5", origin: "§2.9 typing"),
    DisplayCase(keys: "~~", expected: "0", origin: "§2.9 on 0"),
    DisplayCase(keys: "0~5", expected: "5", origin: "§2.9 on 0"),
    DisplayCase(keys: "5+0~", expected: "0", origin: "§2.9 on 0 (right operand)"),
    DisplayCase(keys: "0.~0", expected: "-0.0", origin: "§2.9 typing"),
    DisplayCase(keys: ".~", expected: "-0.", origin: "§2.9 typing"),
    DisplayCase(keys: "5+2~=", expected: "3", origin: "§2.9 right entry"),
    DisplayCase(keys: "5*2~=", expected: "-10", origin: "§2.9 right entry"),
    DisplayCase(keys: "3*4=~", expected: "-12", origin: "§2.9 result"),
    DisplayCase(keys: "3*4=~=", expected: "-48", origin: "§2.9 + §2.5 −12×4"),
    DisplayCase(keys: "7-~=", expected: "14", origin: "§2.9 left after operator 7−(−7)"),
    DisplayCase(keys: "7*~=", expected: "-49", origin: "§2.9 left after operator"),
    DisplayCase(keys: "4/~=", expected: "-1", origin: "§2.9 left after operator"),
    DisplayCase(keys: "9+~5=", expected: "14", origin: "§2.9 computed: digit starts anew"),
    DisplayCase(keys: "2+3=~~", expected: "5", origin: "§2.9 result twice"),
    DisplayCase(keys: "10%~", expected: "-0.1", origin: "§2.9 percent result"),
    DisplayCase(keys: "9-9=~", expected: "0", origin: "§2.9 + §3 never -0"),
  ]

  static let rule10ClearEntryAndAllClear: [DisplayCase] = [
    DisplayCase(keys: "9*4ce3=", expected: "27", origin: "§2.10 CE keeps ×"),
    DisplayCase(keys: "7ce", expected: "0", origin: "§2.10 CE"),
    DisplayCase(keys: "7ce3", expected: "3", origin: "§2.10 CE"),
    DisplayCase(keys: "8-3=ce=", expected: "-3", origin: "§2.10 CE keeps the repeat 0−3"),
    DisplayCase(keys: "1.5ce.5", expected: "0.5", origin: "§2.10 CE then point"),
    DisplayCase(keys: "9*4ce=", expected: "0", origin: "§2.10 9×0"),
    DisplayCase(keys: "6/2=ce=", expected: "0", origin: "§2.10 0÷2"),
    DisplayCase(keys: "8*2=c5=", expected: "5", origin: "§2.10 AC forgets the repeat"),
    DisplayCase(keys: "1+2c3=", expected: "3", origin: "§2.10 AC forgets the pending +"),
    DisplayCase(keys: "1+2=c4==", expected: "4", origin: "§2.10 AC forgets the repeat"),
    DisplayCase(keys: "7+c", expected: "0", origin: "§2.10 AC"),
    DisplayCase(keys: "5~c", expected: "0", origin: "§2.10 AC"),
  ]

  static let rule11Backspace: [DisplayCase] = [
    DisplayCase(keys: "1234<", expected: "123", origin: "§2.11"),
    DisplayCase(keys: "1234<<<<", expected: "0", origin: "§2.11"),
    DisplayCase(keys: "12.5<<", expected: "12", origin: "§2.11 digit, then point"),
    DisplayCase(keys: "12.5<<3", expected: "123", origin: "§2.11 keep typing"),
    DisplayCase(keys: "0.05<", expected: "0.0", origin: "§2.11"),
    DisplayCase(keys: "1.0<", expected: "1.", origin: "§2.11"),
    DisplayCase(keys: "12~<<", expected: "0", origin: "§2.11 + §3 no -0"),
    DisplayCase(keys: "1.~<", expected: "-1", origin: "§2.11 sign stays"),
    DisplayCase(keys: "0.~<", expected: "0", origin: "§2.11 + §2.9 0 has no sign"),
    DisplayCase(keys: "<<<", expected: "0", origin: "§2.11"),
    DisplayCase(keys: "2*3+<", expected: "6", origin: "§2.11 left operand is computed"),
    DisplayCase(keys: "12+345<", expected: "34", origin: "§2.11 right entry"),
    DisplayCase(keys: "12+345<=", expected: "46", origin: "§2.11 right entry"),
    DisplayCase(keys: "5+3<=", expected: "5", origin: "§2.11 right entry to 0"),
    DisplayCase(keys: "5+3<4=", expected: "9", origin: "§2.11 right entry"),
  ]

  static let rule12DecimalPoint: [DisplayCase] = [
    DisplayCase(keys: ".5.5", expected: "0.55", origin: "§2.12"),
    DisplayCase(keys: "3.14.15", expected: "3.1415", origin: "§2.12"),
    DisplayCase(keys: "...", expected: "0.", origin: "§2.12"),
    DisplayCase(keys: "0.0.1", expected: "0.01", origin: "§2.12"),
    DisplayCase(keys: "12.", expected: "12.", origin: "§2.12"),
    DisplayCase(keys: ".0", expected: "0.0", origin: "§2.12"),
    DisplayCase(keys: "5*.", expected: "0.", origin: "§2.12 fresh right entry"),
    DisplayCase(keys: "5*.2=", expected: "1", origin: "§2.12"),
    DisplayCase(keys: "2+3=..5", expected: "0.5", origin: "§2.12 + §2.6"),
  ]

  static let rule13EntryLimit: [DisplayCase] = [
    DisplayCase(
      keys: "12345678901234567890", expected: "1,234,567,890,123,456", origin: "§2.13"),
    DisplayCase(
      keys: "1234567890.1234567", expected: "1,234,567,890.123456",
      origin: "§2.13 10 + 6 digits"),
    DisplayCase(
      keys: "0.9999999999999999999", expected: "0.9999999999999999",
      origin: "§2.13 leading 0 does not count"),
    DisplayCase(
      keys: ".0000000000000005", expected: "0.0000000000000005",
      origin: "§2.13 zeros after the point count"),
    DisplayCase(
      keys: ".00000000000000051", expected: "0.0000000000000005", origin: "§2.13 17th ignored"),
    DisplayCase(
      keys: "1.0000000000000000", expected: "1.000000000000000", origin: "§2.13 1 + 15 zeros"),
    DisplayCase(
      keys: "1234567890123456.78", expected: "1,234,567,890,123,456.",
      origin: "§2.13 the point does not count"),
    DisplayCase(
      keys: "1234567890123456<78", expected: "1,234,567,890,123,457",
      origin: "§2.13 + §2.11 room again"),
    DisplayCase(
      keys: "00000000000000001234567890123456789", expected: "1,234,567,890,123,456",
      origin: "§2.13 + §2.1 dropped zeros do not count"),
    DisplayCase(
      keys: "9999999999999999~9", expected: "-9,999,999,999,999,999", origin: "§2.13 signed"),
    DisplayCase(
      keys: "1+12345678901234567=", expected: "1,234,567,890,123,457",
      origin: "§2.13 right entry"),
    DisplayCase(
      keys: "99999999999999999*1=", expected: "9,999,999,999,999,999",
      origin: "§2.13 the value is the 16 digits"),
  ]

  static let rule14Errors: [DisplayCase] = [
    DisplayCase(keys: "5~/0=", expected: "Cannot divide by zero", origin: "§2.14 x < 0"),
    DisplayCase(keys: "0.0/0=", expected: "Result is undefined", origin: "§2.14 0.0 is 0"),
    DisplayCase(keys: "5-5=/0=", expected: "Result is undefined", origin: "§2.14 computed 0"),
    DisplayCase(keys: "5/0*", expected: "Cannot divide by zero", origin: "§2.14 via operator"),
    DisplayCase(keys: "0/0+", expected: "Result is undefined", origin: "§2.14 via operator"),
    DisplayCase(keys: "0/=", expected: "Result is undefined", origin: "§2.14 + §2.4 0÷0"),
    DisplayCase(keys: "3/ce=", expected: "Cannot divide by zero", origin: "§2.14 + §2.10"),
    // While an error is shown…
    DisplayCase(keys: "1/0=-", expected: "Cannot divide by zero", origin: "§2.14 − ignored"),
    DisplayCase(keys: "0/0=5", expected: "5", origin: "§2.14 digit starts anew"),
    DisplayCase(keys: "0/0=.5+1=", expected: "1.5", origin: "§2.14 point starts anew"),
    DisplayCase(keys: "0/0=c", expected: "0", origin: "§2.14 AC clears"),
    DisplayCase(keys: "1/0=ce5*2=", expected: "10", origin: "§2.14 CE clears"),
    DisplayCase(keys: "1/0=*3=", expected: "3", origin: "§2.14 × ignored, new calculation"),
    DisplayCase(keys: "1/0=2=", expected: "2", origin: "§2.14 a new calculation: no repeat"),
    DisplayCase(keys: "5/0+3=", expected: "3", origin: "§2.14 error at the operator"),
    // Overflow: 10^10 × 10^10 repeated; after n `=` the value is 10^(10(n+1)).
    DisplayCase(keys: "10000000000*=========", expected: "Overflow", origin: "§2.14 = 10^100"),
    DisplayCase(
      keys: "10000000000*========*10000000000~=", expected: "Overflow",
      origin: "§2.14 −10^100"),
    DisplayCase(
      keys: "10000000000*========*9999999999=+=", expected: "Overflow",
      origin: "§2.14 2 × 9.999999999E99"),
    DisplayCase(
      keys: "10000000000*========+%", expected: "Overflow",
      origin: "§2.14 + §2.8 percent 10^90·10^90/100"),
    DisplayCase(keys: "10000000000*=========5", expected: "5", origin: "§2.14 after overflow"),
    DisplayCase(
      keys: "10000000000*=========*", expected: "Overflow", origin: "§2.14 after overflow"),
    DisplayCase(keys: "10000000000*=========ce", expected: "0", origin: "§2.14 after overflow"),
    // Underflow: 10^-10 repeated the same way.
    DisplayCase(
      keys: ".0000000001*=========", expected: "1E-100", origin: "§2.14 10^-100 is kept"),
    DisplayCase(keys: ".0000000001*==========", expected: "0", origin: "§2.14 10^-110 → 0"),
    DisplayCase(
      keys: ".0000000001~*==========", expected: "0", origin: "§2.14 −10^-110 → 0, not -0"),
    DisplayCase(keys: ".0000000001*=========/2=", expected: "0", origin: "§2.14 5E-101 → 0"),
    DisplayCase(keys: ".0000000001*=========%", expected: "0", origin: "§2.14 10^-102 → 0"),
    DisplayCase(
      keys: ".0000000001*=========*.999=", expected: "0", origin: "§2.14 9.99E-101 → 0"),
  ]

  static let rule15Arithmetic: [DisplayCase] = [
    DisplayCase(
      keys: "1234567890123456+9876543210987654=", expected: "11,111,111,101,111,110",
      origin: "§2.15 exact +"),
    DisplayCase(keys: "0.3-0.1=", expected: "0.2", origin: "§2.15 decimal"),
    DisplayCase(keys: "1.1*1.1=", expected: "1.21", origin: "§2.15 decimal"),
    DisplayCase(keys: "1-0.9=", expected: "0.1", origin: "§2.15 decimal"),
    DisplayCase(keys: "0.7+0.1=", expected: "0.8", origin: "§2.15 decimal"),
    DisplayCase(keys: "0.1*0.1=", expected: "0.01", origin: "§2.15 decimal"),
    DisplayCase(
      keys: "123456789*987654321=", expected: "121,932,631,112,635,269",
      origin: "§2.15 exact ×"),
    DisplayCase(
      keys: "1000000000000000*1000000000000000-1=",
      expected: "999,999,999,999,999,999,999,999,999,999", origin: "§2.15 10^30 − 1"),
    // (10^32 − 2·10^16 + 1) × 99 has exactly 34 digits: still exact.
    DisplayCase(
      keys: "9999999999999999*9999999999999999*99=",
      expected: "9,899,999,999,999,998,020,000,000,000,000,099", origin: "§2.15 34 digits"),
    DisplayCase(
      keys: "9999999999999999+0.00000001=", expected: "9,999,999,999,999,999.00000001",
      origin: "§2.15 24 significant digits"),
    // 1/7 rounds to …1429 at 34 digits; ×7 gives 1.000…0003 (35 digits), which rounds to 1.
    DisplayCase(keys: "1/7*7=", expected: "1", origin: "§2.15 rounding at 34 digits"),
  ]

  // MARK: - §3 Display: our own rows

  static let displayTyping: [DisplayCase] = [
    DisplayCase(keys: "1234.5000", expected: "1,234.5000", origin: "§3 typing"),
    DisplayCase(keys: "0.000", expected: "0.000", origin: "§3 typing"),
    DisplayCase(keys: "1000000.", expected: "1,000,000.", origin: "§3 typing"),
    DisplayCase(keys: "12345~", expected: "-12,345", origin: "§3 typing"),
    DisplayCase(keys: "5+1234.50", expected: "1,234.50", origin: "§3 typing right entry"),
    DisplayCase(keys: "123456.7890", expected: "123,456.7890", origin: "§3 typing"),
    DisplayCase(keys: "100.001", expected: "100.001", origin: "§3 typing"),
  ]

  static let displayComputed: [DisplayCase] = [
    DisplayCase(keys: "1/8=", expected: "0.125", origin: "§3 computed"),
    DisplayCase(keys: "1/256=", expected: "0.00390625", origin: "§3 computed 8 digits"),
    DisplayCase(keys: "1/512=", expected: "0.00195312", origin: "§3 0.00195312|5 → even"),
    DisplayCase(keys: "3/512=", expected: "0.00585938", origin: "§3 0.00585937|5 → even"),
    DisplayCase(keys: "1/1024=", expected: "0.00097656", origin: "§3 0.00097656|25 → down"),
    DisplayCase(keys: "1000000/7=", expected: "142,857.14285714", origin: "§3 computed"),
    DisplayCase(keys: "1~/3=", expected: "-0.33333333", origin: "§3 computed"),
    DisplayCase(keys: ".000000125=", expected: "0.00000012", origin: "§3 half-even down"),
    DisplayCase(keys: ".000000135=", expected: "0.00000014", origin: "§3 half-even up"),
    DisplayCase(keys: ".000000015=", expected: "0.00000002", origin: "§3 half-even up"),
    DisplayCase(keys: ".000000025=", expected: "0.00000002", origin: "§3 half-even down"),
    DisplayCase(
      keys: "1234567.123456785=", expected: "1,234,567.12345678", origin: "§3 half-even down"),
    DisplayCase(
      keys: "1234567.123456775=", expected: "1,234,567.12345678", origin: "§3 half-even up"),
    DisplayCase(
      keys: "9999999.999999995=", expected: "10,000,000", origin: "§3 rounding carries"),
    DisplayCase(keys: ".999999995=", expected: "1", origin: "§3 rounding carries"),
    DisplayCase(keys: ".00000001=", expected: "0.00000001", origin: "§3 10^-8 is not scientific"),
    DisplayCase(keys: "1.50*1=", expected: "1.5", origin: "§3 trailing zeros dropped"),
    DisplayCase(keys: "0.~=", expected: "0", origin: "§3 never -0"),
    DisplayCase(keys: "5~+5=", expected: "0", origin: "§3 never -0"),
    DisplayCase(keys: "1~*0=", expected: "0", origin: "§3 never -0"),
    DisplayCase(keys: "2~-2~=", expected: "0", origin: "§3 never -0"),
  ]

  static let displayScientific: [DisplayCase] = [
    DisplayCase(keys: "1/1000000000=", expected: "1E-9", origin: "§3 scientific"),
    DisplayCase(keys: ".000000001=", expected: "1E-9", origin: "§3 scientific"),
    // Only 16 digits of the entry are kept (§2.13): 0.0000000012345678.
    DisplayCase(
      keys: ".00000000123456789=", expected: "1.2345678E-9", origin: "§3 + §2.13 scientific"),
    DisplayCase(
      keys: ".0000000099999999=", expected: "9.9999999E-9", origin: "§3 scientific"),
    // 9.999999999E-9 rounds to a mantissa of 10.00000000: the carry gives 1E-8.
    DisplayCase(
      keys: ".9999999999/100000000=", expected: "1E-8", origin: "§3 mantissa carry"),
    DisplayCase(
      keys: ".00000001~=", expected: "-0.00000001", origin: "§3 −10^-8 is not scientific"),
    DisplayCase(keys: ".000000009~=", expected: "-9E-9", origin: "§3 negative scientific"),
    DisplayCase(keys: "1/3/100000000=", expected: "3.33333333E-9", origin: "§3 scientific"),
    DisplayCase(keys: "2/3/100000000=", expected: "6.66666667E-9", origin: "§3 scientific"),
    DisplayCase(keys: "1/3/10000000=", expected: "0.00000003", origin: "§3 3.3E-8 is not"),
    DisplayCase(
      keys: "1.000000005/1000000000=", expected: "1E-9", origin: "§3 mantissa half-even down"),
    DisplayCase(
      keys: "1.000000015/1000000000=", expected: "1.00000002E-9",
      origin: "§3 mantissa half-even up"),
    DisplayCase(
      keys: "1.000000025/1000000000=", expected: "1.00000002E-9",
      origin: "§3 mantissa half-even down"),
    DisplayCase(
      keys: "1000000000000000*1000000000000000*10000=", expected: "1E34",
      origin: "§3 10^34 is scientific"),
    DisplayCase(
      keys: "1000000000000000*1000000000000000*9999=",
      expected: "9,999,000,000,000,000,000,000,000,000,000,000", origin: "§3 below 10^34"),
    DisplayCase(
      keys: "1000000000000000*1000000000000000*12345~=", expected: "-1.2345E34",
      origin: "§3 negative scientific"),
    // (10^32 − 2·10^16 + 1) × 999 = 9.98999999|99…E34: the mantissa rounds up.
    DisplayCase(
      keys: "9999999999999999*9999999999999999*999=", expected: "9.99E34",
      origin: "§3 mantissa rounding"),
    DisplayCase(
      keys: "1000000000000000*1000000000000000*123456789.5=", expected: "1.2345679E38",
      origin: "§3 mantissa half-even up"),
    DisplayCase(
      keys: "1000000000000000*1000000000000000*123456788.5=", expected: "1.23456788E38",
      origin: "§3 mantissa half-even down"),
    DisplayCase(keys: "10000000000*========", expected: "1E90", origin: "§3 scientific"),
    DisplayCase(
      keys: "10000000000*========*999999999=", expected: "9.99999999E98", origin: "§3 scientific"),
    // 9.999999999E99 is below 10^100 (no overflow), but its mantissa rounds to 10.
    DisplayCase(
      keys: "10000000000*========*9999999999=", expected: "1E100",
      origin: "§3 mantissa carry below overflow"),
  ]

  static let displayExactDigits: [DisplayCase] = [
    DisplayCase(
      keys: "1234567890123456*1000000000000000=",
      expected: "1,234,567,890,123,456,000,000,000,000,000", origin: "§3 exact digits"),
    // 2^53 + 1 is no Double.
    DisplayCase(
      keys: "9007199254740993=", expected: "9,007,199,254,740,993", origin: "§3 exact digits"),
    DisplayCase(
      keys: "9007199254740993*3=", expected: "27,021,597,764,222,979", origin: "§3 exact digits"),
    DisplayCase(
      keys: "1000000000000001*1000000000000001=",
      expected: "1,000,000,000,000,002,000,000,000,000,001", origin: "§3 exact digits"),
    DisplayCase(
      keys: "1000000000000000+0.0000001=", expected: "1,000,000,000,000,000.0000001",
      origin: "§3 exact digits"),
  ]

  static let ownRows: [DisplayCase] =
    rule1Start + rule2Operator + rule3OperatorAfterOperator + rule4Equals + rule5RepeatedEquals
    + rule6DigitAfterEquals + rule7OperatorAfterEquals + rule8Percent + rule9SignChange
    + rule10ClearEntryAndAllClear + rule11Backspace + rule12DecimalPoint + rule13EntryLimit
    + rule14Errors + rule15Arithmetic + displayTyping + displayComputed + displayScientific
    + displayExactDigits

  @Test(arguments: ownRows) func rule(_ row: DisplayCase) throws {
    #expect(try display(row.keys, format: Self.format) == row.expected)
  }
}
