import CalcDecimal
import CalcTestSupport
import Testing

/// Issue 48's property: for random sequences of rational operations, calc's `Number` agrees
/// with the oracle (`ModelNumber` over `Fraction`, CalcTestSupport) after every step — the same
/// mark (exact or rounded), the same exact fraction or the same 34-digit value — and at the end
/// of each sequence on the 34-digit rounding and the display's roundings.
///
/// Four kinds of sequence, as in `Scripts/fraction-reference.py`: dividing by 3, 7, 9, 11, 13
/// and multiplying back; sums of numbers of very different magnitudes; every rational
/// operation (+ − × ÷, integer powers, mod, both percent forms, x², 1/x, negation, floor, and
/// the roots of squares and cubes); and long runs of divisions past the 120-digit cap, then more
/// steps on the rounded value. A few hundred sequences in `swift test`, 10,000 with
/// `CALC_LONG_TESTS=1`; each failure names its seed.
@Suite struct NumberPropertyTests {
  /// One operation, applied to both sides.
  enum Operation: CustomStringConvertible {
    case add(String), subtract(String), multiply(String), divide(String)
    case power(Int), mod(String), percentOf(String), hundredth
    case square, reciprocal, negate, floor, rootOfSquare, rootOfCube

    var description: String {
      switch self {
      case .add(let x): "+\(x)"
      case .subtract(let x): "-\(x)"
      case .multiply(let x): "*\(x)"
      case .divide(let x): "/\(x)"
      case .power(let n): "^\(n)"
      case .mod(let x): "m\(x)"
      case .percentOf(let x): "p\(x)"
      case .hundredth: "hund"
      case .square: "sq"
      case .reciprocal: "inv"
      case .negate: "neg"
      case .floor: "floor"
      case .rootOfSquare: "sqrt(sq)"
      case .rootOfCube: "cbrt(cube)"
      }
    }
  }

  static let divisors = [3, 7, 9, 11, 13]

  /// A decimal of 1 to 16 digits, the point anywhere; with `wide`, half of them scaled by
  /// 10^-35 … 10^30.
  static func decimal(_ random: inout SplitMix64, wide: Bool = false) -> String {
    let count = random.int(1...16)
    var digits = String(random.int(1...9))
    for _ in 1..<count { digits += String(random.below(10)) }
    let point = random.below(count + 1)
    var text =
      point == count
      ? digits
      : (point == 0 ? "0" : String(digits.prefix(point))) + "." + digits.dropFirst(point)
    if wide, random.chance(50) { text += "E\(random.int(-35...30))" }
    if random.chance(20) { text = "-" + text }
    return text
  }

  /// A sequence of the given kind: a start value and its operations.
  static func sequence(_ kind: Int, _ random: inout SplitMix64) -> (String, [Operation]) {
    var operations: [Operation] = []
    switch kind {
    case 0:  // thirds
      var pending: [Int] = []
      for _ in 0..<random.int(2...14) {
        if !pending.isEmpty, random.chance(45) {
          operations.append(.multiply(String(pending.remove(at: random.below(pending.count)))))
        } else if random.chance(70) {
          let d = divisors[random.below(divisors.count)]
          pending.append(d)
          operations.append(.divide(String(d)))
        } else {
          let x = decimal(&random)
          operations.append(random.chance(50) ? .add(x) : .subtract(x))
        }
      }
      operations += pending.map { .multiply(String($0)) }
      return (decimal(&random), operations)
    case 1:  // magnitudes
      for _ in 0..<random.int(2...8) {
        if random.chance(30) {
          operations.append(.divide(String(divisors[random.below(divisors.count)])))
        } else {
          let x = decimal(&random, wide: true)
          operations.append(random.chance(50) ? .add(x) : .subtract(x))
        }
      }
      return (decimal(&random, wide: true), operations)
    case 2:  // every rational operation
      for _ in 0..<random.int(1...10) {
        let c = random.below(100)
        let x = decimal(&random)
        switch c {
        case 0..<9: operations.append(.add(x))
        case 9..<18: operations.append(.subtract(x))
        case 18..<27: operations.append(.multiply(x))
        case 27..<36: operations.append(.divide(x))
        case 36..<50:
          operations.append(.divide(String(divisors[random.below(divisors.count)])))
        case 50..<58: operations.append(.power(random.int(-3...4)))
        case 58..<65: operations.append(.mod(x))
        case 65..<72: operations.append(.percentOf(x))
        case 72..<76: operations.append(.hundredth)
        case 76..<80: operations.append(.square)
        case 80..<84: operations.append(.reciprocal)
        case 84..<88: operations.append(.negate)
        case 88..<92: operations.append(.floor)
        case 92..<96: operations.append(.rootOfSquare)
        default: operations.append(.rootOfCube)
        }
      }
      return (decimal(&random), operations)
    default:  // past the cap
      let steps: [Operation] = [
        .divide("7"), .divide("13"), .divide("3"), .divide("11"), .multiply("1.1"),
        .divide("1.7"), .add("0.5"),
      ]
      for _ in 0..<random.int(30...90) { operations.append(steps[random.below(steps.count)]) }
      let after: [Operation] = [
        .multiply("7"), .multiply("13"), .add("1"), .subtract("1E-30"), .square, .reciprocal,
        .power(2),
      ]
      for _ in 0..<random.int(1...6) { operations.append(after[random.below(after.count)]) }
      return (decimal(&random), operations)
    }
  }

