import CalcDecimal
import CalculatorEngine

/// The oracle of formulas (SPEC §12): an evaluator written from the spec's grammar alone, not
/// from the engine's parser — precedence climbing over a list of tokens, computing as it reads
/// (no tree, no key text), where the engine has a recursive descent that builds a tree and
/// compiles it into keys.
///
/// The rational operations of SPEC §2 rule 15 (+ − × ÷, percent, `mod`, integer powers, negation,
/// `abs`, `floor`, `ceil`) are exact fractions here (``Rational``); every other step calls the
/// engine's `Decimal34` function on the operands rounded to 34 digits, as the keypad does, and
/// its result is an approximation with a bound on how far an implementation that rounds each
/// step may lie from it (each step's own unit in the 34th digit, and what its operands' bounds
/// move it by, found by evaluating it again at the ends of its operands' intervals).
public enum FormulaReference {
  /// What a formula's names stand for.
  public struct Context: Sendable {
    /// The angle unit of trigonometry.
    public var unit: AngleUnit
    /// The memory, for `mr`.
    public var memory: Decimal34?
    /// The value of each `$N`.
    public var references: [Int: Decimal34]
    /// The value of `ans`.
    public var answer: Decimal34?

    public init(
      unit: AngleUnit = .degrees, memory: Decimal34? = nil, references: [Int: Decimal34] = [:],
      answer: Decimal34? = nil
    ) {
      self.unit = unit
      self.memory = memory
      self.references = references
      self.answer = answer
    }
  }

  /// A formula's value.
  public struct Value: Sendable, CustomStringConvertible {
    /// The value rounded to 34 significant digits, half to even.
    public let decimal: Decimal34
    /// Whether the value came from rational operations only, each with numerator and
    /// denominator within 120 digits (SPEC §2 rule 15): then `decimal` is the exact value
    /// rounded once.
    public let isExact: Bool
    /// How far a keypad that rounds each step may lie from `decimal`: zero when exact, `nil`
    /// when no bound is known (a step's operands' interval reached outside its domain).
    public let tolerance: Decimal34?
    /// Whether every rational result along the way was a decimal of at most 34 significant
    /// digits: then a `Decimal34` calculation that rounds each step computed each exactly.
    public let fitsDecimal34: Bool

    /// `0.5 exact`, `0.4999…9 ± 2E-34`, `1.2 ± ?`.
    public var description: String {
      let plain = DisplayFormat.plain
      let bound = isExact ? " exact" : " ± " + (tolerance.map { plain.text(for: $0) } ?? "?")
      return plain.text(for: decimal) + bound
    }
  }

  /// What a formula gives: a value or the first error, in the order the formula is read.
  public enum Outcome: Sendable {
    case value(Value)
    case error(CalculationError)
  }

  /// The outcome of `formula` in `context`; `nil` when the oracle cannot read it (a formula the
  /// tests' generator should not have written).
  public static func evaluate(_ formula: String, in context: Context = Context()) -> Outcome? {
    guard let tokens = tokens(of: formula) else { return nil }
    var evaluator = Evaluator(tokens: tokens, context: context)
    do throws(Failure) {
      let number = try evaluator.expression(above: 1)
      guard evaluator.index == tokens.count else { return nil }
      return .value(number.value)
    } catch {
      switch error {
      case .calculation(let error): return .error(error)
      case .syntax: return nil
      }
    }
  }

  // MARK: - Tokens

  enum Token: Equatable {
    case number(Rational)
    case name(String)
    case reference(Int)
    case symbol(Character)
  }

