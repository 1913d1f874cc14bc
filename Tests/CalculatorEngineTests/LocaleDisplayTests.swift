import CalculatorEngine
import Foundation
import Testing

/// SPEC §3, Locale: the display uses `NumberFormatter`'s conventions (symbols and grouping) for
/// the chosen locale, with digits from the exact value.
@Suite struct LocaleDisplayTests {
  struct LocaleCase: Sendable, CustomTestStringConvertible {
    let locale: String
    let keys: String
    let expected: String
    let origin: String
    var testDescription: String {
      "\(origin) [\(locale)]: \(keys.isEmpty ? "(no keys)" : keys) → \(expected)"
    }
  }

  static let nnbsp = "\u{202F}"  // NARROW NO-BREAK SPACE, French grouping
  static let nbsp = "\u{A0}"  // NO-BREAK SPACE

  /// Hand-written expectations from SPEC §3 and the locales' CLDR number symbols.
  static let rows: [LocaleCase] = [
    LocaleCase(locale: "de_DE", keys: "1234.5", expected: "1.234,5", origin: "§3 example"),
    LocaleCase(locale: "de_DE", keys: "1234.5*1=", expected: "1.234,5", origin: "§3 computed"),
    LocaleCase(locale: "de_DE", keys: "1234567.", expected: "1.234.567,", origin: "§3 typing"),
    LocaleCase(locale: "de_DE", keys: ".", expected: "0,", origin: "§3 typing"),
    LocaleCase(locale: "de_DE", keys: "0.~", expected: "-0,", origin: "§3 typing"),
    LocaleCase(locale: "de_DE", keys: "1.50", expected: "1,50", origin: "§3 typing"),
    LocaleCase(locale: "de_DE", keys: "2/3=", expected: "0,66666667", origin: "§3 computed"),
    LocaleCase(locale: "de_DE", keys: "7.555*3~=", expected: "-22,665", origin: "§3 computed"),
    LocaleCase(
      locale: "de_DE", keys: "1/3/1000000000=", expected: "3,33333333E-10",
      origin: "§3 scientific"),
    LocaleCase(
      locale: "de_DE", keys: "99999999999*99999999999=", expected: "9.999.999.999.800.000.000.001",
      origin: "§3 exact digits"),
    LocaleCase(
      locale: "de_DE", keys: "1/0=", expected: "Cannot divide by zero", origin: "§2.14 message"),
    LocaleCase(
      locale: "fr_FR", keys: "1234.5", expected: "1\(nnbsp)234,5", origin: "§3 fr grouping"),
    LocaleCase(
      locale: "fr_FR", keys: "1234567.25~", expected: "-1\(nnbsp)234\(nnbsp)567,25",
      origin: "§3 fr typing"),
    LocaleCase(
      locale: "fr_FR", keys: "1000000*1000=", expected: "1\(nnbsp)000\(nnbsp)000\(nnbsp)000",
      origin: "§3 fr computed"),
    LocaleCase(locale: "fr_FR", keys: "2/3=", expected: "0,66666667", origin: "§3 fr computed"),
    LocaleCase(locale: "fr_FR", keys: "123", expected: "123", origin: "§3 fr no group"),
    LocaleCase(locale: "en_US", keys: "1234.5", expected: "1,234.5", origin: "§3 en_US"),
    LocaleCase(
      locale: "en_US", keys: "1234567.891=", expected: "1,234,567.891", origin: "§3 en_US"),
    LocaleCase(locale: "en_US", keys: "0.~", expected: "-0.", origin: "§3 en_US"),
    LocaleCase(locale: "en_US_POSIX", keys: "1234.5", expected: "1,234.5", origin: "§3 POSIX"),
    LocaleCase(
      locale: "en_US_POSIX", keys: "1/3/1000000000=", expected: "3.33333333E-10",
      origin: "§3 POSIX"),
    // Other symbols: NBSP grouping and U+2212 minus (sv), U+2019 grouping (de_CH).
    LocaleCase(
      locale: "sv_SE", keys: "1234.5~", expected: "\u{2212}1\(nbsp)234,5", origin: "§3 sv"),
    LocaleCase(
      locale: "sv_SE", keys: "2~*3=", expected: "\u{2212}6", origin: "§3 sv computed"),
    LocaleCase(locale: "de_CH", keys: "1234.5", expected: "1\u{2019}234.5", origin: "§3 de_CH"),
    // Locale digits: Arabic-Indic, with ٫ (U+066B) and ٬ (U+066C).
    LocaleCase(locale: "ar_EG", keys: "12.5", expected: "١٢٫٥", origin: "§3 ar digits"),
    LocaleCase(locale: "ar_EG", keys: "1234.5", expected: "١٬٢٣٤٫٥", origin: "§3 ar digits"),
    LocaleCase(locale: "ar_EG", keys: "1/8=", expected: "٠٫١٢٥", origin: "§3 ar computed"),
  ]

