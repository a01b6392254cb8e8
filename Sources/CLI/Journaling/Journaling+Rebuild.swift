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

/// `rebuild`: many days read at once, written by several threads in day order, with the pages and records a
/// former rebuild left as they are recognised by their stamps (`PageStamps`) instead of being read again.
extension Journaling {
  /// Rewrites a range of days (`rebuild`): the repositories are read once without the lock, so a long
  /// rebuild never makes a commit wait. Each day is then written under the lock; a day whose record a hook
  /// wrote since this read began is read again there, so a rebuild never puts older facts over newer ones.
  /// `onRead` gets the number of days with commits once the repositories are read, and `onWritten` is called as
  /// each of those is written (the progress of a long rebuild). The days are written on `writers` threads; a day
  /// that cannot be written is in the report's `unwritten`, and the others are written all the same.
  func rebuild(
    days: [Day], policy: ReadPolicy, onRead: (@Sendable (Int) -> Void)? = nil, onWritten: (@Sendable () -> Void)? = nil,
    shouldStop: @escaping @Sendable () -> Bool = { false }, writers: Int = Journaling.rebuildWriters
  ) async throws -> Report {
    let started = Date()
    // What the journal folder holds is looked at while the repositories are read.
    let listing = SideResult { [self] in journalListing() }
    let reading = await reader.read(days: days, policy: policy)
    onRead?(reading.days.values.count { !$0.isEmpty })
    var report = Report(written: [], skipped: reading.skipped)
    // Many days are written as a batch: new files are synced together at the end.
    let durability: JournalStore.Durability = reading.days.count > 1 ? .batched : .immediate
    var synced = false
    defer { if durability == .batched && !synced { store.syncAll() } }
    let pages = writer.pages
    let (listed, daysWithPageOrRecord, lastStamps) = listing.value()
    var stamps = lastStamps
    // The days' links come from one listing of the folder, with the days about to get a file.
    var daysWithFiles: [Day]?
    if let listed {
      let written = reading.days.values.filter { !$0.isEmpty }.map(\.day)
      daysWithFiles = Set(listed + written).sorted()
    }
    // The stamps of the records the days' pages were made from, for their weeks' and months' pages.
    var recordStamps: [Day: PageStamps.Stamp?] = [:]
    // One string for the folder of every record's source (see `PageStamps.Source`).
    let recordFolder = store.recordFolder
    var days = reading.days.keys.sorted()[...]
    while !days.isEmpty && !shouldStop() {
      // Each run of days' part of the report is made under the lock and added here: a report captured by the
      // closure would be copied with every day written before it (quadratic in the days of a long rebuild).
      let part = try await store.locked { locked in
        var part = Report(written: [], skipped: [])
        // The lock is held for a run of days up to `lockHold`, not for the whole rebuild: a commit's hook waits
        // at most that long for it. Taking it for each day of a second rebuild cost 5 calls to the kernel per day.
        let runEnds = Date() + Self.lockHold
        let run = RebuildRun(
          locked: locked, reading: reading, started: started, daysWithPageOrRecord: daysWithPageOrRecord,
          stamps: lastStamps, daysWithFiles: daysWithFiles, durability: durability,
          // The folders of the pages and of this machine's records, opened for the run: their files are looked at
          // by name. Whether the sentence cache has any sentence, looked at once for the run, not once per page.
          records: locked.openRecordFolder(), pageFolder: OpenFolder(store.directory),
          hasCachedSentences: sentences?.hasSentences ?? false)
        let runDays = days
        // The days are made and written on a few threads (each its own files); what they found is then taken into
        // the report and the stamps here, in day order, so the result is the one a single thread gives.
        let outcomes = InOrderWork.map(
          count: runDays.count, threads: writers, while: { !shouldStop() && Date() < runEnds }
        ) { offset in
          rebuildDay(runDays[runDays.startIndex + offset], in: run)
        }
        days.removeFirst(outcomes.count)
        for (offset, outcome) in outcomes.enumerated() {
          let day = runDays[runDays.startIndex + offset]
          var made = outcome
          if case .readAgain(let recorded, let stamp) = outcome {
            // A hook wrote the day's record since the read began: its facts are read again, under this lock.
            let again = await reader.read(days: [day], policy: policy)
            made = rebuildDay(
              day, facts: again.days[day] ?? reading.days[day]!, readPaths: again.readPaths, recorded: recorded,
              recordStamp: stamp, factsDigest: nil, in: run)
          }
          if !(reading.days[day]?.isEmpty ?? true) { onWritten?() }
          switch made {
          case .skipped, .readAgain: continue
          case .failed(let error): part.unwritten.append(error)
          case .made(let dayPart, let page):
            part.add(dayPart)
            let source = PageStamps.Source(folder: recordFolder, name: store.recordName(of: day))
            switch page {
            case .none: break
            case .leftAlone(let stamp, let held):
              recordStamps[day] = stamp
              stamps?.keep(day.description, sources: [(source, stamp)])
              if let held { stamps?.noteHeld(day, file: source, record: stamp, factsDigest: held) }
            case .made(let stamp, let inputs, let held):
              recordStamps[day] = stamp
              stamps?.note(
                day.description, pagePath: store.path(of: day), inputs: inputs, sources: [(source, stamp)])
              if let stamp, let held { stamps?.noteHeld(day, file: source, record: stamp, factsDigest: held) }
            }
          }
        }
        return part
      }
      report.add(part)
    }
    let rebuilt = report.written.map(\.facts.day)
    if durability == .batched && !rebuilt.isEmpty { store.startSyncingAll() }
    if !rebuilt.isEmpty, pages.links || pages.weekly || pages.monthly {
      let made = try await store.locked { locked in
        // The weeks and months of the days written, each once; and the files just outside the range.
        // The days just written are not read back from their records.
        let written = Dictionary(report.written.map { ($0.facts.day, $0.facts) }, uniquingKeysWith: { $1 })
        var part = Report(written: [], skipped: [])
        do throws(SystemError) {
          if stamps != nil {
            let made = try writePeriods(
              containing: rebuilt, known: written, recordStamps: recordStamps, stamps: &stamps!, in: locked,
              durability: durability)
            part.periods = made.written
            part.pagesLeftAlone += made.leftAlone
          } else {
            part.periods = try writer.writePeriods(
              containing: rebuilt, known: written, sentence: { sentence(for: $0, sharing: true) }, in: locked,
              durability: durability)
          }
        } catch {
          part.unwritten.append(error)
        }
        if let daysWithFiles, let first = rebuilt.first, let last = rebuilt.last {
          for day in Set([first, last]).sorted() {
            do throws(SystemError) {
              try writer.relink(day, links: writer.dayLinks(of: day, among: daysWithFiles), in: locked)
            } catch {
              part.unwritten.append(error)
            }
          }
        }
        return part
      }
      report.add(made)
    }
    if durability == .batched {
      store.syncAll()
      synced = true
      // The pages written last are too recent for their stamps to be kept (`PageStamps.Stamp.isRacy`), and the next
      // rebuild would make every one of them again: after a cold rebuild, most of the weeks and months. With the
      // files synced, what is left of that tenth of a second is waited out.
      if let delay = stamps?.settlingDelay(now: Date()) { try? await Task.sleep(for: .seconds(delay)) }
    }
    stamps?.save(pageFolder: store.directory, now: Date())
    removeFormerPageStamps()
    return report
  }

