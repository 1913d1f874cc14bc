import CalcDecimal
import CalcTestSupport
import Testing

@testable import CalculatorEngine

/// SPEC §10's own examples and departures, the mode-dependent case rule, and properties of
/// Programmer mode against a small model of two's complement arithmetic.
@Suite struct ProgrammerModeTests {

  /// The session after `text`, one line of keys applied after `prog` (a line of its own).
  static func session(_ text: String) throws -> Session {
    var session = Session()
    try session.perform(.keys([.mode(.programmer)]))
    try session.perform(.keys(try KeyText.keys(in: text, startingIn: .programmer)))
    return session
  }

  static let english = DisplayFormat(localeIdentifier: "en_US")

  /// SPEC §10's examples: keys (after `prog`), the display on a terminal (en_US).
  static let examples: [(String, String)] = [
    ("9223372036854775807+1=", "-9,223,372,036,854,775,808"),
    ("byte 127+1=", "-128"),
    ("1/0=", "Cannot divide by zero"),
    ("0/0=", "Result is undefined"),
    ("7~mod3=", "-1"),
    ("5 mod 0=", "Result is undefined"),
    ("1 lsh 64=", "Result not defined"),
    ("1 lsh 1~=", "Result not defined"),
    ("byte 1 lsh 8=", "Result not defined"),
    ("123456789 hex", "75B CD15"),
    ("2 and 3+4=", "2"),
    ("1+1 lsh 2=", "5"),
    ("5 not", "-6"),
    ("12 hex 3", "3"),
    ("300 byte", "44"),
    ("byte 5~ word", "-5"),
    ("byte 255", "25"),
    ("hex A~1", "1"),
    ("1 rorc 1/0= 0 rolc", "0"),
    ("5+bit0=", "9"),
    ("1/0= bit3", "8"),
    ("1/0= hex F", "F"),
    ("1/0= +", "Cannot divide by zero"),
    ("1/0= not", "Cannot divide by zero"),
    ("1/0= (", "Cannot divide by zero"),
    ("1/0= <", "Cannot divide by zero"),
    ("1/0= ms", "Cannot divide by zero"),
    ("1/0= byte", "0"),
    ("hex DEC", "DEC"),
    ("hex F ms c mr", "F"),
    ("hex 1C", "1C"),
    ("bit63 rolc ce 1 rolc", "3"),
    ("bit63 rolc c 1 rolc", "2"),
    ("(1 or 2) and 3=", "3"),
    ("2(3)=", "6"),
  ]

  @Test(arguments: examples) func specExample(_ keys: String, _ display: String) throws {
    #expect(Self.english.text(for: try Self.session(keys).state) == display)
  }

  /// `--plain` and pipes: the digits of the radix alone.
  @Test(arguments: [
    ("123456789 hex", "75BCD15"), ("7 bin", "111"), ("5~", "-5"), ("5~ hex", "FFFFFFFFFFFFFFFB"),
    ("byte 5~ oct", "373"),
  ])
  func plainDigits(_ keys: String, _ display: String) throws {
    #expect(DisplayFormat.plain.text(for: try Self.session(keys).state) == display)
  }

  /// The expression line names each shift and rotate, and writes mod `Mod`.
  @Test(arguments: [
    ("5 rshl 1", "5 RshL"), ("5 rsh", "5 Rsh"), ("5 lsh", "5 Lsh"), ("5 rolc", "RoLC(5)"),
    ("5 rorc", "RoRC(5)"), ("5 rol", "RoL(5)"), ("7 mod 3=", "7 Mod 3 ="), ("5+bit0=", "5 + 4 ="),
    ("5 not", "NOT(5)"), ("hex A~", "negate(A)"), ("12+ hex 5", "C +"),
    ("53 nand 83 and", "53 NAND 83 AND"),
  ])
  func expressionLine(_ keys: String, _ line: String) throws {
    #expect(Self.english.expression(for: try Self.session(keys).state) == line)
  }

