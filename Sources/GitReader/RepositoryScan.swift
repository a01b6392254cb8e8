import Support

/// Opens one configured repository, checks that it can be journaled, and reads its commits for a span.
package struct RepositoryScan {
  /// The repository's folder as configured.
  let path: String
  /// Emails from the config; empty means the repository's own `user.email`.
  let configuredAuthors: [String]
  /// Overrides everything when true (`--all-authors`).
  let allAuthors: Bool
  let includeMerges: Bool
  /// Where computed line statistics are kept between runs; nil to compute everything afresh.
  let cacheDirectory: String?
  /// Whether a short span may come from the window cache (see `WindowCache`).
  var reusesWindows = false
  /// Whether a long span may come from the history cache (see `HistoryCache`).
  package var reusesHistory = false
  /// Files left out of files-changed and line counts (`journal.excludePaths` and the repository's own).
  package var excludePaths: [String] = []
  /// With `allAuthors`: authors whose commits still do not count (`journal.ignoreAuthors`), emails or globs.
  package var ignoredAuthors: [String] = []
  /// Seconds a walk of the repository may take before it is given up and the repository skipped, the others read
  /// on: a damaged repository may keep libgit2 busy without end, and one stuck repository must not keep a rebuild (or
  /// `show`, `stats`, `doctor`) from the rest. The walk runs on a thread of its own, and one given up goes on there
  /// until the process ends. Nil: the walk runs on the caller's thread, unbounded in time: the hook's short span
  /// (and `narrate`'s), whose commit starts no thread at all (a thread's start costs milliseconds where it is slow);
  /// its reads are bounded in memory (`MemoryBound`), and a damaged object is refused before libgit2 meets it.
  package var timeLimit: Double?
  /// The clock that tells a change too recent to stamp (`PathStamp.isRacy`): the real one, or in tests one that
  /// runs ahead, in place of waiting for the files to age.
  package var stampClock: @Sendable () -> PathStamp.Timestamp = { .now }

  /// `timeLimit` of a read that is not a short span's: a rebuild of the longest histories takes minutes.
  package static let timeLimit: Double = 30 * 60

  package init(
    path: String, configuredAuthors: [String], allAuthors: Bool, includeMerges: Bool, cacheDirectory: String?,
    reusesWindows: Bool
  ) {
    self.path = path
    self.configuredAuthors = configuredAuthors
    self.allAuthors = allAuthors
    self.includeMerges = includeMerges
    self.cacheDirectory = cacheDirectory
    self.reusesWindows = reusesWindows
    timeLimit = reusesWindows ? nil : Self.timeLimit
  }

  /// The read kept from an earlier run for this span, while its stamp holds (see `StampedRead`); nil when the
  /// repository must be opened. `query`, when given, is `storedReadQuery` for the span, made once for many
  /// repositories.
  package func storedCommits(
    authoredFrom start: Int64?, to end: Int64?, query: StampedRead.Query?
  ) -> ScannedRepository? {
    stampedRead(authoredFrom: start, to: end, query: query)?.current()
  }

  /// The commits authored in the span. `checkingStored` false skips `storedCommits`, for a caller that has just
  /// asked it.
  package func commits(
    authoredFrom start: Int64?, to end: Int64?, checkingStored: Bool = true
  ) throws(RepositoryProblem) -> ScannedRepository {
    let stamped = stampedRead(authoredFrom: start, to: end)
    if checkingStored, let read = stamped?.current() { return read }
    guard let timeLimit else { return try walk(authoredFrom: start, to: end, stamped: stamped) }
    // On a thread of its own, waited for `timeLimit` at most.
    let scan = self
    let walk = SideResult { () -> Result<ScannedRepository, RepositoryProblem> in
      Result { () throws(RepositoryProblem) in try scan.walk(authoredFrom: start, to: end, stamped: stamped) }
    }
    guard let outcome = walk.value(within: timeLimit) else {
      throw .unreadable(
        "its read took more than \(SecondsText.format(timeLimit)) s (a damaged or enormous repository?), so it "
          + "was given up; 'git fsck' there tells whether it is damaged")
    }
    return try outcome.get()
  }

  /// `commits` once the stored read did not answer: the repository opened and walked.
  private func walk(
    authoredFrom start: Int64?, to end: Int64?, stamped: StampedRead?
  ) throws(RepositoryProblem) -> ScannedRepository {
    let repository = try Repository.openJournaled(at: path)
    // Before the author check: a fresh repository has no commits to attribute, whoever will make them.
    if repository.isEmpty {
      return ScannedRepository(isBare: repository.isBare, commits: [], commonDirectory: repository.commonDirectory)
    }
    // Before any ref is read: whatever moves after this makes the next check miss.
    let stamp = stamped == nil ? nil : RepositoryStamp.take(of: repository, root: path, now: stampClock())
    let authors: AuthorFilter
    if allAuthors {
      authors = ignoredAuthors.isEmpty ? .everyone : .everyoneExcept(ignoredAuthors)
    } else if !configuredAuthors.isEmpty {
      authors = .matching(configuredAuthors)
    } else if let email = repository.configString("user.email"), !email.isEmpty {
      authors = .matching([email])
    } else {
      throw .noIdentity
    }

    do {
      let filter = PathFilter(patterns: excludePaths)
      let folder = cacheDirectory.map {
        StatsCache.folder(cacheDirectory: $0, commonDirectory: repository.commonDirectory, excluding: filter)
      }
      var reader = CommitReader(
        repository: repository, authors: authors, includeMerges: includeMerges, pathFilter: filter,
        statsCache: StatsCache(folder: folder), tipTimes: TipTimes(folder: folder),
        windowCache: WindowCache(folder: reusesWindows ? folder : nil),
        historyCache: HistoryCache(folder: reusesHistory ? folder : nil), root: path)
      reader.lateCommits = LateCommits(folder: folder)
      reader.stampClock = stampClock
      let scanned = ScannedRepository(
        isBare: repository.isBare, commits: try reader.commits(authoredFrom: start, to: end),
        commonDirectory: repository.commonDirectory)
      stamped?.store(scanned, stamp: stamp)
      return scanned
    } catch {
      throw .unreadable(error.message)
    }
  }

  /// Where a short span's read is kept with its stamp (see `StampedRead`), when windows are reused.
  func stampedRead(authoredFrom start: Int64?, to end: Int64?, query: StampedRead.Query? = nil) -> StampedRead? {
    guard let cacheDirectory, let query = query ?? storedReadQuery(authoredFrom: start, to: end) else { return nil }
    return StampedRead(cacheDirectory: cacheDirectory, root: path, query: query)
  }

  /// What decides a stored read of the span besides the repository, or nil when the span's reads are not kept:
  /// the span, merges, the author filter (with the authors `--all-authors` still leaves out) and the files left out
  /// of the counts. The same for the repositories of one reading that leave out the same files.
  package func storedReadQuery(authoredFrom start: Int64?, to end: Int64?) -> StampedRead.Query? {
    guard reusesWindows, cacheDirectory != nil, let start, let end, end - start <= WindowCache.longestSpan else {
      return nil
    }
    let authorFields = allAuthors ? ["*"] + ignoredAuthors.map { "!" + $0 } : configuredAuthors.map { "=" + $0 }
    return StampedRead.Query(
      [String(start), String(end), includeMerges ? "merges" : "no-merges"] + authorFields
        + excludePaths.map { "x" + $0 })
  }
}
