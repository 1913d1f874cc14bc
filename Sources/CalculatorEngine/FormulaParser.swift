/// A parsed formula (SPEC §12), as the compiler and the normaliser read it.
///
/// Runs of one level are lists, not nested nodes (`1+1+…+1` is one ``chain(_:_:)``, `---2` one
/// ``prefixed(_:_:)``), so a tree is only as deep as the formula's nesting: brackets, calls and
/// the right sides of `^`, each bounded by the parser (``FormulaParser/maximumDepth``). Walking a
/// tree recursively never overflows the stack, whatever the length of the line. Leaves are held
/// in place, not boxed, and offsets are 32 bits: a chain of a million numbers costs 16 bytes a
/// number.
enum FormulaNode: Sendable {
  /// A number literal: its bytes in the formula's text (``FormulaNumber`` reads its digits).
  case number(FormulaSpan)
  /// `pi` (`π`) or `e`.
  case constant(FormulaConstant)
  /// `mr`.
  case memory
  /// `$N`.
  case reference(Int)
  /// `ans`, which stands for an earlier line's `$N`.
  case answer
  /// `( … )` as written; `at` is the byte offset of `(`.
  indirect case group(FormulaNode, at: Int32)
  /// `name(…)`: a Scientific function, `sqrt`, `exp`, `log(x, b)` or `root(x, n)`, with its
  /// first argument and its second, if any (no function takes more: held in the node, not in
  /// an array of their own); `name` holds the bytes of the name as written, `at` the offset of
  /// its `(`.
  indirect case call(FormulaFunction, FormulaNode, FormulaNode?, name: FormulaSpan, at: Int32)
  /// A run of `+ -` (a sum) or of `* / mod` and implied × (a product), left to right.
  indirect case chain(FormulaNode, [FormulaLink])
  /// Prefix `-`, `+`, `√`, outermost first, applied to a power or what binds tighter.
  indirect case prefixed([FormulaPrefix], FormulaNode)
  /// `base ^ exponent`; `at` is the byte offset of `^` (or `**`).
  indirect case power(FormulaNode, FormulaNode, at: Int32)
  /// Postfix `!` and `%`, in order, applied to an atom. `percentOfLeft`: the atom directly
  /// follows a binary `+` or `-`, so `Y%` is X·Y/100 (SPEC §12), X everything before that
  /// operator at the same bracket level.
  indirect case postfix(FormulaNode, [FormulaPostfix], percentOfLeft: Bool)
}

/// A range of bytes of a formula's text, in 32 bits (a formula is at most 2 GB).
struct FormulaSpan: Sendable {
  var start: Int32
  var end: Int32

  init(_ range: Range<Int>) {
    start = Int32(range.lowerBound)
    end = Int32(range.upperBound)
  }

  var range: Range<Int> { Int(start)..<Int(end) }
}

/// The digits of a number as written, read from its bytes: what the compiler copies.
struct FormulaNumber {
  /// The integer digits after leading zeros (`007` → `7`); empty for none.
  var integer: Range<Int>
  /// The fraction digits before trailing zeros (`1.50` → `5`); empty for none.
  var fraction: Range<Int>
  /// The exponent's digits after leading zeros (`e-003` → `3`); empty for none or zero.
  var exponent: Range<Int>
  /// Whether the exponent is negative.
  var exponentIsNegative: Bool
  /// How many digits the keypad's entry counts (SPEC §2 rule 13: leading zeros do not count).
  var digitCount: Int

  /// The number spelled by `bytes[span]`, which the lexer found to be one.
  init(_ span: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) {
    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    var index = span.lowerBound
    while index < span.upperBound, bytes[index] == UInt8(ascii: "0") { index += 1 }
    let integerStart = index
    while index < span.upperBound, isDigit(bytes[index]) { index += 1 }
    integer = integerStart..<index
    digitCount = integer.count
    fraction = index..<index
    if index < span.upperBound, bytes[index] == UInt8(ascii: ".") {
      index += 1
      let fractionStart = index
      while index < span.upperBound, isDigit(bytes[index]) { index += 1 }
      digitCount += index - fractionStart
      var fractionEnd = index
      while fractionEnd > fractionStart, bytes[fractionEnd - 1] == UInt8(ascii: "0") {
        fractionEnd -= 1
      }
      fraction = fractionStart..<fractionEnd
    }
    exponentIsNegative = false
    if index < span.upperBound {
      // `e`, a sign perhaps, digits.
      index += 1
      if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
        exponentIsNegative = bytes[index] == UInt8(ascii: "-")
        index += 1
      }
      while index < span.upperBound, bytes[index] == UInt8(ascii: "0") { index += 1 }
      exponentIsNegative = exponentIsNegative && index < span.upperBound
    }
    exponent = index..<span.upperBound
  }
}

