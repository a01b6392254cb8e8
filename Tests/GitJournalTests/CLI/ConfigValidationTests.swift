import Foundation
import Testing

@testable import CLI
@testable import Facts

/// The config is validated, not guessed (issue 15, items 2 to 4): unknown keys and sections, a repository section
/// whose name differs in case from the one with the path, relative paths, and a worktree given to `repos add`.
@Suite struct ConfigValidationTests {
  static let day = "2026-03-10"

  static func sandbox() throws -> JournalSandbox {
    let sandbox = try JournalSandbox()
    let repository = try sandbox.makeRepository("app")
    try repository.commit(file: "a", content: "a\n", message: "Work", date: "\(day)T09:00:00Z")
    try sandbox.register(repository)
    return sandbox
  }

  /// A misspelled key or section is an error naming it and the key meant, for commands and `doctor`.
  @Test(arguments: [
    ("repo.app.privte", "true", "repo.app.private"), ("journal.daystrat", "04:00", "journal.dayStart"),
    ("narrative.retryDelya", "5", "narrative.retryDelay"), ("narative.url", "http://127.0.0.1:1", "[narrative]"),
    ("repos.app.path", "/tmp", "[repo \"app\"]"), ("journal.work.dir", "/tmp", "[journal]"),
  ])
  func unknownKeysAndSectionsAreErrorsWithASuggestion(key: String, value: String, meant: String) async throws {
    let sandbox = try Self.sandbox()
    try sandbox.configure(key, value)
    let shown = await sandbox.run("show", Self.day, "--json")
    #expect(shown.status == ExitStatus.failure, "\(shown)")
    #expect(shown.standardError.hasPrefix("error: "), "\(shown)")
    #expect(shown.standardError.lowercased().contains(key.lowercased()), "\(shown)")
    #expect(shown.standardError.contains("did you mean \(meant)?"), "\(shown)")
    let doctor = await sandbox.run("doctor")
    #expect(doctor.status == ExitStatus.failure, "\(doctor)")
    #expect(doctor.standardOutput.contains("did you mean \(meant)?"), "\(doctor)")
    #expect(!doctor.standardOutput.contains("All good"), "\(doctor)")
  }

