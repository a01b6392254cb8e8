/// What one configured repository gave for a span: its commits, and whether it is bare (a mirror or a backup,
/// which yields a commit to a working repository that has it too).
package struct ScannedRepository: Sendable {
  package var isBare: Bool
  package var commits: [CommitRecord]
  /// The common git directory: the same for all of a repository's worktrees.
  package var commonDirectory: String

  package init(isBare: Bool, commits: [CommitRecord], commonDirectory: String = "") {
    self.isBare = isBare
    self.commits = commits
    self.commonDirectory = commonDirectory
  }
}