  /// What a rebuild needs to know of the journal folder before it writes: the days with a page (when pages link to
  /// each other), the days with a page or a record, and what the last rebuild left (`PageStamps`).
  private func journalListing() -> (daysWithFiles: [Day]?, daysWithPageOrRecord: Set<Day>?, stamps: PageStamps?) {
    let daysWithFiles = writer.pages.links ? store.daysWithFiles() : nil
    // Listed once: a day without commits is skipped at once when no machine has a record of it and it has no file.
    let machines = store.recordingMachines()
    let daysWithPageOrRecord = store.daysWithPageOrRecord(machines: machines)
    // A page made from this machine's record alone is left alone when its record, its file, its links and its
    // sentence are as the last rebuild left them (see `PageStamps`). With other machines' records, or forgotten
    // commits, every page is made again.
    let stamps = store.isOnlyMachine(among: machines) ? pageStamps() : nil
    return (daysWithFiles, daysWithPageOrRecord, stamps)
  }

  /// Threads that write a rebuild's days: the machine's cores, a handful at most (the writes are short, and a day's
  /// record and page are its own files).
  static var rebuildWriters: Int { min(ProcessResources.activeProcessorCount, 4) }

  /// What every day of a rebuild's run of days under the lock is made from, shared by the threads that write them.
  private struct RebuildRun: Sendable {
    let locked: LockedJournalStore
    let reading: FactsReader.Reading
    let started: Date
    /// The days with a page or a record, as listed when the rebuild began (nil: unknown, each is looked at).
    let daysWithPageOrRecord: Set<Day>?
    /// What the last rebuild left, as read: the stamps this rebuild notes are kept apart (a copy here of the ones
    /// noted so far was copied again at each day noted while the run lived, and freed with it).
    let stamps: PageStamps?
    let daysWithFiles: [Day]?
    let durability: JournalStore.Durability
    let records: OpenFolder
    let pageFolder: OpenFolder
    let hasCachedSentences: Bool
  }

