import CalcDecimal

// The seam of date mode's exact arithmetic (SPEC §13: "Durations are exact (§2)").
//
// Durations and the numbers of date lines are kept as `DateRational`, a fraction of two
// integers of any size in lowest terms, with §2's rule 15 applied after every step: a result
// whose reduced numerator or denominator has more than 120 digits, or that depends on a rounded
// value, is rounded to 34 significant digits, half to even, and marked rounded. It is internal
// and small on purpose: when CalcDecimal's own exact type lands, `TimeSpan` and `DateNumber`
// (TimeSpan.swift) keep their public face and this file is the one to replace. Everything date
// mode asks of a number is here: + − × ÷, comparison with zero, the integer and fraction parts,
// rounding to an integer or to 34 digits, the decimal text, and the repeating decimal of
// `:exact`.

/// A natural number of any size: a value below 2^64 in one word (no allocation: durations and
/// the numbers of date lines mostly are, issue 51), a larger one in little-endian 32-bit limbs
/// without leading zero limbs.
///
/// The form is canonical — a value below 2^64 is never held in limbs — so that equality and
/// hashing of the stored parts are those of the values.
struct DateNatural: Hashable, Comparable, Sendable {
  /// The value when it is below 2^64 (``wide`` is `nil`); 0 otherwise.
  private var small: UInt64
  /// The limbs of a value of 2^64 or more (three at least); `nil` below 2^64.
  private var wide: [UInt32]?

  init(_ value: UInt64) {
    small = value
    wide = nil
  }

  init(_ value: UInt128) {
    if value >> 64 == 0 {
      small = UInt64(value)
      wide = nil
      return
    }
    var value = value
    var limbs: [UInt32] = []
    while value != 0 {
      limbs.append(UInt32(truncatingIfNeeded: value))
      value >>= 32
    }
    small = 0
    wide = limbs
  }

  /// The value of `limbs` (little-endian, leading zero limbs allowed).
  private init(limbs: [UInt32]) {
    var limbs = limbs
    while limbs.last == 0 { limbs.removeLast() }
    if limbs.count <= 2 {
      small = Self.word(limbs)
      wide = nil
    } else {
      small = 0
      wide = limbs
    }
  }

  /// The little-endian 32-bit limbs, without leading zero limbs (zero has none).
  var limbs: [UInt32] {
    if let wide { return wide }
    if small == 0 { return [] }
    return small >> 32 == 0
      ? [UInt32(small)] : [UInt32(truncatingIfNeeded: small), UInt32(small >> 32)]
  }

  static let zero = DateNatural(0 as UInt64)
  static let one = DateNatural(1 as UInt64)

  var isZero: Bool { wide == nil && small == 0 }
  /// Whether the value is below 2^64 (kept in one word, no array).
  var isWord: Bool { wide == nil }
  var isOdd: Bool { (wide?[0] ?? UInt32(truncatingIfNeeded: small)) & 1 == 1 }

  /// The value, if it is below 2^128.
  var uint128: UInt128? {
    guard let wide else { return UInt128(small) }
    guard wide.count <= 4 else { return nil }
    var value: UInt128 = 0
    for limb in wide.reversed() { value = value << 32 | UInt128(limb) }
    return value
  }

  static func < (a: DateNatural, b: DateNatural) -> Bool {
    switch (a.wide, b.wide) {
    case (nil, nil): return a.small < b.small
    case (nil, _): return true
    case (_, nil): return false
    case (let x?, let y?): return compare(x, y) < 0
    }
  }

  static func + (a: DateNatural, b: DateNatural) -> DateNatural {
    if a.wide == nil, b.wide == nil {
      let (sum, overflow) = a.small.addingReportingOverflow(b.small)
      return overflow ? DateNatural(UInt128(a.small) + UInt128(b.small)) : DateNatural(sum)
    }
    let (x, y) = (a.limbs, b.limbs)
    let (long, short) = x.count >= y.count ? (x, y) : (y, x)
    var sum = long
    var carry: UInt64 = 0
    for index in 0..<long.count {
      let total = UInt64(long[index]) + UInt64(index < short.count ? short[index] : 0) + carry
      sum[index] = UInt32(truncatingIfNeeded: total)
      carry = total >> 32
    }
    if carry != 0 { sum.append(UInt32(carry)) }
    return DateNatural(limbs: sum)
  }

