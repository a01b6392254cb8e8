import Facts
import GitReader
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

/// The journal folder while this process holds the journal lock: only `JournalStore` makes one, so a write
/// that needs the lock cannot be called without it.
public struct LockedJournalStore: Sendable {
  let store: JournalStore
  /// Where the writes leave their folders' syncs, done once each when the lock is let go.
  let folderSyncs: AtomicFile.FolderSyncs
  /// The machines with a folder of records, listed once while the lock is held: a week's and a month's page read
  /// every day of their period, and a listing per day cost a hook 31 folder reads.
  let machines = MachineListing()

  final class MachineListing: Sendable {
    private let names = Locked<[String]?>(nil)
    private let isAlone = Locked<Bool?>(nil)

    func names(_ list: () -> [String]) -> [String] {
      names.withLock { kept in
        if let kept { return kept }
        let made = list()
        kept = made
        return made
      }
    }

    /// Whether this machine's records are the only ones and it forgot nothing (`DayRecordStore.isAlone`), looked
    /// at once: every day's page asks.
    func isAlone(_ look: () -> Bool) -> Bool {
      isAlone.withLock { kept in
        if let kept { return kept }
        let made = look()
        kept = made
        return made
      }
    }

    /// Forgets what was listed and looked at: after this process forgot commits, or another machine's write landed.
    func reset() {
      names.withLock { $0 = nil }
      isAlone.withLock { $0 = nil }
    }
  }

  /// Writes `page` into the day's file, keeping the user's text byte for byte. Days with no commits only update
  /// a file that exists. The lock keeps other gitjournal processes out, not the user's editor: if the file
  /// changes between reading and replacing it, the merge is done again on the new version, so a note saved
  /// meanwhile is never lost. A killed writer's temporary file is removed by the next write of that day (or the next
  /// process's first).
  @discardableResult
  public func write(
    _ page: JournalPage, for day: Day, isEmpty: Bool, durability: JournalStore.Durability = .immediate
  ) throws(SystemError) -> JournalStore.Outcome {
    try write(day, durability: durability) { (page, isEmpty) }
  }

  /// `write` for any page of the journal folder (a day's, a week's, a month's) at `file`.
  @discardableResult
  public func write(
    _ page: JournalPage, at file: String, pageName: String, isEmpty: Bool,
    durability: JournalStore.Durability = .immediate
  ) throws(SystemError) -> JournalStore.Outcome {
    try write(at: file, pageName: pageName, durability: durability) { (page, isEmpty) }
  }

  /// `write(_:for:isEmpty:durability:)` with the page made by `render` for each attempt. Another machine writing
  /// the same journal folder holds a lock of its own; when its write lands between this one's reading and
  /// replacing the file, the page is made again, from the records as they are then, so the last write to land
  /// has every machine's records that were written before it began.
  @discardableResult
  public func write(
    _ day: Day, durability: JournalStore.Durability = .immediate, render: () -> (page: JournalPage, isEmpty: Bool)
  ) throws(SystemError) -> JournalStore.Outcome {
    try write(at: store.path(of: day), pageName: day.description, durability: durability, render: render)
  }

  /// Sync conflict copies of the page (`SyncConflicts`) are merged into the file and kept aside.
  private func write(
    at file: String, pageName: String, durability: JournalStore.Durability,
    render: () -> (page: JournalPage, isEmpty: Bool)
  ) throws(SystemError) -> JournalStore.Outcome {
    // A killed writer's temporary file, seen in the one listing of the folder this process makes: no look for one
    // beside every page (a write that makes the file makes its temporary file anew anyway).
    let leftover = AtomicFile.lockedTemporaryName(of: PathText.name(of: file), lockHolder: lockHolder)
    if PathText.folder(of: file) == store.directory, store.conflictCandidates.takeLeftover(leftover) {
      unlink(store.directory + "/" + leftover)
    }
    let conflicts = SyncConflicts(journalDirectory: store.directory)
    for attempt in 0..<Self.maximumAttempts {
      let (existing, destination) = try AtomicFile.readForReplacing(file)
      // Never written through: a page synced in as a symlink would have gitjournal write into whatever it names.
      if destination.isLink { throw Self.linkedPage(file) }
      if attempt > 0 {
        // Another writer landed meanwhile: the page is made from the machines as they are now.
        machines.reset()
      }
      let (page, isEmpty) = render()
      if isEmpty && existing == nil { return .nothingToWrite }
      // A sync tool's copies of this file: their text goes into the file, then they are kept aside.
      let text = existing.map { JournalText(bytes: $0.bytes) }
      let (withCopies, copies) = conflicts.merging(
        store.conflictCandidates.copies(of: pageName), into: text?.text)
      let (merged, isFresh) = JournalMerger.mergeTellingFresh(page: page, into: withCopies, pageName: pageName)
      let bytes = text?.bytes(of: merged) ?? Array(merged.utf8)
      if let existing, bytes == existing.bytes {
        keep(copies, with: conflicts)
        return .unchanged
      }
      // Synced before it replaces the file when either holds the user's text, which a crash must not take: a
      // page of gitjournal's alone is made again by the next write, and each sync costs a commit a millisecond.
      let durable = !isFresh && (durability == .immediate || existing != nil)
      let replaced = try AtomicFile.write(
        bytes: bytes, to: file, durable: durable, holdingLock: true,
        lockHolder: lockHolder, unlessChangedFrom: .some(existing?.stamp), folderSyncs: folderSyncs,
        destination: destination, creatingFolder: store.directory)
      if replaced {
        if !durable { store.batchedWrites.note() }
        keep(copies, with: conflicts)
        return existing == nil ? .created : .updated
      }
    }
    throw SystemError("write", path: file + " (it kept changing while being written; try again)", errorNumber: EAGAIN)
  }

