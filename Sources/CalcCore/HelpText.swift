import CalculatorEngine

/// The texts of `:help` and `:pad`.
enum HelpText {
  /// The keypad of `mode`, each button with its title and, below it, the key that presses it:
  /// Windows Calculator's Standard keypad, every key of Scientific mode in rows of five, or
  /// Windows' Programmer keypad followed by its bit keypad (``bitKeypad(_:)``) for the word
  /// and bits of `programmer`.
  static func pad(
    style: Style, mode: Key.Mode = .standard, programmer: ProgrammerBrain? = nil
  ) -> String {
    // Four buttons of 9 columns to a row; rows of five have buttons of 7 in the same width.
    let wide = 9
    let narrow = 7
    let memory: [Key] = [
      .memory(.clear), .memory(.recall), .memory(.add), .memory(.subtract), .memory(.store),
    ]
    let rows: [[(key: Key, width: Int)]]
    switch mode {
    case .standard:
      rows =
        [memory.map { ($0, narrow) }]
        + [
          [.command(.percent), .command(.clearEntry), .command(.clear), .command(.backspace)],
          [.unary(.reciprocal), .unary(.square), .unary(.squareRoot), .op(.divide)],
          [.digit(.seven), .digit(.eight), .digit(.nine), .op(.multiply)],
          [.digit(.four), .digit(.five), .digit(.six), .op(.minus)],
          [.digit(.one), .digit(.two), .digit(.three), .op(.plus)],
          [.command(.flip), .digit(.zero), .dot, .equal],
        ].map { row in row.map { ($0, wide) } }
    case .scientific:
      let trig: [Key] = Key.Function.allCases.filter {
        $0.trig != nil
      }.map { .scientific(.function($0)) }
      let keys: [Key] =
        memory + [
          .angle(.degrees), .angle(.radians), .angle(.grads), .scientific(.fixedToExponential),
        ]
        + [.mode(.standard)] + trig + [.scientific(.function(.dms))]
        + [
          .scientific(.function(.degrees)), .scientific(.function(.floor)),
          .scientific(.function(.ceiling)), .scientific(.constant(.pi)),
        ]
        + [
          .scientific(.constant(.euler)), .unary(.square), .scientific(.function(.cube)),
          .unary(.reciprocal),
        ]
        + [
          .scientific(.function(.abs)), .scientific(.exponent), .unary(.squareRoot),
          .scientific(.function(.cubeRoot)),
        ]
        + [
          .scientific(.bracket(.open)), .scientific(.bracket(.close)),
          .scientific(.function(.factorial)), .scientific(.binary(.power)),
        ]
        + [
          .scientific(.binary(.root)), .scientific(.binary(.mod)), .scientific(.binary(.logBase)),
          .op(.divide), .scientific(.function(.pow10)),
        ]
        + [
          .digit(.seven), .digit(.eight), .digit(.nine), .op(.multiply),
          .scientific(.function(.pow2)),
        ]
        + [.digit(.four), .digit(.five), .digit(.six), .op(.minus), .scientific(.function(.powE))]
        + [.digit(.one), .digit(.two), .digit(.three), .op(.plus), .scientific(.function(.log))]
        + [.command(.flip), .digit(.zero), .dot, .equal, .scientific(.function(.ln))]
        + [.command(.percent), .command(.clearEntry), .command(.clear), .command(.backspace)]
      rows = stride(from: 0, to: keys.count, by: 5).map { start in
        keys[start..<min(start + 5, keys.count)].map { ($0, narrow) }
      }
    case .programmer:
      // Windows' Programmer keypad: the radix and word-size rows, memory, the Bitwise and Bit
      // shift flyouts opened out, then the main keypad (`<<` `>>` are Lsh and Rsh, `%` is mod,
      // and CE stands where Windows has its `.`, which is no key here).
      let quarter = 9
      // Typed in parts: the array literals would otherwise also be read as `TypedKeys`.
      let quarters: [[Key]] = [
        Key.Radix.allCases.map { .programmer(.radix($0)) },
        Key.WordSize.allCases.map { .programmer(.wordSize($0)) },
      ]
      let narrows: [[Key]] = [
        memory,
        Key.Bitwise.allCases.map { .programmer(.bitwise($0)) },
        [.programmer(.not)] + Key.Rotate.allCases.map { .programmer(.rotate($0)) },
        [
          .programmer(.hexDigit(.a)), .programmer(.shift(.left)), .programmer(.shift(.right)),
          .command(.clear), .command(.backspace),
        ],
        [
          .programmer(.hexDigit(.b)), .scientific(.bracket(.open)), .scientific(.bracket(.close)),
          .scientific(.binary(.mod)), .op(.divide),
        ],
        [
          .programmer(.hexDigit(.c)), .digit(.seven), .digit(.eight), .digit(.nine), .op(.multiply),
        ],
        [.programmer(.hexDigit(.d)), .digit(.four), .digit(.five), .digit(.six), .op(.minus)],
        [.programmer(.hexDigit(.e)), .digit(.one), .digit(.two), .digit(.three), .op(.plus)],
        [
          .programmer(.hexDigit(.f)), .command(.flip), .digit(.zero), .command(.clearEntry), .equal,
        ],
      ]
      let last: [(Key, Int)] = [
        (.programmer(.shift(.logicalRight)), 13), (.mode(.standard), 12), (.mode(.scientific), 12),
      ]
      rows =
        quarters.map { row in row.map { ($0, quarter) } }
        + narrows.map { row in row.map { ($0, narrow) } } + [last]
    }
    /// Where the `│` between buttons stand in a row, counted in characters inside the frame.
    func dividers(_ row: [(key: Key, width: Int)]) -> Set<Int> {
      var position = -1
      var result: Set<Int> = []
      for button in row.dropLast() {
        position += button.width + 1
        result.insert(position)
      }
      return result
    }
    let inner = rows[0].reduce(-1) { $0 + $1.width + 1 }
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
    return mode == .programmer ? text + bitKeypad(programmer) : text
  }

