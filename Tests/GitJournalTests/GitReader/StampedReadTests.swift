import Foundation
import Testing

@testable import GitReader

/// A repository whose stamp holds is not opened (`StampedRead`); these check that whatever changes what a full
/// read gives also breaks the stamp, one test per way refs, HEAD, the config or the mailmap can change behind
/// the journal, and a seeded random mix of them all.
@Suite struct StampedReadTests {
  /// The span the reads ask for; commits are made inside it.
  static let dayStart: Int64 = 1_780_000_000
  static let dayEnd = dayStart + 86_400

  final class World {
    let repository: TemporaryRepository
    var cache: String
    var clock = StampedReadTests.dayStart + 600
    var root: String
    var allAuthors = true
    var excludePaths: [String] = []
    var ignoredAuthors: [String] = []

    init() throws {
      repository = try TemporaryRepository()
      cache = repository.owner.path("cache")
      root = repository.path
      try commit("First")
    }

    func date() -> String {
      clock += 60
      return "\(clock) +0000"
    }

    @discardableResult
    func commit(_ message: String, in directory: String? = nil) throws -> String {
      let environment = TemporaryRepository.identity(date: date(), committerDate: nil, email: TemporaryRepository.email)
      try repository.git(["commit", "-q", "--allow-empty", "-m", message], environment: environment, in: directory)
      return try repository.git(["rev-parse", "HEAD"], in: directory).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func git(_ arguments: String...) throws { try repository.git(arguments) }

    /// `clock`: what tells a path changed too recently to stamp (`PathStamp.isRacy`).
    func scan(stamped: Bool, clock: @escaping @Sendable () -> PathStamp.Timestamp = { .now }) -> RepositoryScan {
      var scan = RepositoryScan(
        path: root, configuredAuthors: [], allAuthors: allAuthors, includeMerges: false,
        cacheDirectory: stamped ? cache : nil, reusesWindows: stamped)
      scan.excludePaths = excludePaths
      scan.ignoredAuthors = ignoredAuthors
      scan.stampClock = clock
      return scan
    }

    /// What a read from nothing gives, branch names aside: a stored read keeps the name each commit got when it
    /// was new, where a read from nothing names it from the branches as they are now (see `BranchAttribution`).
    func full() throws -> [CommitRecord] {
      Self.withoutBranches(
        try scan(stamped: false).commits(authoredFrom: StampedReadTests.dayStart, to: StampedReadTests.dayEnd).commits)
    }

    /// What the hook's read gives (the stored read when its stamp holds), branch names aside.
    func hooked() throws -> [CommitRecord] {
      Self.withoutBranches(try hookedWithBranches())
    }

    func hookedWithBranches(clock: @escaping @Sendable () -> PathStamp.Timestamp = { .now }) throws -> [CommitRecord] {
      try scan(stamped: true, clock: clock).commits(
        authoredFrom: StampedReadTests.dayStart, to: StampedReadTests.dayEnd
      ).commits
    }

    static func withoutBranches(_ records: [CommitRecord]) -> [CommitRecord] {
      records.map { record in
        var record = record
        record.branch = nil
        return record
      }
    }

    /// Whether the hook's next read would come from the stored read without opening the repository.
    var isStamped: Bool {
      scan(stamped: true).stampedRead(authoredFrom: StampedReadTests.dayStart, to: StampedReadTests.dayEnd)?
        .current() != nil
    }

    /// The letters of the stored read's stamped paths, by path (see `StampedRead`).
    func storedLetters() throws -> [String: String] {
      let folder = cache + "/reads-v4"
      let names = try FileManager.default.contentsOfDirectory(atPath: folder)
      var letters: [String: String] = [:]
      for name in names {
        let lines = try String(contentsOfFile: folder + "/" + name, encoding: .utf8).split(separator: "\n")
        guard lines.first?.hasSuffix("\t" + root) == true, lines.count > 3 else { continue }
        for field in lines[3].split(separator: "\t").dropFirst(2) {
          let letterCount = field.first == "h" ? 2 : 1
          // A path in the repository's folder is kept relative to it, the folder itself as nothing.
          let path = String(field.dropFirst(letterCount))
          let absolute = path.hasPrefix("/") ? path : path.isEmpty ? root : root + "/" + path
          letters[absolute] = String(field.prefix(letterCount))
        }
      }
      return letters
    }

    /// What a read from nothing gives, or why it failed, branch names aside.
    func fullOutcome() -> Result<[CommitRecord], RepositoryProblem> {
      Result { () throws(RepositoryProblem) in
        Self.withoutBranches(
          try scan(stamped: false).commits(authoredFrom: StampedReadTests.dayStart, to: StampedReadTests.dayEnd)
            .commits)
      }
    }

    /// What the hook's read gives, or why it failed, branch names aside.
    func hookedOutcome() -> Result<[CommitRecord], RepositoryProblem> {
      Result { () throws(RepositoryProblem) in
        Self.withoutBranches(
          try scan(stamped: true).commits(authoredFrom: StampedReadTests.dayStart, to: StampedReadTests.dayEnd)
            .commits)
      }
    }

    /// Reads and stores under a stamp taken as if everything changed so far were past the racy margin
    /// (`SettledClock`), then waits for the file clock to tick, so that a change made next shows in its times.
    func settle() throws {
      _ = try hookedWithBranches(clock: SettledClock.now)
      try SettledClock.fileClockAfterATick(in: repository.owner.path)
    }
  }

