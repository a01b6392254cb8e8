import Foundation

/// Recomputes days from the repositories and writes their files: the path shared by `rebuild`, `narrate`
/// and the hook. A sentence goes into a file only when one is cached for exactly these facts.
public struct JournalUpdater: Sendable {
  public let configuration: Configuration
  public let store: JournalStore
  let cacheDirectory: String
  let now: @Sendable () -> Date
  /// Looks up the cached sentence for a day's facts; nil when the model is off.
  let cachedSentence: (@Sendable (DayFacts) -> String?)?

  public init(configuration: Configuration, environment: Environment) {
    self.configuration = configuration
    self.cacheDirectory = environment.cacheDirectory
    self.now = environment.now
    self.store = JournalStore(
      directory: configuration.journalDirectory, lockPath: environment.stateDirectory + "/journal.lock")
    if configuration.narrative.engine == .off {
      cachedSentence = nil
    } else {
      let cache = SentenceCache(cacheDirectory: environment.cacheDirectory, settings: configuration.narrative)
      let calendar = configuration.calendar
      cachedSentence = { facts in
        // A signature costs more than writing the page: none is computed while there is no sentence at all.
        guard !facts.isEmpty, cache.hasSentences else { return nil }
        return cache.sentence(signature: facts.signature(calendar: calendar))
      }
    }
  }

  public struct WrittenDay: Sendable {
    public let facts: DayFacts
    public let narrative: String?
    public let outcome: JournalStore.Outcome
  }

  public struct Report: Sendable {
    /// Oldest first; days with nothing to write are left out.
    public var written: [WrittenDay]
    public var skipped: [SkippedRepository]
  }

  /// Refreshes a few days (the hook, `narrate`): the repositories are read and the files written while
  /// holding the journal lock, so two processes never write facts older than what the other saw.
  public func refresh(days: [Day]) async throws -> Report {
    try await store.withLock {
      let collected = await collect(days: days, allAuthors: false, reusesWindows: true)
      return Report(written: try writeAll(collected.days, holdingLock: true), skipped: collected.skipped)
    }
  }

  /// Rewrites a range of days (`rebuild`): the repositories are read once without the lock, so a long
  /// rebuild never makes a commit wait; the day that is still taking commits is read again under the lock.
  public func update(
    days: [Day], allAuthors: Bool, onWritten: (@Sendable () -> Void)? = nil,
    shouldStop: @Sendable () -> Bool = { false }
  ) async throws -> Report {
    let collected = await collect(days: days, allAuthors: allAuthors)
    var facts = collected.days
    let today = configuration.calendar.day(containing: now())
    if !allAuthors, facts[today] != nil {
      let current = try await refresh(days: [today])
      facts[today] = nil
      onWritten?()
      let written = try writeAll(facts, holdingLock: false, onWritten: onWritten, shouldStop: shouldStop)
      return Report(
        written: (written + current.written).sorted { $0.facts.day < $1.facts.day }, skipped: collected.skipped)
    }
    let written = try writeAll(facts, holdingLock: false, onWritten: onWritten, shouldStop: shouldStop)
    return Report(written: written, skipped: collected.skipped)
  }

  /// `reusesWindows`: see `FactsCollector.reusesWindows` (the hook and `narrate`, not `rebuild`).
  public func collect(days: [Day], allAuthors: Bool, reusesWindows: Bool = false) async -> FactsCollector.Result {
    await FactsCollector(
      configuration: configuration, allAuthors: allAuthors, cacheDirectory: cacheDirectory,
      reusesWindows: reusesWindows
    ).collect(days: days)
  }

  /// Writes one day's facts, with the cached sentence when there is one.
  public func write(_ facts: DayFacts) throws(SystemError) -> WrittenDay {
    try write(facts, holdingLock: false)
  }

  /// Writes days oldest first; stops between two files when `shouldStop` says so. Many days are written as a
  /// batch: new files are synced together at the end.
  private func writeAll(
    _ days: [Day: DayFacts], holdingLock: Bool, onWritten: (@Sendable () -> Void)? = nil,
    shouldStop: () -> Bool = { false }
  ) throws(SystemError) -> [WrittenDay] {
    let durability: JournalStore.Durability = days.count > 1 ? .batched : .immediate
    defer { if durability == .batched { store.syncAll() } }
    var written: [WrittenDay] = []
    for day in days.keys.sorted() {
      if shouldStop() { break }
      let result = try write(days[day]!, holdingLock: holdingLock, durability: durability)
      if result.outcome != .nothingToWrite { written.append(result) }
      onWritten?()
    }
    return written
  }

  private func write(
    _ facts: DayFacts, holdingLock: Bool, durability: JournalStore.Durability = .immediate
  ) throws(SystemError) -> WrittenDay {
    let narrative = cachedSentence?(facts)
    let page = JournalPage(facts: facts, narrative: narrative, calendar: configuration.calendar)
    let outcome =
      holdingLock
      ? try store.writeHoldingLock(page, for: facts.day, isEmpty: facts.isEmpty, durability: durability)
      : try store.write(page, for: facts.day, isEmpty: facts.isEmpty, durability: durability)
    return WrittenDay(facts: facts, narrative: narrative, outcome: outcome)
  }
}
