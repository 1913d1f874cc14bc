import CalcCore
import CalculatorEngine
import Testing

/// `:save`, `:load`, `:tape csv FILE` and `:resume` run in process against files kept in memory
/// (``Files/memory(_:)``): the interpreter reaches files only through its host.
struct FakeHostTests {
  /// A session file of `15` at step 5, as `:save` writes it.
  static let sum =
    "# calc session, format 3: 1 branch, at step 5 of 5 on branch 1\n12+3=\n:goto 5\n"

  /// An interpreter on a host with `folder`'s files, `HOME=/home/a` and its journals in
  /// `/state/calc` (its own: `/state/calc/own.journal`).
  static func interpreter(_ folder: MemoryFolder, isInteractive: Bool = false) -> LineInterpreter {
    LineInterpreter(
      context: .init(format: .posix, isInteractive: isInteractive),
      host: .init(
        home: "/home/a", journalDirectory: "/state/calc",
        ownJournal: "/state/calc/own.journal", files: .memory(folder)))
  }

  /// Runs `lines`, returning the output, or the message of the first rejected line.
  static func run(_ lines: [String], on interpreter: inout LineInterpreter) -> String {
    let output = OutputBuffer()
    for line in lines {
      do {
        try interpreter.run(line, output: output)
      } catch {
        return output.text + "error: \(error.message)\n"
      }
    }
    return output.text
  }

  @Test(arguments: [
    (
      ["12+3=", ":save s.calc"], "s.calc",
      "15\nsaved 5 keys at step 5 to s.calc\n"
    ),
    (
      ["12+3=", ":save ~/keep/s.calc"], "/home/a/keep/s.calc",
      "15\nsaved 5 keys at step 5 to /home/a/keep/s.calc\n"
    ),
  ])
  func saveWritesTheSessionToTheHostsFiles(lines: [String], file: String, output: String) {
    let folder = MemoryFolder()
    var interpreter = Self.interpreter(folder)
    #expect(Self.run(lines, on: &interpreter) == output)
    #expect(folder.names == [file])
    #expect(folder[file] == Self.sum)
  }

  @Test func saveAtTheREPLKeepsAFileItDidNotMakeUnlessTold() {
    let folder = MemoryFolder(["old.calc": "1=\n"])
    var interpreter = Self.interpreter(folder, isInteractive: true)
    #expect(
      Self.run(["12+3=", ":save old.calc"], on: &interpreter)
        == "15\nerror: 'old.calc' exists, and this session did not save or load it; "
        + "to replace it: :save! old.calc\n")
    #expect(folder["old.calc"] == "1=\n")
    #expect(
      Self.run([":save! old.calc", ":save old.calc"], on: &interpreter)
        == "saved 5 keys at step 5 to old.calc\nsaved 5 keys at step 5 to old.calc\n")
    #expect(folder["old.calc"] == Self.sum)
  }

  @Test(arguments: [
    ("s.calc", sum, "15\n"),
    (
      "bad.calc", "12+3=\nfoo\n",
      "error: cannot load 'bad.calc': bad.calc:2:1: unknown key 'f' at column 1\n"
    ),
    (
      "newer.calc", "# calc session, format 9: 1 branch\n1=\n",
      "error: cannot load 'newer.calc': written by a newer calc (format 9; this calc reads "
        + "formats up to 4)\n"
    ),
    (
      "cmd.calc", "1+\r\n:help\r\n",
      "error: cannot load 'cmd.calc': cmd.calc:2:1: :help cannot be used in a session file\n"
    ),
  ])
  func loadReplaysAFileOfTheHost(file: String, contents: String, output: String) {
    var interpreter = Self.interpreter(MemoryFolder([file: contents]))
    #expect(Self.run([":load \(file)"], on: &interpreter) == output)
  }

  @Test func loadOfAFileTheHostDoesNotHaveIsRefused() {
    var interpreter = Self.interpreter(MemoryFolder())
    #expect(
      Self.run(["7=", ":load none.calc", "+1="], on: &interpreter)
        == "7\nerror: cannot load 'none.calc': No such file or directory\n")
    #expect(interpreter.display == "7")
  }

  @Test func tapeCSVGoesToTheHostsFile() {
    let folder = MemoryFolder()
    var interpreter = Self.interpreter(folder)
    #expect(
      Self.run(["12+3=", "*2=", ":tape csv t.csv"], on: &interpreter)
        == "15\n30\nwrote the tape to t.csv\n")
    #expect(folder["t.csv"] == "step,expression,result,note\n5,12 + 3 =,15,\n8,15 × 2 =,30,\n")
  }

  @Test func aHostWithoutFilesRefusesEveryFileCommand() {
    var interpreter = LineInterpreter(context: .init(format: .posix))
    let cases = [
      (":save s.calc", "error: cannot save 's.calc': no files here; 's.calc' is unchanged\n"),
      (
        ":tape csv t.csv",
        "error: cannot write 't.csv': no files here; 't.csv' is unchanged\n"
      ),
      (":load s.calc", "error: cannot load 's.calc': no files here\n"),
      (":resume", "error: no earlier session to resume: no files here\n"),
    ]
    for (line, output) in cases {
      #expect(Self.run([line], on: &interpreter) == output, "\(line)")
    }
  }

  @Test func resumeReplaysTheLatestJournalButItsOwn() {
    let folder = MemoryFolder()
    var earlier = Self.interpreter(folder)
    _ = Self.run(["12+3=", ":save /state/calc/1.journal"], on: &earlier)
    _ = Self.run(["1+1=", ":save /state/calc/own.journal"], on: &earlier)
    _ = Self.run(["9=", ":save /elsewhere/2.journal"], on: &earlier)
    var interpreter = Self.interpreter(folder)
    #expect(
      Self.run([":resume"], on: &interpreter) == "resumed 5 keys, at step 5 of 5\n15\n")
    var alone = Self.interpreter(MemoryFolder(["/state/calc/own.journal": "1=\n"]))
    #expect(
      Self.run([":resume"], on: &alone)
        == "error: no earlier session to resume in '/state/calc'\n")
  }
}