/// A constant of formulas.
enum FormulaConstant: Sendable {
  case pi, e
}

/// A function a formula calls.
enum FormulaFunction: Hashable, Sendable {
  /// A function key of the Scientific keypad, by the index of its canonical key text (`sin`,
  /// `!`, `@`, `powe`) in ``FormulaNames/keys``: one argument. An index rather than the text,
  /// so that a token holds no reference to count (copying tokens was most of a parse's cost).
  case key(UInt8)
  /// `log(x)` (the key `log`) or `log(x, b)` (the binary key `logy`).
  case log
  /// `root(x, n)` (the binary key `yroot`).
  case root

  /// The most arguments the function takes.
  var maximumArguments: Int {
    switch self {
    case .key: 1
    case .log, .root: 2
    }
  }

  /// The fewest arguments the function takes.
  var minimumArguments: Int {
    switch self {
    case .key, .log: 1
    case .root: 2
    }
  }
}

/// A binary operator of a chain.
enum FormulaOperator: Sendable {
  case plus, minus, times, divide, mod, implied

  /// Whether the operator belongs to a sum (`+ -`) rather than a product.
  var isAdditive: Bool {
    switch self {
    case .plus, .minus: true
    case .times, .divide, .mod, .implied: false
    }
  }
}

/// An operator and its right operand in a chain; `at` is the operator's byte offset (for
/// implied ×, the operand's). The operand first: 16 bytes in all.
struct FormulaLink: Sendable {
  var operand: FormulaNode
  var op: FormulaOperator
  var at: Int32
}

/// A prefix operator.
enum FormulaPrefix: Sendable {
  case minus, plus, root
}

/// A postfix operator.
enum FormulaPostfix: Sendable {
  case factorial, percent
}

/// A word of formulas: a name, or `mod`.
enum FormulaWord: Hashable, Sendable {
  case function(FormulaFunction)
  case pi, e, memory, answer, mod
}

/// The names of formulas (SPEC §12), lower case, in the order in which a hint prefers them.
enum FormulaNames {
  /// The canonical key text of the function keys that formulas call, by
  /// ``FormulaFunction/key(_:)``'s index.
  static let keys = [
    "sin", "cos", "tan", "sec", "csc", "cot", "asin", "acos", "atan", "asec", "acsc", "acot",
    "sinh", "cosh", "tanh", "sech", "csch", "coth", "asinh", "acosh", "atanh", "asech", "acsch",
    "acoth", "ln", "abs", "floor", "ceil", "cube", "cbrt", "pow10", "pow2", "powe", "dms",
    "degrees", "!", "@",
  ]

  /// The function that calls the key spelled `key`.
  static func function(_ key: String) -> FormulaFunction {
    .key(UInt8(keys.firstIndex(of: key)!))
  }

  /// Every name and its meaning, in order.
  static let all: [(name: String, word: FormulaWord)] = {
    var names: [(String, FormulaWord)] = []
    for key in keys.prefix(24) { names.append((key, .function(function(key)))) }
    names.append(("log", .function(.log)))
    for key in keys[24..<35] { names.append((key, .function(function(key)))) }
    names += [
      ("fact", .function(function("!"))), ("sqrt", .function(function("@"))),
      ("exp", .function(function("powe"))), ("root", .function(.root)), ("pi", .pi), ("e", .e),
      ("mr", .memory), ("ans", .answer), ("mod", .mod),
    ]
    return names
  }()

  /// The meaning of each name.
  static let table: [String: FormulaWord] = Dictionary(
    all.map { ($0.name, $0.word) }, uniquingKeysWith: { first, _ in first })

  /// Each name packed as ``packed(_:)`` packs it, with its meaning, in the order of ``all``:
  /// what the lexer compares a word with, without building a string.
  static let packedNames: [(name: UInt64, word: FormulaWord)] = all.map { name, word in
    (packed(name.utf8[...])!, word)
  }

  /// The letters and digits `bytes`, lower case, in one word (the first byte lowest); `nil` for
  /// more than 8 bytes, longer than any name.
  static func packed<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt64? {
    guard bytes.count <= 8 else { return nil }
    var word: UInt64 = 0
    var shift: UInt64 = 0
    for byte in bytes {
      // ASCII letters lower case; digits are unchanged by the bit.
      word |= UInt64(byte | 0x20) << shift
      shift += 8
    }
    return word
  }

  /// The meaning of the word spelled `bytes` (ASCII letters and digits, in any case); `nil`
  /// when it is no name.
  static func meaning(of bytes: Slice<UnsafeBufferPointer<UInt8>>) -> FormulaWord? {
    guard let word = packed(bytes) else { return nil }
    for entry in packedNames where entry.name == word { return entry.word }
    return nil
  }

