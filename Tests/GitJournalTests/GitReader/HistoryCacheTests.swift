import Foundation
import Testing

@testable import GitReader

/// A long span read through the history cache gives exactly what a walk without it gives, branch names included,
/// whatever happened to the references in between; and while nothing moved, it is the cache that answers, without
/// listing the branches once their files stamp as when it was stored.
@Suite struct HistoryCacheTests {
  /// The span a rebuild of a month asks for; commits are made inside it.
  static let start: Int64 = 1_780_000_000
  static let end = start + 30 * 86_400

  let repository: TemporaryRepository
  /// Another clone's commits come from here (`git fetch`), as from another machine.
  let other: TemporaryRepository
  let cacheFolder: String
  var clock = start + 3600

  init() throws {
    repository = try TemporaryRepository()
    cacheFolder = repository.owner.path("cache")
    other = try TemporaryRepository(named: "other", in: repository.owner, initialize: false)
  }

  mutating func date() -> String {
    clock += 5400
    return "\(clock) +0000"
  }

  func read(cached: Bool) throws -> [CommitRecord] {
    try reading(cached: cached).commits
  }

  /// A read of the span, and where its records came from. `settled`: the references' stamp is taken as a few seconds
  /// later (`SettledClock`), when the files changed just now are no longer too recent to stamp (`PathStamp.isRacy`).
  func reading(cached: Bool, settled: Bool = false) throws -> (commits: [CommitRecord], source: CommitReader.Source) {
    let folder: String? = cached ? cacheFolder : nil
    var reader = CommitReader(
      repository: try Repository.open(at: repository.path), authors: .everyone, includeMerges: false,
      statsCache: StatsCache(folder: nil), tipTimes: TipTimes(folder: nil), historyCache: HistoryCache(folder: folder),
      root: repository.path)
    if settled { reader.stampClock = SettledClock.now }
    return try reader.read(authoredFrom: Self.start, to: Self.end)
  }

