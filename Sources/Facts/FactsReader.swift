import GitReader
import Support

/// Reads every configured repository once for a set of days and sorts their commits into day facts: what the
/// hook, `rebuild`, `show`, `stats` and `doctor` know of the repositories.
public struct FactsReader: Sendable {
  public let sources: FactsSources

  public init(sources: FactsSources) { self.sources = sources }

  /// The facts of some days, and the repositories that could not be read.
  public struct Reading: Sendable {
    /// One entry per requested day, empty days included.
    public var days: [Day: DayFacts]
    public var skipped: [SkippedRepository]
    /// The repositories whose commits were read: their part of a day's earlier record is replaced.
    public var readPaths: Set<String>
  }

  /// The facts of `days`. Each repository is walked once for the span from the first to the last day, or answered
  /// from its stored read; the repositories that have to be walked are read in parallel, a single one on the
  /// caller's task (with its executor: the hook's main thread). The stored reads of many repositories are checked
  /// by one thread per processor, `policy.likelyMoved` first and walked there (see `readingThreads`).
  public func read(days: [Day], policy: ReadPolicy) async -> Reading {
    guard let first = days.min(), let last = days.max() else { return Reading(days: [:], skipped: [], readPaths: []) }
    let calendar = sources.calendar
    let span = calendar.window(from: first, through: last)
    let wanted = Set(days)
    let entries = sources.repositories

    typealias Outcome = Result<ScannedRepository, RepositoryProblem>
    // A retired repository gives only what was authored before its retirement; a span that begins after it is
    // not read at all, so what the records hold of it is kept.
    let reads: [Read] = entries.indices.compactMap { index in
      if let retiredAt = entries[index].retiredAt, retiredAt <= span.start { return nil }
      var scan = RepositoryScan(
        path: entries[index].path, configuredAuthors: sources.authors, allAuthors: policy.allAuthors,
        includeMerges: sources.includeMerges, cacheDirectory: sources.cacheDirectory,
        reusesWindows: policy.reusesWindows)
      scan.excludePaths = sources.excludePaths + entries[index].excludePaths
      scan.ignoredAuthors = sources.ignoredAuthors
      scan.reusesHistory = policy.reusesHistory
      scan.stampClock = sources.stampClock
      return Read(index: index, scan: scan, end: entries[index].retiredAt.map { min($0, span.end) } ?? span.end)
    }
    var outcomes: [Outcome?] = Array(repeating: nil, count: entries.count)
    // A repository whose stored read does not hold is opened with libgit2, by a task or thread with its own handle.
    @Sendable func walk(_ read: Read) -> Outcome {
      Result { () throws(RepositoryProblem) in
        try read.scan.commits(authoredFrom: span.start, to: read.end, checkingStored: false)
      }
    }
    // Stored reads can hold only for a short span read by the hook (or `narrate`): `rebuild`, `show` and `doctor`
    // walk everything, and their walks are shared out below.
    let threads = policy.reusesWindows ? Self.readingThreads(for: reads.count) : 1
    if threads > 1 {
      // Many repositories: one thread per processor takes them in turn and answers each from its stored read. The
      // ones likely to have moved come first and are walked there and then, so that the walk of the one a hook
      // commits in runs beside the checks of the quiet ones instead of after them all; any other miss is left for
      // the walks below, as many at once as there are cores.
      // Lengths first: a hundred folders compared with one, most of them of another length.
      let isLikely = reads.map { read in
        let path = entries[read.index].path
        return policy.likelyMoved.contains { $0.utf8.count == path.utf8.count && $0 == path }
      }
      let order = reads.indices.filter { isLikely[$0] } + reads.indices.filter { !isLikely[$0] }
      // Worked out before the threads start: the same for every repository but a retired one or one with files
      // left out of its own.
      var stored = StoredReads(start: span.start)
      let queries = reads.map { stored.query(for: $0) }
      let results = ReadResults(count: reads.count)
      defer { results.release() }
      SideThreads.forEach(count: order.count, threads: threads) { position in
        let index = order[position]
        let read = reads[index]
        if let commits = read.scan.storedCommits(authoredFrom: span.start, to: read.end, query: queries[index]) {
          results.set(index, .success(commits))
        } else if isLikely[index] {
          results.set(index, walk(read))
        }
      }
      for (index, read) in reads.enumerated() { outcomes[read.index] = results[index] }
    } else {
      var stored = StoredReads(start: span.start)
      for read in reads {
        let query = stored.query(for: read)
        if let commits = read.scan.storedCommits(authoredFrom: span.start, to: read.end, query: query) {
          outcomes[read.index] = .success(commits)
        }
      }
    }
    // The misses in parallel, one per core at a time; a single one (the repository a hook commits in) on this task,
    // without starting the threads of a task group.
    let misses = reads.filter { outcomes[$0.index] == nil }
    if misses.count == 1, let read = misses.first {
      outcomes[read.index] = walk(read)
    } else if misses.count > 1 {
      await withTaskGroup(of: (Int, Outcome).self) { group in
        var next = 0
        func addNext() {
          guard next < misses.count else { return }
          let read = misses[next]
          next += 1
          group.addTask { (read.index, walk(read)) }
        }
        for _ in 0..<ProcessResources.activeProcessorCount { addNext() }
        while let (index, outcome) = await group.next() {
          outcomes[index] = outcome
          addNext()
        }
      }
    }

    var skipped: [SkippedRepository] = []
    // Room made at once: grown one insert at a time, the set hashed its paths again at every doubling.
    var readPaths = Set<String>(minimumCapacity: entries.count)
    for (entry, outcome) in zip(entries, outcomes) {
      switch outcome {
      case .failure(let problem):
        skipped.append(SkippedRepository(name: entry.name, path: entry.path, problem: problem))
      case .success: readPaths.insert(entry.path)
      case nil: continue
      }
    }
    let scans = outcomes.map { try? $0?.get() }
    let owned = Self.countingEachCommitOnce(scans)
    let privacy = Self.privacy(entries, scans)
    var commitsByDay: [Day: [(RepositoryEntry, [CommitRecord])]] = [:]
    let windows = DayWindows(calendar: calendar, first: first, last: last)
    for (index, records) in owned.enumerated() where !records.isEmpty {
      var entry = entries[index]
      entry.isPrivate = privacy[index]
      for (day, dayRecords) in windows.days(of: records) where wanted.contains(day) {
        commitsByDay[day, default: []].append((entry, dayRecords))
      }
    }

    var facts: [Day: DayFacts] = [:]
    facts.reserveCapacity(wanted.count)
    for day in wanted {
      let projects = (commitsByDay[day] ?? []).map { entry, records in
        ProjectFacts(name: entry.name, path: entry.path, isPrivate: entry.isPrivate, commits: records)
      }
      facts[day] = DayFacts(day: day, projects: projects)
    }
    return Reading(days: facts, skipped: skipped, readPaths: readPaths)
  }

