import CalculatorEngine
import Foundation

/// A line command, as typed after `:`.
public struct CommandInfo: Sendable {
  public let name: String
  public let arguments: String
  public let summary: String

  /// Every command, in the order `:help` lists them; Tab completion uses the names.
  public static let all: [CommandInfo] = [
    CommandInfo(name: "history", arguments: "", summary: "list every step; ▶ marks where you are"),
    CommandInfo(name: "goto", arguments: "N|+K|-K", summary: "move to step N, or K steps on/back"),
    CommandInfo(name: "undo", arguments: "[K]", summary: "move back K steps (default 1)"),
    CommandInfo(name: "redo", arguments: "[K]", summary: "move forward K steps (default 1)"),
    CommandInfo(name: "keys", arguments: "", summary: "print the applied keys as key text"),
    CommandInfo(name: "save", arguments: "FILE", summary: "save the session as a calc script"),
    CommandInfo(name: "load", arguments: "FILE", summary: "replace the session with a saved one"),
    CommandInfo(name: "reset", arguments: "", summary: "empty the history"),
    CommandInfo(name: "pad", arguments: "", summary: "draw the keypad with each button's key"),
    CommandInfo(name: "help", arguments: "", summary: "keys and commands"),
    CommandInfo(name: "quit", arguments: "", summary: "leave calc (also :q, :exit, Ctrl-D)"),
  ]
}

extension LineInterpreter {
  /// A command line split into its name, its argument (the rest, trimmed) and their columns.
  private struct CommandLine {
    let name: String
    let argument: String
    let argumentColumn: Int

    init(_ line: String) {
      let characters = Array(line)
      var index = 0
      while index < characters.count, characters[index] == " " || characters[index] == "\t" {
        index += 1
      }
      index += 1  // the colon
      let nameStart = index
      while index < characters.count, characters[index] != " ", characters[index] != "\t" {
        index += 1
      }
      name = String(characters[nameStart..<index])
      while index < characters.count, characters[index] == " " || characters[index] == "\t" {
        index += 1
      }
      argumentColumn = index + 1
      // A `#` after a blank starts a comment, as in key lines (`:goto 3  # back to 12`).
      var end = characters.count
      if let hash = (index..<characters.count).first(where: {
        characters[$0] == "#"
          && ($0 == index || characters[$0 - 1] == " " || characters[$0 - 1] == "\t")
      }) {
        end = hash
      }
      while end > index, characters[end - 1] == " " || characters[end - 1] == "\t" { end -= 1 }
      argument = String(characters[index..<end])
    }
  }

  /// Runs a line that starts with `:`.
  mutating func runCommand(_ line: String, output: inout [UInt8]) throws(LineError) -> Outcome {
    let command = CommandLine(line)
    let nameColumn = line.prefix { $0 == " " || $0 == "\t" }.count + 1
    func noArgument() throws(LineError) {
      guard command.argument.isEmpty else {
        throw LineError(
          ":\(command.name) takes no argument, not '\(TextEscaping.escaped(command.argument))'",
          column: command.argumentColumn)
      }
    }
    switch command.name {
    case "history":
      try noArgument()
      appendHistory(to: &output)
    case "goto":
      try timelineMove(to: gotoTarget(command), output: &output)
    case "undo":
      timeline.undo(try steps(command))
      appendDisplay(to: &output)
    case "redo":
      timeline.redo(try steps(command))
      appendDisplay(to: &output)
    case "keys":
      try noArgument()
      output.append(contentsOf: KeyText.text(of: timeline.keys.prefix(timeline.position)).utf8)
      output.append(UInt8(ascii: "\n"))
    case "save":
      let path = try fileArgument(command)
      try atArgument(command) { () throws(LineError) in try SessionFile.save(timeline, to: path) }
      let keys = timeline.count == 1 ? "1 key" : "\(timeline.count) keys"
      output.append(
        contentsOf: style.dim(
          "saved \(keys) at step \(timeline.position) to \(TextEscaping.escaped(path))\n"
        ).utf8)
    case "load":
      let path = try fileArgument(command)
      timeline = try atArgument(command) { () throws(LineError) in
        try SessionFile.load(path, format: format)
      }
      appendDisplay(to: &output)
    case "reset":
      try noArgument()
      timeline.reset()
      appendDisplay(to: &output)
    case "pad":
      try noArgument()
      output.append(contentsOf: HelpText.pad(style: style).utf8)
    case "help":
      try noArgument()
      output.append(contentsOf: HelpText.help(style: style).utf8)
    case "quit", "q", "exit":
      try noArgument()
      return .quit
    case "":
      throw LineError("missing command name after ':' (try :help)", column: nameColumn)
    default:
      throw LineError(
        "unknown command ':\(TextEscaping.escaped(command.name))' (try :help)", column: nameColumn)
    }
    return .proceed
  }

  /// Runs `body`, reporting its errors at the command's argument (the file name).
  private func atArgument<T>(_ command: CommandLine, _ body: () throws(LineError) -> T)
    throws(LineError) -> T
  {
    do {
      return try body()
    } catch {
      throw LineError(error.message, column: command.argumentColumn)
    }
  }