  /// The tokens of `text`, or `nil` for a character that is none.
  static func tokens(of text: String) -> [Token]? {
    let characters = Array(text)
    var tokens: [Token] = []
    var index = 0
    func isDigit(_ index: Int) -> Bool {
      index < characters.count && characters[index].isASCII && characters[index].isNumber
    }
    func isLetter(_ index: Int) -> Bool {
      index < characters.count && characters[index].isASCII && characters[index].isLetter
    }
    while index < characters.count {
      let character = characters[index]
      if character == " " || character == "\t" {
        index += 1
      } else if character == "#" {
        break
      } else if isDigit(index) || (character == "." && isDigit(index + 1)) {
        // Digits, a point, digits; an exponent when e is followed by digits or a sign and digits.
        var digits = ""
        var scale = 0
        while isDigit(index) {
          digits.append(characters[index])
          index += 1
        }
        if index < characters.count, characters[index] == "." {
          index += 1
          while isDigit(index) {
            digits.append(characters[index])
            scale += 1
            index += 1
          }
        }
        if index < characters.count, characters[index] == "e" || characters[index] == "E" {
          var after = index + 1
          var sign = 1
          if after < characters.count, characters[after] == "-" || characters[after] == "+" {
            sign = characters[after] == "-" ? -1 : 1
            after += 1
          }
          if isDigit(after) {
            var exponent = 0
            while isDigit(after) {
              exponent = exponent * 10 + characters[after].wholeNumberValue!
              after += 1
            }
            scale -= sign * exponent
            index = after
          }
        }
        var mantissa = BigInt.zero
        for digit in digits { mantissa = mantissa * .ten + BigInt(digit.wholeNumberValue!) }
        tokens.append(
          .number(
            scale >= 0
              ? Rational(mantissa, BigInt.powerOfTen(scale))
              : Rational(mantissa * BigInt.powerOfTen(-scale), .one)))
      } else if isLetter(index) {
        var word = ""
        while isLetter(index) || isDigit(index) {
          word.append(Character(characters[index].lowercased()))
          index += 1
        }
        if names.contains(word) {
          tokens.append(.name(word))
          continue
        }
        // A name and digits: the digits are a number of their own.
        guard
          let split = (1..<word.count).reversed().first(where: { cut in
            names.contains(String(word.prefix(cut))) && word.dropFirst(cut).allSatisfy(\.isNumber)
          })
        else { return nil }
        tokens.append(.name(String(word.prefix(split))))
        index -= word.count - split
      } else if character == "$" {
        index += 1
        var line = 0
        while isDigit(index) {
          line = line * 10 + characters[index].wholeNumberValue!
          index += 1
        }
        tokens.append(.reference(line))
      } else if character == "*", index + 1 < characters.count, characters[index + 1] == "*" {
        tokens.append(.symbol("^"))
        index += 2
      } else if character == "=" {
        // Only at the end.
        index += 1
      } else {
        let symbols: [Character: Token] = [
          "+": .symbol("+"), "-": .symbol("-"), "−": .symbol("-"), "*": .symbol("*"),
          "×": .symbol("*"), "/": .symbol("/"), "÷": .symbol("/"), "^": .symbol("^"),
          "!": .symbol("!"), "%": .symbol("%"), "(": .symbol("("), ")": .symbol(")"),
          ",": .symbol(","), ";": .symbol(","), "√": .symbol("√"), "∛": .name("cbrt"),
          "π": .name("pi"),
        ]
        guard let token = symbols[character] else { return nil }
        tokens.append(token)
        index += 1
      }
    }
    return tokens
  }

  /// The names of SPEC §12.
  static let functions: Set<String> = [
    "sin", "cos", "tan", "sec", "csc", "cot", "asin", "acos", "atan", "asec", "acsc", "acot",
    "sinh", "cosh", "tanh", "sech", "csch", "coth", "asinh", "acosh", "atanh", "asech", "acsch",
    "acoth", "ln", "log", "abs", "floor", "ceil", "cube", "cbrt", "pow10", "pow2", "powe", "dms",
    "degrees", "fact", "sqrt", "exp", "root",
  ]
  static let names: Set<String> = functions.union(["pi", "e", "mr", "ans", "mod"])

  // MARK: - Evaluation

  enum Failure: Error {
    case calculation(CalculationError)
    case syntax
  }

  /// A number as the oracle carries it.
  struct Number {
    /// The exact value, when every step so far was rational.
    var exact: Rational?
    /// The value rounded to 34 digits.
    var decimal: Decimal34
    /// How far a keypad that rounds each step may lie from `decimal` (zero when exact).
    var tolerance: Decimal34?
    /// Whether every rational result so far was a decimal of at most 34 digits.
    var fits: Bool
    /// Whether a rational result so far had more than 120 digits.
    var tooLong: Bool

