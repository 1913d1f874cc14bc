/// SplitMix64: a tiny random number generator fully determined by its seed, unlike
/// `SystemRandomNumberGenerator`, so that a failing random test or a benchmark's key stream can be
/// reproduced from the seed it prints. Shared by the tests and `calc-bench`.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  public var state: UInt64

  public init(state: UInt64) {
    self.state = state
  }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound`; the modulo bias is negligible for tests and benchmarks.
  public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

  /// A number in `range`, cheap even in a debug build (no generic `range.count`).
  public mutating func int(_ range: ClosedRange<Int>) -> Int {
    range.lowerBound + below(range.upperBound - range.lowerBound + 1)
  }

  /// True with probability `percent`/100.
  public mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}
