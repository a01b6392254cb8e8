import Support

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reads the commits one repository contributes to a span of time, with their line statistics.
struct CommitReader {
  let repository: Repository
  let authors: AuthorFilter
  let includeMerges: Bool
  /// Files left out of the counts; nil counts every file. The caches it shares are kept per filter (see
  /// `StatsCache.folder`).
  var pathFilter: PathFilter?
  let statsCache: StatsCache
  let tipTimes: TipTimes
  /// The commits whose history is newer than themselves, for a walk that would stop above it (see `LateCommits`).
  var lateCommits = LateCommits(folder: nil)
  var windowCache = WindowCache(folder: nil)
  /// Where a long span's records are kept with the references they came from (see `HistoryCache`).
  var historyCache = HistoryCache(folder: nil)
  /// The clock that tells a change too recent for the references' stamp (`PathStamp.isRacy`): the real one, or in
  /// tests one that runs ahead, in place of waiting for the files to age.
  var stampClock: @Sendable () -> PathStamp.Timestamp = { .now }
  /// The configured folder the repository was opened from, for the stamp of the files its references are read from
  /// (see `HistoryCache`); nil takes none, and the references are listed for every long span.
  var root: String?
  /// Threads that compute line statistics; each opens its own libgit2 handle. Asked for only when there are enough
  /// commits to share out: reading the processor count is a visible part of a hook that diffs a commit or two.
  var workers: Int { ProcessResources.activeProcessorCount }

  /// Below this many commits to diff, starting more threads costs more than it saves.
  static let parallelThreshold = 64

  /// Commits reachable from the local branches or HEAD whose author time lies in `start..<end` (seconds since
  /// 1970), each once, rebased or cherry-picked copies folded into one, in history order (see `inHistoryOrder`). The walk stops soon after
  /// it passes `start`, so the cost follows the span asked for, not the history.
  ///
  /// A short span starts from the window cache: unchanged tips give its records as they are, and tips that
  /// moved forward (a commit, a merge, a fetch) are walked only down to the old tips. A long span (a rebuild)
  /// comes from the history cache, when it has one, while every reference it was read from is as it was.
  func commits(authoredFrom start: Int64?, to end: Int64?) throws(GitError) -> [CommitRecord] {
    try read(authoredFrom: start, to: end).commits
  }

  /// Where a read's records came from.
  enum Source: Equatable {
    /// The repository (a short span's partly from the window cache).
    case walk
    /// The history cache, under the key of the references as listed now.
    case historyByKey
    /// The history cache, the references' files stamping as when it was stored: none was listed.
    case historyByStamp
  }

  /// `commits(authoredFrom:to:)`, and where they came from.
  func read(authoredFrom start: Int64?, to end: Int64?) throws(GitError) -> (commits: [CommitRecord], source: Source) {
    var span: WindowCache.Key?
    var stamp: String?
    if let start, let end, end - start > WindowCache.longestSpan, historyCache.isEnabled {
      // Taken before anything else is read (the mailmap, the config, a reference): whatever moves after it makes the
      // next look miss.
      if let root {
        stamp = RepositoryStamp.take(of: repository, root: root, includingOrigin: true, now: stampClock())?.digest
      }
      span = historySpan(start: start, end: end)
      if let span, let stamp, let key = historyCache.key(span: span, references: stamp),
        let cached = historyCache.commits(for: key)
      {
        return (cached.map(\.record), .historyByStamp)
      }
    }
    // The branches are listed once for the history key, the walk's tips and the branch names: in a repository
    // with thousands of loose branches each listing reads thousands of files.
    let branches = Result { () throws(GitError) in try repository.branchTips() }
    guard let span, let key = historyKey(span: span, branches: branches) else {
      return (try walkedCommits(authoredFrom: start, to: end, branches: branches).map(\.record), .walk)
    }
    if let cached = historyCache.commits(for: key) {
      if let stamp { historyCache.note(key, span: span, references: stamp) }
      return (cached.map(\.record), .historyByKey)
    }
    let commits = try walkedCommits(authoredFrom: start, to: end, branches: branches)
    // Kept only when nothing moved during the walk (the branches listed again): the records are then exactly those
    // of the references in `key`.
    let listedAgain = Result { () throws(GitError) in try repository.branchTips() }
    if historyKey(span: span, branches: listedAgain) == key {
      historyCache.store(commits, for: key)
      if let stamp { historyCache.note(key, span: span, references: stamp) }
    }
    return (commits.map(\.record), .walk)
  }

