import CalcCore
import CalculatorEngine

/// Which locale the display uses: `--locale`, else the POSIX variables.
public enum LocaleSetting {
  /// The locale identifier for `option` (from `--locale`) or, without it, the first of `LC_ALL`,
  /// `LC_NUMERIC` and `LANG` that is set and not empty.
  ///
  /// Encodings and modifiers are removed (`de_DE.UTF-8@euro` → `de_DE`); `C`, `POSIX` and no
  /// setting at all mean `en_US_POSIX`. A value from the environment that is not a locale
  /// calc knows (`LANG=abcdefghijkl`, `LANG=é`) also means `en_US_POSIX`: a variable should
  /// never stop calc.
  /// `--locale` is returned as given; the caller checks it with ``isKnown(_:)`` and reports it.
  public static func identifier(option: String?, environment: Environment) -> String {
    if let option { return base(of: option) }
    let raw =
      ["LC_ALL", "LC_NUMERIC", "LANG"].lazy.compactMap { environment[$0] }.first {
        !$0.isEmpty
      } ?? ""
    let identifier = base(of: raw)
    return isKnown(identifier) ? identifier : "en_US_POSIX"
  }

  /// `value` without its encoding and modifier, in the form ``LocaleTable`` (Foundation's
  /// identifiers) knows; `C`, `POSIX` and empty mean `en_US_POSIX`.
  ///
  /// BCP 47 names and case variants name the same locale: `de-DE`, `de_de` and `DE_de` are
  /// `de_DE`, `zh-hans-cn` is `zh_Hans_CN`: the language in lower case, a four-letter script
  /// capitalized, the region and any variant in upper case.
  static func base(of value: String) -> String {
    let base = value.prefix { $0 != "." && $0 != "@" }
    guard !base.isEmpty, base != "C", base != "POSIX" else { return "en_US_POSIX" }
    let parts = base.split(separator: "-", omittingEmptySubsequences: false).flatMap {
      $0.split(separator: "_", omittingEmptySubsequences: false)
    }
    return parts.enumerated().map { index, part in
      guard part.allSatisfy(\.isASCII) else { return String(part) }
      if index == 0 { return part.lowercased() }
      if part.count == 4, part.allSatisfy(\.isLetter) {
        return part.prefix(1).uppercased() + part.dropFirst().lowercased()
      }
      return part.uppercased()
    }.joined(separator: "_")
  }

  /// Whether calc knows the locale `identifier`: whether ``LocaleTable`` (generated from
  /// Foundation's `Locale.availableIdentifiers` and `en_US_POSIX`) holds it.
  ///
  /// Only short ASCII identifiers made of letters, digits and `_` are looked up at all, and the
  /// table is read only for locales other than `en_US` and `en_US_POSIX`.
  ///
  /// - Complexity: O(n), n the size of the table; O(1) for `en_US` and `en_US_POSIX`.
  public static func isKnown(_ identifier: String) -> Bool {
    if identifier == "en_US_POSIX" || identifier == "en_US" { return true }
    guard (2...32).contains(identifier.utf8.count),
      identifier.utf8.allSatisfy({ byte in
        byte == UInt8(ascii: "_") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
          || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
      })
    else { return false }
    return LocaleTable.contains(identifier)
  }

  /// Every identifier ``isKnown(_:)`` accepts, sorted: what shell completion offers for
  /// `--locale`.
  ///
  /// - Complexity: O(n), n the size of the table.
  public static var knownIdentifiers: [String] { LocaleTable.allIdentifiers }
}
