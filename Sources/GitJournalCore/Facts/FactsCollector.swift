/// Reads every configured repository once for a set of days and sorts their commits into day facts.
public struct FactsCollector: Sendable {
  public let configuration: Configuration
  public let allAuthors: Bool
  /// Where line statistics are cached between runs (`Environment.cacheDirectory`); nil disables the cache.
  public let cacheDirectory: String?
  /// Takes a short span's records from the window cache when the repository's branches have not moved (the
  /// hook). False reads every repository afresh (`rebuild`), so damage is found and reported.
  public let reusesWindows: Bool

  public init(configuration: Configuration, allAuthors: Bool, cacheDirectory: String?, reusesWindows: Bool = false) {
    self.configuration = configuration
    self.allAuthors = allAuthors
    self.cacheDirectory = cacheDirectory
    self.reusesWindows = reusesWindows
  }

  public struct Result: Sendable {
    /// One entry per requested day, empty days included.
    public var days: [Day: DayFacts]
    public var skipped: [SkippedRepository]
  }

  /// The facts of `days`. Each repository is walked once for the span from the first to the last day; the
  /// repositories are read in parallel, each by its own task with its own libgit2 handle.
  public func collect(days: [Day]) async -> Result {
    guard let first = days.min(), let last = days.max() else { return Result(days: [:], skipped: []) }
    let calendar = configuration.calendar
    let span = calendar.window(from: first, through: last)
    let wanted = Set(days)

    var perRepository: [(RepositoryEntry, Swift.Result<[CommitRecord], RepositoryProblem>)] = []
    await withTaskGroup(of: (Int, Swift.Result<[CommitRecord], RepositoryProblem>).self) { group in
      let entries = configuration.repositories
      let width = max(1, ProcessResources.activeProcessorCount)
      var next = 0
      func addNext() {
        guard next < entries.count else { return }
        let index = next
        let scan = RepositoryScan(
          entry: entries[index], configuredAuthors: configuration.authors, allAuthors: allAuthors,
          includeMerges: configuration.includeMerges, cacheDirectory: cacheDirectory, reusesWindows: reusesWindows)
        group.addTask {
          (
            index,
            Swift.Result { () throws(RepositoryProblem) in try scan.commits(authoredFrom: span.start, to: span.end) }
          )
        }
        next += 1
      }
      for _ in 0..<width { addNext() }
      var results: [(Int, Swift.Result<[CommitRecord], RepositoryProblem>)] = []
      while let result = await group.next() {
        results.append(result)
        addNext()
      }
      perRepository = results.sorted { $0.0 < $1.0 }.map { (entries[$0.0], $0.1) }
    }

    var skipped: [SkippedRepository] = []
    var commitsByDay: [Day: [(RepositoryEntry, [CommitRecord])]] = [:]
    for (entry, result) in perRepository {
      switch result {
      case .failure(let problem):
        skipped.append(SkippedRepository(name: entry.name, path: entry.path, problem: problem))
      case .success(let records):
        let grouped = Dictionary(grouping: records) { calendar.day(containing: $0.authoredAt) }
        for (day, dayRecords) in grouped where wanted.contains(day) {
          commitsByDay[day, default: []].append((entry, dayRecords))
        }
      }
    }

    var facts: [Day: DayFacts] = [:]
    for day in wanted {
      let projects = (commitsByDay[day] ?? []).map { entry, records in
        ProjectFacts(name: entry.name, path: entry.path, isPrivate: entry.isPrivate, commits: records)
      }
      facts[day] = DayFacts(day: day, projects: projects)
    }
    return Result(days: facts, skipped: skipped)
  }
}
