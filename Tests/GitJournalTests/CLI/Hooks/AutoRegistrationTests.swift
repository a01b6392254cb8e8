import Foundation
import Testing

/// Under the global hook, a repository's first commit registers it, as `journal.include`, `journal.exclude` and
/// `repo.<name>.exclude` allow; the repository that holds the journal is never registered.
@Suite struct AutoRegistrationTests {
  let world: HookWorld

  init() throws {
    world = try HookWorld()
    let installed = try world.gitjournal("install", "--global", in: world.home)
    try #require(installed.status == 0, "\(installed.hookTestSummary)")
  }

  /// The `repo.<name>.path` entries as name -> path.
  func registered() throws -> [String: String] {
    let result = try world.gitResult(
      ["config", "-f", world.configPath, "--get-regexp", "^repo\\..*\\.path$"], in: world.home)
    // Status 1: no such key.
    guard result.status == 0 else {
      try #require(result.status == 1, "\(result.standardError)")
      return [:]
    }
    let output = result.standardOutput
    var entries: [String: String] = [:]
    for line in output.split(separator: "\n") {
      let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
      entries[String(parts[0].dropFirst("repo.".count).dropLast(".path".count))] = parts[1]
    }
    return entries
  }

  @Test func theFirstCommitRegistersUnderAUniqueName() throws {
    let first = try world.makeRepository("code/app")
    let second = try world.makeRepository("work/app")
    let commit = try world.commit(in: first, "First commit here")
    #expect(commit.standardError.isEmpty, "\(commit.standardError)")
    #expect(try registered() == ["app": first])
    let journal = try #require(world.journal(commit.day), "the registering commit was not journaled")
    #expect(HookWorld.count(commit.journalID, in: journal) == 1)

    let other = try world.commit(in: second, "Same folder name elsewhere")
    #expect(try registered() == ["app": first, "app-2": second])
    #expect(world.journal(other.day)?.contains("## app-2") == true)
    // A second commit registers nothing more.
    try world.commit(in: first, "Second commit")
    #expect(try registered().count == 2)
  }

  @Test func includeAndExcludeDecide() throws {
    try world.scratchHome.addConfiguration("journal.include", "~/code")
    try world.scratchHome.addConfiguration("journal.include", world.scratch.path("extra/*"))
    try world.scratchHome.addConfiguration("journal.exclude", "*-scratch")
    try world.scratchHome.addConfiguration("journal.exclude", "~/code/vendor/**")
    let kept = try world.makeRepository("home/code/app")
    let nested = try world.makeRepository("home/code/group/tool")
    let extra = try world.makeRepository("extra/lib")
    let outside = try world.makeRepository("elsewhere/other")
    let scratch = try world.makeRepository("home/code/try-scratch")
    let vendored = try world.makeRepository("home/code/vendor/dep")
    let marked = try world.makeRepository("home/code/private-notes")
    try world.configure("repo.notes.path", marked)
    try world.configure("repo.notes.exclude", "true")

    var commits: [HookCommit] = []
    for repository in [kept, nested, extra, outside, scratch, vendored, marked] {
      commits.append(try world.commit(in: repository, "Work in \((repository as NSString).lastPathComponent)"))
    }
    let paths = Set(try registered().values)
    #expect(paths == [kept, nested, extra, marked], "\(paths)")
    let journal = try #require(world.journal(commits[0].day))
    for commit in commits[0..<3] { #expect(journal.contains(commit.subject), "\(commit.subject):\n\(journal)") }
    for commit in commits[3...] { #expect(!journal.contains(commit.subject), "\(commit.subject):\n\(journal)") }

    // Excluded for good: install and repos add refuse them too, with the reason.
    for repository in [scratch, marked] {
      let result = try world.gitjournal("repos", "add", repository, in: world.home)
      #expect(result.status == 1)
      #expect(result.standardError.contains("exclude"), "\(result.standardError)")
      #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
    }
    // Explicitly added, a repository outside journal.include is fine: include only limits the hook.
    #expect(try world.gitjournal("repos", "add", outside, in: world.home).status == 0)
  }

  @Test func aRetiredRepositoryIsNotRegisteredAgain() throws {
    let repository = try world.makeRepository("code/app")
    try world.commit(in: repository, "Registered")
    #expect(try world.gitjournal("repos", "remove", "app", in: world.home).status == 0)
    let after = try world.commit(in: repository, "After removal")
    #expect(world.journaledPaths().isEmpty)
    #expect(world.journal(after.day)?.contains(after.subject) != true)
  }

  @Test func theJournalsOwnRepositoryIsNeverRegistered() throws {
    // The journal kept in git to sync it, as a folder of a repository.
    let notes = try world.makeRepository("home/notes")
    try world.configure("journal.dir", notes + "/journal")
    let code = try world.makeRepository("code/app")
    let work = try world.commit(in: code, "Real work")
    let journalFile = notes + "/journal/\(work.day).md"
    let before = try #require(HookFileSnapshot(journalFile))

    let commit = try world.commit(in: notes, "Sync the journal")
    #expect(commit.standardError.isEmpty, "\(commit.standardError)")
    #expect(try registered() == ["app": code])
    #expect(HookFileSnapshot(journalFile) == before, "committing the journal wrote to the journal")

    for arguments in [["install"], ["repos", "add", "."], ["install", notes]] {
      let result = try world.run(world.binary, arguments, in: notes + "/journal")
      #expect(result.status == 1, "\(arguments): \(result.hookTestSummary)")
      #expect(result.standardError.contains("holds the journal folder"), "\(result.standardError)")
      #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
    }
    #expect(try registered() == ["app": code])
    #expect(!HookWorld.exists(notes + "/.git/hooks/post-commit"))
  }

  @Test func aJournalInANestedRepositoryDoesNotRefuseTheOuterOne() throws {
    let outer = try world.makeRepository("home/dotfiles")
    let inner = try world.makeRepository("home/dotfiles/journal-repo")
    try world.configure("journal.dir", inner + "/days")
    try world.commit(in: inner, "Journal sync")
    #expect(try registered().isEmpty)
    let commit = try world.commit(in: outer, "Outer work", file: "outer.txt")
    #expect(try registered() == ["dotfiles": outer], "\(commit.standardError)")
    #expect(world.scratchHome.journalFile(commit.day) == nil)
    #expect(FileManager.default.contents(atPath: inner + "/days/\(commit.day).md") != nil)
  }
}
