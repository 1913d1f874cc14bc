import Foundation

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

  /// The route for a process started in `environment`: tmux when `TMUX` is set, screen when
  /// `STY` is, else the terminal.
  init(environment: Environment) {
    if let tmux = environment["TMUX"], !tmux.isEmpty {
      self = .tmux(load: {
        Platform.run(["tmux", "load-buffer", "-w", "-"], input: Array($0.utf8))
      })
    } else if let screen = environment["STY"], !screen.isEmpty {
      self = .screen
    } else {
      self = .terminal
    }
  }

  /// What copying `text` writes to the terminal, and the words that report it (`sent to the
  /// terminal's clipboard`).
  func copy(_ text: String) -> (sequence: String, report: String) {
    let osc52 = Terminal.clipboard(base64: Data(text.utf8).base64EncodedString())
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
}
