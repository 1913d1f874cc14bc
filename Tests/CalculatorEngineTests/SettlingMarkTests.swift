import CalcDecimal
import CalcTestSupport
import Testing

@testable import CalculatorEngine

/// History's settling restart marks (`History.Branch.appendMark(at:_:settling:)`): a line of
/// Scientific mode that starts with a number and a binary operator after a settled `=` (no
/// error, F-E off, nothing open: `ScientificBrain.isSettled`) leaves the state a fresh
/// calculation would, so a jump past those keys replays from the line's start instead of from
/// the last AC.
@Suite struct SettlingMarkTests {
  /// A settled state, a number and an operator: the state after them, from there and from a
  /// fresh Scientific calculation (`sci`), is the same.
  struct Settled: Sendable, CustomTestStringConvertible {
    /// The keys up to the settled state, as key text.
    let before: String
    /// A number and a binary operator.
    let number: String
    var testDescription: String { "\(before) then \(number)" }
  }

  static let settled: [Settled] = [
    Settled(before: "sci 2+3=", number: "45+"),
    Settled(before: "sci 2+3*4=", number: "7*"),
    Settled(before: "sci 7*(1+2=", number: ".5-"),
    Settled(before: "sci 2^10=", number: "3^"),
    Settled(before: "sci 5=", number: "0/"),
    Settled(before: "sci 1+2==", number: "9mod"),
    Settled(before: "sci rad 8 sin=", number: "1.25yroot"),
    Settled(before: "sci 4ms 2*mr=", number: "12logy"),
    Settled(before: "sci 2+3=", number: "2pi+"),
    Settled(before: "sci 1/3=", number: "12exp3*"),
    Settled(before: "sci 2^.5=", number: "euler 2 pi exp 1-"),
    Settled(before: "sci pi", number: "7/"),
  ]

  @Test(arguments: settled) func aNumberAndAnOperatorForgetTheSettledState(_ row: Settled) throws {
    let before = Calculator.initial.applying(try KeyText.keys(in: row.before))
    #expect(before.scientific?.isSettled == true)
    let number = try KeyText.keys(in: row.number)
    let fresh = Calculator(
      memory: before.memory, angleUnit: before.angleUnit, wordSize: before.wordSize
    ).applying([.mode(.scientific)] + Array(number))
    #expect(before.applying(number) == fresh)
  }

  /// States that are not settled: what the next number and operator do depends on them.
  @Test(arguments: [
    "sci 1/0=", "sci fe 2+3=", "sci 2+", "sci 2+3", "sci (2+3)", "sci 2+3= 4", "sci 2+3= c",
    "sci 9 sin", "sci 2*(3",
  ])
  func otherStatesAreNotSettled(_ keys: String) throws {
    let state = Calculator.initial.applying(try KeyText.keys(in: keys))
    #expect(state.scientific?.isSettled == false)
  }

  /// A row: a first line, then lines repeated until the branch holds `count` keys, and the
  /// settling keys its settling marks may have (none: the row keeps no settling mark).
  struct Row: Sendable, CustomTestStringConvertible {
    let name: String
    let first: String
    let lines: [String]
    let settling: Set<Int>
    var testDescription: String { name }
  }

  static let rows: [Row] = [
    Row(
      name: "numbers and operators", first: "sci", lines: ["12+3*4=", "57/7-2="], settling: [3]),
    Row(
      name: "an AC now and then, radians, memory", first: "sci rad 3ms",
      lines: ["1.5^2+mr=", "7 sin*3=", "42mod5=", "c 2+pi=", "6-1=", "3 m+=", "8/3="],
      settling: [2, 3, 4]),
    Row(
      name: "constants and exponents after a digit", first: "sci", lines: ["2pi*2=", "12exp2/7="],
      settling: [3, 5]),
    // π keeps the entry typed before `=` where a digit clears it.
    Row(name: "lines that start with a constant", first: "sci", lines: ["pi*2="], settling: []),
    Row(name: "lines that start with exp", first: "sci 2+3=", lines: ["exp4+1="], settling: []),
    Row(name: "F-E on", first: "sci fe", lines: ["12+3*4="], settling: []),
    Row(name: "an error at each line's end", first: "sci", lines: ["12/0="], settling: []),
    Row(name: "lines that start with an operator", first: "sci 2=", lines: ["+3="], settling: []),
    Row(name: "lines that repeat =", first: "sci 2+3=", lines: ["4="], settling: []),
    Row(name: "lines that start with a bracket", first: "sci", lines: ["(1+2)3="], settling: []),
    Row(name: "a memory key in each line", first: "sci", lines: ["12+3m+="], settling: []),
  ]

