import Foundation
import Testing

@testable import CLI
@testable import Support

/// `gitjournal config`: every change is checked by the config reader itself, refused changes leave the file byte for
/// byte as it was, and accepted ones keep its comments and layout.
@Suite struct ConfigCommandTests {
  static let layout = """
    # My journal settings
    [journal]
    \t# where the files go
    \tdir = ~/journal
    \tauthor = me@example.com

    [narrative]
    \tengine = off   ; no model here

    """

  func sandbox() throws -> JournalSandbox {
    let sandbox = try JournalSandbox(author: nil)
    try FileManager.default.createDirectory(
      atPath: (sandbox.configPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Self.layout.write(toFile: sandbox.configPath, atomically: true, encoding: .utf8)
    return sandbox
  }

  func config(_ sandbox: JournalSandbox) throws -> String {
    try String(contentsOfFile: sandbox.configPath, encoding: .utf8)
  }

  @Test func setChangesOneLineAndKeepsCommentsAndLayout() async throws {
    let sandbox = try sandbox()
    let result = await sandbox.run("config", "set", "journal.dayStart", "04:00")
    #expect(result.status == 0, "\(result)")
    let changed = await sandbox.run("config", "set", "narrative.engine", "ollama")
    #expect(changed.status == 0, "\(changed)")
    let text = try config(sandbox)
    #expect(text.hasPrefix("# My journal settings\n[journal]\n\t# where the files go\n\tdir = ~/journal\n"), "\(text)")
    #expect(text.contains("dayStart = 04:00"))
    #expect(text.contains("engine = ollama"))
    #expect(!text.contains("engine = off"))
    #expect(!FileManager.default.fileExists(atPath: sandbox.configPath + ".lock"))
    #expect(await sandbox.run("config", "get", "journal.daystart").standardOutput == "04:00\n")
  }

  @Test(arguments: [
    (["journal.dayStart", "25:00"], "config key journal.dayStart has the value '25:00'"),
    (["journal.daystrat", "04:00"], "did you mean journal.dayStart?"),
    (["narrative.timeout", "0"], "config key narrative.timeout has the value '0'"),
    (["narative.model", "x"], "did you mean [narrative]?"),
    (["repo.nosuch.private", "true"], "no repository named 'nosuch' is configured"),
    (["journal.excludePaths", "/abs"], "this one is an absolute path"),
  ])
  func refusedChangesLeaveTheFileAsItWas(arguments: [String], message: String) async throws {
    let sandbox = try sandbox()
    let result = await sandbox.run(["config", "set"] + arguments)
    #expect(result.status == ExitStatus.failure, "\(result)")
    #expect(result.standardError.contains(message), "\(result)")
    #expect(try config(sandbox) == Self.layout)
  }

  @Test func repositoryKeysNeedTheRepositoryAndSuggestItsCase() async throws {
    let sandbox = try sandbox()
    let app = try sandbox.makeRepository("app")
    let added = await sandbox.run(["config", "set", "repo.Notes.path", "repos/app"], in: sandbox.scratch.path)
    #expect(added.status == 0, "\(added)")
    // A relative path is taken from where it was typed.
    #expect(await sandbox.run("config", "get", "repo.Notes.path").standardOutput == app.path + "\n")
    let wrongCase = await sandbox.run("config", "set", "repo.notes.private", "true")
    #expect(wrongCase.status == ExitStatus.failure)
    #expect(wrongCase.standardError.contains("did you mean 'Notes'? Names are case-sensitive"), "\(wrongCase)")
    #expect(await sandbox.run("config", "set", "repo.Notes.private", "yes").status == 0)
    let orphan = await sandbox.run("config", "unset", "repo.Notes.path")
    #expect(orphan.status == ExitStatus.failure)
    #expect(orphan.standardError.contains("repos remove Notes"), "\(orphan)")
    #expect(await sandbox.run("config", "list", "--names").standardOutput == "Notes\n")
  }

  @Test func repeatableKeysAddAndRemoveOneValue() async throws {
    let sandbox = try sandbox()
    #expect(await sandbox.run("config", "add", "journal.author", "me@work.example").status == 0)
    #expect(await sandbox.run("config", "add", "journal.excludePaths", "*.lock").status == 0)
    #expect(await sandbox.run("config", "add", "journal.excludePaths", "dist/**").status == 0)
    #expect(
      await sandbox.run("config", "get", "journal.author").standardOutput == "me@example.com\nme@work.example\n")
    let single = await sandbox.run("config", "add", "journal.dayStart", "04:00")
    #expect(single.status == ExitStatus.failure)
    #expect(single.standardError.contains("journal.dayStart takes one value"))
    #expect(await sandbox.run("config", "unset", "journal.excludePaths", "*.lock").status == 0)
    #expect(await sandbox.run("config", "get", "journal.excludePaths").standardOutput == "dist/**\n")
    // `set` on a key with several values leaves one.
    #expect(await sandbox.run("config", "set", "journal.author", "solo@example.com").status == 0)
    #expect(await sandbox.run("config", "get", "journal.author").standardOutput == "solo@example.com\n")
    let configuration = try Configuration.load(sandbox.environment())
    #expect(configuration.authors == ["solo@example.com"])
    #expect(configuration.excludePaths == ["dist/**"])
  }

  @Test func getUnsetAndListSayWhatIsThere() async throws {
    let sandbox = try sandbox()
    let missing = await sandbox.run("config", "get", "journal.dayStart")
    #expect(missing.status == ExitStatus.failure)
    #expect(missing.standardOutput.isEmpty)
    #expect(missing.standardError.contains("journal.dayStart is not set in"))
    let unknown = await sandbox.run("config", "get", "journal.daystrat")
    #expect(unknown.standardError.contains("did you mean journal.dayStart?"), "\(unknown)")
    let notSet = await sandbox.run("config", "unset", "journal.timezone")
    #expect(notSet.status == ExitStatus.failure)
    #expect(try config(sandbox) == Self.layout)
    #expect(await sandbox.run("config", "unset", "narrative.engine").status == 0)
    let listed = await sandbox.run("config", "list")
    #expect(listed.standardOutput == "journal.dir=~/journal\njournal.author=me@example.com\n", "\(listed)")
    // The section had nothing left (its comment was on the removed line): it goes, the rest stays.
    let after = try config(sandbox)
    #expect(after.hasSuffix("\tauthor = me@example.com\n\n"), "\(after)")
    let usage = await sandbox.run("config", "frobnicate")
    #expect(usage.status == ExitStatus.usage)
  }

  /// A write waits for the config lock, which another gitjournal's read-check-write holds: here flock(1) holds it
  /// for a second (a process of its own, so that a busy test thread pool cannot stretch the hold).
  @Test func writesWaitForTheConfigLock() throws {
    let sandbox = try sandbox()
    try makeFolders(sandbox.stateHome + "/gitjournal")
    let lockPath = sandbox.stateHome + "/gitjournal/config.lock"
    let holder = try Subprocess(
      "/usr/bin/flock", [lockPath, "sleep", "1.5"], environment: [:], currentDirectory: sandbox.home)
    // flock -n fails while the holder has it.
    while try Subprocess.run("/usr/bin/flock", ["-n", lockPath, "true"], environment: [:], currentDirectory: "/")
      .status == 0
    {
      usleep(10_000)
    }
    let process = try BinaryRunner.start(
      ["config", "set", "journal.dayStart", "04:00"], environment: sandbox.binaryEnvironment,
      currentDirectory: sandbox.home)
    usleep(300_000)
    #expect(holder.isRunning)
    #expect(try config(sandbox) == Self.layout, "written while the lock was held")
    _ = try holder.wait()
    let result = try process.wait()
    #expect(result.status == 0, "\(result.standardError)")
    #expect(try config(sandbox).contains("dayStart = 04:00"))
  }

  @Test func helpConfigShowsTheCommand() async throws {
    let sandbox = try JournalSandbox()
    let text = await sandbox.run("help", "config").standardOutput
    for usage in ["gitjournal config set <key> <value>", "gitjournal config get <key>", "gitjournal config list"] {
      #expect(text.contains(usage), "\(usage)")
    }
  }
}
