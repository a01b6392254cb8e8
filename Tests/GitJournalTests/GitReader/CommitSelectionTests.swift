import Foundation
import Testing

@testable import Facts
@testable import GitReader

/// Which commits a day counts: every local branch, each commit once, merges only when asked, only the user's.
@Suite struct CommitSelectionTests {
  let sandbox: JournalSandbox
  let repository: TemporaryRepository

  init() throws {
    sandbox = try JournalSandbox()
    repository = try sandbox.makeRegisteredRepository("app")
    try repository.commit(file: "base.txt", content: "base\n", message: "Base", date: "2026-03-01T09:00:00Z")
  }

  /// The ids `git log` lists for 2026-03-10 with `arguments`.
  func loggedIDs(_ arguments: [String] = ["--branches", "--no-merges"]) throws -> Set<String> {
    Set(try repository.log(arguments).filter { $0.authorDay == "2026-03-10" }.map(\.id))
  }

  @Test func commitsOnEveryBranchCountOnce() async throws {
    let onMain = try repository.commit(file: "m.txt", content: "m\n", message: "On main", date: "2026-03-10T09:00:00Z")
    try repository.git("switch", "-q", "-c", "feature")
    let shared = try repository.commit(file: "f.txt", content: "f\n", message: "Shared", date: "2026-03-10T10:00:00Z")
    try repository.git("switch", "-q", "-c", "feature-2")
    let deeper = try repository.commit(file: "g.txt", content: "g\n", message: "Deeper", date: "2026-03-10T11:00:00Z")
    try repository.git("switch", "-q", "main")
    // A commit on a detached HEAD counts once a branch holds it, as `git log --branches` shows it.
    try repository.git("switch", "-q", "--detach", "feature")
    let detached = try repository.commit(
      file: "d.txt", content: "d\n", message: "Detached", date: "2026-03-10T12:00:00Z")

    let report = try await sandbox.report("2026-03-10")
    let ids = report.allCommits.map(\.id.hex)
    #expect(ids.count == Set(ids).count, "a commit was counted twice")
    #expect(Set(ids) == [onMain, shared, deeper])
    let loggedBranches = try loggedIDs(["--branches", "--no-merges"])
    #expect(Set(ids) == loggedBranches)
    #expect(report.commitCount == 3)

    try repository.git("branch", "kept", detached)
    let kept = try await sandbox.report("2026-03-10").allCommits.map(\.id.hex)
    #expect(Set(kept) == [onMain, shared, deeper, detached])
    let loggedKept = try loggedIDs(["--branches", "--no-merges"])
    #expect(Set(kept) == loggedKept)
  }

  @Test func mergesAreLeftOutUnlessConfigured() async throws {
    try repository.git("switch", "-q", "-c", "feature")
    try repository.commit(file: "f.txt", content: "f\n", message: "Feature work", date: "2026-03-10T09:00:00Z")
    try repository.git("switch", "-q", "main")
    try repository.commit(file: "m.txt", content: "m\n", message: "Main work", date: "2026-03-10T10:00:00Z")
    try repository.git(
      ["merge", "-q", "--no-ff", "-m", "Merge feature", "feature"],
      environment: TemporaryRepository.identity(
        date: "2026-03-10T11:00:00Z", committerDate: nil, email: TemporaryRepository.email))
    let merges = try loggedIDs(["--branches", "--merges"])
    #expect(merges.count == 1)

    let withoutMerges = try await sandbox.report("2026-03-10")
    let loggedWithoutMerges = try loggedIDs()
    #expect(Set(withoutMerges.allCommits.map(\.id.hex)) == loggedWithoutMerges)
    #expect(withoutMerges.allCommits.allSatisfy { !merges.contains($0.id.hex) })

    try sandbox.configure("journal.merges", "true")
    let withMerges = try await sandbox.report("2026-03-10")
    let loggedWithMerges = try loggedIDs(["--branches"])
    #expect(Set(withMerges.allCommits.map(\.id.hex)) == loggedWithMerges)
    let merge = try #require(withMerges.allCommits.first { merges.contains($0.id.hex) })
    // Like `git log`, a merge shows no diff of its own.
    #expect(merge.insertions == 0 && merge.deletions == 0 && merge.filesChanged == 0)
    #expect(withMerges.insertions == withoutMerges.insertions)
  }

