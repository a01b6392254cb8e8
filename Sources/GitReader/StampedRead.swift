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
struct StampedRead {
  private let path: String?
  private let root: String
  private let query: [String]

  /// `cacheDirectory` nil keeps nothing. `query` is everything besides the repository that decides the read.
  init(cacheDirectory: String?, root: String, query: [String]) {
    path = cacheDirectory.map { $0 + "/reads-v1/" + Self.name(of: root) + ".tsv" }
    self.root = root
    self.query = query + Self.configEnvironment
  }

  /// The stored read, when it was stored for this query and every stamped path stamps as it did.
  func current() -> ScannedRepository? {
    guard let path else { return nil }
    var scanned = ScannedRepository(isBare: false, commits: [])
    var index = 0
    var inCommits = false
    var isComplete = false
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
        return Self.holds(record)
      }
    }
    return isComplete ? scanned : nil
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
    try? StateFile.write(records, to: path)
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
  private static func holds(_ record: StateRecord) -> Bool {
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
    // An escaped path (a tab or a backslash in it) is unescaped first.
    let measured =
      record.isEscaped(1)
      ? PathStamp(path: record.text(1), kind: measuredKind) : PathStamp(pathBytes: record.bytes(1), kind: measuredKind)
    return measured == expected
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
  private static let configEnvironment = [environment("HOME"), environment("XDG_CONFIG_HOME")]

  private static func environment(_ name: String) -> String {
    guard let value = getenv(name) else { return "" }
    return String(cString: value)
  }
}
