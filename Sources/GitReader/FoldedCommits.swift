/// One commit per copy key: a rebased or cherry-picked copy replaces the kept one when it was committed later
/// (ties: the smaller id), so the choice never depends on the order commits are met.
struct FoldedCommits {
  /// `isNew`: met by this walk rather than taken from the window cache, so its statistics are still to be read.
  private(set) var kept: [CommitRecord.CopyKey: (commit: WalkedCommit, isNew: Bool)] = [:]
  /// The tree and first parent of every commit the walk read, so that diffs need not read the commits again.
  var trees: [ObjectID: (tree: ObjectID, firstParent: ObjectID?)] = [:]

  /// What to diff for `id`: both trees when the walk saw the commit and its parent, else the commit alone.
  func diffTarget(of id: ObjectID) -> DiffTarget {
    guard let (tree, parent) = trees[id] else { return .commit(id) }
    guard let parent else { return .trees(new: tree, old: nil) }
    guard let parentTree = trees[parent]?.tree else { return .commit(id) }
    return .trees(new: tree, old: parentTree)
  }

  /// Sets the branch of each kept commit met by this walk that `names` names (see `BranchAttribution.names`).
  mutating func nameBranches(_ names: [ObjectID: String]) {
    guard !names.isEmpty else { return }
    // By index: a lookup by copy key would hash its email and subject again for every commit.
    for index in kept.values.indices where kept.values[index].isNew {
      if let name = names[kept.values[index].commit.record.id], !name.isEmpty {
        kept.values[index].commit.record.branch = name
      }
    }
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
