import CalcTestSupport
import Testing

@testable import CalculatorEngine

/// `RunPrefixed` reads as the array of what was appended: a run of consecutive numbers at the
/// start held as its count alone, and everything from the first number that breaks it on held
/// one by one; its prefixes read as the array's.
@Suite struct RunPrefixedTests {
  /// The elements of `sequence`, read through its subscript.
  static func elements<Element>(_ sequence: RunPrefixed<Element>) -> [Int] {
    (0..<sequence.count).map { sequence[$0] }
  }

  @Test(
    arguments: [
      ([], 0), ([5], 1), ([5, 6, 7], 3), ([0, 1, 2, 4, 5], 3), ([3, 3], 1), ([-1, 0, 1], 0),
      ([7, 8, -1, 9, 10], 2), ([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 10), ([10, 9, 8], 1),
    ] as [([Int], Int)])
  func readsAsTheArrayWithItsRunAtTheStart(elements: [Int], run: Int) {
    var sequence = RunPrefixed<Int32>()
    for element in elements { sequence.append(element) }
    #expect(Self.elements(sequence) == elements)
    #expect(sequence.runCount == run)
    #expect(sequence.count == elements.count)
    #expect(sequence.isEmpty == elements.isEmpty)
    for count in 0...elements.count + 1 {
      #expect(Self.elements(sequence.prefix(count)) == Array(elements.prefix(count)))
    }
    #expect(Self.elements(RunPrefixed<Int32>(elements)) == elements)
  }

  /// Random sequences: runs of every length broken by any number, then anything.
  @Test func randomSequencesReadAsTheirArrays() {
    var random = SplitMix64(state: 0x5EB_2022)
    for _ in 0..<TestSize.count(short: 200, long: 5_000) {
      var elements: [Int] = []
      var next = Int.random(in: -2...1_000, using: &random)
      for _ in 0..<Int.random(in: 0...40, using: &random) {
        elements.append(next)
        next = Bool.random(using: &random) ? next + 1 : Int.random(in: -2...1_000, using: &random)
      }
      let sequence = RunPrefixed<Int>(elements)
      #expect(Self.elements(sequence) == elements)
      let cut = Int.random(in: 0...elements.count, using: &random)
      #expect(Self.elements(sequence.prefix(cut)) == Array(elements.prefix(cut)))
      let slice = RunPrefixed<Int>(slice: elements[...])
      #expect(slice.runCount == 0 && Self.elements(slice) == elements)
    }
  }
}