  /// What a word that is no name probably meant, for a few words people type: a name or a
  /// sentence.
  static let guesses: [String: String] = [
    "x": "× is *", "euler": "e?", "yroot": "root(x, n)?", "logy": "log(x, b)?",
    "ceiling": "ceil(x)?", "factorial": "fact(x)?", "arcsin": "asin(x)?", "arccos": "acos(x)?",
    "arctan": "atan(x)?", "sq": "x^2?", "sqr": "sqrt(x)?", "lg": "log(x)?",
  ]

  /// How a hint writes `word`: a function with `(x)` after it (`root(x, n)`, `log(x)`), any
  /// other name alone.
  static func written(_ name: String, _ word: FormulaWord, argument: String = "x") -> String {
    switch word {
    case .function(.root): "root(\(argument), n)"
    case .function: "\(name)(\(argument))"
    case .pi, .e, .memory, .answer, .mod: name
    }
  }

  /// The hint for an unknown `word` (lower case): what was probably meant, with a `?`, or `nil`.
  static func hint(for word: String) -> String? {
    if let guess = guesses[word] { return guess }
    var best: (distance: Int, name: String, word: FormulaWord)?
    for (name, meaning) in all {
      let distance = editDistance(word, name)
      if distance < (best?.distance ?? Int.max) { best = (distance, name, meaning) }
    }
    // A letter more, less or wrong: `sinx`, `sine` → `sin(x)?`, `pie` → `pi?`.
    if let best, best.distance <= 1 { return written(best.name, best.word) + "?" }
    // A function and what it was meant to apply to: `sinpi` → `sin(pi)?`.
    for (name, meaning) in all.reversed() {
      guard case .function = meaning, word.count > name.count, word.hasPrefix(name) else {
        continue
      }
      let rest = String(word.dropFirst(name.count))
      if rest.count == 1 || table[rest] != nil {
        return written(name, meaning, argument: rest) + "?"
      }
    }
    if let best, best.distance <= 2, word.count > 3 {
      return written(best.name, best.word) + "?"
    }
    // A longer word that starts with a function's name: `factorial` → `fact(x)?`.
    for (name, meaning) in all.reversed() where name.count >= 3 && word.hasPrefix(name) {
      if case .function = meaning { return written(name, meaning) + "?" }
    }
    return nil
  }

  /// The number of single-character insertions, deletions and substitutions that turn `a` into
  /// `b` (Levenshtein).
  ///
  /// - Complexity: O(m × n).
  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.utf8)
    let b = Array(b.utf8)
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var row = Array(0...b.count)
    for i in 1...a.count {
      var previous = row[0]
      row[0] = i
      for j in 1...b.count {
        let kept = row[j]
        row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
        previous = kept
      }
    }
    return row[b.count]
  }
}

/// The one parser of formulas (SPEC §12): a recursive descent over the levels of the grammar,
/// with a loop at each level, pulling tokens from the text one at a time so that the first error
/// reading from the left is the one reported.
///
/// It recurses only into brackets, calls and the right side of `^`, and refuses to go deeper
/// than ``maximumDepth`` of them: the recursion is bounded, whatever the length of the line.
struct FormulaParser {
  /// What a parse gives.
  struct Parsed {
    var root: FormulaNode
    var span: Range<Int>
    var answerSpans: [Range<Int>]
    var memoryOffset: Int?
    var notes: [String]
    var references: [Int]
  }

  /// How deep brackets, calls and the right sides of `^` may nest together before the formula
  /// is refused as too deep for the keypad: beyond it the compiled keys would need more than the
  /// keypad's 25 levels (``FormulaCompiler``), since a power with a power on its right needs a
  /// bracket in the keys.
  static let maximumDepth = Formula.maximumNesting + ScientificBrain.maximumDepth + 1

  /// A token: what it is, and its bytes.
  struct Token {
    enum Kind: Equatable {
      case number, word(FormulaWord), reference(Int), plus, minus, times, divide, power, bang
      case percent, open, close, separator, squareRoot, end
    }
    var kind: Kind
    var start: Int
    var end: Int
  }

  let text: String
  /// The UTF-8 of ``text``, where it is stored.
  let bytes: UnsafeBufferPointer<UInt8>
  /// Where the lexer reads next.
  var index = 0
  /// The token read but not yet taken.
  var lookahead: Token?
  /// The token taken last.
  var previous: Token?
  /// Brackets and calls open.
  var nesting = 0
  /// Brackets, calls and right sides of `^` open.
  var depth = 0
  var notes: [String] = []
  var answerSpans: [Range<Int>] = []
  var memoryOffset: Int?
  var references: [Int] = []

