import CalcDecimal
import CalcTestSupport
import Foundation
import Testing

/// The elementary functions against an independent reference (issue 22): mpmath at 110 digits
/// (400 for trigonometry, 250 for asec, acsc and acot), rounded to 34 half to even by `Scripts/elementary-reference.py`, whose output is the
/// checked-in fixture `Fixtures/elementary-reference.txt`. The script and this test draw the
/// same arguments from the same SplitMix64 streams; the fixture holds a hash of each correctly
/// rounded result (`?` where 80 digits cannot decide it, `ovf` beyond Scientific mode's limits,
/// `skip` for a pole or an integer n!).
///
/// The line `largeradian` is the property of issue 32: sin … cot of random radian arguments from
/// 10^6 to 10^99 (and of k·P/2 rounded to 34 digits, whose rest is small) agree with the
/// reference, correctly rounded and so faithfully. `asec`, `acsc` and `acot` draw half their
/// arguments near ±1. See ``count`` for how many rows run.
@Suite struct ElementaryReferenceTests {
  typealias Case = (
    arguments: [Decimal34], unit: AngleUnit?, result: Result<Decimal34, FunctionError>
  )

  /// Each function's name and the hashes of its first ``count`` rows (the rest of a line is
  /// not split, which in a debug build would take seconds).
  static let fixture: [(name: String, hashes: [Substring], rows: Int)] = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/elementary-reference.txt")
    let text = try! String(contentsOf: url, encoding: .utf8)
    return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
      let fields = line.split(separator: " ", maxSplits: count + 1)
      // Every hash is 8 hex digits, `?` or `skip`; the rows are counted without splitting.
      let rows = line.utf8.count(where: { $0 == UInt8(ascii: " ") })
      return (String(fields[0]), Array(fields.dropFirst().prefix(count)), rows)
    }
  }()

  /// Rows per function: 12 in `swift test`; with `CALC_LONG_TESTS=1`, all 10,000 in an
  /// optimized build (`.ci/run` runs this suite with `-c release`) and 300 in a debug build,
  /// where the working-precision arithmetic is some twenty times slower.
  static let count: Int = {
    #if DEBUG
      TestSize.isLong ? 300 : 12
    #else
      TestSize.isLong ? 10_000 : 12
    #endif
  }()

  @Test func fixtureCoversEveryFunction() {
    #expect(Self.fixture.count == 30)
    #expect(Self.fixture.allSatisfy { $0.rows == 10_000 })
  }

  @Test(arguments: fixture.map(\.name)) func function(_ name: String) throws {
    let hashes = Self.fixture.first { $0.name == name }!.hashes
    let index = Self.fixture.firstIndex { $0.name == name }!
    var random = SplitMix64(state: 0xCA1C_0000 + UInt64(index))
    var checked = 0
    for row in 0..<Self.count {
      guard let (arguments, unit, result) = Self.draw(name, &random) else { continue }
      let expected = hashes[row]
      if expected == "skip" || expected == "?" { continue }
      if expected == "ovf" {
        #expect(
          result == .failure(.overflow), "\(name)(\(arguments.map(\.plainText))) (row \(row))")
        checked += 1
        continue
      }
      switch result {
      case .success(let value):
        let text = Self.text(value)
        #expect(
          Self.hash(text) == expected,
          "\(name)\(unit.map { " \($0)" } ?? "")(\(arguments.map { "\($0.plainText)" }.joined(separator: ", "))) = \(text): not the correct rounding (row \(row))"
        )
      case .failure(let error):
        Issue.record("\(name)(\(arguments.map(\.plainText))) failed with \(error) (row \(row))")
      }
      checked += 1
    }
    #expect(checked >= Self.count / 2)
  }

  /// Issue 32's hard cases, correctly rounded by mpmath at 600 digits: the 34-digit decimal below
  /// 10^100 nearest a multiple of π/2 (9.319…·10^69, 1.9·10^-36 from it, found from the
  /// continued fractions of 10^s·2/π), arguments that calc 0.1 snapped (10^33, 10^40), the top of
  /// the range, and asec, acsc and acot next to ±1, where a reciprocal rounded to 34 digits
  /// first lost digits.
  @Test(arguments: [
    (TrigFunction.sin, "9319713343512450470822490568843585e36", "-1e0"),
    (.cos, "9319713343512450470822490568843585e36", "1901942156591920288934646196065374e-69"),
    (.tan, "9319713343512450470822490568843585e36", "-5257783453267025277074925170731134e2"),
    (.cot, "9319713343512450470822490568843585e36", "-1901942156591920288934646196065374e-69"),
    (.sin, "1e33", "7623023949526979198881641510882362e-34"),
    (.cos, "1e40", "-8218988919070239214448025364432558e-34"),
    (.sin, "9999999999999999999999999999999999e66", "-8573028761647466473801564932123458e-34"),
    (.sec, "-1234567890123456789012345678901234e50", "3011355230810740929071251438522227e-33"),
    (.asec, "1000000000000000000000000000000001e-33", "4472135954999579392818347337462551e-50"),
    (.asec, "-1000000000000000000000000000000001e-33", "3141592653589793193741283833283709e-33"),
    (.acsc, "1000000000000000000000000000000001e-33", "1570796326794896574509962141643958e-33"),
    (.acsc, "-1000000000000000000000000000000001e-33", "-1570796326794896574509962141643958e-33"),
    (.acot, "9999999999999999999999999999999999e-34", "7853981633974483096156608458198758e-34"),
    (.asec, "100000000000000000001e-20", "141421356237309504879579616769981e-42"),
  ]) func hardRadianCases(_ f: TrigFunction, _ argument: String, _ expected: String) throws {
    let parts = argument.split(separator: "e")
    let x = Decimal34(
      coefficient: UInt128(parts[0].drop { $0 == "-" })!, exponent: Int(parts[1])!,
      isNegative: parts[0].hasPrefix("-"))
    let value = try Decimal34.trig(f, x, unit: .radians).get()
    #expect(Self.text(value) == expected)
  }

  // MARK: - The script's arguments, drawn the same way

  static func draw(_ rng: inout SplitMix64, _ low: Int, _ high: Int, signed: Bool) -> Decimal34 {
    let k = 1 + rng.below(34)
    let a = rng.next()
    let b = rng.next()
    var c = (UInt128(a) << 64 | UInt128(b)) % Decimal34.powersOfTen[k]
    if c == 0 { c = 1 }
    let m = low + rng.below(high - low + 1)
    let e = m - (Decimal34.digitCount(c) - 1)
    let negative = signed && rng.below(2) == 1
    return Decimal34(coefficient: c, exponent: e, isNegative: negative)
  }

  static let units: [AngleUnit] = [.degrees, .radians, .grads]

  static func trigArgument(_ rng: inout SplitMix64, _ unit: AngleUnit) -> Decimal34 {
    if rng.below(4) == 0 {
      let n = rng.below(21)
      let delta = draw(&rng, -30, -3, signed: true)
      let base: Decimal34
      switch unit {
      case .degrees: base = Decimal34(coefficient: UInt128(90 * n), exponent: 0)
      case .grads: base = Decimal34(coefficient: UInt128(100 * n), exponent: 0)
      case .radians:
        base = Decimal34.dividing(
          Decimal34(coefficient: UInt128(n), exponent: 0) * Decimal34.pi,
          by: Decimal34(coefficient: 2, exponent: 0))!
      }
      return base + delta
    }
    return draw(&rng, -20, 20, signed: true)
  }

  static func integer(_ n: Int) -> Decimal34 {
    Decimal34(coefficient: UInt128(n.magnitude), exponent: 0, isNegative: n < 0)
  }

  /// The next case of `name`, or `nil` for one the script skips without drawing differently.
  static func draw(_ name: String, _ rng: inout SplitMix64) -> Case? {
    switch name {
    case "exp":
      let x = draw(&rng, -30, 4, signed: true)
      return ([x], nil, Decimal34.exp(x))
    case "ln":
      let x = draw(&rng, -300, 300, signed: false)
      return ([x], nil, Decimal34.ln(x))
    case "log10":
      let x = draw(&rng, -300, 300, signed: false)
      return ([x], nil, Decimal34.log10(x))
    case "pow10":
      let x = draw(&rng, -30, 3, signed: true)
      return ([x], nil, Decimal34.pow10(x))
    case "pow2":
      let x = draw(&rng, -30, 4, signed: true)
      return ([x], nil, Decimal34.pow2(x))
    case "sin", "cos", "tan", "sec", "csc", "cot":
      let unit = units[rng.below(3)]
      let x = trigArgument(&rng, unit)
      let f = TrigFunction.allCases.first { "\($0)" == name }!
      return ([x], unit, Decimal34.trig(f, x, unit: unit))
    case "largeradian":
      // sin … cot of radians from 10^6 to 10^99: random, or k·P/2 rounded to 34 digits.
      let f = [TrigFunction.sin, .cos, .tan, .sec, .csc, .cot][rng.below(6)]
      var x: Decimal34
      if rng.below(2) == 0 {
        x = draw(&rng, 6, 99, signed: true)
      } else {
        let k = draw(&rng, 5, 66, signed: false).floor
        x = Decimal34.dividing(k * Decimal34.pi, by: integer(2))!
        if rng.below(2) == 1 { x = -x }
      }
      return ([x], .radians, Decimal34.trig(f, x, unit: .radians))
    case "asec", "acsc", "acot":
      let unit = units[rng.below(3)]
      var x: Decimal34
      if rng.below(2) == 0 {
        // Near ±1, from either side for acot.
        x = integer(1) + draw(&rng, -33, -1, signed: name == "acot")
      } else {
        x = name == "acot" ? draw(&rng, -30, 30, signed: false) : draw(&rng, 0, 30, signed: false)
      }
      if rng.below(2) == 1 { x = -x }
      let f: TrigFunction = name == "asec" ? .asec : name == "acsc" ? .acsc : .acot
      return ([x], unit, Decimal34.trig(f, x, unit: unit))
    case "asin", "acos":
      let unit = units[rng.below(3)]
      let x = draw(&rng, -30, -1, signed: true)
      return ([x], unit, Decimal34.trig(name == "asin" ? .asin : .acos, x, unit: unit))
    case "atan":
      let unit = units[rng.below(3)]
      let x = draw(&rng, -30, 30, signed: true)
      return ([x], unit, Decimal34.trig(.atan, x, unit: unit))
    case "sinh", "cosh", "tanh":
      let x = draw(&rng, -30, 3, signed: true)
      let f: TrigFunction = name == "sinh" ? .sinh : name == "cosh" ? .cosh : .tanh
      return ([x], nil, Decimal34.trig(f, x, unit: .degrees))
    case "asinh":
      let x = draw(&rng, -30, 30, signed: true)
      return ([x], nil, Decimal34.trig(.asinh, x, unit: .degrees))
    case "acosh":
      let x = Decimal34(coefficient: 1, exponent: 0) + draw(&rng, -33, 30, signed: false)
      return ([x], nil, Decimal34.trig(.acosh, x, unit: .degrees))
    case "atanh":
      let x = draw(&rng, -30, -1, signed: true)
      return ([x], nil, Decimal34.trig(.atanh, x, unit: .degrees))
    case "power":
      let x = draw(&rng, -3, 3, signed: false)
      let y = draw(&rng, -3, 1, signed: true)
      return ([x, y], nil, Decimal34.power(x, y))
    case "negativepower":
      let x = -draw(&rng, -3, 3, signed: false)
      let q = 3 + 2 * rng.below(499)
      let p = rng.below(61) - 30
      let y = Decimal34.dividing(integer(p), by: integer(q))!
      return ([x, y], nil, Decimal34.power(x, y))
    case "root":
      let x = draw(&rng, -10, 10, signed: false)
      let y = draw(&rng, -1, 2, signed: true)
      return ([x, y], nil, Decimal34.root(x, index: y))
    case "logy":
      let x = draw(&rng, -20, 20, signed: false)
      let y = draw(&rng, -5, 5, signed: false)
      return ([x, y], nil, Decimal34.log(x, base: y))
    case "factorial":
      let x = draw(&rng, -1, 2, signed: true)
      return ([x], nil, Decimal34.factorial(x))
    case "cbrt":
      let x = draw(&rng, -300, 300, signed: true)
      return ([x], nil, Decimal34.cubeRoot(x))
    default:
      Issue.record("unknown function \(name)")
      return nil
    }
  }

  // MARK: - The script's hash

  /// `[-]coefficient e exponent`, the coefficient without trailing zeros; `0e0` for zero.
  static func text(_ value: Decimal34) -> String {
    if value.isZero { return "0e0" }
    let normal = value.normalized
    return (normal.isNegative ? "-" : "") + "\(normal.coefficient)e\(normal.exponent)"
  }

  /// The low 32 bits of FNV-1a 64, as 8 hex digits.
  static func hash(_ text: String) -> Substring {
    var h: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in text.utf8 { h = (h ^ UInt64(byte)) &* 0x100_0000_01B3 }
    let hex = String(h & 0xFFFF_FFFF, radix: 16)
    return Substring(String(repeating: "0", count: 8 - hex.count) + hex)
  }
}

extension Decimal34 {
  /// The value as plain text for messages: coefficient, `e`, exponent.
  fileprivate var plainText: String {
    (isNegative ? "-" : "") + "\(coefficient)e\(exponent)"
  }
}
