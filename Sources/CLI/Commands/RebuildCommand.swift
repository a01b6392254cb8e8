import Facts
import GitReader
import Journal
import Narrative
import Support

/// `gitjournal rebuild`: recomputes and rewrites the files of any days.
struct RebuildCommand: Command {
  static let spec = CommandSpec(
    name: "rebuild", abstract: "Rewrite the journal files of one or more days from your repositories.",
    usage: "rebuild [<day>...] [--since <day>] [--until <day>] [--all-authors] [--no-narrative]",
    options: [
      OptionSpec(name: .since, abstract: "First day of a range.", valueName: "day"),
      OptionSpec(name: .until, abstract: "Last day of a range.", valueName: "day", defaultValue: "today"),
      OptionSpec(name: .allAuthors, abstract: "Count everyone's commits, not only yours."),
      OptionSpec(name: .noNarrative, abstract: "Write the facts only; ask no language model."),
    ],
    discussion: """
      A day is YYYY-MM-DD, today, yesterday or -N (N days ago); with no day, today. Each repository is read \
      once for all the days. Your own text in the files is kept; one line is printed per file written.
      """,
    examples: ["gitjournal rebuild", "gitjournal rebuild --since 2026-11-01", "gitjournal rebuild yesterday -2"],
    arguments: .days)

  let dayArguments: [String]
  let since: String?
  let until: String?
  let allAuthors: Bool
  let noNarrative: Bool

  init(_ arguments: ParsedArguments) throws(UsageError) {
    dayArguments = arguments.positionals
    since = arguments.value(.since)
    until = arguments.value(.until)
    allAuthors = arguments.has(.allAuthors)
    noNarrative = arguments.has(.noNarrative)
    if until != nil && since == nil {
      throw UsageError(message: "--until needs --since", spec: Self.spec)
    }
  }

  func run(_ context: CommandContext) async throws -> Int32 {
    let configuration = try Configuration.load(context.environment)
    let today = configuration.calendar.day(containing: context.environment.now())
    var days = Set<Day>()
    for argument in dayArguments { days.insert(try DayArgument.parse(argument, today: today, spec: Self.spec)) }
    if let since {
      let first = try DayArgument.parse(since, today: today, spec: Self.spec)
      let last =
        try until.map { argument throws(UsageError) in try DayArgument.parse(argument, today: today, spec: Self.spec) }
        ?? today
      guard first <= last else {
        throw UsageError(message: "--since \(first) is after --until \(last)", spec: Self.spec)
      }
      for offset in 0...first.distance(to: last) { days.insert(first.adding(days: offset)) }
    }
    if days.isEmpty { days.insert(today) }
    if configuration.repositories.isEmpty {
      throw NoRepositoriesError(configPath: configuration.configPath)
    }

    let journaling = Journaling(configuration: configuration, environment: context.environment)
    // A damaged repository's read fails past the bound, and is skipped, instead of taking the machine's memory.
    MemoryBound.apply()
    Interruption.install()
    let progress = ProgressReporter(label: "days with commits", output: context.standardError)
    let report = try await journaling.rebuild(
      days: days.sorted(), policy: .rebuild(allAuthors: allAuthors), onRead: { progress.start(total: $0) },
      onWritten: { progress.advance() }, shouldStop: { Interruption.isRequested })
    progress.finish(verb: "written")
    for skipped in report.skipped { context.standardError.line("warning: \(skipped)") }
    // One write for all the lines: a rebuild of years prints thousands. Their bytes are appended into room made at
    // once: interpolated into a string, a long history's lines cost millions of instructions more.
    var bytes: [UInt8] = []
    bytes.reserveCapacity(report.written.count * (journaling.store.directory.utf8.count + 64))
    for day in report.written {
      let path = journaling.store.path(of: day.facts.day)
      for part in [day.facts.day.description, "  ", day.facts.factualLine, "  ", day.outcome.description, "  ", path] {
        bytes += part.utf8
      }
      bytes.append(UInt8(ascii: "\n"))
    }
    let lines = String(decoding: bytes, as: UTF8.self)
    if !lines.isEmpty { context.standardOutput.write(lines) }
    for (name, rename) in report.renamed.sorted(by: { $0.key < $1.key }) {
      let days = rename.days == 1 ? "1 day's file" : "\(rename.days) days' files"
      context.standardOutput.line(
        "\(rename.from.sorted().joined(separator: ", ")) is now \(name): renamed in \(days) (repos rename).")
    }
    if !report.unwritten.isEmpty { throw UnwrittenPagesError(reasons: report.unwritten) }
    if report.written.isEmpty {
      context.standardError.line("No commits on \(days.count == 1 ? "that day" : "those days"); no file written.")
    }
    if !noNarrative && !Interruption.isRequested {
      await addSentences(to: report, journaling: journaling, context: context)
    }
    if Interruption.isRequested {
      context.standardError.line("Interrupted: every file written so far is complete; run the same rebuild to finish.")
      return ExitStatus.interrupted
    }
    return report.skipped.isEmpty ? ExitStatus.success : ExitStatus.partial
  }