  /// What became of one day of a rebuild.
  private enum DayOutcome: Sendable {
    /// No commits, and no file or record of it to update.
    case skipped
    /// A hook wrote this machine's record of the day since the repositories were read: read them again first.
    /// `recorded`: that record.
    case readAgain(recorded: DayFacts?, stamp: FileStamp?)
    /// The day's part of the report, and what its page is made from when the rebuild keeps stamps.
    case made(Report, page: PageMade)
    case failed(SystemError)
  }

  /// What a rebuild keeps in its stamps of a day's page (see `PageStamps`). `held`: the digest of the facts read for
  /// the day when the record of that stamp holds exactly them (`PageStamps.recordHolds`).
  private enum PageMade: Sendable {
    /// Nothing: no stamps kept, or no page.
    case none
    /// The page was as it would be made, from the record of this stamp.
    case leftAlone(PageStamps.Stamp, held: String?)
    /// The page was made from the record of this stamp, with these inputs.
    case made(PageStamps.Stamp?, inputs: PageStamps.Inputs, held: String?)
  }

  /// A day of a rebuild as read when it began: left out when it has nothing, read again when a hook wrote its record
  /// since, else made and written. Runs on any of the rebuild's writing threads.
  private func rebuildDay(_ day: Day, in run: RebuildRun) -> DayOutcome {
    if run.reading.days[day]?.isEmpty ?? true, run.daysWithPageOrRecord?.contains(day) == false {
      return .skipped
    }
    let facts = run.reading.days[day]!
    // This machine's record of the day, read once: whether a hook wrote it since, whether the page is as it
    // was made from it, and what the write builds on. A record the last rebuild found holding these very facts,
    // unchanged since, holds them still: it is not read (a second rebuild spent half its time reading records).
    let factsDigest = run.stamps.flatMap { _ in PageStamps.factsDigest(of: facts) }
    let (recorded, recordStamp): (DayFacts?, FileStamp?)
    var isTakenAsHeld = false
    if let stamps = run.stamps, let factsDigest, let stamp = run.records.stamp(of: store.recordName(of: day)),
      stamps.recordHolds(day, record: PageStamps.Stamp(stamp), factsDigest: factsDigest)
    {
      (recorded, recordStamp) = (facts, stamp)
      isTakenAsHeld = true
    } else {
      (recorded, recordStamp) = run.locked.stampedRecord(of: day, in: run.records, expecting: facts)
    }
    if let written = recordStamp?.modified, written >= run.started {
      return .readAgain(recorded: recorded, stamp: recordStamp)
    }
    let outcome = rebuildDay(
      day, facts: facts, readPaths: run.reading.readPaths, recorded: recorded, recordStamp: recordStamp,
      factsDigest: factsDigest, in: run)
    guard isTakenAsHeld, case .made(var part, let page) = outcome else { return outcome }
    part.recordsTakenAsHeld += 1
    return .made(part, page: page)
  }

