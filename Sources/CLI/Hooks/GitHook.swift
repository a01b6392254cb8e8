import Facts

/// The git hooks gitjournal installs.
public enum GitHook: String, CaseIterable, Sendable {
  /// After every commit, amend and cherry-pick, and once per commit a rebase picks.
  case postCommit = "post-commit"
  /// Once at the end of a rebase (and after an amend): refreshes the days the rebase rewrote.
  case postRewrite = "post-rewrite"
}
