import Foundation
import Testing

@testable import Facts

/// `JournalCalendar` does the calendar's arithmetic with the zone's offsets, leaving only the days near a change
/// of offset to Foundation's `Calendar`: every day's window, every instant's day, clock time and timestamp must
/// be what `Calendar` gives, in zones with daylight saving at 02:00 and at midnight, half-hour and 45-minute
/// offsets, a zone that skipped a whole day, and for day starts from midnight to a minute before the next.
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

  @Test(arguments: zones) func windowsAndDaysAreTheCalendars(zoneName: String) throws {
    let zone = try #require(TimeZone(identifier: zoneName))
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    var random = SeededGenerator(seed: UInt64(truncatingIfNeeded: zoneName.hashValue & 0xffff) | 1)
    for dayStart in [0, 30, 120, 150, 1_439] {
      let journal = JournalCalendar(timeZone: zone, dayStartMinutes: dayStart)
      // Every day from 2010 through 2027: each year's changes of offset, and Apia's missing 30 December 2011.
      for day in Day(year: 2010, month: 1, day: 1).through(Day(year: 2027, month: 12, day: 31)) {
        let window = journal.window(of: day)
        let expected = Self.calendarStart(of: day, in: zone, dayStartMinutes: dayStart)
        #expect(window.start == expected, "\(zoneName) \(dayStart) \(day)")
        if window.start != expected { return }
      }
      for _ in 0..<3_000 {
        let seconds = Int64.random(in: 1_262_304_000...1_830_297_600, using: &random)
        let day = journal.day(containing: seconds)
        let window = journal.window(of: day)
        #expect(window.start <= seconds && seconds < window.end, "\(zoneName) \(dayStart) \(seconds) in \(day)")
        let date = Date(timeIntervalSince1970: TimeInterval(seconds))
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let two = { (value: Int?) in value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "?" }
        #expect(journal.clockTime(seconds) == "\(two(parts.hour)):\(two(parts.minute))", "\(zoneName) \(seconds)")
        let stamp = journal.isoTimestamp(seconds)
        let wall =
          Day(year: parts.year!, month: parts.month!, day: parts.day!).description
          + "T\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))"
        #expect(stamp.hasPrefix(wall), "\(zoneName) \(seconds): \(stamp)")
      }
    }
  }

  /// Before 1970 too: negative instants divide down, not toward zero.
  @Test func instantsBefore1970() throws {
    let journal = JournalCalendar(timeZone: try #require(TimeZone(identifier: "America/New_York")))
    #expect(journal.day(containing: -1) == Day(year: 1969, month: 12, day: 31))
    #expect(journal.isoTimestamp(-1) == "1969-12-31T18:59:59-05:00")
    #expect(journal.clockTime(-86_400 * 365) == "19:00")
    let utc = JournalCalendar(timeZone: try #require(TimeZone(identifier: "UTC")))
    #expect(utc.day(containing: -86_400) == Day(year: 1969, month: 12, day: 31))
    #expect(utc.day(containing: -86_401) == Day(year: 1969, month: 12, day: 30))
    #expect(utc.isoTimestamp(-86_401) == "1969-12-30T23:59:59+00:00")
  }
}
