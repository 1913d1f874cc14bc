import CalcTestSupport
import Testing

@testable import CalcDecimal

/// The limb arithmetic of the series' fixed point (`FixedValue`) against a reference written
/// here: plain arrays of base-10^9 limbs, one partial product at a time, with no shortcut. The
/// operands are random, their limbs drawn half the time from 0 and 999,999,999 so that every
/// carry and borrow chain is met.
@Suite struct LimbArithmeticTests {
  static let base: UInt64 = 1_000_000_000
  /// 2,000 cases of each operation (50,000 with `CALC_LONG_TESTS=1`).
  static let cases = TestSize.count(short: 2_000, long: 50_000)

  /// Limbs (least significant first) with no zero at the top.
  static func trimmed(_ limbs: [UInt64]) -> [UInt64] {
    var limbs = limbs
    while limbs.last == 0 { limbs.removeLast() }
    return limbs
  }

  /// Adds `value` at limb `index`, carrying up.
  static func add(_ value: UInt64, at index: Int, to limbs: inout [UInt64]) {
    var (position, carry) = (index, value)
    while carry != 0 {
      while limbs.count <= position { limbs.append(0) }
      let sum = limbs[position] + carry
      limbs[position] = sum % base
      carry = sum / base
      position += 1
    }
  }

  /// Σ a_i·b_j·10^(9(i + j)) over i + j ≥ `low`, divided by 10^(9·`dropped`), truncated.
  static func referenceProduct(_ a: [UInt64], _ b: [UInt64], low: Int, dropped: Int) -> [UInt64] {
    var sum: [UInt64] = []
    for (i, x) in a.enumerated() {
      for (j, y) in b.enumerated() where i + j >= low {
        let product = x * y
        add(product % base, at: i + j, to: &sum)
        add(product / base, at: i + j + 1, to: &sum)
      }
    }
    return trimmed(Array(sum.dropFirst(dropped)))
  }

  static func limbs(_ value: FixedValue) -> [UInt64] {
    (0..<value.count).map { UInt64(value.limb($0)) }
  }

  static func big(_ limbs: [UInt64]) -> BigUInt {
    BigUInt.build(capacity: limbs.count) { result in
      for (index, limb) in limbs.enumerated() { result[index] = UInt32(limb) }
      return limbs.count
    }
  }

  static func limbs(_ value: BigUInt) -> [UInt64] {
    (0..<value.count).map { UInt64(value.limb($0)) }
  }

  static func value(_ limbs: [UInt64]) -> FixedValue { FixedValue(big(limbs)) }

  /// `count` random limbs with no zero at the top.
  static func randomLimbs(_ count: Int, _ random: inout SplitMix64) -> [UInt64] {
    var limbs = (0..<count).map { _ -> UInt64 in
      switch random.next() % 4 {
      case 0: return 0
      case 1: return base - 1
      default: return random.next() % base
      }
    }
    if count > 0, limbs[count - 1] == 0 { limbs[count - 1] = 1 + random.next() % (base - 1) }
    return limbs
  }

  @Test func productsAreThoseOfTheColumnsKept() {
    var random = SplitMix64(state: 0x11B_A817)
    for _ in 0..<Self.cases {
      let n = Int(random.next() % 19)
      let m = Int(random.next() % 19)
      let (a, b) = (Self.randomLimbs(n, &random), Self.randomLimbs(m, &random))
      let dropped = max(n + m - FixedValue.capacity, 0) + Int(random.next() % 12)
      let expected = Self.referenceProduct(a, b, low: max(0, dropped - 2), dropped: dropped)
      let product = FixedValue.product(Self.value(a), Self.value(b), droppingLimbs: dropped)
      #expect(Self.limbs(product) == expected, "\(a) × \(b), dropping \(dropped)")
      let cut = max(2 * n - FixedValue.capacity, 0) + Int(random.next() % 12)
      let square = FixedValue.square(Self.value(a), droppingLimbs: cut)
      let expectedSquare = Self.referenceProduct(a, a, low: max(0, cut - 2), dropped: cut)
      #expect(Self.limbs(square) == expectedSquare, "\(a)², dropping \(cut)")
    }
  }

  @Test func fullColumnsStayBelowTwoToThe64() {
    // Eighteen limbs of 999,999,999 squared, dropping eighteen: columns of eighteen products,
    // the most a product of values of capacity limbs sums, all at their largest.
    let nines = [UInt64](repeating: Self.base - 1, count: FixedValue.capacity)
    let x = Self.value(nines)
    let expected = Self.referenceProduct(nines, nines, low: 16, dropped: 18)
    #expect(Self.limbs(FixedValue.product(x, x, droppingLimbs: 18)) == expected)
    #expect(Self.limbs(FixedValue.square(x, droppingLimbs: 18)) == expected)
  }

