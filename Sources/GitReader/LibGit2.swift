import CLibgit2
import CSystem
import Support

/// Process-wide libgit2 set-up. `git_libgit2_init` must precede every other call; it is reference counted,
/// so gitjournal calls it once and never shuts libgit2 down.
package enum LibGit2 {
  private static let initialized: Bool = {
    git_libgit2_init()
    // Objects are verified by git when written; re-hashing every object on each read costs about a quarter
    // of a stats pass and protects nothing a journal needs.
    _ = gitjournal_disable_strict_hash_verification()
    // A full-history rebuild reads every commit once (`HistoryWalk` walks each one once), and the trees and blobs
    // it reads twice are kept by `RecentObjects`: libgit2's cache of parsed objects keeps nothing read again. It
    // was capped at 1 MiB, and once full every new commit made libgit2 look through its table for entries to
    // drop (`bench/rebuild.sh` shows it); it is off. Pack files are mapped in 1 MiB windows, at most 6 MiB
    // at a time, instead of whole: mapped pages count as the process's memory. The diffs of a long run read the
    // packs themselves (`PackReader`); these windows serve the walk and what the reader leaves to libgit2. The
    // figures behind these sizes are in BENCHMARKS.md ("Full-history rebuild").
    _ = gitjournal_limit_memory(1 << 20, 6 << 20)
    // Blobs of a few megabytes come and go during a rebuild: bigger allocations go back as soon as they are freed.
    gitjournal_return_large_allocations(2 << 20)
    return true
  }()

  /// Points libgit2's global, XDG and system config files at `folder` for the rest of the process: a test suite's
  /// isolation from the config of whoever runs it (git itself is isolated by its HOME and `GIT_CONFIG_NOSYSTEM`).
  package static func readConfigFiles(in folder: String) {
    ensureInitialized()
    for level in [GIT_CONFIG_LEVEL_GLOBAL, GIT_CONFIG_LEVEL_XDG, GIT_CONFIG_LEVEL_SYSTEM, GIT_CONFIG_LEVEL_PROGRAMDATA]
    {
      _ = gitjournal_set_config_search_path(Int32(level.rawValue), folder)
    }
  }

  /// Initializes libgit2 on first use; cheap afterwards.
  package static func ensureInitialized() {
    _ = initialized
  }
}

extension LibGit2 {
  /// How this build reads git, for `gitjournal --version --verbose` and `doctor`: libgit2's version, whether it is
  /// linked in or loaded as a shared library, and how line changes are counted (Package.swift decides the first
  /// two from what the system has; `CLibgit2/shim.h` the third).
  package static var buildDescription: [String] {
    var major: Int32 = 0
    var minor: Int32 = 0
    var revision: Int32 = 0
    git_libgit2_version(&major, &minor, &revision)
    #if GITJOURNAL_STATIC_LIBGIT2
      let libgit2Link = "linked in from its static archives"
    #else
      let libgit2Link = "a shared library"
    #endif
    #if GITJOURNAL_STATIC_LIBDEFLATE
      let libdeflateLink = "linked in from its static archive"
    #else
      let libdeflateLink = "a shared library"
    #endif
    let lineCounter =
      gitjournal_counts_lines_through_xdiff() == 1
      ? "libgit2's xdiff, called directly (its 1.5 layout)" : "libgit2's public diff API"
    return [
      "libgit2 \(major).\(minor).\(revision): \(libgit2Link)",
      "libdeflate: \(libdeflateLink)",
      "line changes counted by \(lineCounter)",
    ]
  }
}
