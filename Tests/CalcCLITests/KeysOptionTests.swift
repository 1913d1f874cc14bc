import Testing

@Suite struct KeysOptionTests {
  @Test func printsTheDisplay() throws {
    let run = try CalcProcess.run(["--keys", "12+3="])
    #expect(run.stdout == "15\n")
    #expect(run.stderr == "")
    #expect(run.status == 0)
  }
}
