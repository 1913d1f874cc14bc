/// Random formulas in the language of SPEC §12, for the property tests: every level of the
/// grammar (sums, products with `mod` and implied ×, prefix `-` `+` `√`, `^` with signed
/// exponents, `!` and `%`, numbers in every form, constants, `mr`, `$N`, `ans`, brackets and every
/// function), with the spellings people use (`×`, `÷`, `−`, `**`, `π`, `;`, upper case, blanks).
///
/// Every formula it writes is valid; arguments are mostly drawn from their functions' domains,
/// so that most formulas have a value. Fully determined by its seed.
public struct FormulaGenerator {
  private var random: SplitMix64

  /// The references a formula may use (`$1`, `$2`): the caller gives them values.
  public static let referencedLines = [1, 2]

  public init(seed: UInt64) {
    random = SplitMix64(state: seed)
  }

  /// A formula, nested at most `depth` deep.
  public mutating func formula(depth: Int = 3) -> String {
    sum(depth)
  }

  private mutating func pick<T>(_ choices: [T]) -> T { choices[random.below(choices.count)] }

  private mutating func blank() -> String { random.chance(25) ? " " : "" }

  /// `left` then `right`, with a blank where they would otherwise read as one word (`pi` `mr`)
  /// or a number's exponent (`2e` `-3`).
  private static func joined(_ left: String, _ right: String) -> String {
    guard let last = left.unicodeScalars.last, let first = right.unicodeScalars.first else {
      return left + right
    }
    let isLetter = { (scalar: Unicode.Scalar) in
      scalar.isASCII && scalar.properties.isAlphabetic
    }
    if isLetter(last) && (isLetter(first) || first.properties.numericType != nil) {
      return left + " " + right
    }
    if last == "e" || last == "E", first == "+" || first == "-" || first == "−" {
      return left + " " + right
    }
    return left + right
  }

  private mutating func sum(_ depth: Int) -> String {
    var text = product(depth)
    for _ in 0..<random.below(depth > 1 ? 3 : 2) {
      let op = blank() + pick(["+", "-", "+", "-", "−"]) + blank()
      text = Self.joined(Self.joined(text, op), product(depth))
    }
    return text
  }

  private mutating func product(_ depth: Int) -> String {
    var text = unary(depth)
    for _ in 0..<random.below(3) {
      if random.chance(20) {
        // Implied ×: the right side starts with a bracket, a name, `$N` or `√`.
        text = Self.joined(text + blank(), impliedOperand(depth))
      } else {
        let op = blank() + pick(["*", "*", "/", "/", " mod ", "×", "÷"]) + blank()
        text = Self.joined(text + op, unary(depth))
      }
    }
    return text
  }

  private mutating func impliedOperand(_ depth: Int) -> String {
    switch random.below(6) {
    case 0 where depth > 0: "(" + sum(depth - 1) + ")"
    case 1: pick(["pi", "π", "e"])
    case 2: "$\(pick(FormulaGenerator.referencedLines))"
    case 3: pick(["mr", "ans"])
    case 4 where depth > 0: call(depth - 1)
    default: "√" + number()
    }
  }

  private mutating func unary(_ depth: Int) -> String {
    if random.chance(15) { return pick(["-", "-", "+", "√", "--", "-√"]) + power(depth) }
    return power(depth)
  }

  private mutating func power(_ depth: Int) -> String {
    let base = postfix(depth)
    guard random.chance(12) else { return base }
    let exponent: String
    switch random.below(8) {
    case 0: exponent = "-" + String(random.int(1...3))
    case 1: exponent = "0.5"
    case 2 where depth > 0: exponent = "(" + sum(depth - 1) + ")"
    case 3: exponent = String(random.int(0...3)) + "^" + String(random.int(0...2))
    case 4: exponent = String(random.int(1...20)) + "%"
    default: exponent = String(random.int(0...4))
    }
    return base + blank() + pick(["^", "^", "**"]) + blank() + exponent
  }

