import Facts
import GitReader
import Journal
import Narrative
import Support

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The journal as the commands use it: facts read from the repositories (`FactsReader`), files written from
/// those facts and the cached sentence (`JournalWriter`). Each step is its own target; this only joins them.
///
/// By job, one file each: here the hook's refresh and the reads the views make; `Journaling+Rebuild.swift` the
/// threaded rebuild and its page stamps; `Journaling+Sentences.swift` finding and attaching the model's sentences;
/// `Journaling+Records.swift` what the journal recorded, and forgetting a repository.
struct Journaling: Sendable {
  let configuration: Configuration
  let reader: FactsReader
  let writer: JournalWriter
  /// Sentences the model already wrote, by facts signature; nil when the model is off.
  let sentences: SentenceCache?
  let now: @Sendable () -> Date
  /// This machine's folder of caches kept for speed (`~/.cache/gitjournal`), or nil when they are off
  /// (`Environment.speedCacheDirectory`).
  let cacheDirectory: String?

  init(configuration: Configuration, environment: Environment) {
    self.configuration = configuration
    cacheDirectory = environment.speedCacheDirectory
    reader = FactsReader(sources: configuration.factsSources(cacheDirectory: environment.speedCacheDirectory))
    var writer = JournalWriter(
      store: JournalStore(
        directory: configuration.journalDirectory, lockPath: environment.stateDirectory + "/journal.lock",
        host: configuration.host,
        recordsFolder: configuration.shareFacts ? nil : environment.stateDirectory + "/records"),
      calendar: configuration.calendar, pages: configuration.pages)
    writer.now = environment.now
    self.writer = writer
    sentences =
      configuration.narrative.engine == .off
      ? nil : SentenceCache(cacheDirectory: environment.cacheDirectory, settings: configuration.narrative)
    now = environment.now
  }

  var store: JournalStore { writer.store }

  struct Report: Sendable {
    /// Oldest first; days with nothing to write are left out.
    var written: [JournalWriter.WrittenDay]
    /// The week and month pages a rebuild wrote at its end, oldest first (the hook's are in `written`).
    var periods: [JournalWriter.WrittenPeriod] = []
    var skipped: [SkippedRepository]
    /// Projects kept from a day's record because their repository was not read now.
    var carried: [Day: [ProjectFacts]] = [:]
    /// Projects whose day record had them under another name (`repos rename`), by the names written now: the
    /// old names and how many days' files now have the new one.
    var renamed: [String: (from: Set<String>, days: Int)] = [:]
    /// Pages (days, weeks, months) a rebuild found as it would write them without reading them (see `PageStamps`).
    var pagesLeftAlone = 0
    /// Days whose record a rebuild took as the last rebuild found it, without reading it (see `PageStamps.recordHolds`).
    var recordsTakenAsHeld = 0
    /// Why each page a rebuild could not write was not written, in the order of the pages; the others were written.
    var unwritten: [SystemError] = []

    /// Adds the report of later days.
    mutating func add(_ later: Report) {
      written += later.written
      periods += later.periods
      skipped += later.skipped
      carried.merge(later.carried) { $1 }
      pagesLeftAlone += later.pagesLeftAlone
      recordsTakenAsHeld += later.recordsTakenAsHeld
      unwritten += later.unwritten
      for (name, rename) in later.renamed {
        let seen = renamed[name] ?? (from: [], days: 0)
        renamed[name] = (seen.from.union(rename.from), seen.days + rename.days)
      }
    }
  }

  /// The facts of some days, without writing anything (`show`, `stats`, `doctor`).
  func read(days: [Day], policy: ReadPolicy) async -> FactsReader.Reading {
    await reader.read(days: days, policy: policy)
  }

  /// The facts a refresh would write for `day` now, without writing them: read from the repositories, with what
  /// the day's record keeps of repositories not read now, joined with the other machines' records. What `show`
  /// prints, so that it agrees with the file. `host`: that machine's share only (this machine's: what it reads
  /// and keeps; another's: its records).
  func current(_ day: Day, policy: ReadPolicy, host: String? = nil) async -> (
    facts: DayFacts, skipped: [SkippedRepository]
  ) {
    let (range, skipped) = await current(from: day, through: day, policy: policy, host: host)
    return (range.days.first ?? DayFacts(day: day, projects: []), skipped)
  }

