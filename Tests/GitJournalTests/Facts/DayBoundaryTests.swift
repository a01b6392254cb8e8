import Foundation
import Testing

@testable import Facts
@testable import GitReader

/// Which day a commit belongs to: its author time, in the journal's time zone, from the configured day start.
@Suite struct DayBoundaryTests {
  @Test func authorDateDecidesTheDayNotCommitterDate() async throws {
    let sandbox = try JournalSandbox()
    let repository = try sandbox.makeRepository("app")
    try sandbox.register(repository)
    // Rebased on the 8th, written on the 5th.
    let rebased = try repository.commit(
      file: "a.txt", content: "a\n", message: "Written on the fifth", date: "2026-03-05T10:00:00Z",
      committerDate: "2026-03-08T10:00:00Z")
    let plain = try repository.commit(
      file: "b.txt", content: "b\n", message: "Written on the eighth", date: "2026-03-08T11:00:00Z")

    let logged = try repository.log()
    let expectedFifth = logged.filter { $0.authorDay == "2026-03-05" }.map(\.id)
    let expectedEighth = logged.filter { $0.authorDay == "2026-03-08" }.map(\.id)
    #expect(expectedFifth == [rebased])
    #expect(expectedEighth == [plain])

    #expect(try await sandbox.report("2026-03-05").allCommits.map(\.id.hex) == expectedFifth)
    #expect(try await sandbox.report("2026-03-08").allCommits.map(\.id.hex) == expectedEighth)
  }

  @Test func timeZoneComesFromConfigThenTZ() async throws {
    // 23:30 in Los Angeles on the 10th is 07:30 UTC and 16:30 in Tokyo on the 11th.
    let instant = "2026-02-10T23:30:00-08:00"
    let cases: [(tz: String, configured: String?, zoneOfExpectation: String)] = [
      ("UTC", nil, "UTC"),
      ("Asia/Tokyo", nil, "Asia/Tokyo"),
      ("America/Los_Angeles", nil, "America/Los_Angeles"),
      ("Asia/Tokyo", "America/Los_Angeles", "America/Los_Angeles"),
      ("America/Los_Angeles", "Asia/Tokyo", "Asia/Tokyo"),
    ]
    var daysSeen: Set<String> = []
    for (tz, configured, zone) in cases {
      let sandbox = try JournalSandbox(timeZone: tz)
      if let configured { try sandbox.configure("journal.timezone", configured) }
      let repository = try sandbox.makeRepository("app")
      try sandbox.register(repository)
      let id = try repository.commit(file: "a.txt", content: "a\n", message: "Late", date: instant)
      let expectedDay = try #require(repository.log(timeZone: zone).first).authorDay
      daysSeen.insert(expectedDay)

      let report = try await sandbox.report(expectedDay)
      #expect(report.allCommits.map(\.id.hex) == [id], "TZ=\(tz) journal.timezone=\(configured ?? "-")")
      let other = expectedDay == "2026-02-10" ? "2026-02-11" : "2026-02-10"
      #expect(try await sandbox.report(other).commitCount == 0, "TZ=\(tz) journal.timezone=\(configured ?? "-")")
    }
    // The cases really put the commit on different days.
    #expect(daysSeen == ["2026-02-10", "2026-02-11"])
  }

  @Test func dayStartMovesEarlyMorningCommitsToThePreviousDay() async throws {
    let sandbox = try JournalSandbox()
    let repository = try sandbox.makeRepository("app")
    try sandbox.register(repository)
    let evening = try repository.commit(file: "a", content: "1\n", message: "Evening", date: "2026-03-09T22:00:00Z")
    let night = try repository.commit(file: "a", content: "2\n", message: "Night", date: "2026-03-10T02:30:00Z")
    let almost = try repository.commit(file: "a", content: "3\n", message: "Almost", date: "2026-03-10T03:59:00Z")
    let morning = try repository.commit(file: "a", content: "4\n", message: "Morning", date: "2026-03-10T04:00:00Z")

    // Calendar days first, as git sees them.
    #expect(try await sandbox.report("2026-03-09").allCommits.map(\.id.hex) == [evening])
    #expect(try await sandbox.report("2026-03-10").allCommits.map(\.id.hex) == [night, almost, morning])

    try sandbox.configure("journal.dayStart", "04:00")
    #expect(try await sandbox.report("2026-03-09").allCommits.map(\.id.hex) == [evening, night, almost])
    #expect(try await sandbox.report("2026-03-10").allCommits.map(\.id.hex) == [morning])
  }

