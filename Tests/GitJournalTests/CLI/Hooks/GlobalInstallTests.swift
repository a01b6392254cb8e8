import Foundation
import Testing

@testable import CLI

/// `install --global` and `uninstall --global` with the real binary and real `git commit`s: the user's global git
/// config comes back byte for byte, and the hooks folder is gitjournal's.
@Suite struct GlobalInstallTests {
  let world: HookWorld
  var gitconfig: String { world.home + "/.gitconfig" }
  var hooksFolder: String { world.home + "/.local/share/gitjournal/global/hooks" }

  init() throws {
    world = try HookWorld()
  }

  @discardableResult
  func installGlobal(sourceLocation: SourceLocation = #_sourceLocation) throws -> ProcessResult {
    let result = try world.gitjournal("install", "--global", in: world.home)
    try #require(result.status == 0, "\(result.hookTestSummary)", sourceLocation: sourceLocation)
    return result
  }

  @discardableResult
  func uninstallGlobal(sourceLocation: SourceLocation = #_sourceLocation) throws -> ProcessResult {
    let result = try world.gitjournal("uninstall", "--global", in: world.home)
    try #require(result.status == 0, "\(result.hookTestSummary)", sourceLocation: sourceLocation)
    return result
  }

  /// Where git runs `repository`'s hooks from, as git itself says.
  func hooksPath(of repository: String) throws -> String {
    try world.git(["rev-parse", "--path-format=absolute", "--git-path", "hooks"], in: repository)
      .trimmingCharacters(in: .newlines)
  }

  /// Layouts of a global git config a user may have: each one must come back byte for byte.
  static let layouts: [(name: String, text: String?)] = [
    ("the test HOME's", GitHome.configText(name: HookWorld.name, email: HookWorld.email)),
    (
      "comments, odd spacing, no final line feed and a previous core.hooksPath",
      "# my settings\n[user]\n\tname = \(HookWorld.name)\n  email=\(HookWorld.email)  ; work\n[init]\n"
        + "\tdefaultBranch = main\n\n[core]\n    hooksPath=~/my hooks   # from another tool\n[alias] co = checkout"
    ),
    (
      "CRLF line ends and a quoted previous value",
      "[user]\r\n\tname = \(HookWorld.name)\r\n\temail = \(HookWorld.email)\r\n[init]\r\n\tdefaultBranch = main\r\n"
        + "[core]\r\n\thooksPath = \"~/my hooks\"\r\n"
    ),
    ("none at all (only the XDG file)", nil),
  ]

