import Foundation
import Testing

@testable import CLI

/// `repos scan`, `repos rename` and `repos move` with the real binary.
@Suite struct ReposScanRenameMoveTests {
  let world: HookWorld

  init() throws {
    world = try HookWorld()
  }

  func gitjournal(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> ProcessResult {
    try world.run(world.binary, arguments, in: world.home)
  }

  @Test func scanFindsWorkTreesAndBareRepositoriesAndSkipsExcludedOnes() throws {
    let app = try world.makeRepository("code/app")
    try world.commit(in: app, "Initial commit")
    let bare = world.scratch.path("code/mirrors/app.git")
    try world.git(["clone", "-q", "--bare", app, bare], in: world.home)
    let worktree = world.scratch.path("code/app-feature")
    try world.git(["worktree", "add", "-q", "-b", "feature", worktree], in: app)
    let deep = try world.makeRepository("code/a/b/c/deep")
    let hidden = try world.makeRepository("code/.cache/clone")
    let scratch = try world.makeRepository("code/try-scratch")
    let excluded = try world.makeRepository("code/private")
    let nested = try world.makeRepository("code/app/vendor/lib")
    let known = try world.makeRepository("code/known")
    try world.configure("repo.known.path", known)
    try world.configure("repo.old.path", excluded)
    try world.configure("repo.old.exclude", "true")
    try world.scratchHome.addConfiguration("journal.exclude", "*-scratch")
    let before = try #require(HookFileSnapshot(world.configPath))

    let dry = try gitjournal("repos", "scan", world.scratch.path("code"), "--dry-run")
    #expect(dry.status == 0, "\(dry.hookTestSummary)")
    #expect(dry.standardOutput.contains("Would add app (\(app))"), "\(dry.standardOutput)")
    #expect(dry.standardOutput.contains("Would add app-2 (\(bare))"), "\(dry.standardOutput)")
    #expect(HookFileSnapshot(world.configPath) == before, "--dry-run changed the config")

    let scanned = try gitjournal("repos", "scan", world.scratch.path("code"))
    #expect(scanned.status == 0, "\(scanned.hookTestSummary)")
    let paths = Set(world.journaledPaths())
    // The worktree registers its main repository; the deep one is 4 folders down (default depth 3); hidden folders
    // and repositories inside another are not looked into.
    // (`journaledPaths` lists the excluded section's path too.)
    #expect(paths == [app, bare, known, excluded], "\(scanned.standardOutput)")
    for skipped in [scratch, excluded] {
      #expect(scanned.standardOutput.contains("Skipped \(skipped): "), "\(scanned.standardOutput)")
    }
    #expect(scanned.standardOutput.contains("known (\(known)) is already configured."))
    #expect(scanned.standardOutput.contains("2 added, 1 already configured, 2 skipped."), "\(scanned.standardOutput)")
    #expect(![deep, hidden, nested, worktree].contains { scanned.standardOutput.contains($0) })

    let deeper = try gitjournal("repos", "scan", world.scratch.path("code"), "--depth", "4", "--install")
    #expect(deeper.status == 0, "\(deeper.hookTestSummary)")
    #expect(Set(world.journaledPaths()) == [app, bare, known, excluded, deep])
    #expect(HookInstaller.isInstalled(.postCommit, in: deep + "/.git/hooks"), "\(deeper.standardOutput)")
    let commit = try world.commit(in: deep, "Found by the scan")
    #expect(world.journal(commit.day)?.contains(commit.journalID) == true)

    let bad = try gitjournal("repos", "scan", world.scratch.path("code"), "--depth", "many")
    #expect(bad.status == ExitStatus.usage)
    let missing = try gitjournal("repos", "scan", world.scratch.path("nowhere"))
    #expect(missing.status == 1)
    #expect(missing.standardError.contains("is not a folder"))
  }

  @Test func scanInstallsHooksOnlyWithInstall() throws {
    let app = try world.makeRepository("code/app")
    #expect(try gitjournal("repos", "scan", world.scratch.path("code")).status == 0)
    #expect(world.journaledPaths() == [app])
    #expect(!HookWorld.exists(app + "/.git/hooks/post-commit"))
  }

  @Test func renameKeepsPastFilesUntilRebuildWhichSaysSo() throws {
    let app = try world.makeRepository("code/app")
    #expect(try world.gitjournal("install", in: app).status == 0)
    try world.configure("repo.app.private", "true")
    let yesterday = HookWorld.gitDate(HookWorld.pastDate(daysAgo: 1, hour: 10))
    let old = try world.commit(in: app, "Yesterday's work", authorDate: yesterday)
    let today = try world.commit(in: app, "Today's work")

    let renamed = try gitjournal("repos", "rename", "app", "notes-app")
    #expect(renamed.status == 0, "\(renamed.hookTestSummary)")
    #expect(renamed.standardOutput.contains("past files keep 'app'"), "\(renamed.standardOutput)")
    let config = try world.git(["config", "-f", world.configPath, "--list"], in: world.home)
    #expect(config.contains("repo.notes-app.path=\(app)\n"), "\(config)")
    #expect(config.contains("repo.notes-app.private=true\n"), "\(config)")
    #expect(!config.contains("repo.app."), "\(config)")
    #expect(world.journal(today.day)?.contains("## notes-app") == true)
    if old.day != today.day {
      #expect(world.journal(old.day)?.contains("## app\n") == true, "a past file changed at once")
    }

    let rebuilt = try gitjournal("rebuild", old.day)
    #expect(rebuilt.status == 0, "\(rebuilt.hookTestSummary)")
    #expect(rebuilt.standardOutput.contains("app is now notes-app"), "\(rebuilt.standardOutput)")
    #expect(world.journal(old.day)?.contains("## notes-app") == true)

    let taken = try gitjournal("repos", "rename", "nosuch", "x")
    #expect(taken.status == 1)
    #expect(taken.standardError.contains("no configured repository is named 'nosuch'"))
  }

  @Test func moveFollowsTheRepositoryToItsNewFolder() throws {
    let app = try world.makeRepository("code/app")
    #expect(try world.gitjournal("install", in: app).status == 0)
    let first = try world.commit(in: app, "Before the move")
    let moved = world.scratch.path("src/app")
    try FileManager.default.createDirectory(
      atPath: world.scratch.path("src"), withIntermediateDirectories: true)
    try FileManager.default.moveItem(atPath: app, toPath: moved)

    // The next commit there finds nothing (the config points at the old folder) and the log says what to do.
    let lost = try world.commit(in: moved, "After the move")
    let other = try world.makeRepository("code/other")
    #expect(try world.gitjournal("install", in: other).status == 0)
    try world.commit(in: other, "Elsewhere")
    #expect(
      world.hookLogLines().contains { $0.contains("gitjournal repos move app <new-path>") }, "\(world.hookLogLines())")

    let result = try gitjournal("repos", "move", "app", moved)
    #expect(result.status == 0, "\(result.hookTestSummary)")
    #expect(result.standardOutput.contains("Moved app: \(app) -> \(moved)"), "\(result.standardOutput)")
    #expect(Set(world.journaledPaths()) == [moved, other])
    let next = try world.commit(in: moved, "Journaled again")
    let journal = try #require(world.journal(next.day))
    for commit in [first, lost, next] {
      #expect(HookWorld.count(commit.journalID, in: journal) == 1, "\(commit.subject):\n\(journal)")
    }

    let taken = try gitjournal("repos", "move", "app", other)
    #expect(taken.status == 1)
    #expect(taken.standardError.contains("configured already, as 'other'"), "\(taken.standardError)")
  }
}
