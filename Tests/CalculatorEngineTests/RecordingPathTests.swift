import CalcDecimal
import CalcTestSupport
import Testing

@testable import CalculatorEngine

/// The recording path's shortcuts (calc-bench's stream rows): a boxed brain changed in place
/// stays a value, and the light-state test by code ranges agrees with the one by keys.
@Suite struct RecordingPathTests {

  /// A row: keys that leave a state in Scientific or Programmer mode, keys pressed on a copy of
  /// it, and what the copy and the original show after them.
  struct Row: Sendable, CustomTestStringConvertible {
    let name: String
    let before: [Key]
    let after: [Key]
    let original: String
    let copy: String
    var testDescription: String { name }
  }

  static let rows: [Row] = [
    Row(
      name: "Scientific, a typed number continued on the copy",
      before: [.mode(.scientific), .digit(.one), .op(.plus), .digit(.two)],
      after: [.digit(.three), .equal], original: "2", copy: "24"),
    Row(
      name: "Scientific, brackets and memory on the copy",
      before: [.mode(.scientific), .digit(.four), .memory(.store), .op(.multiply)],
      after: [
        .scientific(.bracket(.open)), .memory(.recall), .op(.plus), .digit(.one),
        .scientific(.bracket(.close)), .equal,
      ],
      original: "4", copy: "20"),
    Row(
      name: "Programmer, a word size and a bit key on the copy",
      before: [.mode(.programmer), .digit(.five), .op(.plus)],
      after: [.programmer(.wordSize(.byte)), .programmer(.bit(Key.Bit(7)!)), .equal], original: "5",
      copy: "-118"),
    Row(
      name: "Programmer, HEX digits and a line start on the copy",
      before: [.mode(.programmer), .programmer(.radix(.hex)), .programmer(.hexDigit(.a))],
      after: [.programmer(.hexDigit(.b)), .programmer(.not)], original: "A",
      copy: "FFFF FFFF FFFF FF54"),
  ]

  /// Pressing keys on a copy of a state leaves the original's brain as it was, and the copy
  /// ends as the same keys pressed on a fresh calculator without any copy would.
  @Test(arguments: rows) func aCopyIsAValue(_ row: Row) {
    var original = Calculator.initial
    for key in row.before { original.press(key) }
    let before = original
    var copy = original
    for key in row.after { copy.press(key) }
    #expect(original == before)
    #expect(DisplayFormat.posix.text(for: original) == row.original)
    #expect(DisplayFormat.posix.text(for: copy) == row.copy)
    var straight = Calculator.initial
    for key in row.before + row.after { straight.press(key) }
    #expect(copy == straight)
    #expect(copy.hashValue == straight.hashValue)
    #expect(copy != original)
  }

  /// A history's snapshot shares the state's box: the keys after it change the state, not the
  /// snapshot (a jump back shows what the state showed there).
  @Test func aSnapshotKeepsItsState() throws {
    var session = Session()
    let line: [Key] = [.digit(.one), .op(.plus)]
    try session.perform(.keys([.mode(.programmer)][...]))
    for _ in 0..<History.snapshotInterval { try session.perform(.keys(line[...])) }
    let count = session.history.count
    try session.perform(.keys([.digit(.two), .equal][...]))
    let end = session.state
    try session.perform(.goto(.step(count)))
    #expect(DisplayFormat.posix.text(for: session.state) == "\(History.snapshotInterval)")
    try session.perform(.goto(.step(count + 2)))
    #expect(session.state == end)
    #expect(DisplayFormat.posix.text(for: end) == "\(History.snapshotInterval + 2)")
  }

