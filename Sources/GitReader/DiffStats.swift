import Support

/// Lines and files a commit changed against its first parent, counted the way
/// `git log --shortstat -M100%` counts them: an exact rename is one file and no lines, a binary file is a
/// file with no lines.
public struct DiffStats: Hashable, Sendable {
  public var filesChanged: Int
  public var insertions: Int
  public var deletions: Int

  public init(filesChanged: Int = 0, insertions: Int = 0, deletions: Int = 0) {
    self.filesChanged = filesChanged
    self.insertions = insertions
    self.deletions = deletions
  }

  public static let zero = DiffStats()

  public static func + (lhs: DiffStats, rhs: DiffStats) -> DiffStats {
    DiffStats(
      filesChanged: lhs.filesChanged + rhs.filesChanged, insertions: lhs.insertions + rhs.insertions,
      deletions: lhs.deletions + rhs.deletions)
  }

  public static func += (lhs: inout DiffStats, rhs: DiffStats) { lhs = lhs + rhs }
}
