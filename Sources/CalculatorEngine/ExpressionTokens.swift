/// An expression line's tokens as a persistent sequence: a copy costs O(1) and shares all but the
/// last few tokens with the original, whatever the line's length.
///
/// The tokens live in chunks of ``chunkSize``, each pointing at the chunk before it; only the last
/// chunk (the tip) is ever changed, and only in place when no other copy holds it (else it is
/// copied first, at most ``chunkSize`` tokens). So the expression line that a brain shows, the
/// one it collects, a history's snapshot and a copy of the state for a preview all share one
/// line's storage, and a key costs the same at the end of a 2 MB line as at the start of a line
/// (SPEC §7, "Long lines"). Every chunk but the tip is full: token `i` is in chunk `i / 16`.
public struct ExpressionTokens: Sendable {
  /// A run of at most ``chunkSize`` tokens and the chunk before it.
  ///
  /// Shared chunks are never changed (a change first copies a chunk that is not uniquely
  /// referenced), which is what makes the class safe to share between threads.
  final class Chunk: @unchecked Sendable {
    let previous: Chunk?
    var tokens: [ScientificBrain.Token]

    init(previous: Chunk?, tokens: [ScientificBrain.Token]) {
      self.previous = previous
      self.tokens = tokens
    }
  }

  /// The most tokens a chunk holds: what a change after a copy copies at most.
  public static let chunkSize = 16

  /// The last chunk; `nil` when the line is empty.
  private var tip: Chunk?
  /// The number of tokens.
  public private(set) var count = 0

  /// An empty line.
  public init() {}

  /// A line of `tokens`.
  ///
  /// - Complexity: O(n).
  public init(_ tokens: some Sequence<ScientificBrain.Token>) {
    for token in tokens { append(token) }
  }

  /// Whether the line has no tokens.
  public var isEmpty: Bool { count == 0 }

  /// The last token.
  public var last: ScientificBrain.Token? { tip?.tokens.last }

  /// The tip, uniquely held and with room for another token (a new chunk when it is full).
  private mutating func writableTip() -> Chunk {
    if (tip?.tokens.count ?? Self.chunkSize) == Self.chunkSize {
      let chunk = Chunk(previous: tip, tokens: [])
      chunk.tokens.reserveCapacity(Self.chunkSize)
      return chunk
    }
    var chunk = tip.take()!
    if !isKnownUniquelyReferenced(&chunk) {
      var tokens = [ScientificBrain.Token]()
      tokens.reserveCapacity(Self.chunkSize)
      tokens.append(contentsOf: chunk.tokens)
      chunk = Chunk(previous: chunk.previous, tokens: tokens)
    }
    return chunk
  }

  /// Appends `token`.
  ///
  /// - Complexity: O(1), or O(``chunkSize``) when a copy shares the tip.
  public mutating func append(_ token: ScientificBrain.Token) {
    let chunk = writableTip()
    chunk.tokens.append(token)
    tip = chunk
    count += 1
  }

  /// Removes the tokens from `index` on; nothing when `index` is not within `0...count`.
  ///
  /// - Complexity: O(k / ``chunkSize`` + ``chunkSize``), k the tokens removed.
  public mutating func removeSubrange(from index: Int) {
    guard index >= 0, index <= count else { return }
    while count > index, var chunk = tip.take() {
      let held = chunk.tokens.count
      if count - held >= index {
        tip = chunk.previous
        count -= held
        continue
      }
      if !isKnownUniquelyReferenced(&chunk) {
        chunk = Chunk(previous: chunk.previous, tokens: chunk.tokens)
      }
      chunk.tokens.removeLast(count - index)
      count = index
      tip = chunk
    }
  }

  /// Inserts `token` at `index` (clamped to `0...count`).
  ///
  /// - Complexity: O(k + ``chunkSize``), k the tokens after `index`.
  public mutating func insert(_ token: ScientificBrain.Token, at index: Int) {
    let index = Swift.max(0, Swift.min(index, count))
    let after = suffix(count - index)
    removeSubrange(from: index)
    append(token)
    for moved in after { append(moved) }
  }

  /// The last `k` tokens (all of them when there are fewer), in order.
  ///
  /// - Complexity: O(k + ``chunkSize``).
  public func suffix(_ k: Int) -> [ScientificBrain.Token] {
    let k = Swift.max(0, Swift.min(k, count))
    var chunks: [Chunk] = []
    var covered = 0
    var chunk = tip
    while covered < k, let current = chunk {
      chunks.append(current)
      covered += current.tokens.count
      chunk = current.previous
    }
    var result: [ScientificBrain.Token] = []
    result.reserveCapacity(k)
    var skip = covered - k
    for current in chunks.reversed() {
      if skip >= current.tokens.count {
        skip -= current.tokens.count
        continue
      }
      result.append(contentsOf: current.tokens[skip...])
      skip = 0
    }
    return result
  }

  /// The chunks from the first to the tip.
  ///
  /// - Complexity: O(n / ``chunkSize``).
  private var chunks: [Chunk] {
    var chunks: [Chunk] = []
    chunks.reserveCapacity((count + Self.chunkSize - 1) / Self.chunkSize)
    var chunk = tip
    while let current = chunk {
      chunks.append(current)
      chunk = current.previous
    }
    chunks.reverse()
    return chunks
  }

  /// The heap bytes of this line's chunks, counted as if it shared none: per chunk an object
  /// header of two words and two fields, and its array's header of four words and capacity.
  ///
  /// - Complexity: O(n / ``chunkSize``).
  var heapBytes: Int {
    var bytes = 0
    var chunk = tip
    while let current = chunk {
      bytes += 32 + 32 + current.tokens.capacity * MemoryLayout<ScientificBrain.Token>.stride
      chunk = current.previous
    }
    return bytes
  }
}

extension ExpressionTokens: Sequence {
  /// Iterates the tokens in order.
  public struct Iterator: IteratorProtocol {
    let chunks: [Chunk]
    var chunkIndex = 0
    var tokenIndex = 0

    public mutating func next() -> ScientificBrain.Token? {
      while chunkIndex < chunks.count {
        let tokens = chunks[chunkIndex].tokens
        if tokenIndex < tokens.count {
          defer { tokenIndex += 1 }
          return tokens[tokenIndex]
        }
        chunkIndex += 1
        tokenIndex = 0
      }
      return nil
    }
  }

  /// - Complexity: O(n / ``chunkSize``) to start.
  public func makeIterator() -> Iterator { Iterator(chunks: chunks) }

  public var underestimatedCount: Int { count }
}

extension ExpressionTokens: Hashable {
  /// Whether two lines hold the same tokens; chunks that both share end the comparison there.
  ///
  /// - Complexity: O(n) in the tokens after the last chunk both share; O(1) for a copy.
  public static func == (lhs: ExpressionTokens, rhs: ExpressionTokens) -> Bool {
    guard lhs.count == rhs.count else { return false }
    // Every chunk but the tip is full, so the two chains' chunks cover the same positions.
    var a = lhs.tip
    var b = rhs.tip
    while let x = a, let y = b {
      if x === y { return true }
      if x.tokens != y.tokens { return false }
      a = x.previous
      b = y.previous
    }
    return a == nil && b == nil
  }

  /// Hashes the count and the last token: equal lines hash alike, in O(1).
  public func hash(into hasher: inout Hasher) {
    hasher.combine(count)
    hasher.combine(last)
  }
}

extension ExpressionTokens: ExpressibleByArrayLiteral {
  public init(arrayLiteral tokens: ScientificBrain.Token...) {
    self.init(tokens)
  }
}