  /// Every commit around a daylight-saving change lands on exactly one day, whatever the day start.
  @Test(arguments: [
    (day: "2026-03-29", transition: Int64(1_774_746_000)),  // 02:00 CET -> 03:00 CEST
    (day: "2026-10-25", transition: Int64(1_792_890_000)),  // 03:00 CEST -> 02:00 CET
  ])
  func daylightSavingDaysLoseNoCommits(day: String, transition: Int64) async throws {
    let sandbox = try JournalSandbox(timeZone: "Europe/Paris")
    let repository = try sandbox.makeRepository("app")
    try sandbox.register(repository)
    let middle = try #require(Day(iso: day))
    let days = [middle.adding(days: -1), middle, middle.adding(days: 1)]

    // Sparse commits over the three days and a margin, dense ones around the change.
    var instants = Set<Int64>()
    var instant = transition - 52 * 3600
    while instant < transition + 60 * 3600 {
      instants.insert(instant)
      instant += 90 * 60
    }
    for step in -18...18 { instants.insert(transition + Int64(step) * 600) }
    for (index, time) in instants.sorted().enumerated() {
      try repository.emptyCommit(message: "Commit \(index)", date: "\(time) +0000")
    }
    let logged = try repository.log(timeZone: "Europe/Paris")
    let clock = try repository.git(
      "log", "--branches", "--date=format-local:%Y-%m-%d %H:%M", "--format=%H %ad", environment: ["TZ": "Europe/Paris"])
    let localTime = Dictionary(
      uniqueKeysWithValues: clock.split(separator: "\n").map { line in
        let parts = line.split(separator: " ")
        return (
          String(parts[0]), (day: String(parts[1]), minutes: Int(parts[2].prefix(2))! * 60 + Int(parts[2].suffix(2))!)
        )
      })

    for (dayStart, minutes) in [("00:00", 0), ("02:30", 150), ("04:00", 240)] {
      try sandbox.configure("journal.dayStart", dayStart)
      var reported: [String: String] = [:]
      for day in days {
        for commit in try await sandbox.report(day.description).allCommits {
          #expect(
            reported.updateValue(day.description, forKey: commit.id.hex) == nil, "\(commit.id) twice at \(dayStart)")
        }
      }
      // Expected by the wall clock: the local day, or the one before when earlier than the day start.
      var expected: [String: String] = [:]
      for commit in logged {
        let local = try #require(localTime[commit.id])
        let calendarDay = try #require(Day(iso: local.day))
        let journalDay = local.minutes < minutes ? calendarDay.adding(days: -1) : calendarDay
        guard days.contains(journalDay) else { continue }
        // On the change day itself a day start inside the skipped or repeated hour is ambiguous: only
        // check that such commits land somewhere.
        if calendarDay != middle || abs(local.minutes - minutes) >= 60 || minutes == 0 {
          expected[commit.id] = journalDay.description
        } else {
          expected[commit.id] = reported[commit.id] ?? "lost"
        }
      }
      // The first and last day start on ordinary days, so the three days cover exactly the expected commits.
      func describe(_ ids: some Sequence<String>) -> String {
        ids.compactMap { id in
          localTime[id].map { "\($0.day) " + String(format: "%02d:%02d", $0.minutes / 60, $0.minutes % 60) }
        }.sorted()
          .joined(separator: ", ")
      }
      let lost = Set(expected.keys).subtracting(reported.keys)
      let extra = Set(reported.keys).subtracting(expected.keys)
      #expect(lost.isEmpty, "dayStart \(dayStart) lost commits made at \(describe(lost))")
      #expect(extra.isEmpty, "dayStart \(dayStart) reported commits made at \(describe(extra))")
      let misplaced = expected.keys.filter { reported[$0] != nil && reported[$0] != expected[$0] }
      #expect(misplaced.isEmpty, "dayStart \(dayStart) put on the wrong day the commits made at \(describe(misplaced))")
      #expect(reported.values.contains(day))
    }
  }
}