  /// `a − b`; `b` must not exceed `a`.
  static func - (a: DateNatural, b: DateNatural) -> DateNatural {
    var difference = a
    difference.subtract(b)
    return difference
  }

  /// Subtracts `b`, which must not exceed the value, in place.
  private mutating func subtract(_ b: DateNatural) {
    precondition(b <= self, "a natural number below zero")
    if wide == nil {
      small -= b.small
      return
    }
    var limbs = self.limbs
    let other = b.limbs
    var borrow: Int64 = 0
    for index in 0..<limbs.count {
      var value = Int64(limbs[index]) - borrow - Int64(index < other.count ? other[index] : 0)
      borrow = 0
      if value < 0 {
        value += 1 << 32
        borrow = 1
      }
      limbs[index] = UInt32(value)
    }
    self = DateNatural(limbs: limbs)
  }

  /// The schoolbook product.
  ///
  /// - Complexity: O(m × n) in the limbs.
  static func * (a: DateNatural, b: DateNatural) -> DateNatural {
    if a.wide == nil, b.wide == nil {
      let (high, low) = a.small.multipliedFullWidth(by: b.small)
      return high == 0 ? DateNatural(low) : DateNatural(UInt128(high) << 64 | UInt128(low))
    }
    guard !a.isZero, !b.isZero else { return .zero }
    let (x, y) = (a.limbs, b.limbs)
    var product = [UInt32](repeating: 0, count: x.count + y.count)
    for i in 0..<x.count {
      var carry: UInt64 = 0
      let factor = UInt64(x[i])
      for j in 0..<y.count {
        let total = factor * UInt64(y[j]) + UInt64(product[i + j]) + carry
        product[i + j] = UInt32(truncatingIfNeeded: total)
        carry = total >> 32
      }
      product[i + y.count] = UInt32(carry)
    }
    return DateNatural(limbs: product)
  }

  /// The quotient and remainder of a division by a nonzero limb.
  ///
  /// - Complexity: O(n) in the limbs.
  func quotientAndRemainder(dividingBy divisor: UInt32) -> (DateNatural, UInt32) {
    precondition(divisor != 0, "division by zero")
    guard let limbs = wide else {
      return (DateNatural(small / UInt64(divisor)), UInt32(small % UInt64(divisor)))
    }
    var quotient = limbs
    var remainder: UInt64 = 0
    var index = limbs.count - 1
    while index >= 0 {
      let value = remainder << 32 | UInt64(limbs[index])
      quotient[index] = UInt32(value / UInt64(divisor))
      remainder = value % UInt64(divisor)
      index -= 1
    }
    return (DateNatural(limbs: quotient), UInt32(remainder))
  }

  /// The quotient and remainder of a division by a nonzero number: binary long division.
  ///
  /// - Complexity: O(b × n): b bits of the dividend, n limbs of the divisor.
  func quotientAndRemainder(dividingBy divisor: DateNatural) -> (DateNatural, DateNatural) {
    precondition(!divisor.isZero, "division by zero")
    if self < divisor { return (.zero, self) }
    if wide == nil {
      // Both below 2^64 (the divisor does not exceed the dividend).
      let (quotient, remainder) = small.quotientAndRemainder(dividingBy: divisor.small)
      return (DateNatural(quotient), DateNatural(remainder))
    }
    let divisorLimbs = divisor.limbs
    if divisorLimbs.count == 1 {
      let (quotient, remainder) = quotientAndRemainder(dividingBy: divisorLimbs[0])
      return (quotient, DateNatural(UInt64(remainder)))
    }
    let limbs = self.limbs
    var quotient = [UInt32](repeating: 0, count: limbs.count)
    // The remainder starts as the dividend's leading bits, one fewer than the divisor has: no
    // quotient bit before them can be 1.
    var bit = bitWidth - divisor.bitWidth
    var remainder = shiftedRight(bit + 1)
    while bit >= 0 {
      remainder.shiftLeftOne(inserting: limbs[bit / 32] >> (bit % 32) & 1)
      if remainder >= divisor {
        remainder.subtract(divisor)
        quotient[bit / 32] |= 1 << (bit % 32)
      }
      bit -= 1
    }
    return (DateNatural(limbs: quotient), remainder)
  }

