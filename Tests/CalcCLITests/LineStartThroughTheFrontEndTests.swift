import Foundation
import Testing

/// SPEC rule 18 through the whole front end (``InProcess``, as the binary runs it): a number never
/// continues on the next line, in scripts, on standard input, and after `:goto`; `:keys` prints
/// one line per input line.
@Suite struct LineStartThroughTheFrontEndTests {
  @Test func numbersOnLinesOfTheirOwnStayApart() throws {
    try expectScript(["-"], stdin: "1\n2\n3\n", stdout: "1\n2\n3\n")
    try expectScript(["-"], stdin: "100\n50\n", stdout: "100\n50\n")
    try expectScript(["-"], stdin: "12.5\n7.25\n3\n", stdout: "12.5\n7.25\n3\n")
    try expectScript(["--plain", "-"], stdin: "12+\n3=\n", stdout: "12\n15\n")
    try expectScript(["-"], stdin: "1.50\n~\n", stdout: "1.50\n-1.5\n")
  }

  @Test func aLineAfterAGotoIntoANumberStartsANewOne() throws {
    try expectScript(
      ["-"], stdin: "1234+1=\n:goto 2\n5=\n:keys\n", stdout: "1235\n12\n5\n12\n5=\n")
  }

  @Test func theKeysOfEachLineRebuildTheDisplay() throws {
    let keys = try InProcess.run(["-"], stdin: Data("12+\n3\n.5*2=\n:keys\n".utf8))
    // 12 + 0.5 = 12.5, × 2 = 25: the `3` was a number of its own, ended by the next line.
    #expect(keys.stdout == "12\n3\n25\n12+\n3\n.5*2=\n")
    let rebuilt = keys.stdout.split(separator: "\n").dropFirst(3).joined(separator: "\n") + "\n"
    // The `3` was replaced before any operator used it, and `×` computed `12 + 0.5` left to
    // right: notes (SPEC v5 §5).
    let notes =
      "<stdin>:3:1: note: the 3 of line 2 was replaced by .5 before it was used\n"
      + "<stdin>:3:3: note: Standard mode computes left to right (12 + 0.5 = 12.5, then × 2); "
      + "sci and formulas (calc -e) apply precedence\n"
    #expect(keys.stderr == notes)
    try expectScript(["-"], stdin: rebuilt, stdout: "12\n3\n25\n", stderr: notes)
  }

  @Test func aSessionSavedBeforeRule18IsLoadedWithANote() throws {
    try withTemporaryDirectory { directory in
      try Script.write(
        "# calc session: 1 branch, at step 4 of 4 on branch 1\n100\n50\n:goto 5\n", to: "old.calc",
        in: directory)
      try Script.write("100\n50\n", to: "hand.calc", in: directory)
      try expectScript(
        ["-"], stdin: "1\n:load old.calc\n", directory: directory, stdout: "1\n50\n",
        stderr: "<stdin>:2:7: note: 'old.calc' was saved before numbers stopped continuing "
          + "across lines; each of its lines now starts a new number\n")
      try expectScript(
        ["-"], stdin: ":load hand.calc\n", directory: directory, stdout: "50\n", stderr: "")
      // What :save writes now names its format, and loads without a note.
      try expectScript(
        ["-"], stdin: ":load old.calc\n:save new.calc\n:load new.calc\n", directory: directory,
        stdout: "50\nsaved 5 keys at step 5 to new.calc\n50\n",
        stderr: "<stdin>:1:7: note: 'old.calc' was saved before numbers stopped continuing "
          + "across lines; each of its lines now starts a new number\n")
      #expect(
        try Script.read("new.calc", in: directory).hasPrefix(
          "# calc session, format 3: 1 branch, at step 5 of 5 on branch 1\n"))
    }
  }
}

/// `--keep-going` (issue 19, item 5; SPEC §5): a rejected line is reported with its place and
/// the run goes on; a rejected key line answers with the unchanged display.
@Suite struct KeepGoingTests {
  @Test func aRejectedLineIsReportedAndTheRunGoesOn() throws {
    try expectScript(
      ["--keep-going", "-"], stdin: "1+1=\n2x\n*3=\n:frob\n5+5=\n", stdout: "2\n2\n6\n10\n",
      stderr: "<stdin>:2:2: unknown key 'x' at column 2 (× is '*')\n"
        + "<stdin>:4:1: unknown command ':frob' (try :help)\n",
      status: 65)
    // Without it, the first rejected line ends the run, as before.
    try expectScript(
      ["-"], stdin: "1+1=\n2x\n*3=\n", stdout: "2\n",
      stderr: "<stdin>:2:2: unknown key 'x' at column 2 (× is '*')\n", status: 65)
    // Nothing rejected: the status of the final display.
    try expectScript(
      ["--keep-going", "-"], stdin: "1/0=\n", stdout: "Cannot divide by zero\n", status: 1)
    try expectScript(["--keep-going", "-"], stdin: "1+1=\n", stdout: "2\n")
  }

