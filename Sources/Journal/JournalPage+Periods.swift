import Facts
import GitReader
import Support

/// The pages above the days: a week's (`2026-W49.md`) and a month's (`2026-12.md`), the same file conventions
/// as a day's. Every number is computed from the days' facts; the sentence, when there is one, only rephrases
/// them.
extension JournalPage {
  /// Front-matter keys owned by gitjournal on a week's page; a month's has `month` first instead of `week`.
  public static let weekFrontMatterKeys = ["week", "commits", "projects", "activeDays", "insertions", "deletions"]

  /// A week's page: the totals, per project commits, lines and active days, each day with commits linked to its
  /// file, the busiest day, the days without commits, and links to the neighbouring weeks. `facts` of a running
  /// week end with its last day that has begun (see `JournalWriter.begunThrough`): the page speaks of those days.
  public init(week: Week, facts: RangeFacts, narrative: String?, calendar: JournalCalendar, links: PageLinks?) {
    var lines = Self.header(facts, narrative: narrative)
    if !facts.isEmpty { lines += ["", "## Days", ""] }
    for day in facts.days where !day.isEmpty {
      lines.append("- [[\(day.day)]] \(day.day.weekday): \(day.summaryLine)")
    }
    lines.append("")
    if let busiest = facts.busiestDay {
      lines.append("Busiest day: \(busiest.day.weekday) [[\(busiest.day)]], \(Self.commits(busiest.commitCount))")
    }
    let quiet = facts.quietDays
    lines.append(
      quiet.isEmpty
        ? "Commits on every day" : "No commits on " + quiet.map(\.weekday.description).joined(separator: ", "))
    self.init(
      frontMatter: [("week", week.description)] + Self.totals(facts),
      title: "# Week \(week): \(calendar.title(of: week.start)) to \(calendar.title(of: week.last))",
      blockBody: Self.body(lines: lines, links: links))
  }

  /// A month's page: the totals, per project, per week (its days in this month) with links to the weeks' pages,
  /// and the busiest week.
  public init(
    month: Month, facts: RangeFacts, weekStart: Weekday, narrative: String?, linkingWeeks: Bool, links: PageLinks?
  ) {
    var lines = Self.header(facts, narrative: narrative)
    lines += ["", "## Weeks", ""]
    var busiest: (week: Week, commits: Int)?
    // A running month's facts end with the last day that has begun: weeks after it are not spoken of.
    for week in month.weeks(starting: weekStart) where week.start <= facts.last {
      let part = RangeFacts(first: max(week.start, month.first), last: min(week.last, facts.last), days: facts.days)
      // A week without commits has no page to link to.
      let name = linkingWeeks && part.commitCount > 0 ? "[[\(week)]]" : week.description
      lines.append("- \(name): \(part.summaryLine)")
      if part.commitCount > (busiest?.commits ?? 0) { busiest = (week, part.commitCount) }
    }
    if let busiest {
      let name = linkingWeeks ? "[[\(busiest.week)]]" : busiest.week.description
      lines += ["", "Busiest week: \(name), \(Self.commits(busiest.commits))"]
    }
    self.init(
      frontMatter: [("month", month.description)] + Self.totals(facts),
      title: "# \(month.name) \(month.year)",
      blockBody: Self.body(lines: lines, links: links))
  }

  private static func header(_ facts: RangeFacts, narrative: String?) -> [String] {
    var lines: [String] = []
    if let narrative, !narrative.isEmpty { lines += [MarkdownText.inline(narrative), ""] }
    lines.append(facts.summaryLine)
    let projects = facts.projects
    if !projects.isEmpty { lines += ["", "## Projects", ""] }
    for project in projects {
      let days = project.activeDays.count
      lines.append(
        "- \(MarkdownText.inline(project.name)): \(commits(project.commitCount)) on \(days) "
          + "\(days == 1 ? "day" : "days"), +\(project.stats.insertions) -\(project.stats.deletions) "
          + "(\(project.kinds.line))")
    }
    return lines
  }

  private static func totals(_ facts: RangeFacts) -> [(key: String, value: String)] {
    let stats = facts.stats
    return [
      ("commits", String(facts.commitCount)), ("projects", String(facts.projectCount)),
      ("activeDays", String(facts.activeDays.count)), ("insertions", String(stats.insertions)),
      ("deletions", String(stats.deletions)),
    ]
  }

  private static func commits(_ count: Int) -> String { "\(count) \(count == 1 ? "commit" : "commits")" }
}