  private mutating func shiftLeftOne(inserting bit: UInt32) {
    if wide == nil, small >> 63 == 0 {
      small = small << 1 | UInt64(bit)
      return
    }
    var limbs = self.limbs
    var carry = bit
    for index in 0..<limbs.count {
      let next = limbs[index] >> 31
      limbs[index] = limbs[index] << 1 | carry
      carry = next
    }
    if carry != 0 { limbs.append(carry) }
    self = DateNatural(limbs: limbs)
  }

  /// The value shifted right by `count` bits.
  func shiftedRight(_ count: Int) -> DateNatural {
    if wide == nil { return count >= 64 ? .zero : DateNatural(small >> count) }
    let limbs = self.limbs
    let (whole, part) = (count / 32, count % 32)
    guard whole < limbs.count else { return .zero }
    var shifted = Array(limbs[whole...])
    if part > 0 {
      for index in 0..<shifted.count {
        let high = index + 1 < shifted.count ? shifted[index + 1] << (32 - part) : 0
        shifted[index] = shifted[index] >> part | high
      }
    }
    return DateNatural(limbs: shifted)
  }

  /// The value shifted left by `count` bits.
  func shiftedLeft(_ count: Int) -> DateNatural {
    guard !isZero else { return self }
    if wide == nil, count < 64, small.leadingZeroBitCount >= count {
      return DateNatural(small << count)
    }
    let (whole, part) = (count / 32, count % 32)
    var shifted = [UInt32](repeating: 0, count: whole) + limbs + [0]
    if part > 0 {
      var index = shifted.count - 1
      while index > whole {
        shifted[index] = shifted[index] << part | shifted[index - 1] >> (32 - part)
        index -= 1
      }
      shifted[whole] <<= part
    }
    return DateNatural(limbs: shifted)
  }

  /// How many zero bits end the value (0 for zero).
  var trailingZeroBitCount: Int {
    guard let limbs = wide else { return small == 0 ? 0 : small.trailingZeroBitCount }
    guard let index = limbs.firstIndex(where: { $0 != 0 }) else { return 0 }
    return index * 32 + limbs[index].trailingZeroBitCount
  }

  /// The greatest common divisor (Stein's binary algorithm, on two words once both fit);
  /// `gcd(0, b)` is `b`.
  ///
  /// - Complexity: O(b²/32) for b bits.
  static func gcd(_ a: DateNatural, _ b: DateNatural) -> DateNatural {
    if a.isZero { return b }
    if b.isZero { return a }
    if a.wide == nil, b.wide == nil {
      // binaryGCD drops the factors of 2, which the shift puts back (the gcd does not exceed a).
      let shift = min(a.small.trailingZeroBitCount, b.small.trailingZeroBitCount)
      return DateNatural(binaryGCD(a.small, b.small) << shift)
    }
    let shift = min(a.trailingZeroBitCount, b.trailingZeroBitCount)
    var x = a.shiftedRight(a.trailingZeroBitCount).limbs
    var y = b.limbs
    // x is odd; each round makes y odd, orders the two and subtracts, in place.
    while !y.isEmpty {
      if x.count <= 2, y.count <= 2 {
        return DateNatural(binaryGCD(word(x), word(y))).shiftedLeft(shift)
      }
      shiftRightToOdd(&y)
      if compare(x, y) > 0 { swap(&x, &y) }
      subtract(&y, x)
    }
    return DateNatural(limbs: x).shiftedLeft(shift)
  }

  private static func word(_ limbs: [UInt32]) -> UInt64 {
    limbs.isEmpty ? 0 : UInt64(limbs[0]) | (limbs.count > 1 ? UInt64(limbs[1]) << 32 : 0)
  }

  private static func binaryGCD(_ a: UInt64, _ b: UInt64) -> UInt64 {
    if a == 0 { return b }
    if b == 0 { return a }
    var (x, y) = (a >> a.trailingZeroBitCount, b)
    while y != 0 {
      y >>= y.trailingZeroBitCount
      if x > y { swap(&x, &y) }
      y -= x
    }
    return x
  }

  private static func compare(_ a: [UInt32], _ b: [UInt32]) -> Int {
    if a.count != b.count { return a.count < b.count ? -1 : 1 }
    var index = a.count - 1
    while index >= 0 {
      if a[index] != b[index] { return a[index] < b[index] ? -1 : 1 }
      index -= 1
    }
    return 0
  }

