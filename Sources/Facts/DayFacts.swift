import GitReader
import Support

/// Everything the journal states about one day, computed from commits alone. The model never adds to it.
public struct DayFacts: Sendable, Equatable {
  public let day: Day
  /// Projects with at least one commit that day, ordered by name.
  public let projects: [ProjectFacts]

  public init(day: Day, projects: [ProjectFacts]) {
    self.day = day
    self.projects = projects.filter { !$0.commits.isEmpty }.sorted { $0.name < $1.name }
  }

  public var commitCount: Int { projects.reduce(0) { $0 + $1.commitCount } }
  public var projectCount: Int { projects.count }
  public var stats: DiffStats { projects.reduce(.zero) { $0 + $1.stats } }
  public var isEmpty: Bool { projects.isEmpty }
  /// The kinds of work of the day's commits (`WorkKind`).
  public var kinds: KindCounts {
    var kinds = KindCounts()
    for project in projects { kinds.add(project.kinds) }
    return kinds
  }

  /// The line the journal file and `show --json` both give, e.g. `3 commits across 2 projects, +128 -10`.
  public var summaryLine: String {
    isEmpty ? factualLine : factualLine + ", +\(stats.insertions) -\(stats.deletions)"
  }

  /// The sentence that is always there, e.g. `3 commits across 2 projects`.
  public var factualLine: String {
    switch (commitCount, projectCount) {
    case (0, _): return "No commits"
    case (let commits, 1): return "\(commits) \(commits == 1 ? "commit" : "commits") in 1 project"
    case (let commits, let projects): return "\(commits) commits across \(projects) projects"
    }
  }
}

/// One project's part of a day.
public struct ProjectFacts: Sendable, Equatable {
  public let name: String
  public let path: String
  /// A private project gives the model its counts, never its subjects.
  public let isPrivate: Bool
  /// Oldest first; those of one second in the order given: history order, as the reader gives them and the day
  /// record keeps them (a parent before its child).
  public let commits: [CommitRecord]

  public init(name: String, path: String, isPrivate: Bool, commits: [CommitRecord]) {
    self.name = name
    self.path = path
    self.isPrivate = isPrivate
    var isOrdered = true
    for index in commits.indices.dropFirst() where commits[index - 1].authoredAt > commits[index].authoredAt {
      isOrdered = false
      break
    }
    self.commits =
      isOrdered
      ? commits
      : commits.enumerated().sorted { ($0.element.authoredAt, $0.offset) < ($1.element.authoredAt, $1.offset) }
        .map(\.element)
  }

  public var commitCount: Int { commits.count }
  public var stats: DiffStats { commits.reduce(.zero) { $0 + $1.stats } }
  public var firstCommitAt: Int64? { commits.first?.authoredAt }
  /// The kinds of work of the project's commits (`WorkKind`).
  public var kinds: KindCounts { KindCounts(commits: commits) }
  public var lastCommitAt: Int64? { commits.last?.authoredAt }
}
