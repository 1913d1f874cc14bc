import CalculatorEngine
import Foundation
import Testing

@testable import CalcCLI
@testable import CalcCore

/// SPEC §10 in the front end: key text read in the mode in force where it applies, the case
/// rule's notes and hints, §5's notes in Programmer mode and the prompt.
@Suite struct ProgrammerFrontEndTests {
  @Test func keyTextIsReadInTheModeInForceWhereItApplies() throws {
    // `--mode programmer` then `-k`: `FF` is hex digits, not an unknown key.
    try expectScript(["--mode", "programmer", "-k", "hex FF"], stdout: "FF\n")
    try expectScript(["-k", "prog hex FF"], stdout: "FF\n")
    // A script line after `prog`, and `:edit`, `:insert`, `:vary` of a Programmer line (the
    // `prog` line is line 0, SPEC §11).
    try expectScript(
      ["-"], stdin: "prog\nhex FF\n:edit 1 hex FE\n",
      stdout: "0\nFF\nbranch 2 (from branch 1): line 1 changed; 1 result changed: FF → FE "
        + "(step 4)\nFE\n")
    try expectScript(
      ["-"], stdin: "prog\nhex FF\n:insert 1 hex AB\n",
      stdout: "0\nFF\nbranch 2 (from branch 1): line 1 inserted; no results changed\nFF\n")
    try expectScript(
      ["-"], stdin: "prog\nhex FF\n:vary 1 hex 1F | hex 2F\n",
      stdout: "0\nFF\n  branch  line 1    after 1\n▶      1  hex FF    FF\n"
        + "       2  hex1F     1F\n       3  hex2F     2F\n")
    // The mode at line L, not the mode at the end: line 1 is Standard's, where `AC` is AC.
    try expectScript(
      ["-"], stdin: "12\nprog\n:edit 1 AC\n",
      stdout: "12\n0\nbranch 2 (from branch 1): line 1 changed; 1 result changed: 12 → 0 "
        + "(step 1)\n0\n")
  }

