import Foundation
import Testing

@testable import Facts

/// A repository with no commits yet is the most common thing to install into: it is a readable repository
/// with nothing to journal, never a fault (issue 14). Checked with the real binary and real `git commit`.
@Suite struct EmptyRepositoryTests {
  let world: HookWorld
  let fresh: String
  let work: String

  init() throws {
    world = try HookWorld()
    // Not the initial branch libgit2 expects, so its own emptiness test is not enough.
    fresh = try world.scratch.makeFolder("code/fresh")
    try world.git(["init", "-q", "-b", "trunk"], in: fresh)
    work = try world.makeRepository("code/work")
    for repository in [fresh, work] {
      let installed = try world.gitjournal("install", in: repository)
      try #require(installed.status == 0, "install failed: \(installed.standardError)")
    }
  }

  @Test func commitsElsewhereAreQuietAndEveryCommandSucceeds() throws {
    let commit = try world.commit(in: work, "Work next to a fresh repository")
    #expect(commit.standardError.isEmpty, "the hook wrote on stderr: \(commit.standardError)")
    let journal = try #require(world.journal(commit.day))
    #expect(HookWorld.count(commit.journalID, in: journal) == 1)
    #expect(!FileManager.default.fileExists(atPath: world.hookLogPath), "the hook logged a problem")

    let rebuild = try world.gitjournal("rebuild", commit.day, in: world.home)
    #expect(rebuild.status == 0, "\(rebuild.standardError)")
    #expect(rebuild.standardError.isEmpty)

    let repos = try world.gitjournal("repos", in: world.home)
    #expect(repos.status == 0, "\(repos.standardOutput)")
    #expect(repos.standardOutput.contains(fresh + "  no commits yet\n"), "\(repos.standardOutput)")
    #expect(repos.standardOutput.contains(work + "  ok\n"), "\(repos.standardOutput)")

    let show = try world.gitjournal("show", commit.day, "--json", in: world.home)
    #expect(show.status == 0, "\(show.standardError)")
    #expect(show.standardError.isEmpty)
    let report = try JSONDecoder().decode(DayReport.self, from: Data(show.standardOutput.utf8))
    #expect(report.allCommits.map(\.id.hex) == [commit.id])

    let stats = try world.gitjournal("stats", in: world.home)
    #expect(stats.status == 0, "\(stats.standardError)")
    #expect(stats.standardError.isEmpty)

    let doctor = try world.gitjournal("doctor", in: world.home)
    #expect(doctor.status == 0, "\(doctor.standardOutput)")
    let line = try #require(doctor.standardOutput.split(separator: "\n").first { $0.contains(fresh) })
    #expect(line.hasPrefix("✓ ") && line.contains("no commits yet"), "\(line)")
  }

  /// Its first commit is journaled like any other.
  @Test func theFirstCommitIsJournaled() throws {
    let first = try world.commit(in: fresh, "First commit of a fresh repository")
    #expect(first.standardError.isEmpty, "the hook wrote on stderr: \(first.standardError)")
    let journal = try #require(world.journal(first.day))
    #expect(HookWorld.count(first.journalID, in: journal) == 1)
  }
}
