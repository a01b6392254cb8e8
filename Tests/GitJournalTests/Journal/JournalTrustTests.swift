import Foundation
import Testing

@testable import Facts
@testable import GitReader

/// The user's text is theirs, whatever it holds and whenever it is saved; the views agree with the file.
/// Real hooks, real `git commit`, the real binary.
@Suite struct JournalTrustTests {
  private func makeWorld() throws -> (world: HookWorld, app: String) {
    let world = try HookWorld()
    let app = try world.makeRepository("code/app")
    let installed = try world.gitjournal("install", in: app)
    #expect(installed.status == 0, "\(installed.hookTestSummary)")
    return (world, app)
  }

  private func append(_ text: String, to path: String) throws {
    let handle = try #require(FileHandle(forWritingAtPath: path))
    handle.seekToEndOfFile()
    handle.write(Data(text.utf8))
    try handle.close()
  }

  /// Notes appended by another process while hooks rewrite a large day file: every one survives. 2 rounds of
  /// 3 commits, each racing a note every 100 ms (a busy autosave) for as long as it runs.
  @Test func notesSavedDuringACommitAreNeverLost() throws {
    let (world, app) = try makeWorld()
    let first = try world.commit(in: app, "Start the day")
    let path = world.journalDirectory + "/\(first.day).md"
    // A large file makes the hook's read, merge and write slow enough for the appends to land in the middle.
    try append("\n" + String(repeating: "Earlier notes, kept as they are.\n", count: 20_000), to: path)
    var notes: [String] = []
    for round in 0..<2 {
      var commits: [Subprocess] = []
      for index in 0..<3 {
        let file = app + "/race-\(round)-\(index).txt"
        try Data("\(round) \(index)\n".utf8).write(to: URL(fileURLWithPath: file))
        try world.git(["add", "-A"], in: app)
        commits.append(
          try Subprocess(
            Subprocess.gitExecutable, ["commit", "-q", "-m", "Race \(round)-\(index)"], environment: world.environment,
            currentDirectory: app))
        // Notes keep coming for as long as the commit (and so its hook) runs.
        var slot = 0
        while commits.last?.isRunning == true || slot < 3 {
          let note = "note-\(round)-\(index)-\(slot)"
          notes.append(note)
          try append(note + "\n", to: path)
          slot += 1
          usleep(100_000)
        }
        _ = try commits.last?.wait()
      }
    }
    // A hook that could not get the lock within its deadline under load skipped; the next one catches up.
    let caughtUp = try world.gitjournal("hook", "post-commit", in: app)
    #expect(caughtUp.status == 0)
    let text = try #require(world.journal(first.day))
    let missing = notes.filter { HookWorld.count($0 + "\n", in: text) != 1 }
    #expect(missing.isEmpty, "\(missing.count) of \(notes.count) notes lost or doubled: \(missing.prefix(5))")
    #expect(text.contains("7 commits in 1 project"))
  }

  @Test func bytesThatAreNotUTF8AreKeptExactly() throws {
    let (world, app) = try makeWorld()
    let first = try world.commit(in: app, "Start the day")
    let path = world.journalDirectory + "/\(first.day).md"
    let notes: [UInt8] = Array("\nCaf".utf8) + [0xE9] + Array(" notes from a Latin-1 file\n".utf8) + [0xFF, 0xFE, 0x0A]
    let handle = try #require(FileHandle(forWritingAtPath: path))
    handle.seekToEndOfFile()
    handle.write(Data(notes))
    try handle.close()

    try world.commit(in: app, "Fix the café sign")
    let bytes = try #require(FileManager.default.contents(atPath: path))
    #expect(Array(bytes).suffix(notes.count) == notes[...], "the user's bytes were changed")
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.contains("2 commits in 1 project"))
    #expect(text.contains("Fix the café sign"))
  }

  @Test func markersTypedByTheUserAreTheUsersText() throws {
    let (world, app) = try makeWorld()
    let first = try world.commit(in: app, "Start the day")
    let path = world.journalDirectory + "/\(first.day).md"
    var text = try #require(world.journal(first.day))
    let typed = "<!-- gitjournal:begin -->\nMy own outline\n<!-- gitjournal:end -->\n\n"
    let title = try #require(text.range(of: "\n# "))
    let afterTitle = try #require(text.range(of: "\n\n", range: title.upperBound..<text.endIndex))
    text.insert(contentsOf: typed, at: afterTitle.upperBound)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))

    let second = try world.commit(in: app, "Add the export")
    let after = try #require(world.journal(first.day))
    #expect(after.contains(typed), "the typed markers were changed:\n\(after)")
    #expect(after.contains(second.journalID), "the real block was not updated:\n\(after)")
    #expect(HookWorld.count("checksum=", in: after) == 1)
    #expect(after.contains("2 commits in 1 project"))
  }

  @Test func aVeryLongSubjectIsShortInTheFileAndWholeInJSON() throws {
    let (world, app) = try makeWorld()
    let words = (0..<120_000).map { "word\($0 % 10)" }.joined(separator: " ")
    let messageFile = world.scratch.path("message.txt")
    try Data((words + "\n\nBody.\n").utf8).write(to: URL(fileURLWithPath: messageFile))
    try Data("x\n".utf8).write(to: URL(fileURLWithPath: app + "/long.txt"))
    try world.git(["add", "-A"], in: app)
    try world.git(["commit", "-q", "-F", messageFile], in: app)
    let commit = try world.describe("HEAD", in: app)

    let text = try #require(world.journal(commit.day))
    let line = try #require(text.split(separator: "\n").first { $0.contains(commit.shortID) })
    #expect(line.count < 260, "a line of \(line.count) characters")
    #expect(line.contains("…"))
    let json = try world.gitjournal("show", commit.day, "--json", in: app)
    let report = try JSONDecoder().decode(DayReport.self, from: Data(json.standardOutput.utf8))
    #expect(report.projects.first?.commits.first?.subject == words)
  }

  /// `show` and `show --json` tell the same day, and neither tells a stale one: after `install` in a repository
  /// that already has commits today, and after a change of the day boundary.
  @Test func showAndJSONAgreeAndAreNeverStale() throws {
    let world = try HookWorld()
    let app = try world.makeRepository("code/app")
    let early = try world.commit(in: app, "Commit before install")
    let installed = try world.gitjournal("install", in: app)
    #expect(installed.status == 0, "\(installed.hookTestSummary)")
    #expect(world.journal(early.day)?.contains(early.journalID) == true, "install did not refresh today's file")

    func agree() throws {
      let text = try world.gitjournal("show", early.day, in: app)
      let json = try world.gitjournal("show", early.day, "--json", in: app)
      #expect(text.status == 0 && json.status == 0, "\(text.hookTestSummary)\n\(json.hookTestSummary)")
      let report = try JSONDecoder().decode(DayReport.self, from: Data(json.standardOutput.utf8))
      #expect(text.standardOutput.contains(report.factualLine), "text and JSON disagree:\n\(text.standardOutput)")
      for project in report.projects {
        for commit in project.commits { #expect(text.standardOutput.contains(String(commit.id.prefix(7)))) }
      }
    }
    try agree()
    // The day now starts at 23:59: today's commits (made before that) belong to yesterday.
    try world.configure("journal.dayStart", "23:59")
    let shown = try world.gitjournal("show", early.day, in: app)
    #expect(!shown.standardOutput.contains(early.shortID), "show printed the stale file:\n\(shown.standardOutput)")
    try agree()
  }
}
