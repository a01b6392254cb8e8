import CLibgit2
import Support

/// Stable content hashes made with libgit2's object hashing, so signatures match `git hash-object`.
public enum ContentHash {
  /// The hex id git would give `text` stored as a blob.
  public static func hex(of text: String) -> String {
    LibGit2.ensureInitialized()
    var oid = git_oid()
    var bytes = Array(text.utf8)
    let code = bytes.withUnsafeMutableBytes { buffer in
      git_odb_hash(&oid, buffer.baseAddress, buffer.count, GIT_OBJECT_BLOB)
    }
    precondition(code == 0, "git_odb_hash cannot fail for an in-memory blob")
    return ObjectID(oid).hex
  }
}
