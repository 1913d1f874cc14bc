import CalcDecimal

/// A formula as people write it (SPEC §12): `5*-2`, `sin(30)`, `2pi`, `log(8, 2)`, parsed and
/// ready to be compiled into Scientific key text.
///
/// Parsing checks everything that does not depend on the session: the grammar, the names, the
/// numbers' digits and the nesting limit (``maximumNesting``). What depends on the session is
/// given when the formula is used: the line that `ans` stands for (``keyText(answer:)``: `nil`
/// when no earlier line computed a value, and then a formula that uses `ans` is rejected) and the
/// memory (``Calculator/applyingFormula(_:answer:recall:)`` rejects `mr` while it is empty).
///
/// The grammar, loosest first: binary `+ -`; `* / mod` (`×` `÷`) and implied ×, left to right;
/// prefix `-` `+` `√`; `^` (`**`), right to left, its right side may start with a sign; postfix
/// `!` `%`; atoms: numbers, `pi` (`π`), `e`, `mr`, `$N`, `ans`, `( … )` and calls such as
/// `sin(30)`. Documentation/Formulas.md has the whole language, the compiled keys and where
/// formulas depart from the keypad.
package struct Formula: Sendable {
  /// The formula's text as given (a note after `#` is no part of the formula: the caller keeps
  /// it).
  package let text: String
  /// What the parser read, kept whole: moved in, not copied field by field.
  private let parsed: FormulaParser.Parsed
  /// The parsed formula.
  var root: FormulaNode { parsed.root }
  /// The byte range of the formula within ``text``: blanks around it, a trailing `=` and a note
  /// left out.
  var span: Range<Int> { parsed.span }
  /// The byte ranges of the `ans` words, which the canonical text writes as `$N`.
  var answerSpans: [Range<Int>] { parsed.answerSpans }
  /// The 1-based column of the first `ans`, for its error.
  let answerColumn: Int?
  /// The 1-based column of the first `mr`, for its error.
  let memoryColumn: Int?

  /// The notes a person should read beside the result: `1/2pi reads as (1/2)×π; 1/(2pi) divides
  /// by 2π` when an implied × follows the right operand of `/` (once a line).
  package var notes: [String] { parsed.notes }
  /// N of each `$N` written in the formula, in order (not `ans`).
  package var references: [Int] { parsed.references }

  /// The most brackets and function calls open at once (SPEC §12): one more is an error.
  package static let maximumNesting = 24

  /// The names of the functions a formula may call, lower case, in the order of the keypad's
  /// keys (`sin` … `acoth`, `log`, `ln`, … `degrees`, `fact`, `sqrt`, `exp`, `root`): what Tab
  /// completes with their `(`, and what a card of the grammar lists.
  package static let functionNames: [String] = FormulaNames.all.compactMap { name, word in
    if case .function = word { name } else { nil }
  }

  /// The other names: the constants `pi` and `e`, then `mr`, `ans` and the operator `mod`.
  package static let otherNames: [String] = FormulaNames.all.compactMap { name, word in
    if case .function = word { nil } else { name }
  }

  /// Parses `text`, a whole formula (blanks around it and a trailing `=` are allowed; `#` ends
  /// it); throws the first error, reading from the left, with its column.
  ///
  /// - Complexity: O(n) in the length of `text`.
  package init(_ text: some StringProtocol) throws(FormulaError) {
    var text = String(text)
    text.makeContiguousUTF8()
    let parsed = try FormulaParser.parse(text)
    self.text = text
    answerColumn = parsed.answerSpans.first.map {
      FormulaError.column(of: $0.lowerBound, in: text)
    }
    memoryColumn = parsed.memoryOffset.map { FormulaError.column(of: $0, in: text) }
    self.parsed = parsed
  }

  /// Whether the formula uses `ans`.
  package var usesAnswer: Bool { !answerSpans.isEmpty }

  /// Whether the formula uses `mr`.
  package var usesMemory: Bool { memoryColumn != nil }

  /// The formula as a session records it: its text, trimmed, without a trailing `=`, each `ans`
  /// written as `$answer` (SPEC §12: "`ans` replaced by `$N`"); throws `ans: no earlier result`
  /// when the formula uses `ans` and `answer` is `nil`.
  ///
  /// - Complexity: O(n) in the length of the text.
  package func canonicalText(answer: Int?) throws(FormulaError) -> String {
    let line = try answerLine(answer)
    // The common formula: the whole text, no `ans`.
    if answerSpans.isEmpty, span == 0..<text.utf8.count { return text }
    let utf8 = Array(text.utf8)
    var bytes: [UInt8] = []
    var at = span.lowerBound
    for answerSpan in answerSpans {
      bytes.append(contentsOf: utf8[at..<answerSpan.lowerBound])
      bytes.append(contentsOf: "$\(line ?? 0)".utf8)
      at = answerSpan.upperBound
    }
    bytes.append(contentsOf: utf8[at..<span.upperBound])
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The canonical Scientific key text that computes the formula from a cleared Scientific
  /// keypad, ending with `=`: `5*-2` → `5*2~=`, `sin(1+2)` → `(1+2)sin=`, `2^3^2` → `2^(3^2)=`,
  /// `-2^2` → `(2^2)~=`, `1.5e-3` → `1.5exp3~=`, `2pi` → `2*pi=`, `log(8, 2)` → `8logy2=`.
  ///
  /// Brackets appear where the formula has them and where the keypad's precedence would
  /// otherwise group differently; throws when the keys would need more than the keypad's 25
  /// levels of brackets and waiting operations, and `ans: no earlier result` when the formula
  /// uses `ans` and `answer` is `nil`. ``KeyText`` reads the text back as the same keys and
  /// writes them as the same text.
  /// - Complexity: O(n) in the size of the formula.
  package func keyText(answer: Int?) throws(FormulaError) -> String {
    let line = try answerLine(answer)
    return try FormulaCompiler.keyText(of: root, in: text, answer: line ?? 0)
  }

  /// The keys of ``keyText(answer:)``, as ``KeyText/keys(in:startingIn:)`` reads its text in
  /// Scientific mode, compiled without writing the text; throws as ``keyText(answer:)`` does.
  ///
  /// - Complexity: O(n) in the size of the formula.
  package func keys(answer: Int?) throws(FormulaError) -> TypedKeys {
    let line = try answerLine(answer)
    return try FormulaCompiler.keys(of: root, in: text, answer: line ?? 0)
  }

  /// The expression line a formula line shows: the formula normalised, with `×`, `÷`, `−`,
  /// spaces around binary operators and `=` at the end: `5*-2` → `5 × −2 =`; `ans` written as
  /// `$answer` (throws as ``keyText(answer:)`` does when there is none).
  ///
  /// - Complexity: O(n) in the size of the formula.
  package func expressionLine(answer: Int?) throws(FormulaError) -> String {
    let line = try answerLine(answer)
    return FormulaText.normalised(root, in: text, answer: line ?? 0) + " ="
  }

  /// The expression line of a formula line recorded as `text`, its canonical text
  /// (``canonicalText(answer:)``): the formula normalised (``expressionLine(answer:)``); `nil`
  /// when `text` is no formula or uses `ans`.
  ///
  /// - Complexity: O(n) in the length of `text`.
  package static func expressionLine(ofCanonical text: String) -> String? {
    try? Formula(text).expressionLine(answer: nil)
  }

  /// `answer`, or throws `ans: no earlier result` when the formula uses `ans` without one.
  private func answerLine(_ answer: Int?) throws(FormulaError) -> Int? {
    if let answerColumn, answer == nil {
      throw FormulaError("ans: no earlier result", column: answerColumn)
    }
    return answer
  }
}

/// A formula that cannot be read or compiled: what is wrong, as a sentence a person can act on,
/// and the 1-based column (counted in characters) where it starts.
///
/// `unbalanced ( at column 5`, `unknown name 'sinx' at column 1 (sin(x)?)`, `sin needs brackets:
/// sin(30)`, `nothing after + at column 3`, `two numbers in a row at column 3; write 2*3`.
public struct FormulaError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What is wrong: the whole message, without a trailing period.
  public let message: String
  /// The 1-based column, counted in characters, where the problem starts.
  public let column: Int

  /// An error saying `message` at `column`.
  package init(_ message: String, column: Int) {
    self.message = message
    self.column = column
  }

  /// The message.
  public var description: String { message }

  /// The 1-based column of the byte at `offset` of `text`'s UTF-8, counted in characters.
  ///
  /// - Complexity: O(offset).
  static func column(of offset: Int, in text: String) -> Int {
    let bounded = min(max(offset, 0), text.utf8.count)
    return String(decoding: text.utf8.prefix(bounded), as: UTF8.self).count + 1
  }
}

