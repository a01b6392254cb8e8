import Support

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The last short-span read of one configured repository, kept with the stamp of what decided it (see
/// `RepositoryStamp`): while the stamp holds, the hook takes the read from here without opening the repository
/// with libgit2, so a repository nobody committed in costs a few `stat` calls and one small file.
///
/// One `StateFile` per configured folder under `<cache>/reads-v1/`, named by a hash of the folder: a record
/// `read <folder>`, a record `query <fields>...` (the span, the author filter, merges, `HOME` and
/// `XDG_CONFIG_HOME`), a record `repository <bare 0|1> <common dir>`, one record per stamped path (`absent
/// <path>`, `node <path> <folder 0|1> <device> <inode>` or `full <path> <folder 0|1> <device> <inode> <size>
/// <mtime s> <mtime ns> <ctime s> <ctime ns>`), a record `commits`, one record per commit (see
/// `WalkedCommit.fields`; the committer time is not kept) and a last record `end`. Anything else is a miss.
package struct StampedRead {
  private let path: String?
  private let root: String
  private let query: [String]

  /// `cacheDirectory` nil keeps nothing. `query` is everything besides the repository that decides the read (see
  /// `Query`).
  init(cacheDirectory: String?, root: String, query: Query) {
    path = cacheDirectory.map { $0 + "/reads-v1/" + Self.name(of: root) + ".tsv" }
    self.root = root
    self.query = query.fields
  }

  /// What decides a read besides the repository: the given fields and the environment that decides the global
  /// config files. The same for every repository a reading reads, so it is made once for them all.
  package struct Query: Sendable, Equatable {
    let fields: [String]

    init(_ fields: [String]) { self.fields = fields + StampedRead.configEnvironment }
  }

  /// The stored read, when it was stored for this query and every stamped path stamps as it did.
  func current() -> ScannedRepository? {
    guard let path else { return nil }
    var scanned = ScannedRepository(isBare: false, commits: [])
    var index = 0
    var inCommits = false
    var isComplete = false
    let folder = Folder(root)
    defer { folder.release() }
    StateFile.read(path) { record in
      defer { index += 1 }
      switch index {
      case 0: return record.count == 2 && record.field(0, is: "read") && record.field(1, equals: root)
      case 1: return record.count == query.count + 1 && record.field(0, is: "query") && matches(record, query)
      case 2:
        guard record.count == 3, record.field(0, is: "repository"), let bare = record.integer(1), bare <= 1 else {
          return false
        }
        scanned.isBare = bare == 1
        scanned.commonDirectory = record.text(2)
        return true
      default:
        if inCommits {
          if record.count == 1 && record.field(0, is: "end") {
            isComplete = true
            return false
          }
          guard let commit = WalkedCommit(record) else { return false }
          scanned.commits.append(commit.record)
          return true
        }
        if record.count == 1 && record.field(0, is: "commits") {
          inCommits = true
          return true
        }
        return Self.holds(record, under: folder)
      }
    }
    return isComplete ? scanned : nil
  }

  /// The configured folder, open for looking up the stamped paths below it (`.git/HEAD`, `.git/refs/heads/...`)
  /// relative to it: with absolute paths, a hundred repositories' stamps cost the kernel a lookup per component of
  /// every path, most of the hook's `stat` time.
  struct Folder {
    /// -1 when the folder could not be opened (no read permission): every path is then looked up whole.
    let descriptor: Int32
    /// The folder's bytes.
    let prefix: [UInt8]

    init(_ path: String) {
      descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
      prefix = Array(path.utf8)
    }

    func release() { if descriptor >= 0 { close(descriptor) } }

    /// The part of `bytes` below the folder, or nil when it is not below it or the folder is not open.
    func relative(_ bytes: Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer>? {
      let length = prefix.count
      guard descriptor >= 0, bytes.count > length + 1, bytes[bytes.startIndex + length] == UInt8(ascii: "/"),
        prefix.withUnsafeBytes({ memcmp($0.baseAddress!, bytes.base.baseAddress! + bytes.startIndex, length) }) == 0
      else { return nil }
      return bytes[(bytes.startIndex + length + 1)...]
    }
  }

  /// Keeps `scanned` under `stamp`; nil (no stamp could be trusted) removes what was kept.
  func store(_ scanned: ScannedRepository, stamp: RepositoryStamp?) {
    guard let path else { return }
    guard let stamp else {
      unlink(path)
      return
    }
    var records = [
      ["read", root], ["query"] + query, ["repository", scanned.isBare ? "1" : "0", scanned.commonDirectory],
    ]
    for (file, entry) in stamp.entries { records.append(Self.fields(file, entry)) }
    records.append(["commits"])
    records += scanned.commits.map { WalkedCommit(record: $0, committed: 0).fields }
    records.append(["end"])
    try? StateFile.write(records, to: path, isCache: true)
  }

  private func matches(_ record: StateRecord, _ fields: [String]) -> Bool {
    fields.indices.allSatisfy { record.field($0 + 1, equals: fields[$0]) }
  }

  private static func fields(_ file: String, _ stamp: PathStamp) -> [String] {
    let folder = stamp.isFolder ? "1" : "0"
    switch stamp.kind {
    case .absent: return ["absent", file]
    case .node: return ["node", file, folder, String(stamp.device), String(stamp.inode)]
    case .full:
      let numbers = [
        stamp.size, stamp.modified.seconds, stamp.modified.nanoseconds, stamp.changed.seconds,
        stamp.changed.nanoseconds,
      ]
      return ["full", file, folder, String(stamp.device), String(stamp.inode)] + numbers.map(String.init)
    }
  }

  /// Whether the path of a stamp record stamps as the record says; false for a record that is not one.
  private static func holds(_ record: StateRecord, under folder: Folder) -> Bool {
    let expected: PathStamp
    if record.count == 2 && record.field(0, is: "absent") {
      expected = .absent
    } else if (record.count == 5 && record.field(0, is: "node")) || (record.count == 10 && record.field(0, is: "full"))
    {
      let isFull = record.count == 10
      // The numbers are parsed in one pass over the record: the hook checks a dozen for each stamped path.
      let parsed = withUnsafeTemporaryAllocation(of: Int64.self, capacity: 8) { numbers -> PathStamp? in
        let count = isFull ? 8 : 3
        guard record.integers(from: 2, into: UnsafeMutableBufferPointer(rebasing: numbers[0..<count])) else {
          return nil
        }
        let folder = numbers[0]
        guard folder == 0 || folder == 1, numbers[1] >= 0, numbers[2] >= 0 else { return nil }
        func time(_ at: Int) -> PathStamp.Timestamp {
          isFull ? PathStamp.Timestamp(seconds: numbers[at], nanoseconds: numbers[at + 1]) : PathStamp.Timestamp()
        }
        return PathStamp(
          kind: isFull ? .full : .node, isFolder: folder == 1, device: UInt64(numbers[1]), inode: UInt64(numbers[2]),
          size: isFull ? numbers[3] : 0, modified: time(4), changed: time(6))
      }
      guard let parsed else { return false }
      expected = parsed
    } else {
      return false
    }
    let measuredKind: PathStamp.Kind = expected.kind == .absent ? .full : expected.kind
    if measuredKind == .full, let shared = sharedStamp(record.bytes(1)) { return shared == expected }
    // An escaped path (a tab or a backslash in it) is unescaped first.
    let measured: PathStamp
    if record.isEscaped(1) {
      measured = PathStamp(path: record.text(1), kind: measuredKind)
    } else if let below = folder.relative(record.bytes(1)) {
      measured = PathStamp(pathBytes: below, in: folder.descriptor, kind: measuredKind)
    } else {
      measured = PathStamp(pathBytes: record.bytes(1), kind: measuredKind)
    }
    return measured == expected
  }

  /// The global, XDG and system config files, stamped once per process: every repository's stamp has them, and a
  /// hook with a hundred repositories would `stat` each a hundred times. A change to one while a hook runs counts
  /// from the next hook, as a change to a repository's refs just after its check does.
  private static let sharedStamps: [(path: [UInt8], stamp: PathStamp)] = {
    guard let home = configEnvironment.first, !home.isEmpty else { return [] }
    return RepositoryStamp.globalConfigFiles(home: home).map { (Array($0.utf8), PathStamp(path: $0, kind: .full)) }
  }()

  private static func sharedStamp(_ path: Slice<UnsafeRawBufferPointer>) -> PathStamp? {
    let bytes = UnsafeRawBufferPointer(rebasing: path)
    guard let base = bytes.baseAddress else { return nil }
    for shared in sharedStamps where shared.path.count == bytes.count {
      if shared.path.withUnsafeBytes({ memcmp($0.baseAddress!, base, bytes.count) }) == 0 { return shared.stamp }
    }
    return nil
  }

  /// FNV-1a of the folder's bytes, in hex: a name, not a check (the first record holds the folder).
  private static func name(of root: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    var bytes = root
    bytes.withUTF8 { for byte in $0 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 } }
    let digits = Array("0123456789abcdef".utf8)
    return String(unsafeUninitializedCapacity: 16) { buffer in
      for index in 0..<16 { buffer[index] = digits[Int((hash >> UInt64(60 - 4 * index)) & 0xf)] }
      return 16
    }
  }

  /// `HOME` and `XDG_CONFIG_HOME`, which decide the global config files: read once, as libgit2 finds those files
  /// once per process.
  fileprivate static let configEnvironment = [environment("HOME"), environment("XDG_CONFIG_HOME")]

  private static func environment(_ name: String) -> String {
    guard let value = getenv(name) else { return "" }
    return String(cString: value)
  }
}
