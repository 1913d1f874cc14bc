/// A sequence of whole numbers kept as a run and a tail: the first ``runCount`` are consecutive
/// (`runStart`, `runStart + 1`, …) and take no memory of their own; the rest, from the first
/// that breaks the run on, are held one by one in the tail.
///
/// What ``LineEndIndex`` keeps a line for (issue 51): a date script's line ends and the
/// ordinals of its steps each rise by one a line, and as arrays they took 12 bytes a line,
/// written once and read far back (a `$N`'s ordinal missed the cache:
/// Documentation/Performance.md, "Date lines, session 22"). Any other sequence costs what an
/// array of it costs, and one comparison more to read or append an element. 48 bytes of its
/// own, against an array's 8.
struct RunPrefixed<Element: FixedWidthInteger & Sendable>: Sendable {
  /// The number of elements at the start that are consecutive.
  private(set) var runCount = 0
  /// The first of them (when there is one).
  private var runStart = 0
  /// The elements after them; a slice, so that a prefix shares it
  /// (``prefix(_:)``).
  private var tail: ArraySlice<Element> = []

  /// No elements.
  init() {}

  /// `elements` as they are, without a run: sharing their storage.
  init(slice elements: ArraySlice<Element>) { tail = elements }

  /// `elements`, in order.
  ///
  /// - Complexity: O(n).
  init(_ elements: some Sequence<Int>) {
    for element in elements { append(element) }
  }

  /// The number of elements.
  var count: Int { runCount + tail.count }

  /// Whether there is no element.
  var isEmpty: Bool { runCount == 0 && tail.isEmpty }

  /// The element at `offset` (within `0..<count`).
  @inline(__always)
  subscript(offset: Int) -> Int {
    offset < runCount ? runStart &+ offset : Int(tail[tail.startIndex + offset - runCount])
  }

  /// Appends `element`, which `Element` holds when it does not continue the run (a negative
  /// one starts none).
  @inline(__always)
  mutating func append(_ element: Int) {
    if tail.isEmpty, element >= 0 {
      if runCount == 0 {
        (runStart, runCount) = (element, 1)
        return
      }
      if element == runStart &+ runCount {
        runCount += 1
        return
      }
    }
    tail.append(Element(truncatingIfNeeded: element))
  }

  /// The first `count` elements (at most as many as there are), sharing the tail's storage.
  func prefix(_ count: Int) -> RunPrefixed {
    var prefix = self
    prefix.runCount = min(max(0, count), runCount)
    prefix.tail = tail.prefix(max(0, count - prefix.runCount))
    return prefix
  }
}
