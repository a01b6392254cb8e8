import Facts
import GitReader
import Journal
import Narrative
import Support

/// `gitjournal narrate`: asks the model for the sentence of some days and rewrites their files. The hook
/// starts it in the background; it can be run by hand too.
struct NarrateCommand: Command {
  static let spec = CommandSpec(
    name: "narrate", abstract: "Add the model's sentence to days that lack one (the hook runs this in the background).",
    usage: "narrate [<day>...] [--retry-after-pause]",
    options: [
      OptionSpec(
        name: "retry-after-pause",
        abstract: "After a server failure, wait out the pause and try again (the hook's background narrator does).")
    ],
    discussion: """
      Only one narrator runs at a time; others wait for it. When commits arrive while a sentence is being \
      written, the newest facts are narrated before it exits. With no day, today.
      """,
    examples: ["gitjournal narrate", "gitjournal narrate yesterday"])

  /// More rounds than this means commits keep arriving faster than the model writes: the next hook starts
  /// another narrator.
  static let maximumRounds = 5

  /// How many pauses after a failure the narrator waits out before giving up until the next commit.
  static let maximumRetries = 3

  let dayArguments: [String]
  let retryAfterPause: Bool

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
    let lock = try FileLock.acquire(at: environment.stateDirectory + "/narrator.lock")
    defer { withExtendedLifetime(lock) {} }

    let journaling = Journaling(configuration: configuration, environment: environment)
    // Only a failure of this run is waited out: a pause already in force belongs to an earlier one.
    var retries = retryAfterPause && !narrator.isBackingOff() ? 0 : Self.maximumRetries
    for day in Set(days).sorted(by: >) {
      var round = 0
      while round < Self.maximumRounds {
        // The facts as the journal last wrote them: the narrator reads no repository and writes no facts.
        guard let facts = try await journaling.recorded(day), !facts.isEmpty else { break }
        if let sentence = await narrator.sentence(for: facts, calendar: calendar) {
          // Attached only if the file still holds these facts; otherwise narrate the newer ones.
          if try await journaling.attach(sentence, to: facts) { break }
          round += 1
          continue
        }
        // The server failed: wait out the pause and try again, so the sentence comes once the server is
        // back, without another commit. A rejected sentence (no pause) is not retried.
        guard retries < Self.maximumRetries, let wait = narrator.pauseRemaining() else { break }
        retries += 1
        try? await Task.sleep(nanoseconds: UInt64((wait + 0.25) * 1_000_000_000))
      }
    }
    return ExitStatus.success
  }
}
