import Foundation
import Testing

@testable import Facts
@testable import Support

/// `JournalCalendar` does the calendar's arithmetic with the offsets of the system's zone files: every day's window,
/// every instant's day, clock time and timestamp must be what Foundation's `Calendar` gives with ICU's zones, in
/// zones with daylight saving at 02:00 and at midnight, half-hour and 45-minute offsets, a zone that skipped a whole
/// day, and for day starts from midnight to a minute before the next.
@Suite struct JournalCalendarTests {
  /// `start(of:)` as it was written with `Calendar` alone.
  private static func calendarStart(of day: Day, in zone: TimeZone, dayStartMinutes: Int) -> Int64 {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    let parts = DateComponents(
      year: day.year, month: day.month, day: day.day, hour: dayStartMinutes / 60, minute: dayStartMinutes % 60)
    return Int64((calendar.date(from: parts) ?? Date(timeIntervalSince1970: 0)).timeIntervalSince1970.rounded(.down))
  }

  static let zones = [
    "UTC", "Europe/Paris", "America/New_York", "America/Sao_Paulo", "Australia/Lord_Howe", "Asia/Kathmandu",
    "Pacific/Apia", "America/St_Johns", "Africa/Casablanca", "Pacific/Chatham",
  ]

  /// Every day's start as `Calendar` gives it, and every instant within its day's window, with the clock time and
  /// timestamp `Calendar` gives: every 15 minutes from two days before to two days after each change of offset of
  /// 2010-2027 (Apia's missing day among them), and at 1,000 seeded random instants.
  /// Several seconds of work: on a thread of its own, one zone after the other, so that it does not hold the
  /// cooperative pool's threads that the other tests' awaits resume on.
  @Test func windowsAndDaysAreTheCalendars() async {
    await DedicatedThread.run {
      for zoneName in Self.zones { Self.check(zoneName: zoneName) }
    }
  }

  private static func check(zoneName: String) {
    guard let zone = TimeZone(identifier: zoneName), let rules = TimeZoneRules(identifier: zoneName) else {
      Issue.record("no zone \(zoneName)")
      return
    }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    let offset = { (seconds: Int64) in zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds))) }
    let first: Int64 = 1_262_304_000  // 2010-01-01
    let changes = stride(from: first, to: 1_830_297_600, by: 86_400).filter { offset($0) != offset($0 + 86_400) }
    var random = SeededGenerator(seed: 0x6a63_616c)
    let samples = (0..<1_000).map { _ in Int64.random(in: first...1_830_297_600, using: &random) }
    let candidates = changes.flatMap { stride(from: $0 - 2 * 86_400, to: $0 + 3 * 86_400, by: 900) } + samples
    // The arithmetic is what is checked here, the zone's data is `TimeZoneRulesTests`'s: where Foundation's zones
    // are another tz release than the system's files (Swift 6.0's are ICU's own), the days whose offsets the two
    // releases disagree on are left out. With one release, none is; most never are.
    let disagreeingDays = Set(
      stride(from: first - 4 * 86_400, to: 1_830_297_600 + 4 * 86_400, by: 3_600).filter {
        rules.offset(at: $0) != offset($0)
      }.map { $0 / 86_400 })
    let agrees = { (seconds: Int64) in
      (seconds / 86_400 - 3...seconds / 86_400 + 3).allSatisfy { !disagreeingDays.contains($0) }
    }
    let instants = candidates.filter(agrees)
    #expect(instants.count * 2 > candidates.count, "\(zoneName): the two zone releases disagree on most days")
    for dayStart in [0, 30, 150, 1_439] {
      let journal = JournalCalendar(timeZone: rules, dayStartMinutes: dayStart)
      var daysChecked = Set<Day>()
      for seconds in instants {
        let day = journal.day(containing: seconds)
        let window = journal.window(of: day)
        #expect(window.start <= seconds && seconds < window.end, "\(zoneName) \(dayStart) \(seconds) in \(day)")
        for near in [day.adding(days: -1), day, day.adding(days: 1)] where daysChecked.insert(near).inserted {
          let expected = calendarStart(of: near, in: zone, dayStartMinutes: dayStart)
          #expect(journal.window(of: near).start == expected, "\(zoneName) \(dayStart) \(near)")
        }
        let date = Date(timeIntervalSince1970: TimeInterval(seconds))
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let two = { (value: Int?) in value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "?" }
        #expect(journal.clockTime(seconds) == "\(two(parts.hour)):\(two(parts.minute))", "\(zoneName) \(seconds)")
        let wall =
          Day(year: parts.year!, month: parts.month!, day: parts.day!).description
          + "T\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))"
        #expect(journal.isoTimestamp(seconds).hasPrefix(wall), "\(zoneName) \(seconds)")
      }
    }
  }

  /// Before 1970 too: negative instants divide down, not toward zero.
  @Test func instantsBefore1970() throws {
    let journal = JournalCalendar(timeZone: try #require(TimeZoneRules(identifier: "America/New_York")))
    #expect(journal.day(containing: -1) == Day(year: 1969, month: 12, day: 31))
    #expect(journal.isoTimestamp(-1) == "1969-12-31T18:59:59-05:00")
    #expect(journal.clockTime(-86_400 * 365) == "19:00")
    let utc = JournalCalendar(timeZone: try #require(TimeZoneRules(identifier: "UTC")))
    #expect(utc.day(containing: -86_400) == Day(year: 1969, month: 12, day: 31))
    #expect(utc.day(containing: -86_401) == Day(year: 1969, month: 12, day: 30))
    #expect(utc.isoTimestamp(-86_401) == "1969-12-30T23:59:59+00:00")
  }

  /// An author time from beyond the years 1 to 9999 (a commit's header can say any 64-bit number) is on a day of
  /// year 1 or 9999, in every zone, without trapping.
  @Test func instantsBeyondTheCalendar() throws {
    for zone in ["UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago"] {
      let journal = JournalCalendar(timeZone: try #require(TimeZoneRules(identifier: zone)), dayStartMinutes: 150)
      #expect(journal.day(containing: .max).year == 9999, "\(zone)")
      #expect(journal.day(containing: .min).year == 1, "\(zone)")
      #expect(journal.isoTimestamp(.max).hasPrefix("9999-12-"), "\(zone)")
      #expect(journal.isoTimestamp(.min).hasPrefix("0001-01-"), "\(zone)")
      #expect(!journal.clockTime(.min).isEmpty)
      _ = journal.window(of: journal.day(containing: .max))
    }
  }
}
