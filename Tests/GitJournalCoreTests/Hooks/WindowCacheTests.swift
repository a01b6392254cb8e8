import Foundation
import Testing

@testable import GitJournalCore

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
    tips: [], start: 0, end: 86_400, authors: .matching(["a@example.com"]), includeMerges: false, mailmap: "")

  init() throws {
    scratch = try ScratchDirectory("gitjournal-window")
    cache = WindowCache(folder: scratch.path("cache"))
  }

  let records = [
    CommitRecord(
      id: String(repeating: "a", count: 40), authorName: "Zoë \\ Tab\tName", authorEmail: "a@example.com",
      authoredAt: 1_000, authorOffsetMinutes: -330, subject: "Line\r\nbreaks \\n and \\\\ slashes",
      isMerge: false, stats: DiffStats(filesChanged: 2, insertions: 30, deletions: 4)),
    CommitRecord(
      id: String(repeating: "b", count: 40), authorName: "", authorEmail: "", authoredAt: -5,
      authorOffsetMinutes: 0, subject: "", isMerge: true, stats: .zero),
  ]

  @Test func recordsComeBackAsStored() {
    #expect(cache.records(for: key) == nil)
    cache.store(records, for: key)
    #expect(cache.records(for: key) == records)
    cache.store([], for: key)
    #expect(cache.records(for: key) == [])
  }

  @Test func anotherKeyOrADamagedFileIsAMiss() throws {
    cache.store(records, for: key)
    let otherSpan = WindowCache.Key(
      tips: [], start: 0, end: 86_401, authors: .matching(["a@example.com"]), includeMerges: false, mailmap: "")
    #expect(cache.records(for: otherSpan) == nil)
    let path = scratch.path("cache/window.tsv")
    let text = try #require(FileManager.default.contents(atPath: path))
    try text.dropLast(7).write(to: URL(fileURLWithPath: path))
    #expect(cache.records(for: key) == nil, "a file cut short was read")
    try (text + Data("not\ta\trecord\n".utf8)).write(to: URL(fileURLWithPath: path))
    #expect(cache.records(for: key) == nil, "a malformed line was read")
  }
}
