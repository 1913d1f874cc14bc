import CalculatorEngine

#if canImport(Glibc)
  import Glibc
#endif

/// The exit statuses of calc (see sysexits.h).
public enum ExitStatus {
  public static let success: Int32 = 0
  /// A key line showed an error, at its end or on the way.
  public static let errorDisplayed: Int32 = 1
  public static let usage: Int32 = 64
  /// A script line was rejected.
  public static let dataError: Int32 = 65
  /// A script file could not be read.
  public static let noInput: Int32 = 66
  /// Output could not be written.
  public static let ioError: Int32 = 74
}

/// Runs scripts: files, or standard input, line by line, exactly as the REPL would.
///
/// Output is buffered; a rejected line is reported on standard error as `FILE:LINE:COLUMN:
/// message` after everything printed before it, and stops the run.
struct BatchRunner {
  var interpreter: LineInterpreter
  let output: OutputBuffer
  let errors: OutputBuffer
  /// `--keep-going`: a rejected line is reported and the run goes on with the next; a rejected
  /// key line writes the unchanged display, so that every key line gets one answer line.
  var keepsGoing = false
  /// `-q`: no notes.
  var isQuiet = false
  /// The line of the last change, if it applied keys: for the note that the input ended with an
  /// operation pending (not after a move, which a person means).
  private(set) var lastLine: (name: String, number: Int)?
  /// Whether a line was rejected and passed over (``keepsGoing``): the exit status is then 65.
  private(set) var rejectedALine = false
  /// Whether a key line showed an error, at its end or on the way (SPEC §5): the exit status is
  /// then 1. Lines replayed by `:load`, `:edit`, `:insert` and `:delete` are no key lines of
  /// the script, and a move (`:goto`, `:undo`) to an error is none either.
  private(set) var showedAnError = false

  /// Runs the scripts `names` (`-` is standard input) and returns the exit status.
  ///
  /// Each name is opened byte for byte, and shown in messages escaped (``FileName/shown``).
  mutating func run(names: [FileName]) -> Int32 {
    // Open everything first: a missing file is reported before any line runs.
    var inputs: [(name: String, fd: Int32, folder: FileName?)] = []
    for name in names {
      if name.bytes.elementsEqual("-".utf8) {
        inputs.append(("<stdin>", STDIN_FILENO, nil))
        continue
      }
      // A name from the command line holds no NUL byte.
      let fd = name.withCString { open($0, O_RDONLY | O_CLOEXEC) }
      guard fd >= 0 else {
        let code = errno
        let reason = Platform.errorMessage(code)
        let hint = code == ENOENT ? Self.keysHint(name) : ""
        report(Diagnostic("cannot read '\(name.shown)': \(reason)\(hint)"))
        return ExitStatus.noInput
      }
      inputs.append((name.shown, fd, Self.folder(of: name)))
    }
    defer { for input in inputs where input.fd != STDIN_FILENO { close(input.fd) } }
    scripts: for input in inputs {
      var context = interpreter.context
      context.scriptFolder = input.folder
      interpreter = LineInterpreter(
        context: context, host: interpreter.host, session: interpreter.session)
      switch runScript(input.fd, name: input.name) {
      case .finished: continue
      case .quit: break scripts
      case .failed(let status): return output.exitStatus(status, errors: errors)
      }
    }
    if !isQuiet, let lastLine, let pending = interpreter.pendingNote {
      report(Diagnostic(file: lastLine.name, line: lastLine.number, "note: " + pending))
    }
    // SPEC §5: 74 (output failed, in exitStatus), 66, 65, 1, 0, in that order.
    let status =
      rejectedALine
      ? ExitStatus.dataError : showedAnError ? ExitStatus.errorDisplayed : ExitStatus.success
    return output.exitStatus(status, errors: errors)
  }

  private enum ScriptEnd {
    case finished
    case quit
    case failed(Int32)
  }

  private mutating func runScript(_ fd: Int32, name: String) -> ScriptEnd {
    let reader = LineReader(fd: fd)
    reader.willRead = { [output] in output.flush() }
    var lineNumber = 0
    var end = ScriptEnd.finished
    reader.forEachLine { line in
      lineNumber += 1
      // A session or journal from a newer calc is refused as a whole, even with --keep-going.
      if lineNumber == 1 {
        do throws(LineError) {
          _ = try SessionScript.origin(ofFirstLine: line)
        } catch {
          report(Diagnostic(file: name, line: 1, column: error.column, error.message))
          end = .failed(ExitStatus.dataError)
          return false
        }
      }
      do throws(LineError) {
        let result = try interpreter.run(line, output: output)
        if case .reset? = result.effect?.change { _ = interpreter.enterStartMode() }
        switch result.effect?.change {
        case .applied?:
          lastLine = (name, lineNumber)
          if result.showedAnError { showedAnError = true }
        case .moved?, .switched?, .reset?, .loaded?, .restored?, .rewrote?, .noted?, .varied?:
          lastLine = nil
        case nil: break
        }
        for note in result.notes where !isQuiet {
          report(
            Diagnostic(file: name, line: lineNumber, column: note.column, "note: " + note.message))
        }
        if result.outcome == .quit {
          end = .quit
          return false
        }
        output.flushIfFull()
        return !output.hasStopped
      } catch {
        report(Diagnostic(file: name, line: lineNumber, column: error.column, error.message))
        guard keepsGoing else {
          end = .failed(ExitStatus.dataError)
          return false
        }
        rejectedALine = true
        // One answer per key line, also for a rejected one: the display, unchanged.
        if !ScriptLine.isCommand(line) {
          interpreter.appendDisplay(to: output)
          output.flushIfFull()
        }
        return !output.hasStopped
      }
    }
    guard case .finished = end, let failure = reader.failure else { return end }
    switch failure {
    case .unreadable(let reason):
      report(Diagnostic("cannot read '\(name)': \(reason)"))
      return .failed(ExitStatus.noInput)
    case .lineTooLong:
      report(Diagnostic(file: name, line: lineNumber + 1, LineReader.tooLongMessage))
      return .failed(ExitStatus.dataError)
    case .interrupted:
      return .failed(ExitStatus.dataError)
    case .acceptedRejectedPrefix:
      report(Diagnostic(file: name, line: lineNumber, LineReader.disagreementMessage))
      return .failed(ExitStatus.dataError)
    }
  }

  /// The folder of the script `name`, with its `/` (`Examples/`, `/`); `nil` for a name without
  /// a folder, which is in the current directory.
  static func folder(of name: FileName) -> FileName? {
    name.bytes.contains(UInt8(ascii: "/")) ? name.folder : nil
  }

  /// For a file that does not exist, a hint to press its name as keys if it reads as key text
  /// (`12+3=`); empty for any other name, and for one that is not UTF-8.
  static func keysHint(_ name: FileName) -> String {
    if name.bytes.elementsEqual("help".utf8) { return " (for help: calc --help)" }
    var last: CalculatorButtonItem?
    guard (try? KeyText.scan(name.bytes) { last = $0 }) != nil, let last else { return "" }
    // A command that prints a result (SPEC §5): keys that do not end in `=` get one (not
    // after a comment, which would swallow it).
    let ends = last == .equal || name.bytes.contains(UInt8(ascii: "#"))
    let keys = name.shown + (ends ? "" : "=")
    return " (to press keys: calc -k '\(keys)')"
  }

  /// Writes `diagnostic` to standard error after all pending output.
  private func report(_ diagnostic: Diagnostic) {
    output.flush()
    errors.write(diagnostic.text + "\n")
    errors.flush()
  }
}
