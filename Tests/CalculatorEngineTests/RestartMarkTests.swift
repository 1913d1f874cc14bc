import CalcDecimal
import CalcTestSupport
import Testing

@testable import CalculatorEngine

/// History's restart marks (`History.Mark`): the state after an AC, `sci` or `prog` kept in a
/// few bytes, where a jump starts its replay when the mark lies after its interval's snapshot.
@Suite struct RestartMarkTests {

  /// Values a mark's memory may hold, each with its exact digits.
  static let values: [Decimal34] = [
    .zero,
    Decimal34(coefficient: 0, exponent: -7),
    Decimal34(coefficient: 0, exponent: 12),
    Decimal34(coefficient: 1, exponent: 0),
    Decimal34(coefficient: 127, exponent: 0),
    Decimal34(coefficient: 128, exponent: -1),
    Decimal34(coefficient: 150, exponent: -2, isNegative: true),
    Decimal34(coefficient: 9_999_999_999_999_999_999_999_999_999_999_999, exponent: -33),
    Decimal34(
      coefficient: 1_234_567_890_123_456_789_012_345_678_901_234, exponent: 9966,
      isNegative: true),
    Decimal34(coefficient: 1, exponent: -10032),
    Decimal34(coefficient: 31_415_926_535_897_932_384_626_433_832_795, exponent: Int(Int32.min)),
    Decimal34(coefficient: 27_182_818_284_590_452_353_602_874_713_527, exponent: Int(Int32.max)),
  ]

  /// Each value reads back with its digits, exponent and sign, and the bytes after it are
  /// where the next value starts.
  @Test func valuesRoundTrip() {
    var bytes: [UInt8] = []
    for value in Self.values { History.encode(Number(value), into: &bytes) }
    var index = 0
    for value in Self.values {
      let (number, next) = History.decodeNumber(bytes, at: index)
      #expect(History.identical(number, Number(value)), "\(value)")
      let read = number.shortDecimal!
      #expect(read.coefficient == value.coefficient && read.exponent == value.exponent)
      #expect(read.isNegative == value.isNegative)
      index = next
    }
    #expect(index == bytes.count)
  }

  /// A fraction (small or boxed) and a rounded value read back as they were: exact fraction,
  /// mark and all (SPEC §2 rule 15: the mark travels through memory).
  @Test func fractionsAndRoundedValuesRoundTrip() {
    let third = Number.dividing(Number(1), by: Number(3))!
    let big = Number.dividing(Number(Decimal34(coefficient: 1, exponent: 60)), by: Number(7))!
    let values = [
      third, -third, big, -big, Number(rounded: Decimal34(coefficient: 15, exponent: -1)),
      Number(rounded: .zero),
    ]
    var bytes: [UInt8] = []
    for value in values { History.encode(value, into: &bytes) }
    var index = 0
    for value in values {
      let (read, next) = History.decodeNumber(bytes, at: index)
      #expect(read == value, "\(value)")
      #expect(History.identical(read, value))
      index = next
    }
    #expect(index == bytes.count)
    #expect(!History.identical(Number(Decimal34(coefficient: 15, exponent: -1)), values[4]))
  }

  /// A small value takes three bytes (a kind byte, then two), 34 digits 20 (17 for the digits).
  @Test(arguments: [
    (Decimal34(coefficient: 5, exponent: 0), 3),
    (Decimal34(coefficient: 5, exponent: -1, isNegative: true), 3),
    (Decimal34(coefficient: 9_999_999_999_999_999_999_999_999_999_999_999, exponent: -33), 20),
    (Decimal34(coefficient: 1, exponent: 9999), 5),
  ])
  func valuesAreCompact(_ value: Decimal34, _ size: Int) {
    var bytes: [UInt8] = []
    History.encode(Number(value), into: &bytes)
    #expect(bytes.count == size)
  }

  /// `1.5` and `1.50` are the same number but not the same digits: a mark keeps the digits.
  @Test func identicalComparesDigits() {
    let a = Number(Decimal34(coefficient: 15, exponent: -1))
    let b = Number(Decimal34(coefficient: 150, exponent: -2))
    #expect(a == b)
    #expect(!History.identical(a, b))
    #expect(History.identical(a, a))
    #expect(History.identical(nil, nil))
    #expect(!History.identical(a, nil))
  }

  /// A row: the first line and a line repeated, with a restart in it.
  struct Row: Sendable, CustomTestStringConvertible {
    let name: String
    let first: [Key]
    let repeated: [Key]
    var testDescription: String { name }
  }

