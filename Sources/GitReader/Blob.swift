import CLibgit2
import Support

/// A blob handle.
final class Blob {
  private let pointer: OpaquePointer

  /// Takes ownership of a blob libgit2 looked up (see `Repository.blob(_:)`).
  init(pointer: OpaquePointer) { self.pointer = pointer }

  deinit { git_blob_free(pointer) }

  /// The blob's bytes, valid while the blob lives.
  var content: UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(start: git_blob_rawcontent(pointer), count: Int(git_blob_rawsize(pointer)))
  }

  /// Lines added and deleted from this blob to `new`, from libgit2's xdiff (git's own algorithm).
  func lineChanges(to new: Blob) throws(GitError) -> (insertions: Int, deletions: Int) {
    var insertions = 0
    var deletions = 0
    try check(gitjournal_count_line_changes(pointer, new.pointer, &insertions, &deletions), "git_diff_blobs")
    return (insertions, deletions)
  }
}
