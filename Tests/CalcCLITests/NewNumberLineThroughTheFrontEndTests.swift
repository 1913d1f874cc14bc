import Testing

/// SPEC §3.1 through the whole front end (``InProcess``, as the binary runs it): after a unary
/// key with nothing pending, the next digit empties the expression line in every mode
/// (`--trace`'s third column), and the note that says the key acted on the number before it
/// stays.
@Suite struct NewNumberLineThroughTheFrontEndTests {
  @Test func aDigitAfterAUnaryKeyEmptiesTheLineAndKeepsTheNote() throws {
    try expectScript(
      ["--trace", "-k", "9@5"], stdout: "9\t9\t\n√\t3\t√(9)\n5\t5\t\n",
      stderr: "calc: note: √ acted on 9 and 5 started a new number "
        + "(√ acts on the number before it: 5@)\n")
    try expectScript(
      ["--trace", "-k", "sci 9@5"], stdout: "sci\t0\t\n9\t9\t\n√\t3\t√(9)\n5\t5\t\n",
      stderr: "calc: note: √ acted on 9 and 5 started a new number "
        + "(√ acts on the number before it: 5@)\n")
    try expectScript(
      ["--trace", "-k", "prog 9 not 5"],
      stdout: "prog\t0\t\n9\t9\t\nNOT\t-10\tNOT(9)\n5\t5\t\n",
      stderr: "calc: note: NOT acted on 9 and 5 started a new number "
        + "(NOT acts on the number before it: 5not)\n")
    try expectScript(
      ["--trace", "-k", "prog hex A~1"],
      stdout: "prog\t0\t\nHEX\t0\t\nA\tA\t\n+/-\tFFFFFFFFFFFFFFF6\tnegate(A)\n1\t1\t\n")
  }
}
