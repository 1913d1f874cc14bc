import CalcCore
import CalculatorEngine

#if canImport(Glibc)
  import Glibc
#endif

/// Output longer than the screen, shown through `$PAGER` (the REPL's long listings: `:history`,
/// `:branches`, `:help`, …).
///
/// While a line runs, its output is held (``OutputBuffer/pager``) and its screen rows counted —
/// long lines wrap, escape sequences take no room — until it needs more rows than the terminal
/// has above the prompt: then the pager is started and everything, held and still to come, is
/// written to it as it is produced. Output that fits is written to the terminal at the end of
/// the line as usual. At most a screenful is ever held back, and at most ``keptLimit`` bytes
/// kept for a pager that fails, so memory stays bounded however long the listing.
///
/// A pager that cannot be run (`PAGER=nonexistent`) or that fails (`PAGER=false`: it ends with
/// a status other than 0, or is killed) is noted on standard error, and the output is written
/// to the terminal instead, all of it: what was sent into the pipe is kept until the pager has
/// ended, up to ``keptLimit`` bytes. A pager that ends with status 0, or on Ctrl-C, was quit by
/// the person (`q` in less): nothing more is written. What a failing pager showed before it
/// ended cannot be known, so one that shows the output and then fails has it shown twice.
final class Pager: OutputPager {
  /// The shell command that pages: `$PAGER`; if it is unset, `less -FRX` when `less` is on the
  /// `PATH`. `nil` when there is none (`PAGER` set but empty, or no `less`).
  static func command(environment: Environment) -> String? {
    if let pager = environment["PAGER"] {
      return pager.allSatisfy({ $0 == " " || $0 == "\t" }) ? nil : pager
    }
    let path = environment["PATH"] ?? ""
    for directory in path.split(separator: ":") where access("\(directory)/less", X_OK) == 0 {
      return "less -FRX"
    }
    return nil
  }

  private let command: String
  /// Rows output may fill and still leave the prompt on the screen with it.
  private let rowLimit: Int
  /// The rows of the output so far.
  private var rows: Terminal.RowCounter
  /// How much of the held output has been counted.
  private var counted = 0
  /// The pager's process and the write end of the pipe to it, once started.
  private var child: (pid: pid_t, input: Int32)?
  /// Whether the pager runs as `sh -c COMMAND` (see ``arguments(for:)``).
  private var isShell = false
  /// The pager's wait status, once it has ended.
  private var status: Int32?
  /// Where the output went before the pager.
  private var terminal: Int32?
  /// Set once the output is known to need no pager (or the pager could not be started, or
  /// failed).
  private var isPlain = false
  /// Everything sent to the pager, to write to the terminal if it fails; `nil` once that is
  /// more than ``keptLimit`` bytes.
  private var sent: [UInt8]? = []
  /// How much of `output`'s pending bytes is in ``sent`` already.
  private var kept = 0

  /// The most output kept while the pager runs, in bytes: 1 MiB, much more than the pipe holds
  /// (64 KiB) with the screenful and the write that fill it, so that a pager which reads nothing
  /// loses nothing. A pager that has read more and then fails leaves a note that the output
  /// after it is not the whole.
  static let keptLimit = 1 << 20

  /// A pager running `command` for a screen of `rows` × `columns`.
  init(command: String, rows: Int, columns: Int) {
    self.command = command
    rowLimit = rows - 1
    self.rows = Terminal.RowCounter(columns: columns)
  }

  /// Whether output still goes through ``review(_:)``: held while its length is undecided, or
  /// on its way to the pager.
  var isHolding: Bool { !isPlain }

  /// Counts what `output` holds that has not been counted yet; starts the pager and sends it
  /// there when it is too long for the screen. While the pager runs: keeps a copy of what is
  /// new and sends it on once a good amount is pending.
  func review(_ output: OutputBuffer) {
    guard child == nil else { return send(output, all: false) }
    counted = min(counted, output.bytes.count)
    for byte in output.bytes[counted...] { rows.count(byte) }
    counted = output.bytes.count
    guard rows.rows > rowLimit else { return }
    switch start() {
    case .failure(let failure):
      isPlain = true
      note("not run (\(failure.reason)); output follows", output: output)
    case .success(let started):
      child = started
      terminal = output.fd
      output.redirect(to: started.input)
      send(output, all: true)
    }
  }

