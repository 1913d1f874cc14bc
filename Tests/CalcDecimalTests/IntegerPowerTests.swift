import CalcTestSupport
import Testing

@testable import CalcDecimal

/// x^n from products cut to 60 digits (``Decimal34/integerPower(_:_:)``) against the exact
/// product in integers rounded once (`exactOnly`), which decided every such power before: the
/// cut products must give the same 34 digits, or say they are in doubt and take the exact path.
@Suite struct IntegerPowerTests {
  typealias D = Decimal34

  static func text(_ result: Result<D, FunctionError>) -> String {
    switch result {
    case .success(let value): return DecimalTests.canonical(value)
    case .failure(let error): return "\(error)"
    }
  }

  /// Random bases of 1 to 34 digits and exponents of −2,000…2,000 whose exact product has more
  /// than 120 digits (the cut path), 400 by default, 20,000 under `CALC_LONG_TESTS=1`.
  @Test func cutProductsRoundAsTheExactOne() {
    var random = SplitMix64(state: 0x1_2345_6789)
    var cut = 0
    for _ in 0..<TestSize.count(short: 400, long: 20_000) {
      let digits = random.int(1...34)
      var coefficient: UInt128 = 0
      for _ in 0..<digits { coefficient = coefficient * 10 + UInt128(random.below(10)) }
      if coefficient == 0 { coefficient = 7 }
      let x = D(
        coefficient: coefficient, exponent: random.int(-40...10), isNegative: random.below(2) == 0)
      let n = random.int(1...2000) * (random.below(4) == 0 ? -1 : 1)
      let fast = Self.text(D.integerPower(x, n))
      let exact = Self.text(D.integerPower(x, n, exactOnly: true))
      #expect(fast == exact, "\(DecimalTests.canonical(x)) ^ \(n)")
      if digits * abs(n) > 120 { cut += 1 }
    }
    // The cut path is what this test is about: most cases take it.
    #expect(cut > TestSize.count(short: 400, long: 20_000) / 2)
  }

  /// Powers whose exact value is a 34-digit midpoint or has a few digits more, where the cut
  /// products cannot decide: the exact path rounds them half to even.
  static let edges: [(String, D, Int, String)] = [
    // 5^50 = 88817841970012523233890533447265625 (35 digits, ends in 5: a midpoint).
    ("5^50", D(coefficient: 5, exponent: 0), 50, "8881784197001252323389053344726562E1"),
    // 5^51 has 36 digits.
    ("5^51", D(coefficient: 5, exponent: 0), 51, "4440892098500626161694526672363281E2"),
    // 2^200: 61 digits.
    ("2^200", D(coefficient: 2, exponent: 0), 200, "1606938044258990275541962092341163E27"),
    // 1.5^300 and its reciprocal.
    ("1.5^300", D(coefficient: 15, exponent: -1), 300, "6720130653014567769122770645059901E19"),
    ("0.5^-150", D(coefficient: 5, exponent: -1), -150, "1427247692705959881058285969449495E12"),
    // Beyond the limits.
    ("9^20000", D(coefficient: 9, exponent: 0), 20000, "overflow"),
    ("10^-1000 ^ 11", D(coefficient: 1, exponent: -1000), 11, "overflow"),
  ]

  @Test(arguments: edges.indices) func edge(_ index: Int) {
    let (name, x, n, expected) = Self.edges[index]
    #expect(Self.text(D.integerPower(x, n)) == expected, "\(name)")
    #expect(Self.text(D.integerPower(x, n, exactOnly: true)) == expected, "\(name) exact")
  }
}
