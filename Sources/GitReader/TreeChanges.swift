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
    return withExtendedLifetime(blob) { isBinary(blob.bytes) ? 0 : LineChanges.lineCount(of: blob.bytes) }
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
    // The texts are the blobs' bytes: both blobs are kept until they are read.
    return try withExtendedLifetime((oldBlob, newBlob)) { () throws(GitError) -> DiffStats in
      let (before, after) = (oldBlob.bytes, newBlob.bytes)
      if isBinary(before) || isBinary(after) { return DiffStats(filesChanged: 1) }
      let counted = try LineChanges.counted(from: before, to: after)
      return DiffStats(filesChanged: 1, insertions: counted.insertions, deletions: counted.deletions)
    }
  }

  /// git's test: a NUL byte in the first 8000 bytes.
  static func isBinary(_ text: UnsafeRawBufferPointer) -> Bool {
    guard let start = text.baseAddress else { return false }
    return memchr(start, 0, min(text.count, 8000)) != nil
  }
}
