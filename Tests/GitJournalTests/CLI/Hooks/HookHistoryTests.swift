import Foundation
import Testing

/// History rewrites and old author dates, through the hooks real git runs: amend, cherry-pick and rebase leave
/// each commit in the journal once, under its new id, in the day it was authored.
@Suite struct HookHistoryTests {
  let world: HookWorld
  let repository: String
  /// A past day whose commits are authored (and, unless a test says otherwise, committed) at fixed times.
  let pastDay = HookWorld.pastDate(daysAgo: 3, hour: 9)

  init() throws {
    world = try HookWorld()
    repository = try world.makeInstalledRepository("code/app")
  }

  /// An author and committer date on the past day, `minutes` after 09:00.
  func past(_ minutes: Int) -> String { HookWorld.gitDate(pastDay.addingTimeInterval(TimeInterval(minutes * 60))) }

  @Test func amendReplacesTheCommit() throws {
    let draft = try world.commit(in: repository, "Draft of the importer")
    try #require(world.journal(draft.day)?.contains(draft.journalID) == true)

    let amended = try world.commit(in: repository, "Importer, finished", extraArguments: ["--amend"])
    #expect(amended.id != draft.id)
    #expect(amended.day == draft.day, "amend keeps the author date")
    #expect(amended.standardError.isEmpty, "\(amended.standardError)")
    let journal = try #require(world.journal(amended.day))
    #expect(HookWorld.count(amended.journalID, in: journal) == 1)
    #expect(HookWorld.count("Importer, finished", in: journal) == 1)
    #expect(!journal.contains(draft.journalID), "the amended-away commit is still listed")
    #expect(!journal.contains("Draft of the importer"))
    #expect(journal.contains("commits: 1\n"))
  }

  @Test func cherryPickedCopyCountsOnce() throws {
    try world.commit(in: repository, "Base", authorDate: past(0), committerDate: past(0))
    try world.git(["switch", "-q", "-c", "hotfix"], in: repository)
    let original = try world.commit(
      in: repository, "Fix the off-by-one", authorDate: past(30), committerDate: past(30))
    try world.git(["switch", "-q", "main"], in: repository)
    try #require(world.journal(original.day)?.contains(original.journalID) == true)

    // Committed now: the copy is the newest, so the journal shows it once the cherry-pick's hook has run.
    let pick = try world.gitResult(["cherry-pick", original.id], in: repository)
    try #require(pick.status == 0, "\(pick.standardError)")
    #expect(!pick.standardError.contains("gitjournal:"), "\(pick.standardError)")
    let copy = try world.describe("HEAD", in: repository)
    #expect(copy.id != original.id)
    #expect(copy.day == original.day)

    let journal = try #require(world.journal(original.day))
    #expect(HookWorld.count("Fix the off-by-one", in: journal) == 1, "the copy was counted twice:\n\(journal)")
    #expect(HookWorld.count(copy.journalID, in: journal) == 1, "the cherry-pick's hook did not refresh the day")
    #expect(!journal.contains(original.journalID))
    #expect(journal.contains("commits: 2\n"))
  }

  @Test func rebaseListsEachCommitOnceWithItsNewID() throws {
    try world.commit(in: repository, "Base", authorDate: past(0), committerDate: past(0))
    try world.git(["switch", "-q", "-c", "feature"], in: repository)
    var originals: [HookCommit] = []
    for index in 1...5 {
      originals.append(
        try world.commit(
          in: repository, "Feature step \(index)", authorDate: past(10 * index), committerDate: past(10 * index)))
    }
    try world.git(["switch", "-q", "main"], in: repository)
    try world.commit(in: repository, "Main moves on")
    let day = originals[0].day
    let before = try #require(world.journal(day))
    for commit in originals { try #require(HookWorld.count(commit.journalID, in: before) == 1) }

    // After every pick, while the rebase is still running, copy the day's file aside: the post-commit hook
    // must leave it alone until post-rewrite refreshes it once at the end.
    let journalFile = world.journalDirectory + "/\(day).md"
    let snapshots = world.scratch.path("during-rebase")
    let exec = "cat \(HookWorld.shellQuoted(journalFile)) >> \(HookWorld.shellQuoted(snapshots))"
    let rebase = try world.gitResult(["rebase", "--exec", exec, "main", "feature"], in: repository)
    try #require(rebase.status == 0, "\(rebase.standardError)")
    #expect(!rebase.standardError.contains("gitjournal:"), "\(rebase.standardError)")

    let rebased = try world.revisions("main..feature", in: repository).reversed().map {
      try world.describe($0, in: repository)
    }
    try #require(rebased.count == 5)
    #expect(rebased.map(\.subject) == originals.map(\.subject))
    #expect(Set(rebased.map(\.id)).isDisjoint(with: originals.map(\.id)))

    let during = try String(contentsOfFile: snapshots, encoding: .utf8)
    #expect(HookWorld.count("---\ndate: ", in: during) == 5, "one copy per pick")
    for commit in rebased {
      #expect(!during.contains(commit.journalID), "post-commit refreshed the journal in the middle of the rebase")
    }

    let journal = try #require(world.journal(day))
    for commit in rebased {
      #expect(HookWorld.count(commit.journalID, in: journal) == 1, "\(commit.subject) is not listed once")
      #expect(HookWorld.count(commit.subject, in: journal) == 1)
    }
    for commit in originals {
      #expect(!journal.contains(commit.journalID), "the pre-rebase \(commit.subject) is still listed")
    }
    #expect(journal.contains("commits: 6\n"), "\(journal)")
  }

  @Test func commitAuthoredOnAnOlderDayRefreshesThatDay() throws {
    let today = try world.commit(in: repository, "Today's work")
    let tenDaysAgo = HookWorld.gitDate(HookWorld.pastDate(daysAgo: 10, hour: 14))
    let old = try world.commit(in: repository, "Backdated author date", authorDate: tenDaysAgo)
    #expect(old.day != today.day)
    #expect(old.standardError.isEmpty, "\(old.standardError)")
    let journal = try #require(world.journal(old.day), "the older day's file was not written")
    #expect(HookWorld.count(old.journalID, in: journal) == 1)
    #expect(world.journal(today.day)?.contains(old.journalID) == false)

    // Committed on the old day as well, below a parent committed today.
    let longAgo = HookWorld.gitDate(HookWorld.pastDate(daysAgo: 20, hour: 8))
    let older = try world.commit(in: repository, "Backdated both dates", authorDate: longAgo, committerDate: longAgo)
    let olderJournal = try #require(world.journal(older.day), "the day of the fully backdated commit was not written")
    #expect(HookWorld.count(older.journalID, in: olderJournal) == 1)
  }
}
