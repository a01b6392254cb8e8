import Support

extension Repository {
  func diffStats(of target: DiffTarget) throws(GitError) -> DiffStats {
    switch target {
    case .commit(let id): return try diffStats(of: commit(id))
    case .trees(let new, let old): return try diffStats(newTree: new, oldTree: old)
    }
  }

  /// Diffs `commit` against its first parent (or the empty tree for a root commit).
  ///
  /// libgit2's `git_diff_tree_to_tree` expands every subtree of both trees; like git's own tree diff, this
  /// descends only into subtrees whose ids differ, and asks libgit2 (git's xdiff) only for the line counts of
  /// the files that changed.
  func diffStats(of commit: Commit) throws(GitError) -> DiffStats {
    let oldTree = try commit.parentID(0).map { parent throws(GitError) in try self.commit(parent).treeID }
    return try diffStats(newTree: commit.treeID, oldTree: oldTree)
  }

  func diffStats(newTree newID: ObjectID, oldTree oldID: ObjectID?) throws(GitError) -> DiffStats {
    recentObjects?.startDiff()
    let newTree = try tree(newID)
    let oldTree = try oldID.map { id throws(GitError) in try tree(id) }
    var changes = TreeChanges()
    try collectChanges(from: oldTree, to: newTree, into: &changes)
    return try changes.stats(in: self)
  }

  /// Walks both trees' entries side by side: both are sorted the way git sorts trees, so one pass pairs the
  /// entries of the same name (a file and a folder of the same name sort apart and count as deleted and
  /// added), without copying any name out of libgit2.
  private func collectChanges(from old: Tree?, to new: Tree?, into changes: inout TreeChanges) throws(GitError) {
    let oldCount = old?.count ?? 0
    let newCount = new?.count ?? 0
    var oldIndex = 0
    var newIndex = 0
    while oldIndex < oldCount || newIndex < newCount {
      let order: Int32
      if let old, let new, oldIndex < oldCount, newIndex < newCount {
        order = old.compareEntry(oldIndex, with: new, at: newIndex)
      } else {
        order = oldIndex < oldCount ? -1 : 1
      }
      if order < 0, let old {
        try deleted(old.entry(oldIndex), into: &changes)
        oldIndex += 1
      } else if order > 0, let new {
        try added(new.entry(newIndex), into: &changes)
        newIndex += 1
      } else if let old, let new {
        let (before, after) = (old.entry(oldIndex), new.entry(newIndex))
        oldIndex += 1
        newIndex += 1
        if before.id == after.id && before.mode == after.mode { continue }
        if before.isTree && after.isTree {
          try collectChanges(from: tree(before.id), to: tree(after.id), into: &changes)
        } else {
          changes.modified.append((old: before, new: after))
        }
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
