import CalcDecimal

extension History {
  /// A restart mark: the own offset of a branch right after a restart (AC in Scientific or
  /// Programmer mode, `sci`, `prog`; ``History/prelude(after:_:)``) and where its state is
  /// encoded among the branch's ``Branch/markBytes``.
  ///
  /// A jump replays from the last mark at or before its step when that lies after the start of
  /// the interval's snapshot (``History/state(at:)``): on the Scientific stream, restarts come
  /// every ~140 keys, so a jump replays fewer keys at the median (calc-bench `--streams`). A mark
  /// is 8 bytes and its state 2 bytes, and the memory register when it changed since the mark
  /// before (``encode(_:into:)``); marks lie at least ``markSpacing`` keys apart. A settling
  /// mark (``Branch/appendMark(at:_:settling:)``) stands at the start of a Scientific line that
  /// begins with a number and its operator after a settled `=`, and serves the steps after
  /// those keys; its settling keys share the state's second byte with the word size.
  struct Mark: Hashable, Sendable {
    /// The own offset after the restart key: the replay starts with the key at this index.
    var offset: UInt32
    /// The index of the mark's first byte in ``Branch/markBytes``.
    var byte: UInt32
  }

  /// How a mark's memory register is kept (bits 6–7 of its first byte).
  enum MarkMemory: UInt8 {
    /// The memory is empty.
    case empty = 0
    /// The memory is the mark before's (a chain of at most ``markMemoryChain`` marks).
    case previous = 1
    /// The memory follows, encoded (``encode(_:into:)``).
    case inline = 2
  }

  /// The fewest keys between two marks: a stream that restarts at every line keeps a mark per
  /// 48 keys at most, 10 bytes (28 with a changed
  /// memory that is a decimal; a fraction's limbs take up to 5 bytes each), under 0.6 bytes a key.
  static let markSpacing = 48

  /// The fewest keys between a settling mark that keeps no memory of its own and the mark
  /// before it: 10 bytes per 24 keys at most, under 0.42 bytes a key.
  static let settlingSpacing = 24

  /// The most marks in a row that refer to the mark before for their memory: decoding walks
  /// back at most this far.
  static let markMemoryChain = 16

  /// Appends `value` to `bytes`, compactly (``Number/encode(into:)``: a kind byte, then for a
  /// decimal a varint of the zigzagged exponent, twice, plus the sign, and the coefficient as a
  /// varint, 1 byte for 0–127 and 17 for 34 digits; a fraction's limbs).
  static func encode(_ value: Number, into bytes: inout [UInt8]) {
    value.encode(into: &bytes)
  }

  /// The value encoded at `index` of `bytes` (``encode(_:into:)``), and the index after it.
  static func decodeNumber(_ bytes: [UInt8], at index: Int) -> (Number, Int) {
    Number.decode(bytes, at: index)
  }

  /// Whether `a` and `b` are the same value digit for digit (`1.5` is not `1.50`), as a state
  /// keeps it.
  static func identical(_ a: Number?, _ b: Number?) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    guard let x = a.shortDecimal, let y = b.shortDecimal else { return a == b }
    return a.isRounded == b.isRounded && x.coefficient == y.coefficient
      && x.exponent == y.exponent && x.isNegative == y.isNegative
  }
}

