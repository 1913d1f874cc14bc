import CalculatorEngine
import Testing

/// `reset` and `load` keep the session they replace, one level deep (SPEC §4): `undo` where
/// there is nothing left to undo restores it, `redo` right after (or at the end) restores the
/// replacement, and the journal's record of a replacement replays as the same undoable change.
@Suite struct ReplacementTests {
  /// Runs script lines (keys and session directives) on `session`; one row per line: the
  /// change (`moved 5→0`, `restored before :reset`) and the display after it.
  static func trace(_ lines: [String], on session: inout Session) throws -> [String] {
    try lines.map { line in
      let command: Session.Command
      switch try ScriptLine(line) {
      case .keys(let keys): command = .keys(keys)
      case .directive(let directive): command = try #require(try SessionScript.command(directive))
      case .blank: throw LineError("blank")
      }
      let change = try session.perform(command)
      session.history._checkInvariants()
      return describe(change) + " " + DisplayFormat.posix.text(for: session.state)
    }
  }

  static func describe(_ change: Session.Change) -> String {
    switch change {
    case .applied(let keys, _): "applied \(keys)"
    case .moved(let from, let to): "moved \(from)→\(to)"
    case .switched(let branch): "switched \(branch)"
    case .reset: "reset"
    case .loaded(let isWhole): isWhole ? "loaded whole" : "loaded"
    case .restored(let restore):
      "restored \(restore.isReplaced ? "before" : "after") \(restore.replacement.command)"
    case .rewrote(let rewrite): "rewrote \(rewrite.line)"
    case .noted(let line, _): "noted \(line)"
    case .varied(let variation): "varied \(variation.line)"
    }
  }

  /// The lines, and the row each gives (``trace(_:on:)``).
  static let cases: [(name: String, lines: [String], rows: [String])] = [
    (
      "undo restores the session before :reset; redo the replacement; undo again the old one",
      ["12+3=", "*2=", ":reset", "5=", ":undo", ":undo", ":redo", ":undo", ":undo"],
      [
        "applied 5 15", "applied 3 30", "reset 0", "applied 2 5", "moved 2→0 0",
        "restored before :reset 30", "restored after :reset 0", "restored before :reset 30",
        "moved 8→5 15",
      ]
    ),
    (
      ":undo K stops at the restore",
      ["12+3=", ":reset", "5=", "7=", ":undo 9", ":undo 9"],
      [
        "applied 5 15", "reset 0", "applied 2 5", "applied 2 7", "restored before :reset 15",
        "moved 5→0 0",
      ]
    ),
    (
      ":redo K stops at the restore, and the replacement comes back where undo left it",
      ["12+3=", ":reset", "5=", "7=", ":undo 2", ":undo", ":redo 4", ":redo"],
      [
        "applied 5 15", "reset 0", "applied 2 5", "applied 2 7", "moved 4→0 0",
        "restored before :reset 15", "restored after :reset 0", "moved 0→2 5",
      ]
    ),
    (
      "a second replacement keeps only the newest replaced session",
      ["1+1=", ":reset", "2+2=", ":reset", "3+3=", ":undo", ":undo", ":undo", ":undo"],
      [
        "applied 4 2", "reset 0", "applied 4 4", "reset 0", "applied 4 6", "moved 4→0 0",
        "restored before :reset 4", "moved 4→0 0", "moved 0→0 0",
      ]
    ),
    (
      "with nothing replaced, undo at step 0 moves nowhere, as before",
      ["12+3=", ":undo", ":undo"],
      ["applied 5 15", "moved 5→0 0", "moved 0→0 0"]
    ),
    (
      "an empty session is not kept: what was kept stays",
      ["12+3=", ":reset", ":reset", ":undo", ":redo"],
      [
        "applied 5 15", "reset 0", "reset 0", "restored before :reset 15",
        "restored after :reset 0",
      ]
    ),
    (
      "a reset of an empty session keeps nothing",
      [":reset", ":undo"],
      ["reset 0", "moved 0→0 0"]
    ),
    (
      "a lone mode line at the start (--mode) counts as the replacement's start",
      ["12+3=", ":reset", "sci", "2=", ":undo", ":undo", ":redo"],
      [
        "applied 5 15", "reset 0", "applied 1 0", "applied 2 2", "moved 3→1 0",
        "restored before :reset 15", "restored after :reset 0",
      ]
    ),
    (
      "redo right after the restore brings the replacement back wherever the position is",
      ["12+3=", "*2=", ":undo", ":reset", ":undo", ":goto 5", ":redo"],
      [
        "applied 5 15", "applied 3 30", "moved 8→5 15", "reset 0",
        "restored before :reset 15", "moved 5→5 15", "restored after :reset 0",
      ]
    ),
    (
      "after a change in the restored session, redo moves on and restores at the end",
      ["12+3=", "*2=", ":undo", ":reset", ":undo", ":goto 0", ":redo", ":redo", ":redo"],
      [
        "applied 5 15", "applied 3 30", "moved 8→5 15", "reset 0",
        "restored before :reset 15", "moved 5→0 0", "moved 0→5 15", "moved 5→8 30",
        "restored after :reset 0",
      ]
    ),
    (
      "keys typed in the restored session keep the replacement for redo at the end",
      ["12+3=", ":reset", "4=", ":undo", ":undo", "*2=", ":redo", ":undo"],
      [
        "applied 5 15", "reset 0", "applied 2 4", "moved 2→0 0", "restored before :reset 15",
        "applied 3 30", "restored after :reset 0", "restored before :reset 30",
      ]
    ),
  ]

