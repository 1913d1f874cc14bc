import CalcCore
import CalculatorEngine

#if canImport(Glibc)
  import Glibc
#endif

/// Runs scripts: files, or standard input, line by line, exactly as the REPL would, through a
/// ``LineRunner``.
///
/// Output is buffered; a rejected line is reported on standard error as `FILE:LINE:COLUMN:
/// message` after everything printed before it, and stops the run.
struct BatchRunner {
  /// The runner of each line; its settings (`--keep-going`, `-q`) are the run's.
  var runner: LineRunner
  /// What a name `-` reads: the process's standard input, or bytes (tests).
  var standardInput = ScriptInput.descriptor(STDIN_FILENO)
  /// Where relative script names are opened: the process's current directory, or a folder
  /// standing for it (tests in process).
  var directory = WorkingDirectory(nil)
  /// Whether the process's heap is advised for huge pages before the first script read from a
  /// descriptor (``Platform/adviseHugePagesForScripts()``): calc's own run in date mode, not a
  /// test's.
  var advisesHugePages = false

  /// Where a script's bytes come from.
  enum ScriptInput {
    /// An open descriptor, read as it comes.
    case descriptor(Int32)
    /// Bytes held in memory.
    case bytes([UInt8])
  }

  /// A runner of scripts through `runner`.
  init(runner: LineRunner, standardInput: ScriptInput = .descriptor(STDIN_FILENO)) {
    self.runner = runner
    self.standardInput = standardInput
  }

  /// Runs the scripts `names` (`-` is standard input) and returns the exit status.
  ///
  /// Each name is opened byte for byte, and shown in messages escaped (``FileName/shown``).
  mutating func run(names: [FileName]) -> Int32 {
    // Open everything first: a missing file is reported before any line runs.
    var inputs: [(name: String, input: ScriptInput, folder: FileName?)] = []
    for name in names {
      if name.bytes.elementsEqual("-".utf8) {
        inputs.append(("<stdin>", standardInput, nil))
        continue
      }
      // A name from the command line holds no NUL byte.
      let fd = directory.resolve(name).withCString { open($0, O_RDONLY | O_CLOEXEC) }
      guard fd >= 0 else {
        let code = errno
        let reason = Platform.errorMessage(code)
        let hint = code == ENOENT ? Self.keysHint(name) : ""
        runner.report("cannot read '\(name.shown)': \(reason)\(hint)", line: nil)
        return ExitStatus.noInput
      }
      inputs.append((name.shown, .descriptor(fd), Self.folder(of: name)))
    }
    defer {
      for input in inputs {
        if case .descriptor(let fd) = input.input, fd != STDIN_FILENO { close(fd) }
      }
    }
    scripts: for input in inputs {
      // The same interpreter goes on with each file's settings.
      runner.interpreter.context.scriptFolder = input.folder
      runner.source = .script(name: input.name)
      switch runScript(input.input, name: input.name) {
      case .finished: continue
      case .quit: break scripts
      case .failed(let status): return runner.fail(status)
      }
    }
    return runner.finish()
  }

  private enum ScriptEnd {
    case finished
    case quit
    case failed(Int32)
  }

