import Support

/// The commits whose history holds an author time well after their own committer time, each with the newest author
/// time below it (itself included), kept beside the repository's line statistics (`stats-v2/<repository>/late.tsv`,
/// a `StateFile` whose first record is `tips <id>...`, then `<id> <time>` records).
///
/// A walk newest committer time first stops once every pending commit is older than the span asked for (see
/// `HistoryWalk`), which is right only while no commit's history is newer than itself: imports, `git am` and
/// `git rebase --committer-date-is-author-date` make lines whose committer dates go backwards, and below such a line
/// the walk would miss commits of the span (`git log --since` has the same blind spot). The walk asks for these
/// commits when it is about to stop, and reads further below the ones that reach into its span.
///
/// What lies below a commit never changes, so the list grows with the history: the commits new since the tips it
/// was made for are read once (all of them the first time), down to the commits the old tips reach. An ordinary
/// history, where each commit is committed after what it builds on, has none, and the hook of a commit reads one
/// commit more here than it did.
final class LateCommits {
  private let path: String?
  /// Read once per run.
  private var answer: [ObjectID: Int64]?

  /// `folder` nil keeps nothing: the whole history is read for each answer.
  init(folder: String?) {
    path = folder.map { $0 + "/late.tsv" }
  }

  /// How much newer than a commit's committer time its history may be before the commit counts as late: the walk
  /// tolerates that much already (`HistoryWalk.clockSkewSlop`).
  static let tolerance = HistoryWalk.clockSkewSlop

  /// The late commits reachable from `tips`, each with the newest author time in its history. `tipTimes` gives the
  /// committer times of tips known already.
  func latest(for tips: [ObjectID], in repository: Repository, tipTimes: TipTimes?) -> [ObjectID: Int64] {
    if let answer { return answer }
    var storedTips: [ObjectID]?
    var late: [ObjectID: Int64] = [:]
    if let path {
      StateFile.read(path) { record in
        if storedTips == nil {
          guard record.text(0) == "tips" else { return false }
          storedTips = (1..<max(record.count, 1)).compactMap { record.objectID($0) }
          return true
        }
        if record.count == 2, let id = record.objectID(0), let time = record.integer(1) { late[id] = time }
        return true
      }
    }
    if let storedTips, Set(storedTips) == Set(tips) {
      answer = late
      return late
    }
    var update = Update(repository: repository, tipTimes: tipTimes, known: late)
    guard update.read(from: tips, below: storedTips ?? []) else {
      // A commit that cannot be read: the history is damaged, and the walk finds that itself. Nothing is stored,
      // so the next run tries again.
      answer = late
      return late
    }
    late = update.known
    answer = late
    if let path {
      let records =
        [["tips"] + tips.map(\.hex)] + late.sorted { $0.key < $1.key }.map { [$0.key.hex, String($0.value)] }
      try? StateFile.write(records, to: path, isCache: true)
    }
    return late
  }

  /// One reading of the commits that `tips` reach and the old tips do not, from the newest committer time down, as
  /// `git rev-list <tips> --not <old tips>` reads them: the old tips' history is walked beside the new, and once
  /// every pending commit is one the old tips reach, the rest is known.
  private struct Update {
    let repository: Repository
    let tipTimes: TipTimes?
    /// The late commits known, those found new added.
    var known: [ObjectID: Int64]

    private struct Entry: Comparable {
      let time: Int64
      let id: ObjectID
      let isOld: Bool
      /// Nil for an old tip queued from its known time; read when it comes up.
      let commit: Commit?
      static func < (lhs: Entry, rhs: Entry) -> Bool {
        lhs.time != rhs.time ? lhs.time > rhs.time : (lhs.id, lhs.isOld ? 0 : 1) < (rhs.id, rhs.isOld ? 0 : 1)
      }
      static func == (lhs: Entry, rhs: Entry) -> Bool { lhs.id == rhs.id && lhs.isOld == rhs.isOld }
    }

