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
