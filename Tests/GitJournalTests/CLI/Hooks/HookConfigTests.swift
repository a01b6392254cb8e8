import Foundation
import Testing

@testable import CLI

/// The hook reads the config file `install` used, and does nothing without it: GUI clients run hooks without the
/// user's shell variables, and a hook that fell back to "the current repository with defaults" would journal (and
/// send to the model) a repository the user marked private.
@Suite struct HookConfigTests {
  /// The hook script gitjournal 0.1.0 installed (before it recorded the config file), with `@GITJOURNAL@` for the
  /// quoted binary: such hooks are still in users' repositories.
  static let scriptOf010 = """
    #!/bin/sh
    # gitjournal-hook @HOOK@
    # Keeps your gitjournal journal up to date. Added by 'gitjournal install'; 'gitjournal uninstall'
    # removes it and puts back any hook it chained. It never fails or blocks the git command it follows.
    status=0
    if [ -x "$0.gitjournal-chained" ]; then
      "$0.gitjournal-chained" "$@" || status=$?
    fi
    gitjournal=@GITJOURNAL@
    if [ ! -x "$gitjournal" ]; then
      gitjournal=$(command -v gitjournal 2>/dev/null) || exit "$status"
    fi
    "$gitjournal" hook @HOOK@ "$@" </dev/null
    exit "$status"

    """

  /// Installed with `$GITJOURNAL_CONFIG` naming a config outside the default place, a repository marked private
  /// there, and a model server the defaults would reach (`OLLAMA_HOST`): commits made without that variable are
  /// journaled by that config (its folder, its private flag, for the background narrator too); once the file is
  /// gone, a commit writes nothing, sends nothing and leaves one line in the hook log.
  @Test func hookReadsTheConfigInstallUsedAndNothingElse() async throws {
    try await DedicatedThread.run {
      let world = try HookWorld()
      let server = try ModelServer(ModelBehaviour(.ollama))
      // Nothing at the default place: a hook that lost the variable finds no config there.
      try FileManager.default.removeItem(atPath: world.configPath)
      let config = try world.scratch.makeFolder("home/dotfiles") + "/gitjournal.conf"
      let journalFolder = world.home + "/notes/journal"
      for (key, value) in [
        ("journal.dir", journalFolder), ("narrative.engine", "ollama"), ("narrative.url", server.baseURL),
        ("narrative.healthTimeout", "1"), ("narrative.timeout", "2"),
      ] {
        try world.git(["config", "-f", config, key, value], in: world.home)
      }
      let repository = try world.makeRepository("code/client-x")
      let installed = try world.run(
        world.binary, ["install"], in: repository, environment: ["GITJOURNAL_CONFIG": config])
      try #require(installed.status == 0, "\(installed.hookTestSummary)")
      try world.git(["config", "-f", config, "repo.client-x.private", "true"], in: world.home)
      // What a GUI client's hook sees: no GITJOURNAL_CONFIG, and a model server that defaults would reach.
      let gui = ["OLLAMA_HOST": server.baseURL]

      let first = try world.commit(in: repository, "Draft the Initech memo SECRETTOKEN", environment: gui)
      #expect(first.standardError.isEmpty, "\(first.standardError)")
      let journal = FileManager.default.contents(atPath: journalFolder + "/\(first.day).md")
        .map { String(decoding: $0, as: UTF8.self) }
      #expect(journal.map { HookWorld.count(first.journalID, in: $0) } == 1, "not journaled where the config says")
      #expect(!HookWorld.exists(world.journalDirectory), "a journal was written in ~/journal")
      #expect(await NarratorProcesses.waitUntilNoneRun(home: world.home, timeout: 10))
      // The narrator read the same config: it asked the configured server for the day (its week and month still
      // run: no sentence is asked for them), without the private subject.
      #expect(server.generationRequestCount == 1, "\(server.requests.map(\.path))")
      #expect(!server.requests.contains { $0.bodyText.contains("SECRETTOKEN") }, "the private subject was sent")

      // The config moves away: the hook does nothing at all.
      try FileManager.default.moveItem(atPath: config, toPath: config + ".moved")
      let requestsBefore = server.requests.count
      let second = try world.commit(in: repository, "Second memo SECRETTOKEN2", environment: gui)
      #expect(second.standardError.isEmpty, "\(second.standardError)")
      #expect(!HookWorld.exists(world.journalDirectory), "a journal was written in ~/journal")
      let after = FileManager.default.contents(atPath: journalFolder + "/\(second.day).md")
        .map { String(decoding: $0, as: UTF8.self) }
      #expect(after.map { HookWorld.count(second.journalID, in: $0) } != 1, "journaled without its config")
      #expect(await NarratorProcesses.waitUntilNoneRun(home: world.home, timeout: 10))
      #expect(server.requests.count == requestsBefore, "\(server.requests.map(\.path))")
      let log = world.hookLogLines()
      #expect(log.count == 1, "\(log)")
      #expect(log.first?.contains(config) == true, "\(log)")
    }
  }

  /// A hook an older gitjournal installed records no config file: it uses `$GITJOURNAL_CONFIG` or the default
  /// file when that exists, and otherwise does nothing but log one line; `install` recognises it as gitjournal's
  /// own and replaces it (rather than chaining it).
  @Test func hookInstalledBeforeConfigsWereRecorded() throws {
    let world = try HookWorld()
    let repository = try world.makeRepository("code/app")
    let hooks = repository + "/.git/hooks"
    for hook in ["post-commit", "post-rewrite"] {
      let script = Self.scriptOf010.replacingOccurrences(of: "@HOOK@", with: hook)
        .replacingOccurrences(of: "@GITJOURNAL@", with: HookWorld.shellQuoted(world.binary))
      try world.scratch.write(script, to: "code/app/.git/hooks/" + hook)
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: hooks + "/" + hook)
    }
    try world.configure("repo.app.path", repository)

    let journaled = try world.commit(in: repository, "Commit with the default config")
    #expect(journaled.standardError.isEmpty, "\(journaled.standardError)")
    #expect(world.journal(journaled.day).map { HookWorld.count(journaled.journalID, in: $0) } == 1)

    try FileManager.default.removeItem(atPath: world.configPath)
    try FileManager.default.removeItem(atPath: world.journalDirectory)
    let ignored = try world.commit(in: repository, "Commit without any config")
    #expect(ignored.standardError.isEmpty, "\(ignored.standardError)")
    #expect(!HookWorld.exists(world.journalDirectory), "the hook fell back to journaling the current repository")
    let log = world.hookLogLines()
    #expect(log.count == 1, "\(log)")
    #expect(log.first?.contains(world.configPath) == true, "\(log)")

    let config = world.home + "/elsewhere/gitjournal.conf"
    let installed = try world.run(world.binary, ["install"], in: repository, environment: ["GITJOURNAL_CONFIG": config])
    #expect(installed.status == 0, "\(installed.hookTestSummary)")
    #expect(installed.standardOutput.contains("updated post-commit"), "\(installed.standardOutput)")
    for hook in ["post-commit", "post-rewrite"] {
      #expect(!HookWorld.exists(hooks + "/" + hook + HookScript.chainedSuffix), "the old \(hook) was chained")
      let text = try String(contentsOfFile: hooks + "/" + hook, encoding: .utf8)
      #expect(text.contains(HookWorld.shellQuoted(config)), "\(hook) does not record the config:\n\(text)")
    }
  }
}
