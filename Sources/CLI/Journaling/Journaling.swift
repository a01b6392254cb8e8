import Facts
import Foundation
import Journal
import Narrative
import Support

/// The journal as the commands use it: facts read from the repositories (`FactsReader`), files written from
/// those facts and the cached sentence (`JournalWriter`). Each step is its own target; this only joins them.
struct Journaling: Sendable {
  let configuration: Configuration
  let reader: FactsReader
  let writer: JournalWriter
  /// Sentences the model already wrote, by facts signature; nil when the model is off.
  let sentences: SentenceCache?
  let now: @Sendable () -> Date

  init(configuration: Configuration, environment: Environment) {
    self.configuration = configuration
    reader = FactsReader(sources: configuration.factsSources(cacheDirectory: environment.cacheDirectory))
    writer = JournalWriter(
      store: JournalStore(
        directory: configuration.journalDirectory, lockPath: environment.stateDirectory + "/journal.lock"),
      calendar: configuration.calendar)
    sentences =
      configuration.narrative.engine == .off
      ? nil : SentenceCache(cacheDirectory: environment.cacheDirectory, settings: configuration.narrative)
    now = environment.now
  }

  var store: JournalStore { writer.store }

  /// The cached sentence for exactly these facts, if the model wrote one.
  func sentence(for facts: DayFacts) -> String? {
    // A signature costs more than writing the page: none is computed while there is no sentence at all.
    guard let sentences, !facts.isEmpty, sentences.hasSentences else { return nil }
    return sentences.sentence(signature: facts.signature(calendar: configuration.calendar))
  }

  struct Report: Sendable {
    /// Oldest first; days with nothing to write are left out.
    var written: [JournalWriter.WrittenDay]
    var skipped: [SkippedRepository]
  }

  /// The facts of some days, without writing anything (`show`, `stats`, `doctor`).
  func read(days: [Day], policy: ReadPolicy) async -> FactsReader.Reading {
    await reader.read(days: days, policy: policy)
  }

  /// Refreshes a few days (the hook): the repositories are read and the files written while holding the
  /// journal lock, so two processes never write facts older than what the other saw.
  func refresh(days: [Day]) async throws -> Report {
    try await store.locked { locked in
      let reading = await reader.read(days: days, policy: .hook)
      var written: [JournalWriter.WrittenDay] = []
      for day in reading.days.keys.sorted() {
        let facts = reading.days[day]!
        let result = try writer.write(facts, sentence: sentence(for: facts), in: locked)
        if result.outcome != .nothingToWrite { written.append(result) }
      }
      return Report(written: written, skipped: reading.skipped)
    }
  }

  /// Rewrites a range of days (`rebuild`): the repositories are read once without the lock, so a long
  /// rebuild never makes a commit wait; the day that is still taking commits is read again under the lock.
  func rebuild(
    days: [Day], policy: ReadPolicy, onWritten: (@Sendable () -> Void)? = nil,
    shouldStop: @Sendable () -> Bool = { false }
  ) async throws -> Report {
    let reading = await reader.read(days: days, policy: policy)
    var facts = reading.days
    var written: [JournalWriter.WrittenDay] = []
    let today = configuration.calendar.day(containing: now())
    if !policy.allAuthors, facts[today] != nil {
      written += try await refresh(days: [today]).written
      facts[today] = nil
      onWritten?()
    }
    // Many days are written as a batch: new files are synced together at the end.
    let durability: JournalStore.Durability = facts.count > 1 ? .batched : .immediate
    defer { if durability == .batched { store.syncAll() } }
    for day in facts.keys.sorted() {
      if shouldStop() { break }
      let dayFacts = facts[day]!
      let result = try writer.write(dayFacts, sentence: sentence(for: dayFacts), durability: durability)
      if result.outcome != .nothingToWrite { written.append(result) }
      onWritten?()
    }
    return Report(written: written.sorted { $0.facts.day < $1.facts.day }, skipped: reading.skipped)
  }
}
