/// Command-line arguments as strings that keep every byte, for parsers that take strings.
///
/// The system passes arguments as bytes, which need not be UTF-8; decoding them
/// (`String(decoding:as:)`) would turn every byte that is not UTF-8 into U+FFFD, so that
/// `caf\xE9.calc` and `caf\u{FFFD}.calc` would look alike. Here each such byte becomes a scalar of
/// its own instead: the byte 0xNN (0x80–0xFF) is U+10FFNN, at the end of the supplementary
/// private use area. A scalar of that range that the argument itself holds is written as its
/// four bytes (each as such a scalar), so that every argument has exactly one string and
/// ``bytes(of:)`` gives the bytes back: of the whole argument, and of any part of it cut at a
/// character, such as the value after `--keys=`. An argument that is UTF-8 and holds none of
/// U+10FF80–U+10FFFF is its plain string.
package enum ArgumentText {
  /// The scalar that stands for the byte 0x00; only 0x80–0xFF are ever written this way.
  private static let base: UInt32 = 0x10_FF00

  /// The string of the argument `bytes`.
  ///
  /// - Complexity: O(n) in the number of bytes.
  package static func string(_ bytes: some Collection<UInt8>) -> String {
    // UTF-8 without the lead byte 0xF4 of U+10FF80–U+10FFFF: the plain string.
    if !bytes.contains(0xF4), let text = String(validating: bytes, as: UTF8.self) { return text }
    let bytes = Array(bytes)
    var scalars = String.UnicodeScalarView()
    var index = 0
    while index < bytes.count {
      var iterator = bytes[index...].makeIterator()
      var decoder = UTF8()
      if case .scalarValue(let scalar) = decoder.decode(&iterator), !stands(scalar) {
        scalars.append(scalar)
        index += UTF8.width(scalar)
      } else {
        // Not UTF-8 here, or a scalar of the reserved range: one byte at a time.
        scalars.append(Unicode.Scalar(base + UInt32(bytes[index]))!)
        index += 1
      }
    }
    return String(scalars)
  }

  /// The string of the argument `bytes` as the system passes it, as the generic `string(_:)`
  /// gives it.
  ///
  /// Not generic: an argument of ASCII bytes, such as `-k` and `12+3=`, is decoded in place
  /// without the standard library's generic code for collections (witness tables, a lookup of
  /// associated types), which a start would otherwise run for each argument
  /// (Documentation/Performance.md); any other falls back to the generic one.
  /// - Complexity: O(n) in the number of bytes.
  package static func string(_ bytes: UnsafeRawBufferPointer) -> String {
    for byte in bytes where byte >= 0x80 { return string(Array(bytes)) }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The bytes of `text`, a string made by ``string(_:)`` or a part of one cut at a scalar.
  ///
  /// A string from elsewhere gets its UTF-8, except that a scalar of U+10FF80–U+10FFFF is the
  /// one byte it stands for.
  package static func bytes(of text: some StringProtocol) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      if stands(scalar) {
        bytes.append(UInt8(scalar.value - base))
      } else {
        bytes.append(contentsOf: String(scalar).utf8)
      }
    }
    return bytes
  }

  /// The bytes of `text`, as the generic `bytes(of:)` gives them.
  ///
  /// Not generic: without the lead byte 0xF4, `text` holds no scalar of U+10FF80–U+10FFFF and
  /// its bytes are its UTF-8 as it is, taken without a string made for each scalar (the keys of
  /// `calc -k 12+3=`, at every start; Documentation/Performance.md).
  /// - Complexity: O(n) in the length of `text`.
  package static func bytes(of text: String) -> [UInt8] {
    let utf8 = Array(text.utf8)
    return utf8.contains(0xF4) ? bytes(of: Substring(text)) : utf8
  }

  /// `text` for a message: its bytes (``bytes(of:)``) shown as ``FileName/shown`` shows a name,
  /// bytes that are not UTF-8 as `\x{FF}` and invisible characters as `\u{1B}`; line breaks are
  /// kept if `keepingNewlines`.
  package static func shown(_ text: some StringProtocol, keepingNewlines: Bool = false) -> String {
    let bytes = bytes(of: text)
    guard keepingNewlines else { return FileName(bytes).shown }
    return bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .map { FileName($0).shown }.joined(separator: "\n")
  }

  /// Whether `scalar` stands for a byte: U+10FF80–U+10FFFF.
  private static func stands(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value >= base + 0x80
  }
}
