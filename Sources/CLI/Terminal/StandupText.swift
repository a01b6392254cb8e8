import Facts
import GitReader
import Journal
import Support

/// What `standup` prints: the previous day with commits and today, each with its factual line and, per
/// project, the commit subjects, oldest first. Subjects are the whole `%s`, not shortened: this is for pasting.
enum StandupText {
  enum Format: String, Sendable {
    /// Headings and bullets for a chat or a document.
    case markdown
    /// Indented plain lines, coloured when `style` is on.
    case text
  }

  static func render(
    previous: DayFacts?, today: DayFacts, format: Format, style: TerminalStyle, calendar: JournalCalendar
  ) -> String {
    var sections: [String] = []
    if let previous { sections.append(section(previous, heading: calendar.title(of: previous.day), format, style)) }
    sections.append(section(today, heading: "Today so far", format, style))
    return sections.joined(separator: "\n")
  }

  private static func section(_ facts: DayFacts, heading: String, _ format: Format, _ style: TerminalStyle) -> String {
    var lines: [String]
    switch format {
    case .markdown:
      // For pasting into a chat or a document: as typed, but for what would be markup there.
      lines = ["## " + MarkdownText.pasteable(heading), "", facts.summaryLine]
      if !facts.isEmpty { lines.append("") }
      for project in facts.projects {
        lines.append("- **\(MarkdownText.pasteable(project.name))**")
        lines += project.commits.map { "  - " + MarkdownText.pasteable($0.subject) }
      }
    case .text:
      lines = [style.bold(heading) + ": " + style.dim(facts.summaryLine)]
      for project in facts.projects {
        lines.append("  " + style.cyan(MarkdownText.terminalSafe(project.name)))
        lines += project.commits.map { "    " + MarkdownText.terminalSafe($0.subject) }
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
