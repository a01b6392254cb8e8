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
    usage: "narrate [<day>...] [--week] [--month] [--retry-after-pause] [--settle <seconds>]",
    options: [
      OptionSpec(name: .week, abstract: "Also ask for the sentence of the days' weeks while they are still running."),
      OptionSpec(
        name: .month, abstract: "Also ask for the sentence of the days' months while they are still running."),
      OptionSpec(
        name: .retryAfterPause,
        abstract: "After a failure of a server that answered, wait out the pause and try once more (the hook does)."),
      OptionSpec(
        name: .settle,
        abstract: "Ask only once no commit has come for this long, so a burst gets one sentence (the hook gives 2).",
        valueName: "seconds"),
    ],
    discussion: """
      One narrator runs at a time: one that finds another at work leaves its days to it and exits at once, and \
      the one at work narrates them, with the newest facts, before it exits. After a failure of a server that \
      answered (a timeout, a 503 while it loads its model), --retry-after-pause waits out the pause and tries \
      once more; when nothing listens at the server's address it stops at once. After the days, it asks for \
      the sentence of their week and month pages whose facts have none, once each, and not while commits keep \
      arriving: only for weeks and months that have ended (the first narrator after a period's end asks for \
      it), unless --week or --month asks for the running one. With no day, today.
      """,
    examples: ["gitjournal narrate", "gitjournal narrate yesterday"], arguments: .days)

  /// More rounds for a day (or passes over newly requested days) than this means commits keep arriving faster
  /// than the model writes: the narrator stops, and the next commit's narrator goes on.
  static let maximumRounds = 5

  let dayArguments: [String]
  let retryAfterPause: Bool
  /// Whether the running week's and month's sentences are asked for too (`--week`, `--month`).
  let runningWeek: Bool
  let runningMonth: Bool
  /// How long no commit must come before the model is asked (`--settle`).
  let settleSeconds: Double
  /// The longest a narrator waits for commits to settle: past it, it asks for the facts it has.
  static let longestSettle: Double = 30

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
    retryAfterPause = arguments.has(.retryAfterPause)
    runningWeek = arguments.has(.week)
    runningMonth = arguments.has(.month)
    let settle = arguments.value(.settle) ?? "0"
    guard let seconds = Double(settle), seconds >= 0, seconds <= Self.longestSettle else {
      throw UsageError(
        message: "--settle takes a number of seconds from 0 to \(Int(Self.longestSettle)), not '\(settle)'",
        spec: Self.spec)
    }
    settleSeconds = seconds
  }

  /// Waits until no commit has asked for a sentence for `settleSeconds` (at most `longestSettle`): commits that
  /// come in a burst get one request, for their last facts.
  private func settle(_ lock: NarratorLock) async {
    guard settleSeconds > 0 else { return }
    let step = 0.1
    var size = lock.pendingBytes
    var quiet = 0.0
    var waited = 0.0
    while quiet < settleSeconds && waited < Self.longestSettle {
      try? await Task.sleep(for: .milliseconds(100))
      waited += step
      let now = lock.pendingBytes
      if now != size {
        size = now
        quiet = 0
      } else {
        quiet += step
      }
    }
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
    // The days whose weeks and months are still to narrate: yesterday's too, so that the first narrator after a
    // week or a month has ended asks for its sentence.
    var periodDays: Set<Day> = [today.adding(days: -1)]
    repeat {
      passes += 1
      await settle(lock)
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
        try await narratePeriods(
          of: Array(periodDays), today: today, narrator: narrator, journaling: journaling, context: context)
        periodDays = []
      }
    } while passes < Self.maximumRounds && lock.releaseUnlessRequested()
    return ExitStatus.success
  }

  /// Whether `period`'s sentence is asked for: once it has ended, or while it runs when `--week` or `--month` says
  /// so. A running period's facts change with every commit: a sentence for them would be replaced before anyone
  /// reads the page.
  private func isAsked(_ period: PeriodFacts.Period, today: Day) -> Bool {
    if period.last < today { return true }
    switch period {
    case .week: return runningWeek
    case .month: return runningMonth
    }
  }

  /// One sentence at most for each week and month page of `days` whose facts have none: the model is asked only
  /// when no machine shared one and the cache has none; the sentence goes only onto the page of the facts it was
  /// written for.
  private func narratePeriods(
    of days: [Day], today: Day, narrator: Narrator, journaling: Journaling, context: CommandContext
  ) async throws {
    let calendar = journaling.configuration.calendar
    for period in journaling.periods(of: days) where isAsked(period, today: today) {
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