extension LineError {
  /// A formula's error at its own column.
  package init(_ error: FormulaError) {
    self.init(error.message, column: error.column)
  }
}

extension Calculator {
  /// The calculator after the formula's compiled keys (``Formula/keyText(answer:)``), applied to
  /// a Scientific keypad cleared as by AC, the memory and the angle unit kept, stopping at the
  /// first error (SPEC §12: "a formula's result is its first error": `1/0+5` → `Cannot divide by
  /// zero`).
  ///
  /// `answer` is the line that `ans` stands for, `nil` when there is none; `recall` gives what
  /// each `$N` recalls (the caller checks beforehand that line N exists, as for key text).
  /// Throws, changing nothing, for `ans` without an answer, for `mr` while the memory is empty
  /// (`mr: the memory is empty`: the keypad's `mr` would do nothing, which no formula means),
  /// and when the keys would not fit the keypad. The result is in Scientific mode.
  /// - Complexity: O(n) in the size of the formula, and the cost of its keys.
  package func applyingFormula(
    _ formula: Formula, answer: Int? = nil, recall: (Int) -> Recalled = { _ in .value(.zero) }
  ) throws(FormulaError) -> Calculator {
    let keys = try formula.keys(answer: answer)
    if let column = formula.memoryColumn, memory == nil {
      throw FormulaError("mr: the memory is empty", column: column)
    }
    return applyingFormula(keys: keys, recall: recall)
  }

