import Synchronization

/// A number of the calculator (SPEC §2 rule 15): exact while every step that made it was
/// rational, a 34-digit decimal marked as rounded once a step was not.
///
/// An exact value is kept in the cheapest form that holds it:
/// - a ``Decimal34`` when it is a decimal of at most 34 significant digits (every typed number,
///   and what the everyday script computes: `123.45*6.7=` costs what `Decimal34`'s product costs);
/// - a fraction p/q in lowest terms otherwise (1/3, 10^40 + 1), inside the value when p is below
///   2^128 and q below 2^32 (`12345.67/7` is 1234567/700), else in a shared box;
///
/// as long as p and q have at most ``digitCap`` (120) decimal digits. A step whose exact result
/// would need more, or that is not rational (√2, sin, ln), rounds its result to 34 significant
/// digits, half to even, and the value is marked as rounded from then on: each later step on it
/// rounds its result to 34 digits, as calc 0.4 did for every step. A value that is a 34-digit
/// decimal is exact whatever its fraction's digits (1E-200 is 1/10^200, and exact).
///
/// `==` and hashing compare the number *and* the mark: the exact 0.5 and a rounded 0.5 are
/// different states (the next ÷3 keeps 1/6 exact from one and rounds from the other). Use
/// ``isNumericallyEqual(to:)`` and ``compare(_:_:)`` for the numbers alone.
///
/// The value takes 24 bytes, as a `Decimal34` does (`MemoryLayout<Number>.stride`; the box of a
/// large fraction is shared by every copy).
public struct Number: Hashable, Sendable {
  /// The forms of a number.
  @usableFromInline
  enum Storage: Sendable {
    /// An exact decimal of at most 34 significant digits.
    case decimal(Decimal34)
    /// An exact fraction in lowest terms, numerator below 2^128, denominator below 2^32, not a
    /// 34-digit decimal.
    case small(SmallFraction)
    /// An exact fraction in lowest terms with numerator and denominator of at most 120 digits
    /// that is neither a 34-digit decimal nor a ``small`` one.
    case big(FractionBox)
    /// A 34-digit decimal that a step rounded (or that depends on one that did).
    case rounded(Decimal34)
  }

  @usableFromInline let storage: Storage

  @inlinable @inline(__always)
  init(storage: Storage) { self.storage = storage }

  /// The most decimal digits an exact fraction's numerator or denominator may have.
  public static let digitCap = 120

  /// An exact value: the decimal itself.
  @inlinable @inline(__always)
  public init(_ value: Decimal34) { storage = .decimal(value) }

  /// A value marked as rounded: `value` is what a step that was not exact gave (π, e, a sine).
  @inlinable @inline(__always)
  public init(rounded value: Decimal34) { storage = .rounded(value) }

  /// The exact integer `value`.
  public init(_ value: Int) {
    self.init(
      Decimal34(coefficient: UInt128(value.magnitude), exponent: 0, isNegative: value < 0))
  }

  /// Exact zero.
  public static let zero = Number(Decimal34.zero)
  /// Exact one.
  public static let one = Number(Decimal34(coefficient: 1, exponent: 0))

  /// Whether a step that made the value rounded (its value is a 34-digit decimal, not exact).
  @inlinable
  public var isRounded: Bool {
    if case .rounded = storage { return true }
    return false
  }

  /// Whether the value is exact (not ``isRounded``).
  @inlinable
  public var isExact: Bool { !isRounded }

  /// The value when it is a decimal of at most 34 digits — exact, or rounded by an earlier
  /// step —; `nil` for a fraction that is not one (1/3).
  ///
  /// A display shows such a value as it shows a `Decimal34`: nothing is rounded twice.
  @inlinable
  public var shortDecimal: Decimal34? {
    switch storage {
    case .decimal(let value), .rounded(let value): value
    case .small, .big: nil
    }
  }

  /// Whether the value is zero.
  @inlinable
  public var isZero: Bool {
    switch storage {
    case .decimal(let value), .rounded(let value): value.isZero
    case .small, .big: false
    }
  }

  /// Whether the value is below zero.
  public var isNegative: Bool {
    switch storage {
    case .decimal(let value), .rounded(let value): value.isNegative
    case .small(let fraction): fraction.isNegative
    case .big(let box): box.isNegative
    }
  }

  /// Whether the value is an integer.
  public var isInteger: Bool {
    switch storage {
    case .decimal(let value), .rounded(let value): value.isInteger
    case .small(let fraction): fraction.denominator == 1
    case .big(let box): box.denominator.isOne
    }
  }

  /// Whether ⌊log10 |value|⌋ is surely within `lower...upper` (or the value is zero), as a
  /// decimal's exponent alone tells when all 34 of its places lie within: a test of two integers,
  /// where ``magnitudeExponent`` counts the coefficient's digits (a call of about 60
  /// instructions, each everyday line's `=` paid it). `false` means "not known": a fraction, or a
  /// decimal with a place outside, is left to ``magnitudeExponent``.
  @inlinable @inline(__always)
  public func magnitudeIsSurelyWithin(_ lower: Int, _ upper: Int) -> Bool {
    switch storage {
    case .decimal(let value), .rounded(let value):
      let exponent = Int(value.exponent)
      return exponent >= lower && exponent + 33 <= upper  // 34 places: e ... e + 33
    case .small, .big: return false
    }
  }

  /// ⌊log10 |value|⌋ of the exact value; `nil` for zero.
  ///
  /// For a rounded value it is the 34-digit decimal's.
  public var magnitudeExponent: Int? {
    switch storage {
    case .decimal(let value), .rounded(let value): value.magnitudeExponent
    case .small(let fraction): fraction.magnitudeExponent
    case .big(let box): Scaled(box).magnitudeExponent
    }
  }

