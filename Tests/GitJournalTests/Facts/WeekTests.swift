import Foundation
import Testing

@testable import Facts
@testable import GitReader

/// Weeks: ISO 8601 names across year changes, other first weekdays, and ranges that are sums of their days.
@Suite struct WeekTests {
  private func day(_ text: String) throws -> Day { try #require(Day(iso: text)) }

  @Test func weekdaysFollowTheCalendar() throws {
    #expect(try day("2026-11-30").weekday == .monday)
    #expect(try day("2026-12-31").weekday == .thursday)
    #expect(try day("2027-01-03").weekday == .sunday)
    #expect(try day("2000-02-29").weekday == .tuesday)
    #expect(try day("1970-01-01").weekday == .thursday)
  }

  @Test(arguments: [
    ("2026-11-30", "2026-W49", "2026-11-30"), ("2026-12-06", "2026-W49", "2026-11-30"),
    // 2026 has 53 ISO weeks: its 31 December is a Thursday.
    ("2026-12-31", "2026-W53", "2026-12-28"), ("2027-01-03", "2026-W53", "2026-12-28"),
    ("2027-01-04", "2027-W01", "2027-01-04"),
    // 2024-12-30 is a Monday whose week holds 2025's first Thursday.
    ("2024-12-30", "2025-W01", "2024-12-30"), ("2025-01-01", "2025-W01", "2024-12-30"),
    ("2021-01-03", "2020-W53", "2020-12-28"), ("2023-01-01", "2022-W52", "2022-12-26"),
  ])
  func isoWeeksAcrossYearChanges(date: String, name: String, start: String) throws {
    let week = Week(containing: try day(date))
    #expect(week.description == name)
    let first = try day(start)
    #expect(week.start == first)
    #expect(week.days.count == 7)
    #expect(week.days.contains(try day(date)))
  }

  @Test func w53IsFollowedByW01AndPrecededByW52() throws {
    let w53 = Week(containing: try day("2026-12-31"))
    #expect(w53.previous.description == "2026-W52")
    #expect(w53.next.description == "2027-W01")
    #expect(w53.next.previous == w53)
  }

  @Test func otherFirstWeekdaysGiveConsecutiveNamesAndCoverEveryDayOnce() throws {
    for first in Weekday.allCases {
      var names: [String] = []
      var seen: Set<Day> = []
      var week = Week(containing: try day("2026-12-01"), starting: first)
      #expect(week.start.weekday == first)
      for _ in 0..<10 {
        names.append(week.description)
        for member in week.days {
          #expect(seen.insert(member).inserted, "\(member) in two weeks")
          #expect(Week(containing: member, starting: first) == week)
        }
        week = week.next
      }
      #expect(Set(names).count == names.count, "\(first): \(names)")
    }
    // A Sunday-first week is named after the ISO week of most of its days.
    let sundayFirst = Week(containing: try day("2026-11-29"), starting: .sunday)
    let sunday = try day("2026-11-29")
    #expect(sundayFirst.start == sunday)
    #expect(sundayFirst.description == "2026-W49")
  }

  @Test func weekdayNamesParse() {
    #expect(Weekday(name: "Sunday") == .sunday)
    #expect(Weekday(name: "mon") == .monday)
    #expect(Weekday(name: "SATURDAY") == .saturday)
    #expect(Weekday(name: "tues") == nil)
    #expect(Weekday(name: "") == nil)
    #expect(Weekday(name: "mo") == nil)
  }

  @Test func rangeTotalsAreSumsOfTheirDays() throws {
    let first = try day("2026-03-09")
    let days = [
      JournalFixtures.facts(subjects: ["a", "b"], project: "app", day: first),
      JournalFixtures.facts(subjects: ["c"], project: "site", day: first.adding(days: 2)),
      JournalFixtures.facts(subjects: ["d", "e", "f"], project: "app", day: first.adding(days: 3)),
      // Outside the range: left out.
      JournalFixtures.facts(subjects: ["g"], project: "app", day: first.adding(days: 9)),
    ]
    let range = RangeFacts(first: first, last: first.adding(days: 6), days: days)
    #expect(range.days.map(\.day) == first.through(first.adding(days: 6)))
    #expect(range.commitCount == 6)
    #expect(range.projectCount == 2)
    #expect(range.activeDays == [first, first.adding(days: 2), first.adding(days: 3)])
    #expect(range.busiestDay?.day == first.adding(days: 3))
    #expect(range.stats == days.prefix(3).reduce(DiffStats.zero) { $0 + $1.stats })
    #expect(range.projects.map(\.name) == ["app", "site"])
    #expect(range.projects.first?.commitCount == 5)
    #expect(range.projects.first?.activeDays == [first, first.adding(days: 3)])
    #expect(range.summaryLine.hasPrefix("6 commits across 2 projects on 3 of 7 days, +"))
  }
}
