import CalcDecimal
import Testing

/// x^y and logy on the paths that issue 37 made fast: an exponent's p/q found by a gcd or by the
/// continued fraction, exact roots decided in integers (M = R^q and q | e), and the logarithm's
/// reduction by small integers. Expected values are exact, or mpmath's at 80 digits rounded half
/// to even to 34.
@Suite struct PowerFastPathTests {
  typealias D = Decimal34

  static func d(_ coefficient: UInt128, _ exponent: Int = 0, negative: Bool = false) -> D {
    D(coefficient: coefficient, exponent: exponent, isNegative: negative)
  }

  /// 0.3333333333333333333333333333333333 (34 threes): within 10^-32 of 1/3.
  static let third = d(3_333_333_333_333_333_333_333_333_333_333_333, -34)

  static func text(_ result: Result<D, FunctionError>) -> String {
    switch result {
    case .success(let value): return DecimalTests.canonical(value)
    case .failure(let error): return "\(error)"
    }
  }

  static let powers: [(String, D, D, String)] = [
    // Exact roots: a gcd gives q, the integers decide.
    ("1.44^0.5", d(144, -2), d(5, -1), "12E-1"),
    ("1024^0.3", d(1024), d(3, -1), "8E0"),
    ("15.625^(1/3)", d(15625, -3), third, "25E-1"),
    ("0.001^(1/3)", d(1, -3), third, "1E-1"),
    ("(10^3000)^(1/3)", d(1, 3000), third, "1E1000"),
    ("(-8)^(1/3)", d(8, negative: true), third, "-2E0"),
    ("(-32)^0.6", d(32, negative: true), d(6, -1), "-8E0"),
    ("(-8)^0.5", d(8, negative: true), d(5, -1), "invalidInput"),
    // No exact root (e not a multiple of q, or M not a q-th power): correctly rounded.
    ("2^0.5", d(2), d(5, -1), "1414213562373095048801688724209698E-33"),
    ("2.7^0.25", d(27, -1), d(25, -2), "12818610191887021963241792086607E-31"),
    ("5.9549^0.65", d(59549, -4), d(65, -2), "3189101981092091836172624886538637E-33"),
    ("7.3283^4.37", d(73283, -4), d(437, -2), "6026486083399188047795956202213334E-30"),
  ]

  @Test(arguments: powers.indices) func power(_ index: Int) {
    let (name, x, y, expected) = Self.powers[index]
    #expect(Self.text(D.power(x, y)) == expected, "\(name)")
  }

  static let logarithms: [(String, D, D, String)] = [
    // p/q results are exact (the continued fraction finds q).
    ("log_4 8", d(8), d(4), "15E-1"),
    ("log_9 27", d(27), d(9), "15E-1"),
    ("log_1000 100000", d(100_000), d(1000), "1666666666666666666666666666666667E-33"),
    ("log_0.25 8", d(8), d(25, -2), "-15E-1"),
    // Irrational: correctly rounded.
    ("log_3 2", d(2), d(3), "6309297535714574370995271143427609E-34"),
  ]

  @Test(arguments: logarithms.indices) func logarithm(_ index: Int) {
    let (name, x, y, expected) = Self.logarithms[index]
    #expect(Self.text(D.log(x, base: y)) == expected, "\(name)")
  }
}
