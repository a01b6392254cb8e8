import Facts
import Foundation
import GitReader
import Support

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the last rebuild saw of each day's page: the version of the page file and of this machine's record of the
/// day after the page was written (or found as it would be written), and the rest of what the page was made from
/// (its links and sentence). A rebuild that finds the same record, the same page file and the same links and
/// sentence leaves the page alone instead of reading and merging it: it would come out byte for byte the same.
///
/// Kept in the cache folder (`pages-v1/<journal and machine>.tsv`, a `StateFile`): a record `key <hash>` of what
/// every page depends on (the calendar, the pages that are on, gitjournal's version), then one record per day. A
/// missing, damaged or foreign file only means every page is read again. Each record vouches for itself: it holds
/// the stamps of both files as they were right after the page was made from the record, so a record saved by any
/// rebuild is true as long as both stamps still match.
///
/// A stamp is the file's device, inode, size, and modification and change times (nanoseconds): an editor that saves
/// by rename makes a new inode, one that writes in place changes the change time even when it puts the old
/// modification time back. A page is vouched for only once its stamp is a tenth of a second old when the record is
/// saved, as `RepositoryStamp` does: a change in the same clock tick as the write that made the page would not show.
public struct PageStamps: Sendable {
  /// One version of a file.
  public struct Stamp: Equatable, Sendable {
    let fields: [Int64]

    /// The stamp of the file at `path` (symlinks followed), or nil when there is none.
    public init?(path: String) {
      var info = stat()
      guard stat(path, &info) == 0 else { return nil }
      #if canImport(Glibc)
        let modified = info.st_mtim
        let changed = info.st_ctim
      #else
        let modified = info.st_mtimespec
        let changed = info.st_ctimespec
      #endif
      fields = [
        Int64(info.st_dev), Int64(bitPattern: UInt64(info.st_ino)), Int64(info.st_size), Int64(modified.tv_sec),
        Int64(modified.tv_nsec), Int64(changed.tv_sec), Int64(changed.tv_nsec),
      ]
    }

    init(fields: [Int64]) { self.fields = fields }

    /// The newer of the modification and change times, in seconds since 1970.
    var newest: TimeInterval {
      max(
        TimeInterval(fields[3]) + TimeInterval(fields[4]) / 1e9, TimeInterval(fields[5]) + TimeInterval(fields[6]) / 1e9
      )
    }
  }

  struct Entry: Equatable, Sendable {
    let page: Stamp
    let record: Stamp
    let inputs: String
  }

  private let path: String?
  private let key: String
  private var entries: [Day: Entry] = [:]
  /// Days whose page this rebuild made or found as it is, with their stamps right after: saved if still so.
  private var noted: [Day: Entry] = [:]

  /// `path` nil keeps nothing; `key`: what every page depends on besides its own facts, links and sentence.
  public init(path: String?, key: String) {
    self.path = path
    self.key = ContentHash.hex(of: "pages-v1\n" + key)
    guard let path else { return }
    var isValid = true
    var isFirst = true
    var entries: [Day: Entry] = [:]
    StateFile.read(path) { record in
      if isFirst {
        isFirst = false
        isValid = record.count == 2 && record.text(0) == "key" && record.text(1) == self.key
      } else if record.count == 16, let day = Day(iso: record.text(0)) {
        let numbers = (1...14).compactMap { record.integer($0) }
        guard numbers.count == 14 else { return true }
        entries[day] = Entry(
          page: Stamp(fields: Array(numbers[0..<7])), record: Stamp(fields: Array(numbers[7..<14])),
          inputs: record.text(15))
      }
      return isValid
    }
    if isValid { self.entries = entries }
  }

  /// Whether the page of `day` is as it was made from this record with these `inputs` (its links line and sentence):
  /// both files' stamps as they were right after.
  public func isUnchanged(_ day: Day, page: Stamp?, record: Stamp?, inputs: String) -> Bool {
    guard let entry = entries[day], let page, let record else { return false }
    return entry == Entry(page: page, record: record, inputs: inputs)
  }

  /// Remembers that the page of `day` was just made (or found as it would be made) from its record with `inputs`.
  public mutating func note(_ day: Day, page: Stamp?, record: Stamp?, inputs: String) {
    guard path != nil, let page, let record else { return }
    noted[day] = Entry(page: page, record: record, inputs: inputs)
  }

  /// Remembers that the page of `day` was found unchanged.
  public mutating func keep(_ day: Day) {
    if let entry = entries[day] { noted[day] = entry }
  }

  /// Replaces the file with the days noted in this rebuild whose two files are still as noted and were last changed
  /// at least a tenth of a second before `now`. A cache that cannot be written only costs time.
  public func save(pagePath: (Day) -> String, recordPath: (Day) -> String, now: Date) {
    guard let path else { return }
    let settled = now.timeIntervalSince1970 - 0.1
    var records: [[String]] = [["key", key]]
    for (day, entry) in noted.sorted(by: { $0.key < $1.key }) {
      guard Stamp(path: pagePath(day)) == entry.page, Stamp(path: recordPath(day)) == entry.record,
        entry.page.newest < settled, entry.record.newest < settled
      else { continue }
      records.append([day.description] + (entry.page.fields + entry.record.fields).map(String.init) + [entry.inputs])
    }
    try? makeFolders(PathText.folder(of: path))
    try? StateFile.write(records, to: path)
  }
}