  /// What decides a long span's records besides the references, or nil when they cannot be told from the references:
  /// a mailmap from a blob (which may name any reference), a span that has not begun (walked whole, see `walk`).
  private func historySpan(start: Int64, end: Int64) -> WindowCache.Key? {
    guard start <= Int64(Date().timeIntervalSince1970), repository.configString("mailmap.blob") == nil,
      let mailmap = repository.mailmapSources()
    else { return nil }
    return WindowCache.Key(start: start, end: end, authors: authors, includeMerges: includeMerges, mailmap: mailmap)
  }

  /// What decides a long span's records, or nil when the references cannot be listed.
  private func historyKey(span: WindowCache.Key, branches: Result<[BranchTip], GitError>) -> HistoryCache.Key? {
    guard let branches = try? branches.get() else { return nil }
    return HistoryCache.Key(span: span, references: repository.walkReferences(branches: branches))
  }

  /// The span's commits read from the repository (a short span's from the window cache when it can).
  private func walkedCommits(
    authoredFrom start: Int64?, to end: Int64?, branches: Result<[BranchTip], GitError>
  ) throws(GitError) -> [WalkedCommit] {
    let branches = try branches.get()
    let tips = repository.tipIDs(branches: branches)
    var key: WindowCache.Key?
    if let start, let end, end - start <= WindowCache.longestSpan, windowCache.isEnabled,
      let mailmap = repository.mailmapSources()
    {
      key = WindowCache.Key(start: start, end: end, authors: authors, includeMerges: includeMerges, mailmap: mailmap)
    }
    var folded = FoldedCommits()
    var isComplete = false
    if let key, let cached = windowCache.window(for: key) {
      if Set(cached.tips) == Set(tips) { return cached.commits }
      for commit in cached.commits { folded.add(commit, isNew: false) }
      isComplete = try walk(
        from: tips, branches: branches, covered: Set(cached.tips), authoredFrom: start, to: end, into: &folded)
    }
    // A long span (a rebuild) is diffed while it is walked.
    var pipeline: DiffPipeline?
    if !isComplete, let start, let end, end - start > WindowCache.longestSpan, workers > 1 {
      pipeline = DiffPipeline(repository: repository, filter: pathFilter)
    }
    defer { pipeline?.abandon() }
    if !isComplete {
      folded = FoldedCommits()
      try walk(
        from: tips, branches: branches, covered: [], authoredFrom: start, to: end, into: &folded, pipeline: pipeline)
    }
    let commits = try withStats(folded, pipelined: pipeline?.finish() ?? [:], packs: pipeline?.packs)
    if let key { windowCache.store(WindowCache.Window(tips: tips, commits: commits), for: key) }
    return commits
  }