    init(exact: Rational, after inputs: [Number] = []) {
      self.exact = exact
      decimal = exact.decimal
      tolerance = .zero
      fits = inputs.allSatisfy(\.fits) && exact.fitsDecimal34
      tooLong = inputs.contains(where: \.tooLong) || exact.digitCount > 120
    }

    init(approximate decimal: Decimal34, tolerance: Decimal34?, after inputs: [Number] = []) {
      exact = nil
      self.decimal = decimal
      self.tolerance = tolerance
      fits = inputs.allSatisfy(\.fits)
      tooLong = inputs.contains(where: \.tooLong)
    }

    var value: Value {
      // A fraction beyond 120 digits is rounded by the keypad, where the oracle has no bound.
      Value(
        decimal: decimal, isExact: exact != nil && !tooLong,
        tolerance: exact != nil ? (tooLong ? nil : .zero) : tolerance, fitsDecimal34: fits)
    }
  }

  struct Evaluator {
    let tokens: [Token]
    let context: Context
    var index = 0
    /// X of `Y%` right after a binary `+` or `-`: the value before that operator, until the
    /// next operand starts.
    var percentBase: Number?

    init(tokens: [Token], context: Context) {
      self.tokens = tokens
      self.context = context
    }

    var next: Token? { index < tokens.count ? tokens[index] : nil }

    mutating func expect(_ symbol: Character) throws(Failure) {
      guard next == .symbol(symbol) else { throw .syntax }
      index += 1
    }

    /// Binary operators: precedence, whether right-associative; implied × where §12 lists it.
    func binary() -> (precedence: Int, right: Bool, op: String)? {
      switch next {
      case .symbol("+"): (1, false, "+")
      case .symbol("-"): (1, false, "-")
      case .symbol("*"): (2, false, "*")
      case .symbol("/"): (2, false, "/")
      case .name("mod"): (2, false, "mod")
      case .symbol("^"): (4, true, "^")
      case .symbol("("), .symbol("√"), .reference, .name: (2, false, "implied")
      default: nil
      }
    }

    /// Precedence climbing: an operand, then operators of at least `minimum` precedence.
    mutating func expression(above minimum: Int) throws(Failure) -> Number {
      var left = try unary()
      while let (precedence, right, op) = binary(), precedence >= minimum {
        if op != "implied" { index += 1 }
        percentBase = op == "+" || op == "-" ? left : nil
        let operand = try expression(above: right ? precedence : precedence + 1)
        left = try apply(op, left, operand)
      }
      return left
    }

    /// A prefix `-`, `+` or `√` applies to what binds tighter: an operand and its `^`.
    mutating func unary() throws(Failure) -> Number {
      guard case .symbol(let symbol) = next, symbol == "-" || symbol == "+" || symbol == "√" else {
        return try postfix()
      }
      index += 1
      percentBase = nil
      let operand = try expression(above: 4)
      switch symbol {
      case "-": return negate(operand)
      case "+": return operand
      default:
        return try approximate([operand]) {
          Decimal34.squareRoot($0[0]).map { .success($0) } ?? .failure(.invalidInput)
        }
      }
    }

    /// A primary, then `!` and `%`.
    mutating func postfix() throws(Failure) -> Number {
      let base = percentBase
      percentBase = nil
      var value = try primary()
      while true {
        if next == .symbol("!") {
          index += 1
          value = try approximate([value]) { Decimal34.factorial($0[0]) }
        } else if next == .symbol("%") {
          index += 1
          value = try percent(value, of: base)
        } else {
          return value
        }
      }
    }

