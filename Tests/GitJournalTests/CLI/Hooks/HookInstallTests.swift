import Foundation
import Testing

@testable import CLI

/// `gitjournal install` and `uninstall` with the real binary, and what a real `git commit` then does.
@Suite struct HookInstallTests {
  let world: HookWorld
  let repository: String
  var hooks: String { repository + "/.git/hooks" }

  init() throws {
    world = try HookWorld()
    repository = try world.makeRepository("code/app")
  }

  func install(in directory: String? = nil) throws -> ProcessResult {
    let result = try world.gitjournal("install", in: directory ?? repository)
    try #require(result.status == 0, "install failed: \(result.standardError)")
    return result
  }

  @Test func commitIsJournaledBeforeGitCommitReturns() throws {
    let installed = try install()
    #expect(installed.standardError.isEmpty)
    #expect(installed.standardOutput.contains("installed post-commit"))
    #expect(world.journaledPaths() == [repository])

    let commit = try world.commit(in: repository, "Teach the parser about tabs")
    #expect(commit.standardError.isEmpty, "the hook wrote on stderr: \(commit.standardError)")
    // Read right after `git commit` returned: the hook ran synchronously, nothing is left in the background.
    let journal = try #require(world.journal(commit.day), "no journal file for \(commit.day)")
    #expect(HookWorld.count(commit.journalID, in: journal) == 1)
    #expect(journal.contains("Teach the parser about tabs"))
    #expect(journal.contains("commits: 1\n"))

    let second = try world.commit(in: repository, "Second change")
    #expect(second.standardError.isEmpty)
    let updated = try #require(world.journal(second.day))
    #expect(HookWorld.count(second.journalID, in: updated) == 1)
    if second.day == commit.day {
      #expect(HookWorld.count(commit.journalID, in: updated) == 1)
      #expect(updated.contains("commits: 2\n"))
    }
  }

  @Test func installingTwiceChangesNothing() throws {
    _ = try install()
    let postCommit = try #require(HookFileSnapshot(hooks + "/post-commit"))
    let postRewrite = try #require(HookFileSnapshot(hooks + "/post-rewrite"))
    let config = try #require(HookFileSnapshot(world.configPath))
    #expect(postCommit.permissions & 0o111 == 0o111, "the hook is not executable")

    let again = try install()
    #expect(again.standardOutput.contains("already journaled"), "\(again.standardOutput)")
    // Same inode too: the files were not even rewritten with the same bytes.
    #expect(HookFileSnapshot(hooks + "/post-commit") == postCommit)
    #expect(HookFileSnapshot(hooks + "/post-rewrite") == postRewrite)
    #expect(HookFileSnapshot(world.configPath) == config)
    #expect(!HookWorld.exists(hooks + "/post-commit" + HookScript.chainedSuffix))
    #expect(world.journaledPaths() == [repository])
  }

