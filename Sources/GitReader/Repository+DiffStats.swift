import Support

extension Repository {
  /// `target` diffed against its first parent (or the empty tree for a root commit), each file's lines counted by
  /// git's xdiff. `filter`: files left out of the counts (`journal.excludePaths`); nil counts every file.
  func diffStats(of target: DiffTarget, excluding filter: PathFilter? = nil) throws(GitError) -> DiffStats {
    try diffPlan(of: target, excluding: filter).stats(in: self)
  }

  /// What `target`'s trees tell of its statistics, before any file's lines are counted (see `DiffPlan`).
  func diffPlan(of target: DiffTarget, excluding filter: PathFilter? = nil) throws(GitError) -> DiffPlan {
    switch target {
    case .commit(let id):
      let commit = try commit(id)
      let oldTree = try commit.parentID(0).map { parent throws(GitError) in try self.commit(parent).treeID }
      return try diffPlan(newTree: commit.treeID, oldTree: oldTree, excluding: filter)
    case .trees(let new, let old): return try diffPlan(newTree: new, oldTree: old, excluding: filter)
    }
  }

  /// The plan of a diff of `newID` against `oldID` (the empty tree when nil).
  ///
  /// libgit2's `git_diff_tree_to_tree` expands every subtree of both trees; like git's own tree diff, this
  /// descends only into subtrees whose ids differ.
  private func diffPlan(newTree newID: ObjectID, oldTree oldID: ObjectID?, excluding filter: PathFilter?)
    throws(GitError) -> DiffPlan
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
    return changes.plan()
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
