import CalculatorEngine
import Foundation
import Testing

@testable import CalcCLI

/// The current-directory seam (``WorkingDirectory``, `Files.system(in:)`): relative names are
/// taken in the folder given, absolute ones are left alone, and messages name files as given —
/// what lets the script suites run in process, each in a folder of its own.
@Suite struct WorkingDirectoryTests {
  @Test(arguments: [
    ("/tmp/w", "s.calc", "/tmp/w/s.calc"),
    ("/tmp/w/", "sub/s.calc", "/tmp/w/sub/s.calc"),
    ("/tmp/w", "/etc/s.calc", "/etc/s.calc"),
    ("/tmp/w", "", ""),
    ("/", "s.calc", "//s.calc"),
  ])
  func relativeNamesAreTakenInTheFolder(folder: String, name: String, resolved: String) {
    let directory = WorkingDirectory(folder)
    #expect(directory.resolve(FileName(name)) == FileName(resolved))
    #expect(directory.unresolved(directory.resolve(FileName(name))) == FileName(name))
  }

  @Test func withoutAFolderNamesAreLeftAsTheyAre() {
    let directory = WorkingDirectory(nil)
    #expect(directory.resolve(FileName("s.calc")) == FileName("s.calc"))
    #expect(directory.unresolved("cannot save '/tmp/w/s.calc'") == "cannot save '/tmp/w/s.calc'")
  }

  @Test func filesAreWrittenReadAndNamedRelativeToTheFolder() throws {
    try withTemporaryDirectory { directory in
      let files = Files.system(in: directory.path)
      try files.write(Array("12+3=\n".utf8), FileName("s.calc"))
      #expect(try Script.read("s.calc", in: directory) == "12+3=\n")
      #expect(files.identity(FileName("s.calc")) != nil)
      #expect(files.identity(FileName("missing.calc")) == nil)
      let loaded = try files.load(FileName("s.calc"))
      #expect(SessionScript.text(of: loaded.session.history).hasSuffix("\n12+3=\n:goto 5\n"))
      #expect(throws: LineError("cannot load 'missing.calc': No such file or directory")) {
        try files.load(FileName("missing.calc"))
      }
      // A failure's reason names a link as it was given, not by the folder's path.
      try FileManager.default.createSymbolicLink(
        atPath: directory.appendingPathComponent("dangling").path, withDestinationPath: "nowhere")
      do throws(Files.WriteFailure) {
        try files.write(Array("1\n".utf8), FileName("dangling"))
        Issue.record("a write through a dangling link succeeded")
      } catch {
        #expect(
          error.reason
            == "'dangling' is a dangling symbolic link (to 'nowhere'); calc does not create the "
            + "file a link names")
      }
    }
  }
}
