import CLibgit2
import Support

/// A tree handle: its entries, in git's tree order, copied out one at a time.
final class Tree {
  private let pointer: OpaquePointer

  /// Takes ownership of a tree libgit2 looked up (see `Repository.tree(_:)`).
  init(pointer: OpaquePointer) { self.pointer = pointer }

  deinit { git_tree_free(pointer) }

  var count: Int { git_tree_entrycount(pointer) }

  /// Walks the entries of two trees side by side and calls `body` with each name's entries: both when both
  /// trees have the name, else the one that has it. Both trees are sorted the way git sorts them (a folder as if
  /// its name ended in `/`), so one pass pairs them, comparing names inside libgit2 without copying any out.
  /// A file and a folder of the same name sort apart and come as a deletion and an addition.
  static func pairEntries(
    old: Tree?, new: Tree?, _ body: (_ old: TreeEntry?, _ new: TreeEntry?) throws(GitError) -> Void
  ) throws(GitError) {
    try pairRawEntries(old: old, new: new) { (oldEntry, newEntry) throws(GitError) in
      try body(entry(oldEntry), entry(newEntry))
    }
  }

  /// The one pass both pairings make: the raw entries of each name, nil on the side that lacks it. Inlined, so
  /// the plain diff pays for no second closure.
  @inline(__always)
  private static func pairRawEntries(
    old: Tree?, new: Tree?, _ body: (_ old: OpaquePointer?, _ new: OpaquePointer?) throws(GitError) -> Void
  ) throws(GitError) {
    let oldPointer = old?.pointer
    let newPointer = new?.pointer
    let oldCount = oldPointer.map { git_tree_entrycount($0) } ?? 0
    let newCount = newPointer.map { git_tree_entrycount($0) } ?? 0
    var oldIndex = 0
    var newIndex = 0
    try withExtendedLifetime((old, new)) { () throws(GitError) in
      while oldIndex < oldCount || newIndex < newCount {
        let oldEntry = oldIndex < oldCount ? git_tree_entry_byindex(oldPointer, oldIndex) : nil
        let newEntry = newIndex < newCount ? git_tree_entry_byindex(newPointer, newIndex) : nil
        let order: Int32
        if let oldEntry, let newEntry {
          order = git_tree_entry_cmp(oldEntry, newEntry)
        } else {
          order = oldEntry == nil ? 1 : -1
        }
        if order <= 0 { oldIndex += 1 }
        if order >= 0 { newIndex += 1 }
        try body(order <= 0 ? oldEntry : nil, order >= 0 ? newEntry : nil)
      }
    }
  }

  private static func entry(_ entry: OpaquePointer?) -> TreeEntry? {
    guard let entry else { return nil }
    return TreeEntry(id: ObjectID(git_tree_entry_id(entry).pointee), mode: git_tree_entry_filemode(entry).rawValue)
  }
}

extension Tree {
  /// `pairEntries` with each entry's name, for the diff that leaves paths out (`PathFilter`). A separate walk so
  /// that the plain diff, which runs on every commit, never copies a name out of libgit2.
  static func pairNamedEntries(
    old: Tree?, new: Tree?, _ body: (_ name: String, _ old: TreeEntry?, _ new: TreeEntry?) throws(GitError) -> Void
  ) throws(GitError) {
    try pairRawEntries(old: old, new: new) { (oldEntry, newEntry) throws(GitError) in
      try body(String(cString: git_tree_entry_name(oldEntry ?? newEntry)), entry(oldEntry), entry(newEntry))
    }
  }
}
