import Support

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The files a commit added, deleted and modified, before line counting.
struct TreeChanges {
  var added: [TreeEntry] = []
  var deleted: [TreeEntry] = []
  var modified: [(old: TreeEntry, new: TreeEntry)] = []

  /// What the trees alone tell of the commit's statistics, and the files whose lines are still to be counted.
  func plan() -> DiffPlan {
    var plan = DiffPlan()
    // -M100%: a deleted and an added file with the same content are one exact rename, no lines; as in git, a
    // symbolic link or a submodule only to one of its own kind, a regular file whatever its executable bit.
    var deletedByContent: [RenameKey: Int] = [:]
    for entry in deleted { deletedByContent[RenameKey(entry), default: 0] += 1 }
    var renamed: [RenameKey: Int] = [:]
    for entry in added {
      plan.known.filesChanged += 1
      let key = RenameKey(entry)
      if let available = deletedByContent[key], available > 0 {
        deletedByContent[key] = available - 1
        renamed[key, default: 0] += 1
        continue
      }
      plan.insert(entry)
    }
    for entry in deleted {
      let key = RenameKey(entry)
      if let count = renamed[key], count > 0 {
        renamed[key] = count - 1
        continue
      }
      plan.known.filesChanged += 1
      plan.delete(entry)
    }
    for (old, new) in modified {
      plan.known.filesChanged += 1
      switch (old.isSubmodule, new.isSubmodule) {
      case (true, true):
        plan.known.insertions += 1
        plan.known.deletions += 1
      // A submodule and a file at one path: git counts the file's lines and the submodule's one, or nothing at all
      // when the file is binary (the pair is then binary).
      case (true, false): plan.work.append(.submoduleReplaced(by: new.id))
      case (false, true): plan.work.append(.replacedBySubmodule(old.id))
      case (false, false): if old.id != new.id { plan.work.append(.changes(old: old.id, new: new.id)) }
      }
    }
    return plan
  }

  /// What an added and a deleted entry share when git takes them for an exact rename: their content, and their
  /// kind (git's `find_identical_files`: modes must match unless both are regular files).
  private struct RenameKey: Hashable {
    let id: ObjectID
    let kind: UInt32

    init(_ entry: TreeEntry) {
      id = entry.id
      kind = entry.isRegularFile ? 0 : entry.mode
    }
  }

  /// Lines of a whole blob, 0 when git would call it binary: a NUL byte in its first 8000 bytes, the test
  /// git and libgit2's diff both use (`git_blob_is_binary` is stricter and would disagree with git log).
  static func lineCount(of id: ObjectID, in repository: Repository) throws(GitError) -> Int {
    try textLineCount(of: id, in: repository) ?? 0
  }

  /// Lines of a whole blob, nil when git would call it binary.
  static func textLineCount(of id: ObjectID, in repository: Repository) throws(GitError) -> Int? {
    let blob = try repository.blob(id)
    return withExtendedLifetime(blob) { isBinary(blob.bytes) ? nil : LineChanges.lineCount(of: blob.bytes) }
  }

  /// Insertions and deletions between two versions of a file, as git's xdiff counts them (none for a binary file).
  static func lineChanges(from old: ObjectID, to new: ObjectID, in repository: Repository)
    throws(GitError) -> (insertions: Int, deletions: Int)
  {
    let oldBlob = try repository.blob(old)
    let newBlob = try repository.blob(new)
    // The texts are the blobs' bytes: both blobs are kept until they are read.
    return try withExtendedLifetime((oldBlob, newBlob)) { () throws(GitError) -> (insertions: Int, deletions: Int) in
      let (before, after) = (oldBlob.bytes, newBlob.bytes)
      if isBinary(before) || isBinary(after) { return (0, 0) }
      return try LineChanges.counted(from: before, to: after)
    }
  }

  /// git's test: a NUL byte in the first 8000 bytes.
  static func isBinary(_ text: UnsafeRawBufferPointer) -> Bool {
    guard let start = text.baseAddress else { return false }
    return memchr(start, 0, min(text.count, 8000)) != nil
  }
}

/// A commit's line statistics as its trees tell them (files changed, exact renames, submodules), and the blobs
/// whose lines are still to be counted (`FileWork`). A rebuild makes every commit's plan first, then counts the
/// lines of all of them at once, in the order the pack stores the blobs (see `DiffPipeline`); a few commits are
/// counted at once (`stats(in:)`). Either way the sum is the same.
struct DiffPlan {
  var known = DiffStats()
  var work: [FileWork] = []

  /// A file that was added, or a submodule's one line.
  mutating func insert(_ entry: TreeEntry) {
    if entry.isSubmodule { known.insertions += 1 } else { work.append(.inserted(entry.id)) }
  }

  /// A file that was deleted, or a submodule's one line.
  mutating func delete(_ entry: TreeEntry) {
    if entry.isSubmodule { known.deletions += 1 } else { work.append(.deleted(entry.id)) }
  }

  /// The statistics, each file's lines counted here.
  func stats(in repository: Repository) throws(GitError) -> DiffStats {
    var stats = known
    for file in work { stats += try file.lineChanges(in: repository) }
    return stats
  }
}

/// One file's lines to count for a commit: a blob whose every line was inserted or deleted, or two versions to
/// diff. Equal work gives equal lines, whichever commit asks (a cherry-picked change is counted once).
enum FileWork: Hashable {
  case inserted(ObjectID)
  case deleted(ObjectID)
  case changes(old: ObjectID, new: ObjectID)
  /// A submodule replaced by the file `id` at the same path, and the other way round.
  case submoduleReplaced(by: ObjectID)
  case replacedBySubmodule(ObjectID)

  /// The lines, as insertions and deletions (files are counted by the plan).
  func lineChanges(in repository: Repository) throws(GitError) -> DiffStats {
    switch self {
    case .inserted(let id): return DiffStats(insertions: try TreeChanges.lineCount(of: id, in: repository))
    case .deleted(let id): return DiffStats(deletions: try TreeChanges.lineCount(of: id, in: repository))
    case .changes(let old, let new):
      let counted = try TreeChanges.lineChanges(from: old, to: new, in: repository)
      return DiffStats(insertions: counted.insertions, deletions: counted.deletions)
    case .submoduleReplaced(let id):
      guard let lines = try TreeChanges.textLineCount(of: id, in: repository) else { return DiffStats() }
      return DiffStats(insertions: lines, deletions: 1)
    case .replacedBySubmodule(let id):
      guard let lines = try TreeChanges.textLineCount(of: id, in: repository) else { return DiffStats() }
      return DiffStats(insertions: 1, deletions: lines)
    }
  }

  /// The blobs it reads.
  var blobs: (ObjectID, ObjectID?) {
    switch self {
    case .inserted(let id), .deleted(let id), .submoduleReplaced(let id), .replacedBySubmodule(let id): return (id, nil)
    case .changes(let old, let new): return (old, new)
    }
  }
}