  @Test func sumsDifferencesAndSmallOperations() {
    var random = SplitMix64(state: 0x5_0B7)
    for _ in 0..<Self.cases {
      let a = Self.randomLimbs(Int(random.next() % 17), &random)
      let b = Self.randomLimbs(Int(random.next() % 17), &random)
      var sum = a
      for (index, limb) in b.enumerated() { Self.add(limb, at: index, to: &sum) }
      let (x, y) = (Self.value(a), Self.value(b))
      #expect(Self.limbs(x + y) == Self.trimmed(sum), "\(a) + \(b)")
      #expect(Self.limbs((x + y) - y) == a, "\(a) + \(b) − \(b)")
      #expect(Self.limbs((x + y) - x) == b, "\(a) + \(b) − \(a)")
      let small = UInt32(truncatingIfNeeded: random.next()) >> UInt32(random.next() % 32)
      var scaled: [UInt64] = []
      for (index, limb) in a.enumerated() {
        let product = limb * UInt64(small)
        Self.add(product % Self.base, at: index, to: &scaled)
        Self.add(product / Self.base, at: index + 1, to: &scaled)
      }
      #expect(Self.limbs(x * small) == Self.trimmed(scaled), "\(a) × \(small)")
      if small != 0 {
        var quotient = x * small
        let remainder = quotient.formQuotient(dividingBy: small)
        #expect(remainder == 0 && quotient == x, "\(a) × \(small) ÷ \(small)")
        var plus = x * small + FixedValue(BigUInt(Int(small - 1)))
        #expect(plus.formQuotient(dividingBy: small) == small - 1)
        #expect(plus == x)
      }
      #expect(Self.value(a).bigUInt == FixedValue(Self.value(a).bigUInt).bigUInt)
    }
  }

  /// `BigUInt`'s products (by columns up to 18 limbs, by rows beyond), its quotients without
  /// the remainder, its digit counts and its 128-bit conversion.
  @Test func bigProductsQuotientsAndConversions() {
    var random = SplitMix64(state: 0xB16_0017)
    for _ in 0..<Self.cases {
      let a = Self.randomLimbs(Int(random.next() % 25), &random)
      let b = Self.randomLimbs(1 + Int(random.next() % 24), &random)
      let product = Self.big(a) * Self.big(b)
      #expect(Self.limbs(product) == Self.referenceProduct(a, b, low: 0, dropped: 0))
      let dividend = product + Self.big(Self.randomLimbs(b.count, &random))
      let (quotient, remainder) = BigUInt.divide(dividend, by: Self.big(b))
      #expect(quotient * Self.big(b) + remainder == dividend && remainder < Self.big(b))
      #expect(BigUInt.divide(dividend, by: Self.big(b), remainder: false).0 == quotient)
      let text =
        a.isEmpty
        ? ""
        : String(a.last!)
          + a.dropLast().reversed().map {
            String(repeating: "0", count: 9 - String($0).count) + String($0)
          }.joined()
      #expect(Self.big(a).digitCount == text.count, "\(a)")
      let wide = UInt128(random.next()) << UInt128(random.next() % 65) | UInt128(random.next() % 7)
      var expected: [UInt64] = []
      var rest = wide
      while rest != 0 {
        expected.append(UInt64(rest % UInt128(Self.base)))
        rest /= UInt128(Self.base)
      }
      #expect(Self.limbs(BigUInt(wide)) == expected, "\(wide)")
      // `uint128` reads values of at most four limbs (below 10^36).
      #expect(BigUInt(wide).uint128 == (expected.count <= 4 ? wide : nil), "\(wide)")
    }
  }

  /// `Real`'s order and equality, compared exactly, against the sign of the exact difference of
  /// decimals of at most 15 digits (equal values of different exponents included).
  @Test func realOrderIsExact() {
    var random = SplitMix64(state: 0x0_4DE2)
    func decimal() -> Decimal34 {
      let coefficient = UInt128((random.next() % 1_000_000_000_000_000) >> (random.next() % 50))
      return Decimal34(
        coefficient: coefficient, exponent: Int(random.next() % 9) - 4,
        isNegative: random.next() % 2 == 0)
    }
    for _ in 0..<Self.cases {
      let a = decimal()
      var b = random.next() % 4 == 0 ? a : decimal()
      if random.next() % 8 == 0 {
        b = Decimal34(
          coefficient: a.coefficient * 1000, exponent: Int(a.exponent) - 3, isNegative: a.isNegative
        )
      }
      let difference = a - b
      let (x, y) = (Real(a), Real(b))
      #expect((x < y) == (!difference.isZero && difference.isNegative), "\(a) < \(b)")
      #expect((x == y) == difference.isZero, "\(a) == \(b)")
      #expect((y < x) == (!difference.isZero && !difference.isNegative), "\(b) < \(a)")
    }
  }

  /// `BigUInt.alignedSum` (`Working.add`'s one build) against the shifted terms, their sum or
  /// difference and the cut made one after the other.
  @Test func alignedSumsAreTheStepsInOne() {
    var random = SplitMix64(state: 0xA11_6ED)
    for _ in 0..<Self.cases {
      let a = Self.big(Self.randomLimbs(Int(random.next() % 12), &random))
      let b = Self.big(Self.randomLimbs(Int(random.next() % 12), &random))
      let shift = Int(random.next() % 60)
      let (shiftA, shiftB) = random.next() % 2 == 0 ? (shift, 0) : (0, shift)
      let subtract = random.next() % 2 == 0
      let digits = 8 + Int(random.next() % 80)
      let (x, y) = (a.shifted(by: shiftA), b.shifted(by: shiftB))
      let whole = subtract ? (x < y ? y - x : x - y) : x + y
      let excess = whole.digitCount - digits
      let drop = excess >= 9 ? excess / 9 : 0
      let result = BigUInt.alignedSum(
        a, shiftedBy: shiftA, b, shiftedBy: shiftB, subtract: subtract, keeping: digits)
      #expect(result.value == whole.droppingLimbs(drop) && result.dropped == drop)
      #expect(result.secondLarger == (subtract && x < y))
    }
  }

  @Test func oneIsAUnitAtTheLimbsAsked() {
    for limbs in 0..<(FixedValue.capacity - 1) {
      #expect(Self.limbs(FixedValue.one(limbs: limbs)) == Array(repeating: 0, count: limbs) + [1])
    }
  }
}
