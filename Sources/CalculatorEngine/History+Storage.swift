import CalcDecimal

// A branch's storage: its room, its snapshots, whole and light, and finding them.
extension History.Branch {
  /// The index of the last own key before `end` that ends a line, 64 keys at a time.
  func lastLineEnd(before end: Int) -> Int? {
    var index = end
    while index > 0 {
      let word = (index - 1) >> 6
      // The bits of keys word × 64 ..< index.
      let bits =
        index & 63 == 0 ? lineEnds[word] : lineEnds[word] & ((1 << UInt64(index & 63)) - 1)
      if bits != 0 { return word << 6 + 63 - bits.leadingZeroBitCount }
      index = word << 6
    }
    return nil
  }

  /// The index of the first own key in `range` that ends a line, 64 keys at a time.
  func firstLineEnd(in range: Range<Int>) -> Int? {
    var index = range.lowerBound
    while index < range.upperBound {
      let word = index >> 6
      let bits = lineEnds[word] >> UInt64(index & 63)
      if bits != 0 {
        let found = index + bits.trailingZeroBitCount
        return found < range.upperBound ? found : nil
      }
      index = (word + 1) << 6
    }
    return nil
  }

  /// Makes room for `count` more keys, growing the storage by a quarter rather than doubling.
  ///
  /// `append` alone doubles the capacity, which can leave almost as much unused storage as there
  /// are keys: 2.2 bytes per key at 10,000,000 keys, over the 2 that SPEC §7 allows. Growing by a
  /// quarter bounds the slack to 25% and keeps appending amortized O(1).
  @inline(__always)
  mutating func reserveRoom(for count: Int) {
    let needed = codes.count + count
    guard needed > codes.capacity else { return }
    codes.reserveCapacity(max(needed, codes.count + codes.count / 4, 64))
    lineEnds.reserveCapacity((codes.capacity + 63) >> 6)
  }

  /// Reserves room for `keys` more own keys and the whole snapshots between them at once: a
  /// capacity hint (``History/reserveCapacity(forKeys:)``).
  ///
  /// - Complexity: O(n) in the branch's own keys, when the storage moves.
  mutating func reserveCapacity(forKeys keys: Int) {
    codes.reserveCapacity(codes.count + keys)
    lineEnds.reserveCapacity((codes.capacity + 63) >> 6)
    snapshots.reserveCapacity(snapshots.count + keys / History.snapshotInterval + 1)
  }

  /// Gives back the room reserved for keys not typed yet (``reserveRoom(for:)``), for a branch
  /// being left that holds at most ``History/trimLimit`` own keys: copying it costs less than a
  /// jump's replay. A branch of the densest tree SPEC §7 allows (one per 1,000 keys) would keep
  /// about 12% more bytes than its keys otherwise; a longer one keeps its room (at most a
  /// quarter), which saves copying it again each time a line is added after a return to it.
  ///
  /// - Complexity: O(n) in the branch's own keys, at most ``History/trimLimit``.
  mutating func trimRoom() {
    guard codes.count <= History.trimLimit, codes.capacity > codes.count else { return }
    codes = codes.withUnsafeBufferPointer { Array($0) }
    lineEnds = lineEnds.withUnsafeBufferPointer { Array($0) }
    if marks.capacity > marks.count { marks = marks.withUnsafeBufferPointer { Array($0) } }
    if markBytes.capacity > markBytes.count {
      markBytes = markBytes.withUnsafeBufferPointer { Array($0) }
    }
  }

  /// Appends a whole snapshot, growing the array as ``appendLight(_:)`` does.
  mutating func appendSnapshot(_ state: History.State) {
    Self.grow(&snapshots)
    snapshots.append(state)
  }

  /// Appends a light snapshot.
  mutating func appendLight(_ light: History.Light) {
    var light = light
    light.slot = UInt32(snapshotCount)
    Self.grow(&lights)
    lights.append(light)
  }

  /// Makes room for one more element: one at a time up to four, then by a quarter (as
  /// ``reserveRoom(for:)``), so that a branch of a few intervals, as the densest tree SPEC §7
  /// allows has (one branch per 1,000 keys, three snapshots), keeps no unused room.
  @inline(__always)
  static func grow<Element>(_ array: inout [Element]) {
    if array.count == array.capacity {
      array.reserveCapacity(max(array.count + array.count / 4, array.count + 1))
    }
  }

  /// Whether the branch's first snapshot is its parent's state at the fork
  /// (``History/Light/isAtFork``).
  @inline(__always)
  var startsAtFork: Bool {
    guard let first = lights.first else { return false }
    return first.slot == 0 && first.isAtFork
  }

  /// The keys between snapshot `index`'s step and the step whose state it is rebuilt from: 0
  /// for a whole one, ``History/Light/back`` for a light one.
  ///
  /// - Complexity: O(log s), s the light snapshots.
  func back(ofSnapshot index: Int) -> Int {
    var low = 0
    var high = lights.count
    while low < high {
      let middle = (low + high) / 2
      if lights[middle].slot < index { low = middle + 1 } else { high = middle }
    }
    return low < lights.count && lights[low].slot == index ? Int(lights[low].back) : 0
  }

  /// The state of snapshot `index` and the own offset it is at: its step, or for a light one
  /// the step of its restart (below 0 for a branch's first snapshot whose restart lies among
  /// its parent's keys); `Int.min` for a first snapshot at the fork (``startsAtFork``), whose
  /// state is a placeholder.
  @inline(__always)
  func snapshot(_ index: Int) -> (state: History.State, offset: Int) {
    let offset = index * History.snapshotInterval
    if lights.isEmpty { return (snapshots[index], offset) }
    // The first light snapshot at or after `index`.
    var low = 0
    var high = lights.count
    while low < high {
      let middle = (low + high) / 2
      if lights[middle].slot < index { low = middle + 1 } else { high = middle }
    }
    guard low < lights.count, lights[low].slot == index else {
      return (snapshots[index - low], offset)
    }
    let light = lights[low]
    return (light.state, light.isAtFork ? Int.min : offset - Int(light.back))
  }
}
