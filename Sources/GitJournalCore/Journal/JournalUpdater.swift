/// Recomputes days from the repositories and writes their files: the path shared by `rebuild` and the hook.
public struct JournalUpdater: Sendable {
  public let configuration: Configuration
  public let store: JournalStore
  let cacheDirectory: String

  public init(configuration: Configuration, environment: Environment) {
    self.configuration = configuration
    self.cacheDirectory = environment.cacheDirectory
    self.store = JournalStore(
      directory: configuration.journalDirectory, lockPath: environment.stateDirectory + "/journal.lock")
  }

  public struct WrittenDay: Sendable {
    public let facts: DayFacts
    public let outcome: JournalStore.Outcome
  }

  public struct Report: Sendable {
    /// Oldest first; days with nothing to write are left out.
    public var written: [WrittenDay]
    public var skipped: [SkippedRepository]
  }

  /// Collects `days` (every repository walked once) and writes each day that has commits or a file.
  public func update(days: [Day], allAuthors: Bool) async throws(SystemError) -> Report {
    let collected = await FactsCollector(
      configuration: configuration, allAuthors: allAuthors, cacheDirectory: cacheDirectory
    ).collect(days: days)
    let calendar = configuration.calendar
    var written: [WrittenDay] = []
    for day in collected.days.keys.sorted() {
      let facts = collected.days[day]!
      let page = JournalPage(facts: facts, narrative: nil, calendar: calendar)
      let outcome = try store.write(page, for: day, isEmpty: facts.isEmpty)
      if outcome != .nothingToWrite { written.append(WrittenDay(facts: facts, outcome: outcome)) }
    }
    return Report(written: written, skipped: collected.skipped)
  }
}