  /// The session of a row.
  static func session(_ row: Row, count: Int) throws -> Session {
    var session = Session()
    try session.perform(.keys(KeyText.keys(in: row.first)))
    var next = 0
    while session.history.count < count {
      try session.perform(.keys(KeyText.keys(in: row.lines[next])))
      next = (next + 1) % row.lines.count
    }
    return session
  }

  /// Settling marks where the row has them, with their settling keys; every jump, before,
  /// inside and after a mark's settling keys, lands on the replay; the invariants hold. A branch
  /// of 400 keys (5,000 with `CALC_LONG_TESTS=1`): past the first snapshot interval, and 8 mark
  /// spacings, so that a row without settling marks had room for several. (The rows without them
  /// replay up to an interval of keys at each jump: at 900 keys the test took 9.8 s of debug
  /// time, 2.5 s at 400.)
  @Test(arguments: rows) func jumpsLandOnTheReplay(_ row: Row) throws {
    var session = try Self.session(row, count: TestSize.count(short: 400, long: 5_000))
    let history = session.history
    let branch = history.branches[0]
    let settling = branch.marks.indices.map { branch.settling(ofMark: $0) }.filter { $0 > 0 }
    #expect(settling.isEmpty == row.settling.isEmpty, "\(settling)")
    #expect(settling.allSatisfy(row.settling.contains), "\(settling)")
    let states = LightSnapshotTests.replayed(history)
    for step in 0...history.count {
      try session.perform(.goto(.step(step)))
      #expect(session.state == states[step], "step \(step)")
    }
    session.history._checkInvariants()
  }

  /// A row of only numbers and operators replays fewer keys than a mark's spacing and a line
  /// after its first mark, with no AC at all.
  @Test func jumpsReplayFewKeysWithoutAC() throws {
    let session = try Self.session(Self.rows[0], count: 1_200)
    let history = session.history
    let first = Int(history.branches[0].marks[0].offset) + 3
    for step in first...history.count {
      #expect(history.replayCost(at: step, on: 0) < History.markSpacing + 8, "step \(step)")
    }
  }

  /// A mark's settling keys share a byte with its word size: each reads back with the angle unit
  /// and the memory (34 digits, a negative exponent, none), marks 48 keys apart.
  @Test(arguments: [0, 1, 5, History.markSpacing - 1])
  func settlingKeysRoundTrip(_ settling: Int) {
    var branch = History.Branch(parent: -1, fork: 0)
    var lights: [History.Light] = []
    let memories: [Number?] = [
      nil,
      Number(Decimal34(coefficient: 1_234_567_890_123_456_789_012_345_678_901_234, exponent: -40)),
      Number(-7), Number.dividing(Number(1), by: Number(3)),
      Number(rounded: Decimal34(coefficient: 5, exponent: -1)),
    ]
    for wordSize in Key.WordSize.allCases {
      for unit in AngleUnit.allCases {
        for memory in memories {
          var light = History.Light(atForkBack: 0)
          light.prelude = 1
          light.angleUnit = unit
          light.wordSize = wordSize
          light.memory = memory
          branch.appendMark(at: lights.count * History.markSpacing, light, settling: settling)
          lights.append(light)
        }
      }
    }
    #expect(branch.marks.count == lights.count)
    for (index, light) in lights.enumerated() {
      let read = branch.markLight(index)
      #expect(read.wordSize == light.wordSize && read.angleUnit == light.angleUnit)
      #expect(read.prelude == 1 && History.identical(read.memory, light.memory), "mark \(index)")
      #expect(branch.settling(ofMark: index) == settling)
    }
  }