  // MARK: - Identity

  /// Whether the two are the same number and both exact or both rounded.
  public static func == (a: Number, b: Number) -> Bool {
    switch (a.storage, b.storage) {
    case (.decimal(let x), .decimal(let y)), (.rounded(let x), .rounded(let y)): x == y
    case (.small(let x), .small(let y)): x == y
    case (.big(let x), .big(let y)):
      x === y
        || (x.isNegative == y.isNegative && x.numerator == y.numerator
          && x.denominator == y.denominator)
    case (.decimal, _), (.small, _), (.big, _), (.rounded, _): false
    }
  }

  /// Hashes the number and the mark: equal values hash alike.
  public func hash(into hasher: inout Hasher) {
    switch storage {
    case .decimal(let value):
      hasher.combine(0 as UInt8)
      hasher.combine(value)
    case .small(let fraction):
      hasher.combine(1 as UInt8)
      hasher.combine(fraction)
    case .big(let box):
      hasher.combine(2 as UInt8)
      hasher.combine(box.isNegative)
      box.numerator.withLimbs { for limb in $0 { hasher.combine(limb) } }
      hasher.combine(0xFFFF_FFFF as UInt32)
      box.denominator.withLimbs { for limb in $0 { hasher.combine(limb) } }
    case .rounded(let value):
      hasher.combine(3 as UInt8)
      hasher.combine(value)
    }
  }

  /// Whether the two values are the same number, rounded or not.
  public func isNumericallyEqual(to other: Number) -> Bool { Number.compare(self, other) == 0 }

  /// -1, 0 or 1 as `a` is below, equal to or above `b`, as numbers (the mark plays no part).
  ///
  /// - Complexity: O(1) for two decimals; for fractions, a product of numerators and
  ///   denominators.
  public static func compare(_ a: Number, _ b: Number) -> Int {
    if let x = a.shortDecimal, let y = b.shortDecimal {
      if x == y { return 0 }
      guard let difference = Decimal34.exactSum(x, -y) else {
        // The exact difference needs more than 34 digits, so it is not zero; its sign is the
        // rounded difference's (rounding keeps the sign of a nonzero value).
        return (x - y).isNegative ? -1 : 1
      }
      return difference.isNegative ? -1 : 1
    }
    let (signA, signB) = (a.signum, b.signum)
    if signA != signB { return signA < signB ? -1 : 1 }
    if signA == 0 { return 0 }
    let (x, y) = (Scaled(a), Scaled(b))
    let magnitudes = x.compareMagnitudes(y)
    return signA < 0 ? -magnitudes : magnitudes
  }

  /// -1, 0 or 1 as the value is below, equal to or above zero.
  public var signum: Int { isZero ? 0 : (isNegative ? -1 : 1) }
}

extension Number: CustomStringConvertible {
  /// The exact fraction (`1/3`, `12`) or `≈` and the 34-digit value: `:exact`'s text without the
  /// expansion.
  public var description: String { fractionText ?? "≈ " + decimalValue.plainText }
}

/// A fraction small enough to live inside a ``Number``: a numerator below 2^128 (two 64-bit
/// halves, as in `Decimal34`) and a denominator below 2^32, in lowest terms.
@usableFromInline
struct SmallFraction: Hashable, Sendable {
  let numeratorHigh: UInt64
  let numeratorLow: UInt64
  /// The denominator, at least 1.
  let denominator: UInt32
  /// Whether the fraction is below zero (it is never zero).
  @usableFromInline let isNegative: Bool

  init(numerator: UInt128, denominator: UInt32, isNegative: Bool) {
    numeratorHigh = UInt64(truncatingIfNeeded: numerator >> 64)
    numeratorLow = UInt64(truncatingIfNeeded: numerator)
    self.denominator = denominator
    self.isNegative = isNegative
  }

  var numerator: UInt128 { UInt128(numeratorHigh) << 64 | UInt128(numeratorLow) }

  /// ⌊log10 (numerator / denominator)⌋.
  var magnitudeExponent: Int {
    let estimate = Decimal34.digitCount(numerator) - Decimal34.digitCount(UInt128(denominator))
    // numerator / denominator lies in [10^(estimate − 1), 10^(estimate + 1)).
    let below: Bool
    if estimate >= 0 {
      below =
        Decimal34.Wide(numerator)
        < Decimal34.Wide.product(UInt128(denominator), Decimal34.powersOfTen[estimate])
    } else {
      below =
        Decimal34.Wide.product(numerator, Decimal34.powersOfTen[-estimate])
        < Decimal34.Wide(UInt128(denominator))
    }
    return below ? estimate - 1 : estimate
  }
}

/// A fraction too large for ``SmallFraction``, shared by every copy of the ``Number`` that holds
/// it: numerator and denominator of at most 120 digits (16 limbs of 10^9 each, inside their
/// `BigUInt`s), in lowest terms.
@usableFromInline
final class FractionBox: Sendable {
  let isNegative: Bool
  let numerator: BigUInt
  let denominator: BigUInt

  init(isNegative: Bool, numerator: BigUInt, denominator: BigUInt) {
    if !fractionBoxesMade.load(ordering: .relaxed) {
      fractionBoxesMade.store(true, ordering: .relaxed)
    }
    self.isNegative = isNegative
    self.numerator = numerator
    self.denominator = denominator
  }
}

/// Whether this process has made a ``FractionBox`` yet: until it has, no ``Number`` holds a
/// reference (``Number/mayHoldBoxes``).
let fractionBoxesMade = Atomic<Bool>(false)