  private mutating func postfix(_ depth: Int) -> String {
    var text: String
    if random.chance(8) {
      text = String(random.int(0...12)) + "!"
    } else {
      text = atom(depth)
    }
    if random.chance(12) { text += "%" }
    return text
  }

  private mutating func atom(_ depth: Int) -> String {
    switch random.below(20) {
    case 0: return pick(["pi", "π", "e", "PI"])
    case 1: return "$\(pick(FormulaGenerator.referencedLines))"
    case 2: return pick(["mr", "ans"])
    case 3...4 where depth > 0: return "(" + sum(depth - 1) + ")"
    case 5...7 where depth > 0: return call(depth - 1)
    default: return number()
    }
  }

  /// A number in one of the forms of §12: `12`, `1.5`, `.5`, `5.`, `1.5e-3`, `2E+3`.
  public mutating func number() -> String {
    switch random.below(20) {
    case 0..<8: return String(random.int(0...20))
    case 8..<11: return String(random.int(0...999))
    case 11..<14: return String(random.int(0...99)) + "." + digits(random.int(1...3))
    case 14: return "." + digits(random.int(1...2))
    case 15: return String(random.int(1...9)) + "."
    case 16, 17:
      let sign = pick(["", "-", "+"])
      return String(random.int(1...99)) + (random.chance(50) ? "." + digits(1) : "")
        + pick(["e", "E"]) + sign + String(random.int(0...6))
    case 18: return digits(random.int(10...16))
    default: return "0." + String(repeating: "0", count: random.int(1...4)) + digits(2)
    }
  }

  private mutating func digits(_ count: Int) -> String {
    String((0..<count).map { _ in Character(String(random.below(10))) })
  }

  /// A call of one of §12's functions, its arguments mostly in its domain.
  private mutating func call(_ depth: Int) -> String {
    let any = { (generator: inout FormulaGenerator) in generator.sum(depth) }
    let unitInterval = { (generator: inout FormulaGenerator) in
      generator.pick(["0.5", "-0.5", "1", "0", "0.25", "-1", "0.9"])
    }
    let positive = { (generator: inout FormulaGenerator) in
      generator.pick(["2", "10", "0.5", "100", "3.5", "1000", "7"])
    }
    let small = { (generator: inout FormulaGenerator) in
      generator.pick(["2", "-1", "0.5", "3", "1.5", "-2.5", "0"])
    }
    let atLeastOne = { (generator: inout FormulaGenerator) in
      generator.pick(["1", "2", "-2", "1.5", "10", "-1"])
    }
    let functions: [(String, (inout FormulaGenerator) -> String)] = [
      ("sin", any), ("cos", any), ("tan", any), ("sec", any), ("csc", positive), ("cot", positive),
      ("asin", unitInterval), ("acos", unitInterval), ("atan", any), ("asec", atLeastOne),
      ("acsc", atLeastOne), ("acot", positive), ("sinh", small), ("cosh", small), ("tanh", small),
      ("sech", small), ("csch", positive), ("coth", positive), ("asinh", any),
      ("acosh", atLeastOne), ("atanh", unitInterval), ("asech", unitInterval),
      ("acsch", positive), ("acoth", atLeastOne), ("ln", positive), ("log", positive),
      ("abs", any), ("floor", any), ("ceil", any), ("cube", small), ("cbrt", any),
      ("pow10", small), ("pow2", small), ("powe", small), ("exp", small), ("dms", positive),
      ("degrees", positive), ("fact", small), ("sqrt", positive), ("∛", any),
    ]
    let comma = pick([", ", ",", "; "])
    switch random.below(12) {
    case 0: return "log(" + positive(&self) + comma + pick(["2", "10", "3", "0.5"]) + ")"
    case 1: return "root(" + any(&self) + comma + pick(["2", "3", "4", "-2", "0.5"]) + ")"
    default:
      let (name, argument) = pick(functions)
      let spelled = random.chance(10) ? name.uppercased() : name
      return spelled + "(" + argument(&self) + ")"
    }
  }
}