  /// Parses `text`, a whole formula.
  ///
  /// - Complexity: O(n) in the length of `text`.
  static func parse(_ text: String) throws(FormulaError) -> Parsed {
    guard text.utf8.count < Int32.max else {
      throw FormulaError("a formula of 2 GB or more is too long", column: 1)
    }
    // The text's own bytes: a formula's reading allocates no copy of them.
    return try FormulaParser.withUTF8(of: text) { bytes throws(FormulaError) in
      var parser = FormulaParser(text: text, bytes: bytes)
      return try parser.parseFormula()
    }
  }

  /// `body` of the UTF-8 of `text`, where the string stores it (a copy only for a string that
  /// is not stored contiguously).
  ///
  /// - Complexity: O(1) for a contiguous string; else O(n) in its length.
  static func withUTF8<Result>(
    of text: String, _ body: (UnsafeBufferPointer<UInt8>) throws(FormulaError) -> Result
  ) throws(FormulaError) -> Result {
    // The outcome taken apart where it is returned: bound to a name first, it was copied.
    switch text.utf8.withContiguousStorageIfAvailable({
      bytes -> Swift.Result<Result, FormulaError> in
      do throws(FormulaError) { return .success(try body(bytes)) } catch { return .failure(error) }
    }) {
    case .success(let result): return result
    case .failure(let error): throw error
    case nil: break
    }
    return try Array(text.utf8).withUnsafeBufferPointer { bytes throws(FormulaError) in
      try body(bytes)
    }
  }

  // MARK: - Levels of the grammar

  private mutating func parseFormula() throws(FormulaError) -> Parsed {
    let first = try peek()
    if first.kind == .end {
      throw FormulaError("nothing to compute: a formula such as 5*-2", column: column(first.start))
    }
    let root = try parseSum()
    let after = try peek()
    switch after.kind {
    case .end: break
    case .close:
      throw FormulaError(
        "unbalanced ) at column \(column(after.start))", column: column(after.start))
    case .separator: throw commaError(after, function: nil)
    default: throw unexpected(after)
    }
    return Parsed(
      root: root, span: first.start..<(previous?.end ?? first.start),
      answerSpans: answerSpans,
      memoryOffset: memoryOffset, notes: notes, references: references)
  }

  /// `+ -`, left to right.
  private mutating func parseSum() throws(FormulaError) -> FormulaNode {
    // A number that ends the sum (a call's argument, a whole formula) is its own node: the
    // levels between would give it as it is (issue 49: five calls fewer for `sin(5.2472)`).
    if try peek().kind == .number, let number = takeNumber(endingSum: true) { return number }
    let first = try parseProduct(followsAdditive: false)
    var links: [FormulaLink] = []
    while true {
      let token = try peek()
      let op: FormulaOperator
      switch token.kind {
      case .plus: op = .plus
      case .minus: op = .minus
      default: return links.isEmpty ? first : .chain(first, links)
      }
      take()
      links.append(
        FormulaLink(
          operand: try parseProduct(followsAdditive: true), op: op, at: Int32(token.start)))
    }
  }

  /// `* / mod` and implied ×, left to right; `followsAdditive`: the first operand directly
  /// follows a binary `+` or `-`.
  private mutating func parseProduct(followsAdditive: Bool) throws(FormulaError) -> FormulaNode {
    var operandStart = try peek().start
    let first = try parseUnary(percentOfLeft: followsAdditive)
    var operandEnd = previous?.end ?? operandStart
    var links: [FormulaLink] = []
    // The operand before the last `/`, and the right operand of that `/` if it was the last.
    var dividend: Range<Int>?
    var divisor: Range<Int>?
    while true {
      let token = try peek()
      let op: FormulaOperator
      switch token.kind {
      case .times: op = .times
      case .divide: op = .divide
      case .word(.mod): op = .mod
      case .open, .word(.function), .word(.pi), .word(.e), .word(.memory), .word(.answer),
        .reference, .squareRoot:
        op = .implied
      case .number:
        throw twoNumbers(left: operandStart..<operandEnd, right: token)
      default:
        return links.isEmpty ? first : .chain(first, links)
      }
      if op != .implied { take() }
      let start = try peek().start
      let operand = try parseUnary(percentOfLeft: false)
      let end = previous?.end ?? start
      if op == .implied, let dividend, let divisor, notes.isEmpty {
        notes.append(divisionNote(dividend, divisor, start..<end, operand))
      }
      if op == .divide {
        dividend = operandStart..<operandEnd
        divisor = start..<end
      } else {
        dividend = nil
        divisor = nil
      }
      links.append(
        FormulaLink(operand: operand, op: op, at: Int32(op == .implied ? start : token.start)))
      (operandStart, operandEnd) = (start, end)
    }
  }

