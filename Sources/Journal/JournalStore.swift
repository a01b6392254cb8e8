import Facts
import GitReader
import Support

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The journal folder: one markdown file per day, each rewritten under the journal lock. A day's file shows what
/// every machine recorded of the day (`DayRecordStore`), so any machine writing a synced journal renders the same.
public struct JournalStore: Sendable {
  public let directory: String
  let lockPath: String
  let records: DayRecordStore
  let sentences: SharedSentences
  /// One listing of the folder's possible sync conflict copies for every page this process writes.
  let conflictCandidates: ConflictCandidates
  /// Whether a batched write was made: a batch that wrote nothing (a second rebuild) has nothing to sync.
  let batchedWrites = BatchedWrites()

  /// `host` names this machine's folder of day records (see `DayRecordStore`); `recordsFolder` is the folder of
  /// the machines' folders: the journal's `.gitjournal` unless given (the state folder, with
  /// `journal.shareFacts = false`).
  public init(directory: String, lockPath: String, host: String = HostName.current, recordsFolder: String? = nil) {
    self.directory = directory
    self.lockPath = lockPath
    records = DayRecordStore(root: recordsFolder ?? directory + "/.gitjournal", host: host)
    sentences = SharedSentences(root: records.root, host: host)
    conflictCandidates = ConflictCandidates(directory: directory)
  }

  /// This machine's name in the records.
  public var host: String { records.host }

  public enum Outcome: Equatable, Sendable, CustomStringConvertible {
    case created, updated, unchanged
    /// Nothing to journal and no file to update: no file is made.
    case nothingToWrite

    /// The case's name, as `rebuild` prints it for each day (without the reflection a case's default description
    /// costs: a microsecond for each of thousands of lines).
    public var description: String {
      switch self {
      case .created: "created"
      case .updated: "updated"
      case .unchanged: "unchanged"
      case .nothingToWrite: "nothingToWrite"
      }
    }
  }

  /// When a write reaches the disk.
  public enum Durability: Sendable {
    /// Synced before the write returns.
    case immediate
    /// For a batch of many files (`rebuild`): a new file is synced by `syncAll()` at the end of the batch, one
    /// sync instead of thousands. A file that exists may hold the user's notes and is still synced at once.
    case batched
  }

  /// Seconds a writer waits for the journal lock. Holders keep it for one refresh (well under a second); one that
  /// keeps it longer is stuck (stopped with Ctrl-Z, hung on a network mount), and waiting on would hang every
  /// commit on the machine: the hook skips instead (the next commit or `rebuild` catches up), and a command fails
  /// saying another gitjournal holds the lock.
  public static let lockTimeout = 5

  public func path(of day: Day) -> String { directory + "/" + day.description + ".md" }

  /// The file of a page named `2026-W49` or `2026-12`.
  public func path(ofPage name: String) -> String { directory + "/\(name).md" }

  /// The days that have a file, oldest first: one listing of the folder, for the days' links. Only a regular file
  /// (or a link to one) named `YYYY-MM-DD.md` counts.
  public func daysWithFiles() -> [Day] {
    FolderListing.regularFiles(in: directory) { Day(fileName: $0, suffix: ".md") != nil }
      .compactMap { Day(fileName: $0, suffix: ".md") }.sorted()
  }

  /// The name of the day's file in the journal folder.
  public func fileName(of day: Day) -> String { day.description + ".md" }

  /// The name of this machine's record of `day` in its folder of records (`recordFolder`).
  public func recordName(of day: Day) -> String { day.description + ".tsv" }

  /// This machine's folder of records.
  public var recordFolder: String { records.folder }

  /// Makes every batched write durable; nothing when none was made (a second rebuild that found every file as it
  /// is): a sync of the file system waits for whatever else is being written to it, and for the disk's flush.
  public func syncAll() {
    guard batchedWrites.isAny else { return }
    AtomicFile.syncFileSystem(containing: directory)
  }

  /// Starts making the batched writes so far durable on a thread of its own, while this one goes on writing (a
  /// rebuild's week and month pages on one core, the disk's flush of thousands of days beside it); `syncAll()` at the
  /// end of the batch still makes every write durable, and has less left to wait for. Nothing waits for the thread.
  public func startSyncingAll() {
    guard batchedWrites.isAny else { return }
    let directory = directory
    _ = SideThreads.detach { AtomicFile.syncFileSystem(containing: directory) }
  }

