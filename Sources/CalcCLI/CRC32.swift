/// CRC-32 as in IEEE 802.3, zlib and PNG (reflected polynomial `0xEDB88320`, starting from and
/// finished with all ones): the checksum of ``Journal`` lines. The CRC-32 of `123456789` is
/// `0xCBF43926`.
///
/// A running value: ``update(_:)`` carries it over more bytes, and ``value`` is the checksum of
/// all bytes so far, so a file's checksum at any point costs nothing extra.
public struct CRC32: Hashable, Sendable {
  /// The register, before the final inversion.
  private var register: UInt32 = 0xFFFF_FFFF

  /// The checksum of no bytes (0).
  public init() {}

  /// The CRC-32 of `bytes`.
  ///
  /// - Complexity: O(n) in the number of bytes.
  public init(_ bytes: some Sequence<UInt8>) {
    Array(bytes).withUnsafeBufferPointer { update($0) }
  }

  /// The CRC-32 of all bytes so far.
  public var value: UInt32 { ~register }

  /// Carries the checksum over `bytes`, a byte at a time through a table of 256 entries.
  ///
  /// - Complexity: O(n) in the number of bytes.
  public mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
    var crc = register
    CRC32.table.withUnsafeBufferPointer { table in
      for byte in bytes {
        crc = table[Int(UInt8(truncatingIfNeeded: crc) ^ byte)] ^ (crc >> 8)
      }
    }
    register = crc
  }

  /// Carries the checksum over one byte.
  public mutating func update(_ byte: UInt8) {
    register = CRC32.table[Int(UInt8(truncatingIfNeeded: register) ^ byte)] ^ (register >> 8)
  }

  /// The register after each byte value, from a register of that value's bits.
  private static let table: [UInt32] = (0..<256).map { index in
    var crc = UInt32(index)
    for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    return crc
  }
}
