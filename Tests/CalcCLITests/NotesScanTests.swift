import CalcTestSupport
import CalculatorEngine
import Testing

@testable import CalcCLI
@testable import CalcCore

/// The cheap scan that decides whether a line of keys is replayed for notes
/// (`LineInterpreter.mayNeedNotes`) passes over no line that has notes: a long line of short
/// numbers is applied once, and a line whose entry ignored digits still gets its note.
@Suite struct LongLineNotesScanTests {
  @Test func noLineWithNotesIsPassedOver() throws {
    var random = SplitMix64(state: 0x5CA9)
    let pieces = [
      "1", "2", "3", "4", "5", "6", "7", "8", "9", "0", ".", "~", "<", "+", "*", "=", "@", "ms",
      "mr", "ce", "exp", "(", ")", "sin", "1234567890", "12345678901234567890", "sci ", "std ",
    ]
    var withNotes = 0
    for _ in 0..<TestSize.count(short: 400, long: 20_000) {
      var interpreter = LineInterpreter(format: DisplayFormat(localeIdentifier: "en_US"))
      if random.below(2) == 0 { try interpreter.run("sci", output: OutputBuffer()) }
      let text = (0..<random.below(30)).map { _ in pieces[random.below(pieces.count)] }.joined()
      guard case .keys(let keys) = try? ScriptLine(text),
        interpreter.session.state.firstKeyOutOfMode(in: keys) == nil
      else { continue }
      let before = interpreter.session.state
      let found = Array(text.utf8).withUnsafeBufferPointer { line in
        interpreter.keyNotes(for: keys, after: before, line: line)
      }
      if !found.notes.isEmpty || found.passedAnError || found.leftToRight != nil {
        withNotes += 1
        var started = before
        started.startLine()
        let mayNeed =
          LineInterpreter.mayNeedNotes(
            keys.keys, isPending: started.isPending,
            startsOnAnUntouchedZero: keys[0].isBinaryOperator && started.showsUntouchedZero,
            mode: started.mode)
          || (started.isPending && keys[0].startsANumber)
        #expect(mayNeed, "\(text)")
        // The cheaper second look that `applyKeys` takes at a line the scan says yes to: the
        // scan that assumes no error, or an error shown on the way.
        let mayNeedWithoutErrors =
          LineInterpreter.mayNeedNotes(
            keys.keys, isPending: started.isPending,
            startsOnAnUntouchedZero: keys[0].isBinaryOperator && started.showsUntouchedZero,
            mode: started.mode, errorsPossible: false)
          || (started.isPending && keys[0].startsANumber)
          || LineInterpreter.showsAnError(keys.keys[...], from: before)
        #expect(mayNeedWithoutErrors, "\(text)")
      }
    }
    #expect(withNotes >= 20)
  }

  /// A line that the scan says yes to only for the errors it might show is replayed for notes
  /// only when it shows one: `1+2*((3+4)*5)%+1=` (any `×` might overflow) has no note, and
  /// `1/0+(2)5=` has the note of the error it passed (and exits 1, SPEC §8).
  @Test func aLineThatMightShowAnErrorIsLookedAtOnceMore() throws {
    let quiet = try KeyText.keys(in: "1+2*((3+4)*5)%+1=", startingIn: .scientific)
    var interpreter = LineInterpreter(format: DisplayFormat(localeIdentifier: "en_US"))
    try interpreter.run("sci", output: OutputBuffer())
    let state = interpreter.session.state
    #expect(
      LineInterpreter.mayNeedNotes(
        quiet.keys, isPending: false, startsOnAnUntouchedZero: false, mode: .scientific))
    #expect(
      !LineInterpreter.mayNeedNotes(
        quiet.keys, isPending: false, startsOnAnUntouchedZero: false, mode: .scientific,
        errorsPossible: false))
    #expect(!LineInterpreter.showsAnError(quiet.keys[...], from: state))
    let erring = try KeyText.keys(in: "1/0+(2)5=", startingIn: .scientific)
    #expect(LineInterpreter.showsAnError(erring.keys[...], from: state))
    try expectScript(
      ["--mode", "scientific", "-k", "1+2*((3+4)*5)%+1="], stdout: "2.7\n")
    try expectScript(
      ["--mode", "scientific", "-k", "1/0+(2)5="], stdout: "5\n",
      stderr: "calc: note: Cannot divide by zero at column 4 (1 ÷ 0 +); the keys after it started "
        + "a new calculation\n", status: 1)
  }

  /// A run of digits that overflows an entry anywhere in a long line is found, though the
  /// line's other keys compute nothing that could show an error.
  @Test func aRunThatOverflowsAnEntryInALongLineIsFound() throws {
    let overflowing = try KeyText.keys(
      in: String(repeating: "1ms", count: 100) + "123456789<0123456789")
    #expect(
      LineInterpreter.mayNeedNotes(
        overflowing.keys, isPending: false, startsOnAnUntouchedZero: false))
  }
}
