/// A date line's text as a history and a state keep it: the line as recorded and as normalised
/// (``DateStep/text``, ``DateStep/normalizedText``).
///
/// Texts that fit are held in the value itself, and keeping them allocates nothing: a line that
/// is its own normalised form of at most 39 bytes, or a recorded and a normalised text of at
/// most 38 bytes together. Any other line holds its two strings, each allocated when it is
/// longer than 15 bytes, as a step did before (the first 3,000 lines of calc-bench's date mix
/// allocate 325 strings, and allocated 587 when the texts took four words, at most 31 bytes).
/// A kept text of more than 15 bytes was an allocation of about 80 bytes a line that a
/// history never let go of (Documentation/Performance.md, "Date lines, session 16").
///
/// The case and the bytes are a function of the texts alone (``init(recorded:normalized:)``),
/// so that equal texts are equal values, as the synthesised `==` and `hash(into:)` compare
/// them.
package struct DateText: Hashable, Sendable {
  /// The longest text held inline when the line is its own normalised form, in bytes.
  package static var inlineCapacity: Int { 39 }

  private enum Storage: Hashable, Sendable {
    /// The texts' bytes (``Bytes``).
    case inline(Bytes)
    /// The two texts, when they do not fit.
    case strings(recorded: String, normalized: String)
  }

  /// Five words of bytes, in memory order: the recorded text from byte 0, then the normalised
  /// text where it differs; byte 39 is the recorded text's length, with bit 7 set when a
  /// normalised text follows, whose length is byte 38 then. The bytes after the texts are zero.
  /// Five, not four: the step keeps the text's case in a byte of its own after them, and
  /// with four words a step took 88 bytes and the room for the fifth was padding; lines of 32
  /// to 39 bytes (an offset of years, months, weeks and days) and normalised lines of up to 38
  /// bytes together with their text (`A/n` of a duration with milliseconds) made two strings.
  private struct Bytes: Hashable, Sendable {
    var words: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)

    static func == (lhs: Bytes, rhs: Bytes) -> Bool {
      lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2
        && lhs.words.3 == rhs.words.3 && lhs.words.4 == rhs.words.4
    }

    func hash(into hasher: inout Hasher) {
      hasher.combine(words.0)
      hasher.combine(words.1)
      hasher.combine(words.2)
      hasher.combine(words.3)
      hasher.combine(words.4)
    }

    /// `recorded`, and `normalized` unless it is `nil`, when they fit; `nil` otherwise.
    init?(_ recorded: UnsafeBufferPointer<UInt8>, _ normalized: UnsafeBufferPointer<UInt8>?) {
      let count = recorded.count + (normalized?.count ?? 0)
      guard count <= (normalized == nil ? 39 : 38) else { return nil }
      withUnsafeMutableBytes(of: &words) { bytes in
        UnsafeMutableRawBufferPointer(rebasing: bytes[..<recorded.count])
          .copyMemory(from: UnsafeRawBufferPointer(recorded))
        bytes[39] = UInt8(recorded.count)
        if let normalized {
          UnsafeMutableRawBufferPointer(rebasing: bytes[recorded.count..<count])
            .copyMemory(from: UnsafeRawBufferPointer(normalized))
          bytes[38] = UInt8(normalized.count)
          bytes[39] |= 0x80
        }
      }
    }

    init() {}

    /// Calls `body` with the bytes of the recorded text (`normalized` false) or of the
    /// normalised one, where they lie.
    func withText<R>(normalized: Bool, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
      withUnsafeBytes(of: words) { raw in
        let bytes = raw.bindMemory(to: UInt8.self)
        let recorded = Int(bytes[39] & 0x7F)
        let range =
          normalized && bytes[39] & 0x80 != 0
          ? recorded..<(recorded + Int(bytes[38])) : 0..<recorded
        return body(UnsafeBufferPointer(rebasing: bytes[range]))
      }
    }

    /// The recorded text (`normalized` false) or the normalised one.
    func string(normalized: Bool) -> String {
      withText(normalized: normalized) { String(decoding: $0, as: UTF8.self) }
    }

    /// Byte 39: the recorded text's length, bit 7 set when a normalised text follows.
    var control: UInt8 { withUnsafeBytes(of: words) { $0[39] } }

  }

  private let storage: Storage

  private init(storage: Storage) {
    self.storage = storage
  }

  /// The text recorded as `recorded` and normalised as `normalized`.
  package init(recorded: String, normalized: String) {
    var (recordedCopy, normalizedCopy) = (recorded, normalized)
    // Byte for byte: `==` of strings would take canonically equivalent ones as the same.
    let (same, inline) = recordedCopy.withUTF8 { recordedBytes in
      normalizedCopy.withUTF8 { normalizedBytes -> (Bool, Bytes?) in
        ByteScan.equal(recordedBytes, normalizedBytes)
          ? (true, Bytes(recordedBytes, nil)) : (false, Bytes(recordedBytes, normalizedBytes))
      }
    }
    if let inline {
      self.init(storage: .inline(inline))
    } else {
      self.init(storage: .strings(recorded: recorded, normalized: same ? recorded : normalized))
    }
  }

  /// ``init(_:normalized:)`` of ASCII bytes and an ASCII normalised text, as a line read by its
  /// shape (``DateShape``) has (every byte a shape reads is ASCII): the two scans for bytes that
  /// are not are spared (about 35 instructions a date line).
  ///
  /// - Complexity: O(n) in the length of the texts.
  init(shaped bytes: UnsafeBufferPointer<UInt8>, normalized: UnsafeBufferPointer<UInt8>?) {
    assert(ByteScan.isASCII(bytes) && normalized.map(ByteScan.isASCII) ?? true)
    let normalized = normalized.flatMap { ByteScan.equal($0, bytes) ? nil : $0 }
    if let inline = Bytes(bytes, normalized) {
      self.init(storage: .inline(inline))
    } else {
      let recorded = String(decoding: bytes, as: UTF8.self)
      self.init(
        storage: .strings(
          recorded: recorded,
          normalized: normalized.map { String(decoding: $0, as: UTF8.self) } ?? recorded))
    }
  }

  /// The text `bytes`, recorded as it is, and normalised as `normalized` (`nil`: as it is).
  /// Bytes that are not UTF-8 are repaired, as a string of them is.
  ///
  /// - Complexity: O(n) in the length of the texts.
  package init(_ bytes: UnsafeBufferPointer<UInt8>, normalized: UnsafeBufferPointer<UInt8>?) {
    // ASCII, as a date line almost always is: no repair, no canonical equivalence.
    guard ByteScan.isASCII(bytes), normalized.map(ByteScan.isASCII) ?? true else {
      // A normalised text of the same bytes makes the same string, which the strings'
      // initialiser takes as the line's own.
      let recorded = String(decoding: bytes, as: UTF8.self)
      self.init(
        recorded: recorded,
        normalized: normalized.map { String(decoding: $0, as: UTF8.self) } ?? recorded)
      return
    }
    self.init(shaped: bytes, normalized: normalized)
  }

  /// The empty text.
  package init() {
    storage = .inline(Bytes())
  }

  /// The line as recorded.
  package var recorded: String {
    switch storage {
    case .inline(let bytes): bytes.string(normalized: false)
    case .strings(let recorded, _): recorded
    }
  }

  /// The line normalised.
  package var normalized: String {
    switch storage {
    case .inline(let bytes): bytes.string(normalized: true)
    case .strings(_, let normalized): normalized
    }
  }

  /// Whether the normalised texts of the two are the same bytes: what a state compares of its
  /// last line (``DateBrain``), whose recorded text is no part of it.
  ///
  /// - Complexity: O(n) in the length of the texts.
  package func hasSameNormalizedText(as other: DateText) -> Bool {
    withNormalizedBytes { mine in other.withNormalizedBytes { ByteScan.equal(mine, $0) } }
  }

  /// Hashes the normalised text's bytes, as ``hasSameNormalizedText(as:)`` compares them.
  package func hashNormalizedText(into hasher: inout Hasher) {
    withNormalizedBytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }

  /// Calls `body` with the normalised text's bytes, where they lie.
  private func withNormalizedBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    switch storage {
    case .inline(let bytes):
      return bytes.withText(normalized: true, body)
    case .strings(_, let normalized):
      var copy = normalized
      return copy.withUTF8(body)
    }
  }

  /// Whether the text is empty.
  package var isEmpty: Bool {
    switch storage {
    case .inline(let bytes): bytes.control == 0
    case .strings(let recorded, let normalized): recorded.isEmpty && normalized.isEmpty
    }
  }
}
