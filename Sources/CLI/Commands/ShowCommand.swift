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
    let file = try store.read(day)
    if configuration.repositories.isEmpty {
      // Nothing to read: the file, if there is one, is all there is.
      guard !json && !allAuthors, let file else { throw NoRepositoriesError(configPath: configuration.configPath) }
      context.standardOutput.write(
        JournalFileRenderer.render(MarkdownText.neutralisingBidiControls(file), style: style))
      return ExitStatus.success
    }
    let (facts, skipped) = await journaling.current(day, policy: .fresh(allAuthors: allAuthors))
    for repository in skipped { context.standardError.line("warning: \(repository)") }
    let narrative = journaling.sentence(for: facts)
    if json {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      let data = try encoder.encode(DayReport(facts: facts, narrative: narrative, calendar: calendar))
      context.standardOutput.line(MarkdownText.escapingBidiControlsInJSON(String(decoding: data, as: UTF8.self)))
    } else {
      // The file when it holds these facts; else what it would hold after the next refresh (with the user's text),
      // printed, not written: the file changes only when you commit, rebuild or edit it.
      let page = JournalPage(facts: facts, narrative: narrative, calendar: calendar)
      var text = JournalMerger.merge(page: page, into: allAuthors ? nil : file, day: day)
      if !allAuthors, let file,
        store.record(of: day).map({ $0.signature(calendar: calendar) }) == facts.signature(calendar: calendar)
      {
        text = file
      }
      // A file written before bidirectional controls were neutralised, or the user's own notes, may hold them.
      context.standardOutput.write(
        JournalFileRenderer.render(MarkdownText.neutralisingBidiControls(text), style: style))
    }
    return skipped.isEmpty ? ExitStatus.success : ExitStatus.partial
  }
}