  /// `a −= b` for `b ≤ a`, trimmed.
  private static func subtract(_ a: inout [UInt32], _ b: [UInt32]) {
    var borrow: UInt32 = 0
    for index in 0..<a.count {
      let subtrahend = index < b.count ? b[index] : 0
      if index >= b.count && borrow == 0 { break }
      let (first, overflow1) = a[index].subtractingReportingOverflow(subtrahend)
      let (second, overflow2) = first.subtractingReportingOverflow(borrow)
      a[index] = second
      borrow = overflow1 || overflow2 ? 1 : 0
    }
    while a.last == 0 { a.removeLast() }
  }

  /// Shifts a nonzero value right by its trailing zero bits, in place.
  private static func shiftRightToOdd(_ a: inout [UInt32]) {
    let zeroLimbs = a.firstIndex { $0 != 0 }!
    if zeroLimbs > 0 { a.removeFirst(zeroLimbs) }
    let part = a[0].trailingZeroBitCount
    guard part > 0 else { return }
    for index in 0..<a.count {
      let high = index + 1 < a.count ? a[index + 1] << (32 - part) : 0
      a[index] = a[index] >> part | high
    }
    while a.last == 0 { a.removeLast() }
  }

  /// 10^count.
  static func powerOfTen(_ count: Int) -> DateNatural {
    precondition(count >= 0, "a negative power of ten")
    var power = DateNatural.one
    var left = count
    while left >= 9 {
      power = power * DateNatural(1_000_000_000 as UInt64)
      left -= 9
    }
    var small: UInt64 = 1
    for _ in 0..<left { small *= 10 }
    return power * DateNatural(small)
  }

  /// The value's decimal digits, without leading zeros (`0` for zero).
  ///
  /// - Complexity: O(n²) in the limbs.
  var decimalText: String {
    guard !isZero else { return "0" }
    var chunks: [UInt32] = []
    var rest = self
    while !rest.isZero {
      let (quotient, remainder) = rest.quotientAndRemainder(dividingBy: 1_000_000_000)
      chunks.append(remainder)
      rest = quotient
    }
    var text = String(chunks.removeLast())
    for chunk in chunks.reversed() {
      let digits = String(chunk)
      text += String(repeating: "0", count: 9 - digits.count) + digits
    }
    return text
  }

  /// How many bits the value has (0 for zero).
  var bitWidth: Int {
    guard let limbs = wide else { return 64 - small.leadingZeroBitCount }
    return limbs.isEmpty ? 0 : limbs.count * 32 - limbs[limbs.count - 1].leadingZeroBitCount
  }

  /// How many decimal digits the value has (1 for zero).
  var decimalDigitCount: Int {
    guard !isZero else { return 1 }
    // 2^(b−1) ≤ value, and 0.30102 < log10 2: a lower bound, then up to the count.
    var digits = (bitWidth - 1) * 30_102 / 100_000 + 1
    var power = DateNatural.powerOfTen(digits)
    while self >= power {
      digits += 1
      power = power * DateNatural(10 as UInt64)
    }
    return digits
  }

  /// The natural number that ASCII decimal digits write; `nil` for text holding anything else.
  init?(digits: Substring) {
    guard !digits.isEmpty else { return nil }
    var value = DateNatural.zero
    var chunk: UInt64 = 0
    var scale: UInt64 = 1
    for character in digits.utf8 {
      guard character >= UInt8(ascii: "0"), character <= UInt8(ascii: "9") else { return nil }
      chunk = chunk * 10 + UInt64(character - UInt8(ascii: "0"))
      scale *= 10
      if scale == 1_000_000_000 {
        value = value * DateNatural(scale) + DateNatural(chunk)
        (chunk, scale) = (0, 1)
      }
    }
    if scale > 1 { value = value * DateNatural(scale) + DateNatural(chunk) }
    self = value
  }
}

