import CalculatorEngine
import Foundation

extension DisplayFormat {
  /// The symbols of `locale`, as `NumberFormatter` gives them in its decimal style: what
  /// ``LocaleTable`` holds (Scripts/locale-table.swift takes the same fields), measured anew.
  ///
  /// Tests only: the product does not link Foundation.
  public init(locale: Locale) {
    let formatter = NumberFormatter()
    formatter.locale = locale
    formatter.numberStyle = .decimal
    self.init(
      localeIdentifier: locale.identifier,
      decimalSeparator: formatter.decimalSeparator ?? ".",
      groupingSeparator: formatter.usesGroupingSeparator ? formatter.groupingSeparator ?? "" : "",
      groupingSize: formatter.usesGroupingSeparator ? formatter.groupingSize : 0,
      secondaryGroupingSize: formatter.secondaryGroupingSize,
      // NumberFormatter does not expose ICU's minimum grouping digits; 1234 shows it.
      minimumGroupingDigits: formatter.string(from: 1234).map { text in
        let grouping = formatter.groupingSeparator ?? ""
        return !grouping.isEmpty && text.contains(grouping) ? 1 : 2
      } ?? 1,
      minusSign: formatter.minusSign ?? "-",
      digits: (0...9).map { formatter.string(from: NSNumber(value: $0)) ?? String($0) })
  }
}
