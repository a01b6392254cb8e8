import Foundation
import Testing

@testable import GitReader
@testable import Support

/// The hook takes another repository's records for today from the window cache while its branches stay where
/// they were. Whatever moves them, with or without a hook of its own, and whatever changes the mailmap, shows
/// in the journal at the next commit anywhere.
@Suite struct WindowCacheHookTests {
  let world: HookWorld
  let app: String
  /// Journaled, but without gitjournal's hook: its changes are only seen from the app's commits.
  let library: String

  init() throws {
    world = try HookWorld()
    app = try world.makeRepository("code/app")
    library = try world.makeRepository("code/library")
    let installed = try world.gitjournal("install", in: app)
    try #require(installed.status == 0, "\(installed.hookTestSummary)")
    let added = try world.gitjournal("repos", "add", library, in: library)
    try #require(added.status == 0, "\(added.hookTestSummary)")
  }

  @Test func branchesMovedWithoutAHookAreSeenAtTheNextCommit() throws {
    let first = try world.commit(in: library, "Library: first")
    try world.commit(in: app, "App: one")
    try #require(world.journal(first.day)?.contains(first.journalID) == true)

    let second = try world.commit(in: library, "Library: second")
    try world.commit(in: app, "App: two")
    #expect(world.journal(first.day)?.contains(second.journalID) == true, "a new commit elsewhere was missed")

    try world.git(["reset", "-q", "--hard", "HEAD~1"], in: library)
    try world.commit(in: app, "App: three")
    let journal = try #require(world.journal(first.day))
    #expect(!journal.contains(second.journalID), "a commit reset away is still listed:\n\(journal)")
    #expect(journal.contains(first.journalID))

    try world.git(["switch", "-q", "-c", "topic"], in: library)
    let onTopic = try world.commit(in: library, "Library: on a topic branch")
    try world.git(["switch", "-q", "main"], in: library)
    try world.commit(in: app, "App: four")
    #expect(world.journal(first.day)?.contains(onTopic.journalID) == true)
    try world.git(["branch", "-q", "-D", "topic"], in: library)
    try world.commit(in: app, "App: five")
    #expect(world.journal(first.day)?.contains(onTopic.journalID) == false, "a deleted branch's commit is listed")
  }

  @Test func anUncommittedMailmapChangeIsSeenAtTheNextCommit() throws {
    let old = try world.commit(
      in: library, "Library: under my old address", configuration: ["user.email": "grace@old.example"])
    try world.commit(in: app, "App: one")
    #expect(world.journal(old.day)?.contains(old.journalID) == false, "another author's commit is listed")

    try Data("\(HookWorld.name) <\(HookWorld.email)> <grace@old.example>\n".utf8)
      .write(to: URL(fileURLWithPath: library + "/.mailmap"))
    try world.commit(in: app, "App: two")
    #expect(world.journal(old.day)?.contains(old.journalID) == true, "the new mailmap was not applied")
  }
}

/// The cache file itself: what goes in comes out, whatever the text, and a damaged file is a miss.
@Suite struct WindowCacheFileTests {
  let scratch: ScratchDirectory
  let cache: WindowCache
  let key = WindowCache.Key(
    start: 0, end: 86_400, authors: .matching(["a@example.com"]), includeMerges: false, mailmap: "")

  init() throws {
    scratch = try ScratchDirectory("gitjournal-window")
    cache = WindowCache(folder: scratch.path("cache"))
  }

  let window = WindowCache.Window(
    tips: [ObjectID(hex: String(repeating: "c", count: 40))!, ObjectID(hex: String(repeating: "d", count: 40))!],
    commits: [
      WalkedCommit(
        record: CommitRecord(
          id: .repeating("a"), authorName: "Zoë \\ Tab\tName", authorEmail: "a@example.com",
          authoredAt: 1_000, authorOffsetMinutes: -330, subject: "Line\r\nbreaks \\n and \\\\ slashes",
          isMerge: false, stats: DiffStats(filesChanged: 2, insertions: 30, deletions: 4), branch: "topic/\\x"),
        committed: 1_200),
      WalkedCommit(
        record: CommitRecord(
          id: .repeating("b"), authorName: "", authorEmail: "", authoredAt: -5,
          authorOffsetMinutes: 0, subject: "", isMerge: true, stats: .zero),
        committed: -5),
    ])

  @Test func windowsComeBackAsStored() {
    #expect(cache.window(for: key) == nil)
    cache.store(window, for: key)
    #expect(cache.window(for: key) == window)
    let empty = WindowCache.Window(tips: [], commits: [])
    cache.store(empty, for: key)
    #expect(cache.window(for: key) == empty)
  }