  @Test(arguments: 0..<4) func roundTripLeavesTheGlobalConfigByteForByte(_ index: Int) throws {
    let layout = Self.layouts[index]
    let xdg = world.home + "/.config/git/config"
    if let text = layout.text {
      try Data(text.utf8).write(to: URL(fileURLWithPath: gitconfig))
      chmod(gitconfig, 0o600)
    } else {
      // Identity in the XDG file, which git reads too; --global then writes ~/.gitconfig, which does not exist.
      try FileManager.default.createDirectory(
        atPath: (xdg as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try FileManager.default.moveItem(atPath: gitconfig, toPath: xdg)
    }
    let previousHooks = try world.scratch.makeFolder("home/my hooks")
    let before = HookFileSnapshot(gitconfig)
    let xdgBefore = HookFileSnapshot(xdg)
    let repository = try world.makeRepository("code/app")
    let hooksBefore = try hooksPath(of: repository)

    let installed = try installGlobal()
    #expect(try hooksPath(of: repository) == hooksFolder, "\(layout.name): \(installed.standardOutput)")
    if layout.text?.contains("hooksPath") == true {
      #expect(installed.standardOutput.contains(previousHooks), "\(installed.standardOutput)")
    }
    // Twice is the same as once.
    let again = try installGlobal()
    #expect(again.standardOutput.contains("already installed"), "\(again.standardOutput)")
    let commit = try world.commit(in: repository, "Commit under the global hook")
    #expect(world.journal(commit.day)?.contains(commit.journalID) == true, "\(layout.name): not journaled")

    let removed = try uninstallGlobal()
    #expect(removed.standardOutput.contains("as it was"), "\(removed.standardOutput)")
    #expect(before?.sameContent(as: HookFileSnapshot(gitconfig)) ?? true, "\(layout.name): ~/.gitconfig differs")
    if let before {
      #expect(before.permissions == 0o600 || layout.text == nil)
    } else {
      #expect(!HookWorld.exists(gitconfig), "\(layout.name): ~/.gitconfig was left behind")
    }
    #expect(xdgBefore?.sameContent(as: HookFileSnapshot(xdg)) ?? !HookWorld.exists(xdg))
    #expect(try hooksPath(of: repository) == hooksBefore)
    #expect(!HookWorld.exists(world.home + "/.local/share/gitjournal"), "gitjournal's hooks folder was left")
  }

  @Test func aSettingMadeWithGitConfigAfterInstallIsKeptAndTheRestUndone() throws {
    let before = try #require(HookFileSnapshot(gitconfig))
    try installGlobal()
    // git adds the key to the file's last [core] section, which is the user's, not gitjournal's include.
    try world.git(["config", "--global", "core.editor", "vi"], in: world.home)
    try uninstallGlobal()
    let text = try String(contentsOfFile: gitconfig, encoding: .utf8)
    #expect(text == String(decoding: before.bytes, as: UTF8.self) + "\teditor = vi\n", "\(text)")
    let rest = try world.git(["config", "--global", "--list"], in: world.home)
    #expect(rest.contains("core.editor=vi"))
    #expect(!rest.contains("hookspath"))
  }

  @Test func theHooksFolderHoldsAScriptForEveryHookGitKnows() throws {
    try installGlobal()
    let names = try FileManager.default.contentsOfDirectory(atPath: hooksFolder).sorted()
    #expect(names == GlobalHookScript.hookNames.sorted())
    // Every name githooks(5) documents, as this machine's git ships it.
    if let manual = try? world.run("/bin/sh", ["-c", "zcat /usr/share/man/man5/githooks.5.gz"], in: world.home),
      manual.status == 0
    {
      let documented = manual.standardOutput.split(separator: "\n").filter { $0.hasPrefix(".SS \"") }.map {
        $0.dropFirst(5).dropLast().replacingOccurrences(of: "\\-", with: "-")
      }
      #expect(Set(documented) == Set(GlobalHookScript.hookNames))
    }
    for name in names {
      let snapshot = try #require(HookFileSnapshot(hooksFolder + "/" + name))
      #expect(snapshot.permissions & 0o111 == 0o111, "\(name) is not executable")
      let text = String(decoding: snapshot.bytes, as: UTF8.self)
      #expect(GlobalHookScript.isGlobalHook(text))
      #expect(text.contains("--config '\(world.configPath)'") == GitHook.allCases.map(\.rawValue).contains(name))
    }
  }

  @Test func withoutItsConfigFileTheGlobalHookDoesNothing() throws {
    try installGlobal()
    let repository = try world.makeRepository("code/app")
    try FileManager.default.removeItem(atPath: world.configPath)
    let commit = try world.commit(in: repository, "Nothing to journal")
    #expect(commit.standardError.isEmpty, "\(commit.standardError)")
    #expect(world.journal(commit.day) == nil)
    #expect(!HookWorld.exists(world.configPath), "the hook wrote a config file")
    #expect(world.hookLogLines().contains { $0.contains("nothing done") }, "\(world.hookLogLines())")
  }

  @Test func aRepositoryInstallUnderTheGlobalHookOnlyRegisters() throws {
    try installGlobal()
    let repository = try world.makeRepository("code/app")
    let result = try world.gitjournal("install", in: repository)
    #expect(result.status == 0, "\(result.hookTestSummary)")
    #expect(result.standardOutput.contains("through the global hook"), "\(result.standardOutput)")
    #expect(!HookWorld.exists(repository + "/.git/hooks/post-commit"))
    let scripts = try FileManager.default.contentsOfDirectory(atPath: hooksFolder)
    #expect(scripts.count == GlobalHookScript.hookNames.count, "install wrote into the global folder: \(scripts)")
    #expect(world.journaledPaths() == [repository])

    let removed = try world.gitjournal("uninstall", in: repository)
    #expect(removed.status == 0)
    #expect(removed.standardOutput.contains("stays"), "\(removed.standardOutput)")
    #expect(world.journaledPaths().isEmpty)
    #expect(HookWorld.exists(hooksFolder + "/post-commit"))
    // Retired: its next commit does not register it again.
    try world.commit(in: repository, "After uninstall")
    #expect(world.journaledPaths().isEmpty)
  }

  @Test func aRepositoryHookOfGitJournalIsNotRunTwice() throws {
    let repository = try world.makeRepository("code/app")
    let own = repository + "/.git/hooks/post-commit"
    try Data("#!/bin/sh\necho own >> \"$(git rev-parse --git-dir)/ran\"\n".utf8).write(to: URL(fileURLWithPath: own))
    chmod(own, 0o755)
    // The repository's own gitjournal hook calls this copy, which then becomes a script that only says it ran.
    let copy = try world.copyBinary(to: "bin/gitjournal")
    #expect(try world.gitjournal("install", in: repository, binary: copy).status == 0)
    let calls = world.scratch.path("calls")
    // Replaced by a rename, not written in place: a process `install` started may still be running the copy, and
    // Linux refuses to open a running executable for writing (ETXTBSY).
    let script = copy + ".script"
    try Data("#!/bin/sh\necho \"$@\" >> '\(calls)'\n".utf8).write(to: URL(fileURLWithPath: script))
    chmod(script, 0o755)
    #expect(rename(script, copy) == 0)
    try installGlobal()

    let commit = try world.commit(in: repository, "Once only")
    #expect(try String(contentsOfFile: repository + "/.git/ran", encoding: .utf8) == "own\n")
    #expect(!HookWorld.exists(calls), "the repository's gitjournal hook ran too")
    let journal = try #require(world.journal(commit.day))
    #expect(HookWorld.count(commit.journalID, in: journal) == 1)
  }

  /// A repository installed by hand before the global hook: `uninstall` there removes its own hooks too (putting back
  /// the one they chained), so they do not journal it again once the global hook goes.
  @Test func uninstallWithTheGlobalHookOnRemovesTheRepositorysOwnHooks() throws {
    let repository = try world.makeRepository("code/app")
    let own = repository + "/.git/hooks/post-commit"
    let mine = Data("#!/bin/sh\necho mine\n".utf8)
    try mine.write(to: URL(fileURLWithPath: own))
    chmod(own, 0o755)
    #expect(try world.gitjournal("install", in: repository).status == 0)
    #expect(
      HookWorld.exists(own + HookScript.chainedSuffix) && HookWorld.exists(repository + "/.git/hooks/post-rewrite"))
    try installGlobal()

    let removed = try world.gitjournal("uninstall", in: repository)
    #expect(removed.status == 0, "\(removed.hookTestSummary)")
    #expect(removed.standardOutput.contains("removed post-commit and restored your own"), "\(removed.standardOutput)")
    #expect(removed.standardOutput.contains("stays"), "\(removed.standardOutput)")
    #expect(FileManager.default.contents(atPath: own) == mine, "the user's own hook is back")
    #expect(!HookWorld.exists(own + HookScript.chainedSuffix))
    #expect(!HookWorld.exists(repository + "/.git/hooks/post-rewrite"))
    #expect(HookWorld.exists(hooksFolder + "/post-commit"), "the global hook stays for the others")

    // Without the global hook, nothing of gitjournal's runs in it.
    try uninstallGlobal()
    let after = try world.commit(in: repository, "After both")
    #expect(world.journal(after.day)?.contains(after.journalID) != true)
    #expect(world.hookLogLines().isEmpty, "\(world.hookLogLines())")
  }

  /// After `uninstall --global`, the repositories the global hook registered are still configured but no longer
  /// journaled: `repos` and `doctor` say they have no hook, and a repository with its own hooks is still fine.
  @Test func afterUninstallGlobalReposAndDoctorNameTheRepositoriesWithoutAHook() throws {
    try installGlobal()
    let registered = try world.makeRepository("code/registered")
    try world.commit(in: registered, "Registers it")
    let installed = try world.makeInstalledRepository("code/installed")
    #expect(world.journaledPaths().sorted() == [installed, registered].sorted())
    let before = try world.gitjournal("repos", in: world.home)
    #expect(!before.standardOutput.contains("no hook"), "\(before.standardOutput)")

    try uninstallGlobal()
    let listed = try world.gitjournal("repos", in: world.home)
    let lines = listed.standardOutput.split(separator: "\n").map(String.init)
    let registeredLine = lines.first { $0.contains(registered) } ?? ""
    #expect(registeredLine.hasSuffix("ok, no hook ('gitjournal install \(registered)')"), "\(lines)")
    // `install` under the global hook only registered it: it has no hook of its own either.
    let installedLine = lines.first { $0.contains(installed) } ?? ""
    #expect(installedLine.contains("no hook"), "\(lines)")

    #expect(try world.gitjournal("install", in: installed).status == 0)
    let doctor = try world.gitjournal("doctor", in: world.home)
    let doctorLines = doctor.standardOutput.split(separator: "\n")
    #expect(doctorLines.contains { $0.contains(registered) && $0.contains("not hooked") }, "\(doctor.standardOutput)")
    #expect(doctorLines.contains { $0.contains(installed) && $0.contains("hooked in") }, "\(doctor.standardOutput)")
    let again = try world.gitjournal("repos", in: world.home)
    #expect(again.standardOutput.split(separator: "\n").first { $0.contains(installed) }?.contains("no hook") == false)
  }
}