  /// The operation on the model, or `nil` where it is not allowed (÷0, 0^-n) or not modelled
  /// (a root of a square or cube that is not exact).
  static func apply(_ operation: Operation, _ x: ModelNumber) -> ModelNumber? {
    func y(_ text: String) -> ModelNumber { ModelNumber(exact: Fraction(decimal: text)) }
    switch operation {
    case .add(let t): return x + y(t)
    case .subtract(let t): return x - y(t)
    case .multiply(let t): return x * y(t)
    case .divide(let t): return x / y(t)
    case .power(let n): return x.power(n)
    case .mod(let t): return ModelNumber.floorMod(x, y(t))
    case .percentOf(let t): return y(t).percent(of: x)
    case .hundredth: return ModelNumber.step(x.value / Fraction(100), rounded: x.isRounded)
    case .square: return x * x
    case .reciprocal: return ModelNumber(exact: .one) / x
    case .negate: return -x
    case .floor: return ModelNumber.step(x.value.floor, rounded: x.isRounded)
    case .rootOfSquare:
      let square = x * x
      return square.isRounded ? nil : ModelNumber(exact: x.value.magnitude)
    case .rootOfCube:
      let cube = x * x * x
      return cube.isRounded ? nil : x
    }
  }

  /// The operation on a `Number`.
  static func apply(_ operation: Operation, _ x: Number) -> Number {
    func y(_ text: String) -> Number { NumberText.number(text) }
    switch operation {
    case .add(let t): return x + y(t)
    case .subtract(let t): return x - y(t)
    case .multiply(let t): return x * y(t)
    case .divide(let t): return Number.dividing(x, by: y(t))!
    case .power(let n): return try! Number.power(x, Number(n)).get()
    case .mod(let t): return try! Number.floorMod(x, y(t)).get()
    case .percentOf(let t): return y(t).percent(of: x)
    case .hundredth: return x.percent
    case .square: return x.squared
    case .reciprocal: return x.reciprocal!
    case .negate: return -x
    case .floor: return x.floor
    case .rootOfSquare: return Number.squareRoot(x.squared)!
    case .rootOfCube: return try! Number.cubeRoot(try! Number.cube(x).get()).get()
    }
  }

  /// Whether the two agree: the mark, and the exact fraction or the 34-digit value.
  static func agree(_ number: Number, _ model: ModelNumber) -> Bool {
    guard number.isRounded == model.isRounded else { return false }
    if model.isRounded {
      let (c, e) = model.value.rounded(toSignificantDigits: 34)
      return NumberText.text(number.decimalValue) == Fraction.text(c, e)
    }
    return (number.isZero ? "0" : number.fractionText) == model.value.description
  }

