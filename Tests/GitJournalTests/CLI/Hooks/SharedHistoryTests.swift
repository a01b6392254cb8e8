import Foundation
import Testing

@testable import Facts

/// Clones, bare mirrors and linked worktrees of one project are one history: each commit counts once, in one
/// project (issue 14, item 3). Real `git`, the real binary, its hooks.
@Suite struct SharedHistoryTests {
  let world: HookWorld
  let app: String
  let backup: String

  init() throws {
    world = try HookWorld()
    app = try world.makeRepository("code/app")
    backup = try world.makeRepository("code/backup.git", bare: true)
  }

  func gitjournal(_ arguments: String...) throws -> ProcessResult {
    let result = try world.run(world.binary, arguments, in: world.home)
    try #require(result.status == 0, "gitjournal \(arguments.joined(separator: " ")): \(result.standardError)")
    return result
  }

  /// The bare backup is registered before the working repository: the commits still belong to the working one.
  /// A second clone, registered after it, adds nothing either.
  @Test func aBareBackupAndASecondCloneAddNoCommits() throws {
    _ = try gitjournal("repos", "add", backup)
    let installed = try world.gitjournal("install", in: app)
    try #require(installed.status == 0, "\(installed.standardError)")
    var commits: [HookCommit] = []
    for index in 1...7 { commits.append(try world.commit(in: app, "Change \(index)")) }
    try world.git(["push", "-q", backup, "main"], in: app)
    let clone = world.scratch.path("code/app-clone")
    try world.git(["clone", "-q", app, clone], in: world.home)
    _ = try gitjournal("repos", "add", clone)

    commits.append(try world.commit(in: app, "Change 8"))
    let day = try #require(commits.last).day
    try #require(commits.allSatisfy { $0.day == day }, "the commits crossed midnight")
    let journal = try #require(world.journal(day))
    #expect(journal.contains("commits: 8\n") && journal.contains("projects: 1\n"), "\(journal)")
    #expect(journal.contains("\n## app\n") && !journal.contains("## backup") && !journal.contains("## app-clone"))
    for commit in commits { #expect(HookWorld.count(commit.journalID, in: journal) == 1, "\(commit.subject)") }

    _ = try gitjournal("rebuild", day)
    #expect(world.journal(day) == journal, "rebuild counted differently from the hook")
    let report = try JSONDecoder().decode(
      DayReport.self, from: Data(try gitjournal("show", day, "--json").standardOutput.utf8))
    #expect(report.commitCount == 8 && report.projectCount == 1 && report.projects.map(\.name) == ["app"])
  }

  /// A commit pushed to the backup alone (not in any working repository) is the backup's.
  @Test func whatOnlyTheBareRepositoryHasIsItsOwn() throws {
    let installed = try world.gitjournal("install", in: app)
    try #require(installed.status == 0, "\(installed.standardError)")
    _ = try gitjournal("repos", "add", backup)
    let shared = try world.commit(in: app, "Shared change")
    try world.git(["push", "-q", backup, "main"], in: app)
    // Made in a throwaway clone and pushed to the backup only.
    let elsewhere = world.scratch.path("elsewhere")
    try world.git(["clone", "-q", backup, elsewhere], in: world.home)
    let pushed = try world.commit(in: elsewhere, "Pushed from elsewhere")
    try world.git(["push", "-q", "origin", "main"], in: elsewhere)

    _ = try gitjournal("rebuild", pushed.day)
    let journal = try #require(world.journal(pushed.day))
    #expect(HookWorld.count(shared.journalID, in: journal) == 1)
    #expect(HookWorld.count(pushed.journalID, in: journal) == 1)
    if shared.day == pushed.day {
      #expect(journal.contains("commits: 2\n") && journal.contains("projects: 2\n"), "\(journal)")
    }
  }

  /// A linked worktree written into the config by hand (as `repos add` does not) shares its main repository's
  /// branches: its commits are counted once, in the project configured first.
  @Test func aLinkedWorktreeInTheConfigCountsNothingTwice() throws {
    let installed = try world.gitjournal("install", in: app)
    try #require(installed.status == 0, "\(installed.standardError)")
    let first = try world.commit(in: app, "On main")
    let worktree = world.scratch.path("code/app-feature")
    try world.git(["worktree", "add", "-q", "-b", "feature", worktree], in: app)
    try world.configure("repo.app-feature.path", worktree)
    let second = try world.commit(in: worktree, "On the feature branch")

    _ = try gitjournal("rebuild", second.day)
    let journal = try #require(world.journal(second.day))
    for commit in [first, second] where commit.day == second.day {
      #expect(HookWorld.count(commit.journalID, in: journal) == 1, "\(commit.subject): \(journal)")
    }
    #expect(journal.contains("projects: 1\n") && !journal.contains("## app-feature"), "\(journal)")
  }
}