  /// The cached read equals a full walk, twice in a row (the second from the file). `changing`: the change made
  /// since the last step changed what the walk gives, so a stale cache would show here (checked, so that every
  /// step tests something). Every step changes a file the references are read from: the first read after it is never
  /// answered by the references' stamp, and the second, once the files are older than a change could hide in
  /// (`PathStamp.isRacy`), always is.
  func expectSameAsWalk(
    _ step: String, after previous: inout [CommitRecord], changing: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let full = try read(cached: false)
    if changing { #expect(full != previous, "\(step) changed nothing to test", sourceLocation: sourceLocation) }
    let first = try reading(cached: true, settled: true)
    #expect(first.commits == full, "after \(step)", sourceLocation: sourceLocation)
    #expect(first.source != .historyByStamp, "after \(step), taken by a stale stamp", sourceLocation: sourceLocation)
    let second = try reading(cached: true, settled: true)
    #expect(second.commits == full, "after \(step), read again", sourceLocation: sourceLocation)
    #expect(second.source == .historyByStamp, "after \(step), the branches were listed", sourceLocation: sourceLocation)
    previous = full
  }

  /// Every way a reference the walk starts from can change, one after the other.
  @Test mutating func everyReferenceChangeIsAMiss() throws {
    var last: [CommitRecord] = []
    try repository.commit(file: "a.txt", content: "one\n", message: "First", date: date())
    try repository.commit(file: "a.txt", content: "two\n", message: "Second", date: date())
    try expectSameAsWalk("the first commits", after: &last)

    try repository.commit(file: "b.txt", content: "b\n", message: "A commit", date: date())
    try expectSameAsWalk("a commit", after: &last)

    try repository.write("amended\n", to: "b.txt")
    try repository.git("add", "-A")
    try repository.git(
      ["commit", "-q", "--amend", "-m", "Amended"],
      environment: TemporaryRepository.identity(date: date(), committerDate: nil, email: TemporaryRepository.email))
    try expectSameAsWalk("an amend", after: &last)

    try repository.git("reset", "-q", "--hard", "HEAD~2")
    try expectSameAsWalk("a reset", after: &last)

    try repository.git("switch", "-q", "-c", "topic")
    try repository.commit(file: "c.txt", content: "c\n", message: "On topic", date: date())
    try repository.git("switch", "-q", "main")
    try expectSameAsWalk("a new branch", after: &last)

    // The same commits, under another name: only the branch names differ.
    try repository.git("branch", "-q", "-m", "topic", "feature")
    try expectSameAsWalk("a branch renamed", after: &last)

    func madeByCommitTree(_ message: String) throws -> String {
      try repository.git(
        ["commit-tree", "feature^{tree}", "-p", "feature", "-m", message],
        environment: TemporaryRepository.identity(date: date(), committerDate: nil, email: TemporaryRepository.email)
      ).trimmingCharacters(in: .whitespacesAndNewlines)
    }
    try repository.git("update-ref", "refs/heads/feature", try madeByCommitTree("Plumbing"))
    try expectSameAsWalk("update-ref", after: &last)

    try repository.git("pack-refs", "--all")
    try expectSameAsWalk("pack-refs", after: &last, changing: false)
    try repository.git("update-ref", "refs/heads/feature", try madeByCommitTree("Plumbing again"))
    try expectSameAsWalk("update-ref of a packed branch", after: &last)

    try repository.commit(file: "d.txt", content: "d\n", message: "On main", date: date())
    try expectSameAsWalk("a commit on main", after: &last)
    try repository.git("branch", "-q", "-D", "feature")
    try expectSameAsWalk("a branch deleted", after: &last)

    // A commit on a detached HEAD counts once a branch holds it.
    try repository.git("switch", "-q", "--detach", "HEAD")
    try repository.commit(file: "e.txt", content: "e\n", message: "Detached", date: date())
    try expectSameAsWalk("a commit on a detached HEAD", after: &last, changing: false)
    try repository.git("switch", "-q", "main")
    try expectSameAsWalk("HEAD back on main", after: &last, changing: false)
    try repository.git("branch", "kept", "HEAD@{1}")
    try expectSameAsWalk("a branch at the detached commit", after: &last)
  }

  /// A symbolic ref among origin's refs is stamped while it points within them (or at a local branch); one that points
  /// elsewhere (a tag, another remote), whose target's file is not stamped, means no stamp: the branches are listed.
  @Test mutating func aSymbolicRefOutOfOriginsRefsTakesNoStamp() throws {
    try repository.commit(file: "a.txt", content: "one\n", message: "First", date: date())
    try repository.git("tag", "v1")
    let origin = repository.path + "/.git/refs/remotes/origin"
    try FileManager.default.createDirectory(atPath: origin, withIntermediateDirectories: true)
    try Data("ref: refs/tags/v1\n".utf8).write(to: URL(fileURLWithPath: origin + "/HEAD"))
    _ = try reading(cached: true, settled: true)
    #expect(
      try reading(cached: true, settled: true).source == .historyByKey, "a stamp was taken over a ref it does not cover"
    )

    try Data("ref: refs/remotes/origin/main\n".utf8).write(to: URL(fileURLWithPath: origin + "/HEAD"))
    _ = try reading(cached: true, settled: true)
    #expect(try reading(cached: true, settled: true).source == .historyByStamp)
  }

  /// Commits fetched from another clone: into a local branch, and into origin's default branch, whose line decides
  /// which branch a commit is named after (a branch made from origin's newest commit names it unless origin's
  /// branch holds it).
  @Test mutating func fetchesAreMisses() throws {
    var last: [CommitRecord] = []
    try repository.commit(file: "a.txt", content: "one\n", message: "First", date: date())
    try repository.git(["clone", "-q", repository.path, other.path], in: repository.owner.path)
    try other.commit(file: "o.txt", content: "o\n", message: "From the other machine", date: date())
    try repository.git("remote", "add", "origin", other.path)
    try expectSameAsWalk("before any fetch", after: &last)

    try repository.git("fetch", "-q", "origin")
    try repository.git("remote", "set-head", "origin", "main")
    try repository.git("switch", "-q", "-c", "work", "origin/main")
    try repository.commit(file: "w.txt", content: "w\n", message: "Work", date: date())
    try expectSameAsWalk("a fetch and a branch from it", after: &last)

    try other.git("reset", "-q", "--hard", "HEAD~1")
    try repository.git("fetch", "-q", "origin")
    try expectSameAsWalk("a fetch that moved origin's default branch back", after: &last)

    try other.commit(file: "o.txt", content: "o2\n", message: "Again from the other machine", date: date())
    try repository.git("switch", "-q", "main")
    try repository.git("fetch", "-q", "origin", "main:work-copy")
    try expectSameAsWalk("a fetch into a local branch", after: &last)

    try repository.git("config", "init.defaultBranch", "work")
    try repository.git("remote", "set-head", "origin", "--delete")
    try expectSameAsWalk("another default branch", after: &last)
  }

