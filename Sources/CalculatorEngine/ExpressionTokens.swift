/// Scientific mode's expression line (``ScientificBrain/Token``s in a ``TokenLine``).
package typealias ExpressionTokens = TokenLine<ScientificBrain.Token>

/// Programmer mode's expression line (``ProgrammerBrain/Token``s in a ``TokenLine``).
package typealias ProgrammerTokens = TokenLine<ProgrammerBrain.Token>

/// A token of an expression line that ``TokenLine`` holds: it knows its `(`, which leading the
/// line is only counted.
package protocol LineToken: Hashable, Sendable {
  /// The opening bracket, `(`.
  static var open: Self { get }
  /// Whether this is ``open``.
  var isOpen: Bool { get }
}

/// An expression line's tokens (Scientific or Programmer mode's) as a persistent sequence: a
/// copy costs O(1) and shares all but the last few tokens with the original, whatever the line's
/// length.
///
/// The tokens live in chunks of ``chunkSize``, each pointing at the chunk before it; only the last
/// chunk (the tip) is ever changed, and only in place when no other copy holds it (else it is
/// copied first, at most ``chunkSize`` tokens). So the expression line that a brain shows, the
/// one it collects, a history's snapshot and a copy of the state for a preview all share one
/// line's storage, and a key costs the same at the end of a 2 MB line as at the start of a line
/// (SPEC §7, "Long lines"). Every chunk but the tip is full.
///
/// The `(` that lead the line are only counted: an operator replaced by one of higher precedence
/// brackets everything before it (`1-2+*` → `(1 - 2) ×`), and a line of such replacements would
/// otherwise insert at its start again and again.
///
/// It is `@unchecked Sendable` because its chunks are `ManagedBuffer`s, which the standard
/// library does not let be `Sendable`; a chunk that two copies share is never changed.
package struct TokenLine<Token: LineToken>: @unchecked Sendable {
  /// The chunks of every kind of line are one class (``TokenChunk``), holding the tokens' bytes.
  typealias Chunk = TokenChunk

  /// The most tokens a chunk holds: what a change after a copy copies at most.
  package static var chunkSize: Int { TokenChunk.chunkSize }

  /// The last chunk; `nil` when no token follows the leading `(`.
  private var tip: Chunk?
  /// How many `(` lead the line, before the chunks' tokens (which never start with one).
  private var opens = 0
  /// The number of tokens.
  package private(set) var count = 0

  /// An empty line.
  package init() {}

  /// A line of `tokens`.
  ///
  /// - Complexity: O(n).
  package init(_ tokens: some Sequence<Token>) {
    for token in tokens { append(token) }
  }

  /// Whether the line has no tokens.
  package var isEmpty: Bool { count == 0 }

  /// Whether this is `other` unchanged: the same chunks and count (a change that keeps the
  /// count in place, such as an operator replacing the last, is not seen; a line equal to
  /// `other` but built apart is not identical).
  func isIdentical(to other: Self) -> Bool {
    tip === other.tip && opens == other.opens && count == other.count
  }

  /// The last token.
  package var last: Token? { tip?.last(Token.self) ?? (opens > 0 ? .open : nil) }

  /// The tip, uniquely held and with room for another token (a new chunk when it is full).
  private mutating func writableTip() -> Chunk {
    if (tip?.count ?? Self.chunkSize) == Self.chunkSize {
      return Chunk.make(previous: tip, copying: UnsafeBufferPointer<Token>(start: nil, count: 0))
    }
    var chunk = tip.take()!
    if !isKnownUniquelyReferenced(&chunk) { chunk = chunk.copy(Token.self) }
    return chunk
  }

  /// Appends `token`.
  ///
  /// - Complexity: O(1), or O(``chunkSize``) when a copy shares the tip.
  package mutating func append(_ token: Token) {
    if tip == nil, token.isOpen {
      opens += 1
      count += 1
      return
    }
    let chunk = writableTip()
    chunk.append(token)
    tip = chunk
    count += 1
  }

  /// Removes the tokens from `index` on; nothing when `index` is not within `0...count`.
  ///
  /// - Complexity: O(k / ``chunkSize`` + ``chunkSize``), k the tokens removed.
  package mutating func removeSubrange(from index: Int) {
    guard index >= 0, index <= count else { return }
    if index <= opens {
      (tip, opens, count) = (nil, index, index)
      return
    }
    while count > index, var chunk = tip.take() {
      let held = chunk.count
      if count - held >= index {
        tip = chunk.previous
        count -= held
        continue
      }
      if !isKnownUniquelyReferenced(&chunk) { chunk = chunk.copy(Token.self) }
      chunk.removeLast(count - index, of: Token.self)
      count = index
      tip = chunk
    }
  }

  /// Inserts `token` at `index` (clamped to `0...count`).
  ///
  /// - Complexity: O(k + ``chunkSize``), k the tokens after `index`; O(1) for a `(` among the
  ///   leading ones.
  package mutating func insert(_ token: Token, at index: Int) {
    let index = Swift.max(0, Swift.min(index, count))
    if index <= opens, token.isOpen {
      opens += 1
      count += 1
      return
    }
    let after = suffix(count - index)
    removeSubrange(from: index)
    append(token)
    for moved in after { append(moved) }
  }

  /// The last `k` tokens (all of them when there are fewer), in order.
  ///
  /// - Complexity: O(k + ``chunkSize``).
  package func suffix(_ k: Int) -> [Token] {
    let k = Swift.max(0, Swift.min(k, count))
    if k > count - opens {
      return [Token](repeating: Token.open, count: k - (count - opens))
        + suffix(count - opens)
    }
    var chunks: [Chunk] = []
    var covered = 0
    var chunk = tip
    while covered < k, let current = chunk {
      chunks.append(current)
      covered += current.count
      chunk = current.previous
    }
    var result: [Token] = []
    result.reserveCapacity(k)
    var skip = covered - k
    for current in chunks.reversed() {
      if skip >= current.count {
        skip -= current.count
        continue
      }
      current.withTokens(Token.self) { result.append(contentsOf: $0[skip...]) }
      skip = 0
    }
    return result
  }

  /// The chunks from the first to the tip.
  ///
  /// - Complexity: O(n / ``chunkSize``).
  private var chunks: [Chunk] {
    var chunks: [Chunk] = []
    chunks.reserveCapacity((count - opens + Self.chunkSize - 1) / Self.chunkSize)
    var chunk = tip
    while let current = chunk {
      chunks.append(current)
      chunk = current.previous
    }
    chunks.reverse()
    return chunks
  }

  /// The heap bytes of this line's chunks, counted as if it shared none: per chunk an object
  /// header of two words, two fields, and room for ``chunkSize`` tokens.
  ///
  /// - Complexity: O(n / ``chunkSize``).
  var heapBytes: Int {
    var bytes = 0
    var chunk = tip
    while let current = chunk {
      bytes += 32 + Self.chunkSize * MemoryLayout<Token>.stride
      chunk = current.previous
    }
    return bytes
  }
}

