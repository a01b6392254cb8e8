import Facts
import GitReader
import Journal
import Support

/// What the MCP server leaves out of a private project (`repo.<name>.private`): whatever it returns goes to the
/// assistant's model, often a remote service, so a private project gives its name and counts, never its subjects,
/// branch names, ids or path. A project is private when the config says so (by name or path) or any machine's
/// record of it does.
struct PrivateRedaction: Sendable {
  let privateNames: Set<String>
  let privatePaths: Set<String>

  init(repositories: [RepositoryEntry]) {
    privateNames = Set(repositories.filter(\.isPrivate).map(\.name))
    privatePaths = Set(repositories.filter(\.isPrivate).map(\.path))
  }

  /// What stands in a text for a private project's commits.
  static func placeholder(commits: Int) -> String {
    "\(commits) \(commits == 1 ? "commit" : "commits"), a private project: its subjects, branches and ids stay on "
      + "this machine"
  }

  func isPrivate(_ project: ProjectFacts) -> Bool {
    project.isPrivate || privateNames.contains(project.name) || privatePaths.contains(project.path)
  }

  /// The names of the projects of `days` that are not private, as the journal's headings write them: only their
  /// sections keep their commits.
  func publicHeadings(_ days: [DayFacts]) -> Set<String> {
    let projects = days.flatMap(\.projects)
    let hidden = Set(projects.filter(isPrivate).map(\.name)).union(privateNames)
    return Set(projects.map(\.name).filter { !hidden.contains($0) }.map(MarkdownText.inline))
  }

  /// `show <day> --json`'s report, a private project's path, times and commits left out.
  func report(_ facts: DayFacts, narrative: String?, calendar: JournalCalendar) -> DayReport {
    var report = DayReport(facts: facts, narrative: narrative, calendar: calendar)
    redact(&report, facts: facts)
    return report
  }

  /// `show --week/--since --json`'s report, each day's private projects as `report(_:narrative:calendar:)` leaves
  /// them; the range's per-project totals are counts already.
  func report(_ facts: RangeFacts, week: Week?, narratives: [Day: String], calendar: JournalCalendar) -> RangeReport {
    var report = RangeReport(facts: facts, week: week, narratives: narratives, calendar: calendar)
    for (index, day) in facts.days.enumerated() where index < report.days.count {
      redact(&report.days[index], facts: day)
    }
    return report
  }

  private func redact(_ report: inout DayReport, facts: DayFacts) {
    // The report lists the projects in the order of the facts.
    for (index, project) in facts.projects.enumerated() where index < report.projects.count && isPrivate(project) {
      report.projects[index].path = ""
      report.projects[index].firstCommitAt = nil
      report.projects[index].lastCommitAt = nil
      report.projects[index].commits = []
    }
  }

  /// A journal page's text (a file, or what `show` prints of a day, a week or a range) with the lines of every
  /// project section that is not one of `publicHeadings` replaced by their count. Fails closed: a section under a
  /// heading it does not know (a project renamed since, a file edited by hand) is redacted too, and every line of a
  /// section goes, not only its commit lines. In a day's page only the managed block has project sections;
  /// `headingLevel` is 2 there, 3 in a range's text.
  static func redactingSections(_ text: String, publicHeadings: Set<String>, headingLevel: Int) -> String {
    let heading = String(repeating: "#", count: headingLevel) + " "
    let hasBlock = text.contains(JournalMerger.beginPrefix)
    var inBlock = !hasBlock
    var redactor = SectionRedactor(indent: "")
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if hasBlock && line.hasPrefix(JournalMerger.beginPrefix) { inBlock = true }
      if hasBlock && line.hasPrefix(JournalMerger.endPrefix) {
        redactor.close()
        inBlock = false
      }
      guard inBlock else {
        redactor.keep(line)
        continue
      }
      if line.hasPrefix("#") || PageLinks.isLinksLine(line) { redactor.close() }
      if line.hasPrefix(heading) && !publicHeadings.contains(String(line.dropFirst(heading.count))) {
        redactor.keep(line)
        redactor.open()
        continue
      }
      redactor.take(line, isEntry: line.hasPrefix("- "))
    }
    return redactor.text
  }

  /// `standup --format markdown`'s text, each project that is not one of `publicHeadings` (`- **name**`) with its
  /// subjects replaced by their count.
  static func redactingStandup(_ text: String, publicHeadings: Set<String>) -> String {
    var redactor = SectionRedactor(indent: "  ")
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if !line.hasPrefix("  ") { redactor.close() }
      if line.hasPrefix("- **") && line.hasSuffix("**") {
        redactor.keep(line)
        if !publicHeadings.contains(String(line.dropFirst(4).dropLast(2))) { redactor.open() }
        continue
      }
      redactor.take(line, isEntry: line.hasPrefix("  - "))
    }
    return redactor.text
  }

  /// The texts a private project's commits hold, of `days`, as a journal or a person may have written them: each
  /// is taken out of any text the server returns, the user's own notes included, should a section's redaction have
  /// missed it. Subjects and branch names shorter than `shortestSecret` are common words and stay.
  func secrets(of days: [DayFacts]) -> [String] {
    var found = Set<String>()
    for project in days.flatMap(\.projects) where isPrivate(project) {
      for commit in project.commits {
        let id = commit.id.description
        found.formUnion([id, String(id.prefix(7))])
        let words = [commit.subject, commit.branch].compactMap { $0 }.flatMap { text in
          // A journal file cuts a long subject or branch name: its beginning is found instead.
          [text, MarkdownText.inline(text), String(MarkdownText.inline(text).prefix(Self.secretPrefix))]
        }
        found.formUnion(words.filter { $0.count >= Self.shortestSecret })
      }
      if !project.path.isEmpty { found.insert(project.path) }
    }
    // The longest first, so that a subject goes whole before a shorter secret inside it.
    return found.sorted { ($0.count, $0) > ($1.count, $1) }
  }

  static let shortestSecret = 6
  /// Shorter than the journal file's cut of a subject (200 characters) or a branch name (60).
  static let secretPrefix = 40

  /// `text` with each of `secrets` replaced.
  static func scrubbing(_ text: String, secrets: [String]) -> String {
    var text = text
    for secret in secrets where text.contains(secret) { text = text.replacing(secret, with: "[private]") }
    return text
  }
}
