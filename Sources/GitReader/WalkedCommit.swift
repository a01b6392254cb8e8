import Support

/// A commit as a walk met it: the record the journal keeps, and its committer time, which decides which of a
/// commit's rebased or cherry-picked copies is kept (see `FoldedCommits`) and the order in which commits are
/// diffed.
struct WalkedCommit: Equatable {
  var record: CommitRecord
  /// Committer time in seconds since 1970.
  var committed: Int64
}

extension WalkedCommit {
  /// The commit as a `StateFile` record: `<id> <author time> <offset minutes> <merge 0|1> <committer time>
  /// <files> <insertions> <deletions> <name> <email> <subject> [<branch>]`, without the branch field for none (the
  /// field costs the hook a little for every commit it reads from a cache).
  var fields: [String] {
    let numbers = [
      record.authoredAt, Int64(record.authorOffsetMinutes), record.isMerge ? 1 : 0, committed,
      Int64(record.stats.filesChanged), Int64(record.stats.insertions), Int64(record.stats.deletions),
    ]
    var fields = [record.id.hex] + numbers.map(String.init) + [record.authorName, record.authorEmail, record.subject]
    if let branch = record.branch { fields.append(branch) }
    return fields
  }

  /// The commit read back from its record, or nil when the record is not one. A record without the branch field
  /// (a commit without one, or written before branches were named) gives a commit without a branch.
  init?(_ fields: StateRecord) {
    guard fields.count == 11 || fields.count == 12, let id = fields.objectID(0) else { return nil }
    let numbers = (1...7).compactMap { fields.integer($0) }
    guard numbers.count == 7, numbers[2] == 0 || numbers[2] == 1 else { return nil }
    record = CommitRecord(
      id: id, authorName: fields.text(8), authorEmail: fields.text(9), authoredAt: numbers[0],
      authorOffsetMinutes: Int(numbers[1]), subject: fields.text(10), isMerge: numbers[2] == 1,
      stats: DiffStats(filesChanged: Int(numbers[4]), insertions: Int(numbers[5]), deletions: Int(numbers[6])),
      branch: fields.count == 12 && fields.bytes(11).count > 0 ? fields.text(11) : nil)
    committed = numbers[3]
  }
}

/// The file both caches of walked commits keep (`WindowCache`, `HistoryCache`): a `StateFile` of a record
/// `key <hash>`, the cache's own header records, one record per commit (`WalkedCommit.fields`) and a last record
/// `end`, without which the file was cut short. A file that does not parse, or holds another key, is a miss.
enum WalkedCommitsFile {
  /// The commits in the file at `path` under `key`, with `headerCount` records after the key, each of which
  /// `header` must accept; nil for a miss.
  static func read(
    _ path: String, key: String, headerCount: Int = 0, header: (StateRecord) -> Bool = { _ in true }
  ) -> [WalkedCommit]? {
    var commits: [WalkedCommit] = []
    var isComplete = false
    var isValid = true
    var index = 0
    StateFile.read(path) { record in
      defer { index += 1 }
      if index == 0 {
        isValid = record.count == 2 && record.text(0) == "key" && record.text(1) == key
      } else if index <= headerCount {
        isValid = header(record)
      } else if record.count == 1 && record.text(0) == "end" && !isComplete {
        isComplete = true
      } else if !isComplete, let commit = WalkedCommit(record) {
        commits.append(commit)
      } else {
        isValid = false
      }
      return isValid
    }
    return isValid && isComplete ? commits : nil
  }

  /// Replaces the file. A cache that cannot be written only costs time; it needs no fsync either, since a file
  /// lost or cut short by a crash is a miss.
  static func write(_ commits: [WalkedCommit], key: String, headers: [[String]] = [], to path: String) {
    var records = [["key", key]] + headers
    records += commits.map(\.fields)
    records.append(["end"])
    try? StateFile.write(records, to: path, isCache: true)
  }
}
