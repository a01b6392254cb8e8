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

/// What the last rebuild saw of each page it made: the version of the page file right after it was made (or found as
/// it would be made), and what it was made from. A day's page is made from this machine's record of the day (its
/// version, by stamp), its links and its sentence; a week's or a month's from its days' records and its sentence. A
/// rebuild that finds the same inputs and the same page file leaves the page alone instead of reading and merging
/// it: it would come out byte for byte the same.
///
/// It also keeps what the last rebuild found in this machine's record of each day: the record's version and a digest
/// of the facts read from the repositories that it held exactly (`recordHolds`). A rebuild that reads the same facts
/// for the day and finds the record at that version knows what it holds without reading it.
///
/// Kept in the cache folder (`pages-v3/<journal and machine>.tsv`, a `StateFile`): a record `key <hash>` of what
/// every page depends on (the calendar, the pages that are on, gitjournal's binary), then one record per page: its
/// name, its page's stamp and a hash of its inputs (`Inputs`); then one record `held <day> <record's stamp>
/// <facts digest>` per day record. A
/// missing, damaged or foreign file only means every page and record is read again. Each record vouches for itself:
/// it holds the stamps of the page and of its records as they were right after the page was made from them (or of
/// the day's record when it was found holding the facts), so a record saved by any rebuild is true as long as they
/// all still match.
///
/// A stamp is the file's device, inode, size, and modification and change times (nanoseconds): an editor that saves
/// by rename makes a new inode, one that writes in place changes the change time even when it puts the old
/// modification time back. A page is vouched for only once it and its records are a tenth of a second old when the
/// file is saved (three seconds where times have no nanoseconds), as `RepositoryStamp` does: a change in the same
/// clock tick as the write before it would not show.
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

    /// The stamp of the file named `name` in `folder` (symlinks followed), or nil when there is none.
    package init?(_ name: String, in folder: OpenFolder) {
      guard let stamp = folder.stamp(of: name) else { return nil }
      self.init(stamp)
    }

    /// The stamp of the version a read or a write saw (`AtomicFile.Contents.stamp`).
    package init(_ stamp: FileStamp) {
      fields = [
        Int64(bitPattern: stamp.device), Int64(bitPattern: stamp.inode), stamp.size, stamp.modifiedSeconds,
        stamp.modifiedNanoseconds, stamp.changedSeconds, stamp.changedNanoseconds,
      ]
    }

    /// The newer of the modification and change times, in seconds since 1970.
    var newest: TimeInterval {
      max(
        TimeInterval(fields[3]) + TimeInterval(fields[4]) / 1e9, TimeInterval(fields[5]) + TimeInterval(fields[6]) / 1e9
      )
    }

    /// Whether a change made after `now` could leave this stamp as it is (as `PathStamp.isRacy` says of the hook's
    /// stamps): within a tenth of a second, or three seconds for times without nanoseconds (FAT, SMB), which such
    /// file systems keep to the second or two.
    func isRacy(now: Date) -> Bool {
      newest >= now.timeIntervalSince1970 - (isCoarse ? 3 : Self.racyMargin)
    }

    /// Times without nanoseconds.
    var isCoarse: Bool { fields[4] == 0 && fields[6] == 0 }

    /// How recent a stamp with nanoseconds may be and still not be kept.
    static let racyMargin: TimeInterval = 0.1
  }

  /// A file a page is made from: its folder (one string shared by all the files in it) and its name there.
  public struct Source: Hashable, Sendable {
    let folder: String
    let name: String

    public init(folder: String, name: String) {
      self.folder = folder
      self.name = name
    }
  }

  struct Entry: Equatable, Sendable {
    let page: Stamp
    /// A hash of the rest of what the page was made from, the stamps of the records it was made from among them
    /// (`Inputs`). The inputs themselves, a month's thirty stamps among them, made the file large for a long history,
    /// and reading it back a large part of a second rebuild (`bench/instructions.sh`, BENCHMARKS.md).
    let inputsDigest: String
  }

  /// What the last rebuild found in this machine's record of a day: its version, and the digest of the facts read
  /// from the repositories that it held exactly (`factsDigest(of:)`).
  struct HeldFacts: Equatable, Sendable {
    let record: Stamp
    let factsDigest: String
  }

  private let path: String?
  private let key: String
  private var entries: [String: Entry] = [:]
  /// By day (`2024-05-01`).
  private var held: [String: HeldFacts] = [:]
  /// Whether `entries` are those of the file at `path`, read whole with this key.
  private var isRead = false
  /// Pages this rebuild made or found as they are, with their stamps right after and the files they were made from:
  /// saved if all are still so.
  private var noted: [String: (entry: Entry, sources: [(file: Source, stamp: Stamp?)])] = [:]
  /// Records this rebuild found holding the facts it read, or wrote with them, and their files: saved if still so.
  private var notedHeld: [String: (held: HeldFacts, file: Source)] = [:]

  /// `path` nil keeps nothing; `key`: what every page depends on besides its own inputs.
  public init(path: String?, key: String) {
    self.path = path
    self.key = ContentHash.hex(of: "pages-v3\n" + key)
    guard let path else { return }
    var isValid = true
    var isFirst = true
    var entries: [String: Entry] = [:]
    var held: [String: HeldFacts] = [:]
    StateFile.read(path) { record in
      if isFirst {
        isFirst = false
        isValid = record.count == 2 && record.text(0) == "key" && record.text(1) == self.key
      } else if record.count == 9 {
        let numbers = (1...7).compactMap { record.integer($0) }
        guard numbers.count == 7 else { return true }
        entries[record.text(0)] = Entry(page: Stamp(fields: numbers), inputsDigest: record.text(8))
      } else if record.count == 10 && record.text(0) == "held" {
        let numbers = (2...8).compactMap { record.integer($0) }
        guard numbers.count == 7 else { return true }
        held[record.text(1)] = HeldFacts(record: Stamp(fields: numbers), factsDigest: record.text(9))
      }
      return isValid
    }
    if isValid && !isFirst {
      self.entries = entries
      self.held = held
      isRead = true
    }
  }

  /// What a page is made from besides what the key holds, told field by field and kept as a digest: a day's record
  /// (by stamp), links and sentence, or a week's or month's days' records and sentence. Digested as they are told, not
  /// written out first: a second rebuild tells a record's stamp three times (its day, week and month), and writing
  /// the stamps out as text cost it a tenth of its instructions.
  public struct Inputs: Sendable {
    private var digest = TextDigest.Builder()

    /// `kind`: what the page is (`day`, `period`).
    public init(kind: String) {
      digest.add(kind)
    }

    /// A file's stamp, nil for no file.
    public mutating func add(_ stamp: Stamp?) {
      guard let stamp else { return digest.add(false) }
      digest.add(true)
      for field in stamp.fields { digest.add(field) }
    }

    /// A text, nil for none.
    public mutating func add(_ text: String?) {
      guard let text else { return digest.add(false) }
      digest.add(true)
      digest.add(text)
    }

    var hex: String { digest.hex }
  }

  /// Whether the page named `name` (a day, a week, a month) is the version that was made from these `inputs`.
  public func isUnchanged(_ name: String, page: Stamp?, inputs: Inputs) -> Bool {
    guard let entry = entries[name], let page, entry.page == page else { return false }
    return entry.inputsDigest == inputs.hex
  }

  /// Remembers that the page named `name`, at `pagePath`, was just made (or found as it would be made) from
  /// `inputs`, which hold the stamps of the files at `sources`: those of the versions the page was made from.
  public mutating func note(
    _ name: String, pagePath: String, inputs: Inputs, sources: [(file: Source, stamp: Stamp?)]
  ) {
    guard path != nil, let page = Stamp(path: pagePath) else { return }
    noted[name] = (Entry(page: page, inputsDigest: inputs.hex), sources)
  }

  /// The digest a rebuild keeps of the facts it read for a day, to compare with the next rebuild's
  /// (`DayRecord.digest(of:)`: every field the day's record would keep of them). Nil for facts a record would not
  /// give back as they are (a branch with an empty name, which a record keeps as none): their record is always read.
  public static func factsDigest(of facts: DayFacts) -> String? {
    guard !facts.projects.contains(where: { $0.commits.contains { $0.branch?.isEmpty == true } }) else { return nil }
    return DayRecord.digest(of: facts)
  }

  /// Whether this machine's record of `day`, at version `record`, is one the last rebuild found holding exactly the
  /// facts of `factsDigest` (or wrote with them): it holds them still, and need not be read.
  public func recordHolds(_ day: Day, record: Stamp, factsDigest: String) -> Bool {
    held[day.description] == HeldFacts(record: record, factsDigest: factsDigest)
  }

  /// Remembers that this machine's record of `day`, the file `file` at version `record`, holds exactly the facts of
  /// `factsDigest` read from the repositories.
  public mutating func noteHeld(_ day: Day, file: Source, record: Stamp, factsDigest: String) {
    guard path != nil else { return }
    notedHeld[day.description] = (HeldFacts(record: record, factsDigest: factsDigest), file)
  }

  /// Remembers that the page named `name` was found unchanged, with the files it was made from and their stamps.
  public mutating func keep(_ name: String, sources: [(file: Source, stamp: Stamp?)]) {
    if let entry = entries[name] { noted[name] = (entry, sources) }
  }

  /// How long until no page noted in this rebuild, and no file it was made from, is too recent at `now` for its
  /// stamp to be kept (`Stamp.isRacy`); nil when none is, or when the wait would be longer than the tenth of a second
  /// a file system with nanosecond times needs.
  public func settlingDelay(now: Date) -> TimeInterval? {
    var newest: TimeInterval?
    // Each page's stamp, then its sources', without an array made for every page.
    func note(_ stamp: Stamp) -> Bool {
      guard stamp.isRacy(now: now) else { return true }
      if stamp.isCoarse { return false }
      newest = max(newest ?? stamp.newest, stamp.newest)
      return true
    }
    for (_, noted) in noted {
      guard note(noted.entry.page) else { return nil }
      for source in noted.sources {
        if let stamp = source.stamp, !note(stamp) { return nil }
      }
    }
    for (_, noted) in notedHeld {
      guard note(noted.held.record) else { return nil }
    }
    guard let newest else { return nil }
    let delay = newest + Stamp.racyMargin - now.timeIntervalSince1970 + 0.005
    return delay <= Stamp.racyMargin + 0.005 ? max(delay, 0) : nil
  }

  /// Replaces the file with the pages noted in this rebuild whose files and sources are still as noted and were not
  /// changed so recently before `now` that a change made now could keep their stamps (`Stamp.isRacy`). The pages are
  /// the files `<name>.md` in `pageFolder`. A cache that cannot be written only costs time.
  public func save(pageFolder: String, now: Date) {
    guard let path else { return }
    // A rebuild that found every page as the file holds it (a second rebuild that changed nothing) leaves the file
    // as it is, without looking at every page and record again: the file says what it would say. A page or record
    // changed since it was checked has a stamp other than the file's, and is made again by the next rebuild.
    if isRead && noted.count == entries.count && noted.allSatisfy({ entries[$0.key] == $0.value.entry })
      && notedHeld.count == held.count && notedHeld.allSatisfy({ held[$0.key] == $0.value.held })
    {
      return
    }
    var records: [[String]] = [["key", key]]
    // Each folder opened once, its files looked up by name.
    var folders: [String: OpenFolder] = [:]
    func folder(_ path: String) -> OpenFolder {
      if let open = folders[path] { return open }
      let open = OpenFolder(path)
      folders[path] = open
      return open
    }
    let pages = folder(pageFolder)
    // A day's record is a source of its day's, its week's and its month's pages: each file is looked at once.
    var current: [Source: Stamp?] = [:]
    func stamp(_ file: Source) -> Stamp? {
      if let known = current[file] { return known }
      let stamp = Stamp(file.name, in: folder(file.folder))
      current[file] = .some(stamp)
      return stamp
    }
    var kept: [(name: String, entry: Entry)] = []
    kept.reserveCapacity(noted.count)
    for (name, noted) in noted {
      let entry = noted.entry
      // A page found as the file read says, from sources as it says, is kept as the early return above keeps every
      // page: only the pages made or first noted in this rebuild are looked at again (after a cold rebuild, the
      // few whose stamps were too recent to keep, among thousands).
      if isRead && entries[name] == entry {
        kept.append((name, entry))
        continue
      }
      guard Stamp(name + ".md", in: pages) == entry.page, !entry.page.isRacy(now: now),
        noted.sources.allSatisfy({ stamp($0.file) == $0.stamp && $0.stamp?.isRacy(now: now) != true })
      else { continue }
      kept.append((name, entry))
    }
    var keptHeld: [(day: String, held: HeldFacts)] = []
    keptHeld.reserveCapacity(notedHeld.count)
    for (day, noted) in notedHeld {
      if isRead && held[day] == noted.held {
        keptHeld.append((day, noted.held))
        continue
      }
      guard stamp(noted.file) == noted.held.record, !noted.held.record.isRacy(now: now) else { continue }
      keptHeld.append((day, noted.held))
    }
    // The file read holds these pages and records and no others (a second rebuild that changed nothing): written
    // again, it would say the same of every one, and making its text cost that rebuild a twentieth of its time.
    if isRead && kept.count == entries.count && kept.allSatisfy({ entries[$0.name] == $0.entry })
      && keptHeld.count == held.count && keptHeld.allSatisfy({ held[$0.day] == $0.held })
    {
      return
    }
    for (name, entry) in kept.sorted(by: { $0.name < $1.name }) {
      records.append([name] + entry.page.fields.map(String.init) + [entry.inputsDigest])
    }
    for (day, held) in keptHeld.sorted(by: { $0.day < $1.day }) {
      records.append(["held", day] + held.record.fields.map(String.init) + [held.factsDigest])
    }
    try? makeFolders(PathText.folder(of: path))
    try? StateFile.write(records, to: path, isCache: true)
  }
}
