import Foundation
import Testing

/// `calc --generate-completion-script SHELL`, as `make install` and the README use it: options,
/// script file names, locale identifiers for `--locale`, and no `help` subcommand (calc has
/// none). The bash script is run for real; zsh and fish are checked by content.
@Suite struct CompletionScriptTests {
  private func script(_ shell: String) throws -> String {
    let run = try CalcProcess.run(["--generate-completion-script", shell])
    #expect(run.status == 0)
    #expect(run.stderr == "")
    return run.stdout
  }

  /// What the bash script offers for the words `words` (the last is the one being completed),
  /// run by bash in `directory` with the built calc first on `PATH`.
  private func bashCompletions(_ words: [String], in directory: URL) throws -> [String] {
    let program = """
      source <(calc --generate-completion-script bash)
      COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()
      _calc calc "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
      printf '%s\\n' "${COMPREPLY[@]}"
      """
    let path = CalcProcess.binary.deletingLastPathComponent().path
    let run = try CalcProcess.run(
      ["-c", program, "bash"] + words,
      environment: ["PATH": path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")],
      directory: directory, executable: URL(fileURLWithPath: "/bin/bash"))
    #expect(run.stderr == "", "bash: \(run.stderr)")
    return run.stdout.split(separator: "\n").map(String.init).sorted()
  }

  @Test func bashCompletesOptionsFilesAndLocales() throws {
    try withTemporaryDirectory { directory in
      let files = ["a.calc", "b.calc", "with space.calc"]
      for name in files {
        _ = FileManager.default.createFile(
          atPath: directory.appendingPathComponent(name).path, contents: nil)
      }
      let cases: [(words: [String], offered: [String])] = [
        (["calc", ""], files),
        (["calc", "w"], ["with space.calc"]),
        (["calc", "a.calc", ""], files),
        (["calc", "--plain", ""], files),
        // No `help` subcommand, and nothing after -k: keys cannot be combined with files.
        (["calc", "h"], []),
        (["calc", "-k", ""], []),
        (["calc", "-k", "1+", ""], []),
        (["calc", "--keys=1", ""], []),
        (["calc", "--pl"], ["--plain"]),
        (["calc", "--loc"], ["--locale"]),
        (["calc", "--locale", "de_D"], ["de_DE"]),
        (["calc", "--locale", "=", "fr_F"], ["fr_FR"]),
        (["calc", "--locale", "en_US_"], ["en_US_POSIX"]),
        (["calc", "--generate-completion-script", ""], ["bash", "fish", "zsh"]),
      ]
      for (words, offered) in cases {
        let completions = try bashCompletions(words, in: directory)
        #expect(completions == offered, "\(words)")
      }
      let options = try bashCompletions(["calc", "-"], in: directory)
      #expect(options.contains("-k") && options.contains("--list-locales"))
      #expect(options.contains("--resume") && options.contains("--no-journal"))
      #expect(!options.contains("help"))
      for line in try script("bash").split(separator: "\n") where line.contains("help") {
        #expect(line.contains("-h --help"), "bash offers help other than -h/--help: \(line)")
      }
    }
  }

  /// zsh: `_arguments` specs for every option, files for the arguments (excluded by -k), the
  /// locales from `--list-locales`; no subcommand.
  @Test func zshScript() throws {
    let text = try script("zsh")
    #expect(text.hasPrefix("#compdef calc\n"))
    for spec in [
      "{-k+,--keys=}'[apply KEYS and print the display]", "'--trace[", "'--plain[",
      "'--locale=[locale of the display]:locale:->locale'", "'--list-locales[",
      "{-h,--help}", "--version[", "'(-k --keys)*:script file:_files'",
      "$words[1] --list-locales",
    ] {
      #expect(text.contains(spec), "zsh: \(spec)")
    }
    #expect(!text.contains("subcommand"))
    for line in text.split(separator: "\n") where line.contains("help") {
      #expect(line.contains("{-h,--help}"), "zsh offers help other than -h/--help: \(line)")
    }
  }

  /// fish: files are completed by default (no global `-f`), not after -k; `--locale` offers
  /// `calc --list-locales`; no subcommand.
  @Test func fishScript() throws {
    let text = try script("fish")
    let lines = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
    #expect(lines.allSatisfy { $0.hasPrefix("complete -c calc ") })
    #expect(!lines.contains("complete -c calc -f"))
    for spec in [
      "-s k -l keys -x", "-l trace", "-l plain",
      "-l locale -x -a '(calc --list-locales 2>/dev/null)'",
      "-l list-locales", "-s h -l help", "-l version",
      "-n '__fish_seen_argument -s k -l keys' -f",
    ] {
      #expect(text.contains(spec), "fish: \(spec)")
    }
    for line in lines where line.contains("help") {
      #expect(line.contains("-s h -l help"), "fish offers help other than -h/--help: \(line)")
    }
  }

  @Test func unknownShellIsAUsageError() throws {
    let run = try CalcProcess.run(["--generate-completion-script", "tcsh"])
    #expect(run.stdout == "")
    #expect(run.stderr == "calc: usage: calc --generate-completion-script bash|zsh|fish\n")
    #expect(run.status == 64)
    #expect(try CalcProcess.run(["--generate-completion-script=fish"]).stdout == script("fish"))
  }

  /// What `--locale` completion offers: the identifiers `--locale` accepts, one per line.
  @Test func listLocales() throws {
    let run = try CalcProcess.run(["--list-locales"])
    #expect(run.status == 0)
    let identifiers = run.stdout.split(separator: "\n").map(String.init)
    #expect(identifiers == identifiers.sorted())
    for expected in ["de_DE", "en_US", "en_US_POSIX", "fr_FR", "ar_EG"] {
      #expect(identifiers.contains(expected))
    }
    for identifier in ["de_CH", "sv_SE", identifiers.first!, identifiers.last!] {
      let accepted = try CalcProcess.run(["--locale", identifier, "--keys", "1"])
      #expect(accepted.status == 0, "--locale \(identifier)")
    }
  }
}
