// The line reader's one-pass compile of the common formula (issue 49): the keys that
// `FormulaCompiler.keys(of:in:answer:)` gives for the tree `FormulaParser.parse(_:)` reads,
// written while the text is read, with no tree, no `Formula` kept and no second walk
// (Documentation/Performance.md, "Formula lines after fx7").
//
// It reads a part of the grammar: numbers, `pi`, `e`, `( … )`, calls of one-argument functions
// (`sin(x)`, `log(x)`, `sqrt(x)`, …), prefix `-` and `+`, `^` (`**`), and `+ - * /` (`×`, `÷`,
// `−`), nested at most ``FormulaParser/compiledDepth`` deep. Anything else — implied ×, `mod`,
// `!`, `%`, `√`, `mr`, `ans`, `$N`, `log(x, b)`, `root(x, n)`, deeper nesting, an error — gives
// `nil`, and the caller reads the formula as before (`Formula.init`): so every error, note and
// column is the parser's own, and what this compile accepts it writes as the compiler would.
// `FormulaKeysTests` compares the two on every formula of the tests' corpus and random ones.

extension FormulaParser {
  /// How deep brackets, calls and the right sides of `^` may nest in a formula that
  /// ``compiledKeys(of:)`` compiles: with each level at most two of the keypad's brackets (a
  /// call's argument or a group, and a power under a prefix) and each bracket at most two
  /// waiting operations, the keys stay well within the keypad's 25 levels, so that the
  /// compiler's check of them (``FormulaCompiler``'s `tooDeep`) can never fire here.
  static let compiledDepth = 3

  /// A formula's keys compiled while its text is read, and its canonical text.
  struct Compiled {
    /// The keys ``FormulaCompiler/keys(of:in:answer:)`` gives, ending with `=`.
    var keys: [Key]
    /// ``Formula/canonicalText(answer:)``: the text without blanks around it and without a
    /// trailing `=`.
    var canonicalText: String
  }

  /// The keys of `text`, a whole formula, and its canonical text, when it is of the part of
  /// the grammar this file reads (see its top) and reads without an error; else `nil`.
  ///
  /// - Complexity: O(n) in the length of `text`.
  static func compiledKeys(of text: String) -> Compiled? {
    text.utf8.withContiguousStorageIfAvailable { bytes -> Compiled? in
      var parser = FormulaParser(text: text, bytes: bytes)
      var keys: [Key] = []
      keys.reserveCapacity(bytes.count + 4)
      do throws(FormulaError) {
        let first = try parser.peek()
        guard first.kind != .end else { return nil }
        _ = try parser.compileSum(into: &keys, depth: 0)
        guard try parser.peek().kind == .end else { return nil }
        keys.append(.equal)
        let end = parser.previous?.end ?? first.start
        let canonical =
          first.start == 0 && end == bytes.count
          ? text
          : String(decoding: UnsafeBufferPointer(rebasing: bytes[first.start..<end]), as: UTF8.self)
        return Compiled(keys: keys, canonicalText: canonical)
      } catch {
        return nil
      }
    } ?? nil
  }

  /// What ``compiledKeys(of:)`` does not read: the caller reads the formula as before.
  private static var unread: FormulaError { FormulaError("", column: 0) }

  /// `+ -`, left to right: the keys of each operand with the operator's key before it (a sum's
  /// operands bind tighter than `+`, so none is bracketed). Returns the keypad level of what it
  /// wrote (``FormulaCompiler/level(_:)``).
  private mutating func compileSum(into keys: inout [Key], depth: Int) throws(FormulaError)
    -> FormulaCompiler.Level
  {
    var level = try compileProduct(into: &keys, depth: depth)
    while true {
      let key: Key
      switch try peek().kind {
      case .plus: key = .op(.plus)
      case .minus: key = .op(.minus)
      default: return level
      }
      take()
      keys.append(key)
      _ = try compileProduct(into: &keys, depth: depth)
      level = .additive
    }
  }

  /// `* /`, left to right; implied ×, `mod` and two numbers in a row are not read here.
  private mutating func compileProduct(into keys: inout [Key], depth: Int) throws(FormulaError)
    -> FormulaCompiler.Level
  {
    var level = try compileUnary(into: &keys, depth: depth)
    while true {
      let key: Key
      switch try peek().kind {
      case .times: key = .op(.multiply)
      case .divide: key = .op(.divide)
      case .word, .open, .reference, .squareRoot, .number: throw FormulaParser.unread
      default: return level
      }
      take()
      keys.append(key)
      _ = try compileUnary(into: &keys, depth: depth)
      level = .multiplicative
    }
  }

