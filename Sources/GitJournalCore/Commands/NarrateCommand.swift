/// `gitjournal narrate`: asks the model for the sentence of some days and rewrites their files. The hook
/// starts it in the background; it can be run by hand too.
struct NarrateCommand: Command {
  static let spec = CommandSpec(
    name: "narrate", abstract: "Add the model's sentence to days that lack one (the hook runs this in the background).",
    usage: "narrate [<day>...]",
    discussion: """
      Only one narrator runs at a time; others wait for it. When commits arrive while a sentence is being \
      written, the newest facts are narrated before it exits. With no day, today.
      """,
    examples: ["gitjournal narrate", "gitjournal narrate yesterday"])

  /// More rounds than this means commits keep arriving faster than the model writes: the next hook starts
  /// another narrator.
  static let maximumRounds = 5

  let dayArguments: [String]

  init(_ arguments: ParsedArguments) throws(UsageError) {
    dayArguments = arguments.positionals
  }

  func run(_ context: CommandContext) async throws -> Int32 {
    let environment = context.environment
    let configuration = try Configuration.load(environment)
    let calendar = configuration.calendar
    let today = calendar.day(containing: Int64(environment.now().timeIntervalSince1970))
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

    let updater = JournalUpdater(configuration: configuration, environment: environment)
    for day in Set(days).sorted(by: >) {
      for _ in 0..<Self.maximumRounds {
        let report = try await updater.refresh(days: [day])
        guard let written = report.written.first, !written.facts.isEmpty, written.narrative == nil else { break }
        // The sentence lands in the cache; the next round writes it, or narrates newer facts.
        guard await narrator.sentence(for: written.facts, calendar: calendar) != nil else { break }
      }
    }
    return ExitStatus.success
  }
}
