/// What notes say about formulas (SPEC v5 §5, §12), in one place: ``isAvailable`` turns on the
/// formula words of every note (Documentation/Decisions.md); it is on since formula mode
/// (`calc -e`) exists.
enum FormulaWords {
  /// Whether formula mode exists; the notes below name it only then.
  static let isAvailable = true

  /// What an operator-replaced note adds for `line` (`5*-2=`): `, or as a formula: calc -e
  /// '5*-2'` once formulas exist; nothing until then (or without the line's text).
  static func asFormula(_ line: String?) -> String {
    guard isAvailable, let line else { return "" }
    var formula = Substring(line.prefix { $0 != "#" })
    while let last = formula.last, last == " " || last == "\t" || last == "=" {
      formula.removeLast()
    }
    while let first = formula.first, first == " " || first == "\t" { formula.removeFirst() }
    return ", or as a formula: calc -e '\(formula)'"
  }

  /// Who applies precedence, for Standard mode's left-to-right note: `sci applies precedence`;
  /// `sci and formulas (calc -e) apply precedence` once formulas exist.
  static var precedence: String {
    isAvailable ? "sci and formulas (calc -e) apply precedence" : "sci applies precedence"
  }
}
