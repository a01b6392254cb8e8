import Foundation

/// Reads the commits one repository contributes to a span of time, with their line statistics.
struct CommitReader {
  let repository: Repository
  let authors: AuthorFilter
  let includeMerges: Bool
  let statsCache: StatsCache
  let tipTimes: TipTimes
  var windowCache = WindowCache(folder: nil)
  /// Threads that compute line statistics; each opens its own libgit2 handle.
  var workers = ProcessResources.activeProcessorCount

  /// Below this many commits to diff, starting more threads costs more than it saves.
  static let parallelThreshold = 64

  /// Commits reachable from the local branches or HEAD whose author time lies in `start..<end` (seconds since
  /// 1970), each once, rebased or cherry-picked copies folded into one. The walk stops soon after it passes
  /// `start`, so the cost follows the span asked for, not the history.
  func commits(authoredFrom start: Int64?, to end: Int64?) throws(GitError) -> [CommitRecord] {
    let tips = try repository.tipIDs()
    var windowKey: WindowCache.Key?
    if let start, let end, end - start <= WindowCache.longestSpan {
      let key = WindowCache.Key(
        tips: tips, start: start, end: end, authors: authors, includeMerges: includeMerges,
        mailmap: repository.mailmapSources())
      if let records = windowCache.records(for: key) { return records }
      windowKey = key
    }
    let records = try walk(from: tips, authoredFrom: start, to: end)
    if let windowKey { windowCache.store(records, for: windowKey) }
    return records
  }

  private func walk(from tips: [ObjectID], authoredFrom start: Int64?, to end: Int64?) throws(GitError)
    -> [CommitRecord]
  {
    let mailmap = repository.mailmap()
    // The walk stops by committer time, which is never earlier than the author time unless the author date was
    // set by hand into the future (GIT_AUTHOR_DATE=2100-...): a span that has not begun yet is walked whole.
    let stopBefore = start.flatMap { $0 > Int64(Date().timeIntervalSince1970) ? nil : $0 }
    let walk = try HistoryWalk(repository: repository, tips: tips, stopBefore: stopBefore, tipTimes: tipTimes)
    tipTimes.save(keeping: tips)
    // One record per copy key: a rebased or cherry-picked copy replaces the kept one when it was committed
    // later (ties: the smaller id), so the choice never depends on the order the walk meets them.
    var kept: [CommitRecord.CopyKey: (record: CommitRecord, id: ObjectID, committed: Int64)] = [:]
    while let commit = try walk.next() {
      let isMerge = commit.parentCount > 1
      if isMerge && !includeMerges { continue }
      let author = commit.author(mailmap: mailmap)
      if let start, author.time < start { continue }
      if let end, author.time >= end { continue }
      guard authors.includes(email: author.email) else { continue }
      let id = commit.id
      let record = CommitRecord(
        id: id.hex, authorName: author.name, authorEmail: author.email, authoredAt: author.time,
        authorOffsetMinutes: author.offsetMinutes, subject: commit.subject, isMerge: isMerge, stats: .zero)
      let committed = commit.committerTime
      if let other = kept[record.copyKey], (other.committed, id) >= (committed, other.id) { continue }
      kept[record.copyKey] = (record, id, committed)
    }

    var records: [CommitRecord] = []
    var toDiff: [(index: Int, id: ObjectID)] = []
    for (record, id, _) in kept.values.sorted(by: { $0.id < $1.id }) {
      var record = record
      // Like `git log`, a merge shows no diff of its own.
      if !record.isMerge {
        if let cached = statsCache.stats(for: id, authoredAt: record.authoredAt) {
          record.stats = cached
        } else {
          toDiff.append((records.count, id))
        }
      }
      records.append(record)
    }

    let computed = try diffStats(of: toDiff.map(\.id))
    for ((index, id), stats) in zip(toDiff, computed) {
      records[index].stats = stats
      statsCache.store(stats, for: id, authoredAt: records[index].authoredAt)
    }
    statsCache.flush()
    return records
  }

  /// Line statistics of `ids`, in order: on this thread for a few, spread over `workers` threads for many.
  private func diffStats(of ids: [ObjectID]) throws(GitError) -> [DiffStats] {
    let threads = min(workers, ids.count / Self.parallelThreshold + 1)
    guard threads > 1 else {
      return try ids.map { id throws(GitError) in try repository.diffStats(of: repository.commit(id)) }
    }
    let results = ParallelResults(count: ids.count)
    let path = repository.gitDirectory
    DispatchQueue.concurrentPerform(iterations: threads) { worker in
      do throws(GitError) {
        let handle = try Repository.open(at: path)
        for index in stride(from: worker, to: ids.count, by: threads) {
          results.set(index, try handle.diffStats(of: handle.commit(ids[index])))
        }
      } catch {
        results.fail(error)
      }
    }
    return try results.values()
  }
}

/// Slots that parallel workers fill, each index by one worker. `@unchecked Sendable`: every access goes
/// through `lock`.
private final class ParallelResults: @unchecked Sendable {
  private let lock = NSLock()
  private var slots: [DiffStats]
  private var failure: GitError?

  init(count: Int) { slots = Array(repeating: .zero, count: count) }

  func set(_ index: Int, _ stats: DiffStats) { lock.withLock { slots[index] = stats } }

  func fail(_ error: GitError) { lock.withLock { failure = failure ?? error } }

  func values() throws(GitError) -> [DiffStats] {
    lock.lock()
    defer { lock.unlock() }
    if let failure { throw failure }
    return slots
  }
}
