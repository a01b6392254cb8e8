/// One commit per copy key: a rebased or cherry-picked copy replaces the kept one when it was committed later
/// (ties: the smaller id), so the choice never depends on the order commits are met.
struct FoldedCommits {
  /// `isNew`: met by this walk rather than taken from the window cache, so its statistics are still to be read.
  private(set) var kept: [CommitRecord.CopyKey: (commit: WalkedCommit, isNew: Bool)] = [:]
  /// The tree and first parent of every commit the walk read, so that diffs need not read the commits again.
  var trees: [ObjectID: (tree: ObjectID, firstParent: ObjectID?)] = [:]
  /// The branch each commit met by this walk was made on (see `BranchAttribution.names`), given to the kept ones
  /// as their statistics are.
  var branchNames: [ObjectID: String] = [:]

  /// What to diff for `id`: both trees when the walk saw the commit and its parent, else the commit alone.
  func diffTarget(of id: ObjectID) -> DiffTarget {
    guard let (tree, parent) = trees[id] else { return .commit(id) }
    guard let parent else { return .trees(new: tree, old: nil) }
    guard let parentTree = trees[parent]?.tree else { return .commit(id) }
    return .trees(new: tree, old: parentTree)
  }

  mutating func add(_ commit: WalkedCommit, isNew: Bool) {
    let key = commit.record.copyKey
    if let other = kept[key]?.commit,
      (other.committed, commit.record.id) >= (commit.committed, other.record.id)
    {
      return
    }
    kept[key] = (commit, isNew)
  }
}