  /// Adds the commits reachable from `tips` in the span to `folded`, without going below the `covered` ids
  /// (tips whose history `folded` already holds). Returns false when a covered id that is no longer a tip was
  /// not reached: a branch was reset or deleted, and what `folded` held may no longer be reachable.
  @discardableResult
  private func walk(
    from tips: [ObjectID], branches: [BranchTip], covered: Set<ObjectID>, authoredFrom start: Int64?, to end: Int64?,
    into folded: inout FoldedCommits, pipeline: DiffPipeline? = nil
  ) throws(GitError) -> Bool {
    let mailmap = repository.mailmap()
    // The walk stops by committer time, which is never earlier than the author time unless the author date was
    // set by hand into the future (GIT_AUTHOR_DATE=2100-...): a span that has not begun yet is walked whole.
    let stopBefore = start.flatMap { $0 > Int64(Date().timeIntervalSince1970) ? nil : $0 }
    let (lateCommits, tipTimes, repository) = (self.lateCommits, self.tipTimes, self.repository)
    let walk = try HistoryWalk(
      repository: repository, tips: tips, stopBefore: stopBefore, tipTimes: tipTimes, covered: covered,
      late: { lateCommits.latest(for: tips, in: repository, tipTimes: tipTimes) })
    tipTimes.save(keeping: tips)
    var isAnyKept = false
    // Commits to diff whose first parent the walk has not reached yet: by then both trees are known.
    var waitingForParent: [ObjectID: [(id: ObjectID, tree: ObjectID)]] = [:]
    while let commit = try walk.next() {
      folded.trees[commit.id] = (commit.treeID, commit.parentID(0))
      if let pipeline, let children = waitingForParent.removeValue(forKey: commit.id) {
        for child in children { pipeline.add(child.id, .trees(new: child.tree, old: commit.treeID)) }
      }
      let isMerge = commit.parentCount > 1
      if isMerge && !includeMerges { continue }
      let author = commit.author(mailmap: mailmap)
      if let start, author.time < start { continue }
      if let end, author.time >= end { continue }
      guard authors.includes(email: author.email) else { continue }
      let record = CommitRecord(
        id: commit.id, authorName: author.name, authorEmail: author.email, authoredAt: author.time,
        authorOffsetMinutes: author.offsetMinutes, subject: commit.subject, isMerge: isMerge, stats: .zero)
      folded.add(WalkedCommit(record: record, committed: commit.committerTime), isNew: true)
      isAnyKept = true
      // Like `git log`, a merge shows no diff of its own (see `withStats`); a copy that is not kept needs none.
      if let pipeline, !isMerge, folded.kept[record.copyKey]?.commit.record.id == commit.id,
        statsCache.stats(for: commit.id, authoredAt: author.time) == nil
      {
        if let parent = commit.parentID(0), folded.trees[parent] == nil {
          waitingForParent[parent, default: []].append((commit.id, commit.treeID))
        } else {
          pipeline.add(commit.id, folded.diffTarget(of: commit.id))
        }
      }
    }
    if isAnyKept { nameBranches(branches, in: &folded) }
    let tipSet = Set(tips)
    return covered.allSatisfy { tipSet.contains($0) || walk.hasReached($0) }
  }

  /// Finds the branch each commit this walk read was made on (see `BranchAttribution`), for the new commits it
  /// keeps: cached ones keep the name they were given when they were new.
  private func nameBranches(_ branches: [BranchTip], in folded: inout FoldedCommits) {
    guard !branches.isEmpty else { return }
    let defaultBranch = repository.defaultBranch(among: branches.map(\.name))
    // The default branch alone names nothing: its line need not be looked up.
    guard branches.contains(where: { $0.name != defaultBranch }) else { return }
    let trees = folded.trees
    folded.branchNames = BranchAttribution.names(
      branches: branches, defaultBranch: defaultBranch,
      defaultLine: defaultBranch.map(repository.defaultLineTips) ?? [], walked: trees.count,
      firstParent: { trees[$0].map(\.firstParent) })
  }

  /// The kept commits in history order, each new one with its line statistics (from the cache, from `pipelined`,
  /// else computed).
  private func withStats(
    _ folded: FoldedCommits, pipelined: [ObjectID: DiffStats] = [:], packs: PackedObjects? = nil
  ) throws(GitError) -> [WalkedCommit] {
    var commits = folded.kept.values.map(\.commit).sorted { $0.record.id < $1.record.id }
    var toDiff: [(index: Int, id: ObjectID)] = []
    let names = folded.branchNames
    for (index, commit) in commits.enumerated() {
      guard folded.kept[commit.record.copyKey]?.isNew == true else { continue }
      if !names.isEmpty, let name = names[commit.record.id], !name.isEmpty { commits[index].record.branch = name }
      // Like `git log`, a merge shows no diff of its own.
      guard !commit.record.isMerge else { continue }
      let id = commit.record.id
      if let cached = statsCache.stats(for: id, authoredAt: commit.record.authoredAt) {
        commits[index].record.stats = cached
      } else if let computed = pipelined[id] {
        commits[index].record.stats = computed
        statsCache.store(computed, for: id, authoredAt: commit.record.authoredAt)
      } else {
        toDiff.append((index, id))
      }
    }

    // In history order: a commit and its parent share most of their trees and blobs, which the worker that
    // diffs both then still holds (see `RecentObjects`).
    toDiff.sort { commits[$0.index].committed > commits[$1.index].committed }
    let computed = try diffStats(of: toDiff.map { folded.diffTarget(of: $0.id) }, packs: packs)
    for ((index, id), stats) in zip(toDiff, computed) {
      commits[index].record.stats = stats
      statsCache.store(stats, for: id, authoredAt: commits[index].record.authoredAt)
    }
    statsCache.flush()
    let trees = folded.trees
    let repository = repository
    // A commit the walk did not read (one kept from the window cache) is read for its first parent.
    return Self.inHistoryOrder(commits) { trees[$0].map(\.firstParent) ?? (try? repository.commit($0))?.parentID(0) }
  }

