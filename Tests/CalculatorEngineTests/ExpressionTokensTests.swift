import CalcDecimal
import CalcTestSupport
import CalculatorEngine
import Testing

/// `ExpressionTokens`, the persistent expression line, against an array: random appends,
/// removals and inserts on random copies of each other, each copy checked against its own array
/// after each change (a change to one copy never shows in another).
@Suite struct ExpressionTokensTests {
  static let alphabet: [ScientificBrain.Token] = [
    .space, .open, .close, .equals, .op(.plus), .op(.power),
    .operand(
      ScientificOperand(value: Number(7), isExponential: false)),
    .operand(
      ScientificOperand(
        value: Number(Decimal34(coefficient: 12, exponent: -1)), isExponential: true)),
  ]

  @Test func behavesAsAnArray() {
    var random = SplitMix64(state: 0x70C)
    for _ in 0..<TestSize.count(short: 40, long: 1_000) {
      var lines: [ExpressionTokens] = [[]]
      var models: [[ScientificBrain.Token]] = [[]]
      for step in 0..<400 {
        let which = random.below(lines.count)
        var line = lines[which]
        var model = models[which]
        let token = Self.alphabet[random.below(Self.alphabet.count)]
        switch random.below(10) {
        case 0..<6:
          line.append(token)
          model.append(token)
        case 6:
          let index = random.below(model.count + 1)
          line.removeSubrange(from: index)
          model.removeSubrange(index...)
        case 7:
          let index = random.below(model.count + 1)
          line.insert(token, at: index)
          model.insert(token, at: index)
        case 8:
          // Brackets around the start, as an operator of higher precedence puts them.
          line.insert(.open, at: 0)
          model.insert(.open, at: 0)
        default:
          // A copy, kept beside the original.
          break
        }
        if random.below(3) == 0 {
          lines.append(line)
          models.append(model)
        } else {
          lines[which] = line
          models[which] = model
        }
        #expect(Array(line) == model)
        #expect(line.count == model.count)
        #expect(line.last == model.last)
        // Now and then every copy: none saw another's changes.
        if step % 50 == 49 {
          for (line, model) in zip(lines, models) { #expect(Array(line) == model) }
        }
      }
      // Equality is the arrays' equality, whether or not two lines share chunks.
      for _ in 0..<50 {
        let (a, b) = (random.below(lines.count), random.below(lines.count))
        #expect((lines[a] == lines[b]) == (models[a] == models[b]))
        #expect(ExpressionTokens(models[a]) == lines[a])
        let k = random.below(models[a].count + 2)
        #expect(lines[a].suffix(k) == Array(models[a].suffix(k)))
      }
    }
  }

  /// A line of three million tokens (187,500 chunks; a recursive release overflowed the stack
  /// here) and a copy of its start are let go of without
  /// exhausting the stack, and the copy outlives the line intact.
  @Test func aLongLineIsLetGoOf() {
    var half = ExpressionTokens()
    do {
      var line = ExpressionTokens()
      for index in 0..<3_000_000 {
        line.append(Self.alphabet[index % Self.alphabet.count])
        if index == 500_000 { half = line }
      }
      #expect(line.count == 3_000_000)
    }
    #expect(half.count == 500_001)
    #expect(half.suffix(3) == (499_998...500_000).map { Self.alphabet[$0 % Self.alphabet.count] })
    half = ExpressionTokens()
    #expect(half.isEmpty)
  }
}