  /// Makes and writes a day of a rebuild from `facts`, read from `readPaths`, and this machine's `recorded` record of
  /// it, of the version `recordStamp` stamps; a page as it would be made is left alone. `factsDigest`: that of
  /// `facts` (`PageStamps.factsDigest(of:)`) when the rebuild keeps stamps, for the record that ends up holding them.
  private func rebuildDay(
    _ day: Day, facts: DayFacts, readPaths: Set<String>, recorded: DayFacts?, recordStamp: FileStamp?,
    factsDigest: String?, in run: RebuildRun
  ) -> DayOutcome {
    var part = Report(written: [], skipped: [])
    let links = run.daysWithFiles.flatMap { writer.dayLinks(of: day, among: $0).line } ?? ""
    if let stamps = run.stamps, let recorded, let recordStamp,
      let kept = unchangedPage(
        facts, recorded: recorded, recordStamp: PageStamps.Stamp(recordStamp), readPaths: readPaths, links: links,
        stamps: stamps, pageFolder: run.pageFolder, hasCachedSentences: run.hasCachedSentences)
    {
      part.written.append(kept.day)
      if !kept.carried.isEmpty { part.carried[day] = kept.carried }
      part.pagesLeftAlone += 1
      let held = recorded == facts ? factsDigest : nil
      return .made(part, page: .leftAlone(PageStamps.Stamp(recordStamp), held: held))
    }
    let own: DayFacts
    do {
      own = try write(
        facts, readPaths: readPaths, in: run.locked, durability: run.durability, daysWithFiles: run.daysWithFiles,
        refreshingPeriods: false, recorded: KnownRecord(recorded), into: &part)
    } catch {
      return .failed(error)
    }
    guard run.stamps != nil, let written = part.written.last, written.facts.day == day else {
      return .made(part, page: .none)
    }
    let stamp = PageStamps.Stamp(path: store.recordPath(of: day))
    let inputs = dayInputs(record: stamp, links: links, sentence: written.sentence)
    // The record holds `own` when it held it before the write, or was written now: under the lock only this write
    // replaces it, so a stamp other than the one read is its. A record unread (damaged) and left as it was holds
    // nothing known.
    let isWritten = stamp != recordStamp.map(PageStamps.Stamp.init)
    let holdsOwn = stamp != nil && (recorded == own || isWritten)
    return .made(part, page: .made(stamp, inputs: inputs, held: holdsOwn && own == facts ? factsDigest : nil))
  }

  /// `JournalWriter.writePeriods` for a rebuild with one machine's records: a week's or a month's page whose days'
  /// records, sentence and file are as the last rebuild left them is left alone (see `PageStamps`).
  /// `recordStamps`: those of the records the days in `known` were made from; the others' are looked at here, once.
  private func writePeriods(
    containing days: [Day], known: [Day: DayFacts], recordStamps: [Day: PageStamps.Stamp?],
    stamps: inout PageStamps, in locked: LockedJournalStore, durability: JournalStore.Durability
  ) throws(SystemError) -> (written: [JournalWriter.WrittenPeriod], leftAlone: Int) {
    var recordStamps = recordStamps
    let pageFolder = OpenFolder(store.directory)
    let hasCachedSentences = sentences?.hasSentences ?? false
    // Listed under the lock, so no hook writes a record meanwhile: the days of these weeks and months without one
    // (most of them, in a long history) are neither read nor looked at. nil (a folder not listed): each is.
    let daysWithRecords = store.daysWithRecords()
    func recordStamp(_ day: Day) -> PageStamps.Stamp? {
      if let known = recordStamps[day] { return known }
      let stamp = daysWithRecords?.contains(day) == false ? nil : PageStamps.Stamp(path: store.recordPath(of: day))
      recordStamps[day] = .some(stamp)
      return stamp
    }
    var read: [Day: DayFacts?] = [:]
    func facts(_ day: Day) -> DayFacts? {
      if let written = known[day] { return written }
      if let recorded = read[day] { return recorded }
      if daysWithRecords?.contains(day) == false { return nil }
      let recorded = locked.recordedFacts(of: day)
      read[day] = .some(recorded)
      return recorded
    }
    var written: [JournalWriter.WrittenPeriod] = []
    var leftAlone = 0
    for period in Set(days.flatMap(writer.periods(containing:))).sorted() {
      let periodFacts = PeriodFacts(period: period, days: period.first.through(period.last).compactMap(facts))
      // Made once: a period's name is written out anew each time it is asked for.
      let name = periodFacts.name
      let path = store.path(ofPage: name)
      let sentence =
        periodFacts.isEmpty
        ? nil : sentence(for: periodFacts, sharing: true, hasCachedSentences: hasCachedSentences)
      let inputs = periodInputs(period, sentence: sentence, recordStamp: recordStamp)
      if stamps.isUnchanged(name, page: PageStamps.Stamp(name + ".md", in: pageFolder), inputs: inputs.inputs),
        !store.hasFilesBeside(page: name)
      {
        written.append(JournalWriter.WrittenPeriod(facts: periodFacts, sentence: sentence, outcome: .unchanged))
        stamps.keep(name, sources: inputs.sources)
        leftAlone += 1
        continue
      }
      let page = try writer.writePeriod(
        periodFacts, sentence: { self.sentence(for: $0, sharing: true) }, in: locked, durability: durability)
      written.append(page)
      if page.outcome != .nothingToWrite {
        let made =
          page.sentence == sentence ? inputs : periodInputs(period, sentence: page.sentence) { recordStamp($0) }
        stamps.note(name, pagePath: path, inputs: made.inputs, sources: made.sources)
      }
    }
    return (written, leftAlone)
  }

