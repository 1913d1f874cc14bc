import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The first executable named `name` in a folder of `PATH`, if there is one.
func toolOnPath(_ name: String) -> URL? {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  for folder in path.split(separator: ":") {
    let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
    if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
  }
  return nil
}

/// Whether the tests run under CI (`CI=true`, as `.ci/run` is run), where a test that needs a tool
/// fails without it instead of being skipped.
let runningUnderCI = ProcessInfo.processInfo.environment["CI"] == "true"

/// The repository's root folder, which holds the Makefile and Documentation/calc.1.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// `make install` and `make uninstall` with `DESTDIR`, run for real with the calc this test run
/// built (`CALC_BINARY`); `.ci/run` does the same with the release build that `make` makes.
///
/// It needs `make` (and binutils' `readelf`): without `make` on `PATH` the suite is skipped with that
/// reason in a plain `swift test`, and fails under `CI=true`.
@Suite(
  .enabled(
    if: toolOnPath("make") != nil || runningUnderCI,
    "make is not installed (apt-get install make): make install is unchecked"))
struct InstallTests {

  /// Runs `make ARGUMENTS` in the repository root.
  private func make(_ arguments: [String]) throws -> CalcRun {
    try CalcProcess.run(
      ["make", "--no-print-directory", "-C", repositoryRoot.path] + arguments,
      executable: URL(fileURLWithPath: "/usr/bin/env"))
  }

  /// Every file under `directory`, as paths relative to it, with its permission bits.
  private func files(under directory: URL) throws -> [String: mode_t] {
    var result: [String: mode_t] = [:]
    let enumerator = FileManager.default.enumerator(atPath: directory.path)!
    while let path = enumerator.nextObject() as? String {
      var information = stat()
      guard lstat(directory.appendingPathComponent(path).path, &information) == 0 else { continue }
      if information.st_mode & S_IFMT == S_IFREG { result[path] = information.st_mode & 0o7777 }
    }
    return result
  }

  private func text(_ url: URL) throws -> String {
    String(decoding: try Data(contentsOf: url), as: UTF8.self)
  }

  @Test func installLaysOutTheFilesAndUninstallRemovesThem() throws {
    try withTemporaryDirectory { destination in
      let common = ["DESTDIR=\(destination.path)", "PREFIX=/usr"]
      let install = try make(["install", "CALC_BINARY=\(CalcProcess.binary.path)"] + common)
      #expect(install.status == 0, "make install: \(install.stderr)")
      #expect(
        try files(under: destination) == [
          "usr/bin/calc": 0o755,
          "usr/share/man/man1/calc.1": 0o644,
          "usr/share/bash-completion/completions/calc": 0o644,
          "usr/share/zsh/site-functions/_calc": 0o644,
          "usr/share/fish/vendor_completions.d/calc.fish": 0o644,
        ])

      // The installed binary works, and is stripped: no symbol table is left.
      let calc = destination.appendingPathComponent("usr/bin/calc")
      let run = try CalcProcess.run(["--plain", "-k", "1000+234="], executable: calc)
      #expect(run.stdout == "1234\n")
      let sections = try CalcProcess.run(
        ["readelf", "-S", "--wide", calc.path], executable: URL(fileURLWithPath: "/usr/bin/env"))
      #expect(sections.status == 0)
      #expect(sections.stdout.contains(".text"))
      #expect(!sections.stdout.contains(".symtab"))

      // The man page as written, and the completion scripts calc generates.
      let share = destination.appendingPathComponent("usr/share")
      #expect(
        try text(share.appendingPathComponent("man/man1/calc.1"))
          == text(repositoryRoot.appendingPathComponent("Documentation/calc.1")))
      for (shell, path) in [
        ("bash", "bash-completion/completions/calc"), ("zsh", "zsh/site-functions/_calc"),
        ("fish", "fish/vendor_completions.d/calc.fish"),
      ] {
        let generated = try CalcProcess.run(["--generate-completion-script", shell]).stdout
        #expect(try text(share.appendingPathComponent(path)) == generated, "\(shell)")
      }

      let uninstall = try make(["uninstall"] + common)
      #expect(uninstall.status == 0, "make uninstall: \(uninstall.stderr)")
      #expect(try files(under: destination) == [:])
    }
  }

  /// Without PREFIX everything goes under /usr/local; `make -n` shows the commands unrun.
  @Test func prefixIsUsrLocalByDefault() throws {
    let run = try make([
      "-n", "install", "DESTDIR=/destination", "CALC_BINARY=\(CalcProcess.binary.path)",
    ])
    #expect(run.status == 0)
    for path in [
      "'/destination/usr/local/bin/calc'", "'/destination/usr/local/share/man/man1/calc.1'",
      "'/destination/usr/local/share/bash-completion/completions/calc'",
      "'/destination/usr/local/share/zsh/site-functions/_calc'",
      "'/destination/usr/local/share/fish/vendor_completions.d/calc.fish'",
    ] {
      #expect(run.stdout.contains(path), "\(path)")
    }
    #expect(!run.stdout.contains("swift build"))
  }

  /// Without CALC_BINARY, `make install` installs the fully static release build, building it
  /// first if there is none (each function in a section of its own, linked by lld in
  /// Scripts/startup-order.txt's order, concrete types' metadata got through accessors, `sysconf`
  /// wrapped for libdispatch's count of processors).
  @Test func installUsesTheStaticReleaseBuild() throws {
    let run = try make(["-n", "-B", "install", "DESTDIR=/destination"])
    #expect(run.status == 0)
    #expect(
      run.stdout.contains(
        "swift build -c release -Xswiftc -static-executable -Xlinker -ltinfo -Xswiftc -use-ld=lld"
          + " -Xlinker --symbol-ordering-file="))
    #expect(
      run.stdout.contains(
        "/Scripts/startup-order.txt -Xlinker --no-warn-symbol-ordering"
          + " -Xswiftc -Xfrontend -Xswiftc -function-sections"
          + " -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors"
          + " -Xlinker --wrap=sysconf --product calc"))
    #expect(
      run.stdout.contains("install -m 755 '.build/release/calc' '/destination/usr/local/bin/calc'"))
    #expect(run.stdout.contains("strip '/destination/usr/local/bin/calc'"))
  }
}
