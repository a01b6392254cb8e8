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

/// Where day records live: `<journal>/.gitjournal/<host>/YYYY-MM-DD.tsv` (see `DayRecord`), one folder per
/// machine. Each machine writes only its own folder, so a sync tool carrying the journal between machines never
/// sees two writers of one file; every machine reads them all. With `journal.shareFacts = false` the folders
/// live in the state folder instead, and only this machine's is there.
///
/// `recorded(_:)` is the one reader of "the recorded facts of a day": every machine's records of it, joined
/// (`DayFacts.union`). `read(_:)` is this machine's own record, which only its own writes build on.
struct DayRecordStore: Sendable {
  /// The folder that holds one folder per machine.
  let root: String
  let host: String
  /// This machine's folder.
  let folder: String
  /// The folder `root` is in (the journal folder): no folder below it is read or written through a symlink
  /// (`FolderLinks`).
  let base: String

  init(journalDirectory: String, host: String) {
    self.init(root: journalDirectory + "/.gitjournal", host: host)
  }

  init(root: String, host: String) {
    self.root = root
    self.host = host
    folder = root + "/" + host
    base = PathText.folder(of: root)
  }

  func path(of day: Day) -> String { folder + "/" + day.description + ".tsv" }

  /// This machine's record of `day`, or nil when there is no readable record.
  func read(_ day: Day) -> DayFacts? {
    guard FolderLinks.firstLink(in: folder, below: base) == nil else { return nil }
    return DayRecord.read(path(of: day), day: day)
  }

  /// This machine's folder opened for `readStamped`, refused when it or `root` is a symlink.
  func openFolder() -> OpenFolder {
    OpenFolder(folder, below: base)
  }

  /// `read(_:)` with the stamp of the version read (nil when there is no file to read), from one read of the file
  /// looked up in `folder`, this machine's folder opened; `expected` itself for the facts when the record holds
  /// exactly them (`DayRecord.holds`), which are then not made again from the record's bytes.
  func readStamped(
    _ day: Day, in folder: OpenFolder, expecting expected: DayFacts?
  ) -> (facts: DayFacts?, stamp: FileStamp?) {
    guard let contents = (try? AtomicFile.readContents(day.description + ".tsv", in: folder)) ?? nil else {
      return (nil, nil)
    }
    if let expected, expected.day == day, DayRecord.holds(expected, bytes: contents.bytes) {
      return (expected, contents.stamp)
    }
    return (DayRecord.read(bytes: contents.bytes, day: day), contents.stamp)
  }

  /// The recorded facts of `day`: every machine's record of it, each commit once, less what a machine forgot.
  /// Nil when no machine has a readable record of the day.
  func recorded(_ day: Day) -> DayFacts? {
    recorded(day, machines: machines())
  }

  /// `recorded(day)` with the machines listed by the caller (`machines()`), for many days in a row.
  func recorded(_ day: Day, machines: [String]) -> DayFacts? {
    let records = records(of: day, machines: machines)
    guard !records.isEmpty else { return nil }
    return union(of: day, records: records, machines: machines)
  }

  /// `recorded(day)` with `own` in place of this machine's record: what a writer renders right after building
  /// its own facts, without reading back the record it wrote.
  func recorded(_ day: Day, own: DayFacts) -> DayFacts {
    recorded(day, own: own, machines: machines(), isAlone: nil)
  }

  /// `recorded(day, own:)` with the machines listed by the caller (`machines()`), and `isAlone` (`isAlone(among:)`)
  /// when it knows it.
  func recorded(_ day: Day, own: DayFacts, machines: [String], isAlone: Bool?) -> DayFacts {
    // One machine, the usual case: its facts are the day's.
    if isAlone ?? self.isAlone(among: machines) { return own }
    var records = records(of: day, machines: machines.filter { $0 != host })
    records.append((host, own))
    return union(of: day, records: records, machines: machines)
  }

  /// Whether this machine's records are the only ones among `machines` and it forgot no commit: its facts of a day
  /// are then the day's.
  func isAlone(among machines: [String]) -> Bool {
    machines.allSatisfy { $0 == host } && access(folder + "/" + ForgottenCommits.fileName, F_OK) != 0
  }

  /// One machine's record of `day` (`show --host`), or nil.
  func record(of day: Day, host name: String) -> DayFacts? {
    guard FolderLinks.firstLink(in: root + "/" + name, below: base) == nil else { return nil }
    return listedRecord(of: day, host: name)
  }

  /// `record(of:host:)` of a machine `machines()` listed, whose folders it looked at.
  private func listedRecord(of day: Day, host name: String) -> DayFacts? {
    DayRecord.read(root + "/" + name + "/\(day).tsv", day: day)
  }

  /// Every machine's readable record of `day`.
  func records(of day: Day) -> [(host: String, facts: DayFacts)] {
    records(of: day, machines: machines())
  }

