import Foundation
import Testing

@testable import Facts

/// Which branch a read of the repositories names for each commit (see `BranchAttribution`): the non-default
/// branch whose first-parent line reaches it nearest, none on the default branch's line.
@Suite struct BranchNameTests {
  let sandbox: JournalSandbox
  let repository: TemporaryRepository

  init() throws {
    sandbox = try JournalSandbox()
    repository = try sandbox.makeRegisteredRepository("app")
    try repository.commit(file: "base.txt", content: "base\n", message: "Base", date: "2026-03-01T09:00:00Z")
  }

  /// The branch of each commit of 2026-03-10 by subject, as `show --json` gives it (nil: none).
  func branches() async throws -> [String: String?] {
    let report = try await sandbox.report("2026-03-10")
    return Dictionary(uniqueKeysWithValues: report.allCommits.map { ($0.subject, $0.branch) })
  }

  func commit(_ subject: String, at time: String) throws {
    try repository.commit(
      file: "\(subject).txt", content: "\(subject)\n", message: subject, date: "2026-03-10T\(time):00Z")
  }

  func merge(_ branch: String, at time: String) throws {
    try repository.git(
      ["merge", "-q", "--no-ff", "-m", "Merge \(branch)", branch],
      environment: TemporaryRepository.identity(
        date: "2026-03-10T\(time):00Z", committerDate: nil, email: TemporaryRepository.email))
  }

  @Test func aMergedFeatureBranchNamesItsCommitsAndTheDefaultBranchNone() async throws {
    try sandbox.configure("journal.merges", "true")
    try repository.git("switch", "-q", "-c", "feature/login")
    try commit("Login form", at: "09:00")
    try commit("Login check", at: "09:30")
    try repository.git("switch", "-q", "main")
    try commit("Main work", at: "10:00")
    try merge("feature/login", at: "11:00")
    try commit("After the merge", at: "12:00")

    #expect(
      try await branches() == [
        "Login form": "feature/login", "Login check": "feature/login", "Main work": nil, "Merge feature/login": nil,
        "After the merge": nil,
      ])
    // `show --json` always has the key: null when there is no branch.
    let json = await sandbox.run("show", "2026-03-10", "--json")
    #expect(json.standardOutput.contains("\"branch\" : \"feature/login\""))
    #expect(json.standardOutput.contains("\"branch\" : null"))
  }

  @Test func stackedBranchesNameTheNearestAndTiesGoByName() async throws {
    try repository.git("switch", "-q", "-c", "lower")
    try commit("Lower one", at: "09:00")
    try commit("Lower two", at: "09:10")
    try repository.git("switch", "-q", "-c", "upper")
    try commit("Upper", at: "09:20")
    // Two branches at one commit: the name that sorts first, whichever was made first.
    try repository.git("switch", "-q", "-c", "zeta", "main")
    try commit("Shared tip", at: "09:30")
    try repository.git("branch", "alpha")

    #expect(
      try await branches() == [
        "Lower one": "lower", "Lower two": "lower", "Upper": "upper", "Shared tip": "alpha",
      ])
  }

  @Test func deletedFastForwardedAndDetachedCommitsGetNoName() async throws {
    // Merged, then deleted: nothing shows where it was made.
    try repository.git("switch", "-q", "-c", "gone")
    try commit("On a deleted branch", at: "09:00")
    try repository.git("switch", "-q", "main")
    try merge("gone", at: "09:10")
    try repository.git("branch", "-q", "-D", "gone")
    // Fast-forwarded into main and kept: main's line holds it, so it is main's.
    try repository.git("switch", "-q", "-c", "quick")
    try commit("Fast-forwarded", at: "09:20")
    try repository.git("switch", "-q", "main")
    try repository.git("merge", "-q", "--ff-only", "quick")
    // A commit on a detached HEAD is not journaled at all: no branch reaches it.
    try repository.git("switch", "-q", "--detach", "main")
    try commit("Detached", at: "09:30")

    #expect(try await branches() == ["On a deleted branch": nil, "Fast-forwarded": nil])
  }

  @Test func aRecordedNameOutlivesItsBranch() async throws {
    try repository.git("switch", "-q", "-c", "topic")
    try commit("Topic work", at: "09:00")
    try repository.git("switch", "-q", "main")
    try merge("topic", at: "09:10")
    let first = await sandbox.run("rebuild", "2026-03-10")
    #expect(first.status == 0, "\(first)")
    #expect(sandbox.journalFile("2026-03-10")?.contains(" on topic, +1 -0)") == true)

    try repository.git("branch", "-q", "-D", "topic")
    let again = await sandbox.run("rebuild", "2026-03-10")
    #expect(again.status == 0, "\(again)")
    #expect(sandbox.journalFile("2026-03-10")?.contains(" on topic, +1 -0)") == true, "the record lost its branch")
    #expect(try await branches() == ["Topic work": "topic"])
  }

  @Test func theDefaultBranchIsOriginsHeadThenTheConfiguredOne() async throws {
    // Without a remote: init.defaultBranch when it is a local branch, so `main` is an ordinary branch here.
    try repository.git("switch", "-q", "-c", "develop")
    try commit("On develop", at: "09:00")
    try repository.git("switch", "-q", "main")
    try commit("On main", at: "09:10")
    try repository.git("config", "init.defaultBranch", "develop")
    #expect(try await branches() == ["On develop": nil, "On main": "main"])

    // origin's HEAD comes first: a clone of a repository whose HEAD is `main` names `develop`'s commits.
    let clone = try sandbox.makeRepository("clone", initialize: false)
    try clone.git("clone", "-q", repository.path, ".")
    try clone.git("switch", "-q", "develop")
    try clone.git("config", "init.defaultBranch", "develop")
    try sandbox.register(clone, as: "app")
    #expect(try await branches() == ["On develop": "develop", "On main": nil])
  }

  @Test func aBranchForkedFromOriginMeetsTheDefaultLineWithoutALocalMain() async throws {
    try commit("Upstream work", at: "09:00")
    let clone = try sandbox.makeRepository("clone", initialize: false)
    try clone.git("clone", "-q", repository.path, ".")
    try clone.git("switch", "-q", "-c", "fix", "origin/main")
    try clone.git("branch", "-q", "-D", "main")
    try clone.commit(file: "fix.txt", content: "fix\n", message: "The fix", date: "2026-03-10T10:00:00Z")
    try sandbox.register(clone, as: "app")
    #expect(try await branches() == ["Upstream work": nil, "The fix": "fix"])
  }
}
