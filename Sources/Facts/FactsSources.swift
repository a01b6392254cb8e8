import GitReader

/// What day facts are read from: the configured repositories and the settings that decide which commits count
/// and on which day.
public struct FactsSources: Sendable {
  public var repositories: [RepositoryEntry]
  /// Emails whose commits count; empty means each repository's own `user.email`.
  public var authors: [String]
  public var includeMerges: Bool
  /// Files left out of files-changed and line counts in every repository (`journal.excludePaths`).
  public var excludePaths: [String] = []
  /// Authors left out of `--all-authors` readings (`journal.ignoreAuthors`): emails or globs.
  public var ignoredAuthors: [String] = []
  public var calendar: JournalCalendar
  /// Where line statistics and recent windows are cached between runs; nil computes everything afresh.
  public var cacheDirectory: String?
  /// The clock that tells a repository changed too recently for its read to be kept under a stamp
  /// (`PathStamp.isRacy`): the real one, or in tests one that runs ahead, in place of waiting for the files to age.
  package var stampClock: @Sendable () -> PathStamp.Timestamp = { .now }

  public init(
    repositories: [RepositoryEntry], authors: [String], includeMerges: Bool, calendar: JournalCalendar,
    cacheDirectory: String?
  ) {
    self.repositories = repositories
    self.authors = authors
    self.includeMerges = includeMerges
    self.calendar = calendar
    self.cacheDirectory = cacheDirectory
  }
}
