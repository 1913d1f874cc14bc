import CalcDecimal
import CalcTestSupport
import CalculatorEngine
import Testing

/// SPEC §8's robustness grid (issue 32): every key of every mode, applied to each special value
/// (0, ±1, ±P/2, ±P and multiples, each mode's largest and smallest values, just inside and just
/// outside each function's domain) in each angle unit, gives a display or an error, never a trap.
///
/// A trap would end the test process; beyond that, each display is checked to be an error
/// message exactly when the calculator is in error, and a number otherwise, within the mode's
/// limits. In `swift test` the keys whose result does not depend on the angle unit run in degrees
/// only, and the binary operators run over ``representativeValues`` on each side; with
/// `CALC_LONG_TESTS=1`, everything runs in every unit and over every pair.
@Suite struct SpecialValueGridTests {
  /// Scientific mode's special values, as key text typed after `sci` and a unit key.
  static let scientificValues: [String] = [
    "0", "1", "1 ~", "0.5", "0.5 ~", "2", "2 ~", "euler",
    "pi", "pi ~", "pi / 2 =", "pi / 2 = ~", "pi * 3 / 2 =", "pi * 2 =", "pi * 2 = ~",
    "pi * 999999 =", "pi * 1000000 =", "pi * 1000000 = ~",
    "45", "90", "90 ~", "180", "270", "360", "100", "200", "300", "400 ~",
    // Just inside and just outside [-1, 1] (asin, acos, atanh, asec, acsc, acosh).
    "0.99999999999999999999999999999999", "0.99999999999999999999999999999999 ~",
    "1.0000000000000000000000000000001", "1.0000000000000000000000000000001 ~",
    // The bounds of exp, sinh and the factorial, and of trigonometry's arguments.
    "1 exp 5", "99999.99", "1 exp 4 ~", "3248", "3249", "3248.5", "0.5 ~ * 3 =",
    "1 exp 33", "1 exp 40", "9.9999999999999999999999999999999 exp 99", "1 exp 100",
    "1 exp 100 = ~",
    // The largest and smallest values, and errors as the value a key acts on.
    "9.9999999999999999999999999999999 exp 9999",
    "9.9999999999999999999999999999999 exp 9999 = ~", "1 exp 9999 ~", "1 exp 9999 ~ = ~",
    "1 exp 9999 * 10 =", "1 / 0 =", "0 / 0 =",
  ]

  /// Standard mode's special values: typed, or computed up to and past its limits.
  static let standardValues: [String] = [
    "0", "1", "1 ~", "0.5", "2", "99999999999999999999999999999999",
    "99999999999999999999999999999999 ~", "0.0000000000000000000000000000001",
    "99999999999999999999999999999999 * 99999999999999999999999999999999 * 999999999999999999999 =",
    "1 / 99999999999999999999999999999999 / 99999999999999999999999999999999 / 999999999999 =",
    "99999999999999999999999999999999 q q q", "1 / 0 =", "0 / 0 =", "4 ~ @",
  ]

  /// The values the binary operators take on each side in `swift test`.
  static let representativeValues: [String] = [
    "0", "1 ~", "0.5", "pi / 2 =", "pi * 1000000 = ~", "0.99999999999999999999999999999999 ~",
    "1.0000000000000000000000000000001", "3248.5", "1 exp 100 = ~",
    "9.9999999999999999999999999999999 exp 9999", "1 exp 9999 ~", "1 / 0 =",
  ]

  static let errors: Set<String> = [
    "Invalid input", "Cannot divide by zero", "Result is undefined", "Overflow",
  ]

  /// The keys whose result depends on the angle unit.
  static let angleKeys: Set<Key> = Set(
    [
      Key.Function.sin, .cos, .tan, .sec, .csc, .cot, .asin, .acos, .atan, .asec,
      .acsc, .acot,
    ].map { .scientific(.function($0)) })

  /// The calculator after `keys`.
  static func calculator(_ keys: String) throws -> Calculator {
    Calculator.initial.applying(try KeyText.keys(in: keys))
  }

