import Facts
import Foundation
import Support

/// Where day records live: `<journal>/.gitjournal/<host>/YYYY-MM-DD.tsv` (see `DayRecord`). Each machine writes only its own
/// folder, so a sync tool carrying the journal between machines never sees two writers of one file.
struct DayRecordStore: Sendable {
  let folder: String

  init(journalDirectory: String, host: String) {
    folder = journalDirectory + "/.gitjournal/" + host
  }

  func path(of day: Day) -> String { folder + "/\(day).tsv" }

  /// The recorded facts of `day`, or nil when there is no readable record.
  func read(_ day: Day) -> DayFacts? {
    DayRecord.read(path(of: day), day: day)
  }

  /// The days with a record, oldest first.
  func days() -> [Day] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.compactMap { name in
      name.hasSuffix(".tsv") ? Day(iso: String(name.dropLast(4))) : nil
    }.sorted()
  }

  /// When the record of `day` was last written, or nil when there is none.
  func modificationTime(of day: Day) -> Date? {
    FileStamp(path: path(of: day))?.modified
  }

  /// Replaces the record of `day`. Nothing is written when the record already says the same: `recorded` is what
  /// the caller read of it (`.some(nil)`: no record), or nil to have the file read and compared here.
  func write(_ facts: DayFacts, durable: Bool, recorded: DayFacts?? = nil) throws(SystemError) {
    if case .some(let previous) = recorded, previous == facts { return }
    let bytes = StateFile.bytes(of: DayRecord.records(of: facts))
    let path = path(of: facts.day)
    if recorded == nil, let existing = try? AtomicFile.readContents(path), existing.bytes == bytes { return }
    try makeFolders(folder)
    _ = try AtomicFile.write(bytes: bytes, to: path, durable: durable, holdingLock: true, unlessChangedFrom: nil)
  }

  /// Removes the record of `day` (a day whose facts were all forgotten).
  func remove(_ day: Day) {
    unlink(path(of: day))
  }
}