  private mutating func runScript(_ input: ScriptInput, name: String) -> ScriptEnd {
    let reader: LineReader
    switch input {
    case .descriptor(let fd):
      reader = LineReader(fd: fd)
      if advisesHugePages {
        advisesHugePages = false
        Platform.adviseHugePagesForScripts()
      }
      // A file's keys take at least a byte each: room for them at once, rather than the
      // history's storage growing (and being copied) a quarter at a time.
      if let size = Platform.regularFileSize(fd) {
        runner.interpreter.reserveCapacity(forKeys: min(size, Self.reservedKeysLimit))
      }
    case .bytes(let bytes): reader = LineReader(read: Self.reading(bytes))
    }
    reader.willRead = { [output = runner.output] in output.flush() }
    var lineNumber = 0
    var end = ScriptEnd.finished
    reader.forEachLine { line in
      lineNumber += 1
      // A session or journal from a newer calc is refused as a whole, even with --keep-going.
      // Its trailing comments are notes unless its header names format 2 or older (SPEC §4).
      if lineNumber == 1 {
        do throws(LineError) {
          let origin = try SessionScript.origin(ofFirstLine: line)
          switch origin {
          case .handWritten: runner.interpreter.trailingCommentsAreNotes = true
          case .format(let format): runner.interpreter.trailingCommentsAreNotes = format >= 3
          case .olderFormat: runner.interpreter.trailingCommentsAreNotes = false
          }
          // Its line numbers count the mode line as line 1 in format 2 and older.
          runner.interpreter.lineNumbering = origin.lineNumbering
        } catch {
          runner.report(error.message, line: 1, column: error.column)
          end = .failed(ExitStatus.dataError)
          return false
        }
      }
      switch runner.run(line, number: lineNumber) {
      case nil: return true
      case .quit?: end = .quit
      case .failed(let status)?: end = .failed(status)
      case .outputStopped?: break
      }
      return false
    }
    runner.interpreter.trailingCommentsAreNotes = true
    runner.interpreter.lineNumbering = .modeLineIsZero
    guard case .finished = end, let failure = reader.failure else { return end }
    switch failure {
    case .unreadable(let reason):
      runner.report("cannot read '\(name)': \(reason)", line: nil)
      return .failed(ExitStatus.noInput)
    case .lineTooLong:
      runner.report(LineReader.tooLongMessage, line: lineNumber + 1)
      return .failed(ExitStatus.dataError)
    case .interrupted:
      return .failed(ExitStatus.dataError)
    case .acceptedRejectedPrefix:
      runner.report(LineReader.disagreementMessage, line: lineNumber)
      return .failed(ExitStatus.dataError)
    }
  }

  /// The most keys a script's size reserves room for (``runScript(_:name:)``): 64 Mi, about
  /// 100 MB of address space with their snapshots, which any machine grants; a longer script
  /// grows its history beyond as typed lines do.
  static let reservedKeysLimit = 1 << 26

  /// A `read` for ``LineReader`` that hands on `bytes` as far as each buffer holds, then 0.
  private static func reading(_ bytes: [UInt8]) -> (UnsafeMutableRawBufferPointer) -> Int {
    var offset = 0
    return { buffer in
      let count = min(buffer.count, bytes.count - offset)
      bytes.withUnsafeBytes { source in
        buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<(offset + count)]))
      }
      offset += count
      return count
    }
  }

  /// The folder of the script `name`, with its `/` (`Examples/`, `/`); `nil` for a name without
  /// a folder, which is in the current directory.
  static func folder(of name: FileName) -> FileName? {
    name.bytes.contains(UInt8(ascii: "/")) ? name.folder : nil
  }

  /// For a file that does not exist, a hint to run its name as a formula (``formulaHint(_:)``:
  /// `5*-2`), else to press it as keys if it reads as key text (`12+3=`); empty for any other
  /// name, and for one that is not UTF-8.
  static func keysHint(_ name: FileName) -> String {
    if name.bytes.elementsEqual("help".utf8) { return " (for help: calc --help)" }
    if let formula = formulaHint(name) { return " (as a formula: calc -e '\(formula)')" }
    var last: Key?
    guard (try? KeyText.scan(name.bytes) { last = $0 }) != nil, let last else { return "" }
    // A command that prints a result (SPEC §5): keys that do not end in `=` get one (not
    // after a comment, which would swallow it).
    let ends = last == .equal || name.bytes.contains(UInt8(ascii: "#"))
    let keys = name.shown + (ends ? "" : "=")
    return " (to press keys: calc -k '\(keys)')"
  }

  /// The formula that a missing FILE's name reads as (SPEC §12: `calc '5*-2'` gets the hint
  /// `calc -e '5*-2'`), canonical, when its result differs from what the name's keys with `=`
  /// show or the name is no key text; `nil` otherwise (`12+3` is the same either way, and §6's
  /// hint presses it as keys).
  static func formulaHint(_ name: FileName) -> String? {
    let text = name.shown
    guard !text.contains("#"), let formula = try? Formula(text),
      let computed = try? Calculator.initial.applyingFormula(formula),
      let canonical = try? formula.canonicalText(answer: nil)
    else { return nil }
    let typed = text.hasSuffix("=") ? text : text + "="
    guard let keys = try? KeyText.keys(in: typed, startingIn: .standard) else { return canonical }
    let pressed = Calculator.initial.applying(line: keys.keys)
    let plain = DisplayFormat.plain
    return plain.text(for: pressed) == plain.text(for: computed) ? nil : canonical
  }

}
