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
  /// caller's task (with its executor: the hook's main thread).
  public nonisolated(nonsending) func read(days: [Day], policy: ReadPolicy) async -> Reading {
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
      return Read(index: index, scan: scan, end: entries[index].retiredAt.map { min($0, span.end) } ?? span.end)
    }
    var outcomes: [Outcome?] = Array(repeating: nil, count: entries.count)
    var misses: [Read] = []
    for (read, stored) in zip(reads, Self.storedReads(reads, from: span.start)) {
      if let stored { outcomes[read.index] = .success(stored) } else { misses.append(read) }
    }
    // The others are opened with libgit2, each by a task with its own handle, one per core at a time; a single
    // one (the repository a hook commits in) on this task, without starting the threads of a task group.
    @Sendable func walk(_ read: Read) -> Outcome {
      Result { () throws(RepositoryProblem) in
        try read.scan.commits(authoredFrom: span.start, to: read.end, checkingStored: false)
      }
    }
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
      let grouped = Dictionary(grouping: records) { windows.day(containing: $0.authoredAt) }
      for (day, dayRecords) in grouped where wanted.contains(day) {
        commitsByDay[day, default: []].append((entry, dayRecords))
      }
    }

    var facts: [Day: DayFacts] = [:]
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

  /// How many stored reads make a run of their own on another core. A quiet repository's check is about twenty
  /// system calls (30 to 40 µs), and a thread starts in 20 to 100 µs: from about 25 repositories a second core
  /// saves more than its thread costs.
  static let storedReadsPerRun = 25

  /// The stored read of each repository whose stamp holds (see `StampedRead`), nil for the others. A quiet
  /// repository costs one small file and a few `stat`s, so the list is read on this thread, and cut into one run
  /// per core only when each run has `storedReadsPerRun` repositories (see `SideThreads`).
  static func storedReads(_ reads: [Read], from start: Int64) -> [ScannedRepository?] {
    @Sendable func stored(_ part: ArraySlice<Read>) -> [ScannedRepository?] {
      // Made again only when the span's end (earlier for a retired repository) or the files left out change.
      var query: (end: Int64, excluded: [String], query: StampedRead.Query?)?
      return part.map { read in
        if query?.end != read.end || query?.excluded != read.scan.excludePaths {
          query = (read.end, read.scan.excludePaths, read.scan.storedReadQuery(authoredFrom: start, to: read.end))
        }
        return read.scan.storedCommits(authoredFrom: start, to: read.end, query: query?.query)
      }
    }
    return SideThreads.map(reads, runsOfAtLeast: storedReadsPerRun, stored)
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
