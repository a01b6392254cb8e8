import Support

extension Repository {
  /// `filter`: files left out of the counts (`journal.excludePaths`); nil counts every file.
  func diffStats(of target: DiffTarget, excluding filter: PathFilter? = nil) throws(GitError) -> DiffStats {
    switch target {
    case .commit(let id): return try diffStats(of: commit(id), excluding: filter)
    case .trees(let new, let old): return try diffStats(newTree: new, oldTree: old, excluding: filter)
    }
  }

  /// Diffs `commit` against its first parent (or the empty tree for a root commit).
  ///
  /// libgit2's `git_diff_tree_to_tree` expands every subtree of both trees; like git's own tree diff, this
  /// descends only into subtrees whose ids differ, and asks libgit2 (git's xdiff) only for the line counts of
  /// the files that changed.
  func diffStats(of commit: Commit, excluding filter: PathFilter? = nil) throws(GitError) -> DiffStats {
    let oldTree = try commit.parentID(0).map { parent throws(GitError) in try self.commit(parent).treeID }
    return try diffStats(newTree: commit.treeID, oldTree: oldTree, excluding: filter)
  }

  func diffStats(newTree newID: ObjectID, oldTree oldID: ObjectID?, excluding filter: PathFilter? = nil)
    throws(GitError) -> DiffStats
  {
    recentObjects?.startDiff()
    let newTree = try tree(newID)
    let oldTree = try oldID.map { id throws(GitError) in try tree(id) }
    var changes = TreeChanges()
    if let filter {
      try collectChanges(from: oldTree, to: newTree, folder: "", excluding: filter, into: &changes)
    } else {
      try collectChanges(from: oldTree, to: newTree, into: &changes)
    }
    return try changes.stats(in: self)
  }

  /// Pairs both trees' entries by name (`Tree.pairEntries`) and descends only into subtrees that differ.
  private func collectChanges(from old: Tree?, to new: Tree?, into changes: inout TreeChanges) throws(GitError) {
    try Tree.pairEntries(old: old, new: new) { (before, after) throws(GitError) in
      switch (before, after) {
      case (let before?, nil): try deleted(before, into: &changes)
      case (nil, let after?): try added(after, into: &changes)
      case (let before?, let after?):
        if before.id == after.id && before.mode == after.mode { return }
        if before.isTree && after.isTree {
          try collectChanges(from: tree(before.id), to: tree(after.id), into: &changes)
        } else {
          changes.modified.append((old: before, new: after))
        }
      case (nil, nil): return
      }
    }
  }

  private func added(_ entry: TreeEntry, into changes: inout TreeChanges) throws(GitError) {
    if entry.isTree {
      try collectChanges(from: nil, to: tree(entry.id), into: &changes)
    } else {
      changes.added.append(entry)
    }
  }

  private func deleted(_ entry: TreeEntry, into changes: inout TreeChanges) throws(GitError) {
    if entry.isTree {
      try collectChanges(from: tree(entry.id), to: nil, into: &changes)
    } else {
      changes.deleted.append(entry)
    }
  }
}
