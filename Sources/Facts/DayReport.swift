import GitReader
import Support

/// The facts of a day as `gitjournal show --json` prints them: these keys and no others.
public struct DayReport: Codable, Equatable, Sendable {
  public var date: String
  public var commitCount: Int
  public var projectCount: Int
  public var insertions: Int
  public var deletions: Int
  public var filesChanged: Int
  public var factualLine: String
  public var narrative: String?
  public var signature: String
  /// The kinds of work of the day's commits, e.g. `{"fix": 2, "feature": 1}` (`WorkKind`).
  public var kinds: KindCounts
  public var projects: [Project]

  public struct Project: Codable, Equatable, Sendable {
    public var name: String
    public var path: String
    public var commitCount: Int
    public var insertions: Int
    public var deletions: Int
    public var filesChanged: Int
    public var firstCommitAt: String?
    public var lastCommitAt: String?
    public var kinds: KindCounts
    public var commits: [Commit]
  }

  public struct Commit: Codable, Equatable, Sendable {
    public var id: ObjectID
    public var authoredAt: String
    public var subject: String
    public var insertions: Int
    public var deletions: Int
    public var filesChanged: Int
    /// The local branch it was made on, null on the default branch or when not known (see `CommitRecord.branch`).
    public var branch: String?

    // `branch` is written as null when absent, not left out.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(id, forKey: .id)
      try container.encode(authoredAt, forKey: .authoredAt)
      try container.encode(subject, forKey: .subject)
      try container.encode(insertions, forKey: .insertions)
      try container.encode(deletions, forKey: .deletions)
      try container.encode(filesChanged, forKey: .filesChanged)
      try container.encode(branch, forKey: .branch)
    }
  }

  // `narrative` is written as null when absent, not left out.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(date, forKey: .date)
    try container.encode(commitCount, forKey: .commitCount)
    try container.encode(projectCount, forKey: .projectCount)
    try container.encode(insertions, forKey: .insertions)
    try container.encode(deletions, forKey: .deletions)
    try container.encode(filesChanged, forKey: .filesChanged)
    try container.encode(factualLine, forKey: .factualLine)
    try container.encode(narrative, forKey: .narrative)
    try container.encode(signature, forKey: .signature)
    try container.encode(kinds, forKey: .kinds)
    try container.encode(projects, forKey: .projects)
  }

  public init(facts: DayFacts, narrative: String?, calendar: JournalCalendar) {
    let stats = facts.stats
    date = facts.day.description
    commitCount = facts.commitCount
    projectCount = facts.projectCount
    insertions = stats.insertions
    deletions = stats.deletions
    filesChanged = stats.filesChanged
    factualLine = facts.summaryLine
    self.narrative = narrative
    signature = facts.signature(calendar: calendar)
    kinds = facts.kinds
    projects = facts.projects.map { project in
      let stats = project.stats
      return Project(
        name: project.name, path: project.path, commitCount: project.commitCount, insertions: stats.insertions,
        deletions: stats.deletions, filesChanged: stats.filesChanged,
        firstCommitAt: project.firstCommitAt.map(calendar.isoTimestamp),
        lastCommitAt: project.lastCommitAt.map(calendar.isoTimestamp), kinds: project.kinds,
        commits: project.commits.map { commit in
          Commit(
            id: commit.id, authoredAt: calendar.isoTimestamp(commit.authoredAt), subject: commit.subject,
            insertions: commit.stats.insertions, deletions: commit.stats.deletions,
            filesChanged: commit.stats.filesChanged, branch: commit.branch)
        })
    }
  }
}
