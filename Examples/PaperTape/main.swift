// paper-tape: the calculator engine embedded in a program of its own.
//
//   paper-tape "12+3=" "*2="     # each argument is a line of key text
//   echo "12+3=" | paper-tape    # without arguments, standard input is read line by line
//
// It prints a paper tape (each key and the display after it), the history as a table, and
// then travels back in time. Text that is no key ends it with status 65, as in calc.
// Only the public API of CalculatorEngine is used; Foundation is here for standard error.

import CalculatorEngine
import Foundation

/// `text` padded with spaces to `width` characters, on the right or (`alignRight`) the left.
func padded(_ text: String, to width: Int, alignRight: Bool = false) -> String {
  let padding = String(repeating: " ", count: max(0, width - text.count))
  return alignRight ? padding + text : text + padding
}

// 1. Key text to keys. `KeyText.keys(in:)` accepts the canonical keys (`0`-`9 . + - * / = % ~
//    c ce < @ q r` and `ms mr m+ m- mc`) and aliases such as `×` and `÷`, in any case, skips
//    blanks and `#` comments, and throws a `KeyTextError` naming the first character that is no
//    key. It checks the whole line before returning anything, so a bad line never yields half
//    of its keys.
let lines =
  CommandLine.arguments.count > 1
  ? Array(CommandLine.arguments.dropFirst()) : Array(AnyIterator { readLine() })
var keyLines: [TypedKeys] = []
for (number, line) in lines.enumerated() {
  do {
    keyLines.append(try KeyText.keys(in: line))
  } catch {
    // The error is a KeyTextError (typed throws); its description reads well as it is.
    FileHandle.standardError.write(Data("paper-tape: line \(number + 1): \(error)\n".utf8))
    exit(65)
  }
}

// 2. The tape. A `Session` records every line of keys passed to `perform(.keys(_:))` — one
//    change each, the unit of undo — and its `state` is always the calculator at its position.
//    States are values: applying a line's keys one by one to the state before the line gives
//    the display after each key. `DisplayFormat` turns the state (the current mode's
//    calculation and, beside it, the memory) into what the display shows;
//    `.posix` is `1,234.5` whatever the user's locale.
let format = DisplayFormat.posix
var session = Session()
var tape: [(display: String, title: String)] = []
for line in keyLines {
  var state = session.state
  for key in line {
    state = state.apply(key)
    tape.append((format.text(for: state), key.title))
  }
  try! session.perform(.keys(line))  // a line of keys is always accepted
}
// Like a printing calculator: the display right-aligned, then the button pressed.
let tapeWidth = tape.map(\.display.count).max() ?? 0
print("paper tape")
for (display, title) in tape {
  print(padded(display, to: tapeWidth, alignRight: true) + "  " + title)
}

// 3. The history. `forEachStep` replays every step of the current branch once, from 0 (no key
//    yet) to `count`, with the key that led there and the calculator after it: O(n) for the
//    whole table, where asking `state(at:)` for each step would replay up to 383 keys per row.
let history = session.history
var titlesLength = 0
history.forEachStep { _, key, _ in titlesLength += key?.title.count ?? 0 }
let expressionWidth = max(10, titlesLength)
print("\n  step  key  expression  display")
var expression = ""
history.forEachStep { step, key, state in
  expression += key?.title ?? ""
  let marker = step == history.position ? "▶ " : "  "
  let row =
    marker + padded(String(step), to: 4, alignRight: true) + "  "
    + padded(key?.title ?? "", to: 3) + "  " + padded(expression, to: expressionWidth) + "  "
    + format.text(for: state)
  print(row)
}
print("position \(history.position) of \(history.count)")

// 4. Time travel. Every change goes through `perform`: `.goto` jumps to any step from 0
//    through `count`, replaying fewer than `History.snapshotInterval` keys however long the
//    history; `.undo` and `.redo` move by whole lines. Nothing is discarded: keys applied
//    before the end start a new branch and keep the old one.
let show = { (action: String) in
  print(padded(action, to: 14) + format.text(for: session.state))
}
print()
let middle = session.history.count / 2
try! session.perform(.goto(.step(middle)))  // cannot fail: `middle` is within 0...count
show("goto \(middle)")
try! session.perform(.undo(1))  // back to where that line started
show("undo 1")
try! session.perform(.redo(keyLines.count))  // forward, stopping at the end
show("redo \(keyLines.count)")
// A step that does not exist throws a SessionError and changes nothing.
do {
  try session.perform(.goto(.step(session.history.count + 1)))
} catch {
  print(padded("goto \(session.history.count + 1)", to: 14) + "\(error)")
}
