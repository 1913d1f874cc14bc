import CalculatorEngine

/// The texts of `:help` and `:pad`.
enum HelpText {
  /// The keypad laid out like Windows Calculator's Standard mode, each button with its title
  /// and, below it, the key that presses it.
  static func pad(style: Style) -> String {
    // Four buttons of 9 columns to a row; the memory row fits five of 7 in the same width.
    let wide = 9
    let memoryWidth = 7
    let rows: [[(key: CalculatorButtonItem, width: Int)]] =
      [
        [.memory(.clear), .memory(.recall), .memory(.add), .memory(.subtract), .memory(.store)]
          .map { ($0, memoryWidth) }
      ]
      + [
        [.command(.percent), .command(.clearEntry), .command(.clear), .command(.backspace)],
        [.unary(.reciprocal), .unary(.square), .unary(.squareRoot), .op(.divide)],
        [.digit(.seven), .digit(.eight), .digit(.nine), .op(.multiply)],
        [.digit(.four), .digit(.five), .digit(.six), .op(.minus)],
        [.digit(.one), .digit(.two), .digit(.three), .op(.plus)],
        [.command(.flip), .digit(.zero), .dot, .equal],
      ].map { row in row.map { ($0, wide) } }
    /// Where the `│` between buttons stand in a row, counted in characters inside the frame.
    func dividers(_ row: [(key: CalculatorButtonItem, width: Int)]) -> Set<Int> {
      var position = -1
      var result: Set<Int> = []
      for button in row.dropLast() {
        position += button.width + 1
        result.insert(position)
      }
      return result
    }
    let inner = rows[1].reduce(-1) { $0 + $1.width + 1 }
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
      text += "│" + row.map { centered($0.key.title, $0.width) }.joined(separator: "│") + "│\n"
      text +=
        "│" + row.map { style.dim(centered($0.key.canonical, $0.width)) }.joined(separator: "│")
        + "│\n"
      let below = index + 1 < rows.count ? dividers(rows[index + 1]) : []
      text += line(
        above: dividers(row), below: below, index + 1 < rows.count ? ("├", "┤") : ("└", "┘"))
    }
    return text
  }

  /// Keys and commands, briefly.
  static func help(style: Style) -> String {
    var text = "Type keys and press Enter; calc prints the display. Commands start with ':'.\n\n"
    text += "Keys:  0-9 .  + - * /  =  %  ~ (+/-)  c (AC)  ce (CE)  < (⌫)\n"
    text += "       @ (√)  q (x²)  r (1/x)  ms mr m+ m- mc (memory)\n"
    text += "       also − × ÷ ± √ ² ac m−; letters in any case; spaces are ignored,\n"
    text += "       # starts a comment; :pad shows the keypad\n\n"
    text += "Commands:\n"
    // The summaries line up after the usages of up to 18 characters; a longer usage has its
    // summary on the next line, so that the list stays within 80 columns.
    let width = 18
    for command in CommandSpec.all {
      let usage = command.usage
      let gap =
        usage.count <= width
        ? String(repeating: " ", count: width - usage.count + 1)
        : "\n" + String(repeating: " ", count: width + 3)
      text += "  " + usage + gap + style.dim(command.summary) + "\n"
    }
    text += "\nEach line of keys is one change: :undo and :redo move by lines, :goto by keys.\n"
    text += "Typing before the end starts a new branch; the old one is kept (:branches).\n"
    return text
  }
}