  /// Keys that Windows would ignore are errors naming the key and the mode.
  @Test(arguments: [
    ("1.5", "'.' is not a key of Programmer mode (Programmer mode holds integers)"),
    ("50%", "'%' is not a key of Programmer mode (Programmer mode holds integers)"),
    ("oct 78", "'8' is not an octal digit"),
    ("bin 12", "'2' is not a binary digit"),
    ("A", "'A' is a hex digit (type hex first)"),
    ("byte bit40", "bit40: a BYTE has bits 0–7"),
    ("9@", "'@' is not a key of Programmer mode (type sci first)"),
    ("30 sin", "'sin' is not a key of Programmer mode (type sci first)"),
    ("2^3", "'^' is not a key of Programmer mode (type sci first)"),
  ])
  func keysWindowsIgnores(_ keys: String, _ message: String) throws {
    var session = Session()
    try session.perform(.keys([.mode(.programmer)]))
    let parsed = try KeyText.keys(in: keys, startingIn: .programmer)
    #expect(throws: SessionError.self) { try session.perform(.keys(parsed)) }
    do {
      try session.perform(.keys(parsed))
    } catch {
      #expect(error.description == message)
    }
    // Nothing of the line was applied.
    #expect(session.history.count == 1)
  }

  /// A Programmer key in another mode says to type `prog` first.
  @Test(arguments: ["hex", "and", "not", "bit3", "rol", "qword"])
  func programmerKeysElsewhere(_ text: String) throws {
    var session = Session()
    let keys = try KeyText.keys(in: "1 " + text)
    #expect(throws: SessionError.self) { try session.perform(.keys(keys)) }
    #expect(
      session.state.keyRejection(in: keys)?.description
        == "'\(text)' is a key of Programmer mode (type prog first)")
  }

  /// The case rule: an upper-case A–F is a hex digit in Programmer mode only.
  @Test func caseRule() throws {
    #expect(try KeyText.keys(in: "C", startingIn: .programmer) == [.programmer(.hexDigit(.c))])
    #expect(try KeyText.keys(in: "c", startingIn: .programmer) == [.command(.clear)])
    #expect(
      try KeyText.keys(in: "DEC", startingIn: .programmer) == [
        .programmer(.hexDigit(.d)), .programmer(.hexDigit(.e)), .programmer(.hexDigit(.c)),
      ])
    #expect(try KeyText.keys(in: "dec", startingIn: .programmer) == [.programmer(.radix(.dec))])
    #expect(
      try KeyText.keys(in: "MS MR", startingIn: .programmer) == [.memory(.store), .memory(.recall)])
    #expect(
      throws: KeyTextError(
        character: "M", column: 1, hint: "the memory keys are ms, mr, m+, m- and mc")
    ) {
      try KeyText.keys(in: "MC", startingIn: .programmer)
    }
    // Nothing changes in the other modes.
    #expect(
      try KeyText.keys(in: "SCI MC AC C") == [
        .mode(.scientific), .memory(.clear), .command(.clear), .command(.clear),
      ])
    #expect(
      try KeyText.keys(in: "sci MC", startingIn: .programmer) == [
        .mode(.scientific), .memory(.clear),
      ])
    // Within a line, `prog` switches the reading.
    #expect(
      try KeyText.keys(in: "prog hex C") == [
        .mode(.programmer), .programmer(.radix(.hex)), .programmer(.hexDigit(.c)),
      ])
    // Maximal munch: `rolc` over `rol`, `qword` over `word`, `bit10`; `rolC` is RoL then C.
    #expect(
      try KeyText.keys(in: "rolc qword bit10", startingIn: .programmer) == [
        .programmer(.rotate(.leftThroughCarry)), .programmer(.wordSize(.qword)),
        .programmer(.bit(.init(10)!)),
      ])
    #expect(
      try KeyText.keys(in: "rolC", startingIn: .programmer) == [
        .programmer(.rotate(.left)), .programmer(.hexDigit(.c)),
      ])
    #expect(try KeyText.keys(in: "rol c") == [.programmer(.rotate(.left)), .command(.clear)])
  }

  /// A writer puts a space after `bitN` before a digit, and between two word keys.
  @Test func keyTextSpacing() throws {
    let keys: [Key] = [
      .programmer(.bit(.init(1)!)), .digit(.zero), .programmer(.rotate(.left)), .command(.clear),
      .programmer(.hexDigit(.f)),
    ]
    #expect(KeyText.text(of: keys) == "bit1 0rol c F")
    #expect(
      try KeyText.keys(in: KeyText.text(of: keys), startingIn: .programmer) == TypedKeys(keys))
  }

  /// The mode key: clears (carry too), returns to DEC, keeps the word size and the memory.
  @Test func modeSwitch() throws {
    let session = try Self.session("byte hex F ms 1 rorc std prog 300")
    let state = session.state
    #expect(state.programmer?.radix == .dec)
    #expect(state.programmer?.wordSize == .byte)
    #expect(state.programmer?.carry == false)
    #expect(Self.english.text(for: state) == "30")
    #expect(state.memory == Number(15))
    // Memory holds exact values, shown truncated to the word.
    #expect(Self.english.text(for: try Self.session("std 2.5 ms prog mr").state) == "2")
    #expect(Self.english.text(for: try Self.session("std 2.5~ ms prog mr").state) == "-2")
    #expect(Self.english.text(for: try Self.session("255 ms byte mr").state) == "-1")
    #expect(Self.english.text(for: try Self.session("hex FF ms sci mr").state) == "255")
  }

  /// The carry: set by a rotate through it, kept by CE, radix and word-size keys.
  @Test func carry() throws {
    #expect(try Self.session("1 rorc").state.programmer?.carry == true)
    #expect(try Self.session("1 rorc ce hex word").state.programmer?.carry == true)
    #expect(try Self.session("1 rorc c").state.programmer?.carry == false)
    #expect(try Self.session("1 rorc 1/0= 0").state.programmer?.carry == false)
  }

  // MARK: - Properties

  /// A model of two's complement arithmetic in a word: the value as its bit pattern.
  struct Model {
    var bits = 64
    var value: UInt64 = 0
    var carry = false
    var error: String?

    var mask: UInt64 { bits == 64 ? .max : (1 << UInt64(bits)) - 1 }
    func signed(_ pattern: UInt64) -> Int64 {
      let shift = UInt64(64 - bits)
      return Int64(bitPattern: pattern << shift) >> Int64(shift)
    }

    /// `a op b`, or the error it gives.
    mutating func operate(_ a: UInt64, _ key: Key, _ b: UInt64) {
      let (x, y) = (signed(a), signed(b))
      var result: Int64
      switch key {
      case .op(.plus): result = x &+ y
      case .op(.minus): result = x &- y
      case .op(.multiply): result = x &* y
      case .op(.divide):
        if y == 0 {
          error = x == 0 ? "Result is undefined" : "Cannot divide by zero"
          return
        }
        result = x.dividedReportingOverflow(by: y).partialValue
      case .scientific(.binary(.mod)):
        if y == 0 {
          error = "Result is undefined"
          return
        }
        result = x.remainderReportingOverflow(dividingBy: y).partialValue
      case .programmer(.bitwise(.and)): result = x & y
      case .programmer(.bitwise(.or)): result = x | y
      case .programmer(.bitwise(.xor)): result = x ^ y
      case .programmer(.bitwise(.nand)): result = ~(x & y)
      case .programmer(.bitwise(.nor)): result = ~(x | y)
      case .programmer(.shift(let shift)):
        guard y >= 0, y < bits else {
          error = "Result not defined"
          return
        }
        switch shift {
        case .left: result = Int64(bitPattern: a << UInt64(y))
        case .right: result = x >> y
        case .logicalRight: result = Int64(bitPattern: a >> UInt64(y))
        }
      default: fatalError("not a binary key")
      }
      value = UInt64(bitPattern: result) & mask
    }

    mutating func unary(_ key: Key) {
      guard error == nil else { return }
      let top: UInt64 = 1 << UInt64(bits - 1)
      switch key {
      case .programmer(.not): value = ~value & mask
      case .programmer(.rotate(.left)): value = (value << 1 | (value & top != 0 ? 1 : 0)) & mask
      case .programmer(.rotate(.right)): value = value >> 1 | (value & 1 != 0 ? top : 0)
      case .programmer(.rotate(.leftThroughCarry)):
        let out = value & top != 0
        value = (value << 1 | (carry ? 1 : 0)) & mask
        carry = out
      case .programmer(.rotate(.rightThroughCarry)):
        let out = value & 1 != 0
        value = value >> 1 | (carry ? top : 0)
        carry = out
      default: fatalError("not a unary key")
      }
    }

    mutating func setWord(_ size: Key.WordSize) {
      if error != nil {
        error = nil
        value = 0
      }
      let extended = signed(value)
      bits = size.bits
      value = UInt64(bitPattern: extended) & mask
    }
  }

  static let binaryKeys: [Key] =
    Key.Op.allCases.map { .op($0) } + [.scientific(.binary(.mod))]
    + Key.Bitwise.allCases.map { .programmer(.bitwise($0)) }
    + Key.Shift.allCases.map { .programmer(.shift($0)) }
  static let unaryKeys: [Key] =
    [.programmer(.not)] + Key.Rotate.allCases.map { .programmer(.rotate($0)) }

  /// The hex digits of `value` as keys.
  static func hexKeys(_ value: UInt64) -> [Key] {
    String(value, radix: 16, uppercase: true).map { character in
      let digit = Int(character.hexDigitValue!)
      return digit < 10
        ? .digit(Key.Digit(digit)!)
        : .programmer(.hexDigit(Key.HexDigit(rawValue: UInt8(digit - 10))!))
    }
  }

  /// A random operand in the word: small counts often, so that shifts are defined.
  static func operand(_ random: inout SplitMix64, mask: UInt64) -> UInt64 {
    switch random.below(4) {
    case 0: UInt64(random.below(70))
    case 1: 0
    default: random.next() & mask
    }
  }

  /// Random sessions in HEX, a calculation a line (`A op B =`, then unary keys, then maybe a
  /// word-size key), against the model: wrap, truncating division, shifts, rotates through
  /// the carry, word-size changes; then the session saved and replayed restores the same
  /// state, radix, word size and carry included.
  @Test func randomSessionsAgainstTheModel() throws {
    var random = SplitMix64(state: 0x9E0C_0DE5)
    for _ in 0..<TestSize.count(short: 40, long: 2_000) {
      var session = Session()
      try session.perform(.keys([.mode(.programmer), .programmer(.radix(.hex))]))
      var model = Model()
      for _ in 0..<random.int(1...12) {
        let a = Self.operand(&random, mask: model.mask)
        let b = Self.operand(&random, mask: model.mask)
        let op = Self.binaryKeys[random.below(Self.binaryKeys.count)]
        var line = Self.hexKeys(a) + [op] + Self.hexKeys(b) + [.equal]
        // A digit after an error starts afresh and clears the carry.
        if model.error != nil { model.carry = false }
        model.error = nil
        model.operate(a, op, b)
        for _ in 0..<random.int(0...3) {
          let key = Self.unaryKeys[random.below(Self.unaryKeys.count)]
          line.append(key)
          model.unary(key)
        }
        if random.chance(30) {
          let size = Key.WordSize.allCases[random.below(4)]
          line.append(.programmer(.wordSize(size)))
          model.setWord(size)
        }
        try session.perform(.keys(line))
        let text = KeyText.text(of: line)
        let shown = DisplayFormat.plain.text(for: session.state)
        #expect(shown == model.error ?? String(model.value, radix: 16, uppercase: true), "\(text)")
        #expect(session.state.programmer?.carry == model.carry, "\(text)")
        #expect(session.state.programmer?.wordSize.bits == model.bits, "\(text)")
      }
      var replay = SessionScript.Replay()
      for line in SessionScript.text(of: session.history).split(separator: "\n") {
        try replay.perform(String(line))
      }
      #expect(replay.session.state == session.state)
    }
  }

  /// Random lines of keys in all three modes, each valid where it is applied, survive a
  /// session script's save and replay: the same state after every line, the same text.
  @Test func mixedModeSessionsSurviveSaveAndReplay() throws {
    var random = SplitMix64(state: 0x3_0DE5)
    let keys = Key.allKeys
    for _ in 0..<TestSize.count(short: 25, long: 1_000) {
      var session = Session()
      for _ in 0..<random.int(1...15) {
        var keypad = session.state.keypad
        var line: [Key] = []
        while line.count < random.int(1...8) {
          let key =
            random.chance(20)
            ? .mode(Key.Mode.allCases[random.below(3)]) : keys[random.below(keys.count)]
          var trial = keypad
          if trial.press(key) == nil {
            keypad = trial
            line.append(key)
          }
        }
        try session.perform(.keys(line))
      }
      let text = SessionScript.text(of: session.history)
      var replay = SessionScript.Replay()
      for line in text.split(separator: "\n") {
        try replay.perform(String(line))
      }
      #expect(replay.session.state == session.state, "\(text)")
      #expect(SessionScript.text(of: replay.session.history) == text)
    }
  }
}
