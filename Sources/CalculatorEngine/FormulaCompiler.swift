/// The compiler of formulas into canonical Scientific key text (SPEC §12).
///
/// A formula's operators map onto the keypad's: `+ -` (precedence 2), `* / mod` and implied ×
/// (3, the key `*` for implied ×), `^`, `root(x, n)` (`yroot`) and `log(x, b)` (`logy`) (4); a
/// prefix `-` is `~` after its operand, `√` is `@`, a function is its key after its argument. The
/// keypad groups equal levels left to right, so a bracket is written where the formula has one
/// and where the keypad would otherwise group differently: around the right operand of `^` when
/// it is itself a power (`2^(3^2)`), around the operand of `~`, `@` or a function key when it is
/// not a single value (`(2^2)~`, `(1+2)sin`), and around `Y%` where the keypad's percent would
/// take the pending operation's left operand and the formula means Y/100 (`2^(10%)`).
///
/// It also steers clear of the keypad's traps: implied × is always the key `*` (the keypad's
/// own implied ×, after a digit or `)`, is never relied on, and `pi` never multiplies), a
/// number's minus sign is typed into its entry before `exp` (`-2e3` → `2~exp3`: a `~` after
/// `exp` flips the exponent), two operators never follow each other (the keypad would replace the
/// first), numbers are written without leading zeros, trailing fraction zeros or a trailing
/// point, and the keys never need more than the keypad's 25 levels of brackets and waiting
/// operations (checked here, throwing rather than letting the keypad drop one).
struct FormulaCompiler {
  /// The keypad's precedence of a binary key.
  enum Level: Int, Comparable {
    case additive = 2, multiplicative = 3, power = 4, value = 5

    static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
  }

  /// What the keypad's percent does where a node is emitted: the class of the operation pending
  /// at that bracket level.
  enum Pending {
    /// Nothing pending: `%` is Y/100.
    case none
    /// `*` or `/` pending: `%` is Y/100.
    case multiplicative
    /// `+ - mod ^ yroot logy` pending: `%` is X·Y/100.
    case other
  }

  /// The UTF-8 of ``text``, where it is stored: what digits are copied from.
  let bytes: UnsafeBufferPointer<UInt8>
  let text: String
  /// The line number `ans` stands for.
  let answer: Int
  /// Whether the compiler writes key text (``output``) or keys (``keys``).
  let writesText: Bool
  var output: [UInt8] = []
  var keys = TypedKeys()
  /// Whether the last key written is a word (`sin`, `pow10`), and whether it is `$N`: what
  /// decides a space before the next key, as ``KeyText/append(_:references:to:)`` writes them.
  var lastIsWord = false
  var lastIsReference = false
  /// The keypad's pending operators at the innermost open bracket level, in order (each
  /// waiting for the next, of higher precedence), and those of the levels outside it; and how
  /// many entries its precedence stack holds: each open bracket and each operator waiting for
  /// one of higher precedence (Windows' `m_precedenceVals`).
  var chain: [Level] = []
  var outerChains: [[Level]] = []
  var stacked = 0
  /// The byte offset of the formula's part being compiled, for the error of too deep keys.
  var position = 0

  /// The canonical key text of `root`, a formula of `text`, ending with `=`; `ans` is
  /// `$answer`.
  ///
  /// - Complexity: O(n) in the size of the formula.
  static func keyText(
    of root: FormulaNode, in text: String, answer: Int
  ) throws(FormulaError) -> String {
    try FormulaParser.withUTF8(of: text) { bytes throws(FormulaError) in
      var compiler = FormulaCompiler(bytes: bytes, text: text, answer: answer, writesText: true)
      compiler.output.reserveCapacity(bytes.count + 8)
      try compiler.emit(root, .none)
      compiler.symbol(UInt8(ascii: "="))
      return String(decoding: compiler.output, as: UTF8.self)
    }
  }

