/// What one configured repository gave for a span: its commits, and whether it is bare (a mirror or a backup,
/// which yields a commit to a working repository that has it too).
package struct ScannedRepository: Sendable {
  package var isBare: Bool
  package var commits: [CommitRecord]

  package init(isBare: Bool, commits: [CommitRecord]) {
    self.isBare = isBare
    self.commits = commits
  }
}