  @Test(arguments: cases.indices)
  func undoAndRedoAcrossAReplacement(index: Int) throws {
    let (name, lines, rows) = Self.cases[index]
    var session = Session()
    #expect(try Self.trace(lines, on: &session) == rows, "\(name)")
    // Written whole and replayed (what the journal writes for a --resume), it is the same.
    let whole = SessionScript.text(ofWhole: session)
    let (replayed, stop) = SessionScript.replay(Array(whole.utf8))
    #expect(stop == nil, "\(name): \(whole)")
    #expect(SessionScript.text(ofWhole: replayed) == whole, "\(name)")
    #expect(replayed.state == session.state, "\(name)")
    #expect(replayed.isRightAfterRestore == session.isRightAfterRestore, "\(name)")
  }

  /// A loaded session is kept like a reset one, and the message names `:load`.
  @Test func loadKeepsTheSessionItReplaces() throws {
    var loaded = Session()
    _ = try Self.trace(["2*3=", ":goto 2", "+1="], on: &loaded)
    var session = Session()
    _ = try Self.trace(["12+3="], on: &session)
    #expect(try session.perform(.load(loaded)) == .loaded(isWhole: false))
    #expect(session.history.branchCount == 2)
    #expect(
      try Self.trace([":undo", ":undo", ":undo", ":redo"], on: &session) == [
        "moved 5→2 2", "moved 2→0 0", "restored before :load 15", "restored after :load 0",
      ])
  }

  /// Replacing an empty session brings the new one whole, what it kept included (a
  /// `--resume`); replacing another drops what the new one kept (one level).
  @Test func aResumedSessionComesWholeOnlyIntoAnEmptyOne() throws {
    var earlier = Session()
    _ = try Self.trace(["12+3=", ":reset", "5=", ":undo", ":undo"], on: &earlier)
    #expect(earlier.isRightAfterRestore)
    var fresh = Session()
    #expect(try fresh.perform(.load(earlier, by: .resume)) == .loaded(isWhole: true))
    #expect(fresh.isRightAfterRestore)
    #expect(
      try Self.trace([":redo", ":redo"], on: &fresh) == ["restored after :reset 0", "moved 0→2 5"])

    var busy = Session()
    _ = try Self.trace(["7="], on: &busy)
    #expect(try busy.perform(.load(earlier, by: .resume)) == .loaded(isWhole: false))
    #expect(!busy.isRightAfterRestore)
    #expect(try Self.trace([":redo", ":undo"], on: &busy) == ["moved 5→5 15", "moved 5→0 0"])
    #expect(try Self.trace([":undo"], on: &busy) == ["restored before :resume 7"])
  }

  /// The journal's record of each replacement (SPEC §6), replayed after the session before it,
  /// gives the session after it, kept session included.
  @Test func theRecordOfAReplacementReplaysAsTheSameUndoableChange() throws {
    var earlier = Session()
    _ = try Self.trace(["12+3=", ":reset", "5=", ":undo", ":undo"], on: &earlier)
    var file = Session()
    _ = try Self.trace(["2*3="], on: &file)
    let replacements: [(before: [String], command: Session.Command, record: String)] = [
      (["1+1="], .reset, ":reset"),
      (
        ["1+1="], .load(file),
        ":reset load\n# calc session, format 3: 1 branch, at step 4 of 4 on branch 1\n2*3=\n"
          + ":goto 4"
      ),
      (
        [], .load(earlier, by: .resume),
        ":reset resume\n# calc session, format 3: 1 branch, at step 5 of 5 on branch 1\n12+3=\n"
          + ":goto 5\n:reset\n# calc session, format 3: 1 branch, at step 0 of 2 on branch 1\n"
          + "5=\n:goto 0\n:undo"
      ),
      (
        ["1+1="], .load(earlier, by: .resume),
        ":reset resume\n# calc session, format 3: 1 branch, at step 5 of 5 on branch 1\n12+3=\n"
          + ":goto 5"
      ),
      (["1+1=", ":reset", ":undo"], .redo(1), ":redo 1"),
    ]
    for (before, command, record) in replacements {
      var live = Session()
      _ = try Self.trace(before, on: &live)
      var replayed = live
      let change = try live.perform(command)
      var lines: [String] = []
      SessionScript.forEachRecordLine(of: command, change: change, leaving: live) {
        lines.append($0)
      }
      #expect(lines.joined(separator: "\n") == record)
      var replay = SessionScript.Replay()
      for line in before + lines { try replay.perform(line) }
      replayed = replay.session
      #expect(
        SessionScript.text(ofWhole: replayed) == SessionScript.text(ofWhole: live), "\(record)")
      #expect(replayed.isRightAfterRestore == live.isRightAfterRestore, "\(record)")
    }
  }

  /// `:reset` takes no argument but the journal's `load` or `resume`.
  @Test func resetTakesOnlyTheJournalsWords() throws {
    func command(_ line: String) throws -> Session.Command? {
      guard case .directive(let directive) = try ScriptLine(line) else { return nil }
      return try SessionScript.command(directive)
    }
    guard case .reset? = try command(":reset") else { Issue.record(":reset"); return }
    guard case .load(_, .load)? = try command(":reset load") else { Issue.record("load"); return }
    guard case .load(_, .resume)? = try command(":reset resume") else {
      Issue.record("resume")
      return
    }
    #expect(throws: LineError(":reset takes no argument, not 'x'", column: 8)) {
      try command(":reset x")
    }
  }
}
