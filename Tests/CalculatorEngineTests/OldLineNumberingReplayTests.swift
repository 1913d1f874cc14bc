import CalculatorEngine
import Testing

/// The engine's reader translates the line numbers of format 2 and older (SPEC §4): in them a
/// lone mode key first line is line 1, so their line L is today's L − 1 on such a branch, and
/// on any other branch the numbers are the same.
@Suite struct OldLineNumberingReplayTests {
  /// The session a script replays to, as its saved script, and where the replay stopped.
  static func replayed(_ text: String) -> (script: String, stop: SessionScript.Stop?) {
    let (session, stop) = SessionScript.replay(Array(text.utf8))
    return (SessionScript.text(of: session.history), stop)
  }

  /// Each command in format 2, and the same command in format 3 with today's number.
  @Test(
    arguments: [
      (":edit 3 *4=", ":edit 2 *4="), (":insert 3 +5=", ":insert 2 +5="),
      (":insert 5 +5=", ":insert 4 +5="), (":delete 2", ":delete 1"),
      (":note 4 minus one", ":note 3 minus one"), (":vary 3 *3= | *5=", ":vary 2 *3= | *5="),
      (":edit 4 -2=  # two", ":edit 3 -2=  # two"),
    ] as [(String, String)])
  func formatTwoNumbersAreTodaysPlusOneAfterAModeLine(old: String, today: String) {
    let lines = "sci\n12+3=\n*2=\n-1=\n"
    let before = Self.replayed("# calc session, format 2: x\n" + lines + old + "\n")
    let after = Self.replayed("# calc session, format 3: x\n" + lines + today + "\n")
    #expect(before.stop == nil)
    #expect(after.stop == nil)
    #expect(before.script == after.script)
    // Today's numbering reads the old command as naming the line after.
    #expect(
      Self.replayed("# calc session, format 3: x\n" + lines + old + "\n").script != before.script)
  }

  /// Without a mode line first (`sci rad` is not one), both numberings are the same.
  @Test(arguments: ["12+3=\n*2=\n-1=\n", "sci rad\n12+3=\n*2=\n"])
  func withoutAModeLineTheNumbersAreTheSame(lines: String) {
    for command in [":edit 2 *4=", ":insert 2 +5=", ":delete 2"] {
      let old = Self.replayed("# calc session, format 2: x\n" + lines + command + "\n")
      let today = Self.replayed("# calc session, format 3: x\n" + lines + command + "\n")
      #expect(old.stop == nil)
      #expect(old.script == today.script)
    }
  }

  /// An old file's line 1 is the mode line, which stays: the replay stops there, saying why.
  @Test func theModeLineOfAnOldFileStays() {
    let (script, stop) = Self.replayed("# calc journal, format 2\nsci\n12+3=\n:edit 1 std\n")
    #expect(stop?.line == 4)
    #expect(
      stop?.error
        == LineError(
          ":edit 1 names the mode line (sci), which a file of format 2 or older counts as line "
            + "1: calc now numbers it 0 and keeps it, so this file cannot change it (SPEC §11)",
          column: 7))
    #expect(script == Self.replayed("sci\n12+3=\n").script)
  }
}
