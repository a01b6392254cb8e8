import CLibgit2
import Support

/// A tree handle: its entries, in git's tree order, copied out one at a time.
final class Tree {
  private let pointer: OpaquePointer

  /// Takes ownership of a tree libgit2 looked up (see `Repository.tree(_:)`).
  init(pointer: OpaquePointer) { self.pointer = pointer }

  deinit { git_tree_free(pointer) }

  var count: Int { git_tree_entrycount(pointer) }

  /// The id and mode of the entry at `index` (which must be below `count`).
  func entry(_ index: Int) -> TreeEntry {
    let entry = git_tree_entry_byindex(pointer, index)
    return TreeEntry(id: ObjectID(git_tree_entry_id(entry).pointee), mode: git_tree_entry_filemode(entry).rawValue)
  }

  /// How the entry at `index` sorts against `other`'s entry at `otherIndex` in git's tree order (a folder sorts
  /// as if its name ended in `/`), compared inside libgit2 without copying either name.
  func compareEntry(_ index: Int, with other: Tree, at otherIndex: Int) -> Int32 {
    git_tree_entry_cmp(git_tree_entry_byindex(pointer, index), git_tree_entry_byindex(other.pointer, otherIndex))
  }
}