  /// The sentence phase: newest day first, each file rewritten as its sentence arrives, then the weeks' and the
  /// months' pages the same way, from the records just written (no repository is read again). Facts are all
  /// written before, so stopping here (Ctrl-C, a dead server) leaves every file complete.
  private func addSentences(
    to report: Journaling.Report, journaling: Journaling, context: CommandContext
  ) async {
    let environment = context.environment
    let log = LogFile.narrative(stateDirectory: environment.stateDirectory)
    let logLine: @Sendable (String) -> Void = { line in log.append([line], now: environment.now()) }
    let missing = report.written.filter { !$0.facts.isEmpty && $0.sentence == nil }.map(\.facts).reversed()
    let periods = report.periods.filter { !$0.facts.isEmpty && $0.sentence == nil }.map(\.facts)
    // The weeks newest first, then the months.
    let missingPeriods = journaling.periods(of: periods.map(\.period.first)).compactMap { period in
      periods.first { $0.period == period }
    }
    guard !missing.isEmpty || !missingPeriods.isEmpty,
      let narrator = Narrator.make(settings: journaling.configuration.narrative, environment: environment, log: logLine)
    else { return }
    if let pause = narrator.pause() {
      // The reason says what happened and what to do: most often that no model server is running, which is no
      // error (the pages are complete without their sentences).
      context.standardError.line(
        "No sentences this time: the model is paused for \(SecondsText.format(pause.remaining.rounded(.up))) s more "
          + "after this failure: \(pause.reason) (see \(log.path)).")
      return
    }
    let calendar = journaling.configuration.calendar
    let added = await Self.narrate(
      Array(missing), label: "days narrated", isBackingOff: { narrator.isBackingOff() }, context: context,
      ask: { await narrator.sentence(for: $0, calendar: calendar) },
      // A day that took commits since its facts were written keeps its newer facts, without this sentence.
      attach: { (try? await journaling.attach($0, to: $1)) == true }
    ).count
    var addedPeriods: [PeriodFacts.Period] = []
    if !narrator.isBackingOff() && !Interruption.isRequested {
      addedPeriods = await Self.narrate(
        missingPeriods, label: "weeks and months narrated", isBackingOff: { narrator.isBackingOff() },
        context: context, ask: { await narrator.sentence(for: $0, calendar: calendar) },
        attach: { (try? await journaling.attach($0, to: $1)) == true }
      ).map(\.period)
    }
    if added > 0 {
      context.standardOutput.line("Added the model's sentence to \(added) \(added == 1 ? "day" : "days").")
    }
    if !addedPeriods.isEmpty {
      context.standardOutput.line("Added the model's sentence to \(Self.count(addedPeriods)).")
    }
    if added < missing.count {
      context.standardError.line(
        "\(missing.count - added) \(missing.count - added == 1 ? "day has" : "days have") no sentence; see \(log.path)."
      )
    }
    if addedPeriods.count < missingPeriods.count {
      let left = missingPeriods.map(\.period).filter { !addedPeriods.contains($0) }
      context.standardError.line(
        "\(Self.count(left)) \(left.count == 1 ? "has" : "have") no sentence; see \(log.path).")
    }
  }

  /// Asks the model for each page in turn and attaches each sentence it gets, with a progress line; stops at
  /// Ctrl-C or once the server failed into a pause. Returns the pages that got their sentence.
  private static func narrate<Page: Sendable>(
    _ pages: [Page], label: String, isBackingOff: () -> Bool, context: CommandContext,
    ask: @escaping @Sendable (Page) async -> String?, attach: (String, Page) async -> Bool
  ) async -> [Page] {
    guard !pages.isEmpty else { return [] }
    var attached: [Page] = []
    let progress = ProgressReporter(label: label, output: context.standardError)
    progress.start(total: pages.count)
    for page in pages {
      if Interruption.isRequested { break }
      progress.advance()
      guard let sentence = await Interruption.cancellingOnRequest({ await ask(page) }) else {
        if isBackingOff() { break }
        continue
      }
      if await attach(sentence, page) { attached.append(page) }
    }
    progress.finish(verb: "asked")
    return attached
  }

  /// "1 week", "3 weeks and 1 month".
  static func count(_ periods: [PeriodFacts.Period]) -> String {
    let weeks = periods.filter { if case .week = $0 { true } else { false } }.count
    let months = periods.count - weeks
    let parts = [
      weeks > 0 ? "\(weeks) \(weeks == 1 ? "week" : "weeks")" : nil,
      months > 0 ? "\(months) \(months == 1 ? "month" : "months")" : nil,
    ]
    return parts.compactMap { $0 }.joined(separator: " and ")
  }
}

/// Nothing to journal: no config and not inside a repository.
struct NoRepositoriesError: Error, CustomStringConvertible {
  let configPath: String
  var description: String {
    "no repositories to journal: run 'gitjournal repos add <path>' (config: \(configPath)) or run this inside a git repository"
  }
}

/// Pages a rebuild could not write, each named once; the others were written (and printed). With many (a full disk),
/// the first few are named and the others counted.
struct UnwrittenPagesError: Error, CustomStringConvertible {
  let reasons: [SystemError]
  static let named = 10

  var description: String {
    var lines = reasons.prefix(Self.named).map(\.description)
    if reasons.count > Self.named { lines.append("\(reasons.count - Self.named) more pages could not be written") }
    // The command's error line prefixes the first; each other one gets its own.
    return lines.joined(separator: "\nerror: ")
  }
}
