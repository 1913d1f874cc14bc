import CalculatorEngine

/// The texts of `:help` and `:pad`.
enum HelpText {
  /// The keypad of `mode`, each button with its title and, below it, the key that presses it:
  /// Windows Calculator's Standard keypad, every key of Scientific mode in rows of five, or
  /// Windows' Programmer keypad followed by its bit keypad (``bitKeypad(_:)``) for the word
  /// and bits of `programmer`; in formula and date mode, the card of the line forms fitted to
  /// `columns` (``card(_:rows:columns:)``).
  static func pad(
    style: Style, mode: Key.Mode = .standard, programmer: ProgrammerBrain? = nil,
    columns: Int? = nil
  ) -> String {
    // Four buttons of 9 columns to a row; rows of five have buttons of 7 in the same width.
    let wide = 9
    let narrow = 7
    let memory: [Key] = [
      .memory(.clear), .memory(.recall), .memory(.add), .memory(.subtract), .memory(.store),
    ]
    let rows: [[(key: Key, width: Int)]]
    switch mode {
    case .formula:
      return formulaCard(columns: columns)
    case .date:
      return dateCard(columns: columns)
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
  /// summary goes on the lines after its usage, and every line is wrapped at word boundaries,
  /// its continuation under its column (``wrapped(_:width:)``).
  ///
  /// It names every key of `mode` (a test checks them against the keypad), every command (from
  /// the command table), `$N`, notes, the slider keys, and where `:help TOPIC` says more (SPEC
  /// v5 §6).
  static func help(style: Style, mode: Key.Mode = .standard, columns: Int? = nil)
    -> String
  {
    var text = "Type keys and press Enter; calc prints the display. Commands start with ':'.\n\n"
    text += keysParagraph(mode: mode)
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
    text +=
      "More: " + topics.map { ":help \($0.name)" }.joined(separator: ", ")
      + ", :help COMMAND (:help edit)\n"
    return columns.map { wrapped(text, width: $0) } ?? text
  }

  /// The keys of `mode`, `$N`, notes and the slider: the first part of `:help`.
  private static func keysParagraph(mode: Key.Mode) -> String {
    var text = ""
    switch mode {
    case .formula:
      text += "Formulas: 5*-2, sin(30), 2^-1, 2pi, log(8, 2): :help formulas has the grammar\n"
      text += "        alone: c (AC), mc, mr, deg rad grad; a formula may end with ms m+ m-\n"
    case .date:
      text += "Dates:  2026-12-01, today, D1 to D2, D + 1y 2m 3w 4d, 1:30+0:45, 8:30 in h\n"
      text += "        :help dates has the forms; alone: ms m+ m- mr mc\n"
    case .standard, .scientific:
      text += "Keys:   0-9 .  + - * /  =  %  ~ (+/-)  c (AC)  ce (CE)  < (⌫)\n"
      text += "        @ (√)  q (x²)  r (1/x) act on the number before them: 16@\n"
    case .programmer:
      text += "Keys:   0-9  + - * /  =  ~ (+/-)  c (AC)  ce (CE)  < (⌫)\n"
    }
    text += "        ms mr m+ m- mc (memory)  $N (the result of line N, as :lines numbers it)\n"
    switch mode {
    case .standard:
      text += "        deg rad grad (the angle unit of Scientific mode's trigonometry)\n"
      text += "        sci: Scientific mode (precedence, brackets, functions)\n"
      text += "        prog: Programmer mode (hex, octal, binary, bitwise keys)\n"
      text += "        fx: formula mode (5*-2, sin(30), 2pi as written; :help formulas)\n"
      text += "        date: date mode (2026-12-01 + 90d, D1 to D2, 1:30*2; :help dates)\n"
    case .formula:
      text += "        sci std prog: the keypads; fx: formula mode\n"
    case .date:
      text += "        sci std prog: the keypads; fx: formula mode; date: date mode\n"
    case .scientific:
      text += """
        Scientific mode's keys:
                ( ) ^ yroot mod logy  ! cube cbrt log ln pow10 pow2 powe
                abs floor ceil dms degrees  pi euler  exp (exponent)  fe (F-E)
                sin cos tan sec csc cot  asin acos atan asec acsc acot (inverse)
                sinh cosh tanh sech csch coth  asinh acosh atanh asech acsch acoth
                deg rad grad (angle unit); a space between two words: c exp
                a function follows its number: 30sin, (1+2)sin (sin(30) takes sin of 0)
                the unit is a subscript on the expression line: sin₀(30) is in
                degrees, sinᵣ radians, sin₉ grads
                std returns to Standard mode, prog goes to Programmer mode,
                fx to formula mode (sin(30), 5*-2 as written), date to date mode

        """
    case .programmer:
      text += """
        Programmer mode's keys:
                hex dec oct bin (radix)  qword dword word byte (word size)
                A B C D E F: hex digits, upper case only (c is AC, C the digit)
                and or xor nand nor  not  mod  ( )  lsh rsh (arithmetic)  rshl
                (logical)  rol ror, through the carry rolc rorc  bit0…bit63 (flip
                a bit); integers in two's complement, wrapping to the word
                std, sci, fx and date leave Programmer mode

        """
    }
    switch mode {
    case .formula:
      text += "        also − × ÷ √ π ∛; names in any case; spaces are ignored\n"
    case .date:
      text += "        units in any case (M is months); blanks are optional: D+1y2m\n"
    case .standard:
      text += "        also − × ÷ ± √ ² ac m−; letters in any case; spaces are ignored\n"
    case .scientific:
      text += "        also − × ÷ ± √ ² π ³ ∛ ac m−; letters in any case; spaces are ignored\n"
    case .programmer:
      text += "        also − × ÷ ± ac m−; spaces are ignored\n"
    }
    text += "        :pad shows the keypad\n"
    text += "Notes:  # text after a line is its note: 1200+350+89=  # rent (:note, :find)\n"
    text += "        note: … after a line says what its keys did that you may not have meant\n"
    text += "Slider: Alt-← Alt-→ one key back, forward; Alt-↑ Alt-↓ (PgUp PgDn) one line\n"
    return text
  }

  /// The topics of `:help TOPIC` besides the commands, each with what it says in one line.
  static let topics: [(name: String, summary: String)] = [
    ("keys", "every key of the current mode, and how key text is read"),
    ("slider", "moving through time with keys, as the book's slider"),
    ("ledger", "lines that use earlier results ($N), notes, :find, :vary"),
  ]

  /// `:help TOPIC`: a command (`edit`, `:edit`; `:keys` for the command, since `keys` is a
  /// topic), `keys`, `slider`, `ledger` or `formulas` (named where the help names formula
  /// mode, `fx`, rather than in the list of topics, which stays within 80 columns), wrapped to
  /// `columns` as ``help(style:mode:columns:)`` is; throws for any other topic, naming them.
  static func topic(
    _ topic: String, style: Style, mode: Key.Mode, columns: Int?
  ) throws(LineError) -> String {
    // `:help keys` is the topic, `:help :keys` the command.
    let isCommand = topic.hasPrefix(":")
    let name = isCommand ? String(topic.dropFirst()) : topic
    let text: String
    switch isCommand ? "" : name.lowercased() {
    case "keys": text = keysTopic(mode: mode)
    case "slider": text = sliderTopic
    case "ledger": text = ledgerTopic
    case "formulas": text = formulasTopic(columns: columns)
    case "dates": text = datesTopic(columns: columns)
    default:
      guard let command = CommandSpec.named(name) else {
        throw LineError(
          "no help on '\(TextEscaping.escaped(topic))' (topics: "
            + topics.map(\.name).joined(separator: ", ") + ", or a command: :help edit)")
      }
      text = commandTopic(command, style: style)
    }
    return columns.map { wrapped(text, width: $0) } ?? text
  }

  /// `:help COMMAND`: its usage, other names, summary and what more there is to know, from
  /// the command table.
  private static func commandTopic(_ command: CommandSpec, style: Style) -> String {
    var text = command.usage + "\n"
    text += "        " + command.summary + "\n"
    if !command.aliases.isEmpty {
      text += "        also " + command.aliases.map { ":" + $0 }.joined(separator: ", ") + "\n"
    }
    if !command.details.isEmpty { text += "        " + command.details + "\n" }
    return text
  }

  /// `:help keys`: each key of `mode` that its keypad takes, with its button, in the one key
  /// table's order; then how key text is read.
  private static func keysTopic(mode: Key.Mode) -> String {
    let keypad = Keypad(mode: mode, radix: .hex)
    var names: [String] = []
    for key in Key.allKeys {
      var probe = keypad
      guard probe.press(key) == nil else { continue }
      switch key {
      case .mode(let other) where other == mode: continue
      case .digit(let digit) where digit != .zero: continue
      case .digit: names.append("0-9")
      case .programmer(.hexDigit(let digit)) where digit != .a: continue
      case .programmer(.hexDigit): names.append("A-F (in hex)")
      case .programmer(.bit(let bit)) where bit.number != 0: continue
      case .programmer(.bit): names.append("bit0…bit63 (bitN flips bit N)")
      default:
        names.append(key.canonical == key.title ? key.canonical : "\(key.canonical) (\(key.title))")
      }
    }
    var text = "Keys of \(modeName(mode)) mode, as key text (and their buttons):\n"
    text += "        " + names.joined(separator: "  ") + "\n"
    text += "        $N (the result of line N: $3 recalls line 3, as mr recalls the memory)\n"
    text += "Key text: spaces are ignored, but two word keys need one between them (c exp);\n"
    text += "        # starts the line's note; letters in any case"
    text += mode == .programmer ? ", but A-F are hex digits\n" : "\n"
    switch mode {
    case .standard: text += "        a unary key acts on the number before it: 16@\n"
    case .scientific:
      text += "        a unary key or function acts on the number before it: 16@, 30sin\n"
    case .programmer: text += "        not, a rotate or bitN acts on the number before it: 5 not\n"
    case .formula: text += "        a formula is read as written: sin(30), 5*-2, 2pi\n"
    case .date: text += "        a date line is read as written: 2026-12-01 + 90d\n"
    }
    text += "        a number ends with its line: the next line's first digit starts a new one\n"
    return text
  }

  /// The name of `mode` in prose.
  private static func modeName(_ mode: Key.Mode) -> String {
    switch mode {
    case .standard: "Standard"
    case .scientific: "Scientific"
    case .programmer: "Programmer"
    case .formula: "formula"
    case .date: "date"
    }
  }

  /// `:help slider`.
  private static let sliderTopic = """
    The slider: keys that move through time without a command, redrawn in place.
            Alt-← Alt-→   one key back, forward (:goto -1, :goto +1)
            Alt-↑ Alt-↓   one line back, forward (:undo, :redo); also PgUp PgDn
            the bar below the input shows where you are: [━━━━━━●───] 7/10
            typing after a move starts a new branch; the old one is kept
    In ~/.inputrc, under $if calc, bind calc-back-key, calc-forward-key,
            calc-back-line and calc-forward-line to other keys.

    """

  /// `:help ledger`.
  private static let ledgerTopic = """
    The tape as a ledger: lines that use earlier lines, notes, and what-if.
    $N      the result of line N (as :lines numbers it): 1200+350+89= then $1*1.19=
            an edit of line N recomputes every line that uses it
    Notes   # text after a line: 1200+350+89=  # rent, March; :note L TEXT sets one
    :find   lines whose note holds a text or whose value is a number: :find rent,
            :find 1,639
    :vary   a line's alternatives side by side: :vary 1 1300+350+89= | 1400+350+89=
    :edit   replace a line; the lines after it are replayed on a new branch

    """

  /// `text` wrapped to `width` at word boundaries, each line's continuation under its column:
  /// under the text after a label (`Keys:   `, `Slider: `) or after a first word followed by two
  /// blanks, else under the line's first word — or, for a line that starts a paragraph whose
  /// next line is indented, under that indentation (``Terminal/wrapped(_:width:hanging:)``).
  static func wrapped(_ text: String, width: Int) -> String {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    return lines.indices.map { index in
      var hanging = column(of: lines[index])
      if hanging == 0, index + 1 < lines.count {
        hanging = lines[index + 1].prefix { $0 == " " }.count
      }
      return Terminal.wrapped(String(lines[index]), width: width, hanging: hanging)
    }.joined(separator: "\n")
  }

  /// Where a line's text column starts: after its leading blanks, or after a first word and
  /// the blanks that follow it when they are two or more or the word is a label (`Keys:   0-9`,
  /// `Slider: Alt-←`, `  :goto N   move to…` has none: its first word is followed by one).
  static func column(of line: Substring) -> Int {
    let leading = line.prefix { $0 == " " }.count
    let rest = line.dropFirst(leading)
    let word = rest.prefix { $0 != " " }
    let gap = rest.dropFirst(word.count).prefix { $0 == " " }
    let isLabel = leading == 0 && word.hasSuffix(":") && !word.hasPrefix(":")
    guard gap.count >= 2 || (isLabel && !gap.isEmpty), word.count + gap.count < rest.count
    else { return leading }
    return leading + Terminal.visibleWidth(of: String(word)) + gap.count
  }

  /// A card of line forms and what each means (the `:pad` of formula and date mode): under
  /// `title`, each form indented by two with its meaning (if any) in a column after the widest
  /// form that has one, when
  /// that fits `columns` (or `columns` is nil); else each meaning on the line below its form,
  /// indented by six, so that a narrow terminal never breaks a word. Lines are wrapped at word
  /// boundaries to `columns`, and the result ends with a newline.
  static func card(_ title: String, rows: [(form: String, meaning: String)], columns: Int?)
    -> String
  {
    let described = rows.filter { !$0.meaning.isEmpty }
    let column = 2 + (described.map { Terminal.visibleWidth(of: $0.form) }.max() ?? 0) + 2
    let widest = described.map { column + Terminal.visibleWidth(of: $0.meaning) }.max() ?? 0
    let stacked = columns.map { widest > $0 } ?? false
    var text = title + "\n"
    for row in rows {
      text += "  " + row.form
      if !row.meaning.isEmpty {
        text +=
          stacked
          ? "\n      " + row.meaning
          : String(repeating: " ", count: column - 2 - Terminal.visibleWidth(of: row.form))
            + row.meaning
      }
      text += "\n"
    }
    return columns.map { wrapped(text, width: $0) } ?? text
  }
}
