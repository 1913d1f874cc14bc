import CalcDecimal
import CalcTestSupport
import Testing

/// SPEC §2.16: √ correctly rounded to 34 significant digits, half to even.
///
/// The reference is independent of the module under test: a root r is right when it has 34
/// significant digits and x lies strictly between (r − ½ulp)² and (r + ½ulp)², checked in exact
/// integer arithmetic on limbs written here (not the module's 256-bit type).
@Suite struct SquareRootTests {
  typealias D = Decimal34

  /// An unsigned integer of any size: little-endian 32-bit limbs, just what the check needs.
  struct Big: Comparable, CustomStringConvertible {
    var limbs: [UInt32]

    init(_ value: UInt128) {
      limbs = []
      var rest = value
      while rest != 0 {
        limbs.append(UInt32(truncatingIfNeeded: rest))
        rest >>= 32
      }
    }

    init(limbs: [UInt32]) {
      var trimmed = limbs
      while trimmed.last == 0 { trimmed.removeLast() }
      self.limbs = trimmed
    }

    static func * (a: Big, b: Big) -> Big {
      var result = [UInt32](repeating: 0, count: a.limbs.count + b.limbs.count + 1)
      for (i, x) in a.limbs.enumerated() {
        var carry: UInt64 = 0
        for (j, y) in b.limbs.enumerated() {
          let sum = UInt64(x) * UInt64(y) + UInt64(result[i + j]) + carry
          result[i + j] = UInt32(truncatingIfNeeded: sum)
          carry = sum >> 32
        }
        var k = i + b.limbs.count
        while carry != 0 {
          let sum = UInt64(result[k]) + carry
          result[k] = UInt32(truncatingIfNeeded: sum)
          carry = sum >> 32
          k += 1
        }
      }
      return Big(limbs: result)
    }

    /// `self × 10^n`.
    func timesPowerOfTen(_ n: Int) -> Big {
      var result = self
      for _ in 0..<n { result = result * Big(10) }
      return result
    }

    static func < (a: Big, b: Big) -> Bool {
      if a.limbs.count != b.limbs.count { return a.limbs.count < b.limbs.count }
      for index in stride(from: a.limbs.count - 1, through: 0, by: -1)
      where a.limbs[index] != b.limbs[index] {
        return a.limbs[index] < b.limbs[index]
      }
      return false
    }

    var description: String { limbs.description }
  }

  /// 10^n computed here.
  static func p10(_ n: Int) -> UInt128 {
    var value: UInt128 = 1
    for _ in 0..<n { value *= 10 }
    return value
  }

  static func digits(_ value: UInt128) -> Int { String(value).count }

  /// Whether `root` is √(coefficient × 10^exponent) correctly rounded to 34 digits.
  static func isCorrectlyRounded(_ root: D, of coefficient: UInt128, _ exponent: Int) -> Bool {
    // R × 10^u with R of exactly 34 digits: u is the exponent of the root's last place.
    var r = root.coefficient
    var u = Int(root.exponent)
    guard r != 0, digits(r) <= 34 else { return false }
    while digits(r) < 34 {
      r *= 10
      u -= 1
    }
    // 4x versus (2R ∓ 1)² × 10^(2u), both scaled to the smaller of the two exponents.
    let low = Big(2 * r - 1) * Big(2 * r - 1)
    let high = Big(2 * r + 1) * Big(2 * r + 1)
    let fourX = Big(4 * coefficient)
    let common = min(2 * u, exponent)
    let x = fourX.timesPowerOfTen(exponent - common)
    return low.timesPowerOfTen(2 * u - common) < x && x < high.timesPowerOfTen(2 * u - common)
  }

  // MARK: - Exact roots

  /// x = c × 10^e and its root r = rc × 10^re, worked out by hand.
  static let perfectSquares: [(c: UInt128, e: Int, rc: UInt128, re: Int)] = [
    (4, 0, 2, 0), (9, 0, 3, 0), (1, 0, 1, 0), (144, -2, 12, -1), (25, -2, 5, -1), (1, 2, 1, 1),
    (1, -2, 1, -1), (65536, 0, 256, 0), (1_522_756, 0, 1234, 0), (1, 40, 1, 20),
    (1, -40, 1, -20), (99_980_001, 0, 9999, 0), (9_999_999_800_000_001, 0, 99_999_999, 0),
    (16, 98, 4, 49), (81, -100, 9, -50),
  ]

