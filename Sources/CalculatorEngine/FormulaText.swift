/// A formula written for a person: the expression line of a formula line (SPEC §12, "the
/// formula normalised, with `×`, `÷`, `−` and spaces around binary operators": `5 × −2`).
///
/// Numbers are written as typed, names in lower case, `pi` as `π`, `**` as `^`, `ans` as its
/// `$N`, arguments separated by `, `; an implied × stays implied (`2π`, `2(3 + 4)`), with a space
/// only between two letters (`e e`, `mr mr`).
enum FormulaText {
  /// The text of `node`, a formula of `text`; `ans` is `$answer`.
  ///
  /// - Complexity: O(n) in the size of the formula.
  static func normalised(_ node: FormulaNode, in text: String, answer: Int) -> String {
    var writer = Writer(bytes: Array(text.utf8), answer: answer)
    writer.write(node)
    return String(decoding: writer.output, as: UTF8.self)
  }

  private struct Writer {
    let bytes: [UInt8]
    let answer: Int
    var output: [UInt8] = []

    mutating func append(_ text: String) { output.append(contentsOf: text.utf8) }

    mutating func write(_ node: FormulaNode) {
      switch node {
      case .number(let span):
        output.append(contentsOf: bytes[span.range])
      case .constant(let constant):
        append(constant == .pi ? "π" : "e")
      case .memory:
        append("mr")
      case .reference(let line):
        append("$\(line)")
      case .answer:
        append("$\(answer)")
      case .group(let inner, _):
        append("(")
        write(inner)
        append(")")
      case .call(_, let first, let second, let name, _):
        let spelling = String(decoding: bytes[name.range], as: UTF8.self).lowercased()
        append(spelling)
        append("(")
        write(first)
        if let second {
          append(", ")
          write(second)
        }
        append(")")
      case .chain(let first, let links):
        write(first)
        for link in links {
          switch link.op {
          case .plus: append(" + ")
          case .minus: append(" − ")
          case .times: append(" × ")
          case .divide: append(" ÷ ")
          case .mod: append(" mod ")
          case .implied:
            if let last = output.last, isLetter(last), startsWithLetter(link.operand) {
              append(" ")
            }
          }
          write(link.operand)
        }
      case .prefixed(let prefixes, let operand):
        for prefix in prefixes {
          switch prefix {
          case .minus: append("−")
          case .plus: append("+")
          case .root: append("√")
          }
        }
        write(operand)
      case .power(let base, let exponent, _):
        write(base)
        append(" ^ ")
        write(exponent)
      case .postfix(let operand, let postfixes, _):
        write(operand)
        for postfix in postfixes { append(postfix == .factorial ? "!" : "%") }
      }
    }

    private func isLetter(_ byte: UInt8) -> Bool {
      (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    /// Whether the text of `node` starts with a letter (a name).
    private func startsWithLetter(_ node: FormulaNode) -> Bool {
      switch node {
      case .constant(.e), .memory, .call: true
      case .constant(.pi), .number, .reference, .answer, .group, .prefixed: false
      case .chain(let first, _), .power(let first, _, _), .postfix(let first, _, _):
        startsWithLetter(first)
      }
    }
  }
}
