/// What the journal keeps of one commit, copied out of libgit2.
public struct CommitRecord: Hashable, Sendable {
  public var id: ObjectID
  public var authorName: String
  /// The author's email after the mailmap.
  public var authorEmail: String
  /// Author time in seconds since 1970 (the time that decides the day).
  public var authoredAt: Int64
  /// The author's own UTC offset in minutes, as recorded in the commit.
  public var authorOffsetMinutes: Int
  public var subject: String
  public var isMerge: Bool
  public var stats: DiffStats
  /// The local branch the commit was made on (see `BranchAttribution`), as git spells it after `refs/heads/`;
  /// nil on the default branch, on a detached HEAD, or when no branch still shows where it was made.
  public var branch: String?

  public init(
    id: ObjectID, authorName: String, authorEmail: String, authoredAt: Int64, authorOffsetMinutes: Int,
    subject: String, isMerge: Bool, stats: DiffStats, branch: String? = nil
  ) {
    self.id = id
    self.authorName = authorName
    self.authorEmail = authorEmail
    self.authoredAt = authoredAt
    self.authorOffsetMinutes = authorOffsetMinutes
    self.subject = subject
    self.isMerge = isMerge
    self.stats = stats
    self.branch = branch
  }

  /// What a rebased or cherry-picked copy shares with its original.
  var copyKey: CopyKey { CopyKey(email: authorEmail.lowercased(), authoredAt: authoredAt, subject: subject) }

  struct CopyKey: Hashable {
    let email: String
    let authoredAt: Int64
    let subject: String
  }
}