  /// Prefix `-`, `+`, `√`, then a power.
  private mutating func parseUnary(percentOfLeft: Bool) throws(FormulaError) -> FormulaNode {
    // A number with no `^` and no postfix after it is its own node, as ``parsePower(percentOfLeft:)``
    // would give it (`1.25` in `2.5^1.25`).
    if try peek().kind == .number, let number = takeNumber(endingSum: false) { return number }
    var prefixes: [FormulaPrefix] = []
    loop: while true {
      switch try peek().kind {
      case .minus: prefixes.append(.minus)
      case .plus: prefixes.append(.plus)
      case .squareRoot: prefixes.append(.root)
      default: break loop
      }
      take()
    }
    if prefixes.isEmpty { return try parsePower(percentOfLeft: percentOfLeft) }
    return .prefixed(prefixes, try parsePower(percentOfLeft: false))
  }

  /// `^` (`**`), right to left; its right side may start with a sign.
  private mutating func parsePower(percentOfLeft: Bool) throws(FormulaError) -> FormulaNode {
    let base = try parsePostfix(percentOfLeft: percentOfLeft)
    let token = try peek()
    guard token.kind == .power else { return base }
    take()
    depth += 1
    if depth > FormulaParser.maximumDepth { throw FormulaCompiler.tooDeep(at: column(token.start)) }
    let exponent = try parseUnary(percentOfLeft: false)
    depth -= 1
    return .power(base, exponent, at: Int32(token.start))
  }

  /// An atom, then postfix `!` and `%`.
  private mutating func parsePostfix(percentOfLeft: Bool) throws(FormulaError) -> FormulaNode {
    let atom = try parseAtom()
    var postfixes: [FormulaPostfix] = []
    loop: while true {
      switch try peek().kind {
      case .bang: postfixes.append(.factorial)
      case .percent: postfixes.append(.percent)
      default: break loop
      }
      take()
    }
    return postfixes.isEmpty ? atom : .postfix(atom, postfixes, percentOfLeft: percentOfLeft)
  }

  /// A number, a constant, `mr`, `$N`, `ans`, `( … )` or a call.
  private mutating func parseAtom() throws(FormulaError) -> FormulaNode {
    let before = previous
    let token = try peek()
    switch token.kind {
    case .number:
      take()
      return .number(FormulaSpan(token.start..<token.end))
    case .word(.pi):
      take()
      return .constant(.pi)
    case .word(.e):
      take()
      return .constant(.e)
    case .word(.memory):
      take()
      if memoryOffset == nil { memoryOffset = token.start }
      return .memory
    case .word(.answer):
      take()
      answerSpans.append(token.start..<token.end)
      return .answer
    case .reference(let line):
      take()
      references.append(line)
      return .reference(line)
    case .open:
      take()
      try enter(token)
      if try peek().kind == .close {
        throw FormulaError(
          "nothing in the brackets at column \(column(token.start))", column: column(token.start))
      }
      let inner = try parseSum()
      try close(token, function: nil)
      return .group(inner, at: Int32(token.start))
    case .word(.function(let function)):
      take()
      return try parseCall(function, name: token)
    default:
      throw missingOperand(found: token, after: before)
    }
  }

  /// The brackets and arguments of a call of `function`, whose name is `name`.
  private mutating func parseCall(_ function: FormulaFunction, name: Token) throws(FormulaError)
    -> FormulaNode
  {
    let open = try peek()
    guard open.kind == .open else { throw needsBrackets(name, next: open) }
    take()
    try enter(open)
    // The name's spelling is written only for an error.
    if try peek().kind == .close {
      throw FormulaError(
        "nothing in the brackets of \(spelling(name)) at column \(column(open.start))",
        column: column(open.start))
    }
    // At most two arguments, held in the node rather than in an array of their own.
    let first = try parseSum()
    var second: FormulaNode?
    while try peek().kind == .separator {
      let separator = try peek()
      if (second == nil ? 1 : 2) == function.maximumArguments {
        throw commaError(separator, function: (spelling(name), function))
      }
      take()
      second = try parseSum()
    }
    try close(open, function: (name, function))
    if (second == nil ? 1 : 2) < function.minimumArguments {
      let spelling = self.spelling(name)
      throw FormulaError(
        "\(spelling) needs two arguments: \(spelling)(x, n)", column: column(name.start))
    }
    return .call(
      function, first, second, name: FormulaSpan(name.start..<name.end), at: Int32(open.start))
  }

  /// Takes the `)` that closes `open`, or throws what stands there instead; `function` is the
  /// name and the function of a call's brackets.
  private mutating func close(_ open: Token, function: (name: Token, FormulaFunction)?)
    throws(FormulaError)
  {
    let token = try peek()
    switch token.kind {
    case .close:
      take()
      nesting -= 1
      depth -= 1
    case .end:
      throw FormulaError(
        "unbalanced ( at column \(column(open.start))", column: column(open.start))
    case .separator:
      throw commaError(token, function: function.map { (spelling($0.name), $0.1) })
    default:
      throw unexpected(token)
    }
  }

