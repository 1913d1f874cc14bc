import CalculatorEngine
import Foundation
import Testing

/// The generated locale table (Scripts/locale-table.swift) against Foundation itself: a
/// toolchain whose ICU gives other symbols, or knows other locales, fails here with the locale
/// named (regenerate the table with the script).
@Suite struct LocaleTableTests {
  /// The table's identifiers are `Locale.availableIdentifiers` and `en_US_POSIX`, sorted.
  @Test func identifiersAreFoundations() {
    let table = LocaleTable.allIdentifiers
    let foundation = Set(Locale.availableIdentifiers + ["en_US_POSIX"])
    let missing = foundation.subtracting(table).sorted()
    let extra = Set(table).subtracting(foundation).sorted()
    #expect(missing.isEmpty, "Foundation knows locales the table lacks: \(missing)")
    #expect(extra.isEmpty, "the table holds locales Foundation does not know: \(extra)")
    #expect(table == foundation.sorted())
    for identifier in foundation.sorted() {
      #expect(LocaleTable.contains(identifier), "\(identifier)")
    }
  }

  /// Every entry's symbols are exactly those `NumberFormatter`'s decimal style gives.
  @Test func everyEntryMatchesNumberFormatter() {
    var mismatches: [String] = []
    for identifier in LocaleTable.allIdentifiers {
      let table = DisplayFormat(localeIdentifier: identifier)
      let measured = DisplayFormat(locale: Locale(identifier: identifier))
      if table != measured { mismatches.append("\(identifier): table \(table), ICU \(measured)") }
    }
    #expect(
      mismatches.isEmpty,
      "\(mismatches.count) locales differ:\n\(mismatches.joined(separator: "\n"))")
    #expect(LocaleTable.allIdentifiers.count > 700)
  }

  /// Identifiers the table does not hold: not known, and shown with the root locale's symbols,
  /// as `NumberFormatter` shows them.
  @Test(arguments: ["xx", "zz_ZZ", "de_XX", "qq_Latn"]) func unknownIdentifierIsRoot(_ id: String) {
    #expect(!LocaleTable.contains(id))
    #expect(DisplayFormat(localeIdentifier: id) == DisplayFormat(locale: Locale(identifier: id)))
    #expect(DisplayFormat(localeIdentifier: id).groupingSeparator == ",")
    #expect(DisplayFormat(localeIdentifier: id).decimalSeparator == ".")
  }

  /// Lookups are exact: another spelling of a known locale is not in the table.
  @Test func lookupsAreExact() {
    let rows: [(String, Bool)] = [
      ("de_DE", true), ("de", true), ("en_US_POSIX", true), ("zh_Hans_CN", true),
      ("de-DE", false), ("de_de", false), ("de_D", false), ("de_DEX", false), ("", false),
      ("d", false),
    ]
    for (identifier, known) in rows {
      #expect(LocaleTable.contains(identifier) == known, "\(identifier)")
    }
    #expect(DisplayFormat(localeIdentifier: "fr_FR").groupingSeparator == "\u{202F}")
    #expect(DisplayFormat(localeIdentifier: "de_DE").decimalSeparator == ",")
    #expect(DisplayFormat(localeIdentifier: "es_ES").minimumGroupingDigits == 2)
    #expect(
      DisplayFormat(localeIdentifier: "ar_EG").digits.joined()
        == "\u{660}\u{661}\u{662}\u{663}\u{664}\u{665}\u{666}\u{667}\u{668}\u{669}")
  }
}
