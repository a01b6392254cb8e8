import CLibgit2
import Support

/// One entry of a tree, copied out of libgit2.
struct TreeEntry {
  let id: ObjectID
  let mode: UInt32

  var isTree: Bool { mode == GIT_FILEMODE_TREE.rawValue }
  /// A submodule: git shows its change as one line `Subproject commit <id>`.
  var isSubmodule: Bool { mode == GIT_FILEMODE_COMMIT.rawValue }
  /// A file, executable or not (not a link, a folder or a submodule).
  var isRegularFile: Bool { mode & 0o170000 == 0o100000 }
}
