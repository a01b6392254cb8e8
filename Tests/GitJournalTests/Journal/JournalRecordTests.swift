import Foundation
import Testing

/// The journal is a record: what it wrote stays, whatever happens to the repositories it came from, until the
/// user asks for it to be forgotten. Real hooks, real `git commit`, the real binary.
@Suite(.serialized) struct JournalRecordTests {
  /// Two journaled repositories, `app` and `site`, each installed with `gitjournal install`.
  private func makeWorld() throws -> (world: HookWorld, app: String, site: String) {
    let world = try HookWorld()
    let app = try world.makeRepository("code/app")
    let site = try world.makeRepository("code/site")
    for repository in [app, site] {
      let installed = try world.gitjournal("install", in: repository)
      #expect(installed.status == 0, "\(installed.hookTestSummary)")
    }
    return (world, app, site)
  }

  @Test func uninstallRetiresARepositoryAndKeepsItsPast() throws {
    let (world, app, site) = try makeWorld()
    let before = try world.commit(in: app, "Fix the sync conflict")
    try world.commit(in: site, "Tidy the footer")

    let uninstalled = try world.gitjournal("uninstall", in: app)
    #expect(uninstalled.status == 0, "\(uninstalled.hookTestSummary)")
    #expect(uninstalled.standardOutput.contains("stay in the journal"))
    let after = try world.commit(in: site, "Polish the header")
    var journal = try #require(world.journal(after.day))
    #expect(journal.contains(before.journalID), "the retired repository's commit left today's file:\n\(journal)")
    #expect(journal.contains("3 commits across 2 projects"))

    // A commit made after the retirement is not journaled, by a hook or by a rebuild; the earlier one stays.
    let late = try world.commit(
      in: app, "Work after the retirement", authorDate: HookWorld.gitDate(Date().addingTimeInterval(2)))
    let rebuilt = try world.gitjournal("rebuild", in: world.home)
    #expect(rebuilt.status == 0, "\(rebuilt.hookTestSummary)")
    journal = try #require(world.journal(after.day))
    #expect(journal.contains(before.journalID))
    #expect(!journal.contains(late.journalID))

    let listed = try world.gitjournal("repos", in: world.home)
    #expect(listed.standardOutput.contains("retired"), "\(listed.hookTestSummary)")
  }

  @Test func aRepositoryThatIsGoneKeepsItsSectionAndComesBackOnce() throws {
    let (world, app, site) = try makeWorld()
    let kept = try world.commit(in: app, "Fix the sync conflict")
    try world.commit(in: site, "Tidy the footer")
    let moved = world.scratch.path("code/app-elsewhere")
    try FileManager.default.moveItem(atPath: app, toPath: moved)

    let next = try world.commit(in: site, "Polish the header")
    var journal = try #require(world.journal(next.day))
    #expect(HookWorld.count(kept.journalID, in: journal) == 1, "\(journal)")
    let log = try String(contentsOfFile: world.hookLogPath, encoding: .utf8)
    #expect(log.contains("kept the 1 recorded commits of app"), "\(log)")

    let rebuilt = try world.gitjournal("rebuild", in: world.home)
    journal = try #require(world.journal(next.day))
    #expect(rebuilt.status == 2, "a skipped repository is reported: \(rebuilt.hookTestSummary)")
    #expect(HookWorld.count(kept.journalID, in: journal) == 1, "a rebuild erased the recorded commit:\n\(journal)")

    // Back where it was: read again, and still counted once.
    try FileManager.default.moveItem(atPath: moved, toPath: app)
    let last = try world.commit(in: site, "Fix a typo")
    journal = try #require(world.journal(last.day))
    #expect(HookWorld.count(kept.journalID, in: journal) == 1, "\(journal)")
    #expect(journal.contains("4 commits across 2 projects"), "\(journal)")
  }

  @Test func forgettingAProjectErasesItFromTheJournalAndKeepsTheNotes() throws {
    let (world, app, site) = try makeWorld()
    let forgotten = try world.commit(in: app, "Fix the sync conflict")
    let stays = try world.commit(in: site, "Tidy the footer")
    let path = world.journalDirectory + "/\(stays.day).md"
    let notes = "\nMy own notes about the day.\n"
    let handle = try #require(FileHandle(forWritingAtPath: path))
    handle.seekToEndOfFile()
    handle.write(Data(notes.utf8))
    try handle.close()

    let result = try world.gitjournal("repos", "remove", "app", "--forget", in: world.home)
    #expect(result.status == 0, "\(result.hookTestSummary)")
    #expect(result.standardOutput.contains("Forgetting app"))
    let journal = try #require(world.journal(stays.day))
    #expect(!journal.contains(forgotten.journalID), "\(journal)")
    #expect(journal.contains(stays.journalID))
    #expect(journal.contains("1 commit in 1 project"))
    #expect(journal.hasSuffix(notes), "the user's notes were lost:\n\(journal)")
    let config = try String(contentsOfFile: world.configPath, encoding: .utf8)
    #expect(!config.contains(app), "the forgotten repository is still in the config:\n\(config)")
  }

  @Test func removingAnUnknownRepositoryIsAnError() throws {
    let (world, _, _) = try makeWorld()
    let result = try world.gitjournal("repos", "remove", "nosuch", in: world.home)
    #expect(result.status == 1)
    #expect(result.standardOutput.isEmpty)
    #expect(result.standardError.contains("nosuch"))
  }

  /// A commit dated yesterday, made while a long rebuild reads the repositories, is in yesterday's file once the
  /// rebuild is done: the rebuild reads again every day a hook wrote since it began.
  @Test func aCommitDuringARebuildIsKept() throws {
    let world = try HookWorld()
    let big = try world.makeRepository("code/big")
    let small = try world.makeRepository("code/small")
    for repository in [big, small] { _ = try world.gitjournal("install", in: repository) }
    var script = FastImportScript()
    let now = Int64(Date().timeIntervalSince1970)
    let days = 600
    for offset in 1...days {
      for slot in 0..<4 {
        let time = now - Int64(offset * 86_400 + slot * 600)
        script.commit(
          branch: "main", email: HookWorld.email, authorTime: time, committerTime: time, zone: "+0000",
          message: "Old change \(offset)-\(slot)\n",
          changes: [.write(path: "notes/\(offset)-\(slot).txt", content: String(repeating: "line\n", count: slot + 1))])
      }
    }
    try TemporaryRepository(existingAt: big, owner: world.scratch).importHistory(script)
    try world.commit(in: small, "First small change")

    let yesterday = HookWorld.gitDate(HookWorld.pastDate(daysAgo: 1, hour: 12, minute: 30))
    let attempts = 5
    var lost = 0
    for attempt in 0..<attempts {
      let rebuild = try Subprocess(
        world.binary, ["rebuild", "--since", "-\(days + 1)", "--no-narrative"], environment: world.environment,
        currentDirectory: world.home)
      usleep(UInt32(50_000 + attempt * 40_000))
      let commit = try world.commit(in: small, "Late change \(attempt)", authorDate: yesterday)
      let result = try rebuild.wait()
      #expect(result.status == 0, "\(result.standardError)")
      if !(world.journal(commit.day)?.contains(commit.journalID) ?? false) { lost += 1 }
    }
    #expect(lost == 0, "\(lost) of \(attempts) commits made during a rebuild were lost from their day")
  }
}