    mutating func primary() throws(Failure) -> Number {
      guard let token = next else { throw .syntax }
      index += 1
      switch token {
      case .number(let rational):
        return try bounded(Number(exact: rational))
      case .reference(let line):
        guard let value = context.references[line] else { throw .syntax }
        return Number(exact: Rational(value))
      case .symbol("("):
        let inner = try expression(above: 1)
        try expect(")")
        return inner
      case .name("pi"): return Number(approximate: .pi, tolerance: .zero)
      case .name("e"): return Number(approximate: .e, tolerance: .zero)
      case .name("mr"):
        guard let memory = context.memory else { throw .syntax }
        return Number(exact: Rational(memory))
      case .name("ans"):
        guard let answer = context.answer else { throw .syntax }
        return Number(exact: Rational(answer))
      case .name(let name) where FormulaReference.functions.contains(name):
        try expect("(")
        var arguments = [try expression(above: 1)]
        while next == .symbol(",") {
          index += 1
          arguments.append(try expression(above: 1))
        }
        try expect(")")
        return try call(name, arguments)
      default:
        throw .syntax
      }
    }

    // MARK: Operations

    func negate(_ x: Number) -> Number {
      if let exact = x.exact { return Number(exact: -exact, after: [x]) }
      return Number(approximate: -x.decimal, tolerance: x.tolerance, after: [x])
    }

    mutating func apply(_ op: String, _ x: Number, _ y: Number) throws(Failure) -> Number {
      switch op {
      case "+":
        if let a = x.exact, let b = y.exact {
          return try bounded(Number(exact: a + b, after: [x, y]))
        }
        return try approximate([x, y]) { .success($0[0] + $0[1]) }
      case "-":
        if let a = x.exact, let b = y.exact {
          return try bounded(Number(exact: a - b, after: [x, y]))
        }
        return try approximate([x, y]) { .success($0[0] - $0[1]) }
      case "*", "implied":
        if let a = x.exact, let b = y.exact {
          return try bounded(Number(exact: a * b, after: [x, y]))
        }
        return try approximate([x, y]) { .success($0[0] * $0[1]) }
      case "/":
        if let a = x.exact, let b = y.exact {
          guard !b.isZero else { throw .calculation(a.isZero ? .undefined : .divideByZero) }
          return try bounded(Number(exact: a / b, after: [x, y]))
        }
        return try approximate([x, y]) { operands in
          Decimal34.dividing(operands[0], by: operands[1]).map { .success($0) }
            ?? .failure(operands[0].isZero ? .undefined : .divideByZero)
        }
      case "mod":
        if let a = x.exact, let b = y.exact {
          if b.isZero { return x }
          return try bounded(Number(exact: a - b * (a / b).floor, after: [x, y]))
        }
        return try approximate([x, y]) { Decimal34.floorMod($0[0], $0[1]) }
      case "^":
        if let a = x.exact, let b = y.exact, b.isInteger, let n = b.numerator.uint128, n <= 64 {
          if a.isZero && b.isNegative { throw .calculation(.invalidInput) }
          var power = Rational(.one, .one)
          for _ in 0..<Int(n) { power = power * a }
          if b.isNegative { power = Rational(.one, .one) / power }
          return try bounded(Number(exact: power, after: [x, y]))
        }
        return try approximate([x, y]) { Decimal34.power($0[0], $0[1]) }
      default:
        throw .syntax
      }
    }

    /// `Y%`: X·Y/100 with `base` X, else Y/100.
    mutating func percent(_ y: Number, of base: Number?) throws(Failure) -> Number {
      let hundred = Decimal34(coefficient: 100, exponent: 0)
      guard let base else {
        if let exact = y.exact { return try bounded(Number(exact: exact / .hundred, after: [y])) }
        return try approximate([y]) { .success(Decimal34.dividing($0[0], by: hundred)!) }
      }
      if let a = base.exact, let b = y.exact {
        return try bounded(Number(exact: a * b / .hundred, after: [base, y]))
      }
      return try approximate([y, base]) {
        .success(Decimal34.dividing($0[0] * $0[1], by: hundred)!)
      }
    }

