import CalculatorEngine
import Foundation

/// Which locale the display uses: `--locale`, else the POSIX variables, which Foundation on Linux
/// does not read by itself.
public enum LocaleSetting {
  /// The locale identifier for `option` (from `--locale`) or, without it, the first of `LC_ALL`,
  /// `LC_NUMERIC` and `LANG` that is set and not empty.
  ///
  /// Encodings and modifiers are removed (`de_DE.UTF-8@euro` → `de_DE`); `C`, `POSIX` and no
  /// setting at all mean `en_US_POSIX`.
  public static func identifier(option: String?, environment: Environment) -> String {
    let raw =
      option
      ?? ["LC_ALL", "LC_NUMERIC", "LANG"].lazy.compactMap { environment[$0] }.first {
        !$0.isEmpty
      }
      ?? ""
    let base = String(raw.prefix { $0 != "." && $0 != "@" })
    return base.isEmpty || base == "C" || base == "POSIX" ? "en_US_POSIX" : base
  }

  /// Whether Foundation knows the locale `identifier` (asked only for `--locale`: it loads ICU).
  public static func isKnown(_ identifier: String) -> Bool {
    identifier == "en_US_POSIX" || Locale.availableIdentifiers.contains(identifier)
  }

  /// Every identifier ``isKnown(_:)`` accepts, sorted: what shell completion offers for
  /// `--locale`.
  public static var knownIdentifiers: [String] {
    Set(Locale.availableIdentifiers + ["en_US_POSIX"]).sorted()
  }
}
