import CalcTestSupport
import CalculatorEngine
import Testing

/// SPEC §2 rule 17 and §9's limits: `m+` or `m-` that would sum past the mode's limit shows
/// Overflow with the expression line as it was and keeps the memory, as a result would, in
/// Standard mode (from 10^100; below 10^-100 the sum is 0) and Scientific mode (from 10^10000,
/// and nonzero below 10^-9999); a Scientific entry beyond the limits fails as `ms`, `m+` or
/// `m-` ends it and stores nothing; Programmer memory holds exact values, shown truncated to the
/// word (SPEC §10). Exact display and line (en_US) after `ms`, `m+`, `m-` and `mr`.
@Suite struct MemoryLimitTests {
  /// A row: keys from a fresh calculator, the display and the exact expression line after them.
  typealias Row = DisplayLineRow

  static let format = DisplayLineRow.format

  static func state(_ keys: String) throws -> Calculator { try DisplayLineRow.state(keys) }

  /// An entry of 32 digits with the largest exponent: 10^10031 rounded, beyond Scientific
  /// mode's limit.
  static let huge = String(repeating: "9", count: 32) + "exp9999"
  /// 2^63 - 1, the largest QWORD.
  static let largest = "9223372036854775807"

  static let standard: [Row] = [
    // 9·10^99 stored in Scientific mode is within Standard's range.
    Row("sci 9exp99 ms std mr", "9E99", ""), Row("sci 9exp99 ms std mr ms c mr", "9E99", ""),
    Row("sci 9exp99 ms std mr m+", "Overflow", ""),
    Row("sci 9exp99 ms std 2+mr m+", "Overflow", "2 +"),
    Row("sci 9exp99 ms std mr~ m-", "Overflow", "negate(9E99)"),
    Row("sci 9exp99 ms std mr m+ c mr", "9E99", ""),
    Row("sci 9exp99 ms std mr~ m- c mr", "9E99", ""),
    // `mr` of a memory from outside the range.
    Row("sci 1exp100 ms std mr", "Overflow", ""),
    // A sum below 10^-100 is 0, as a result is.
    Row("sci 1exp100~ ms std mr*1.5= m-", "1.5E-100", "1E-100 × 1.5 ="),
    Row("sci 1exp100~ ms std mr*1.5= m- c mr", "0", ""),
  ]

  static let scientific: [Row] = [
    Row("sci 9.9exp9999 ms c mr", "9.9E9999", ""),
    Row("sci 9.9exp9999 ms m+", "Overflow", ""),
    Row("sci 2+9.9exp9999 ms m+", "Overflow", "2 +"),
    Row("sci 9.9exp9999 ms ~ m-", "Overflow", "negate(9.9E9999)"),
    Row("sci 9.9exp9999 ms m+ c mr", "9.9E9999", ""),
    Row("sci 9.9exp9999 ms ~ m- c mr", "9.9E9999", ""),
    Row("sci 9.9exp9999 m+ m+ c mr", "9.9E9999", ""),
    // Ten `m+` of 10^9999: the ninth reaches 10^10000.
    Row("sci 1exp9999 ms" + String(repeating: " m+", count: 8) + " c mr", "9E9999", ""),
    Row("sci 1exp9999 ms" + String(repeating: " m+", count: 9), "Overflow", ""),
    // Nonzero below 10^-9999.
    Row("sci 1.5exp9999~ ms 1exp9999~ m-", "Overflow", ""),
    Row("sci 1.5exp9999~ ms 1exp9999~ m- c mr", "1.5E-9999", ""),
    Row("sci 1.5exp9999~ ms 1.5exp9999~ m- c mr", "0", ""),
    // An entry beyond the limits fails as the memory key ends it, and stores nothing.
    Row("sci 5ms \(huge) ms", "Overflow", "1E10031"),
    Row("sci 5ms \(huge) ms c mr", "5", ""), Row("sci 5ms \(huge) m+ c mr", "5", ""),
    Row("sci 5ms \(huge) m- c mr", "5", ""), Row("sci 2+\(huge) m+", "Overflow", "2 + 1E10031"),
  ]

  static let programmer: [Row] = [
    Row("prog \(largest) ms c mr", "9,223,372,036,854,775,807", ""),
    // 3·(2^63 - 1) is kept whole and shown truncated to the word.
    Row("prog \(largest) ms m+ m+ mr", "9,223,372,036,854,775,805", ""),
    Row("prog \(largest) ms m+ m+ sci mr", "27,670,116,110,564,327,421", ""),
    Row("prog 1 ms \(largest) m- m- m- mr", "-9,223,372,036,854,775,804", ""),
    Row("prog 1 ms \(largest) m- m- m- sci mr", "-27,670,116,110,564,327,420", ""),
    Row("prog 2+\(largest) m+ m+", "9,223,372,036,854,775,807", "2 +"),
    Row("prog byte 127 ms m+ mr", "-2", ""), Row("prog byte 127 ms m+ qword mr", "254", ""),
  ]

  @Test(arguments: standard + scientific + programmer) func memoryAtTheLimit(_ row: Row) throws {
    let state = try Self.state(row.keys)
    #expect(Self.format.text(for: state) == row.display)
    #expect(Self.format.expression(for: state) == row.line)
  }
}
