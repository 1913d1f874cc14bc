import CalcTestSupport
import CalculatorEngine
import Testing

/// `:edit`, `:insert` and `:delete` report the old display of each line they replay: the old
/// lines are replayed beside the new ones only until the two meet, to the last digit
/// (`Calculator.isIdentical(to:)`), and the old displays after that are the new ones. What they
/// report must be what replaying every old line gives (``History/displays(after:)``), on
/// Standard streams whose `=`, `AC` and memory keys make the two meet, and whose trailing zeros
/// (`1.5` edited to `1.50`) make states that `==` takes for one but that display differently.
@Suite struct RewriteOldDisplaysTests {

  /// A line of the stream: a number (a `$N` now and then), maybe a clear before it and keys
  /// after it, and an operator or `=`.
  static func line(_ random: inout SplitMix64, number: Int) -> TypedKeys {
    var keys = TypedKeys()
    if random.chance(20) { keys.append(.command(.clear)) }
    if number > 1, random.chance(10) {
      keys.appendReference(1 + random.below(number - 1))
    } else {
      let digits = 1 + random.below(4)
      let point = random.chance(40) ? random.below(digits + 1) : -1
      for index in 0..<digits {
        if index == point { keys.append(.dot) }
        keys.append(.digit(Key.Digit(rawValue: UInt8(random.below(10)))!))
      }
    }
    if random.chance(10) { keys.append(.command(.flip)) }
    if random.chance(8) { keys.append(.unary(Key.Unary.allCases[random.below(3)])) }
    if random.chance(20) {
      keys.append(.memory(Key.Memory.allCases[random.below(Key.Memory.allCases.count)]))
    }
    keys.append(random.chance(25) ? .equal : .op(Key.Op.allCases[random.below(4)]))
    return keys
  }

  /// `keys` changed a little: a digit or a trailing zero before the last key, or a digit
  /// first.
  static func variant(of keys: TypedKeys, _ random: inout SplitMix64) -> TypedKeys {
    var changed = TypedKeys()
    let digit = Key.digit(random.chance(50) ? .zero : Key.Digit(rawValue: UInt8(random.below(10)))!)
    if random.chance(25) { changed.append(digit) }
    for (index, key) in zip(keys.indices, keys) {
      if index == keys.count - 1, random.chance(70) { changed.append(digit) }
      if key.isReference {
        changed.appendReference(keys.references[keys[..<index].filter(\.isReference).count])
      } else {
        changed.append(key)
      }
    }
    return changed
  }

  @Test func theOldDisplaysAreThoseOfEveryOldLineReplayed() throws {
    var random = SplitMix64(state: 0x0_1D_D15_B1A7)
    var (checked, met) = (0, 0)
    for _ in 0..<300 {
      var session = Session()
      let count = 2 + random.below(60)
      for number in 1...count {
        try session.perform(.keys(Self.line(&random, number: number)))
      }
      // A second branch now and then, from inside a line or its end, so that old lines may meet
      // a fork.
      if random.chance(30) {
        let lines = session.history.lines()
        let at = random.below(lines.count)
        try session.perform(.goto(.step(lines[at].start + 1 + random.below(lines[at].keys.count))))
        for number in (at + 2)...(at + 2 + random.below(20)) {
          try session.perform(.keys(Self.line(&random, number: number)))
        }
      }
      let lines = session.history.lines()
      let number = 1 + random.below(lines.count)
      let (command, old): (Session.Command, ArraySlice<History.Line>)
      switch random.below(3) {
      case 0:
        command = .edit(line: number, keys: Self.variant(of: lines[number - 1].keys, &random))
        old = lines[(number - 1)...]
      case 1:
        command = .insert(line: number, keys: Self.line(&random, number: number))
        old = lines[(number - 1)...]
      default:
        command = .delete(line: number)
        old = lines[number...]
      }
      let expected = session.history.displays(after: old)
      guard case .rewrote(let rewrite) = try? session.perform(command), !rewrite.isUnchanged
      else { continue }
      #expect(
        rewrite.results.map(\.old) == Array(expected.prefix(rewrite.results.count)),
        "\(command) after \(lines.map { KeyText.text(of: $0.keys) })")
      // The new displays are those of the new branch's lines.
      let now = session.history.lines()
      let new = session.history.displays(after: now[...].suffix(rewrite.results.count))
      #expect(rewrite.results.map(\.new) == new, "\(command)")
      checked += 1
      if zip(rewrite.results, expected).contains(where: { $0.new != $1 }) { met += 1 }
    }
    #expect(checked > 200)
    #expect(met > 50, "many changes change a display")
  }
}
