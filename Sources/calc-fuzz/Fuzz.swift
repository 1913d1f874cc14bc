// The fuzz target: the line interpreter and the key-text parser on arbitrary bytes; files in memory.
//
// Built with `-sanitize=fuzzer -DCALC_FUZZ` by Scripts/fuzz.sh, this file is a libFuzzer target;
// built normally, it replays the files named on its command line (a corpus, or an input that
// libFuzzer saved after a failure) through the same checks.
import CalcCLI
import CalculatorEngine
import Foundation

/// The properties every input must keep. Violations trap, which libFuzzer reports with the input.
enum FuzzCheck {
  /// Traps with `message` unless `condition` holds: unlike `precondition`, the message is
  /// printed in the optimized build that libFuzzer runs, so that CI's log says which property
  /// failed.
  static func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError(message()) }
  }

  /// Lines that leave a special value of SPEC §8 in the display, in each angle unit: 0, ±1,
  /// ±P/2, multiples of P and of 90° and 100 grad, just inside and outside [-1, 1], the bounds
  /// of trigonometry (10^100), of the factorial and of exp, the largest and smallest values.
  static let specialValues: [String] = [
    "sci rad 1~", "sci rad pi/2=", "sci rad pi~*1000000=", "sci rad pi*999999=",
    "sci rad 1exp33", "sci rad 9.9999999999999999999999999999999exp99", "sci grad 100~",
    "sci grad 0.99999999999999999999999999999999", "sci deg 90", "sci deg 270~",
    "sci rad 1.0000000000000000000000000000001~", "sci 9.9999999999999999999999999999999exp9999",
    "sci 1exp9999~", "sci 3249", "sci rad 1exp5", "sci rad 0", "sci grad 0.5~", "sci rad pi",
  ]

  /// A host whose files are in `folder`, in memory (``Files/memory(_:)``): `:save`, `:load`,
  /// `:tape csv FILE` and `:resume` (from the journal folder `/state/calc`) run as they do on a
  /// machine's files, and touch none.
  static func host(_ folder: MemoryFolder) -> LineInterpreter.Host {
    LineInterpreter.Host(
      home: "/home/fuzz", journalDirectory: "/state/calc", ownJournal: "/state/calc/own.calc",
      files: .memory(folder))
  }

  /// A fresh interpreter on `folder`.
  static func interpreter(_ folder: MemoryFolder) -> LineInterpreter {
    LineInterpreter(
      context: LineInterpreter.Context(format: DisplayFormat(localeIdentifier: "en_US_POSIX")),
      host: host(folder))
  }

  /// Runs `data` as a script, line by line, through the key-text parser, and through the line
  /// reader in reads of random sizes. The input's first byte may pick one of ``specialValues``
  /// to run first, so that the fuzzer's keys act on them. Files are in memory, empty at the
  /// start: a `:save` that is accepted must load back as the same session.
  static func check(_ data: UnsafeBufferPointer<UInt8>) {
    checkKeyText(data)
    checkLineReader(data)
    let folder = MemoryFolder()
    var interpreter = Self.interpreter(folder)
    let pick = Int(data.first ?? 0) % (specialValues.count + 1)
    if pick < specialValues.count {
      let accepted = (try? interpreter.run(specialValues[pick], output: OutputBuffer())) != nil
      require(accepted, "a special value's line was rejected")
    }
    var lines = 0
    for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      lines += 1
      if lines > 64 { break }
      let before = State(interpreter)
      let output = OutputBuffer()
      do throws(LineError) {
        try interpreter.run(UnsafeBufferPointer(rebasing: line), output: output)
        require(
          isClean(output.bytes, allowingNewlines: true), "raw control character in output")
        if let save = savedFile(by: UnsafeBufferPointer(rebasing: line)) {
          checkLoadsBack(save, as: interpreter, from: folder)
        }
      } catch {
        let after = State(interpreter)
        if after != before {
          fatalError(
            "a rejected line changed the session: line \(lines) \(String(reflecting: String(decoding: line, as: UTF8.self)))\n"
              + before.difference(from: after))
        }
        require(isClean(Array(error.message.utf8), allowingNewlines: false), "raw message")
      }
    }
  }

  /// The argument of `line` when it is a `:save` or `:save!` (the file it names); else `nil`.
  static func savedFile(by line: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
    guard case .directive(let directive)? = try? ScriptLine(line),
      let name = CommandSpec.named(directive.name)?.name, name == "save" || name == "save!"
    else { return nil }
    return directive.argumentBytes
  }

  /// What `:save` wrote to the file its argument `file` names, `:load`ed into a fresh
  /// interpreter on the same files, is the session that was saved (SPEC §4: save then load is
  /// identity).
  static func checkLoadsBack(_ file: [UInt8], as saved: LineInterpreter, from folder: MemoryFolder)
  {
    var loaded = interpreter(folder)
    let line = Array(":load ".utf8) + file
    let accepted = line.withUnsafeBufferPointer { line in
      (try? loaded.run(line, output: OutputBuffer())) != nil
    }
    require(accepted, "a saved session did not load")
    require(State(loaded) == State(saved), "a saved session loaded as another")
  }

  /// The line reader hands on the lines of `split`, whatever the sizes of the reads (taken from
  /// the input's bytes): up to the first line the parser rejects, which may have been handed on
  /// early, as a prefix rejected at the same column as the whole line. Never a silent end.
  static func checkLineReader(_ data: UnsafeBufferPointer<UInt8>) {
    let bytes = Array(data)
    let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
    // The lines as they are in the input, and without the `\r` of a line end.
    let raw = body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    var expected = raw.map { $0.last == UInt8(ascii: "\r") ? Array($0.dropLast()) : Array($0) }
    // The empty piece after a last `\n` is no line; a last line that is only `\r` is one.
    if raw.last?.isEmpty == true { expected.removeLast() }
    var offset = 0
    var turn = 0
    let reader = LineReader(chunkSize: 16) { buffer in
      // Read sizes of 1 to 16 bytes, chosen by the input itself.
      let wanted = bytes.isEmpty ? 1 : Int(bytes[(turn * 7) % bytes.count] % 16) + 1
      turn += 1
      let size = min(wanted, buffer.count, bytes.count - offset)
      guard size > 0 else { return 0 }
      bytes.withUnsafeBytes { source in
        buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<offset + size]))
      }
      offset += size
      return size
    }
    var lines: [[UInt8]] = []
    var rejectedColumn: Int?
    reader.forEachLine { line in
      lines.append(Array(line))
      do throws(KeyTextError) {
        _ = try ScriptLine(line)
        return true
      } catch {
        rejectedColumn = error.column
        return false
      }
    }
    require(
      reader.failure == nil, "the line reader stopped: \(String(describing: reader.failure))")
    require(lines.count <= expected.count, "more lines than split gives")
    guard let last = lines.last else {
      require(expected.isEmpty, "no lines handed on")
      return
    }
    require(Array(lines.dropLast()) == Array(expected[..<(lines.count - 1)]), "lines differ")
    let whole = expected[lines.count - 1]
    if let rejectedColumn {
      // A prefix handed on early may end in the `\r` that turns out to end its line.
      require(
        raw[lines.count - 1].starts(with: last), "a rejected line is not a prefix of its line")
      let wholeColumn = whole.withUnsafeBufferPointer { buffer -> Int? in
        do throws(KeyTextError) {
          _ = try ScriptLine(buffer)
          return nil
        } catch {
          return error.column
        }
      }
      require(wholeColumn == rejectedColumn, "rejected early at another column")
    } else {
      require(last == whole && lines.count == expected.count, "lines differ at the end")
    }
  }

  /// What a person can see of a session.
  struct State: Equatable {
    /// Every branch, its lines, the current branch and position, as `:save` writes them.
    let script: String
    let state: History.State
    let display: String

    /// What differs between `self` and `other`, one part a line, for a failure's message.
    func difference(from other: State) -> String {
      var parts: [String] = []
      if script != other.script { parts.append("script:\n\(script)\n--- became:\n\(other.script)") }
      if state != other.state { parts.append("state: \(state) became \(other.state)") }
      if display != other.display { parts.append("display: \(display) became \(other.display)") }
      return parts.joined(separator: "\n")
    }

    init(_ interpreter: LineInterpreter) {
      script = SessionScript.text(of: interpreter.session.history)
      state = interpreter.session.state
      display = interpreter.display
    }
  }

  /// Text that parses as keys prints back as the same keys; text that does not names a column
  /// inside it, with the character escaped.
  static func checkKeyText(_ data: UnsafeBufferPointer<UInt8>) {
    do {
      let keys = try KeyText.keys(in: data)
      let reparsed = try KeyText.keys(in: KeyText.text(of: keys))
      require(reparsed == keys, "key text round trip")
    } catch {
      let characters = String(decoding: data, as: UTF8.self).count
      require((1...characters + 1).contains(error.column), "column out of range")
      require(isClean(Array(error.description.utf8), allowingNewlines: false), "raw error")
    }
  }

  /// Whether `bytes` hold no control character (C0, DEL, C1) and no format character (bidi
  /// controls, zero-width characters), except line breaks where allowed.
  static func isClean(_ bytes: [UInt8], allowingNewlines: Bool) -> Bool {
    String(decoding: bytes, as: UTF8.self).unicodeScalars.allSatisfy { scalar in
      if scalar == "\n" { return allowingNewlines }
      switch scalar.properties.generalCategory {
      case .control, .format: return false
      default: return true
      }
    }
  }
}

#if CALC_FUZZ
  /// The fuzz target libFuzzer calls with each input.
  @_cdecl("LLVMFuzzerTestOneInput")
  public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzCheck.check(UnsafeBufferPointer(start: data, count: size))
    return 0
  }

  @_silgen_name("LLVMFuzzerRunDriver")
  func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ target: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
  ) -> Int32

  /// The entry point SwiftPM links as `main` (`--defsym main=calc_fuzz_main`); libFuzzer brings a
  /// `main` of its own that does the same, and Scripts/fuzz.sh lets the linker keep either.
  @_cdecl("calc_fuzz_main")
  public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>)
    -> Int32
  {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments, fuzzOneInput)
  }
#else
  /// Without libFuzzer: replays the files named on the command line through the checks.
  @main enum Replay {
    static func main() {
      for path in CommandLine.arguments.dropFirst() {
        guard let data = FileManager.default.contents(atPath: path) else {
          FileHandle.standardError.write(Data("calc-fuzz: cannot read \(path)\n".utf8))
          exit(66)
        }
        data.withUnsafeBytes { FuzzCheck.check($0.bindMemory(to: UInt8.self)) }
      }
    }
  }
#endif