extension History.Branch {
  /// Appends a mark at own offset `offset`, whose state is `light`'s (``History/Light/state``),
  /// unless the last mark lies fewer than ``History/markSpacing`` keys before it.
  ///
  /// A *settling* mark (`settling` > 0, fewer than ``History/markSpacing``) stands for a line
  /// that starts a new number after a settled Scientific state (``ScientificBrain/isSettled``):
  /// `light`'s state is not the state at `offset`, but replaying the line's first `settling`
  /// keys (the number and its operator) from either gives the same state, so the mark serves
  /// only steps from `offset + settling` on (``lastMark(atOrBefore:)``). One that keeps no
  /// memory of its own (10 bytes) needs only ``History/settlingSpacing`` keys after the last.
  mutating func appendMark(at offset: Int, _ light: History.Light, settling: Int = 0) {
    var kept = History.MarkMemory.inline
    if light.memory == nil {
      kept = .empty
    } else if !marks.isEmpty, History.identical(memory(ofMark: marks.count - 1), light.memory) {
      // A chain of marks that refer back stays short: decoding walks it.
      var chain = 1
      var index = marks.count - 1
      while index >= 0, chain < History.markMemoryChain,
        markBytes[Int(marks[index].byte)] >> 6 == History.MarkMemory.previous.rawValue
      {
        chain += 1
        index -= 1
      }
      if chain < History.markMemoryChain { kept = .previous }
    }
    if let last = marks.last {
      let spacing =
        settling > 0 && kept != .inline ? History.settlingSpacing : History.markSpacing
      if offset - Int(last.offset) < spacing { return }
    }
    Self.grow(&marks)
    marks.append(History.Mark(offset: UInt32(offset), byte: UInt32(markBytes.count)))
    Self.growBytes(&markBytes, by: 20)
    markBytes.append(light.prelude | light.angleUnit.rawValue << 4 | kept.rawValue << 6)
    markBytes.append(light.wordSize.rawValue | UInt8(settling) << 2)
    if kept == .inline, let value = light.memory { History.encode(value, into: &markBytes) }
  }

  /// Makes room for `count` more bytes, growing by a quarter (as ``reserveRoom(for:)``).
  @inline(__always)
  static func growBytes(_ bytes: inout [UInt8], by count: Int) {
    if bytes.count + count > bytes.capacity {
      bytes.reserveCapacity(max(bytes.count + bytes.count / 4, bytes.count + count))
    }
  }

  /// The memory register of mark `index`.
  ///
  /// - Complexity: O(``History/markMemoryChain``).
  func memory(ofMark index: Int) -> Number? {
    var index = index
    while true {
      let at = Int(marks[index].byte)
      switch markBytes[at] >> 6 {
      case History.MarkMemory.empty.rawValue: return nil
      case History.MarkMemory.previous.rawValue: index -= 1
      default: return History.decodeNumber(markBytes, at: at + 2).0
      }
    }
  }

  /// The last mark at or before own offset `offset` that serves it, if any: a settling mark
  /// (``appendMark(at:_:settling:)``) serves the steps from its offset plus its settling keys,
  /// and the mark before it (whose own steps end at its offset) the steps before those.
  ///
  /// - Complexity: O(log m), m the branch's marks.
  @inline(__always)
  func lastMark(atOrBefore offset: Int) -> (offset: Int, index: Int)? {
    guard let first = marks.first, Int(first.offset) <= offset else { return nil }
    var low = 0
    var high = marks.count - 1
    // Invariant: marks[low].offset <= offset.
    while low < high {
      let middle = (low + high + 1) / 2
      if Int(marks[middle].offset) <= offset { low = middle } else { high = middle - 1 }
    }
    if Int(marks[low].offset) + settling(ofMark: low) > offset {
      guard low > 0 else { return nil }
      low -= 1
    }
    return (Int(marks[low].offset), low)
  }

  /// The settling keys of mark `index`: 0 for a mark at a restart, whose state is the state at
  /// its offset (``appendMark(at:_:settling:)``).
  @inline(__always)
  func settling(ofMark index: Int) -> Int {
    Int(markBytes[Int(marks[index].byte) + 1] >> 2)
  }

  /// The light snapshot that mark `index` stands for (its ``History/Light/state`` is the
  /// state at the mark).
  ///
  /// - Complexity: O(``History/markMemoryChain``).
  func markLight(_ index: Int) -> History.Light {
    let at = Int(marks[index].byte)
    var light = History.Light(atForkBack: 0)
    light.prelude = markBytes[at] & 0x0F
    light.angleUnit = AngleUnit(rawValue: markBytes[at] >> 4 & 3)!
    light.wordSize = Key.WordSize(rawValue: markBytes[at + 1] & 3)!
    light.memory = memory(ofMark: index)
    return light
  }
}