  /// git's section and key names are case-insensitive, and so are gitjournal's: `[Journal]` is `[journal]`.
  @Test func sectionAndKeyNamesIgnoreCaseAsInGit() async throws {
    let sandbox = try JournalSandbox(author: nil)
    let repository = try sandbox.makeRepository("app")
    try repository.commit(file: "a", content: "a\n", message: "Work", date: "\(Self.day)T09:00:00Z")
    try FileManager.default.createDirectory(
      atPath: (sandbox.configPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try """
    [Journal]
    \tDir = \(sandbox.journalDirectory)
    \tAUTHOR = \(TemporaryRepository.email)
    [NARRATIVE]
    \tEngine = off
    [Repo "app"]
    \tPath = \(repository.path)
    \tPrivate = true

    """.write(toFile: sandbox.configPath, atomically: true, encoding: .utf8)
    let report = try await sandbox.report(Self.day)
    #expect(report.projects.map(\.name) == ["app"])
    #expect(try Configuration.load(sandbox.environment()).repositories.map(\.isPrivate) == [true])
    #expect((await sandbox.run("doctor")).status == 0)
  }

  /// A repository's name is case-sensitive, as git's subsections are: `private` under `[repo "App"]` beside the
  /// path under `[repo "app"]` would silently not apply. It is an error that names the section meant.
  @Test func aRepositorySectionInAnotherCaseIsAnError() async throws {
    let sandbox = try Self.sandbox()
    try sandbox.configure("repo.App.private", "true")
    let shown = await sandbox.run("show", Self.day, "--json")
    #expect(shown.status == ExitStatus.failure, "\(shown)")
    #expect(shown.standardError.contains("[repo \"App\"] has no path: did you mean [repo \"app\"]?"), "\(shown)")
    let doctor = await sandbox.run("doctor")
    #expect(doctor.status == ExitStatus.failure)
    #expect(doctor.standardOutput.contains("[repo \"App\"] has no path"), "\(doctor)")
  }

  /// `doctor` lists every problem at once, not the first only.
  @Test func doctorListsEveryProblem() async throws {
    let sandbox = try Self.sandbox()
    try sandbox.configure("repo.app.privte", "true")
    try sandbox.configure("narrative.timeout", "1e300")
    try sandbox.configure("journal.timezone", "Mars/Olympus")
    let doctor = await sandbox.run("doctor")
    #expect(doctor.status == ExitStatus.failure)
    for needle in ["repo.app.privte", "narrative.timeout", "journal.timezone", "3 problems need fixing"] {
      #expect(doctor.standardOutput.contains(needle), "\(needle): \(doctor.standardOutput)")
    }
  }

  /// Every key the reader accepts is one `help config` explains, and the other way round.
  @Test func theKnownKeysAreTheDocumentedKeys() {
    for key in Configuration.knownKeys { #expect(HelpTopics.config.contains(key + " "), "\(key)") }
    let documented = HelpTopics.config.split(separator: "\n").compactMap { line -> String? in
      let word = line.split(separator: " ").first.map(String.init) ?? ""
      return (word.hasPrefix("journal.") || word.hasPrefix("narrative.")) ? word : nil
    }
    #expect(Set(documented) == Set(Configuration.knownKeys))
  }

  /// Relative `journal.dir` and `repo.<name>.path` are taken from the config file's folder, whichever repository is
  /// committing: the hook never writes a journal into a working tree, and a relative repository path is journaled.
  /// `doctor` shows the resolved paths.
  @Test func relativePathsAreTakenFromTheConfigFolder() async throws {
    try await DedicatedThread.run {
      let world = try HookWorld()
      let app = try world.makeRepository("code/app")
      let installed = try world.gitjournal("install", in: app)
      try #require(installed.status == 0, "\(installed.hookTestSummary)")
      let other = try world.makeRepository("code/other")
      _ = try world.commit(in: other, "Before any hook")
      // ~/.config/gitjournal -> ~/../code/other is the world's code/other.
      try world.configure("repo.app.path", "../../../code/app")
      try world.configure("repo.other.path", "../../../code/other")
      try world.configure("journal.dir", "journal-files")
      let otherInstalled = try world.gitjournal("install", in: other)
      try #require(otherInstalled.status == 0, "\(otherInstalled.hookTestSummary)")

      let commit = try world.commit(in: app, "Relative paths work")
      #expect(commit.standardError.isEmpty, "\(commit.standardError)")
      let folder = (world.configPath as NSString).deletingLastPathComponent + "/journal-files"
      let journal = FileManager.default.contents(atPath: folder + "/\(commit.day).md").map {
        String(decoding: $0, as: UTF8.self)
      }
      #expect(journal?.contains("Relative paths work") == true, "no journal in \(folder)")
      #expect(!HookWorld.exists(app + "/journal-files"), "a journal was written into the working tree")
      #expect(try world.git(["status", "--porcelain"], in: app).isEmpty)

      let second = try world.commit(in: other, "The other one too")
      #expect(second.standardError.isEmpty, "\(second.standardError)")
      let both = FileManager.default.contents(atPath: folder + "/\(second.day).md").map {
        String(decoding: $0, as: UTF8.self)
      }
      #expect(both?.contains("The other one too") == true && both?.contains("Relative paths work") == true)

      let doctor = try world.gitjournal("doctor", in: app)
      #expect(doctor.standardOutput.contains("journal folder \(folder)"), "\(doctor.hookTestSummary)")
      #expect(doctor.standardOutput.contains("app (\(app))"), "\(doctor.hookTestSummary)")
    }
  }

  /// `repos add` of a linked worktree registers its main repository, as `install` does: never a second project
  /// for the same commits.
  @Test func reposAddOfAWorktreeRegistersItsMainRepository() async throws {
    try await DedicatedThread.run {
      let world = try HookWorld()
      let main = try world.makeRepository("code/app")
      _ = try world.commit(in: main, "First")
      let worktree = world.scratch.path("code/app-feature")
      try world.git(["worktree", "add", "-q", "-b", "feature", worktree], in: main)

      let added = try world.gitjournal("repos", "add", worktree, in: world.home)
      #expect(added.status == 0, "\(added.hookTestSummary)")
      #expect(world.journaledPaths() == [main], "\(world.journaledPaths())")
      let again = try world.gitjournal("repos", "add", worktree, in: world.home)
      #expect(again.standardOutput.contains("already configured"), "\(again.hookTestSummary)")
      #expect(world.journaledPaths() == [main])
    }
  }
}