  /// Stores a read, checks that the stamp holds, changes the repository with `change`, and checks that the hook's
  /// read equals a full read, and that the change mattered (`changesCommits`), so that a stale stamp would show.
  func expectSeen(
    changesCommits: Bool = true, _ world: World, _ change: () throws -> Void,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try world.settle()
    #expect(world.isStamped, "the stamp does not hold for an unchanged repository", sourceLocation: sourceLocation)
    let before = try world.full()
    try change()
    let full = try world.full()
    if changesCommits { #expect(full != before, "the change changed nothing", sourceLocation: sourceLocation) }
    #expect(try world.hooked() == full, "the stamped read missed the change", sourceLocation: sourceLocation)
  }

  @Test func aCommit() throws {
    let world = try World()
    try expectSeen(world) { try world.commit("Second") }
  }

  /// A folder whose name holds a backslash and a tab: its paths are escaped in the stamps record (the record is
  /// looked at once for any escape, then field by field), and the stamp holds and breaks as for any other.
  @Test func aFolderWhoseNameIsEscaped() throws {
    let world = try World()
    let folder = world.repository.owner.path("back\\slash\tand tab")
    try world.repository.git(["clone", "-q", world.repository.path, folder])
    world.root = folder
    try expectSeen(world) { try world.commit("Second", in: folder) }
  }

  /// The working tree and `.git` guard the paths stamped absent in them: while their times hold, those paths are
  /// not looked at (`h`); a file made in either breaks the guard, never the stamp, and an absent path that appears
  /// is seen.
  @Test func pathsAbsentInAFolderWhoseTimesHoldAreNotLookedAt() throws {
    let world = try World()
    try world.settle()
    let letters = try world.storedLetters()
    #expect(letters[world.root] == "g" && letters[world.root + "/.git"] == "g")
    #expect(letters[world.root + "/.git/shallow"] == "h1" && letters[world.root + "/.mailmap"] == "h0")
    #expect(letters[world.root + "/.git/HEAD"] == "f", "a file that exists is looked at, whatever its folder says")
    // New files in both folders: the guards no longer hold, the stamp does, and the absent paths are looked at.
    try world.repository.write("notes\n", to: "notes.txt")
    try world.git("status", "--short")
    try world.repository.write("", to: ".git/unrelated")
    #expect(world.isStamped, "a guard that changed broke the stamp")
    #expect(try world.hooked() == world.full())
    // A shallow file appearing makes the repository unreadable for the journal; the stamp must not hide it.
    try world.settle()
    #expect(world.isStamped)
    let head = try world.repository.git("rev-parse", "HEAD").trimmingCharacters(in: .whitespacesAndNewlines)
    try world.repository.write(head + "\n", to: ".git/shallow")
    #expect(world.fullOutcome() == .failure(.shallow))
    #expect(world.hookedOutcome() == .failure(.shallow), "the stamp hid a shallow file made in .git")
  }

  /// A symlink to nothing is absent but its name is taken: its target may appear anywhere, the working tree's
  /// times unchanged, so it is looked at every time (`a`), never left to the folder (`h0`).
  @Test func aMailmapSymlinkToNothingIsLookedAtEveryTime() throws {
    let world = try World()
    world.allAuthors = false
    try world.git("config", "user.email", "ada@example.com")
    let environment = TemporaryRepository.identity(date: world.date(), committerDate: nil, email: "ada@old.example")
    try world.repository.git(["commit", "-q", "--allow-empty", "-m", "Old address"], environment: environment)
    let target = world.repository.owner.path("mailmap-elsewhere")
    #expect(symlink(target, world.root + "/.mailmap") == 0)
    try world.settle()
    #expect(try world.storedLetters()[world.root + "/.mailmap"] == "a")
    try expectSeen(world) {
      try "Ada Lovelace <ada@example.com> <ada@old.example>\n".write(toFile: target, atomically: false, encoding: .utf8)
    }
  }

  /// A working tree changed within the racy margin of the read is stamped as a node only, and the absent paths in
  /// it are looked at every time; `.git` still guards its own.
  @Test func aWorkingTreeChangedAMomentAgoGuardsNothing() throws {
    let world = try World()
    try world.settle()
    try world.repository.write("notes\n", to: "notes.txt")
    try world.commit("Second")
    // A clock that reads the racy margin past a file-clock tick taken between the commit and the new file: what
    // `.git` holds is just old enough to stamp, the working tree just too recent.
    let between = try SettledClock.fileClockAfterATick(in: world.repository.owner.path)
    try world.repository.write("more notes\n", to: "more.txt")
    let clock = PathStamp.Timestamp(seconds: between.seconds, nanoseconds: between.nanoseconds + 99_999_999)
    _ = try world.hookedWithBranches(clock: { clock })
    let letters = try world.storedLetters()
    #expect(letters[world.root] == "n" && letters[world.root + "/.mailmap"] == "a")
    #expect(letters[world.root + "/.git"] == "g" && letters[world.root + "/.git/shallow"] == "h0")
    // Seen whichever way it is stamped: a mailmap that renames the author.
    try world.repository.write("Someone Else <ada@example.com>\n", to: ".mailmap")
    #expect(try world.hooked() == world.full())
    #expect(try world.full().allSatisfy { $0.authorName == "Someone Else" })
  }

  /// A guarding folder replaced by another (same path, another inode) breaks the stamp: a `g` path must still be
  /// the same folder.
  @Test func aWorkingTreeReplacedByAnotherBreaksTheStamp() throws {
    let world = try World()
    let copy = world.repository.owner.path("copy")
    try world.repository.git(["clone", "-q", world.repository.path, copy])
    try world.settle()
    #expect(world.isStamped)
    let moved = world.repository.owner.path("moved")
    #expect(rename(world.root, moved) == 0 && rename(copy, world.root) == 0)
    #expect(!world.isStamped, "another repository at the same path was taken for the stamped one")
    #expect(rename(world.root, copy) == 0 && rename(moved, world.root) == 0)
  }

  @Test func anAmend() throws {
    let world = try World()
    try expectSeen(world) {
      let environment = TemporaryRepository.identity(
        date: world.date(), committerDate: nil, email: TemporaryRepository.email)
      try world.repository.git(["commit", "-q", "--amend", "--allow-empty", "-m", "Amended"], environment: environment)
    }
  }

  @Test func aReset() throws {
    let world = try World()
    try world.commit("Second")
    try expectSeen(world) { try world.git("reset", "-q", "--hard", "HEAD~1") }
  }

  @Test func updateRefOnANestedBranch() throws {
    let world = try World()
    try world.git("branch", "feature/deep/topic")
    let other = try world.commit("Second")
    try world.git("reset", "-q", "--hard", "HEAD~1")
    try expectSeen(world) { try world.git("update-ref", "refs/heads/feature/deep/topic", other) }
  }

  @Test func aRefRewrittenInPlace() throws {
    let world = try World()
    let other = try world.commit("Second")
    try world.git("reset", "-q", "--hard", "HEAD~1")
    try world.git("branch", "side")
    try expectSeen(world) {
      // Not the way git writes refs (it renames a lock file): the folder's times stay, the file's move.
      let handle = try #require(FileHandle(forWritingAtPath: world.repository.path + "/.git/refs/heads/side"))
      try handle.write(contentsOf: Data((other + "\n").utf8))
      try handle.close()
    }
  }

  @Test func aBranchDeletion() throws {
    let world = try World()
    try world.git("switch", "-q", "-c", "topic")
    try world.commit("On topic")
    try world.git("switch", "-q", "main")
    try expectSeen(world) { try world.git("branch", "-q", "-D", "topic") }
  }

  @Test func packedRefsThenAPackedBranchMoved() throws {
    let world = try World()
    try world.git("branch", "side")
    let other = try world.commit("Second")
    try world.git("reset", "-q", "--hard", "HEAD~1")
    try expectSeen(changesCommits: false, world) { try world.git("pack-refs", "--all") }
    try expectSeen(world) { try world.git("update-ref", "refs/heads/side", other) }
    try world.git("pack-refs", "--all")
    try expectSeen(world) { try world.git("branch", "-q", "-D", "side") }
  }

  @Test func aStoredReadKeepsTheBranchNames() throws {
    let world = try World()
    try world.git("switch", "-q", "-c", "topic")
    let onTopic = try world.commit("On topic")
    try world.settle()
    #expect(world.isStamped)
    #expect(try world.hookedWithBranches().first { $0.id.hex == onTopic }?.branch == "topic")
  }

  @Test func aCheckoutOfADetachedHead() throws {
    let world = try World()
    try world.git("switch", "-q", "-c", "topic")
    try world.commit("On topic")
    try world.git("switch", "-q", "--detach")
    // No branch reaches the commit once its branch is gone: a detached HEAD does not keep it in the journal.
    try expectSeen(world) { try world.git("branch", "-q", "-D", "topic") }
    try expectSeen(changesCommits: false, world) { try world.git("switch", "-q", "main") }
  }

  @Test func aFetchThatMovesNoBranchKeepsTheStampAndAPullDoesNot() throws {
    let world = try World()
    let other = try TemporaryRepository(named: "other", in: world.repository.owner, initialize: false)
    try world.repository.git(["clone", "-q", world.repository.path, other.path], in: world.repository.owner.path)
    let environment = TemporaryRepository.identity(
      date: world.date(), committerDate: nil, email: TemporaryRepository.email)
    try other.git(["commit", "-q", "--allow-empty", "-m", "From another machine"], environment: environment)
    try world.settle()
    try world.git("fetch", "-q", other.path, "main:refs/remotes/laptop/main")
    #expect(world.isStamped, "a fetch into a remote-tracking ref broke the stamp")
    try expectSeen(world) { try world.git("merge", "-q", "--ff-only", "refs/remotes/laptop/main") }
  }

  @Test func aFetchIntoALocalBranch() throws {
    let world = try World()
    let other = try TemporaryRepository(named: "other", in: world.repository.owner, initialize: false)
    try world.repository.git(["clone", "-q", world.repository.path, other.path], in: world.repository.owner.path)
    try other.git("switch", "-q", "-c", "laptop")
    let environment = TemporaryRepository.identity(
      date: world.date(), committerDate: nil, email: TemporaryRepository.email)
    try other.git(["commit", "-q", "--allow-empty", "-m", "From another machine"], environment: environment)
    try expectSeen(world) { try world.git("fetch", "-q", other.path, "laptop:laptop") }
  }

  /// A world read for ada@example.com with a commit made under her old address, which a mailmap can map.
  static func worldWithAnOldAddress() throws -> World {
    let world = try World()
    world.allAuthors = false
    try world.git("config", "user.email", "ada@example.com")
    let environment = TemporaryRepository.identity(
      date: world.date(), committerDate: nil, email: "ada@old.example")
    try world.repository.git(["commit", "-q", "--allow-empty", "-m", "Old address"], environment: environment)
    return world
  }

  @Test func aMailmapEdit() throws {
    let world = try Self.worldWithAnOldAddress()
    try expectSeen(world) {
      try world.repository.write("Ada Lovelace <ada@example.com> <ada@old.example>\n", to: ".mailmap")
    }
    let file = world.repository.owner.path("mailmap")
    try expectSeen(changesCommits: false, world) {
      try "".write(toFile: file, atomically: false, encoding: .utf8)
      try world.git("config", "mailmap.file", file)
    }
    try world.repository.write("", to: ".mailmap")
    try expectSeen(world) {
      try "Ada Lovelace <ada@example.com> <ada@old.example>\n".write(toFile: file, atomically: false, encoding: .utf8)
    }
  }

  /// A mailmap named with a doubled slash after the repository's folder (`<folder>//mailmap`): stamped whole, not
  /// as `/mailmap` from the root, so that the file appearing is seen. (A hook with `HOME` written with a `/` at
  /// its end, and the repository in the home folder, stamps its global config this way too.)
  @Test func aMailmapNamedWithADoubledSlash() throws {
    let world = try Self.worldWithAnOldAddress()
    try world.git("config", "mailmap.file", world.root + "//mailmap-file")
    try expectSeen(world) {
      try world.repository.write("Ada Lovelace <ada@example.com> <ada@old.example>\n", to: "mailmap-file")
    }
  }

  @Test func anAuthorAddressChangedInTheConfig() throws {
    let world = try World()
    world.allAuthors = false
    try world.git("config", "user.email", "ada@example.com")
    try expectSeen(world) { try world.git("config", "user.email", "someone@else.example") }
  }

  /// The files left out of the counts and the authors `--all-authors` still leaves out decide a read too: a read
  /// stored without them is not the answer with them.
  @Test func excludedFilesAndIgnoredAuthors() throws {
    let world = try World()
    try Data("one\ntwo\n".utf8).write(to: URL(fileURLWithPath: world.root + "/notes.txt"))
    try world.git("add", "notes.txt")
    try world.commit("Notes")
    try expectSeen(world) { world.excludePaths = ["notes.txt"] }
    try expectSeen(world) { world.ignoredAuthors = [TemporaryRepository.email] }
  }

  /// The query is compared with the stored one as the bytes of its record: fields that have to be escaped (a
  /// backslash, a tab) still match themselves, and a change inside an escaped field is still a change.
  @Test func aQueryWithEscapedFieldsMatchesOnlyItself() throws {
    let world = try World()
    world.ignoredAuthors = ["bot\\one@example.com", "tab\tbot@example.com"]
    try world.settle()
    #expect(world.isStamped, "an unchanged query with escaped fields did not match its stored record")
    world.ignoredAuthors = ["bot\\two@example.com", "tab\tbot@example.com"]
    #expect(!world.isStamped, "a query whose escaped field changed matched the stored one")
    world.ignoredAuthors = ["bot\\one@example.com", "tab\tbot@example.com"]
    #expect(world.isStamped)
  }

  @Test func aLinkedWorktreesHead() throws {
    let world = try World()
    try world.commit("Second")
    let tree = world.repository.owner.path("tree")
    try world.git("worktree", "add", "-q", "-b", "wt", tree)
    world.root = tree
    try expectSeen(world) { try world.commit("In the worktree", in: tree) }
    try world.repository.git(["switch", "-q", "--detach"], in: tree)
    // Only the worktree's own HEAD (in its git dir, not the common one) holds the last commit now: it leaves the
    // journal with its branch.
    try expectSeen(world) { try world.git("branch", "-q", "-D", "wt") }
    try expectSeen(changesCommits: false, world) {
      try world.repository.git(["switch", "-q", "--detach", "HEAD~1"], in: tree)
    }
  }

  @Test func stampsThatMightNotTellAreNotTrusted() throws {
    let world = try World()
    _ = try world.hooked()
    #expect(!world.isStamped, "a ref written a moment ago was trusted")
    try world.settle()
    #expect(world.isStamped)
    try world.git("config", "include.path", world.repository.owner.path("more"))
    try world.settle()
    #expect(!world.isStamped, "a config with an include was trusted")
    try world.git("config", "--unset", "include.path")
    try world.git("config", "mailmap.blob", "refs/tags/mailmap:.mailmap")
    try world.settle()
    #expect(!world.isStamped, "a mailmap blob was trusted")
    try world.git("config", "--unset", "mailmap.blob")
    try world.git("symbolic-ref", "HEAD", "refs/remotes/origin/main")
    try world.settle()
    #expect(!world.isStamped, "a HEAD outside the local branches was trusted")
  }

  /// A stamp is kept as two hashes (`StampedRead.identity`, `version`): one number changed, whichever and however,
  /// always changes its hash, and an identity never depends on the times.
  @Test func aStampWithOneNumberChangedHashesOtherwise() {
    var generator = SeededGenerator(seed: 7)
    func random() -> UInt64 { generator.next() >> UInt64.random(in: 0..<64, using: &generator) }
    func stamp(_ numbers: [UInt64]) -> PathStamp {
      PathStamp(
        kind: .full, isFolder: false, device: numbers[0], inode: numbers[1], size: Int64(bitPattern: numbers[2]),
        modified: .init(seconds: Int64(bitPattern: numbers[3]), nanoseconds: Int64(bitPattern: numbers[4])),
        changed: .init(seconds: Int64(bitPattern: numbers[5]), nanoseconds: Int64(bitPattern: numbers[6])))
    }
    for _ in 0..<2_000 {
      let numbers = (0..<7).map { _ in random() }
      let before = stamp(numbers)
      let which = Int.random(in: 0..<7, using: &generator)
      var changed = numbers
      let delta = [1, 1_000, UInt64.max, random() | 1].randomElement(using: &generator)!
      changed[which] = changed[which] &+ delta
      let after = stamp(changed)
      let hashes = { (stamp: PathStamp) in (StampedRead.identity(of: stamp), StampedRead.version(of: stamp)) }
      #expect(hashes(before) != hashes(after), "\(numbers), number \(which) moved by \(delta)")
      #expect((StampedRead.identity(of: before) == StampedRead.identity(of: after)) == (which >= 2))
      #expect(StampedRead.version(of: before.node) == 0 && StampedRead.identity(of: before.node) != 0)
    }
  }

  /// The stamps are kept as hex digits and compared as words: each number's digits are its hex, most significant
  /// first, so a stamp that differs in any bit of any number differs in its text.
  @Test func stampNumbersAreTheirHexDigits() {
    var generator = SystemRandomNumberGenerator()
    let samples: [UInt64] =
      [0, 1, 9, 10, 15, 16, 0xabc, 0x1234_5678_9abc_def0, UInt64(Int64.max), .max]
      + (0..<200).map { _ in generator.next() >> UInt64.random(in: 0..<64) }
    for number in samples {
      let digits = withUnsafeBytes(of: StampedRead.hexDigits(number)) { String(decoding: $0, as: UTF8.self) }
      let expected = String(repeating: "0", count: 16 - String(number, radix: 16).count) + String(number, radix: 16)
      #expect(digits == expected, "\(number)")
    }
  }

  /// Seeded random sequences of everything above; after each step the hook's read equals a full read, and the
  /// stamp held often enough for the comparison to mean something.
  /// Runs on a thread of its own: its git calls and pauses would otherwise hold a thread of the cooperative pool
  /// for minutes on a small machine, and starve the tests that serve HTTP meanwhile.
  @Test(arguments: [11, 12, 13] as [UInt64])
  func stampedReadsEqualFullReads(seed: UInt64) async throws {
    try await DedicatedThread.run {
      let world = try World()
      let other = try TemporaryRepository(named: "other", in: world.repository.owner, initialize: false)
      try world.repository.git(["clone", "-q", world.repository.path, other.path], in: world.repository.owner.path)
      var random = SeededGenerator(seed: seed)
      var branches = ["main"]
      var stampedSteps = 0
      for step in 0..<40 {
        let log = try world.repository.git("log", "--all", "--format=%H").split(separator: "\n").map(String.init)
        let someCommit = log.randomElement(using: &random)!
        let environment = TemporaryRepository.identity(
          date: world.date(), committerDate: nil, email: TemporaryRepository.email)
        switch Int.random(in: 0..<16, using: &random) {
        case 0:
          let name = (Bool.random(using: &random) ? "nested/" : "") + "topic\(step)"
          // Refused when local changes would be lost, as for any user.
          if try world.repository.gitResult(["switch", "-q", "-c", name, someCommit]).status == 0 {
            branches.append(name)
          }
        case 1: _ = try world.repository.gitResult(["switch", "-q", branches.randomElement(using: &random)!])
        case 2: _ = try world.repository.gitResult(["reset", "-q", "--hard", "HEAD~1"])
        case 3:
          try world.repository.git(
            ["commit", "-q", "--amend", "--allow-empty", "-m", "Amend \(step)"], environment: environment)
        case 4:
          _ = try world.repository.gitResult([
            "update-ref", "refs/heads/" + branches.randomElement(using: &random)!, someCommit,
          ])
        case 5:
          let current = try world.repository.git("branch", "--show-current").trimmingCharacters(
            in: .whitespacesAndNewlines)
          if let victim = branches.filter({ $0 != current }).randomElement(using: &random) {
            try world.git("branch", "-q", "-D", victim)
            branches.removeAll { $0 == victim }
          }
        case 6: try world.git("pack-refs", "--all")
        case 7:
          try other.git(["commit", "-q", "--allow-empty", "-m", "Elsewhere \(step)"], environment: environment)
          try world.git("fetch", "-q", other.path, "+HEAD:refs/remotes/laptop/main")
        case 8:
          try other.git(["commit", "-q", "--allow-empty", "-m", "Elsewhere \(step)"], environment: environment)
          // Refused while `laptop` is checked out, as git refuses it for the user.
          _ = try world.repository.gitResult(["fetch", "-q", other.path, "+HEAD:refs/heads/laptop"])
          if !branches.contains("laptop") { branches.append("laptop") }
        case 9:
          let text = Bool.random(using: &random) ? "Someone <ada@example.com> <ada@example.com>\n" : ""
          try world.repository.write(text, to: ".mailmap")
        // Refused when staged changes would be lost, as for any user.
        case 10: _ = try world.repository.gitResult(["switch", "-q", "--detach", someCommit])
        case 11: try world.git("status", "--short")
        case 12:
          try world.repository.write("\(step)\n", to: "staged.txt")
          try world.git("add", "staged.txt")
        case 13:
          // A shallow file made in .git, where the stamp keeps it absent by the folder's times: the journal cannot
          // read the repository while it is there. Removed again, so that the steps after it read something.
          try world.repository.write(someCommit + "\n", to: ".git/shallow")
          #expect(world.hookedOutcome() == .failure(.shallow), "seed \(seed), step \(step): a shallow file missed")
          try FileManager.default.removeItem(atPath: world.repository.path + "/.git/shallow")
        default: try world.commit("Step \(step)")
        }
        if Int.random(in: 0..<5, using: &random) < 3 { usleep(120_000) }
        if world.isStamped { stampedSteps += 1 }
        let full = world.fullOutcome()
        #expect(world.hookedOutcome() == full, "seed \(seed), step \(step)")
        #expect(world.hookedOutcome() == full, "seed \(seed), step \(step), again")
      }
      #expect(stampedSteps >= 3, "the stamp held at only \(stampedSteps) steps: the test compares little")
    }
  }
}
