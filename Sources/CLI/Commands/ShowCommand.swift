import Facts
import GitReader
import Journal
import Narrative
import Support

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `gitjournal show`: prints a day's journal, or its facts as JSON; or those of a week or a range of days.
struct ShowCommand: Command {
  static let spec = CommandSpec(
    name: "show", abstract: "Print a day's journal (computed afresh when it has no file), or a week's or range's.",
    usage: "show [<day>] [--week] [--since <day> [--until <day>]] [--json] [--all-authors] [--host <name>]",
    options: [
      OptionSpec(name: .week, abstract: "The whole week of the day (journal.weekStart, default Monday)."),
      OptionSpec(name: .since, abstract: "First day of a range.", valueName: "day"),
      OptionSpec(name: .until, abstract: "Last day of a range.", valueName: "day", defaultValue: "today"),
      OptionSpec(name: .json, abstract: "Print the facts as JSON."),
      OptionSpec(name: .allAuthors, abstract: "Count everyone's commits, not only yours."),
      OptionSpec(
        name: .host, abstract: "One machine's share only (journal.host; 'gitjournal doctor' lists them).",
        valueName: "name"),
    ],
    discussion: """
      A day is YYYY-MM-DD, today, yesterday or -N (N days ago); with no day, today. A week or range is printed \
      day by day, each day with its projects and a totals line, then the totals per project and for the whole \
      range; with --json, an object with since, until, week, the totals, the projects' totals and the list of \
      days as 'show <day> --json' gives them. Every machine that writes the journal folder is counted, each commit \
      once; --host <name> shows what one of them recorded.
      """,
    examples: [
      "gitjournal show", "gitjournal show yesterday", "gitjournal show 2026-11-27 --json", "gitjournal show --week",
      "gitjournal show --week -7", "gitjournal show --since 2026-11-01 --until 2026-11-30 --json",
    ], arguments: .days)

  /// The longest range `--since` takes, about ten years: each of its days is held in memory and printed.
  static let longestRange = 3700

  let dayArgument: String?
  let week: Bool
  let since: String?
  let until: String?
  let json: Bool
  let allAuthors: Bool
  let host: String?

  init(_ arguments: ParsedArguments) throws(UsageError) {
    guard arguments.positionals.count <= 1 else {
      throw UsageError(message: "show takes one day at most", spec: Self.spec)
    }
    dayArgument = arguments.positionals.first
    week = arguments.has(.week)
    since = arguments.value(.since)
    until = arguments.value(.until)
    json = arguments.has(.json)
    allAuthors = arguments.has(.allAuthors)
    host = arguments.value(.host)
    if let host, !HostName.isValid(host) {
      throw UsageError(message: "--host takes a machine name as journal.host gives it, not '\(host)'", spec: Self.spec)
    }
    if host != nil && allAuthors {
      throw UsageError(message: "--host shows a machine's records, which hold your commits only", spec: Self.spec)
    }
    if until != nil && since == nil {
      throw UsageError(message: "--until needs --since", spec: Self.spec)
    }
    if since != nil && (week || dayArgument != nil) {
      throw UsageError(message: "--since takes no day and no --week: it is a range of its own", spec: Self.spec)
    }
  }