    mutating func call(_ name: String, _ arguments: [Number]) throws(Failure) -> Number {
      let x = arguments[0]
      if arguments.count == 2 {
        switch name {
        case "log": return try approximate(arguments) { Decimal34.log($0[0], base: $0[1]) }
        case "root": return try approximate(arguments) { Decimal34.root($0[0], index: $0[1]) }
        default: throw .syntax
        }
      }
      guard name != "root" else { throw .syntax }
      if let trig = TrigFunction.allCases.first(where: { "\($0)" == name }) {
        let unit = context.unit
        return try approximate([x]) { operands in
          // The keypad refuses any trigonometric key from 10^100 on (SPEC §9).
          if let magnitude = operands[0].magnitudeExponent, magnitude >= 100 {
            return .failure(.invalidInput)
          }
          return Decimal34.trig(trig, operands[0], unit: unit)
        }
      }
      switch name {
      case "abs":
        if let exact = x.exact {
          return Number(exact: exact.isNegative ? -exact : exact, after: [x])
        }
        return Number(
          approximate: x.decimal.isNegative ? -x.decimal : x.decimal, tolerance: x.tolerance,
          after: [x])
      case "floor", "ceil":
        let up = name == "ceil"
        if let exact = x.exact {
          return Number(exact: up ? -(-exact).floor : exact.floor, after: [x])
        }
        return try approximate([x]) { .success(up ? $0[0].ceiling : $0[0].floor) }
      case "ln": return try approximate([x]) { Decimal34.ln($0[0]) }
      case "log": return try approximate([x]) { Decimal34.log10($0[0]) }
      case "exp", "powe": return try approximate([x]) { Decimal34.exp($0[0]) }
      case "pow10": return try approximate([x]) { Decimal34.pow10($0[0]) }
      case "pow2": return try approximate([x]) { Decimal34.pow2($0[0]) }
      case "cube": return try approximate([x]) { Decimal34.cube($0[0]) }
      case "cbrt": return try approximate([x]) { Decimal34.cubeRoot($0[0]) }
      case "dms": return try approximate([x]) { Decimal34.dms($0[0]) }
      case "degrees": return try approximate([x]) { Decimal34.degrees($0[0]) }
      case "fact": return try approximate([x]) { Decimal34.factorial($0[0]) }
      case "sqrt":
        return try approximate([x]) {
          Decimal34.squareRoot($0[0]).map { .success($0) } ?? .failure(.invalidInput)
        }
      default: throw .syntax
      }
    }

    /// `number`, or Overflow beyond Scientific mode's limits (SPEC §9).
    func bounded(_ number: Number) throws(Failure) -> Number {
      let magnitude = number.exact.map(\.magnitudeExponent) ?? number.decimal.magnitudeExponent
      if let magnitude, magnitude >= 10000 || magnitude < -9999 {
        throw .calculation(.overflow)
      }
      return number
    }

    /// The step `function` on the operands rounded to 34 digits, with its bound: a unit in the
    /// 34th digit of the result, and how far the ends of each operand's interval move it.
    func approximate(
      _ inputs: [Number], _ function: ([Decimal34]) -> Result<Decimal34, FunctionError>
    ) throws(Failure) -> Number {
      let operands = inputs.map(\.decimal)
      let result: Decimal34
      switch function(operands) {
      case .success(let value): result = value
      case .failure(let error): throw .calculation(CalculationError(error))
      }
      var tolerance: Decimal34? = unit(result)
      for (position, input) in inputs.enumerated() {
        guard let bound = input.tolerance, tolerance != nil else {
          tolerance = nil
          break
        }
        if bound.isZero { continue }
        var widest = Decimal34.zero
        for end in [bound, -bound] {
          var moved = operands
          moved[position] = operands[position] + end
          guard case .success(let other) = function(moved) else {
            tolerance = nil
            break
          }
          let distance = other - result
          let size = distance.isNegative ? -distance : distance
          if (widest - size).isNegative { widest = size }
        }
        tolerance = tolerance.map { $0 + widest }
      }
      return try bounded(Number(approximate: result, tolerance: tolerance, after: inputs))
    }

    /// A unit in the 34th significant digit of `value`; zero for zero.
    func unit(_ value: Decimal34) -> Decimal34 {
      guard let magnitude = value.magnitudeExponent else { return .zero }
      return Decimal34(coefficient: 1, exponent: magnitude - 33)
    }
  }
}

extension CalculationError {
  /// The error a function's failure shows.
  init(_ error: FunctionError) {
    switch error {
    case .invalidInput: self = .invalidInput
    case .divideByZero: self = .divideByZero
    case .undefined: self = .undefined
    case .overflow: self = .overflow
    }
  }
}
