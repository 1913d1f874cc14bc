import Foundation

/// How big the tests' random sweeps are: small by default, so that `swift test` stays quick;
/// `CALC_LONG_TESTS=1` (set by `.ci/run`) asks for the long runs.
public enum TestSize {
  /// Whether `CALC_LONG_TESTS` is set to `1`.
  public static let isLong = ProcessInfo.processInfo.environment["CALC_LONG_TESTS"] == "1"

  /// `short` normally, `long` with `CALC_LONG_TESTS=1`.
  public static func count(short: Int, long: Int) -> Int { isLong ? long : short }
}