  @Test func uninstallingWhatIsNotInstalledSaysSo() throws {
    let config = try #require(HookFileSnapshot(world.configPath))
    let result = try world.gitjournal("uninstall", in: repository)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("not installed"), "\(result.standardOutput)")
    #expect(result.standardError.isEmpty)
    #expect(!HookWorld.exists(hooks + "/post-commit"))
    #expect(HookFileSnapshot(world.configPath) == config, "the config file changed")
  }

  @Test func uninstallRemovesHooksAndConfigEntry() throws {
    _ = try install()
    try #require(HookWorld.exists(hooks + "/post-commit"))
    let result = try world.gitjournal("uninstall", in: repository)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("removed post-commit"), "\(result.standardOutput)")
    for hook in GitHook.allCases {
      #expect(!HookWorld.exists(hooks + "/" + hook.rawValue), "\(hook.rawValue) is still there")
      #expect(!HookWorld.exists(hooks + "/" + hook.rawValue + HookScript.chainedSuffix))
    }
    #expect(world.journaledPaths().isEmpty)

    // Nothing journals this repository any more.
    let commit = try world.commit(in: repository, "After uninstall")
    #expect(commit.standardError.isEmpty)
    #expect(world.journal(commit.day) == nil)

    let again = try world.gitjournal("uninstall", in: repository)
    #expect(again.status == 0)
    #expect(again.standardOutput.contains("not installed"), "\(again.standardOutput)")
  }

  @Test func uninstallKeepConfigKeepsTheEntry() throws {
    _ = try install()
    let result = try world.gitjournal("uninstall", "--keep-config", in: repository)
    #expect(result.status == 0, "\(result.standardError)")
    for hook in GitHook.allCases {
      #expect(!HookWorld.exists(hooks + "/" + hook.rawValue), "\(hook.rawValue) is still there")
    }
    #expect(world.journaledPaths() == [repository])
  }

  @Test func foreignHookKeepsRunningAndComesBackByteForByte() throws {
    let marker = world.scratch.path("foreign-hook-ran")
    let foreign = hooks + "/post-commit"
    let script = "#!/bin/sh\n# the project's own hook\necho \"ran $#\" >> \(HookWorld.shellQuoted(marker))\nexit 3\n"
    try Data(script.utf8).write(to: URL(fileURLWithPath: foreign))
    try FileManager.default.setAttributes([.posixPermissions: 0o750], ofItemAtPath: foreign)
    let original = try #require(HookFileSnapshot(foreign))

    let installed = try install()
    #expect(installed.standardOutput.contains("still runs first"), "\(installed.standardOutput)")
    let chained = HookFileSnapshot(foreign + HookScript.chainedSuffix)
    #expect(original.sameContent(as: chained), "the foreign hook was not kept aside intact")

    let commit = try world.commit(in: repository, "Commit with a foreign hook")
    #expect(commit.status == 0)
    #expect(commit.standardError.isEmpty, "\(commit.standardError)")
    let ran = FileManager.default.contents(atPath: marker).map { String(decoding: $0, as: UTF8.self) }
    #expect(ran == "ran 0\n", "the foreign hook did not run exactly once")
    let journal = try #require(world.journal(commit.day))
    #expect(HookWorld.count(commit.journalID, in: journal) == 1)

    // Installing again must not chain gitjournal's own hook onto itself.
    _ = try install()
    #expect(original.sameContent(as: HookFileSnapshot(foreign + HookScript.chainedSuffix)))

    let removed = try world.gitjournal("uninstall", in: repository)
    #expect(removed.status == 0, "\(removed.standardError)")
    #expect(removed.standardOutput.contains("restored"), "\(removed.standardOutput)")
    #expect(original.sameContent(as: HookFileSnapshot(foreign)), "the foreign hook did not come back as it was")
    #expect(!HookWorld.exists(foreign + HookScript.chainedSuffix))
    #expect(!HookWorld.exists(hooks + "/post-rewrite"))
  }

  /// Adds a line before the script's final `exit`, as a user extending gitjournal's hook by hand would.
  func extendHook(_ path: String, with line: String) throws {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let exit = "\nexit \"$status\"\n"
    try #require(text.contains(exit), "no final exit in:\n\(text)")
    let edited = text.replacingOccurrences(of: exit, with: "\n" + line + exit)
    try Data(edited.utf8).write(to: URL(fileURLWithPath: path))
  }

  @Test func editedHookKeepsRunningAndComesBackByteForByte() throws {
    _ = try install()
    let hook = hooks + "/post-commit"
    let marker = world.scratch.path("extension-ran")
    try extendHook(hook, with: "echo extended >> \(HookWorld.shellQuoted(marker))")
    let edited = try #require(HookFileSnapshot(hook))

    let again = try install()
    #expect(again.standardOutput.contains("edited"), "\(again.standardOutput)")
    #expect(edited.sameContent(as: HookFileSnapshot(hook + HookScript.chainedSuffix)), "the edited hook was not kept")
    #expect(!(try String(contentsOfFile: hook, encoding: .utf8)).contains("extended"))

    let commit = try world.commit(in: repository, "Commit after editing the hook")
    #expect(commit.standardError.isEmpty, "\(commit.standardError)")
    let ran = FileManager.default.contents(atPath: marker).map { String(decoding: $0, as: UTF8.self) }
    #expect(ran == "extended\n", "the user's line did not run exactly once")
    let journal = try #require(world.journal(commit.day))
    #expect(HookWorld.count(commit.journalID, in: journal) == 1)

    // Installing again leaves both as they are.
    let third = try install()
    #expect(edited.sameContent(as: HookFileSnapshot(hook + HookScript.chainedSuffix)))
    #expect(!third.standardOutput.contains("installed post-commit"), "\(third.standardOutput)")

    let removed = try world.gitjournal("uninstall", in: repository)
    #expect(removed.status == 0, "\(removed.hookTestSummary)")
    #expect(edited.sameContent(as: HookFileSnapshot(hook)), "the edited hook did not come back as it was")
    #expect(!HookWorld.exists(hook + HookScript.chainedSuffix))
    #expect(!HookWorld.exists(hooks + "/post-rewrite"))
  }

  @Test func uninstallKeepsAHookEditedInPlace() throws {
    _ = try install()
    let hook = hooks + "/post-commit"
    try extendHook(hook, with: "echo extended")
    let edited = try #require(HookFileSnapshot(hook))

    let removed = try world.gitjournal("uninstall", in: repository)
    #expect(removed.status == 0, "\(removed.hookTestSummary)")
    #expect(removed.standardOutput.contains("edited"), "\(removed.standardOutput)")
    #expect(HookFileSnapshot(hook) == edited, "the edited hook was removed or rewritten")
    #expect(!HookWorld.exists(hooks + "/post-rewrite"))
    #expect(world.journaledPaths().isEmpty)
  }
}
