import CalcDecimal
import CalculatorEngine

/// The listings of a session — `:history`, `:tape`, `:branches`, the slider bar and the display
/// with its expression line — as functions of the history, the format and the style, written to
/// any ``OutputBuffer`` (a terminal, a pipe, the pager, or memory).
///
/// A long listing writes its rows out as it makes them (``OutputBuffer/flushIfFull()``), so that
/// its memory stays bounded, and asks ``isStopped`` before each row.
package struct Listing {
  /// The history listed.
  let history: History
  /// How numbers are shown.
  let format: DisplayFormat
  /// Colours for a terminal, or none.
  let style: Style
  /// Whether a long listing should stop before its next row: its reader went away (a pager
  /// that was quit, `| head`), its output failed, or Ctrl-C was pressed (the REPL then drops the
  /// line's output and reports it).
  let isStopped: (OutputBuffer) -> Bool

  /// Appends the display of `state` and a newline; with `showsExpression`, the expression line
  /// above it (dimmed) when it is not empty, broken at spaces to fit ``OutputBuffer/columns``:
  /// a two-line display like Windows Calculator's.
  ///
  /// Returns what a key line's notes and exit status need to know of the state, read here, where
  /// the state is at hand (``LineInterpreter/applyKeys(_:references:line:output:mode:mayHoldModeKeys:)``).
  ///
  /// `mode`, when given, is the state's mode, known to the caller: a line without a mode key
  /// leaves the mode as it was, and reading it was a call a script line
  /// (Documentation/Performance.md#a-scripts-line). `showsNoError`, that the caller knows the
  /// state shows no error and waits for no operand (a date line that one pass calculated: it
  /// never faults), so that they are not read: read just after the line wrote the state, they
  /// cost a date line about 2% of its time ("Date lines by their shape, session 18").
  @discardableResult @inline(__always)
  static func writeDisplay(
    _ state: Calculator, format: DisplayFormat, style: Style, showsExpression: Bool,
    to output: OutputBuffer, mode: Key.Mode? = nil, showsNoError: Bool = false
  ) -> StateFacts {
    if showsExpression {
      let expression = format.expression(for: state)
      // On a terminal, broken at spaces: a number is never split across two rows (SPEC §6).
      if !expression.isEmpty {
        output.write(style.dim(Terminal.message(expression, width: output.columns)) + "\n")
      }
    }
    let (isError, isPending) = showsNoError ? (false, false) : state.errorAndPending
    if isError {
      output.write(style.error(format.text(for: state)))
      output.bytes.append(UInt8(ascii: "\n"))
    } else if let columns = output.columns, case .date(let shown) = state.display {
      // A difference too wide for the terminal (SPEC §13). The terminal is asked first and the
      // rest is out of line: a script's line reads no display here, a read that cost about 60
      // instructions an everyday line (Documentation/Performance.md).
      writeDate(shown, format: format, columns: columns, to: output)
    } else {
      // With its newline: a script's everyday answer is one append.
      format.appendLine(state, to: &output.bytes)
    }
    return StateFacts(
      showsError: isError, isPending: isPending, mode: mode ?? state.mode)
  }

  /// Writes date mode's `shown` and a newline, fitted to `columns` (``fittedDate(_:text:width:wraps:)``).
  @inline(never)
  static func writeDate(
    _ shown: DateDisplay, format: DisplayFormat, columns: Int, to output: OutputBuffer
  ) {
    let text = format.text(for: .date(shown))
    output.write(
      (Terminal.width(of: text) > columns
        ? fittedDate(shown, text: text, width: columns, wraps: true) : text) + "\n")
  }

  /// The text of `display` in at most `width` columns (SPEC §6: a display too wide for a narrow
  /// terminal is shown in scientific notation, never cut): as the display shows it when it
  /// fits, else a value in scientific notation with as many significant digits as fit, rounded
  /// (`9.99999999E27`); with no width, or a display that is not a value, as it shows it.
  ///
  /// - Complexity: O(34) format attempts at most.
  static func fitted(_ display: Display, format: DisplayFormat, width: Int?)
    -> String
  {
    let text = format.text(for: display)
    guard let width, Terminal.width(of: text) > width else { return text }
    let value: Number
    switch display {
    case .value(let number), .exponential(let number): value = number
    case .entry, .scientificEntry, .programmer, .error: return text
    case .date(let shown): return fittedDate(shown, text: text, width: width, wraps: false)
    }
    var shortest = text
    for digits in stride(from: Decimal34.precision, through: 1, by: -1) {
      var bytes: [UInt8] = []
      format.appendExponential(value.rounded(toSignificantDigits: digits), to: &bytes)
      shortest = String(decoding: bytes, as: UTF8.self)
      if Terminal.width(of: shortest) <= width { break }
    }
    return shortest
  }

  /// A date-mode display fitted to `width` columns (SPEC §13): a difference drops its `(N
  /// days)` part, then, when `wraps`, wraps after a comma (rows of its own); anything else is
  /// shown whole.
  static func fittedDate(_ shown: DateDisplay, text: String, width: Int, wraps: Bool) -> String {
    guard case .difference = shown.value, let open = text.lastIndex(of: "("), open > text.startIndex
    else { return text }
    let short = String(text[..<text.index(before: open)])
    guard wraps, Terminal.width(of: short) > width else { return short }
    var lines: [String] = []
    var current = ""
    for part in short.split(separator: ",", omittingEmptySubsequences: false) {
      let piece = current.isEmpty ? String(part.drop { $0 == " " }) : String(part)
      if !current.isEmpty, Terminal.width(of: current + "," + piece) > width {
        lines.append(current + ",")
        current = String(piece.drop { $0 == " " })
      } else {
        current = current.isEmpty ? piece : current + "," + piece
      }
    }
    lines.append(current)
    return lines.joined(separator: "\n")
  }

  /// `text` cut to `width` columns from the left, after `…` (an expression line keeps its end).
  static func cutLeft(_ text: String, _ width: Int) -> String {
    text.count > width ? "…" + String(text.suffix(max(0, width - 1))) : text
  }

  /// `text` cut to `width` columns from the right, before `…` (key text keeps its start).
  static func cutRight(_ text: String, _ width: Int) -> String {
    text.count > width ? String(text.prefix(max(0, width - 1))) + "…" : text
  }

  /// The narrowest a shortened expression or key text column gets before it is left out.
  static let narrowestTextColumn = 6

  /// Pads `text` with spaces to `width` characters, on the right or (with `left`) the left.
  static func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return left ? padding + text : text + padding
  }

  /// `→ branch 2`, `→ branches 2, 5`: the branches that leave the current one at a step.
  static func forkMark(_ branches: [Int]) -> String {
    (branches.count == 1 ? "→ branch " : "→ branches ")
      + branches.map(String.init).joined(separator: ", ")
  }

  /// The slider's bar as the REPL draws it below the input on a terminal `columns` wide: at
  /// most 60 cells, and four columns to spare.
  package func sliderBar(columns: Int) -> String {
    let label = " \(history.position)/\(history.count)".count
    return slider(width: max(1, min(60, columns - 4 - label)))
  }

  /// `[━━━━━━━●───] 7/10`: the book's slider over the current branch, at most 30 cells wide.
  func slider(width: Int = 30) -> String {
    let count = history.count
    let cells = min(count, width)
    let filled = count == 0 ? 0 : (history.position * cells + count / 2) / count
    return "[" + String(repeating: "━", count: filled) + "●"
      + String(repeating: "─", count: cells - filled) + "] \(history.position)/\(count)"
  }

  /// Appends `:branches`: for every branch its number, where it leaves the branch it came from
  /// (`1 at 5`: branch 1, after step 5), its length, the display at its end and its last keys;
  /// `▶` marks the current one.
  ///
  /// - Complexity: O(b × (``History/snapshotInterval`` + depth)), b the number of branches.
  func writeBranches(to output: OutputBuffer) {
    guard !history.isEmpty else {
      output.write("no branches\n")
      return
    }
    let lastKeysShown = 20
    struct Row {
      let number: String
      let leaves: String
      let steps: String
      let display: String
      let keys: String
    }
    let rows = (1...history.branchCount).map { number in
      let branch = history.branch(number)
      let keys = history.lastKeys(ofBranch: number, limit: lastKeysShown + 1)
      var expression = (max(0, keys.count - lastKeysShown)..<keys.count).map {
        keys.title(at: $0)
      }.joined()
      if keys.count > lastKeysShown { expression = "…" + expression }
      return Row(
        number: String(number), leaves: branch.parent.map { "\($0) at \(branch.fork)" } ?? "",
        steps: String(branch.count),
        display: format.text(for: history.stateAtEnd(ofBranch: number).display),
        keys: expression)
    }
    var widths = (
      number: 6, leaves: max(6, rows.map(\.leaves.count).max()!),
      steps: max(5, rows.map(\.steps.count).max()!),
      display: max(7, rows.map(\.display.count).max()!)
    )
    // On a narrow terminal the last keys keep their column, cut from the left so that the
    // last ones show (`…+89=`), as long as it is as wide as its header `keys`: the steps give
    // way first for it; only then are the keys left out. A display still too wide is shown in
    // scientific notation (SPEC §6).
    var showsSteps = true
    var showsKeys = true
    var keysRoom: Int?
    var displayRoom: Int?
    let keysMinimum = 6
    if let columns = output.columns {
      let before = 2 + widths.number + 2 + widths.leaves + 2
      let withSteps = before + widths.steps + 2 + widths.display + 2
      let withoutSteps = before + widths.display + 2
      if columns - withSteps >= keysMinimum {
        keysRoom = columns - withSteps
      } else if columns - withoutSteps >= keysMinimum {
        showsSteps = false
        keysRoom = columns - withoutSteps
      } else {
        showsKeys = false
        showsSteps = before + widths.steps + 2 + widths.display <= columns
      }
      displayRoom = columns - before - (showsSteps ? widths.steps + 2 : 0)
      widths.display = min(widths.display, max(7, displayRoom ?? 0))
    }
    let keysHeader = keysRoom.map { $0 >= 9 ? "last keys" : "keys" } ?? "last keys"
    let pad = Listing.pad
    let header =
      "  \(pad("branch", widths.number, true))  \(pad("leaves", widths.leaves, false))"
      + (showsSteps ? "  " + pad("steps", widths.steps, true) : "")
      + "  \(pad("display", widths.display, false))"
      + (showsKeys ? "  " + keysHeader : "")
    output.writeRow(style.dim(header))
    for (index, row) in rows.enumerated() {
      let display =
        row.display.count > (displayRoom ?? .max)
        ? Listing.fitted(
          history.stateAtEnd(ofBranch: index + 1).display, format: format, width: displayRoom)
        : row.display
      let keys =
        showsKeys ? "  " + (keysRoom.map { Listing.cutLeft(row.keys, $0) } ?? row.keys) : ""
      var line =
        "\(pad(row.number, widths.number, true))  \(pad(row.leaves, widths.leaves, false))"
        + (showsSteps ? "  " + pad(row.steps, widths.steps, true) : "")
        + "  \(pad(display, widths.display, false))\(keys)"
      line = (index + 1 == history.currentBranch ? style.marker("▶ ") : "  ") + line
      while line.last == " " { line.removeLast() }
      output.writeRow(line)
      output.flushIfFull()
    }
  }
}
