/// What the REPL does to a typed line before the interpreter reads it.
package enum InputText {
  /// Whether `line` holds only blanks (spaces and tabs), or nothing: at the REPL, the display
  /// again; as an edited line of the past, its deletion (SPEC §4).
  ///
  /// - Complexity: O(n) in the length of the line.
  package static func isBlank(_ line: [UInt8]) -> Bool {
    line.allSatisfy { $0 == 0x20 || $0 == 0x09 }
  }

  /// `line` with the locale's decimal separator, when it is not `.`, read as the decimal point
  /// in a key line, up to a comment (SPEC §6: `2,5*2=` under `de_DE`): at the REPL only, since
  /// scripts and `--keys` must mean the same everywhere. Command lines are left as they are.
  ///
  /// - Complexity: O(n) in the length of the line.
  package static func acceptingDecimalSeparator(_ line: [UInt8], separator: [UInt8]) -> [UInt8] {
    guard !separator.isEmpty, separator != [UInt8(ascii: ".")],
      line.first(where: { $0 != 0x20 && $0 != 0x09 }) != UInt8(ascii: ":")
    else { return line }
    var result: [UInt8] = []
    result.reserveCapacity(line.count)
    var index = 0
    while index < line.count {
      if line[index] == UInt8(ascii: "#") {
        result += line[index...]
        break
      }
      if line[index...].starts(with: separator) {
        result.append(UInt8(ascii: "."))
        index += separator.count
      } else {
        result.append(line[index])
        index += 1
      }
    }
    return result
  }
}
