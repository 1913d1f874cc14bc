import CalcCLI
import CalcTestSupport
import Testing

/// `CalcCommand.quickParse`, the fast path for the everyday command lines, against
/// ArgumentParser: wherever the fast path answers, ArgumentParser gives the same invocation.
@Suite struct ArgumentAgreementTests {
  /// What ArgumentParser makes of `arguments`, with validation; `nil` for a usage error.
  static func parsed(_ arguments: [String]) -> Invocation? {
    try? CalcCommand.parse(arguments).invocation
  }

  /// Argument lists and whether the fast path takes them: the everyday ones must be fast; the
  /// others (help, `--`, repeated options, missing values, errors) are left to ArgumentParser.
  static let table: [(arguments: [String], fast: Bool)] = [
    (["--keys", "12+3="], true),
    (["-k", "12+3="], true),
    (["--keys=12+3="], true),
    (["--plain", "-k", "1000+234="], true),
    (["-k", "1", "--plain", "--trace"], true),
    (["--display", "-k", "1000+234="], true),
    (["--display", "--plain", "-k", "1"], false),
    (["--keys", ""], true),
    (["-k", ""], true),
    (["--keys", "-5="], true),
    (["-k", "-5="], true),
    (["--keys", "--trace"], true),
    (["-k", "--plain"], true),
    (["--keys=--trace"], true),
    (["--keys=a=b"], true),
    (["--trace", "--keys", "1"], true),
    (["--locale", "de_DE", "--keys", "1"], true),
    (["--locale=de_DE", "-k", "1"], true),
    (["--locale", "", "--keys", "1"], true),
    (["--locale=-x", "--keys", "1"], true),
    (["--trace"], true),
    (["--plain", "file.calc"], true),
    (["--resume", "-k", "1"], true),
    (["-k", "1", "--no-journal"], true),
    (["--resume", "--no-journal", "file"], true),
    ([], true),
    (["-"], true),
    (["a.calc", "-", "b.calc"], true),
    (["a=b", "12+3="], true),
    (["-q", "--keep-going", "--no-live", "x.calc"], true),
    (["--quiet", "-k", "1"], true),
    (["--mode", "sci", "-k", "2sin="], true),
    (["--mode=Scientific"], true),
    (["--mode", "std", "--plain", "-"], true),
    // Left to ArgumentParser.
    (["--keys="], false),
    (["--locale=", "--keys", "1"], false),
    (["--locale", "-x", "--keys", "1"], false),
    (["--keys", "1", "--trace", "--trace"], false),
    (["--keys", "1", "--plain", "--plain"], false),
    (["--keys", "1", "--keys", "2"], false),
    (["-k", "1", "--keys", "2"], false),
    (["--locale", "de_DE", "--locale", "fr_FR", "--keys", "1"], false),
    (["--keys", "1", "--locale"], false),
    (["--keys"], false),
    (["-k"], false),
    (["-k12+3="], false),
    (["-k=1"], false),
    (["--trace=1", "-k", "1"], false),
    (["--plain=", "-k", "1"], false),
    (["--keys", "1", "file"], false),
    (["file", "-k", "1"], false),
    (["--keys", "1", "--", "x"], false),
    (["--keys", "--"], false),
    (["--keys", "--", "--plain"], false),
    (["--keysx", "1"], false),
    (["--", "file"], false),
    ([""], false),
    (["-x"], false),
    (["-qk", "1"], false),
    (["-q", "-q"], false),
    (["--quiet=yes"], false),
    (["--mode", "hex"], false),
    (["--mode"], false),
    (["--mode", "-"], false),
    (["--mode", "sci", "--mode", "std"], false),
    (["--no-live", "--no-live"], false),
    (["--list-locales"], false),
    (["--help"], false),
    (["-h"], false),
    (["--version"], false),
  ]

