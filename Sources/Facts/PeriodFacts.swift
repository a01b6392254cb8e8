import GitReader
import Support

/// A week's or a month's facts, as its page shows them: the days' facts of the period and which period it is.
/// What the period's sentence is asked about, and what its cache and its attachment are keyed by.
public struct PeriodFacts: Sendable, Equatable {
  /// Which page: a week (named `2026-W49`) or a month (`2026-12`).
  public enum Period: Sendable, Hashable, Comparable, CustomStringConvertible {
    case week(Week)
    case month(Month)

    /// The page's name, which is also its file's (`2026-W49.md`).
    public var description: String {
      switch self {
      case .week(let week): return week.description
      case .month(let month): return month.description
      }
    }

    public var first: Day {
      switch self {
      case .week(let week): return week.start
      case .month(let month): return month.first
      }
    }

    public var last: Day {
      switch self {
      case .week(let week): return week.last
      case .month(let month): return month.last
      }
    }

    /// `week` or `month`, as a sentence says it.
    public var unit: String {
      if case .week = self { return "week" }
      return "month"
    }

    /// Oldest first; a week before the month that starts on the same day.
    public static func < (lhs: Period, rhs: Period) -> Bool {
      (lhs.first, lhs.isMonth ? 1 : 0) < (rhs.first, rhs.isMonth ? 1 : 0)
    }

    private var isMonth: Bool {
      if case .month = self { return true }
      return false
    }
  }

  public let period: Period
  public let facts: RangeFacts

  /// `days` may miss days of the period (no commits) or hold days outside it, which are left out.
  public init(period: Period, days: [DayFacts]) {
    self.period = period
    facts = RangeFacts(first: period.first, last: period.last, days: days)
  }

  public var name: String { period.description }
  public var isEmpty: Bool { facts.isEmpty }

  /// A stable hex signature of the period's facts: every fact of every day with commits, and the period's name and
  /// days. Equal facts give equal signatures across runs and machines; a commit on any day of the period, or a
  /// change of time zone, changes it. It never equals a day's signature.
  public func signature(calendar: JournalCalendar) -> String {
    var text = "gitjournal-period-facts 1\n\(period.unit) \(name) \(period.first) \(period.last)\n"
    for day in facts.days where !day.isEmpty { text += day.canonicalText(calendar: calendar) }
    return ContentHash.hex(of: text)
  }
}