  static let rows: [Row] = [
    Row(
      name: "Scientific, AC, radians, the memory unchanged for many marks",
      first: [.mode(.scientific), .digit(.seven), .memory(.store), .angle(.radians)],
      repeated: [
        .command(.clear), .scientific(.bracket(.open)), .digit(.one), .op(.plus),
        .scientific(.constant(.pi)),
        .scientific(.bracket(.close)), .scientific(.function(.sin)), .op(.multiply),
        .memory(.recall), .equal,
        .scientific(.fixedToExponential), .digit(.two), .digit(.three), .op(.divide),
        .digit(.seven),
        .op(.plus), .digit(.four), .scientific(.exponent), .digit(.five), .command(.flip), .equal,
        .digit(.one), .op(.plus), .digit(.two), .op(.multiply), .digit(.three), .equal,
      ]),
    Row(
      name: "Scientific, AC, the memory changed at every line (m+), an error",
      first: [.mode(.scientific), .angle(.grads)],
      repeated: [
        .memory(.add), .command(.clear), .digit(.one), .digit(.one), .op(.plus), .digit(.two),
        .op(.multiply), .scientific(.bracket(.open)), .digit(.three), .op(.minus), .digit(.four),
        .scientific(.bracket(.close)), .equal, .digit(.one), .op(.divide), .digit(.zero), .equal,
        .digit(.five), .op(.plus), .digit(.six), .op(.minus), .digit(.one), .digit(.two),
        .op(.multiply), .digit(.nine), .digit(.nine), .equal, .digit(.eight), .op(.plus),
        .digit(.one), .equal, .digit(.two), .op(.plus), .digit(.two), .equal,
        .digit(.three), .op(.plus), .digit(.three), .equal, .digit(.four), .op(.plus),
        .digit(.four), .equal,
      ]),
    Row(
      name: "Programmer HEX, WORD, AC, prog and HEX",
      first: [.mode(.programmer), .programmer(.wordSize(.word)), .programmer(.radix(.hex))],
      repeated: [
        .command(.clear), .programmer(.hexDigit(.a)), .digit(.five), .programmer(.bitwise(.xor)),
        .programmer(.hexDigit(.f)), .equal,
        .digit(.three), .programmer(.shift(.left)), .digit(.two), .equal,
        .programmer(.rotate(.left)), .programmer(.not),
        .digit(.one), .op(.plus), .digit(.two), .op(.multiply), .digit(.three), .equal,
        .mode(.programmer), .programmer(.radix(.hex)), .digit(.four), .op(.plus), .digit(.one),
        .equal,
        .digit(.one), .op(.plus), .digit(.two), .op(.multiply), .digit(.three), .equal,
        .digit(.one), .op(.plus), .digit(.two), .op(.multiply), .digit(.three), .equal,
        .digit(.one), .op(.plus), .digit(.two), .op(.multiply), .digit(.three), .equal,
      ]),
  ]

  /// A session of `row`: its first line, then its repeated line cut into lines at each `=`
  /// until the branch holds `count` keys.
  static func session(_ row: Row, count: Int) throws -> Session {
    var session = Session()
    try session.perform(.keys(row.first[...]))
    var line: [Key] = []
    while session.history.count < count {
      for key in row.repeated {
        line.append(key)
        if case .equal = key {
          try session.perform(.keys(line[...]))
          line.removeAll()
        }
      }
    }
    return session
  }

  /// Every mark rebuilds the state a replay reaches there, every jump lands on the replay, and
  /// no jump replays more than a mark's spacing plus a row's keys after the first mark.
  @Test(arguments: rows) func jumpsReplayFromTheLastMark(_ row: Row) throws {
    var session = try Self.session(row, count: TestSize.count(short: 1_200, long: 6_000))
    let history = session.history
    let marks = history.branches[0].marks
    #expect(marks.count > history.count / (History.markSpacing + row.repeated.count))
    let states = LightSnapshotTests.replayed(history)
    let first = Int(marks[0].offset)
    for step in 0...history.count {
      if step >= first {
        #expect(
          history.replayCost(at: step, on: 0) < History.markSpacing + row.repeated.count,
          "step \(step)")
      }
      if step % 7 == 0 || step == history.count {
        try session.perform(.goto(.step(step)))
        #expect(session.state == states[step], "step \(step)")
      }
    }
    session.history._checkInvariants()
  }

  /// A memory kept unchanged across many marks is read back down a chain of at most
  /// `History.markMemoryChain` marks: the first of each run of marks holds it.
  @Test func anUnchangedMemoryIsKeptOnceAChain() throws {
    let session = try Self.session(Self.rows[0], count: TestSize.count(short: 3_000, long: 12_000))
    let branch = session.history.branches[0]
    #expect(branch.marks.count > 2 * History.markMemoryChain)
    var chain = 0
    for (index, mark) in branch.marks.enumerated() {
      let kind = branch.markBytes[Int(mark.byte)] >> 6
      if index == 0 {
        #expect(kind == History.MarkMemory.inline.rawValue)
      } else {
        chain = kind == History.MarkMemory.previous.rawValue ? chain + 1 : 0
        #expect(chain < History.markMemoryChain, "mark \(index)")
      }
      #expect(
        History.identical(
          branch.memory(ofMark: index), Number(7)))
    }
    // A memory kept inline once per chain: 2 bytes a mark, 3 the memory (its kind and 7).
    #expect(
      branch.markBytes.count
        < branch.marks.count * 2 + (branch.marks.count / History.markMemoryChain + 1) * 4)
  }

  /// Branches that leave a marked branch, and marks of their own, land on the replay.
  @Test(arguments: rows) func forksLandOnTheReplay(_ row: Row) throws {
    var session = try Self.session(row, count: 900)
    var random = SplitMix64(state: 0x3A_4B)
    for _ in 0..<4 {
      try session.perform(.branch(1 + random.below(session.history.branchCount)))
      try session.perform(.goto(.step(1 + random.below(session.history.count - 1))))
      for _ in 0..<3 { try session.perform(.keys(row.repeated[...])) }
    }
    try LightSnapshotTests.expectJumpsLandOnTheReplay(&session)
  }
}
