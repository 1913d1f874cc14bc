import CalcDecimal
import CalculatorEngine

extension LineInterpreter {
  /// `:exact [L]` (SPEC §6): the whole value of the display, or of line L's result — a
  /// fraction in lowest terms and its decimal with the repeating part in brackets (`1/6 =
  /// 0.1(6)`), an integer as itself, or for a value that a step rounded `≈`, its 34 digits and
  /// that step (`(√ at step 4)`); in Programmer mode the value in the four radixes. Throws for a
  /// line that does not exist, and when the value is an error.
  ///
  /// The step that rounded a value is the last step up to it whose key may round, after which
  /// the display is rounded while nothing the calculation held before it was: so a value carried
  /// from a rounded one (`mr`, `$N`, a result) names the step that rounded the first.
  /// - Complexity: O(s) replayed steps up to the value's, for a rounded value; else
  ///   O(``History/snapshotInterval``) and the length of the text.
  mutating func writeExact(
    line number: Int?, at command: ScriptLine.Directive, output: OutputBuffer
  )
    throws(LineError)
  {
    let history = session.history
    var step = history.position
    var name = "the display"
    if let number {
      let lines = history.lines()
      let first = History.firstLineNumber(of: lines)
      let last = lines.count - 1 + first
      guard number >= first, number <= last, number >= 1 || first == 0 else {
        throw LineError(
          SessionError.unknownLine(number, count: last).description,
          column: command.argumentColumn)
      }
      step = lines[number - first].end
      name = "line \(number)"
    }
    let state = history.state(at: step)
    if let programmer = state.programmer, let value = programmer.value {
      let rows = format.radixRows(value, wordSize: programmer.wordSize)
      // `Radix.allCases`: HEX, DEC, OCT, BIN.
      output.write(
        "HEX \(rows[0])\nDEC \(rows[1])\nOCT \(rows[2])\nBIN \(rows[3])\n")
      return
    }
    if let dateValue = state.dateValue {
      // Date mode (SPEC §13): a duration's exact seconds, a number's fraction and decimal.
      switch dateValue {
      case .duration(let span):
        output.write(span.exactText + "\n")
        return
      case .number(let number):
        let fraction = number.exactFraction
        let decimal = number.exactDecimal
        output.write((fraction == decimal ? fraction : fraction + " = " + decimal) + "\n")
        return
      case .date, .difference:
        output.write(dateValue.plainText + "\n")
        return
      case .fault: break
      }
    }
    guard let value = state.displayedValue else {
      throw LineError(
        "\(name) shows \(format.text(for: state.display)): no value",
        column: command.argumentColumn)
    }
    var text = value.exactText()
    if value.isRounded, let (roundedAt, key) = Self.roundingStep(upTo: step, in: history) {
      text += " (\(key.title) at step \(roundedAt))"
    }
    output.write(text + "\n")
  }

  /// The last step up to `target` that rounded a value (see ``writeExact(line:at:output:)``),
  /// and its key.
  /// - Complexity: O(target) replayed steps.
  static func roundingStep(upTo target: Int, in history: History) -> (Int, Key)? {
    var found: (Int, Key)?
    var heldRounded = false
    history.forEachStep(in: 0...target) { step, key, state in
      if let key, key.mayRound, !heldRounded, state.displayedValue?.isRounded == true {
        found = (step, key)
      }
      heldRounded = state.holdsRoundedOperand
    }
    return found
  }
}
