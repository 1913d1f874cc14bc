import CalcCLI
import CalcCore
import Foundation
import Testing

/// Date mode through the front end (SPEC v5 §13): `calc --mode date -k`, the key `date`, a date
/// line as one line and one step, `today`, `$N` across modes, the memory, its errors and exit
/// statuses; in process (``InProcess``).
@Suite struct DateModeTests {
  /// The rows of `shared/date/date-cases.tsv`, from the engine tests' copy of it.
  static let rows: [(keys: String, display: String)] = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent(
        "CalculatorEngineTests/Fixtures/date-cases.tsv")
    let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").compactMap { line in
      guard !line.hasPrefix("#") else { return nil }
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      return (String(fields[0]), String(fields[1]))
    }
  }()

  /// A day that `today` stands for in these tests.
  static let today: [String: String?] = ["CALC_TODAY": "2026-12-01"]

  @Test func everyRowIsHere() {
    #expect(Self.rows.count == 130)
  }

  /// Every shared row through `calc --mode date -k KEYS`: the display, and exit 1 exactly for
  /// an error of calculation (`Date out of Bound`).
  @Test(arguments: rows) func row(_ row: (keys: String, display: String)) throws {
    let isError = row.display == "Date out of Bound"
    try expectScript(
      ["--mode", "date", "-k", row.keys], environment: ["LC_ALL": "en_US.UTF-8"],
      stdout: row.display + "\n", status: isError ? 1 : 0)
  }

  @Test func theIssuesExample() throws {
    try expectScript(
      ["--mode", "date", "-k", "2019-07-31 to 2019-12-30"],
      stdout: "4 months, 4 weeks, 2 days (152 days)\n")
    // A line may begin with the key.
    try expectScript(["-k", "date 2026-12-01 to 2027-01-01"], stdout: "1 month (31 days)\n")
  }

  /// `--plain`: a date in ISO form, a duration with its seconds to 34 digits (SPEC §13).
  @Test func plainForms() throws {
    try expectScript(
      ["--plain", "--mode", "date", "-k", "2004-05-14 + 120d"], stdout: "2004-09-11\n")
    try expectScript(
      ["--plain", "--mode", "date", "-k", "2019-07-31 to 2019-12-30"],
      stdout: "4 months, 4 weeks, 2 days (152 days)\n")
    try expectScript(["--mode", "date", "-k", "1:00/7"], stdout: "0:08:34.286\n")
  }

  /// Texts are English in every locale; only a conversion's number follows it (SPEC §13).
  @Test func theNumberLocaleOnlyInConversions() throws {
    try expectScript(["--locale", "de_DE", "--mode", "date", "-k", "8:30 in h"], stdout: "8,5\n")
    try expectScript(
      ["--locale", "de_DE", "--mode", "date", "-k", "2004-05-14 + 120d"],
      stdout: "Saturday, September 11, 2004\n")
  }

  /// Errors of calculation exit 1; rejected lines exit 65 with the reason, and change nothing.
  @Test func exitStatuses() throws {
    try expectScript(
      ["--mode", "date", "-k", "9999-12-31 + 1d"], stdout: "Date out of Bound\n", status: 1)
    try expectScript(
      ["--mode", "date", "-k", "1:00/0"], stdout: "Cannot divide by zero\n", status: 1)
    try expectScript(
      ["--mode", "date", "-k", "2026-02-30"], stdout: "",
      stderr: "calc: --keys: no such date: February has 28 days in 2026\n", status: 65)
    try expectScript(
      ["--mode", "date", "-k", "fe"], stdout: "",
      stderr:
        "calc: --keys: 'fe' is not a key of date mode (type a date line, such as today + 90d, or "
        + "sci for keys)\n", status: 65)
    try expectScript(
      ["--mode", "date", "-k", "deg"], stdout: "",
      stderr:
        "calc: --keys: 'deg' is not a key of date mode (type a date line, such as today + 90d, "
        + "or sci for keys)\n", status: 65)
    let run = try InProcess.run(
      ["--mode", "date", "-k", "2026-12-01 - 2026-01-01"], environment: posixLocale)
    #expect(run.status == 65)
    #expect(run.stderr.contains("2026-01-01 to 2026-12-01"))
  }

  /// `today` is the date of `CALC_TODAY`, and the line is recorded with that date.
  @Test func todayIsRecordedAsTheDate() throws {
    try expectScript(
      ["--mode", "date", "-k", "today + 90d"], environment: Self.today,
      stdout: "Monday, March 1, 2027\n")
    try expectScript(
      ["--mode", "date"], stdin: "today + 90d\n:lines\n", environment: Self.today,
      stdout: """
        Monday, March 1, 2027
          line  step  keys              display
             0     1  date              0
        ▶    1     2  2026-12-01 + 90d  Monday, March 1, 2027

        """)
  }

  /// `$N` in date mode is a whole operand of its kind; in other modes a difference is its
  /// days, a number line its number, a date or a duration is refused with a hint (SPEC §13).
  @Test func referencesAcrossModes() throws {
    try expectScript(
      ["--mode", "date"],
      stdin: "2026-12-01\n$1 + 90d\n$1 to $2\n8:30 in h\n1:30\n$5 in min\nstd\n$3+1=\n$4*2=\n",
      environment: Self.today,
      stdout:
        "Tuesday, December 1, 2026\nMonday, March 1, 2027\n3 months (90 days)\n8.5\n"
        + "1:30:00\n90\n0\n91\n17\n")
    try expectScript(
      ["--mode", "date", "--keep-going"],
      stdin: "2026-12-01\n1:30\n$2 + 90d\nstd\n$1+1=\n$2+1=\n",
      stdout: "Tuesday, December 1, 2026\n1:30:00\n1:30:00\n0\n0\n0\n",
      stderr:
        "<stdin>:3:1: $2 is a duration; a date is needed at column 1\n"
        + "<stdin>:5:1: $1 is a date; write $1 to another date on a line for a number of days "
        + "at column 1\n"
        + "<stdin>:6:1: $2 is a duration; write $2 in h on a line for a number at column 1\n",
      status: 65)
  }

  /// A date line longer than the reader's chunk (64 KiB) is read whole, and so is a script of
  /// short date lines whose line crosses a chunk: the early refusal of a line still arriving
  /// knows date lines (SPEC §8, §13). A byte no date line holds is refused early still.
  @Test func aLongDateLineIsReadWhole() throws {
    // 70 KB: past one chunk.
    let sum = String(repeating: "1:30+0:45:30+", count: 5_400) + "0:00:01"
    try expectScript(["--mode", "date", "-"], stdin: sum + "\n", stdout: "12195:00:01\n")
    let lines = String(repeating: "12:50:22.533 in min\n", count: 4_000)
    let run = try InProcess.run(
      ["--mode", "date", "--plain", "-"], stdin: Data(lines.utf8), environment: posixLocale)
    #expect(run.status == 0)
    #expect(run.stdout == String(repeating: "770.37555\n", count: 4_000))
    let bad = try InProcess.run(
      ["--mode", "date", "-"], stdin: Data((sum + "\u{1}" + sum + "\n").utf8),
      environment: posixLocale)
    #expect(bad.status == 65)
    #expect(bad.stdout == "")
  }

  /// Another mode's exact fraction reaches a date line whole (`$1` of 1/3 is 1/3, not its 34
  /// digits), and `mr` too; a rounded number (√2) stays marked rounded.
  @Test func anotherModesFractionIsExactInADateLine() throws {
    try expectScript(
      ["--plain", "-"],
      stdin: "1/3=\nms\n2@\ndate\n3:00*$1\n:exact\n1:00*mr\n:exact\n1:00*$3\n:exact\n",
      stdout: "0.3333333333333333333333333333333333\n0.3333333333333333333333333333333333\n"
        + "1.414213562373095048801688724209698\n0\n1:00:00\n3600 s\n0:20:00\n1200 s\n"
        + "1:24:51.168824543142175686079407154913\n≈ 5091.168824543142175686079407154913 s\n")
  }

  /// Another mode's number beyond date mode's limits (Scientific mode's reach 10^±9999) enters
  /// a date line as rule 14 has it at those limits, as a number recalled into Standard mode:
  /// from 10^100 `Overflow` (exit 1), nonzero below 10^-100 `0` — by `$N` and by `mr`; a number
  /// inside the limits is itself (README, "Date mode").
  @Test func anotherModesNumberBeyondTheLimits() throws {
    try expectScript(
      ["-"], stdin: "sci 1exp9999~=\ndate\n$1\n1:00*$1\n", stdout: "1E-9999\n0\n0\n0:00:00\n")
    try expectScript(
      ["-"], stdin: "sci 1exp9999=\nms\ndate\n$1\n", stdout: "1E9999\n1E9999\n0\nOverflow\n",
      status: 1)
    try expectScript(
      ["-"], stdin: "sci 1exp9999=\nms\ndate\nmr\n", stdout: "1E9999\n1E9999\n0\nOverflow\n",
      status: 1)
    try expectScript(
      ["-"], stdin: "sci 1exp99=\ndate\n$1\nsci 1exp99~=\ndate\n$4\n",
      stdout: "1E99\n0\n1E99\n1E-99\n0\n1E-99\n")
  }

  /// `$N` alone in date mode is a date line of its kind, not a key that recalls a number.
  @Test func aReferenceAloneIsALineOfItsKind() throws {
    try expectScript(
      ["--mode", "date", "-"], stdin: "2026-12-01\n$1\n1:30\n$3\n",
      stdout: "Tuesday, December 1, 2026\nTuesday, December 1, 2026\n1:30:00\n1:30:00\n")
  }

  /// The memory holds numbers: `ms` after a number line, `mr` a number operand; a date or a
  /// duration cannot be stored.
  @Test func theMemoryHoldsNumbers() throws {
    try expectScript(
      ["--mode", "date", "--keep-going"],
      stdin: "8:30 in h\nms\n1:00*mr\n2026-12-01\nms\nstd\nmr\n",
      // A rejected line shows the display as it was.
      stdout: "8.5\n8.5\n8:30:00\nTuesday, December 1, 2026\nTuesday, December 1, 2026\n0\n8.5\n",
      stderr:
        "<stdin>:5:1: memory holds numbers: the display holds a date (write a number line, "
        + "such as 8:30 in h, first) at column 1\n",
      status: 65)
  }

  @Test func helpDatesAndThePad() throws {
    let help = try InProcess.run(["-"], stdin: Data(":help dates\n".utf8))
    #expect(help.stdout.hasPrefix("Date mode (date, --mode date)"))
    let pad = try InProcess.run(["--mode", "date", "-"], stdin: Data(":pad\n".utf8))
    #expect(pad.stdout.contains("D + 1y 2m 3w 4d"))
    #expect(pad.stdout.contains("X in h"))
  }

  /// The prompt shows `date`, and no angle unit (SPEC §13: `calc date b2[3/8] M> `).
  @Test func thePromptShowsDateMode() {
    let run = REPLInProcessTests.screen(["rad", "date", "2026-12-01", "1+1"])
    #expect(run.lines.contains("calc date> 2026-12-01"))
    #expect(run.lines.contains("Tuesday, December 1, 2026"))
    #expect(run.status == 0)
  }
}
