import CalculatorEngine

/// A file name as the system takes it: bytes, which need not be UTF-8.
///
/// A name typed or read from a script is passed to the system exactly as it came, so that a name
/// that is not UTF-8 names that file and no other.
package struct FileName: Hashable, Sendable {
  package let bytes: [UInt8]

  package init(_ bytes: some Sequence<UInt8>) {
    self.bytes = Array(bytes)
  }

  package init(_ text: String) {
    bytes = Array(text.utf8)
  }

  /// The name for messages: control and invisible characters escaped (`\u{1B}`), bytes that are
  /// not UTF-8 as `\x{FF}`.
  package var shown: String {
    var result = ""
    var index = 0
    while index < bytes.count {
      var iterator = bytes[index...].makeIterator()
      var decoder = UTF8()
      if case .scalarValue(let scalar) = decoder.decode(&iterator) {
        result += TextEscaping.escaped(String(scalar))
        index += UTF8.width(scalar)
      } else {
        result += "\\x{\(String(bytes[index], radix: 16, uppercase: true))}"
        index += 1
      }
    }
    return result
  }

  /// The name with `~` or a leading `~/` replaced by `home`, as a shell would.
  package func expandingTilde(home: String?) -> FileName {
    let slash = UInt8(ascii: "/")
    guard let home, bytes.first == UInt8(ascii: "~"), bytes.count == 1 || bytes[1] == slash
    else { return self }
    return FileName(Array(home.utf8) + bytes.dropFirst())
  }

  /// The folder part, up to and including the last `/`; empty for a name without one.
  package var folder: FileName {
    FileName(bytes[..<(bytes.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0)])
  }

  /// Calls `body` with the name as a C string. The name must hold no NUL byte.
  package func withCString<T>(_ body: (UnsafePointer<CChar>) -> T) -> T {
    (bytes + [0]).withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
    }
  }
}

/// Which file a name leads to (links followed): its device and inode.
package struct FileIdentity: Hashable {
  package let device: UInt64
  package let inode: UInt64

  /// The file with these numbers.
  package init(device: UInt64, inode: UInt64) {
    self.device = device
    self.inode = inode
  }
}
