import Support

/// Walks the commits reachable from a set of tips, newest committer time first, each commit once, and stops
/// early once every pending commit is older than `stopBefore`.
///
/// A line of history whose committer dates go backwards (an import, `git am`) may hold commits of the span below a
/// commit older than it: before it stops, the walk asks `late` which commits reach newer history than their own
/// time (see `LateCommits`), and walks below those that reach into the span.
///
/// libgit2 1.5's time-sorted revwalk reads the whole history before it yields anything; this walk keeps its
/// own queue ordered by committer time, so a scan of today reads only today's commits and a few more. Tips
/// whose committer time is already known (`TipTimes`) are queued without reading them, so old branches cost
/// nothing.
final class HistoryWalk {
  /// Clock skew tolerated between a commit and its parents: a parent may claim to be this much newer than
  /// its child and still be found.
  static let clockSkewSlop: Int64 = 24 * 60 * 60

  private let repository: Repository
  private let stopBefore: Int64?
  private var queue = Heap<Entry>()
  private var seen: Set<ObjectID> = []
  /// Commits whose history the caller already has: met, but neither read nor walked below.
  private let covered: Set<ObjectID>
  /// Asked once, when the walk would stop: the late commits of the history and the newest author time below each.
  private var late: (() -> [ObjectID: Int64])?
  /// What `late` answered: each of these is queued as if it were committed as late as its history reaches.
  private var lateTimes: [ObjectID: Int64] = [:]

  private struct Entry: Comparable {
    let time: Int64
    let id: ObjectID
    /// Nil for a tip queued from its known time; read when it comes up.
    let commit: Commit?
    /// Newest first; ties broken by id so the order never depends on hashing.
    static func < (lhs: Entry, rhs: Entry) -> Bool {
      lhs.time != rhs.time ? lhs.time > rhs.time : lhs.id < rhs.id
    }
    static func == (lhs: Entry, rhs: Entry) -> Bool { lhs.id == rhs.id }
  }

  /// `stopBefore` is a committer time; nil walks all history. `tipTimes` remembers the committer times of
  /// tips between runs. `covered` commits are not walked: the caller holds what lies below them.
  init(
    repository: Repository, tips: [ObjectID], stopBefore: Int64?, tipTimes: TipTimes? = nil,
    covered: Set<ObjectID> = [], late: (() -> [ObjectID: Int64])? = nil
  ) throws(GitError) {
    self.repository = repository
    self.stopBefore = stopBefore.map { $0 - Self.clockSkewSlop }
    self.covered = covered
    self.late = late
    for tip in tips where seen.insert(tip).inserted && !covered.contains(tip) {
      if let time = tipTimes?.time(of: tip) {
        queue.push(Entry(time: time, id: tip, commit: nil))
        continue
      }
      // A branch that points at something other than a commit is not part of the journal.
      guard let commit = try? repository.commit(tip) else { continue }
      tipTimes?.record(tip, time: commit.committerTime)
      queue.push(Entry(time: commit.committerTime, id: tip, commit: commit))
    }
  }

  /// Whether the walk has met `id` so far: it is reachable from the tips.
  func hasReached(_ id: ObjectID) -> Bool { seen.contains(id) }

  private func enqueue(_ id: ObjectID) throws(GitError) {
    guard seen.insert(id).inserted, !covered.contains(id) else { return }
    let commit = try repository.commit(id)
    queue.push(Entry(time: queuedTime(of: id, committed: commit.committerTime), id: id, commit: commit))
  }

  /// Where a commit goes in the queue: at its committer time, or for a late one where its history reaches, less the
  /// slop the stop allows for (the stop then passes it only once nothing below it can be in the span).
  private func queuedTime(of id: ObjectID, committed: Int64) -> Int64 {
    guard !lateTimes.isEmpty, let reach = lateTimes[id] else { return committed }
    return max(committed, reach - Self.clockSkewSlop)
  }

  /// Asks `late` (once) whether anything pending reaches newer history than its time; if so, the queue is ordered
  /// again with their reach and true is returned: the walk goes on.
  private func requeueLate(_ stopped: Entry) -> Bool {
    guard let late else { return false }
    self.late = nil
    lateTimes = late()
    guard !lateTimes.isEmpty else { return false }
    var pending = [stopped]
    while let entry = queue.popMin() { pending.append(entry) }
    for entry in pending {
      queue.push(Entry(time: queuedTime(of: entry.id, committed: entry.time), id: entry.id, commit: entry.commit))
    }
    return true
  }

  /// The next commit, or nil when the walk is over. Errors (a missing or corrupt object) reach the caller.
  func next() throws(GitError) -> Commit? {
    while let entry = queue.popMin() {
      if let stopBefore, entry.time < stopBefore {
        if requeueLate(entry) { continue }
        return nil
      }
      // A tip queued from its remembered time is read now; one that is no longer a commit is skipped.
      guard let commit = entry.commit ?? (try? repository.commit(entry.id)) else { continue }
      for index in 0..<commit.parentCount {
        if let parent = commit.parentID(index) { try enqueue(parent) }
      }
      return commit
    }
    return nil
  }
}
