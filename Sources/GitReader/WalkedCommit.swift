/// A commit as a walk met it: the record the journal keeps, and its committer time, which decides which of a
/// commit's rebased or cherry-picked copies is kept (see `FoldedCommits`) and the order in which commits are
/// diffed.
struct WalkedCommit: Equatable {
  var record: CommitRecord
  /// Committer time in seconds since 1970.
  var committed: Int64
}
