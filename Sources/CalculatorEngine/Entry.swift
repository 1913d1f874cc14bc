import CalcDecimal

/// A number being typed, kept exactly as typed: `1.50` stays `1.50`, and `-0.` stays `-0.`.
///
/// Leading zeros are dropped (`007` is `7`). An entry holds at most ``maximumDigits`` digits;
/// the `0` before a leading `0.` does not count, the zeros after the point do.
public struct Entry: Hashable, Sendable {
  /// Every typed digit, integer and fraction part together, as one integer: `1.50` is 150.
  package private(set) var digits: UInt64
  /// How many of ``digits`` follow the decimal point.
  package private(set) var fractionDigitCount: UInt8
  /// Whether a decimal point has been typed.
  package private(set) var hasPoint: Bool
  /// Whether the sign was flipped; shown even for `-0.`.
  package private(set) var isNegative: Bool

  /// The most digits an entry holds; further digits are ignored.
  package static let maximumDigits = 16

  /// A fresh entry: `0`.
  package static let zero = Entry(
    digits: 0, fractionDigitCount: 0, hasPoint: false, isNegative: false)

  /// A fresh entry with the point typed: `0.`.
  package static let zeroPoint = Entry(
    digits: 0, fractionDigitCount: 0, hasPoint: true, isNegative: false)

  /// A fresh entry holding one digit.
  package init(_ digit: Key.Digit) {
    self.init(
      digits: UInt64(digit.value), fractionDigitCount: 0, hasPoint: false, isNegative: false)
  }

  /// The entry that typing a number's digits and at most one point makes, given as a
  /// script's reader counts them (``KeyText/commonKeyLine(in:codes:)``): `digits` all of them
  /// as one integer, `fractionDigitCount` those after the point. At most 15 digits, so that
  /// every one of them fits (``appending(_:)``); leading zeros count as typed.
  package init(typedDigits digits: UInt64, fractionDigitCount: UInt8, hasPoint: Bool) {
    self.init(
      digits: digits, fractionDigitCount: fractionDigitCount, hasPoint: hasPoint,
      isNegative: false)
  }

  private init(digits: UInt64, fractionDigitCount: UInt8, hasPoint: Bool, isNegative: Bool) {
    self.digits = digits
    self.fractionDigitCount = fractionDigitCount
    self.hasPoint = hasPoint
    self.isNegative = isNegative
  }

  /// The number of digits that count towards ``maximumDigits``.
  package var digitCount: Int {
    let integerPart = digits / Entry.pow10(Int(fractionDigitCount))
    let integerDigits = integerPart == 0 ? 0 : Decimal34.digitCount(UInt128(integerPart))
    return integerDigits + Int(fractionDigitCount)
  }

  /// The entry with `digit` typed after it; unchanged when it is full.
  @inline(__always)
  package func appending(_ digit: Key.Digit) -> Entry {
    // Typing digits is most of what a calculator does, so the common case skips `digitCount`
    // (a division and a loop): with `digits` below 10^15 and fewer than 16 fraction digits, an
    // entry has at most 15 digits that count, whatever its integer part. Inlined into the
    // press of a key, as the call cost a third of a typed digit.
    let surelyRoom =
      digits < Entry.alwaysRoomBelow && Int(fractionDigitCount) < Entry.maximumDigits
    guard surelyRoom || hasRoom else { return self }
    var entry = self
    entry.digits = digits * 10 + UInt64(digit.value)
    if hasPoint { entry.fractionDigitCount += 1 }
    return entry
  }

  /// Whether a further digit fits (``digitCount`` below ``maximumDigits``): the slow path of
  /// ``appending(_:)``, out of line.
  @inline(never)
  var hasRoom: Bool { digitCount < Entry.maximumDigits }

  /// The entry with a decimal point typed; a second point is ignored.
  package func appendingPoint() -> Entry {
    var entry = self
    entry.hasPoint = true
    return entry
  }

  /// The entry with its sign flipped; `0` (without a point) has no sign to flip.
  package func flipped() -> Entry {
    guard digits != 0 || hasPoint else { return self }
    var entry = self
    entry.isNegative.toggle()
    return entry
  }

  /// The entry without its last typed character: a fraction digit, the point, or an integer
  /// digit. What is left of `-0` is `0`, and `0` stays `0`.
  package func removingLast() -> Entry {
    var entry = self
    if fractionDigitCount > 0 {
      entry.digits /= 10
      entry.fractionDigitCount -= 1
    } else if hasPoint {
      entry.hasPoint = false
    } else {
      entry.digits /= 10
    }
    if entry.digits == 0 && !entry.hasPoint { entry.isNegative = false }
    return entry
  }

  /// The entry's exact value.
  @inline(__always)
  public var value: Decimal34 {
    // At most 16 digits: exact, nothing to round.
    Decimal34(
      coefficient: UInt128(digits), exponent: -Int(fractionDigitCount), isNegative: isNegative)
  }

  /// 10^`power` for `power` in 0...19: the low half of the decimal's one table of powers.
  @inline(__always)
  static func pow10(_ power: Int) -> UInt64 {
    UInt64(truncatingIfNeeded: Decimal34.powersOfTen[power])
  }

  /// 10^(maximumDigits − 1): `digits` below it leave room for one more digit (see `appending`).
  static let alwaysRoomBelow: UInt64 = 1_000_000_000_000_000
}