  @Test func aJournalsEditIsReplayedInTheModeOfItsLine() throws {
    // A journal or a session file replays `:edit L KEYS` as the REPL ran it (resume, :load).
    var replay = SessionScript.Replay()
    for line in ["prog", "hex FF", ":edit 1 hex FE", ":insert 1 hex AB", "12", ":edit 3 AC"] {
      try replay.perform(line)
    }
    #expect(
      replay.session.history.lines().map { KeyText.text(of: $0.keys) } == [
        "prog", "hex AB", "hex FE", "AC",
      ])
    // `AC` of a Programmer line in HEX: two hex digits, not the key AC.
    #expect(DisplayFormat.posix.text(for: replay.session.state) == "AC")
  }

  @Test func theCaseRulesTrapsGetNotesAndHints() throws {
    let cases: [(keys: String, stdout: String, stderr: String, status: Int32)] = [
      (
        "prog hex AC", "AC\n",
        "calc: note: 'AC' was read as the hex digits A C; the key AC is ac\n", 0
      ),
      (
        "prog hex DEC", "DEC\n",
        "calc: note: 'DEC' was read as the hex digits D E C; the key DEC is dec\n", 0
      ),
      (
        "prog hex 5 CE", "5CE\n",
        "calc: note: 'CE' was read as the hex digits C E; the key CE is ce\n", 0
      ),
      (
        "prog AC", "",
        "calc: --keys: 'A' is a hex digit (type hex first) at column 6 (the key AC is ac)\n", 65
      ),
      (
        "prog ROLC", "",
        "calc: --keys: 'C' is a hex digit (type hex first) at column 9 (the key RoLC is rolc)\n",
        65
      ),
      (
        "prog hex DWORD", "",
        "calc: --keys: unknown key 'W' at column 11 (the key DWORD is dword)\n", 65
      ),
      (
        "prog hex 1c", "",
        "calc: --keys: 'c' after a digit is the key AC at column 11 (hex digits are upper "
          + "case: 1C)\n", 65
      ),
      (
        "prog hex 1ce", "",
        "calc: --keys: 'ce' after a digit is the key CE at column 11 (hex digits are upper "
          + "case: 1CE)\n", 65
      ),
      (
        "prog hex ff", "",
        "calc: --keys: unknown key 'f' at column 10 (hex digits are upper case: FF)\n", 65
      ),
      (
        "prog hex fe", "",
        "calc: --keys: 'fe' is not a key of Programmer mode (type sci first) at column 10 (hex "
          + "digits are upper case: FE)\n", 65
      ),
      ("prog 5 MC", "", "calc: --keys: unknown key 'M' at column 8 (the key MC is mc)\n", 65),
      (
        "prog 1^2", "",
        "calc: --keys: '^' is not a key of Programmer mode (type sci first) at column 7 "
          + "(bitwise XOR is xor)\n", 65
      ),
      ("prog 1|2", "", "calc: --keys: unknown key '|' at column 7 (bitwise OR is or)\n", 65),
      ("prog 1&2", "", "calc: --keys: unknown key '&' at column 7 (bitwise AND is and)\n", 65),
      (
        "prog 8>1", "",
        "calc: --keys: unknown key '>' at column 7 (a right shift is rsh (rshl shifts zeros "
          + "in))\n", 65
      ),
      // A blank between: `c` is AC, as typed; `C` alone is the digit.
      ("prog hex 1 c", "0\n", "", 0),
      ("prog hex C", "C\n", "", 0),
      // The other modes: nothing changes.
      ("sci 5 SCI 2", "2\n", "", 0),
      ("5 MS MC MR", "5\n", "", 0),
      ("5 AC", "0\n", "", 0),
      ("1|2", "", "calc: --keys: unknown key '|' at column 2\n", 65),
    ]
    for (keys, stdout, stderr, status) in cases {
      try expectScript(["-k", keys], stdout: stdout, stderr: stderr, status: status)
    }
  }

  @Test func theNotesOfSection5InProgrammerMode() throws {
    let cases: [(keys: String, stdout: String, stderr: String)] = [
      (
        "prog byte 2555", "25\n",
        "calc: note: a BYTE holds -128 to 127; the 55 from column 13 were ignored\n"
      ),
      (
        "prog byte 1285", "125\n",
        "calc: note: a BYTE holds -128 to 127; the 8 at column 13 was ignored\n"
      ),
      (
        "prog byte 2 55", "25\n",
        "calc: note: a BYTE holds -128 to 127; the 5 at column 14 was ignored\n"
      ),
      (
        "prog hex byte FFF", "FF\n",
        "calc: note: a BYTE holds 8 bits; the F at column 17 was ignored\n"
      ),
      ("prog 00 1", "1\n", ""),
      (
        "prog byte 127 000 000 000", "127\n",
        "calc: note: a BYTE holds -128 to 127; 9 digits from column 15 were ignored\n"
      ),
      (
        "prog 5 not 3", "3\n",
        "calc: note: NOT acted on 5 and 3 started a new number (NOT acts on the number before "
          + "it: 3not)\n"
      ),
      (
        "prog 16 bit3 5", "5\n",
        "calc: note: bit3 acted on 16 and 5 started a new number (bit3 acts on the number "
          + "before it: 5bit3)\n"
      ),
      ("prog 12+3", "3\n", "calc: note: 12 + 3 is not finished; add = to compute it\n"),
    ]
    for (keys, stdout, stderr) in cases {
      try expectScript(["-k", keys], stdout: stdout, stderr: stderr)
    }
  }

  /// An interpreter after `lines`.
  private func interpreter(_ lines: [String]) throws -> LineInterpreter {
    var interpreter = LineInterpreter(format: DisplayFormat(localeIdentifier: "en_US"))
    for line in lines { try interpreter.run(line, output: OutputBuffer()) }
    return interpreter
  }

  @Test func thePromptShowsProgTheRadixAndTheWordSize() throws {
    let dec = try interpreter(["prog"])
    let hexByte = try interpreter(["5", "ms", "prog hex byte 1", "2", ":goto 5", "3"])
    let cases: [(LineInterpreter, Int?, String)] = [
      (dec, nil, "calc prog dec> "), (try interpreter(["prog oct qword"]), nil, "calc prog oct> "),
      (try interpreter(["prog bin dword"]), nil, "calc prog bin dword> "),
      (try interpreter(["sci rad prog"]), nil, "calc prog dec> "),
      (hexByte, nil, "calc prog hex byte b2 M> "), (hexByte, 75, "calc prog hex byte b2 M> "),
      (hexByte, 74, "prog hex byte b2 M> "), (hexByte, 50, "prog hex b2 M> "),
      (try interpreter(["prog hex byte 1", "2", ":goto 3"]), nil, "calc prog hex byte[3/5]> "),
      (try interpreter(["prog hex byte 1", "2", ":goto 3"]), 60, "prog hex byte[3/5]> "),
      (try interpreter(["prog hex byte 1", "2", ":goto 3"]), 54, "prog hex byte[3]> "),
      (try interpreter(["prog hex byte 1", "2", ":goto 3"]), 40, "prog hex[3]> "),
      (try interpreter(["prog std"]), nil, "calc> "),
    ]
    for (interpreter, columns, expected) in cases {
      #expect(Prompt.text(for: interpreter, columns: columns) == expected, "\(columns ?? 0)")
    }
  }
}

