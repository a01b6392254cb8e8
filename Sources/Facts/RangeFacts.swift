import GitReader
import Support

/// The facts of consecutive days, from `first` through `last`: every number is a sum of the day facts it holds,
/// so a week, a month or any range says exactly what its days say.
public struct RangeFacts: Sendable, Equatable {
  public let first: Day
  public let last: Day
  /// One entry per day of the range, oldest first, days without commits included.
  public let days: [DayFacts]

  /// `days` may miss some days of the range, or hold days outside it: each day of the range gets its entry (an
  /// empty one when missing), nothing else is kept.
  public init(first: Day, last: Day, days: [DayFacts]) {
    self.first = first
    self.last = last
    let range = first.through(last)
    // A week's or a month's few days (a rebuild makes a thousand such pages) are found by looking through them;
    // a long range's by a table.
    if days.count <= 31 {
      self.days = range.map { day in days.first { $0.day == day } ?? DayFacts(day: day, projects: []) }
    } else {
      let byDay = Dictionary(days.map { ($0.day, $0) }, uniquingKeysWith: { first, _ in first })
      self.days = range.map { byDay[$0] ?? DayFacts(day: $0, projects: []) }
    }
  }

  /// One project's part of the range.
  public struct ProjectTotals: Sendable, Equatable {
    public let name: String
    public let commitCount: Int
    public let stats: DiffStats
    /// The days with at least one of its commits.
    public let activeDays: [Day]
    /// The kinds of work of its commits, summed over the range.
    public let kinds: KindCounts
  }

  public var commitCount: Int { days.reduce(0) { $0 + $1.commitCount } }
  public var stats: DiffStats { days.reduce(.zero) { $0 + $1.stats } }
  public var activeDays: [Day] { days.filter { !$0.isEmpty }.map(\.day) }
  public var quietDays: [Day] { days.filter(\.isEmpty).map(\.day) }
  public var isEmpty: Bool { days.allSatisfy(\.isEmpty) }

  /// Per project, by name, ordered by name.
  public var projects: [ProjectTotals] {
    var commits: [String: Int] = [:]
    var stats: [String: DiffStats] = [:]
    var active: [String: [Day]] = [:]
    var kinds: [String: KindCounts] = [:]
    for day in days {
      for project in day.projects {
        kinds[project.name, default: KindCounts()].add(project.kinds)
        commits[project.name, default: 0] += project.commitCount
        stats[project.name, default: .zero] = stats[project.name, default: .zero] + project.stats
        active[project.name, default: []].append(day.day)
      }
    }
    return commits.keys.sorted().map { name in
      ProjectTotals(
        name: name, commitCount: commits[name] ?? 0, stats: stats[name] ?? .zero, activeDays: active[name] ?? [],
        kinds: kinds[name] ?? KindCounts())
    }
  }

  public var projectCount: Int { Set(days.flatMap { $0.projects.map(\.name) }).count }

  /// The kinds of work of the range's commits.
  public var kinds: KindCounts {
    var kinds = KindCounts()
    for day in days { kinds.add(day.kinds) }
    return kinds
  }

  /// The day with the most commits (the earliest of equals), or nil for a range without commits.
  public var busiestDay: DayFacts? {
    days.filter { !$0.isEmpty }.max { ($0.commitCount, $1.day) < ($1.commitCount, $0.day) }
  }

  /// `12 commits across 3 projects on 4 of 7 days, +500 -30`.
  public var summaryLine: String {
    let commits = commitCount
    guard commits > 0 else { return "No commits on \(days.count == 1 ? "that day" : "those \(days.count) days")" }
    let projects = projectCount
    var line = "\(commits) \(commits == 1 ? "commit" : "commits") "
    line += projects == 1 ? "in 1 project" : "across \(projects) projects"
    line += " on \(activeDays.count) of \(days.count) \(days.count == 1 ? "day" : "days")"
    return line + ", +\(stats.insertions) -\(stats.deletions)"
  }
}
