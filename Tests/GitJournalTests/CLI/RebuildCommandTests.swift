import Foundation
import Testing

@testable import CLI
@testable import Journal

/// `gitjournal rebuild` and the journal files it leaves.
@Suite struct RebuildCommandTests {
  let sandbox: JournalSandbox
  let repository: TemporaryRepository

  init() throws {
    sandbox = try JournalSandbox()
    repository = try sandbox.makeRegisteredRepository("app")
  }

  @Test func aDayWithoutCommitsWritesNoFile() async throws {
    try repository.commit(file: "a", content: "a\n", message: "Other day", date: "2026-03-09T09:00:00Z")
    let result = await sandbox.run("rebuild", "2026-03-10")
    #expect(result.status == 0, "\(result)")
    #expect(result.standardOutput.isEmpty)
    #expect(result.standardError == "No commits on that day; no file written.\n")
    #expect(sandbox.journalFolderNames().isEmpty)

    let range = await sandbox.run("rebuild", "--since", "2026-03-01", "--until", "2026-03-08")
    #expect(range.status == 0)
    #expect(range.standardError == "No commits on those days; no file written.\n")
    #expect(sandbox.journalFolderNames().isEmpty)
  }

  /// A sync conflict copy that is a symlink is left alone, and `rebuild` says so: a warning, not silence.
  @Test func aLinkedConflictCopyIsNamedInAWarning() async throws {
    try repository.commit(file: "a", content: "1\n", message: "One", date: "2026-03-10T09:00:00Z")
    try FileManager.default.createDirectory(atPath: sandbox.journalDirectory, withIntermediateDirectories: true)
    let copy = sandbox.journalDirectory + "/2026-03-10.sync-conflict-20261205-000001-LINK.md"
    try FileManager.default.createSymbolicLink(atPath: copy, withDestinationPath: "/etc/hostname")
    let result = await sandbox.run("rebuild", "2026-03-10")
    #expect(result.status == 0, "\(result)")
    #expect(result.standardError.contains("warning: left the sync conflict copy \(copy) alone"), "\(result)")
    #expect(sandbox.journalFile("2026-03-10")?.contains("One") == true)
  }

  @Test func rebuildingTwiceGivesTheSameFile() async throws {
    try repository.commit(file: "a", content: "1\n2\n", message: "One", date: "2026-03-10T09:00:00Z")
    try repository.commit(file: "a", content: "1\n", message: "Two", date: "2026-03-10T10:30:00Z")
    let first = await sandbox.run("rebuild", "2026-03-10")
    #expect(first.status == 0)
    let path = sandbox.journalDirectory + "/2026-03-10.md"
    #expect(first.standardOutput == "2026-03-10  2 commits in 1 project  created  \(path)\n")
    let text = try #require(sandbox.journalFile("2026-03-10"))
    let second = await sandbox.run("rebuild", "2026-03-10")
    #expect(second.standardOutput == "2026-03-10  2 commits in 1 project  unchanged  \(path)\n")
    #expect(sandbox.journalFile("2026-03-10") == text)
    #expect(sandbox.journalFolderNames() == ["2026-03-10.md", "2026-03.md", "2026-W11.md"])

    // The file says what git says.
    let logged = try repository.log()
    let parts = try #require(JournalFixtures.parts(of: text))
    #expect(parts.body.hasPrefix("2 commits in 1 project, +\(logged.map(\.stats.insertions).reduce(0, +)) -"))
    #expect(parts.body.contains("- 09:00 One (`\(logged[1].id.prefix(7))`, +2 -0)"))
    #expect(parts.body.contains("- 10:30 Two (`\(logged[0].id.prefix(7))`, +0 -1)"))
  }

