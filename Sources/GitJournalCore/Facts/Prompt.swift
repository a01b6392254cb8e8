/// What the model is asked: the day's facts with every number already computed, so the model only rephrases.
public struct Prompt: Sendable, Equatable {
  /// Bump whenever the wording changes: cached sentences made from an older prompt are then not reused.
  public static let version = 1

  public let system: String
  public let user: String

  public init(facts: DayFacts, calendar: JournalCalendar) {
    system = """
      You write one plain English sentence that summarises a developer's day of commits for their private \
      journal. Use only the facts given. Do not invent numbers, names or details. No lists, no quotes, \
      no markdown, no preamble: answer with the sentence alone.
      """
    let stats = facts.stats
    var lines = [
      "Day: \(calendar.title(of: facts.day))",
      "Total: \(facts.factualLine), +\(stats.insertions) -\(stats.deletions) lines",
    ]
    for project in facts.projects {
      let count = project.commitCount
      var line = "- \(project.name): \(count) \(count == 1 ? "commit" : "commits")"
      if let last = project.lastCommitAt {
        line += ", \(count == 1 ? "at" : "last one at") \(calendar.clockTime(last))"
      }
      line += ", +\(project.stats.insertions) -\(project.stats.deletions)"
      if !project.isPrivate {
        line += ": " + project.commits.map(\.subject).joined(separator: "; ")
      }
      lines.append(line)
    }
    user = lines.joined(separator: "\n")
  }
}
