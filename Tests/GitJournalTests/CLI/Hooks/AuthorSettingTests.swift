import Foundation
import Testing

@testable import Support

/// No setting empties the journal silently: `journal.author` refuses what cannot be an email, a configured author
/// that matches none of the recent commits is named by the hook log and `doctor`, and `--host` names only machines
/// that write to the journal.
@Suite struct AuthorSettingTests {
  let world: HookWorld
  let repository: String

  init() throws {
    world = try HookWorld()
    repository = try world.makeInstalledRepository("code/app")
  }

  @Test func aValueThatCannotBeAnEmailIsRefused() throws {
    let before = try String(contentsOfFile: world.configPath, encoding: .utf8)
    for value in ["notanemail", "@example.com", "me@", "me @example.com", "<me@example.com>"] {
      let refused = try world.gitjournal("config", "set", "journal.author", value, in: repository)
      #expect(refused.status == 1, "\(value): \(refused.hookTestSummary)")
      #expect(refused.standardError.contains("journal.author"), "\(refused.hookTestSummary)")
      #expect(refused.standardError.contains("email"), "\(refused.hookTestSummary)")
      #expect(try String(contentsOfFile: world.configPath, encoding: .utf8) == before, "\(value) was written")
    }
    #expect(try world.gitjournal("config", "set", "journal.author", "Grace@Example.com", in: repository).status == 0)
  }

  @Test func anAuthorThatMatchesNoRecentCommitIsNamedByTheHookAndDoctor() throws {
    let counted = try world.commit(in: repository, "Counted work")
    #expect(world.journal(counted.day)?.contains(counted.journalID) == true)
    #expect(try world.gitjournal("doctor", in: repository).standardOutput.contains("journal.author") == false)

    try world.configure("journal.author", "grace@old-job.example")
    let uncounted = try world.commit(in: repository, "Uncounted work")
    #expect(world.journal(uncounted.day)?.contains(uncounted.journalID) != true)
    let logged = world.hookLogLines().filter { $0.contains("journal.author") }
    #expect(logged.count == 1, "\(world.hookLogLines())")
    #expect(logged.first?.contains("git config user.email") == true, "\(logged)")
    #expect(logged.first?.contains(HookWorld.email) == true, "the email the commits were made with: \(logged)")
    #expect(uncounted.standardError.contains("journal.author"), "\(uncounted.standardError)")

    let doctor = try world.gitjournal("doctor", in: repository)
    #expect(doctor.status == 1, "\(doctor.hookTestSummary)")
    let line = doctor.standardOutput.split(separator: "\n").first { $0.hasPrefix("✗ journal.author") }
    #expect(line?.contains("grace@old-job.example") == true, "\(doctor.hookTestSummary)")
    #expect(line?.contains("git config user.email") == true, "\(doctor.hookTestSummary)")

    // Set back, the hook and doctor say nothing more.
    try world.configure("journal.author", HookWorld.email)
    let again = try world.commit(in: repository, "Counted again")
    #expect(world.hookLogLines().count { $0.contains("journal.author") } == 1)
    #expect(!again.standardError.contains("journal.author"))
    #expect(world.journal(again.day)?.contains(uncounted.journalID) == true)
    let fixed = try world.gitjournal("doctor", in: repository)
    #expect(!fixed.standardOutput.contains("✗ journal.author"), "\(fixed.hookTestSummary)")
  }

  /// A second identity used in one repository is no mismatch while the configured author's commits are there: the
  /// hook says nothing, and keeps that it found them today, so its next commits read nothing more.
  @Test func aSecondIdentityIsNoMismatch() throws {
    try world.configure("journal.author", HookWorld.email)
    let counted = try world.commit(in: repository, "Counted work")
    let work = try world.makeInstalledRepository("code/work")
    try world.git(["config", "user.email", "grace@work.example"], in: work)
    let other = try world.commit(in: work, "Work identity")
    #expect(world.journal(other.day)?.contains(other.journalID) != true)
    #expect(world.journal(counted.day)?.contains(counted.journalID) == true)
    #expect(!other.standardError.contains("journal.author"), "\(other.standardError)")
    #expect(world.hookLogLines().isEmpty, "\(world.hookLogLines())")
    let kept = try String(contentsOfFile: world.home + "/.local/state/gitjournal/author-check", encoding: .utf8)
    #expect(kept == "\(other.day)\t\(HookWorld.email)\n")
    try world.commit(in: work, "Work identity again")
    #expect(world.hookLogLines().isEmpty, "\(world.hookLogLines())")
  }

  @Test func anUnknownHostIsAnErrorThatListsTheKnownOnes() throws {
    let commit = try world.commit(in: repository, "Some work")
    let own = HostName.current
    for arguments in [
      ["show", "--host", "nosuch"], ["show", commit.day, "--week", "--host", "nosuch"], ["stats", "--host", "nosuch"],
    ] {
      let result = try world.run(world.binary, arguments, in: repository)
      #expect(result.status == 1, "\(arguments): \(result.hookTestSummary)")
      #expect(result.standardError.contains("'nosuch'"), "\(result.hookTestSummary)")
      #expect(result.standardError.contains(own), "\(result.hookTestSummary)")
      #expect(result.standardOutput.isEmpty)
    }
    let shown = try world.run(world.binary, ["show", commit.day, "--host", own], in: repository)
    #expect(shown.status == 0 && shown.standardOutput.contains(commit.shortID), "\(shown.hookTestSummary)")
  }
}