  /// Prefix `-` and `+`, then a power: a number's signs typed into its entry (`~` before its
  /// exponent), else `~` after the operand, bracketed when it is a power (`(2^2)~`).
  private mutating func compileUnary(into keys: inout [Key], depth: Int) throws(FormulaError)
    -> FormulaCompiler.Level
  {
    var negations = 0
    var prefixed = false
    loop: while true {
      switch try peek().kind {
      case .minus: negations += 1
      case .plus: break
      case .squareRoot: throw FormulaParser.unread
      default: break loop
      }
      take()
      prefixed = true
    }
    guard prefixed else { return try compilePower(into: &keys, depth: depth, negations: 0).level }
    let start = keys.count
    let operand = try compilePower(into: &keys, depth: depth, negations: negations)
    if operand.typedSigns { return .value }
    if operand.level <= .power { bracket(&keys, from: start) }
    for _ in 0..<negations { keys.append(.command(.flip)) }
    return .value
  }

  /// An atom, then `^` and its right side (in brackets when it is itself a power: `2^(3^2)`);
  /// `negations`: the signs before it, typed into the atom's entry when it is a number with no
  /// `^` after it (`typedSigns`). `!` and `%` after the atom are not read here.
  private mutating func compilePower(into keys: inout [Key], depth: Int, negations: Int)
    throws(FormulaError) -> (level: FormulaCompiler.Level, typedSigns: Bool)
  {
    let typedSigns = try compileAtom(into: &keys, depth: depth, negations: negations)
    switch try peek().kind {
    case .power: break
    case .bang, .percent: throw FormulaParser.unread
    default: return (.value, typedSigns)
    }
    take()
    guard depth < FormulaParser.compiledDepth else { throw FormulaParser.unread }
    keys.append(.scientific(.binary(.power)))
    let start = keys.count
    if try compileUnary(into: &keys, depth: depth + 1) <= .power { bracket(&keys, from: start) }
    return (.power, false)
  }

  /// A number, `pi`, `e`, `( … )` or a call of a one-argument function (its argument's keys,
  /// bracketed unless they leave one value, then the function's key); returns whether the
  /// atom was a number that took `negations` signs (no `^` after it).
  private mutating func compileAtom(into keys: inout [Key], depth: Int, negations: Int)
    throws(FormulaError) -> Bool
  {
    let token = try peek()
    switch token.kind {
    case .number:
      take()
      let typesSigns = try peek().kind != .power
      FormulaCompiler.numberKeys(
        FormulaNumber(token.start..<token.end, in: bytes), negations: typesSigns ? negations : 0,
        in: bytes
      ) { keys.append($0) }
      return typesSigns
    case .word(.pi):
      take()
      keys.append(FormulaCompiler.wordKeys["pi"]!)
    case .word(.e):
      take()
      keys.append(FormulaCompiler.wordKeys["euler"]!)
    case .open:
      take()
      guard depth < FormulaParser.compiledDepth else { throw FormulaParser.unread }
      keys.append(.scientific(.bracket(.open)))
      _ = try compileInner(into: &keys, depth: depth + 1)
      keys.append(.scientific(.bracket(.close)))
    case .word(.function(let function)):
      take()
      let key: Key
      switch function {
      case .key(let index):
        let spelling = FormulaNames.keys[Int(index)]
        let first = spelling.utf8.first!
        key =
          first >= UInt8(ascii: "a") && first <= UInt8(ascii: "z")
          ? FormulaCompiler.functionKeys[Int(index)] : FormulaCompiler.symbolKey(first)
      case .log: key = FormulaCompiler.wordKeys["log"]!
      case .root: throw FormulaParser.unread
      }
      guard try peek().kind == .open, depth < FormulaParser.compiledDepth else {
        throw FormulaParser.unread
      }
      take()
      let start = keys.count
      if try compileInner(into: &keys, depth: depth + 1) <= .power { bracket(&keys, from: start) }
      keys.append(key)
    default:
      throw FormulaParser.unread
    }
    return false
  }

  /// What stands between `(` (taken) and its `)`: a sum, then the `)`, taken.
  private mutating func compileInner(into keys: inout [Key], depth: Int) throws(FormulaError)
    -> FormulaCompiler.Level
  {
    guard try peek().kind != .close else { throw FormulaParser.unread }
    let level = try compileSum(into: &keys, depth: depth)
    guard try peek().kind == .close else { throw FormulaParser.unread }
    take()
    return level
  }

  /// Puts the keys from `start` on in brackets.
  private func bracket(_ keys: inout [Key], from start: Int) {
    keys.insert(.scientific(.bracket(.open)), at: start)
    keys.append(.scientific(.bracket(.close)))
  }
}

extension Formula {
  /// The keys and canonical text of `text` as a script's line reader compiles them in one pass
  /// (``FormulaParser/compiledKeys(of:)``), when it does (the common formula: no `ans`, `$N`,
  /// `mr`, implied ×, `%` or `!`, nested at most 3 deep); `nil` for any other formula, which
  /// the reader reads as ``init(_:)`` does. The same as ``keys(answer:)`` and
  /// ``canonicalText(answer:)`` of `Formula(text)`: what the tests check.
  ///
  /// - Complexity: O(n) in the length of `text`.
  package static func compiledKeys(of text: String) -> (keys: TypedKeys, canonicalText: String)? {
    FormulaParser.compiledKeys(of: text).map { (TypedKeys($0.keys), $0.canonicalText) }
  }
}
