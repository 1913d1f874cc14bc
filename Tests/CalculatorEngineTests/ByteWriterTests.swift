import CalcTestSupport
import Testing

@testable import CalculatorEngine

/// The one-pass reader's byte writer (``ByteWriter``): what is written is what an array of the
/// same appends holds, across growth, and a copy of a reader writes into memory of its own.
@Suite struct ByteWriterTests {
  @Test func aWriterHoldsWhatAnArrayWould() {
    var random = SplitMix64(state: 0xB17E_5)
    for _ in 0..<TestSize.count(short: 40, long: 1_000) {
      let writer = ByteWriter(capacity: Int(random.next() % 40))
      var model: [UInt8] = []
      for _ in 0..<Int(random.next() % 60) {
        switch random.next() % 4 {
        case 0:
          let byte = UInt8(truncatingIfNeeded: random.next())
          writer.append(byte)
          model.append(byte)
        case 1:
          let bytes = (0..<Int(random.next() % 30)).map { _ in
            UInt8(truncatingIfNeeded: random.next())
          }
          bytes.withUnsafeBufferPointer { writer.append(contentsOf: $0) }
          model += bytes
        case 2:
          let count = Int(random.next() % 21)
          writer.append(upTo: 20) { text in
            for index in 0..<min(count, 20) { text[index] = UInt8(index) }
            return min(count, 20)
          }
          model += (0..<min(count, 20)).map(UInt8.init)
        default:
          if random.next() % 5 == 0 {
            writer.removeAll()
            model.removeAll()
          }
        }
        #expect(Array(writer.bytes) == model)
        #expect(writer.count == model.count)
      }
    }
  }

  /// A reader copied after reading a line, then reading another, leaves the original's
  /// normalised text as it was.
  @Test func aCopyOfAReaderWritesIntoItsOwnMemory() {
    var first = DateOnePass()
    var text = "2024-1-5 to 2024-12-1"
    _ = text.withUTF8 { first.read($0) { _ in nil } }
    #expect(String(decoding: first.normalized, as: UTF8.self) == "2024-01-05 to 2024-12-01")
    var second = first
    var other = "1:30+0:45"
    _ = other.withUTF8 { second.read($0) { _ in nil } }
    #expect(String(decoding: second.normalized, as: UTF8.self) == "1:30 + 0:45")
    #expect(String(decoding: first.normalized, as: UTF8.self) == "2024-01-05 to 2024-12-01")
  }

  /// The offset's and the date's texts are written the same to an array and to a writer.
  @Test func theTextsAreTheSameInAnArrayAndAWriter() {
    let offsets = [
      DateOffset(years: 808, months: 291, weeks: 531, days: 46), DateOffset(days: 1),
      DateOffset(years: 0), DateOffset(months: 12, days: 999), DateOffset(years: 5, weeks: 10),
    ]
    for offset in offsets {
      var array: [UInt8] = []
      offset.appendText(to: &array)
      let writer = ByteWriter()
      offset.appendText(to: writer)
      #expect(Array(writer.bytes) == array, "\(offset)")
      #expect(String(decoding: array, as: UTF8.self) == offset.description)
    }
    #expect(
      DateOffset(years: 808, months: 291, weeks: 531, days: 46).description == "808y 291m 531w 46d")
    for date in [
      CivilDate(year: 1601, month: 1, day: 1)!, CivilDate(year: 9999, month: 12, day: 31)!,
    ] {
      var array: [UInt8] = []
      date.appendISOText(to: &array)
      let writer = ByteWriter()
      date.appendISOText(to: writer)
      #expect(Array(writer.bytes) == array)
      #expect(String(decoding: array, as: UTF8.self) == date.isoText)
    }
  }
}