  /// A window written before branches were named (one field fewer per commit) still reads, without branches.
  @Test func aCommitRecordWithoutTheBranchFieldReads() throws {
    let path = scratch.path("old.tsv")
    let old = WalkedCommit(record: window.commits[0].record, committed: 1_200).fields.dropLast()
    try StateFile.write([Array(old)], to: path)
    var read: [WalkedCommit] = []
    StateFile.read(path) { record in
      if let commit = WalkedCommit(record) { read.append(commit) }
      return true
    }
    var expected = window.commits[0]
    expected.record.branch = nil
    #expect(read == [expected])
  }

  @Test func anotherKeyOrADamagedFileIsAMiss() throws {
    cache.store(window, for: key)
    let otherSpan = WindowCache.Key(
      start: 0, end: 86_401, authors: .matching(["a@example.com"]), includeMerges: false, mailmap: "")
    #expect(cache.window(for: otherSpan) == nil)
    let path = scratch.path("cache/window.tsv")
    let text = try #require(FileManager.default.contents(atPath: path))
    try text.dropLast(7).write(to: URL(fileURLWithPath: path))
    #expect(cache.window(for: key) == nil, "a file cut short was read")
    try (text + Data("not\ta\trecord\n".utf8)).write(to: URL(fileURLWithPath: path))
    #expect(cache.window(for: key) == nil, "a malformed line was read")
  }
}

/// A history of many commits is read in parts on several threads, and comes back whole and in order, or not at all.
@Suite struct WalkedCommitsFileTests {
  let scratch: ScratchDirectory
  let path: String

  init() throws {
    scratch = try ScratchDirectory("gitjournal-walked")
    path = scratch.path("history.tsv")
  }

  /// Enough commits for more than two threads' share of bytes, each different, some with escapes and branches.
  static let commits: [WalkedCommit] = (0..<12_000).map { number in
    let hex = String(String(number, radix: 16).reversed()).padding(toLength: 40, withPad: "0", startingAt: 0)
    return WalkedCommit(
      record: CommitRecord(
        id: ObjectID(hex: hex)!, authorName: "Author \(number % 7)", authorEmail: "a\(number % 7)@example.com",
        authoredAt: 1_700_000_000 - Int64(number) * 600, authorOffsetMinutes: number % 3 == 0 ? -330 : 60,
        subject: number % 50 == 0 ? "Tab\there, \\ and\nbreak \(number)" : "Change number \(number) of many",
        isMerge: number % 11 == 0, stats: DiffStats(filesChanged: number % 5, insertions: number, deletions: 3),
        branch: number % 4 == 0 ? "topic/\(number % 9)" : nil),
      committed: 1_700_000_000 - Int64(number) * 600 + 30)
  }

  @Test func manyCommitsComeBackInOrder() throws {
    WalkedCommitsFile.write(Self.commits, key: "k", to: path)
    let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    #expect(size > 2 * WalkedCommitsFile.bytesPerThread, "the file is read by one thread")
    #expect(WalkedCommitsFile.read(path, key: "k") == Self.commits)
    #expect(WalkedCommitsFile.read(path, key: "other") == nil)
  }

  @Test func aDamagedLineAnywhereIsAMiss() throws {
    WalkedCommitsFile.write(Self.commits, key: "k", to: path)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    for index in [1, lines.count / 3, lines.count * 2 / 3, lines.count - 3] {
      var damaged = lines
      damaged[index] = "not\ta\tcommit"
      try damaged.joined(separator: "\n").write(toFile: path, atomically: false, encoding: .utf8)
      #expect(WalkedCommitsFile.read(path, key: "k") == nil, "line \(index) damaged")
    }
    // Cut short: no `end`, or a record after it.
    try lines.dropLast(2).joined(separator: "\n").write(toFile: path, atomically: false, encoding: .utf8)
    #expect(WalkedCommitsFile.read(path, key: "k") == nil)
    lines.insert(lines[lines.count - 2], at: lines.count - 1)
    try lines.joined(separator: "\n").write(toFile: path, atomically: false, encoding: .utf8)
    #expect(WalkedCommitsFile.read(path, key: "k") == nil)
    // A last line without its line feed is no record: what comes before it stands.
    lines.remove(at: lines.count - 2)
    try (lines.joined(separator: "\n") + "half a lin").write(toFile: path, atomically: false, encoding: .utf8)
    #expect(WalkedCommitsFile.read(path, key: "k") == Self.commits)
  }
}

/// Whatever happens to a repository's branches between two reads, a read that starts from the window cache
/// gives exactly what a full walk gives.
@Suite struct WindowCacheWalkTests {
  /// The journal day the reads ask for; commits are made from 3 hours before it into its afternoon.
  static let dayStart: Int64 = 1_780_000_000
  static let dayEnd = dayStart + 86_400