  /// The keys of `root`, a formula of `text`: the keys that
  /// ``keyText(of:in:answer:)``'s text reads as (``KeyText/keys(in:startingIn:)`` in
  /// Scientific mode), without writing the text.
  ///
  /// - Complexity: O(n) in the size of the formula.
  static func keys(
    of root: FormulaNode, in text: String, answer: Int
  ) throws(FormulaError) -> TypedKeys {
    try FormulaParser.withUTF8(of: text) { bytes throws(FormulaError) in
      var compiler = FormulaCompiler(bytes: bytes, text: text, answer: answer, writesText: false)
      compiler.keys.reserveCapacity(bytes.count + 4)
      try compiler.emit(root, .none)
      compiler.symbol(UInt8(ascii: "="))
      return compiler.keys
    }
  }

  /// The key spelled `spelling` in Scientific key text.
  private static func key(spelled spelling: String) -> Key {
    guard let typed = try? KeyText.keys(in: spelling, startingIn: .scientific),
      typed.keys.count == 1
    else { preconditionFailure("no single key spelled \(spelling)") }
    return typed.keys[0]
  }

  /// The keys of ``FormulaNames/keys``, in order.
  static let functionKeys: [Key] = FormulaNames.keys.map(key(spelled:))
  static let wordKeys: [String: Key] = Dictionary(
    uniqueKeysWithValues: ["pi", "euler", "mr", "exp", "log", "yroot", "logy", "mod"].map {
      ($0, key(spelled: $0))
    })

  /// The error of keys that would need more than the keypad's levels.
  static func tooDeep(at column: Int) -> FormulaError {
    FormulaError(
      "too deep for the Scientific keypad at column \(column): it holds \(ScientificBrain.maximumDepth) levels of brackets and waiting operations",
      column: column)
  }

  // MARK: - Levels

  /// The keypad level of what `node` compiles to: `value` when its keys leave one value in the
  /// display and nothing pending.
  static func level(_ node: FormulaNode) -> Level {
    switch node {
    case .number, .constant, .memory, .reference, .answer, .group, .prefixed, .postfix: .value
    case .call(let function, _, let second, _, _):
      function == .root || (function == .log && second != nil) ? .power : .value
    case .chain(_, let links): links[0].op.isAdditive ? .additive : .multiplicative
    case .power: .power
    }
  }

  // MARK: - Emitting

  /// Writes the keys of `node`, with `pending` the operation waiting at this bracket level.
  mutating func emit(_ node: FormulaNode, _ pending: Pending) throws(FormulaError) {
    switch node {
    case .number(let span):
      emitNumber(span, negations: 0)
    case .constant(let constant):
      word(constant == .pi ? "pi" : "euler")
    case .memory:
      word("mr")
    case .reference(let line):
      reference(line)
    case .answer:
      reference(answer)
    case .group(let inner, let at):
      position = Int(at)
      try bracketed(inner)
    case .call(let function, let first, let second, _, let at):
      position = Int(at)
      switch function {
      case .key(let index):
        try emitOperand(first, pending)
        let key = FormulaNames.keys[Int(index)]
        if key.utf8.first.map(isLetter) == true {
          word(key, FormulaCompiler.functionKeys[Int(index)])
        } else {
          symbol(key.utf8.first!)
        }
      case .log where second == nil:
        try emitOperand(first, pending)
        word("log")
      case .log, .root:
        try emitLeft(first, pending, .power)
        try binary(function == .root ? "yroot" : "logy", .power)
        // `root(x, n)` and `log(x, b)` have their second argument (the parser checks).
        try emitRight(second!, .other, .power)
      }
    case .chain(let first, let links):
      let level = FormulaCompiler.level(node)
      try emitLeft(first, pending, level)
      for link in links {
        position = Int(link.at)
        let operandPending: Pending
        switch link.op {
        case .plus:
          try binary("+", .additive)
          operandPending = .other
        case .minus:
          try binary("-", .additive)
          operandPending = .other
        case .times, .implied:
          try binary("*", .multiplicative)
          operandPending = .multiplicative
        case .divide:
          try binary("/", .multiplicative)
          operandPending = .multiplicative
        case .mod:
          try binary("mod", .multiplicative)
          operandPending = .other
        }
        try emitRight(link.operand, operandPending, level)
      }
    case .prefixed(let prefixes, let operand):
      var outer = prefixes[...]
      if case .number(let span) = operand {
        // The signs right before a number are typed into its entry, before any `exp`.
        var negations = 0
        while let last = outer.last, last != .root {
          if last == .minus { negations += 1 }
          outer.removeLast()
        }
        emitNumber(span, negations: negations)
      } else {
        try emitOperand(operand, pending)
      }
      for prefix in outer.reversed() {
        switch prefix {
        case .minus: symbol(UInt8(ascii: "~"))
        case .plus: break
        case .root: symbol(UInt8(ascii: "@"))
        }
      }
    case .postfix(let operand, let postfixes, let percentOfLeft):
      if !percentOfLeft, pending == .other, postfixes.contains(.percent) {
        // The keypad's percent would be X·Y/100 here; in brackets it is Y/100.
        try bracketed(node)
        return
      }
      try emitOperand(operand, pending)
      for postfix in postfixes {
        symbol(UInt8(ascii: postfix == .factorial ? "!" : "%"))
      }
    case .power(let base, let exponent, let at):
      try emitLeft(base, pending, .power)
      position = Int(at)
      try binary("^", .power)
      try emitRight(exponent, .other, .power)
    }
  }