  /// Windows' bit keypad as text: the word's bits in rows of 16 from the top bit, in groups of
  /// four, each row between the numbers of its first and last bit, the bits those of the
  /// display (0s while an error is shown) — 27 columns, so that it fits any terminal calc
  /// draws on. `bitN` flips bit N.
  static func bitKeypad(_ programmer: ProgrammerBrain?) -> String {
    let size = programmer?.wordSize ?? .qword
    let bits = UInt64(bitPattern: programmer?.value ?? 0)
    var text = "bit keypad (\(size.title)): bitN flips bit N\n"
    for top in stride(from: size.bits - 1, through: 0, by: -16) {
      let bottom = max(0, top - 15)
      var row = ""
      for bit in stride(from: top, through: bottom, by: -1) {
        row += bits >> UInt64(bit) & 1 == 1 ? "1" : "0"
        if bit > bottom, bit % 4 == 0 { row += " " }
      }
      let first = String(top)
      let last = String(bottom)
      text +=
        String(repeating: " ", count: 3 - first.count) + first + "  " + row + "  "
        + String(repeating: " ", count: 2 - last.count) + last + "\n"
    }
    return text
  }

  /// Keys and commands, briefly; the keys of `mode` first.
  /// `pad` (``pad(style:mode:)``) as it fits in `columns`: unchanged when it does (41
  /// columns), else without its left and right borders (39 columns, for a terminal of 40).
  static func narrowed(_ pad: String, toFit columns: Int) -> String {
    let lines = pad.split(separator: "\n", omittingEmptySubsequences: false)
    guard lines.contains(where: { Terminal.visibleWidth(of: String($0)) > columns }) else {
      return pad
    }
    let borders: Set<Character> = ["│", "┌", "┐", "├", "┤", "└", "┘"]
    return lines.map { line in
      var line = Substring(line)
      if let first = line.first, borders.contains(first) { line = line.dropFirst() }
      if let last = line.last, borders.contains(last) { line = line.dropLast() }
      return String(line)
    }.joined(separator: "\n")
  }

  ///
  /// With `columns`, the text fits a terminal that wide: below 80 columns each command's
  /// summary goes on the lines after its usage, and every line is wrapped at word boundaries
  /// (``Terminal/wrapped(_:width:)``).
  static func help(style: Style, mode: Key.Mode = .standard, columns: Int? = nil)
    -> String
  {
    var text = "Type keys and press Enter; calc prints the display. Commands start with ':'.\n\n"
    let scientific = """
      Scientific mode: ( ) ^ yroot mod logy  ! cube cbrt log ln pow10 pow2 powe
             abs floor ceil dms degrees  pi euler  exp (exponent)  fe (F-E)
             sin cos tan sec csc cot, asin… (inverse), sinh… asinh… (hyperbolic)
             deg rad grad (angle unit); a space between two words: c exp
             the unit is a subscript on the expression line: sin₀(30) is in
             degrees, sinᵣ radians, sin₉ grads

      """
    if mode == .scientific {
      text += scientific + "       std returns to Standard mode, prog goes to Programmer mode\n\n"
    }
    if mode == .programmer {
      text += """
        Programmer mode: hex dec oct bin (radix)  qword dword word byte (word size)
               A B C D E F: hex digits, upper case only (c is AC, C the digit)
               and or xor nand nor  not  mod  ( )  lsh rsh (arithmetic)  rshl
               (logical)  rol ror, through the carry rolc rorc  bit0…bit63 (flip
               a bit); integers in two's complement, wrapping to the word
               std and sci leave Programmer mode


        """
    }
    text += "Keys:  0-9 .  + - * /  =  %  ~ (+/-)  c (AC)  ce (CE)  < (⌫)\n"
    text += "       @ (√)  q (x²)  r (1/x)  ms mr m+ m- mc (memory)\n"
    text += "       also − × ÷ ± √ ² ac m−; letters in any case; spaces are ignored,\n"
    text += "       # starts a comment; :pad shows the keypad\n"
    if mode == .standard {
      text += "       sci: Scientific mode (precedence, brackets, functions)\n"
      text += "       prog: Programmer mode (hex, octal, binary, bitwise keys)\n"
    }
    text += "\n"
    text += "Commands:\n"
    // The summaries line up after the usages of up to 18 characters; a longer usage has its
    // summary on the next line, so that the list stays within 80 columns.
    let width = 18
    let narrow = columns.map { $0 < 80 } ?? false
    for command in CommandSpec.all {
      let usage = command.usage
      let gap =
        usage.count <= width && !narrow
        ? String(repeating: " ", count: width - usage.count + 1)
        : "\n" + String(repeating: " ", count: narrow ? 6 : width + 3)
      text += "  " + usage + gap + style.dim(command.summary) + "\n"
    }
    text += "\nEach line of keys is one change: :undo and :redo move by lines, :goto by keys.\n"
    text += "Typing before the end starts a new branch; the old one is kept (:branches).\n"
    return columns.map { Terminal.wrapped(text, width: $0) } ?? text
  }
}
