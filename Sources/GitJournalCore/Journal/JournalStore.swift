import Foundation

/// The journal folder: one markdown file per day, each rewritten under the journal lock.
public struct JournalStore: Sendable {
  public let directory: String
  let lockPath: String

  public init(directory: String, lockPath: String) {
    self.directory = directory
    self.lockPath = lockPath
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

  public func path(of day: Day) -> String { directory + "/\(day).md" }

  /// Makes every batched write durable.
  public func syncAll() {
    AtomicFile.syncFileSystem(containing: directory)
  }

  /// Runs `body` holding the journal lock, so that what it reads and writes is not interleaved with another
  /// gitjournal process. Use `writeHoldingLock` inside it.
  public func withLock<T: Sendable>(_ body: () async throws -> T) async throws -> T {
    try makeFolders((lockPath as NSString).deletingLastPathComponent)
    let lock = try FileLock.acquire(at: lockPath)
    defer { withExtendedLifetime(lock) {} }
    return try await body()
  }

  /// Writes `page` into the day's file under the lock, keeping the user's text.
  @discardableResult
  public func write(
    _ page: JournalPage, for day: Day, isEmpty: Bool, durability: Durability = .immediate
  ) throws(SystemError) -> Outcome {
    if isEmpty && !FileManager.default.fileExists(atPath: path(of: day)) { return .nothingToWrite }
    try makeFolders((lockPath as NSString).deletingLastPathComponent)
    let lock = try FileLock.acquire(at: lockPath)
    defer { withExtendedLifetime(lock) {} }
    return try writeHoldingLock(page, for: day, isEmpty: isEmpty, durability: durability)
  }

  /// Writes `page` into the day's file; the caller holds the lock (see `withLock`). Days with no commits only
  /// update a file that exists.
  /// A killed writer's temporary file is removed by the next write of that day.
  @discardableResult
  public func writeHoldingLock(
    _ page: JournalPage, for day: Day, isEmpty: Bool, durability: Durability = .immediate
  ) throws(SystemError) -> Outcome {
    let file = path(of: day)
    AtomicFile.removeLockedLeftover(besides: file)
    let existing = try AtomicFile.read(file)
    if isEmpty && existing == nil { return .nothingToWrite }
    try makeFolders(directory)
    let merged = JournalMerger.merge(page: page, into: existing, day: day)
    if merged == existing { return .unchanged }
    try AtomicFile.write(
      merged, to: file, durable: durability == .immediate || existing != nil, holdingLock: true)
    return existing == nil ? .created : .updated
  }

  /// The day's file as it is on disk, or nil.
  public func read(_ day: Day) throws(SystemError) -> String? {
    try AtomicFile.read(path(of: day))
  }
}
