import CalculatorEngine

/// The texts of `:help` and `:pad`.
enum HelpText {
  /// The book's keypad, each button with its title and, below it, the key that presses it.
  static func pad(style: Style) -> String {
    let rows: [[(CalculatorButtonItem, Int)]] = [
      [(.command(.clear), 1), (.command(.flip), 1), (.command(.percent), 1), (.op(.divide), 1)],
      [(.digit(.seven), 1), (.digit(.eight), 1), (.digit(.nine), 1), (.op(.multiply), 1)],
      [(.digit(.four), 1), (.digit(.five), 1), (.digit(.six), 1), (.op(.minus), 1)],
      [(.digit(.one), 1), (.digit(.two), 1), (.digit(.three), 1), (.op(.plus), 1)],
      [(.digit(.zero), 2), (.dot, 1), (.equal, 1)],
    ]
    let cell = 7
    /// Where the `│` between buttons stand in a row, counted in characters inside the frame.
    func dividers(_ row: [(CalculatorButtonItem, Int)]) -> Set<Int> {
      var position = 0
      var result: Set<Int> = []
      for (_, span) in row.dropLast() {
        position += span * (cell + 1)
        result.insert(position - 1)
      }
      return result
    }
    let inner = rows[0].reduce(0) { $0 + $1.1 * (cell + 1) } - 1
    /// A horizontal line; its junctions follow the dividers of the rows above and below it.
    func line(above: Set<Int>, below: Set<Int>, _ ends: (String, String)) -> String {
      let body = (0..<inner).map { x in
        switch (above.contains(x), below.contains(x)) {
        case (true, true): "┼"
        case (true, false): "┴"
        case (false, true): "┬"
        case (false, false): "─"
        }
      }
      return ends.0 + body.joined() + ends.1 + "\n"
    }
    func centered(_ text: String, _ width: Int) -> String {
      let left = (width - text.count) / 2
      return String(repeating: " ", count: left) + text
        + String(repeating: " ", count: width - text.count - left)
    }
    var text = line(above: [], below: dividers(rows[0]), ("┌", "┐"))
    for (index, row) in rows.enumerated() {
      let width = { (span: Int) in span * (cell + 1) - 1 }
      text += "│" + row.map { centered($0.0.title, width($0.1)) }.joined(separator: "│") + "│\n"
      text +=
        "│"
        + row.map { style.dim(centered(String($0.0.canonical), width($0.1))) }
        .joined(separator: "│") + "│\n"
      let below = index + 1 < rows.count ? dividers(rows[index + 1]) : []
      text += line(
        above: dividers(row), below: below, index + 1 < rows.count ? ("├", "┤") : ("└", "┘"))
    }
    text += "also: CE " + style.dim("e") + "   ⌫ " + style.dim("<") + "\n"
    return text
  }

  /// Keys and commands, briefly.
  static func help(style: Style) -> String {
    var text = "Type keys and press Enter; calc prints the display. Commands start with ':'.\n\n"
    text += "Keys:  0-9 .  + - * /  =  %  ~ (+/-)  c (AC)  e (CE)  < (⌫)\n"
    text += "       also − × ÷ ± C E; spaces are ignored, # starts a comment\n\n"
    text += "Commands:\n"
    let width = CommandInfo.all.map { $0.name.count + $0.arguments.count + 2 }.max()!
    for command in CommandInfo.all {
      let usage = ":" + command.name + (command.arguments.isEmpty ? "" : " " + command.arguments)
      text +=
        "  " + usage + String(repeating: " ", count: width - usage.count + 2)
        + style.dim(command.summary) + "\n"
    }
    return text
  }
}
