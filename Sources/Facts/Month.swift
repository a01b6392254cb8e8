/// A calendar month of journal days, named `2026-12` as its page is.
public struct Month: Hashable, Comparable, Sendable, CustomStringConvertible {
  public let year: Int
  public let month: Int

  public init(containing day: Day) {
    year = day.year
    month = day.month
  }

  public var first: Day { Day(year: year, month: month, day: 1) }
  public var last: Day { first.adding(days: first.daysInMonth - 1) }
  public var days: [Day] { first.through(last) }
  public var previous: Month { Month(containing: first.adding(days: -1)) }
  public var next: Month { Month(containing: last.adding(days: 1)) }

  /// The weeks holding at least one of its days, oldest first.
  public func weeks(starting weekStart: Weekday) -> [Week] {
    var weeks: [Week] = []
    var week = Week(containing: first, starting: weekStart)
    while week.start <= last {
      weeks.append(week)
      week = week.next
    }
    return weeks
  }

  /// `December`.
  public var name: String {
    [
      "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
      "December",
    ][month - 1]
  }

  /// `2026-12`.
  public var description: String { String(first.description.prefix(7)) }

  public static func < (lhs: Month, rhs: Month) -> Bool { (lhs.year, lhs.month) < (rhs.year, rhs.month) }
}
