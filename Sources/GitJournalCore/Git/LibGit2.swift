import CLibgit2

/// Process-wide libgit2 set-up. `git_libgit2_init` must precede every other call; it is reference counted,
/// so gitjournal calls it once and never shuts libgit2 down.
enum LibGit2 {
  private static let initialized: Bool = {
    git_libgit2_init()
    // Objects are verified by git when written; re-hashing every object on each read costs about a quarter
    // of a stats pass and protects nothing a journal needs.
    _ = gitjournal_disable_strict_hash_verification()
    // A full-history rebuild touches every object once: a big cache buys little and costs memory.
    _ = gitjournal_limit_memory(16 << 20, 32 << 20)
    // A commit's diff reads the trees and blobs its parent's diff just read: keeping them saves inflating them
    // twice, which is most of what a rebuild spends outside xdiff.
    _ = gitjournal_cache_trees_and_blobs(256 << 10)
    return true
  }()

  /// Initializes libgit2 on first use; cheap afterwards.
  static func ensureInitialized() {
    _ = initialized
  }
}
