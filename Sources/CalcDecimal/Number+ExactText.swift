// The text of `:exact` (SPEC §6): a fraction in lowest terms and its decimal with the
// repeating part in brackets, or `≈` and the 34 digits of a rounded value. Digits are never
// grouped; the session adds "the step that rounded it".

extension Number {
  /// The most digits of a repeating part that `:exact` shows.
  public static let exactPeriodLimit = 1000

  /// The most digits, about, that `:exact` writes out for a terminating decimal before it uses
  /// scientific notation (the cap of an exact fraction's numerator and denominator).
  public static let exactWrittenOutLimit = 120

  /// `:exact`'s text of the value: `1/3 = 0.(3)`, `1/6 = 0.1(6)`, `22/7 = 3.(142857)`,
  /// `-1/3 = -0.(3)`, `1/2 = 0.5`, an integer as itself (`12`), and for a rounded value `≈` and
  /// its 34 digits as `--plain` writes them (`≈ 1.732050807568877293527446341505872`).
  ///
  /// A repeating part longer than `maximumPeriod` digits is shown as its first `maximumPeriod`
  /// digits and `… (period longer than 1,000 digits)`, after at most `maximumPeriod` steps of
  /// long division past the part that does not repeat. A terminating decimal that would take
  /// more than ``exactWrittenOutLimit`` digits to write out (`1E-9999`, `1E+9999`: typed, never
  /// computed, since a fraction stops at 120 digits) is shown in scientific notation with every
  /// digit it has, and `(exact)`: `1E-9999 (exact)`.
  /// - Complexity: O(d + n·q) for a fraction: d its digits, n the digits written, q the limbs
  ///   of its denominator.
  public func exactText(maximumPeriod: Int = Number.exactPeriodLimit) -> String {
    if case .decimal(let value) = storage, let magnitude = value.magnitudeExponent,
      magnitude >= Number.exactWrittenOutLimit || magnitude < -Number.exactWrittenOutLimit
    {
      return value.scientificText + " (exact)"
    }
    guard let fraction = fractionText, let decimal = decimalText(maximumPeriod: maximumPeriod)
    else {
      return "≈ " + decimalValue.plainText
    }
    return isInteger ? fraction : fraction + " = " + decimal
  }

  /// The value as a fraction in lowest terms, `-1/3`, or an integer, `12`; `nil` when rounded.
  public var fractionText: String? {
    guard let (negative, p, q) = reducedFraction(exponentLimit: .max) else { return nil }
    let sign = negative ? "-" : ""
    return q.isOne ? sign + p.decimalString : sign + p.decimalString + "/" + q.decimalString
  }

  /// The exact value's decimal expansion, the repeating part in brackets: `0.1(6)`, `-0.(3)`,
  /// `2.5`, `12`; `nil` when rounded. See ``exactText(maximumPeriod:)`` for a long period.
  public func decimalText(maximumPeriod: Int = Number.exactPeriodLimit) -> String? {
    switch storage {
    case .rounded: return nil
    case .decimal(let value): return value.plainDigits
    case .small(let fraction):
      return (fraction.isNegative ? "-" : "")
        + Number.expansion(
          BigUInt(fraction.numerator), BigUInt(UInt128(fraction.denominator)),
          maximumPeriod: maximumPeriod)
    case .big(let box):
      return (box.isNegative ? "-" : "")
        + Number.expansion(box.numerator, box.denominator, maximumPeriod: maximumPeriod)
    }
  }

  /// The decimal expansion of p/q (lowest terms, q > 1): the integer part, the digits that do
  /// not repeat — as many as the larger power of 2 or 5 in q —, then the period in brackets.
  static func expansion(_ p: BigUInt, _ q: BigUInt, maximumPeriod: Int) -> String {
    let (whole, remainder) = BigUInt.divide(p, by: q)
    var text = whole.decimalDigits
    text.append(UInt8(ascii: "."))
    let leading = max(q.twos(), q.fives())
    var digits = LongDivision(remainder: remainder, divisor: q)
    for _ in 0..<leading { text.append(digits.next()) }
    guard !digits.isZero else { return String(decoding: text, as: UTF8.self) }
    // Past the leading digits the remainders repeat from the first one: the period ends where it
    // comes back.
    let start = digits.state
    text.append(UInt8(ascii: "("))
    for _ in 0..<maximumPeriod {
      text.append(digits.next())
      if digits.state == start {
        text.append(UInt8(ascii: ")"))
        return String(decoding: text, as: UTF8.self)
      }
    }
    return String(decoding: text, as: UTF8.self) + "… (period longer than "
      + Number.grouped(maximumPeriod) + " digits)"
  }

