import CalculatorEngine
import Synchronization

/// The files a line may read or write — `:save`, `:tape csv FILE`, `:load` and `:resume` — as
/// the host gives them: the machine's (CalcCLI's `Files.system`), an in-memory folder for tests
/// (``memory(_:)``), or none (``unavailable``, the default of a ``LineInterpreter/Host``).
///
/// The interpreter decides what to write and what to say; these closures only move bytes and
/// replay what they read.
public struct Files: Sendable {
  /// Why a file could not be written.
  package struct WriteFailure: Error {
    /// What went wrong, as a person reads it (`Permission denied`).
    package let reason: String
    /// `nil` when the target is as it was; else the backup holding its old contents, which
    /// could not be written back.
    package var backup: FileName? = nil
    /// Whether there was no file by that name, so that nothing was created (rather than a file
    /// left unchanged).
    package var isNewFile = false

    /// A failure for `reason`, the target unchanged unless `backup` holds its old contents;
    /// `isNewFile` when there was no target.
    package init(reason: String, backup: FileName? = nil, isNewFile: Bool = false) {
      self.reason = reason
      self.backup = backup
      self.isNewFile = isNewFile
    }
  }

  /// The file a name leads to (links followed), or `nil` when there is none.
  package var identity: @Sendable (FileName) -> FileIdentity?
  /// Writes the bytes to the named file, touching nothing else (`:save`, `:tape csv FILE`).
  package var write: @Sendable ([UInt8], FileName) throws(WriteFailure) -> Void
  /// Replays the session file with the name (``SessionFileReplay``): the session, and whether
  /// it is in the format written before SPEC rule 18.
  package var load:
    @Sendable (FileName) throws(LineError) -> (session: Session, isOlderFormat: Bool)
  /// The latest session in the journal folder (the first name) other than the own journal (the
  /// second), replayed.
  package var resume: @Sendable (String?, String?) throws(LineError) -> Resumption

  /// Files given by their operations.
  package init(
    identity: @escaping @Sendable (FileName) -> FileIdentity?,
    write: @escaping @Sendable ([UInt8], FileName) throws(WriteFailure) -> Void,
    load:
      @escaping @Sendable (FileName) throws(LineError) -> (
        session: Session, isOlderFormat: Bool
      ),
    resume: @escaping @Sendable (String?, String?) throws(LineError) -> Resumption
  ) {
    self.identity = identity
    self.write = write
    self.load = load
    self.resume = resume
  }

  /// No files at all: every write and read fails with `no files here`, and `:resume` finds no
  /// earlier session.
  public static let unavailable = Files(
    identity: { _ in nil },
    write: { _, _ throws(WriteFailure) in throw WriteFailure(reason: "no files here") },
    load: { name throws(LineError) in
      throw LineError("cannot load '\(name.shown)': no files here")
    },
    resume: { _, _ throws(LineError) in
      throw LineError("no earlier session to resume: no files here")
    })

  /// Files kept in `folder`, in memory: what is written is kept under its name, a load
  /// replays what is kept, and `:resume` replays the file most recently written in the journal
  /// folder (a session script, as a journal's lines are) other than the own journal.
  public static func memory(_ folder: MemoryFolder) -> Files {
    Files(
      identity: { name in folder.identity(of: name) },
      write: { bytes, name throws(WriteFailure) in
        guard !name.bytes.contains(0) else {
          throw WriteFailure(reason: "file name holds a NUL byte")
        }
        folder.write(bytes, to: name)
      },
      load: { name throws(LineError) in
        guard let bytes = folder.contents(of: name) else {
          throw LineError("cannot load '\(name.shown)': No such file or directory")
        }
        return try SessionFileReplay.replay(bytes, shownPath: name.shown)
      },
      resume: { directory, own throws(LineError) in
        guard let directory else {
          throw LineError("no earlier session to resume: neither XDG_STATE_HOME nor HOME is set")
        }
        let prefix = Array(directory.utf8) + (directory.hasSuffix("/") ? [] : [UInt8(ascii: "/")])
        guard
          let (name, bytes) = folder.latest(where: {
            $0.bytes.starts(with: prefix) && $0.bytes != Array((own ?? "").utf8)
          })
        else {
          throw LineError(
            "no earlier session to resume in '\(TextEscaping.escaped(directory))'")
        }
        let loaded = try SessionFileReplay.replay(bytes, shownPath: name.shown)
        return Resumption(
          session: loaded.session, note: loaded.isOlderFormat ? Resumption.olderFormatNote : nil)
      })
  }
}

/// A folder of files in memory, for ``Files/memory(_:)``: names to contents, each written file
/// with an identity of its own, the order of writing kept.
///
/// Shared by reference (the host's closures and the test that reads what was written), and safe
/// to share between threads.
public final class MemoryFolder: Sendable {
  /// The files by name, with their identities and the order they were last written in.
  private let files = Mutex<
    (contents: [FileName: (bytes: [UInt8], identity: FileIdentity, order: Int)], writes: Int)
  >(([:], 0))

  /// A folder holding `files` (names to contents).
  public init(_ files: [String: String] = [:]) {
    for (name, text) in files.sorted(by: { $0.key < $1.key }) {
      write(Array(text.utf8), to: FileName(name))
    }
  }

  /// The contents of the file `name`, as text; `nil` when there is none.
  public subscript(name: String) -> String? {
    contents(of: FileName(name)).map { String(decoding: $0, as: UTF8.self) }
  }

  /// The names of the files, sorted.
  public var names: [String] {
    files.withLock { $0.contents.keys.map { String(decoding: $0.bytes, as: UTF8.self) }.sorted() }
  }