  /// `current` for every day from `first` through `last`, the repositories read once for all of them. With
  /// `--all-authors` (`policy.allAuthors`) the facts are this machine's repositories read now: records hold only
  /// the journal's authors.
  func current(from first: Day, through last: Day, policy: ReadPolicy, host: String? = nil) async -> (
    facts: RangeFacts, skipped: [SkippedRepository]
  ) {
    let days = first.through(last)
    if let host, host != store.host {
      let facts = days.map { store.record(of: $0, host: host) ?? DayFacts(day: $0, projects: []) }
      return (RangeFacts(first: first, last: last, days: facts), [])
    }
    let reading = await reader.read(days: days, policy: policy)
    let facts = days.map { day in
      let read = reading.days[day] ?? DayFacts(day: day, projects: [])
      if policy.allAuthors { return read }
      let own = read.keeping(store.record(of: day), readPaths: reading.readPaths).facts
      return host == nil ? store.recordedFacts(of: day, own: own) : own
    }
    return (RangeFacts(first: first, last: last, days: facts), reading.skipped)
  }

  /// Throws when `host` (`--host`) names no machine whose records are in the journal, nor this one.
  func checkHost(_ host: String?) throws(UnknownHostError) {
    guard let host, host != store.host else { return }
    let known = store.hosts()
    guard known.contains(host) else {
      throw UnknownHostError(host: host, known: known, journalDirectory: configuration.journalDirectory)
    }
  }

  /// Refreshes a few days (the hook): the repositories are read and the files written while holding the
  /// journal lock, so two processes never write facts older than what the other saw. `likelyMoved`: see
  /// `ReadPolicy`.
  func refresh(days: [Day], likelyMoved: [String] = []) async throws -> Report {
    try await store.locked { locked in
      var policy = ReadPolicy.hook
      policy.likelyMoved = likelyMoved
      let reading = await reader.read(days: days, policy: policy)
      var report = Report(written: [], skipped: reading.skipped)
      for day in reading.days.keys.sorted() {
        try write(reading.days[day]!, readPaths: reading.readPaths, in: locked, durability: .immediate, into: &report)
      }
      return report
    }
  }

  /// Writes one day from facts read now and the day's record, with the cached sentence for the result; returns the
  /// facts this machine's record now holds (those read, with what the record kept of repositories not read now).
  /// `recorded`: the day's record as the caller read it under this lock, else read here.
  @discardableResult
  func write(
    _ read: DayFacts, readPaths: Set<String>, in locked: LockedJournalStore, durability: JournalStore.Durability,
    daysWithFiles: [Day]? = nil, refreshingPeriods: Bool = true, recorded known: KnownRecord = .unread,
    into report: inout Report
  ) throws(SystemError) -> DayFacts {
    let recorded: DayFacts?
    switch known {
    case .unread: recorded = locked.record(of: read.day)
    case .absent: recorded = nil
    case .read(let facts): recorded = facts
    }
    let (facts, carried) = read.keeping(recorded, readPaths: readPaths)
    let written = try writer.write(
      facts, sentence: { sentence(for: $0, sharing: true) }, periodSentence: { sentence(for: $0, sharing: true) },
      in: locked, durability: durability, recorded: KnownRecord(recorded), daysWithFiles: daysWithFiles,
      refreshingPeriods: refreshingPeriods)
    if written.outcome != .nothingToWrite { report.written.append(written) }
    if !carried.isEmpty { report.carried[read.day] = carried }
    if let recorded, written.outcome != .nothingToWrite {
      for project in facts.projects {
        let old = Set(recorded.projects.filter { $0.path == project.path && $0.name != project.name }.map(\.name))
        guard !old.isEmpty else { continue }
        let seen = report.renamed[project.name] ?? (from: [], days: 0)
        report.renamed[project.name] = (seen.from.union(old), seen.days + 1)
      }
    }
    return facts
  }

}
