import CalculatorEngine

// SPEC §7's ledger rows (§11): `:vary` with three values on a 1,000,000-key branch, at most
// 3 s, and `:edit` of the first line of a 5,000,000-key branch, at most 1 s; both on the
// Standard stream, through `Session.perform` as the REPL does it. `calc-bench --ledger` runs
// only these.

/// The ledger rows' figures: for each, the branch's lines and keys and the wall time.
struct LedgerTimes {
  var varyLines: Int
  var varyKeys: Int
  var vary: Double
  var editLines: Int
  var editKeys: Int
  var edit: Double
}

/// A session holding `keys` of the Standard stream as one branch of lines, and its lines.
func ledgerSession(keys count: Int, seed: UInt64) -> (Session, [ArraySlice<Key>]) {
  let keys = keyStream(count: count, seed: seed)
  let lines = lines(of: keys)
  var session = Session()
  for line in lines { try! session.perform(.keys(line)) }
  return (session, lines)
}

/// Times `:vary 1` with three alternatives on a branch of `varyKeys` keys, and `:edit 1` on
/// one of `editKeys` keys: each alternative, and the edit, is the first line with one more
/// digit, so that every later line is replayed.
@inline(never) func timeLedger(
  seed: UInt64, varyKeys: Int = 1_000_000, editKeys: Int = 5_000_000
) -> LedgerTimes {
  var (session, lines) = ledgerSession(keys: varyKeys, seed: seed)
  let first = TypedKeys(Array(lines[0]))
  let alternatives = ["7", "8", "9"].map { first + (try! KeyText.keys(in: $0)) }
  let vary = seconds {
    _ = try! session.perform(.vary(line: 1, alternatives: alternatives))
  }
  let (varyLines, varyCount) = (lines.count, session.history.count)
  (session, lines) = ledgerSession(keys: editKeys, seed: seed &+ 1)
  let edited = TypedKeys(Array(lines[0])) + (try! KeyText.keys(in: "7"))
  let edit = seconds { _ = try! session.perform(.edit(line: 1, keys: edited)) }
  return LedgerTimes(
    varyLines: varyLines, varyKeys: varyCount, vary: vary.wall, editLines: lines.count,
    editKeys: session.history.branch(1).count, edit: edit.wall)
}

/// Prints the ledger rows.
func printLedger(_ times: LedgerTimes) {
  print(
    ":vary of line 1 with three values, \(grouped(times.varyLines)) lines"
      + " (\(grouped(times.varyKeys)) keys)")
  print("  ours  perform(.vary)  \(fixed(times.vary, 3)) s")
  print(
    ":edit of line 1 of \(grouped(times.editLines)) lines (\(grouped(times.editKeys)) keys)")
  print("  ours  perform(.edit)  \(fixed(times.edit, 3)) s")
}

/// Prints the ledger rows' targets (SPEC §7).
func printLedgerTargets(_ times: LedgerTimes) {
  print("  :vary 1M keys ≤ 3 s     \(times.vary <= 3 ? "met" : "MISSED")")
  print("  :edit 5M keys ≤ 1 s     \(times.edit <= 1 ? "met" : "MISSED")")
}

/// The ledger rows in the summary line: ` vary_s=… edit_5m_s=…`.
func ledgerSummary(_ times: LedgerTimes) -> String {
  " vary_s=\(fixed(times.vary, 3)) edit_5m_s=\(fixed(times.edit, 3))"
}