  @Test(arguments: table)
  func fastPathAgreesWithArgumentParser(arguments: [String], fast: Bool) {
    let quick = CalcCommand.quickParse(arguments)
    #expect((quick != nil) == fast, "fast path for \(arguments)")
    if let quick { #expect(Self.parsed(arguments) == quick, "\(arguments)") }
  }

  /// `--resume` and `--no-journal` reach the invocation through ArgumentParser too.
  @Test func resumeAndNoJournalReachTheInvocation() {
    #expect(Self.parsed(["--resume", "-k", "mr"]) == Invocation(keys: "mr", resume: true))
    #expect(Self.parsed(["--no-journal"]) == Invocation(journal: false))
    #expect(
      Self.parsed(["--resume", "--no-journal", "-"])
        == Invocation(files: ["-"], resume: true, journal: false))
  }

  /// Random argument lists (300; 10,000 with `CALC_LONG_TESTS=1`) from the words both parsers
  /// deal in: wherever the fast path answers, ArgumentParser agrees.
  @Test func randomArgumentListsAgree() {
    let words = [
      "--keys", "-k", "--keys=", "--keys=1+", "-k=2", "-k3", "--trace", "--plain", "--display",
      "--locale",
      "--locale=", "--locale=de_DE", "de_DE", "-x", "12+3=", "", "-", "--", "file", "-5=",
      "--trace=", "--k", "-kk", "-tk", "--help", "=", "--resume", "--no-journal", "-q",
      "--quiet", "--keep-going", "--no-live", "--mode", "sci", "std", "--mode=scientific",
      "--mode=hex", "a.calc", "--list-locales", "--version", "-qk",
    ]
    var random = SplitMix64(state: 14)
    var answered = 0
    let count = TestSize.count(short: 300, long: 10000)
    for _ in 0..<count {
      let arguments = (0..<random.int(0...5)).map { _ in words[random.below(words.count)] }
      guard let quick = CalcCommand.quickParse(arguments) else { continue }
      answered += 1
      #expect(Self.parsed(arguments) == quick, "\(arguments) (seed 14)")
    }
    // The property says something only if the fast path answered often enough.
    #expect(answered > count / 20)
  }

  /// `CalcCommand.startsWith(_:ascii:)`, which reads bytes, answers as `hasPrefix(_:)` does by
  /// characters: listed texts (combining marks and a joiner after the prefix, a dash of another
  /// script, CR LF), then random ones (2,000; 50,000 with `CALC_LONG_TESTS=1`) from scalars
  /// that join the one before them and ones that do not.
  @Test func startsWithAnswersAsHasPrefix() {
    let listed = [
      "", "-", "--", "-k", "--keys", "--\u{301}x", "-\u{301}", "-\u{301}-", "---", "--é", "-\r\n",
      "\u{2010}-", "--=", "x--", "-\u{200D}", "--\u{200D}", " --", "\u{FE63}-", "-\u{FF0D}",
      "--\u{1F3FB}",
    ]
    let scalars: [Character] = [
      "-", "k", "=", "\r", "\n", "\u{301}", "\u{200D}", "\u{2010}", "é", "\u{1F3FB}", "\u{FE0F}",
      " ",
    ]
    var random = SplitMix64(state: 13)
    let randomTexts = (0..<TestSize.count(short: 2000, long: 50000)).map { _ in
      String((0..<random.int(0...4)).map { _ in scalars[random.below(scalars.count)] })
    }
    for text in listed + randomTexts {
      // Each text also without its first scalar: a slice that starts inside a longer string.
      for slice in [
        Substring(text),
        text.unicodeScalars.isEmpty ? "" : Substring(text.unicodeScalars.dropFirst()),
      ] {
        for prefix in ["-", "--"] {
          #expect(
            CalcCommand.startsWith(slice, ascii: prefix) == slice.hasPrefix(prefix),
            "\(Array(slice.unicodeScalars)) \(prefix)")
        }
      }
    }
  }
}
