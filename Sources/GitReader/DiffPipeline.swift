import Support

/// Line statistics computed while a long walk is still finding commits, in two steps.
///
/// First each commit's trees are diffed (`DiffPlan`): a thread of its own does it as the walk hands commits over,
/// in the walk's order (newest first, so a commit's trees are mostly its child's); once the walk ends, the walking
/// thread joins it. Then the files' lines are counted, each distinct `FileWork` once, in the order their blobs lie
/// in the pack. git stores a file's versions as a chain of deltas, each base before the deltas made from it: read
/// in that order, each version is one delta applied to the one just read (kept in `DeltaBases`). Read commit by
/// commit, a version's chain was mostly walked again from its base: on libgit2's history, four times the inflating
/// and more than twice the copying of the pack's order (docs/architecture.md, "How the speed is reached").
///
/// Each thread has its own handle of the repository and its own reader of the packs, which are mapped once for
/// both.
final class DiffPipeline: @unchecked Sendable {
  private let condition = Condition()
  private var targets: [(id: ObjectID, target: DiffTarget)] = []
  private var next = 0
  /// Runs of targets taken and not yet planned.
  private var planning = 0
  private var isClosed = false
  private var isAbandoned = false
  private var consumers = 0
  /// Each planned commit's known statistics and where its files' numbers are in `planFiles`.
  private var plans: [(id: ObjectID, known: DiffStats, files: Range<Int>)] = []
  /// The planned commits' files, as numbers in `files`.
  private var planFiles: [Int32] = []
  /// Each distinct file to count once, numbered in the order it was first planned.
  private var files: [FileWork] = []
  /// The files' numbers while commits are planned.
  private var fileNumbers: [FileWork: Int32] = [:]
  /// The files' numbers in the order they are counted, once every plan is made; how far they are taken.
  private var order: [Int32]?
  private var nextInOrder = 0
  /// Each file's lines, by number.
  private var counted: [DiffStats] = []
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
    var stats: [ObjectID: DiffStats] = [:]
    stats.reserveCapacity(plans.count)
    for plan in plans {
      stats[plan.id] = planFiles[plan.files].reduce(plan.known) { $0 + counted[Int($1)] }
    }
    // Let go at once: the pipeline is kept until the walk's records are, and these grow with the history.
    (targets, plans, planFiles, files, order, counted) = ([], [], [], [], nil, [])
    return stats
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

  /// Plans runs of the commits handed over until the handing over is closed and none are left, then counts runs
  /// of the files until none are left (or something failed).
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
    do throws(GitError) {
      while let run = nextRun() {
        var planned: [(ObjectID, DiffPlan)] = []
        planned.reserveCapacity(run.count)
        for (id, target) in run { planned.append((id, try handle.diffPlan(of: target, excluding: filter))) }
        condition.lock()
        for (id, plan) in planned { keep(plan, of: id) }
        planning -= 1
        condition.broadcast()
        condition.unlock()
      }
      while let run = nextFileRun() {
        var lines: [(Int32, DiffStats)] = []
        lines.reserveCapacity(run.count)
        for (file, number) in run {
          handle.recentObjects?.startDiff()
          lines.append((number, try file.lineChanges(in: handle)))
        }
        condition.lock()
        for (number, stats) in lines { counted[Int(number)] = stats }
        condition.unlock()
      }
    } catch {
      fail(error)
    }
  }

  /// Up to `CommitReader.parallelThreshold` neighbouring commits, waiting while there are none yet; nil once the
  /// handing over is closed and all are taken, or something failed.
  private func nextRun() -> ArraySlice<(id: ObjectID, target: DiffTarget)>? {
    condition.lock()
    defer { condition.unlock() }
    while next == targets.count && !isClosed && failure == nil { condition.wait() }
    guard failure == nil, !isAbandoned, next < targets.count else { return nil }
    let run = targets[next..<min(next + CommitReader.parallelThreshold, targets.count)]
    next = run.endIndex
    planning += 1
    return run
  }

  /// Keeps a commit's plan, its files by number (under the lock).
  private func keep(_ plan: DiffPlan, of id: ObjectID) {
    let start = planFiles.count
    for file in plan.work {
      if let number = fileNumbers[file] {
        planFiles.append(number)
      } else {
        let number = Int32(files.count)
        files.append(file)
        fileNumbers[file] = number
        planFiles.append(number)
      }
    }
    plans.append((id, plan.known, start..<planFiles.count))
  }

  /// Up to `CommitReader.parallelThreshold` neighbouring files, once every plan is made (the first thread to ask
  /// puts the files in order); nil once all are taken, or something failed.
  private func nextFileRun() -> [(file: FileWork, number: Int32)]? {
    condition.lock()
    defer { condition.unlock() }
    while planning > 0 && failure == nil { condition.wait() }
    guard failure == nil, !isAbandoned else { return nil }
    if order == nil {
      order = Self.inPackOrder(files, packs: packs)
      counted = Array(repeating: DiffStats(), count: files.count)
      fileNumbers = [:]
    }
    guard let order, nextInOrder < order.count else { return nil }
    let run = order[nextInOrder..<min(nextInOrder + CommitReader.parallelThreshold, order.count)]
    nextInOrder = run.endIndex
    return run.map { (files[Int($0)], $0) }
  }

  /// The files' numbers, ordered by where the later of their blobs starts in the packs; those that are not in a
  /// pack last.
  static func inPackOrder(_ files: [FileWork], packs: PackedObjects) -> [Int32] {
    func place(_ id: ObjectID) -> Int {
      guard let (pack, found) = packs.location(of: id), let offset = found else { return .max }
      return pack << 48 | offset
    }
    var places = files.indices.map { number in
      let (first, second) = files[number].blobs
      return (place: max(place(first), second.map(place) ?? 0), number: Int32(number))
    }
    places.sort { $0.place < $1.place }
    return places.map(\.number)
  }

  private func fail(_ error: GitError) {
    condition.lock()
    failure = failure ?? error
    condition.broadcast()
    condition.unlock()
  }
}
