import CLibgit2

/// Lines and files a commit changed against its first parent, counted the way
/// `git log --shortstat -M100%` counts them: an exact rename is one file and no lines, a binary file is a
/// file with no lines.
public struct DiffStats: Hashable, Sendable, Codable {
  public var filesChanged: Int
  public var insertions: Int
  public var deletions: Int

  public init(filesChanged: Int = 0, insertions: Int = 0, deletions: Int = 0) {
    self.filesChanged = filesChanged
    self.insertions = insertions
    self.deletions = deletions
  }

  public static let zero = DiffStats()

  static func + (lhs: DiffStats, rhs: DiffStats) -> DiffStats {
    DiffStats(
      filesChanged: lhs.filesChanged + rhs.filesChanged, insertions: lhs.insertions + rhs.insertions,
      deletions: lhs.deletions + rhs.deletions)
  }
}

extension Repository {
  /// Diffs `commit` against its first parent (or the empty tree for a root commit).
  func diffStats(of commit: Commit) throws(GitError) -> DiffStats {
    let newTree = try commit.tree()
    var oldTree: Tree?
    if let parentID = commit.parentID(0) {
      oldTree = try self.commit(parentID).tree()
    }

    var options = git_diff_options()
    try check(git_diff_options_init(&options, UInt32(GIT_DIFF_OPTIONS_VERSION)), "git_diff_options_init")
    var diff: OpaquePointer?
    try check(
      git_diff_tree_to_tree(&diff, pointer, oldTree?.pointer, newTree.pointer, &options), "git_diff_tree_to_tree")
    defer { git_diff_free(diff) }

    var find = git_diff_find_options()
    try check(git_diff_find_options_init(&find, UInt32(GIT_DIFF_FIND_OPTIONS_VERSION)), "git_diff_find_options_init")
    find.flags = GIT_DIFF_FIND_RENAMES.rawValue | GIT_DIFF_FIND_EXACT_MATCH_ONLY.rawValue
    find.rename_threshold = 100
    try check(git_diff_find_similar(diff, &find), "git_diff_find_similar")

    var stats: OpaquePointer?
    try check(git_diff_get_stats(&stats, diff), "git_diff_get_stats")
    defer { git_diff_stats_free(stats) }
    return DiffStats(
      filesChanged: git_diff_stats_files_changed(stats),
      insertions: git_diff_stats_insertions(stats),
      deletions: git_diff_stats_deletions(stats))
  }
}
