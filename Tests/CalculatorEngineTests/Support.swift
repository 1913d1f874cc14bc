import CalculatorEngine
import Foundation
import Testing

/// The display after typing `keys` (key text) on a fresh calculator, in `format`.
func display(_ keys: String, format: DisplayFormat = .posix) throws -> String {
  format.text(for: Calculator.initial.applying(try KeyText.keys(in: keys)))
}

/// A row of a display table: key text, the expected display, and where the row comes from.
struct DisplayCase: CustomTestStringConvertible, Sendable {
  let keys: String
  let expected: String
  let origin: String
  var testDescription: String { "\(origin): \(keys.isEmpty ? "(no keys)" : keys) → \(expected)" }
}

/// The folder holding this file, for fixtures.
let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