  private mutating func timelineMove(to position: Int, output: inout [UInt8]) throws(LineError) {
    do {
      try timeline.move(to: position)
    } catch {
      throw LineError(error.description)
    }
    appendDisplay(to: &output)
  }

  /// The position `:goto N|+K|-K` names; out of range is an error naming the valid range.
  private func gotoTarget(_ command: CommandLine) throws(LineError) -> Int {
    let argument = command.argument
    let valid = "0…\(timeline.count)"
    guard !argument.isEmpty else {
      throw LineError(
        ":goto needs a step: N, +K or -K (valid: \(valid))", column: command.argumentColumn)
    }
    let sign = argument.first == "+" ? 1 : argument.first == "-" ? -1 : 0
    let digits = sign == 0 ? Substring(argument) : argument.dropFirst()
    guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
      let amount = Int(digits)
    else {
      throw LineError(
        ":goto takes a step N, +K or -K, not '\(TextEscaping.escaped(argument))'",
        column: command.argumentColumn)
    }
    let (target, overflow) =
      sign == 0
      ? (amount, false) : timeline.position.addingReportingOverflow(sign * amount)
    guard !overflow, (0...timeline.count).contains(target) else {
      let asked = sign == 0 ? "step \(amount)" : "step \(argument) from \(timeline.position)"
      throw LineError("\(asked) is out of range \(valid)", column: command.argumentColumn)
    }
    return target
  }

  /// The `[K]` of `:undo` and `:redo`: a whole number, 1 by default.
  private func steps(_ command: CommandLine) throws(LineError) -> Int {
    if command.argument.isEmpty { return 1 }
    guard command.argument.allSatisfy({ $0.isASCII && $0.isNumber }),
      let steps = Int(command.argument)
    else {
      throw LineError(
        ":\(command.name) takes a number of steps, not '\(TextEscaping.escaped(command.argument))'",
        column: command.argumentColumn)
    }
    return steps
  }

  private func fileArgument(_ command: CommandLine) throws(LineError) -> String {
    guard !command.argument.isEmpty else {
      throw LineError(":\(command.name) needs a file name", column: command.argumentColumn)
    }
    return SessionFile.expandingTilde(command.argument)
  }

  /// Appends `:history`: every step with its key, the expression so far and the display, the
  /// current step marked, the kept future labelled, and a slider.
  ///
  /// - Complexity: O(n) in the number of keys, in two passes (the first measures the columns);
  ///   beyond the output, memory stays O(1) however long the history.
  func appendHistory(to output: inout [UInt8]) {
    guard !timeline.isEmpty else {
      output.append(contentsOf: "no history\n".utf8)
      return
    }
    var widths = (step: max(4, String(timeline.count).count), expression: 10, display: 7)
    forEachHistoryRow { _, _, expression, display in
      widths.expression = max(widths.expression, expression.count)
      widths.display = max(widths.display, display.count)
    }
    func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
      let padding = String(repeating: " ", count: max(0, width - text.count))
      return left ? padding + text : text + padding
    }
    let header =
      "  \(pad("step", widths.step, left: true))  key  \(pad("expression", widths.expression))"
      + "  display"
    output.append(contentsOf: (style.dim(header) + "\n").utf8)
    forEachHistoryRow { step, key, expression, display in
      var line =
        "\(pad(String(step), widths.step, left: true))  \(pad(key, 3))  "
        + "\(pad(expression, widths.expression))  "
      if step > timeline.position {
        line = "  " + style.dim(line + pad(display, widths.display) + "  (kept)")
      } else if step == timeline.position {
        line = style.marker("▶ ") + line + display
      } else {
        line = "  " + line + display
      }
      while line.last == " " { line.removeLast() }
      output.append(contentsOf: (line + "\n").utf8)
    }
    output.append(contentsOf: (slider() + "\n").utf8)
  }

  /// Calls `body` for every step with its number, key title, expression (cut to its last 60
  /// characters) and display.
  private func forEachHistoryRow(_ body: (Int, String, String, String) -> Void) {
    let expressionWidth = 60
    var expression = ""
    var expressionLength = 0
    var isCut = false
    timeline.forEachStep { step, key, calculator in
      if let key {
        expression += key.title
        expressionLength += key.title.count
        if expressionLength > expressionWidth * 2 {
          // Keep the string short so that each row costs O(1), not O(step).
          expression = String(expression.suffix(expressionWidth))
          expressionLength = expressionWidth
          isCut = true
        }
      }
      let shown =
        isCut || expressionLength > expressionWidth
        ? "…" + String(expression.suffix(expressionWidth - 1)) : expression
      body(step, key?.title ?? "", shown, format.text(for: calculator.brain))
    }
  }

  /// `[━━━━━━━●───] 7/10`: the book's slider, at most 30 cells wide.
  func slider() -> String {
    let count = timeline.count
    let cells = min(count, 30)
    let filled = count == 0 ? 0 : (timeline.position * cells + count / 2) / count
    return "[" + String(repeating: "━", count: filled) + "●"
      + String(repeating: "─", count: cells - filled) + "] \(timeline.position)/\(count)"
  }
}