  @Test func newCommitsUpdateTheFileAndKeepTheUsersText() async throws {
    try repository.commit(file: "a", content: "0\n", message: "Base", date: "2026-03-01T09:00:00Z")
    try repository.commit(file: "a", content: "1\n", message: "Morning", date: "2026-03-10T09:00:00Z")
    _ = await sandbox.run("rebuild", "2026-03-10")
    let path = sandbox.journalDirectory + "/2026-03-10.md"
    let original = try #require(sandbox.journalFile("2026-03-10"))
    try (original + "\nLunch was good.\n").write(toFile: path, atomically: true, encoding: .utf8)

    try repository.commit(file: "a", content: "2\n", message: "Afternoon", date: "2026-03-10T15:00:00Z")
    let result = await sandbox.run("rebuild", "today")
    #expect(result.standardOutput.contains("2 commits in 1 project  updated"))
    let updated = try #require(sandbox.journalFile("2026-03-10"))
    #expect(updated.contains("Afternoon"))
    #expect(updated.hasSuffix("\nLunch was good.\n"))

    // A day that lost all its commits (here: the branch was reset) keeps its file, saying so.
    try repository.git("reset", "-q", "--hard", "HEAD~2")
    let emptied = await sandbox.run("rebuild", "2026-03-10")
    #expect(emptied.status == 0, "\(emptied)")
    let after = try #require(sandbox.journalFile("2026-03-10"))
    #expect(after.contains("\nNo commits\n"))
    #expect(after.hasSuffix("\nLunch was good.\n"))
  }

  @Test func rangeWritesOneLinePerFile() async throws {
    for day in ["2026-03-02", "2026-03-04", "2026-03-05"] {
      try repository.commit(file: "a", content: "\(day)\n", message: "Work of \(day)", date: "\(day)T12:00:00Z")
    }
    let result = await sandbox.run("rebuild", "--since", "2026-03-01", "--until", "2026-03-05")
    #expect(result.status == 0, "\(result)")
    #expect(
      result.standardOutput.split(separator: "\n").map { String($0.prefix(10)) } == [
        "2026-03-02", "2026-03-04", "2026-03-05",
      ])
    #expect(
      sandbox.journalFolderNames() == ["2026-03-02.md", "2026-03-04.md", "2026-03-05.md", "2026-03.md", "2026-W10.md"])
    // Several days as arguments, relative ones included (the clock says 2026-03-10).
    let named = await sandbox.run("rebuild", "2026-03-02", "-6", "-8")
    #expect(named.standardOutput.split(separator: "\n").map { String($0.prefix(10)) } == ["2026-03-02", "2026-03-04"])
  }

  @Test func rangeUsageErrors() async {
    for arguments in [
      ["rebuild", "--until", "2026-03-05"], ["rebuild", "--since", "2026-03-06", "--until", "2026-03-05"],
      ["rebuild", "--since"], ["rebuild", "--since", "soon"],
      ["rebuild", "--since", "2026-03-01", "--since", "2026-03-02"],
    ] {
      let result = await sandbox.run(arguments)
      #expect(result.status == ExitStatus.usage, "\(arguments): \(result)")
      #expect(result.standardError.contains("Usage: gitjournal rebuild"), "\(arguments)")
    }
    #expect(sandbox.journalFolderNames().isEmpty)
  }

  @Test func concurrentWritersLeaveOneValidFile() async throws {
    let store = JournalStore(
      directory: sandbox.journalDirectory, lockPath: sandbox.stateHome + "/gitjournal/journal.lock")
    let day = JournalFixtures.day
    let before = "\nMy morning notes.\n"
    let after = "\n\nMy evening notes.\n"
    let pages = (0..<8).map { writer in
      JournalFixtures.page(subjects: (0...writer).map { "Writer \(writer) commit \($0)" }, project: "p\(writer)")
    }
    try store.write(pages[0], for: day, isEmpty: false)
    let written = try #require(try store.read(day))
    var parts = try #require(JournalFixtures.parts(of: written))
    parts.before = before
    parts.after = after
    try (parts.frontMatter + parts.before + JournalMerger.renderBlock(parts.body) + parts.after).write(
      toFile: store.path(of: day), atomically: true, encoding: .utf8)

    for round in 0..<5 {
      await withTaskGroup(of: Void.self) { group in
        for page in pages.shuffled() {
          group.addTask {
            for _ in 0..<2 { _ = try? store.write(page, for: day, isEmpty: false) }
          }
        }
      }
      let text = try #require(try store.read(day))
      let result = try #require(JournalFixtures.parts(of: text), "round \(round): one block")
      #expect(result.before == before, "round \(round)")
      #expect(result.after == after, "round \(round)")
      #expect(pages.contains { $0.blockBody == result.body }, "round \(round)")
      #expect(!text.contains("edited inside the generated block"), "round \(round)")
      #expect(sandbox.journalFolderNames() == ["2026-03-10.md"], "round \(round): no temporary files")
    }
  }
}
