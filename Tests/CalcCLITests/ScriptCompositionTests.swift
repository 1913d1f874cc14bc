import Foundation
import Testing

/// Scripts that compose (SPEC §5): relative paths in `:load` and `:save` inside a script file
/// are taken from that file's folder; the bare words `help`, `quit` and `exit` work as in the
/// REPL.
@Suite struct ScriptCompositionTests {
  /// A script in another folder loads and saves beside itself, whatever the current directory;
  /// on standard input, relative paths are taken from the current directory.
  @Test func loadAndSaveAreRelativeToTheScriptsFolder() throws {
    try withTemporaryDirectory { directory in
      let scripts = directory.appendingPathComponent("scripts")
      try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
      try Script.write("12+3=\n*2=\n", to: "saved.calc", in: scripts)
      try Script.write(":load saved.calc\n:undo\n:save copy.calc\n", to: "run.calc", in: scripts)
      let run = try InProcess.run(
        ["scripts/run.calc"], environment: posixLocale, directory: directory)
      #expect(run.stderr == "")
      #expect(run.stdout == "30\n15\nsaved 8 keys at step 5 to scripts/copy.calc\n")
      #expect(run.status == 0)
      #expect(try Script.listing(scripts) == ["copy.calc", "run.calc", "saved.calc"])
      #expect(try Script.listing(directory) == ["scripts"])
      // By its full path, from elsewhere, too.
      let elsewhere = try InProcess.run(
        [scripts.appendingPathComponent("run.calc").path], environment: posixLocale,
        directory: URL(fileURLWithPath: "/"))
      #expect(elsewhere.stdout.hasPrefix("30\n15\nsaved 8 keys at step 5 to "))
      #expect(elsewhere.status == 0)
      // Standard input has no folder: the current directory.
      let piped = try Script.runInProcess(":load scripts/copy.calc\n", in: directory)
      #expect(piped.stdout == "15\n")
      let missing = try Script.runInProcess(":load saved.calc\n", in: directory)
      #expect(missing.stderr.contains("cannot load 'saved.calc'"))
      #expect(missing.status == 65)
    }
  }

  /// `Examples/load-session.calc` gives its output when run from any directory.
  @Test func loadSessionExampleRunsFromAnyDirectory() throws {
    try withTemporaryDirectory { directory in
      let example = ExamplesTests.directory.appendingPathComponent("load-session.calc")
      let run = try InProcess.run([example.path], environment: posixLocale, directory: directory)
      #expect(run.stderr == "")
      #expect(run.stdout == (try ExamplesTests.expected("load-session", "out")))
      #expect(run.status == 0)
    }
  }

  /// `quit` and `exit` end a script as `:quit` does; `help` prints `:help`.
  @Test func bareWordsWorkInScripts() throws {
    let help = try Script.runInProcess(":help\n")
    let bare = try Script.runInProcess("12+3=\n  help  # the commands\n")
    #expect(bare.stdout == "15\n" + help.stdout)
    #expect(help.stdout.contains(":history [K|N..M]"))
    for word in ["quit", "exit", "QUIT", " exit # done"] {
      let run = try Script.runInProcess("12+3=\n\(word)\n*2=\n")
      #expect(run.stdout == "15\n", "\(word)")
      #expect(run.stderr == "", "\(word)")
      #expect(run.status == 0, "\(word)")
    }
    let misspelt = try Script.runInProcess("quitt\n")
    #expect(misspelt.stderr == "<stdin>:1:2: unknown key 'u' at column 2\n")
    #expect(misspelt.status == 65)
  }
}
