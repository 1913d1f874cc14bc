import Foundation
import Testing

/// The documents hold together: README.md, `Documentation/*.md` and each module's README link only
/// to files (and headings) that exist, name only tests that exist, and the README stays short.
///
/// The link check reads Markdown as GitHub does for the parts these documents use: links outside
/// fenced code blocks and code spans, headings' anchors as GitHub spells them (lower case, spaces as
/// `-`, punctuation dropped). A link with a scheme (`https:`) is not followed.
@Suite struct DocumentationLinksTests {
  /// The Markdown files checked, relative to the repository's root: README.md, every `.md` file
  /// in `Documentation`, `Sources/<Module>/README.md` where there is one, Examples/README.md, and
  /// the benchmark package's (Benchmarks/README.md, `Benchmarks/Sources/<Target>/README.md`).
  static let documents: [String] = {
    let files = FileManager.default
    var paths = ["README.md"]
    let topics = (try? files.contentsOfDirectory(atPath: root("Documentation").path)) ?? []
    paths += topics.filter { $0.hasSuffix(".md") }.sorted().map { "Documentation/\($0)" }
    for sources in ["Sources", "Benchmarks/Sources"] {
      let modules = (try? files.contentsOfDirectory(atPath: root(sources).path)) ?? []
      for module in modules.sorted()
      where files.fileExists(atPath: root("\(sources)/\(module)/README.md").path) {
        paths.append("\(sources)/\(module)/README.md")
      }
    }
    return paths + ["Examples/README.md", "Benchmarks/README.md"]
  }()

  /// The URL of `path`, relative to the repository's root.
  static func root(_ path: String) -> URL {
    repositoryRoot.appendingPathComponent(path)
  }

  /// The contents of a document, or a recorded issue and `nil` when it cannot be read.
  static func contents(_ path: String) -> String? {
    guard let text = try? String(contentsOf: root(path), encoding: .utf8) else {
      Issue.record("cannot read \(path)")
      return nil
    }
    return text
  }

  /// The targets of the links of Markdown `text`, with their 1-based line numbers, leaving out
  /// fenced code blocks and code spans (whose brackets are not links).
  ///
  /// - Complexity: O(n) in the text's length.
  static func links(in text: String) -> [(target: String, line: Int)] {
    var found: [(target: String, line: Int)] = []
    var inFence = false
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    {
      if line.drop(while: { $0 == " " }).hasPrefix("```") {
        inFence.toggle()
        continue
      }
      if inFence { continue }
      var inSpan = false
      let outsideSpans = line.filter { character in
        if character == "`" { inSpan.toggle() }
        return !inSpan && character != "`"
      }
      var rest = Substring(outsideSpans)
      while let open = rest.range(of: "](") {
        let target = rest[open.upperBound...].prefix { $0 != ")" && $0 != " " }
        found.append((String(target), index + 1))
        rest = rest[open.upperBound...]
      }
    }
    return found
  }

  /// The anchors of the headings of Markdown `text`, spelt as GitHub spells them: lower case,
  /// code-span backticks and punctuation dropped, spaces as hyphens (`## The REPL` is `the-repl`).
  /// A repeated heading's anchor is listed once (GitHub's `-1` suffixes are not made).
  ///
  /// - Complexity: O(n) in the text's length.
  static func anchors(in text: String) -> Set<String> {
    var found: Set<String> = []
    var inFence = false
    for line in text.split(separator: "\n") {
      if line.drop(while: { $0 == " " }).hasPrefix("```") { inFence.toggle() }
      guard !inFence, line.hasPrefix("#") else { continue }
      let title = line.drop { $0 == "#" }.drop { $0 == " " }
      var anchor = ""
      for character in title.lowercased() {
        if character == " " {
          anchor.append("-")
        } else if character.isLetter || character.isNumber || character == "-" || character == "_" {
          anchor.append(character)
        }
      }
      found.insert(anchor)
    }
    return found
  }

  /// What is wrong with each relative link of the document at `path` (relative to the
  /// repository's root, whose files are read): a file that does not exist, or a `#heading` that
  /// the named Markdown file does not have. Empty when every link resolves.
  ///
  /// - Complexity: O(n) in the text's length, plus reading each Markdown file a `#` link names.
  static func brokenLinks(in text: String, at path: String) -> [String] {
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().relativePath
    var broken: [String] = []
    for (target, line) in links(in: text) {
      if target.contains("://") || target.hasPrefix("mailto:") { continue }
      let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
      let file = String(parts[0])
      let fragment = parts.count > 1 ? String(parts[1]) : ""
      let resolved = file.isEmpty ? path : (folder == "." ? file : "\(folder)/\(file)")
      let url = root(resolved).standardizedFileURL
      guard FileManager.default.fileExists(atPath: url.path) else {
        broken.append("\(path):\(line): \(target) names no file")
        continue
      }
      guard !fragment.isEmpty, url.pathExtension == "md" else { continue }
      let targetText = file.isEmpty ? text : (try? String(contentsOf: url, encoding: .utf8)) ?? ""
      if !anchors(in: targetText).contains(fragment) {
        broken.append("\(path):\(line): \(target) names no heading of \(url.lastPathComponent)")
      }
    }
    return broken
  }