  /// The page of a day as it is, when it would be made again byte for byte: this machine's record holds exactly
  /// `read` (and is the version the page was made from), the page file is the version made from it, with the same
  /// `links` and sentence, and no sync tool left a copy of it to merge. Nil when the page must be made.
  /// `recorded`: this machine's record of the day, of the version `recordStamp` stamps.
  /// `pageFolder`: the journal folder, opened; `hasCachedSentences`: whether this machine's cache had a sentence.
  private func unchangedPage(
    _ read: DayFacts, recorded: DayFacts, recordStamp: PageStamps.Stamp, readPaths: Set<String>, links: String,
    stamps: PageStamps, pageFolder: OpenFolder, hasCachedSentences: Bool
  ) -> (day: JournalWriter.WrittenDay, carried: [ProjectFacts])? {
    let day = read.day
    let (facts, carried) = read.keeping(recorded, readPaths: readPaths)
    guard facts == recorded, !store.hasFilesBeside(page: day.description) else { return nil }
    let sentence = sentence(for: recorded, sharing: true, hasCachedSentences: hasCachedSentences)
    let inputs = dayInputs(record: recordStamp, links: links, sentence: sentence)
    guard
      stamps.isUnchanged(
        day.description, page: PageStamps.Stamp(store.fileName(of: day), in: pageFolder), inputs: inputs)
    else { return nil }
    return (JournalWriter.WrittenDay(facts: recorded, sentence: sentence, outcome: .unchanged), carried)
  }

  /// What a day's page is made from besides the calendar and the pages that are on: this machine's record of it (by
  /// stamp; its facts are this record's), its links line and its sentence.
  private func dayInputs(record: PageStamps.Stamp?, links: String, sentence: String?) -> PageStamps.Inputs {
    var inputs = PageStamps.Inputs(kind: "day")
    inputs.add(record)
    inputs.add(links)
    inputs.add(sentence)
    return inputs
  }

  /// What a week's or a month's page is made from besides the calendar and the pages that are on: its days' records
  /// (by stamp) and its sentence.
  private func periodInputs(
    _ period: PeriodFacts.Period, sentence: String?, recordStamp: (Day) -> PageStamps.Stamp?
  ) -> (inputs: PageStamps.Inputs, sources: [(file: PageStamps.Source, stamp: PageStamps.Stamp?)]) {
    let folder = store.recordFolder
    // Made with the labels of the result: an array of unlabelled pairs was converted element by element.
    let sources = period.first.through(period.last).map {
      (file: PageStamps.Source(folder: folder, name: store.recordName(of: $0)), stamp: recordStamp($0))
    }
    var inputs = PageStamps.Inputs(kind: "period")
    for (_, stamp) in sources { inputs.add(stamp) }
    inputs.add(sentence)
    // A running period's page changes as its days begin.
    if let begun = writer.begunThrough(period) { inputs.add("begun through \(begun)") }
    return (inputs, sources)
  }

  /// What a rebuild knows of the pages it left (see `PageStamps`), kept per journal folder and machine; their key is
  /// everything a page is made from besides its day's facts, links and sentence, this very binary included.
  private func pageStamps() -> PageStamps? {
    guard let cacheDirectory else { return nil }
    let binary = PageStamps.Stamp(path: ExecutablePath.current).map { "\($0)" } ?? "unknown"
    let calendar = configuration.calendar
    let key = [
      store.directory, store.host, calendar.timeZone.fingerprint, String(calendar.dayStartMinutes),
      "\(writer.pages)", Version.current, binary,
    ].joined(separator: "\n")
    return PageStamps(path: cacheDirectory + "/pages-v3/" + pageStampsFileName, key: key)
  }

  /// The page stamps' file name, one per journal folder and machine.
  private var pageStampsFileName: String {
    ContentHash.hex(of: store.directory + "\n" + store.host).prefix(16) + ".tsv"
  }

  /// The page stamps in their former format (`pages-v2`, which kept each page's inputs whole), read by no build
  /// since: removed, and their folder once it is empty.
  private func removeFormerPageStamps() {
    guard let cacheDirectory else { return }
    let folder = cacheDirectory + "/pages-v2"
    unlink(folder + "/" + pageStampsFileName)
    rmdir(folder)
  }

  /// How long a rebuild holds the journal lock for a run of days before letting a hook in.
  static let lockHold: TimeInterval = 0.02
}