  @Test func aCherryPickedCopyCountsOnce() async throws {
    try repository.git("switch", "-q", "-c", "feature")
    let original = try repository.commit(
      file: "fix.txt", content: "fix\n", message: "Fix the parser", date: "2026-03-10T09:00:00Z")
    try repository.git("switch", "-q", "main")
    try repository.git(
      ["cherry-pick", original],
      environment: ["GIT_COMMITTER_DATE": "2026-03-10T15:00:00Z", "GIT_COMMITTER_EMAIL": TemporaryRepository.email])
    let copy = try repository.headID()
    #expect(copy != original)
    let logged = try repository.log().filter { $0.authorDay == "2026-03-10" }
    #expect(logged.filter { $0.subject == "Fix the parser" }.count == 2, "git sees both copies")

    let report = try await sandbox.report("2026-03-10")
    #expect(report.allCommits.filter { $0.subject == "Fix the parser" }.count == 1)
    #expect(report.commitCount == logged.count - 1)
    #expect([original, copy].contains(try #require(report.allCommits.first).id.hex))
  }

  @Test func otherAuthorsCountOnlyWithAllAuthors() async throws {
    let mine = try repository.commit(file: "a.txt", content: "a\n", message: "Mine", date: "2026-03-10T09:00:00Z")
    let theirs = try repository.commit(
      file: "b.txt", content: "b\n", message: "Theirs", date: "2026-03-10T10:00:00Z", email: "bob@example.com")
    // The configured author matches whatever the case.
    let shouting = try repository.commit(
      file: "c.txt", content: "c\n", message: "Shouting", date: "2026-03-10T11:00:00Z", email: "ADA@Example.com")

    let report = try await sandbox.report("2026-03-10")
    #expect(Set(report.allCommits.map(\.id.hex)) == [mine, shouting])
    let loggedMine = try loggedIDs(["--branches", "--no-merges", "-i", "--author=ada@"])
    #expect(Set(report.allCommits.map(\.id.hex)) == loggedMine)

    let everyone = try await sandbox.report("2026-03-10", "--all-authors")
    #expect(Set(everyone.allCommits.map(\.id.hex)) == [mine, theirs, shouting])
    let loggedEveryone = try loggedIDs()
    #expect(Set(everyone.allCommits.map(\.id.hex)) == loggedEveryone)
  }

  @Test func severalConfiguredAuthorsAllCount() async throws {
    let mine = try repository.commit(file: "a.txt", content: "a\n", message: "Work", date: "2026-03-10T09:00:00Z")
    let other = try repository.commit(
      file: "b.txt", content: "b\n", message: "Home", date: "2026-03-10T10:00:00Z", email: "ada@home.example")
    try repository.commit(
      file: "c.txt", content: "c\n", message: "Bob", date: "2026-03-10T11:00:00Z", email: "bob@example.com")
    #expect(Set(try await sandbox.report("2026-03-10").allCommits.map(\.id.hex)) == [mine])
    try sandbox.addConfiguration("journal.author", "ada@home.example")
    #expect(Set(try await sandbox.report("2026-03-10").allCommits.map(\.id.hex)) == [mine, other])
  }

  @Test func mailmapMapsAnOldEmailToTheUser() async throws {
    try repository.write(
      "\(TemporaryRepository.name) <\(TemporaryRepository.email)> <ada@old.example>\n", to: ".mailmap")
    let old = try repository.commit(
      file: "a.txt", content: "a\n", message: "From the old laptop", date: "2026-03-10T09:00:00Z",
      email: "ada@old.example")
    let logged = try #require(try repository.log().first { $0.id == old })
    #expect(logged.authorEmail == TemporaryRepository.email, "git itself maps the address")

    #expect(try await sandbox.report("2026-03-10").allCommits.map(\.id.hex) == [old])

    // Without the mapping the same commit is someone else's.
    try repository.commit(file: ".mailmap", content: "", message: "Drop mailmap", date: "2026-03-11T09:00:00Z")
    #expect(try await sandbox.report("2026-03-10").commitCount == 0)
  }
}