  /// Writes `node` as the left operand of an operator of `level`: in brackets if the keypad
  /// would otherwise take only part of it.
  private mutating func emitLeft(_ node: FormulaNode, _ pending: Pending, _ level: Level)
    throws(FormulaError)
  {
    if FormulaCompiler.level(node) < level {
      try bracketed(node)
    } else {
      try emit(node, pending)
    }
  }

  /// Writes `node` as the right operand of an operator of `level`: in brackets unless it binds
  /// tighter, since the keypad groups equal levels left to right.
  private mutating func emitRight(_ node: FormulaNode, _ pending: Pending, _ level: Level)
    throws(FormulaError)
  {
    if FormulaCompiler.level(node) <= level {
      try bracketed(node)
    } else {
      try emit(node, pending)
    }
  }

  /// Writes `node` as the operand of a key that acts on the display (`~`, `@`, a function, `!`,
  /// `%`): in brackets unless its keys leave a single value.
  private mutating func emitOperand(_ node: FormulaNode, _ pending: Pending) throws(FormulaError) {
    try emitRight(node, pending, .power)
  }

  /// `(`, the keys of `node`, `)`.
  private mutating func bracketed(_ node: FormulaNode) throws(FormulaError) {
    symbol(UInt8(ascii: "("))
    outerChains.append(chain)
    chain = []
    stacked += 1
    try checkDepth()
    try emit(node, .none)
    stacked -= 1 + max(0, chain.count - 1)
    chain = outerChains.removeLast()
    symbol(UInt8(ascii: ")"))
  }

  /// A binary key of `level`, as the keypad stacks it: the operators of the same or higher level
  /// waiting at this bracket level run, one of lower level waits on the stack.
  private mutating func binary(_ key: String, _ level: Level) throws(FormulaError) {
    if key.utf8.first.map(isLetter) == true {
      word(key)
    } else {
      symbol(key.utf8.first!)
    }
    let before = max(0, chain.count - 1)
    while let last = chain.last, last >= level { chain.removeLast() }
    chain.append(level)
    stacked += max(0, chain.count - 1) - before
    try checkDepth()
  }

  private func checkDepth() throws(FormulaError) {
    if stacked > ScientificBrain.maximumDepth {
      throw FormulaCompiler.tooDeep(at: FormulaError.column(of: position, in: text))
    }
  }

  /// A number's keys: its digits as the keypad's entry holds them, `negations` sign changes,
  /// then its exponent (`exp`, the digits, `~` for a negative one).
  private mutating func emitNumber(_ span: FormulaSpan, negations: Int) {
    let number = FormulaNumber(span.range, in: bytes)
    if !writesText {
      emitNumberKeys(number, negations: negations)
      return
    }
    if lastIsReference { output.append(UInt8(ascii: " ")) }
    if number.integer.isEmpty {
      output.append(UInt8(ascii: "0"))
    } else {
      output.append(contentsOf: bytes[number.integer])
    }
    if !number.fraction.isEmpty {
      output.append(UInt8(ascii: "."))
      output.append(contentsOf: bytes[number.fraction])
    }
    (lastIsWord, lastIsReference) = (false, false)
    for _ in 0..<negations { symbol(UInt8(ascii: "~")) }
    if !number.exponent.isEmpty {
      word("exp")
      output.append(contentsOf: bytes[number.exponent])
      (lastIsWord, lastIsReference) = (false, false)
      if number.exponentIsNegative { symbol(UInt8(ascii: "~")) }
    }
  }

