import Foundation
import Testing

@testable import Facts
@testable import GitReader
@testable import Support

/// Day arithmetic and parsing, checked against Foundation's Gregorian calendar.
@Suite struct DayTests {
  @Test func parsesOnlyRealDays() {
    for valid in ["2026-03-10", "2024-02-29", "2000-02-29", "1999-12-31", "0001-01-01", "9999-12-31"] {
      #expect(Day(iso: valid)?.description == valid, "\(valid)")
    }
    for invalid in [
      "2026-02-29", "1900-02-29", "2026-04-31", "2026-13-01", "2026-00-10", "2026-01-00", "2026-1-10", "26-01-10",
      "2026/01/10", "２０２６-01-10", " 2026-01-10", "2026-01-10 ", "", "today",
    ] {
      #expect(Day(iso: invalid) == nil, "\(invalid)")
    }
  }

  @Test func arithmeticAgreesWithFoundation() throws {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
    var random = SeededGenerator(seed: 7)
    let origin = Day(year: 1970, month: 1, day: 1)
    let journal = JournalCalendar(timeZone: .utc)
    for _ in 0..<400 {
      let offset = Int.random(in: -40_000...40_000, using: &random)
      let day = origin.adding(days: offset)
      let date = Date(timeIntervalSince1970: TimeInterval(offset) * 86_400)
      let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: date)
      #expect([day.year, day.month, day.day] == [parts.year, parts.month, parts.day])
      #expect(origin.distance(to: day) == offset)
      #expect(day.adding(days: -offset) == origin)
      #expect(Day(iso: day.description) == day)
      let weekday = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"][parts.weekday! - 1]
      #expect(journal.title(of: day).hasPrefix(weekday + ", "), "\(day)")
      #expect(journal.day(containing: Int64(offset) * 86_400 + 43_200) == day)
    }
  }

  @Test func codableAsText() throws {
    let day = Day(year: 2026, month: 3, day: 10)
    let data = try JSONEncoder().encode([day])
    #expect(String(decoding: data, as: UTF8.self) == "[\"2026-03-10\"]")
    #expect(try JSONDecoder().decode([Day].self, from: data) == [day])
    #expect(throws: DecodingError.self) { try JSONDecoder().decode([Day].self, from: Data("[\"2026-02-30\"]".utf8)) }
  }

  @Test func windowsTileTheTimeline() throws {
    // Consecutive days share their boundary, in zones with and without daylight saving and with a day start.
    for (zone, start) in [("UTC", 0), ("Europe/Paris", 150), ("America/Santiago", 0), ("Australia/Lord_Howe", 90)] {
      let calendar = JournalCalendar(timeZone: try #require(TimeZoneRules(identifier: zone)), dayStartMinutes: start)
      var day = Day(year: 2026, month: 1, day: 1)
      for _ in 0..<366 {
        let window = calendar.window(of: day)
        #expect(window.end == calendar.window(of: day.adding(days: 1)).start, "\(zone) \(day)")
        #expect((22 * 3600...26 * 3600).contains(window.end - window.start), "\(zone) \(day)")
        #expect(calendar.day(containing: window.start) == day, "\(zone) \(day)")
        #expect(calendar.day(containing: window.end - 1) == day, "\(zone) \(day)")
        day = day.adding(days: 1)
      }
    }
  }

  @Test func dayNamesAreZeroPadded() {
    #expect(Day(year: 2026, month: 3, day: 1).description == "2026-03-01")
    #expect(Day(year: 987, month: 12, day: 31).description == "0987-12-31")
    #expect(Day(year: 12026, month: 3, day: 1).description == "12026-03-01")
  }
}

/// Sorting instants into days by the precomputed windows gives the calendar's day, across daylight-saving changes,
/// a day start after midnight, and instants outside the run.
@Suite struct DayWindowsTests {
  @Test(arguments: [("Europe/Berlin", 0), ("America/New_York", 240), ("Australia/Lord_Howe", 90), ("UTC", 0)])
  func windowsAgreeWithTheCalendar(zone: String, dayStart: Int) throws {
    let calendar = JournalCalendar(timeZone: try #require(TimeZoneRules(identifier: zone)), dayStartMinutes: dayStart)
    let first = Day(year: 2026, month: 3, day: 1)
    let last = Day(year: 2026, month: 11, day: 30)
    let windows = DayWindows(calendar: calendar, first: first, last: last)
    var random = SeededGenerator(seed: 18)
    let span = calendar.window(from: first.adding(days: -3), through: last.adding(days: 3))
    for _ in 0..<5_000 {
      let instant = Int64.random(in: span.start..<span.end, using: &random)
      #expect(windows.day(containing: instant) == calendar.day(containing: instant), "\(zone) \(instant)")
    }
    for day in first.through(last) {
      let window = calendar.window(of: day)
      #expect(windows.day(containing: window.start) == day)
      #expect(windows.day(containing: window.end - 1) == day)
    }
  }

  /// Records cut into days by the windows: each day's records are those the calendar puts in it, in the order of
  /// their author times then ids, with instants outside the run and several commits at one instant.
  @Test func recordsAreCutIntoTheCalendarsDays() throws {
    let calendar = JournalCalendar(
      timeZone: try #require(TimeZoneRules(identifier: "America/New_York")), dayStartMinutes: 240)
    let first = Day(year: 2026, month: 3, day: 1)
    let last = Day(year: 2026, month: 4, day: 30)
    let windows = DayWindows(calendar: calendar, first: first, last: last)
    var random = SeededGenerator(seed: 19)
    let span = calendar.window(from: first.adding(days: -5), through: last.adding(days: 5))
    var instants = (0..<1_500).map { _ in Int64.random(in: span.start..<span.end, using: &random) }
    instants += instants.prefix(200)
    let records = instants.map { instant in
      let hex = (0..<40).map { _ in String(Int.random(in: 0..<16, using: &random), radix: 16) }.joined()
      return CommitRecord(
        id: ObjectID(hex: hex)!, authorName: "A", authorEmail: "a@example.com", authoredAt: instant,
        authorOffsetMinutes: 0, subject: "Change", isMerge: false, stats: .zero)
    }.shuffled(using: &random)
    let cut = windows.days(of: records)
    let expected = Dictionary(grouping: records) { calendar.day(containing: $0.authoredAt) }
    #expect(cut.map(\.day) == expected.keys.sorted())
    for (day, dayRecords) in cut {
      // By time, those of one second in the order given.
      let sorted = try #require(expected[day]).enumerated().sorted {
        ($0.element.authoredAt, $0.offset) < ($1.element.authoredAt, $1.offset)
      }.map(\.element)
      #expect(dayRecords.map(\.id) == sorted.map(\.id), "\(day)")
    }
    #expect(cut.contains { $0.day < first } && cut.contains { $0.day > last })
  }
}