/// SPEC §10's panel of the four radixes in the REPL: under the display, live while a line is
/// typed and after a slider move, cut to the width with BIN cut on the left, `carry 1`.
@Suite struct ProgrammerPanelTests {
  private func state(_ keys: String) throws -> Calculator {
    Calculator.initial.applying(try KeyText.keys(in: keys))
  }

  @Test func thePanelShowsTheFourRadixesCutToTheWidth() throws {
    let format = DisplayFormat(localeIdentifier: "en_US")
    let cases: [(keys: String, width: Int?, row: String?)] = [
      (
        "prog 123456789", nil,
        "HEX 75B CD15  DEC 123,456,789  OCT 726 746 425  BIN 0111 0101 1011 1100 1101 0001 0101"
      ),
      ("prog 255", nil, "HEX FF  DEC 255  OCT 377  BIN 1111 1111"),
      ("prog byte 1~", nil, "HEX FF  DEC -1  OCT 377  BIN 1111 1111"),
      (
        "prog 123456789", 80,
        "HEX 75B CD15  DEC 123,456,789  OCT 726 746 425  BIN …1011 1100 1101 0001 0101"
      ),
      ("prog 123456789", 60, "HEX 75B CD15  DEC 123,456,789  OCT 726 746 425  BIN …0101"),
      ("prog 123456789", 55, "HEX 75B CD15  DEC 123,456,789  OCT 726 746 425"),
      ("prog 123456789", 40, "HEX 75B CD15  DEC 123,456,789  OCT 726 …"),
      ("prog 5~", 40, "HEX FFFF FFFF FFFF FFFB  DEC -5  OCT 1 …"),
      ("prog 1 rorc", nil, "HEX 0  DEC 0  OCT 0  BIN 0  carry 1"),
      ("prog byte 3 rorc", 40, "HEX 1  DEC 1  OCT 1  BIN 0001  carry 1"),
      (
        "prog 5~ rorc", 60,
        "HEX 7FFF FFFF FFFF FFFD  DEC 9,223,372,036,854,775…  carry 1"
      ),
      ("prog 1/0=", nil, nil),
      ("sci 5", nil, nil),
      ("5", nil, nil),
    ]
    for (keys, width, row) in cases {
      #expect(
        ProgrammerPanel.row(for: try state(keys), format: format, width: width) == row, "\(keys)")
    }
  }

  @Test func theREPLShowsThePanelUnderTheDisplay() {
    let run = REPLInProcessTests.run(["prog", "hex FF", ":goto 2", "", "std 5"])
    #expect(
      run.output.hasSuffix(
        "0\nHEX 0  DEC 0  OCT 0  BIN 0\nFF\nHEX FF  DEC 255  OCT 377  BIN 1111 1111\n"
          + "0\nHEX 0  DEC 0  OCT 0  BIN 0\n0\nHEX 0  DEC 0  OCT 0  BIN 0\n"
          + "(branch 2 from step 2 of branch 1)\n5\n\n"),
      "\(run.output)")
    #expect(
      run.editor.prompts.prefix(4) == [
        "calc> ", "calc prog dec> ", "calc prog hex> ", "calc prog hex[2/4]> ",
      ])
  }

  @Test func theLiveRowsCarryThePanel() throws {
    var interpreter = LineInterpreter(format: .posix)
    try interpreter.run("prog", output: OutputBuffer())
    var rows = LiveRows(interpreter: interpreter, format: .posix)
    #expect(
      rows.preview(Array("hex FF".utf8), width: 60) == "FF\nHEX FF  DEC 255  OCT 377  BIN 1111 1111"
    )
    #expect(
      rows.preview(Array("1 rorc".utf8), width: 60)
        == "RoRC(1)   0\nHEX 0  DEC 0  OCT 0  BIN 0  carry 1")
    #expect(rows.preview(Array("1/0=".utf8), width: 60) == "1 ÷ 0 =   Cannot divide by zero")
    #expect(rows.preview(Array(":goto 1".utf8), width: 60) == "0")
    #expect(rows.current(width: 40) == "0\nHEX 0  DEC 0  OCT 0  BIN 0")
  }
}

