import CalcCLI
import CalcTestSupport
import CalculatorEngine
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// SPEC §6, the slider: Alt-← Alt-→ Alt-↑ Alt-↓ (and PgUp/PgDn) move through time in place, on
/// a real pseudo-terminal with readline, checked against the tests' session model.
@Suite struct SliderTests {
  static let esc = "\u{1B}"
  static let keys: [(move: String, sequence: String)] = [
    ("backKey", "\u{1B}[1;3D"), ("forwardKey", "\u{1B}[1;3C"), ("backLine", "\u{1B}[1;3A"),
    ("forwardLine", "\u{1B}[1;3B"), ("backKey", "\u{1B}\u{1B}[D"), ("backLine", "\u{1B}[5~"),
    ("forwardLine", "\u{1B}[6~"),
  ]

  private func startCalc(in directory: URL, inputrc: String = "", arguments: [String] = [])
    throws -> TerminalSession
  {
    try inputrc.write(
      to: directory.appendingPathComponent(".inputrc"), atomically: true, encoding: .utf8)
    let calc = try TerminalSession(
      directory: directory,
      environment: [
        "HOME": directory.path, "NO_COLOR": "1",
        "XDG_STATE_HOME": directory.appendingPathComponent("state").path,
      ], arguments: arguments)
    try calc.wait(for: "a prompt") { $0.lines.last == "calc> " }
    return calc
  }

  /// The prompt the REPL shows for `model`'s position (one branch here).
  static func prompt(_ model: SessionModel) -> String {
    model.position == model.count ? "calc> " : "calc[\(model.position)/\(model.count)]> "
  }

  @Test func randomMovesEndWhereTheModelDoesAndNothingScrolls() throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory)
      var model = SessionModel()
      for (line, display) in [("12+3=", "15"), ("*2=", "30"), ("-4=", "26"), ("1234", "1,234")] {
        try calc.type(line + "\r")
        try calc.waitForLastLines([display, "calc> "])
        model.apply(line: try KeyText.keys(in: line))
      }
      let above = Array(calc.screen.lines.dropLast())
      var random = SplitMix64(state: 0x511D)
      for _ in 0..<TestSize.count(short: 100, long: 1_000) {
        let (move, sequence) = Self.keys[random.below(Self.keys.count)]
        switch move {
        case "backKey": _ = model.goto(max(0, model.position - 1))
        case "forwardKey": _ = model.goto(min(model.count, model.position + 1))
        case "backLine": model.undo(1)
        default: model.redo(1)
        }
        // Each move draws one frame (it starts by erasing below the input, ESC [ J).
        let frames = calc.text.components(separatedBy: "\u{1B}[J").count
        try calc.type(sequence)
        let expected = Self.prompt(model)
        try calc.wait(for: "the frame with the prompt \(expected)") { calc in
          calc.text.components(separatedBy: "\u{1B}[J").count == frames + 1
            && calc.screen.lines.contains { $0.hasPrefix(expected) }
        }
      }
      // The rows above the prompt are as they were; below it, the live row and the slider.
      let rows = calc.screen.lines
      #expect(Array(rows.dropLast()) == above)
      #expect(rows.last?.hasPrefix(Self.prompt(model).trimmingCharacters(in: .whitespaces)) == true)
      let below = calc.screen.rowsBelowCursor
      let display = DisplayFormat(localeIdentifier: "en_US").text(for: model.state)
      #expect(below.first?.hasSuffix(display) == true, "\(below)")
      #expect(below.dropFirst().first?.hasSuffix("] \(model.position)/\(model.count)") == true)
      // Enter erases them: the scrollback reads as without the slider.
      // (An empty line shows the display again: the expression line, if any, and the display.)
      let count = calc.screen.lines.count
      try calc.type("\r")
      try calc.wait(for: "the display again and a prompt") {
        $0.screen.lines.count >= count + 2 && $0.screen.lines.last == Self.prompt(model)
      }
      #expect(!calc.screen.lines.contains { $0.hasPrefix("[") }, "\(calc.screen.lines)")
      #expect(calc.screen.rowsBelowCursor.allSatisfy { $0.isEmpty })
    }
  }

  @Test func aUsersInputrcRebindsTheSliderAndTheLineIsKept() throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(
        in: directory, inputrc: "$if calc\n\"\\ep\": calc-back-key\n$endif\n")
      try calc.type("12+3=\r")
      try calc.waitForLastLines(["15", "calc> "])
      try calc.type("7")
      try calc.type("\(Self.esc)p")
      try calc.wait(for: "one key back") {
        $0.screen.lines.contains { $0.hasPrefix("calc[4/5]> 7") }
      }
      try calc.type("\r")
      try calc.wait(for: "the new branch") { $0.lines.last == "calc b2> " }
      try calc.type(":keys\r")
      // The line typed before the move is kept, and starts branch 2 at step 4 (rule 18: a new
      // number, so `12+` then `7`).
      try calc.wait(for: "the keys") { $0.lines.suffix(3) == ["12+3", "7", "calc b2> "] }
    }
  }

  @Test func movesAreJournaledSoKillDashNineLosesNone() throws {
    try withTemporaryDirectory { directory in
      let calc = try startCalc(in: directory)
      try calc.type("12+3=\r")
      try calc.waitForLastLines(["15", "calc> "])
      for _ in 0..<3 {
        let frames = calc.text.components(separatedBy: "\u{1B}[J").count
        try calc.type("\(Self.esc)[1;3D")
        try calc.wait(for: "a frame") {
          $0.text.components(separatedBy: "\u{1B}[J").count == frames + 1
        }
      }
      try calc.wait(for: "three keys back") { $0.screen.lines.contains("calc[2/5]> ") }
      kill(calc.pid, SIGKILL)
      while calc.isRunning { usleep(1_000) }
      let resumed = try InProcess.run(
        ["--resume", "-"], stdin: Data(":keys\n".utf8),
        environment: [
          "HOME": directory.path,
          "XDG_STATE_HOME": directory.appendingPathComponent("state").path,
        ])
      #expect(resumed.stdout == "12\n")
      #expect(resumed.status == 0)
    }
  }
}
