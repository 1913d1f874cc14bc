extension Decimal34 {
  /// The decimal exponent of the leading digit, ⌊log10 |value|⌋; `nil` for zero.
  @inlinable
  package var magnitudeExponent: Int? {
    isZero ? nil : Int(exponent) + Decimal34.digitCount(coefficient) - 1
  }

  /// The number of decimal digits of `value`; 1 for zero.
  @inlinable
  package static func digitCount(_ value: UInt128) -> Int {
    if value == 0 { return 1 }
    let bits = 128 - value.leadingZeroBitCount
    // 1233/4096 is just above log10(2): the estimate is the digit count or one less.
    let estimate = (bits * 1233) >> 12
    return estimate < powersOfTen.count && value >= powersOfTen[estimate]
      ? estimate + 1 : estimate
  }

  /// The powers of ten 10^0 through 10^38, all that fit in a `UInt128`: `powersOfTen[n]` is
  /// 10^n.
  ///
  /// A literal, so that the compiler lays it out statically: a computed table would cost a
  /// lazy-initialization check on every use, and arithmetic uses it several times per operation.
  /// An `InlineArray`, not an array: an array of `UInt128` needs its storage class's metadata
  /// made at the first use in a process (Documentation/Performance.md, "Start-up, session 20").
  @usableFromInline package static let powersOfTen: InlineArray<39, UInt128> = [
    1,  // 10^0
    10,  // 10^1
    100,  // 10^2
    1_000,  // 10^3
    10_000,  // 10^4
    100_000,  // 10^5
    1_000_000,  // 10^6
    10_000_000,  // 10^7
    100_000_000,  // 10^8
    1_000_000_000,  // 10^9
    10_000_000_000,  // 10^10
    100_000_000_000,  // 10^11
    1_000_000_000_000,  // 10^12
    10_000_000_000_000,  // 10^13
    100_000_000_000_000,  // 10^14
    1_000_000_000_000_000,  // 10^15
    10_000_000_000_000_000,  // 10^16
    100_000_000_000_000_000,  // 10^17
    1_000_000_000_000_000_000,  // 10^18
    10_000_000_000_000_000_000,  // 10^19
    100_000_000_000_000_000_000,  // 10^20
    1_000_000_000_000_000_000_000,  // 10^21
    10_000_000_000_000_000_000_000,  // 10^22
    100_000_000_000_000_000_000_000,  // 10^23
    1_000_000_000_000_000_000_000_000,  // 10^24
    10_000_000_000_000_000_000_000_000,  // 10^25
    100_000_000_000_000_000_000_000_000,  // 10^26
    1_000_000_000_000_000_000_000_000_000,  // 10^27
    10_000_000_000_000_000_000_000_000_000,  // 10^28
    100_000_000_000_000_000_000_000_000_000,  // 10^29
    1_000_000_000_000_000_000_000_000_000_000,  // 10^30
    10_000_000_000_000_000_000_000_000_000_000,  // 10^31
    100_000_000_000_000_000_000_000_000_000_000,  // 10^32
    1_000_000_000_000_000_000_000_000_000_000_000,  // 10^33
    10_000_000_000_000_000_000_000_000_000_000_000,  // 10^34
    100_000_000_000_000_000_000_000_000_000_000_000,  // 10^35
    1_000_000_000_000_000_000_000_000_000_000_000_000,  // 10^36
    10_000_000_000_000_000_000_000_000_000_000_000_000,  // 10^37
    100_000_000_000_000_000_000_000_000_000_000_000_000,  // 10^38
  ]
}