  /// Whether any write of this store was left for `syncAll()`; set by the writes, never cleared.
  final class BatchedWrites: Sendable {
    private let made = Locked(false)

    func note() { made.withLock { $0 = true } }
    var isAny: Bool { made.withLock { $0 } }
  }

  /// Runs `body` holding the journal lock, so that what it reads and writes is not interleaved with another
  /// gitjournal process. Writes inside it go through the `LockedJournalStore` it is given.
  /// Throws `FileLock.Busy` after `lockTimeout`.
  public func locked<T: Sendable>(
    _ body: (LockedJournalStore) async throws -> T
  ) async throws -> T {
    let lock = try acquireLock()
    defer { withExtendedLifetime(lock) {} }
    // The writes' folders are synced once each, before the lock is let go (see `AtomicFile.FolderSyncs`).
    let folderSyncs = AtomicFile.FolderSyncs()
    defer { folderSyncs.syncAll() }
    return try await body(LockedJournalStore(store: self, folderSyncs: folderSyncs))
  }

  /// `locked` for work that does not suspend.
  public func lockedNow<T>(_ body: (LockedJournalStore) throws -> T) throws -> T {
    let lock = try acquireLock()
    defer { withExtendedLifetime(lock) {} }
    let folderSyncs = AtomicFile.FolderSyncs()
    defer { folderSyncs.syncAll() }
    return try body(LockedJournalStore(store: self, folderSyncs: folderSyncs))
  }

  /// Writes `page` into the day's file, taking the lock for this one file, keeping the user's text.
  /// Throws `FileLock.Busy` after `lockTimeout`.
  @discardableResult
  public func write(
    _ page: JournalPage, for day: Day, isEmpty: Bool, durability: Durability = .immediate
  ) throws -> Outcome {
    if isEmpty && !FileManager.default.fileExists(atPath: path(of: day)) { return .nothingToWrite }
    return try lockedNow { locked in try locked.write(page, for: day, isEmpty: isEmpty, durability: durability) }
  }

  /// Throws `FileLock.Busy` after `lockTimeout`.
  private func acquireLock() throws -> FileLock {
    try makeFolders(PathText.folder(of: lockPath))
    return try FileLock.acquire(at: lockPath, waitingAtMost: Self.lockTimeout)
  }

  /// The machines with a folder of records, and this one: what `daysWithPageOrRecord(machines:)` looks in.
  public func recordingMachines() -> [String] {
    Array(Set(records.machines() + [host])).sorted()
  }

  /// The days with a file of any kind in the journal folder or a record of any of `machines` (from
  /// `recordingMachines()`), from one listing of each folder; nil when a folder could not be listed, and every day is
  /// to be looked at. A write of no facts for any other day would make nothing (see `LockedJournalStore.write`), so a
  /// rebuild skips those days without looking at them one by one (four calls to the kernel each, for half the days
  /// of a long history). A machine whose folder came since the listing can only have rendered the day's file itself;
  /// a file made since, by a hook, is newer than the rebuild's facts of a day without commits.
  public func daysWithPageOrRecord(machines: [String]) -> Set<Day>? {
    guard let pages = FolderListing.allNames(in: directory), let recorded = recordedDays(machines: machines) else {
      return nil
    }
    return recorded.union(
      pages.lazy.compactMap { Day(fileName: $0, suffix: ".md") })
  }

  /// The days any machine has a record of, from one listing of each machine's folder; nil when one could not be
  /// listed.
  public func daysWithRecords() -> Set<Day>? {
    recordedDays(machines: records.machines())
  }

  private func recordedDays(machines: [String]) -> Set<Day>? {
    var days = Set<Day>()
    for machine in machines {
      guard let recorded = Self.days(in: records.root + "/" + machine, suffix: ".tsv") else { return nil }
      days.formUnion(recorded)
    }
    return days
  }

  /// The days named `YYYY-MM-DD<suffix>` in `folder`, whatever each entry is; nil when it cannot be listed.
  private static func days(in folder: String, suffix: String) -> [Day]? {
    FolderListing.allNames(in: folder)?.compactMap { name in
      Day(fileName: name, suffix: suffix)
    }
  }

  /// Whether this machine's records are the only ones among `machines` (from `recordingMachines()`) and it forgot
  /// no commit: a day's page is then made from its record alone.
  public func isOnlyMachine(among machines: [String]) -> Bool {
    records.isAlone(among: machines)
  }