/// An exact rational number in lowest terms, or (when ``isRounded``) a 34-digit decimal written
/// as one: the value of a duration's seconds and of a date line's number (SPEC §2, rule 15).
struct DateRational: Hashable, Sendable {
  // The two flags after the two naturals: 34 bytes, where the flag before them took 41 with
  // its padding, and a date line's value with it (`DateValue`, 48 bytes in a step).
  private(set) var numerator: DateNatural
  /// At least 1, and prime to the numerator.
  private(set) var denominator: DateNatural
  /// Whether the value is below zero; never true for zero.
  private(set) var isNegative: Bool
  /// Whether the value depends on a step that rounded (rule 15's mark): every later step rounds
  /// its result to 34 significant digits.
  private(set) var isRounded: Bool

  /// The most decimal digits an exact numerator or denominator keeps (rule 15).
  static let exactDigitLimit = 120
  /// 10^120: an exact numerator or denominator is below it.
  static let exactLimit = DateNatural.powerOfTen(exactDigitLimit)
  /// The significant digits of a rounded value.
  static let roundedDigits = 34

  /// `numerator / denominator`, reduced, with rule 15 applied; `denominator` must not be zero.
  init(
    isNegative: Bool, numerator: DateNatural, denominator: DateNatural, isRounded: Bool = false
  ) {
    precondition(!denominator.isZero, "a zero denominator")
    let divisor = denominator == .one ? .one : DateNatural.gcd(numerator, denominator)
    if divisor == .one {
      (self.numerator, self.denominator) = (numerator, denominator)
    } else {
      self.numerator = numerator.quotientAndRemainder(dividingBy: divisor).0
      self.denominator = denominator.quotientAndRemainder(dividingBy: divisor).0
    }
    self.isNegative = isNegative && !numerator.isZero
    self.isRounded = isRounded
    if isRounded || self.numerator >= Self.exactLimit || self.denominator >= Self.exactLimit {
      self = roundedToSignificantDigits()
    }
    #if CALC_INTERNAL_CHECKS
      checkInvariants()
    #endif
  }

  /// Traps unless the value is in lowest terms with a positive denominator, zero is not
  /// negative, an exact value's parts are below 10^120 and a rounded one has at most 34
  /// significant digits (built with `-Xswiftc -DCALC_INTERNAL_CHECKS`, as `.ci/run`'s pass over
  /// the engine's tests is).
  func checkInvariants() {
    precondition(!denominator.isZero, "a zero denominator")
    precondition(DateNatural.gcd(numerator, denominator) == .one || numerator.isZero, "not reduced")
    precondition(!numerator.isZero || (denominator == .one && !isNegative), "zero is 0/1")
    if isRounded {
      // A rounded value is its 34-digit coefficient over a power of ten, reduced.
      var coefficient = numerator
      while !coefficient.isZero, coefficient.quotientAndRemainder(dividingBy: 10).1 == 0 {
        coefficient = coefficient.quotientAndRemainder(dividingBy: 10).0
      }
      precondition(coefficient.decimalDigitCount <= Self.roundedDigits, "more than 34 digits")
    } else {
      precondition(numerator < Self.exactLimit && denominator < Self.exactLimit, "beyond 10^120")
    }
  }

  /// An integer.
  init(_ value: Int) {
    isNegative = value < 0
    numerator = DateNatural(UInt64(value.magnitude))
    denominator = .one
    isRounded = false
  }

  /// A decimal's exact value, marked rounded when `isRounded`.
  init(_ value: Decimal34, isRounded: Bool = false) {
    let coefficient = DateNatural(value.coefficient)
    let exponent = Int(value.exponent)
    if exponent >= 0 {
      self.init(
        isNegative: value.isNegative, numerator: coefficient * .powerOfTen(exponent),
        denominator: .one, isRounded: isRounded)
    } else {
      self.init(
        isNegative: value.isNegative, numerator: coefficient,
        denominator: .powerOfTen(-exponent), isRounded: isRounded)
    }
  }

  /// The exact value a fraction's text writes (`-1/3`, `12`: `Number.fractionText`), with rule
  /// 15 applied; `nil` for anything else.
  /// - Complexity: O(d²) in the digits d.
  init?(fraction text: String) {
    var body = Substring(text)
    let isNegative = body.first == "-"
    if isNegative { body = body.dropFirst() }
    let parts = body.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count <= 2, let numerator = DateNatural(digits: parts[0]) else { return nil }
    var denominator = DateNatural.one
    if parts.count == 2 {
      guard let value = DateNatural(digits: parts[1]), !value.isZero else { return nil }
      denominator = value
    }
    self.init(isNegative: isNegative, numerator: numerator, denominator: denominator)
  }

