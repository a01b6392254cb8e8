import GitReader
import Support

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Where one journal day ends and the next begins: in the configured time zone, at `dayStart` minutes after
/// local midnight. A commit belongs to the day of its author time.
public struct JournalCalendar: Sendable {
  public let timeZone: TimeZoneRules
  /// Minutes after local midnight at which a journal day starts (0 = midnight).
  public let dayStartMinutes: Int

  public init(timeZone: TimeZoneRules, dayStartMinutes: Int = 0) {
    self.timeZone = timeZone
    self.dayStartMinutes = dayStartMinutes
  }

  /// The journal day an instant (seconds since 1970) belongs to: the one whose `window` holds it. Comparing with
  /// the day's start rather than the wall clock keeps the two in agreement when the start falls in a
  /// daylight-saving gap or repeated hour, so no instant belongs to no window.
  public func day(containing seconds: Int64) -> Day {
    let seconds = Self.bounded(seconds)
    var day = Self.epoch.adding(days: Int(Self.floorDivision(wallClock(seconds), 86_400)))
    // The wall clock's date is the day, or a day before it when the day starts later than midnight. Near a change
    // of offset it can be further off: Samoa went from 29 to 31 December 2011, so an instant early on the 31st
    // belongs to the 29th (the 30th has an empty window), and a day can start in an hour that is then repeated.
    // The windows are contiguous, so a few steps find the one that holds the instant.
    var steps = 0
    while steps < 4, seconds < start(of: day) {
      day = day.adding(days: -1)
      steps += 1
    }
    while steps < 8, seconds >= start(of: day.adding(days: 1)) {
      day = day.adding(days: 1)
      steps += 1
    }
    return day
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

  /// The day's start: the instant whose wall clock reads the day at `dayStartMinutes` (near a change of offset, as
  /// `TimeZoneRules.instant(atWallClock:)` finds it). Away from a change the wall clock less the offset is that
  /// instant, checked a day either side.
  private func start(of day: Day) -> Int64 {
    let wall = Int64(Self.epoch.distance(to: day)) * 86_400 + Int64(dayStartMinutes) * 60
    let wallOffset = offset(at: wall)
    let start = wall - wallOffset
    if offset(at: start - 86_400) == wallOffset, offset(at: start) == wallOffset,
      offset(at: start + 86_400) == wallOffset
    {
      return start
    }
    return timeZone.instant(atWallClock: wall)
  }

  private static let epoch = Day(year: 1970, month: 1, day: 1)

  /// The zone's offset from UTC at an instant, in seconds.
  private func offset(at seconds: Int64) -> Int64 { Int64(timeZone.offset(at: seconds)) }

  /// What the zone's wall clock reads at an instant, as seconds since 1970-01-01 00:00 of that clock.
  private func wallClock(_ seconds: Int64) -> Int64 { seconds + offset(at: seconds) }

  /// Two days inside the years 1 to 9999, which a day's `YYYY-MM-DD` can name in any zone: 0001-01-03 and
  /// 9999-12-29 (UTC).
  static let earliest: Int64 = -62_135_596_800 + 2 * 86_400
  static let latest: Int64 = 253_402_300_799 - 2 * 86_400

  /// `seconds` within `earliest...latest`. An author time is whatever a commit's header says, and one from beyond
  /// them (git stores any 64-bit number) would overflow the arithmetic here or name a day of five digits; such an
  /// instant is taken for the nearest of the two.
  static func bounded(_ seconds: Int64) -> Int64 { min(max(seconds, earliest), latest) }

  private static func floorDivision(_ value: Int64, _ divisor: Int64) -> Int64 {
    value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
  }

  /// Local wall-clock time `HH:MM` of an instant.
  /// The zone's offset at that instant added to the time: what the calendar would say, without its
  /// `dateComponents`, once per commit, a visible part of a second rebuild (`bench/instructions.sh`).
  public func clockTime(_ seconds: Int64) -> String {
    let seconds = Self.bounded(seconds)
    let minutes = (wallClock(seconds) % 86_400 + 86_400) % 86_400 / 60
    return Self.twoDigits(Int(minutes / 60)) + ":" + Self.twoDigits(Int(minutes % 60))
  }

  /// ISO 8601 with the zone's offset at that instant, e.g. `2026-11-30T17:40:00+01:00`.
  public func isoTimestamp(_ seconds: Int64) -> String {
    let seconds = Self.bounded(seconds)
    let offset = Int(self.offset(at: seconds))
    let wall = seconds + Int64(offset)
    let sign = offset < 0 ? "-" : "+"
    let magnitude = abs(offset)
    let day = Self.epoch.adding(days: Int(Self.floorDivision(wall, 86_400))).description
    let secondOfDay = Int(wall - Self.floorDivision(wall, 86_400) * 86_400)
    let time = [secondOfDay / 3600, secondOfDay % 3600 / 60, secondOfDay % 60].map(Self.twoDigits).joined(
      separator: ":")
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
