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
    func centered(_ text: String, _ width: Int) -> String {
      let left = (width - text.count) / 2
      return String(repeating: " ", count: left) + text
        + String(repeating: " ", count: width - text.count - left)
    }
    func border(
      _ row: [(CalculatorButtonItem, Int)], _ left: String, _ mid: String, _ right: String
    )
      -> String
    {
      left
        + row.map { String(repeating: "─", count: cell * $0.1 + $0.1 - 1) }.joined(separator: mid)
        + right + "\n"
    }
    var text = border(rows[0], "┌", "┬", "┐")
    for (index, row) in rows.enumerated() {
      let width = { (span: Int) in cell * span + span - 1 }
      text += "│" + row.map { centered($0.0.title, width($0.1)) }.joined(separator: "│") + "│\n"
      text +=
        "│"
        + row.map { style.dim(centered(String($0.0.canonical), width($0.1))) }
        .joined(separator: "│") + "│\n"
      if index + 1 < rows.count {
        // The last row's wide 0 spans two columns, so its top border has ┴ where the others ┼.
        text +=
          index + 2 == rows.count
          ? "├───────┴───────┼───────┼───────┤\n"
          : border(row, "├", "┼", "┤")
      }
    }
    text += border(rows[4], "└", "┴", "┘")
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
