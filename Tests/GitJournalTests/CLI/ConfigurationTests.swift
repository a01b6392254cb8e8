import Foundation
import Testing

@testable import CLI
@testable import Facts

/// The config file: bad values are named, and without one gitjournal journals the repository it runs in.
@Suite struct ConfigurationTests {
  /// Section and key names are compared without case, the subsection as written: names libgit2 has lowercased
  /// pass through, others are lowered, beyond ASCII too.
  @Test(
    arguments: [
      ("repo.app.path", "repo", "app", "path"), ("Repo.MyApp.Path", "repo", "MyApp", "path"),
      ("journal.dayStart", "journal", nil, "daystart"), ("JOURNAL.DAYSTART", "journal", nil, "daystart"),
      ("repo.my.app.excludePaths", "repo", "my.app", "excludepaths"), ("ÉTÉ.x.CLÉ", "été", "x", "clé"),
    ] as [(String, String, String?, String)])
  func namesSplitIntoSectionSubsectionAndKey(name: String, section: String, subsection: String?, key: String) {
    let parts = Configuration.split(name)
    #expect(parts.section == section && parts.subsection == subsection && parts.key == key, "\(parts)")
  }

  @Test(arguments: [
    ("journal.dayStart", "25:00"), ("journal.dayStart", "4am"), ("journal.dayStart", "04:0"),
    ("journal.timezone", "Mars/Olympus"), ("journal.merges", "maybe"), ("repo.app.private", "perhaps"),
  ])
  func invalidValuesNameTheKeyAndTheValue(key: String, value: String) async throws {
    let sandbox = try JournalSandbox()
    let repository = try sandbox.makeRepository("app")
    try repository.commit(file: "a", content: "a\n", message: "Work", date: "2026-03-10T09:00:00Z")
    try sandbox.register(repository)
    try sandbox.configure(key, value)
    for command in [["show", "2026-03-10", "--json"], ["rebuild", "2026-03-10"], ["show", "2026-03-10"]] {
      let result = await sandbox.run(command)
      #expect(result.status == ExitStatus.failure, "\(command): \(result)")
      #expect(result.standardOutput.isEmpty)
      let lines = result.standardError.split(separator: "\n")
      #expect(lines.count == 1, "\(result)")
      let line = try #require(lines.first)
      #expect(line.hasPrefix("error: "))
      #expect(line.lowercased().contains(key.lowercased()), "\(line)")
      #expect(line.contains("'\(value)'"), "\(line)")
    }
    #expect(sandbox.journalFile("2026-03-10") == nil)
  }

  @Test func withoutAConfigFileTheCurrentRepositoryIsJournaled() async throws {
    let sandbox = try JournalSandbox(author: nil)
    #expect(!FileManager.default.fileExists(atPath: sandbox.configPath))
    let repository = try sandbox.makeRepository("solo")
    // libgit2 reads the identity from the repository's own config here.
    try repository.git("config", "user.email", TemporaryRepository.email)
    let id = try repository.commit(file: "a", content: "a\n", message: "Alone", date: "2026-03-10T09:00:00Z")
    try repository.commit(
      file: "b", content: "b\n", message: "Not mine", date: "2026-03-10T10:00:00Z", email: "bob@example.com")
    let inside = try repository.owner.makeFolder("repos/solo/src/deep")

    let shown = await sandbox.run(["show", "2026-03-10", "--json"], in: inside)
    #expect(shown.status == 0, "\(shown)")
    let report = try JSONDecoder().decode(DayReport.self, from: Data(shown.standardOutput.utf8))
    #expect(report.projects.map(\.name) == ["solo"])
    #expect(report.projects.map(\.path) == [repository.path])
    #expect(report.allCommits.map(\.id.hex) == [id])

    let rebuilt = await sandbox.run(["rebuild", "2026-03-10", "--no-narrative"], in: inside)
    #expect(rebuilt.status == 0, "\(rebuilt)")
    let file = try #require(FileManager.default.contents(atPath: sandbox.home + "/journal/2026-03-10.md"))
    #expect(String(decoding: file, as: UTF8.self).contains("Alone"))
    #expect(!FileManager.default.fileExists(atPath: sandbox.configPath), "nothing was configured")

    let outside = await sandbox.run(["show", "2026-03-10", "--json"], in: sandbox.home)
    #expect(outside.status == ExitStatus.failure)
    #expect(outside.standardError.hasPrefix("error: no repositories to journal"))
  }

  @Test func journalFolderAndTildeComeFromTheConfig() async throws {
    let sandbox = try JournalSandbox()
    try sandbox.configure("journal.dir", "~/Notes/journal")
    let repository = try sandbox.makeRepository("app")
    try sandbox.register(repository)
    try repository.commit(file: "a", content: "a\n", message: "Work", date: "2026-03-10T09:00:00Z")
    let result = await sandbox.run("rebuild", "2026-03-10")
    #expect(result.status == 0, "\(result)")
    #expect(FileManager.default.fileExists(atPath: sandbox.home + "/Notes/journal/2026-03-10.md"))
  }
}
