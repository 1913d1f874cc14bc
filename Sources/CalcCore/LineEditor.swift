import CalculatorEngine

/// Where the REPL reads its lines: a line editor with a prompt and a history (GNU readline in
/// ``ReadlineEditor``; a list of lines in tests).
///
/// The REPL knows nothing of readline: it asks for input, gets typed values back, and says
/// which lines to remember.
package protocol LineEditor {
  /// The next input, with `prompt` shown while a line is edited.
  mutating func read(prompt: String) -> EditorInput
  /// The next input, the line starting as `prefill` (a line of the past to edit, `:edit L`);
  /// Ctrl-C gives ``EditorInput/abandoned``.
  mutating func read(prompt: String, prefill: [UInt8]) -> EditorInput
  /// Adds a line that was entered to the history.
  mutating func remember(_ line: [UInt8])
  /// Whether the REPL has drawn rows below the input line (the live row, the slider's bar):
  /// Ctrl-C, which the editor handles, erases them too; the REPL erases them after Enter.
  var hasRowsBelow: Bool { get set }
  /// The live display and the slider while a line is read (SPEC §6), or `nil` for none.
  var live: LiveDisplay? { get set }
  /// How many lines a line entered now could refer to (`$1` up to this, SPEC §11), asked for
  /// when Tab completes a `$N` (``LineInterpreter/referenceCompletions(of:lineCount:)``);
  /// `nil` completes none.
  var referableLines: (() -> Int)? { get set }
  /// The mode key text is read in at the end of the input (the session's, moved by the
  /// slider), asked for when Tab completes a key word (``LineInterpreter/keyWordCompletions(of:mode:)``);
  /// `nil` completes none. Editors without completion keep the default, which holds nothing.
  var keyMode: (() -> Key.Mode)? { get set }
  /// Forgets input that is waiting, such as the rest of a paste (after `:quit`, or when a line
  /// fails).
  /// Returns how many whole lines were waiting (and are now not run).
  @discardableResult
  mutating func discardPendingInput() -> Int
  /// The size of the terminal on `stream`, read anew at each call (the window may have
  /// changed), or `nil` when the stream is no terminal: the REPL reads the screen's size only
  /// through its editor.
  func size(of stream: TerminalStream) -> (rows: Int, columns: Int)?
}

/// The streams of a REPL whose terminal sizes it asks its line editor for.
package enum TerminalStream: Sendable {
  /// Where lines are typed (standard input): the prompt and the slider fit its width.
  case input
  /// Where displays and listings go (standard output): the pager's screen, listings' width.
  case output
  /// Where notes and errors go (standard error).
  case errors
}

/// What a line editor read.
package enum EditorInput: Equatable {
  /// A line typed and entered (bytes as typed, which need not be UTF-8).
  case typed([UInt8])
  /// The next line of a paste of several lines, which nothing has shown yet: the REPL shows it
  /// after the prompt, as if typed, and runs it.
  case pasted([UInt8])
  /// The end of input (Ctrl-D on an empty line); `cursorAfterPrompt` when the cursor is still on
  /// the prompt's line, so that the REPL ends the line.
  case end(cursorAfterPrompt: Bool)
  /// Ctrl-C while a prefilled line was edited: leave it as it was.
  case abandoned
}

/// What the REPL gives a line editor for SPEC §6's live display and slider, as closures over
/// the session: the editor knows nothing of calculations.
package struct LiveDisplay {
  /// The live row for a line as typed so far, at most `width` columns and styled; `nil` for
  /// none (a blank line).
  package var preview: (_ line: [UInt8], _ width: Int) -> String?
  /// The live row for the position itself (the expression line and the display), shown after
  /// a move while nothing is typed.
  package var current: (_ width: Int) -> String
  /// Does a slider move through the session's door, journaled, and returns the prompt for the
  /// new position and the slider's bar for a terminal `columns` wide (`nil`: not a terminal);
  /// `nil` when moves are not offered (a line of the past being edited).
  package var move: ((SliderMove, _ columns: Int?) -> (prompt: String, bar: String))?
  /// The prompt at the current position for a terminal `columns` wide (SPEC §6: at most a
  /// third of the width), drawn again after a resize; `nil` keeps the prompt as it is.
  package var prompt: ((_ columns: Int) -> String)? = nil
  /// The slider's bar at the current position for a terminal `columns` wide, drawn again
  /// after a resize while the bar is shown; `nil` keeps it as it is.
  package var bar: ((_ columns: Int) -> String)? = nil

  /// A live display of these closures.
  package init(
    preview: @escaping (_ line: [UInt8], _ width: Int) -> String?,
    current: @escaping (_ width: Int) -> String,
    move: ((SliderMove, _ columns: Int?) -> (prompt: String, bar: String))?,
    prompt: ((_ columns: Int) -> String)? = nil, bar: ((_ columns: Int) -> String)? = nil
  ) {
    self.preview = preview
    self.current = current
    self.move = move
    self.prompt = prompt
    self.bar = bar
  }
}

/// The slider's moves through time (SPEC §6): a key or a line back or forward.
public enum SliderMove: Equatable, Sendable, CaseIterable {
  case backKey, forwardKey, backLine, forwardLine

  /// The session command that does the move, as `:goto -1`, `:goto +1`, `:undo` and `:redo`
  /// do: given to the session's door as it is, never spelled and parsed again.
  public var command: Session.Command {
    switch self {
    case .backKey: .goto(.offset(-1))
    case .forwardKey: .goto(.offset(1))
    case .backLine: .undo(1)
    case .forwardLine: .redo(1)
    }
  }
}

/// A line editor that gives out lines from a list, for running the REPL in process: each line is
/// typed, and the end of the list is Ctrl-D.
struct ScriptedLineEditor: LineEditor {
  /// The lines still to give out.
  private(set) var lines: [String]
  /// The prompts shown, one per read.
  private(set) var prompts: [String] = []
  /// The lines remembered in the history.
  private(set) var history: [String] = []
  /// The text each prefilled read started with.
  private(set) var prefills: [String] = []
  var hasRowsBelow = false
  var live: LiveDisplay?
  var referableLines: (() -> Int)?
  /// The size of the terminal on every stream; `nil`: none is a terminal.
  var terminalSize: (rows: Int, columns: Int)?

  init(lines: [String], terminalSize: (rows: Int, columns: Int)? = nil) {
    self.lines = lines
    self.terminalSize = terminalSize
  }

  func size(of stream: TerminalStream) -> (rows: Int, columns: Int)? { terminalSize }

  mutating func read(prompt: String) -> EditorInput {
    prompts.append(prompt)
    guard !lines.isEmpty else { return .end(cursorAfterPrompt: true) }
    return .typed(Array(lines.removeFirst().utf8))
  }

  /// The next line of the list is the line as edited; the prefill is recorded in ``prefills``.
  mutating func read(prompt: String, prefill: [UInt8]) -> EditorInput {
    prefills.append(String(decoding: prefill, as: UTF8.self))
    return read(prompt: prompt)
  }

  mutating func remember(_ line: [UInt8]) {
    history.append(String(decoding: line, as: UTF8.self))
  }

  mutating func discardPendingInput() -> Int { 0 }
}

extension LineEditor {
  /// No key words to complete (an editor without Tab completion).
  package var keyMode: (() -> Key.Mode)? {
    get { nil }
    set {}
  }
}
