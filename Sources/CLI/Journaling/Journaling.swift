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
      calendar: configuration.calendar, pages: configuration.pages)
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
    /// Projects kept from a day's record because their repository was not read now.
    var carried: [Day: [ProjectFacts]] = [:]
  }

  /// The facts of some days, without writing anything (`show`, `stats`, `doctor`).
  func read(days: [Day], policy: ReadPolicy) async -> FactsReader.Reading {
    await reader.read(days: days, policy: policy)
  }

  /// The facts a refresh would write for `day` now, without writing them: read from the repositories, with what
  /// the day's record keeps of repositories not read now. What `show` prints, so that it agrees with the file.
  func current(_ day: Day, policy: ReadPolicy) async -> (facts: DayFacts, skipped: [SkippedRepository]) {
    let (range, skipped) = await current(from: day, through: day, policy: policy)
    return (range.days.first ?? DayFacts(day: day, projects: []), skipped)
  }

  /// `current` for every day from `first` through `last`, the repositories read once for all of them.
  func current(from first: Day, through last: Day, policy: ReadPolicy) async -> (
    facts: RangeFacts, skipped: [SkippedRepository]
  ) {
    let days = first.through(last)
    let reading = await reader.read(days: days, policy: policy)
    let facts = days.map { day in
      let read = reading.days[day] ?? DayFacts(day: day, projects: [])
      return policy.allAuthors ? read : read.keeping(store.record(of: day), readPaths: reading.readPaths).facts
    }
    return (RangeFacts(first: first, last: last, days: facts), reading.skipped)
  }

  /// Refreshes a few days (the hook): the repositories are read and the files written while holding the
  /// journal lock, so two processes never write facts older than what the other saw.
  func refresh(days: [Day]) async throws -> Report {
    try await store.locked { locked in
      let reading = await reader.read(days: days, policy: .hook)
      var report = Report(written: [], skipped: reading.skipped)
      for day in reading.days.keys.sorted() {
        try write(reading.days[day]!, readPaths: reading.readPaths, in: locked, durability: .immediate, into: &report)
      }
      return report
    }
  }

  /// Rewrites a range of days (`rebuild`): the repositories are read once without the lock, so a long
  /// rebuild never makes a commit wait. Each day is then written under the lock; a day whose record a hook
  /// wrote since this read began is read again there, so a rebuild never puts older facts over newer ones.
  func rebuild(
    days: [Day], policy: ReadPolicy, onWritten: (@Sendable () -> Void)? = nil,
    shouldStop: @Sendable () -> Bool = { false }
  ) async throws -> Report {
    let started = Date()
    let reading = await reader.read(days: days, policy: policy)
    var report = Report(written: [], skipped: reading.skipped)
    // Many days are written as a batch: new files are synced together at the end.
    let durability: JournalStore.Durability = reading.days.count > 1 ? .batched : .immediate
    defer { if durability == .batched { store.syncAll() } }
    // The days' links come from one listing of the folder, with the days about to get a file.
    let pages = writer.pages
    var daysWithFiles: [Day]?
    if pages.links {
      let listed = store.daysWithFiles()
      let written = reading.days.values.filter { !$0.isEmpty }.map(\.day)
      daysWithFiles = Set(listed + written).sorted()
    }
    for day in reading.days.keys.sorted() {
      if shouldStop() { break }
      report = try await store.locked { [report] locked in
        var report = report
        var facts = reading.days[day]!
        var readPaths = reading.readPaths
        if let written = locked.recordModificationTime(of: day), written >= started {
          let again = await reader.read(days: [day], policy: policy)
          facts = again.days[day] ?? facts
          readPaths = again.readPaths
        }
        try write(
          facts, readPaths: readPaths, in: locked, durability: durability, daysWithFiles: daysWithFiles,
          refreshingPeriods: false, into: &report)
        return report
      }
      onWritten?()
    }
    let rebuilt = report.written.map(\.facts.day)
    if !rebuilt.isEmpty, pages.links || pages.weekly || pages.monthly {
      try await store.locked { locked in
        // The weeks and months of the days written, each once; and the files just outside the range.
        try writer.writePeriods(containing: rebuilt, in: locked, durability: durability)
        if let daysWithFiles, let first = rebuilt.first, let last = rebuilt.last {
          try writer.relink(first, links: writer.dayLinks(of: first, among: daysWithFiles), in: locked)
          try writer.relink(last, links: writer.dayLinks(of: last, among: daysWithFiles), in: locked)
        }
      }
    }
    return report
  }

  /// Writes one day from facts read now and the day's record, with the cached sentence for the result.
  private func write(
    _ read: DayFacts, readPaths: Set<String>, in locked: LockedJournalStore, durability: JournalStore.Durability,
    daysWithFiles: [Day]? = nil, refreshingPeriods: Bool = true, into report: inout Report
  ) throws(SystemError) {
    let recorded = locked.record(of: read.day)
    let (facts, carried) = read.keeping(recorded, readPaths: readPaths)
    let written = try writer.write(
      facts, sentence: sentence(for: facts), in: locked, durability: durability, recorded: .some(recorded),
      daysWithFiles: daysWithFiles, refreshingPeriods: refreshingPeriods)
    if written.outcome != .nothingToWrite { report.written.append(written) }
    if !carried.isEmpty { report.carried[read.day] = carried }
  }

  /// Puts `sentence`, written for `facts`, into the day's file if the file still holds exactly those facts;
  /// does nothing when it has moved on (a commit, a rebuild or a config change since). Returns whether it did.
  /// Repositories are not read: the narrator only ever decorates what is already written.
  func attach(_ sentence: String, to facts: DayFacts) async throws -> Bool {
    let calendar = configuration.calendar
    let signature = facts.signature(calendar: calendar)
    return try await store.locked { locked in
      guard let recorded = locked.record(of: facts.day), recorded.signature(calendar: calendar) == signature else {
        return false
      }
      try writer.write(recorded, sentence: sentence, in: locked)
      return true
    }
  }

  /// Erases every commit of the repository at `path` from this machine's day records and rewrites those days'
  /// files; returns the days that changed. The user's text in the files is kept.
  func forget(path: String) async throws -> [Day] {
    try await store.locked { locked in
      var changed: [Day] = []
      for day in locked.recordedDays() {
        guard let recorded = locked.record(of: day), recorded.projects.contains(where: { $0.path == path }) else {
          continue
        }
        let facts = DayFacts(day: day, projects: recorded.projects.filter { $0.path != path })
        try writer.write(facts, sentence: sentence(for: facts), in: locked)
        changed.append(day)
      }
      return changed
    }
  }

  /// The facts this machine last wrote for `day`, or nil.
  func recorded(_ day: Day) async throws -> DayFacts? {
    try await store.locked { locked in locked.record(of: day) }
  }
}
