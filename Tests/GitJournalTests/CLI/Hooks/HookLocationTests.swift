import Foundation
import Testing

@testable import CLI

/// Hooks go where git really runs them from: core.hooksPath (local or global), the common git dir of linked
/// worktrees; and install refuses where a hook makes no sense or belongs to the project.
@Suite struct HookLocationTests {
  let world: HookWorld
  let repository: String

  init() throws {
    world = try HookWorld()
    repository = try world.makeRepository("code/app")
  }

  /// Installs, checks the hooks landed in `folder` and not in `.git/hooks`, and that a commit is journaled.
  func expectHooksWork(in folder: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let installed = try world.gitjournal("install", in: repository)
    try #require(installed.status == 0, "install failed: \(installed.standardError)", sourceLocation: sourceLocation)
    #expect(
      installed.standardOutput.contains("core.hooksPath"), "\(installed.standardOutput)", sourceLocation: sourceLocation
    )
    for hook in GitHook.allCases {
      #expect(
        HookInstaller.isInstalled(hook, in: folder), "\(hook.rawValue) not in \(folder)", sourceLocation: sourceLocation
      )
      #expect(
        !HookWorld.exists(repository + "/.git/hooks/" + hook.rawValue), "\(hook.rawValue) written into .git/hooks",
        sourceLocation: sourceLocation)
    }
    let commit = try world.commit(in: repository, "Commit through core.hooksPath")
    #expect(commit.standardError.isEmpty, "\(commit.standardError)", sourceLocation: sourceLocation)
    let journal = try #require(world.journal(commit.day), "git did not run the hook", sourceLocation: sourceLocation)
    #expect(HookWorld.count(commit.journalID, in: journal) == 1, sourceLocation: sourceLocation)
  }

  @Test func localHooksPathOutsideTheRepository() throws {
    let folder = world.scratch.path("shared-hooks")
    try world.git(["config", "core.hooksPath", folder], in: repository)
    try expectHooksWork(in: folder)
  }

  @Test func globalHooksPathWithTilde() throws {
    try world.git(["config", "--global", "core.hooksPath", "~/.githooks"], in: repository)
    try expectHooksWork(in: world.home + "/.githooks")

    // A second journaled repository shares the global folder: uninstalling the first leaves the hooks for it.
    let other = try world.makeRepository("code/other")
    #expect(try world.gitjournal("install", in: other).status == 0)
    let first = try world.gitjournal("uninstall", in: repository)
    #expect(first.status == 0)
    #expect(HookInstaller.isInstalled(.postCommit, in: world.home + "/.githooks"), "\(first.standardOutput)")
    #expect(world.journaledPaths() == [other])
    let last = try world.gitjournal("uninstall", in: other)
    #expect(last.status == 0)
    #expect(!HookWorld.exists(world.home + "/.githooks/post-commit"), "\(last.standardOutput)")
  }

  @Test func hooksPathInsideTheWorkingTreeIsRefused() throws {
    // Like husky: a tracked folder the project's hook manager owns.
    let husky = try world.scratch.makeFolder("code/app/.husky")
    try Data("#!/bin/sh\nnpx lint-staged\n".utf8).write(to: URL(fileURLWithPath: husky + "/pre-commit"))
    try world.git(["config", "core.hooksPath", ".husky"], in: repository)
    let before = try FileManager.default.contentsOfDirectory(atPath: husky).sorted()
    let config = try #require(HookFileSnapshot(world.configPath))

    let result = try world.gitjournal("install", in: repository)
    #expect(result.status == 1)
    #expect(result.standardError.contains("core.hooksPath"), "\(result.standardError)")
    #expect(result.standardError.hasPrefix("error: "))
    #expect(try FileManager.default.contentsOfDirectory(atPath: husky).sorted() == before)
    for hook in GitHook.allCases {
      #expect(!HookWorld.exists(repository + "/.git/hooks/" + hook.rawValue))
    }
    #expect(HookFileSnapshot(world.configPath) == config, "the repository was registered anyway")
  }

  @Test func commitInLinkedWorktreeIsJournaled() throws {
    try world.commit(in: repository, "Initial commit")
    let worktree = world.scratch.path("code/app-feature")
    try world.git(["worktree", "add", "-q", "-b", "feature", worktree], in: repository)

    let installed = try world.gitjournal("install", in: repository)
    try #require(installed.status == 0, "\(installed.standardError)")
    #expect(HookInstaller.isInstalled(.postCommit, in: repository + "/.git/hooks"))
    #expect(!HookWorld.exists(repository + "/.git/worktrees/app-feature/hooks/post-commit"))

    let commit = try world.commit(in: worktree, "Work in the linked worktree")
    #expect(commit.standardError.isEmpty, "\(commit.standardError)")
    let journal = try #require(world.journal(commit.day), "the linked worktree's commit was not journaled")
    #expect(HookWorld.count(commit.journalID, in: journal) == 1)
    #expect(journal.contains("Work in the linked worktree"))
  }

  @Test func installFromLinkedWorktreeJournalsTheRepositoryOnce() throws {
    let initial = try world.commit(in: repository, "Initial commit")
    let worktree = world.scratch.path("code/app-feature")
    try world.git(["worktree", "add", "-q", "-b", "feature", worktree], in: repository)

    let installed = try world.gitjournal("install", in: worktree)
    try #require(installed.status == 0, "\(installed.standardError)")
    #expect(HookInstaller.isInstalled(.postCommit, in: repository + "/.git/hooks"))
    // The repository is registered, not the worktree, which may be removed while the repository stays.
    #expect(world.journaledPaths() == [repository])
    let again = try world.gitjournal("install", in: repository)
    #expect(again.status == 0)
    #expect(world.journaledPaths() == [repository], "the same repository was registered twice")

    let inWorktree = try world.commit(in: worktree, "Work in the linked worktree")
    let inMain = try world.commit(in: repository, "Work in the main worktree")
    for commit in [initial, inWorktree, inMain] {
      let journal = try #require(world.journal(commit.day))
      #expect(HookWorld.count(commit.journalID, in: journal) == 1, "\(commit.subject) is not listed once:\n\(journal)")
    }

    let removed = try world.gitjournal("uninstall", in: worktree)
    #expect(removed.status == 0, "\(removed.hookTestSummary)")
    #expect(world.journaledPaths().isEmpty)
    #expect(!HookWorld.exists(repository + "/.git/hooks/post-commit"))
  }

  /// A bare repository with linked worktrees (a common set-up) takes hooks, though the bare one alone does not.
  @Test func worktreeOfBareRepository() throws {
    try world.commit(in: repository, "Initial commit")
    let bare = world.scratch.path("code/shared.git")
    try world.git(["clone", "-q", "--bare", repository, bare], in: world.home)
    let worktree = world.scratch.path("code/shared-work")
    try world.git(["worktree", "add", "-q", "-b", "work", worktree], in: bare)

    let installed = try world.gitjournal("install", in: worktree)
    try #require(installed.status == 0, "\(installed.hookTestSummary)")
    #expect(HookInstaller.isInstalled(.postCommit, in: bare + "/hooks"))
    #expect(world.journaledPaths() == [bare])

    let commit = try world.commit(in: worktree, "Work in a worktree of a bare repository")
    #expect(commit.standardError.isEmpty, "\(commit.standardError)")
    let journal = try #require(world.journal(commit.day))
    #expect(HookWorld.count(commit.journalID, in: journal) == 1)

    let removed = try world.gitjournal("uninstall", in: worktree)
    #expect(removed.status == 0, "\(removed.hookTestSummary)")
    #expect(world.journaledPaths().isEmpty)
    #expect(!HookWorld.exists(bare + "/hooks/post-commit"))
  }

  @Test func bareRepositoryIsRefused() throws {
    let bare = try world.makeRepository("code/bare.git", bare: true)
    let config = try #require(HookFileSnapshot(world.configPath))
    for (arguments, directory) in [(["install", bare], world.home), (["install"], bare)] {
      let result = try world.run(world.binary, arguments, in: directory)
      #expect(result.status == 1, "\(arguments) in \(directory): \(result.hookTestSummary)")
      #expect(result.standardError.contains("is bare"), "\(result.standardError)")
      #expect(result.standardError.contains(bare), "\(result.standardError)")
    }
    #expect(!HookWorld.exists(bare + "/hooks/post-commit"))
    #expect(HookFileSnapshot(world.configPath) == config, "the bare repository was registered anyway")
  }
}