  /// A coprocess that writes a line and reads one answer line never blocks, even after a typo.
  @Test func aCoprocessGetsOneAnswerPerKeyLine() throws {
    try withTemporaryDirectory { directory in
      let script = """
        coproc C { "$CALC" --keep-going; }
        for line in '12+3=' '2x' '*2=' '7*6='; do
          printf '%s\\n' "$line" >&"${C[1]}"
          IFS= read -r answer <&"${C[0]}"
          printf '%s -> %s\\n' "$line" "$answer"
        done
        pid=$C_PID
        exec {C[1]}>&-
        wait "$pid"
        echo "status $?"
        """
      let run = try Script.shell(
        "exec bash -c '\(script.replacingOccurrences(of: "'", with: "'\\''"))'", in: directory)
      #expect(run.stdout == "12+3= -> 15\n2x -> 15\n*2= -> 30\n7*6= -> 42\nstatus 65\n")
      #expect(run.stderr == "<stdin>:2:2: unknown key 'x' at column 2 (× is '*')\n")
    }
  }
}

/// Smaller inconsistencies (issue 19, item 6; SPEC §5).
@Suite struct CommandLineConsistencyTests {
  @Test func keysMayBeAttachedToK() throws {
    try expectScript(["-k12+3="], stdout: "15\n")
    try expectScript(["--plain", "-k2/4="], stdout: "0.5\n")
    // After `--`, and as the value of an option, an argument is left as it is.
    try expectRun(
      ["--", "-k1"], stdout: "",
      stderr: "calc: cannot read '-k1': No such file or directory\n", status: 66)
    try expectScript(
      ["-k", "-k5"], stdout: "", stderr: "calc: --keys: unknown key 'k' at column 2\n",
      status: 65)
  }

  @Test func everyMessageStartsWithCalc() throws {
    let run = try CalcProcess.run(["--bogus"])
    #expect(run.stderr.hasPrefix("calc: Unknown option '--bogus'\n"))
    #expect(run.status == 64)
    try expectScript(
      ["help"], stdout: "",
      stderr: "calc: cannot read 'help': No such file or directory (for help: calc --help)\n",
      status: 66)
  }
}

/// Notes, never silence (issue 19, item 3; SPEC §5): keys a person probably did not mean still
/// do what they say, with a one-line note on stderr; `-q` silences notes and nothing else.
@Suite struct NotesTests {
  @Test func theSpecExamples() throws {
    try expectScript(
      ["-k", "12+3"], stdout: "3\n",
      stderr: "calc: note: 12 + 3 is not finished; add = to compute it\n")
    try expectScript(
      ["-k", "12+"], stdout: "12\n",
      stderr: "calc: note: 12 + is not finished; add = to compute it\n")
    try expectScript(
      ["-k", "12345678901234567890="], stdout: "1234567890123456\n",
      stderr: "calc: note: an entry holds 16 digits; 4 more were ignored (column 17)\n")
    try expectScript(
      ["-k", "3*4=@16"], stdout: "16\n",
      stderr: "calc: note: √ acted on 12 and 16 started a new number "
        + "(√ acts on the number before it: 16@)\n")
    try expectScript(
      ["-k", "9q3"], stdout: "3\n",
      stderr: "calc: note: x² acted on 9 and 3 started a new number "
        + "(x² acts on the number before it: 3q)\n")
    // The same notes in Scientific mode, whose entry holds 32 digits, and a pending operation
    // with brackets open.
    try expectScript(
      ["-k", "sci 3*4=@16"], stdout: "16\n",
      stderr: "calc: note: √ acted on 12 and 16 started a new number "
        + "(√ acts on the number before it: 16@)\n")
    try expectScript(
      ["-k", "sci 1234567890123456789012345678901234="],
      stdout: "12345678901234567890123456789012\n",
      stderr: "calc: note: an entry holds 32 digits; 2 more were ignored (column 37)\n")
    try expectScript(
      ["-k", "sci 2*(3+"], stdout: "3\n",
      stderr: "calc: note: 2 × (3 + is not finished; add = to compute it\n")
  }

  @Test func notesChangeNoStatusAndQuietSilencesThem() throws {
    try expectScript(["-q", "-k", "12+3"], stdout: "3\n")
    try expectScript(["--quiet", "-"], stdin: "3*4=@16\n12+\n", stdout: "16\n12\n")
    // Silenced, but the error passed on the way still counts (SPEC §5).
    try expectScript(
      ["-q", "-k", "1/0=12+"], stdout: "12\n", stderr: "", status: 1)
  }

  @Test func aScriptNamesTheLineOfANote() throws {
    try expectScript(
      ["-"], stdin: "1+1=\n3*4=@16\n12+\n", stdout: "2\n16\n12\n",
      stderr: "<stdin>:2:6: note: √ acted on 12 and 16 started a new number "
        + "(√ acts on the number before it: 16@)\n"
        + "<stdin>:3:1: note: 12 + is not finished; add = to compute it\n")
    // A move at the end is meant: no note for the operation pending there.
    try expectScript(["-"], stdin: "12+3=\n:goto 3\n", stdout: "15\n12\n")
    // Nothing pending, nothing ignored: no note.
    try expectScript(["-"], stdin: "2+2=\n1234567890123456\n", stdout: "4\n1234567890123456\n")
  }
}
