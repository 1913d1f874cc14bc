import CalculatorEngine

extension HelpText {
  /// `:help formulas` (SPEC §12): what a formula line is, then the card of the grammar.
  static func formulasTopic(columns: Int? = nil) -> String {
    """
    Formula mode (fx, --mode formula, calc -e '5*-2'): a line is a formula, as written.
            5*-2 → -10   sin(30) → 0.5   2^-1 → 0.5   2pi → 6.28318531   log(8, 2) → 3
            It runs as Scientific keys from AC (memory and angle unit kept), as one
            line and one step; :why L shows those keys. ans is the last result ($N).
            A formula may end with ms, m+ or m-; alone: c, mc, mr, deg, rad, grad.
            sci, std and prog switch to the keypads; fx switches back.

    """ + formulaCard(columns: columns)
  }

  /// Formula mode's card for `:pad` (SPEC §12): the operators by precedence, the names and the
  /// constants, fitted to `columns` (``card(_:rows:columns:)``).
  static func formulaCard(columns: Int? = nil) -> String {
    card(
      "Formulas, loosest first (calc -e '5*-2'):",
      rows: [
        ("+ -", "left to right"),
        ("* / mod × ÷, 2pi", "left to right; implied × at the same level"),
        ("-x +x √x", "prefix: -2^2 is -4"),
        ("^ **", "right to left: 2^3^2 is 512; 2^-1 is 0.5"),
        ("! %", "postfix: 5!, 50+20% is 60"),
        ("12 1.5e-3 pi π e mr $N ans (…)", ""),
      ], columns: columns)
      + wrapped(
        "Functions: " + Formula.functionNames.joined(separator: " ") + "\n"
          + "  log(x, b) root(x, n) exp(x) sqrt(x); angles in the session's unit\n",
        width: min(columns ?? 80, 80))
  }
}