  /// `commits` (ordered by id) by author time, and commits of the same second in history order: by how many
  /// first-parent steps lead from each down through others of its second (a parent before its child), then by id.
  /// Only the commits and their graph decide it, however they were read. The journal lists a day's commits in
  /// this order and keeps it (see `ProjectFacts`).
  static func inHistoryOrder(_ commits: [WalkedCommit], firstParent: (ObjectID) -> ObjectID?) -> [WalkedCommit] {
    var seconds: [Int64: Int] = [:]
    for commit in commits { seconds[commit.record.authoredAt, default: 0] += 1 }
    // Most days have no two commits in one second: then only the times order them.
    guard seconds.values.contains(where: { $0 > 1 }) else {
      return commits.enumerated().sorted {
        ($0.element.record.authoredAt, $0.offset) < ($1.element.record.authoredAt, $1.offset)
      }
      .map(\.element)
    }
    let second = Dictionary(
      commits.map { ($0.record.id, $0.record.authoredAt) }, uniquingKeysWith: { first, _ in first })
    // How many first-parent steps lead from a commit down to the oldest of its second.
    var depths: [ObjectID: Int] = [:]
    func depth(of id: ObjectID) -> Int {
      var chain: [ObjectID] = []
      var current = id
      // The depth below the chain: -1 when its last commit has no parent of the same second.
      var below = -1
      while chain.count <= commits.count {
        if let known = depths[current] {
          below = known
          break
        }
        chain.append(current)
        guard let parent = firstParent(current), second[parent] == second[id] else { break }
        current = parent
      }
      for member in chain.reversed() {
        below += 1
        depths[member] = below
      }
      return depths[id] ?? 0
    }
    let keys = commits.enumerated().map { index, commit in
      let time = commit.record.authoredAt
      return (time: time, depth: seconds[time, default: 0] > 1 ? depth(of: commit.record.id) : 0, index: index)
    }
    return keys.sorted { ($0.time, $0.depth, $0.index) < ($1.time, $1.depth, $1.index) }.map { commits[$0.index] }
  }

  /// Line statistics of `targets`, in order: on this thread for a few, spread over `workers` threads for many.
  /// Workers take runs of neighbouring commits, so each keeps the locality of the order it was given.
  /// `packs`: the packs mapped for this walk already, if any.
  private func diffStats(of targets: [DiffTarget], packs: PackedObjects?) throws(GitError) -> [DiffStats] {
    let wanted = targets.count / Self.parallelThreshold + 1
    let threads = wanted > 1 ? min(workers, wanted) : 1
    guard threads > 1 else {
      return try targets.map { target throws(GitError) in try repository.diffStats(of: target, excluding: pathFilter) }
    }
    return try diffStats(
      of: targets, threads: threads,
      packs: packs ?? PackedObjects(objectsFolder: repository.commonDirectory + "/objects"))
  }

  /// `diffStats(of:)` on `threads` threads, each with its own handle of the repository and its own reader of
  /// the packs, which are mapped once for all of them.
  private func diffStats(of targets: [DiffTarget], threads: Int, packs: PackedObjects) throws(GitError) -> [DiffStats] {
    let results = WorkSlots<DiffStats, GitError>(count: targets.count)
    let path = repository.gitDirectory
    let filter = pathFilter
    SideThreads.together(threads: threads) { _ in
      do throws(GitError) {
        let handle = try Repository.open(at: path)
        handle.recentObjects = RecentObjects()
        handle.readObjects(through: PackReader(objects: packs))
        while let run = results.nextRun(length: Self.parallelThreshold) {
          for index in run { results.set(index, try handle.diffStats(of: targets[index], excluding: filter)) }
        }
      } catch {
        results.fail(error)
      }
    }
    return try results.results()
  }
}
