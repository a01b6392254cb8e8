import Facts
import Foundation
import GitReader
import Journal
import Narrative
import Support

/// `gitjournal show`: prints a day's journal, or its facts as JSON.
struct ShowCommand: Command {
  static let spec = CommandSpec(
    name: "show", abstract: "Print a day's journal (computed afresh when it has no file).",
    usage: "show [<day>] [--json] [--all-authors]",
    options: [
      OptionSpec(name: "json", abstract: "Print the day's facts as JSON."),
      OptionSpec(name: "all-authors", abstract: "Count everyone's commits, not only yours."),
    ],
    discussion: "A day is YYYY-MM-DD, today, yesterday or -N (N days ago); with no day, today.",
    examples: ["gitjournal show", "gitjournal show yesterday", "gitjournal show 2026-11-27 --json"])

  let dayArgument: String?
  let json: Bool
  let allAuthors: Bool

  init(_ arguments: ParsedArguments) throws(UsageError) {
    guard arguments.positionals.count <= 1 else {
      throw UsageError(message: "show takes one day at most", spec: Self.spec)
    }
    dayArgument = arguments.positionals.first
    json = arguments.has("json")
    allAuthors = arguments.has("all-authors")
  }

  func run(_ context: CommandContext) async throws -> Int32 {
    let configuration = try Configuration.load(context.environment)
    let calendar = configuration.calendar
    let today = calendar.day(containing: context.environment.now())
    let day =
      try dayArgument.map { argument throws(UsageError) in
        try DayArgument.parse(argument, today: today, spec: Self.spec)
      } ?? today
    let journaling = Journaling(configuration: configuration, environment: context.environment)
    let store = journaling.store

    let style = TerminalStyle(output: context.standardOutput, environment: context.environment)
    if !json && !allAuthors, let text = try store.read(day) {
      context.standardOutput.write(JournalFileRenderer.render(text, style: style))
      return ExitStatus.success
    }
    if configuration.repositories.isEmpty { throw NoRepositoriesError(configPath: configuration.configPath) }
    let collected = await journaling.read(days: [day], policy: .fresh(allAuthors: allAuthors))
    for skipped in collected.skipped { context.standardError.line("warning: \(skipped)") }
    let facts = collected.days[day] ?? DayFacts(day: day, projects: [])
    let narrative = journaling.sentence(for: facts)
    if json {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      let data = try encoder.encode(DayReport(facts: facts, narrative: narrative, calendar: calendar))
      context.standardOutput.line(String(decoding: data, as: UTF8.self))
    } else {
      let page = JournalPage(facts: facts, narrative: narrative, calendar: calendar)
      context.standardOutput.write(
        JournalFileRenderer.render(JournalMerger.merge(page: page, into: nil, day: day), style: style))
    }
    return collected.skipped.isEmpty ? ExitStatus.success : ExitStatus.partial
  }
}
