import CalculatorEngine

extension HelpText {
  /// `:help dates` (SPEC §13): what a date line is, then the card of the line forms.
  static func datesTopic(columns: Int? = nil) -> String {
    """
    Date mode (date, --mode date): a line is a date, a difference, an offset or a
    duration calculation, as one line and one step; its text is recorded.
            2026-12-01 → Tuesday, December 1, 2026   today (recorded as the date)
            2019-07-31 to 2019-12-30 → 4 months, 4 weeks, 2 days (152 days)
            2008-01-31 + 1m → Friday, February 29, 2008   $1 + 90d   $1 to $2
            1:30+0:45:30 → 2:15:30   8:30*5 → 42:30:00   8:30 in h → 8.5
            $N: a whole operand; in other modes a difference is its days.
            ms m+ m- on their own line after a number line; mr is a number.
            sci, std, prog and fx switch modes; date switches back.

    """ + dateCard(columns: columns)
  }

  /// Date mode's card for `:pad` (SPEC §13): the line forms, fitted to `columns`
  /// (``card(_:rows:columns:)``).
  static func dateCard(columns: Int? = nil) -> String {
    card(
      "Date lines (calc --mode date -k '2019-07-31 to 2019-12-30'):",
      rows: [
        ("2026-12-01  2026-12-1  today", "a date (1601-01-01 … 9999-12-31)"),
        ("D1 to D2", "the difference, either order"),
        ("D + 1y 2m 3w 4d   D - 10d", "an offset (each 0-999, in y m w d order)"),
        ("H:MM  H:MM:SS  H:MM:SS.fff", "a duration; + - between, * / by numbers"),
        ("X in h   (also min s d w)", "a duration as a number"),
        ("$N  mr  ( )", "a line's value; the memory; brackets"),
      ], columns: columns)
  }
}
