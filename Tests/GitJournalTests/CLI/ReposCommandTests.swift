import Foundation
import Testing

@testable import CLI
@testable import Facts
@testable import GitReader

/// `gitjournal repos` and what the journal does with repositories it cannot read.
@Suite struct ReposCommandTests {
  let sandbox: JournalSandbox

  init() throws {
    sandbox = try JournalSandbox()
  }

  /// `git config --get-regexp` on the config file: what really got written.
  func configuredPaths() throws -> [String: String] {
    let result = try Subprocess.run(
      Subprocess.gitExecutable, ["config", "-f", sandbox.configPath, "--get-regexp", "^repo\\..*\\.path$"],
      environment: TemporaryRepository.gitEnvironment(home: sandbox.home), currentDirectory: sandbox.home)
    var paths: [String: String] = [:]
    for line in result.standardOutput.split(separator: "\n") {
      let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
      paths[parts[0]] = parts[1]
    }
    return paths
  }

  @Test func addListRemoveRoundTrip() async throws {
    let first = try TemporaryRepository(named: "one/app", in: sandbox.scratch)
    let second = try TemporaryRepository(named: "two/app", in: sandbox.scratch)
    try first.commit(file: "a", content: "a\n", message: "First app", date: "2026-03-10T09:00:00Z")
    try second.commit(file: "b", content: "b\n", message: "Second app", date: "2026-03-10T10:00:00Z")
    try FileManager.default.createDirectory(atPath: second.path + "/deep/er", withIntermediateDirectories: true)

    let added = await sandbox.run("repos", "add", first.path)
    #expect(added.status == 0, "\(added)")
    #expect(added.standardOutput == "Added app (\(first.path)).\n")
    // A relative path inside the second repository: the same folder name gets a unique project name.
    let addedAgain = await sandbox.run(["repos", "add", "deep/er"], in: second.path)
    #expect(addedAgain.status == 0, "\(addedAgain)")
    #expect(addedAgain.standardOutput == "Added app-2 (\(second.path)).\n")
    #expect(try configuredPaths() == ["repo.app.path": first.path, "repo.app-2.path": second.path])

    let duplicate = await sandbox.run("repos", "add", first.path + "/")
    #expect(duplicate.status == 0)
    #expect(duplicate.standardOutput.contains("already configured"))
    #expect(try configuredPaths().count == 2)

    let listed = await sandbox.run("repos")
    #expect(listed.status == 0, "\(listed)")
    let lines = listed.standardOutput.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
    // Added without hooks: readable, and `repos` says no hook journals their commits.
    #expect(
      lines.map { Array($0.prefix(5)) }
        == [first.path, second.path].enumerated().map { index, path in
          [index == 0 ? "app" : "app-2", path, "ok,", "no", "hook"]
        })
    #expect(listed.standardOutput.contains("no hook ('gitjournal install \(first.path)')\n"))
    #expect(await sandbox.run("repos", "list").standardOutput == listed.standardOutput)

    // Both are journaled under their names.
    let report = try await sandbox.report("2026-03-10")
    #expect(report.projects.map(\.name) == ["app", "app-2"])
    #expect(report.projects.map(\.path) == [first.path, second.path])

    // `remove` retires: the repositories stay listed, their past stays in the journal.
    let removed = await sandbox.run("repos", "remove", "app")
    #expect(removed.standardOutput.hasPrefix("Retired app (\(first.path))"), "\(removed)")
    let removedByPath = await sandbox.run("repos", "remove", second.path)
    #expect(removedByPath.standardOutput.hasPrefix("Retired app-2 (\(second.path))"), "\(removedByPath)")
    #expect(try configuredPaths().count == 2)
    let retired = await sandbox.run("repos")
    #expect(retired.standardOutput.split(separator: "\n").allSatisfy { $0.contains("retired") }, "\(retired)")
    #expect(try await sandbox.report("2026-03-10").projects.map(\.name) == ["app", "app-2"])

