/// Seven journal days from a first day, named as an ISO 8601 week (`2026-W49`, as Obsidian's weekly notes name
/// them). With Monday first (the default) it is exactly the ISO week. A week that starts on another weekday is
/// named after the ISO week that holds most of its days, which is the ISO week of its fourth day: consecutive
/// weeks still get consecutive names, and every day belongs to exactly one week.
public struct Week: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The first day.
  public let start: Day

  /// The week of `starting` days that contains `day`.
  public init(containing day: Day, starting first: Weekday = .monday) {
    let offset = ((day.weekday.rawValue - first.rawValue) % 7 + 7) % 7
    start = day.adding(days: -offset)
  }

  public var last: Day { start.adding(days: 6) }
  public var days: [Day] { start.through(last) }
  public var previous: Week { Week(start: start.adding(days: -7)) }
  public var next: Week { Week(start: start.adding(days: 7)) }

  private init(start: Day) { self.start = start }

  /// The ISO week-numbering year and week number of the name.
  public var isoYearAndNumber: (year: Int, number: Int) { Self.isoWeek(of: start.adding(days: 3)) }

  /// `2026-W49`.
  public var description: String {
    let (year, number) = isoYearAndNumber
    guard (0...9999).contains(year), (0...99).contains(number) else {
      let yearText = String(year)
      return String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText + "-W"
        + (number < 10 ? "0" : "") + String(number)
    }
    // Made from ASCII digits directly, as `Day.description`: a rebuild names a week for each of its days' links.
    return String(unsafeUninitializedCapacity: 8) { buffer in
      Day.writeDigits(year, count: 4, into: buffer, at: 0)
      buffer[4] = UInt8(ascii: "-")
      buffer[5] = UInt8(ascii: "W")
      Day.writeDigits(number, count: 2, into: buffer, at: 6)
      return 8
    }
  }

  public static func < (lhs: Week, rhs: Week) -> Bool { lhs.start < rhs.start }

  /// ISO 8601: a week belongs to the year of its Thursday, and week 1 holds the year's first Thursday.
  static func isoWeek(of day: Day) -> (year: Int, number: Int) {
    let thursday = day.adding(days: Weekday.thursday.rawValue - day.weekday.rawValue)
    let ordinal = Day(year: thursday.year, month: 1, day: 1).distance(to: thursday)
    return (thursday.year, ordinal / 7 + 1)
  }
}