  /// ``emitNumber(_:negations:)`` as keys.
  private mutating func emitNumberKeys(_ number: FormulaNumber, negations: Int) {
    FormulaCompiler.numberKeys(number, negations: negations, in: bytes) { keys.append($0) }
    (lastIsWord, lastIsReference) = (false, false)
  }

  /// The keys of `number`, a number of `bytes`, with `negations` sign changes typed into its
  /// entry (before its exponent), each given to `append` in order: what the compiler and the
  /// line reader's one-pass compile (``FormulaParser/compiledKeys(of:)``) both write.
  @inline(__always)
  static func numberKeys(
    _ number: FormulaNumber, negations: Int, in bytes: UnsafeBufferPointer<UInt8>,
    _ append: (Key) -> Void
  ) {
    func digit(_ byte: UInt8) -> Key { .digit(Key.Digit(rawValue: byte &- UInt8(ascii: "0"))!) }
    if number.integer.isEmpty {
      append(.digit(.zero))
    } else {
      for byte in bytes[number.integer] { append(digit(byte)) }
    }
    if !number.fraction.isEmpty {
      append(.dot)
      for byte in bytes[number.fraction] { append(digit(byte)) }
    }
    for _ in 0..<negations { append(.command(.flip)) }
    if !number.exponent.isEmpty {
      append(.scientific(.exponent))
      for byte in bytes[number.exponent] { append(digit(byte)) }
      if number.exponentIsNegative { append(.command(.flip)) }
    }
  }

  // MARK: - Writing keys

  private func isLetter(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")
  }

  /// A key spelled with letters (a space first after another such key); `key` is the key,
  /// when it is known (else looked up by its spelling).
  private mutating func word(_ spelling: String, _ key: Key? = nil) {
    if writesText {
      if lastIsWord { output.append(UInt8(ascii: " ")) }
      output.append(contentsOf: spelling.utf8)
    } else {
      keys.append(key ?? FormulaCompiler.wordKeys[spelling]!)
    }
    (lastIsWord, lastIsReference) = (true, false)
  }

  /// A key of one byte that is no letter and no digit.
  private mutating func symbol(_ byte: UInt8) {
    if writesText {
      output.append(byte)
    } else {
      keys.append(FormulaCompiler.symbolKey(byte))
    }
    (lastIsWord, lastIsReference) = (false, false)
  }

  /// The key of a one-byte symbol the compiler writes.
  static func symbolKey(_ byte: UInt8) -> Key {
    switch byte {
    case UInt8(ascii: "+"): .op(.plus)
    case UInt8(ascii: "-"): .op(.minus)
    case UInt8(ascii: "*"): .op(.multiply)
    case UInt8(ascii: "/"): .op(.divide)
    case UInt8(ascii: "="): .equal
    case UInt8(ascii: "~"): .command(.flip)
    case UInt8(ascii: "%"): .command(.percent)
    case UInt8(ascii: "@"): .unary(.squareRoot)
    case UInt8(ascii: "("): .scientific(.bracket(.open))
    case UInt8(ascii: ")"): .scientific(.bracket(.close))
    case UInt8(ascii: "^"): .scientific(.binary(.power))
    case UInt8(ascii: "!"): .scientific(.function(.factorial))
    default: preconditionFailure("no symbol key \(byte)")
    }
  }

  /// `$line`.
  private mutating func reference(_ line: Int) {
    if writesText {
      output.append(UInt8(ascii: "$"))
      output.append(contentsOf: String(line).utf8)
    } else {
      keys.appendReference(line)
    }
    (lastIsWord, lastIsReference) = (false, true)
  }
}
