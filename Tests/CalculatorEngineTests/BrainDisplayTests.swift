import CalcDecimal
import CalculatorEngine
import Testing

/// The brain says what is on screen (``CalculatorBrain/display`` and
/// ``CalculatorBrain/expressionLine``); a ``DisplayFormat`` only renders what it is given.
@Suite struct BrainDisplayTests {
  static func brain(_ keys: String) throws -> CalculatorBrain {
    Calculator.initial.applying(try KeyText.keys(in: keys)).standard!
  }

  static func number(_ coefficient: UInt128, _ exponent: Int = 0) -> Decimal34 {
    Decimal34(coefficient: coefficient, exponent: exponent)
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
    #expect(_isPOD(CalculatorBrain.Term.self))
    #expect(_isPOD(CalculatorBrain.Value.self))
    #expect(_isPOD(CalculatorBrain.Operand.self))
    #expect(_isPOD(CalculatorBrain.Operation?.self))
    #expect(_isPOD(Key.Op.self))
    #expect(_isPOD(CalculatorBrain.CalculationError.self))
    // The boxed line is the one reference a Standard state can hold; the state after an `=`
    // holds its terms instead.
    #expect(!_isPOD(CalculatorBrain.Line.self))
    #expect(_isPOD((Decimal34, CalculatorBrain.Operation, CalculatorBrain.Term).self))
  }

  /// The state after `=` (``CalculatorBrain/equalled(result:operation:left:right:)``) fits in
  /// the size a state had before it: 120 bytes, so that whole snapshots stay as small.
  @Test func theStateAfterEqualsDoesNotGrowAState() {
    #expect(MemoryLayout<CalculatorBrain>.size <= 120)
    #expect(MemoryLayout<Calculator>.size <= 151)
  }
}