/// SPEC §10's `:tape` in Programmer mode: only `=` makes a row, in the radix shown at that
/// step; memory rows too; `:tape csv` in DEC; `:keys` writes `prog`, radix and size keys.
@Suite struct ProgrammerTapeTests {
  @Test func theTapeShowsEachRowInItsRadixAndCSVInDecimal() throws {
    let script = "prog\n12+3=\nhex\n*2=\n5 rorc\nbyte 30 ms\nFF m+\nmr\nmc\n5 not\n"
    try expectScript(
      ["-"], stdin: script + ":tape\n:tape csv\n:keys\n",
      stdout: "0\n15\nF\n1E\n2\n30\nFF\n2F\n2F\nFA\n"
        + " 6  12 + 3 = 15\n10  F × 2 = 1E\n16  MS 30\n19  M+ FF\n20  MR 2F\n21  MC\n"
        + "step,expression,result,note\n6,12 + 3 =,15,\n10,15 × 2 =,30,\n16,MS,48,\n"
        + "19,M+,-1,\n20,MR,47,\n21,MC,,\n"
        + "prog\n12+3=\nhex\n*2=\n5rorc\nbyte30ms\nFFm+\nmr\nmc\n5not\n")
  }

  @Test func keysWriteASpaceWhereTwoWordsOrABitKeyAndADigitMeet() throws {
    try expectScript(
      ["-"], stdin: "prog\nhex bit1 0 rol c\n:keys\n",
      stdout: "0\n0\nprog\nhex bit1 0rol c\n",
      stderr: "<stdin>:2:10: note: bit1 acted on 0 and 0 started a new number (bit1 acts on the "
        + "number before it: 0bit1)\n")
  }
}

