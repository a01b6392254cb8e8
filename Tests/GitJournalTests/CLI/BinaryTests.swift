import Foundation
import Testing

@testable import CLI
@testable import Facts
@testable import GitReader

/// The built `gitjournal` executable, end to end: its own process, environment and git identity from HOME.
@Suite struct BinaryTests {
  let sandbox: JournalSandbox
  let repository: TemporaryRepository

  /// A user with no config file yet: the binary finds the identity in HOME/.gitconfig.
  init() throws {
    sandbox = try JournalSandbox(author: nil)
    repository = try sandbox.makeRepository("app")
    try repository.commit(file: "a.txt", content: "1\n2\n3\n", message: "Start", date: "2026-03-10T09:00:00Z")
    try repository.commit(file: "a.txt", content: "1\n3\n", message: "Trim", date: "2026-03-10T11:45:00Z")
    try repository.commit(
      file: "b.txt", content: "b\n", message: "Someone else", date: "2026-03-10T12:00:00Z", email: "bob@example.com")
  }

  @Test func reposRebuildAndShowEndToEnd() throws {
    let added = try sandbox.runBinary("repos", "add", repository.path)
    #expect(added.status == 0, "\(added)")
    #expect(added.standardOutput == "Added app (\(repository.path)).\n")
    try sandbox.configure("narrative.engine", "off")
    let listed = try sandbox.runBinary("repos")
    #expect(listed.status == 0)
    #expect(listed.standardOutput.hasSuffix("  ok, no hook ('gitjournal install \(repository.path)')\n"))

    let rebuilt = try sandbox.runBinary("rebuild", "2026-03-10")
    #expect(rebuilt.status == 0, "\(rebuilt)")
    let path = sandbox.home + "/journal/2026-03-10.md"
    #expect(rebuilt.standardOutput == "2026-03-10  2 commits in 1 project  created  \(path)\n")
    let file = try #require(FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) })
    #expect(file.contains("- 09:00 Start ("))
    #expect(file.contains("- 11:45 Trim ("))
    #expect(!file.contains("Someone else"))

    let shown = try sandbox.runBinary("show", "2026-03-10")
    #expect(shown.status == 0)
    #expect(shown.standardOutput == file)

    // The JSON's numbers are git's, and the signature is the same in another process.
    let json = try sandbox.runBinary("show", "2026-03-10", "--json")
    #expect(json.status == 0, "\(json)")
    let report = try JSONDecoder().decode(DayReport.self, from: Data(json.standardOutput.utf8))
    let mine = try repository.log(["--branches", "--no-merges", "--author=\(TemporaryRepository.email)"])
    #expect(Set(report.allCommits.map(\.id.hex)) == Set(mine.map(\.id)))
    #expect(report.insertions == mine.map(\.stats.insertions).reduce(0, +))
    #expect(report.deletions == mine.map(\.stats.deletions).reduce(0, +))
    let again = try sandbox.runBinary("show", "2026-03-10", "--json")
    #expect(again.standardOutput == json.standardOutput)

    let everyone = try sandbox.runBinary("show", "2026-03-10", "--json", "--all-authors")
    let all = try JSONDecoder().decode(DayReport.self, from: Data(everyone.standardOutput.utf8))
    let logged = try repository.log()
    #expect(all.commitCount == logged.count)
    #expect(all.signature != report.signature)

    let removed = try sandbox.runBinary("repos", "remove", "app", "--forget")
    #expect(removed.status == 0)
    let none = try sandbox.runBinary("repos")
    #expect(none.standardOutput.hasPrefix("No repositories configured."))
  }

  @Test func insideARepositoryWithoutConfig() throws {
    let result = try sandbox.runBinary("show", "2026-03-10", "--json", in: repository.path)
    #expect(result.status == 0, "\(result)")
    let report = try JSONDecoder().decode(DayReport.self, from: Data(result.standardOutput.utf8))
    #expect(report.factualLine == "2 commits in 1 project, +\(report.insertions) -\(report.deletions)")
    #expect(report.projects.map(\.path) == [repository.path])
  }

  @Test func helpUsageAndCrashFreeArguments() throws {
    let help = try sandbox.runBinary("--help")
    #expect(help.status == 0)
    #expect(help.standardOutput.contains("Usage: gitjournal <command>"))
    #expect(help.standardError.isEmpty)

    let typo = try sandbox.runBinary("shwo")
    #expect(typo.status == ExitStatus.usage)
    #expect(typo.standardError.contains("did you mean 'show'?"))
    #expect(typo.standardOutput.isEmpty)

    // Day arithmetic near Int.max once trapped.
    for argument in ["-9223372036854775807", "-99999999999", "2026-02-29"] {
      let result = try sandbox.runBinary("show", argument, "--json", in: repository.path)
      #expect(result.status == ExitStatus.usage, "\(argument): \(result)")
      #expect(result.standardError.contains("is not a day"), "\(argument)")
    }
  }

  @Test func aRepositoryWithoutIdentityIsReported() throws {
    // No HOME identity, no journal.author, no user.email in the repository.
    try FileManager.default.removeItem(atPath: sandbox.home + "/.gitconfig")
    let other = try sandbox.makeRepository("other")
    try other.commit(file: "x", content: "x\n", message: "Other", date: "2026-03-10T08:00:00Z")
    try sandbox.register(repository)
    try sandbox.register(other)
    try repository.git("config", "user.email", TemporaryRepository.email)
    let result = try sandbox.runBinary("show", "2026-03-10", "--json")
    #expect(result.status == ExitStatus.partial, "\(result)")
    #expect(result.standardError == "warning: skipped other (\(other.path)): \(RepositoryProblem.noIdentity)\n")
    let report = try JSONDecoder().decode(DayReport.self, from: Data(result.standardOutput.utf8))
    #expect(report.commitCount == 2)
  }

  @Test func concurrentRebuildsLeaveOneValidFile() throws {
    try sandbox.register(repository)
    try sandbox.configure("narrative.engine", "off")
    let path = sandbox.home + "/journal/2026-03-10.md"
    let children = try (0..<8).map { _ in
      try BinaryRunner.start(
        ["rebuild", "2026-03-10", "--since", "2026-03-08", "--until", "2026-03-11"],
        environment: sandbox.binaryEnvironment, currentDirectory: sandbox.home)
    }
    let results = try children.map { try $0.wait() }
    for result in results { #expect(result.status == 0, "\(result.standardError)") }
    #expect(results.filter { $0.standardOutput.contains("created") }.count == 1)
    #expect(
      sandbox.journalFolderNames() == ["2026-03-10.md", "2026-03.md", "2026-W11.md"], "no temporary files are left")
    #expect(sandbox.recordFileNames().map { ($0 as NSString).lastPathComponent } == ["2026-03-10.tsv"])
    let text = try #require(FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) })
    let parts = try #require(JournalFixtures.parts(of: text))
    #expect(parts.body.hasPrefix("2 commits in 1 project"))

    // The same as one rebuild on its own.
    let alone = try JournalSandbox(author: nil)
    try alone.register(repository)
    try alone.configure("narrative.engine", "off")
    #expect(try alone.runBinary("rebuild", "2026-03-10").status == 0)
    #expect(FileManager.default.contents(atPath: alone.home + "/journal/2026-03-10.md") == Data(text.utf8))
  }
}
