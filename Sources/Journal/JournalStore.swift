import Facts
import Foundation
import GitReader
import Support

/// The journal folder: one markdown file per day, each rewritten under the journal lock.
public struct JournalStore: Sendable {
  public let directory: String
  let lockPath: String
  let records: DayRecordStore

  /// `host` names this machine's folder of day records (see `DayRecordStore`).
  public init(directory: String, lockPath: String, host: String = HostName.current) {
    self.directory = directory
    self.lockPath = lockPath
    records = DayRecordStore(journalDirectory: directory, host: host)
  }

  public enum Outcome: Equatable, Sendable {
    case created, updated, unchanged
    /// Nothing to journal and no file to update: no file is made.
    case nothingToWrite
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

  public func path(of day: Day) -> String { directory + "/\(day).md" }

  /// The file of a page named `2026-W49` or `2026-12`.
  public func path(ofPage name: String) -> String { directory + "/\(name).md" }

  /// The days that have a file, oldest first: one listing of the folder, for the days' links. Only a regular file
  /// (or a link to one) named `YYYY-MM-DD.md` counts.
  public func daysWithFiles() -> [Day] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.compactMap { name -> Day? in
      guard name.count == 13, name.hasSuffix(".md"), let day = Day(iso: String(name.dropLast(3))) else { return nil }
      var info = stat()
      guard stat(path(of: day), &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
      return day
    }.sorted()
  }

  /// The facts of `day` as the journal records them, or nil: the one place the pages above the days (weeks,
  /// months) read a day from. Today that is this machine's record.
  public func recordedFacts(of day: Day) -> DayFacts? {
    records.read(day)
  }

  /// Makes every batched write durable.
  public func syncAll() {
    AtomicFile.syncFileSystem(containing: directory)
  }

  /// Runs `body` holding the journal lock, so that what it reads and writes is not interleaved with another
  /// gitjournal process. Writes inside it go through the `LockedJournalStore` it is given.
  /// Throws `FileLock.Busy` after `lockTimeout`.
  public func locked<T: Sendable>(_ body: (LockedJournalStore) async throws -> T) async throws -> T {
    let lock = try acquireLock()
    defer { withExtendedLifetime(lock) {} }
    return try await body(LockedJournalStore(store: self))
  }

  /// `locked` for work that does not suspend.
  public func lockedNow<T>(_ body: (LockedJournalStore) throws -> T) throws -> T {
    let lock = try acquireLock()
    defer { withExtendedLifetime(lock) {} }
    return try body(LockedJournalStore(store: self))
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

  /// The facts of `day` as this machine last wrote them, or nil. Records are replaced by rename, so reading one
  /// needs no lock.
  public func record(of day: Day) -> DayFacts? {
    records.read(day)
  }

  /// The day's file as it is on disk, or nil.
  public func read(_ day: Day) throws(SystemError) -> String? {
    try AtomicFile.read(path(of: day))
  }
}
