import CalcCLI
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The REPL as a person sees it: the built `calc` on a pseudo-terminal, its screen rendered, for
/// what only a terminal shows (readline's editing, completion and history, colour, the pager,
/// pastes, signals). The lines, prompts and errors alone run in process, in
/// ``REPLInProcessTests``.
///
/// Each test has its own directory for `HOME` (with an empty `.inputrc`, so that no system
/// `/etc/inputrc` applies), the history file and the working directory.
@Suite struct REPLTests {
  /// A REPL session in `directory`, with `HOME` there and no `NO_COLOR` unless given.
  private func startCalc(
    in directory: URL, environment: [String: String] = ["NO_COLOR": "1"], inputrc: String = ""
  ) throws -> TerminalSession {
    let inputrcURL = directory.appendingPathComponent(".inputrc")
    if !FileManager.default.fileExists(atPath: inputrcURL.path) {
      try inputrc.write(to: inputrcURL, atomically: true, encoding: .utf8)
    }
    var variables = environment
    variables["HOME"] = directory.path
    let calc = try TerminalSession(directory: directory, environment: variables)
    // A second start in the same HOME also says that the first session can be resumed.
    let startups = [
      Self.startupLine,
      "calc \(CalcCommand.version) — :help, Ctrl-D to leave, :resume for the last session",
    ]
    try calc.wait(for: "the start-up line and a prompt") { calc in
      calc.lines.count == 2 && startups.contains(calc.lines[0]) && calc.lines[1] == "calc> "
    }
    calc.skippedLines = 1
    return calc
  }

  /// The line calc prints on start (SPEC §6), which the tests' screens leave out once seen.
  static let startupLine =
    "calc \(CalcCommand.version) — :help for keys and commands, Ctrl-D to leave"

  /// Types `line` and Enter at the prompt, and waits for the screen to end with `output` and the
  /// next `prompt`.
  private func enter(
    _ line: String, in calc: TerminalSession, expect output: [String], prompt: String = "calc> "
  ) throws {
    var typed = calc.lines.last! + line
    while typed.last == " " { typed.removeLast() }  // the line once the cursor has left it
    try calc.type(line + "\r")
    try calc.waitForLastLines([typed] + output + [prompt])
  }

  private func mode(of path: String) -> mode_t? {
    var information = stat()
    guard stat(path, &information) == 0 else { return nil }
    return information.st_mode & 0o7777
  }

  private func contents(of path: String) -> String? {
    FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
  }

  private static let esc = "\u{1B}"

  // MARK: - Completion

