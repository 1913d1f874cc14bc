import CalculatorEngine

// The live row of a formula line (SPEC §12): "it closes open brackets and ignores a trailing
// operator, sign, `e` or an unfinished name, and shows an error only for what more typing cannot
// fix".
extension LineInterpreter {
  /// The live row of `line`, a formula line typed so far that does not read as one yet
  /// (`error`): the preview of the line finished as typing could finish it — its open brackets
  /// closed after what may still go on (a trailing operator, sign, `(`, `,`, an exponent's `e`,
  /// the start of a name) is left out; `nil` when the line is no formula line, or when no such
  /// finish reads (`2 3`, `sinx`: the error stands).
  ///
  /// - Complexity: O(n × k) in the line's bytes, k ≤ ``formulaRepairLimit`` the parts left out.
  func formulaPreview(
    of line: UnsafeBufferPointer<UInt8>, format: DisplayFormat
  ) -> LivePreview? {
    let mode = session.state.mode
    var storage: [Key] = []
    // A formula line whose formula does not read throws; any other line is no formula line.
    do throws(KeyTextError) {
      _ = try KeyText.formulaLine(in: line, startingIn: mode, reusing: &storage)
      return nil
    } catch {}
    var bytes = Array(line.prefix { $0 != UInt8(ascii: "#") })
    let memoryWord = Self.trailingMemoryWord(of: &bytes)
    for _ in 0..<Self.formulaRepairLimit {
      while let last = bytes.last, last == 0x20 || last == 0x09 { bytes.removeLast() }
      var open = 0
      for byte in bytes {
        if byte == UInt8(ascii: "(") {
          open += 1
        } else if byte == UInt8(ascii: ")") {
          open = max(0, open - 1)
        }
      }
      let candidate = bytes + Array(repeating: UInt8(ascii: ")"), count: open) + memoryWord
      let parsed = candidate.withUnsafeBufferPointer { try? ScriptLine($0, mode: mode) }
      if let parsed {
        return candidate.withUnsafeBufferPointer {
          preview(of: parsed, line: $0, format: format)
        } ?? result(session.state, format)
      }
      guard Self.dropUnfinishedEnd(of: &bytes) else { return nil }
    }
    return nil
  }

  /// The most parts at the end of a formula line that its live row leaves out.
  static let formulaRepairLimit = 16

  /// Takes a trailing `ms`, `m+` or `m-` after a blank off `bytes` and returns it with that
  /// blank (empty when there is none): it follows the brackets that the live row closes.
  private static func trailingMemoryWord(of bytes: inout [UInt8]) -> [UInt8] {
    while let last = bytes.last, last == 0x20 || last == 0x09 { bytes.removeLast() }
    for word in ["ms", "m+", "m-", "m−"] {
      let count = word.utf8.count
      guard bytes.count > count,
        bytes[bytes.count - count - 1] == 0x20 || bytes[bytes.count - count - 1] == 0x09,
        String(decoding: bytes.suffix(count), as: UTF8.self).lowercased() == word
      else { continue }
      bytes.removeLast(count)
      return Array((" " + word).utf8)
    }
    return []
  }

  /// The characters that may end a formula typed so far and that more typing goes on from: the
  /// operators, signs, `√`, `∛`, `(`, the separators and `$`.
  private static let unfinishedEnds: [[UInt8]] = [
    "+", "-", "*", "/", "^", "(", ",", ";", "$", "×", "÷", "−", "√", "∛",
  ].map { Array($0.utf8) }

  /// Leaves out what ends `bytes` and more typing would go on from — an operator, a sign (with
  /// the `e` of an exponent before it), `(`, a separator, or the start of a name (a name itself:
  /// `sin` needs its brackets) — and returns whether there was one.
  private static func dropUnfinishedEnd(of bytes: inout [UInt8]) -> Bool {
    func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    guard let last = bytes.last else { return false }
    if let end = unfinishedEnds.first(where: {
      bytes.count >= $0.count && bytes.suffix($0.count).elementsEqual($0)
    }) {
      bytes.removeLast(end.count)
      // `1.5e-`: the sign of an exponent, and its `e`.
      if end == [UInt8(ascii: "+")] || end == [UInt8(ascii: "-")] || end == Array("−".utf8),
        bytes.count >= 2, bytes[bytes.count - 1] | 0x20 == UInt8(ascii: "e"),
        isDigit(bytes[bytes.count - 2]) || bytes[bytes.count - 2] == UInt8(ascii: ".")
      {
        bytes.removeLast()
      }
      return true
    }
    guard isLetter(last) || isDigit(last) else { return false }
    // The word at the end: letters, and digits after a letter (`pow1`).
    var start = bytes.count
    while start > 0, isLetter(bytes[start - 1]) || isDigit(bytes[start - 1]) { start -= 1 }
    while start < bytes.count, isDigit(bytes[start]) { start += 1 }
    guard start < bytes.count else { return false }
    let word = String(decoding: bytes[start...], as: UTF8.self).lowercased()
    guard (Formula.functionNames + Formula.otherNames).contains(where: { $0.hasPrefix(word) })
    else { return false }
    bytes.removeLast(bytes.count - start)
    return true
  }
}
