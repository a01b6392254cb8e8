import Foundation
import Testing

/// `gitjournal standup`: the last day with commits before today, and today so far.
@Suite struct StandupCommandTests {
  let sandbox: JournalSandbox
  let app: TemporaryRepository
  let site: TemporaryRepository

  init() throws {
    sandbox = try JournalSandbox()
    app = try sandbox.makeRegisteredRepository("app")
    site = try sandbox.makeRegisteredRepository("site")
  }

  /// Monday 9 March 2026, 12:00 UTC.
  static let monday = Date(timeIntervalSince1970: 1_773_057_600)

  @Test func onAMondayItShowsFridayAndTodayAsMarkdownOnAPipe() async throws {
    try app.commit(file: "a", content: "1\n", message: "Thursday's work", date: "2026-03-05T10:00:00Z")
    try app.commit(file: "a", content: "1\n2\n", message: "Fix sync", date: "2026-03-06T09:00:00Z")
    try site.commit(file: "b", content: "1\n", message: "Tidy <footer>", date: "2026-03-06T15:00:00Z")
    try app.commit(file: "a", content: "1\n", message: "Add export", date: "2026-03-09T08:00:00Z")
    let result = await sandbox.run("standup", now: Self.monday)
    #expect(result.status == 0, "\(result)")
    #expect(
      result.standardOutput == """
        ## Friday, 6 March 2026

        2 commits across 2 projects, +2 -0

        - **app**
          - Fix sync
        - **site**
          - Tidy \\<footer>

        ## Today so far

        1 commit in 1 project, +0 -1

        - **app**
          - Add export

        """)
    #expect(sandbox.journalFolderNames().isEmpty, "standup writes nothing")
  }

  @Test func afterAHolidayItShowsTheLastWorkingDayAndAnEmptyToday() async throws {
    try app.commit(file: "a", content: "1\n", message: "Before the break", date: "2026-03-03T10:00:00Z")
    let result = await sandbox.run("standup", "--format", "text", now: Self.monday)
    #expect(result.status == 0, "\(result)")
    // Not a terminal: no colour, even in text.
    #expect(
      result.standardOutput == """
        Tuesday, 3 March 2026: 1 commit in 1 project, +1 -0
          app
            Before the break

        Today so far: No commits

        """)
  }

  @Test func daysBoundsTheLookBack() async throws {
    try app.commit(file: "a", content: "1\n", message: "Long ago", date: "2026-02-20T10:00:00Z")
    let quiet = await sandbox.run("standup", now: Self.monday)
    #expect(quiet.status == 0, "\(quiet)")
    #expect(quiet.standardOutput == "No commits since 2026-03-02\n")
    let further = await sandbox.run("standup", "--days", "20", now: Self.monday)
    #expect(further.standardOutput.hasPrefix("## Friday, 20 February 2026\n"), "\(further)")
    let today = await sandbox.run("standup", "--days", "1", now: Self.monday)
    #expect(today.standardOutput == "No commits since 2026-03-08\n")
  }

  @Test func todayAloneIsShownWhenNothingCameBefore() async throws {
    try app.commit(file: "a", content: "1\n", message: "First ever", date: "2026-03-09T07:00:00Z")
    let result = await sandbox.run("standup", now: Self.monday)
    #expect(result.standardOutput == "## Today so far\n\n1 commit in 1 project, +1 -0\n\n- **app**\n  - First ever\n")
  }

  @Test func aTerminalGetsColouredText() throws {
    // A commit a minute ago: today, or yesterday just after midnight; either way a section with its project.
    let minuteAgo = Int(Date().timeIntervalSince1970) - 60
    try app.commit(file: "a", content: "1\n", message: "Fix sync", date: "@\(minuteAgo) +0000")
    // script(1) runs the binary on a pseudo-terminal and copies what it prints.
    let command = "'\(try BinaryRunner.executable())' standup"
    let result = try Subprocess.run(
      "/usr/bin/script", ["-q", "-e", "-c", command, "/dev/null"], environment: sandbox.binaryEnvironment,
      currentDirectory: sandbox.home)
    #expect(result.status == 0, "\(result)")
    #expect(
      result.standardOutput.contains("\u{1B}[1mToday so far\u{1B}[0m"), "\(result.standardOutput.debugDescription)")
    #expect(result.standardOutput.contains("\u{1B}[36mapp\u{1B}[0m"))
    #expect(!result.standardOutput.contains("## "), "text, not markdown, on a terminal")
  }

  @Test func argumentsAreChecked() async throws {
    for (arguments, message) in [
      (["standup", "--days", "0"], "--days takes a number"),
      (["standup", "--days", "lots"], "--days takes a number"),
      (["standup", "--format", "html"], "--format takes markdown or text"),
      (["standup", "yesterday"], "standup takes no day"),
    ] {
      let result = await sandbox.run(arguments)
      #expect(result.status == 64, "\(arguments): \(result)")
      #expect(result.standardError.contains(message), "\(arguments): \(result)")
    }
  }
}