  @Test func theReadmeStaysShortEnoughToReadInOneSitting() throws {
    let text = try #require(Self.contents("README.md"))
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
    #expect(lines < 400, "README.md has \(lines) lines; move details to Documentation/")
    // No row a reader has to scroll through (the layout table once had one of 1,490 characters).
    let longest = text.split(separator: "\n").map(\.count).max() ?? 0
    #expect(longest <= 200, "README.md has a line of \(longest) characters")
  }

  @Test(arguments: documents)
  func everyRelativeLinkNamesAnExistingFile(document: String) throws {
    let text = try #require(Self.contents(document))
    #expect(Self.brokenLinks(in: text, at: document) == [])
  }

  /// The check itself finds what it must: a link to no file or to no heading, and none in code
  /// (a link to a heading of the document itself is checked against the text given).
  @Test(arguments: [
    ("[a](Documentation/Performance.md)", [String]()),
    ("[a](Documentation/Performance.md#how-to-reproduce)", []),
    ("[a](Documentation/)", []),
    ("## Embedding the engine\n[a](#embedding-the-engine) and [b](https://example.com/no)", []),
    ("`[a](no-such-file.md)` in a code span", []),
    ("```\n[a](no-such-file.md)\n```", []),
    ("[`x`](Sources/CalcCLI/README.md)", []),
    ("line 1\n[a](no-such-file.md)", ["README.md:2: no-such-file.md names no file"]),
    (
      "[a](Documentation/Performance.md#no-such-heading)",
      [
        "README.md:1: Documentation/Performance.md#no-such-heading names no heading of Performance.md"
      ]
    ),
    ("[a](#no-such-heading)", ["README.md:1: #no-such-heading names no heading of README.md"]),
  ])
  func theLinkCheckFindsBrokenLinks(text: String, expected: [String]) {
    #expect(Self.brokenLinks(in: text, at: "README.md") == expected)
  }

  @Test(arguments: [
    ("# The REPL", "the-repl"),
    ("## The screen is always right (SPEC §6)", "the-screen-is-always-right-spec-6"),
    ("## `:save` and links", "save-and-links"),
    ("### Scripts and exit statuses", "scripts-and-exit-statuses"),
  ])
  func headingsAreAnchoredAsGitHubSpellsThem(heading: String, anchor: String) {
    #expect(Self.anchors(in: heading) == [anchor])
  }

  /// Every `SomeTests` and `SomeTests.someTest` a document names is declared in `Tests/` (test
  /// targets' names and `SomeTests.swift` file names aside), so no claim points at a test that is
  /// gone.
  @Test func everyTestTheDocumentsNameExists() throws {
    let files = FileManager.default
    let testsFolder = Self.root("Tests")
    let targets = Set(try files.contentsOfDirectory(atPath: testsFolder.path))
    var types: Set<Substring> = []
    var functions: Set<Substring> = []
    let enumerator = try #require(files.enumerator(atPath: testsFolder.path))
    for case let file as String in enumerator where file.hasSuffix(".swift") {
      let source = try String(
        contentsOf: testsFolder.appendingPathComponent(file), encoding: .utf8)
      let words = source.split { !($0.isLetter || $0.isNumber || $0 == "_") }
      for (keyword, name) in zip(words, words.dropFirst()) {
        if ["struct", "class", "enum", "extension"].contains(keyword) { types.insert(name) }
        if keyword == "func" { functions.insert(name) }
      }
    }
    #expect(types.count > 50 && functions.count > 500 && Self.documents.count > 12)
    for document in Self.documents {
      let text = try #require(Self.contents(document))
      let words = text.split { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") }
      for word in words {
        let parts = word.split(separator: ".")
        guard let suite = parts.first, suite.hasSuffix("Tests"), suite != "Tests",
          suite.first?.isUppercase == true,
          !targets.contains(String(suite))
        else { continue }
        let suiteIsDeclared = types.contains(suite)
        #expect(suiteIsDeclared, "\(document) names \(suite), which Tests/ does not declare")
        if parts.count > 1, parts[1] != "swift" {
          let testIsDeclared = functions.contains(parts[1])
          #expect(testIsDeclared, "\(document) names \(word), whose test Tests/ does not declare")
        }
      }
    }
  }
}