  @Test(arguments: perfectSquares)
  func perfectSquareIsExact(_ c: UInt128, _ e: Int, _ rc: UInt128, _ re: Int) throws {
    let result = try #require(D.squareRoot(D(coefficient: c, exponent: e)))
    #expect(result.isNumericallyEqual(to: D(coefficient: rc, exponent: re)))
    #expect(Self.isCorrectlyRounded(result, of: c, e))
  }

  // MARK: - Rounding

  /// √2 and √3 to 34 digits (Python's decimal module, precision 34, ROUND_HALF_EVEN).
  @Test func knownIrrationalRoots() throws {
    let two = try #require(D.squareRoot(D(coefficient: 2, exponent: 0)))
    #expect(two.coefficient == 1_414_213_562_373_095_048_801_688_724_209_698)
    #expect(two.exponent == -33)
    let three = try #require(D.squareRoot(D(coefficient: 3, exponent: 0)))
    #expect(three.coefficient == 1_732_050_807_568_877_293_527_446_341_505_872)
    let ten = try #require(D.squareRoot(D(coefficient: 10, exponent: 0)))
    #expect(ten.coefficient == 3_162_277_660_168_379_331_998_893_544_432_719)
    // An odd exponent takes the other scaling: √(2 × 10^-1) = √0.2.
    let fifth = try #require(D.squareRoot(D(coefficient: 2, exponent: -1)))
    #expect(fifth.coefficient == 4_472_135_954_999_579_392_818_347_337_462_552)
    #expect(fifth.exponent == -34)
  }

  /// Just below a square and just above: the root rounds to the nearest 34-digit value.
  @Test func nearSquares() throws {
    // (10^17 − 1)² = 10^34 − 2·10^17 + 1; one below and one above it, the roots differ from
    // 10^17 − 1 by about 5E-18, which the 34th digit (1E-16 here) must round correctly.
    let square = Self.p10(34) - 2 * Self.p10(17) + 1
    for delta in [-1, 0, 1] as [Int] {
      let coefficient = delta < 0 ? square - 1 : square + UInt128(delta)
      let root = try #require(D.squareRoot(D(coefficient: coefficient, exponent: 0)))
      #expect(Self.isCorrectlyRounded(root, of: coefficient, 0), "δ = \(delta)")
    }
  }

  @Test func negativeHasNoRoot() {
    #expect(D.squareRoot(D(coefficient: 4, exponent: 0, isNegative: true)) == nil)
    #expect(D.squareRoot(-D(coefficient: 1, exponent: -30)) == nil)
  }

  @Test func zeroIsZero() throws {
    #expect(try #require(D.squareRoot(.zero)).isZero)
  }

  /// 2,000 random values (10,000 with `CALC_LONG_TESTS=1`) of 1 to 34 digits and exponents
  /// from −120 to 120.
  @Test func randomValuesAreCorrectlyRounded() throws {
    var rng = SplitMix64(state: 0x5_0A7E_2007)
    var checked = 0
    let count = TestSize.count(short: 2_000, long: 10_000)
    for _ in 0..<count {
      let digitCount = rng.int(1...34)
      var coefficient: UInt128 = UInt128(rng.int(1...9))
      for _ in 1..<digitCount { coefficient = coefficient * 10 + UInt128(rng.int(0...9)) }
      let exponent = rng.int(-120...120)
      let root = try #require(D.squareRoot(D(coefficient: coefficient, exponent: exponent)))
      #expect(
        Self.isCorrectlyRounded(root, of: coefficient, exponent), "√(\(coefficient)E\(exponent))")
      checked += 1
    }
    #expect(checked == count)
  }

  /// The reference itself rejects a root one unit in the last place off.
  @Test func referenceRejectsNeighbours() throws {
    let root = try #require(D.squareRoot(D(coefficient: 2, exponent: 0)))
    #expect(Self.isCorrectlyRounded(root, of: 2, 0))
    let up = D(coefficient: root.coefficient + 1, exponent: Int(root.exponent))
    let down = D(coefficient: root.coefficient - 1, exponent: Int(root.exponent))
    #expect(!Self.isCorrectlyRounded(up, of: 2, 0))
    #expect(!Self.isCorrectlyRounded(down, of: 2, 0))
  }
}
