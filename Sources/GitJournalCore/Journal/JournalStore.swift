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

  public func path(of day: Day) -> String { directory + "/\(day).md" }

  /// Writes `page` into the day's file, keeping the user's text. `isEmpty` days only update an existing file.
  @discardableResult
  public func write(_ page: JournalPage, for day: Day, isEmpty: Bool) throws(SystemError) -> Outcome {
    let file = path(of: day)
    if isEmpty && !FileManager.default.fileExists(atPath: file) { return .nothingToWrite }
    try makeFolders(directory)
    try makeFolders((lockPath as NSString).deletingLastPathComponent)
    let lock = try JournalLock.acquire(at: lockPath)
    defer { withExtendedLifetime(lock) {} }

    AtomicFile.removeLeftovers(besides: file)
    let existing = try AtomicFile.read(file)
    if isEmpty && existing == nil { return .nothingToWrite }
    let merged = JournalMerger.merge(page: page, into: existing, day: day)
    if merged == existing { return .unchanged }
    try AtomicFile.write(merged, to: file)
    return existing == nil ? .created : .updated
  }

  /// The day's file as it is on disk, or nil.
  public func read(_ day: Day) throws(SystemError) -> String? {
    try AtomicFile.read(path(of: day))
  }
}