  /// While nothing moved the cache answers (a record changed in the file comes back), and a mailmap change is a
  /// miss.
  @Test mutating func theCacheAnswersUntilSomethingMoves() throws {
    try repository.commit(file: "a.txt", content: "one\n", message: "First", date: date())
    let first = try read(cached: true)
    let path = cacheFolder + "/history.tsv"
    let text = try String(contentsOfFile: path, encoding: .utf8)
    try #require(text.contains("\tFirst"))
    try text.replacingOccurrences(of: "\tFirst", with: "\tFrom the cache")
      .write(toFile: path, atomically: true, encoding: .utf8)
    #expect(try read(cached: true).map(\.subject) == ["From the cache"], "the cache was not used")

    try Data("Grace <grace@example.com> <\(TemporaryRepository.email)>\n".utf8)
      .write(to: URL(fileURLWithPath: repository.path + "/.mailmap"))
    let mapped = try read(cached: true)
    #expect(mapped.map(\.subject) == ["First"])
    #expect(mapped.map(\.authorEmail) == ["grace@example.com"])
    #expect(first.map(\.authorEmail) == [TemporaryRepository.email])
    var last = first
    try expectSameAsWalk("a mailmap", after: &last)

    // A mailmap from a blob may follow any reference: never cached.
    try repository.git("config", "mailmap.blob", "HEAD:.mailmap")
    try FileManager.default.removeItem(atPath: path)
    _ = try read(cached: true)
    #expect(!FileManager.default.fileExists(atPath: path), "a read with mailmap.blob was cached")
  }

  /// A `mailmap.file` whose file cannot be told from its value (a relative path, which libgit2 resolves itself) is
  /// never cached under: an edit of that file would otherwise go unseen. One named from the home folder (`~/`) is
  /// keyed by the file it names.
  @Test mutating func aMailmapFileGivenRelativelyIsNeverCached() throws {
    try repository.commit(file: "a.txt", content: "one\n", message: "First", date: date())
    try repository.git("config", "mailmap.file", "people.mailmap")
    _ = try read(cached: true)
    #expect(!FileManager.default.fileExists(atPath: cacheFolder + "/history.tsv"), "cached under a relative mailmap")
    let home = try #require(ProcessInfo.processInfo.environment["HOME"])
    try repository.git("config", "mailmap.file", "~/gitjournal-no-such.mailmap")
    #expect(try Repository.open(at: repository.path).mailmapSources()?.contains(home + "/gitjournal-no-such") == true)
  }

  /// A rebuild that finds nothing moved writes the same journal as the one before; after an amend, the journal has
  /// the new commit and not the old.
  @Test func aSecondRebuildAfterAnAmendShowsTheAmend() async throws {
    let sandbox = try JournalSandbox()
    let repository = try sandbox.makeRepository("app")
    try sandbox.register(repository)
    try repository.commit(file: "a.txt", content: "one\n", message: "Before", date: "2026-02-10T09:00:00Z")
    try repository.commit(file: "b.txt", content: "two\n", message: "To amend", date: "2026-02-12T09:00:00Z")
    let arguments = ["rebuild", "--since", "2026-02-01", "--until", "2026-02-20", "--no-narrative"]
    #expect(await sandbox.run(arguments).status == 0)
    let first = try #require(sandbox.journalFile("2026-02-12"))
    #expect(first.contains("To amend"))
    let again = await sandbox.run(arguments)
    #expect(again.status == 0)
    #expect(again.standardOutput.contains("2026-02-12  1 commit in 1 project  unchanged"), "\(again)")
    #expect(sandbox.journalFile("2026-02-12") == first)

    try repository.git(
      ["commit", "-q", "--amend", "-m", "Amended"],
      environment: TemporaryRepository.identity(
        date: "2026-02-12T09:00:00Z", committerDate: nil, email: TemporaryRepository.email))
    #expect(await sandbox.run(arguments).status == 0)
    let amended = try #require(sandbox.journalFile("2026-02-12"))
    #expect(amended.contains("Amended"))
    #expect(!amended.contains("To amend"), "the cache gave the commit amended away:\n\(amended)")
  }
}
