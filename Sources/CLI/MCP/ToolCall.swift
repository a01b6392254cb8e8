import Facts
import GitReader
import Journal
import Support

/// One tool call's work, with the config read for it: the facts read as `show` reads them (afresh, the user's
/// commits, every machine's records), turned into the CLI's Markdown and `show --json`'s JSON, then redacted.
struct ToolCall: Sendable {
  let journaling: Journaling
  let redaction: PrivateRedaction
  let today: Day

  var calendar: JournalCalendar { journaling.configuration.calendar }

  func day(_ day: Day) async throws(JSONRPCError) -> JournalTools.Outcome {
    let (facts, skipped) = await journaling.current(day, policy: .fresh())
    let narrative = journaling.sentence(for: facts)
    let file: String?
    do {
      file = try journaling.store.read(day)
    } catch {
      file = nil
    }
    var text = ShowCommand.dayText(facts: facts, narrative: narrative, file: file, isWhole: true, calendar: calendar)
    text = PrivateRedaction.redactingSections(
      text, publicHeadings: redaction.publicHeadings([facts]), headingLevel: 2)
    let report = redaction.report(facts, narrative: narrative, calendar: calendar)
    return try outcome(text, report, days: [facts], skipped: skipped)
  }

  func range(from first: Day, through last: Day, week: Week?) async throws(JSONRPCError) -> JournalTools.Outcome {
    let (facts, skipped) = await journaling.current(from: first, through: last, policy: .fresh())
    var sentences: [Day: String] = [:]
    for day in facts.days { sentences[day.day] = journaling.sentence(for: day) }
    let text = PrivateRedaction.redactingSections(
      RangeText.render(facts, week: week, sentences: sentences, calendar: calendar),
      publicHeadings: redaction.publicHeadings(facts.days), headingLevel: 3)
    let report = redaction.report(facts, week: week, narratives: sentences, calendar: calendar)
    return try outcome(text, report, days: facts.days, skipped: skipped)
  }

  /// As `standup --days <days> --format markdown`.
  func standup(days: Int) async throws(JSONRPCError) -> JournalTools.Outcome {
    let first = today.adding(days: -days)
    let (range, skipped) = await journaling.current(from: first, through: today, policy: .fresh())
    let previous = range.days.dropLast().last { !$0.isEmpty }
    let current = range.days.last ?? DayFacts(day: today, projects: [])
    let text =
      previous == nil && current.isEmpty
      ? "No commits since \(first)\n"
      : PrivateRedaction.redactingStandup(
        StandupText.render(
          previous: previous, today: current, format: .markdown, style: TerminalStyle(isEnabled: false),
          calendar: calendar),
        publicHeadings: redaction.publicHeadings([previous, current].compactMap { $0 }))
    let report: [String: JSONValue]
    do {
      report = [
        "since": .string(first.description),
        "previous": try previous.map { facts in
          try JSONValue(
            encoding: redaction.report(facts, narrative: journaling.sentence(for: facts), calendar: calendar))
        } ?? .null,
        "today": try JSONValue(
          encoding: redaction.report(current, narrative: journaling.sentence(for: current), calendar: calendar)),
      ]
    } catch {
      throw .internalError("the stand-up could not be made into JSON: \(error)")
    }
    return try outcome(text, JSONValue.object(report), days: range.days, skipped: skipped)
  }

  /// Commits of projects that are not private whose subject contains `text`, any case, newest first.
  func search(_ text: String, from first: Day, through last: Day) async throws(JSONRPCError) -> JournalTools.Outcome {
    let (range, skipped) = await journaling.current(from: first, through: last, policy: .fresh())
    let wanted = text.lowercased()
    var found: [(day: Day, project: ProjectFacts, commit: CommitRecord)] = []
    for day in range.days {
      for project in day.projects where !redaction.isPrivate(project) {
        for commit in project.commits where commit.subject.lowercased().contains(wanted) {
          found.append((day.day, project, commit))
        }
      }
    }
    found.sort { ($0.commit.authoredAt, $0.commit.id) > ($1.commit.authoredAt, $1.commit.id) }
    let shown = found.prefix(JournalTools.mostFound)
    // The text is not repeated (see `ToolArguments.day`): were it a private subject, its scrubbing would tell.
    var lines = ["# Commits whose subject contains the text, \(first) to \(last)", ""]
    if found.isEmpty { lines.append("None.") }
    var commits: [JSONValue] = []
    for (day, project, commit) in shown {
      let branch = commit.branch.map { " on " + MarkdownText.inline($0) } ?? ""
      lines.append(
        "- \(day) \(calendar.clockTime(commit.authoredAt)) \(MarkdownText.inline(project.name)): "
          + "\(MarkdownText.inline(commit.subject)) (`\(commit.id.description.prefix(7))`\(branch), "
          + "+\(commit.stats.insertions) -\(commit.stats.deletions))")
      // As `show --json` gives the commit: the report of a day that holds only it.
      let alone = DayFacts(
        day: day, projects: [ProjectFacts(name: project.name, path: project.path, isPrivate: false, commits: [commit])])
      guard let encoded = DayReport(facts: alone, narrative: nil, calendar: calendar).projects.first?.commits.first
      else { continue }
      guard var members = (try? JSONValue(encoding: encoded))?.object else { continue }
      members["date"] = .string(day.description)
      members["project"] = .string(project.name)
      commits.append(.object(members))
    }
    if found.count > shown.count {
      lines += ["", "\(found.count) commits match; the newest \(shown.count) are shown. Ask for a shorter range."]
    }
    lines += ["", "Private projects are not searched."]
    let report: JSONValue = .object([
      "since": .string(first.description), "until": .string(last.description),
      "matchCount": .integer(found.count), "truncated": .bool(found.count > shown.count),
      "commits": .array(commits),
    ])
    return try outcome(lines.joined(separator: "\n") + "\n", report, days: range.days, skipped: skipped)
  }

  /// The tool's result: `text` with the private projects' secrets taken out (the user's notes in a file may hold
  /// them), and a note when repositories could not be read, naming none (a private one's path is no one's business).
  private func outcome(
    _ text: String, _ report: some Encodable, days: [DayFacts], skipped: [SkippedRepository]
  ) throws(JSONRPCError) -> JournalTools.Outcome {
    var text = PrivateRedaction.scrubbing(text, secrets: redaction.secrets(of: days))
    if !skipped.isEmpty {
      text +=
        "\nNote: \(skipped.count) \(skipped.count == 1 ? "repository" : "repositories") could not be read, so "
        + "this is incomplete; 'gitjournal doctor' says why.\n"
    }
    do {
      return JournalTools.Outcome(text: text, structured: try JSONValue(encoding: report))
    } catch {
      throw .internalError("the result could not be made into JSON: \(error)")
    }
  }
}
