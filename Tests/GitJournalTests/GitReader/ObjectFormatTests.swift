import Foundation
import Testing

@testable import CLI
@testable import Facts
@testable import GitReader

/// A repository whose objects are named by SHA-256 ids (`git init --object-format=sha256`) is refused with one line
/// that names the reason, never read by code that takes an id to be 20 bytes; the other repositories are journaled.
@Suite struct ObjectFormatTests {
  private func sha256Repository(in sandbox: JournalSandbox) throws -> TemporaryRepository {
    let repository = try sandbox.makeRepository("modern", initialize: false)
    try repository.git("init", "-q", "-b", "main", "--object-format=sha256")
    try repository.commit(file: "a.txt", content: "a\n", message: "Start modern", date: "2026-03-10T09:00:00Z")
    return repository
  }

  @Test func openingNamesTheObjectFormat() throws {
    let sandbox = try JournalSandbox()
    let repository = try sha256Repository(in: sandbox)
    #expect(throws: GitError.self) { try Repository.open(at: repository.path) }
    do {
      _ = try Repository.open(at: repository.path)
    } catch {
      #expect(error.message.contains("sha256 ids"), "\(error)")
      #expect(error.message.contains("extensions.objectFormat"), "\(error)")
    }
    #expect(Repository.unreadableReason(near: repository.path)?.contains("sha256") == true)
  }

  @Test func installAndReposAddRefuseWithTheReason() async throws {
    let sandbox = try JournalSandbox()
    let repository = try sha256Repository(in: sandbox)
    let install = await sandbox.run("install", in: repository.path)
    #expect(install.status == ExitStatus.failure)
    #expect(install.standardError.contains("sha256 ids"), "\(install)")
    #expect(!install.standardError.contains("not inside a git repository"), "\(install)")
    let add = await sandbox.run("repos", "add", repository.path)
    #expect(add.status == ExitStatus.failure)
    #expect(add.standardError.contains("sha256 ids"), "\(add)")
  }

  @Test func aConfiguredSHA256RepositoryIsSkippedWithOneLineAndTheOthersAreJournaled() async throws {
    let sandbox = try JournalSandbox()
    let modern = try sha256Repository(in: sandbox)
    let classic = try sandbox.makeRepository("classic")
    try classic.commit(file: "b.txt", content: "b\n", message: "Start classic", date: "2026-03-10T10:00:00Z")
    try sandbox.register(modern)
    try sandbox.register(classic)
    let rebuilt = await sandbox.run("rebuild", "2026-03-10")
    #expect(rebuilt.status == ExitStatus.partial, "\(rebuilt)")
    let warnings = rebuilt.standardError.split(separator: "\n").filter { $0.contains("modern") }
    #expect(warnings.count == 1, "\(rebuilt)")
    #expect(warnings.first?.contains("sha256 ids") == true, "\(rebuilt)")
    let shown = await sandbox.run("show", "2026-03-10", "--json")
    #expect(shown.status == ExitStatus.partial, "\(shown)")
    let report = try JSONDecoder().decode(DayReport.self, from: Data(shown.standardOutput.utf8))
    #expect(report.commitCount == 1)
    #expect(try #require(sandbox.journalFile("2026-03-10")).contains("Start classic"))
  }
}
