@_exported import CalcCore
import CalculatorEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension LineInterpreter.Host {
  /// The process's own: `HOME` and the journal folder (worked out when asked for) from
  /// `environment`, the Ctrl-C flag that the REPL's signal handler sets, the clipboard's route
  /// from `TMUX` and `STY`, and the machine's files.
  ///
  /// `directory`, when given, stands for the current directory: relative file names are taken
  /// in it (``Files/system(in:)``), so that a run in process behaves as one started there.
  public static func system(environment: Environment, directory: String? = nil) -> Self {
    var host = Self(
      home: environment["HOME"], isInterrupted: { Interruption.isRequested },
      clipboard: Clipboard(environment: environment), files: .system(in: directory),
      today: { Self.today(environment: environment) })
    host.findJournalDirectory = { Journal.directory(environment: environment) }
    return host
  }

  /// The local date in ISO form (SPEC §13): `CALC_TODAY` when set (it stands in for the clock,
  /// for tests), else the clock's through `localtime_r` (`TZ`, then `/etc/localtime`).
  static func today(environment: Environment) -> String? {
    if let text = environment["CALC_TODAY"], !text.isEmpty { return text }
    var now = time(nil)
    var parts = tm()
    guard localtime_r(&now, &parts) != nil else { return nil }
    func padded(_ value: Int32, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return padded(parts.tm_year + 1900, 4) + "-" + padded(parts.tm_mon + 1, 2) + "-"
      + padded(parts.tm_mday, 2)
  }
}

/// A stand-in for the current directory: a folder in which relative file names are taken, or
/// `nil` for the process's own (names passed as they are).
///
/// Tests run scripts in process in a temporary folder of their own through it, as a process
/// started there would (the process's current directory is shared by every test at once).
struct WorkingDirectory: Sendable {
  /// The folder's path, without a trailing `/`; `nil` for the process's current directory.
  let path: String?

  /// The folder `path` (`nil`: the process's current directory).
  init(_ path: String?) {
    self.path = path.map { $0.hasSuffix("/") && $0.count > 1 ? String($0.dropLast()) : $0 }
  }

  /// `name` taken in this folder: unchanged when it is absolute, empty, or there is no folder.
  func resolve(_ name: FileName) -> FileName {
    guard let path, let first = name.bytes.first, first != UInt8(ascii: "/") else { return name }
    return FileName(Array(path.utf8) + [UInt8(ascii: "/")] + name.bytes)
  }

  /// `text` with the folder's prefix (`'PATH/`) taken out of quoted names, so that messages name
  /// files as they were given, relative to the folder, as a process started there names them.
  func unresolved(_ text: String) -> String {
    guard let path else { return text }
    return text.replacing("'" + FileName(path).shown + "/", with: "'")
  }

  /// `name` without the folder's prefix, when it has it.
  func unresolved(_ name: FileName) -> FileName {
    guard let path else { return name }
    let prefix = Array(path.utf8) + [UInt8(ascii: "/")]
    return name.bytes.starts(with: prefix) ? FileName(name.bytes.dropFirst(prefix.count)) : name
  }
}

extension Files {
  /// The machine's files (``system``) with relative names taken in `directory` rather than the
  /// process's current directory (``WorkingDirectory``); messages name them as given.
  ///
  /// Edges: a message that quotes an absolute name inside `directory` (a link's target) shows it
  /// relative too; `:resume` takes the journal folder as given (``system``'s).
  /// `nil` is ``system`` itself.
  public static func system(in directory: String?) -> Files {
    guard directory != nil else { return .system }
    let folder = WorkingDirectory(directory)
    return Files(
      identity: { name in Files.system.identity(folder.resolve(name)) },
      write: { bytes, name throws(WriteFailure) in
        do throws(WriteFailure) {
          try Files.system.write(bytes, folder.resolve(name))
        } catch {
          throw WriteFailure(
            reason: folder.unresolved(error.reason), backup: error.backup.map(folder.unresolved),
            isNewFile: error.isNewFile)
        }
      },
      load: { name throws(LineError) in
        do throws(LineError) {
          return try SessionFile.load(folder.resolve(name), shownPath: name.shown)
        } catch {
          throw LineError(folder.unresolved(error.message), column: error.column)
        }
      },
      resume: Files.system.resume)
  }
}
