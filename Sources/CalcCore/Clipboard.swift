/// How `:copy` puts a number on the clipboard (SPEC §6), chosen from the environment: inside
/// tmux through `tmux load-buffer -w -`, inside GNU screen with OSC 52 wrapped in DCS, elsewhere
/// with OSC 52 straight to the terminal.
///
/// calc cannot see whether a terminal honours OSC 52, so it reports what it sent, never that
/// the number arrived.
public enum Clipboard: Sendable {
  /// OSC 52 straight to the terminal.
  case terminal
  /// Inside tmux (`TMUX` set): `load` is given the number and says whether tmux took it
  /// (`tmux load-buffer -w -`, which sets tmux's buffer and the outer terminal's clipboard).
  case tmux(load: @Sendable (String) -> Bool)
  /// Inside GNU screen (`STY` set): OSC 52 in a DCS string, which screen passes on.
  case screen

  /// What copying `text` writes to the terminal, and the words that report it (`sent to the
  /// terminal's clipboard`).
  func copy(_ text: String) -> (sequence: String, report: String) {
    let osc52 = Terminal.clipboard(base64: Self.base64(Array(text.utf8)))
    switch self {
    case .terminal:
      return (osc52, "sent to the terminal's clipboard")
    case .screen:
      return (Terminal.screenPassthrough(osc52), "sent to the terminal's clipboard through screen")
    case .tmux(let load):
      if load(text) { return ("", "copied to tmux's buffer and sent to the terminal's clipboard") }
      return (
        Terminal.tmuxPassthrough(osc52),
        "sent to the terminal's clipboard (tmux load-buffer failed; tmux passes it on only with allow-passthrough)"
      )
    }
  }

  /// `bytes` in Base64 (RFC 4648, with `=` padding), as OSC 52 takes them.
  ///
  /// - Complexity: O(n) in the bytes.
  static func base64(_ bytes: [UInt8]) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    var result: [UInt8] = []
    result.reserveCapacity((bytes.count + 2) / 3 * 4)
    var index = 0
    while index < bytes.count {
      let count = min(3, bytes.count - index)
      var group = UInt32(bytes[index]) << 16
      if count > 1 { group |= UInt32(bytes[index + 1]) << 8 }
      if count > 2 { group |= UInt32(bytes[index + 2]) }
      for position in 0..<4 {
        let sextet = Int((group >> UInt32(18 - 6 * position)) & 0x3F)
        result.append(position <= count ? alphabet[sextet] : UInt8(ascii: "="))
      }
      index += 3
    }
    return String(decoding: result, as: UTF8.self)
  }
}