  @Test func tabCompletesCommandNames() throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory)
      try calc.waitForScreen(["calc> "])
      try calc.type(":hi\t")
      try calc.waitForScreen(["calc> :history "])
      try calc.type("\r")
      try calc.waitForScreen(["calc> :history", "no history", "calc> "])
      // An ambiguous start completes what the names share, then lists them.
      try calc.type(":h\t\t")
      try calc.waitForScreen([
        "calc> :history", "no history", "calc> :h", ":help     :history", "calc> :h",
      ])
      try calc.type("e\t\r")
      try calc.waitForScreen(
        ["calc> :history", "no history", "calc> :h", ":help     :history", "calc> :help"]
          + Self.help + ["calc> "])
    }
  }

  @Test func tabCompletesFileNamesAfterSaveAndLoad() throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory)
      try calc.waitForScreen(["calc> "])
      try enter("12+3=", in: calc, expect: ["12 + 3 =", "15"])
      try enter(
        ":save session-one.calc", in: calc, expect: ["saved 5 keys at step 5 to session-one.calc"])
      try enter(":reset", in: calc, expect: ["0"])
      try calc.type(":load sess\t")
      try calc.waitForLastLines(["calc> :load session-one.calc "])
      try calc.type("\r")
      try calc.waitForLastLines([
        "calc> :load session-one.calc", "loaded 5 keys at step 5 from session-one.calc", "12 + 3 =",
        "15", "calc> ",
      ])
      try enter(":goto 3", in: calc, expect: ["12 +", "12"], prompt: "calc[3/5]> ")
      try calc.type(":save  session\t")
      try calc.waitForLastLines(["calc[3/5]> :save  session-one.calc "])
      try calc.type("\r")
      try calc.waitForLastLines([
        "calc[3/5]> :save  session-one.calc", "saved 5 keys at step 3 to session-one.calc",
        "calc[3/5]> ",
      ])
      let saved = contents(of: directory.appendingPathComponent("session-one.calc").path)
      #expect(saved?.hasSuffix("\n:goto 3\n") == true)
    }
  }

  @Test func tabCompletesNothingInKeyLinesAndOtherArguments() throws {
    try withTemporaryDirectory { directory in
      // File-name completion would turn `12` into `12+3.txt `, `:goto 1` into `:goto 12+3.txt `.
      try #require(
        FileManager.default.createFile(
          atPath: directory.appendingPathComponent("12+3.txt").path, contents: Data()))
      let calc = try startCalc(in: directory)
      try calc.waitForScreen(["calc> "])
      try calc.type("12\t")
      try calc.type("+3=\r")
      try calc.waitForScreen(["calc> 12+3=", "12 + 3 =", "15", "calc> "])
      try calc.type(":goto 1\t")
      try calc.type("\r")
      try calc.waitForScreen([
        "calc> 12+3=", "12 + 3 =", "15", "calc> :goto 1", "1", "calc[1/5]> ",
      ])
    }
  }

  @Test func tabCompletesLedgerCommandsAndLineNumbersAfterADollar() throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory)
      try calc.waitForScreen(["calc> "])
      // `:note`, `:find` and `:vary` come from the command table like every command.
      try calc.type(":va\t")
      try calc.waitForLastLines(["calc> :vary "])
      try calc.type("\u{15}")
      try calc.waitForLastLines(["calc> "])
      try calc.type(":fi\t")
      try calc.waitForLastLines(["calc> :find "])
      try calc.type("\u{15}")
      try calc.waitForLastLines(["calc> "])
      try enter("20=", in: calc, expect: ["20 =", "20"])
      try enter("3=", in: calc, expect: ["3 =", "3"])
      // After `$`, the lines a line entered now can refer to: both, listed on a second Tab.
      try calc.type("$\t\t")
      try calc.waitForLastLines(["calc> $", "1  2", "calc> $"])
      // A single match completes with no blank after it (`$1 =` would start a new number).
      try calc.type("2*$\t")
      try calc.type("1\t=\r")
      try calc.waitForLastLines(["calc> $2*$1=", "3 × 20 =", "60", "calc> "])
    }
  }

  // MARK: - History

  @Test func upRecallsThePreviousLines() throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory)
      try calc.waitForScreen(["calc> "])
      try enter("7*6=", in: calc, expect: ["7 × 6 =", "42"])
      try enter(":keys", in: calc, expect: ["7*6="])
      try calc.type("\u{1B}[A")
      try calc.waitForLastLines(["calc> :keys"])
      try calc.type("\u{1B}[A")
      try calc.waitForLastLines(["calc> 7*6="])
      try calc.type("\r")
      try calc.waitForLastLines(["calc> 7*6=", "7 × 6 =", "42", "calc> "])
      try enter(":keys", in: calc, expect: ["7*6=", "7*6="])
    }
  }

  @Test func historyFileIsPrivateSavedAfterEachLineAndRecalledNextTime() throws {
    try withTemporaryDirectory { directory in
      let history = directory.appendingPathComponent(".calc_history").path
      do {
        let calc = try startCalc(in: directory)
        try calc.waitForScreen(["calc> "])
        #expect(mode(of: history) == 0o600)
        try enter("12+3=", in: calc, expect: ["12 + 3 =", "15"])
        #expect(contents(of: history) == "12+3=\n")
        try enter(":goto 2", in: calc, expect: ["12"], prompt: "calc[2/5]> ")
        try enter(":goto 2", in: calc, expect: ["12"], prompt: "calc[2/5]> ")  // not repeated
        // A blank line shows the display again, and is not kept.
        try enter("   ", in: calc, expect: ["12"], prompt: "calc[2/5]> ")
        #expect(contents(of: history) == "12+3=\n:goto 2\n")
        try calc.type("\u{04}")
        #expect(try calc.waitForExit() == 0)
      }
      #expect(contents(of: history) == "12+3=\n:goto 2\n")
      #expect(mode(of: history) == 0o600)

      let calc = try startCalc(in: directory)
      try calc.waitForScreen(["calc> "])
      try calc.type("\u{1B}[A")
      try calc.waitForScreen(["calc> :goto 2"])
      try calc.type("\u{1B}[A")
      try calc.waitForScreen(["calc> 12+3="])
      try calc.type("\r")
      try calc.waitForScreen(["calc> 12+3=", "12 + 3 =", "15", "calc> "])
      #expect(contents(of: history) == "12+3=\n:goto 2\n12+3=\n")
    }
  }

  @Test func historyFileFollowsCALC_HISTORY() throws {
    try withTemporaryDirectory { directory in
      let history = directory.appendingPathComponent("elsewhere").path
      let calc = try startCalc(
        in: directory, environment: ["NO_COLOR": "1", "CALC_HISTORY": history])
      try calc.waitForScreen(["calc> "])
      try enter("2*3=", in: calc, expect: ["2 × 3 =", "6"])
      try calc.type(":quit\r")
      #expect(try calc.waitForExit() == 0)
      #expect(contents(of: history) == "2*3=\n:quit\n")
      #expect(mode(of: history) == 0o600)
      #expect(
        !FileManager.default.fileExists(
          atPath: directory.appendingPathComponent(".calc_history").path))
    }
  }

  @Test func historyFileKeepsTheLastThousandLines() throws {
    try withTemporaryDirectory { directory in
      let history = directory.appendingPathComponent(".calc_history").path
      let old = (1...1005).map { "1+\($0)=\n" }.joined()
      try #require(
        FileManager.default.createFile(
          atPath: history, contents: Data(old.utf8), attributes: [.posixPermissions: 0o600]))
      let calc = try startCalc(in: directory)
      try calc.waitForScreen(["calc> "])
      try calc.type("\u{1B}[A")
      try calc.waitForScreen(["calc> 1+1005="])
      try calc.type("\u{15}2*3=\r")
      try calc.waitForScreen(["calc> 2*3=", "2 × 3 =", "6", "calc> "])
      let expected = (7...1005).map { "1+\($0)=\n" }.joined() + "2*3=\n"
      #expect(contents(of: history) == expected)
    }
  }

  // MARK: - Signals and the end of input

  @Test func ctrlCAbandonsTheLineAndKeepsTheSession() throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory)
      try calc.waitForScreen(["calc> "])
      try enter("12+3=", in: calc, expect: ["12 + 3 =", "15"])
      let before = ["calc> 12+3=", "12 + 3 =", "15"]
      try calc.type("\u{03}")
      try calc.waitForScreen(before + ["calc> ^C", "calc> "])
      // readline draws the fresh prompt before it catches SIGINT again, which it does by the
      // time it echoes a key: so each Ctrl-C below follows a key.
      try calc.type("45+")
      try calc.waitForScreen(before + ["calc> ^C", "calc> 45+"])
      try calc.type("\u{03}")
      try calc.waitForScreen(before + ["calc> ^C", "calc> 45+^C", "calc> "])
      try calc.type("6")
      try calc.waitForScreen(before + ["calc> ^C", "calc> 45+^C", "calc> 6"])
      try calc.type("\u{03}")
      try calc.waitForScreen(before + ["calc> ^C", "calc> 45+^C", "calc> 6^C", "calc> "])
      #expect(calc.isRunning)
      try enter(":keys", in: calc, expect: ["12+3="])
      try enter("=", in: calc, expect: ["15 + 3 =", "18"])
      try calc.type(":quit\r")
      #expect(try calc.waitForExit() == 0)
    }
  }

  @Test func ctrlDPrintsANewlineAndExitsZero() throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory)
      try calc.waitForScreen(["calc> "])
      try enter("12+3=", in: calc, expect: ["12 + 3 =", "15"])
      try calc.type("\u{04}")
      #expect(try calc.waitForExit() == 0)
      #expect(calc.lines == ["calc> 12+3=", "12 + 3 =", "15", "calc>", ""])
    }
  }

  @Test func ctrlDPrintsOneNewlineWithoutBracketedPaste() throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory, inputrc: "set enable-bracketed-paste off\n")
      try calc.waitForScreen(["calc> "])
      try calc.type("\u{04}")
      #expect(try calc.waitForExit() == 0)
      #expect(calc.lines == ["calc>", ""])
    }
  }

  @Test func readlineNameIsCalc() throws {
    try withTemporaryDirectory { directory in
      let inputrc = """
        $if calc
        "\\C-xp": ":pad"
        $endif
        $if other
        "\\C-xq": ":help"
        $endif

        """
      let calc = try startCalc(in: directory, inputrc: inputrc)
      try calc.waitForScreen(["calc> "])
      try calc.type("\u{18}q\u{18}p")
      try calc.waitForScreen(["calc> :pad"])
      try calc.type("\u{15}:quit\r")
      #expect(try calc.waitForExit() == 0)
    }
  }

  // MARK: - Keypad, help and colour

  private static let pad = [
    "┌───────┬───────┬───────┬───────┬───────┐",
    "│  MC   │  MR   │  M+   │  M−   │  MS   │",
    "│  mc   │  mr   │  m+   │  m-   │  ms   │",
    "├───────┴─┬─────┴───┬───┴─────┬─┴───────┤",
    "│    %    │   CE    │   AC    │    ⌫    │",
    "│    %    │   ce    │    c    │    <    │",
    "├─────────┼─────────┼─────────┼─────────┤",
    "│   1/x   │   x²    │    √    │    ÷    │",
    "│    r    │    q    │    @    │    /    │",
    "├─────────┼─────────┼─────────┼─────────┤",
    "│    7    │    8    │    9    │    ×    │",
    "│    7    │    8    │    9    │    *    │",
    "├─────────┼─────────┼─────────┼─────────┤",
    "│    4    │    5    │    6    │    -    │",
    "│    4    │    5    │    6    │    -    │",
    "├─────────┼─────────┼─────────┼─────────┤",
    "│    1    │    2    │    3    │    +    │",
    "│    1    │    2    │    3    │    +    │",
    "├─────────┼─────────┼─────────┼─────────┤",
    "│   +/-   │    0    │    .    │    =    │",
    "│    ~    │    0    │    .    │    =    │",
    "└─────────┴─────────┴─────────┴─────────┘",
  ]

  static let help = [
    "Type keys and press Enter; calc prints the display. Commands start with ':'.",
    "",
    "Keys:   0-9 .  + - * /  =  %  ~ (+/-)  c (AC)  ce (CE)  < (⌫)",
    "        @ (√)  q (x²)  r (1/x) act on the number before them: 16@",
    "        ms mr m+ m- mc (memory)  $N (the result of line N, as :lines numbers it)",
    "        deg rad grad (the angle unit of Scientific mode's trigonometry)",
    "        sci: Scientific mode (precedence, brackets, functions)",
    "        prog: Programmer mode (hex, octal, binary, bitwise keys)",
    "        fx: formula mode (5*-2, sin(30), 2pi as written; :help formulas)",
    "        date: date mode (2026-12-01 + 90d, D1 to D2, 1:30*2; :help dates)",
    "        also − × ÷ ± √ ² ac m−; letters in any case; spaces are ignored",
    "        :pad shows the keypad",
    "Notes:  # text after a line is its note: 1200+350+89=  # rent (:note, :find)",
    "        note: … after a line says what its keys did that you may not have meant",
    "Slider: Alt-← Alt-→ one key back, forward; Alt-↑ Alt-↓ (PgUp PgDn) one line",
    "",
    "Commands:",
    "  :history [K|N..M]  list this branch's steps: all, the last K, or N to M",
    "  :tape [csv|csv!] [K|N..M] [FILE]",
    "                     calculations and memory keys, like a paper tape (csv: CSV; csv!: replace FILE)",
    "  :lines [K|N..M]    list this branch's input lines: all, the last K, or N to M",
    "  :why L             line L's keys, a formula's compiled keys, with the display",
    "  :edit L KEYS       replace line L; later lines are replayed on a new branch",
    "  :insert L KEYS     put a new line before line L (n+1: at the end)",
    "  :delete L          delete line L; later lines are replayed on a new branch",
    "  :note L [TEXT]     set line L's note (no TEXT: remove it); no branch, no undo",
    "  :find TEXT         lines on every branch whose note holds TEXT or value is TEXT",
    "  :vary L KEYS | KEYS …",
    "                     replay line L with each alternative, on branches; one table",
    "  :goto N|+K|-K      move to step N, or K steps on/back",
    "  :undo [K]          go back K lines (default 1)",
    "  :redo [K]          go forward K lines (default 1)",
    "  :branches          list every branch; ▶ marks this one",
    "  :branch N          switch to branch N, at its end",
    "  :keys              print the applied keys as key text",
    "  :exact [L]         the whole value of the display or of line L's result",
    "  :copy [N]          put the display's number (at step N) on the clipboard",
    "  :save FILE         save every branch as a calc script",
    "  :save! FILE        save, replacing a file this session did not save or load",
    "  :load FILE         replace the session with a saved one",
    "  :resume            bring back the last session you left",
    "  :reset             empty the history, every branch",
    "  :pad               draw the keypad with each button's key",
    "  :help [TOPIC]      keys and commands (also help); :help TOPIC says more",
    "  :quit              leave calc (also :q, :exit, quit, exit, Ctrl-D)",
    "",
    "Each line of keys is one change: :undo and :redo move by lines, :goto by keys.",
    "Typing before the end starts a new branch; the old one is kept (:branches).",
    "More: :help keys, :help slider, :help ledger, :help COMMAND (:help edit)",
  ]

  @Test func padAndHelpShowTheKeypadAndTheCommands() throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory)
      try calc.waitForScreen(["calc> "])
      try calc.type(":pad\r")
      try calc.waitForScreen(["calc> :pad"] + Self.pad + ["calc> "])
      try calc.type(":help\r")
      // More than a screenful in all: the first lines have scrolled off, and are kept.
      try calc.waitForScreen(["calc> :pad"] + Self.pad + ["calc> :help"] + Self.help + ["calc> "])
    }
  }

  /// SPEC §6: the start-up line is at most 72 columns, with the resume hint too (the screen
  /// tests check that calc prints exactly these).
  @Test func theStartupLinesFitIn72Columns() {
    #expect(Self.startupLine.count <= 72)
    #expect(JournalTests.startupWithHint.count <= 72)
  }

  @Test func colourOnATerminalWithoutNO_COLOR() throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory, environment: [:])
      try calc.waitForScreen(["calc> "])
      try enter("x", in: calc, expect: ["error: unknown key 'x' at column 1 (× is '*')"])
      try enter(":pad", in: calc, expect: Self.pad)
      let esc = Self.esc
      #expect(
        calc.text.contains("\(esc)[31merror: unknown key 'x' at column 1 (× is '*')\(esc)[0m"))
      #expect(calc.text.contains("│\(esc)[2m    c    \(esc)[0m│"))
      #expect(calc.text.hasPrefix("\(esc)[2m\(Self.startupLine)\(esc)[0m\r\n"))
    }
  }

  /// SPEC §6: the expression line is dimmed when colour is on, the display is not.
  @Test func expressionLineIsDimmedInColour() throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory, environment: [:])
      try enter("12+3", in: calc, expect: ["12 +", "3"])
      let esc = Self.esc
      #expect(calc.text.contains("\(esc)[2m12 +\(esc)[0m\r\n3\r\n"))
    }
  }

  // MARK: - The two-line display, :tape and :copy

  /// `:copy` writes OSC 52 with the plain number in base64, then says what it sent.
  @Test func copyPutsThePlainNumberOnTheClipboard() throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory)
      try enter("1234567*1000=", in: calc, expect: ["1,234,567 × 1,000 =", "1,234,567,000"])
      try enter(":copy", in: calc, expect: ["1234567000 sent to the terminal's clipboard"])
      // "1234567000" in base64 is MTIzNDU2NzAwMA==.
      #expect(calc.text.contains("\(Self.esc)]52;c;MTIzNDU2NzAwMA==\u{07}1234567000 sent"))
      try enter("2/3=", in: calc, expect: ["2 ÷ 3 =", "0.66666667"])
      try enter(
        ":copy", in: calc,
        expect: ["0.6666666666666666666666666666666667 sent to the terminal's clipboard"])
      // Every digit: base64 of the 36 characters above.
      #expect(
        calc.text.contains(
          "\(Self.esc)]52;c;MC42NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY3\u{07}"))
      try enter("1/0=", in: calc, expect: ["1 ÷ 0 =", "Cannot divide by zero"])
      try enter(
        ":copy", in: calc, expect: ["error: nothing to copy: the display shows an error"])
      // `:copy N`: the display at step N (step 13 is 1234567000, the end of the first line).
      try enter(":copy 13", in: calc, expect: ["1234567000 sent to the terminal's clipboard"])
      #expect(
        calc.text.components(separatedBy: "\(Self.esc)]52;c;MTIzNDU2NzAwMA==\u{07}").count == 3)
      try enter(":copy 99", in: calc, expect: ["error: step 99 is out of range 0…21"])
    }
  }

  @Test func noColourWithNO_COLOR() throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory, environment: ["NO_COLOR": "1"])
      try calc.waitForScreen(["calc> "])
      try enter("x", in: calc, expect: ["error: unknown key 'x' at column 1 (× is '*')"])
      try enter(":pad", in: calc, expect: Self.pad)
      try calc.type(":quit\r")
      #expect(try calc.waitForExit() == 0)
      // readline's own sequences (such as bracketed paste) remain; no colour (SGR) is left.
      #expect(calc.text.contains("\(Self.esc)[?2004h"))
      #expect(calc.text.firstMatch(of: /\x1B\[[0-9;]*m/) == nil)
    }
  }

  // MARK: - The pager

  /// A pager for the tests: it marks each line it is given, and says when its input ended.
  private func markingPager(in directory: URL) throws -> String {
    let script = try Script.write(
      "#!/bin/sh\nwhile IFS= read -r line; do printf 'paged| %s\\n' \"$line\"; done\n"
        + "echo 'paged| (end)'\n",
      to: "pager.sh", in: directory)
    chmod(script.path, 0o755)
    return script.path
  }

  /// The `:history` listing of `keys` at their end, as a script prints it.
  private func listing(_ keys: String) throws -> [String] {
    // What a terminal shows: grouped.
    let run = try Script.run(keys + "\n:history\n", arguments: ["--display"])
    return run.stdout.split(separator: "\n").dropFirst().map(String.init)
  }

  /// SPEC §6: output longer than the screen (40 rows here) goes through `$PAGER`, all of it;
  /// output that fits is printed as usual; the session goes on after the pager.
  @Test func longOutputGoesThroughThePager() throws {
    try withTemporaryDirectory { directory in
      let pager = try markingPager(in: directory)
      let calc = try startCalc(in: directory, environment: ["NO_COLOR": "1", "PAGER": pager])
      try enter("12+3=", in: calc, expect: ["12 + 3 =", "15"])
      try enter(":history", in: calc, expect: try listing("12+3="))
      // 38 rows and the prompt fill the screen exactly: still no pager.
      let fits = "12+3=" + String(repeating: "1", count: 31)
      // The 15 digits beyond the 16 an entry holds get a note (stderr, after the display).
      try enter(
        String(repeating: "1", count: 31), in: calc,
        expect: [
          "1,111,111,111,111,111",
          "note: an entry holds 16 digits; 15 more were ignored (column 17)",
        ])
      try enter(":history", in: calc, expect: try listing(fits))
      // One row more than that is paged.
      let long = fits + "+"
      try enter("+", in: calc, expect: ["1,111,111,111,111,111 +", "1,111,111,111,111,111"])
      try enter(
        ":history", in: calc, expect: try listing(long).map { "paged| " + $0 } + ["paged| (end)"])
      try enter("2=", in: calc, expect: ["1,111,111,111,111,111 + 2 =", "1,111,111,111,111,113"])
      try calc.type(":quit\r")
      #expect(try calc.waitForExit() == 0)
    }
  }

  /// A pager quit before the end of a long listing stops it; calc goes on.
  @Test func aPagerQuitEarlyStopsTheListing() throws {
    try withTemporaryDirectory { directory in
      let pager = try Script.write(
        "#!/bin/sh\nIFS= read -r line; printf 'first| %s\\n' \"$line\"\n", to: "first.sh",
        in: directory)
      chmod(pager.path, 0o755)
      let calc = try startCalc(in: directory, environment: ["NO_COLOR": "1", "PAGER": pager.path])
      // 20,000 steps: far more than the pipe to the pager holds.
      let line = String(repeating: "1+", count: 50) + "\n"
      try Script.write(String(repeating: line, count: 200), to: "long.calc", in: directory)
      try enter(
        ":load long.calc", in: calc,
        expect: ["loaded 20000 keys at step 20000 from long.calc", "10,000 +", "10,000"])
      let script = try Script.run(":load long.calc\n:history\n", in: directory)
      let header = script.stdout.split(separator: "\n")[1]
      try enter(":history", in: calc, expect: ["first| \(header)"])
      #expect(calc.isRunning)
      try enter("5=", in: calc, expect: ["10,000 + 5 =", "10,005"])
    }
  }

  /// Without `$PAGER` and without `less` on the `PATH` (or with `PAGER` empty), long output is
  /// printed as it is.
  @Test func withoutAPagerLongOutputIsPrinted() throws {
    try withTemporaryDirectory { directory in
      let keys = String(repeating: "1+", count: 30)
      for environment in [["PATH": directory.path], ["PAGER": "", "PATH": "/usr/bin:/bin"]] {
        let calc = try startCalc(
          in: directory, environment: environment.merging(["NO_COLOR": "1"]) { $1 })
        try enter(keys, in: calc, expect: ["30 +", "30"])
        try enter(":history", in: calc, expect: try listing(keys))
      }
    }
  }

  // MARK: - Pastes, Ctrl-C, Ctrl-Z and UTF-8 (issue 13)

  @Test func multiLinePasteRunsLineByLineLikeTyping() throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory)
      try calc.waitForScreen(["calc> "])
      // A terminal sends a paste between ESC[200~ and ESC[201~, its line breaks as CR.
      try calc.type("\(Self.esc)[200~12+3=\r*2=\r\n-1=\n4\(Self.esc)[201~")
      try calc.waitForScreen([
        "calc> 12+3=", "12 + 3 =", "15", "calc> *2=", "15 × 2 =", "30", "calc> -1=", "30 - 1 =",
        "29", "calc> 4",
      ])
      try calc.type("+1=\r")
      try calc.waitForLastLines(["calc> 4+1=", "4 + 1 =", "5", "calc> "])
      // A trailing line break is Enter, not a key.
      try calc.type("\(Self.esc)[200~:keys\r\(Self.esc)[201~")
      try calc.waitForLastLines(["calc> :keys", "12+3=", "*2=", "-1=", "4+1=", "calc> "])
    }
  }

  /// SPEC §6: a rejected pasted line stops the paste, and calc says how many lines were not run.
  @Test func aRejectedPastedLineSaysHowManyWereNotRun() throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory)
      try calc.waitForScreen(["calc> "])
      try calc.type("\(Self.esc)[200~1+1=\r2x\r3=\r4=\r\(Self.esc)[201~")
      try calc.waitForLastLines([
        "calc> 2x", "error: unknown key 'x' at column 2 (× is '*')",
        "error: 2 pasted lines were not run", "calc> ",
      ])
      try enter(":keys", in: calc, expect: ["1+1="])
    }
  }

  /// SPEC §6: at the REPL only, the locale's decimal separator is the decimal point too; a
  /// script must mean the same everywhere, so there `,` stays no key.
  @Test func theLocalesDecimalSeparatorIsAcceptedAtTheREPL() throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(
        in: directory, environment: ["NO_COLOR": "1", "LC_ALL": "de_DE.UTF-8"])
      try enter("2,5*2=", in: calc, expect: ["2,5 × 2 =", "5"])
      try enter("1234,5+0,25=", in: calc, expect: ["1.234,5 + 0,25 =", "1.234,75"])
      try enter(":keys", in: calc, expect: ["2.5*2=", "1234.5+0.25="])
    }
    try expectRun(
      ["--locale", "de_DE", "-"], stdin: "2,5*2=\n", stdout: "",
      stderr:
        "<stdin>:1:2: unknown key ',' at column 2 (key text uses '.' for the decimal point)\n",
      status: 65)
  }

  @Test func ctrlCInASearchAbandonsTheSearchAndTheLine() throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory)
      try calc.waitForScreen(["calc> "])
      try enter("7*6=", in: calc, expect: ["7 × 6 =", "42"])
      try enter("+1=", in: calc, expect: ["42 + 1 =", "43"])
      try calc.type("\u{12}*")
      try calc.waitForLastLines(["(reverse-i-search)`*': 7*6="])
      try calc.type("\u{03}")
      try calc.waitForLastLines(["calc>", "calc> "])
      // Enter now runs an empty line (the display again), not the match.
      try calc.type("\r")
      try calc.waitForLastLines(["calc>", "calc>", "42 + 1 =", "43", "calc> "])
      try enter(":keys", in: calc, expect: ["7*6=", "+1="])
    }
  }

  @Test func ctrlCStopsALoadWaitingOnAFIFOAndChangesNothing() throws {
    try withTemporaryDirectory { directory in
      let fifo = directory.appendingPathComponent("fifo").path
      try #require(mkfifo(fifo, 0o600) == 0)
      let calc = try startCalc(in: directory)
      try calc.waitForScreen(["calc> "])
      try enter("12+3=", in: calc, expect: ["12 + 3 =", "15"])
      try enter(":goto 2", in: calc, expect: ["12"], prompt: "calc[2/5]> ")
      try calc.type(":load fifo\r")
      try calc.waitForLastLines(["calc[2/5]> :load fifo", ""])
      waitUntilAsleep(calc.pid, in: "wait_for_partner")  // in open(2), for a writer
      kill(calc.pid, SIGINT)  // what Ctrl-C does; the terminal is not in readline's mode
      try calc.waitForLastLines(["error: interrupted", "calc[2/5]> "])
      try enter(":keys", in: calc, expect: ["12"], prompt: "calc[2/5]> ")
      try enter(":redo 9", in: calc, expect: ["12 + 3 =", "15"])
      #expect(calc.isRunning)
    }
  }

  @Test func ctrlCStopsALongHistoryAndChangesNothing() throws {
    try withTemporaryDirectory { directory in
      let keys = String(repeating: "1+2=", count: 100_000)
      try ("\(keys)\n").write(
        to: directory.appendingPathComponent("big.calc"), atomically: true, encoding: .utf8)
      let calc = try startCalc(in: directory)
      try calc.waitForScreen(["calc> "])
      try enter(
        ":load big.calc", in: calc,
        expect: ["loaded 400000 keys at step 400000 from big.calc", "1 + 2 =", "3"],
        prompt: "calc> ")
      try calc.type(":history\r")
      try calc.wait(for: "the line to run") { $0.lines.contains("calc> :history") }
      usleep(100_000)
      kill(calc.pid, SIGINT)
      try calc.waitForLastLines(["error: interrupted", "calc> "], timeout: .seconds(5))
      try enter(":goto 3", in: calc, expect: ["1 +", "2"], prompt: "calc[3/400000]> ")
    }
  }

  @Test func promptIsRedrawnAfterStopAndContinue() throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory)
      try calc.waitForScreen(["calc> "])
      try calc.type("12+")
      try calc.waitForScreen(["calc> 12+"])
      let before = calc.output.count
      kill(calc.pid, SIGSTOP)
      kill(calc.pid, SIGCONT)
      try calc.wait(for: "the prompt drawn again") {
        String(decoding: $0.output[before...], as: UTF8.self).contains("calc> 12+")
      }
      try calc.type("3=\r")
      try calc.waitForLastLines(["15", "calc> "])
    }
  }

  @Test func utf8EditingWithACLocale() throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory, environment: ["NO_COLOR": "1", "LANG": "C"])
      try calc.waitForScreen(["calc> "])
      try calc.type("2×")
      try calc.waitForScreen(["calc> 2×"])
      try calc.type("\u{7F}+3=\r")
      try calc.waitForScreen(["calc> 2+3=", "2 + 3 =", "5", "calc> "])
    }
  }

  @Test func noColourOnADumbOrUnknownTerminal() throws {
    for term in ["dumb", ""] {
      try withTemporaryDirectory { directory in
        let calc = try startCalc(in: directory, environment: ["TERM": term])
        try calc.waitForLastLines(["calc> "])
        try calc.type("x\r")
        try calc.waitForLastLines(["error: unknown key 'x' at column 1 (× is '*')", "calc> "])
        #expect(calc.text.firstMatch(of: /\x1B\[[0-9;]*m/) == nil, "TERM=\(term)")
      }
    }
  }

  // MARK: - The history file (issue 13)

  @Test func historyFileThatIsAFIFOOrADirectoryIsRefusedWithAWarning() throws {
    try withTemporaryDirectory { directory in
      let fifo = directory.appendingPathComponent("fifo").path
      try #require(mkfifo(fifo, 0o600) == 0)
      for path in [fifo, directory.path] {
        try "".write(
          to: directory.appendingPathComponent(".inputrc"), atomically: true, encoding: .utf8)
        let calc = try TerminalSession(
          directory: directory,
          environment: ["NO_COLOR": "1", "HOME": directory.path, "CALC_HISTORY": path])
        try calc.wait(for: "the prompt") { $0.lines.last == "calc> " }
        #expect(calc.lines.first?.hasPrefix("calc: history file '\(path)'") == true, "\(path)")
        try enter("2*3=", in: calc, expect: ["2 × 3 =", "6"])
        try calc.type(":quit\r")
        #expect(try calc.waitForExit() == 0)
      }
      var information = stat()
      #expect(stat(fifo, &information) == 0 && information.st_mode & S_IFMT == S_IFIFO)
    }
  }

  @Test func existingHistoryFileIsMadePrivate() throws {
    try withTemporaryDirectory { directory in
      let history = directory.appendingPathComponent(".calc_history").path
      try #require(
        FileManager.default.createFile(
          atPath: history, contents: Data("1+1=\n".utf8), attributes: [.posixPermissions: 0o644]))
      let calc = try startCalc(in: directory)
      try calc.waitForScreen(["calc> "])
      #expect(mode(of: history) == 0o600)
      try calc.type("\u{1B}[A")
      try calc.waitForScreen(["calc> 1+1="])
    }
  }

  @Test func twoSessionsAtTheLimitLoseNoneOfEachOthersLines() throws {
    try withTemporaryDirectory { directory in
      let history = directory.appendingPathComponent(".calc_history").path
      let old = (1...1000).map { "1+\($0)=\n" }.joined()
      try #require(
        FileManager.default.createFile(
          atPath: history, contents: Data(old.utf8), attributes: [.posixPermissions: 0o600]))
      let first = try startCalc(in: directory)
      let second = try startCalc(in: directory)
      try first.waitForScreen(["calc> "])
      try second.waitForScreen(["calc> "])
      // Both type 60 lines at once, so that their appends and trimmings overlap.
      let count = 60
      let typed = ["a", "b"].map { name in (1...count).map { "\($0)= # \(name)" } }
      for (calc, lines) in zip([first, second], typed) {
        try calc.type(lines.map { $0 + "\r" }.joined())
      }
      // Each line's comment is its note, shown after the display (SPEC §11).
      for ((calc, lines), name) in zip(zip([first, second], typed), ["a", "b"]) {
        try calc.waitForLastLines(
          ["calc> " + lines.last!, "\(count) =", "\(count)  \(name)", "calc> "],
          timeout: .seconds(30))
      }
      let lines = contents(of: history)?.split(separator: "\n").map(String.init) ?? []
      #expect(lines.count == 1000)
      let kept = Set(lines)
      #expect(typed.joined().filter { !kept.contains($0) } == [])
      #expect(lines.filter { $0.hasSuffix("# a") } == typed[0])
    }
  }

  // MARK: - Not a terminal

  @Test func pipedInputShowsNoPromptAndNoEcho() throws {
    try withTemporaryDirectory { directory in
      let run = try CalcProcess.run(
        [], stdin: Data("12+3=\n:goto 2\n7x\n".utf8),
        environment: [
          "HOME": directory.path, "CALC_HISTORY": nil, "TERM": "xterm", "NO_COLOR": nil,
        ])
      #expect(run.stdout == "15\n12\n")
      #expect(run.stderr == "<stdin>:3:2: unknown key 'x' at column 2 (× is '*')\n")
      #expect(run.status == 65)
      #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
    }
  }
}