  /// Why the page at `file`, a symlink, is left alone.
  static func linkedPage(_ file: String) -> SystemError {
    SystemError(
      "write", path: file, errorNumber: ELOOP,
      explanation: "it is a symlink, and gitjournal writes through none inside the journal folder; put the file "
        + "itself in its place (the journal folder may be a symlink, the pages in it may not)")
  }

  /// In the names of temporary files: each machine writing one journal folder holds its own journal lock.
  private var lockHolder: String { "-" + store.host }

  /// Replaces the links line of the page at `file` (a neighbour of a day whose file was just made), keeping
  /// every other byte. A page whose block was edited, or that is missing, is left alone: its next update
  /// writes its links. Returns the links it had.
  @discardableResult
  public func replaceLinks(
    at file: String, _ change: (PageLinks?) -> PageLinks?
  ) throws(SystemError) -> Bool {
    for _ in 0..<Self.maximumAttempts {
      let (contents, destination) = try AtomicFile.readForReplacing(file)
      if destination.isLink {
        RefusedInputs.note(Self.linkedPage(file).description, about: file)
        return false
      }
      guard let existing = contents else { return false }
      let text = JournalText(bytes: existing.bytes)
      let old = JournalMerger.links(in: text.text)
      guard let replaced = JournalMerger.replacingLinks(in: text.text, with: change(old)) else { return false }
      let bytes = text.bytes(of: replaced)
      if bytes == existing.bytes { return false }
      if try AtomicFile.write(
        bytes: bytes, to: file, durable: true, holdingLock: true, lockHolder: lockHolder,
        unlessChangedFrom: .some(existing.stamp), folderSyncs: folderSyncs, destination: destination)
      {
        return true
      }
    }
    return false
  }

  /// The links line of the page at `file`, as gitjournal last wrote it, or nil.
  public func links(at file: String) -> PageLinks? {
    guard let contents = try? AtomicFile.readOwnFile(file) else { return nil }
    return JournalMerger.links(inBytes: contents.bytes)
  }

  /// The days that have a file in the journal folder, oldest first.
  public func daysWithFiles() -> [Day] {
    store.daysWithFiles()
  }

  /// The facts of `day` as the journal records them, every machine's (`JournalStore.recordedFacts(of:)`): what the
  /// pages above the days (weeks, months) are made of.
  public func recordedFacts(of day: Day) -> DayFacts? {
    store.records.recorded(day, machines: machines.names(store.records.machines))
  }

  /// `recordedFacts(of:)` with `own` for this machine's part, as a write renders it (`JournalStore.recordedFacts(of:
  /// own:)`), the machines listed once while the lock is held.
  public func recordedFacts(of day: Day, own: DayFacts) -> DayFacts {
    let names = machines.names(store.records.machines)
    return store.records.recorded(
      day, own: own, machines: names, isAlone: machines.isAlone { store.records.isAlone(among: names) })
  }

  /// Adds `ids`, forgotten with the projects named `projects`, to the commits this machine forgot, which hides them
  /// in every other machine's records, and in the projects of those names of the machine that reads them.
  public func forget(_ ids: Set<ObjectID>, projects: Set<String>) throws(SystemError) {
    defer { machines.reset() }
    try store.records.forget(ids, projects: projects, folderSyncs: folderSyncs)
  }

  /// How many times a write merges again when the file changed under it before giving up for this time.
  static let maximumAttempts = 20

  /// The facts of `day` as this machine last wrote them, or nil.
  public func record(of day: Day) -> DayFacts? {
    store.records.read(day)
  }

  /// The days this machine keeps a record of, oldest first.
  public func recordedDays() -> [Day] {
    store.records.days()
  }

  /// This machine's folder of records, opened for `stampedRecord(of:in:expecting:)`.
  package func openRecordFolder() -> OpenFolder {
    store.records.openFolder()
  }

  /// This machine's record of `day` and the stamp of the version read, from one read of the file looked up in its
  /// folder opened (`openRecordFolder()`): nil facts when there is no readable record, nil stamp when there is no
  /// file. When the record holds exactly `expected`, its facts are `expected` itself (see `DayRecord.holds`).
  package func stampedRecord(
    of day: Day, in folder: OpenFolder, expecting expected: DayFacts?
  ) -> (facts: DayFacts?, stamp: FileStamp?) {
    store.records.readStamped(day, in: folder, expecting: expected)
  }

  /// When this machine's record of `day` was last written, or nil when there is none.
  public func recordModificationTime(of day: Day) -> Date? {
    store.records.modificationTime(of: day)
  }

  /// Replaces the record of `facts.day`.
  func writeRecord(
    _ facts: DayFacts, durability: JournalStore.Durability, recorded: KnownRecord
  ) throws(SystemError) {
    let durable = durability == .immediate
    if try store.records.write(facts, durable: durable, recorded: recorded, folderSyncs: folderSyncs), !durable {
      store.batchedWrites.note()
    }
  }

  /// The day's file as it is on disk, or nil.
  public func read(_ day: Day) throws(SystemError) -> String? {
    try store.read(day)
  }
}

extension LockedJournalStore {
  /// Moves merged copies aside, and out of this process's listing.
  fileprivate func keep(_ copies: [String], with conflicts: SyncConflicts) {
    conflicts.keep(copies)
    store.conflictCandidates.remove(copies)
  }
}
