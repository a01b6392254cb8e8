import Facts
import Journal
import Support

/// `gitjournal standup`: what you did on the last day with commits before today, and today so far, short
/// enough to paste into a stand-up.
struct StandupCommand: Command {
  static let spec = CommandSpec(
    name: "standup", abstract: "Print the last day with commits before today, and today so far, to paste.",
    usage: "standup [--days <n>] [--format markdown|text] [--all-authors]",
    options: [
      OptionSpec(
        name: .days, abstract: "How many days before today to look for the last day with commits.", valueName: "n",
        defaultValue: "7"),
      OptionSpec(
        name: .format, abstract: "markdown, or text (coloured on a terminal).", valueName: "format",
        defaultValue: "text on a terminal, else markdown"),
      OptionSpec(name: .allAuthors, abstract: "Count everyone's commits, not only yours."),
    ],
    discussion: """
      Per project, the factual line and then the commit subjects: on a Monday, Friday's work (or the last \
      working day after a holiday), then today's. With nothing in those days: 'No commits since <day>', exit 0.
      """,
    examples: ["gitjournal standup", "gitjournal standup --days 14", "gitjournal standup --format markdown | pbcopy"])

  /// The longest look back `--days` takes, as for `show --since`.
  static let longestLookBack = ShowCommand.longestRange

  let days: Int
  let format: StandupText.Format?
  let allAuthors: Bool

  init(_ arguments: ParsedArguments) throws(UsageError) {
    guard arguments.positionals.isEmpty else {
      throw UsageError(message: "standup takes no day: it is always about today", spec: Self.spec)
    }
    let text = arguments.value(.days) ?? "7"
    guard let days = Int(text), (1...Self.longestLookBack).contains(days) else {
      throw UsageError(
        message: "--days takes a number from 1 to \(Self.longestLookBack), not '\(text)'", spec: Self.spec)
    }
    self.days = days
    if let name = arguments.value(.format) {
      guard let format = StandupText.Format(rawValue: name) else {
        throw UsageError(message: "--format takes markdown or text, not '\(name)'", spec: Self.spec)
      }
      self.format = format
    } else {
      format = nil
    }
    allAuthors = arguments.has(.allAuthors)
  }

  func run(_ context: CommandContext) async throws -> Int32 {
    let configuration = try Configuration.load(context.environment)
    if configuration.repositories.isEmpty { throw NoRepositoriesError(configPath: configuration.configPath) }
    let calendar = configuration.calendar
    let today = calendar.day(containing: context.environment.now())
    let first = today.adding(days: -days)
    let journaling = Journaling(configuration: configuration, environment: context.environment)
    let (range, skipped) = await journaling.current(
      from: first, through: today, policy: .fresh(allAuthors: allAuthors))
    for repository in skipped { context.standardError.line("warning: \(repository)") }
    let status = skipped.isEmpty ? ExitStatus.success : ExitStatus.partial
    let previous = range.days.dropLast().last { !$0.isEmpty }
    let current = range.days.last ?? DayFacts(day: today, projects: [])
    guard previous != nil || !current.isEmpty else {
      context.standardOutput.line("No commits since \(first)")
      return status
    }
    let style = TerminalStyle(output: context.standardOutput, environment: context.environment)
    let chosen = format ?? (context.standardOutput.isTerminal ? .text : .markdown)
    context.standardOutput.write(
      StandupText.render(
        previous: previous, today: current, format: chosen,
        style: chosen == .text ? style : TerminalStyle(isEnabled: false),
        calendar: calendar))
    return status
  }
}
