import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `:save` and `:tape csv FILE` follow a symbolic link only where the kernel's rule for shared
/// folders (protected_symlinks) would, whatever the kernel's setting (SPEC §8): scripts run in
/// process (``InProcess``) in a sticky, world-writable folder made for the test.
///
/// The links of another user need root (`lchown`); where the tests do not run as root, those
/// tests are skipped with that reason, and the rest still run.
@Suite struct SaveThroughLinksTests {
  /// Whether the tests run as root, who can give a link to another user.
  static let isRoot = geteuid() == 0

  /// The user that owns the planted links: `nobody`.
  static let otherUser: uid_t = 65534

  /// A folder `shared` of mode 1777 in `directory`, like `/tmp`.
  private func sharedFolder(in directory: URL) throws -> URL {
    let shared = directory.appendingPathComponent("shared")
    try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: false)
    try #require(chmod(shared.path, 0o1777) == 0)
    return shared
  }

  /// A symbolic link at `path` to `target`, owned by `owner` when that is not this user.
  private func makeLink(_ path: String, to target: String, owner: uid_t = geteuid()) throws {
    try #require(symlink(target, path) == 0)
    if owner != geteuid() { try #require(lchown(path, owner, getegid()) == 0) }
  }

  private func isSymbolicLink(_ path: String) -> Bool {
    var information = stat()
    return lstat(path, &information) == 0 && information.st_mode & S_IFMT == S_IFLNK
  }

  private func contents(_ path: String) -> String? {
    FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
  }

  /// What `:save` of `12+3=` writes to a plain file: the oracle for a save through a link.
  private static let saved: String = {
    (try? withTemporaryDirectory { directory in
      _ = try Script.runInProcess("12+3=\n:save s.calc\n", in: directory)
      return try Script.read("s.calc", in: directory)
    }) ?? "(no save)"
  }()

  @Test(.enabled(if: isRoot, "another user's link needs root to make (lchown)"))
  func aLinkOfAnotherUserInASharedFolderIsRefusedAndItsTargetUntouched() throws {
    try withTemporaryDirectory { directory in
      let shared = try sharedFolder(in: directory)
      let target = try Script.write("precious\n", to: "target.calc", in: directory)
      let link = shared.appendingPathComponent("planted.calc").path
      try makeLink(link, to: target.path, owner: Self.otherUser)
      // (The column is the command's first argument's: for `:tape csv`, `csv`.)
      for (command, verb, column) in [
        (":save", "save", 7), (":save!", "save", 8), (":tape csv", "write", 7),
      ] {
        let run = try Script.runInProcess("12+3=\n\(command) shared/planted.calc\n", in: directory)
        #expect(
          run.stderr
            == "<stdin>:2:\(column): cannot \(verb) 'shared/planted.calc': "
            + "'shared/planted.calc' is a symbolic link in a sticky, world-writable folder, owned "
            + "by neither you nor the folder's owner; calc does not write through it; "
            + "'shared/planted.calc' is unchanged\n", "\(command)")
        #expect(run.status == 65, "\(command)")
      }
      #expect(contents(target.path) == "precious\n")
      #expect(isSymbolicLink(link))
      #expect(try Script.listing(shared) == ["planted.calc"])
      #expect(try Script.listing(directory) == ["shared", "target.calc"])
    }
  }

  @Test(.enabled(if: isRoot, "another user's folder and link need root to make"))
  func aLinkOwnedByTheFoldersOwnerIsFollowed() throws {
    try withTemporaryDirectory { directory in
      let shared = try sharedFolder(in: directory)
      // The folder and its link belong to the same other user: the rule follows it.
      try #require(chown(shared.path, Self.otherUser, getegid()) == 0)
      let target = try Script.write("old\n", to: "target.calc", in: directory)
      let link = shared.appendingPathComponent("owners.calc").path
      try makeLink(link, to: target.path, owner: Self.otherUser)
      let run = try Script.runInProcess("12+3=\n:save shared/owners.calc\n", in: directory)
      #expect(run.stderr == "")
      #expect(run.stdout == "15\nsaved 5 keys at step 5 to shared/owners.calc\n")
      #expect(contents(target.path) == Self.saved)
      #expect(isSymbolicLink(link))
    }
  }

  @Test func ourOwnLinkInASharedFolderIsFollowedAndTheTargetReplaced() throws {
    try withTemporaryDirectory { directory in
      let shared = try sharedFolder(in: directory)
      let target = try Script.write("old\n", to: "target.calc", in: directory)
      try #require(chmod(target.path, 0o640) == 0)
      let link = shared.appendingPathComponent("mine.calc").path
      try makeLink(link, to: "../target.calc")
      let run = try Script.runInProcess("12+3=\n:save shared/mine.calc\n", in: directory)
      #expect(run.stderr == "")
      #expect(run.stdout == "15\nsaved 5 keys at step 5 to shared/mine.calc\n")
      #expect(run.status == 0)
      #expect(contents(target.path) == Self.saved)
      var information = stat()
      #expect(stat(target.path, &information) == 0 && information.st_mode & 0o7777 == 0o640)
      // The link is kept, pointing where it did; no temporary file is left in either folder.
      #expect(isSymbolicLink(link))
      #expect(try Script.listing(shared) == ["mine.calc"])
      #expect(try Script.listing(directory) == ["shared", "target.calc"])
      // The tape too, through the same link.
      let tape = try Script.runInProcess("2*3=\n:tape csv shared/mine.calc\n", in: directory)
      #expect(tape.stderr == "")
      #expect(tape.status == 0)
      #expect(contents(target.path)?.hasSuffix(",6,\n") == true, "\(contents(target.path) ?? "")")
      #expect(isSymbolicLink(link))
    }
  }

  @Test func aDanglingLinkIsRefusedAndNothingIsCreated() throws {
    try withTemporaryDirectory { directory in
      let shared = try sharedFolder(in: directory)
      let cases = [
        // Ours, in a shared folder and in a folder of our own.
        ("shared/dangling.calc", shared.appendingPathComponent("dangling.calc").path),
        ("own.calc", directory.appendingPathComponent("own.calc").path),
      ]
      for (name, link) in cases {
        try makeLink(link, to: "missing.calc")
        let run = try Script.runInProcess("12+3=\n:save \(name)\n", in: directory)
        #expect(
          run.stderr
            == "<stdin>:2:7: cannot save '\(name)': '\(name)' is a dangling symbolic link (to "
            + "'missing.calc'); calc does not create the file a link names; '\(name)' is "
            + "unchanged\n")
        #expect(run.status == 65)
        #expect(isSymbolicLink(link))
      }
      // A chain whose last link dangles is refused at that link.
      let chain = directory.appendingPathComponent("chain.calc").path
      try makeLink(chain, to: "own.calc")
      let run = try Script.runInProcess("1\n:save chain.calc\n", in: directory)
      #expect(
        run.stderr
          == "<stdin>:2:7: cannot save 'chain.calc': 'own.calc' is a dangling symbolic link (to "
          + "'missing.calc'); calc does not create the file a link names; 'chain.calc' is "
          + "unchanged\n")
      #expect(try Script.listing(shared) == ["dangling.calc"])
      #expect(try Script.listing(directory) == ["chain.calc", "own.calc", "shared"])
    }
  }

  @Test func aLinkInAFolderOfOurOwnIsFollowedWhoeverOwnsIt() throws {
    try withTemporaryDirectory { directory in
      let folder = directory.appendingPathComponent("plain")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
      let target = try Script.write("old\n", to: "target.calc", in: directory)
      let link = folder.appendingPathComponent("link.calc").path
      // Another user's link, where root can make one: the folder is not shared, so it is
      // followed, as the kernel would.
      try makeLink(link, to: target.path, owner: geteuid() == 0 ? Self.otherUser : geteuid())
      let run = try Script.runInProcess("12+3=\n:save! plain/link.calc\n", in: directory)
      #expect(run.stderr == "")
      #expect(run.stdout == "15\nsaved 5 keys at step 5 to plain/link.calc\n")
      #expect(contents(target.path) == Self.saved)
      #expect(isSymbolicLink(link))
      #expect(try Script.listing(folder) == ["link.calc"])
    }
  }

  @Test(.enabled(if: isRoot, "another user's link needs root to make (lchown)"))
  func aLinkOfAnotherUserFurtherAlongAChainIsRefused() throws {
    try withTemporaryDirectory { directory in
      let shared = try sharedFolder(in: directory)
      let target = try Script.write("precious\n", to: "target.calc", in: directory)
      try makeLink(
        shared.appendingPathComponent("planted.calc").path, to: target.path,
        owner: Self.otherUser)
      // Our own link, in our own folder, to the planted one.
      try makeLink(directory.appendingPathComponent("mine.calc").path, to: "shared/planted.calc")
      let run = try Script.runInProcess("12+3=\n:save mine.calc\n", in: directory)
      #expect(
        run.stderr
          == "<stdin>:2:7: cannot save 'mine.calc': 'shared/planted.calc' is a symbolic link in a "
          + "sticky, world-writable folder, owned by neither you nor the folder's owner; calc "
          + "does not write through it; 'mine.calc' is unchanged\n")
      #expect(contents(target.path) == "precious\n")
    }
  }

  // MARK: - Links among the folders of the path (SPEC v5 §8)

  /// A folder `victim` owned by another user, holding `important.calc`, and a link to it in the
  /// shared folder, `shared/evildir`, owned by `owner`.
  private func plantFolderLink(in directory: URL, owner: uid_t) throws -> (
    shared: URL, victim: URL, link: String
  ) {
    let shared = try sharedFolder(in: directory)
    let victim = directory.appendingPathComponent("victim")
    try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: false)
    try Script.write("precious\n", to: "important.calc", in: victim)
    if owner != geteuid() { try #require(chown(victim.path, owner, getegid()) == 0) }
    let link = shared.appendingPathComponent("evildir").path
    try makeLink(link, to: victim.path, owner: owner)
    return (shared, victim, link)
  }

  @Test(.enabled(if: isRoot, "another user's link needs root to make (lchown)"))
  func aLinkToAFolderOfAnotherUserInASharedFolderIsRefusedWhereverItIsInThePath() throws {
    try withTemporaryDirectory { directory in
      let (shared, victim, link) = try plantFolderLink(in: directory, owner: Self.otherUser)
      for (command, verb, column, name) in [
        (":save", "save", 7, "shared/evildir/important.calc"),
        (":save!", "save", 8, "shared/evildir/important.calc"),
        (":tape csv", "write", 7, "shared/evildir/important.calc"),
        (":tape csv", "write", 7, "shared/evildir/new.csv"),
        (":save", "save", 7, "./shared/../shared/evildir/new.calc"),
      ] {
        let run = try Script.runInProcess("12+3=\n\(command) \(name)\n", in: directory)
        let shown = name.hasPrefix("./") ? "./shared/../shared/evildir" : "shared/evildir"
        #expect(
          run.stderr
            == "<stdin>:2:\(column): cannot \(verb) '\(name)': '\(shown)' is a symbolic link in a "
            + "sticky, world-writable folder, owned by neither you nor the folder's owner; calc "
            + "does not write through it; '\(name)' is unchanged\n", "\(command) \(name)")
        #expect(run.status == 65, "\(command)")
      }
      #expect(try Script.read("important.calc", in: victim) == "precious\n")
      #expect(try Script.listing(victim) == ["important.calc"])
      #expect(isSymbolicLink(link))
      #expect(try Script.listing(shared) == ["evildir"])
    }
  }

  @Test(.enabled(if: isRoot, "another user's link needs root to make (lchown)"))
  func aFolderLinkOfAnotherUserReachedThroughOurOwnLinkIsRefused() throws {
    try withTemporaryDirectory { directory in
      let (_, victim, _) = try plantFolderLink(in: directory, owner: Self.otherUser)
      // Our own link, in our own folder, to the planted one; and one to the folder that holds it.
      try makeLink(directory.appendingPathComponent("mine").path, to: "shared/evildir")
      try makeLink(directory.appendingPathComponent("up").path, to: "shared")
      for name in ["mine/important.calc", "up/evildir/important.calc"] {
        let run = try Script.runInProcess("12+3=\n:save! \(name)\n", in: directory)
        #expect(
          run.stderr
            == "<stdin>:2:8: cannot save '\(name)': 'shared/evildir' is a symbolic link in a "
            + "sticky, world-writable folder, owned by neither you nor the folder's owner; calc "
            + "does not write through it; '\(name)' is unchanged\n", "\(name)")
      }
      #expect(try Script.read("important.calc", in: victim) == "precious\n")
    }
  }

  @Test func ourOwnLinkToAFolderInASharedFolderIsFollowed() throws {
    try withTemporaryDirectory { directory in
      let (shared, victim, link) = try plantFolderLink(in: directory, owner: geteuid())
      let run = try Script.runInProcess(
        "12+3=\n:save! shared/evildir/important.calc\n:tape csv shared/evildir/t.csv\n",
        in: directory)
      #expect(run.stderr == "")
      #expect(
        run.stdout
          == "15\nsaved 5 keys at step 5 to shared/evildir/important.calc\n"
          + "wrote the tape to shared/evildir/t.csv\n")
      #expect(try Script.read("important.calc", in: victim) == Self.saved)
      #expect(try Script.listing(victim) == ["important.calc", "t.csv"])
      #expect(isSymbolicLink(link))
      #expect(try Script.listing(shared) == ["evildir"])
    }
  }

  @Test func aFolderLinkOfAnotherUserInAFolderOfOurOwnIsFollowed() throws {
    try withTemporaryDirectory { directory in
      let victim = directory.appendingPathComponent("victim")
      try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: false)
      let plain = directory.appendingPathComponent("plain")
      try FileManager.default.createDirectory(at: plain, withIntermediateDirectories: false)
      try makeLink(
        plain.appendingPathComponent("dir").path, to: victim.path,
        owner: geteuid() == 0 ? Self.otherUser : geteuid())
      let run = try Script.runInProcess("12+3=\n:save plain/dir/s.calc\n", in: directory)
      #expect(run.stderr == "")
      #expect(try Script.read("s.calc", in: victim) == Self.saved)
    }
  }

  @Test func aFolderLinkThatLeadsNowhereIsADanglingLink() throws {
    try withTemporaryDirectory { directory in
      try makeLink(directory.appendingPathComponent("gone").path, to: "missing")
      let run = try Script.runInProcess("12+3=\n:save gone/s.calc\n", in: directory)
      #expect(
        run.stderr
          == "<stdin>:2:7: cannot save 'gone/s.calc': 'gone' is a dangling symbolic link (to "
          + "'missing'); calc does not create the file a link names; 'gone/s.calc' is "
          + "unchanged\n")
      #expect(try Script.listing(directory) == ["gone"])
    }
  }
}
