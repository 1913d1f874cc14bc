import CalcDecimal
import CalculatorEngine

/// Notes, never silence (SPEC §5): where keys do something a person probably did not mean, the
/// interpreter still does what they say, and adds a note to the line's result.
extension LineInterpreter {
  /// The notes for a line of `keys` applied to `before` (the state before the line), whose key
  /// text is `line` (for columns), and whether the line passed an error on the way (an error
  /// it showed, then left by a digit or `.` without AC or CE: SPEC §5's exit status 1).
  ///
  /// The notes (SPEC §5): digits an entry or an exponent ignored; a unary key whose answer the
  /// next digit discarded, or that acted on a 0 nobody typed before a `(`; an error the line went
  /// past, or recalled with `$N`; a second decimal point ignored; an operator that replaced an
  /// operator (the same one, or another: `5*-2`); a first key that is a binary operator acting
  /// on a 0 nobody typed; `pi`, `euler`, `mr` or `$N` replacing a number being typed; `+` or `−`
  /// right after `exp`; `~` on a 0 nobody typed before a digit; the number that ended the line
  /// before, replaced by this line's first before any operator used it; a nonzero difference of
  /// operands that the display shows equal; and, with `leftToRight`, Standard mode computing a
  /// `+` or `−` before a `×` or `÷` (returned apart as `leftToRight`, since it is given once a
  /// run; the replaced number only when `followsKeyLine`). An error that a unary key's note already explains (`ln 2`: ln of 0, then `2`) gets no
  /// note of its own, but still counts as passed.
  ///
  /// - Complexity: O(n) in the keys: the line is replayed once.
  func keyNotes(
    for keys: TypedKeys, after before: Calculator,
    line: UnsafeBufferPointer<UInt8>?, leftToRight: Bool = true, followsKeyLine: Bool = true
  ) -> (notes: [LineNote], passedAnError: Bool, leftToRight: LineNote?) {
    let columns = line.map { KeyText.columns(in: $0, startingIn: before.mode) } ?? []
    func column(_ index: Int) -> Int { index < columns.count ? columns[index] : index + 1 }
    let format = context.noteFormat
    var notes: [LineNote] = []
    var leftToRightNote: LineNote?
    var passedAnError = false
    var state = before
    state.startLine()
    // What the line's `$N` keys recall (SPEC §11); a line that refers to no earlier line is
    // refused when it is applied, and gets no notes.
    guard let recalls = try? session.recalls(forLine: keys) else { return ([], false, nil) }
    var recall = 0
    /// The number typed from key `index` on (its digits and points), as key text.
    func number(from index: Int) -> String {
      index < keys.count ? KeyText.text(of: keys[index...].prefix(while: \.startsANumber)) : ""
    }
    if let first = keys.first, first.isBinaryOperator, state.showsUntouchedZero {
      notes.append(
        LineNote(
          message: "the line starts with \(first.title); if it held $N, quote it with '…'",
          column: column(0)))
    }
    // The number that ended the line before, as the right operand of a pending operation,
    // replaced by this line's first number before any operator used it (SPEC v5 §5); not
    // after a move into a number (`:goto`), which a person means.
    if followsKeyLine, let first = keys.first, first.startsANumber, before.isPending,
      before.isTypingANumber
    {
      notes.append(
        LineNote(
          message: "the \(format.text(for: before)) of line \(referableLineCount) was replaced "
            + "by \(number(from: 0)) before it was used",
          column: column(0)))
    }
    // A run of ignored digits: where it starts, how many, how many the entry or exponent holds.
    var ignored: (first: Int, count: Int, capacity: Int, isExponent: Bool)?
    func flushIgnored() {
      guard let run = ignored else { return }
      let what = run.isExponent ? "an exponent" : "an entry"
      notes.append(
        LineNote(
          message: "\(what) holds \(run.capacity) digits; "
            + "\(run.count) more \(run.count == 1 ? "was" : "were") ignored "
            + "(column \(column(run.first)))",
          column: column(run.first)))
      ignored = nil
    }
    // The digits a Programmer entry ignored: where they start, how many, the first eight.
    var ignoredInWord: (first: Int, count: Int, digits: String, word: ProgrammerBrain)?
    func flushIgnoredInWord() {
      guard let run = ignoredInWord else { return }
      let size = run.word.wordSize
      let holds =
        run.word.radix == .dec
        ? "\(-(Int128(1) << (size.bits - 1))) to \((Int128(1) << (size.bits - 1)) - 1)"
        : "\(size.bits) bits"
      let digits =
        run.count == 1
        ? "the \(run.digits) at column \(column(run.first)) was"
        : run.count <= 8
          ? "the \(run.digits) from column \(column(run.first)) were"
          : "\(run.count) digits from column \(column(run.first)) were"
      notes.append(
        LineNote(
          message: "a \(size.title) holds \(holds); \(digits) ignored", column: column(run.first)))
      ignoredInWord = nil
    }
    // The error this line showed and has not left yet: the key that showed it, the note's text
    // for it, and whether a unary key's note already explains it.
    var shownError: (index: Int, text: String, isExplained: Bool, isRecalled: Bool)?
    // The key text of the number being typed, from its first key (`1.5exp`).
    var typed: [Key] = []
    // The left operand of a `−` just pressed, as the display showed it, and the expression
    // line that made it (`sqr(√(3))`): for the note on equal operands.
    var subtraction: (left: Number, source: String)?
    // The first key of the line whose answer was rounded to 34 digits (`√`).
    var rounding: String?
    for (index, key) in keys.enumerated() {
      let prior = state
      let recalled: Calculator.Recalled?
      if case .reference = key {
        recalled = recalls[recall]
        state.recall(recalls[recall])
        recall += 1
      } else {
        recalled = nil
        state.press(key)
      }
      defer {
        if key.continuesANumber, prior.isTypingANumber || key.startsANumber {
          if !prior.isTypingANumber { typed = [] }
          typed.append(key)
        } else if !key.continuesANumber {
          typed = []
        }
      }
      if case .digit = key, state == prior {
        if let capacity = prior.fullEntryCapacity {
          ignored =
            ignored.map { ($0.first, $0.count + 1, capacity, false) } ?? (index, 1, capacity, false)
          continue
        }
        if prior.typesAFullExponent {
          let capacity = ScientificEntry.maximumExponentDigits
          ignored =
            ignored.map { ($0.first, $0.count + 1, capacity, true) } ?? (index, 1, capacity, true)
          continue
        }
      }
      flushIgnored()
      if key.startsANumber, state == prior, let programmer = prior.programmer,
        programmer.isTyping, programmer.error == nil, programmer.input.magnitude != 0
      {
        // Programmer mode: typing stops where the value would no longer fit the word (SPEC §5).
        ignoredInWord =
          ignoredInWord.map {
            ($0.first, $0.count + 1, $0.count < 8 ? $0.digits + key.canonical : $0.digits, $0.word)
          } ?? (index, 1, key.canonical, programmer)
        continue
      }
      flushIgnoredInWord()
      // `$N` of a line that ended in an error shows that error (SPEC §11), also while an error
      // is shown already.
      if case .error(let error)? = recalled {
        let number = keys.references[recall - 1]
        shownError = (
          index,
          "$\(number) recalled the error of line \(number) "
            + "(\(format.text(for: Display.error(error))))",
          false, true
        )
        continue
      }
      if prior.isError {
        guard !state.isError, let error = shownError else { continue }
        shownError = nil
        // AC, CE and a mode key clear an error on purpose; a digit, `.`, a bit key, a radix or
        // a word-size key goes past it.
        guard !key.clearsOnPurpose else { continue }
        passedAnError = true
        if !error.isExplained {
          notes.append(
            LineNote(
              message: "\(error.text); the keys after it started a new calculation",
              column: column(error.index)))
        }
        continue
      }
      if state.isError {
        let expression = format.expression(for: state)
        shownError = (
          index,
          "\(format.text(for: state)) at column \(column(index))"
            + (expression.isEmpty ? "" : " (\(expression))"),
          false, false
        )
      }
      if rounding == nil, key.mayRound, let value = state.displayedValue, value.isRounded,
        value != prior.displayedValue
      {
        // An operator rounds by computing the operation pending before it.
        if case .leftOpRight(_, let op, _)? = prior.standard, key.computesPending {
          rounding = Key.op(op).title
        } else {
          rounding = key.title
        }
      }
      switch key {
      case .dot:
        if prior.typedEntryHasPoint {
          notes.append(
            LineNote(
              message: "a number has one decimal point; the '.' at column \(column(index)) "
                + "was ignored",
              column: column(index)))
        }
      case .op, .scientific(.binary), .programmer(.bitwise), .programmer(.shift):
        if index > 0, keys[index - 1] == key {
          var hint = ""
          if case .op(.multiply) = key {
            hint = prior.mode == .scientific ? " (xʸ is ^)" : " (xʸ is ^ in Scientific mode)"
          }
          notes.append(
            LineNote(
              message: "the second \(key.title) replaced the first\(hint)", column: column(index)))
        } else if index > 0, keys[index - 1].isBinaryOperator {
          // An operator replaced a different one: what a formula writer types for a negative
          // number (`5*-2`).
          let next = number(from: index + 1)
          var message =
            "\(key.noteTitle) replaced \(keys[index - 1].noteTitle) "
            + "(\(format.text(for: state)) \(key.noteTitle)\(next.isEmpty ? "" : " " + next))"
          if case .op(.minus) = key, !next.isEmpty {
            message +=
              "; a negative number is typed \(next)~"
              + FormulaWords.asFormula(line.map { String(decoding: $0, as: UTF8.self) })
          }
          notes.append(LineNote(message: message, column: column(index)))
        } else if case .op(let op) = key, op == .plus || op == .minus,
          let scientific = prior.scientific, scientific.isTyping, scientific.input.hasExponent
        {
          // `1.5exp-3`: a sign after `exp` is an operator (SPEC v5 §5).
          let next = number(from: index + 1)
          let written = KeyText.text(of: typed)
          let exponent =
            scientific.input.exponentDigitCount == 0 ? written + next : written
          let operation =
            "\(format.text(for: state)) \(key.noteTitle)\(next.isEmpty ? "" : " " + next)"
          notes.append(
            LineNote(
              message: op == .minus
                ? "− after exp subtracts (\(operation)); a negative exponent is \(exponent)~"
                : "+ after exp adds (\(operation)); an exponent is \(exponent)",
              column: column(index)))
        } else if case .op(let op) = key, op == .multiply || op == .divide, leftToRight,
          leftToRightNote == nil,
          case .leftOpRight(let left, let pending, let right)? = prior.standard,
          pending == .plus || pending == .minus, let result = state.displayedValue
        {
          let next = number(from: index + 1)
          leftToRightNote = LineNote(
            message: "Standard mode computes left to right (\(format.text(for: left.number)) "
              + "\(Key.op(pending).noteTitle) \(format.text(for: right.number)) "
              + "= \(format.text(for: result)), then \(key.noteTitle)"
              + "\(next.isEmpty ? "" : " " + next)); \(FormulaWords.precedence)",
            column: column(index))
        }
        if case .op(.minus) = key, let left = state.displayedValue {
          // The expression line names the left operand when it wraps that value alone
          // (`sqr(√(3))`), not when it shows an operation (`1 + 2 =`).
          let source = format.expression(for: prior)
          subtraction = (
            left, prior.isPending || source.contains(" ") ? "" : source
          )
        } else {
          subtraction = nil
        }
        continue
      case .equal:
        // A nonzero difference of operands that the display shows equal (`3@q-3=`).
        if let (left, source) = subtraction, let right = prior.displayedValue,
          let result = state.displayedValue, !result.isZero, result == left - right,
          format.text(for: left) == format.text(for: right)
        {
          let name = source.isEmpty ? format.text(for: left) : Self.compact(source)
          notes.append(
            LineNote(
              message: "the line shows values rounded to the display; \(name) is "
                + "\(DisplayFormat.plain.text(for: left)) "
                + "(\(rounding.map { "\($0) rounds" } ?? "an earlier step rounds") to 34 digits)",
              column: column(index)))
        }
      case .unary, .scientific(.function), .programmer(.not), .programmer(.rotate),
        .programmer(.bit):
        guard index + 1 < keys.count else { break }
        let next = keys[index + 1]
        if next.startsANumber {
          let number = keys[(index + 1)...].prefix(while: \.startsANumber)
          let typed = KeyText.text(of: number)
          notes.append(
            LineNote(
              message:
                "\(key.title) acted on \(format.text(for: prior)) and \(typed) started "
                + "a new number (\(key.title) acts on the number before it: \(typed)"
                + "\(key.canonical))",
              column: column(index + 1)))
        } else if case .scientific(.bracket(.open)) = next, prior.showsUntouchedZero {
          // `sin(30)`: the number in the brackets, when they hold just one.
          let inside = keys[(index + 2)...].prefix(while: \.startsANumber)
          let closes =
            index + 2 + inside.count < keys.count
            && keys[index + 2 + inside.count] == .scientific(.bracket(.close))
          let number =
            !inside.isEmpty && closes ? KeyText.text(of: inside) + key.canonical + ", or " : ""
          notes.append(
            LineNote(
              message: "\(key.title) acted on \(format.text(for: prior)) (\(key.title) acts on "
                + "the number before it: \(number)(…)\(key.canonical))",
              column: column(index)))
        } else {
          break
        }
        if state.isError { shownError?.isExplained = true }
      case .reference, .formula, .dateLine, .scientific(.constant), .memory(.recall):
        if prior.isTypingANumber, !prior.showsUntouchedZero, state != prior {
          // `2pi`: π, e, MR or $N replaced the number being typed (SPEC v5 §5).
          let name: String
          if case .reference = key {
            name = "$\(keys.references[recall - 1])"
          } else {
            name = key.title
          }
          let shown = format.text(for: prior)
          let spelled = key.isReference ? name : key.canonical
          let product = key.isReference || key == .memory(.recall) ? "×" : ""
          notes.append(
            LineNote(
              message: "\(name) replaced the \(shown) being typed (\(shown)\(product)\(name) "
                + "is \(KeyText.text(of: typed))*\(spelled))",
              column: column(index)))
        }
        // `$3 5`: the digits after a reference start a new number (SPEC §11, like §5's note).
        guard case .reference = key, index + 1 < keys.count, keys[index + 1].startsANumber,
          !prior.isError
        else { break }
        notes.append(
          LineNote(
            message: "$\(keys.references[recall - 1]) recalled \(format.text(for: state)) and "
              + "\(number(from: index + 1)) started a new number",
            column: column(index + 1)))
      case .command(.flip):
        // `~5`: `~` did nothing to a 0 nobody typed (no key of a number before it: a typed
        // `0~5` is 5 as typed), and the digit started a new number.
        guard prior.showsUntouchedZero, typed.isEmpty, index + 1 < keys.count,
          keys[index + 1].startsANumber
        else { break }
        let next = number(from: index + 1)
        notes.append(
          LineNote(
            message: "~ did nothing to 0 and \(next) started a new number (~ goes after the "
              + "number: \(next)~)",
            column: column(index)))
      case .scientific(.exponent):
        // `exp(2)`: eˣ as a formula writes it, which key text reads as an exponent (SPEC §12).
        guard index + 1 < keys.count, keys[index + 1] == .scientific(.bracket(.open)) else {
          break
        }
        let inside = keys[(index + 2)...].prefix(while: \.startsANumber)
        let closes =
          !inside.isEmpty && index + 2 + inside.count < keys.count
          && keys[index + 2 + inside.count] == .scientific(.bracket(.close))
        let formula = closes ? "exp(\(KeyText.text(of: inside)))" : nil
        notes.append(
          LineNote(
            message: "\(formula ?? "exp(x)") is eˣ in a formula (fx, or calc -e"
              + "\(formula.map { " '\($0)'" } ?? "")); in key text exp enters an exponent (1exp3) "
              + "and eˣ is powe",
            column: column(index)))
      case .digit, .command, .memory, .scientific(.bracket),
        .scientific(.fixedToExponential), .angle, .mode,
        .programmer(.hexDigit), .programmer(.radix), .programmer(.wordSize):
        break
      }
      // The right operand of a `−` goes on while it is typed.
      if !key.continuesANumber { subtraction = nil }
    }
    flushIgnored()
    flushIgnoredInWord()
    // `$N` recalled an error that the line ends in: the display shows it; the note says where
    // it came from.
    if let error = shownError, error.isRecalled, state.isError {
      notes.append(LineNote(message: error.text, column: column(error.index)))
    }
    return (notes, passedAnError, leftToRightNote)
  }

