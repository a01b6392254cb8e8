import CLibgit2
import Foundation
import Support

/// Lines and files a commit changed against its first parent, counted the way
/// `git log --shortstat -M100%` counts them: an exact rename is one file and no lines, a binary file is a
/// file with no lines.
public struct DiffStats: Hashable, Sendable {
  public var filesChanged: Int
  public var insertions: Int
  public var deletions: Int

  public init(filesChanged: Int = 0, insertions: Int = 0, deletions: Int = 0) {
    self.filesChanged = filesChanged
    self.insertions = insertions
    self.deletions = deletions
  }

  public static let zero = DiffStats()

  public static func + (lhs: DiffStats, rhs: DiffStats) -> DiffStats {
    DiffStats(
      filesChanged: lhs.filesChanged + rhs.filesChanged, insertions: lhs.insertions + rhs.insertions,
      deletions: lhs.deletions + rhs.deletions)
  }

  public static func += (lhs: inout DiffStats, rhs: DiffStats) { lhs = lhs + rhs }
}

/// A commit to diff against its first parent: by its trees when they are known, else by reading the commit.
enum DiffTarget {
  case commit(ObjectID)
  /// `old` nil: a root commit, diffed against the empty tree.
  case trees(new: ObjectID, old: ObjectID?)
}

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
    let oldCount = old.map { git_tree_entrycount($0.pointer) } ?? 0
    let newCount = new.map { git_tree_entrycount($0.pointer) } ?? 0
    var oldIndex = 0
    var newIndex = 0
    while oldIndex < oldCount || newIndex < newCount {
      let oldEntry = oldIndex < oldCount ? git_tree_entry_byindex(old!.pointer, oldIndex) : nil
      let newEntry = newIndex < newCount ? git_tree_entry_byindex(new!.pointer, newIndex) : nil
      let order: Int32
      if let oldEntry, let newEntry {
        order = git_tree_entry_cmp(oldEntry, newEntry)
      } else {
        order = oldEntry == nil ? 1 : -1
      }
      if order < 0 {
        try deleted(TreeEntry(oldEntry!), into: &changes)
        oldIndex += 1
      } else if order > 0 {
        try added(TreeEntry(newEntry!), into: &changes)
        newIndex += 1
      } else {
        let (before, after) = (TreeEntry(oldEntry!), TreeEntry(newEntry!))
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

  /// Insertions and deletions between two text blobs, from libgit2's xdiff (git's own algorithm).
  func diffLines(from old: Blob, to new: Blob) throws(GitError) -> (insertions: Int, deletions: Int) {
    var insertions = 0
    var deletions = 0
    try check(gitjournal_count_line_changes(old.pointer, new.pointer, &insertions, &deletions), "git_diff_blobs")
    return (insertions, deletions)
  }

  func tree(_ id: ObjectID) throws(GitError) -> Tree {
    try object(
      id, lookup: git_tree_lookup, "git_tree_lookup", wrap: Tree.init, size: { 64 * git_tree_entrycount($0.pointer) })
  }

  func blob(_ id: ObjectID) throws(GitError) -> Blob {
    try object(id, lookup: git_blob_lookup, "git_blob_lookup", wrap: Blob.init, size: { $0.content.count })
  }

  /// Looks `id` up with libgit2's `lookup`, through the worker's `RecentObjects` when it has one.
  private func object<T: AnyObject>(
    _ id: ObjectID, lookup: (UnsafeMutablePointer<OpaquePointer?>, OpaquePointer, UnsafePointer<git_oid>) -> Int32,
    _ name: String, wrap: (OpaquePointer) -> T, size: (T) -> Int
  ) throws(GitError) -> T {
    func load() throws(GitError) -> T {
      var handle: OpaquePointer?
      var raw = id.raw
      try check(lookup(&handle, pointer, &raw), name)
      return wrap(handle!)
    }
    guard let recentObjects else { return try load() }
    return try recentObjects.object(id, size: size, load: load)
  }
}

/// One entry of a tree, copied out of libgit2.
struct TreeEntry {
  let id: ObjectID
  let mode: UInt32

  var isTree: Bool { mode == GIT_FILEMODE_TREE.rawValue }
  /// A submodule: git shows its change as one line `Subproject commit <id>`.
  var isSubmodule: Bool { mode == GIT_FILEMODE_COMMIT.rawValue }

  init(_ entry: OpaquePointer) {
    id = ObjectID(git_tree_entry_id(entry).pointee)
    mode = git_tree_entry_filemode(entry).rawValue
  }
}

/// The files a commit added, deleted and modified, before line counting.
private struct TreeChanges {
  var added: [TreeEntry] = []
  var deleted: [TreeEntry] = []
  var modified: [(old: TreeEntry, new: TreeEntry)] = []

  func stats(in repository: Repository) throws(GitError) -> DiffStats {
    var stats = DiffStats()
    // -M100%: a deleted and an added file with the same content are one exact rename, no lines.
    var deletedByContent: [ObjectID: Int] = [:]
    for entry in deleted where !entry.isSubmodule { deletedByContent[entry.id, default: 0] += 1 }
    var renamed: [ObjectID: Int] = [:]
    for entry in added {
      if !entry.isSubmodule, let available = deletedByContent[entry.id], available > 0 {
        deletedByContent[entry.id] = available - 1
        renamed[entry.id, default: 0] += 1
        stats.filesChanged += 1
        continue
      }
      stats += DiffStats(filesChanged: 1, insertions: try Self.lineCount(of: entry, in: repository))
    }
    for entry in deleted {
      if let count = renamed[entry.id], count > 0 {
        renamed[entry.id] = count - 1
        continue
      }
      stats += DiffStats(filesChanged: 1, deletions: try Self.lineCount(of: entry, in: repository))
    }
    for change in modified {
      stats += try Self.lineChanges(from: change.old, to: change.new, in: repository)
    }
    return stats
  }

  /// Lines of a whole file, 0 when git would call it binary: a NUL byte in its first 8000 bytes, the test
  /// git and libgit2's diff both use (`git_blob_is_binary` is stricter and would disagree with git log).
  static func lineCount(of entry: TreeEntry, in repository: Repository) throws(GitError) -> Int {
    if entry.isSubmodule { return 1 }
    let blob = try repository.blob(entry.id)
    return isBinary(blob.content) ? 0 : LineChanges.lineCount(of: blob.content)
  }

  /// Insertions and deletions between two versions of a file, as git's xdiff counts them.
  static func lineChanges(from old: TreeEntry, to new: TreeEntry, in repository: Repository)
    throws(GitError) -> DiffStats
  {
    if old.isSubmodule || new.isSubmodule {
      return DiffStats(
        filesChanged: 1, insertions: new.isSubmodule ? 1 : try lineCount(of: new, in: repository),
        deletions: old.isSubmodule ? 1 : try lineCount(of: old, in: repository))
    }
    if old.id == new.id { return DiffStats(filesChanged: 1) }
    let oldBlob = try repository.blob(old.id)
    let newBlob = try repository.blob(new.id)
    let (before, after) = (oldBlob.content, newBlob.content)
    if isBinary(before) || isBinary(after) { return DiffStats(filesChanged: 1) }
    if let known = LineChanges.withoutDiffing(from: before, to: after) {
      return DiffStats(filesChanged: 1, insertions: known.insertions, deletions: known.deletions)
    }
    let counted = try repository.diffLines(from: oldBlob, to: newBlob)
    return DiffStats(filesChanged: 1, insertions: counted.insertions, deletions: counted.deletions)
  }

  /// git's test: a NUL byte in the first 8000 bytes.
  static func isBinary(_ text: UnsafeRawBufferPointer) -> Bool {
    guard let start = text.baseAddress else { return false }
    return memchr(start, 0, min(text.count, 8000)) != nil
  }
}

/// A blob handle.
final class Blob {
  let pointer: OpaquePointer

  init(pointer: OpaquePointer) { self.pointer = pointer }

  deinit { git_blob_free(pointer) }

  /// The blob's bytes, valid while the blob lives.
  var content: UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(start: git_blob_rawcontent(pointer), count: Int(git_blob_rawsize(pointer)))
  }
}
