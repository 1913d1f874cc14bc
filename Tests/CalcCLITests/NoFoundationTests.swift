import Foundation
import Testing

/// calc does not link Foundation (SPEC §7's start-up: CoreFoundation's constructors alone cost
/// about 4 MB and 0.4× bc's time at every start; Documentation/Performance.md). ArgumentParser's
/// FoundationEssentials is a separate library and allowed.
@Suite struct NoFoundationTests {
  /// Marks of Foundation in an executable: its module's mangled name (in the type metadata of a
  /// static binary, stripped or not), its shared library's name (a dynamic binary's needed
  /// libraries), and CoreFoundation's constructor (an unstripped static binary's symbols).
  static let marks = ["10Foundation", "libFoundation.so", "CFInitialize"]

  /// The built `calc` holds none of the marks; a program that links Foundation holds them.
  @Test func calcDoesNotLinkFoundation() throws {
    let binary = try Data(contentsOf: CalcProcess.binary)
    #expect(binary.count > 100_000)
    for mark in Self.marks {
      #expect(binary.range(of: Data(mark.utf8)) == nil, "\(CalcProcess.binary.path) holds \(mark)")
    }
    // The test bundle itself links Foundation (it imports it): the marks do find it.
    let bundle = try Data(
      contentsOf: URL(fileURLWithPath: CommandLine.arguments[0]), options: .alwaysMapped)
    #expect(Self.marks.contains { bundle.range(of: Data($0.utf8)) != nil })
  }
}