  /// One repository to read: its entry's index, how, and where its span ends (earlier when it was retired).
  struct Read: Sendable {
    var index: Int
    var scan: RepositoryScan
    var end: Int64
  }

  /// How many repositories make a thread of their own. A quiet repository's check is about ten system calls
  /// (15 to 25 µs), and a thread starts in 20 to 100 µs: from about 25 repositories a second core saves more than
  /// its thread costs.
  static let repositoriesPerThread = 25

  /// The threads that check the stored reads of `count` repositories: one per usable processor, each with at
  /// least `repositoriesPerThread` of them, at most `SideThreads.maximumThreads`; 1 (this task alone) below twice
  /// that, without counting the processors.
  static func readingThreads(for count: Int, processors: () -> Int = { ProcessResources.usableProcessorCount }) -> Int {
    guard count >= 2 * repositoriesPerThread else { return 1 }
    return min(processors(), count / repositoriesPerThread, SideThreads.maximumThreads)
  }

  /// The stored reads (see `StampedRead`) of the repositories one thread checks, one after the other.
  struct StoredReads {
    let start: Int64
    /// Made again only when the span's end (earlier for a retired repository) or the files left out change.
    private var query: (end: Int64, excluded: [String], query: StampedRead.Query?)?

    init(start: Int64) { self.start = start }

    /// What decides `read`'s stored read besides its repository.
    mutating func query(for read: Read) -> StampedRead.Query? {
      if query?.end != read.end || query?.excluded != read.scan.excludePaths {
        query = (read.end, read.scan.excludePaths, read.scan.storedReadQuery(authoredFrom: start, to: read.end))
      }
      return query?.query
    }
  }

  /// The outcomes of the repositories that several threads read, one slot each, each written by the one thread
  /// that took its repository and read once they are all joined: a buffer of the concrete type, with no generic
  /// container to instantiate at run time (the hook reads once). Call `release` when done.
  struct ReadResults: @unchecked Sendable {
    typealias Outcome = Result<ScannedRepository, RepositoryProblem>
    private let slots: UnsafeMutableBufferPointer<Outcome?>

    init(count: Int) {
      slots = .allocate(capacity: count)
      slots.initialize(repeating: nil)
    }

    func set(_ index: Int, _ outcome: Outcome) { slots[index] = outcome }
    subscript(index: Int) -> Outcome? { slots[index] }

    func release() {
      slots.deinitialize()
      slots.deallocate()
    }
  }

  /// Whether each entry is private. `private` is about the commits, not the entry: an entry that reads the same
  /// repository as a private one (a worktree registered by hand, the same folder under another name) or shares a
  /// commit with it in the span (a clone, a mirror, which may own that commit) is private too.
  static func privacy(_ entries: [RepositoryEntry], _ scans: [ScannedRepository?]) -> [Bool] {
    let privateScans = zip(entries, scans).compactMap { $0.isPrivate ? $1 : nil }
    guard !privateScans.isEmpty, entries.count > 1 else { return entries.map(\.isPrivate) }
    let directories = Set(privateScans.map(\.commonDirectory).filter { !$0.isEmpty })
    let ids = Set(privateScans.flatMap { $0.commits.map(\.id) })
    return zip(entries, scans).map { entry, scan in
      guard !entry.isPrivate, let scan else { return entry.isPrivate }
      return directories.contains(scan.commonDirectory) || scan.commits.contains { ids.contains($0.id) }
    }
  }

  /// The commits each repository keeps, in the order given (nil: a repository that could not be read), with
  /// every commit id kept by one repository only. Clones, bare mirrors and linked worktrees of one project share
  /// their history, which would otherwise count once per copy: a commit goes to the first working (non-bare)
  /// repository that has it, in the order of the config, else to the first bare one.
  static func countingEachCommitOnce(_ scans: [ScannedRepository?]) -> [[CommitRecord]] {
    var kept = scans.map { $0?.commits ?? [] }
    // One repository (or none) shares nothing: the hook of a single repository pays nothing for this.
    guard kept.count(where: { !$0.isEmpty }) > 1 else { return kept }
    let order = scans.indices.sorted {
      (scans[$0]?.isBare == true ? 1 : 0, $0) < (scans[$1]?.isBare == true ? 1 : 0, $1)
    }
    var claimed: Set<ObjectID> = []
    for index in order {
      kept[index] = kept[index].filter { claimed.insert($0.id).inserted }
    }
    return kept
  }
}
