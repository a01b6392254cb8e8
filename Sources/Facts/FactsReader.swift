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
  }

  /// The facts of `days`. Each repository is walked once for the span from the first to the last day; the
  /// repositories are read in parallel, each by its own task with its own libgit2 handle.
  public func read(days: [Day], policy: ReadPolicy) async -> Reading {
    guard let first = days.min(), let last = days.max() else { return Reading(days: [:], skipped: []) }
    let calendar = sources.calendar
    let span = calendar.window(from: first, through: last)
    let wanted = Set(days)
    let entries = sources.repositories

    typealias Outcome = Result<[CommitRecord], RepositoryProblem>
    var outcomes: [Outcome?] = Array(repeating: nil, count: entries.count)
    await withTaskGroup(of: (Int, Outcome).self) { group in
      let width = max(1, ProcessResources.activeProcessorCount)
      var next = 0
      func addNext() {
        guard next < entries.count else { return }
        let index = next
        let scan = RepositoryScan(
          path: entries[index].path, configuredAuthors: sources.authors, allAuthors: policy.allAuthors,
          includeMerges: sources.includeMerges, cacheDirectory: sources.cacheDirectory,
          reusesWindows: policy.reusesWindows)
        group.addTask {
          (index, Result { () throws(RepositoryProblem) in try scan.commits(authoredFrom: span.start, to: span.end) })
        }
        next += 1
      }
      for _ in 0..<width { addNext() }
      while let (index, outcome) = await group.next() {
        outcomes[index] = outcome
        addNext()
      }
    }

    var skipped: [SkippedRepository] = []
    var commitsByDay: [Day: [(RepositoryEntry, [CommitRecord])]] = [:]
    for (entry, outcome) in zip(entries, outcomes) {
      switch outcome {
      case .failure(let problem):
        skipped.append(SkippedRepository(name: entry.name, path: entry.path, problem: problem))
      case .success(let records):
        let grouped = Dictionary(grouping: records) { calendar.day(containing: $0.authoredAt) }
        for (day, dayRecords) in grouped where wanted.contains(day) {
          commitsByDay[day, default: []].append((entry, dayRecords))
        }
      case nil:
        continue
      }
    }

    var facts: [Day: DayFacts] = [:]
    for day in wanted {
      let projects = (commitsByDay[day] ?? []).map { entry, records in
        ProjectFacts(name: entry.name, path: entry.path, isPrivate: entry.isPrivate, commits: records)
      }
      facts[day] = DayFacts(day: day, projects: projects)
    }
    return Reading(days: facts, skipped: skipped)
  }
}