extension TokenLine: Sequence {
  /// Iterates the tokens in order.
  package struct Iterator: IteratorProtocol {
    var opens: Int
    let chunks: [Chunk]
    var chunkIndex = 0
    var tokenIndex = 0

    package mutating func next() -> Token? {
      if opens > 0 {
        opens -= 1
        return .open
      }
      while chunkIndex < chunks.count {
        let chunk = chunks[chunkIndex]
        if tokenIndex < chunk.count {
          defer { tokenIndex += 1 }
          return chunk.withTokens(Token.self) { $0[tokenIndex] }
        }
        chunkIndex += 1
        tokenIndex = 0
      }
      return nil
    }
  }

  /// - Complexity: O(n / ``chunkSize``) to start.
  package func makeIterator() -> Iterator { Iterator(opens: opens, chunks: chunks) }

  package var underestimatedCount: Int { count }
}

extension TokenLine: Hashable {
  /// Whether two lines hold the same tokens; chunks that both share end the comparison there.
  ///
  /// - Complexity: O(n) in the tokens after the last chunk both share; O(1) for a copy.
  package static func == (lhs: TokenLine, rhs: TokenLine) -> Bool {
    // Leading `(` are always counted, never chained: equal lines count as many.
    guard lhs.count == rhs.count, lhs.opens == rhs.opens else { return false }
    // Every chunk but the tip is full, so the two chains' chunks cover the same positions.
    var a = lhs.tip
    var b = rhs.tip
    while let x = a, let y = b {
      if x === y { return true }
      let same = x.withTokens(Token.self) { a in
        y.withTokens(Token.self) { b in a.elementsEqual(b) }
      }
      if !same { return false }
      a = x.previous
      b = y.previous
    }
    return a == nil && b == nil
  }

  /// Hashes the count and the last token: equal lines hash alike, in O(1).
  package func hash(into hasher: inout Hasher) {
    hasher.combine(count)
    hasher.combine(last)
  }
}