  /// Ends the pager after the output is flushed: closes its input and waits for it to leave,
  /// then sends `output` back to the terminal, with everything the pager was sent if it failed.
  ///
  /// What was flushed was kept: ``OutputBuffer/endPaging()`` reviews it first.
  func finish(_ output: OutputBuffer) {
    guard let child, let terminal else { return }
    close(child.input)
    let status = self.status ?? Platform.waitStatus(of: child.pid)
    self.child = nil
    output.redirect(to: terminal)
    if let failure = failure(status) { fallBack(output, failure: failure, isDone: true) }
  }

  /// Copies what is new in `output` to ``sent`` and writes it to the pager once 32 KiB are
  /// pending (`all`: at once); a pager that went away is waited for, and if it failed, the
  /// output goes to the terminal from then on.
  private func send(_ output: OutputBuffer, all: Bool) {
    // Output dropped since the last review (a line stopped by Ctrl-C) is not sent.
    kept = min(kept, output.bytes.count)
    if sent != nil {
      sent!.append(contentsOf: output.bytes[kept...])
      if sent!.count > Self.keptLimit { sent = nil }
    }
    kept = output.bytes.count
    guard all || output.bytes.count >= 1 << 15, let child, let terminal else { return }
    output.flush()
    kept = 0
    // A closed pipe: the pager has left (or is leaving), quit or failed.
    guard output.isClosed, status == nil else { return }
    let status = Platform.waitStatus(of: child.pid)
    self.status = status
    guard let failure = failure(status) else { return }
    close(child.input)
    self.child = nil
    output.redirect(to: terminal)
    fallBack(output, failure: failure, isDone: false)
  }

  /// After the pager failed: the note, then everything it was sent, on the terminal; later
  /// output goes there too (`isDone`: there is none).
  private func fallBack(_ output: OutputBuffer, failure: String, isDone: Bool) {
    isPlain = true
    guard let sent else {
      note(failure + (isDone ? "" : "; the rest of the output follows"), output: output)
      return
    }
    note(failure + "; output follows", output: output)
    output.bytes.insert(contentsOf: sent, at: 0)
    self.sent = []
    output.flush()
  }

  /// Writes `calc: note: pager 'COMMAND' WHAT` on standard error, after what `output` has
  /// written.
  private func note(_ what: String, output: OutputBuffer) {
    let errors = OutputBuffer(fd: STDERR_FILENO)
    errors.write("calc: note: pager '\(TextEscaping.escaped(command))' \(what)\n")
    errors.flush()
  }

  /// Why the pager's wait `status` is a failure (`failed (exit status 1)`), or `nil` if it
  /// finished or was quit: status 0, or Ctrl-C (SIGINT, 130 from a shell, or Ctrl-C seen by
  /// calc while it paged).
  private func failure(_ status: Int32) -> String? {
    if Interruption.isRequested { return nil }
    let signal = status & 0x7F
    guard signal == 0 else {
      if signal == SIGINT { return nil }
      return "failed (\(String(cString: strsignal(signal))))"
    }
    switch (status >> 8) & 0xFF {
    case 0, 128 + SIGINT: return nil
    case 127 where isShell: return "not run (command not found)"
    case 126 where isShell: return "not run (not executable)"
    case let code: return "failed (exit status \(code))"
    }
  }

  /// Why the pager could not be started, e.g. `No such file or directory`.
  struct StartFailure: Error {
    let reason: String
  }

  /// The program and arguments that run `command`: its words, when it holds only words
  /// separated by blanks (`less -FRX`), so that a program that is missing is known as such;
  /// else `sh -c COMMAND`, for anything a shell must read (quotes, `$`, `|`, `~`, `=`, …).
  static func arguments(for command: String) -> [String] {
    let shellCharacters = Set("|&;<>()$`\\\"'*?[]#~=%{}!\n")
    guard !command.contains(where: shellCharacters.contains) else {
      return ["sh", "-c", command]
    }
    return command.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
  }

  /// Starts ``command`` reading from a new pipe: the pager's process and the pipe's write end.
  ///
  /// A program that turns out not to be one (`Exec format error`: a script without `#!`) is
  /// run with `sh -c`, as a shell would run it.
  private func start() -> Result<(pid: pid_t, input: Int32), StartFailure> {
    var arguments = Self.arguments(for: command)
    isShell = arguments.first == "sh"
    var result = Platform.spawnReadingPipe(arguments)
    if case .failure(let error) = result, error.code == ENOEXEC, !isShell {
      arguments = ["sh", "-c", command]
      isShell = true
      result = Platform.spawnReadingPipe(arguments)
    }
    return result.mapError { StartFailure(reason: Platform.errorMessage($0.code)) }
  }
}
