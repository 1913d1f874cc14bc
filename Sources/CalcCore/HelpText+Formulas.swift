import CalculatorEngine

extension HelpText {
  /// `:help formulas` (SPEC §12): what a formula line is, then the card of the grammar.
  static let formulasTopic: String =
    """
    Formula mode (fx, --mode formula, calc -e '5*-2'): a line is a formula, as written.
            5*-2 → -10   sin(30) → 0.5   2^-1 → 0.5   2pi → 6.28318531   log(8, 2) → 3
            It runs as Scientific keys from AC (memory and angle unit kept), as one
            line and one step; :why L shows those keys. ans is the last result ($N).
            A formula may end with ms, m+ or m-; alone: c, mc, mr, deg, rad, grad.
            sci, std and prog switch to the keypads; fx switches back.

    """ + formulaCard

  /// Formula mode's card for `:pad` (SPEC §12): the operators by precedence, the names and the
  /// constants.
  static let formulaCard: String = {
    var text = "Formulas, loosest first (calc -e '5*-2'):\n"
    text += "  + -                 left to right\n"
    text += "  * / mod × ÷, 2pi    left to right; implied × at the same level\n"
    text += "  -x +x √x            prefix: -2^2 is -4\n"
    text += "  ^ **                right to left: 2^3^2 is 512; 2^-1 is 0.5\n"
    text += "  ! %                 postfix: 5!, 50+20% is 60\n"
    text += "  12 1.5e-3 pi π e mr $N ans (…)\n"
    text += "Functions: " + Formula.functionNames.joined(separator: " ") + "\n"
    text += "  log(x, b) root(x, n) exp(x) sqrt(x); angles in the session's unit\n"
    return wrapped(text, width: 80)
  }()
}
