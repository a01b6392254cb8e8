import CLibgit2
import Support

extension Repository {
  /// The changes between two trees without the files `filter` excludes, as `git log -- . ':(exclude)<pattern>'`
  /// sees them: excluded files are dropped before exact renames are paired, so a file renamed out of an excluded
  /// folder counts as added. Kept apart from the plain diff, which never builds a path.
  func collectChanges(
    from old: Tree?, to new: Tree?, folder: String, excluding filter: PathFilter, into changes: inout TreeChanges
  ) throws(GitError) {
    try Tree.pairNamedEntries(old: old, new: new) { (name, before, after) throws(GitError) in
      let path = folder + name
      if let before, let after, before.id == after.id && before.mode == after.mode { return }
      let oldTree = try before.flatMap { entry throws(GitError) in entry.isTree ? try tree(entry.id) : nil }
      let newTree = try after.flatMap { entry throws(GitError) in entry.isTree ? try tree(entry.id) : nil }
      if oldTree != nil || newTree != nil {
        try collectChanges(from: oldTree, to: newTree, folder: path + "/", excluding: filter, into: &changes)
      }
      guard !filter.excludes(path) else { return }
      let oldFile = before.flatMap { $0.isTree ? nil : $0 }
      let newFile = after.flatMap { $0.isTree ? nil : $0 }
      switch (oldFile, newFile) {
      case (let oldFile?, let newFile?): changes.modified.append((old: oldFile, new: newFile))
      case (let oldFile?, nil): changes.deleted.append(oldFile)
      case (nil, let newFile?): changes.added.append(newFile)
      case (nil, nil): return
      }
    }
  }
}