  /// `n` with `,` between groups of three digits (the count in a message, not a value).
  static func grouped(_ n: Int) -> String {
    let digits = Array(String(n).utf8)
    var result: [UInt8] = []
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { result.append(UInt8(ascii: ",")) }
      result.append(digit)
    }
    return String(decoding: result, as: UTF8.self)
  }
}

/// The digits of remainder/divisor after the point, one at a time: in machine words when the
/// divisor fits 64 bits. Internal.
struct LongDivision {
  /// The current remainder: below the divisor.
  enum State: Equatable {
    case small(UInt128)
    case big(BigUInt)
  }

  private(set) var state: State
  private let smallDivisor: UInt128
  private let divisor: BigUInt

  init(remainder: BigUInt, divisor: BigUInt) {
    self.divisor = divisor
    if let small = divisor.uint128, small <= UInt128(UInt64.max) {
      smallDivisor = small
      state = .small(remainder.uint128!)
    } else {
      smallDivisor = 0
      state = .big(remainder)
    }
  }

  var isZero: Bool {
    switch state {
    case .small(let r): r == 0
    case .big(let r): r.isZero
    }
  }

  /// The next digit, as ASCII.
  mutating func next() -> UInt8 {
    switch state {
    case .small(let r):
      let (digit, rest) = (r * 10).quotientAndRemainder(dividingBy: smallDivisor)
      state = .small(rest)
      return UInt8(ascii: "0") + UInt8(digit)
    case .big(let r):
      let (digit, rest) = BigUInt.divide(r * 10, by: divisor)
      state = .big(rest)
      return UInt8(ascii: "0") + UInt8(digit.uint128 ?? 0)
    }
  }
}

extension Decimal34 {
  /// The value's digits in plain notation, every one, nothing grouped and no exponent:
  /// `0.00001`, `10000000000000000000000000000000000000000`, `-2.5`.
  var plainDigits: String {
    guard let magnitude = magnitudeExponent else { return "0" }
    let normal = normalized
    let digits = Array(String(normal.coefficient).utf8)
    let exponent = Int(normal.exponent)
    var text: [UInt8] = isNegative ? [UInt8(ascii: "-")] : []
    if exponent >= 0 {
      text += digits
      text += repeatElement(UInt8(ascii: "0"), count: exponent)
    } else if magnitude >= 0 {
      let split = digits.count + exponent
      text += digits[..<split]
      text.append(UInt8(ascii: "."))
      text += digits[split...]
    } else {
      text += Array("0.".utf8)
      text += repeatElement(UInt8(ascii: "0"), count: -magnitude - 1)
      text += digits
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// The value as `--plain` writes a computed value: every significant digit, plain notation
  /// from 10^-8 to below 10^34, else scientific (`3.333333333333333333333333333333333E-10`).
  var plainText: String {
    guard let magnitude = magnitudeExponent else { return "0" }
    guard magnitude < -8 || magnitude >= 34 else { return plainDigits }
    return scientificText
  }

  /// Every significant digit in scientific notation: `1E-9999`, `-2.5E+40` (the sign of the
  /// exponent as `--plain` writes it).
  var scientificText: String {
    guard let magnitude = magnitudeExponent else { return "0" }
    let digits = Array(String(normalized.coefficient).utf8)
    var text: [UInt8] = isNegative ? [UInt8(ascii: "-")] : []
    text.append(digits[0])
    if digits.count > 1 {
      text.append(UInt8(ascii: "."))
      text += digits[1...]
    }
    text.append(UInt8(ascii: "E"))
    text += Array(String(magnitude).utf8)
    return String(decoding: text, as: UTF8.self)
  }
}
