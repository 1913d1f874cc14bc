import Testing

@testable import CalculatorEngine

/// A date line's kept text (``DateText``): what goes in comes out, whether it is held inline or
/// boxed, and equal texts are equal values however they were made.
@Suite struct DateTextTests {
  /// `bytes` of `text` through the byte initialiser.
  static func fromBytes(_ bytes: [UInt8], normalized: [UInt8]? = nil) -> DateText {
    bytes.withUnsafeBufferPointer { bytes in
      if let normalized {
        return normalized.withUnsafeBufferPointer { DateText(bytes, normalized: $0) }
      }
      return DateText(bytes, normalized: nil)
    }
  }

  static let texts = [
    "", "1", "2024-01-01", "65:55:08 in min", "8603-09-14 + 552y",
    // 24 bytes, the most held inline, and 25.
    "9708-10-08 to 2516-07-22", "9708-10-08 to 2516-07-22 ",
    // 31 and 32 bytes (an offset of years, months, weeks and days), held inline since the
    // texts took five words; 39 bytes, the most held inline, and 40.
    "6900-06-07 + 808y 291m 531w 46d", "6900-06-07 + 808y 291m 531w 146d",
    "9708-10-08 to 2516-07-22 + 808y 291m 5w", "9708-10-08 to 2516-07-22 + 808y 291m 53w",
    "2024-01-01 + 1d # é note", "é", String(repeating: "é", count: 15),
    String(repeating: "é", count: 16), "a\u{0}b", "\u{0}",
  ]

  @Test(arguments: texts) func aTextIsReadBackAsItWent(_ text: String) {
    let fromString = DateText(recorded: text, normalized: text)
    let bytes = Self.fromBytes(Array(text.utf8))
    #expect(fromString.recorded == text)
    #expect(fromString.normalized == text)
    #expect(bytes.recorded == text)
    #expect(bytes.normalized == text)
    #expect(fromString == bytes)
    #expect(fromString.hashValue == bytes.hashValue)
    #expect(fromString.isEmpty == text.isEmpty)
    #expect(fromString.hasSameNormalizedText(as: bytes))
  }

  /// Whether a text is held in the value: one text of at most 39 bytes, or two of at most 38
  /// together.
  @Test func shortTextsAreHeldInline() {
    func isInline(_ text: DateText) -> Bool { "\(text)".contains("inline") }
    for text in Self.texts {
      #expect(
        isInline(DateText(recorded: text, normalized: text))
          == (text.utf8.count <= DateText.inlineCapacity), "\(text)")
    }
    // 14 + 16 bytes, 15 + 17 (a line of calc-bench's `A/n`), 18 + 20, and 19 + 20.
    #expect(isInline(DateText(recorded: "80:51:14.577/1", normalized: "80:51:14.577 / 1")))
    #expect(isInline(DateText(recorded: "80:51:14.577/10", normalized: "80:51:14.577 / 10")))
    #expect(
      isInline(DateText(recorded: "8:51:14.577/100000", normalized: "8:51:14.577 / 100000")))
    #expect(
      !isInline(DateText(recorded: "80:51:14.577/100000", normalized: "8:51:14.577 / 100000")))
  }

  @Test func aLineNormalisedOtherwiseKeepsBoth() {
    let typed = Array("2024-1-5 to 2024-12-1".utf8)
    let normalized = Array("2024-01-05 to 2024-12-01".utf8)
    let text = Self.fromBytes(typed, normalized: normalized)
    #expect(text.recorded == "2024-1-5 to 2024-12-1")
    #expect(text.normalized == "2024-01-05 to 2024-12-01")
    #expect(
      text == DateText(recorded: "2024-1-5 to 2024-12-1", normalized: "2024-01-05 to 2024-12-01"))
    #expect(
      text != DateText(recorded: "2024-01-05 to 2024-12-01", normalized: "2024-01-05 to 2024-12-01")
    )
    // What a state compares: the normalised text alone, as of the same line typed normalised.
    #expect(text.hasSameNormalizedText(as: Self.fromBytes(normalized)))
    #expect(!text.hasSameNormalizedText(as: Self.fromBytes(typed)))
    var (first, second) = (Hasher(), Hasher())
    text.hashNormalizedText(into: &first)
    Self.fromBytes(normalized).hashNormalizedText(into: &second)
    #expect(first.finalize() == second.finalize())
    // Normalised as it was typed: as if no normalised text had been given.
    #expect(Self.fromBytes(normalized, normalized: normalized) == Self.fromBytes(normalized))
  }

  /// Bytes that are not UTF-8 are repaired as a string repairs them, and the text is the same
  /// value as the repaired string's.
  /// Texts that differ only in their bytes (canonically equivalent strings) are kept apart.
  @Test func canonicallyEquivalentTextsAreKeptApart() {
    let text = DateText(recorded: "e\u{301}", normalized: "\u{E9}")
    #expect(Array(text.recorded.unicodeScalars) == ["e", "\u{301}"])
    #expect(Array(text.normalized.unicodeScalars) == ["\u{E9}"])
    #expect(text.hasSameNormalizedText(as: DateText(recorded: "\u{E9}", normalized: "\u{E9}")))
    // Canonically equivalent, not the same bytes.
    #expect(
      !text.hasSameNormalizedText(as: DateText(recorded: "e\u{301}", normalized: "e\u{301}")))
  }

  /// Every way of making a text of two short different texts gives the same value, and reads
  /// them back, at the inline capacity's edges.
  @Test func twoTextsAtTheEdges() {
    for (r, n) in [(0, 30), (1, 29), (14, 16), (15, 15), (15, 16), (30, 1), (16, 16)] {
      let recorded = String(repeating: "1", count: r)
      let normalized = String(repeating: "2", count: n)
      let text = Self.fromBytes(Array(recorded.utf8), normalized: Array(normalized.utf8))
      #expect(text == DateText(recorded: recorded, normalized: normalized), "\(r) \(n)")
      #expect(text.recorded == recorded && text.normalized == normalized, "\(r) \(n)")
      #expect(
        text.hasSameNormalizedText(as: DateText(recorded: normalized, normalized: normalized)))
      #expect(text.isEmpty == false)
    }
  }

  @Test func bytesThatAreNotUTF8AreRepaired() {
    let bytes: [UInt8] = [0x31, 0xFF, 0x32]
    let text = Self.fromBytes(bytes)
    let repaired = String(decoding: bytes, as: UTF8.self)
    #expect(text.recorded == repaired)
    #expect(text == DateText(recorded: repaired, normalized: repaired))
  }

  @Test func theEmptyTextIsEmpty() {
    #expect(DateText().isEmpty)
    #expect(DateText().recorded == "")
    #expect(DateText() == DateText(recorded: "", normalized: ""))
    #expect(!DateText(recorded: "1", normalized: "1").isEmpty)
  }
}