  /// Counts a bracket or call as open, refusing the 25th level.
  private mutating func enter(_ open: Token) throws(FormulaError) {
    nesting += 1
    depth += 1
    if nesting > Formula.maximumNesting {
      let at = column(open.start)
      throw FormulaError(
        "brackets and function calls nested more than \(Formula.maximumNesting) deep at column \(at)",
        column: at)
    }
    if depth > FormulaParser.maximumDepth { throw FormulaCompiler.tooDeep(at: column(open.start)) }
  }

  // MARK: - Errors and notes

  /// The 1-based column of the byte at `offset`.
  private func column(_ offset: Int) -> Int { FormulaError.column(of: offset, in: text) }

  /// The text of `range`, blanks around it left out.
  private func source(_ range: Range<Int>) -> String {
    var lower = range.lowerBound
    var upper = range.upperBound
    while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
    while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
    return String(decoding: bytes[lower..<upper], as: UTF8.self)
  }

  /// How a token is written, lower case for a word.
  private func spelling(_ token: Token) -> String {
    if token.kind == .end { return "the end" }
    let written = source(token.start..<token.end)
    if case .word = token.kind { return written.lowercased() }
    return written
  }

  /// `two numbers in a row at column 3; write 2*3`.
  private func twoNumbers(left: Range<Int>, right: Token) -> FormulaError {
    var before = source(left)
    if before.count > 20, let last = previous { before = spelling(last) }
    let at = column(right.start)
    return FormulaError(
      "two numbers in a row at column \(at); write \(before)*\(spelling(right))", column: at)
  }

  /// What stands where an operand was expected: `nothing after + at column 3`, `nothing before *
  /// at column 1`, `unbalanced ( at column 1`.
  private func missingOperand(found token: Token, after before: Token?) -> FormulaError {
    guard let before else {
      let at = column(token.start)
      return FormulaError("nothing before \(spelling(token)) at column \(at)", column: at)
    }
    switch before.kind {
    case .open:
      let at = column(before.start)
      if token.kind == .end { return FormulaError("unbalanced ( at column \(at)", column: at) }
      let found = column(token.start)
      return FormulaError("nothing before \(spelling(token)) at column \(found)", column: found)
    default:
      let at = column(before.start)
      return FormulaError("nothing after \(spelling(before)) at column \(at)", column: at)
    }
  }

  /// A token that no rule expects here.
  private func unexpected(_ token: Token) -> FormulaError {
    let at = column(token.start)
    return FormulaError("\(spelling(token)) is out of place at column \(at)", column: at)
  }

  /// `sin needs brackets: sin(30)`; for `1exp3`, `exp needs brackets: 1e3 (exp(x) is eˣ)`.
  private func needsBrackets(_ name: Token, next: Token) -> FormulaError {
    let spelling = self.spelling(name)
    let at = column(name.start)
    if spelling == "exp", let before = numberBefore(name.start) {
      var digits = next.start
      if next.start == name.end, next.kind == .minus || next.kind == .plus { digits += 1 }
      var end = digits
      while end < bytes.count, isDigit(bytes[end]) { end += 1 }
      if next.start == name.end, end > digits {
        let exponent = source(next.start..<end)
        return FormulaError(
          "exp needs brackets: \(before)e\(exponent) (exp(x) is eˣ)", column: at)
      }
    }
    let argument: String
    switch next.kind {
    case .number, .word, .reference: argument = self.spelling(next)
    default: argument = "x"
    }
    let function = FormulaNames.table[spelling] ?? .function(.log)
    return FormulaError(
      "\(spelling) needs brackets: \(FormulaNames.written(spelling, function, argument: argument))",
      column: at)
  }

  /// The number written right before `offset` (no blank between), if any: its text.
  private func numberBefore(_ offset: Int) -> String? {
    var start = offset
    while start > 0, isDigit(bytes[start - 1]) || bytes[start - 1] == UInt8(ascii: ".") {
      start -= 1
    }
    return start < offset ? source(start..<offset) : nil
  }

  /// A `,` or `;` where no argument may follow: `a formula uses . for the decimal point: 2.5`
  /// between digits, else what the place allows.
  private func commaError(_ token: Token, function: (String, FormulaFunction)?) -> FormulaError {
    let at = column(token.start)
    if bytes[token.start] == UInt8(ascii: ","), let number = numberBefore(token.start),
      token.end < bytes.count, isDigit(bytes[token.end])
    {
      var end = token.end
      while end < bytes.count, isDigit(bytes[end]) { end += 1 }
      let fraction = source(token.end..<end)
      return FormulaError(
        "a formula uses . for the decimal point: \(number).\(fraction)", column: at)
    }
    guard let (name, function) = function else {
      return FormulaError(
        "\(spelling(token)) outside a function's brackets at column \(at)", column: at)
    }
    let count =
      switch function.maximumArguments {
      case 1: "one argument"
      default: function == .log ? "one or two arguments" : "two arguments"
      }
    return FormulaError("\(name) takes \(count) at column \(at)", column: at)
  }

