import CalcDecimal

/// A number being typed in Scientific mode: up to 32 digits and, after `exp`, an exponent of up
/// to 4 digits (SPEC §9), kept exactly as typed.
///
/// The rules are those of Windows' `CalcInput`: leading zeros are dropped, a point is typed once
/// and not after `exp`, `exp` adds the point if there is none (`1exp` shows `1.e+0`), `~` flips
/// the exponent's sign once `exp` was typed, and ⌫ removes exponent digits, then the exponent,
/// then the base's characters.
public struct ScientificEntry: Hashable, Sendable {
  /// The base's digits, integer and fraction part together: `1.50` is 150.
  package private(set) var digits: UInt128 = 0
  /// How many of ``digits`` follow the point.
  package private(set) var fractionDigitCount: UInt8 = 0
  /// Whether a point has been typed.
  package private(set) var hasPoint = false
  /// Whether the base is negative.
  package private(set) var isNegative = false
  /// Whether `exp` has been typed.
  package private(set) var hasExponent = false
  /// The exponent's digits (below 10,000).
  package private(set) var exponent: UInt16 = 0
  /// How many exponent digits were typed (leading zeros are not).
  package private(set) var exponentDigitCount: UInt8 = 0
  /// Whether the exponent is negative.
  package private(set) var isExponentNegative = false

  /// The most digits the base holds; the `0` of a leading `0.` does not count.
  package static let maximumDigits = 32
  /// The most digits of the exponent.
  package static let maximumExponentDigits = 4

  /// An empty entry, shown `0`.
  package static let empty = ScientificEntry()

  /// Whether nothing has been typed: no digit, no point, no `exp`.
  package var isEmpty: Bool { digits == 0 && !hasPoint && !hasExponent }

  /// Whether the base holds no character (Windows' `m_base.IsEmpty()`): no digit but zeros
  /// that were dropped, and no point.
  var isBaseEmpty: Bool { digits == 0 && !hasPoint }

  /// The number of base digits that count towards ``maximumDigits``.
  package var digitCount: Int {
    let integer = digits / Decimal34.powersOfTen[Int(fractionDigitCount)]
    return (integer == 0 ? 0 : Decimal34.digitCount(integer)) + Int(fractionDigitCount)
  }

  /// Types a digit; `false` when it does not fit (the entry is unchanged).
  mutating func append(_ digit: UInt8) -> Bool {
    if hasExponent {
      if exponentDigitCount == 0 && digit == 0 { return true }
      guard Int(exponentDigitCount) < ScientificEntry.maximumExponentDigits else { return false }
      exponent = exponent * 10 + UInt16(digit)
      exponentDigitCount += 1
      return true
    }
    if isBaseEmpty && digit == 0 { return true }
    guard digitCount < ScientificEntry.maximumDigits else { return false }
    digits = digits * 10 + UInt128(digit)
    if hasPoint { fractionDigitCount += 1 }
    return true
  }

  /// Types the point; `false` when there is one already or `exp` was typed.
  mutating func appendPoint() -> Bool {
    guard !hasPoint, !hasExponent else { return false }
    hasPoint = true
    return true
  }

  /// Starts the exponent (adding the point if there is none); `false` when it was started.
  mutating func beginExponent() -> Bool {
    _ = appendPoint()
    guard !hasExponent else { return false }
    hasExponent = true
    return true
  }

  /// Flips the exponent's sign once `exp` was typed, else the base's; an empty base has no sign.
  mutating func toggleSign() {
    if isBaseEmpty {
      isNegative = false
      isExponentNegative = false
    } else if hasExponent {
      isExponentNegative.toggle()
    } else {
      isNegative.toggle()
    }
  }

  /// Removes the last character: an exponent digit (the exponent's sign goes with the last
  /// one), the exponent, a fraction digit, the point, an integer digit.
  mutating func removeLast() {
    if hasExponent {
      if exponentDigitCount > 0 {
        exponent /= 10
        exponentDigitCount -= 1
        if exponentDigitCount == 0 { isExponentNegative = false }
      } else {
        hasExponent = false
      }
      return
    }
    if fractionDigitCount > 0 {
      digits /= 10
      fractionDigitCount -= 1
    } else if hasPoint {
      hasPoint = false
    } else {
      digits /= 10
    }
    if isBaseEmpty { isNegative = false }
  }

  /// The entry's exact value.
  public var value: Decimal34 {
    let power = Int(exponent) * (isExponentNegative ? -1 : 1)
    return Decimal34(
      coefficient: digits, exponent: power - Int(fractionDigitCount), isNegative: isNegative)
  }
}