  /// The value that ASCII decimal text writes (`12`, `2.5`, `.5`, `5.`); `nil` for anything
  /// else.
  init?(decimal text: Substring) {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count <= 2, text != "." else { return nil }
    let whole = parts[0].isEmpty ? Substring("0") : parts[0]
    let fraction = parts.count == 2 ? parts[1] : ""
    guard let digits = DateNatural(digits: whole + fraction) else { return nil }
    self.init(
      isNegative: false, numerator: digits, denominator: .powerOfTen(fraction.count))
  }

  static let zero = DateRational(0)

  var isZero: Bool { numerator.isZero }
  var isInteger: Bool { denominator == .one }
  /// Whether the numerator and the denominator are each below 2^64: the value is then zero or
  /// between 2^-64 and 2^64.
  var hasWordParts: Bool { numerator.isWord && denominator.isWord }

  static prefix func - (value: DateRational) -> DateRational {
    var negated = value
    negated.isNegative = !value.isNegative && !value.isZero
    return negated
  }

  static func + (a: DateRational, b: DateRational) -> DateRational {
    // Integers (whole seconds, most durations) and equal denominators need no products.
    let same = a.denominator == b.denominator
    let left = same ? a.numerator : a.numerator * b.denominator
    let right = same ? b.numerator : b.numerator * a.denominator
    let denominator = same ? a.denominator : a.denominator * b.denominator
    let rounded = a.isRounded || b.isRounded
    if a.isNegative == b.isNegative {
      return DateRational(
        isNegative: a.isNegative, numerator: left + right, denominator: denominator,
        isRounded: rounded)
    }
    let (larger, smaller, negative) =
      left >= right ? (left, right, a.isNegative) : (right, left, b.isNegative)
    return DateRational(
      isNegative: negative, numerator: larger - smaller, denominator: denominator,
      isRounded: rounded)
  }

  static func - (a: DateRational, b: DateRational) -> DateRational { a + -b }

  static func * (a: DateRational, b: DateRational) -> DateRational {
    DateRational(
      isNegative: a.isNegative != b.isNegative, numerator: a.numerator * b.numerator,
      denominator: a.denominator * b.denominator, isRounded: a.isRounded || b.isRounded)
  }

  /// `a ÷ b`; `nil` when `b` is zero.
  static func dividing(_ a: DateRational, by b: DateRational) -> DateRational? {
    guard !b.isZero else { return nil }
    return DateRational(
      isNegative: a.isNegative != b.isNegative, numerator: a.numerator * b.denominator,
      denominator: a.denominator * b.numerator, isRounded: a.isRounded || b.isRounded)
  }

  /// Whether |value| ≥ 10^`exponent` (for a nonnegative or negative `exponent`).
  func magnitudeReaches(powerOfTen exponent: Int) -> Bool {
    // 2^(a−1) ≤ n < 2^a and 2^(b−1) ≤ d < 2^b put |value| strictly between 2^(w−1) and
    // 2^(w+1), w = a − b; 10^e is 2^(e·3.3219…), bounded below and above with 3.32 and 3.33:
    // most values are decided by their widths, without a power of ten.
    guard !isZero else { return false }
    let width = numerator.bitWidth - denominator.bitWidth
    let below = exponent >= 0 ? exponent * 332 / 100 : exponent * 333 / 100 - 1
    let above = exponent >= 0 ? exponent * 333 / 100 + 1 : exponent * 332 / 100
    if width + 1 <= below { return false }
    if width - 1 >= above { return true }
    return exponent >= 0
      ? numerator >= denominator * .powerOfTen(exponent)
      : numerator * .powerOfTen(-exponent) >= denominator
  }

  /// The integer part of |value| and the fraction left, `|value| = whole + part`, `0 ≤ part < 1`.
  var magnitudeParts: (whole: DateNatural, part: DateRational) {
    let (whole, remainder) = numerator.quotientAndRemainder(dividingBy: denominator)
    return (
      whole,
      DateRational(
        isNegative: false, numerator: remainder, denominator: denominator, isRounded: isRounded)
    )
  }

