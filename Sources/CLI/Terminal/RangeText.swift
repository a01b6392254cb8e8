import Facts
import GitReader
import Journal
import Support

/// What `show --week` and `show --since` print as text: a heading for the range, each day with commits as its
/// journal block shows it (its sentence, its totals line, its projects and commits), then the range's totals,
/// per project and in all. Markdown, styled by `JournalFileRenderer` on a terminal.
enum RangeText {
  static func render(
    _ facts: RangeFacts, week: Week?, sentences: [Day: String], calendar: JournalCalendar
  ) -> String {
    var lines: [String] = []
    let span = "\(calendar.title(of: facts.first)) to \(calendar.title(of: facts.last))"
    lines.append("# " + (week.map { "Week \($0): " } ?? "") + span)
    for day in facts.days where !day.isEmpty {
      let page = JournalPage(facts: day, narrative: sentences[day.day], calendar: calendar)
      lines += ["", "## " + calendar.title(of: day.day), ""]
      // The day's project headings sit one level below its own.
      lines += page.blockBody.split(separator: "\n", omittingEmptySubsequences: false).map {
        $0.hasPrefix("## ") ? "#" + $0 : String($0)
      }
    }
    lines += ["", "## Total", ""]
    for project in facts.projects {
      let days = project.activeDays.count
      lines.append(
        "- \(MarkdownText.inline(project.name)): \(project.commitCount) "
          + "\(project.commitCount == 1 ? "commit" : "commits") on \(days) \(days == 1 ? "day" : "days"), "
          + "+\(project.stats.insertions) -\(project.stats.deletions) (\(project.kinds.line))")
    }
    if !facts.projects.isEmpty { lines.append("") }
    lines.append(facts.summaryLine)
    return lines.joined(separator: "\n") + "\n"
  }
}
