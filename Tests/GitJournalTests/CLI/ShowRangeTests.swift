import Foundation
import Testing

@testable import Facts

/// `gitjournal show --week` and `show --since/--until`: a range says exactly what its days say, and weeks start
/// and end where the journal's days do.
@Suite struct ShowRangeTests {
  let sandbox: JournalSandbox
  let app: TemporaryRepository
  let site: TemporaryRepository

  init() throws {
    sandbox = try JournalSandbox()
    app = try sandbox.makeRegisteredRepository("app")
    site = try sandbox.makeRegisteredRepository("site")
  }

  private func rangeReport(_ arguments: String...) async throws -> RangeReport {
    let result = await sandbox.run(["show"] + arguments + ["--json"])
    guard result.status == 0 else { throw ScratchError("show \(arguments) --json failed: \(result)") }
    return try JSONDecoder().decode(RangeReport.self, from: Data(result.standardOutput.utf8))
  }

  /// Random history over four weeks in two repositories, at any time of day.
  private func generateHistory(seed: UInt64) throws {
    var generator = SeededGenerator(seed: seed)
    let start = Int64(1_772_323_200)  // 2026-03-01T00:00:00Z
    for (index, repository) in [app, site].enumerated() {
      var script = FastImportScript()
      var times = (0..<50).map { _ in start + Int64.random(in: 0..<(28 * 86_400), using: &generator) }
      times.sort()
      for (number, time) in times.enumerated() {
        let lines = Int.random(in: 1...9, using: &generator)
        script.commit(
          branch: "main", email: TemporaryRepository.email, authorTime: time, committerTime: time, zone: "+0000",
          message: "Change \(index)-\(number)\n",
          changes: [.write(path: "f\(number % 5).txt", content: String(repeating: "line \(number)\n", count: lines))])
      }
      try repository.importHistory(script)
    }
  }

  @Test func rangeAndWeekFactsAreTheSumsOfTheirDays() async throws {
    try generateHistory(seed: 16)
    let range = try await rangeReport("--since", "2026-03-01", "--until", "2026-03-28")
    #expect(range.since == "2026-03-01" && range.until == "2026-03-28" && range.week == nil)
    #expect(range.days.map(\.date) == (0..<28).map { Day(year: 2026, month: 3, day: 1).adding(days: $0).description })
    var commits = 0
    var insertions = 0
    var deletions = 0
    var files = 0
    var perProject: [String: (commits: Int, days: Int, insertions: Int)] = [:]
    for day in range.days {
      // Day by day, exactly what `show <day> --json` says.
      let alone = try await sandbox.report(day.date)
      #expect(day == alone, "\(day.date)")
      commits += day.commitCount
      insertions += day.insertions
      deletions += day.deletions
      files += day.filesChanged
      for project in day.projects {
        let old = perProject[project.name] ?? (0, 0, 0)
        perProject[project.name] = (
          old.commits + project.commitCount, old.days + 1, old.insertions + project.insertions
        )
      }
    }
    #expect(commits == 100)
    #expect(range.commitCount == commits)
    #expect(range.insertions == insertions && range.deletions == deletions && range.filesChanged == files)
    #expect(range.activeDays == range.days.filter { $0.commitCount > 0 }.count)
    #expect(range.projects.map(\.name) == ["app", "site"])
    for project in range.projects {
      let expected = try #require(perProject[project.name])
      #expect(project.commitCount == expected.commits)
      #expect(project.activeDays == expected.days)
      #expect(project.insertions == expected.insertions)
    }

    // Each week is the sum of its seven days within the range.
    var weekTotal = 0
    for monday in ["2026-03-02", "2026-03-09", "2026-03-16", "2026-03-23"] {
      let week = try await rangeReport("--week", monday)
      let days = range.days.filter { $0.date >= monday }.prefix(7)
      // The last week ends on the 29th, a day after the range and after the history: that day is empty.
      #expect(Array(week.days.prefix(days.count)) == Array(days))
      #expect(week.days.dropFirst(days.count).allSatisfy { $0.commitCount == 0 })
      #expect(week.days.count == 7)
      #expect(week.commitCount == days.reduce(0) { $0 + $1.commitCount })
      #expect(week.insertions == days.reduce(0) { $0 + $1.insertions })
      weekTotal += week.commitCount
    }
    #expect(weekTotal == commits - range.days[0].commitCount, "the four weeks hold every day but Sunday the 1st")
  }

