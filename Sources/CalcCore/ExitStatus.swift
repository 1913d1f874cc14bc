/// The exit statuses of calc (see sysexits.h).
public enum ExitStatus {
  public static let success: Int32 = 0
  /// A key line showed an error, at its end or on the way.
  public static let errorDisplayed: Int32 = 1
  public static let usage: Int32 = 64
  /// A script line was rejected.
  public static let dataError: Int32 = 65
  /// A script file could not be read.
  public static let noInput: Int32 = 66
  /// Output could not be written.
  public static let ioError: Int32 = 74
}