  /// A settling mark that keeps no memory of its own lies `History.settlingSpacing` keys after
  /// the mark before at least; one that keeps the memory (it changed since), a whole
  /// `History.markSpacing`.
  @Test(arguments: [
    (["12+3=", "45-6="], false), (["12+3=", "7m+ 2*3=", "45-6=", "1+1="], true),
  ])
  func spacingFollowsTheBytes(_ lines: [String], _ changesMemory: Bool) throws {
    let row = Row(name: "", first: "sci", lines: lines, settling: [2, 3])
    let session = try Self.session(row, count: 1_000)
    let branch = session.history.branches[0]
    var gaps: [Int: Int] = [History.settlingSpacing: 0, History.markSpacing: 0]
    for index in branch.marks.indices.dropFirst() {
      let gap = Int(branch.marks[index].offset) - Int(branch.marks[index - 1].offset)
      let inline =
        branch.markBytes[Int(branch.marks[index].byte)] >> 6
        == History.MarkMemory.inline.rawValue
      let spacing = inline ? History.markSpacing : History.settlingSpacing
      #expect(branch.settling(ofMark: index) > 0)
      #expect(gap >= spacing, "mark \(index)")
      gaps[spacing, default: 0] += 1
    }
    // The memory changes every 4 lines (20 keys) or never: every mark keeps it, or none.
    #expect((gaps[History.settlingSpacing]! > 0) == !changesMemory)
    #expect((gaps[History.markSpacing]! > 0) == changesMemory)
  }

  /// Random Scientific lines (numbers, constants, functions, brackets, memory and angle keys,
  /// F-E, AC, errors), on a branch and on branches that leave it: every jump lands on the
  /// replay, and the invariants, which check every mark against a replay, hold.
  @Test func randomLinesLandOnTheReplay() throws {
    var random = SplitMix64(state: 0x5E77_1E)
    var session = Session()
    try session.perform(.keys([.mode(.scientific)]))
    let ops: [Key] =
      Key.Op.allCases.map { .op($0) } + Key.Binary.allCases.map { .scientific(.binary($0)) }
    let others: [Key] = [
      .scientific(.function(.sin)), .scientific(.function(.ln)), .unary(.reciprocal),
      .scientific(.constant(.pi)), .memory(.store),
      .memory(.add), .memory(.recall), .angle(.radians), .angle(.degrees),
      .scientific(.fixedToExponential),
      .scientific(.bracket(.open)), .scientific(.bracket(.close)), .command(.flip),
      .command(.percent), .dot,
    ]
    let count = TestSize.count(short: 3_000, long: 40_000)
    while session.history.recordedCount < count {
      if session.history.count > 200, random.chance(3) {
        try session.perform(.goto(.step(1 + random.below(session.history.count - 1))))
      }
      var line: [Key] = random.chance(10) ? [.command(.clear)] : []
      for _ in 0..<(1 + random.below(4)) {
        for _ in 0..<(1 + random.below(3)) {
          line.append(.digit(Key.Digit(random.below(10))!))
        }
        if random.chance(20) { line.append(others[random.below(others.count)]) }
        line.append(ops[random.below(ops.count)])
      }
      line.append(.digit(Key.Digit(random.below(10))!))
      line.append(.equal)
      try session.perform(.keys(TypedKeys(line)))
    }
    let marks = session.history.branches.reduce(0) { sum, branch in
      sum + branch.marks.indices.filter { branch.settling(ofMark: $0) > 0 }.count
    }
    #expect(marks > count / (4 * History.markSpacing))
    try LightSnapshotTests.expectJumpsLandOnTheReplay(&session)
  }
}