  /// A date line applied by its own door (``History/apply(dateLine:)``) leaves the history as
  /// the general one (`[.dateLine]` with `[step]`) does: the same codes, line ends, snapshots,
  /// marks, steps and states, the last restart and the settled line's end (which its own door
  /// sets without ``History/noteRestart(in:at:)``), over more than a snapshot interval, in
  /// every mode the line may follow (a settled Scientific line included), at a branch's end
  /// and after a jump back (a new branch).
  @Test func aDateLineByItsOwnDoorIsTheGeneralOne() throws {
    let texts = ["2024-03-15 to 2025-01-01", "2024-02-29 + 1y", "1:30+0:45", "65:55:08 in min"]
    let between: [[Key]] = [
      [.mode(.scientific), .digit(.four), .memory(.store), .op(.plus), .digit(.two)],
      [.mode(.programmer), .digit(.five)], [.mode(.standard), .digit(.seven), .op(.plus)],
      [.mode(.date)], [.mode(.scientific)],
      [.mode(.scientific), .digit(.two), .op(.multiply), .digit(.three), .equal],
    ]
    var general = History()
    var own = History()
    /// The restart marks that the two doors keep apart from the branches.
    func expectSameRestarts(sourceLocation: SourceLocation = #_sourceLocation) {
      #expect(
        "\(general.settledEnd as Any)" == "\(own.settledEnd as Any)",
        sourceLocation: sourceLocation)
      #expect(
        "\(general.lastRestart as Any)" == "\(own.lastRestart as Any)",
        sourceLocation: sourceLocation)
    }
    var random = SplitMix64(state: 0xDA7E_D002)
    // Date lines alone first, so that the snapshot intervals end at date lines; then a mix.
    let alone = 2 * History.snapshotInterval + 3
    for round in 0..<(alone + History.snapshotInterval) {
      if round > alone, round % 97 == 50 {
        let back = Int(random.next() % UInt64(general.count))
        general.move(to: back)
        own.move(to: back)
      }
      if round > alone, random.next() % 7 == 0 {
        let keys = between[Int(random.next() % UInt64(between.count))]
        _ = general.apply(line: keys[...])
        _ = own.apply(line: keys[...])
        expectSameRestarts()
        continue
      }
      let step = try #require(DateStep.onePass(texts[round % texts.count]))
      #expect(general.apply(line: [.dateLine][...], dates: [step]) == own.apply(dateLine: step))
      #expect(general.state == own.state)
      #expect(general.position == own.position)
      expectSameRestarts()
    }
    #expect(general.branches.count == own.branches.count)
    for (first, second) in zip(general.branches, own.branches) {
      #expect(first.codes == second.codes)
      #expect(first.lineEnds == second.lineEnds)
      #expect(first.snapshots == second.snapshots)
      #expect(first.lights == second.lights)
      #expect(first.marks == second.marks)
      #expect(first.markBytes == second.markBytes)
    }
    for position in 0...general.count {
      #expect(general.state(at: position) == own.state(at: position))
      if position > 0 { #expect(general.dateStep(at: position) == own.dateStep(at: position)) }
    }
    #expect(SessionScript.text(of: general) == SessionScript.text(of: own))
  }

  /// A date line's `$N` read through the step the line-end index recorded (its ordinal) gives
  /// what the same line gives in a session that has no index and so looks the step up: the
  /// same lines applied, values and states, with lines of other modes and a jump between.
  @Test func aReferenceThroughTheRecordedStepIsTheLookedUpOne() throws {
    var session = Session()
    _ = try session.perform(.keys([.mode(.date)]))
    var random = SplitMix64(state: 0x0D_1A15)
    let forms = [
      "2024-03-15", "2024-01-01 to 2024-12-25", "1:30+0:45", "(1:00+0:30)*2", "90:00 in h",
    ]
    var applied = 0
    for round in 1...400 {
      if round == 200 {
        // A jump back: the next line starts a branch, and the index is made again.
        _ = try session.perform(.goto(.step(session.history.count - 5)))
      }
      if round % 37 == 0 {
        // Another mode's line: its end records no step.
        _ = try session.perform(.keys([.mode(.standard), .digit(.seven), .equal]))
        _ = try session.perform(.keys([.mode(.date)]))
        continue
      }
      let line = applied + 1
      let text =
        random.next() % 3 == 0 && line > 2
        ? (random.next() % 2 == 0
          ? "$\(1 + Int(random.next() % UInt64(line - 1))) + 1d"
          : "$\(1 + Int(random.next() % UInt64(line - 1))) in min")
        : forms[Int(random.next() % UInt64(forms.count))]
      var fresh = session
      fresh.lineEndIndex = nil
      let change = session.perform(commonDateLine: text)
      let freshChange = fresh.perform(commonDateLine: text)
      #expect((change == nil) == (freshChange == nil), "\(text)")
      #expect(session.state == fresh.state, "\(text)")
      if change != nil { applied += 1 }
    }
    #expect(applied > 300)
  }

  /// The steps kept by index in chunks read back as a dictionary of them would: every index,
  /// with a step or not, across the first chunk's growth and several whole chunks.
  @Test func indexedStepsReadAsADictionary() {
    var steps = History.IndexedSteps<Int>()
    var model: [Int: Int] = [:]
    var random = SplitMix64(state: 0x1D_57E9)
    var index = 0
    #expect(steps.isEmpty)
    for step in 0..<(3 * History.IndexedSteps<Int>.chunkSize + 17) {
      index += 1 + Int(random.next() % 3)
      steps.append(step, at: index)
      model[index] = step
    }
    #expect(!steps.isEmpty)
    for index in 0...(index + 2) { #expect(steps[index] == model[index], "index \(index)") }
  }

  /// Every code (and the `$N` code and codes of no key): the light-state test by ranges gives
  /// what the test by the decoded key gives, and is true for exactly the keys listed here.
  @Test func changesLightStateByCodeIsByKey() {
    var changing: [UInt8] = []
    for code in UInt8.min...UInt8.max {
      #expect(
        History.changesLightState(code) == History.changesLightState(decoding: code),
        "code \(code)")
      if History.changesLightState(code) { changing.append(code) }
    }
    var expected: [Key] = [.memory(.store), .memory(.add), .memory(.subtract), .memory(.clear)]
    expected += AngleUnit.allCases.map { Key.angle($0) }
    expected += Key.Mode.allCases.map { Key.mode($0) }
    expected += Key.Radix.allCases.map { Key.programmer(.radix($0)) }
    expected += Key.WordSize.allCases.map { Key.programmer(.wordSize($0)) }
    // A formula line: a restart of formula mode's keypad whatever it holds (SPEC §12).
    expected.append(.formula)
    // A date line: date mode's whole state (SPEC §13).
    expected.append(.dateLine)
    #expect(changing == expected.map(\.code).sorted())
  }
}