  /// Keeps `bytes` as the file `name`, replacing what was there (the identity stays).
  func write(_ bytes: [UInt8], to name: FileName) {
    files.withLock { state in
      state.writes += 1
      let identity =
        state.contents[name]?.identity
        ?? FileIdentity(device: 0, inode: UInt64(state.contents.count + 1))
      state.contents[name] = (bytes, identity, state.writes)
    }
  }

  /// The contents of `name`, or `nil` when there is none.
  func contents(of name: FileName) -> [UInt8]? {
    files.withLock { $0.contents[name]?.bytes }
  }

  /// The identity of `name`, or `nil` when there is none.
  func identity(of name: FileName) -> FileIdentity? {
    files.withLock { $0.contents[name]?.identity }
  }

  /// The file written last of those whose names `isIncluded` accepts.
  ///
  /// - Complexity: O(n) in the files.
  func latest(where isIncluded: (FileName) -> Bool) -> (FileName, [UInt8])? {
    files.withLock { state in
      state.contents.filter { isIncluded($0.key) }.max { $0.value.order < $1.value.order }
        .map { ($0.key, $0.value.bytes) }
    }
  }
}

/// What `:resume` found: the session to continue and the sentences that say how it was found.
public struct Resumption: Sendable {
  /// The note for a journal written before SPEC rule 18.
  package static let olderFormatNote =
    "the journal was written before numbers stopped continuing across lines; each of its lines "
    + "now starts a new number"

  /// The session as the journal left it.
  package var session: Session
  /// Which newer journals were skipped, because their calc still runs or because they hold no
  /// session, as a sentence; `nil` when the newest was taken.
  package var skipped: String?
  /// What could not be restored, as a sentence, or `nil` when the whole journal was replayed.
  package var damage: String?
  /// A note (for standard error) about the journal's format, or `nil`.
  package var note: String?

  /// A resumption of `session`, with its sentences.
  package init(
    session: Session, skipped: String? = nil, damage: String? = nil, note: String? = nil
  ) {
    self.session = session
    self.skipped = skipped
    self.damage = damage
    self.note = note
  }

  /// `resumed 9 keys, at step 5 of 9`, with the branches when there are several; `resumed an
  /// empty session`.
  package var summary: String {
    let history = session.history
    let count = history.recordedCount
    let keys = count == 1 ? "1 key" : "\(count) keys"
    if history.isEmpty { return "resumed an empty session" }
    guard history.branchCount > 1 else {
      return "resumed \(keys), at step \(history.position) of \(history.count)"
    }
    return
      "resumed \(keys) on \(history.branchCount) branches, at step \(history.position) of "
      + "\(history.count) on branch \(history.currentBranch)"
  }
}

/// A session file (`:load`) replayed line by line into a fresh session: the one reader of its
/// lines, fed by CalcCLI's `SessionFile.load` from the file and by ``Files/memory(_:)`` from
/// memory.
///
/// Each line is parsed as a script line; its keys and session commands (`:goto`, `:undo`,
/// `:redo`, `:branch`, `:reset`) are performed on the fresh session. A file whose first line
/// names a later format than this calc writes is refused as a whole (`cannot load 'f.calc':
/// written by a newer calc (format 4; …)`); any other line that is neither is refused naming
/// the file, line and column.
package struct SessionFileReplay {
  /// The file's name as messages show it.
  let shownPath: String
  /// The session so far.
  private var replay = SessionScript.Replay()
  /// The lines fed so far.
  package private(set) var lineNumber = 0
  /// Why the file is refused, once a line was.
  package private(set) var failure: LineError?

  /// A replay of the file shown as `shownPath`.
  package init(shownPath: String) {
    self.shownPath = shownPath
  }

  /// Replays `line`, the file's next (without its newline); returns false, with ``failure``
  /// set, when the file is refused.
  package mutating func perform(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    lineNumber += 1
    if lineNumber == 1 {
      // A file from a newer calc is refused as a whole, not at a line of it.
      do throws(LineError) {
        _ = try SessionScript.origin(ofFirstLine: line)
      } catch {
        failure = LineError("cannot load '\(shownPath)': \(error.message)")
        return false
      }
    }
    do throws(LineError) {
      try replay.perform(line, other: Self.refusal)
      return true
    } catch {
      let place = Diagnostic(
        file: shownPath, line: lineNumber, column: error.column, error.message)
      failure = LineError("cannot load '\(shownPath)': \(place.text)")
      return false
    }
  }

  /// The session replayed, with whether it is in the format written before SPEC rule 18.
  package var result: (session: Session, isOlderFormat: Bool) {
    (replay.session, replay.isOlderFormat)
  }

  /// Replays `bytes`, a whole file in memory, split at `\n` (a `\r` before it dropped).
  ///
  /// - Complexity: O(n) in the bytes.
  static func replay(_ bytes: [UInt8], shownPath: String) throws(LineError) -> (
    session: Session, isOlderFormat: Bool
  ) {
    var reading = SessionFileReplay(shownPath: shownPath)
    var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    if bytes.last == UInt8(ascii: "\n") || bytes.isEmpty { lines.removeLast() }
    for var line in lines {
      if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
      let accepted = Array(line).withUnsafeBufferPointer { reading.perform($0) }
      if !accepted, let failure = reading.failure { throw failure }
    }
    return reading.result
  }

  /// Why a directive that is not a session command cannot be in a session file: the error it
  /// has anywhere (an unknown command, a bad argument), or else that it is no session command.
  package static func refusal(_ directive: ScriptLine.Directive) -> LineError {
    do {
      _ = try ParsedCommand(directive)
    } catch {
      return error
    }
    return SessionScript.Replay.notASessionCommand(directive)
  }
}
