import Foundation
import Testing

@testable import CLI
@testable import Facts
@testable import GitReader

/// `gitjournal show`: the JSON contract, the factual line, the signature and the ways to name a day.
@Suite struct ShowCommandTests {
  let sandbox: JournalSandbox
  let app: TemporaryRepository
  let engine: TemporaryRepository

  init() throws {
    sandbox = try JournalSandbox()
    app = try sandbox.makeRegisteredRepository("app")
    engine = try sandbox.makeRegisteredRepository("engine")
    // Each starts with an old first commit, outside the days the tests look at.
    for repository in [app, engine] {
      try repository.commit(file: "README", content: "readme\n", message: "Init", date: "2026-01-01T09:00:00Z")
    }
  }

  @Test func jsonHasExactlyTheDocumentedKeys() async throws {
    let id = try app.commit(file: "a.txt", content: "1\n2\n", message: "First", date: "2026-03-10T09:15:00Z")
    let result = await sandbox.run("show", "2026-03-10", "--json")
    #expect(result.status == 0, "\(result)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    #expect(
      Set(object.keys) == [
        "date", "commitCount", "projectCount", "insertions", "deletions", "filesChanged", "factualLine", "narrative",
        "signature", "kinds", "projects",
      ])
    #expect(object["narrative"] is NSNull, "narrative is null, not missing")
    let projects = try #require(object["projects"] as? [[String: Any]])
    #expect(projects.count == 1)
    let project = try #require(projects.first)
    #expect(
      Set(project.keys) == [
        "name", "path", "commitCount", "insertions", "deletions", "filesChanged", "firstCommitAt", "lastCommitAt",
        "kinds", "commits",
      ])
    let commits = try #require(project["commits"] as? [[String: Any]])
    let commit = try #require(commits.first)
    #expect(Set(commit.keys) == ["id", "authoredAt", "subject", "insertions", "deletions", "filesChanged", "branch"])
    #expect(commit["branch"] is NSNull, "a commit on the default branch has branch null, not missing")

    #expect(object["date"] as? String == "2026-03-10")
    #expect(project["name"] as? String == "app")
    #expect(project["path"] as? String == app.path)
    #expect(project["firstCommitAt"] as? String == "2026-03-10T09:15:00+00:00")
    #expect(commit["id"] as? String == id)
    #expect(commit["authoredAt"] as? String == "2026-03-10T09:15:00+00:00")
    #expect(commit["subject"] as? String == "First")
    let logged = try #require(try app.log().first)
    #expect(commit["insertions"] as? Int == logged.stats.insertions)
    #expect(commit["filesChanged"] as? Int == logged.stats.filesChanged)
  }

  @Test func timestampsUseTheJournalTimeZone() async throws {
    try sandbox.configure("journal.timezone", "Asia/Kolkata")
    try app.commit(file: "a.txt", content: "a\n", message: "Chai", date: "2026-03-10T09:15:00Z")
    let report = try await sandbox.report("2026-03-10")
    #expect(report.allCommits.map(\.authoredAt) == ["2026-03-10T14:45:00+05:30"])
  }

  @Test func factualLineCountsCommitsAndProjects() async throws {
    try app.commit(file: "a", content: "1\n", message: "One", date: "2026-03-05T09:00:00Z")
    try app.commit(file: "a", content: "2\n", message: "Two", date: "2026-03-06T09:00:00Z")
    try app.commit(file: "b", content: "3\n", message: "Three", date: "2026-03-06T10:00:00Z")
    try app.commit(file: "a", content: "4\n", message: "Four", date: "2026-03-07T09:00:00Z")
    try app.commit(file: "b", content: "5\n", message: "Five", date: "2026-03-07T10:00:00Z")
    try engine.commit(file: "c", content: "6\n", message: "Six", date: "2026-03-07T11:00:00Z")

    let expectations = [
      ("2026-03-04", "No commits", 0, 0),
      ("2026-03-05", "1 commit in 1 project", 1, 1),
      ("2026-03-06", "2 commits in 1 project", 2, 1),
      ("2026-03-07", "3 commits across 2 projects", 3, 2),
    ]
    for (day, line, commits, projects) in expectations {
      let report = try await sandbox.report(day)
      // The same line as the file's: the counts, then the lines changed.
      #expect(report.factualLine == (commits == 0 ? line : "\(line), +\(report.insertions) -\(report.deletions)"))
      #expect(report.commitCount == commits)
      #expect(report.projectCount == projects)
      let logged = try app.log() + engine.log()
      #expect(report.commitCount == logged.filter { $0.authorDay == day }.count)
    }
    // Projects are ordered by name, commits oldest first.
    let many = try await sandbox.report("2026-03-07")
    #expect(many.projects.map(\.name) == ["app", "engine"])
    #expect(many.projects[0].commits.map(\.subject) == ["Four", "Five"])
  }

  @Test func signatureIsStableAndFollowsTheFacts() async throws {
    try app.commit(file: "a", content: "1\n", message: "One", date: "2026-03-10T09:00:00Z")
    let first = try await sandbox.report("2026-03-10").signature
    #expect(try await sandbox.report("2026-03-10").signature == first)
    #expect(first.count == 40 && first.allSatisfy(\.isHexDigit))

    // A commit on another day changes nothing.
    try app.commit(file: "a", content: "2\n", message: "Two", date: "2026-03-11T09:00:00Z")
    #expect(try await sandbox.report("2026-03-10").signature == first)

    // A new commit that day does.
    try engine.commit(file: "c", content: "3\n", message: "Three", date: "2026-03-10T10:00:00Z")
    let second = try await sandbox.report("2026-03-10").signature
    #expect(second != first)

    // So does a different subject for the same change, and a different time zone.
    try engine.git(
      ["commit", "-q", "--amend", "-m", "Three, reworded"],
      environment: TemporaryRepository.identity(
        date: "2026-03-10T10:00:00Z", committerDate: nil, email: TemporaryRepository.email))
    let third = try await sandbox.report("2026-03-10").signature
    #expect(third != second)
    try sandbox.configure("journal.timezone", "Europe/London")
    #expect(try await sandbox.report("2026-03-10").signature == third, "London is on UTC in March")
    try sandbox.configure("journal.timezone", "Europe/Paris")
    #expect(try await sandbox.report("2026-03-10").signature != third)
  }

  @Test func signatureIsGitsHashOfTheCanonicalFacts() throws {
    let facts = JournalFixtures.facts(subjects: ["One", "Two \"quoted\""])
    let text = facts.canonicalText(calendar: JournalFixtures.calendar)
    let hashed = try app.git(["hash-object", "--stdin"], input: Data(text.utf8))
    #expect(
      facts.signature(calendar: JournalFixtures.calendar) == hashed.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  @Test func daysCanBeNamedManyWays() async throws {
    // The clock says 2026-03-10 12:00 UTC.
    var ids: [String: String] = [:]
    for (day, message) in [
      ("2026-02-28", "February"), ("2026-03-07", "Three ago"), ("2026-03-09", "Yesterday"), ("2026-03-10", "Today"),
    ] {
      ids[day] = try app.commit(file: "a", content: "\(message)\n", message: message, date: "\(day)T08:00:00Z")
    }
    let names = [
      ("today", "2026-03-10"), ("yesterday", "2026-03-09"), ("-0", "2026-03-10"), ("-1", "2026-03-09"),
      ("-3", "2026-03-07"), ("2026-02-28", "2026-02-28"), ("-10", "2026-02-28"),
    ]
    for (argument, day) in names {
      let report = try await sandbox.report(argument)
      #expect(report.date == day, "\(argument)")
      #expect(report.allCommits.map(\.id.hex) == [ids[day]!], "\(argument)")
    }
    // No day means today.
    let plain = await sandbox.run("show", "--json")
    #expect(plain.standardOutput.contains("\"date\" : \"2026-03-10\""))
  }

  @Test func todayIsTheJournalTimeZonesToday() async throws {
    let lateEvening = Date(timeIntervalSince1970: 1_773_185_400)  // 2026-03-10 23:30 UTC
    let tokyo = try JournalSandbox(timeZone: "Asia/Tokyo")
    try tokyo.register(app)
    let result = await tokyo.run(["show", "today", "--json"], now: lateEvening)
    #expect(result.standardOutput.contains("\"date\" : \"2026-03-11\""), "\(result)")
    let utc = await sandbox.run(["show", "today", "--json"], now: lateEvening)
    #expect(utc.standardOutput.contains("\"date\" : \"2026-03-10\""), "\(utc)")
  }

  @Test(arguments: [
    "2026-02-30", "2026-13-01", "tomorrow", "2026-3-1", "20260301", "-x", "--jsno", "-1.5", "+3", "-99999999999",
    "-9223372036854775807", "",
  ])
  func badDaysAreUsageErrors(argument: String) async throws {
    let result = await sandbox.run("show", argument, "--json")
    #expect(result.status == ExitStatus.usage, "\(result)")
    #expect(result.standardOutput.isEmpty)
    #expect(result.standardError.hasPrefix("error: "))
    #expect(result.standardError.contains("Usage: gitjournal show"))
    #expect(result.standardError.contains("See 'gitjournal help show'."))
  }

  @Test func twoDaysAreAUsageError() async {
    let result = await sandbox.run("show", "today", "yesterday")
    #expect(result.status == ExitStatus.usage)
    #expect(result.standardError.contains("Usage: gitjournal show"))
  }

  @Test func showPrintsTheFileWhenThereIsOne() async throws {
    try app.commit(file: "a", content: "1\n", message: "One", date: "2026-03-10T09:00:00Z")
    let computed = await sandbox.run("show", "2026-03-10")
    #expect(computed.status == 0)
    #expect(computed.standardOutput.contains("- 09:00 One (`"))
    #expect(sandbox.journalFile("2026-03-10") == nil, "show writes nothing")

    let rebuilt = await sandbox.run("rebuild", "2026-03-10")
    #expect(rebuilt.status == 0)
    let path = sandbox.journalDirectory + "/2026-03-10.md"
    try (try #require(sandbox.journalFile("2026-03-10")) + "\nMy own words.\n").write(
      toFile: path, atomically: true, encoding: .utf8)
    let shown = await sandbox.run("show", "2026-03-10")
    #expect(shown.standardOutput == sandbox.journalFile("2026-03-10"))
    #expect(shown.standardOutput.hasSuffix("My own words.\n"))
  }

  /// A day's file that is a symlink is not printed: `show` says why and prints nothing of the file it names.
  @Test func aSymlinkedDayFileIsNotPrinted() async throws {
    try app.commit(file: "a", content: "1\n", message: "One", date: "2026-03-10T09:00:00Z")
    let secret = sandbox.scratch.path("secret.txt")
    try "the secret key\n".write(toFile: secret, atomically: false, encoding: .utf8)
    try FileManager.default.createDirectory(atPath: sandbox.journalDirectory, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: sandbox.journalDirectory + "/2026-03-10.md", withDestinationPath: secret)
    let shown = await sandbox.run("show", "2026-03-10")
    #expect(shown.status != 0)
    #expect(!shown.standardOutput.contains("the secret key"))
    #expect(shown.standardError.contains("2026-03-10.md"), "\(shown)")
  }

  /// `show` neutralises bidirectional controls in subjects: in the file it writes, in a file written before
  /// (printed with U+FFFD), and in JSON (escaped as \u202E, so a program still reads the subject as it is).
  @Test func bidiControlsAreNeutralised() async throws {
    let subject = "Fix the \u{202E}fdp.exe\u{202C} loader"
    try app.commit(file: "a", content: "1\n", message: subject, date: "2026-03-10T09:00:00Z")
    let computed = await sandbox.run("show", "2026-03-10")
    #expect(computed.standardOutput.contains("Fix the \u{FFFD}fdp.exe\u{FFFD} loader"), "\(computed)")

    let json = await sandbox.run("show", "2026-03-10", "--json")
    #expect(!json.standardOutput.unicodeScalars.contains(where: { $0.properties.isBidiControl }))
    #expect(json.standardOutput.contains(#"Fix the \u202Efdp.exe\u202C loader"#), "\(json.standardOutput)")
    let report = try JSONDecoder().decode(DayReport.self, from: Data(json.standardOutput.utf8))
    #expect(report.projects.first?.commits.first?.subject == subject)

    #expect(await sandbox.run("rebuild", "2026-03-10").status == 0)
    let written = try #require(sandbox.journalFile("2026-03-10"))
    #expect(!written.unicodeScalars.contains(where: { $0.properties.isBidiControl }))
    // A file from before (or the user's own notes) with the raw characters: shown neutralised.
    let path = sandbox.journalDirectory + "/2026-03-10.md"
    try (written + "\nMy note on \u{202E}txt.exe\n").write(toFile: path, atomically: true, encoding: .utf8)
    let shown = await sandbox.run("show", "2026-03-10")
    #expect(shown.standardOutput.hasSuffix("My note on \u{FFFD}txt.exe\n"), "\(shown.standardOutput)")
  }
}