  /// The note for an implied × right after the right operand of `/` (SPEC §12).
  private func divisionNote(
    _ dividend: Range<Int>, _ divisor: Range<Int>, _ factor: Range<Int>, _ node: FormulaNode
  ) -> String {
    let (a, b, c) = (source(dividend), source(divisor), source(factor))
    let shown = FormulaText.normalised(node, in: text, answer: 0)
    return "\(a)/\(b)\(c) reads as (\(a)/\(b))×\(shown); \(a)/(\(b)\(c)) divides by \(b)\(shown)"
  }

  // MARK: - Tokens

  private func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  private func isLetter(_ byte: UInt8) -> Bool {
    (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
  }

  /// The number in ``lookahead``, taken, when what follows it (blanks left out) cannot add to
  /// it at the level that asks: for a sum (`endingSum`), the end, `)`, `,`, `;` or `#`; for a
  /// unary operand, anything but `^`, `*` (`**`), `!` and `%`. `nil`, taking nothing,
  /// otherwise: the grammar's levels read it then. What follows is lexed later, as it would
  /// have been, so an error there is the same error.
  private mutating func takeNumber(endingSum: Bool) -> FormulaNode? {
    guard let token = lookahead else { return nil }
    var after = token.end
    while after < bytes.count, bytes[after] == 0x20 || bytes[after] == 0x09 { after += 1 }
    if after < bytes.count {
      let byte = bytes[after]
      if endingSum {
        guard
          byte == UInt8(ascii: ")") || byte == UInt8(ascii: ",") || byte == UInt8(ascii: ";")
            || byte == UInt8(ascii: "#")
        else { return nil }
      } else if byte == UInt8(ascii: "^") || byte == UInt8(ascii: "*")
        || byte == UInt8(ascii: "!") || byte == UInt8(ascii: "%")
      {
        return nil
      }
    }
    take()
    return .number(FormulaSpan(token.start..<token.end))
  }

  /// Takes the token in ``lookahead``.
  mutating func take() {
    previous = lookahead
    lookahead = nil
  }

  /// The next token, read if it was not.
  mutating func peek() throws(FormulaError) -> Token {
    if let lookahead { return lookahead }
    let token = try lex()
    lookahead = token
    return token
  }

  /// Reads the token at ``index``.
  private mutating func lex() throws(FormulaError) -> Token {
    while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
    let start = index
    guard index < bytes.count, bytes[index] != UInt8(ascii: "#") else {
      return Token(kind: .end, start: start, end: start)
    }
    let byte = bytes[index]
    func single(_ kind: Token.Kind, width: Int = 1) -> Token {
      index += width
      return Token(kind: kind, start: start, end: start + width)
    }
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return try lexNumber()
    case UInt8(ascii: "."):
      if index + 1 < bytes.count, isDigit(bytes[index + 1]) { return try lexNumber() }
      throw FormulaError(
        "a point with no digits at column \(column(start))", column: column(start))
    case UInt8(ascii: "+"): return single(.plus)
    case UInt8(ascii: "-"): return single(.minus)
    case UInt8(ascii: "*"):
      if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
        return single(.power, width: 2)
      }
      return single(.times)
    case UInt8(ascii: "/"): return single(.divide)
    case UInt8(ascii: "^"): return single(.power)
    case UInt8(ascii: "!"): return single(.bang)
    case UInt8(ascii: "%"): return single(.percent)
    case UInt8(ascii: "("): return single(.open)
    case UInt8(ascii: ")"): return single(.close)
    case UInt8(ascii: ","), UInt8(ascii: ";"): return single(.separator)
    case UInt8(ascii: "$"): return try lexReference()
    case UInt8(ascii: "="):
      var after = index + 1
      while after < bytes.count, bytes[after] == 0x20 || bytes[after] == 0x09 { after += 1 }
      if after == bytes.count || bytes[after] == UInt8(ascii: "#") {
        index = bytes.count
        return Token(kind: .end, start: start, end: start)
      }
      throw FormulaError(
        "= may only end a formula, at column \(column(start))", column: column(start))
    default:
      if isLetter(byte) { return try lexWord() }
      return try lexSymbol()
    }
  }

  /// A number: digits, a point, digits, and an exponent (`e`/`E` directly after the digits and
  /// directly followed by digits, or by a sign and digits).
  private mutating func lexNumber() throws(FormulaError) -> Token {
    let start = index
    while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
      if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
        throw FormulaError(
          "two decimal points in one number at column \(column(index))", column: column(index))
      }
    }
    if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
      var digits = index + 1
      if digits < bytes.count,
        bytes[digits] == UInt8(ascii: "-") || bytes[digits] == UInt8(ascii: "+")
      {
        digits += 1
      }
      if digits < bytes.count, isDigit(bytes[digits]) {
        index = digits
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
      }
    }
    let number = FormulaNumber(start..<index, in: bytes)
    if number.digitCount > ScientificEntry.maximumDigits {
      throw FormulaError(
        "a number has at most \(ScientificEntry.maximumDigits) digits at column \(column(start))",
        column: column(start))
    }
    if number.exponent.count > ScientificEntry.maximumExponentDigits {
      var digits = start
      while bytes[digits] | 0x20 != UInt8(ascii: "e") { digits += 1 }
      digits +=
        bytes[digits + 1] == UInt8(ascii: "-") || bytes[digits + 1] == UInt8(ascii: "+") ? 2 : 1
      throw FormulaError(
        "an exponent has at most \(ScientificEntry.maximumExponentDigits) digits at column \(column(digits))",
        column: column(digits))
    }
    return Token(kind: .number, start: start, end: index)
  }

  /// `$N`.
  private mutating func lexReference() throws(FormulaError) -> Token {
    let start = index
    index += 1
    var line = 0
    while index < bytes.count, isDigit(bytes[index]) {
      let (times, overflow) = line.multipliedReportingOverflow(by: 10)
      let (sum, carry) = times.addingReportingOverflow(Int(bytes[index] - UInt8(ascii: "0")))
      line = overflow || carry ? Int.max : sum
      index += 1
    }
    guard index > start + 1 else {
      throw FormulaError(KeyText.referenceHint, column: column(start))
    }
    return Token(kind: .reference(line), start: start, end: index)
  }

  /// A word: letters, then letters and digits. A word that is no name but a name followed by
  /// digits is that name (the digits are the next token: `e2` is `e` then `2`, `mod3` is `mod`
  /// then `3`).
  private mutating func lexWord() throws(FormulaError) -> Token {
    let start = index
    while index < bytes.count, isLetter(bytes[index]) || isDigit(bytes[index]) { index += 1 }
    if let meaning = FormulaNames.meaning(of: bytes[start..<index]) {
      return Token(kind: .word(meaning), start: start, end: index)
    }
    var split = index
    while split > start, isDigit(bytes[split - 1]) {
      split -= 1
      if let meaning = FormulaNames.meaning(of: bytes[start..<split]) {
        index = split
        return Token(kind: .word(meaning), start: start, end: split)
      }
    }
    let word = String(decoding: bytes[start..<index], as: UTF8.self).lowercased()
    let at = column(start)
    let written = String(decoding: bytes[start..<index], as: UTF8.self)
    let hint = FormulaNames.hint(for: word).map { " (\($0))" } ?? ""
    throw FormulaError("unknown name '\(written)' at column \(at)\(hint)", column: at)
  }

  /// A character that is not ASCII: `π`, `√`, `∛`, `×`, `÷`, `−`; any other is an error.
  private mutating func lexSymbol() throws(FormulaError) -> Token {
    let start = index
    var iterator = bytes[start...].makeIterator()
    var decoder = UTF8()
    guard case .scalarValue(let scalar) = decoder.decode(&iterator) else {
      let hex = String(bytes[start], radix: 16, uppercase: true)
      throw FormulaError(
        "invalid UTF-8 byte \\x{\(hex)} at column \(column(start))", column: column(start))
    }
    let width = UTF8.width(scalar)
    let kind: Token.Kind
    switch scalar {
    case "π": kind = .word(.pi)
    case "√": kind = .squareRoot
    case "∛": kind = .word(.function(FormulaNames.function("cbrt")))
    case "×": kind = .times
    case "÷": kind = .divide
    case "\u{2212}": kind = .minus
    default:
      let at = column(start)
      let hints: [Unicode.Scalar: String] = [
        "@": "√ is sqrt(x) or √x", "~": "a sign is -", "[": "brackets are ( and )",
        "]": "brackets are ( and )", "{": "brackets are ( and )", "}": "brackets are ( and )",
        "²": "x² is x^2", "³": "x³ is x^3", "·": "× is *", "'": nil, "\"": nil,
      ].compactMapValues { $0 }
      let hint = hints[scalar].map { " (\($0))" } ?? ""
      throw FormulaError(
        "unknown character '\(TextEscaping.escaped(String(Character(scalar))))' at column \(at)\(hint)",
        column: at)
    }
    index += width
    return Token(kind: kind, start: start, end: index)
  }
}