  @Test(arguments: rows) func localizedDisplay(_ row: LocaleCase) throws {
    let format = DisplayFormat(localeIdentifier: row.locale)
    #expect(try display(row.keys, format: format) == row.expected)
  }

  /// Key text always uses `.`, whatever the locale: `,` is no key.
  @Test func keyTextIgnoresTheLocale() throws {
    let format = DisplayFormat(localeIdentifier: "de_DE")
    #expect(
      throws: KeyTextError(
        character: ",", column: 2, hint: "key text uses '.' for the decimal point")
    ) {
      try display("1,5", format: format)
    }
    #expect(try display("1.5", format: format) == "1,5")
  }

  // MARK: - The start-up fast path

  /// `DisplayFormat(localeIdentifier:)` knows the symbols of `en_US_POSIX` and `en_US` without
  /// asking `NumberFormatter`; they must be exactly what `NumberFormatter` would give.
  @Test(arguments: ["en_US_POSIX", "en_US"]) func knownSymbolsMatchNumberFormatter(_ id: String) {
    let known = DisplayFormat(localeIdentifier: id)
    let measured = DisplayFormat(locale: Locale(identifier: id))
    #expect(known.localeIdentifier == measured.localeIdentifier)
    #expect(known.decimalSeparator == measured.decimalSeparator)
    #expect(known.groupingSeparator == measured.groupingSeparator)
    #expect(known.groupingSize == measured.groupingSize)
    #expect(known.secondaryGroupingSize == measured.secondaryGroupingSize)
    #expect(known.minusSign == measured.minusSign)
    #expect(known.digits == measured.digits)
    #expect(known == measured)
    #expect(DisplayFormat.posix == DisplayFormat(locale: Locale(identifier: "en_US_POSIX")))
  }

  /// The fast path and the `NumberFormatter` path display the same text.
  @Test(arguments: ["en_US_POSIX", "en_US"]) func knownFormatDisplaysLikeMeasured(_ id: String)
    throws
  {
    let known = DisplayFormat(localeIdentifier: id)
    let measured = DisplayFormat(locale: Locale(identifier: id))
    for keys in ["1234567.5", "1234.5~*3=", "1/3/1000000000=", "0.~", "1/0="] {
      #expect(try display(keys, format: known) == display(keys, format: measured), "\(keys)")
    }
  }

  // MARK: - Against NumberFormatter itself

  /// Locales with different symbols, digits and minus signs.
  static let locales = [
    "en_US_POSIX", "en_US", "de_DE", "fr_FR", "es_ES", "it_IT", "pl_PL", "pt_PT", "sv_SE",
    "de_CH", "ru_RU", "ja_JP", "hi_IN", "en_IN", "ar_EG", "fa_IR",
  ]

  /// Computed values that a `Double` holds exactly, as keys (ending in `=`) and as a `Double`.
  /// None has a 4-digit integer part (see `fourDigitIntegers`).
  static let values: [(keys: String, value: Double)] = [
    ("0=", 0), ("7=", 7), ("12~=", -12), ("123=", 123), ("12345=", 12_345),
    ("1234567.5=", 1_234_567.5), ("9876543.25~=", -9_876_543.25), ("0.125=", 0.125),
    ("0.00390625=", 0.003_906_25), ("100000000000=", 100_000_000_000),
    ("123456789012.5=", 123_456_789_012.5),
  ]

  /// `NumberFormatter`'s decimal style with 0 to 8 fraction digits, half to even (SPEC §3).
  static func formatter(_ id: String) -> NumberFormatter {
    let formatter = NumberFormatter()
    formatter.locale = Locale(identifier: id)
    formatter.numberStyle = .decimal
    formatter.minimumFractionDigits = 0
    formatter.maximumFractionDigits = 8
    formatter.roundingMode = .halfEven
    return formatter
  }

  @Test(arguments: locales) func computedValuesLikeNumberFormatter(_ id: String) throws {
    let format = DisplayFormat(localeIdentifier: id)
    let formatter = Self.formatter(id)
    for (keys, value) in Self.values {
      let expected = try #require(formatter.string(from: NSNumber(value: value)))
      let actual = try display(keys, format: format)
      #expect(actual == expected, "\(keys)")
    }
  }

  /// Some locales (es, it, pl, pt_PT in CLDR) do not group a 4-digit integer part: `1234,5`,
  /// but `12.345,5`. SPEC §3 asks for `NumberFormatter`'s grouping for the locale.
  @Test(arguments: locales) func fourDigitIntegersLikeNumberFormatter(_ id: String) throws {
    let format = DisplayFormat(localeIdentifier: id)
    let formatter = Self.formatter(id)
    for (keys, value) in [("1234=", 1234.0), ("1234.5~=", -1234.5), ("9999.25=", 9999.25)] {
      let expected = try #require(formatter.string(from: NSNumber(value: value)))
      let actual = try display(keys, format: format)
      #expect(actual == expected, "\(keys)")
    }
  }
}