extension TokenLine: ExpressibleByArrayLiteral {
  package init(arrayLiteral tokens: Token...) {
    self.init(tokens)
  }
}

/// A run of at most ``TokenLine/chunkSize`` tokens of one kind (stored in the object itself:
/// one allocation a chunk) and the chunk before it.
///
/// It is not generic, so that releasing a chain costs no lookup of a generic class's metadata
/// (a generic chunk's `deinit` spent a fifth of a 2 MB line's time there); the tokens are
/// trivial values (no references: ``TokenLine`` checks it), held as their bytes, so a chunk
/// never deinitializes them. Shared chunks are never changed (a change first copies a chunk
/// that is not uniquely referenced), which is what makes chunks safe to share between threads.
final class TokenChunk: ManagedBuffer<TokenChunk.Header, SIMD2<UInt64>> {
  struct Header {
    /// Changed only by ``deinit``, which lets go of the chain one chunk at a time.
    var previous: TokenChunk?
    var count: Int
  }

  /// The most tokens a chunk holds.
  static let chunkSize = 16

  /// The storage units that hold `TokenLine.chunkSize` tokens of `Token`.
  private static func units<Token>(_: Token.Type) -> Int {
    let unit = MemoryLayout<SIMD2<UInt64>>.stride
    return (chunkSize * MemoryLayout<Token>.stride + unit - 1) / unit
  }

  /// A chunk after `previous` holding `tokens` (at most ``TokenLine/chunkSize``).
  static func make<Token>(previous: TokenChunk?, copying tokens: UnsafeBufferPointer<Token>)
    -> TokenChunk
  {
    precondition(
      _isPOD(Token.self) && MemoryLayout<Token>.alignment <= MemoryLayout<SIMD2<UInt64>>.alignment,
      "a chunk holds trivial tokens")
    let chunk = unsafeDowncast(
      TokenChunk.create(minimumCapacity: units(Token.self)) { _ in
        Header(previous: previous, count: tokens.count)
      }, to: TokenChunk.self)
    chunk.withUnsafeMutablePointerToElements { units in
      let elements = UnsafeMutableRawPointer(units).bindMemory(to: Token.self, capacity: chunkSize)
      if let base = tokens.baseAddress { elements.initialize(from: base, count: tokens.count) }
    }
    return chunk
  }

  /// Lets go of the chain before this chunk iteratively: releasing a 2 MB line's chain of
  /// 100,000 chunks recursively, each release freeing the next, overflowed the stack.
  deinit {
    var next = withUnsafeMutablePointerToHeader { $0.pointee.previous.take() }
    while var chunk = next.take() {
      // A chunk another line still holds stays, with the chain before it.
      guard isKnownUniquelyReferenced(&chunk) else { break }
      next = chunk.withUnsafeMutablePointerToHeader { $0.pointee.previous.take() }
    }
  }

  var previous: TokenChunk? { header.previous }
  var count: Int { header.count }

  /// The tokens, for reading; `Token` is the type the chunk was made with.
  func withTokens<Token, R>(_: Token.Type, _ body: (UnsafeBufferPointer<Token>) throws -> R)
    rethrows -> R
  {
    try withUnsafeMutablePointers { header, units in
      let elements = UnsafeMutableRawPointer(units).assumingMemoryBound(to: Token.self)
      return try body(UnsafeBufferPointer(start: elements, count: header.pointee.count))
    }
  }

  /// A copy of the chunk, sharing the chunk before it.
  func copy<Token>(_: Token.Type) -> TokenChunk {
    withTokens(Token.self) { TokenChunk.make(previous: previous, copying: $0) }
  }

  /// Appends `token`; the chunk must have room and be uniquely referenced.
  func append<Token>(_ token: Token) {
    withUnsafeMutablePointers { header, units in
      let elements = UnsafeMutableRawPointer(units).assumingMemoryBound(to: Token.self)
      (elements + header.pointee.count).initialize(to: token)
      header.pointee.count += 1
    }
  }

  /// Removes the last `k` tokens (trivial: nothing to deinitialize); the chunk must be uniquely
  /// referenced.
  func removeLast<Token>(_ k: Int, of _: Token.Type) {
    withUnsafeMutablePointerToHeader { $0.pointee.count -= k }
  }

  /// The last token.
  func last<Token>(_: Token.Type) -> Token? {
    withTokens(Token.self) { $0.last }
  }
}