  /// Runs `count` sequences of `kind`, the random stream seeded by `seed`.
  static func check(kind: Int, count: Int, seed: UInt64) {
    var random = SplitMix64(state: seed)
    for index in 0..<count {
      let state = random.state
      let (start, operations) = sequence(kind, &random)
      var model = ModelNumber(exact: Fraction(decimal: start))
      var number = NumberText.number(start)
      var done: [String] = [start]
      for operation in operations {
        guard let next = apply(operation, model) else { continue }
        model = next
        number = apply(operation, number)
        done.append(operation.description)
        guard agree(number, model) else {
          Issue.record(
            "sequence \(index) of kind \(kind) (SplitMix64 state \(state)): \(done.joined(separator: " ")) gives \(number.exactText()), the model \(model)"
          )
          return
        }
      }
      let value = model.value
      let context = Comment(rawValue: "state \(state): \(done.joined(separator: " "))")
      let r34 = value.rounded(toSignificantDigits: 34)
      #expect(NumberText.text(number.decimalValue) == Fraction.text(r34.0, r34.1), context)
      let d8 = value.rounded(toFractionDigits: 8, significantDigits: 34)
      #expect(
        NumberText.text(number.rounded(toFractionDigits: 8)) == Fraction.text(d8.0, d8.1), context)
      let s9 = value.rounded(toSignificantDigits: 9)
      #expect(
        NumberText.text(number.rounded(toSignificantDigits: 9)) == Fraction.text(s9.0, s9.1),
        context)
      if !model.isRounded, let expansion = value.expansion(limit: 1000) {
        let text = value.isInteger ? value.description : "\(value) = \(expansion)"
        #expect(number.exactText() == text, context)
      }
    }
  }

  @Test func dividingAndMultiplyingBack() {
    Self.check(kind: 0, count: TestSize.count(short: 60, long: 3_000), seed: 0x48_0001)
  }

  @Test func sumsOfDifferentMagnitudes() {
    Self.check(kind: 1, count: TestSize.count(short: 40, long: 2_000), seed: 0x48_0002)
  }

  @Test func everyRationalOperation() {
    Self.check(kind: 2, count: TestSize.count(short: 60, long: 4_500), seed: 0x48_0003)
  }

  @Test func pastTheCap() {
    Self.check(kind: 3, count: TestSize.count(short: 2, long: 500), seed: 0x48_0004)
  }
}

/// A step with a rounded operand and an exact fraction (SPEC §2 rule 15): its exact result
/// rounded once to 34 digits, also when the two are hundreds of places apart (where `Number`
/// does not make 10^k: a decimal far above a fraction is the sum; a fraction far above a decimal
/// rounds as with a stand-in of the decimal's sign).
@Suite struct RoundedOperandTests {
  /// The model's step with a rounded operand.
  static func expected(_ exact: Fraction) -> String {
    let (c, e) = exact.rounded(toSignificantDigits: 34)
    return Fraction.text(c, e)
  }

  @Test func roundedAndFraction() {
    var random = SplitMix64(state: 0x48_0005)
    let exponents = [-1300, -700, -400, -130, -40, -8, 0, 5, 30, 100, 200, 700, 1300]
    for _ in 0..<TestSize.count(short: 24, long: 1_000) {
      // A rounded value: 34 random digits at a random scale, either sign.
      var digits = String(random.int(1...9))
      for _ in 1..<34 { digits += String(random.below(10)) }
      let exponent = exponents[random.below(exponents.count)] - 33
      let negative = random.chance(50)
      let r = Number(
        rounded: Decimal34(
          coefficient: UInt128(digits)!, exponent: exponent, isNegative: negative))
      let rModel = Fraction.scaled(ModelInteger((negative ? "-" : "") + digits), exponent)
      // An exact fraction p/q, p and q of up to 34 digits.
      func integer(_ count: Int) -> String {
        var text = String(random.int(1...9))
        for _ in 1..<count { text += String(random.below(10)) }
        return text
      }
      let (p, q) = (integer(random.int(1...34)), integer(random.int(1...34)))
      let f = Number.dividing(
        NumberText.number((random.chance(30) ? "-" : "") + p), by: NumberText.number(q))!
      guard !f.isZero, let fText = f.fractionText else { continue }
      let parts = fText.split(separator: "/").map { ModelInteger(String($0)) }
      let fModel = Fraction(parts[0], parts.count > 1 ? parts[1] : .one)
      let context = Comment(rawValue: "\(r.exactText()) and \(fText)")
      #expect(NumberText.text((r + f).decimalValue) == Self.expected(rModel + fModel), context)
      #expect(NumberText.text((f - r).decimalValue) == Self.expected(fModel - rModel), context)
      #expect(NumberText.text((r * f).decimalValue) == Self.expected(rModel * fModel), context)
      #expect(
        NumberText.text(Number.dividing(f, by: r)!.decimalValue)
          == Self.expected(fModel / rModel), context)
      #expect((r + f).isRounded && (r * f).isRounded, context)
    }
  }
}