  func run(_ context: CommandContext) async throws -> Int32 {
    let configuration = try Configuration.load(context.environment)
    let calendar = configuration.calendar
    let today = calendar.day(containing: context.environment.now())
    let day =
      try dayArgument.map { argument throws(UsageError) in
        try DayArgument.parse(argument, today: today, spec: Self.spec)
      } ?? today
    if week {
      let week = Week(containing: day, starting: configuration.weekStart)
      return try await showRange(
        from: week.start, through: week.last, week: week, configuration: configuration, context: context)
    }
    if let since {
      let first = try DayArgument.parse(since, today: today, spec: Self.spec)
      let last =
        try until.map { argument throws(UsageError) in try DayArgument.parse(argument, today: today, spec: Self.spec) }
        ?? today
      guard first <= last else {
        throw UsageError(message: "--since \(first) is after --until \(last)", spec: Self.spec)
      }
      guard first.distance(to: last) < Self.longestRange else {
        throw UsageError(
          message: "--since \(first) --until \(last) is longer than \(Self.longestRange) days; show a shorter range",
          spec: Self.spec)
      }
      return try await showRange(from: first, through: last, week: nil, configuration: configuration, context: context)
    }
    let journaling = Journaling(configuration: configuration, environment: context.environment)
    try journaling.checkHost(host)
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
    let (facts, skipped) = await journaling.current(day, policy: .fresh(allAuthors: allAuthors), host: host)
    for repository in skipped { context.standardError.line("warning: \(repository)") }
    let narrative = journaling.sentence(for: facts)
    if json {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      let data = try encoder.encode(DayReport(facts: facts, narrative: narrative, calendar: calendar))
      context.standardOutput.line(MarkdownText.escapingBidiControlsInJSON(String(decoding: data, as: UTF8.self)))
    } else {
      let text = Self.dayText(
        facts: facts, narrative: narrative, file: file, isWhole: !allAuthors && host == nil, calendar: calendar)
      context.standardOutput.write(JournalFileRenderer.render(text, style: style))
    }
    return skipped.isEmpty ? ExitStatus.success : ExitStatus.partial
  }

  /// The Markdown `show <day>` prints: the file when its block shows these facts; else what it would hold after the
  /// next refresh (with the user's text), printed, not written: the file changes only when you commit, rebuild or
  /// edit it. Another machine's records that arrived since the file was written make it stale too. `isWhole`: the
  /// facts are the whole journal's (not `--all-authors` nor one `--host`'s), so the file's text belongs with them.
  static func dayText(
    facts: DayFacts, narrative: String?, file: String?, isWhole: Bool, calendar: JournalCalendar
  ) -> String {
    let page = JournalPage(facts: facts, narrative: narrative, calendar: calendar)
    var text = JournalMerger.merge(page: page, into: isWhole ? file : nil, day: facts.day)
    // The links line is not a fact: a neighbour's new file changes it.
    if isWhole, let file,
      JournalMerger.blockBody(in: file).map({ JournalPage.body($0, links: nil) }) == page.blockBody
    {
      text = file
    }
    // A file written before bidirectional controls were neutralised, or the user's own notes, may hold them.
    return MarkdownText.neutralisingBidiControls(text)
  }

  /// Prints the days from `first` through `last`, read from the repositories at once.
  private func showRange(
    from first: Day, through last: Day, week: Week?, configuration: Configuration, context: CommandContext
  ) async throws -> Int32 {
    if configuration.repositories.isEmpty { throw NoRepositoriesError(configPath: configuration.configPath) }
    let calendar = configuration.calendar
    let journaling = Journaling(configuration: configuration, environment: context.environment)
    try journaling.checkHost(host)
    let (facts, skipped) = await journaling.current(
      from: first, through: last, policy: .fresh(allAuthors: allAuthors), host: host)
    for repository in skipped { context.standardError.line("warning: \(repository)") }
    var sentences: [Day: String] = [:]
    for day in facts.days { sentences[day.day] = journaling.sentence(for: day) }
    if json {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      let data = try encoder.encode(RangeReport(facts: facts, week: week, narratives: sentences, calendar: calendar))
      context.standardOutput.line(MarkdownText.escapingBidiControlsInJSON(String(decoding: data, as: UTF8.self)))
    } else {
      let style = TerminalStyle(output: context.standardOutput, environment: context.environment)
      let text = RangeText.render(facts, week: week, sentences: sentences, calendar: calendar)
      context.standardOutput.write(JournalFileRenderer.render(text, style: style, isGenerated: true))
    }
    return skipped.isEmpty ? ExitStatus.success : ExitStatus.partial
  }
}