/// Tab completion of key words in the mode in force (SPEC §6, §10), and `:pad`.
@Suite struct ProgrammerCompletionAndPadTests {
  @Test func tabCompletesTheKeyWordsOfTheMode() {
    let cases: [(text: String, mode: Key.Mode, matches: [String])] = [
      ("5ro", .programmer, ["5rol", "5ror", "5rolc", "5rorc"]),
      ("pr", .standard, ["prog"]), ("pr", .scientific, ["prog"]), ("pr", .programmer, ["prog"]),
      ("x", .programmer, ["xor"]), ("x", .standard, []), ("hex", .programmer, ["hex"]),
      ("FFan", .programmer, ["FFand"]), ("DE", .programmer, []), ("De", .programmer, []),
      ("dE", .programmer, []),
      ("wo", .programmer, ["word"]), ("qw", .programmer, ["qword"]), ("12", .programmer, []),
      ("si", .scientific, ["sin", "sinh"]), ("si", .programmer, []), ("st", .programmer, ["std"]),
      ("bit6", .programmer, []),
    ]
    for (text, mode, matches) in cases {
      #expect(LineInterpreter.keyWordCompletions(of: text, mode: mode) == matches, "\(text)")
    }
    #expect(LineInterpreter.keyWordCompletions(of: "bit", mode: .programmer).count == 64)
  }

  @Test func thePadDrawsWindowsProgrammerKeypadAndTheBitKeypad() throws {
    try expectScript(
      ["-"], stdin: "prog\nbyte 5\n:pad\n",
      stdout: "0\n5\n" + """
        ┌─────────┬─────────┬─────────┬─────────┐
        │   HEX   │   DEC   │   OCT   │   BIN   │
        │   hex   │   dec   │   oct   │   bin   │
        ├─────────┼─────────┼─────────┼─────────┤
        │  QWORD  │  DWORD  │  WORD   │  BYTE   │
        │  qword  │  dword  │  word   │  byte   │
        ├───────┬─┴─────┬───┴───┬─────┴─┬───────┤
        │  MC   │  MR   │  M+   │  M−   │  MS   │
        │  mc   │  mr   │  m+   │  m-   │  ms   │
        ├───────┼───────┼───────┼───────┼───────┤
        │  AND  │  OR   │  XOR  │ NAND  │  NOR  │
        │  and  │  or   │  xor  │ nand  │  nor  │
        ├───────┼───────┼───────┼───────┼───────┤
        │  NOT  │  RoL  │  RoR  │ RoLC  │ RoRC  │
        │  not  │  rol  │  ror  │ rolc  │ rorc  │
        ├───────┼───────┼───────┼───────┼───────┤
        │   A   │  Lsh  │  Rsh  │  AC   │   ⌫   │
        │   A   │  lsh  │  rsh  │   c   │   <   │
        ├───────┼───────┼───────┼───────┼───────┤
        │   B   │   (   │   )   │  mod  │   ÷   │
        │   B   │   (   │   )   │  mod  │   /   │
        ├───────┼───────┼───────┼───────┼───────┤
        │   C   │   7   │   8   │   9   │   ×   │
        │   C   │   7   │   8   │   9   │   *   │
        ├───────┼───────┼───────┼───────┼───────┤
        │   D   │   4   │   5   │   6   │   -   │
        │   D   │   4   │   5   │   6   │   -   │
        ├───────┼───────┼───────┼───────┼───────┤
        │   E   │   1   │   2   │   3   │   +   │
        │   E   │   1   │   2   │   3   │   +   │
        ├───────┼───────┼───────┼───────┼───────┤
        │   F   │  +/-  │   0   │  CE   │   =   │
        │   F   │   ~   │   0   │  ce   │   =   │
        ├───────┴─────┬─┴───────┴──┬────┴───────┤
        │    RshL     │    std     │    sci     │
        │    rshl     │    std     │    sci     │
        └─────────────┴────────────┴────────────┘
        bit keypad (BYTE): bitN flips bit N
          7  0000 0101   0

        """)
    let bits = HelpText.bitKeypad(
      Calculator.initial.applying(try KeyText.keys(in: "prog 5~")).programmer)
    #expect(
      bits == "bit keypad (QWORD): bitN flips bit N\n 63  1111 1111 1111 1111  48\n"
        + " 47  1111 1111 1111 1111  32\n 31  1111 1111 1111 1111  16\n"
        + " 15  1111 1111 1111 1011   0\n")
  }
}