    // `--forget` erases them.
    for name in ["app", "app-2"] {
      let forgotten = await sandbox.run("repos", "remove", name, "--forget")
      #expect(forgotten.status == 0, "\(forgotten)")
    }
    #expect(try configuredPaths().isEmpty)
    let empty = await sandbox.run("repos")
    #expect(empty.standardOutput.hasPrefix("No repositories configured."))
    let unknown = await sandbox.run("repos", "remove", "app")
    #expect(unknown.status == 1)
    #expect(unknown.standardError.contains("no configured repository is named or located at 'app'"))
  }

  @Test func addWithAName() async throws {
    let repository = try sandbox.makeRepository("code")
    let added = await sandbox.run("repos", "add", repository.path, "--name", "notes-app")
    #expect(added.status == 0, "\(added)")
    #expect(try configuredPaths() == ["repo.notes-app.path": repository.path])
    let other = try sandbox.makeRepository("other")
    let taken = await sandbox.run("repos", "add", other.path, "--name", "notes-app")
    #expect(taken.status == ExitStatus.failure)
    #expect(taken.standardError.contains("notes-app"))
    #expect(try configuredPaths().count == 1)
  }

  @Test func addRefusesAFolderOutsideAnyRepository() async throws {
    let folder = try sandbox.scratch.makeFolder("not-a-repo")
    let result = await sandbox.run("repos", "add", folder)
    #expect(result.status == ExitStatus.failure)
    #expect(result.standardError == "error: \(folder) is not inside a git repository\n")
    #expect(try configuredPaths().isEmpty)
  }

  @Test func reposUsageErrors() async {
    for arguments in [["repos", "ad", "x"], ["repos", "add"], ["repos", "list", "extra"], ["repos", "remove"]] {
      let result = await sandbox.run(arguments)
      #expect(result.status == ExitStatus.usage, "\(arguments)")
      #expect(result.standardError.contains("Usage: gitjournal repos"), "\(arguments)")
    }
    let suggestion = await sandbox.run("repos", "ad", "x")
    #expect(suggestion.standardError.contains("did you mean 'add'?"))
  }

  /// A missing folder, a plain folder and a shallow clone next to a good repository and an empty one (which is
  /// readable: it has no commits yet).
  func brokenWorld() throws -> TemporaryRepository {
    let good = try sandbox.makeRepository("good")
    try good.commit(file: "a", content: "a\n", message: "Good work", date: "2026-03-10T09:00:00Z")
    try good.commit(file: "a", content: "b\n", message: "More work", date: "2026-03-10T10:00:00Z")
    try sandbox.register(good)
    try sandbox.register(path: sandbox.scratch.path("repos/missing"), as: "missing")
    try sandbox.register(path: try sandbox.scratch.makeFolder("repos/plain"), as: "plain")
    // Not the initial branch libgit2 expects (init.defaultBranch or master), whatever the machine's config.
    let empty = try sandbox.makeRepository("empty", initialize: false)
    try empty.git("init", "-q", "-b", "trunk")
    try sandbox.register(empty)
    try good.git(["clone", "-q", "--depth", "1", "file://" + good.path, sandbox.scratch.path("repos/shallow")])
    let shallow = try TemporaryRepository(existingAt: sandbox.scratch.path("repos/shallow"), owner: sandbox.scratch)
    #expect(try shallow.git("rev-parse", "--is-shallow-repository") == "true\n")
    try sandbox.register(shallow)
    return good
  }

  static let brokenNames = ["missing", "plain", "shallow"]

  @Test func unreadableRepositoriesAreReportedAndTheOthersJournaled() async throws {
    let good = try brokenWorld()
    let rebuilt = await sandbox.run("rebuild", "2026-03-10")
    #expect(rebuilt.status == ExitStatus.partial, "\(rebuilt)")
    let warnings = rebuilt.standardError.split(separator: "\n")
    #expect(warnings.count == Self.brokenNames.count, "\(rebuilt)")
    for name in Self.brokenNames {
      #expect(warnings.filter { $0.hasPrefix("warning: skipped \(name) (") }.count == 1, "\(name): \(rebuilt)")
    }
    #expect(rebuilt.standardOutput.contains("2026-03-10  2 commits in 1 project  created"))
    let file = try #require(sandbox.journalFile("2026-03-10"))
    #expect(file.contains("Good work") && file.contains("More work"))

    let shown = await sandbox.run("show", "2026-03-10", "--json")
    #expect(shown.status == ExitStatus.partial)
    #expect(shown.standardError.split(separator: "\n").count == Self.brokenNames.count)
    let report = try JSONDecoder().decode(DayReport.self, from: Data(shown.standardOutput.utf8))
    let logged = Set(try good.log().map(\.id))
    #expect(Set(report.allCommits.map(\.id.hex)) == logged)

    let listed = await sandbox.run("repos")
    #expect(listed.status == ExitStatus.partial)
    let statuses = Dictionary(
      uniqueKeysWithValues: listed.standardOutput.split(separator: "\n").map { line in
        let name = String(line.prefix { $0 != " " })
        let path = sandbox.scratch.path("repos/\(name)")
        let status = line.range(of: path + "  ").map { String(line[$0.upperBound...]) } ?? String(line)
        return (name, status)
      })
    #expect(
      statuses == [
        "good": "ok, no hook ('gitjournal install \(sandbox.scratch.path("repos/good"))')", "missing": "missing",
        "plain": "not a git repository",
        "empty": "no commits yet, no hook ('gitjournal install \(sandbox.scratch.path("repos/empty"))')",
        "shallow": "shallow clone (skipped)",
      ])
  }

  /// The scan, `repos` and `doctor` judge a repository by one check: each broken repository's warning from the
  /// scan, its `repos` line and its `doctor` line carry the same typed problem.
  @Test func scanReposAndDoctorShareOneHealthCheck() async throws {
    _ = try brokenWorld()
    let shown = await sandbox.run("show", "2026-03-10", "--json")
    let listed = await sandbox.run("repos")
    let doctor = await sandbox.run("doctor")
    for name in Self.brokenNames {
      let path = sandbox.scratch.path("repos/\(name)")
      guard case .problem(let problem) = RepositoryHealth(path: path) else {
        Issue.record("\(name) was found healthy")
        continue
      }
      let skipped = SkippedRepository(name: name, path: path, problem: problem)
      #expect(shown.standardError.contains("warning: \(skipped)\n"), "\(name): \(shown)")
      #expect(skipped.description.hasPrefix("skipped \(name) (\(path)): \(problem)"))
      #expect(listed.standardOutput.contains(path + "  " + problem.summary + "\n"), "\(name): \(listed)")
      #expect(doctor.standardOutput.contains("\(name) (\(path)): \(problem.summary);"), "\(name): \(doctor)")
    }
    #expect(RepositoryHealth(path: sandbox.scratch.path("repos/good")) == .readable)
  }
}
