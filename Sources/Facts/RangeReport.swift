import GitReader
import Support

/// The facts of a range of days as `gitjournal show --week/--since --json` prints them: the range, its totals,
/// per-project totals and each day exactly as `show --json` gives it.
public struct RangeReport: Codable, Equatable, Sendable {
  public var since: String
  public var until: String
  /// `2026-W49` for `--week`, else null.
  public var week: String?
  public var commitCount: Int
  public var projectCount: Int
  public var activeDays: Int
  public var insertions: Int
  public var deletions: Int
  public var filesChanged: Int
  public var factualLine: String
  public var projects: [Project]
  public var days: [DayReport]

  public struct Project: Codable, Equatable, Sendable {
    public var name: String
    public var commitCount: Int
    public var activeDays: Int
    public var insertions: Int
    public var deletions: Int
    public var filesChanged: Int
  }

  // `week` is written as null when absent, not left out.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(since, forKey: .since)
    try container.encode(until, forKey: .until)
    try container.encode(week, forKey: .week)
    try container.encode(commitCount, forKey: .commitCount)
    try container.encode(projectCount, forKey: .projectCount)
    try container.encode(activeDays, forKey: .activeDays)
    try container.encode(insertions, forKey: .insertions)
    try container.encode(deletions, forKey: .deletions)
    try container.encode(filesChanged, forKey: .filesChanged)
    try container.encode(factualLine, forKey: .factualLine)
    try container.encode(projects, forKey: .projects)
    try container.encode(days, forKey: .days)
  }

  /// `narratives`: each day's sentence, when there is one.
  public init(facts: RangeFacts, week: Week?, narratives: [Day: String], calendar: JournalCalendar) {
    let stats = facts.stats
    since = facts.first.description
    until = facts.last.description
    self.week = week?.description
    commitCount = facts.commitCount
    projectCount = facts.projectCount
    activeDays = facts.activeDays.count
    insertions = stats.insertions
    deletions = stats.deletions
    filesChanged = stats.filesChanged
    factualLine = facts.summaryLine
    projects = facts.projects.map { project in
      Project(
        name: project.name, commitCount: project.commitCount, activeDays: project.activeDays.count,
        insertions: project.stats.insertions, deletions: project.stats.deletions,
        filesChanged: project.stats.filesChanged)
    }
    days = facts.days.map { DayReport(facts: $0, narrative: narratives[$0.day], calendar: calendar) }
  }
}
