import CalcDecimal
import CalculatorEngine
import Testing

/// The brain says what is on screen (``CalculatorBrain/display`` and
/// ``CalculatorBrain/expressionLine``); a ``DisplayFormat`` only renders what it is given.
@Suite struct BrainDisplayTests {
  static func brain(_ keys: String) throws -> CalculatorBrain {
    Calculator.initial.applying(try KeyText.keys(in: keys)).standard!
  }

  static func number(_ coefficient: UInt128, _ exponent: Int = 0) -> Number {
    Number(Decimal34(coefficient: coefficient, exponent: exponent))
  }

  /// A number being typed is shown as an entry, as typed; a computed one as a value; a failed
  /// calculation as its error.
  @Test func displayIsAnEntryAValueOrAnError() throws {
    #expect(try Self.brain("").display == .entry(.zero))
    let typed = Entry(.three).appendingPoint().appending(.five).appending(.zero)
    #expect(try Self.brain("12+3.50").display == .entry(typed))
    #expect(try Self.brain("12+").display == .value(Self.number(12)))
    #expect(try Self.brain("12+3=").display == .value(Self.number(15)))
    #expect(try Self.brain("9@").display == .value(Self.number(3)))
    #expect(try Self.brain("1/0=").display == .error(.divideByZero))
    #expect(try Self.brain("1/0=").displayedValue == nil)
    #expect(try Self.brain("12+3.50").displayedValue == Self.number(35, -1))
  }

  /// With an operator pending the line is the left operand and the operator, and a right
  /// operand only once it is computed; otherwise the line the state holds.
  @Test func expressionLineComesFromTheState() throws {
    let twelve = CalculatorBrain.Term.typed(Self.number(12))
    #expect(try Self.brain("12").expressionLine == .empty)
    #expect(
      try Self.brain("12+").expressionLine
        == .operation(left: twelve, op: .plus, right: nil, closing: .none))
    #expect(
      try Self.brain("12+3").expressionLine
        == .operation(left: twelve, op: .plus, right: nil, closing: .none))
    let root = CalculatorBrain.Term.plain(Self.number(12)).wrapped(.squareRoot)
    #expect(
      try Self.brain("12+@").expressionLine
        == .operation(left: twelve, op: .plus, right: root, closing: .none))
    #expect(
      try Self.brain("12+3=").expressionLine
        == .operation(
          left: twelve, op: .plus, right: .typed(Self.number(3)), closing: .equals))
    #expect(
      try Self.brain("9@").expressionLine
        == .term(CalculatorBrain.Term.typed(Self.number(9)).wrapped(.squareRoot)))
  }

  /// A format renders the brain's display and line, and nothing else.
  @Test func formatRendersWhatTheBrainSays() throws {
    let format = DisplayFormat(localeIdentifier: "en_US")
    for keys in ["", "1234.50", "12+", "12+3", "2+3q", "1/3=", "1/0=", "9@~", "5m+2+mr"] {
      let brain = try Self.brain(keys)
      #expect(format.text(for: brain) == format.text(for: brain.display))
      #expect(format.expression(for: brain) == format.text(for: brain.expressionLine))
    }
  }
}

/// `CalculatorBrain.replace(with:)` writes a new state over one without a boxed expression line
/// without releasing anything: that is only right while every payload of such a state is plain
/// data. A reference added to one of these types fails here, before it could leak.
@Suite struct BrainStorageTests {
  @Test func theStatesWrittenOverWithoutAReleaseHoldNoReferences() {
    #expect(_isPOD(Entry.self))
    #expect(_isPOD(Decimal34.self))
    #expect(_isPOD(Key.Op.self))
    #expect(_isPOD(CalculatorBrain.CalculationError.self))
    // The boxed line is one reference a Standard state can hold; a number holding a large
    // fraction (its box) is the other, which `holdsNumberBox` finds: a state is written over
    // without a release only when it holds neither.
    #expect(!_isPOD(CalculatorBrain.Line.self))
    #expect(!_isPOD(Number.self))
  }

  /// `holdsNumberBox` finds a boxed fraction wherever a state keeps a number: the result, the
  /// operand `=` repeats, the terms, a pending left operand, a right operand.
  @Test(arguments: [
    "1/7/11/13/17/19/23/29/31=", "1/7/11/13/17/19/23/29/31=+", "1/7/11/13/17/19/23/29/31=+2q",
    "1/7/11/13/17/19/23/29/31=ms c 5+mr", "1/7/11/13/17/19/23/29/31=@",
    "2/7/11/13/17/19/23/29/31=c",
  ])
  func aBoxedFractionIsFound(_ text: String) throws {
    let state = try BrainDisplayTests.brain(text)
    let expected = !text.hasSuffix("c")
    #expect(state.holdsNumberBox == expected)
    // Typing on such a state, key by key or in a run (a line's keys), gives the same state.
    let keys = try KeyText.keys(in: text + "12.5")
    let byKey = Calculator.initial.applying(keys)
    let asLine = Calculator.initial.applying(line: keys)
    #expect(byKey == asLine)
    #expect(
      byKey.display == .entry(Entry(.one).appending(.two).appendingPoint().appending(.five)))
  }

  /// A fraction that fits the value (numerator below 2^128, denominator below 2^32) holds no box.
  @Test func aSmallFractionHoldsNoBox() throws {
    #expect(try !BrainDisplayTests.brain("1/3=").holdsNumberBox)
    #expect(try !BrainDisplayTests.brain("1/3=+2/7").holdsNumberBox)
  }

  /// The state after `=` (``CalculatorBrain/equalled(result:operation:left:right:)``) fits in
  /// the size a state had before it: 120 bytes, so that whole snapshots stay as small.
  @Test func theStateAfterEqualsDoesNotGrowAState() {
    #expect(MemoryLayout<CalculatorBrain>.size <= 120)
    #expect(MemoryLayout<Calculator>.size <= 151)
  }
}
