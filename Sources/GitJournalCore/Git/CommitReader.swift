/// Reads the commits one repository contributes to a span of time, with their line statistics.
struct CommitReader {
  let repository: Repository
  let authors: AuthorFilter
  let includeMerges: Bool
  let statsCache: StatsCache

  /// Commits reachable from the local branches or HEAD whose author time lies in `start..<end` (seconds since
  /// 1970), each once, rebased or cherry-picked copies folded into one. The walk stops soon after it passes
  /// `start`, so the cost follows the span asked for, not the history.
  func commits(authoredFrom start: Int64?, to end: Int64?) throws(GitError) -> [CommitRecord] {
    defer { statsCache.flush() }
    let mailmap = repository.mailmap()
    let walk = try HistoryWalk(repository: repository, tips: try repository.tipIDs(), stopBefore: start)
    var records: [CommitRecord] = []
    var copies: Set<CommitRecord.CopyKey> = []
    while let commit = try walk.next() {
      let isMerge = commit.parentCount > 1
      if isMerge && !includeMerges { continue }
      let author = commit.author(mailmap: mailmap)
      if let start, author.time < start { continue }
      if let end, author.time >= end { continue }
      guard authors.includes(email: author.email) else { continue }
      var record = CommitRecord(
        id: commit.id.hex, authorName: author.name, authorEmail: author.email, authoredAt: author.time,
        authorOffsetMinutes: author.offsetMinutes, subject: commit.subject, isMerge: isMerge, stats: .zero)
      // The walk yields the newest committed copy first: that one is kept.
      guard copies.insert(record.copyKey).inserted else { continue }
      // Like `git log`, a merge shows no diff of its own.
      if !isMerge { record.stats = try stats(of: commit, authoredAt: author.time) }
      records.append(record)
    }
    return records
  }

  private func stats(of commit: Commit, authoredAt: Int64) throws(GitError) -> DiffStats {
    let id = commit.id
    if let cached = statsCache.stats(for: id, authoredAt: authoredAt) { return cached }
    let stats = try repository.diffStats(of: commit)
    statsCache.store(stats, for: id, authoredAt: authoredAt)
    return stats
  }
}
