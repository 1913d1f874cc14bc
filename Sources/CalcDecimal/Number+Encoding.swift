// A compact byte form of a `Number`, for the memory a history's marks keep (CalculatorEngine's
// History+Marks): a kind byte, then a decimal's exponent and coefficient, or a fraction's limbs,
// as little-endian base-128 varints.

extension Number {
  /// Whether any number may hold a box: `false` until the process has made its first large
  /// fraction (a relaxed load), so a state's numbers need not be looked at until then — the
  /// everyday script makes none. A box handed to another thread was made before the handoff,
  /// so that thread sees `true` too.
  package static var mayHoldBoxes: Bool { fractionBoxesMade.load(ordering: .relaxed) }

  /// Whether the value keeps a reference (a fraction too large to live inside it): a state that
  /// holds none may be written over without a release.
  @inlinable @inline(__always)
  package var holdsBox: Bool {
    if case .big = storage { return true }
    return false
  }

  /// Appends the value to `bytes`: a kind byte (0 an exact decimal, 1 a rounded one, 2 or 3 a
  /// positive or negative fraction), then a decimal's zigzagged exponent and sign and its
  /// coefficient (2 to 19 bytes), or a fraction's numerator and denominator, each as its count
  /// of 10^9 limbs and the limbs.
  package func encode(into bytes: inout [UInt8]) {
    switch storage {
    case .decimal(let value), .rounded(let value):
      bytes.append(isRounded ? 1 : 0)
      let exponent = Int64(value.exponent)
      let zigzag = UInt64(bitPattern: (exponent << 1) ^ (exponent >> 63))
      Number.appendVarint(UInt128(zigzag) << 1 | (value.isNegative ? 1 : 0), to: &bytes)
      Number.appendVarint(value.coefficient, to: &bytes)
    case .small, .big:
      let scaled = Scaled(self)
      bytes.append(scaled.isNegative ? 3 : 2)
      for part in [scaled.numerator, scaled.denominator] {
        part.withLimbs { limbs in
          Number.appendVarint(UInt128(limbs.count), to: &bytes)
          for limb in limbs { Number.appendVarint(UInt128(limb), to: &bytes) }
        }
      }
    }
  }

  /// The value encoded at `index` of `bytes` (``encode(into:)``), and the index after it.
  package static func decode(_ bytes: [UInt8], at index: Int) -> (Number, Int) {
    let kind = bytes[index]
    var index = index + 1
    if kind < 2 {
      let (head, next) = readVarint(bytes, at: index)
      let (coefficient, end) = readVarint(bytes, at: next)
      let zigzag = UInt64(truncatingIfNeeded: head >> 1)
      let exponent = Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1)
      let value = Decimal34(
        coefficient: coefficient, exponent: Int(exponent), isNegative: head & 1 == 1)
      return (kind == 1 ? Number(rounded: value) : Number(value), end)
    }
    var parts: [BigUInt] = []
    for _ in 0..<2 {
      let (count, next) = readVarint(bytes, at: index)
      index = next
      var limbs: [UInt32] = []
      for _ in 0..<Int(count) {
        let (limb, after) = readVarint(bytes, at: index)
        limbs.append(UInt32(truncatingIfNeeded: limb))
        index = after
      }
      parts.append(
        BigUInt.build(capacity: max(limbs.count, 1)) { buffer in
          for (offset, limb) in limbs.enumerated() { buffer[offset] = limb }
          return limbs.count
        })
    }
    let scaled = Scaled(isNegative: kind == 3, numerator: parts[0], denominator: parts[1])
    return (scaled.exactResult(), index)
  }

  /// Appends `value` as a little-endian base-128 varint.
  static func appendVarint(_ value: UInt128, to bytes: inout [UInt8]) {
    var value = value
    while value >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    bytes.append(UInt8(value))
  }

  /// The varint at `index` of `bytes` and the index after it.
  static func readVarint(_ bytes: [UInt8], at index: Int) -> (UInt128, Int) {
    var value: UInt128 = 0
    var shift: UInt128 = 0
    var index = index
    while true {
      let byte = bytes[index]
      index += 1
      value |= UInt128(byte & 0x7F) << shift
      if byte < 0x80 { return (value, index) }
      shift += 7
    }
  }
}