  private func records(of day: Day, machines: [String]) -> [(host: String, facts: DayFacts)] {
    machines.compactMap { name in listedRecord(of: day, host: name).map { (name, $0) } }
  }

  /// The machines with a folder of records, this one included once it wrote, sorted by name.
  func machines() -> [String] {
    // No machine's records are read through a symlink: not `root`'s, nor a machine folder's.
    var info = stat()
    if lstat(root, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK { return [] }
    // readdir, not FileManager: every day's render lists this folder.
    return FolderListing.folders(in: root).filter(HostName.isValid).sorted()
  }

  /// The days this machine has a record of, oldest first.
  func days() -> [Day] {
    days(in: folder)
  }

  /// The days any machine has a record of, oldest first.
  func allDays() -> [Day] {
    Set(machines().flatMap { days(in: root + "/" + $0) }).sorted()
  }

  private func days(in folder: String) -> [Day] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.compactMap { name in
      name.hasSuffix(".tsv") ? Day(iso: String(name.dropLast(4))) : nil
    }.sorted()
  }

  /// When each machine last wrote a record, newest record per machine, sorted by machine (`doctor`). Sync tools
  /// keep a file's modification time, so this is when that machine wrote it, not when it arrived.
  func lastWritten() -> [(host: String, date: Date?, days: Int)] {
    machines().map { name in
      let folder = root + "/" + name
      let recorded = days(in: folder)
      let newest = recorded.compactMap { FileStamp(path: folder + "/\($0).tsv")?.modified }.max()
      return (name, newest, recorded.count)
    }
  }

  /// When the record of `day` was last written, or nil when there is none.
  func modificationTime(of day: Day) -> Date? {
    FileStamp(path: path(of: day))?.modified
  }

  /// Replaces the record of `day`. Nothing is written when the record already says the same: `recorded` is what
  /// the caller read of it, or `.unread` to have the file read and compared here. Returns whether the file was
  /// written.
  @discardableResult
  func write(
    _ facts: DayFacts, durable: Bool, recorded: KnownRecord = .unread, folderSyncs: AtomicFile.FolderSyncs? = nil
  ) throws(SystemError) -> Bool {
    if case .read(let previous) = recorded, previous == facts { return false }
    let bytes = StateFile.bytes(of: DayRecord.records(of: facts))
    let path = path(of: facts.day)
    try FolderLinks.requireNone(in: folder, below: base)
    if recorded == .unread, let existing = try? AtomicFile.readOwnFile(path), existing.bytes == bytes {
      return false
    }
    // A symlink in the record's place is replaced, never written through.
    return try AtomicFile.write(
      bytes: bytes, to: path, durable: durable, holdingLock: true, unlessChangedFrom: nil, folderSyncs: folderSyncs,
      destination: AtomicFile.Destination(replacing: path), creatingFolder: folder)
  }

  /// Removes the record of `day` (a day whose facts were all forgotten).
  func remove(_ day: Day) {
    unlink(path(of: day))
  }

  /// The commits each machine forgot (`repos remove --forget`), by machine; machines that forgot none are left
  /// out. See `DayFacts.union`.
  func forgotten() -> [String: Set<ObjectID>] {
    forgottenLists(machines: machines()).mapValues(\.ids)
  }

  /// The union of `records` (`DayFacts.union`), with this machine's own record first and what each of
  /// `machines` forgot.
  private func union(of day: Day, records: [(host: String, facts: DayFacts)], machines: [String]) -> DayFacts {
    let lists = forgottenLists(machines: machines)
    return DayFacts.union(
      of: day, records: records, forgotten: lists.mapValues(\.ids), forgottenProjects: lists.mapValues(\.projects),
      own: host)
  }

  private func forgottenLists(machines: [String]) -> [String: ForgottenCommits.List] {
    var forgotten: [String: ForgottenCommits.List] = [:]
    for name in machines {
      let list = ForgottenCommits.readList(root + "/" + name + "/" + ForgottenCommits.fileName)
      if !list.ids.isEmpty { forgotten[name] = list }
    }
    return forgotten
  }

  /// Adds `ids`, forgotten with the projects named `projects`, to this machine's list of forgotten commits.
  func forget(
    _ ids: Set<ObjectID>, projects: Set<String> = [], folderSyncs: AtomicFile.FolderSyncs? = nil
  ) throws(SystemError) {
    let path = folder + "/" + ForgottenCommits.fileName
    let known = ForgottenCommits.readList(path)
    guard !ids.isSubset(of: known.ids) || !projects.isSubset(of: known.projects) else { return }
    try FolderLinks.requireNone(in: folder, below: base)
    try makeFolders(folder)
    let list = ForgottenCommits.List(ids: known.ids.union(ids), projects: known.projects.union(projects))
    _ = try AtomicFile.write(
      bytes: ForgottenCommits.bytes(of: list), to: path, durable: true, holdingLock: true,
      unlessChangedFrom: nil, folderSyncs: folderSyncs, destination: AtomicFile.Destination(replacing: path))
  }
}