    private var queue = Heap<Entry>()
    /// Commits the old tips reach.
    private var old: Set<ObjectID> = []
    private var queuedNew: Set<ObjectID> = []
    private var pendingNew = 0
    /// The committer time of every commit met.
    private var committed: [ObjectID: Int64] = [:]
    /// The new commits: author time and parents.
    private var new: [ObjectID: (authored: Int64, parents: [ObjectID])] = [:]

    init(repository: Repository, tipTimes: TipTimes?, known: [ObjectID: Int64]) {
      self.repository = repository
      self.tipTimes = tipTimes
      self.known = known
    }

    /// False when a commit could not be read.
    mutating func read(from tips: [ObjectID], below oldTips: [ObjectID]) -> Bool {
      do throws(GitError) {
        // Old tips are read only when the walk comes down to them: most are older than anything new.
        for tip in oldTips where !old.contains(tip) {
          if let time = tipTimes?.time(of: tip) {
            old.insert(tip)
            committed[tip] = time
            queue.push(Entry(time: time, id: tip, isOld: true, commit: nil))
          } else if let commit = try? repository.commit(tip) {
            // One that is no longer a commit (a deleted branch, collected since) leaves its history to be read as
            // new: more reading, never less.
            push(commit, isOld: true)
          }
        }
        for tip in tips where !old.contains(tip) && !queuedNew.contains(tip) {
          push(try repository.commit(tip), isOld: false)
        }
        while pendingNew > 0, let entry = queue.popMin() {
          if entry.isOld {
            guard let commit = entry.commit ?? (try? repository.commit(entry.id)) else { continue }
            for index in 0..<commit.parentCount {
              guard let parent = commit.parentID(index), !old.contains(parent) else { continue }
              guard let commit = try? repository.commit(parent) else { continue }
              push(commit, isOld: true)
            }
            continue
          }
          pendingNew -= 1
          guard !old.contains(entry.id), let commit = entry.commit else { continue }
          var parents: [ObjectID] = []
          for index in 0..<commit.parentCount {
            guard let parent = commit.parentID(index) else { continue }
            parents.append(parent)
            if old.contains(parent) || queuedNew.contains(parent) { continue }
            push(try repository.commit(parent), isOld: false)
          }
          new[entry.id] = (commit.author(mailmap: nil).time, parents)
        }
      } catch {
        return false
      }
      addLate()
      return true
    }

    private mutating func push(_ commit: Commit, isOld: Bool) {
      let id = commit.id
      let time = committed[id] ?? commit.committerTime
      committed[id] = time
      if isOld {
        old.insert(id)
      } else {
        queuedNew.insert(id)
        pendingNew += 1
      }
      queue.push(Entry(time: time, id: id, isOld: isOld, commit: commit))
    }

    /// Works out the newest author time below each new commit, parents before children, and keeps the late ones.
    private mutating func addLate() {
      var newest: [ObjectID: Int64] = [:]
      newest.reserveCapacity(new.count)
      var stack: [(id: ObjectID, isExpanded: Bool)] = []
      for start in new.keys where newest[start] == nil {
        stack.append((start, false))
        while let (id, isExpanded) = stack.popLast() {
          guard newest[id] == nil, let commit = new[id] else { continue }
          if isExpanded {
            newest[id] = commit.parents.reduce(commit.authored) { max($0, bound(of: $1, newest: newest)) }
            continue
          }
          stack.append((id, true))
          for parent in commit.parents where new[parent] != nil && newest[parent] == nil {
            stack.append((parent, false))
          }
        }
      }
      for (id, time) in newest where time > (committed[id] ?? time) + LateCommits.tolerance { known[id] = time }
    }

    /// The newest author time below `id` (a parent of a new commit), or a time no earlier.
    private func bound(of id: ObjectID, newest: [ObjectID: Int64]) -> Int64 {
      if let time = newest[id] { return time }
      if let time = known[id] { return time }
      // An old commit that is not late: nothing below it is newer than its committer time and the tolerance.
      // A parent never read (a missing object) bounds nothing.
      return committed[id].map { $0 + LateCommits.tolerance } ?? .min
    }
  }
}