  /// The calculator after `keys` (a formula's compiled keys), applied to a Scientific keypad
  /// cleared as by AC — memory and angle unit kept — one key at a time, stopping at the first
  /// error: the keys after it are not applied. Each `$N` recalls `recall(N)`.
  ///
  /// - Complexity: O(n) in the number of keys.
  package func applyingFormula(keys: TypedKeys, recall: (Int) -> Recalled) -> Calculator {
    var next = self
    next.press(.mode(.scientific))
    next.press(formulaKeys: keys, recall: recall)
    return next
  }

  /// Presses `keys`, a formula's compiled keys, one at a time, stopping at the first error;
  /// each `$N` recalls `recall(N)`.
  ///
  /// - Complexity: O(n) in the number of keys.
  mutating func press(formulaKeys keys: TypedKeys, recall: (Int) -> Recalled) {
    var references = keys.references.makeIterator()
    for key in keys.keys {
      if key.isReference {
        self.recall(recall(references.next() ?? 0))
      } else {
        press(key)
      }
      if isError { break }
    }
  }
}

/// A formula line as a history records it (SPEC §12): its canonical text, the Scientific keys
/// it compiled to, and what each `$N` among those keys recalled when the line was applied, so
/// that a jump replays it as one step without compiling it again.
public struct FormulaStep: Hashable, Sendable {
  /// The canonical text (``Formula/canonicalText(answer:)``): `ans` written as its `$N`.
  public let text: String
  /// The compiled keys (``Formula/keyText(answer:)``), `$N` keys with their N.
  public let keys: TypedKeys
  /// What each `$N` key of ``keys`` recalled, in order.
  let recalls: [Calculator.Recalled]
}