  /// An expression line's term written as a formula, where its wrappers allow: `sqr(√(3))` is
  /// `√3²` (SPEC v5 §5's note on equal operands); any other text as it is.
  static func compact(_ term: String) -> String {
    func inner(_ text: Substring, _ prefix: String) -> Substring? {
      guard text.hasPrefix(prefix), text.hasSuffix(")") else { return nil }
      return text.dropFirst(prefix.count).dropLast()
    }
    func isAtom(_ text: String) -> Bool {
      !text.isEmpty && !text.contains(" ") && !text.contains("(")
    }
    func compacted(_ text: Substring) -> String {
      if let argument = inner(text, "sqr(") {
        let base = compacted(argument)
        return isAtom(base) ? base + "²" : "(" + base + ")²"
      }
      if let argument = inner(text, "√(") {
        let base = compacted(argument)
        return isAtom(base) && !base.hasSuffix("²") ? "√" + base : "√(" + base + ")"
      }
      return String(text)
    }
    return compacted(Substring(term))
  }

  /// `12 + 3 is not finished; add = to compute it` when an operation is still pending, for the
  /// end of the input; `nil` otherwise.
  package var pendingNote: String? {
    let state = session.state
    let format = context.noteFormat
    // Only a pending line is written out: a finished one may be megabytes long.
    guard state.isPending else { return nil }
    let isTyping = state.isTypingPendingOperand
    var shown = format.expression(for: state)
    if isTyping { shown += " " + format.text(for: state) }
    return "\(shown) is not finished; add = to compute it"
  }
}