  /// Whether the one listing of the folder this process makes (`ConflictCandidates`) found beside the page named
  /// `name` (`2026-12-02`, `2026-W49`, `2026-12`) a sync tool's copy to merge into it, or the temporary file this
  /// machine's writer left when it was killed. Writing the page takes in the one and removes the other, so a page
  /// whose stamps say it is as it would be made is written all the same.
  public func hasFilesBeside(page name: String) -> Bool {
    // Asked for each of thousands of pages by a rebuild: the temporary file's name is made only when there is any.
    guard !conflictCandidates.isEmpty else { return false }
    return !conflictCandidates.copies(of: name).isEmpty
      || conflictCandidates.hasLeftover(AtomicFile.lockedTemporaryName(of: name + ".md", lockHolder: "-" + host))
  }

  /// The file of this machine's record of `day`.
  public func recordPath(of day: Day) -> String {
    records.path(of: day)
  }

  /// The facts of `day` as this machine last wrote them, or nil. Records are replaced by rename, so reading one
  /// needs no lock.
  public func record(of day: Day) -> DayFacts? {
    records.read(day)
  }

  /// The recorded facts of `day`: what every machine recorded of it, each commit once (`DayRecordStore.recorded`);
  /// nil when no machine has a record of it. What the day's file shows, and the one place the pages above the days
  /// (weeks, months) and anything else built from records read a day from.
  public func recordedFacts(of day: Day) -> DayFacts? {
    records.recorded(day)
  }

  /// `recordedFacts(of:)` with `own` for this machine's part, as a write would render it.
  public func recordedFacts(of day: Day, own: DayFacts) -> DayFacts {
    records.recorded(day, own: own)
  }

  /// One machine's record of `day`, or nil (`show --host`).
  public func record(of day: Day, host: String) -> DayFacts? {
    records.record(of: day, host: host)
  }

  /// The names of the machines with records in the journal and this one's, sorted: what `--host` may name.
  public func hosts() -> [String] {
    Set(records.machines() + [host]).sorted()
  }

  /// The machines whose records are in the journal, with when each last wrote one and how many days it recorded.
  public func machines() -> [(host: String, lastWritten: Date?, days: Int)] {
    records.lastWritten().map { ($0.host, $0.date, $0.days) }
  }

  /// Sync tools' conflict copies of pages: those waiting in the journal folder (each is merged into its page at the
  /// page's next write), and those merged and kept, with the folder that keeps them.
  public func conflictCopies() -> (waiting: [(name: String, page: String)], kept: [String], folder: String) {
    let conflicts = SyncConflicts(journalDirectory: directory)
    return (conflicts.allCopies(), conflicts.keptCopies(), conflicts.folder)
  }

  /// The sentence some machine wrote for facts of `day` with this signature, if any (see `SharedSentences`).
  public func sharedSentence(of day: Day, signature: String) -> String? {
    sentences.sentence(of: day.description, signature: signature)
  }

  /// Whether any machine shared a sentence for `day`: until one did, no signature need be computed.
  public func hasSharedSentences(of day: Day) -> Bool {
    sentences.hasAny(of: day.description)
  }

  /// Shares a sentence for the facts of `day` with this signature, unless this machine already did.
  public func share(sentence: String, of day: Day, signature: String) {
    sentences.share(sentence, of: day.description, signature: signature)
  }

  /// `sharedSentence(of:signature:)` for a week's or a month's page.
  public func sharedSentence(of period: PeriodFacts.Period, signature: String) -> String? {
    sentences.sentence(of: period.description, signature: signature)
  }

  /// `hasSharedSentences(of:)` for a week's or a month's page.
  public func hasSharedSentences(of period: PeriodFacts.Period) -> Bool {
    sentences.hasAny(of: period.description)
  }

  /// `share(sentence:of:signature:)` for a week's or a month's page.
  public func share(sentence: String, of period: PeriodFacts.Period, signature: String) {
    sentences.share(sentence, of: period.description, signature: signature)
  }

  /// The day's file as it is on disk, or nil. Never read through a symlink in its place (the read fails): `show` and
  /// the assistant's tools would print whatever file it names.
  public func read(_ day: Day) throws(SystemError) -> String? {
    try AtomicFile.readOwnFile(path(of: day)).map { String(decoding: $0.bytes, as: UTF8.self) }
  }
}