  /// Checks that the display is an error message exactly when the calculator shows an error,
  /// and a number within Scientific mode's limits otherwise.
  static func check(_ calculator: Calculator, after keys: @autoclosure () -> String) {
    let text = DisplayFormat.posix.text(for: calculator)
    if calculator.isError {
      #expect(errors.contains(text), "\(keys()) → \(text)")
      return
    }
    let isNumber =
      !text.isEmpty && text.contains(where: \.isNumber)
      && text.allSatisfy { "0123456789.,-+eE".contains($0) }
    #expect(isNumber, "\(keys()) → \(text)")
    if let value = calculator.displayedValue, let magnitude = value.magnitudeExponent {
      #expect(magnitude < 10000 && magnitude >= -9999, "\(keys()) → \(text)")
    }
  }

  @Test(arguments: ["deg", "rad", "grad"]) func everyScientificKeyOnEverySpecialValue(
    _ unit: String
  ) throws {
    for value in Self.scientificValues {
      let prefix = "sci \(unit) \(value)"
      let base = try Self.calculator(prefix)
      Self.check(base, after: prefix)
      for key in Key.allKeys {
        guard unit == "deg" || TestSize.isLong || Self.angleKeys.contains(key) else { continue }
        let after = base.apply(key)
        Self.check(after, after: "\(prefix) \(key.canonical)")
        // x op = is x op x: the binary operators' own test covers it in `swift test`.
        if case .scientific(.binary) = key, !TestSize.isLong { continue }
        Self.check(after.apply(.equal), after: "\(prefix) \(key.canonical) =")
      }
    }
  }

  @Test func everyStandardKeyOnEverySpecialValue() throws {
    for value in Self.standardValues {
      let base = try Self.calculator(value)
      Self.check(base, after: value)
      for key in Key.standardKeys {
        let after = base.apply(key)
        Self.check(after, after: "\(value) \(key.canonical)")
        Self.check(after.apply(.equal), after: "\(value) \(key.canonical) =")
      }
      for op in ["+", "-", "*", "/"] {
        for other in Self.standardValues where TestSize.isLong || other.count < 8 {
          // x op y, y typed or computed: through the memory.
          let keys = "\(other) ms c \(value) \(op) mr ="
          Self.check(try Self.calculator(keys), after: keys)
        }
      }
    }
  }

  @Test(arguments: ["^", "yroot", "mod", "logy", "+", "-", "*", "/"]) func binaryOperators(
    _ op: String
  ) throws {
    let values = TestSize.isLong ? Self.scientificValues : Self.representativeValues
    for x in values {
      for y in values {
        // y through the memory, so that a computed y is one operand.
        let keys = "sci \(y) ms c \(x) \(op) mr ="
        Self.check(try Self.calculator(keys), after: keys)
      }
    }
  }

  @Test func exponentEntryAndFactorial() throws {
    for value in Self.scientificValues {
      for suffix in [
        "exp 9999 =", "exp 9999 ~ =", "exp 5 !", "exp 99 rad sin", "! !", "exp ~ 1 cos",
      ] {
        let keys = "sci \(value) \(suffix)"
        Self.check(try Self.calculator(keys), after: keys)
      }
    }
  }

  /// The cases of issue 32 that trapped or gave wrong digits, with their displays.
  @Test(arguments: [
    ("sci rad 1 ~ acos", "3.14159265"), ("sci rad 1 ~ asec", "3.14159265"),
    ("sci grad 1 ~ asec", "200"), ("sci deg 1 ~ asec", "180"), ("sci rad 1 asec", "0"),
    ("sci rad 2 ~ asec", "2.0943951"), ("sci rad 1 ~ acsc", "-1.57079633"),
    ("sci rad 1 exp 33 sin", "0.76230239"), ("sci rad 1 exp 40 cos", "-0.82189889"),
    ("sci rad pi * 999999 = sin", "0"), ("sci rad pi * 1000000 = sin", "1.15802831E-28"),
    ("sci rad 1 exp 100 sin", "Invalid input"), ("sci rad 0 asec", "Cannot divide by zero"),
    ("sci rad 0.5 asec", "Invalid input"), ("sci rad 0 acot", "Cannot divide by zero"),
  ]) func issueCases(_ keys: String, _ expected: String) throws {
    #expect(DisplayFormat.posix.text(for: try Self.calculator(keys)) == expected)
  }
}
