/// The locales calc knows and their number symbols, generated from Foundation's
/// `NumberFormatter` (Scripts/locale-table.swift) so that the engine does not link Foundation.
///
/// The table is two static strings in the binary's read-only data
/// (LocaleTable+Generated.swift): nothing is built when the program starts, and they are read
/// only when a locale other than `en_US` and `en_US_POSIX` is asked for. `LocaleTableTests`
/// compares every entry with `NumberFormatter` and the identifiers with
/// `Locale.availableIdentifiers`.
package enum LocaleTable {
  /// Whether the table holds the locale `identifier` (exactly: `de_DE`, not `de-DE` or `de_de`).
  ///
  /// - Complexity: O(n), n the size of the table (about 1,000 locales).
  package static func contains(_ identifier: String) -> Bool {
    symbolSetNumber(of: identifier) != nil
  }

  /// Every identifier of the table, sorted: `Locale.availableIdentifiers` and `en_US_POSIX` when
  /// the table was generated.
  ///
  /// - Complexity: O(n), n the size of the table.
  package static var allIdentifiers: [String] {
    var result: [String] = []
    result.reserveCapacity(count)
    forEachLine(identifiers) { line in
      let name = line.prefix { $0 != UInt8(ascii: "\t") }
      result.append(String(decoding: name, as: UTF8.self))
      return true
    }
    return result
  }

  /// The format with the symbols of `identifier`'s locale, or of the root locale (`.`, `,`,
  /// groups of 3, `-`, ASCII digits) when the table does not hold it.
  ///
  /// - Complexity: O(n), n the size of the table.
  static func format(for identifier: String) -> DisplayFormat {
    let number = symbolSetNumber(of: identifier) ?? rootSet
    var fields: [String] = []
    var index = 0
    forEachLine(symbolSets) { line in
      defer { index += 1 }
      guard index == number else { return true }
      fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false).map {
        String(decoding: $0, as: UTF8.self)
      }
      return false
    }
    precondition(fields.count == 7, "LocaleTable: symbol set \(number) is malformed")
    return DisplayFormat(
      localeIdentifier: identifier, decimalSeparator: fields[0], groupingSeparator: fields[1],
      groupingSize: Int(fields[2]) ?? 0, secondaryGroupingSize: Int(fields[3]) ?? 0,
      minimumGroupingDigits: Int(fields[4]) ?? 1, minusSign: fields[5],
      digits: fields[6].split(separator: " ").map(String.init))
  }

  /// The number of `identifier`'s symbol set, or `nil` when the table does not hold it.
  ///
  /// - Complexity: O(n), n the size of the table.
  private static func symbolSetNumber(of identifier: String) -> Int? {
    let name = Array(identifier.utf8)
    var number: Int?
    forEachLine(identifiers) { line in
      guard line.count > name.count, line[name.count] == UInt8(ascii: "\t"),
        line.starts(with: name)
      else { return true }
      number = Int(String(decoding: line[(name.count + 1)...], as: UTF8.self))
      return false
    }
    return number
  }

  /// Calls `body` with each line of `text` (without its line feed) until it returns `false`.
  ///
  /// - Complexity: O(n), n the length of `text`.
  private static func forEachLine(
    _ text: StaticString, _ body: (UnsafeBufferPointer<UInt8>) -> Bool
  ) {
    text.withUTF8Buffer { bytes in
      var start = 0
      while start < bytes.count {
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
        if !body(UnsafeBufferPointer(rebasing: bytes[start..<end])) { return }
        start = end + 1
      }
    }
  }
}
