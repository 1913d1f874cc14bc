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
//    c e <`) and aliases such as `×` and `÷`, skips blanks and `#` comments, and throws a
//    `KeyTextError` naming the first character that is no key. It checks the whole line
//    before returning anything, so a bad line never yields half of its keys.
let lines =
  CommandLine.arguments.count > 1
  ? Array(CommandLine.arguments.dropFirst()) : Array(AnyIterator { readLine() })
var keys: [CalculatorButtonItem] = []
for (number, line) in lines.enumerated() {
  do {
    keys += try KeyText.keys(in: line)
  } catch {
    // The error is a KeyTextError (typed throws); its description reads well as it is.
    FileHandle.standardError.write(Data("paper-tape: line \(number + 1): \(error)\n".utf8))
    exit(65)
  }
}

// 2. The tape. A `Timeline` records every key applied to it, and its `calculator` is always the
//    calculator after them (the calculation, `brain`, and the memory). `DisplayFormat` turns a
//    brain into what the display shows;
//    `.posix` is `1,234.5` whatever the user's locale.
let format = DisplayFormat.posix
var timeline = Timeline()
var tape: [(display: String, title: String)] = []
for key in keys {
  timeline.apply(key)
  tape.append((format.text(for: timeline.calculator.brain), key.title))
}
// Like a printing calculator: the display right-aligned, then the button pressed.
let tapeWidth = tape.map(\.display.count).max() ?? 0
print("paper tape")
for (display, title) in tape {
  print(padded(display, to: tapeWidth, alignRight: true) + "  " + title)
}

// 3. The history. `forEachStep` replays every step once, from 0 (no key yet) to `count`,
//    with the key that led there and the calculator after it: O(n) for the whole table,
//    where asking `calculator(at:)` for each step would replay up to 255 keys per row.
let expressionWidth = max(10, timeline.keys.map(\.title.count).reduce(0, +))
print("\n  step  key  expression  display")
var expression = ""
timeline.forEachStep { step, key, calculator in
  expression += key?.title ?? ""
  let marker = step == timeline.position ? "▶ " : "  "
  let row =
    marker + padded(String(step), to: 4, alignRight: true) + "  "
    + padded(key?.title ?? "", to: 3) + "  " + padded(expression, to: expressionWidth) + "  "
    + format.text(for: calculator.brain)
  print(row)
}
print("position \(timeline.position) of \(timeline.count)")

// 4. Time travel. `move(to:)` jumps to any step from 0 through `count`, replaying fewer
//    than `Timeline.checkpointInterval` keys however long the history. The keys after the
//    new position are kept: `redo` goes forward again, and only `apply` discards them.
let show = { (action: String) in
  print(padded(action, to: 14) + format.text(for: timeline.calculator.brain))
}
print()
let middle = timeline.count / 2
try! timeline.move(to: middle)  // cannot fail: `middle` is within 0...count
show("move(to: \(middle))")
timeline.undo()  // one step back; at step 0 it stays there
show("undo()")
timeline.redo(timeline.count)  // forward, stopping at the end
show("redo(\(timeline.count))")
// A step that does not exist throws a TimelineError and changes nothing.
do {
  try timeline.move(to: timeline.count + 1)
} catch {
  print(padded("move(to: \(timeline.count + 1))", to: 14) + "\(error)")
}
