/// A commit to diff against its first parent: by its trees when they are known, else by reading the commit.
enum DiffTarget {
  case commit(ObjectID)
  /// `old` nil: a root commit, diffed against the empty tree.
  case trees(new: ObjectID, old: ObjectID?)
}