  /// |value| rounded half to even to an integer.
  var magnitudeRoundedToInteger: DateNatural {
    let (whole, remainder) = numerator.quotientAndRemainder(dividingBy: denominator)
    let twice = remainder + remainder
    return twice > denominator || (twice == denominator && whole.isOdd) ? whole + .one : whole
  }

  /// |value| ≈ `coefficient × 10^exponent`, the coefficient rounded half to even to `digits`
  /// digits; `nil` for zero.
  func magnitudeSignificand(digits: Int) -> (coefficient: DateNatural, exponent: Int)? {
    guard !isZero else { return nil }
    if (20...36).contains(digits), let numerator = numerator.uint128,
      numerator <= UInt128(UInt64.max),
      let denominator = denominator.uint128, denominator < 1 << 60
    {
      let (coefficient, exponent) = Self.significand(
        UInt64(numerator), over: UInt64(denominator), digits: digits)
      return (DateNatural(coefficient), exponent)
    }
    return generalMagnitudeSignificand(digits: digits)
  }

  /// ``magnitudeSignificand(digits:)`` of `numerator / denominator` (not zero; the denominator
  /// below 2^60; `digits` from 20, the most a 64-bit integer part has, to 36) by long division in 64 and 128 bits (issue 51: in
  /// `DateNatural`'s arrays it cost a date line's number thousands of instructions).
  private static func significand(
    _ numerator: UInt64, over denominator: UInt64, digits: Int
  ) -> (coefficient: UInt128, exponent: Int) {
    var (whole, remainder) = numerator.quotientAndRemainder(dividingBy: denominator)
    var coefficient = UInt128(whole)
    var count = 0
    while whole > 0 {
      count += 1
      whole /= 10
    }
    var leading = count - 1
    if count == 0 {
      // The fraction's leading zeros are not significant.
      while remainder * 10 < denominator {
        remainder *= 10
        leading -= 1
      }
    }
    // Up to 19 digits a division: `remainder` (below 2^60) times 10^19 fits in 128 bits, and
    // the quotient, below 10^19, in 64 — one hardware division for each chunk, where a digit
    // at a time took 34 (issue 51; Documentation/Performance.md, "Date lines, session 15").
    while count < digits {
      let chunk = Swift.min(19, digits - count)
      let power = Self.powerOfTen(chunk)
      let (quotient, rest) = denominator.dividingFullWidth(remainder.multipliedFullWidth(by: power))
      coefficient = coefficient * UInt128(power) + UInt128(quotient)
      remainder = rest
      count += chunk
    }
    let twice = remainder * 2
    if twice > denominator || (twice == denominator && coefficient & 1 == 1) {
      coefficient += 1
      // 10^digits: the significand 10^(digits - 1), one power of ten more.
      let limit = UInt128(Self.powerOfTen(digits - 19)) * UInt128(Self.powerOfTen(19))
      if coefficient == limit { return (limit / 10, leading + 1 - (digits - 1)) }
    }
    return (coefficient, leading - (digits - 1))
  }

  /// 10^`exponent`, for `exponent` from 0 to 19.
  static func powerOfTen(_ exponent: Int) -> UInt64 {
    var power: UInt64 = 1
    for _ in 0..<exponent { power &*= 10 }
    return power
  }

  /// ``magnitudeSignificand(digits:)`` for any value, in `DateNatural`'s arithmetic.
  func generalMagnitudeSignificand(digits: Int) -> (coefficient: DateNatural, exponent: Int)? {
    guard !isZero else { return nil }
    // e = ⌊log10 |value|⌋ is the digit counts' difference or one less.
    var leading = numerator.decimalDigitCount - denominator.decimalDigitCount
    if !magnitudeReaches(powerOfTen: leading) { leading -= 1 }
    let scale = digits - 1 - leading
    let (scaled, divisor) =
      scale >= 0
      ? (numerator * .powerOfTen(scale), denominator)
      : (numerator, denominator * .powerOfTen(-scale))
    var (coefficient, remainder) = scaled.quotientAndRemainder(dividingBy: divisor)
    let twice = remainder + remainder
    if twice > divisor || (twice == divisor && coefficient.isOdd) {
      coefficient = coefficient + .one
    }
    if coefficient == .powerOfTen(digits) {
      return (.powerOfTen(digits - 1), leading + 1 - (digits - 1))
    }
    return (coefficient, leading - (digits - 1))
  }

