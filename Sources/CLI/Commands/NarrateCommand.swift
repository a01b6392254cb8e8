import Facts
import GitReader
import Journal
import Narrative
import Support

/// `gitjournal narrate`: asks the model for the sentence of some days and rewrites their files. The hook
/// starts it in the background; it can be run by hand too.
struct NarrateCommand: Command {
  static let spec = CommandSpec(
    name: "narrate",
    abstract: "Add the model's sentence to days, weeks and months that lack one (the hook runs this).",
    usage: "narrate [<day>...] [--retry-after-pause]",
    options: [
      OptionSpec(
        name: "retry-after-pause",
        abstract: "After a failure of a server that answered, wait out the pause and try once more (the hook does).")
    ],
    discussion: """
      One narrator runs at a time: one that finds another at work leaves its days to it and exits at once, and \
      the one at work narrates them, with the newest facts, before it exits. After a failure of a server that \
      answered (a timeout, a 503 while it loads its model), --retry-after-pause waits out the pause and tries \
      once more; when nothing listens at the server's address it stops at once. After the days, it asks for \
      the sentence of their week and month pages whose facts have none, once each, and not while commits keep \
      arriving. With no day, today.
      """,
    examples: ["gitjournal narrate", "gitjournal narrate yesterday"], arguments: .days)

  /// More rounds for a day (or passes over newly requested days) than this means commits keep arriving faster
  /// than the model writes: the narrator stops, and the next commit's narrator goes on.
  static let maximumRounds = 5

  let dayArguments: [String]
  let retryAfterPause: Bool

  /// The narrator's log line without the day it starts with, which `narrate` puts first itself.
  static func withoutDay(_ line: String, _ day: Day) -> String {
    withoutName(line, day.description)
  }

  /// The narrator's log line without the page name it starts with (`2026-11-30`, `2026-W49`).
  static func withoutName(_ line: String, _ name: String) -> String {
    line.hasPrefix("\(name): ") ? String(line.dropFirst("\(name): ".count)) : line
  }

  init(_ arguments: ParsedArguments) throws(UsageError) {
    dayArguments = arguments.positionals
    retryAfterPause = arguments.has("retry-after-pause")
  }

  func run(_ context: CommandContext) async throws -> Int32 {
    let environment = context.environment
    let configuration = try Configuration.load(environment)
    let calendar = configuration.calendar
    let today = calendar.day(containing: environment.now())
    var days: [Day] = []
    for argument in dayArguments { days.append(try DayArgument.parse(argument, today: today, spec: Self.spec)) }
    if days.isEmpty { days = [today] }

    let log = LogFile.narrative(stateDirectory: environment.stateDirectory)
    let logLine: @Sendable (String) -> Void = { line in log.append([line], now: environment.now()) }
    guard let narrator = Narrator.make(settings: configuration.narrative, environment: environment, log: logLine)
    else {
      // Off, or a server that may not be used (not on this machine): the log says which.
      context.standardError.line(
        configuration.narrative.engine == .off
          ? "The model is off (narrative.engine = off); nothing to do."
          : "The model server cannot be used; nothing was sent (see \(log.path)).")
      return ExitStatus.success
    }
    try makeFolders(environment.stateDirectory)
    guard let lock = try NarratorLock.claim(days: days, stateDirectory: environment.stateDirectory) else {
      context.standardError.line("Another narrator is at work; it will narrate these days too.")
      return ExitStatus.success
    }

    let journaling = Journaling(configuration: configuration, environment: environment)
    var passes = 0
    // The days whose weeks and months are still to narrate.
    var periodDays: Set<Day> = []
    repeat {
      passes += 1
      let requested = lock.takeRequests()
      periodDays.formUnion(requested)
      for day in requested.reversed() {
        // A failure's pause ends the narrator: the days left get their sentence with a later commit.
        if narrator.isBackingOff() { break }
        for _ in 0..<Self.maximumRounds {
          // The facts as the journal last wrote them: the narrator reads no repository and writes no facts.
          guard let facts = try await journaling.recorded(day), !facts.isEmpty else { break }
          if let sentence = await narrator.sentence(for: facts, calendar: calendar) {
            // Attached only if the file still holds these facts; otherwise narrate the newer ones.
            if try await journaling.attach(sentence, to: facts) { break }
            continue
          }
          if let problem = await narrator.lastProblem {
            context.standardError.line("\(day): no sentence: \(Self.withoutDay(problem, day))")
          }
          // A server that answered and failed may be loading its model: wait out the pause once and try again,
          // so the sentence comes without another commit. Nothing listening, or a rejected sentence: stop.
          guard retryAfterPause, let wait = await narrator.takeRetry() else { break }
          try? await Task.sleep(for: .milliseconds(Int(exactly: (wait * 1000).rounded()) ?? 0))
        }
      }
      // After the days, their weeks and months; not while commits keep arriving, which would change their facts
      // again: the next pass asks once, for the newest.
      if !lock.hasRequests || passes == Self.maximumRounds {
        try await narratePeriods(of: Array(periodDays), narrator: narrator, journaling: journaling, context: context)
        periodDays = []
      }
    } while passes < Self.maximumRounds && lock.releaseUnlessRequested()
    return ExitStatus.success
  }

  /// One sentence at most for each week and month page of `days` whose facts have none: the model is asked only
  /// when no machine shared one and the cache has none; the sentence goes only onto the page of the facts it was
  /// written for.
  private func narratePeriods(
    of days: [Day], narrator: Narrator, journaling: Journaling, context: CommandContext
  ) async throws {
    let calendar = journaling.configuration.calendar
    for period in journaling.periods(of: days) {
      if narrator.isBackingOff() { return }
      let facts = try await journaling.recorded(period)
      guard !facts.isEmpty else { continue }
      if let known = journaling.sentence(for: facts) {
        // The page may show it already (the hook found it); attaching an unchanged page writes nothing.
        _ = try await journaling.attach(known, to: facts)
        continue
      }
      if let sentence = await narrator.sentence(for: facts, calendar: calendar) {
        _ = try await journaling.attach(sentence, to: facts)
      } else if let problem = await narrator.lastProblem {
        context.standardError.line("\(period): no sentence: \(Self.withoutName(problem, period.description))")
      }
    }
  }
}
