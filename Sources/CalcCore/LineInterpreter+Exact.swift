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
    if value.isRounded, let (roundedAt, title) = Self.roundingStep(upTo: step, in: history) {
      text += " (\(title) at step \(roundedAt))"
    }
    output.write(text + "\n")
  }

  /// The step up to `target` that rounded the displayed value (see
  /// ``writeExact(line:at:output:)``), and the title of its key — for a formula's step, of the
  /// formula's key that rounded; `mr` and `$N` (`ans` in a formula) recalling a rounded value
  /// name the step that rounded what they recall.
  /// - Complexity: O(target) replayed steps, and the formulas' keys once more; memory O(l) in
  ///   the lines up to `target`.
  static func roundingStep(upTo target: Int, in history: History) -> (Int, String)? {
    // The line ends alone (8 bytes a line, not every line's keys); line 0 is the mode line.
    let ends = history.lineEnds(upTo: target)
    let first = ends.first == 1 && History.isModeLine(CollectionOfOne(history.key(at: 1))) ? 0 : 1
    var trace = RoundingTrace()
    var nextLine = 0
    var prior = Calculator.initial
    history.forEachStep(in: 0...target) { step, key, state in
      if let key {
        if let formula = history.formulaStep(at: step) {
          trace.heldRounded = false  // A formula starts on a keypad cleared as by AC.
          var inner = prior
          inner.press(.mode(.scientific))
          var index = 0
          prior.forEachState(applying: formula) { _, after in
            let key = formula.keys[index]
            let line = key.isReference ? formula.keys.referencedLine(at: index) : nil
            trace.pass(key, title: key.title, line: line, at: step, from: inner, to: after)
            inner = after
            index += 1
          }
          trace.heldRounded = state.holdsRoundedOperand
        } else {
          trace.pass(
            key, title: key.title, line: key.isReference ? history.referencedLine(at: step) : nil,
            at: step, from: prior, to: state)
        }
      }
      while nextLine < ends.count, ends[nextLine] <= step {
        if ends[nextLine] == step { trace.endLine(nextLine + first, state) }
        nextLine += 1
      }
      prior = state
    }
    return trace.found
  }
}

/// What ``LineInterpreter/roundingStep(upTo:in:)`` follows, step by step: the step that rounded
/// the calculation's value, the memory's and each line's result's.
private struct RoundingTrace {
  /// The step that rounded a value the calculation holds, and its key's title.
  var found: (Int, String)?
  /// Whether the calculation held a rounded value before the step.
  var heldRounded = false
  /// The step that rounded the memory's value, while it holds a rounded one.
  var memory: (Int, String)?
  /// The step that rounded each line's result, by line number, for a rounded result.
  var lines: [Int: (Int, String)] = [:]

  /// Follows `key` (a `$N` of `line`), pressed at `step`, from `prior` to `state`.
  mutating func pass(
    _ key: Key, title: String, line: Int?, at step: Int, from prior: Calculator,
    to state: Calculator
  ) {
    let rounded = state.displayedValue?.isRounded == true
    if key.mayRound, !heldRounded, rounded {
      // A recall carries the rounding of what it recalls.
      switch key {
      case .memory(.recall): found = memory ?? (step, title)
      case .reference: found = line.flatMap { lines[$0] } ?? (step, title)
      default: found = (step, title)
      }
    }
    if state.memory?.isRounded != true {
      memory = nil
    } else if case .memory(let memoryKey) = key, memoryKey != .recall,
      memoryKey == .store || prior.memory?.isRounded != true
    {
      // Stored from the display, or a sum of an exact memory and the display.
      memory = rounded ? found : (step, title)
    }
    heldRounded = state.holdsRoundedOperand
  }

  /// Records the result of line `number`, which ends in `state`.
  mutating func endLine(_ number: Int, _ state: Calculator) {
    lines[number] = state.displayedValue?.isRounded == true ? found : nil
  }
}