  /// The value rounded half to even to 34 significant digits, marked rounded.
  private func roundedToSignificantDigits() -> DateRational {
    guard let (coefficient, exponent) = magnitudeSignificand(digits: Self.roundedDigits) else {
      var zero = DateRational.zero
      zero.isRounded = true
      return zero
    }
    var value = DateRational.zero
    let (numerator, denominator) =
      exponent >= 0
      ? (coefficient * .powerOfTen(exponent), DateNatural.one)
      : (coefficient, DateNatural.powerOfTen(-exponent))
    let divisor = DateNatural.gcd(numerator, denominator)
    value.numerator = numerator.quotientAndRemainder(dividingBy: divisor).0
    value.denominator = denominator.quotientAndRemainder(dividingBy: divisor).0
    value.isNegative = isNegative
    value.isRounded = true
    return value
  }

  /// The value rounded once, half to even, to 34 significant digits.
  var decimal: Decimal34 {
    guard !isZero else { return .zero }
    // The common value in 64-bit parts: its 128-bit coefficient used as it is, not made a
    // `DateNatural` (an array of limbs above 2^64, about 760 instructions a number line).
    if let numerator = numerator.uint128, numerator <= UInt128(UInt64.max),
      let denominator = denominator.uint128, denominator < 1 << 60
    {
      let (coefficient, exponent) = Self.significand(
        UInt64(numerator), over: UInt64(denominator), digits: Self.roundedDigits)
      return Decimal34(coefficient: coefficient, exponent: exponent, isNegative: isNegative)
    }
    guard let (coefficient, exponent) = magnitudeSignificand(digits: Self.roundedDigits),
      let digits = coefficient.uint128
    else { return .zero }
    return Decimal34(coefficient: digits, exponent: exponent, isNegative: isNegative)
  }

  /// ``decimal`` through ``generalMagnitudeSignificand(digits:)``: the same value.
  var generalDecimal: Decimal34 {
    guard let (coefficient, exponent) = generalMagnitudeSignificand(digits: Self.roundedDigits),
      let digits = coefficient.uint128
    else { return .zero }
    return Decimal34(coefficient: digits, exponent: exponent, isNegative: isNegative)
  }

  /// The fraction in lowest terms, `-3600/7`, or the integer, `-514`.
  var fractionText: String {
    let sign = isNegative ? "-" : ""
    return isInteger
      ? sign + numerator.decimalText
      : sign + numerator.decimalText + "/" + denominator.decimalText
  }

  /// The decimal with its repeating part in brackets (SPEC §6 `:exact`): `514.(285714)`,
  /// `0.1(6)`, `2.5`, `-3`; a period longer than `periodLimit` digits shows its first
  /// `periodLimit` digits and `… (period longer than 1,000 digits)`.
  ///
  /// - Complexity: O(p × n) for p digits after the point (at most the non-repeating part's
  ///   plus `periodLimit`) and n limbs of the denominator.
  func repeatingDecimalText(periodLimit: Int = 1000) -> String {
    let sign = isNegative ? "-" : ""
    let (whole, first) = numerator.quotientAndRemainder(dividingBy: denominator)
    var remainder = first
    guard !remainder.isZero else { return sign + whole.decimalText }
    // The digits before the period: as many as the larger power of 2 or of 5 in the denominator.
    var fives = 0
    var rest = denominator
    while true {
      let (quotient, left) = rest.quotientAndRemainder(dividingBy: 5)
      guard left == 0 else { break }
      (rest, fives) = (quotient, fives + 1)
    }
    let leading = max(denominator.trailingZeroBitCount, fives)
    var digits = ""
    func nextDigit() -> Character {
      remainder = remainder * DateNatural(10 as UInt64)
      var digit: UInt8 = 0
      while remainder >= denominator {
        remainder = remainder - denominator
        digit += 1
      }
      return Character(Unicode.Scalar(UInt8(ascii: "0") + digit))
    }
    for _ in 0..<leading { digits.append(nextDigit()) }
    let text = sign + whole.decimalText + "."
    guard !remainder.isZero else { return text + digits }
    let start = remainder
    var period = ""
    repeat {
      period.append(nextDigit())
    } while remainder != start && period.count < periodLimit
    if remainder == start { return text + digits + "(" + period + ")" }
    return text + digits + period + "… (period longer than 1,000 digits)"
  }
}
