import Foundation
import GitReader
import Support

/// Where one journal day ends and the next begins: in the configured time zone, at `dayStart` minutes after
/// local midnight. A commit belongs to the day of its author time.
public struct JournalCalendar: Sendable {
  public let timeZone: TimeZone
  /// Minutes after local midnight at which a journal day starts (0 = midnight).
  public let dayStartMinutes: Int
  private let calendar: Calendar

  public init(timeZone: TimeZone, dayStartMinutes: Int = 0) {
    self.timeZone = timeZone
    self.dayStartMinutes = dayStartMinutes
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    self.calendar = calendar
  }

  /// The journal day an instant (seconds since 1970) belongs to: the one whose `window` holds it. Comparing with
  /// the day's start rather than the wall clock keeps the two in agreement when the start falls in a
  /// daylight-saving gap or repeated hour, so no instant belongs to no window.
  public func day(containing seconds: Int64) -> Day {
    let date = Date(timeIntervalSince1970: TimeInterval(seconds))
    let parts = calendar.dateComponents([.year, .month, .day], from: date)
    let day = Day(year: parts.year!, month: parts.month!, day: parts.day!)
    return seconds < start(of: day) ? day.adding(days: -1) : day
  }

  /// The journal day that contains `date` (a command's "today").
  public func day(containing date: Date) -> Day {
    day(containing: Int64(date.timeIntervalSince1970.rounded(.down)))
  }

  /// The instants of `day`: from its start up to, not including, the next day's start.
  public func window(of day: Day) -> (start: Int64, end: Int64) {
    (start: start(of: day), end: start(of: day.adding(days: 1)))
  }

  /// The window covering every day from `first` through `last`.
  public func window(from first: Day, through last: Day) -> (start: Int64, end: Int64) {
    (start: start(of: first), end: start(of: last.adding(days: 1)))
  }

  private func start(of day: Day) -> Int64 {
    let parts = DateComponents(
      year: day.year, month: day.month, day: day.day, hour: dayStartMinutes / 60, minute: dayStartMinutes % 60)
    // A start inside a daylight-saving gap moves to the first instant that exists.
    let date = calendar.date(from: parts) ?? Date(timeIntervalSince1970: 0)
    return Int64(date.timeIntervalSince1970.rounded(.down))
  }

  /// Local wall-clock time `HH:MM` of an instant.
  /// The zone's offset at that instant added to the time: what the calendar would say, without its
  /// `dateComponents`, which cost a second rebuild 3% of its instructions (once per commit).
  public func clockTime(_ seconds: Int64) -> String {
    let offset = Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds))))
    let minutes = ((seconds + offset) % 86_400 + 86_400) % 86_400 / 60
    return Self.twoDigits(Int(minutes / 60)) + ":" + Self.twoDigits(Int(minutes % 60))
  }

  /// ISO 8601 with the zone's offset at that instant, e.g. `2026-11-30T17:40:00+01:00`.
  public func isoTimestamp(_ seconds: Int64) -> String {
    let date = Date(timeIntervalSince1970: TimeInterval(seconds))
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    let offset = timeZone.secondsFromGMT(for: date)
    let sign = offset < 0 ? "-" : "+"
    let magnitude = abs(offset)
    let day = Day(year: parts.year!, month: parts.month!, day: parts.day!).description
    let time = [parts.hour!, parts.minute!, parts.second!].map(Self.twoDigits).joined(separator: ":")
    return day + "T" + time + sign + Self.twoDigits(magnitude / 3600) + ":" + Self.twoDigits((magnitude % 3600) / 60)
  }

  /// `7` as `07`. (`String(format:)` goes through Foundation's formatter, too slow for every commit of a hook.)
  static func twoDigits(_ value: Int) -> String {
    value < 10 ? "0" + String(value) : String(value)
  }

  /// A heading for the day, e.g. `Monday, 30 November 2026`, the same in every locale.
  public func title(of day: Day) -> String {
    let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    let months = [
      "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
      "November", "December",
    ]
    // 1970-01-04 was a Sunday.
    let weekday = ((Day(year: 1970, month: 1, day: 4).distance(to: day) % 7) + 7) % 7
    return "\(weekdays[weekday]), \(day.day) \(months[day.month - 1]) \(day.year)"
  }
}
