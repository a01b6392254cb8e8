import Support

/// Line statistics computed while a long walk is still finding commits.
///
/// A rebuild's walk reads commits on one thread for a fifth of its time; the diffs of the commits it has found
/// need not wait for it. A thread of its own diffs them as the walk hands them over, in the walk's order (newest
/// first, so a commit's diff reads what its child's just read); once the walk ends, the walking thread diffs
/// beside it until none are left. Each thread has its own handle of the repository and its own reader of the
/// packs, which are mapped once for both.
final class DiffPipeline: @unchecked Sendable {
  private let condition = Condition()
  private var targets: [(id: ObjectID, target: DiffTarget)] = []
  private var next = 0
  private var isClosed = false
  private var isAbandoned = false
  private var consumers = 0
  private var results: [ObjectID: DiffStats] = [:]
  private var failure: GitError?

  private let gitDirectory: String
  private let filter: PathFilter?
  /// The packs, mapped once for every thread that diffs this walk's commits.
  let packs: PackedObjects

  /// Starts the thread that diffs, which waits for the first commits.
  init(repository: Repository, filter: PathFilter?) {
    gitDirectory = repository.gitDirectory
    self.filter = filter
    packs = PackedObjects(objectsFolder: repository.commonDirectory + "/objects")
    consumers = 1
    // Without a thread of its own, the walking thread diffs every commit in `finish()`.
    if !SideThreads.detach({ [self] in consume() }) { consumers = 0 }
  }

  /// Hands over a commit to diff (from the walking thread).
  func add(_ id: ObjectID, _ target: DiffTarget) {
    condition.lock()
    targets.append((id, target))
    condition.signal()
    condition.unlock()
  }

  /// Ends the handing over, diffs on this thread too until every commit handed over is done, and gives their
  /// statistics by commit id.
  func finish() throws(GitError) -> [ObjectID: DiffStats] {
    condition.lock()
    isClosed = true
    consumers += 1
    condition.broadcast()
    condition.unlock()
    consume()
    condition.lock()
    defer { condition.unlock() }
    while consumers > 0 { condition.wait() }
    if let failure { throw failure }
    return results
  }

  /// Stops the diffing without waiting for it, when the walk failed: what is left undone is never asked for.
  /// Harmless after `finish()`.
  func abandon() {
    condition.lock()
    isClosed = true
    isAbandoned = true
    condition.broadcast()
    condition.unlock()
  }

  /// Takes runs of the commits handed over and diffs them, until the handing over is closed and none are left
  /// (or a diff failed).
  private func consume() {
    defer {
      condition.lock()
      consumers -= 1
      condition.broadcast()
      condition.unlock()
    }
    let handle: Repository
    do throws(GitError) {
      handle = try Repository.open(at: gitDirectory)
      handle.recentObjects = RecentObjects()
      handle.readObjects(through: PackReader(objects: packs))
    } catch {
      fail(error)
      return
    }
    while let run = nextRun() {
      var computed: [(ObjectID, DiffStats)] = []
      computed.reserveCapacity(run.count)
      do throws(GitError) {
        for (id, target) in run { computed.append((id, try handle.diffStats(of: target, excluding: filter))) }
      } catch {
        fail(error)
        return
      }
      condition.lock()
      for (id, stats) in computed { results[id] = stats }
      condition.unlock()
    }
  }

  /// Up to `CommitReader.parallelThreshold` neighbouring commits, waiting while there are none yet; nil once the
  /// handing over is closed and all are taken, or a diff failed.
  private func nextRun() -> ArraySlice<(id: ObjectID, target: DiffTarget)>? {
    condition.lock()
    defer { condition.unlock() }
    while next == targets.count && !isClosed && failure == nil { condition.wait() }
    guard failure == nil, !isAbandoned, next < targets.count else { return nil }
    let run = targets[next..<min(next + CommitReader.parallelThreshold, targets.count)]
    next = run.endIndex
    return run
  }

  private func fail(_ error: GitError) {
    condition.lock()
    failure = failure ?? error
    condition.broadcast()
    condition.unlock()
  }
}
