/// Environment variables, looked up one at a time.
///
/// The process's (``process``, in CalcCLI) are read with `getenv`: building a dictionary of the
/// whole environment costs a measurable part of start-up in a statically linked binary.
public struct Environment: Sendable {
  private let lookup: @Sendable (String) -> String?

  /// An environment holding just `values`, for tests.
  public init(_ values: [String: String]) {
    lookup = { values[$0] }
  }

  /// An environment that asks `lookup` for each variable.
  package init(lookup: @escaping @Sendable (String) -> String?) {
    self.lookup = lookup
  }

  /// The value of the variable `name`, or `nil` when it is unset.
  public subscript(name: String) -> String? { lookup(name) }
}
