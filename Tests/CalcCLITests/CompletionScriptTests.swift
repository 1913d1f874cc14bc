import Testing

/// `calc --generate-completion-script SHELL`, as the README's install instructions use it.
@Suite struct CompletionScriptTests {
  /// How each shell's script spells the long options: bash and zsh as `--keys`, fish as
  /// `-l 'keys'` (its `complete` command adds the dashes itself).
  @Test(arguments: [
    ("bash", ["--keys", "--trace", "--locale"]),
    ("zsh", ["--keys", "--trace", "--locale"]),
    ("fish", ["-l 'keys'", "-l 'trace'", "-l 'locale'"]),
  ])
  func script(shell: String, options: [String]) throws {
    let run = try CalcProcess.run(["--generate-completion-script", shell])
    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(run.stdout.contains("calc"))
    for option in options {
      #expect(run.stdout.contains(option), "the \(shell) script does not mention \(option)")
    }
  }
}