  @Test(arguments: [1, 2, 3] as [UInt64])
  func incrementalReadsEqualFullWalks(seed: UInt64) throws {
    let repository = try TemporaryRepository()
    let cacheFolder = repository.owner.path("cache")
    var random = SeededGenerator(seed: seed)
    var clock = Self.dayStart - 3 * 3600
    var branches = ["main"]
    var current = "main"

    func date() -> String {
      clock += Int64.random(in: 300...1500, using: &random)
      return "\(clock) +0000"
    }
    try repository.commit(file: "a.txt", content: "first\n", message: "First", date: date())

    for step in 0..<48 {
      var isCommitMade = false
      let log = try repository.git("log", "--all", "--format=%H").split(separator: "\n").map(String.init)
      switch Int.random(in: 0..<10, using: &random) {
      case 0:
        let name = "topic\(step)"
        try repository.git("switch", "-q", "-c", name, log.randomElement(using: &random)!)
        branches.append(name)
        current = name
      case 1:
        current = branches.randomElement(using: &random)!
        try repository.git("switch", "-q", current)
      case 2:
        let other = branches.randomElement(using: &random)!
        let environment = TemporaryRepository.identity(
          date: date(), committerDate: nil, email: TemporaryRepository.email)
        _ = try repository.gitResult(
          ["merge", "-q", "--no-ff", "-m", "Merge \(other)", other], environment: environment)
        _ = try repository.gitResult(["merge", "--abort"])
      case 3:
        _ = try repository.gitResult(["reset", "-q", "--hard", "HEAD~1"])
      case 4:
        let environment = TemporaryRepository.identity(
          date: date(), committerDate: nil, email: TemporaryRepository.email)
        try repository.git(
          ["commit", "-q", "--amend", "--allow-empty", "-m", "Amended \(step)"], environment: environment)
        isCommitMade = true
      case 5:
        let environment = TemporaryRepository.identity(
          date: date(), committerDate: nil, email: TemporaryRepository.email)
        _ = try repository.gitResult(
          ["cherry-pick", "--allow-empty", "--keep-redundant-commits", log.randomElement(using: &random)!],
          environment: environment)
        _ = try repository.gitResult(["cherry-pick", "--abort"])
      case 6 where branches.count > 1:
        let victim = branches.filter { $0 != current }.randomElement(using: &random)!
        try repository.git("branch", "-q", "-D", victim)
        branches.removeAll { $0 == victim }
      default:
        try repository.commit(
          file: "f\(Int.random(in: 0..<4, using: &random)).txt", content: "step \(step)\n",
          message: "Step \(step)", date: date())
        isCommitMade = true
      }

      let opened = try Repository.open(at: repository.path)
      func read(cached: Bool) throws -> [CommitRecord] {
        let folder: String? = cached ? cacheFolder : nil
        return try CommitReader(
          repository: opened, authors: .everyone, includeMerges: true, statsCache: StatsCache(folder: folder),
          tipTimes: TipTimes(folder: folder), windowCache: WindowCache(folder: folder)
        ).commits(authoredFrom: Self.dayStart, to: Self.dayEnd)
      }
      // Branch names aside: a commit read from the window keeps the name it got when it was new (the branch then
      // checked out), where a full walk names it from the branches as they are now (see `BranchAttribution`).
      func withoutBranches(_ records: [CommitRecord]) -> [CommitRecord] {
        records.map { record in
          var record = record
          record.branch = nil
          return record
        }
      }
      let full = try read(cached: false)
      if ProcessInfo.processInfo.environment["DEBUG_WINDOW"] != nil { print("DEBUG \(seed) \(step) \(full.count)") }
      let incremental = try read(cached: true)
      #expect(withoutBranches(incremental) == withoutBranches(full), "seed \(seed), step \(step)")
      #expect(try read(cached: true) == incremental, "seed \(seed), step \(step), unchanged tips")
      // A commit just made is the tip of the branch checked out and of no other: both name that branch.
      if isCommitMade {
        let head = try repository.headID()
        // The default branch is `main`, or once it is deleted the only branch left, if one is.
        let isDefault = branches.contains("main") ? current == "main" : branches.count == 1
        let expected = isDefault ? nil : current
        #expect(full.first { $0.id.hex == head }.map { $0.branch == expected } ?? true, "seed \(seed), step \(step)")
        #expect(
          incremental.first { $0.id.hex == head }.map { $0.branch == expected } ?? true, "seed \(seed), step \(step)")
      }
    }
  }
}
