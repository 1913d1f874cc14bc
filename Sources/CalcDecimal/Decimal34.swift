/// An exact decimal number with at most 34 significant digits (IEEE 754 decimal128 precision).
///
/// The value is `(isNegative ? -1 : 1) × coefficient × 10^exponent`. Results of arithmetic are
/// rounded to 34 significant digits, half to even, like decimal128. The exponent is an `Int32`,
/// far beyond anything a calculator reaches (the calculator bounds magnitudes to 10^±100
/// itself): a result whose exponent would fall below that range is rounded to fewer digits and
/// at last to zero, and one above it becomes the largest value of its sign. Zero is never
/// negative.
///
/// `==` and hashing are numeric: `1.50 == 1.5`, although their coefficients differ (150 × 10^-2
/// and 15 × 10^-1).
///
/// The type is split like swift-numerics' modules: this file holds the value and its identity;
/// `+Arithmetic` the operations, `+Rounding` the one half-even rounding that every result and
/// every shortened display goes through, `+Digits` the powers of ten and digit counts.
///
/// The type is `@frozen` and its small accessors `@inlinable`, so that the engine, in another
/// module, reads a value as cheaply as it did when the type was its own.
@frozen
public struct Decimal34: Hashable, Sendable {
  // The coefficient is stored as two 64-bit halves rather than a `UInt128`, so that the value is
  // aligned to 8 bytes, not 16: 24 bytes instead of 32, which every state that holds numbers
  // (and every snapshot of one) is copied with.
  @usableFromInline let coefficientHigh: UInt64
  @usableFromInline let coefficientLow: UInt64
  /// The power of ten the coefficient is scaled by.
  public let exponent: Int32
  /// Whether the value is below zero; never true for zero.
  public let isNegative: Bool

  /// The significant digits, below 10^34.
  @inlinable @inline(__always)
  public var coefficient: UInt128 { UInt128(coefficientHigh) << 64 | UInt128(coefficientLow) }

  /// The number of significant digits kept by arithmetic.
  public static let precision = 34

  /// Zero.
  public static let zero = Decimal34(uncheckedCoefficient: 0, exponent: 0, isNegative: false)

  /// A value from its parts; a coefficient of 10^34 or more is rounded to 34 digits, half to
  /// even.
  ///
  /// A zero coefficient gives zero, which is never negative. An exponent beyond `Int32` is
  /// brought into range as the type's documentation says.
  ///
  /// Inlinable, with the common case (a coefficient that fits, an exponent that fits) first:
  /// the engine builds a value this way for every number typed.
  @inlinable @inline(__always)
  public init(coefficient: UInt128, exponent: Int, isNegative: Bool = false) {
    // 10^34, written out: a static table would cost an initialization check here.
    if coefficient < 10_000_000_000_000_000_000_000_000_000_000_000,
      let fitting = Int32(exactly: exponent)
    {
      self.init(uncheckedCoefficient: coefficient, exponent: fitting, isNegative: isNegative)
    } else {
      self = Decimal34.roundedToFit(coefficient, exponent: exponent, isNegative: isNegative)
    }
  }

  /// ``init(coefficient:exponent:isNegative:)`` for a coefficient of 10^34 or more or an
  /// exponent beyond `Int32`: rounded, or brought into range.
  @usableFromInline
  static func roundedToFit(_ coefficient: UInt128, exponent: Int, isNegative: Bool) -> Decimal34 {
    rounded(Wide(coefficient), exponent: exponent, isNegative: isNegative, sticky: false)
  }

  /// A value from a coefficient below 10^34 and an exponent, as they are: the caller checks
  /// the coefficient.
  @inlinable @inline(__always)
  init(uncheckedCoefficient coefficient: UInt128, exponent: Int32, isNegative: Bool) {
    coefficientHigh = UInt64(truncatingIfNeeded: coefficient >> 64)
    coefficientLow = UInt64(truncatingIfNeeded: coefficient)
    self.exponent = exponent
    self.isNegative = isNegative && coefficient != 0
  }

  /// Whether the value is zero.
  @inlinable
  public var isZero: Bool { coefficientHigh == 0 && coefficientLow == 0 }

  /// Whether two values are the same number, whatever their coefficients: the same as `==`.
  package func isNumericallyEqual(to other: Decimal34) -> Bool {
    if isZero || other.isZero { return isZero && other.isZero }
    guard isNegative == other.isNegative else { return false }
    let (a, b) = (self.normalized, other.normalized)
    return a.coefficient == b.coefficient && a.exponent == b.exponent
  }

  /// Whether `a` and `b` are the same number: `1.50 == 1.5`.
  public static func == (a: Decimal34, b: Decimal34) -> Bool {
    if a.coefficientLow == b.coefficientLow, a.coefficientHigh == b.coefficientHigh,
      a.exponent == b.exponent
    {
      return a.isNegative == b.isNegative
    }
    return a.isNumericallyEqual(to: b)
  }

  /// Hashes the number, not its coefficient: equal numbers hash alike.
  public func hash(into hasher: inout Hasher) {
    let value = normalized
    hasher.combine(value.coefficientHigh)
    hasher.combine(value.coefficientLow)
    hasher.combine(value.exponent)
    hasher.combine(value.isNegative)
  }

  /// The same value with trailing zeros of the coefficient removed (as far as the exponent
  /// range allows).
  ///
  /// - Complexity: O(number of trailing zeros).
  package var normalized: Decimal34 {
    guard !isZero else { return .zero }
    var c = coefficient
    var e = exponent
    while c % 10 == 0, e < Int32.max {
      c /= 10
      e += 1
    }
    return Decimal34(uncheckedCoefficient: c, exponent: e, isNegative: isNegative)
  }
}