  @Test func weeksCrossTheYearAsISOWeeks() async throws {
    try app.commit(file: "a", content: "1\n", message: "Last Monday", date: "2026-12-28T10:00:00Z")
    try app.commit(file: "a", content: "2\n", message: "New Year's Eve", date: "2026-12-31T10:00:00Z")
    try app.commit(file: "a", content: "3\n", message: "Sunday after", date: "2027-01-03T22:00:00Z")
    try app.commit(file: "a", content: "4\n", message: "First week", date: "2027-01-04T09:00:00Z")
    let week = try await rangeReport("--week", "2027-01-02")
    #expect(week.week == "2026-W53")
    #expect(week.since == "2026-12-28" && week.until == "2027-01-03")
    #expect(
      week.days.flatMap { $0.projects.flatMap { $0.commits.map(\.subject) } } == [
        "Last Monday", "New Year's Eve", "Sunday after",
      ])
    let next = try await rangeReport("--week", "2027-01-04")
    #expect(next.week == "2027-W01" && next.commitCount == 1)
  }

  @Test func dayStartMovesLateNightsIntoThePreviousWeek() async throws {
    try sandbox.configure("journal.dayStart", "04:00")
    try app.commit(file: "a", content: "1\n", message: "Late Sunday", date: "2026-11-30T02:00:00Z")
    try app.commit(file: "a", content: "2\n", message: "Monday morning", date: "2026-11-30T05:00:00Z")
    let w48 = try await rangeReport("--week", "2026-11-29")
    let w49 = try await rangeReport("--week", "2026-11-30")
    #expect(w48.week == "2026-W48" && w49.week == "2026-W49")
    #expect(w48.days.last?.allCommits.map(\.subject) == ["Late Sunday"])
    #expect(w49.days.flatMap(\.allCommits).map(\.subject) == ["Monday morning"])
  }

  @Test func weeksFollowTheJournalTimeZoneAndItsDaylightSavingChange() async throws {
    try sandbox.configure("journal.timezone", "Europe/Paris")
    // Summer time ends on Sunday 25 October 2026: that week is an hour longer, and its last hour still counts.
    try app.commit(file: "a", content: "1\n", message: "First minute", date: "2026-10-19T00:05:00+02:00")
    try app.commit(file: "a", content: "2\n", message: "Last hour", date: "2026-10-25T23:30:00+01:00")
    try app.commit(file: "a", content: "3\n", message: "Next week", date: "2026-10-26T00:10:00+01:00")
    try app.commit(file: "a", content: "4\n", message: "Week before", date: "2026-10-18T23:55:00+02:00")
    let week = try await rangeReport("--week", "2026-10-21")
    #expect(week.week == "2026-W43")
    #expect(week.days.flatMap(\.allCommits).map(\.subject) == ["First minute", "Last hour"])

    // The same instant is Sunday in UTC and Monday in Auckland: the configured zone decides its week.
    try site.commit(file: "b", content: "1\n", message: "Kia ora", date: "2026-11-29T20:00:00Z")
    try sandbox.configure("journal.timezone", "UTC")
    #expect(try await rangeReport("--week", "2026-11-29").days.flatMap(\.allCommits).map(\.subject) == ["Kia ora"])
    try sandbox.configure("journal.timezone", "Pacific/Auckland")
    #expect(try await rangeReport("--week", "2026-11-29").commitCount == 0)
    let auckland = try await rangeReport("--week", "2026-11-30")
    #expect(auckland.days.first?.allCommits.map(\.subject) == ["Kia ora"])
  }

  @Test func weekStartIsConfigurable() async throws {
    try sandbox.configure("journal.weekStart", "sunday")
    try app.commit(file: "a", content: "1\n", message: "Sunday", date: "2026-11-29T10:00:00Z")
    let week = try await rangeReport("--week", "2026-12-01")
    #expect(week.since == "2026-11-29" && week.until == "2026-12-05" && week.week == "2026-W49")
    #expect(week.commitCount == 1)
    try sandbox.configure("journal.weekStart", "someday")
    let wrong = await sandbox.run("show", "--week")
    #expect(wrong.status == 1)
    #expect(wrong.standardError.contains("journal.weekStart"), "\(wrong)")
  }

  @Test func textGroupsByDayThenProjectWithTotals() async throws {
    try app.commit(file: "a", content: "1\n2\n", message: "Fix sync", date: "2026-03-09T09:00:00Z")
    try site.commit(file: "b", content: "1\n", message: "Tidy footer", date: "2026-03-09T10:00:00Z")
    try app.commit(file: "a", content: "1\n", message: "Add export", date: "2026-03-11T09:00:00Z")
    let result = await sandbox.run("show", "--week", "2026-03-10")
    #expect(result.status == 0, "\(result)")
    let expected = """
      # Week 2026-W11: Monday, 9 March 2026 to Sunday, 15 March 2026

      ## Monday, 9 March 2026

      2 commits across 2 projects, +3 -0

      ### app

      1 fix

      - 09:00 Fix sync (`\(try app.git("rev-parse", "--short=7", "HEAD~1").trimmingCharacters(in: .whitespacesAndNewlines))`, +2 -0)

      ### site

      1 refactor

      - 10:00 Tidy footer (`\(try site.git("rev-parse", "--short=7", "HEAD").trimmingCharacters(in: .whitespacesAndNewlines))`, +1 -0)

      ## Wednesday, 11 March 2026

      1 commit in 1 project, +0 -1

      ### app

      1 feature

      - 09:00 Add export (`\(try app.git("rev-parse", "--short=7", "HEAD").trimmingCharacters(in: .whitespacesAndNewlines))`, +0 -1)

      ## Total

      - app: 2 commits on 2 days, +2 -1 (1 feature, 1 fix)
      - site: 1 commit on 1 day, +1 -0 (1 refactor)

      3 commits across 2 projects on 2 of 7 days, +3 -1

      """
    #expect(result.standardOutput == expected)
    #expect(sandbox.journalFolderNames().isEmpty, "show writes nothing")
  }

  @Test func rangeArgumentsAreChecked() async throws {
    let cases: [([String], String)] = [
      (["show", "--until", "2026-03-01"], "--until needs --since"),
      (["show", "--since", "2026-03-05", "--until", "2026-03-01"], "is after --until"),
      (["show", "--since", "2026-03-01", "--week"], "--since takes no day"),
      (["show", "--since", "2000-01-01"], "longer than"),
      (["show", "--week", "someday"], "is not a day"),
    ]
    for (arguments, message) in cases {
      let result = await sandbox.run(arguments)
      #expect(result.status == 64, "\(arguments): \(result)")
      #expect(result.standardError.contains(message), "\(arguments): \(result)")
    }
  }
}
